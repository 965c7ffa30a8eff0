"""Guild and user settings and watchers (migration 0004 tables)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

import pytest

from db import Database, GameRow
from db.schema import ReminderDelivery, ThreadPolicy
from db.settings import KEEP

NewGame = Callable[..., Awaitable[GameRow]]
T0 = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


async def test_settings_default_until_written_and_keep_untouched_fields(db: Database) -> None:
    guild = await db.settings.guild(5)
    assert (guild.threads, guild.reminder_quiet_s, guild.updated_at) == (
        ThreadPolicy.WHEN_BUSY,
        None,
        None,
    )
    await db.settings.set_guild(5, threads=ThreadPolicy.ALWAYS, now=T0)
    later = await db.settings.set_guild(5, reminder_quiet_s=3600, now=T0 + timedelta(1))
    assert (later.threads, later.reminder_quiet_s) == (ThreadPolicy.ALWAYS, 3600)
    assert later.updated_at == T0 + timedelta(1)
    back = await db.settings.set_guild(5, reminder_quiet_s=None, threads=KEEP, now=T0)
    assert (back.threads, back.reminder_quiet_s) == (ThreadPolicy.ALWAYS, None)

    user = await db.settings.user(7)
    assert (user.reminders, user.reminder_quiet_s) == (ReminderDelivery.CHANNEL, None)
    await db.settings.set_user(7, reminders=ReminderDelivery.DM, now=T0)
    user = await db.settings.set_user(7, reminder_quiet_s=60, now=T0)
    assert (user.reminders, user.reminder_quiet_s) == (ReminderDelivery.DM, 60)
    assert (await db.settings.user(8)).updated_at is None


async def test_settings_refuse_a_negative_quiet_time(db: Database) -> None:
    with pytest.raises(ValueError, match="negative"):
        await db.settings.set_user(7, reminder_quiet_s=-1, now=T0)


async def test_watchers_follow_update_and_leave(db: Database, new_game: NewGame) -> None:
    game = await new_game()
    first = await db.watchers.watch(game.id, 40, every_move=False, now=T0)
    await db.watchers.watch(game.id, 41, every_move=True, now=T0 + timedelta(1))
    again = await db.watchers.watch(game.id, 40, every_move=True, now=T0 + timedelta(2))
    assert again.created_at == first.created_at
    assert [(w.user_id, w.every_move) for w in await db.watchers.for_game(game.id)] == [
        (40, True),
        (41, True),
    ]
    assert await db.watchers.active_games_of(41) == [game.id]
    assert await db.watchers.unwatch(game.id, 40)
    assert not await db.watchers.unwatch(game.id, 40)
    assert [w.user_id for w in await db.watchers.for_game(game.id)] == [41]


async def test_the_game_counts_each_watcher_once(db: Database, new_game: NewGame) -> None:
    # Only the watch whose insert made the row counts it (db/watchers.py says why that also
    # holds for two first watches racing on PostgreSQL; this test does not force that race).
    game = await new_game()

    async def count() -> int:
        row = await db.games.get(game.id)
        assert row is not None
        return row.watchers

    await db.watchers.watch(game.id, 40, every_move=False, now=T0)
    await db.watchers.watch(game.id, 40, every_move=True, now=T0)
    assert await count() == 1
    await db.watchers.watch(game.id, 41, every_move=False, now=T0)
    await db.watchers.watch(game.id, 41, every_move=True, now=T0)  # again: not a new watcher
    assert await count() == 2
    assert await db.watchers.unwatch(game.id, 40)
    assert not await db.watchers.unwatch(game.id, 40)
    assert await count() == 1
