"""A game's clocks in words: the clock line of a lobby or a game, one seat's time left, and
the note on the clocks of the seats to move that ends a turn post.
"""

from __future__ import annotations

from bot.presenters.common import _timestamp, seat_label
from bot.service import GameSnapshot
from bot.service.clocks import short_duration
from bot.service.models import SeatClockInfo

__all__ = ["clock_line", "time_left_text"]


def clock_line(clock_text: str) -> str:
    """``⏱️ Soft clock: 2d to start, +1d per move, at most 4d`` (``ClockSpec.describe``,
    capitalised)."""
    return f"⏱️ {clock_text[:1].upper()}{clock_text[1:]}"


def time_left_text(info: SeatClockInfo) -> str:
    """One seat's clock in a few words, for ``/game info`` and the turn text.

    ``1d 2h`` (stopped), ``1d 2h, runs out <t:…:R>`` (running), ``out of time`` (soft,
    unclaimed), ``1d 2h, on vacation until <t:…:f>`` (paused).
    """
    if info.flagged:
        return "out of time"
    left = short_duration(info.time_left)
    if info.paused_until is not None:
        return f"{left}, on vacation until {_timestamp(info.paused_until, 'f')}"
    if info.running and info.deadline is not None:
        return f"{left}, runs out {_timestamp(info.deadline)}"
    return left


def _to_move_clocks(snapshot: GameSnapshot) -> str:
    """What the seats to move should know of their clocks: ``⏱️ 1d 2h left, runs out
    <t:…:R>.`` (Discord shows "runs out in a day"), or that their player is on vacation, or
    out of time: on a soft clock the opponents may claim; on a hard one the bot applies the
    time-out itself (the game's time-out rule, or a loss or the seat leaving), so nobody is
    invited to claim."""
    notes = []
    several = len(snapshot.to_move) > 1
    for seat in snapshot.to_move:
        info = snapshot.clock_of(seat)
        if info is None:
            continue
        who = f"{seat_label(snapshot.players[seat].seat_name)}: " if several else ""
        if info.flagged and info.mode == "hard":
            notes.append(f"{who}out of time: the bot applies the time-out now")
        elif info.flagged:
            notes.append(f"{who}out of time, so the opponents may `/claim`")
        elif info.paused_until is not None:
            notes.append(
                f"{who}on vacation until {_timestamp(info.paused_until, 'f')}; the clock "
                f"({short_duration(info.time_left)} left) waits"
            )
        elif info.deadline is not None:
            notes.append(
                f"{who}{short_duration(info.time_left)} left, runs out {_timestamp(info.deadline)}"
            )
    return f"⏱️ {'; '.join(notes)}." if notes else ""
