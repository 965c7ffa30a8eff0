"""Reminders: telling the player to move that a slow game is waiting for them.

One turn's reminders, as timers (rows of ``timers``, kind ``"reminder"``)::

    turn begins (game version v)
      │  quiet time (the user's, else the server's, else GAMEROOM_REMINDER_QUIET)
      ▼
    reminder ──── interval (GAMEROOM_REMINDER_INTERVAL) ────► reminder ──── … ────► a move

The service plans the first reminder when the turn begins (one pending timer per game, seat
and kind; payload ``{"version": v}``, optionally ``"ply"``) and replaces or cancels it on the
next change of turn. When it fires, :meth:`Reminders.decide` checks the truth — the game is
active, still at the turn the timer was planned for, the seat still to move, the player
wants reminders — and returns what to deliver (:class:`ReminderNotice`: to whom, where, how,
and the facts the text needs) and the next reminder of the turn, which the timer runner
schedules in the same transaction that marks this one fired (see
:mod:`bot.service.timers`). A stale reminder delivers nothing and ends its chain. A player
on vacation is not reminded; their chain waits until the vacation ends.

Also here, for ``/settings``: the effective reminder settings of a user in a server
(:func:`effective_settings`) and the parsing of a quiet time (:func:`parse_quiet`).

Discord-free: the bot's timers cog (:mod:`bot.cogs.timers`) writes the text and sends it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

from bot.service.clocks import (
    DurationTooLongError,
    QuietSource,
    effective_quiet,
    format_duration,
    parse_duration,
)
from bot.service.errors import NoGameHereError
from bot.service.models import GameSnapshot, SeatClockInfo
from bot.service.service import GameService
from db import Database
from db.rows import NewTimer, TimerRow
from db.schema import ReminderDelivery, ThreadPolicy

__all__ = [
    "MAX_QUIET",
    "MIN_QUIET",
    "REMINDER_TIMER",
    "EffectiveSettings",
    "QuietSource",
    "ReminderDecision",
    "ReminderNotice",
    "Reminders",
    "effective_quiet",
    "effective_settings",
    "parse_quiet",
]

log = logging.getLogger(__name__)

#: The timer kind of a reminder (the same name :mod:`bot.service.clocks` uses).
REMINDER_TIMER: Final = "reminder"
#: The shortest and longest quiet time ``/settings`` accepts.
MIN_QUIET: Final = timedelta(minutes=1)
MAX_QUIET: Final = timedelta(days=30)
#: Words that clear a quiet-time override in ``/settings``.
_DEFAULT_WORDS: Final = frozenset({"default", "reset", "none", "clear"})


def _utc_now() -> datetime:
    return datetime.now(UTC)


# ------------------------------------------------------------------------------------------
# Deciding one reminder
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReminderNotice:
    """A reminder to deliver now: ``user_id`` (seat ``seat``, ``seat_name``) has been to move
    in game ``game_id`` since ``to_move_since``.

    ``delivery`` is :attr:`~db.schema.ReminderDelivery.DM` (a direct message; the bot falls
    back to the channel if it fails) or :attr:`~db.schema.ReminderDelivery.CHANNEL` (a
    mention in ``channel_id``, the game's channel or thread). ``board_message_id`` is the
    last board posted (for a jump link), ``clock`` the seat's clock when the reminder was
    decided, if the game has one.
    """

    game_id: int
    game_name: str
    guild_id: int | None
    channel_id: int
    user_id: int
    seat: int
    seat_name: str
    delivery: ReminderDelivery
    to_move_since: datetime
    board_message_id: int | None
    clock: SeatClockInfo | None


@dataclass(frozen=True, slots=True)
class ReminderDecision:
    """What a fired reminder timer leads to: a ``notice`` to deliver (or ``None``), the
    ``follow_up`` reminder of the same turn (or ``None``: the chain ends), and the
    ``reason`` in a few words, for logs and tests (``"due"``, ``"game over"``, …)."""

    notice: ReminderNotice | None
    follow_up: NewTimer | None
    reason: str


class Reminders:
    """Decides fired ``reminder`` timers of games kept by ``service``.

    ``interval`` is the time between two reminders of one turn (positive);
    ``now`` the clock (aware UTC datetimes; tests pass a fake). Raises :class:`ValueError`
    for a non-positive interval.
    """

    def __init__(
        self,
        service: GameService,
        *,
        interval: timedelta,
        now: Callable[[], datetime] = _utc_now,
    ) -> None:
        if interval <= timedelta(0):
            raise ValueError(f"the reminder interval must be positive, not {interval}")
        self.service = service
        self.database: Database = service.database
        self.interval = interval
        self._now = now

    async def decide(self, timer: TimerRow) -> ReminderDecision:
        """Whether claimed reminder ``timer`` is still due, and what follows it.

        Delivers nothing and ends the chain (``follow_up`` ``None``) when the game is gone
        or over, a change of turn happened since the timer was planned (its payload's
        ``version`` is not the game's, and its ``ply``, if given, is not the game's ply
        either: a draw offer or a takeback request changes the version, not the turn), the
        seat is no longer to move, or the player turned reminders off. A player on vacation
        gets nothing now and the next reminder when the vacation ends (or after the
        interval, if later). Otherwise the notice, and the next reminder ``interval`` from
        now with the same payload. A malformed timer (no seat, bad payload) is logged and
        ends its chain; nothing here raises for stale or malformed timers, so the runner
        does not retry them. Database errors propagate (the runner retries).
        """
        now = self._now()
        expected = _payload_turn(timer)
        if timer.game_id is None or timer.seat is None or expected is None:
            log.warning(
                "reminder timer %d has no game, seat or version (payload %r): dropped",
                timer.id,
                timer.payload_json,
            )
            return ReminderDecision(None, None, "malformed")
        try:
            snapshot = await self.service.game_snapshot(timer.game_id)
        except NoGameHereError:
            return ReminderDecision(None, None, "no such game")
        stale = _stale_reason(snapshot, timer.seat, expected)
        if stale is not None:
            return ReminderDecision(None, None, stale)
        player = snapshot.players[timer.seat]
        settings = await self.database.settings.user(player.user_id)
        if settings.reminders is ReminderDelivery.OFF:
            return ReminderDecision(None, None, "reminders off")
        follow_up = NewTimer(
            REMINDER_TIMER,
            now + self.interval,
            timer.game_id,
            timer.seat,
            timer.payload_json,
        )
        vacation = await self.database.vacations.get(player.user_id)
        if vacation is not None and vacation.until is not None and vacation.until > now:
            later = NewTimer(
                REMINDER_TIMER,
                max(vacation.until, follow_up.due_at),
                timer.game_id,
                timer.seat,
                timer.payload_json,
            )
            return ReminderDecision(None, later, "on vacation")
        notice = ReminderNotice(
            game_id=snapshot.game_id,
            game_name=snapshot.game_name,
            guild_id=snapshot.guild_id,
            channel_id=snapshot.channel_id,
            user_id=player.user_id,
            seat=timer.seat,
            seat_name=player.seat_name,
            delivery=settings.reminders,
            to_move_since=_turn_began(snapshot),
            board_message_id=snapshot.board_message_id,
            clock=snapshot.clock_of(timer.seat),
        )
        return ReminderDecision(notice, follow_up, "due")


@dataclass(frozen=True, slots=True)
class _Turn:
    """The turn a reminder was planned for: the game's version then, and its ply if known."""

    version: int
    ply: int | None


def _payload_turn(timer: TimerRow) -> _Turn | None:
    """The payload's ``version`` (and ``ply``), or ``None`` if the payload is malformed."""
    try:
        payload = json.loads(timer.payload_json)
    except ValueError:
        return None
    if not isinstance(payload, dict):
        return None
    version, ply = payload.get("version"), payload.get("ply")
    if not isinstance(version, int) or not (ply is None or isinstance(ply, int)):
        return None
    return _Turn(version, ply)


def _stale_reason(snapshot: GameSnapshot, seat: int, expected: _Turn) -> str | None:
    """Why the reminder no longer applies to ``snapshot``, or ``None`` if it does."""
    if not snapshot.is_active:
        return "game over"
    same_turn = snapshot.version == expected.version or (
        expected.ply is not None and snapshot.ply == expected.ply
    )
    if not same_turn:
        return "turn changed"
    if seat not in snapshot.to_move or seat >= len(snapshot.players):
        return "not to move"
    return None


def _turn_began(snapshot: GameSnapshot) -> datetime:
    """When the current turn began: the last logged move (its chance outcomes and automatic
    steps share its time), else the game's start."""
    if snapshot.last_moves:
        return snapshot.last_moves[-1].at
    return snapshot.created_at


# ------------------------------------------------------------------------------------------
# Settings (/settings)
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EffectiveSettings:
    """A user's slow-play settings as they apply in one server (or in DMs: ``threads`` and
    ``server_quiet`` ``None``).

    ``delivery`` is how they are reminded; ``quiet`` the time without a move before the
    first reminder, from ``quiet_source``; ``user_quiet`` and ``server_quiet`` the overrides
    as stored (``None``: not set); ``threads`` the server's thread policy.
    """

    delivery: ReminderDelivery
    quiet: timedelta
    quiet_source: QuietSource
    user_quiet: timedelta | None
    server_quiet: timedelta | None
    threads: ThreadPolicy | None


async def effective_settings(
    database: Database, user_id: int, guild_id: int | None, *, default_quiet: timedelta
) -> EffectiveSettings:
    """The settings of ``user_id`` in guild ``guild_id`` (``None``: a DM), read from
    ``database`` (two small reads); ``default_quiet`` is ``GAMEROOM_REMINDER_QUIET``."""
    user = await database.settings.user(user_id)
    guild = None if guild_id is None else await database.settings.guild(guild_id)
    quiet, source = effective_quiet(user, guild, default_quiet)
    return EffectiveSettings(
        delivery=user.reminders,
        quiet=quiet,
        quiet_source=source,
        user_quiet=_seconds(user.reminder_quiet_s),
        server_quiet=None if guild is None else _seconds(guild.reminder_quiet_s),
        threads=None if guild is None else guild.threads,
    )


def _seconds(value: int | None) -> timedelta | None:
    return None if value is None else timedelta(seconds=value)


def parse_quiet(text: str) -> timedelta | None:
    """A quiet time typed in ``/settings``: a duration like ``12h``, ``2d`` or ``1d12h``
    (:func:`~bot.service.clocks.parse_duration`), or ``default`` (also ``reset``, ``none``,
    ``clear``) for ``None``: use the server's or the bot's.

    Raises :class:`ValueError` with one friendly sentence for anything else, or a duration
    outside :data:`MIN_QUIET` … :data:`MAX_QUIET`.
    """
    cleaned = text.strip().lower()
    if cleaned in _DEFAULT_WORDS:
        return None
    try:
        quiet = parse_duration(cleaned)
    except DurationTooLongError:
        quiet = MAX_QUIET + timedelta(seconds=1)
    if not MIN_QUIET <= quiet <= MAX_QUIET:
        raise ValueError(
            f"A quiet time is from {format_duration(MIN_QUIET)} to "
            f"{format_duration(MAX_QUIET)}, like 12h or 2d (or `default`)."
        )
    return quiet
