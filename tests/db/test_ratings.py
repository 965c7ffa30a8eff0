"""db/ratings.py on SQLite and PostgreSQL: the hook in the write that ends a game, the
challenge's rated option copied to its game, leaderboards, the rebuild's reads and
forgetting a user."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from db import Database
from db.ratings import StillPlayingError
from db.rows import GameRow, NewMove, RatingChangeRow, RatingHook, RatingRow
from db.schema import games, ratings

T0 = datetime(2025, 3, 14, 15, 9, 26, tzinfo=UTC)
NewGame = Callable[..., Awaitable[GameRow]]


def _update(game_id: int):  # type: ignore[no-untyped-def]
    def update(current):  # type: ignore[no-untyped-def]
        rows, changes = [], []
        for _seat, (user, delta) in enumerate(((11, 1.0), (22, -1.0))):
            old = current.get(user)
            mu = (old.mu if old else 25.0) + delta
            games = (old.games if old else 0) + 1
            rows.append(
                RatingRow(user, "generatorb", mu, 6.0, 1000 + mu, games, 0, 0, 0, game_id, T0)
            )
            changes.append(
                RatingChangeRow(
                    game_id,
                    user,
                    "generatorb",
                    9,
                    0 if delta > 0 else 1,
                    0 if delta > 0 else 1,
                    "win" if delta > 0 else "loss",
                    mu - delta,
                    6.0,
                    mu,
                    6.0,
                    1000 + mu - delta,
                    1000 + mu,
                    T0,
                )
            )
        return rows, changes

    return update


async def test_a_finishing_write_applies_the_hook_once(db: Database, new_game: NewGame) -> None:
    for channel in (1, 2):
        game = await new_game(channel)
        hook = RatingHook("generatorb", (11, 22), _update(game.id))
        await db.games.commit_moves(
            game.id,
            game.version,
            moves=[NewMove(1, 0, "a1-a2", "[]")],
            state_json="{}",
            ply=1,
            to_move=(),
            status="finished",
            outcome_json="{}",
            termination="x",
            now=T0,
            rating=hook,
        )
        assert len(hook.written) == 2
        # A second write at the same version is refused before the hook runs.
        late = RatingHook("generatorb", (11, 22), _update(game.id))
        with pytest.raises(Exception, match=r"version|active"):
            await db.games.finish(
                game.id,
                game.version,
                status="finished",
                outcome_json="{}",
                termination="x",
                now=T0,
                rating=late,
            )
        assert late.written == ()
    row = await db.ratings.get(11, "generatorb")
    assert row is not None
    assert row.games == 2
    assert row.mu == 27.0
    assert len(await db.ratings.history(11, "generatorb")) == 2
    best = await db.ratings.best_win(11, "generatorb")
    assert best is not None
    assert best.user_id == 22
    rated = [g async for g in db.ratings.rated_games()]
    assert [g.user_ids for g in rated] == [(11, 22), (11, 22)]


async def test_the_rebuild_counts_a_logged_resignation_as_no_ply(
    db: Database, new_game: NewGame
) -> None:
    """``seat_plies`` counts the plies seats chose: not chance rows, nor ``[k]resign`` (the
    service counts the same way, ``GameCore._rating_hook``). SQLite and PostgreSQL."""
    game = await new_game(1)
    moves = [
        NewMove(1, None, "roll:G", "[]"),
        NewMove(2, 0, "a1-a2", "[]"),
        NewMove(3, 1, "[1]resign", "[]"),
    ]
    await db.games.commit_moves(
        game.id,
        game.version,
        moves=moves,
        state_json="{}",
        ply=3,
        to_move=(),
        status="finished",
        outcome_json="{}",
        termination="x",
        now=T0,
        rating=RatingHook("generatorb", (11, 22), _update(game.id)),
    )
    (rated,) = [g async for g in db.ratings.rated_games()]
    assert rated.seat_plies == 1


async def test_leaderboard_is_gated_and_scoped(db: Database, new_game: NewGame) -> None:
    game = await new_game()
    rows = [
        RatingRow(u, "generatorb", 25.0, 3.0, 1500.0 + u, 10, 5, 0, 5, game.id, T0)
        for u in range(1, 31)
    ] + [
        RatingRow(
            99, "generatorb", 25.0, 3.0, 9999.0, 10, 5, 0, 5, game.id, T0 - timedelta(days=90)
        )
    ]
    changes = [
        RatingChangeRow(game.id, 30, "generatorb", 9, 0, 0, "win", 25, 3, 25, 3, 1500, 1530, T0)
    ]
    await db.ratings.replace_all(rows, changes)
    gate = {"min_games": 5, "max_sigma": 6.2, "active_since": T0 - timedelta(days=30)}
    top = await db.ratings.leaderboard("generatorb", limit=10, **gate)  # type: ignore[arg-type]
    assert [r.user_id for r in top] == list(range(30, 20, -1))
    assert await db.ratings.place(rows[9], **gate) == 21  # type: ignore[arg-type]
    server = await db.ratings.leaderboard("generatorb", guild_id=9, **gate)  # type: ignore[arg-type]
    assert [r.user_id for r in server] == [30]
    await db.ratings.set_hidden(30, True, now=T0)
    hidden = await db.ratings.leaderboard("generatorb", hide_private=True, limit=1, **gate)  # type: ignore[arg-type]
    assert [r.user_id for r in hidden] == [29]


async def test_rated_option_and_forgetting(db: Database, new_game: NewGame) -> None:
    challenge = await db.challenges.create(
        guild_id=9,
        channel_id=7,
        challenger_id=11,
        invited_ids=[22],
        players=2,
        game="generatorb",
        options_json="{}",
        now=T0,
        expires_at=T0 + timedelta(days=1),
        rated=False,
    )
    game = await new_game(7, challenge_id=challenge.id)
    assert game.rated is False
    assert (await new_game(8)).rated is True
    with pytest.raises(StillPlayingError):
        await db.ratings.forget_user(11, now=T0)
    for g in (game.id, game.id + 1):
        row = await db.games.get(g)
        assert row is not None
        await db.games.finish(
            g, row.version, status="aborted", outcome_json=None, termination=None, now=T0
        )
    first = await db.ratings.forget_user(11, now=T0)
    second = await db.ratings.forget_user(22, now=T0)
    assert first == -(10**12) - 1
    assert second == first - 1
    assert [s.user_id for s in await db.games.seats(game.id)] == [first, second]


async def test_two_endings_at_once_both_rate_a_newcomer(db: Database, new_game: NewGame) -> None:
    # Both games end at the same moment and both rate users 11 and 22 for the first time: on
    # PostgreSQL FOR UPDATE locks no missing row, so without a per-rating lock both endings
    # would insert and the second fail on the key. Both must land, one after the other.
    first, second = await new_game(1), await new_game(2)

    async def end(game: GameRow) -> RatingHook:
        hook = RatingHook("generatorb", (11, 22), _update(game.id))
        await db.games.finish(
            game.id,
            game.version,
            status="finished",
            outcome_json="{}",
            termination="x",
            now=T0,
            rating=hook,
        )
        return hook

    hooks = await asyncio.gather(end(first), end(second))
    assert [len(hook.written) for hook in hooks] == [2, 2]
    row = await db.ratings.get(11, "generatorb")
    assert row is not None
    assert row.games == 2  # the second ending read the first one's row
    # ... and its stamp (migration 0009): the game applied last comes last in a rebuild.
    stamps, seq = await rating_stamps(db, [first.id, second.id], 11, "generatorb")
    assert set(stamps.values()) == {1, 2}
    assert stamps[row.last_game_id] == 2 == seq


async def rating_stamps(
    db: Database, game_ids: Sequence[int], user_id: int, game: str
) -> tuple[dict[int, int | None], int]:
    """``games.rating_seq`` of ``game_ids`` and ``ratings.seq`` of ``user_id`` in ``game``
    (migration 0009), read straight from the tables."""
    async with db.engine.connect() as conn:
        found = await conn.execute(
            select(games.c.id, games.c.rating_seq).where(games.c.id.in_(list(game_ids)))
        )
        stamps = {int(game_id): stamp for game_id, stamp in found}
        seq = await conn.execute(
            select(ratings.c.seq).where(ratings.c.user_id == user_id, ratings.c.game == game)
        )
        return stamps, int(seq.scalar_one())
