"""Migration 0007: one open rematch per game (a partial unique index on
``challenges.rematch_of``), on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

import pytest
from alembic import command
from sqlalchemy import Connection, inspect, text

from db import (
    ChallengeRow,
    Database,
    GameRow,
    RematchAlreadyOpenError,
    RematchAlreadyStartedError,
    alembic_config,
)
from db.schema import OPEN_REMATCH_INDEX
from tests.db.backends import index_where, raw_timestamp

NewGame = Callable[..., Awaitable[GameRow]]
T0 = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def _rematch_index(connection: Connection) -> dict[str, object] | None:
    for index in inspect(connection).get_indexes("challenges"):
        if index["name"] == OPEN_REMATCH_INDEX:
            return dict(index)
    return None


def _two_open_rematches_at_0006(connection: Connection) -> None:
    command.upgrade(alembic_config(connection), "0006")
    stamp = raw_timestamp(connection, T0)
    later = raw_timestamp(connection, T0 + timedelta(days=1))
    for challenge_id in (1, 2):  # the race already happened: game 7 has two open rematches
        connection.execute(
            text(
                "INSERT INTO challenges (id, channel_id, challenger_id, game, options, players,"
                " clock, rematch_of, status, version, created_at, expires_at, rated)"
                " VALUES (:id, 5, 11, 'generatorb', '{}', 2, 'none', 7, 'open', 1, :t, :e, true)"
            ),
            {"id": challenge_id, "t": stamp, "e": later},
        )


async def test_upgrade_keeps_the_newest_open_rematch_and_builds_the_index(db_url: str) -> None:
    async with Database(db_url) as db:
        async with db.engine.begin() as conn:
            await conn.run_sync(_two_open_rematches_at_0006)
        await db.migrate()
        async with db.engine.connect() as conn:
            index = await conn.run_sync(_rematch_index)
            statuses = (
                await conn.execute(text("SELECT id, status FROM challenges ORDER BY id"))
            ).all()
        assert index is not None
        assert index["unique"]
        assert index_where(index) == "status = 'open'"
        assert [tuple(row) for row in statuses] == [(1, "cancelled"), (2, "open")]

        def downgrade(connection: Connection) -> dict[str, object] | None:
            command.downgrade(alembic_config(connection), "0006")
            return _rematch_index(connection)

        async with db.engine.begin() as conn:
            assert await conn.run_sync(downgrade) is None


async def _rematch(db: Database, game: GameRow) -> ChallengeRow:
    """Open a rematch challenge of ``game`` (users 11 and 22)."""
    return await db.challenges.create(
        guild_id=None,
        channel_id=game.channel_id,
        challenger_id=11,
        invited_ids=[22],
        players=2,
        game="generatorb",
        options_json="{}",
        now=T0,
        expires_at=T0 + timedelta(days=1),
        rematch_of=game.id,
    )


async def test_a_second_open_rematch_of_a_game_is_refused(db: Database, new_game: NewGame) -> None:
    game = await new_game()
    first = await _rematch(db, game)
    with pytest.raises(RematchAlreadyOpenError):
        await _rematch(db, game)
    await db.challenges.resolve(first.id, new_status="cancelled", now=T0)
    assert await _rematch(db, game) is not None  # once the first is closed, a new one may open


async def test_a_rematch_after_the_rematch_started_is_refused_in_the_insert(
    db: Database, new_game: NewGame
) -> None:
    """The service checks for a started rematch before it writes, but another process may
    accept the open one between that check and the insert: the insert's own transaction
    checks again, so the game still gets one rematch. One whose game was aborted frees it."""
    game = await new_game()
    first = await _rematch(db, game)
    played = await new_game(channel_id=501, challenge_id=first.id)  # accepts `first`
    with pytest.raises(RematchAlreadyStartedError) as raised:
        await _rematch(db, game)
    assert (raised.value.game_id, raised.value.rematch_game_id) == (game.id, played.id)
    assert await db.challenges.open_rematch(game.id) is None  # nothing was written
    await db.games.finish(
        played.id,
        played.version,
        status="aborted",
        outcome_json=None,
        termination="aborted",
        now=T0,
    )
    again = await _rematch(db, game)
    assert again.rematch_of == game.id
