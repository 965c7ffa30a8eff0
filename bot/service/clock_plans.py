"""Planners: clock arithmetic turned into database changes, purely.

Each planner takes clock rows (and the time) and returns a :class:`db.rows.ClockChanges`
(writes, timers to schedule, timers to cancel) for the database to apply atomically with the
move or vacation that caused it: :func:`plan_start` and :func:`start_timers` when a game
starts, :func:`plan_turn` and :func:`plan_reminders` at every turn change,
:func:`plan_pause` and :func:`plan_resume` for vacations. :func:`merge_changes` joins them;
:func:`timeout_rng` is the generator a time-out hands the engine. The arithmetic itself
(:class:`~bot.service.clocks.ClockSpec`, :class:`~bot.service.clocks.SeatClock`) lives in
:mod:`bot.service.clocks`; see ``docs/clocks.md``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Final

from bot.service.bot_seats import is_bot
from bot.service.clocks import (
    CLOCK_TIMER,
    CLOCK_TIMER_KINDS,
    FINAL_WARNING_BEFORE,
    FINAL_WARNING_TIMER,
    REMINDER_TIMER,
    ClockSpec,
    SeatClock,
    to_ms,
)
from db.rows import ClockChanges, ClockRow, ClockWrite, NewClock, NewTimer, TimerCancel
from engines.rng import Rng, splitmix64

__all__ = [
    "BOARD_POST_GRACE",
    "BOARD_POST_TIMER",
    "BOT_TURN_TIMER",
    "board_post_payload",
    "deadline_timers",
    "merge_changes",
    "plan_board_post",
    "plan_bot_turns",
    "plan_pause",
    "plan_reminders",
    "plan_resume",
    "plan_start",
    "plan_turn",
    "start_timers",
    "timeout_rng",
]


def plan_start(
    spec: ClockSpec,
    seat_count: int,
    to_move: Collection[int],
    now: datetime,
    *,
    paused_until: Mapping[int, datetime] | None = None,
) -> list[NewClock]:
    """The clocks of a new game: every seat gets ``spec.initial``; the seats in ``to_move``
    start running at ``now`` (or when their player's vacation in ``paused_until``, by seat,
    ends). Empty for no clock. Once the game row exists, its deadlines come from
    :func:`start_timers`."""
    if not spec.enabled:
        return []
    paused = paused_until or {}
    return [
        NewClock(
            seat=seat,
            spec=str(spec),
            remaining_ms=to_ms(spec.initial),
            running_since=spec.new_clock(
                now, running=seat in to_move, paused_until=paused.get(seat)
            ).running_since,
        )
        for seat in range(seat_count)
    ]


def start_timers(game_id: int, new_clocks: Sequence[NewClock]) -> ClockChanges:
    """The timers of a new game's running clocks (from :func:`plan_start`), once the game
    has its id: apply them with the clocks (``ClocksRepo.apply`` or
    :func:`db.clocks.apply_clock_changes` in the game's creation)."""
    schedule: list[NewTimer] = []
    for new in new_clocks:
        clock = SeatClock(timedelta(milliseconds=new.remaining_ms), new.running_since)
        schedule.extend(deadline_timers(game_id, new.seat, clock, 1))
    return ClockChanges(schedule=tuple(schedule))


def deadline_timers(
    game_id: int, seat: int, clock: SeatClock, clock_version: int
) -> tuple[NewTimer, ...]:
    """The timers of one running seat clock, soft or hard: ``"clock"`` at its deadline and
    ``"final_warning"`` :data:`FINAL_WARNING_BEFORE` earlier if the turn starts (or the
    clock starts again after a vacation) with more time left than that. Empty for a stopped
    clock. ``clock_version`` is the clock row's version once written (1 for a new clock),
    stored in each payload. Whether the seat is the bot's is the warning's handler's to
    tell (:meth:`~bot.service.timeouts.Timeouts.final_warning_due`)."""
    deadline = clock.deadline
    if deadline is None or clock.running_since is None:
        return ()
    payload = json.dumps({"clock_version": clock_version}, separators=(",", ":"))
    found = [NewTimer(CLOCK_TIMER, deadline, game_id, seat, payload)]
    warning = deadline - FINAL_WARNING_BEFORE
    if warning > clock.running_since:
        found.append(NewTimer(FINAL_WARNING_TIMER, warning, game_id, seat, payload))
    return tuple(found)


def plan_turn(
    rows: Sequence[ClockRow],
    movers: Collection[int],
    to_move: Collection[int],
    now: datetime,
    *,
    paused_until: Mapping[int, datetime] | None = None,
    timed_out: Collection[int] = (),
) -> ClockChanges:
    """The clock changes of a committed move, for the move's own transaction.

    ``rows`` are the game's clocks as read before the move (empty: no clock, no changes);
    ``movers`` the seats that just moved; ``timed_out`` the seats whose time-out was just
    applied; ``to_move`` the seats to act next (empty once the game is over);
    ``paused_until`` the end of the vacation of each next seat's player, by seat. Movers get
    :meth:`SeatClock.after_move`, timed-out seats :meth:`SeatClock.after_timeout`; seats to
    move next start (one that stays on the move keeps running); every other running clock
    stops. Every changed clock's timers are replaced (:func:`deadline_timers` if it runs,
    none if it stopped); once the game is over every timer of the game is cancelled.

    Raises :class:`OutOfTimeError` if a mover's hard clock ran out.
    """
    if not rows:
        return ClockChanges()
    game_id = rows[0].game_id
    paused = paused_until or {}
    writes: list[ClockWrite] = []
    schedule: list[NewTimer] = []
    cancel: list[TimerCancel] = []
    for row in rows:
        spec = ClockSpec.parse(row.spec)
        before = SeatClock.from_row(row)
        clock = before
        acted = row.seat in movers or row.seat in timed_out
        if row.seat in timed_out:
            clock = clock.after_timeout(spec)
        elif row.seat in movers:
            clock = clock.after_move(spec, now)
        if row.seat in to_move:
            clock = clock.start(now, paused_until=paused.get(row.seat))
        else:
            clock = clock.stop(now)
        if clock == before and not acted:
            continue
        writes.append(clock.write(row))
        cancel.append(TimerCancel(game_id, row.seat, CLOCK_TIMER_KINDS))
        schedule.extend(deadline_timers(game_id, row.seat, clock, row.version + 1))
    if not to_move:
        cancel = [TimerCancel(game_id)]
    return ClockChanges(tuple(writes), tuple(schedule), tuple(cancel))


def plan_reminders(
    game_id: int,
    *,
    before: Collection[int],
    due: Mapping[int, datetime],
    version: int,
    ply: int | None = None,
) -> ClockChanges:
    """The ``"reminder"`` timers of a turn change (any game, with a clock or not).

    ``due`` maps each seat to move next whose player wants reminders to when its reminder is
    due (:func:`~bot.service.clocks.reminder_delay` after its turn starts); each gets one,
    replacing its pending one, with payload ``{"version": version, "ply": ply}`` (the game's
    version and ply after the change, so the reminder's handler can tell a stale one even
    after a change that is not a move, such as a draw offer; ``ply`` left out when not
    given). The pending reminder of every seat in ``before`` (the seats to move until now)
    that is not in ``due`` is cancelled.
    """
    turn = {"version": version} if ply is None else {"version": version, "ply": ply}
    payload = json.dumps(turn, separators=(",", ":"))
    schedule = tuple(
        NewTimer(REMINDER_TIMER, at, game_id, seat, payload) for seat, at in sorted(due.items())
    )
    cancel = tuple(
        TimerCancel(game_id, seat, (REMINDER_TIMER,))
        for seat in sorted(set(before))
        if seat >= 0 and seat not in due
    )
    return ClockChanges(schedule=schedule, cancel=cancel)


def merge_changes(*parts: ClockChanges | None) -> ClockChanges | None:
    """One :class:`~db.rows.ClockChanges` with the writes, timers and cancellations of
    ``parts`` in order (``None`` parts skipped); ``None`` when there is nothing to write.
    Cancellations still apply before every write and new timer."""
    present = [part for part in parts if part]
    if not present:
        return None
    return ClockChanges(
        tuple(w for part in present for w in part.writes),
        tuple(t for part in present for t in part.schedule),
        tuple(c for part in present for c in part.cancel),
        tuple(v for part in present for v in part.vacations_seen),
    )


#: The stream of a game's seed that time-outs draw from (far from every other use).
_TIMEOUT_STREAM: Final = 1 << 41


def timeout_rng(seed: int, ply: int) -> Rng:
    """The generator a time-out at ``ply`` (the game's ply before it) of the game with
    ``seed`` hands the engine (:meth:`~engines.base.Engine.timeout_moves`): derived from both,
    so the same time-out picks the same moves in any process."""
    return Rng(splitmix64(splitmix64(seed, _TIMEOUT_STREAM), ply))


def plan_pause(rows: Sequence[ClockRow], now: datetime, until: datetime) -> ClockChanges:
    """Pause the running clocks in ``rows`` (a user's, see
    :meth:`db.clocks.ClocksRepo.running_for_user`) from ``now`` to ``until`` and move their
    timers to the new deadlines. Raises :class:`ValueError` if ``until`` is before ``now``."""
    return _replan(rows, lambda clock: clock.pause(now, until))


def plan_resume(rows: Sequence[ClockRow], now: datetime) -> ClockChanges:
    """Let the paused clocks in ``rows`` run again from ``now`` (a vacation ended early)."""
    return _replan(rows, lambda clock: clock.resume(now))


def _replan(rows: Sequence[ClockRow], change: Callable[[SeatClock], SeatClock]) -> ClockChanges:
    writes: list[ClockWrite] = []
    schedule: list[NewTimer] = []
    cancel: list[TimerCancel] = []
    kept: list[tuple[int, int, int]] = []
    for row in rows:
        before = SeatClock.from_row(row)
        after = change(before)
        if after == before:
            kept.append((row.game_id, row.seat, row.version))  # e.g. already out of time
            continue
        writes.append(after.write(row))
        cancel.append(TimerCancel(row.game_id, row.seat, CLOCK_TIMER_KINDS))
        schedule.extend(deadline_timers(row.game_id, row.seat, after, row.version + 1))
    return ClockChanges(tuple(writes), tuple(schedule), tuple(cancel), kept=tuple(kept))


#: Timer kind of a bot seat's turn (:mod:`bot.service.bots` handles it).
BOT_TURN_TIMER: Final = "bot_turn"

#: Timer kind of a move's board post, in case it is never made (:func:`plan_board_post`).
BOARD_POST_TIMER: Final = "board_post"
#: How long after a move its board may take to be posted before the ``board_post`` timer
#: posts it: far beyond a post's usual second or two, and the 10 s a move waits for the post
#: before it (``bot.ui.board.TURN_ORDER_WAIT_S``).
BOARD_POST_GRACE: Final = timedelta(seconds=60)


def board_post_payload(version: int) -> str:
    """The payload of the ``board_post`` timer of a game's ``version``: ``{"version":V}``,
    the exact text the post that makes the timer needless compares with."""
    return json.dumps({"version": version}, separators=(",", ":"))


def plan_board_post(game_id: int, version: int, now: datetime) -> ClockChanges:
    """A game-wide ``board_post`` timer, due :data:`BOARD_POST_GRACE` after ``now``, for the
    board of ``version`` (the game's version once the move is written). The post of that
    board deletes it (:func:`db.timers.cancel_matching_timers`, in the board message's group
    commit); it fires only when the
    process that committed the move stopped, or Discord refused the post, before that, and
    then the board is posted late rather than never (a crash mid-move)."""
    timer = NewTimer(
        BOARD_POST_TIMER, now + BOARD_POST_GRACE, game_id, None, board_post_payload(version)
    )
    return ClockChanges(schedule=(timer,))


def plan_bot_turns(
    game_id: int, users: Mapping[int, int], now: datetime, ply: int | None
) -> ClockChanges | None:
    """A ``"bot_turn"`` timer due at ``now`` (the change's time, plus the exhibition pace
    where :meth:`~bot.service.core.GameCore.bot_turn_delay` gives one) for every seat in
    ``users`` (seat → user id)
    that the bot plays (:func:`~bot.service.bot_seats.is_bot`), with payload
    ``{"ply": ply}`` (the game's ply once the change is written, so a stale turn is told
    apart; ``{}`` when not known). ``None`` when no seat to move is the bot's."""
    payload = json.dumps({} if ply is None else {"ply": ply}, separators=(",", ":"))
    schedule = tuple(
        NewTimer(BOT_TURN_TIMER, now, game_id, seat, payload)
        for seat, user_id in sorted(users.items())
        if is_bot(user_id)
    )
    return ClockChanges(schedule=schedule) if schedule else None
