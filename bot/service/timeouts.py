"""Clocks in play: deadlines that fire, claims on time, final warnings, time-outs.

A seat's time-out (:meth:`Timeouts.clock_timer_fired` for a hard clock's deadline,
:meth:`Timeouts.claim_on_time` on a soft one, a move made too late) plays the game's own
time-out moves (:meth:`~engines.base.Engine.timeout_moves`), else the seat loses (two players)
or resigns (more). The clock arithmetic is :mod:`bot.service.clocks`; ``docs/clocks.md``
describes the rules.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Literal

from bot.service import _codec
from bot.service.automatic import automatic_steps
from bot.service.bot_seats import is_bot, people
from bot.service.clock_plans import (
    timeout_rng,
)
from bot.service.clocks import (
    CLOCK_TIMER,
    ClaimError,
    ClockMode,
    ClockSpec,
    SeatClock,
    short_duration,
)
from bot.service.core import GameCore, Loaded
from bot.service.errors import (
    NoGameHereError,
    NotAPlayerError,
    StaleActionError,
)
from bot.service.logbook import (
    TIMEOUT_EVENT,
    public_events,
    resign_move_text,
    seats_told_privately,
)
from bot.service.models import (
    ClockEvent,
    ClockEventKind,
    FinalWarning,
    claimer_ids,
)
from bot.service.options import sides_of
from db import (
    NewMove,
)
from db.rows import ClockRow, NewTimer, TimerRow
from engines.base import (
    Event,
    IllegalMoveError,
    MoveError,
    Outcome,
)

log = logging.getLogger(__name__)

__all__ = [
    "ClockListener",
    "Timeouts",
    "clock_of",
    "late_move_sentence",
    "only_bots_claim",
    "payload_int",
]

#: Called with every time-out the service applied while answering something else (a move
#: made too late on a hard clock), so the bot can announce it.
ClockListener = Callable[[ClockEvent], Awaitable[None]]


class Timeouts:
    """Deadlines, claims and time-outs of the games in ``core``'s database, and the
    listeners told of time-outs applied while answering something else."""

    def __init__(self, core: GameCore) -> None:
        self.core = core
        self._clock_listeners: list[ClockListener] = []

    def add_clock_listener(self, listener: ClockListener) -> None:
        """Call ``listener`` with every time-out the service applies while answering
        something else (a move made too late on a hard clock, :meth:`play`), after it is
        committed. A listener that raises is logged; the others still run."""
        self._clock_listeners.append(listener)

    def remove_clock_listener(self, listener: ClockListener) -> None:
        """Stop calling ``listener`` (no error if it was never added)."""
        if listener in self._clock_listeners:
            self._clock_listeners.remove(listener)

    async def announce(self, event: ClockEvent) -> None:
        for listener in list(self._clock_listeners):
            try:
                await listener(event)
            except Exception:
                log.exception("game %d: a clock listener failed", event.snapshot.game_id)

    async def clock_timer_fired(self, timer: TimerRow) -> ClockEvent | None:
        """Handle a ``"clock"`` timer: seat ``timer.seat``'s deadline in game ``timer.game_id``.

        A hard clock's seat times out at once (:class:`~bot.service.models.ClockEventKind`
        ``timed_out``, ``lost_on_time`` or ``resigned_on_time``: the game's time-out rule,
        or the platform's). On a soft clock nothing changes: the event (``flagged_soft``)
        tells the opponents they may now claim (:meth:`claim_on_time`).

        Returns ``None`` for a stale timer, with nothing to announce (nor for a late bot seat
        only bots could claim against: none would): the game is over, the
        clock moved on since the timer was planned (its payload's ``clock_version``), or
        the seat's clock is not running. A timer that fires before the deadline (clocks of
        two processes that disagree) is planned again at the deadline, also ``None``.
        """
        if timer.game_id is None or timer.seat is None:
            log.warning("clock timer %d names no game seat; ignored", timer.id)
            return None
        planned = payload_int(timer, "clock_version")
        async with self.core.game_lock(timer.game_id):
            row = await self.core.database.games.get(timer.game_id)
            if row is None or not row.is_active:
                return None
            now = self.core.now()
            loaded = await self.core.settle(await self.core.load_row(row), now=now)
            clock_row = clock_of(loaded.clocks, timer.seat)
            if clock_row is None or clock_row.version != planned:
                return None
            clock = SeatClock.from_row(clock_row)
            deadline = clock.deadline
            if deadline is None or timer.seat not in loaded.row.to_move:
                return None
            if not clock.flagged(now):
                log.warning(
                    "game %d: the clock timer of seat %d fired before its deadline %s",
                    row.id,
                    timer.seat,
                    deadline.isoformat(),
                )
                again = NewTimer(CLOCK_TIMER, deadline, row.id, timer.seat, timer.payload_json)
                await self.core.database.timers.schedule(again, now=now)
                return None
            player = loaded.meta.players[timer.seat]
            if ClockSpec.parse(clock_row.spec).mode is ClockMode.SOFT:
                log.info("game %d: seat %d is out of time (soft clock)", row.id, timer.seat)
                flagged = ClockEvent(
                    self.core.snapshot(loaded),
                    timer.seat,
                    player.user_id,
                    ClockEventKind.FLAGGED_SOFT,
                    on_claim=_on_claim(loaded, timer.seat),
                    gone_seats=await self.core.seats_gone(loaded.row),
                    teammates=_teammates(loaded, timer.seat),
                )
                claimers = flagged.opponent_user_ids
                if only_bots_claim(claimers) and is_bot(player.user_id):
                    # A bot seat late by our doing (a restart), and only bots could claim:
                    # nobody would, so nothing is posted; the bot moves when it can.
                    log.info("game %d: bot seat %d late, no claim", row.id, timer.seat)
                    return None
                if not only_bots_claim(claimers):
                    return flagged
                # Only bots could claim, and a bot never presses a button: it claims at once,
                # or the soft clock would never end a game against the bot (docs/clocks.md).
                log.info("game %d: the bot claims on time against seat %d", row.id, timer.seat)
                return await self.apply_timeout(loaded, timer.seat, now, claimed_by=claimers[0])
            return await self.apply_timeout(loaded, timer.seat, now)

    async def claim_on_time(
        self, channel_id: int, user_id: int, *, game_id: int | None = None
    ) -> ClockEvent:
        """``/claim`` (or "Claim on time"): ``user_id`` claims against a seat of another
        player whose time is out, in the active game of ``channel_id`` (or game ``game_id``,
        for the button). The seat times out as on a hard clock (:meth:`clock_timer_fired`):
        the game's time-out rule, else it loses (two players) or resigns (more).

        Raises :class:`NoGameHereError`, :class:`StaleActionError` (the game has ended),
        :class:`NotAPlayerError` and :class:`~bot.service.clocks.ClaimError` (the game has
        no clock, the claimer has left it, nobody is out of time yet, or only the claimer
        is).
        """
        if game_id is None:
            row = await self.core.active_row(channel_id)
        else:
            found = await self.core.database.games.get(game_id)
            if found is None:
                raise NoGameHereError("That game does not exist.")
            if not found.is_active:
                raise StaleActionError("This game has already ended.")
            row = found
        async with self.core.game_lock(row.id):
            now = self.core.now()
            loaded = await self.core.settle(await self.core.reload(row), now=now)
            seats = loaded.meta.seats_of(user_id)
            if not seats:
                raise NotAPlayerError()
            if not loaded.clocks:
                raise ClaimError("This game has no clock, so nobody can run out of time.")
            gone = await self.core.seats_gone(loaded.row)
            if all(seat in gone for seat in seats):
                # Out of the game (resigned, knocked out): nothing of theirs is at stake.
                raise ClaimError("You have left this game, so you cannot claim on time.")
            out = [s for s in loaded.row.to_move if self.out_of_time(loaded, s, now)]
            # Not one's own seat, nor a teammate's (Orbs teams): a claim is the other side's.
            claimable = [s for s in out if not set(seats) & ({s} | _teammates(loaded, s))]
            hard = ClockSpec.parse(loaded.row.clock).mode is ClockMode.HARD
            if hard and not out:
                # A claim there only applies, a little early, what the timer loop applies
                # within GAMEROOM_TIMER_INTERVAL of the deadline (docs/clocks.md).
                raise ClaimError(
                    "This game has a hard clock: a player whose time runs out is timed out "
                    "by the bot, so there is nothing to claim."
                )
            if not claimable:
                mine = set(seats) & set(out)
                if mine and hard:
                    raise ClaimError(
                        "Your time has run out: on a hard clock the bot times you out itself."
                    )
                if mine:
                    raise ClaimError(
                        "You are the one out of time: you may still move until someone claims."
                    )
                if out:
                    raise ClaimError(
                        "Only the other side may claim on time: the player out of time is "
                        "your teammate."
                    )
                raise ClaimError(f"Nobody is out of time yet: {self._time_left_text(loaded, now)}.")
            event = await self.apply_timeout(loaded, claimable[0], now, claimed_by=user_id)
        log.info("game %d: %d claimed on time against seat %d", row.id, user_id, event.seat)
        return event

    async def final_warning_due(self, timer: TimerRow) -> FinalWarning | None:
        """Handle a ``"final_warning"`` timer: what to tell seat ``timer.seat``'s player, whose
        clock runs out soon, or ``None`` when there is nothing to tell: the timer is stale
        (the game is over, the clock moved on since it was planned, or the time is already
        out) or the seat is the bot's.

        The warning's :attr:`~bot.service.models.FinalWarning.at_deadline` says what the
        deadline brings: on a hard clock the time-out; on a soft one a claim by an opponent,
        or, when only bots could claim (:func:`only_bots_claim`, as
        :meth:`clock_timer_fired` decides it), the bot's claim at once. Who could claim is
        read now: a player who leaves the game before the deadline changes it.
        """
        if timer.game_id is None or timer.seat is None:
            return None
        row = await self.core.database.games.get(timer.game_id)
        if row is None or not row.is_active or timer.seat not in row.to_move:
            return None
        loaded = await self.core.load_row(row)
        clock_row = clock_of(loaded.clocks, timer.seat)
        if clock_row is None or clock_row.version != payload_int(timer, "clock_version"):
            return None
        clock = SeatClock.from_row(clock_row)
        if clock.deadline is None or clock.flagged(self.core.now()):
            return None
        player = loaded.meta.players[timer.seat]
        if is_bot(player.user_id):  # the bot needs no warning (its turn is a timer of its own)
            return None
        at_deadline: Literal["time_out", "claim", "bot_claims"] = "time_out"
        if ClockSpec.parse(clock_row.spec).mode is ClockMode.SOFT:
            out = await self.core.seats_gone(row) | _teammates(loaded, timer.seat)
            claimers = claimer_ids(loaded.meta.players, player.user_id, out)
            at_deadline = "bot_claims" if only_bots_claim(claimers) else "claim"
        return FinalWarning(
            game_id=row.id,
            game_name=loaded.meta.engine.info.name,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            seat=timer.seat,
            seat_name=player.seat_name,
            user_id=player.user_id,
            deadline=clock.deadline,
            board_message_id=row.board_message_id,
            at_deadline=at_deadline,
        )

    def out_of_time(
        self, loaded: Loaded, seat: int, now: datetime, *, hard_only: bool = False
    ) -> bool:
        """Whether ``seat``'s clock is running and its time is out (on a hard clock only,
        with ``hard_only``)."""
        clock_row = clock_of(loaded.clocks, seat)
        if clock_row is None:
            return False
        if hard_only and ClockSpec.parse(clock_row.spec).mode is not ClockMode.HARD:
            return False
        return SeatClock.from_row(clock_row).out_of_time(now)

    def _time_left_text(self, loaded: Loaded, now: datetime) -> str:
        """``White has 3h12m left``: the time left of the seats to move, for a refused claim."""
        parts = []
        for seat in loaded.row.to_move:
            clock_row = clock_of(loaded.clocks, seat)
            if clock_row is not None:
                left = SeatClock.from_row(clock_row).time_left(now)
                name = loaded.meta.players[seat].seat_name
                parts.append(f"{name} has {short_duration(left)} left")
        return ", ".join(parts) or "no clock is running"

    async def apply_timeout(
        self, loaded: Loaded, seat: int, now: datetime, *, claimed_by: int | None = None
    ) -> ClockEvent:
        """Apply ``seat``'s time-out (under the game's lock) and commit it with the clocks.

        The game's spec decides first (:meth:`~engines.base.Engine.timeout_moves`, drawn from
        :func:`~bot.service.clocks.timeout_rng` of the seed and ply): its moves are played and
        logged for the seat, each with a ``timeout`` event (:data:`TIMEOUT_EVENT`) saying it
        was played on time-out (a takeback never reaches across it), then the automatic
        steps after them. Otherwise a two-player game ends, the seat losing on ``time``; in
        a larger game the seat resigns (logged ``[k]resign`` as :meth:`resign` does, or the
        game ends on ``time`` for every other seat when the engine has no resignation). The
        seat's bank becomes zero plus its increment. The change plans its board's post
        (``board_post``), as a move does: the caller posts it (:meth:`announce`), and if the
        process stops first the ``board_post`` timer does.
        """
        meta, row = loaded.meta, loaded.row
        engine = meta.engine
        player = meta.players[seat]
        state = loaded.position.state
        texts = engine.timeout_moves(state, seat, timeout_rng(meta.seed, row.ply))
        moves: list[NewMove] = []
        events: list[Event] = []
        if texts is not None:
            kind = ClockEventKind.TIMED_OUT
            for text in texts:
                try:
                    state, canonical, played = engine.play(state, seat, text)
                except MoveError as exc:
                    raise RuntimeError(
                        f"{engine.info.id}: time-out move {text!r} is not legal: {exc.message}"
                    ) from exc
                who = player.seat_name
                notice = Event(
                    TIMEOUT_EVENT, seat, f"{who} is out of time: {canonical} played on time-out"
                )
                step_events = (notice, *played)
                ply = row.ply + len(moves) + 1
                moves.append(NewMove(ply, seat, canonical, _codec.dump_events(step_events)))
                events.extend(step_events)
            if not moves:
                raise RuntimeError(f"{engine.info.id}: no time-out move for seat {seat} to move")
        elif len(meta.players) == 2:
            outcome = Outcome.win("time", 1 - seat, 2)
            log.info("game %d: seat %d lost on time", row.id, seat)
            ended = await self.core.finish(
                loaded, "finished", outcome, timed_out=(seat,), now=now, board_post=True
            )
            return ClockEvent(
                self.core.snapshot(ended),
                seat,
                player.user_id,
                ClockEventKind.LOST_ON_TIME,
                claimed_by=claimed_by,
            )
        else:
            kind = ClockEventKind.RESIGNED_ON_TIME
            try:
                transition = engine.resign(state, seat)
            except IllegalMoveError:
                transition = None
            if transition is None:
                others = tuple(s for s in range(len(meta.players)) if s != seat)
                outcome = Outcome("time", others, (others, (seat,)))
                ended = await self.core.finish(
                    loaded, "finished", outcome, timed_out=(seat,), now=now, board_post=True
                )
                return ClockEvent(
                    self.core.snapshot(ended), seat, player.user_id, kind, claimed_by=claimed_by
                )
            notice = Event(TIMEOUT_EVENT, seat, f"{player.seat_name} is out of time and resigns")
            state = transition.state
            step_events = (notice, *transition.events)
            resigned = NewMove(
                row.ply + 1, seat, resign_move_text(seat), _codec.dump_events(step_events)
            )
            moves.append(resigned)
            events.extend(step_events)
        state, automatic_moves, automatic_events = automatic_steps(meta, state, moves[-1].ply + 1)
        all_events = (*events, *automatic_events)
        updated = await self.core.commit(
            loaded, state, [*moves, *automatic_moves], timed_out=(seat,), now=now, board_post=True
        )
        log.info(
            "game %d: seat %d timed out (%s): %s",
            row.id,
            seat,
            kind.value,
            " ".join(m.text for m in moves),
        )
        return ClockEvent(
            self.core.snapshot(updated),
            seat,
            player.user_id,
            kind,
            moves=tuple(m.text for m in (*moves, *automatic_moves)),
            events=public_events(all_events),
            claimed_by=claimed_by,
            told_privately=people(
                meta.players[s].user_id for s in seats_told_privately(all_events)
            ),
        )


def only_bots_claim(claimers: Sequence[int]) -> bool:
    """Whether only bots could claim on time against a late seat on a soft clock:
    ``claimers`` (who may, :func:`~bot.service.models.claimer_ids`) is not empty and every
    one is a bot. A bot presses no button, so the bot then claims at once against a person's
    seat, and nobody claims against a bot's (docs/clocks.md)."""
    return bool(claimers) and all(map(is_bot, claimers))


def _teammates(loaded: Loaded, seat: int) -> frozenset[int]:
    """The other seats of ``seat``'s side (Orbs teams; none in a game of sides of one)."""
    row = loaded.row
    for side in sides_of(row.game, row.options_json, len(loaded.meta.players)):
        if seat in side:
            return frozenset(side) - {seat}
    return frozenset()


def _on_claim(loaded: Loaded, seat: int) -> Literal["rule", "win", "leave"]:
    """What a claim against ``seat`` would do now, by the branches of
    :meth:`Timeouts.apply_timeout`: ``"rule"`` the game's time-out rule plays; ``"win"``
    the game ends (two players, an engine without a resignation, or a resignation that
    leaves one side); ``"leave"`` the seat resigns and play goes on. Pure: the engine's
    ``timeout_moves`` and ``resign`` return new states."""
    meta, row = loaded.meta, loaded.row
    engine, state = meta.engine, loaded.position.state
    if engine.timeout_moves(state, seat, timeout_rng(meta.seed, row.ply)) is not None:
        return "rule"
    if len(meta.players) == 2:
        return "win"
    try:
        transition = engine.resign(state, seat)
    except IllegalMoveError:
        return "win"
    if transition is None or engine.outcome(transition.state) is not None:
        return "win"
    return "leave"


def clock_of(clocks: Sequence[ClockRow], seat: int) -> ClockRow | None:
    """The clock row of ``seat`` among ``clocks``, or ``None``."""
    for clock_row in clocks:
        if clock_row.seat == seat:
            return clock_row
    return None


def payload_int(timer: TimerRow, key: str) -> int | None:
    """The integer ``key`` of ``timer``'s JSON payload, or ``None`` (logged) if it is missing
    or the payload is not JSON: the timer is then treated as stale."""
    try:
        value = json.loads(timer.payload_json).get(key)
    except (ValueError, AttributeError):
        value = None
    if not isinstance(value, int):
        log.warning("timer %d (%s) has no %s in its payload", timer.id, timer.kind, key)
        return None
    return value


_LATE_MOVE = {
    ClockEventKind.LOST_ON_TIME: "so you lost on time",
    ClockEventKind.RESIGNED_ON_TIME: "so you resigned on time and play goes on without you",
    ClockEventKind.TIMED_OUT: "so the game's time-out rule played {moves} for you instead",
}


def late_move_sentence(event: ClockEvent) -> str:
    """What a player who moved too late on a hard clock is told
    (:meth:`Play.play <bot.service.play.Play.play>`)."""
    moves = ", ".join(f"`{m}`" for m in event.moves) or "nothing"
    what = _LATE_MOVE.get(event.kind, "so your move was not played").format(moves=moves)
    return f"Your time ran out before this move, {what}."
