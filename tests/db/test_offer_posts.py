"""``OfferPostsRepo``: the post of a game's open draw offer (migration 0010), takeback
request (migration 0012) or claim notice (migration 0013), stored only while it is open,
taken once, gone with its game. SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

from sqlalchemy import delete

from db import Database
from db.schema import games
from tests.db.conftest import T0, NewGame


async def test_a_post_is_kept_while_its_offer_is_open_and_taken_once(
    db: Database, new_game: NewGame
) -> None:
    game = await new_game()
    posts = db.draw_offer_posts
    assert not await posts.remember(game.id, 500, 9001)  # no offer open: refused
    assert await posts.take(game.id) is None
    offered = await db.games.set_draw_offer(game.id, game.version, 0, T0)  # seat 0 offers
    assert await posts.remember(game.id, 500, 9001)
    assert await posts.remember(game.id, 500, 9002)  # a newer post replaces it
    assert await posts.take(game.id) == (500, 9002)
    assert await posts.take(game.id) is None  # retired once
    await db.games.set_draw_offer(game.id, offered.version, None, T0)  # the offer closes
    assert not await posts.remember(game.id, 500, 9003)
    assert await posts.take(game.id) is None


async def test_two_processes_taking_the_same_post_get_it_once(
    db_url: str, db: Database, new_game: NewGame
) -> None:
    game = await new_game()
    await db.games.set_draw_offer(game.id, game.version, 1, T0)
    assert await db.draw_offer_posts.remember(game.id, 500, 77)
    other = Database(db_url)  # a second process's pool on the same database
    try:
        taken = await asyncio.gather(
            db.draw_offer_posts.take(game.id), other.draw_offer_posts.take(game.id)
        )
    finally:
        await other.close()
    assert sorted(taken, key=lambda t: t is None) == [(500, 77), None]


async def test_a_post_goes_with_its_game(db: Database, new_game: NewGame) -> None:
    game = await new_game()
    await db.games.set_draw_offer(game.id, game.version, 0, T0)
    assert await db.draw_offer_posts.remember(game.id, 500, 77)
    async with db.engine.begin() as conn:
        await conn.execute(delete(games).where(games.c.id == game.id))
    assert await db.draw_offer_posts.take(game.id) is None


async def test_a_takeback_post_is_kept_while_the_request_is_open(
    db: Database, new_game: NewGame
) -> None:
    game = await new_game()
    posts = db.takeback_posts
    await db.games.set_draw_offer(game.id, game.version, 0, T0)  # a draw offer is not one
    assert not await posts.remember(game.id, 500, 9001)
    asked = await db.games.set_takeback(game.id, game.version + 1, 1, T0)
    assert await posts.remember(game.id, 500, 9002)
    assert await db.draw_offer_posts.take(game.id) is None  # each kind has its own table
    assert await posts.take(game.id) == (500, 9002)
    await db.games.set_takeback(game.id, asked.version, None, T0)
    assert not await posts.remember(game.id, 500, 9003)


async def test_a_claim_notice_is_kept_only_at_the_ply_it_was_posted_at(
    db: Database, new_game: NewGame
) -> None:
    """A soft clock's notice stands until a move is logged (the late player's, between the
    post and its store): then it is refused. Another change of the game's version (a draw
    offer) does not end it; an ended game keeps none."""
    game = await new_game()
    posts = db.claim_posts
    assert await posts.remember(game.id, 500, 9001, ply=game.ply)
    assert await posts.take(game.id) == (500, 9001)
    await db.games.set_draw_offer(game.id, game.version, 0, T0)  # a new version, same ply
    assert await posts.remember(game.id, 500, 9002, ply=game.ply)
    assert not await posts.remember(game.id, 500, 9003, ply=game.ply + 1)
    async with db.engine.begin() as conn:
        moved = games.update().where(games.c.id == game.id).values(ply=game.ply + 1)
        await conn.execute(moved)
    assert not await posts.remember(game.id, 500, 9004, ply=game.ply)
    async with db.engine.begin() as conn:
        await conn.execute(games.update().where(games.c.id == game.id).values(status="finished"))
    assert not await posts.remember(game.id, 500, 9005, ply=game.ply + 1)
    assert await posts.take(game.id) == (500, 9002)
