"""``ClocksRepo.turn_context``: one statement reads the players' settings and vacations and
the guild's settings (both backends, via the ``db`` fixture)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from db import Database
from db.schema import ReminderDelivery, ThreadPolicy

NOW = datetime(2026, 11, 25, 12, tzinfo=UTC)
ALICE, BOB, CAROL = 101, 102, 103
GUILD = 7


async def test_each_user_gets_their_rows_or_the_defaults(db: Database) -> None:
    await db.settings.set_user(ALICE, reminders=ReminderDelivery.DM, reminder_quiet_s=60, now=NOW)
    await db.vacations.write(
        BOB, None, year=2026, used_ms=5, started_at=NOW, until=NOW + timedelta(days=2), now=NOW
    )
    await db.settings.set_guild(GUILD, threads=ThreadPolicy.ALWAYS, reminder_quiet_s=30, now=NOW)

    context = await db.clocks.turn_context([CAROL, ALICE, BOB, ALICE], GUILD)

    assert set(context.users) == {ALICE, BOB, CAROL}
    assert context.users[ALICE] == await db.settings.user(ALICE)
    assert context.users[ALICE].reminders is ReminderDelivery.DM
    assert context.users[ALICE].reminder_quiet_s == 60
    assert context.users[BOB] == await db.settings.user(BOB)  # no row: the defaults
    assert set(context.vacations) == {BOB}
    assert context.vacations[BOB] == await db.vacations.get(BOB)
    assert context.guild == await db.settings.guild(GUILD)
    assert context.guild is not None
    assert context.guild.threads is ThreadPolicy.ALWAYS


async def test_a_guild_without_settings_and_no_guild(db: Database) -> None:
    alone = await db.clocks.turn_context([ALICE], GUILD)
    assert alone.guild == await db.settings.guild(GUILD)  # the defaults
    assert alone.vacations == {}
    outside = await db.clocks.turn_context([ALICE, BOB], None)
    assert outside.guild is None
    assert set(outside.users) == {ALICE, BOB}
    nobody = await db.clocks.turn_context([], GUILD)
    assert nobody.users == {}
    assert nobody.guild == await db.settings.guild(GUILD)
