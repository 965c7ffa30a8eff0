"""The SQLite adapter that runs each statement in one trip to aiosqlite's thread
(db/sqlite_driver.py): the same results as SQLAlchemy's own adapter, in fewer trips.

SQLite only: ``db_url`` is pinned to a file here (the conftest's runs on both backends).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from db import Database
from db.engine import Transactions
from db.sqlite_driver import OneTripCursor


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'gameroom.db'}"


@pytest.fixture
def trips(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the functions sent to aiosqlite's connection threads, in order."""
    sent: list[str] = []
    original: Callable[..., Awaitable[Any]] = aiosqlite.Connection._execute  # unannotated

    async def counting(self: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
        sent.append(getattr(fn, "__name__", repr(fn)))
        return await original(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counting)
    return sent


async def test_the_engine_uses_the_one_trip_cursor(db: Database) -> None:
    async with Transactions(db.engine).read() as conn:
        raw = await conn.get_raw_connection()
        assert isinstance(raw.dbapi_connection.cursor(), OneTripCursor)  # type: ignore[union-attr]


async def test_a_select_is_one_trip_and_a_write_transaction_three(
    db: Database, trips: list[str]
) -> None:
    transactions = Transactions(db.engine)
    async with transactions.write() as conn:
        await conn.execute(text("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)"))
    trips.clear()
    async with transactions.write() as conn:  # BEGIN IMMEDIATE, INSERT, COMMIT
        await conn.execute(text("INSERT INTO t (v) VALUES ('a')"))
    assert trips == ["_run", "_run", "commit"]
    trips.clear()
    async with transactions.read() as conn:  # BEGIN, SELECT, ROLLBACK
        assert (await conn.execute(text("SELECT v FROM t"))).scalars().all() == ["a"]
    assert trips == ["_run", "_run", "rollback"]


async def test_a_failed_write_still_rolls_back(db: Database, trips: list[str]) -> None:
    transactions = Transactions(db.engine)

    async def fail_midway() -> None:
        async with transactions.write() as conn:
            await conn.execute(text("CREATE TABLE t (k INTEGER PRIMARY KEY)"))
            raise ZeroDivisionError

    with pytest.raises(ZeroDivisionError):
        await fail_midway()
    assert trips[-1] == "rollback"
    async with transactions.read() as conn:
        tables = await conn.execute(text("SELECT name FROM sqlite_master WHERE name = 't'"))
        assert tables.first() is None


async def test_rows_rowcount_lastrowid_and_executemany_are_as_a_dbapi_cursor_has_them(
    db: Database,
) -> None:
    async with Transactions(db.engine).write() as conn:
        await conn.execute(text("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)"))
        # A list of parameter sets is an executemany.
        await conn.execute(text("INSERT INTO t (v) VALUES (:v)"), [{"v": "a"}, {"v": "b"}])
        inserted = await conn.execute(text("INSERT INTO t (v) VALUES ('c')"))
        assert inserted.lastrowid == 3
        updated = await conn.execute(text("UPDATE t SET v = v || '!' WHERE k < 3"))
        assert updated.rowcount == 2
        result = await conn.execute(text("SELECT k, v FROM t ORDER BY k"))
        assert list(result.keys()) == ["k", "v"]
        assert result.fetchone() == (1, "a!")
        assert result.fetchall() == [(2, "b!"), (3, "c")]
        none = await conn.execute(text("SELECT v FROM t WHERE k = 99"))
        assert none.first() is None


async def test_an_error_is_sqlalchemys_and_the_transaction_rolls_back(db: Database) -> None:
    transactions = Transactions(db.engine)
    async with transactions.write() as conn:
        await conn.execute(text("CREATE TABLE t (k INTEGER PRIMARY KEY)"))
        await conn.execute(text("INSERT INTO t VALUES (1)"))

    async def insert_twice() -> None:
        async with transactions.write() as conn:
            await conn.execute(text("INSERT INTO t VALUES (2)"))
            await conn.execute(text("INSERT INTO t VALUES (1)"))

    with pytest.raises(IntegrityError):
        await insert_twice()
    async with transactions.read() as conn:
        assert (await conn.execute(text("SELECT k FROM t"))).scalars().all() == [1]
