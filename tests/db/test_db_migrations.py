"""Migrations: a fresh file gets the whole schema, re-running is a no-op, no drift."""

from __future__ import annotations

import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Column, Connection, Integer, MetaData, inspect, text
from sqlalchemy.exc import OperationalError

from db import MIGRATIONS_DIR, Database, GameRow, alembic_config
from db.schema import metadata

NewGame = Callable[..., Awaitable[GameRow]]

EXPECTED_TABLES = {"alembic_version", "games", "seats", "moves", "challenges"}


def _drift(connection: Connection, target: MetaData) -> list[Any]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, target))


def _head() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


async def test_migrate_creates_every_table_and_index(tmp_path: Path) -> None:
    # The parent directory does not exist yet: Database creates it.
    path = tmp_path / "nested" / "dir" / "fresh.db"
    async with Database(f"sqlite+aiosqlite:///{path}") as db:
        await db.migrate()
        async with db.engine.connect() as conn:
            tables = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
            indexes = await conn.run_sync(lambda c: inspect(c).get_indexes("games"))
            version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).all()
    assert path.is_file()
    assert tables == EXPECTED_TABLES
    active = next(index for index in indexes if index["name"] == "uq_games_channel_id_active")
    assert active["unique"]
    assert active["column_names"] == ["channel_id"]
    assert str(active["dialect_options"]["sqlite_where"]) == "status = 'active'"
    assert version == [(_head(),)]
    assert _head() == "0001"


async def test_migrate_twice_is_a_no_op_and_keeps_data(db: Database, new_game: NewGame) -> None:
    game = await new_game()
    await db.migrate()
    async with db.engine.connect() as conn:
        version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).all()
    assert version == [(_head(),)]
    assert await db.games.get(game.id) == game


async def test_migrate_does_not_depend_on_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # no alembic.ini, no db/ here
    async with Database(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}") as db:
        await db.migrate()
        assert await db.games.list_active() == []
    assert alembic_config().get_main_option("script_location") == str(MIGRATIONS_DIR)


async def test_migrations_match_the_declared_metadata(db: Database) -> None:
    async with db.engine.connect() as conn:
        drift = await conn.run_sync(_drift, metadata)
    assert drift == []


async def test_the_drift_check_would_notice_a_missing_migration(db: Database) -> None:
    # Guards the test above: a column declared without a migration must show up as drift.
    changed = MetaData()
    for table in metadata.sorted_tables:
        table.to_metadata(changed)
    changed.tables["games"].append_column(Column("clock_ms", Integer, nullable=True))
    async with db.engine.connect() as conn:
        drift = await conn.run_sync(_drift, changed)
    assert [(op[0], op[3].name) for op in drift] == [("add_column", "clock_ms")]


async def test_downgrade_to_base_and_upgrade_again(db: Database) -> None:
    def downgrade(connection: Connection) -> None:
        command.downgrade(alembic_config(connection), "base")

    async with db.engine.begin() as conn:
        await conn.run_sync(downgrade)
        tables = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
    assert tables == {"alembic_version"}
    await db.migrate()
    async with db.engine.connect() as conn:
        drift = await conn.run_sync(_drift, metadata)
    assert drift == []


BROKEN_MIGRATION = """
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("clocks", sa.Column("game_id", sa.Integer(), primary_key=True))
    op.add_column("games", sa.Column("clock_ms", sa.Integer(), nullable=True))
    op.execute("INSERT INTO no_such_table VALUES (1)")


def downgrade() -> None:
    pass
"""


async def test_a_failing_migration_changes_nothing(db: Database, tmp_path: Path) -> None:
    # A copy of the real migrations plus one that fails after creating a table and a column.
    scripts = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, scripts, ignore=shutil.ignore_patterns("__pycache__"))
    (scripts / "versions" / "0002_broken.py").write_text(BROKEN_MIGRATION)

    def upgrade(connection: Connection) -> None:
        config = alembic_config(connection)
        config.set_main_option("script_location", str(scripts))
        command.upgrade(config, "head")

    with pytest.raises(OperationalError, match="no_such_table"):
        async with db.engine.begin() as conn:
            await conn.run_sync(upgrade)
    async with db.engine.connect() as conn:
        tables = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
        columns = await conn.run_sync(lambda c: inspect(c).get_columns("games"))
        version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).all()
    assert tables == EXPECTED_TABLES
    assert "clock_ms" not in {column["name"] for column in columns}
    assert version == [("0001",)]
