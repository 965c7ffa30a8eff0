"""``TimerRunner``: runs due timers from the database, each exactly once, with retries.

Timers are rows of ``timers`` (see :mod:`db.timers`), never only asyncio tasks: they survive
a restart, and several bot processes can share one database because each timer is claimed by
exactly one worker. One call of :meth:`TimerRunner.run_once`:

1. releases claims older than ``stale_after`` (their worker died or hung), so they retry;
2. claims up to ``batch_size`` due timers of the kinds it has handlers for;
3. runs each one's handler (at most ``handler_timeout``), then marks it fired, scheduling
   the handler's follow-up timer (if it returned one) in the same transaction. A handler that
   raises (or times out) is logged with its traceback and the timer is released to run again
   after a backoff (``backoff_base`` doubling per attempt, at most ``backoff_cap``); after
   ``max_attempts`` attempts it is marked failed and logged as an error. Nothing is dropped
   silently.

Handlers receive the claimed :class:`~db.rows.TimerRow` and return a
:class:`~db.rows.NewTimer` to schedule next (a repeating reminder's next occurrence) or
``None``. The follow-up is written with the mark, while the claimed row still blocks its
(game, seat, kind) key for everyone else, so the next occurrence is scheduled exactly once:
it exists if and only if this one was marked fired. Handlers run once unless a worker dies between
a handler's effects and the mark (then again after ``stale_after``), so they check the truth
before acting: a clock handler reads the clock row and acts only if the seat is still flagged
at that version.

The Discord side is :mod:`bot.cogs.timers` (this module never imports discord): one
``discord.ext.tasks`` loop per process gathers the handlers every loaded cog offers and calls
:meth:`TimerRunner.run_once` on each tick.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

from db import Database
from db.rows import NewTimer, TimerRow

__all__ = ["Handler", "RunReport", "TimerRunner", "default_worker_name"]

log = logging.getLogger(__name__)

#: Runs one claimed timer and returns the timer to schedule after it (or ``None``);
#: raising means "try again later".
Handler = Callable[[TimerRow], Awaitable[NewTimer | None]]

_DEFAULT_BATCH: Final = 50


def _utc_now() -> datetime:
    return datetime.now(UTC)


def default_worker_name() -> str:
    """``"<host>:<pid>:<random>"``: unique per runner, readable in ``timers.claimed_by``."""
    return f"{socket.gethostname()[:64]}:{os.getpid()}:{secrets.token_hex(4)}"


@dataclass(frozen=True, slots=True)
class RunReport:
    """What one :meth:`TimerRunner.run_once` did, for logs and tests: timer ids by result.

    ``lost`` are timers whose handler ran but whose claim was gone when it finished
    (cancelled, replaced, or released as stale meanwhile).
    """

    fired: tuple[int, ...] = ()
    retried: tuple[int, ...] = ()
    failed: tuple[int, ...] = ()
    lost: tuple[int, ...] = ()
    released_stale: tuple[int, ...] = ()

    @property
    def claimed(self) -> int:
        """How many timers this run claimed."""
        return len(self.fired) + len(self.retried) + len(self.failed) + len(self.lost)


class TimerRunner:
    """Claims due timers from ``database`` and runs their handlers (see the module docstring).

    ``handlers`` maps a timer kind to its :data:`Handler`; only those kinds are claimed.
    ``now`` is the clock (returns an aware UTC datetime; default the real time, tests pass a
    fake). ``worker`` names this
    runner in ``timers.claimed_by`` (default :func:`default_worker_name`).

    Raises :class:`ValueError` for no handlers, ``batch_size`` or ``max_attempts`` below 1,
    a non-positive backoff or timeout, or ``stale_after`` not longer than
    ``handler_timeout`` (a slow handler's timer would be run twice).
    """

    def __init__(
        self,
        database: Database,
        handlers: Mapping[str, Handler],
        *,
        now: Callable[[], datetime] = _utc_now,
        worker: str | None = None,
        batch_size: int = _DEFAULT_BATCH,
        max_attempts: int = 5,
        backoff_base: timedelta = timedelta(seconds=30),
        backoff_cap: timedelta = timedelta(hours=1),
        handler_timeout: timedelta = timedelta(seconds=60),
        stale_after: timedelta = timedelta(minutes=5),
    ) -> None:
        if not handlers:
            raise ValueError("a TimerRunner needs at least one handler")
        if batch_size < 1 or max_attempts < 1:
            raise ValueError("batch_size and max_attempts must be at least 1")
        zero = timedelta(0)
        if min(backoff_base, backoff_cap, handler_timeout) <= zero:
            raise ValueError("backoffs and the handler timeout must be positive")
        if stale_after <= handler_timeout:
            raise ValueError(
                f"stale_after ({stale_after}) must be longer than handler_timeout "
                f"({handler_timeout}), or a slow handler's timer would run twice"
            )
        self.database = database
        self.worker = worker or default_worker_name()
        self._handlers: dict[str, Handler] = dict(handlers)
        self._now = now
        self._batch_size = batch_size
        self._max_attempts = max_attempts
        self._backoff_base = backoff_base
        self._backoff_cap = backoff_cap
        self._handler_timeout = handler_timeout
        self._stale_after = stale_after

    @property
    def handlers(self) -> Mapping[str, Handler]:
        """The handler of each timer kind this runner claims (a copy)."""
        return dict(self._handlers)

    @property
    def batch_size(self) -> int:
        """The most timers one :meth:`run_once` claims; a full batch means more may be due."""
        return self._batch_size

    def backoff(self, attempts: int) -> timedelta:
        """The wait before retry number ``attempts`` (1 after the first failure):
        ``backoff_base * 2 ** (attempts - 1)``, at most ``backoff_cap``."""
        exponent = max(attempts - 1, 0)
        if exponent >= 32:
            return self._backoff_cap
        return min(self._backoff_base * (1 << exponent), self._backoff_cap)

    async def run_once(self) -> RunReport:
        """Release stale claims, claim due timers, run them; returns what happened.

        Handler errors are contained (logged, retried or failed). Database errors while
        claiming propagate: the caller's loop logs them and tries again on its next tick.
        """
        now = self._now()
        stale = await self.database.timers.release_stale(now, self._stale_after)
        for timer in stale:
            log.warning(
                "timer %d (%s) was claimed over %s ago and never finished; released for a retry",
                timer.id,
                timer.kind,
                self._stale_after,
            )
        claimed = await self.database.timers.claim_due(
            now, self.worker, self._batch_size, kinds=self._handlers
        )
        fired: list[int] = []
        retried: list[int] = []
        failed: list[int] = []
        lost: list[int] = []
        for timer in claimed:
            outcome = await self._run(timer)
            {"fired": fired, "retried": retried, "failed": failed, "lost": lost}[outcome].append(
                timer.id
            )
        return RunReport(
            tuple(fired),
            tuple(retried),
            tuple(failed),
            tuple(lost),
            tuple(timer.id for timer in stale),
        )

    async def _run(self, timer: TimerRow) -> str:
        """Run one claimed timer's handler and settle the claim; returns the outcome name."""
        handler = self._handlers[timer.kind]
        try:
            follow_up = await asyncio.wait_for(
                handler(timer), self._handler_timeout.total_seconds()
            )
        except Exception as exc:  # a handler's bug must not stop the other timers
            return await self._handle_failure(timer, exc)
        if await self.database.timers.mark_fired(timer, now=self._now(), follow_up=follow_up):
            if follow_up is None:
                log.debug("timer %d (%s) fired", timer.id, timer.kind)
            else:
                log.debug(
                    "timer %d (%s) fired; next %s due %s",
                    timer.id,
                    timer.kind,
                    follow_up.kind,
                    follow_up.due_at.isoformat(),
                )
            return "fired"
        current = await self.database.timers.get(timer.id)
        if current is None:
            # Deleted meanwhile: cancelled, usually by the handler's own change (a time-out
            # ends the game and cancels its timers, this one included). Nothing to redo.
            log.info("timer %d (%s) ran and was cancelled meanwhile", timer.id, timer.kind)
        elif current.created_at > timer.created_at:
            # Rescheduled in place by a newer timer of the same key, usually the handler's
            # own change (the bot's move leaves the same bot seat to decide again).
            log.info("timer %d (%s) ran and was rescheduled meanwhile", timer.id, timer.kind)
        else:
            log.warning(
                "timer %d (%s) ran, but its claim was gone (replaced or released)",
                timer.id,
                timer.kind,
            )
        return "lost"

    async def _handle_failure(self, timer: TimerRow, exc: Exception) -> str:
        if isinstance(exc, TimeoutError):
            error = f"timed out after {self._handler_timeout}"
        else:
            error = f"{type(exc).__name__}: {exc}"
        now = self._now()
        if timer.attempts >= self._max_attempts:
            log.error(
                "timer %d (%s, game %s, seat %s) failed %d times; giving up: %s",
                timer.id,
                timer.kind,
                timer.game_id,
                timer.seat,
                timer.attempts,
                error,
                exc_info=exc,
            )
            settled = await self.database.timers.mark_failed(timer, error=error, now=now)
            return "failed" if settled else "lost"
        retry_at = now + self.backoff(timer.attempts)
        log.warning(
            "timer %d (%s) failed on attempt %d of %d; retrying at %s: %s",
            timer.id,
            timer.kind,
            timer.attempts,
            self._max_attempts,
            retry_at.isoformat(),
            error,
            exc_info=exc,
        )
        settled = await self.database.timers.release(timer, retry_at=retry_at, error=error, now=now)
        return "retried" if settled else "lost"
