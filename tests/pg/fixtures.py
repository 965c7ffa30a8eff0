"""Pytest fixtures for PostgreSQL; import them into a ``conftest.py`` to use them below it.

::

    # tests/<dir>/conftest.py
    from tests.pg.fixtures import pg_server, pg_url, pg_migrated_url, db_backend_url

- ``pg_server`` (session): the :class:`~tests.pg.server.PostgresForTests` of the process, or a
  *skip* with the reason PostgreSQL cannot start (no pgserver wheel, start failed,
  ``GAMEROOM_TEST_POSTGRES=off``); a *failure* instead with ``GAMEROOM_TEST_POSTGRES=required``
  (what ``.ci/run`` sets). Started once, whichever conftest asked first.
- ``pg_url`` (function): the ``postgresql+asyncpg://`` URL of a new, empty database of its own
  (the schema is not there: run ``Database(url).migrate()``), dropped after the test.
- ``pg_migrated_url`` (function): the same, cloned from a template already at Alembic head.
- ``db_backend_url`` (function, parametrized ``sqlite`` / ``postgresql``): an empty database
  URL on each backend in turn: a SQLite file in ``tmp_path``, or ``pg_url``. Test ids end in
  ``[sqlite]`` / ``[postgresql]``; ``-k postgresql`` runs one side.

The end-to-end bot takes the database from ``GAMEROOM_DB_URL``: pass ``pg_migrated_url`` (or
``pg_url``; the bot migrates at start) there to play a whole game on PostgreSQL.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pg.server import ENV_SWITCH, PostgresForTests, PostgresUnavailable

__all__ = ["BACKENDS", "db_backend_url", "pg_migrated_url", "pg_server", "pg_url"]

#: The parameters of :func:`db_backend_url`.
BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def pg_server() -> PostgresForTests:
    """The session's PostgreSQL server (skips the test, with the reason, if there is none)."""
    try:
        return PostgresForTests.shared()
    except PostgresUnavailable as exc:
        if os.environ.get(ENV_SWITCH, "").lower() == "required":
            pytest.fail(f"PostgreSQL required ({ENV_SWITCH}=required) but unavailable: {exc}")
        pytest.skip(f"PostgreSQL unavailable: {exc}")


@pytest.fixture
def pg_url(pg_server: PostgresForTests) -> Iterator[str]:
    """A new empty database on the session's server; dropped after the test."""
    url = pg_server.create_database()
    try:
        yield url
    finally:
        pg_server.drop_database(url)


@pytest.fixture
def pg_migrated_url(pg_server: PostgresForTests) -> Iterator[str]:
    """A new database already at Alembic head; dropped after the test."""
    url = pg_server.create_database(migrated=True)
    try:
        yield url
    finally:
        pg_server.drop_database(url)


@pytest.fixture(params=BACKENDS)
def db_backend_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database on SQLite, then on PostgreSQL (a parametrized fixture)."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'gameroom.db'}"
    url: str = request.getfixturevalue("pg_url")
    return url
