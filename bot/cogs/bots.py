"""The bot's own seats: it moves by itself when it is a bot seat's turn.

A bot turn is a ``bot_turn`` timer row (due at once) written with the change that gave a bot
seat the move (:mod:`bot.service.bots`). This cog runs those timers on a loop of its own —
apart from the general timer loop of :mod:`bot.cogs.timers`, whose handlers are quick while a
search takes up to a couple of seconds — with as many turns at once as there are search
workers (``GAMEROOM_AI_WORKERS``). The loop wakes at once when this process commits a change
that hands a bot the move, and otherwise looks every :data:`POLL_SECONDS` (for turns planned
by another process, or released after a crash: a turn claimed by a process that died runs
again after ``GAMEROOM_TIMER_STALE_AFTER``).

A bot's move is posted like a person's: the board, the one-line summary, and a mention of
whoever is to move next — never of the bot itself — in the order of the channel's moves
(:func:`bot.ui.board.turn_in_order`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta
from typing import Final

from discord.ext import commands

from bot.service import StaleActionError
from bot.service.bots import BOT_TURN_TIMER, BotTurn
from bot.service.clocks import OutOfTimeError
from bot.service.timers import TimerRunner, default_worker_name
from bot.ui.board import post_turn, turn_in_order
from bot.ui.host import BotHost
from db.rows import NewTimer, TimerRow

__all__ = ["BOTS_COG", "POLL_SECONDS", "BotsCog"]

log = logging.getLogger(__name__)

BOTS_COG: Final = "Bots"
#: How often the loop looks for bot turns when nothing woke it.
POLL_SECONDS: Final = 5.0
#: Seconds after an exhibition's pace that the loop looks again for the turn then due (the
#: database's clock and this process's may differ by a little).
PACE_SLACK_S: Final = 0.05
#: Seconds between typing requests while the bot thinks (Discord shows one for about 10 s).
TYPING_EVERY_S: Final = 8.0
#: A search's handler gives up after this (the search's own limit is at most a few seconds).
HANDLER_TIMEOUT: Final = timedelta(seconds=60)
#: Attempts of one bot turn before the timer is marked failed (at most a minute apart: about
#: a week of retrying, far longer than any clock gives the bot).
MAX_TURN_ATTEMPTS: Final = 10_000


class BotsCog(commands.Cog, name=BOTS_COG):
    """Runs bot turns: search in a worker process, commit, post."""

    def __init__(self, bot: BotHost) -> None:
        self.bot = bot
        self.workers = bot.settings.ai_workers
        self._runner: TimerRunner | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def runner(self) -> TimerRunner:
        """The runner of ``bot_turn`` timers (made on first use: the database exists once
        the bot is set up, which may be after this cog is constructed)."""
        if self._runner is None:
            settings = self.bot.settings
            self._runner = TimerRunner(
                self.bot.database,
                {BOT_TURN_TIMER: self.on_bot_turn},
                worker=f"{default_worker_name()}-bots",
                batch_size=1,
                handler_timeout=min(HANDLER_TIMEOUT, settings.timer_stale_after / 2),
                stale_after=settings.timer_stale_after,
                # A failed turn (a search process that died or hung) is tried again, without
                # end: a bot that gave up would leave its opponent waiting forever.
                max_attempts=MAX_TURN_ATTEMPTS,
                backoff_base=timedelta(seconds=2),
                backoff_cap=timedelta(minutes=1),
            )
        return self._runner

    async def cog_load(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="bot turns")

    async def cog_unload(self) -> None:
        service = getattr(self.bot, "service", None)
        if service is not None and self.wake in service.core.bot_turn_listeners:
            service.core.bot_turn_listeners.remove(self.wake)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def wake(self, game_id: int | None = None) -> None:
        """Look for bot turns now (called when this process hands a bot the move), and again
        once an exhibition's pace has passed (its turn is due then, not now:
        :meth:`~bot.service.core.GameCore.bot_turn_delay`), rather than at the next poll."""
        self._wake.set()
        pace = self.bot.service.core.exhibition_pace.total_seconds()
        if pace > 0:
            asyncio.get_running_loop().call_later(pace + PACE_SLACK_S, self._wake.set)

    async def _loop(self) -> None:
        await self.bot.wait_until_ready()
        self.bot.service.core.bot_turn_listeners.append(self.wake)
        while True:
            self._wake.clear()
            try:
                await self.run_due()
            except Exception:
                log.exception("the bot-turn loop failed; it tries again shortly")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL_SECONDS)

    async def run_due(self) -> int:
        """Run due bot turns, up to one per search worker at a time, until none is due;
        returns how many were claimed. Raises what the database raises."""
        claimed = 0
        while True:
            reports = await asyncio.gather(*(self.runner.run_once() for _ in range(self.workers)))
            round_claimed = sum(report.claimed for report in reports)
            claimed += round_claimed
            if round_claimed == 0:
                return claimed

    async def on_bot_turn(self, timer: TimerRow) -> NewTimer | None:
        """A bot turn is due: search, commit, post. When the game changed during the search
        (a draw offer, another process's move) and the bot is still to move, the turn is
        planned again at once; a turn that is no longer the bot's does nothing."""
        service = self.bot.service
        turn = await service.bots.turn_due(timer)
        if turn is None:
            return None
        # "Gameroom is typing…" while it searches, for the people of the game (Discord shows
        # it for up to 10 s or until the bot posts); not in a game of bots only.
        typing = asyncio.create_task(self._show_thinking(turn)) if turn.people else None
        try:
            text = await service.bots.think(turn)
        finally:
            if typing is not None:
                typing.cancel()
        # The commit and the post keep the channel's order (a person's move in between waits).
        async with turn_in_order(self.bot, turn.channel_id):
            try:
                result = await service.bots.play(turn, text)
            except StaleActionError:
                if await service.bots.still_to_move(turn):
                    log.info(
                        "game %d: the position changed while the bot thought; again", turn.game_id
                    )
                    return service.bots.again(turn)
                return None
            except OutOfTimeError:
                return None  # the time-out was applied and announced by the clock listeners
            await post_turn(self.bot, result)
        return None

    async def _show_thinking(self, turn: BotTurn) -> None:
        """Keep the typing indicator on in the game's channel or thread until cancelled (one
        request shows it for about 10 s, so it is sent again every :data:`TYPING_EVERY_S`
        while a turn waits for a busy search worker). Best effort: a channel deleted or
        without the permission, or any other failure, only costs the indicator."""
        channel = self.bot.get_partial_messageable(turn.channel_id)
        try:
            while True:
                await channel.typing()
                await asyncio.sleep(TYPING_EVERY_S)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.debug("game %d: no typing indicator (%r)", turn.game_id, error)


async def setup(bot: BotHost) -> None:
    await bot.add_cog(BotsCog(bot))
