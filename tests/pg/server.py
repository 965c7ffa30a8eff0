"""One throwaway PostgreSQL server for a test session, and a fresh database per test.

Where the server comes from, in order:

1. ``GAMEROOM_TEST_POSTGRES_URL`` (e.g. ``postgresql://postgres:secret@127.0.0.1:5432/postgres``,
   a CI service container): an existing server; the user must be allowed to create databases.
   Databases this module creates on it are dropped again.
2. The ``pgserver`` wheel (a dev dependency): a self-contained PostgreSQL 16 started in a
   temporary directory with ``initdb`` + ``pg_ctl``, listening on a Unix socket only, with
   durability switched off (``fsync``, ``synchronous_commit``, ``full_page_writes``), which is
   what tests want. Starting it takes about a second; it is stopped when the process exits.
3. Neither: :class:`PostgresUnavailable` with the reason (fixtures turn it into a visible skip).
   ``GAMEROOM_TEST_POSTGRES=off`` asks for that on purpose.

A fresh database is ``CREATE DATABASE ... TEMPLATE ...``: an empty one from ``template0``, or a
copy of a template migrated to Alembic head once per session (a few milliseconds instead of
running every migration again). Admin statements go through asyncpg on a private event loop in
a worker thread, so every call here is synchronous and safe from sync code, async code (a
running loop in the caller's thread) and plain scripts (``bench/load.py``).

Usage outside pytest::

    server = PostgresForTests.shared()          # starts (or finds) the session's server
    url = server.create_database(migrated=True)  # postgresql+asyncpg://... ready for Database()
    ...
    server.drop_database(url)
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import itertools
import os
import shutil
import tempfile
import threading
import warnings
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import URL, make_url

__all__ = ["ENV_SWITCH", "ENV_URL", "PostgresForTests", "PostgresUnavailable"]

#: An existing server to use instead of starting one (libpq URL of a superuser or a user with
#: CREATEDB; ``postgresql://`` or ``postgresql+asyncpg://``).
ENV_URL = "GAMEROOM_TEST_POSTGRES_URL"
#: ``off`` skips every PostgreSQL test (with that reason) without trying to start a server.
ENV_SWITCH = "GAMEROOM_TEST_POSTGRES"

_T = TypeVar("_T")

#: Settings for a test server: nothing survives a crash anyway.
_FAST_SETTINGS = {
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
}


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server can be used here; the message says why."""


def _run(coro: Coroutine[Any, Any, _T]) -> _T:
    """Run ``coro`` to completion on a new event loop in a worker thread and return its result.

    Works whether or not the calling thread already runs an event loop.
    """
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["result"] = asyncio.run(coro)
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=target, name="pg-admin")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["result"]  # type: ignore[no-any-return]


class PostgresForTests:
    """A PostgreSQL server the tests may create and drop databases on.

    Use :meth:`shared` (one per process, started on first use); the constructor is for an
    explicit ``admin_url``.
    """

    _shared: PostgresForTests | None = None
    _shared_error: PostgresUnavailable | None = None
    _lock = threading.Lock()

    def __init__(self, admin_url: str, *, owned: Any = None, tmp_dir: Path | None = None) -> None:
        url = make_url(admin_url)
        #: The admin connection's URL, as SQLAlchemy understands it (``postgresql+asyncpg``).
        self.admin_url: URL = url.set(drivername="postgresql+asyncpg")
        self._owned = owned  # the pgserver handle when we started the server
        self._tmp_dir = tmp_dir
        self._names = itertools.count(1)
        self._prefix = f"gr_test_{os.getpid()}_"
        self._templates: dict[str, str] = {}
        self._created: set[str] = set()
        self._template_lock = threading.Lock()

    # -------------------------------------------------------------------- starting

    @classmethod
    def shared(cls) -> PostgresForTests:
        """The process's server: from ``GAMEROOM_TEST_POSTGRES_URL``, else a new pgserver.

        Started on the first call, stopped at process exit. Raises
        :class:`PostgresUnavailable` (every time, without retrying) if it cannot start.
        """
        with cls._lock:
            if cls._shared is not None:
                return cls._shared
            if cls._shared_error is not None:
                raise cls._shared_error
            try:
                cls._shared = cls._start()
            except PostgresUnavailable as exc:
                cls._shared_error = exc
                raise
            atexit.register(cls._shared.stop)
            return cls._shared

    @classmethod
    def _start(cls) -> PostgresForTests:
        if os.environ.get(ENV_SWITCH, "").lower() in {"off", "0", "no", "false"}:
            raise PostgresUnavailable(f"PostgreSQL tests switched off ({ENV_SWITCH}=off)")
        external = os.environ.get(ENV_URL)
        if external:
            server = cls(external)
            try:
                server._check()
            except Exception as exc:
                raise PostgresUnavailable(f"cannot use {ENV_URL}: {exc}") from exc
            return server
        try:
            with warnings.catch_warnings():  # platformdirs: "XDG_RUNTIME_DIR is not set"
                warnings.simplefilter("ignore")
                from pgserver.postgres_server import get_server
        except ImportError as exc:  # pragma: no cover - pgserver is a dev dependency
            raise PostgresUnavailable(
                f"no PostgreSQL: the pgserver wheel is not installed ({exc}) and {ENV_URL} is unset"
            ) from exc
        tmp_dir = Path(tempfile.mkdtemp(prefix="gameroom-pg-"))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                handle = get_server(tmp_dir / "pgdata", cleanup_mode="delete")
        except Exception as exc:
            shutil.rmtree(tmp_dir, ignore_errors=True)
            raise PostgresUnavailable(f"pgserver could not start PostgreSQL: {exc!r}") from exc
        server = cls(handle.get_uri(), owned=handle, tmp_dir=tmp_dir)
        try:
            server._tune()
        except Exception as exc:
            server.stop()
            raise PostgresUnavailable(f"PostgreSQL started but refused settings: {exc!r}") from exc
        return server

    def stop(self) -> None:
        """Drop the databases this object created; stop the server if it started it."""
        if self._owned is None:
            if self._created:
                with contextlib.suppress(Exception):  # best effort at exit
                    _run(self._drop_all(sorted(self._created)))
            return
        handle, self._owned = self._owned, None
        try:
            handle.cleanup()
        finally:
            if self._tmp_dir is not None:
                shutil.rmtree(self._tmp_dir, ignore_errors=True)

    # -------------------------------------------------------------------- databases

    def url(self, database: str) -> str:
        """The ``postgresql+asyncpg://`` URL of ``database`` on this server (password shown)."""
        return self.admin_url.set(database=database).render_as_string(hide_password=False)

    def create_database(self, *, migrated: bool = False) -> str:
        """A new, empty database (or one at Alembic head with ``migrated``); returns its URL.

        ``migrated`` clones a template migrated once per server, which is much faster than
        ``Database.migrate()`` on every test.
        """
        template = self._migrated_template() if migrated else "template0"
        name = f"{self._prefix}{next(self._names)}"
        _run(self._admin(f'CREATE DATABASE "{name}" TEMPLATE "{template}"'))
        self._created.add(name)
        return self.url(name)

    def drop_database(self, url: str) -> None:
        """Drop the database behind ``url`` (closing other sessions on it first)."""
        name = make_url(url).database
        if not name:
            raise ValueError(f"no database in {url!r}")
        _run(self._drop_all([name]))
        self._created.discard(name)

    def _migrated_template(self) -> str:
        with self._template_lock:
            name = self._templates.get("head")
            if name is None:
                name = f"{self._prefix}template_head"
                _run(self._admin(f'DROP DATABASE IF EXISTS "{name}"'))
                _run(self._admin(f'CREATE DATABASE "{name}" TEMPLATE "template0"'))
                self._created.add(name)
                _run(_migrate(self.url(name)))
                self._templates["head"] = name
            return name

    # -------------------------------------------------------------------- admin plumbing

    def _connect_args(self) -> dict[str, Any]:
        url = self.admin_url
        args: dict[str, Any] = {
            "user": url.username,
            "password": url.password,
            "database": url.database or "postgres",
        }
        host = url.query.get("host")
        args["host"] = host if isinstance(host, str) else url.host
        if url.port:
            args["port"] = url.port
        return args

    async def _admin(self, *statements: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(**self._connect_args())
        try:
            for statement in statements:
                await conn.execute(statement)
        finally:
            await conn.close()

    async def _drop_all(self, names: list[str]) -> None:
        await self._admin(*(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)' for name in names))

    def _check(self) -> None:
        _run(self._admin("SELECT 1"))

    def _tune(self) -> None:
        statements = [
            f"ALTER SYSTEM SET {name} = '{value}'" for name, value in _FAST_SETTINGS.items()
        ]
        _run(self._admin(*statements, "SELECT pg_reload_conf()"))

    def __repr__(self) -> str:
        source = "pgserver" if self._owned is not None else ENV_URL
        return f"PostgresForTests({self.admin_url.render_as_string()!r}, {source})"


async def _migrate(url: str) -> None:
    from db import Database

    async with Database(url) as database:
        await database.migrate()
