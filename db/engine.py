"""Engine creation and transactions: the only place that knows which database is behind a URL.

SQLite (the default, ``sqlite+aiosqlite:///data/gameroom.db``) gets, on every new connection:

* ``PRAGMA busy_timeout = 5000``: a writer waits up to 5 s for another writer (another
  connection or process) instead of failing at once with "database is locked";
* ``PRAGMA foreign_keys = ON``: SQLite ignores foreign keys otherwise;
* ``PRAGMA journal_mode = WAL``: readers never block the writer and vice versa;
* ``PRAGMA synchronous = NORMAL``: in WAL mode a commit is written to the WAL before it
  returns and fsynced at checkpoints, not on every commit. A confirmed move survives the
  process being killed (``kill -9``: the written WAL is in the operating system's hands);
  only a power loss or an operating-system crash may roll back the last commits. This is
  SQLite's documented setting for WAL, and halves the cost of a move's commit (measured with
  ``bench/turn.py``: docs/scale.md); ``FULL`` would fsync every move;

and the pysqlite/aiosqlite driver's own transaction handling is switched off
(``isolation_level = None``) so that SQLAlchemy's ``begin`` event emits the ``BEGIN`` itself:
``BEGIN IMMEDIATE`` for a write transaction, taking the write lock up front so that two
writers queue on ``busy_timeout`` rather than deadlock on a lock upgrade, and a plain
(deferred) ``BEGIN`` for a read, which sees one consistent snapshot. This is the workaround
SQLAlchemy documents under "Serializable isolation / Savepoints / Transactional DDL"; it also
makes DDL transactional, so a migration is all-or-nothing.

SQLite statements go through :mod:`db.sqlite_driver`: SQLAlchemy's aiosqlite adapter with a
cursor that executes, fetches and closes in one trip to the connection's thread.

PostgreSQL (``postgresql+asyncpg://...``) needs no hook. Writes run at its default READ
COMMITTED isolation, which re-checks an ``UPDATE ... WHERE version = :expected`` after a
concurrent commit: that is what the repositories' compare-and-set relies on. Where a write
reads before it writes (settings, a timer's key) the repositories lock the row
(``FOR UPDATE``, a no-op on SQLite where ``BEGIN IMMEDIATE`` already serialises writers) or use
``INSERT ... ON CONFLICT`` (:func:`dialect_insert`), so two processes never lose an update or
fail on a duplicate key. Reads run as ``REPEATABLE READ READ ONLY`` transactions, so a read of
several statements (a challenge and its lobby) sees one snapshot, as on SQLite; asyncpg puts
both in the ``BEGIN`` itself, so this costs no round trip.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final

from sqlalchemy import URL, Connection, Engine, Table, event, make_url
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from db.sqlite_driver import one_trip_dbapi

__all__ = [
    "DEFAULT_URL",
    "POOL",
    "SQLITE_BUSY_TIMEOUT_MS",
    "SQLITE_POOL",
    "SUPPORTED_DRIVERS",
    "Transactions",
    "create_engine",
    "dialect_insert",
    "insert_for",
    "shown_url",
    "url_problem",
]

#: Where the bot keeps its data unless configured otherwise (relative to the working directory).
DEFAULT_URL: Final = "sqlite+aiosqlite:///data/gameroom.db"

#: How long (milliseconds) a SQLite connection waits for another writer before failing.
SQLITE_BUSY_TIMEOUT_MS: Final = 5000

#: The connection pool of one bot process on PostgreSQL. SQLAlchemy's default (5 kept, 10
#: more opened and closed again as needed) opened and closed connections all the time under
#: load (about 140 PostgreSQL sessions in a 150-move load bench with 30 games at once, each a
#: new server process): a busy bot has as many transactions in flight as games moving at
#: once. 20 are kept; 20 more may open at a peak.
POOL: Final[dict[str, int]] = {"pool_size": 20, "max_overflow": 20}

#: The pool on a SQLite file: four connections, no more. SQLite has one writer at a time (and
#: this process's writers queue before taking a connection, see :class:`Transactions`), and
#: each aiosqlite connection is a thread of its own: with 20 the threads fought the event
#: loop for the GIL (the load bench, 30 games: 73 turns/s with 20, 78-85 with 4, 83 with 2,
#: 72 with 8; docs/scale.md). A transaction waits for a free connection (FIFO) instead.
SQLITE_POOL: Final[dict[str, int]] = {"pool_size": 4, "max_overflow": 0}

# Execution option marking connections that only read; see Transactions.read().
_READ_ONLY: Final = "gameroom_read_only"


#: The database URLs the bot runs on: SQLite through aiosqlite, PostgreSQL through asyncpg
#: (the ``postgres`` extra). Other drivers are not async or not tested.
SUPPORTED_DRIVERS: Final = ("sqlite+aiosqlite", "postgresql+asyncpg")


def url_problem(url: str) -> str | None:
    """What is wrong with ``url`` as the bot's database URL, in words, or ``None``: not a
    SQLAlchemy URL, or a driver other than :data:`SUPPORTED_DRIVERS`. Nothing is opened (a
    server that is down is found when the bot connects)."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):  # ValueError: a port that is not a number
        return "is not a database URL"
    if parsed.drivername not in SUPPORTED_DRIVERS:
        drivers = " or ".join(f"{d}://…" for d in SUPPORTED_DRIVERS)
        return f"must start with {drivers}, not {parsed.drivername}://"
    return None


def shown_url(url: str) -> str:
    """``url`` as a message may show it: its password hidden (``***``) and its query
    (which may hold one) left out as ``?…``; a text that is not a URL is not shown at all,
    since it may be a password pasted whole."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return "(not shown)"
    if url.count("@") > 1:  # a password with an "@" in it: where it ends is a guess
        return f"{parsed.drivername}://…"
    query = "?…" if parsed.query else ""
    return parsed.set(query={}).render_as_string(hide_password=True) + query


def create_engine(url: str | URL) -> AsyncEngine:
    """An async engine for ``url``, with the SQLite set-up above when the URL is SQLite.

    For a SQLite file the parent directory is created if missing. Raises
    :class:`sqlalchemy.exc.ArgumentError` for a malformed URL.
    """
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        _ensure_parent_directory(parsed)
        in_memory = parsed.database in (None, "", ":memory:")
        engine = create_async_engine(
            parsed, module=one_trip_dbapi(), **({} if in_memory else SQLITE_POOL)
        )
        _install_sqlite_hooks(engine.sync_engine)
        return engine
    # A long-running bot keeps pooled connections for days; check them before use.
    return create_async_engine(parsed, pool_pre_ping=True, **POOL)


def _ensure_parent_directory(url: URL) -> None:
    database = url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    Path(database).parent.mkdir(parents=True, exist_ok=True)


def _install_sqlite_hooks(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _connection_record: Any) -> None:
        # Let SQLAlchemy, not the driver, decide when transactions begin (see _on_begin).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            # busy_timeout first: switching to WAL needs a lock another process may hold.
            cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA foreign_keys = ON")
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA synchronous = NORMAL")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        if connection.get_execution_options().get(_READ_ONLY, False):
            connection.exec_driver_sql("BEGIN")
        else:
            connection.exec_driver_sql("BEGIN IMMEDIATE")


class Transactions:
    """Hands out connections inside one transaction each; repositories use nothing else.

    ``write()`` commits when its block ends and rolls back if the block raises, so a write is
    always all-or-nothing. ``read()`` always rolls back: nothing written there is kept.

    On SQLite the write transactions of this process also queue on an :class:`asyncio.Lock`
    before ``BEGIN IMMEDIATE``: SQLite has one writer at a time, and a connection that finds
    the write lock taken waits in SQLite's busy handler, which polls with sleeps of up to
    100 ms. Under load (many games moving at once) those sleeps, not the writes, made the
    latency. Queued on the lock, writers of one process take turns first-come first-served
    with no polling; ``busy_timeout`` still arbitrates between processes. Write blocks must
    not nest (none does: a nested ``BEGIN IMMEDIATE`` would wait for the outer one for ever).
    """

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._writer: asyncio.Lock | None = (
            asyncio.Lock() if engine.dialect.name == "sqlite" else None
        )
        if engine.dialect.name == "postgresql":
            self._reader = engine.execution_options(
                isolation_level="REPEATABLE READ", postgresql_readonly=True, **{_READ_ONLY: True}
            )
        else:
            self._reader = engine.execution_options(**{_READ_ONLY: True})

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncConnection]:
        """A connection in a write transaction (``BEGIN IMMEDIATE`` on SQLite, after this
        process's earlier writers: see the class docstring)."""
        if self._writer is None:
            async with self._engine.begin() as connection:
                yield connection
            return
        async with self._writer, self._engine.begin() as connection:
            yield connection

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncConnection]:
        """A connection in a read transaction: one consistent snapshot, no write lock."""
        async with self._reader.connect() as connection:
            yield connection


def dialect_insert(conn: AsyncConnection, table: Table) -> Any:
    """``INSERT INTO table`` in the connection's dialect, with ``on_conflict_do_nothing`` and
    ``on_conflict_do_update`` (``INSERT ... ON CONFLICT``, which SQLite and PostgreSQL share
    but SQLAlchemy spells per dialect). Any other database raises :class:`NotImplementedError`.
    """
    return insert_for(conn.dialect.name, table)


def insert_for(dialect: str, table: Table) -> Any:
    """:func:`dialect_insert` by the dialect's name (``"sqlite"``, ``"postgresql"``), for
    statements built once and reused; any other name raises :class:`NotImplementedError`."""
    if dialect == "postgresql":
        return postgresql.insert(table)
    if dialect == "sqlite":
        return sqlite.insert(table)
    raise NotImplementedError(f"INSERT ... ON CONFLICT on {dialect}")  # pragma: no cover
