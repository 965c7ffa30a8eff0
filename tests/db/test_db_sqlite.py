"""The SQLite set-up: WAL, busy timeout, foreign keys, BEGIN IMMEDIATE for writes.

SQLite only: ``db_url`` is pinned to a file here (the conftest's runs on both backends).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import insert, text
from sqlalchemy.exc import IntegrityError

from db import Database
from db.engine import SQLITE_BUSY_TIMEOUT_MS, Transactions
from db.schema import seats


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'gameroom.db'}"


def _file(db: Database) -> str:
    database = db.engine.url.database
    assert database is not None
    return database


async def test_pragmas_are_in_effect_on_every_connection(db: Database) -> None:
    transactions = Transactions(db.engine)
    # Two connections open at once, so the pool must hand out two DBAPI connections.
    async with transactions.read() as first, transactions.read() as second:
        raw_first = await first.get_raw_connection()
        raw_second = await second.get_raw_connection()
        assert raw_first.dbapi_connection is not raw_second.dbapi_connection
        for conn in (first, second):
            assert (await conn.execute(text("PRAGMA journal_mode"))).scalar() == "wal"
            timeout = (await conn.execute(text("PRAGMA busy_timeout"))).scalar()
            assert timeout == SQLITE_BUSY_TIMEOUT_MS == 5000
            assert (await conn.execute(text("PRAGMA foreign_keys"))).scalar() == 1


async def test_wal_is_persistent_in_the_file(db: Database) -> None:
    # Any process opening the file afterwards, even without our hooks, finds WAL mode.
    with sqlite3.connect(_file(db)) as plain:
        assert plain.execute("PRAGMA journal_mode").fetchone() == ("wal",)


async def test_foreign_keys_are_enforced(db: Database) -> None:
    with pytest.raises(IntegrityError, match="FOREIGN KEY"):
        async with db.engine.begin() as conn:
            await conn.execute(insert(seats).values(game_id=12345, seat=0, user_id=1))


async def test_a_write_transaction_takes_the_write_lock_at_begin(db: Database) -> None:
    transactions = Transactions(db.engine)
    other = sqlite3.connect(_file(db), timeout=0, isolation_level=None)
    try:
        async with transactions.write() as conn:
            # Only a read so far: with a deferred BEGIN no lock would be held yet.
            await conn.execute(text("SELECT 1 FROM games"))
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
        other.execute("BEGIN IMMEDIATE")  # released at commit
        other.execute("ROLLBACK")
    finally:
        other.close()


async def test_a_read_transaction_does_not_block_writers(db: Database) -> None:
    transactions = Transactions(db.engine)
    other = sqlite3.connect(_file(db), timeout=0, isolation_level=None)
    try:
        async with transactions.read() as conn:
            await conn.execute(text("SELECT 1 FROM games"))
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
    finally:
        other.close()


async def test_the_parent_directory_is_created(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "gameroom.db"
    database = Database(f"sqlite+aiosqlite:///{path}")
    try:
        assert path.parent.is_dir()
    finally:
        await database.close()


def test_postgresql_url_needs_no_sqlite_hooks() -> None:
    # Building the engine opens no connection, so this runs without a server.
    database = Database("postgresql+asyncpg://gameroom:secret@localhost/gameroom")
    assert database.engine.dialect.name == "postgresql"
    assert "secret" not in repr(database)
