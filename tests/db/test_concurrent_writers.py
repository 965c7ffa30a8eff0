"""Two writers at once on writes that read before they write: nothing is lost, nothing fails.

On SQLite ``BEGIN IMMEDIATE`` queues the second writer; on PostgreSQL both run under READ
COMMITTED, so these tests hold one transaction open while another starts, to pin the row
locks and ``ON CONFLICT`` clauses the repositories use there.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from db import Database, GameRow
from db.rows import NewTimer
from db.schema import ReminderDelivery, ThreadPolicy, TimerStatus, timers
from db.timers import schedule_timer

NewGame = Callable[..., Awaitable[GameRow]]

T0 = datetime(2025, 3, 14, 15, 9, 26, tzinfo=UTC)
HELD = 0.3  # seconds the first transaction stays open while the second one starts


async def _while_held(db: Database, first: NewTimer, second: Awaitable[object]) -> object:
    """Schedule ``first`` in a transaction kept open while ``second`` runs; return its result."""
    async with db.engine.begin() as conn:
        await schedule_timer(conn, first, now=T0)
        task = asyncio.ensure_future(second)
        await asyncio.sleep(HELD)
        assert not task.done()  # it waits for our transaction
    return await asyncio.wait_for(task, 10)


async def test_a_follow_up_racing_a_new_timer_of_its_key_keeps_the_new_one(
    db: Database, db_url: str, new_game: NewGame
) -> None:
    game = await new_game()
    first = NewTimer("reminder", T0 + timedelta(hours=1), game.id, 1)
    follow_up = NewTimer("reminder", T0 + timedelta(hours=9), game.id, 1)
    async with Database(db_url) as other:
        kept = await _while_held(db, first, other.timers.schedule(follow_up, now=T0, replace=False))
    [pending] = await db.timers.pending(game_id=game.id)
    assert pending.due_at == first.due_at
    assert kept == pending


async def test_two_racing_replacements_leave_one_pending_timer_the_later_one(
    db: Database, db_url: str, new_game: NewGame
) -> None:
    game = await new_game()
    early = NewTimer("clock", T0 + timedelta(hours=1), game.id, None)
    late = NewTimer("clock", T0 + timedelta(hours=2), game.id, None)
    async with Database(db_url) as other:
        await _while_held(db, early, other.timers.schedule(late, now=T0))
    [pending] = await db.timers.pending(game_id=game.id)
    assert (pending.due_at, pending.claimed_by, pending.attempts) == (late.due_at, None, 0)
    async with db.engine.connect() as conn:
        statuses = (await conn.execute(select(timers.c.status))).scalars().all()
    assert statuses == [TimerStatus.PENDING.value]


async def test_two_first_settings_writes_of_different_fields_both_land(
    db: Database, db_url: str
) -> None:
    async with Database(db_url) as other:
        for _ in range(5):
            await asyncio.gather(
                db.settings.set_guild(9, threads=ThreadPolicy.ALWAYS, now=T0),
                other.settings.set_guild(9, reminder_quiet_s=600, now=T0),
                db.settings.set_user(11, reminders=ReminderDelivery.DM, now=T0),
                other.settings.set_user(11, reminder_quiet_s=60, now=T0),
            )
    guild = await db.settings.guild(9)
    assert (guild.threads, guild.reminder_quiet_s) == (ThreadPolicy.ALWAYS, 600)
    user = await db.settings.user(11)
    assert (user.reminders, user.reminder_quiet_s) == (ReminderDelivery.DM, 60)


async def test_two_first_watches_of_one_game_make_one_row(
    db: Database, db_url: str, new_game: NewGame
) -> None:
    game = await new_game()
    async with Database(db_url) as other:
        first, second = await asyncio.gather(
            db.watchers.watch(game.id, 33, every_move=True, now=T0),
            other.watchers.watch(game.id, 33, every_move=True, now=T0),
        )
    assert first == second == await db.watchers.get(game.id, 33)
