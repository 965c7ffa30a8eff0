"""SQLite through aiosqlite with one trip to the connection's thread per statement.

Why: an aiosqlite connection runs its ``sqlite3`` connection in a thread of its own, and
SQLAlchemy's adapter (``sqlalchemy.dialects.sqlite.aiosqlite``) sends it one call per DBAPI
step: make a cursor, execute, fetch the rows, close the cursor, each a trip through a queue to
the thread and a future back to the event loop. The profile of the bot under load
(``bench/load.py --profile``, docs/scale.md) showed those trips, and the event loop waiting for
the GIL after each hand-off, as the largest part of a move's cost.

What: :class:`OneTripCursor` does all of a statement's steps in one function that runs on the
connection's thread (``aiosqlite.Connection._execute``, the call every aiosqlite method is
built on) and keeps the rows, the description, the row count and the last row id on the event
loop side, as SQLAlchemy's asyncpg adapter keeps its rows. ``BEGIN``, ``COMMIT`` and
``ROLLBACK`` are one trip each, as before, and the pool's rollback of a connection it gets back
costs no trip when no transaction is open. Nothing else changes: the same URL
(``sqlite+aiosqlite``), the same dialect, the same ``sqlite3`` connection and pragmas
(db/engine.py); server-side cursors (which nothing here uses) keep aiosqlite's own.

This leans on one private name of aiosqlite, ``Connection._execute(fn, *args)`` (queue
``fn(*args)`` for the connection's thread, await its result), as SQLAlchemy's own adapter
leans on ``Connection._tx`` and ``_conn``; ``pyproject.toml`` pins aiosqlite below 0.23 and
``tests/db/test_sqlite_driver.py`` checks the contract, so an upgrade that changes it fails the
tests rather than the bot.
"""

from __future__ import annotations

import collections
import sqlite3
from typing import Any

import aiosqlite
from sqlalchemy.connectors.asyncio import AsyncAdapt_dbapi_connection
from sqlalchemy.dialects.sqlite.aiosqlite import (
    AsyncAdapt_aiosqlite_connection,
    AsyncAdapt_aiosqlite_cursor,
    AsyncAdapt_aiosqlite_dbapi,
)
from sqlalchemy.util import EMPTY_DICT
from sqlalchemy.util.concurrency import await_

__all__ = ["OneTripCursor", "one_trip_dbapi"]

# description, rowcount, lastrowid, rows: what a statement leaves on a PEP 249 cursor.
_Outcome = tuple[Any, int, "int | None", list[Any]]


def _run(connection: aiosqlite.Connection, operation: str, parameters: Any, many: bool) -> _Outcome:
    """On the connection's thread: execute ``operation`` (``executemany`` over ``parameters``
    when ``many``), fetch every row, close the cursor."""
    cursor = connection._conn.cursor()
    try:
        if many:
            cursor.executemany(operation, parameters)
        else:
            cursor.execute(operation, () if parameters is None else parameters)
        rows = cursor.fetchall() if cursor.description else []
        return cursor.description, cursor.rowcount, cursor.lastrowid, rows
    finally:
        cursor.close()


class OneTripCursor(AsyncAdapt_aiosqlite_cursor):
    """A PEP 249 cursor whose ``execute`` is one trip to the aiosqlite thread.

    The rows are fetched in that trip and served from memory (``fetchone``/``fetchmany``/
    ``fetchall``), as SQLAlchemy's async adapters do for every buffered cursor. Errors are the
    ``sqlite3`` exceptions, mapped by the connection adapter exactly as for aiosqlite's cursor.
    """

    __slots__ = ("_description", "_lastrowid", "_rowcount")

    # Closing holds nothing on the thread: there is no cursor there between statements.
    _awaitable_cursor_close = False

    def __init__(self, adapt_connection: AsyncAdapt_dbapi_connection) -> None:
        # Deliberately not the base __init__: it makes an aiosqlite cursor (a trip).
        self._adapt_connection = adapt_connection
        self._connection = adapt_connection._connection
        self._soft_closed_memoized = EMPTY_DICT
        self._rows = collections.deque()
        self._description: Any = None
        self._rowcount = -1
        self._lastrowid: int | None = None

    @property
    def description(self) -> Any:
        return self._description

    @property
    def rowcount(self) -> int:
        return self._rowcount

    @property
    def lastrowid(self) -> Any:
        return self._lastrowid

    @property
    def arraysize(self) -> int:
        return 1

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        return None

    def _trip(self, operation: Any, parameters: Any, many: bool) -> None:
        """One trip to the thread (:func:`_run`); keeps what the statement left."""
        try:
            outcome = await_(
                self._connection._execute(_run, self._connection, operation, parameters, many)
            )
        except Exception as error:
            self._adapt_connection._handle_exception(error)
        self._description, self._rowcount, self._lastrowid, rows = outcome
        self._rows = collections.deque(rows)

    def execute(self, operation: Any, parameters: Any = None) -> Any:
        self._trip(operation, parameters, many=False)

    def executemany(self, operation: Any, seq_of_parameters: Any) -> Any:
        self._trip(operation, seq_of_parameters, many=True)

    async def _async_soft_close(self) -> None:
        return None

    def close(self) -> None:
        self._rows.clear()

    def nextset(self) -> None:
        raise NotImplementedError("SQLite has one result set per statement")

    def setinputsizes(self, *inputsizes: Any) -> None:
        return None


class _OneTripConnection(AsyncAdapt_aiosqlite_connection):
    __slots__ = ()
    _cursor_cls = OneTripCursor

    def rollback(self) -> None:
        """Roll back, with no trip when no transaction is open.

        The pool rolls back every connection it gets back (``reset_on_return``), after the
        transaction already committed or rolled back: that was a trip per transaction for
        nothing. ``sqlite3.Connection.in_transaction`` (SQLite's ``sqlite3_get_autocommit``)
        may be read here, on the event loop, because nothing else runs on the connection's
        thread while its one user waits for this call.
        """
        connection = self._connection._connection
        if connection is not None and not connection.in_transaction:
            return
        super().rollback()


class _OneTripDbapi(AsyncAdapt_aiosqlite_dbapi):
    def connect(self, *arg: Any, **kw: Any) -> _OneTripConnection:
        adapted = super().connect(*arg, **kw)
        return _OneTripConnection(self, adapted._connection)


def one_trip_dbapi() -> AsyncAdapt_aiosqlite_dbapi:
    """The DBAPI module to pass as ``create_async_engine(url, module=...)`` for a
    ``sqlite+aiosqlite`` URL: SQLAlchemy's aiosqlite adapter with :class:`OneTripCursor`."""
    return _OneTripDbapi(aiosqlite, sqlite3)
