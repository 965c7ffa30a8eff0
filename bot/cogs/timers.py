"""The timer loop, and the Discord side of reminders.

Timers are rows of ``timers`` (:mod:`db.timers`), never only asyncio tasks: they survive a
restart and several processes may share them. One ``discord.ext.tasks`` loop per process
(:meth:`TimersCog.run_timers`, every ``GAMEROOM_TIMER_INTERVAL``) runs the due ones through a
:class:`~bot.service.timers.TimerRunner`. Every loaded cog that offers ``timer_handlers()``
(:class:`TimerHandlerProvider`) contributes the handlers of its timer kinds — the Clocks cog
``clock`` and ``final_warning``, the Spectators cog ``thread_archive``, this cog
``reminder`` — and the runner is rebuilt whenever that set changes (a cog loaded or
unloaded), so a kind nobody handles here is left for another process. A tick never raises:
errors are logged and the next tick tries again. Once a day the loop also deletes fired and
failed timers older than a week.

Reminders (:mod:`bot.service.reminders` decides them): a direct message when the player
chose ``/settings reminders delivery:dm`` — in the game's channel or thread, with a mention,
if the DM fails (DMs closed) — else a mention in the game's channel or thread.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Final, Protocol, runtime_checkable

import discord
from discord.ext import commands, tasks

from bot.service.clocks import short_duration
from bot.service.reminders import REMINDER_TIMER, ReminderNotice, Reminders
from bot.service.timers import Handler, RunReport, TimerRunner, default_worker_name
from bot.ui.host import BotHost
from bot.ui.replies import post_in_channel
from db.rows import NewTimer, TimerRow
from db.schema import ReminderDelivery

__all__ = [
    "KEEP_SETTLED_TIMERS",
    "TIMERS_COG",
    "TimerHandlerProvider",
    "TimersCog",
    "jump_url",
    "reminder_text",
]

log = logging.getLogger(__name__)

#: The cog's name (``bot.get_cog(TIMERS_COG)``).
TIMERS_COG: Final = "Timers"
#: Fired and failed timers are kept this long for diagnostics, then purged.
KEEP_SETTLED_TIMERS: Final = timedelta(days=7)
#: How often the loop purges settled timers.
PURGE_EVERY: Final = timedelta(days=1)
#: The longest a handler may take (shorter when ``GAMEROOM_TIMER_STALE_AFTER`` is short).
HANDLER_TIMEOUT: Final = timedelta(seconds=60)
#: Full batches one tick runs back to back before it leaves the rest to the next tick.
MAX_BATCHES_PER_TICK: Final = 20


@runtime_checkable
class TimerHandlerProvider(Protocol):
    """A cog that runs some kinds of timers: ``timer_handlers()`` maps each kind to its
    :data:`~bot.service.timers.Handler` (called with the claimed row; returns the timer to
    schedule next, or ``None``). Called on every tick, so return the same bound methods."""

    def timer_handlers(self) -> Mapping[str, Handler]: ...


class TimersCog(commands.Cog, name=TIMERS_COG):
    """Runs due timers on a loop and delivers reminders."""

    def __init__(self, bot: BotHost) -> None:
        self.bot = bot
        settings = bot.settings
        self._reminders: Reminders | None = None
        self.worker = default_worker_name()
        self._stale_after = settings.timer_stale_after
        self._handler_timeout = min(HANDLER_TIMEOUT, settings.timer_stale_after / 2)
        self._runner: TimerRunner | None = None
        self._next_purge: datetime | None = None
        self.run_timers.change_interval(seconds=settings.timer_interval.total_seconds())

    async def cog_load(self) -> None:
        self.run_timers.start()

    async def cog_unload(self) -> None:
        self.run_timers.cancel()

    # ---- the loop -------------------------------------------------------------------------

    @tasks.loop(seconds=30)
    async def run_timers(self) -> None:
        """One tick: run what is due; never raises (the loop must go on)."""
        try:
            await self.tick()
        except Exception:
            log.exception("the timer loop failed this tick; it tries again on the next one")

    @run_timers.before_loop
    async def _wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()

    async def tick(self) -> list[RunReport]:
        """Run due timers (full batches back to back, up to :data:`MAX_BATCHES_PER_TICK`),
        then purge old settled timers if a day has passed; returns the runner's reports.

        Raises what the database raises (the loop logs it)."""
        reports: list[RunReport] = []
        runner = self.runner()
        if runner is not None:
            for _ in range(MAX_BATCHES_PER_TICK):
                report = await runner.run_once()
                reports.append(report)
                if report.claimed or report.released_stale:
                    log.info(
                        "timers: %d fired, %d retried, %d failed, %d lost, %d stale released",
                        len(report.fired),
                        len(report.retried),
                        len(report.failed),
                        len(report.lost),
                        len(report.released_stale),
                    )
                if report.claimed < runner.batch_size:
                    break
        await self._purge_if_due()
        return reports

    def handlers(self) -> dict[str, Handler]:
        """Every loaded cog's timer handlers by kind (cogs in name order; a kind offered
        twice keeps the first and logs an error)."""
        found: dict[str, Handler] = {}
        owners: dict[str, str] = {}
        for name, cog in sorted(self.bot.cogs.items()):
            if not isinstance(cog, TimerHandlerProvider):
                continue
            for kind, handler in cog.timer_handlers().items():
                if kind in found:
                    log.error(
                        "cogs %s and %s both handle %r timers; %s runs them",
                        owners[kind],
                        name,
                        kind,
                        owners[kind],
                    )
                    continue
                found[kind] = handler
                owners[kind] = name
        return found

    def runner(self) -> TimerRunner | None:
        """The runner for the handlers offered now (rebuilt when they changed), or ``None``
        when no cog handles any timer."""
        handlers = self.handlers()
        if not handlers:
            if self._runner is not None:
                log.warning("no cog handles timers any more; the loop idles")
            self._runner = None
            return None
        if self._runner is None or self._runner.handlers != handlers:
            log.info("timer loop %s runs kinds %s", self.worker, ", ".join(sorted(handlers)))
            self._runner = TimerRunner(
                self.bot.database,
                handlers,
                worker=self.worker,
                handler_timeout=self._handler_timeout,
                stale_after=self._stale_after,
            )
        return self._runner

    async def _purge_if_due(self) -> None:
        now = discord.utils.utcnow()
        if self._next_purge is not None and now < self._next_purge:
            return
        deleted = await self.bot.database.timers.purge(now - KEEP_SETTLED_TIMERS)
        self._next_purge = now + PURGE_EVERY
        if deleted:
            log.info("purged %d fired or failed timers older than %s", deleted, KEEP_SETTLED_TIMERS)

    # ---- reminders ------------------------------------------------------------------------

    @property
    def reminders(self) -> Reminders:
        """Decides fired reminders (made on first use: the service exists once the bot is
        set up, which may be after this cog is constructed)."""
        if self._reminders is None:
            self._reminders = Reminders(
                self.bot.service, interval=self.bot.settings.reminder_interval
            )
        return self._reminders

    def timer_handlers(self) -> Mapping[str, Handler]:
        """This cog runs the ``reminder`` timers."""
        return {REMINDER_TIMER: self.on_reminder}

    async def on_reminder(self, timer: TimerRow) -> NewTimer | None:
        """A reminder timer fired: deliver it if still due; returns the next one."""
        decision = await self.reminders.decide(timer)
        if decision.notice is None:
            log.debug(
                "reminder %d (game %s, seat %s) not sent: %s",
                timer.id,
                timer.game_id,
                timer.seat,
                decision.reason,
            )
        else:
            where = await self.deliver(decision.notice)
            log.info(
                "reminded user %d of game %d (%s)",
                decision.notice.user_id,
                decision.notice.game_id,
                where,
            )
        return decision.follow_up

    async def deliver(self, notice: ReminderNotice) -> str:
        """Send ``notice`` as its player chose; returns where it went: ``"dm"``,
        ``"channel"`` or ``"nowhere"`` (both failed; logged, not retried — the next
        reminder comes after the interval)."""
        dm_failed = False
        if notice.delivery is ReminderDelivery.DM:
            if await self._send_dm(notice):
                return "dm"
            dm_failed = True
        posted = await post_in_channel(
            self.bot,
            notice.channel_id,
            reminder_text(notice, direct=False, dm_failed=dm_failed),
            guild_id=notice.guild_id,
            mention_ids=(notice.user_id,),
        )
        return "nowhere" if posted is None else "channel"

    async def _send_dm(self, notice: ReminderNotice) -> bool:
        try:
            user = self.bot.get_user(notice.user_id) or await self.bot.fetch_user(notice.user_id)
            await user.send(
                reminder_text(notice, direct=True),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as error:
            log.info(
                "could not DM user %d (%s %s); reminding in channel %d instead",
                notice.user_id,
                error.status,
                error.text,
                notice.channel_id,
            )
            return False
        return True


# ------------------------------------------------------------------------------------------
# Texts
# ------------------------------------------------------------------------------------------


def jump_url(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """The link that opens a message in Discord's client (``@me`` for a DM)."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


def _stamp(moment: datetime, style: str) -> str:
    """A Discord timestamp (each reader sees it in their own time zone)."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def _rounded(delta: timedelta) -> str:
    """Time left as the other posts write it (:func:`short_duration`: ``23h 59m``, two
    units), or ``less than a minute`` under a minute (not "0s left" a second before the end)."""
    if delta < timedelta(minutes=1):
        return "less than a minute"
    return short_duration(delta)


def reminder_text(notice: ReminderNotice, *, direct: bool, dm_failed: bool = False) -> str:
    """The reminder: whose turn (a mention, unless ``direct``: a DM), which game and where,
    since when, the clock if the game has one, and a link to the last board.

    ``dm_failed`` adds that the player asked for a DM that could not be sent.
    """
    who = "It is your" if direct else f"<@{notice.user_id}>, it is your"
    lines = [
        f"⏰ {who} turn in **{notice.game_name}** in <#{notice.channel_id}> "
        f"(as {notice.seat_name}; your turn began {_stamp(notice.to_move_since, 'R')})."
    ]
    clock = notice.clock
    if clock is not None:
        kind = "hard clock" if clock.mode == "hard" else "clock"
        if clock.paused_until is not None:
            lines.append(
                f"Your {kind} is paused for your vacation until "
                f"{_stamp(clock.paused_until, 'f')}: {_rounded(clock.time_left)} left."
            )
        elif clock.flagged and clock.mode == "hard":
            lines.append("Your time is out: the bot is about to apply the time-out.")
        elif clock.flagged:
            lines.append("Your time is out: your opponents may claim your time-out with `/claim`.")
        elif clock.deadline is not None:
            lines.append(
                f"Your {kind}: {_rounded(clock.time_left)} left; it runs out "
                f"{_stamp(clock.deadline, 'R')}."
            )
    if notice.board_message_id is not None:
        url = jump_url(notice.guild_id, notice.channel_id, notice.board_message_id)
        lines.append(f"[Jump to the board]({url})")
    if dm_failed:
        lines.append("(I could not send you a direct message, so I remind you here.)")
    return "\n".join(lines)


async def setup(bot: BotHost) -> None:
    await bot.add_cog(TimersCog(bot))
