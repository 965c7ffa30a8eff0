"""Vacations: a user's yearly allowance, and the clocks it pauses in every game at once.

:class:`Vacations` is the use case (``/vacation start|end|status``); the functions below it
read, decide (:class:`~bot.service.clocks.VacationBook`) and write with a compare-and-set,
retried when a move lands first, so the pause of every running clock and the move of its
timers are one transaction.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Final

from bot.service.clock_plans import (
    plan_pause,
    plan_resume,
)
from bot.service.clocks import (
    REMINDER_TIMER,
    SeatClock,
    VacationBook,
    VacationError,
    format_duration,
    to_ms,
)
from bot.service.core import GameCore
from bot.service.errors import (
    StaleActionError,
)
from bot.service.models import (
    VacationGame,
    VacationInfo,
)
from db import (
    Database,
)
from db.clocks import ClockChangedError, VacationChangedError
from db.rows import ClockChanges, VacationRow
from engines import get_engine

log = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_VACATION_ALLOWANCE",
    "VACATION_ATTEMPTS",
    "Vacations",
    "book_vacation",
    "end_vacation",
    "start_vacation",
    "vacation_ends",
]

#: Vacation each user may take per calendar year.
DEFAULT_VACATION_ALLOWANCE = timedelta(days=30)
#: How often a vacation change reads and decides again when a move or another change lands
#: first.
VACATION_ATTEMPTS: Final = 5


class Vacations:
    """``/vacation``: ``allowance`` is the vacation each user may take per calendar year.
    Raises :class:`ValueError` for a negative allowance."""

    def __init__(
        self, core: GameCore, *, allowance: timedelta = DEFAULT_VACATION_ALLOWANCE
    ) -> None:
        if allowance < timedelta(0):
            raise ValueError("the vacation allowance cannot be negative")
        self.core = core
        self.allowance = allowance

    async def start(self, user_id: int, duration: timedelta) -> VacationInfo:
        """``/vacation start``: ``user_id`` goes on vacation for ``duration`` (or what is left
        of this year's allowance, if less: the answer's ``booked`` says how much was added;
        a vacation under way is extended). Their running
        clocks in every active game pause until it ends, and those clocks' timers move with
        them, atomically; a turn that reaches them meanwhile starts paused too.

        Raises :class:`~bot.service.clocks.VacationError` (a duration that is not positive, or
        nothing left this year) and :class:`StaleActionError` if moves kept landing while
        the vacation was written.
        """
        now = self.core.now()
        try:
            _, booked = await book_vacation(
                self.core.database, user_id, duration, allowance=self.allowance, now=now
            )
        except ValueError as exc:
            raise VacationError(str(exc)) from exc
        except (ClockChangedError, VacationChangedError) as exc:
            raise StaleActionError("Your games kept changing; please try again.") from exc
        log.info("user %d is on vacation for up to %s", user_id, format_duration(duration))
        return replace(await self.status(user_id), booked=booked)

    async def end(self, user_id: int) -> VacationInfo:
        """``/vacation end``: end ``user_id``'s vacation now. Their paused clocks run again
        from now and the unused part goes back to this year's allowance.

        Raises :class:`~bot.service.clocks.VacationError` ("You are not on vacation.") and
        :class:`StaleActionError` as :meth:`start` does.
        """
        now = self.core.now()
        before = await self.core.database.vacations.get(user_id)
        try:
            await end_vacation(self.core.database, user_id, now=now)
        except ValueError as exc:
            raise VacationError(str(exc)) from exc
        except (ClockChangedError, VacationChangedError) as exc:
            raise StaleActionError("Your games kept changing; please try again.") from exc
        log.info("user %d ended their vacation", user_id)
        if before is not None and before.until is not None and before.until > now:
            await self._pull_reminders(user_id, before.until, now)
        return await self.status(user_id)

    async def _pull_reminders(self, user_id: int, until: datetime, now: datetime) -> None:
        """After a vacation planned to end at ``until`` ended early at ``now``: each pending
        reminder of a turn of ``user_id``'s that the vacation held comes a quiet time after
        ``now`` instead, as docs/clocks.md says ("a turn that reaches you during your vacation
        starts when it ends"). Held means due at ``until`` plus the seat's quiet time (a turn
        that reached them during it) or at ``until`` (a reminder deferred while away);
        others (a follow-up planned before the vacation) are left alone. Its payload (the
        turn it reminds of) is kept. In every active game, with a clock or not, each under
        its lock, read again there; the move is a compare-and-set on the timer as read
        (:meth:`db.timers.TimersRepo.bring_forward`), so a turn change of another process
        that replaced it meanwhile keeps its own reminder. The clocks were moved by
        :func:`end_vacation`."""
        database = self.core.database
        for listed in await database.games.list_active(user_id=user_id):
            async with self.core.game_lock(listed.id):
                row = await database.games.get(listed.id)
                if row is None or not row.is_active:
                    continue
                meta = await self.core.game_meta(row)
                seats = [s for s in meta.seats_of(user_id) if s in row.to_move]
                if not seats:
                    continue
                users = dict.fromkeys(seats, user_id)
                _, due, _ = await self.core.turn_start(row.guild_id, users, now)
                for timer in await database.timers.pending(game_id=row.id, kinds=[REMINDER_TIMER]):
                    at = due.get(timer.seat) if timer.seat is not None else None
                    if at is None or not _held(timer.due_at, until, at - now):
                        continue
                    if await database.timers.bring_forward(timer, at):
                        log.info("game %d: seat %d's reminder moved to %s", row.id, timer.seat, at)

    async def status(self, user_id: int) -> VacationInfo:
        """``/vacation status``: until when ``user_id`` is on vacation, how much of this
        year's allowance is used and left, and their active games, with a clock and
        without."""
        now = self.core.now()
        book = VacationBook.from_row(await self.core.database.vacations.get(user_id), now)
        games, unclocked = [], []
        for row in await self.core.database.games.list_active(user_id=user_id):
            name = get_engine(row.game).info.name
            if row.clock == "none":
                unclocked.append(VacationGame(row.id, name, row.guild_id, row.channel_id))
                continue
            seats = (await self.core.game_meta(row)).seats_of(user_id)
            late = any(
                clock.seat in seats and SeatClock.from_row(clock).out_of_time(now)
                for clock in await self.core.read_clocks(row)
            )
            games.append(VacationGame(row.id, name, row.guild_id, row.channel_id, late))
        return VacationInfo(
            user_id=user_id,
            until=book.until if book.on_vacation(now) else None,
            used=book.used_in(now.year),
            left=book.left(now, self.allowance),
            allowance=self.allowance,
            games=tuple(games),
            as_of=now,
            unclocked=tuple(unclocked),
        )


def _held(due_at: datetime, until: datetime, quiet: timedelta) -> bool:
    """Whether a reminder due at ``due_at`` is one a vacation ending at ``until`` held: due
    at ``until`` plus the ``quiet`` time, or at ``until`` (to the second: timestamps come back
    from the database rounded)."""
    return any(abs(due_at - at) <= timedelta(seconds=1) for at in (until, until + quiet))


async def start_vacation(
    database: Database,
    user_id: int,
    requested: timedelta,
    *,
    allowance: timedelta,
    now: datetime,
) -> VacationRow:
    """Put ``user_id`` on vacation for up to ``requested`` (within ``allowance`` per year),
    pausing their clocks in every active game and moving those clocks' timers, atomically.
    Returns the vacation row written (:func:`book_vacation` also says how much it added).

    Raises :class:`ValueError` (one friendly sentence) as :meth:`VacationBook.start` does,
    and :class:`db.clocks.ClockChangedError` or :class:`db.clocks.VacationChangedError` if
    other changes keep landing first.
    """
    row, _ = await book_vacation(database, user_id, requested, allowance=allowance, now=now)
    return row


async def book_vacation(
    database: Database,
    user_id: int,
    requested: timedelta,
    *,
    allowance: timedelta,
    now: datetime,
) -> tuple[VacationRow, timedelta]:
    """:func:`start_vacation`, returning also the vacation this write added: ``requested``,
    or less when the allowance ran short (what the write booked, not a difference of two
    reads, which a concurrent change or the new year could skew)."""
    for attempt in range(VACATION_ATTEMPTS):
        row = await database.vacations.get(user_id)
        if row is None:  # write over an existing row: its lock is what a racing move waits on
            await database.vacations.ensure(user_id, now=now)
            row = await database.vacations.get(user_id)
        before = VacationBook.from_row(row, now)
        book = before.start(now, requested, allowance)
        until = book.until if book.until is not None else now  # start() always sets it
        running = await database.clocks.running_for_user(user_id)
        changes = plan_pause(running, now, until)
        try:
            written = await _write_book(database, user_id, row, book, now, changes)
        except (ClockChangedError, VacationChangedError):
            if attempt == VACATION_ATTEMPTS - 1:
                raise
            continue
        return written, book.used_in(now.year) - before.used_in(now.year)
    raise AssertionError("unreachable")  # pragma: no cover


async def end_vacation(
    database: Database,
    user_id: int,
    *,
    now: datetime,
) -> VacationRow:
    """End ``user_id``'s vacation at ``now``: their paused clocks run again from ``now`` and
    the unused days go back to this year's allowance. Raises :class:`ValueError` ("You are
    not on vacation.") and the errors of :func:`start_vacation`."""
    for attempt in range(VACATION_ATTEMPTS):
        row = await database.vacations.get(user_id)
        book = VacationBook.from_row(row, now).end(now)
        running = await database.clocks.running_for_user(user_id)
        changes = plan_resume(running, now)
        try:
            return await _write_book(database, user_id, row, book, now, changes)
        except (ClockChangedError, VacationChangedError):
            if attempt == VACATION_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


async def vacation_ends(
    database: Database, user_ids: Mapping[int, int], now: datetime
) -> dict[int, datetime]:
    """For :func:`plan_turn`: seat → end of its player's vacation, for the seats in
    ``user_ids`` (seat → user id) whose player is on vacation at ``now``."""
    found: dict[int, datetime] = {}
    for seat, user_id in user_ids.items():
        row = await database.vacations.get(user_id)
        if row is not None and row.until is not None and row.until > now:
            found[seat] = row.until
    return found


async def _write_book(
    database: Database,
    user_id: int,
    row: VacationRow | None,
    book: VacationBook,
    now: datetime,
    changes: ClockChanges,
) -> VacationRow:
    return await database.vacations.write(
        user_id,
        None if row is None else row.version,
        year=book.year,
        used_ms=to_ms(book.used),
        started_at=book.started_at,
        until=book.until,
        now=now,
        changes=changes,
    )
