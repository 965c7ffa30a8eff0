"""The timers cog with a stand-in bot: handlers gathered from every cog, the runner rebuilt
when they change, ticks that never raise, the daily purge, and reminder delivery (DM, the
channel fallback, the text)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from bot.cogs.timers import KEEP_SETTLED_TIMERS, TimersCog, jump_url, reminder_text
from bot.service.models import SeatClockInfo
from bot.service.reminders import ReminderDecision, ReminderNotice
from bot.service.timers import Handler, RunReport
from bot.settings import Settings
from db import Database
from db.rows import NewTimer, TimerRow
from db.schema import ReminderDelivery, TimerStatus

T = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)
USER, CHANNEL, GUILD = 42, 500, 9


class Provider:
    """A cog offering handlers for some timer kinds."""

    def __init__(self, *kinds: str) -> None:
        self.ran: list[int] = []
        self._handlers: dict[str, Handler] = dict.fromkeys(kinds, self.run)

    async def run(self, timer: TimerRow) -> NewTimer | None:
        self.ran.append(timer.id)
        return None

    def timer_handlers(self) -> Mapping[str, Handler]:
        return self._handlers


def stand_in_bot(database: Any = None, **settings: Any) -> Any:
    bot = MagicMock()
    bot.settings = Settings(discord_token="t", **settings)
    bot.database = database if database is not None else MagicMock()
    bot.service = MagicMock()
    bot.service.database = bot.database
    bot.cogs = {}
    return bot


def with_cogs(bot: Any, **cogs: object) -> TimersCog:
    timers = TimersCog(bot)
    bot.cogs = {**cogs, "Timers": timers}
    return timers


@pytest.fixture
async def database(tmp_path: Path) -> AsyncIterator[Database]:
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'timers.db'}")
    await db.migrate()
    try:
        yield db
    finally:
        await db.close()


# ----------------------------------------------------------------------------------------------
# The loop
# ----------------------------------------------------------------------------------------------


def test_handlers_come_from_every_cog_that_offers_them(caplog: pytest.LogCaptureFixture) -> None:
    bot = stand_in_bot()
    clocks = Provider("clock", "final_warning")
    spectators = Provider("thread_archive")
    again = Provider("clock")
    timers = with_cogs(bot, Clocks=clocks, Spectators=spectators, Zzz=again, Play=object())
    with caplog.at_level(logging.ERROR, logger="bot.cogs.timers"):
        handlers = timers.handlers()
    assert handlers == {
        "clock": clocks.run,
        "final_warning": clocks.run,
        "thread_archive": spectators.run,
        "reminder": timers.on_reminder,
    }
    assert "cogs Clocks and Zzz both handle 'clock' timers" in caplog.text


def test_the_runner_is_rebuilt_only_when_the_handlers_change() -> None:
    bot = stand_in_bot(timer_stale_after=timedelta(seconds=10))
    timers = with_cogs(bot)
    first = timers.runner()
    assert first is not None
    assert set(first.handlers) == {"reminder"}
    assert timers.runner() is first
    bot.cogs["Clocks"] = Provider("clock")
    second = timers.runner()
    assert second is not None
    assert second is not first
    assert set(second.handlers) == {"reminder", "clock"}
    assert second.worker == first.worker
    del bot.cogs["Clocks"]
    assert set((timers.runner() or first).handlers) == {"reminder"}


def test_no_handlers_means_no_runner() -> None:
    bot = stand_in_bot()
    timers = TimersCog(bot)
    bot.cogs = {}  # the timers cog itself unloaded
    assert timers.runner() is None


def test_the_loop_runs_at_the_configured_interval() -> None:
    timers = TimersCog(stand_in_bot(timer_interval=timedelta(seconds=1)))
    assert timers.run_timers.seconds == 1


async def test_a_tick_runs_due_timers_in_full_batches_and_purges_daily(
    database: Database,
) -> None:
    bot = stand_in_bot(database)
    clocks = Provider("clock")
    timers = with_cogs(bot, Clocks=clocks)
    past = discord.utils.utcnow() - timedelta(minutes=1)
    batch = 50  # TimerRunner's default batch size
    for _ in range(batch + 3):
        await database.timers.schedule(NewTimer("clock", past), now=past)
    old = await database.timers.schedule(NewTimer("old", past), now=past)
    [claimed] = await database.timers.claim_due(past, "w", kinds={"old"})
    long_ago = past - KEEP_SETTLED_TIMERS - timedelta(days=1)
    assert await database.timers.mark_fired(claimed, now=long_ago)

    reports = await timers.tick()
    assert [len(r.fired) for r in reports] == [batch, 3]
    assert len(clocks.ran) == batch + 3
    assert await database.timers.get(old.id) is None  # purged on the first tick

    # The next purge waits a day: a timer settled long ago stays until then.
    await database.timers.schedule(NewTimer("old", past), now=past)
    [claimed] = await database.timers.claim_due(past, "w", kinds={"old"})
    assert await database.timers.mark_fired(claimed, now=long_ago)
    assert await timers.tick() == [RunReport()]
    kept = await database.timers.get(claimed.id)
    assert kept is not None
    assert kept.status is TimerStatus.FIRED


async def test_a_tick_that_fails_is_logged_and_the_loop_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot = stand_in_bot()
    timers = with_cogs(bot)
    timers.tick = AsyncMock(side_effect=RuntimeError("database is gone"))  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR, logger="bot.cogs.timers"):
        await timers.run_timers()
    assert "the timer loop failed this tick" in caplog.text
    assert "database is gone" in caplog.text


# ----------------------------------------------------------------------------------------------
# Reminders
# ----------------------------------------------------------------------------------------------


def notice(**changes: Any) -> ReminderNotice:
    base: dict[str, Any] = {
        "game_id": 7,
        "game_name": "Orbs",
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "user_id": USER,
        "seat": 1,
        "seat_name": "North",
        "delivery": ReminderDelivery.CHANNEL,
        "to_move_since": T,
        "board_message_id": None,
        "clock": None,
    }
    base.update(changes)
    return ReminderNotice(**base)


def forbidden() -> discord.Forbidden:
    response = SimpleNamespace(status=403, reason="Forbidden")
    return discord.Forbidden(
        response, {"message": "Cannot send messages to this user", "code": 50007}
    )


@pytest.fixture
def posts(monkeypatch: pytest.MonkeyPatch) -> AsyncMock:
    post = AsyncMock(return_value=MagicMock())
    monkeypatch.setattr("bot.cogs.timers.post_in_channel", post)
    return post


async def test_a_channel_reminder_mentions_only_its_player(posts: AsyncMock) -> None:
    bot = stand_in_bot()
    assert await TimersCog(bot).deliver(notice()) == "channel"
    posts.assert_awaited_once()
    assert posts.await_args is not None
    args, kwargs = posts.await_args
    assert args[1:] == (CHANNEL, reminder_text(notice(), direct=False))
    assert kwargs == {"guild_id": GUILD, "mention_ids": (USER,)}


async def test_a_dm_reminder_goes_to_the_player_alone(posts: AsyncMock) -> None:
    bot = stand_in_bot()
    user = MagicMock()
    user.send = AsyncMock()
    bot.get_user.return_value = None
    bot.fetch_user = AsyncMock(return_value=user)
    dm = notice(delivery=ReminderDelivery.DM)
    assert await TimersCog(bot).deliver(dm) == "dm"
    bot.fetch_user.assert_awaited_once_with(USER)
    user.send.assert_awaited_once()
    assert user.send.await_args is not None
    assert user.send.await_args.args == (reminder_text(dm, direct=True),)
    posts.assert_not_awaited()


async def test_a_closed_dm_falls_back_to_the_channel(
    posts: AsyncMock, caplog: pytest.LogCaptureFixture
) -> None:
    bot = stand_in_bot()
    user = MagicMock()
    user.send = AsyncMock(side_effect=forbidden())
    bot.get_user.return_value = user
    dm = notice(delivery=ReminderDelivery.DM)
    with caplog.at_level(logging.INFO, logger="bot.cogs.timers"):
        assert await TimersCog(bot).deliver(dm) == "channel"
    assert "could not DM user 42 (403" in caplog.text
    assert posts.await_args is not None
    args, kwargs = posts.await_args
    assert args[2] == reminder_text(dm, direct=False, dm_failed=True)
    assert "could not send you a direct message" in args[2]
    assert kwargs["mention_ids"] == (USER,)


async def test_a_reminder_nobody_can_receive_is_not_retried(posts: AsyncMock) -> None:
    posts.return_value = None  # the channel is gone too
    bot = stand_in_bot()
    assert await TimersCog(bot).deliver(notice()) == "nowhere"


async def test_the_reminder_handler_delivers_and_returns_the_follow_up(posts: AsyncMock) -> None:
    bot = stand_in_bot()
    timers = TimersCog(bot)
    follow_up = NewTimer("reminder", T + timedelta(days=1), 7, 1, '{"version": 3}')
    timer = MagicMock(spec=TimerRow)
    timers.reminders.decide = AsyncMock(  # type: ignore[method-assign]
        side_effect=[
            ReminderDecision(notice(), follow_up, "due"),
            ReminderDecision(None, None, "turn changed"),
        ]
    )
    assert await timers.on_reminder(timer) == follow_up
    assert await timers.on_reminder(timer) is None
    posts.assert_awaited_once()


def stamp(moment: datetime) -> int:
    return int(moment.timestamp())


def clock(**changes: Any) -> SeatClockInfo:
    base: dict[str, Any] = {
        "seat": 1,
        "time_left_ms": (26 * 3600 + 125) * 1000,
        "running": True,
        "paused_until": None,
        "flagged": False,
        "deadline": T + timedelta(days=2),
        "mode": "soft",
        "as_of": T,
    }
    base.update(changes)
    return SeatClockInfo(**base)


def test_the_reminder_text_names_the_game_the_place_the_wait_and_the_board() -> None:
    text = reminder_text(notice(board_message_id=88), direct=False)
    since = int(T.timestamp())
    assert text == (
        f"⏰ <@{USER}>, it is your turn in **Orbs** in <#{CHANNEL}> (as North; your turn "
        f"began <t:{since}:R>).\n"
        f"[Jump to the board]({jump_url(GUILD, CHANNEL, 88)})"
    )
    assert jump_url(GUILD, CHANNEL, 88) == f"https://discord.com/channels/{GUILD}/{CHANNEL}/88"
    assert jump_url(None, CHANNEL, 88) == f"https://discord.com/channels/@me/{CHANNEL}/88"
    direct = reminder_text(notice(), direct=True)
    assert direct.startswith("⏰ It is your turn in **Orbs** in <#500>")
    assert "<@" not in direct


@pytest.mark.parametrize(
    ("info", "line"),
    [
        (
            clock(),
            f"Your clock: 1d 2h left; it runs out <t:{stamp(T + timedelta(days=2))}:R>.",
        ),
        (
            clock(mode="hard", time_left_ms=45_000),
            "Your hard clock: less than a minute left; it runs out",
        ),
        (
            clock(paused_until=T + timedelta(days=3), deadline=None),
            f"Your clock is paused for your vacation until <t:{stamp(T + timedelta(days=3))}:f>: "
            "1d 2h left.",
        ),
        (
            clock(flagged=True, time_left_ms=-5000),
            "Your time is out: your opponents may claim your time-out with `/claim`.",
        ),
    ],
)
def test_the_reminder_text_shows_the_clock(info: SeatClockInfo, line: str) -> None:
    assert line in reminder_text(notice(clock=info), direct=True).splitlines()[1]
