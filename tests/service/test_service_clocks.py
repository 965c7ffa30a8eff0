"""Clocks in play, through the service, with a fake clock and the real timer runner.

A challenge's clock starts with the game; every commit writes the seats' banks (increment,
maximum) and plans the next turn's timers in the same transaction: the deadline (``clock``),
its ``final_warning`` (soft or hard) and every game's ``reminder``. Running out of time follows
the game's spec (Arbos section 5, Generation Zero 8.4) or the platform's rule: a two-player
game is lost on time, a seat of a larger game resigns. Soft clocks wait for a claim; hard
clocks end at the deadline, or at a move made too late. Vacations pause clocks and defer
deadlines.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from bot import presenters
from bot.service import (
    GameService,
    GameSnapshot,
    NotAPlayerError,
    NotYourTurnError,
    StaleActionError,
)
from bot.service.bot_seats import bot_user_id, is_bot
from bot.service.clock_plans import BOARD_POST_GRACE, BOARD_POST_TIMER
from bot.service.clocks import (
    CLOCK_TIMER,
    FINAL_WARNING_TIMER,
    REMINDER_TIMER,
    ClaimError,
    OutOfTimeError,
    VacationError,
)
from bot.service.models import ClockEvent, ClockEventKind, SeatClockInfo
from bot.service.timeouts import only_bots_claim
from bot.service.timers import TimerRunner
from db import Database
from db.rows import NewTimer, TimerRow
from db.schema import ReminderDelivery
from engines import get_engine
from engines.arbos import ArbosEngine
from engines.base import Transition
from engines.generation_zero import GenerationZeroEngine, default_decision

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    DAN,
    GAMES,
    GUILD,
    T0,
    FakeClock,
    RoundRobin,
    RoundRobinState,
    seeds,
    to_move_user,
    waiting_user,
)

HOUR, DAY = timedelta(hours=1), timedelta(days=1)


async def start(
    service: GameService,
    clock: str | None,
    *,
    game: str = "generatorb",
    options: str | None = None,
    opponents: Sequence[int] = (BOB,),
    guild_id: int | None = GUILD,
) -> GameSnapshot:
    """ALICE challenges ``opponents`` (who accept) to ``game`` with ``clock``."""
    challenge = await service.create_challenge(
        guild_id=guild_id,
        channel_id=GAMES,
        challenger_id=ALICE,
        opponent_ids=list(opponents),
        game=game,
        options_text=options,
        clock=clock,
    )
    started = None
    for user in opponents:
        started = (await service.accept_challenge(challenge.challenge_id, user)).game
    assert started is not None
    return started


async def pending(database: Database, game_id: int, *kinds: str) -> list[tuple[str, int | None]]:
    """``(kind, seat)`` of the game's pending timers of ``kinds`` (all if none), by due time."""
    timers = await database.timers.pending(game_id=game_id, kinds=kinds or None)
    return [(t.kind, t.seat) for t in timers]


async def timer(database: Database, game_id: int, kind: str, seat: int) -> TimerRow:
    """The game's one pending timer of ``kind`` for ``seat``."""
    [found] = [
        t for t in await database.timers.pending(game_id=game_id, kinds=[kind]) if t.seat == seat
    ]
    return found


async def play_any(service: GameService, snapshot: GameSnapshot) -> GameSnapshot:
    """The player to move plays their first legal move."""
    user = to_move_user(snapshot)
    move = (await service.legal_moves(GAMES, user))[0]
    return (await service.play(GAMES, user, move)).snapshot


async def play_bot_turn(service: GameService, snapshot: GameSnapshot) -> GameSnapshot:
    """The bot's seat to move plays its first legal move, as its ``bot_turn`` timer would."""
    seat = snapshot.to_move[0]
    move = (await service.legal_moves(GAMES, to_move_user(snapshot)))[0]
    turn = await service.moves.play_seat(snapshot.game_id, seat, move, version=snapshot.version)
    return turn.snapshot


async def alice_against_a_bot(service: GameService) -> GameSnapshot:
    """ALICE plays Generatorb against a level-1 bot on ``soft:1d``: the game at her first
    turn (the bot's first move played as its timer would, if it starts)."""
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        game="generatorb",
        players=2,
        clock="soft:1d",
    )
    snapshot = (await service.add_bots(challenge.challenge_id, ALICE, [1])).game
    assert snapshot is not None
    if to_move_user(snapshot) != ALICE:
        snapshot = await play_bot_turn(service, snapshot)
    return snapshot


async def two_people_and_a_bot(service: GameService) -> GameSnapshot:
    """ALICE, BOB and a level-1 bot play round robin on ``soft:1d``: the game at its first
    person's turn (the bot's turns played as its timer would)."""
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        opponent_ids=[BOB],
        game="roundrobin",
        players=3,
        clock="soft:1d",
    )
    await service.accept_challenge(challenge.challenge_id, BOB)
    snapshot = (await service.add_bots(challenge.challenge_id, ALICE, [1])).game
    assert snapshot is not None
    while is_bot(to_move_user(snapshot)):
        snapshot = await play_bot_turn(service, snapshot)
    return snapshot


def seat_clock(snapshot: GameSnapshot, seat: int) -> SeatClockInfo:
    info = snapshot.clock_of(seat)
    assert info is not None
    return info


def bank(snapshot: GameSnapshot, seat: int) -> timedelta:
    return seat_clock(snapshot, seat).time_left


def runner_for(service: GameService, clock: FakeClock, events: list[ClockEvent]) -> TimerRunner:
    """A timer runner whose ``clock`` handler is the service's, collecting what it returns."""

    async def on_clock(row: TimerRow) -> None:
        event = await service.clock_timer_fired(row)
        if event is not None:
            events.append(event)

    return TimerRunner(service.database, {CLOCK_TIMER: on_clock}, now=clock)


# ---- the challenge's clock ------------------------------------------------------------------


async def test_the_challenge_clock_is_stored_canonical_and_defaults_to_the_services(
    database: Database, clock: FakeClock
) -> None:
    service = GameService(database, clock=clock, default_clock="hard:1d+1h/2d")
    challenge = await service.create_challenge(
        guild_id=GUILD, channel_id=GAMES, challenger_id=ALICE, opponent_ids=[BOB], game="orbs"
    )
    assert (challenge.clock, challenge.clock_text) == (
        "hard:1d+1h/2d",
        "hard clock: 1d to start, +1h per move, at most 2d",
    )
    other = await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES + 1,
        challenger_id=ALICE,
        opponent_ids=[BOB],
        game="orbs",
        clock="correspondence",
    )
    assert other.clock == "soft:2d+1d/4d"
    with pytest.raises(ValueError, match="soft or hard"):
        GameService(database, default_clock="blitz:3m")


async def test_a_clocked_game_starts_the_first_seats_clock_and_its_timers(
    service: GameService, database: Database, clock: FakeClock
) -> None:
    snapshot = await start(service, "hard:1d+1h/2d")
    first = snapshot.to_move[0]
    assert snapshot.clock == "hard:1d+1h/2d"
    assert snapshot.clock_text.startswith("hard clock: 1d to start")
    [mine, theirs] = sorted(snapshot.clocks, key=lambda c: c.seat != first)
    assert (mine.running, mine.time_left, mine.deadline, mine.flagged) == (
        True,
        DAY,
        T0 + DAY,
        False,
    )
    assert (theirs.running, theirs.time_left, theirs.deadline) == (False, DAY, None)
    assert mine.mode == "hard"
    timers = await database.timers.pending(game_id=snapshot.game_id)
    assert [(t.kind, t.seat, t.due_at) for t in timers] == [
        (BOARD_POST_TIMER, None, T0 + BOARD_POST_GRACE),  # the first board's, if never posted
        (FINAL_WARNING_TIMER, first, T0 + 22 * HOUR),
        (CLOCK_TIMER, first, T0 + DAY),
        (REMINDER_TIMER, first, T0 + DAY),
    ]
    assert json.loads(timers[2].payload_json) == {"clock_version": 1}
    assert json.loads(timers[3].payload_json) == {"version": snapshot.version, "ply": 0}


async def test_a_game_without_a_clock_has_no_clocks_but_reminders(
    service: GameService, database: Database
) -> None:
    snapshot = await start(service, None)
    assert (snapshot.clock, snapshot.clocks, snapshot.clock_text) == ("none", (), "no clock")
    assert await pending(database, snapshot.game_id) == [
        (BOARD_POST_TIMER, None),  # the first board's, called off once it is posted
        (REMINDER_TIMER, snapshot.to_move[0]),
    ]


# ---- banks after moves ----------------------------------------------------------------------


async def test_increment_and_maximum_after_moves(
    service: GameService, database: Database, clock: FakeClock
) -> None:
    snapshot = await start(service, "soft:1d+12h/1d6h")
    first = snapshot.to_move[0]
    clock.advance(2 * HOUR)
    snapshot = await play_any(service, snapshot)
    # 24h - 2h + 12h = 34h, capped at 30h; the opponent's clock starts now.
    assert bank(snapshot, first) == 30 * HOUR
    assert seat_clock(snapshot, 1 - first).running
    clock.advance(20 * HOUR)
    snapshot = await play_any(service, snapshot)
    assert bank(snapshot, 1 - first) == 16 * HOUR  # 24h - 20h + 12h
    clock.advance(HOUR)
    assert bank(await service.snapshot(GAMES), first) == 29 * HOUR
    deadlines = await database.timers.pending(game_id=snapshot.game_id, kinds=[CLOCK_TIMER])
    assert [(t.seat, t.due_at) for t in deadlines] == [(first, clock.now - HOUR + 30 * HOUR)]


# ---- soft clocks: the claim -----------------------------------------------------------------


async def test_nothing_to_claim_on_a_hard_clock_until_the_timer_is_late(
    service: GameService, clock: FakeClock
) -> None:
    snapshot = await start(service, "hard:1d")
    with pytest.raises(ClaimError, match=r"This game has a hard clock: .* nothing to claim"):
        await service.claim_on_time(GAMES, waiting_user(snapshot))
    # Out of time, the timer loop not there yet: a claim applies the time-out at once; the
    # late player's own claim is told the bot times them out (not "you may still move").
    clock.advance(DAY + timedelta(seconds=1))
    with pytest.raises(ClaimError, match="Your time has run out: on a hard clock"):
        await service.claim_on_time(GAMES, to_move_user(snapshot))
    event = await service.claim_on_time(GAMES, waiting_user(snapshot))
    assert event.snapshot.outcome is not None
    assert event.snapshot.outcome.termination == "time"


async def test_soft_clock_claim_too_early_by_the_late_player_and_then_accepted(
    service: GameService, database: Database, clock: FakeClock
) -> None:
    snapshot = await start(service, "soft:1d")
    late, opponent = to_move_user(snapshot), waiting_user(snapshot)
    late_seat = snapshot.to_move[0]
    clock.advance(timedelta(minutes=1, seconds=7))
    with pytest.raises(ClaimError, match=r"Nobody is out of time yet: \w+ has 23h 58m left\.$"):
        await service.claim_on_time(GAMES, opponent)
    clock.advance(-timedelta(minutes=1, seconds=7))
    with pytest.raises(NotAPlayerError):
        await service.claim_on_time(GAMES, CAROL)

    events: list[ClockEvent] = []
    runner = runner_for(service, clock, events)
    clock.advance(DAY)
    await runner.run_once()
    [flagged] = events
    assert (flagged.kind, flagged.seat, flagged.user_id) == (
        ClockEventKind.FLAGGED_SOFT,
        late_seat,
        late,
    )
    assert flagged.opponent_user_ids == (opponent,)
    assert flagged.on_claim == "win"  # Generatorb has no time-out rule: two players
    assert flagged.snapshot.is_active  # nothing changed: the opponent may claim now
    assert seat_clock(flagged.snapshot, late_seat).flagged
    with pytest.raises(ClaimError, match="You are the one out of time"):
        await service.claim_on_time(GAMES, late)

    event = await service.claim_on_time(GAMES, opponent, game_id=snapshot.game_id)
    assert (event.kind, event.seat, event.claimed_by) == (
        ClockEventKind.LOST_ON_TIME,
        late_seat,
        opponent,
    )
    ended = event.snapshot
    assert not ended.is_active
    assert ended.outcome is not None
    assert (ended.outcome.termination, ended.outcome.winners) == ("time", (1 - late_seat,))
    # Only the final board's post is planned (if this process stopped before posting it).
    assert await pending(database, snapshot.game_id) == [(BOARD_POST_TIMER, None)]
    with pytest.raises(StaleActionError, match="already ended"):
        await service.claim_on_time(GAMES, opponent, game_id=snapshot.game_id)


async def test_soft_clock_late_move_restarts_from_the_increment(
    service: GameService, clock: FakeClock
) -> None:
    snapshot = await start(service, "soft:1d+2h/1d")
    late_seat = snapshot.to_move[0]
    clock.advance(3 * DAY)  # nobody claimed
    snapshot = await play_any(service, snapshot)
    assert snapshot.is_active
    assert bank(snapshot, late_seat) == 2 * HOUR
    with pytest.raises(ClaimError, match="Nobody is out of time"):
        await service.claim_on_time(GAMES, to_move_user(snapshot))


async def test_a_game_without_a_clock_cannot_be_claimed(service: GameService) -> None:
    snapshot = await start(service, None)
    with pytest.raises(ClaimError, match="no clock"):
        await service.claim_on_time(GAMES, waiting_user(snapshot))


# ---- hard clocks ----------------------------------------------------------------------------


async def test_hard_clock_loses_on_time_when_the_timer_fires(
    service: GameService, database: Database, clock: FakeClock
) -> None:
    snapshot = await start(service, "hard:1d")
    loser = snapshot.to_move[0]
    events: list[ClockEvent] = []
    runner = runner_for(service, clock, events)
    clock.advance(DAY - timedelta(seconds=1))
    assert (await runner.run_once()).claimed == 0
    clock.advance(timedelta(seconds=1))
    assert (await runner.run_once()).claimed == 1
    [event] = events
    assert (event.kind, event.seat, event.claimed_by) == (ClockEventKind.LOST_ON_TIME, loser, None)
    assert event.snapshot.outcome is not None
    assert event.snapshot.outcome.termination == "time"
    assert event.snapshot.outcome.winners == (1 - loser,)
    # Every clock stopped, the loser's at its time-out bank (zero, no increment), no timers.
    assert [c.running for c in event.snapshot.clocks] == [False, False]
    assert bank(event.snapshot, loser) == timedelta(0)
    # Every timer but the final board's post, planned with the time-out (a late board).
    (board_post,) = await database.timers.pending(game_id=snapshot.game_id)
    assert board_post.kind == BOARD_POST_TIMER
    assert json.loads(board_post.payload_json) == {"version": event.snapshot.version}
    await service.set_board_message(snapshot.game_id, 90, event.snapshot.version)
    assert await pending(database, snapshot.game_id) == []
    assert (await runner.run_once()).claimed == 0


async def test_hard_clock_move_made_too_late_loses_instead_of_moving(
    service: GameService, clock: FakeClock
) -> None:
    snapshot = await start(service, "hard:1d")
    heard: list[ClockEvent] = []

    async def listener(event: ClockEvent) -> None:
        heard.append(event)

    service.add_clock_listener(listener)
    late = to_move_user(snapshot)
    move = (await service.legal_moves(GAMES, late))[0]
    clock.advance(DAY + HOUR)  # the deadline's timer has not run yet
    with pytest.raises(OutOfTimeError, match="Your time ran out before this move, so you lost"):
        await service.play(GAMES, late, move)
    [event] = heard
    assert event.kind is ClockEventKind.LOST_ON_TIME
    shown = await service.snapshot(GAMES)
    assert not shown.is_active
    assert shown.ply == 0  # the move was not played
    service.remove_clock_listener(listener)


async def test_a_late_move_in_a_game_with_a_time_out_rule_plays_that_rule_instead(
    service: GameService, clock: FakeClock
) -> None:
    snapshot = await start(service, "hard:1h", game="arbos", options="setup_mode=manual")
    late = to_move_user(snapshot)
    clock.advance(2 * HOUR)
    with pytest.raises(
        OutOfTimeError, match=r"time-out rule played `seed [A-T][0-9]+` for you"
    ) as caught:
        await service.play(GAMES, late, "seed K10")
    event = caught.value.event
    assert event is not None
    assert event.kind is ClockEventKind.TIMED_OUT
    assert event.snapshot.is_active
    assert event.snapshot.to_move == (1 - snapshot.to_move[0],)
    [logged] = await service.move_list(GAMES)
    assert logged.text == event.moves[0]
    # Trying again: not the late player's turn, and the move the rule played is not called
    # theirs ("your move … is played" is for a move they chose).
    with pytest.raises(NotYourTurnError) as again:
        await service.play(GAMES, late, "seed K10")
    assert again.value.just_played is None


async def test_stale_clock_timers_are_ignored(
    service: GameService, database: Database, clock: FakeClock
) -> None:
    snapshot = await start(service, "hard:1d")
    first = snapshot.to_move[0]
    old = await timer(database, snapshot.game_id, CLOCK_TIMER, first)
    clock.advance(HOUR)
    snapshot = await play_any(service, snapshot)
    clock.advance(3 * DAY)
    # The first seat's clock moved on since its deadline was planned: that timer is stale.
    assert await service.clock_timer_fired(old) is None
    current = await timer(database, snapshot.game_id, CLOCK_TIMER, 1 - first)
    assert await service.clock_timer_fired(replace(current, payload_json="{}")) is None
    assert await service.clock_timer_fired(replace(current, seat=first)) is None
    assert (await service.snapshot(GAMES)).is_active
    await service.resign(GAMES, ALICE)
    assert await service.clock_timer_fired(current) is None  # the game is over


async def test_a_clock_timer_that_fires_early_is_planned_again(
    service: GameService, database: Database, clock: FakeClock
) -> None:
    snapshot = await start(service, "hard:1d")
    seat = snapshot.to_move[0]
    deadline = await timer(database, snapshot.game_id, CLOCK_TIMER, seat)
    clock.advance(HOUR)  # another process's clock ran ahead of ours
    assert await service.clock_timer_fired(deadline) is None
    again = await timer(database, snapshot.game_id, CLOCK_TIMER, seat)
    assert (again.due_at, again.payload_json) == (deadline.due_at, deadline.payload_json)
    assert (await service.snapshot(GAMES)).is_active


async def test_a_final_warning_is_due_before_a_hard_deadline_until_the_seat_moves(
    service: GameService, database: Database, clock: FakeClock
) -> None:
    snapshot = await start(service, "hard:1d")
    seat = snapshot.to_move[0]
    warning = await timer(database, snapshot.game_id, FINAL_WARNING_TIMER, seat)
    clock.advance(22 * HOUR)
    due = await service.final_warning_due(warning)
    assert due is not None
    assert (due.game_id, due.seat, due.user_id, due.deadline) == (
        snapshot.game_id,
        seat,
        to_move_user(snapshot),
        T0 + DAY,
    )
    assert (due.game_name, due.channel_id, due.guild_id) == ("Generatorb", GAMES, GUILD)
    assert due.at_deadline == "time_out"
    await play_any(service, snapshot)
    assert await service.final_warning_due(warning) is None


async def test_a_soft_clocks_final_warning_says_an_opponent_may_then_claim(
    service: GameService, database: Database, clock: FakeClock
) -> None:
    """As on a hard clock: due two hours before the deadline, stale once the seat moved, and
    the next turn has its own; it says that after the deadline the opponent may claim."""
    snapshot = await start(service, "soft:1d")
    seat = snapshot.to_move[0]
    warning = await timer(database, snapshot.game_id, FINAL_WARNING_TIMER, seat)
    assert warning.due_at == T0 + 22 * HOUR
    clock.advance(22 * HOUR)
    due = await service.final_warning_due(warning)
    assert due is not None
    assert (due.seat, due.user_id, due.deadline, due.at_deadline) == (
        seat,
        to_move_user(snapshot),
        T0 + DAY,
        "claim",
    )
    assert "after that an opponent may claim on time." in presenters.final_warning_text(due)
    await play_any(service, snapshot)
    assert await service.final_warning_due(warning) is None
    following = await timer(database, snapshot.game_id, FINAL_WARNING_TIMER, 1 - seat)
    assert following.due_at == clock.now + 22 * HOUR
    assert await pending(database, snapshot.game_id, FINAL_WARNING_TIMER) == [
        (FINAL_WARNING_TIMER, 1 - seat)
    ]


async def test_against_the_bot_a_soft_clocks_final_warning_says_the_bot_claims(
    service: GameService, database: Database, clock: FakeClock
) -> None:
    """Only the bot could claim, so the deadline ends the game at once
    (:func:`test_when_only_bots_could_claim_the_bot_claims_at_once`): the warning says so.
    The bot's own seat is never warned."""
    snapshot = await alice_against_a_bot(service)
    seat = snapshot.to_move[0]
    warning = await timer(database, snapshot.game_id, FINAL_WARNING_TIMER, seat)
    clock.advance(22 * HOUR)
    due = await service.final_warning_due(warning)
    assert due is not None
    assert (due.user_id, due.at_deadline) == (ALICE, "bot_claims")
    assert presenters.final_warning_text(due).endswith(
        "move before then; after that the bot claims on time at once."
    )
    snapshot = await play_any(service, snapshot)
    assert is_bot(to_move_user(snapshot))
    bots = await timer(database, snapshot.game_id, FINAL_WARNING_TIMER, 1 - seat)
    clock.advance(22 * HOUR)
    assert await service.final_warning_due(bots) is None


async def test_who_a_soft_clocks_final_warning_says_may_claim_is_read_when_it_is_due(
    service: GameService, database: Database, clock: FakeClock, round_robin: RoundRobin
) -> None:
    """Three seats, two people and a bot: the late person is told an opponent may claim;
    once the other person has resigned only the bot could, and the warning says the bot
    claims. Once the time is out (and the late seat is flagged again after a resignation,
    ``REFLAG_AFTER``) the warning is stale: it never comes late."""
    snapshot = await two_people_and_a_bot(service)
    late_seat = snapshot.to_move[0]
    other = ALICE if to_move_user(snapshot) == BOB else BOB
    warning = await timer(database, snapshot.game_id, FINAL_WARNING_TIMER, late_seat)
    clock.advance(22 * HOUR)
    due = await service.final_warning_due(warning)
    assert due is not None
    assert due.at_deadline == "claim"
    await service.resign(GAMES, other)
    due = await service.final_warning_due(warning)
    assert due is not None
    assert due.at_deadline == "bot_claims"
    clock.advance(2 * HOUR)
    assert await service.final_warning_due(warning) is None  # the time is out


async def test_a_soft_turn_planned_before_its_warning_existed_gets_it_from_the_next_plan(
    service: GameService, database: Database, clock: FakeClock
) -> None:
    """A soft clock's turn planned before soft clocks were warned has its ``clock`` timer
    only; the warning is the same ``final_warning`` timer kind as a hard clock's, so such
    a game needs no migration: a vacation's new plan, or the next turn, adds the warning."""
    snapshot = await start(service, "soft:1d")
    seat = snapshot.to_move[0]
    await database.timers.cancel(snapshot.game_id, kinds=[FINAL_WARNING_TIMER])
    assert await pending(database, snapshot.game_id, CLOCK_TIMER, FINAL_WARNING_TIMER) == [
        (CLOCK_TIMER, seat)
    ]
    clock.advance(HOUR)
    await service.start_vacation(to_move_user(snapshot), DAY)
    warning = await timer(database, snapshot.game_id, FINAL_WARNING_TIMER, seat)
    assert warning.due_at == clock.now + DAY + 21 * HOUR
    await service.end_vacation(to_move_user(snapshot))
    snapshot = await play_any(service, snapshot)
    assert await pending(database, snapshot.game_id, CLOCK_TIMER, FINAL_WARNING_TIMER) == [
        (FINAL_WARNING_TIMER, 1 - seat),
        (CLOCK_TIMER, 1 - seat),
    ]


# ---- more than two players ------------------------------------------------------------------


class NoResignRobin(RoundRobin):
    """Round robin whose rules say nothing about resigning: the bot ends the game."""

    def resign(self, state: RoundRobinState, seat: int) -> Transition[RoundRobinState] | None:
        return None


async def test_a_seat_of_a_three_player_game_resigns_on_time_and_play_goes_on(
    service: GameService, database: Database, clock: FakeClock, round_robin: RoundRobin
) -> None:
    snapshot = await start(service, "hard:1d", game="roundrobin", opponents=(BOB, CAROL))
    late_seat = snapshot.to_move[0]
    clock.advance(DAY)
    events: list[ClockEvent] = []
    await runner_for(service, clock, events).run_once()
    [event] = events
    assert event.kind is ClockEventKind.RESIGNED_ON_TIME
    assert event.moves == (f"[{late_seat}]resign",)
    after = event.snapshot
    assert after.is_active
    assert after.to_move == ((late_seat + 1) % 3,)
    assert [m.text for m in await service.move_list(GAMES)] == [f"[{late_seat}]resign"]
    assert "out of time and resigns" in event.events[0].text
    next_clock = after.clock_of(after.to_move[0])
    assert next_clock is not None
    assert (next_clock.running, next_clock.deadline) == (True, clock.now + DAY)
    assert (await service.replay(after.game_id)).matches


async def test_without_a_resignation_rule_a_larger_game_ends_on_time(
    service: GameService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    import engines

    monkeypatch.setitem(engines.ENGINES, "roundrobin", NoResignRobin())
    snapshot = await start(service, "hard:1d", game="roundrobin", opponents=(BOB, CAROL))
    late_seat = snapshot.to_move[0]
    clock.advance(DAY)
    events: list[ClockEvent] = []
    await runner_for(service, clock, events).run_once()
    [event] = events
    assert event.kind is ClockEventKind.RESIGNED_ON_TIME
    outcome = event.snapshot.outcome
    assert outcome is not None
    others = tuple(s for s in range(3) if s != late_seat)
    assert (outcome.termination, outcome.winners, outcome.ranking) == (
        "time",
        others,
        (others, (late_seat,)),
    )


async def test_a_soft_clocks_notice_says_what_a_claim_would_do(
    service: GameService, clock: FakeClock, round_robin: RoundRobin, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ClockEvent.on_claim`` follows apply_timeout's branches: the seat of a larger game
    leaves, a game whose engine has no resignation ends, a game with a time-out rule plays it.
    """
    import engines

    async def flagged(game: str, opponents: Sequence[int]) -> ClockEvent:
        await start(service, "soft:1d", game=game, opponents=opponents)
        clock.advance(DAY)
        events: list[ClockEvent] = []
        await runner_for(service, clock, events).run_once()
        [event] = events
        assert event.kind is ClockEventKind.FLAGGED_SOFT
        await service.abort(GAMES, ALICE)
        return event

    assert (await flagged("roundrobin", (BOB, CAROL))).on_claim == "leave"
    assert (await flagged("arbos", (BOB,))).on_claim == "rule"
    monkeypatch.setitem(engines.ENGINES, "roundrobin", NoResignRobin())
    assert (await flagged("roundrobin", (BOB, CAROL))).on_claim == "win"


# ---- games with a time-out rule -------------------------------------------------------------

ARBOS = get_engine("arbos")
assert isinstance(ARBOS, ArbosEngine)


def user_of(snapshot: GameSnapshot, seat: int) -> int:
    return snapshot.players[seat].user_id


async def time_out(service: GameService, clock: FakeClock, after: timedelta) -> ClockEvent:
    """Let ``after`` pass and run the due clock timers: exactly one time-out."""
    clock.advance(after)
    events: list[ClockEvent] = []
    await runner_for(service, clock, events).run_once()
    [event] = events
    return event


async def test_arbos_time_outs_follow_section_5_in_setup_opening_and_play(
    service: GameService, database: Database, clock: FakeClock
) -> None:
    snapshot = await start(
        service, "hard:1h", game="arbos", options="setup_mode=manual seeds_per_player=7"
    )
    placed = 0
    while snapshot.is_active and placed < 14:  # every manual setup placement times out
        seat = snapshot.to_move[0]
        event = await time_out(service, clock, HOUR)
        assert (event.kind, event.seat) == (ClockEventKind.TIMED_OUT, seat)
        [move] = event.moves
        assert move.startswith("seed ")
        assert event.events[0].kind == "timeout"
        assert "is out of time: seed" in event.events[0].text
        snapshot = event.snapshot
        placed += 1
    row = await database.games.get(snapshot.game_id)
    assert row is not None
    assert ARBOS.loads(row.state_json).phase == "opening"
    event = await time_out(service, clock, HOUR)  # White's opening: a random legal spore
    [spore] = event.moves
    assert spore[0].isalpha()
    assert spore[1:].isdigit()  # a bare cell: one spore
    event = await time_out(service, clock, HOUR)  # Black, nothing special: pass
    assert event.moves == ("pass",)
    event = await time_out(service, clock, HOUR)  # White passes too: the game ends
    assert event.moves == ("pass",)
    assert event.snapshot.outcome is not None
    assert event.snapshot.outcome.termination == "passes"
    assert (await service.replay(snapshot.game_id)).matches


#: Manual setup seeds far from the trees below (spacing of A7 respected).
SEEDS = ["A1", "A5", "A9", "A13", "A17", "E1", "E5", "E9", "E13", "E17", "Q1", "Q5", "Q9", "Q13"]
#: White grows one tree on row C; Black a star around K6 and a single spore on T20.
WHITE_SPORES = ["C10", "C11", "C12", "C13", "C14", "C15", "C16", "C17"]
BLACK_SPORES = ["I4", "J5", "K6", "L6", "M6", "J7", "I8", "T20"]


async def test_arbos_time_out_with_a_prune_due_auto_prunes_then_passes(
    service: GameService, clock: FakeClock
) -> None:
    snapshot = await start(
        service, "hard:1d", game="arbos", options="setup_mode=manual seeds_per_player=7"
    )
    white, black = user_of(snapshot, 0), user_of(snapshot, 1)
    for number, cell in enumerate(SEEDS):
        await service.play(GAMES, white if number % 2 == 0 else black, f"seed {cell}")
    for mine, theirs in zip(WHITE_SPORES, BLACK_SPORES, strict=True):
        await service.play(GAMES, white, mine)
        await service.play(GAMES, black, theirs)
    # White's replace cuts the star in three: Black has 4 trees and must prune 1.
    cut = await service.play(GAMES, white, "replace K6")
    snapshot = cut.snapshot
    assert snapshot.prompt is not None
    assert "must prune 1 tree" in snapshot.prompt
    # The move's post tells the due prune once: the prompt under the ping says it.
    assert presenters.turn_text(cut).count("must prune 1 tree") == 1
    event = await time_out(service, clock, DAY)
    # The single spore on T20 is the smallest tree: pruned first; then the turn is a pass.
    assert (event.kind, event.seat, event.moves) == (
        ClockEventKind.TIMED_OUT,
        1,
        ("prune T20", "pass"),
    )
    assert event.snapshot.to_move == (0,)
    assert (await service.replay(snapshot.game_id)).matches


async def test_generation_zero_plays_the_default_decision_on_time_out(
    service: GameService, database: Database, clock: FakeClock
) -> None:
    snapshot = await start(service, "hard:1d+1h/1d", game="generation_zero")
    engine = get_engine("generation_zero")
    assert isinstance(engine, GenerationZeroEngine)
    row = await database.games.get(snapshot.game_id)
    assert row is not None
    expected = default_decision(engine, engine.loads(row.state_json))
    seat = snapshot.to_move[0]
    event = await time_out(service, clock, DAY)
    assert (event.kind, event.seat, event.moves[0]) == (ClockEventKind.TIMED_OUT, seat, expected)
    # The seat orders its next character in the same turn: that decision has its own
    # deadline, the bank being zero plus the 1h increment.
    assert event.snapshot.to_move == (seat,)
    deadline = await timer(database, snapshot.game_id, CLOCK_TIMER, seat)
    assert deadline.due_at == clock.now + HOUR
    again = await time_out(service, clock, HOUR)
    assert (again.kind, again.seat) == (ClockEventKind.TIMED_OUT, seat)
    assert (await service.replay(snapshot.game_id)).matches


async def test_a_last_draft_pick_on_time_out_sends_every_person_to_their_hand(
    service: GameService, clock: FakeClock
) -> None:
    """The time-out rule's last pick deals every seat its Canons (private events): the
    post names both players, the late one too, who did not move by hand."""
    snapshot = await start(service, "hard:1d+1h/1d", game="generation_zero", options="deal=draft")
    engine = get_engine("generation_zero")
    for _ in range(40):  # every pick but the last by hand
        user = to_move_user(snapshot)
        move = (await service.legal_moves(GAMES, user))[0]
        row = await service.database.games.get(snapshot.game_id)
        assert row is not None
        _, _, events = engine.play(engine.loads(row.state_json), snapshot.to_move[0], move)
        if any(e.visible_to is not None for e in events):
            break  # this pick would deal: let the clock make it
        snapshot = (await service.play(GAMES, user, move)).snapshot
    else:
        raise AssertionError("the draft never dealt")
    event = await time_out(service, clock, DAY)
    assert event.kind is ClockEventKind.TIMED_OUT
    assert set(event.told_privately) == {ALICE, BOB}
    assert "this move showed you something only you may see" in presenters.clock_event_text(event)


# ---- vacations ------------------------------------------------------------------------------


async def test_vacation_pauses_clocks_defers_deadlines_and_resumes(
    service: GameService, database: Database, clock: FakeClock
) -> None:
    snapshot = await start(service, "soft:2d+1d/4d")
    away = to_move_user(snapshot)
    away_seat = snapshot.to_move[0]
    clock.advance(10 * HOUR)
    info = await service.start_vacation(away, 3 * DAY)
    until = clock.now + 3 * DAY
    assert (info.until, info.used, info.left, info.on_vacation) == (until, 3 * DAY, 27 * DAY, True)
    assert [(g.game_id, g.channel_id, g.game_name) for g in info.games] == [
        (snapshot.game_id, GAMES, "Generatorb")
    ]
    paused = (await service.snapshot(GAMES)).clock_of(away_seat)
    assert paused is not None
    assert (paused.paused_until, paused.time_left, paused.deadline) == (
        until,
        38 * HOUR,
        until + 38 * HOUR,
    )
    deadline = await timer(database, snapshot.game_id, CLOCK_TIMER, away_seat)
    assert deadline.due_at == until + 38 * HOUR

    # The player moves while away; when the turn comes back it starts paused too, and the
    # reminder waits for the vacation's end.
    clock.advance(HOUR)
    snapshot = await play_any(service, snapshot)
    clock.advance(HOUR)
    snapshot = await play_any(service, snapshot)
    again = snapshot.clock_of(away_seat)
    assert again is not None
    assert again.paused_until == until
    reminder = await timer(database, snapshot.game_id, REMINDER_TIMER, away_seat)
    assert reminder.due_at == until + DAY

    clock.advance(DAY)
    ended = await service.end_vacation(away)
    assert (ended.until, ended.on_vacation) == (None, False)
    assert ended.used == 3 * DAY - (until - clock.now)
    running = (await service.snapshot(GAMES)).clock_of(away_seat)
    assert running is not None
    assert (running.paused_until, running.deadline) == (None, clock.now + running.time_left)
    with pytest.raises(VacationError, match="not on vacation"):
        await service.end_vacation(away)
    with pytest.raises(VacationError, match="like 3d"):
        await service.start_vacation(away, timedelta(0))
    status = await service.vacation(away)
    assert status.left == 30 * DAY - ended.used


async def test_vacation_allowance_is_the_services(database: Database, clock: FakeClock) -> None:
    service = GameService(database, clock=clock, vacation_allowance=2 * DAY)
    info = await service.start_vacation(ALICE, 5 * DAY)
    assert (info.used, info.left, info.until, info.games) == (
        2 * DAY,
        timedelta(0),
        T0 + 2 * DAY,
        (),
    )
    with pytest.raises(VacationError, match="used all 2d"):
        await service.start_vacation(ALICE, DAY)


# ---- reminders ------------------------------------------------------------------------------


async def reminders(
    database: Database, game_id: int
) -> list[tuple[int | None, datetime, tuple[int, int]]]:
    """``(seat, due, (version, ply))`` of the game's pending reminders."""
    timers = await database.timers.pending(game_id=game_id, kinds=[REMINDER_TIMER])
    found = []
    for timer in timers:
        payload = json.loads(timer.payload_json)
        found.append((timer.seat, timer.due_at, (payload["version"], payload["ply"])))
    return found


async def test_reminders_follow_the_turn_with_the_games_version(
    service: GameService, database: Database, clock: FakeClock
) -> None:
    snapshot = await start(service, None)
    first = snapshot.to_move[0]
    assert await reminders(database, snapshot.game_id) == [(first, T0 + DAY, (snapshot.version, 0))]
    clock.advance(HOUR)
    snapshot = await play_any(service, snapshot)
    assert await reminders(database, snapshot.game_id) == [
        (1 - first, clock.now + DAY, (snapshot.version, snapshot.ply))
    ]
    await service.resign(GAMES, ALICE)
    assert await reminders(database, snapshot.game_id) == []


async def test_quiet_time_per_user_then_guild_then_service_and_off(
    database: Database, clock: FakeClock
) -> None:
    service = GameService(
        database, clock=clock, rng_seed_source=seeds(), reminder_quiet=timedelta(hours=5)
    )
    snapshot = await start(service, None)
    assert (await reminders(database, snapshot.game_id))[0][1] == T0 + 5 * HOUR
    first_user, second_user = to_move_user(snapshot), waiting_user(snapshot)
    await database.settings.set_guild(GUILD, reminder_quiet_s=3600, now=clock.now)
    snapshot = await play_any(service, snapshot)
    assert (await reminders(database, snapshot.game_id))[0][1] == clock.now + HOUR
    await database.settings.set_user(first_user, reminder_quiet_s=600, now=clock.now)
    snapshot = await play_any(service, snapshot)
    assert (await reminders(database, snapshot.game_id))[0][1] == clock.now + timedelta(minutes=10)
    await database.settings.set_user(second_user, reminders=ReminderDelivery.OFF, now=clock.now)
    snapshot = await play_any(service, snapshot)
    assert await reminders(database, snapshot.game_id) == []  # and the other one's is gone


async def test_outside_a_guild_the_services_quiet_time_applies(
    service: GameService, database: Database
) -> None:
    await database.settings.set_guild(GUILD, reminder_quiet_s=60, now=T0)
    snapshot = await start(service, None, guild_id=None)
    assert (await reminders(database, snapshot.game_id))[0][1] == T0 + DAY


async def test_an_abort_stops_the_clocks_and_cancels_every_timer(
    service: GameService, database: Database
) -> None:
    snapshot = await start(service, "hard:1d")
    ended = await service.abort(GAMES, ALICE)
    assert ended.status == "aborted"
    assert [c.running for c in ended.clocks] == [False, False]
    # Every timer but the final board's post, planned with the abort (the cog posts it).
    assert await pending(database, snapshot.game_id) == [(BOARD_POST_TIMER, None)]
    await service.set_board_message(snapshot.game_id, 90, ended.version)
    assert await pending(database, snapshot.game_id) == []


async def test_a_player_who_left_is_not_asked_to_claim_and_may_not(
    service: GameService, clock: FakeClock, round_robin: RoundRobin
) -> None:
    """Three players, one resigns while play goes on; then the one to move runs out on a
    soft clock. The notice pings the one still in, not the one who left, and only the one
    still in may claim: the one who left has nothing at stake."""
    snapshot = await start(service, "soft:1d", game="roundrobin", opponents=(BOB, CAROL))
    mover = to_move_user(snapshot)
    left, still_in = [u for u in snapshot.user_ids if u != mover]
    await service.resign(GAMES, left)
    clock.advance(2 * DAY)
    events: list[ClockEvent] = []
    await runner_for(service, clock, events).run_once()
    [notice] = events
    assert notice.kind is ClockEventKind.FLAGGED_SOFT
    assert notice.user_id == mover
    assert notice.opponent_user_ids == (still_in,)
    with pytest.raises(ClaimError, match="You have left this game"):
        await service.claim_on_time(GAMES, left)
    claimed = await service.claim_on_time(GAMES, still_in)
    assert (claimed.seat, claimed.claimed_by) == (notice.seat, still_in)


async def test_a_teammate_is_not_asked_to_claim_and_may_not(
    service: GameService, clock: FakeClock
) -> None:
    """Orbs ``teams4`` (seats 0 and 2 against 1 and 3): the late player's teammate is not
    pinged by the notice, and their claim (which would take their own side's seat out) is
    refused; an opponent's claim goes through."""
    snapshot = await start(
        service, "soft:1d", game="orbs", options="teams=02-13", opponents=(BOB, CAROL, DAN)
    )
    late_seat = snapshot.to_move[0]
    by_seat = {p.seat: p.user_id for p in snapshot.players}
    teammate = by_seat[(late_seat + 2) % 4]
    opponents = {by_seat[(late_seat + 1) % 4], by_seat[(late_seat + 3) % 4]}
    clock.advance(2 * DAY)
    events: list[ClockEvent] = []
    await runner_for(service, clock, events).run_once()
    [notice] = events
    assert notice.kind is ClockEventKind.FLAGGED_SOFT
    assert set(notice.opponent_user_ids) == opponents
    with pytest.raises(ClaimError, match="your teammate"):
        await service.claim_on_time(GAMES, teammate)
    claimed = await service.claim_on_time(GAMES, min(opponents))
    assert (claimed.seat, claimed.claimed_by) == (late_seat, min(opponents))


async def test_when_only_bots_could_claim_the_bot_claims_at_once(
    service: GameService, clock: FakeClock
) -> None:
    """Against the bot a soft clock would never end the game (a bot presses no button):
    the bot claims as soon as the person's time is out, and the game is lost on time."""
    snapshot = await alice_against_a_bot(service)
    assert to_move_user(snapshot) == ALICE
    clock.advance(2 * DAY)
    events: list[ClockEvent] = []
    await runner_for(service, clock, events).run_once()
    [event] = events
    assert event.kind is ClockEventKind.LOST_ON_TIME
    assert event.claimed_by == bot_user_id(1)
    assert not event.snapshot.is_active
    assert "claimed" in presenters.clock_event_text(event)


async def test_after_the_last_other_person_resigns_the_bot_claims_a_seat_still_out_of_time(
    service: GameService, clock: FakeClock, round_robin: RoundRobin
) -> None:
    """Three seats, two people and a bot, on a soft clock. One person runs out of time: the
    notice names the other person. That person then resigns: the late seat's clock timer
    comes again a minute later (its notice was retired with the resignation), and now only
    the bot could claim, so it does."""
    snapshot = await two_people_and_a_bot(service)
    late = to_move_user(snapshot)
    other = ALICE if late == BOB else BOB
    clock.advance(2 * DAY)
    events: list[ClockEvent] = []
    runner = runner_for(service, clock, events)
    await runner.run_once()
    [notice] = events
    assert notice.kind is ClockEventKind.FLAGGED_SOFT
    assert presenters.claimers_named(notice) == (other,)  # the bot leaves it to the person
    await service.resign(GAMES, other)
    clock.advance(timedelta(seconds=61))
    await runner.run_once()
    claimed = events[-1]
    assert claimed is not notice
    assert claimed.user_id == late
    assert claimed.claimed_by == bot_user_id(1)
    assert not claimed.snapshot.is_active  # the bot is the last seat left


@pytest.mark.parametrize("clock_text", [None, "soft:1d"])
async def test_ending_a_vacation_early_brings_its_held_reminders_forward(
    service: GameService, database: Database, clock: FakeClock, clock_text: str | None
) -> None:
    """A turn that reached a player during their vacation has its first reminder a quiet
    time after the vacation's end; ended early, the reminder comes a quiet time after the
    player is back (it stayed at the old end plus the quiet time: two days late), with a
    clock or without."""
    snapshot = await start(service, clock_text)
    mover = to_move_user(snapshot)
    away = waiting_user(snapshot)
    away_seat = next(p.seat for p in snapshot.players if p.user_id == away)
    await service.start_vacation(away, 2 * DAY)
    await play_any(service, snapshot)  # the turn reaches the player on vacation
    assert mover != away
    held = await timer(database, snapshot.game_id, REMINDER_TIMER, away_seat)
    assert held.due_at == clock.now + 2 * DAY + service.core.reminder_quiet
    clock.advance(HOUR)
    await service.end_vacation(away)
    sooner = await timer(database, snapshot.game_id, REMINDER_TIMER, away_seat)
    assert sooner.due_at == clock.now + service.core.reminder_quiet
    assert sooner.payload_json == held.payload_json


async def test_a_vacation_does_not_pause_a_clock_already_out_of_time(
    service: GameService, database: Database, clock: FakeClock
) -> None:
    """Out of time on a soft clock, then on vacation: the clock is not paused (it said so
    while the opponent could still claim), no second notice is planned, and the answer says
    where the time was already out."""
    snapshot = await start(service, "soft:1h")
    late = to_move_user(snapshot)
    late_seat = snapshot.to_move[0]
    clock.advance(2 * HOUR)
    events: list[ClockEvent] = []
    await runner_for(service, clock, events).run_once()
    [notice] = events
    assert notice.kind is ClockEventKind.FLAGGED_SOFT
    info = await service.start_vacation(late, DAY)
    assert [(g.game_id, g.out_of_time) for g in info.games] == [(snapshot.game_id, True)]
    out = (await service.snapshot(GAMES)).clock_of(late_seat)
    assert out is not None
    assert (out.flagged, out.paused_until) == (True, None)
    assert await pending(database, snapshot.game_id, CLOCK_TIMER) == []
    claimed = await service.claim_on_time(GAMES, waiting_user(snapshot))
    assert claimed.seat == late_seat


async def test_ending_a_vacation_leaves_a_reminder_it_never_held(
    service: GameService, database: Database, clock: FakeClock
) -> None:
    """Quiet time 1h, interval 24h: a turn reminded before any vacation has its follow-up
    due at +25h. A one-hour vacation, ended early, leaves that follow-up alone (it moved it
    to +4h)."""
    snapshot = await start(service, None)
    user = to_move_user(snapshot)
    seat = snapshot.to_move[0]
    await database.settings.set_user(user, reminder_quiet_s=3600, now=clock.now)
    first = await timer(database, snapshot.game_id, REMINDER_TIMER, seat)
    t0 = clock.now
    follow = NewTimer(REMINDER_TIMER, t0 + 25 * HOUR, snapshot.game_id, seat, first.payload_json)
    await database.timers.schedule(follow, now=t0 + HOUR)  # as the runner writes it at +1h
    clock.advance(2 * HOUR)
    await service.start_vacation(user, DAY)
    clock.advance(HOUR)
    await service.end_vacation(user)
    after = await timer(database, snapshot.game_id, REMINDER_TIMER, seat)
    assert after.due_at == t0 + 25 * HOUR


async def test_a_late_bot_seat_that_only_bots_could_claim_against_is_left_alone(
    service: GameService, clock: FakeClock, round_robin: RoundRobin
) -> None:
    """Three seats, a person and two bots, on a soft clock; the person resigns and a bot
    seat's time runs out (the bot was down): only the other bot could claim, and it does
    not claim for our own lateness, so nothing is announced (a notice nobody can act on)."""
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        game="roundrobin",
        players=3,
        clock="soft:1d",
    )
    snapshot = (await service.add_bots(challenge.challenge_id, ALICE, [1, 2])).game
    assert snapshot is not None
    await service.resign(GAMES, ALICE)
    snapshot = await service.snapshot(GAMES)
    assert snapshot.is_active
    assert is_bot(to_move_user(snapshot))
    clock.advance(2 * DAY)
    events: list[ClockEvent] = []
    await runner_for(service, clock, events).run_once()
    assert events == []
    assert (await service.snapshot(GAMES)).is_active


def test_only_bots_claim_needs_someone_to_claim() -> None:
    """Nobody left who may claim is not "only bots": nothing is claimed for the seat then."""
    assert not only_bots_claim(())
    assert only_bots_claim((bot_user_id(1), bot_user_id(2)))
    assert not only_bots_claim((bot_user_id(1), ALICE))
