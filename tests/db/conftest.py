"""Fixtures for the persistence tests: real SQLite files in ``tmp_path``, a fixed clock."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest

from db import Database, GameRow

#: The tests' clock: every timestamp is this instant plus an explicit offset.
T0 = datetime(2025, 3, 14, 15, 9, 26, tzinfo=UTC)

NewGame = Callable[..., Awaitable[GameRow]]


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return sqlite_url(tmp_path / "gameroom.db")


@pytest.fixture
async def db(db_url: str) -> AsyncIterator[Database]:
    database = Database(db_url)
    await database.migrate()
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
def new_game(db: Database) -> NewGame:
    """Start a two-seat game (users 11 and 22) in ``channel_id``; keywords override."""

    async def start(
        channel_id: int = 500,
        *,
        user_ids: Sequence[int] = (11, 22),
        now: datetime = T0,
        database: Database | None = None,
        **overrides: object,
    ) -> GameRow:
        arguments: dict[str, object] = {
            "guild_id": 9,
            "channel_id": channel_id,
            "parent_channel_id": None,
            "game": "generatorb",
            "options_json": '{"size": 8}',
            "rules_version": "1",
            "seed": 2**63 - 1,
            "state_json": '{"ply": 0}',
            "ply": 0,
            "to_move": (0,),
            "user_ids": user_ids,
            "now": now,
        }
        arguments.update(overrides)
        return await (database or db).games.create(**arguments)  # type: ignore[arg-type]

    return start
