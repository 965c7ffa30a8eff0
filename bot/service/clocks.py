"""Correspondence clocks and vacations: the arithmetic, and the database changes it implies.

A game either has no clock (casual, the default) or a *correspondence clock* per seat: an
initial time bank, an increment added after each of the seat's moves, and a maximum the bank
never exceeds. A *soft* clock lets the opponents claim a win once a seat's time is out (until
they do, the late player may still move); a *hard* clock ends the game at zero.

Text syntax of a clock (what ``/challenge clock:`` accepts; ``str(spec)`` gives it back)::

    none | off | casual                    no clock
    correspondence                         the preset soft:48h+24h/96h (Abstract Play's)
    [soft:|hard:]INITIAL[+INCREMENT][/MAXIMUM]

``soft`` is the default mode, ``+0`` the default increment, and the maximum defaults to the
initial time. Durations are whole numbers with units, largest first: ``3d``, ``12h``,
``90m``, ``45s``, ``1d12h`` (see :func:`parse_duration`). Examples: ``hard:3d+1d/7d``,
``hard:correspondence``, ``36h``.

Pure parts (no clock, no I/O): :func:`parse_duration`, :func:`format_duration`,
:class:`ClockSpec`, :class:`SeatClock` (one seat's bank), :class:`VacationBook` (a user's
yearly allowance), :func:`clock_choices` (``/challenge clock:`` autocomplete) and the quiet
time before a reminder (:func:`effective_quiet`, :func:`reminder_delay`). The planners that
turn a move or a vacation into database changes live in :mod:`bot.service.clock_plans`; the
vacation use case in :mod:`bot.service.vacations`. The errors users cause are
:class:`~bot.service.errors.ServiceError` subclasses: :class:`OutOfTimeError`,
:class:`ClaimError` and :class:`VacationError`.

Timers: a running seat clock has one pending ``"clock"`` timer at its deadline (payload
``{"clock_version": v}``: the clock row's version it was planned for, so a handler can tell
a stale timer at a glance) and, soft or hard, a ``"final_warning"`` timer
:data:`FINAL_WARNING_BEFORE` before it (:func:`deadline_timers`). Handlers must still read the
clock row and check :meth:`SeatClock.flagged` before acting. Every game, with a clock or not,
also has a ``"reminder"`` timer for each seat to move whose player wants reminders, due after
the quiet time (:func:`plan_reminders`, :func:`reminder_delay`): reminders belong to the turn,
not to the clock, so vacations leave them alone.

A seat whose time ran out on a hard clock (or whose opponent claimed on a soft one) *times
out*: the game's spec says what the bot plays for it (:meth:`engines.base.Engine.timeout_moves`,
drawn from :func:`timeout_rng`), or it loses (two players) or resigns (more). Its bank is then
zero plus the increment (:meth:`SeatClock.after_timeout`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum
from typing import ClassVar, Final

from bot.service.errors import ServiceError
from bot.service.models import ClockEvent
from db.rows import (
    ClockRow,
    ClockWrite,
    GuildSettingsRow,
    UserSettingsRow,
    VacationRow,
)
from db.schema import ReminderDelivery

__all__ = [
    "CLOCK_CHOICES",
    "CLOCK_TIMER",
    "CLOCK_TIMER_KINDS",
    "CORRESPONDENCE",
    "FINAL_WARNING_BEFORE",
    "FINAL_WARNING_TIMER",
    "MAX_DURATION",
    "REMINDER_TIMER",
    "ClaimError",
    "ClockMode",
    "ClockSpec",
    "DurationTooLongError",
    "OutOfTimeError",
    "QuietSource",
    "SeatClock",
    "VacationBook",
    "VacationError",
    "clock_choices",
    "effective_quiet",
    "format_duration",
    "parse_duration",
    "reminder_delay",
    "short_duration",
    "to_ms",
]

#: Timer kind fired at a seat's deadline (soft: the opponents may claim; hard: game over).
CLOCK_TIMER: Final = "clock"
#: Timer kind for a friendly "your move" reminder after the quiet time (any game).
REMINDER_TIMER: Final = "reminder"
#: Timer kind for the last warning before a seat clock's deadline (soft or hard).
FINAL_WARNING_TIMER: Final = "final_warning"
#: Every timer kind tied to a running seat clock; cancelled together when the clock stops.
CLOCK_TIMER_KINDS: Final = (CLOCK_TIMER, FINAL_WARNING_TIMER)
#: How long before a clock's deadline its final warning comes (none if the turn starts
#: with less time than that).
FINAL_WARNING_BEFORE: Final = timedelta(hours=2)

#: The longest duration a clock accepts anywhere (initial, increment, maximum).
MAX_DURATION: Final = timedelta(days=365)

_UNITS: Final = (("d", 86400), ("h", 3600), ("m", 60), ("s", 1))
_DURATION: Final = re.compile(
    r"(?:(?P<d>\d+)\s*d)?\s*(?:(?P<h>\d+)\s*h)?\s*(?:(?P<m>\d+)\s*m)?\s*(?:(?P<s>\d+)\s*s)?"
)
_ONE_MS: Final = timedelta(milliseconds=1)


def parse_duration(text: str, *, bare_unit: str | None = None) -> timedelta:
    """Parse ``"3d"``, ``"12h"``, ``"90m"``, ``"45s"`` or combinations (``"1d12h"``,
    ``"2h 30m"``) into a :class:`~datetime.timedelta`.

    Units are ``d``/``h``/``m``/``s``, largest first, each at most once; case and spaces do
    not matter. A bare number (``"3600"``) is allowed only when ``bare_unit`` names its unit
    (``bare_unit="s"`` reads it as seconds, as ``GAMEROOM_CHALLENGE_TTL`` does), except
    ``"0"``. The result may be zero; callers that need a positive duration check it.

    Raises :class:`ValueError` with one friendly sentence for anything else
    (:class:`DurationTooLongError` for a duration too long to hold).
    """
    cleaned = text.strip().lower()
    if cleaned.isdigit():
        if bare_unit is None and int(cleaned) != 0:
            raise ValueError(
                f"Give {text.strip()!r} a unit, like {cleaned}m, {cleaned}h or {cleaned}d."
            )
        unit = dict(_UNITS).get(bare_unit or "s")
        if unit is None:
            raise ValueError(f"Unknown duration unit {bare_unit!r}; use d, h, m or s.")
        return _seconds(int(cleaned) * unit, text)
    if not cleaned:
        raise ValueError("A duration is missing; write it like 3d, 12h, 90m, 45s or 1d12h.")
    match = _DURATION.fullmatch(cleaned)
    if match is None or not any(match.groupdict().values()):
        raise ValueError(
            f"{text.strip()!r} is not a duration; write it like 3d, 12h, 90m, 45s or 1d12h."
        )
    return _seconds(sum(int(match[name] or 0) * unit for name, unit in _UNITS), text)


#: Whole seconds in the longest duration Python can hold (``timedelta.max``, ~2.7 million
#: years): beyond it :class:`~datetime.timedelta` raises :class:`OverflowError`.
_MAX_SECONDS: Final = timedelta.max.days * 86400 + timedelta.max.seconds


class DurationTooLongError(ValueError):
    """A duration too long for :class:`~datetime.timedelta` (beyond ~2.7 million years);
    callers with a range of their own catch it to say that range instead."""


def _seconds(seconds: int, text: str) -> timedelta:
    """``seconds`` as a duration; :class:`DurationTooLongError` (one sentence naming
    ``text``) when it is too long to hold, which no caller accepts anyway (clocks stop at a
    year)."""
    if seconds > _MAX_SECONDS:
        raise DurationTooLongError(f"{text.strip()!r} is far too long a duration.")
    return timedelta(seconds=seconds)


def format_duration(delta: timedelta) -> str:
    """The compact text of ``delta`` in whole seconds (rounded down): ``timedelta(hours=36)``
    gives ``"1d12h"``, zero gives ``"0s"``, a negative duration a leading ``"-"``.

    :func:`parse_duration` reads the text back (for a non-negative duration).
    """
    sign = "-" if delta < timedelta(0) else ""
    seconds = int(abs(delta).total_seconds())
    parts: list[str] = []
    for name, unit in _UNITS:
        amount, seconds = divmod(seconds, unit)
        if amount:
            parts.append(f"{amount}{name}")
    return sign + ("".join(parts) or "0s")


def short_duration(delta: timedelta, *, nearest: bool = False) -> str:
    """A duration as people read it, in its two largest units (rounded down, or to the
    nearest of the smaller unit with ``nearest``: 29d 23h 59m reads ``30d``): ``1d 2h``,
    ``3h 12m``, ``45s``, ``0s`` (a negative one as ``0s``). For messages; the settings and
    clock specs keep :func:`format_duration`'s exact, parseable form."""
    delta = max(delta, timedelta(0))
    if nearest:
        step = next((unit for size, unit in _SHOWN_STEPS if delta >= size), timedelta(seconds=1))
        delta = step * round(delta / step)
    units = re.findall(r"\d+[dhms]", format_duration(delta))
    return " ".join(units[:2])


#: The smaller of the two units :func:`short_duration` shows, by the size of the duration.
_SHOWN_STEPS: Final = (
    (timedelta(days=1), timedelta(hours=1)),
    (timedelta(hours=1), timedelta(minutes=1)),
    (timedelta(minutes=1), timedelta(seconds=1)),
)


def to_ms(delta: timedelta) -> int:
    """``delta`` in whole milliseconds, rounded down (how ``clocks.remaining_ms`` stores a
    bank: a player never gains the fraction)."""
    return delta // _ONE_MS


class ClockMode(StrEnum):
    """What happens when a seat's time runs out."""

    NONE = "none"
    """No clock: casual play, no deadlines."""
    SOFT = "soft"
    """The opponents may claim a win once the seat's time is out; until then it may move."""
    HARD = "hard"
    """The game ends (the seat loses on time) as soon as its time is out."""


class OutOfTimeError(ServiceError):
    """A seat tried to move on a hard clock after its time ran out.

    :meth:`SeatClock.after_move` raises it; the service then applies the time-out instead of
    the move and raises it again to the player with a sentence saying what happened and the
    time-out it applied in ``event``.
    """

    def __init__(
        self,
        message: str = "Your time ran out, so you may no longer move.",
        *,
        event: ClockEvent | None = None,
    ) -> None:
        super().__init__(message)
        self.event = event


class ClaimError(ServiceError):
    """A claim on time that cannot be made: the game has no clock, nobody is out of time
    yet, or the claimer is the one out of time."""


class VacationError(ServiceError):
    """A vacation that cannot start or end: a duration that is not positive, no allowance
    left this year, or no vacation to end."""


@dataclass(frozen=True, slots=True)
class ClockSpec:
    """A game's clock: ``mode``, ``initial`` bank, ``increment`` per move, ``maximum`` bank.

    Build one with :meth:`parse` (or the constants :data:`CORRESPONDENCE`,
    :attr:`ClockSpec.NONE`); ``str(spec)`` is the canonical text stored in
    ``clocks.spec``. For :attr:`ClockMode.NONE` the three durations are zero.

    Raises :class:`ValueError` (one friendly sentence) unless ``0 < initial <= maximum <=``
    :data:`MAX_DURATION` and ``0 <= increment <=`` :data:`MAX_DURATION` (for a clock).
    """

    mode: ClockMode
    initial: timedelta
    increment: timedelta
    maximum: timedelta

    NONE: ClassVar[ClockSpec]
    PRESETS: ClassVar[Mapping[str, str]] = {"correspondence": "48h+24h/96h"}
    _NO_CLOCK_WORDS: ClassVar[frozenset[str]] = frozenset({"none", "off", "casual", ""})

    def __post_init__(self) -> None:
        zero = timedelta(0)
        if self.mode is ClockMode.NONE:
            if (self.initial, self.increment, self.maximum) != (zero, zero, zero):
                raise ValueError("A game without a clock has no times.")
            return
        if self.initial <= zero:
            raise ValueError("A clock needs some time to start with, like 48h.")
        if self.increment < zero:
            raise ValueError("The increment cannot be negative.")
        if self.maximum < self.initial:
            raise ValueError(
                f"The maximum ({format_duration(self.maximum)}) cannot be less than the "
                f"starting time ({format_duration(self.initial)})."
            )
        if max(self.maximum, self.increment) > MAX_DURATION:
            raise ValueError(f"Clock times are at most {format_duration(MAX_DURATION)}.")

    @classmethod
    def parse(cls, text: str) -> ClockSpec:
        """Read a clock from its text (see the module docstring for the syntax).

        Raises :class:`ValueError` with one friendly sentence for bad text or times.
        """
        cleaned = text.strip().lower()
        if cleaned in cls._NO_CLOCK_WORDS:
            return cls.NONE
        mode = ClockMode.SOFT
        head, colon, rest = cleaned.partition(":")
        if colon:
            if head.strip() not in (ClockMode.SOFT, ClockMode.HARD):
                raise ValueError(f"A clock is soft or hard, not {head.strip()!r}.")
            mode, cleaned = ClockMode(head.strip()), rest.strip()
        cleaned = cls.PRESETS.get(cleaned, cleaned)
        times, slash, maximum_text = cleaned.partition("/")
        initial_text, plus, increment_text = times.partition("+")
        if not initial_text.strip():
            raise ValueError(
                f"{text.strip()!r} is not a clock; write it like 48h+24h/96h, hard:3d or "
                "correspondence."
            )
        initial = parse_duration(initial_text)
        increment = parse_duration(increment_text) if plus else timedelta(0)
        maximum = parse_duration(maximum_text) if slash else initial
        return cls(mode, initial, increment, maximum)

    @property
    def enabled(self) -> bool:
        """False for no clock (:attr:`ClockMode.NONE`)."""
        return self.mode is not ClockMode.NONE

    def __str__(self) -> str:
        if not self.enabled:
            return "none"
        return (
            f"{self.mode}:{format_duration(self.initial)}+{format_duration(self.increment)}"
            f"/{format_duration(self.maximum)}"
        )

    def describe(self) -> str:
        """One line for ``/challenge`` and ``/game info``, e.g. ``"soft clock: 2d to start,
        +1d per move, at most 4d"``."""
        if not self.enabled:
            return "no clock"
        increment = (
            f", +{format_duration(self.increment)} per move" if self.increment else ", no increment"
        )
        return (
            f"{self.mode} clock: {format_duration(self.initial)} to start{increment}, "
            f"at most {format_duration(self.maximum)}"
        )

    def new_clock(
        self, now: datetime, *, running: bool, paused_until: datetime | None = None
    ) -> SeatClock:
        """A seat's clock at the start of a game: the initial bank, running from ``now`` if
        it is the seat's turn (from ``paused_until`` if that is later: its player is on
        vacation), else stopped. Raises :class:`ValueError` for no clock."""
        if not self.enabled:
            raise ValueError("A game without a clock has no seat clocks.")
        clock = SeatClock(self.initial, None)
        return clock.start(now, paused_until=paused_until) if running else clock


ClockSpec.NONE = ClockSpec(ClockMode.NONE, timedelta(0), timedelta(0), timedelta(0))
#: Abstract Play's default: soft, 48 hours to start, +24 hours per move, at most 96 hours.
CORRESPONDENCE: Final = ClockSpec.parse("correspondence")

#: The clocks ``/challenge clock:`` offers before anything is typed.
CLOCK_CHOICES: Final = (
    "none",
    "correspondence",
    "hard:2d+1d/4d",
    "soft:3d+1d/7d",
    "hard:1d+12h/2d",
)
#: Discord's limit on an autocomplete choice's name.
_CHOICE_NAME_LIMIT: Final = 100


def clock_choices(typed: str, limit: int = 25) -> list[tuple[str, str]]:
    """Autocomplete for ``/challenge clock:``: ``(value, label)`` pairs, each labelled in
    words (``"correspondence — soft clock: 2d to start, +1d per move, at most 4d"``).

    A clock typed in full that is not one of :data:`CLOCK_CHOICES` comes first, as typed;
    then the choices that contain what was typed. Text that is no clock offers nothing of
    its own (the command's answer says why).
    """
    cleaned = typed.strip().lower()
    found: list[tuple[str, str]] = []
    if cleaned and cleaned not in CLOCK_CHOICES:
        try:
            spec = ClockSpec.parse(cleaned)
        except ValueError:
            pass
        else:
            found.append((cleaned, spec.describe()))
    found.extend(
        (choice, ClockSpec.parse(choice).describe())
        for choice in CLOCK_CHOICES
        if cleaned in choice
    )
    return [(value, f"{value} — {label}"[:_CHOICE_NAME_LIMIT]) for value, label in found[:limit]]


@dataclass(frozen=True, slots=True)
class SeatClock:
    """One seat's time bank: ``remaining`` at ``running_since``.

    ``running_since`` is ``None`` while the clock is stopped (``remaining`` is then simply
    the bank), the instant it started running otherwise, and a future instant while it is
    paused for a vacation: it runs by itself from then on. ``remaining`` may be negative on
    a soft clock that ran out. Every method returns a new value.
    """

    remaining: timedelta
    running_since: datetime | None

    @classmethod
    def from_row(cls, row: ClockRow) -> SeatClock:
        """The clock stored in ``row``."""
        return cls(row.remaining, row.running_since)

    def write(self, row: ClockRow) -> ClockWrite:
        """Store this clock over ``row`` (compare-and-set on the version ``row`` was read at)."""
        return ClockWrite(
            game_id=row.game_id,
            seat=row.seat,
            expected_version=row.version,
            remaining_ms=to_ms(self.remaining),
            running_since=self.running_since,
        )

    @property
    def running(self) -> bool:
        """True while it is the seat's turn (also while paused for a vacation)."""
        return self.running_since is not None

    def paused(self, now: datetime) -> bool:
        """True while it is the seat's turn but its player is on vacation."""
        return self.running_since is not None and self.running_since > now

    def used(self, now: datetime) -> timedelta:
        """Time used since the clock (re)started: ``now - running_since``, zero while stopped
        or paused."""
        if self.running_since is None or self.running_since >= now:
            return timedelta(0)
        return now - self.running_since

    def time_left(self, now: datetime) -> timedelta:
        """``remaining - used(now)``; zero or negative once the time is out."""
        return self.remaining - self.used(now)

    def flagged(self, now: datetime) -> bool:
        """True once the time is out (time left is zero or less)."""
        return self.time_left(now) <= timedelta(0)

    def out_of_time(self, now: datetime) -> bool:
        """True while it is the seat's turn and its time is out: what may be claimed on a
        soft clock (a stopped clock left at zero is not out of time: it is not its turn)."""
        return self.running and self.flagged(now)

    @property
    def deadline(self) -> datetime | None:
        """When the time runs out if nobody moves: ``running_since + remaining``; ``None``
        while stopped. Never moves while the clock runs."""
        if self.running_since is None:
            return None
        return self.running_since + self.remaining

    def start(self, now: datetime, *, paused_until: datetime | None = None) -> SeatClock:
        """Start the seat's turn at ``now``, or at ``paused_until`` if that is later (its
        player is on vacation). A running clock is returned unchanged (a seat that stays on
        the move keeps its turn's start)."""
        if self.running_since is not None:
            return self
        begin = now if paused_until is None or paused_until <= now else paused_until
        return SeatClock(self.remaining, begin)

    def stop(self, now: datetime) -> SeatClock:
        """Stop the clock without an increment (the turn passed without a move of this seat,
        or the game ended): the time used is taken from the bank."""
        if self.running_since is None:
            return self
        return SeatClock(self.time_left(now), None)

    def after_move(self, spec: ClockSpec, now: datetime) -> SeatClock:
        """The seat moved at ``now``: stop, then add ``spec.increment``, capped at
        ``spec.maximum``.

        A soft clock that ran out starts again from zero plus the increment (nobody claimed
        the win in time). Raises :class:`OutOfTimeError` on a hard clock that ran out: the
        service ends the game instead of playing the move.
        """
        left = self.time_left(now)
        if left <= timedelta(0):
            if spec.mode is ClockMode.HARD:
                raise OutOfTimeError
            left = timedelta(0)
        return SeatClock(min(left + spec.increment, spec.maximum), None)

    def after_timeout(self, spec: ClockSpec) -> SeatClock:
        """The seat timed out (the bot played its time-out, or it resigned on time): stopped,
        with a bank of zero plus ``spec.increment`` (at most ``spec.maximum``), as after a
        move made with no time left."""
        return SeatClock(min(spec.increment, spec.maximum), None)

    def pause(self, now: datetime, until: datetime) -> SeatClock:
        """Its player goes on vacation from ``now`` to ``until``: a running clock keeps the
        time left at ``now`` and runs again from ``until`` (a clock already paused longer
        keeps its later start); a stopped clock, and one whose time is already out (its
        time-out stands: on a soft clock the opponents may still claim), are unchanged.

        Raises :class:`ValueError` if ``until`` is before ``now``.
        """
        if until < now:
            raise ValueError("A vacation cannot end before it starts.")
        if self.running_since is None or self.flagged(now):
            return self
        return SeatClock(self.time_left(now), max(self.running_since, until))

    def resume(self, now: datetime) -> SeatClock:
        """The vacation ended early at ``now``: a paused clock runs from ``now``."""
        if self.running_since is None or self.running_since <= now:
            return self
        return SeatClock(self.remaining, now)


@dataclass(frozen=True, slots=True)
class VacationBook:
    """A user's vacations: ``used`` booked in UTC year ``year``, the current or last one
    from ``started_at`` to ``until``.

    The allowance is per calendar year (UTC): a vacation counts, whole, in the year it is
    booked; ending it early gives the unused part back (in the same year only). ``used`` in
    the current year never exceeds the allowance.
    """

    year: int
    used: timedelta
    started_at: datetime | None = None
    until: datetime | None = None

    @classmethod
    def from_row(cls, row: VacationRow | None, now: datetime) -> VacationBook:
        """The book stored in ``row``, or an empty one for this year."""
        if row is None:
            return cls(now.year, timedelta(0))
        return cls(row.year, row.used, row.started_at, row.until)

    def used_in(self, year: int) -> timedelta:
        """Vacation booked in ``year`` (zero for any other year than :attr:`year`)."""
        return self.used if year == self.year else timedelta(0)

    def left(self, now: datetime, allowance: timedelta) -> timedelta:
        """Vacation the user may still book this year (never negative)."""
        return max(allowance - self.used_in(now.year), timedelta(0))

    def on_vacation(self, now: datetime) -> bool:
        """True between ``started_at`` and ``until``."""
        return self.until is not None and self.until > now

    def start(self, now: datetime, requested: timedelta, allowance: timedelta) -> VacationBook:
        """Book up to ``requested`` more vacation from ``now`` (or from the end of the
        current one, extending it); at most what is left of ``allowance`` this year.

        Raises :class:`ValueError` (one friendly sentence) for a requested duration that is
        not positive or when nothing is left this year.
        """
        if requested <= timedelta(0):
            raise ValueError("Ask for some vacation, like 3d or 12h.")
        granted = min(requested, self.left(now, allowance))
        if granted <= timedelta(0):
            raise ValueError(
                f"You have used all {format_duration(allowance)} of vacation for {now.year}."
            )
        if self.on_vacation(now) and self.until is not None:
            return VacationBook(
                now.year, self.used_in(now.year) + granted, self.started_at, self.until + granted
            )
        return VacationBook(now.year, self.used_in(now.year) + granted, now, now + granted)

    def end(self, now: datetime) -> VacationBook:
        """End the current vacation at ``now``, giving back the unused part if it was booked
        this year. Raises :class:`ValueError` if the user is not on vacation."""
        if not self.on_vacation(now) or self.until is None:
            raise ValueError("You are not on vacation.")
        refund = self.until - now if self.year == now.year else timedelta(0)
        return replace(self, used=max(self.used - refund, timedelta(0)), until=now)


class QuietSource(StrEnum):
    """Where a user's effective quiet time comes from."""

    USER = "user"
    """The user's own ``/settings reminders quiet:``."""
    SERVER = "server"
    """The server's ``/settings server quiet:``."""
    DEFAULT = "default"
    """The bot's ``GAMEROOM_REMINDER_QUIET``."""


def effective_quiet(
    user: UserSettingsRow, guild: GuildSettingsRow | None, default: timedelta
) -> tuple[timedelta, QuietSource]:
    """The quiet time before a user's first reminder: the user's override, else the
    server's, else ``default``; with where it came from."""
    if user.reminder_quiet_s is not None:
        return timedelta(seconds=user.reminder_quiet_s), QuietSource.USER
    if guild is not None and guild.reminder_quiet_s is not None:
        return timedelta(seconds=guild.reminder_quiet_s), QuietSource.SERVER
    return default, QuietSource.DEFAULT


def reminder_delay(
    user: UserSettingsRow, guild: GuildSettingsRow | None, default: timedelta
) -> timedelta | None:
    """How long a turn stays quiet before its player is reminded (:func:`effective_quiet`);
    ``None`` when the user turned reminders off."""
    if user.reminders is ReminderDelivery.OFF:
        return None
    return effective_quiet(user, guild, default)[0]
