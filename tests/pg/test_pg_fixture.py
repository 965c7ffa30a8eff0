"""The PostgreSQL fixtures: one server, a fresh database per test, a migrated template."""

from __future__ import annotations

from datetime import UTC, datetime

from alembic.script import ScriptDirectory
from sqlalchemy import inspect, make_url, text

from db import Database, alembic_config
from tests.pg.server import PostgresForTests

T0 = datetime(2025, 3, 14, 15, 9, 26, tzinfo=UTC)


async def test_pg_url_is_an_empty_database_of_its_own(pg_url: str) -> None:
    assert make_url(pg_url).drivername == "postgresql+asyncpg"
    async with Database(pg_url) as db, db.engine.connect() as conn:
        assert await conn.run_sync(lambda c: inspect(c).get_table_names()) == []
        assert (await conn.execute(text("SELECT current_database()"))).scalar() == (
            make_url(pg_url).database
        )


async def test_pg_migrated_url_is_at_head_and_empty(pg_migrated_url: str) -> None:
    async with Database(pg_migrated_url) as db:
        async with db.engine.connect() as conn:
            version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).all()
        head = ScriptDirectory.from_config(alembic_config()).get_current_head()
        assert version == [(head,)]
        await db.migrate()  # a no-op
        assert await db.games.list_active() == []


async def test_each_database_is_dropped_after_use(pg_server: PostgresForTests) -> None:
    url = pg_server.create_database(migrated=True)
    async with Database(url) as db:
        await db.settings.set_user(1, reminder_quiet_s=5, now=T0)
    pg_server.drop_database(url)
    async with Database(pg_server.url("postgres")) as admin, admin.engine.connect() as conn:
        names = (await conn.execute(text("SELECT datname FROM pg_database"))).scalars().all()
    assert make_url(url).database not in names


def test_the_server_is_shared_by_the_whole_process(pg_server: PostgresForTests) -> None:
    assert PostgresForTests.shared() is pg_server


async def test_db_backend_url_runs_on_both(db_backend_url: str) -> None:
    async with Database(db_backend_url) as db:
        await db.migrate()
        assert await db.games.get(1) is None
