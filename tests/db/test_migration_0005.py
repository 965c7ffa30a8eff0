"""Migration 0005: ``user_settings.board_perspective`` and the ``start_position`` columns."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from alembic import command
from sqlalchemy import Connection, inspect, text

from db import Database, GameRow, alembic_config
from db.schema import BoardPerspective, ReminderDelivery
from db.settings import KEEP
from tests.db.backends import raw_timestamp

NewGame = Callable[..., Awaitable[GameRow]]
T0 = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
NEW_COLUMNS = {
    "user_settings": "board_perspective",
    "challenges": "start_position",
    "games": "start_position",
}


def _columns(connection: Connection, table: str) -> set[str]:
    return {column["name"] for column in inspect(connection).get_columns(table)}


def _fill_0004(connection: Connection) -> None:
    command.upgrade(alembic_config(connection), "0004")
    connection.execute(
        text("INSERT INTO user_settings VALUES (7, 'dm', 60, :t)"),
        {"t": raw_timestamp(connection, T0)},
    )


async def test_upgrade_from_0004_keeps_settings_and_downgrade_drops_the_columns(
    db_url: str,
) -> None:
    async with Database(db_url) as db:
        async with db.engine.begin() as conn:
            await conn.run_sync(_fill_0004)
        await db.migrate()
        async with db.engine.connect() as conn:
            for table, column in NEW_COLUMNS.items():
                assert column in await conn.run_sync(_columns, table)
        user = await db.settings.user(7)
        assert (user.reminders, user.reminder_quiet_s, user.board_perspective) == (
            ReminderDelivery.DM,
            60,
            None,
        )

        def downgrade(connection: Connection) -> dict[str, set[str]]:
            command.downgrade(alembic_config(connection), "0004")
            return {table: _columns(connection, table) for table in NEW_COLUMNS}

        async with db.engine.begin() as conn:
            after = await conn.run_sync(downgrade)
        for table, column in NEW_COLUMNS.items():
            assert column not in after[table]


async def test_board_perspective_is_kept_by_other_writes_and_resets_to_none(db: Database) -> None:
    assert (await db.settings.user(7)).board_perspective is None
    user = await db.settings.set_user(7, board_perspective=BoardPerspective.FIXED, now=T0)
    assert user.board_perspective is BoardPerspective.FIXED
    user = await db.settings.set_user(7, reminders=ReminderDelivery.OFF, now=T0)
    assert (user.reminders, user.board_perspective) == (
        ReminderDelivery.OFF,
        BoardPerspective.FIXED,
    )
    user = await db.settings.set_user(7, board_perspective=None, reminders=KEEP, now=T0)
    assert (user.reminders, user.board_perspective) == (ReminderDelivery.OFF, None)


async def test_start_position_is_stored_on_challenges_and_games(
    db: Database, new_game: NewGame
) -> None:
    plain = await new_game(500)
    assert plain.start_position is None
    custom = await new_game(501, start_position="8/8/8 w")
    assert custom.start_position == "8/8/8 w"
    assert (await db.games.get(custom.id)).start_position == "8/8/8 w"  # type: ignore[union-attr]
    challenge = await db.challenges.create(
        guild_id=9,
        channel_id=502,
        challenger_id=11,
        invited_ids=(22,),
        players=2,
        game="generatorb",
        options_json="{}",
        now=T0,
        expires_at=T0 + timedelta(days=1),
        start_position="x 1",
    )
    assert challenge.start_position == "x 1"
    fetched = await db.challenges.get(challenge.id)
    assert fetched is not None
    assert fetched.start_position == "x 1"
