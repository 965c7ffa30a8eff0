"""Fixtures for the persistence tests: every test on a real SQLite file *and* on PostgreSQL.

``db_url`` is parametrized over both backends (test ids end in ``[sqlite]`` / ``[postgresql]``):
a SQLite file in ``tmp_path``, or a fresh database on the session's PostgreSQL server
(``tests/pg``), skipped with the reason when PostgreSQL cannot start. A module pins one backend
by overriding ``db_url`` (see ``test_db_sqlite.py``). A fixed clock: ``T0``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest

from db import Database, GameRow
from tests.pg.fixtures import db_backend_url, pg_migrated_url, pg_server, pg_url

__all__ = ["db_backend_url", "pg_migrated_url", "pg_server", "pg_url"]

#: The tests' clock: every timestamp is this instant plus an explicit offset.
T0 = datetime(2025, 3, 14, 15, 9, 26, tzinfo=UTC)

NewGame = Callable[..., Awaitable[GameRow]]


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


@pytest.fixture
def db_url(db_backend_url: str) -> str:
    """An empty database: SQLite, then PostgreSQL (``db`` migrates it)."""
    return db_backend_url


def is_postgresql(url: str) -> bool:
    return url.startswith("postgresql")


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
