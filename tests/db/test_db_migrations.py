"""Migrations: a fresh file gets the whole schema, re-running is a no-op, no drift."""

from __future__ import annotations

import shutil
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Integer,
    MetaData,
    String,
    Text,
    column,
    insert,
    inspect,
    select,
    table,
    text,
)
from sqlalchemy.exc import DBAPIError

from db import (
    MIGRATIONS_DIR,
    ChallengeEntry,
    ChallengePlayerRole,
    ChallengePlayerStatus,
    Database,
    GameRow,
    alembic_config,
)
from db.schema import UTCDateTime, games, metadata, seats
from tests.db.backends import advance_sequences, index_where

NewGame = Callable[..., Awaitable[GameRow]]

EXPECTED_TABLES = {
    "alembic_version",
    "games",
    "seats",
    "moves",
    "challenges",
    "challenge_players",
    "timers",
    "clocks",
    "vacations",
    "guild_settings",
    "user_settings",
    "watchers",
    "ratings",
    "rating_changes",
    "anonymous_ids",
    "draw_offer_posts",
    "takeback_posts",
    "claim_posts",
}


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
    assert index_where(active) == "status = 'active'"
    assert version == [(_head(),)]
    assert _head() == "0014"


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
    for declared in metadata.sorted_tables:
        declared.to_metadata(changed)
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

revision = "0099"
down_revision = "{head}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("broken", sa.Column("game_id", sa.Integer(), primary_key=True))
    op.add_column("games", sa.Column("clock_ms", sa.Integer(), nullable=True))
    op.execute("INSERT INTO no_such_table VALUES (1)")


def downgrade() -> None:
    pass
"""


async def test_a_failing_migration_changes_nothing(db: Database, tmp_path: Path) -> None:
    # A copy of the real migrations plus one that fails after creating a table and a column.
    scripts = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, scripts, ignore=shutil.ignore_patterns("__pycache__"))
    (scripts / "versions" / "0099_broken.py").write_text(BROKEN_MIGRATION.format(head=_head()))

    def upgrade(connection: Connection) -> None:
        config = alembic_config(connection)
        config.set_main_option("script_location", str(scripts))
        command.upgrade(config, "head")

    # SQLite raises OperationalError, PostgreSQL ProgrammingError: both are DBAPIErrors.
    with pytest.raises(DBAPIError, match="no_such_table"):
        async with db.engine.begin() as conn:
            await conn.run_sync(upgrade)
    async with db.engine.connect() as conn:
        tables = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
        columns = await conn.run_sync(lambda c: inspect(c).get_columns("games"))
        version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).all()
    assert tables == EXPECTED_TABLES
    assert "clock_ms" not in {column["name"] for column in columns}
    assert version == [(_head(),)]


# ----------------------------------------------------------------------------------------------
# 0002: challenges become lobbies; an existing 0001 database keeps every challenge
# ----------------------------------------------------------------------------------------------

T0 = datetime(2025, 3, 14, 15, 9, 26, tzinfo=UTC)

#: ``challenges`` as revision 0001 made it (with ``opponent_id``, without lobby columns).
LEGACY_CHALLENGES = table(
    "challenges",
    column("id", Integer),
    column("guild_id", BigInteger),
    column("channel_id", BigInteger),
    column("challenger_id", BigInteger),
    column("opponent_id", BigInteger),
    column("game", String),
    column("options", Text),
    column("status", String),
    column("game_id", Integer),
    column("created_at", UTCDateTime()),
    column("expires_at", UTCDateTime()),
    column("resolved_at", UTCDateTime()),
)


def _legacy_challenge(
    challenge_id: int, status: str, opponent_id: int | None, game_id: int | None = None
) -> dict[str, object]:
    return {
        "id": challenge_id,
        "guild_id": 9,
        "channel_id": 500 + challenge_id,
        "challenger_id": 11,
        "opponent_id": opponent_id,
        "game": "generatorb",
        "options": "{}",
        "status": status,
        "game_id": game_id,
        "created_at": T0,
        "expires_at": T0 + timedelta(days=1),
        "resolved_at": None if status == "open" else T0 + ANSWERED_AFTER[status],
    }


#: When the legacy challenges of each status were answered, after ``T0``.
ANSWERED_AFTER = {
    "accepted": timedelta(minutes=5),
    "declined": timedelta(minutes=6),
    "cancelled": timedelta(minutes=7),
    "expired": timedelta(days=1),
}


def _fill_0001(connection: Connection) -> None:
    """Migrate to 0001 and store what a 0001 bot would have: challenges in every status."""
    command.upgrade(alembic_config(connection), "0001")
    connection.execute(
        insert(games),
        [
            {
                "id": 1,
                "guild_id": 9,
                "channel_id": 504,
                "game": "generatorb",
                "options": "{}",
                "rules_version": "1",
                "seed": 1,
                "status": "active",
                "version": 1,
                "ply": 0,
                "to_move": "0",
                "state": "{}",
                "created_at": T0,
                "updated_at": T0,
            }
        ],
    )
    connection.execute(
        insert(seats),
        [
            {"game_id": 1, "seat": 0, "user_id": 55, "team": None},
            {"game_id": 1, "seat": 1, "user_id": 11, "team": None},
        ],
    )
    connection.execute(
        insert(LEGACY_CHALLENGES),
        [
            _legacy_challenge(1, "open", 22),
            _legacy_challenge(2, "open", None),
            _legacy_challenge(3, "accepted", 22),
            _legacy_challenge(4, "accepted", None, game_id=1),
            _legacy_challenge(5, "declined", 22),
            _legacy_challenge(6, "cancelled", 22),
            _legacy_challenge(7, "expired", None),
            _legacy_challenge(8, "cancelled", 22),
        ],
    )
    advance_sequences(connection, ["games", "challenges"])
    # A challenge that no longer exists: its id must never be handed out again.
    connection.execute(text("DELETE FROM challenges WHERE id = 8"))


async def test_upgrade_from_0001_turns_every_challenge_into_a_two_seat_lobby(
    db_url: str,
) -> None:
    async with Database(db_url) as db:
        async with db.engine.begin() as conn:
            await conn.run_sync(_fill_0001)
        await db.migrate()

        listings = {}
        for challenge_id in range(1, 8):
            row = await db.challenges.get(challenge_id)
            assert row is not None
            assert (row.players, row.version, row.created_at) == (2, 1, T0)
            listings[challenge_id] = [(p.user_id, p.role, p.status) for p in row.lobby]
        challenger = (11, "challenger", "seated")
        assert listings == {
            1: [challenger, (22, "invited", "invited")],
            2: [challenger],
            3: [challenger, (22, "invited", "seated")],
            4: [challenger, (55, "joined", "seated")],
            5: [challenger, (22, "invited", "declined")],
            6: [challenger, (22, "invited", "invited")],
            7: [challenger],
        }
        answered = await db.challenges.get(5)
        assert answered is not None
        assert answered.lobby[1].updated_at == T0 + timedelta(minutes=6)

        # The open ones work as lobbies: the invited player accepts, anyone joins the other.
        invited = ChallengeEntry(22, ChallengePlayerRole.INVITED, ChallengePlayerStatus.SEATED)
        accepted = await db.challenges.enter(1, 1, invited, now=T0)
        assert (accepted.seated_ids, accepted.open_seats) == ((11, 22), 0)
        joiner = ChallengeEntry(66, ChallengePlayerRole.JOINED, ChallengePlayerStatus.SEATED)
        assert (await db.challenges.enter(2, 1, joiner, now=T0)).seated_ids == (11, 66)
        assert [c.id for c in await db.challenges.list_open(user_id=22)] == [1]

        fresh = await db.challenges.create(
            guild_id=9,
            channel_id=600,
            challenger_id=11,
            invited_ids=(),
            players=3,
            game="generatorb",
            options_json="{}",
            now=T0,
            expires_at=T0 + timedelta(hours=1),
        )
        assert fresh.id == 9  # AUTOINCREMENT survived the table's rebuild
        async with db.engine.connect() as conn:
            drift = await conn.run_sync(_drift, metadata)
        assert drift == []


async def test_downgrade_from_0002_gives_back_the_opponents(db_url: str) -> None:
    async with Database(db_url) as db:
        async with db.engine.begin() as conn:
            await conn.run_sync(_fill_0001)
        await db.migrate()

        def downgrade(connection: Connection) -> list[tuple[int, int | None]]:
            command.downgrade(alembic_config(connection), "0001")
            rows = connection.execute(
                select(LEGACY_CHALLENGES.c.id, LEGACY_CHALLENGES.c.opponent_id).order_by(
                    LEGACY_CHALLENGES.c.id
                )
            )
            return [(row.id, row.opponent_id) for row in rows]

        async with db.engine.begin() as conn:
            opponents = await conn.run_sync(downgrade)
        assert opponents == [(1, 22), (2, None), (3, 22), (4, None), (5, 22), (6, 22), (7, None)]
