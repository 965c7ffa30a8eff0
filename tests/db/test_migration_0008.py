"""Migration 0008 and ``games.watchers``: the count of a game's watchers, kept with each watch
and unwatch, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from alembic import command
from sqlalchemy import Connection, text

from db import Database, GameRow, alembic_config
from tests.db.backends import raw_timestamp

NewGame = Callable[..., Awaitable[GameRow]]
T0 = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def _watched_games_at_0007(connection: Connection) -> None:
    command.upgrade(alembic_config(connection), "0007")
    stamp = raw_timestamp(connection, T0)
    for game_id in (1, 2):
        connection.execute(
            text(
                "INSERT INTO games (id, guild_id, channel_id, game, options, rules_version, seed,"
                " status, version, ply, to_move, state, created_at, updated_at) VALUES"
                " (:id, 9, :channel, 'generatorb', '{}', '1', 7, 'active', 1, 0, '0', '{}', :t, :t)"
            ),
            {"id": game_id, "channel": 500 + game_id, "t": stamp},
        )
    for user_id in (31, 32):  # game 1 has two watchers, game 2 none
        connection.execute(
            text("INSERT INTO watchers VALUES (1, :user, false, :t)"), {"user": user_id, "t": stamp}
        )


async def test_upgrade_counts_the_watchers_of_existing_games(db_url: str) -> None:
    async with Database(db_url) as db:
        async with db.engine.begin() as conn:
            await conn.run_sync(_watched_games_at_0007)
        await db.migrate()
        watched, alone = await db.games.get(1), await db.games.get(2)
        assert watched is not None
        assert alone is not None
        assert (watched.watchers, alone.watchers) == (2, 0)


async def test_watch_and_unwatch_keep_the_count(db: Database, new_game: NewGame) -> None:
    game = await new_game()

    async def count() -> int:
        row = await db.games.get(game.id)
        assert row is not None
        return row.watchers

    assert await count() == 0
    await db.watchers.watch(game.id, 31, every_move=False, now=T0)
    await db.watchers.watch(game.id, 31, every_move=True, now=T0)  # again: still one watcher
    await db.watchers.watch(game.id, 32, every_move=False, now=T0)
    assert await count() == 2
    assert await db.watchers.unwatch(game.id, 31)
    assert not await db.watchers.unwatch(game.id, 31)  # not watching any more: no change
    assert await count() == 1
    await db.ratings.forget_user(32, now=T0)
    assert await count() == 0
