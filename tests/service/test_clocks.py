"""Clocks: duration and clock text, seat banks (soft claim, hard loss, increment, maximum),
vacations within a yearly allowance, and the planned database changes, with a fake clock."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.service.clock_plans import (
    deadline_timers,
    merge_changes,
    plan_reminders,
    plan_start,
    plan_turn,
    start_timers,
    timeout_rng,
)
from bot.service.clocks import (
    CLOCK_CHOICES,
    CLOCK_TIMER,
    CORRESPONDENCE,
    FINAL_WARNING_BEFORE,
    FINAL_WARNING_TIMER,
    REMINDER_TIMER,
    ClockMode,
    ClockSpec,
    OutOfTimeError,
    SeatClock,
    VacationBook,
    clock_choices,
    format_duration,
    parse_duration,
    reminder_delay,
    to_ms,
)
from bot.service.timers import TimerRunner
from bot.service.vacations import end_vacation, start_vacation, vacation_ends
from db import Database, GameRow
from db.rows import (
    ClockChanges,
    ClockRow,
    GuildSettingsRow,
    TimerCancel,
    TimerRow,
    UserSettingsRow,
)
from db.schema import ReminderDelivery
from engines.base import CHANCE
from tests.service.conftest import ALICE, BOB, T0, FakeClock

HOUR, DAY = timedelta(hours=1), timedelta(days=1)
ALLOWANCE = timedelta(days=30)

durations = st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=400)).map(
    lambda d: timedelta(seconds=int(d.total_seconds()))
)
instants = st.integers(min_value=0, max_value=10**8).map(lambda s: T0 + timedelta(seconds=s))
clock_specs = st.builds(
    lambda mode, initial, increment, extra: ClockSpec(mode, initial, increment, initial + extra),
    st.sampled_from([ClockMode.SOFT, ClockMode.HARD]),
    st.integers(1, 100 * 86400).map(lambda s: timedelta(seconds=s)),
    st.integers(0, 100 * 86400).map(lambda s: timedelta(seconds=s)),
    st.integers(0, 100 * 86400).map(lambda s: timedelta(seconds=s)),
)


# ----------------------------------------------------------------------------------------------
# Text
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3d", timedelta(days=3)),
        ("12h", timedelta(hours=12)),
        ("90m", timedelta(minutes=90)),
        ("45s", timedelta(seconds=45)),
        ("1d12h", timedelta(days=1, hours=12)),
        (" 2H 30M ", timedelta(hours=2, minutes=30)),
        ("1d2h3m4s", timedelta(days=1, hours=2, minutes=3, seconds=4)),
        ("0", timedelta(0)),
    ],
)
def test_parse_duration(text: str, expected: timedelta) -> None:
    assert parse_duration(text) == expected


@pytest.mark.parametrize("text", ["", "h", "3x", "12h3d", "1.5h", "-3h", "3d3d", "soon"])
def test_parse_duration_refuses_bad_text_with_one_sentence(text: str) -> None:
    with pytest.raises(ValueError, match=r"^.+\.$"):
        parse_duration(text)


@pytest.mark.parametrize("text", ["9999999999d", "99999999999999999999999s", "1000000000d"])
def test_a_duration_too_long_to_hold_is_refused_with_one_sentence(text: str) -> None:
    """Beyond ``timedelta.max`` Python raises OverflowError, which the command and its
    autocomplete did not expect (both answered with a generic apology)."""
    with pytest.raises(ValueError, match=r"far too long a duration\.$"):
        parse_duration(text)
    with pytest.raises(ValueError, match="far too long"):
        ClockSpec.parse(f"hard:{text}+1d/7d")
    with pytest.raises(ValueError, match="far too long"):
        parse_duration("99999999999999999999999", bare_unit="s")
    assert parse_duration("999999999d") == timedelta(days=999_999_999)


def test_a_bare_number_needs_a_unit_unless_the_caller_gives_one() -> None:
    with pytest.raises(ValueError, match="Give '3600' a unit"):
        parse_duration("3600")
    assert parse_duration("3600", bare_unit="s") == HOUR
    assert parse_duration("2", bare_unit="d") == 2 * DAY


@given(durations)
def test_format_duration_round_trips(delta: timedelta) -> None:
    assert parse_duration(format_duration(delta)) == delta


def test_format_duration_examples() -> None:
    assert format_duration(timedelta(hours=36)) == "1d12h"
    assert format_duration(timedelta(0)) == "0s"
    assert format_duration(-timedelta(minutes=90)) == "-1h30m"
    assert format_duration(timedelta(seconds=59.9)) == "59s"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("correspondence", "soft:2d+1d/4d"),
        ("hard:correspondence", "hard:2d+1d/4d"),
        ("48h+24h/96h", "soft:2d+1d/4d"),
        ("HARD: 3d + 1d / 7d", "hard:3d+1d/7d"),
        ("36h", "soft:1d12h+0s/1d12h"),
        ("1d+1h", "soft:1d+1h/1d"),
        ("2d/5d", "soft:2d+0s/5d"),
        ("none", "none"),
        ("Casual", "none"),
        ("", "none"),
    ],
)
def test_clock_text(text: str, canonical: str) -> None:
    spec = ClockSpec.parse(text)
    assert str(spec) == canonical
    assert ClockSpec.parse(canonical) == spec


def test_the_correspondence_preset_is_abstract_plays_default() -> None:
    assert ClockSpec(ClockMode.SOFT, 2 * DAY, DAY, 4 * DAY) == CORRESPONDENCE
    assert CORRESPONDENCE.describe() == "soft clock: 2d to start, +1d per move, at most 4d"
    assert ClockSpec.NONE.describe() == "no clock"
    assert not ClockSpec.NONE.enabled


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("blitz:3d", "soft or hard"),
        ("0s", "some time to start"),
        ("3d/2d", "cannot be less than"),
        ("400d", "at most 365d"),
        ("+1d", "not a clock"),
        ("3d+x", "not a duration"),
        ("hard:1d+", "^A duration is missing"),  # not "'' is not a duration"
    ],
)
def test_bad_clock_text_gets_one_friendly_sentence(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ClockSpec.parse(text)


@given(clock_specs)
def test_clock_text_round_trips(spec: ClockSpec) -> None:
    assert ClockSpec.parse(str(spec)) == spec


# ----------------------------------------------------------------------------------------------
# Seat clocks
# ----------------------------------------------------------------------------------------------


def test_a_running_clock_counts_down_and_flags_at_zero() -> None:
    clock = CORRESPONDENCE.new_clock(T0, running=True)
    assert clock.deadline == T0 + 2 * DAY
    assert clock.time_left(T0 + 5 * HOUR) == 43 * HOUR
    assert clock.used(T0 + 5 * HOUR) == 5 * HOUR
    assert not clock.flagged(T0 + 2 * DAY - timedelta(seconds=1))
    assert clock.flagged(T0 + 2 * DAY)
    stopped = CORRESPONDENCE.new_clock(T0, running=False)
    assert (stopped.deadline, stopped.time_left(T0 + 9 * DAY)) == (None, 2 * DAY)


def test_increment_is_added_after_a_move_up_to_the_maximum() -> None:
    clock = CORRESPONDENCE.new_clock(T0, running=True)
    after = clock.after_move(CORRESPONDENCE, T0 + 6 * HOUR)
    assert after == SeatClock(42 * HOUR + DAY, None)  # 48h - 6h + 24h
    quick = after.start(T0 + 7 * HOUR).after_move(CORRESPONDENCE, T0 + 8 * HOUR)
    assert quick.remaining == 89 * HOUR  # 66h - 1h + 24h
    assert quick.start(T0).after_move(CORRESPONDENCE, T0).remaining == 4 * DAY  # not 113h


def test_soft_clock_may_be_claimed_once_out_and_late_move_restarts_from_zero() -> None:
    clock = CORRESPONDENCE.new_clock(T0, running=True)
    late = T0 + 3 * DAY
    assert clock.flagged(late)  # the opponent may claim now
    assert clock.time_left(late) == -DAY
    assert clock.after_move(CORRESPONDENCE, late) == SeatClock(DAY, None)


def test_hard_clock_refuses_a_move_once_out() -> None:
    spec = ClockSpec.parse("hard:1d+1h/2d")
    clock = spec.new_clock(T0, running=True)
    assert clock.after_move(spec, T0 + 23 * HOUR).remaining == 2 * HOUR
    with pytest.raises(OutOfTimeError, match="time ran out"):
        clock.after_move(spec, T0 + DAY)


def test_a_time_out_leaves_zero_plus_the_increment() -> None:
    spec = ClockSpec.parse("hard:1d+2h/1d1h")
    late = spec.new_clock(T0, running=True)
    assert late.after_timeout(spec) == SeatClock(2 * HOUR, None)
    capped = ClockSpec.parse("soft:1h+2h/1h")
    assert late.after_timeout(capped) == SeatClock(HOUR, None)


def test_pause_and_resume_for_a_vacation() -> None:
    clock = CORRESPONDENCE.new_clock(T0, running=True)
    paused = clock.pause(T0 + 10 * HOUR, T0 + 3 * DAY)
    assert paused == SeatClock(38 * HOUR, T0 + 3 * DAY)
    assert paused.paused(T0 + DAY)
    assert paused.time_left(T0 + 2 * DAY) == 38 * HOUR  # frozen during the vacation
    assert paused.deadline == T0 + 3 * DAY + 38 * HOUR
    assert paused.time_left(T0 + 3 * DAY + HOUR) == 37 * HOUR  # runs again by itself
    assert paused.resume(T0 + DAY) == SeatClock(38 * HOUR, T0 + DAY)
    assert paused.pause(T0 + DAY, T0 + 2 * DAY) == paused  # a shorter pause changes nothing
    stopped = SeatClock(DAY, None)
    assert stopped.pause(T0, T0 + DAY) == stopped
    assert stopped.start(T0, paused_until=T0 + DAY) == SeatClock(DAY, T0 + DAY)
    with pytest.raises(ValueError, match="cannot end before"):
        clock.pause(T0 + DAY, T0)


thinking_times = st.integers(0, 3 * 86400).map(lambda s: timedelta(seconds=s))


@given(clock_specs, st.lists(thinking_times, min_size=1, max_size=8))
def test_a_bank_never_exceeds_the_maximum(spec: ClockSpec, thinking: list[timedelta]) -> None:
    clock = spec.new_clock(T0, running=True)
    now = T0
    for think in thinking:
        now += think
        if clock.flagged(now) and spec.mode is ClockMode.HARD:
            with pytest.raises(OutOfTimeError):
                clock.after_move(spec, now)
            return
        clock = clock.after_move(spec, now)
        assert timedelta(0) <= clock.remaining <= spec.maximum
        clock = clock.start(now)


@given(
    st.builds(SeatClock, durations, st.one_of(st.none(), instants)),
    st.lists(instants, min_size=2, max_size=10),
)
def test_time_left_never_grows_while_nobody_moves(
    clock: SeatClock, moments: list[datetime]
) -> None:
    lefts = [clock.time_left(moment) for moment in sorted(moments)]
    assert lefts == sorted(lefts, reverse=True)
    if clock.deadline is not None:
        assert clock.flagged(max(clock.deadline, clock.running_since or T0))


# ----------------------------------------------------------------------------------------------
# Vacations
# ----------------------------------------------------------------------------------------------


def test_a_vacation_is_booked_extended_and_ended_early_with_a_refund() -> None:
    book = VacationBook.from_row(None, T0)
    first = book.start(T0, 10 * DAY, ALLOWANCE)
    assert (first.used, first.started_at, first.until) == (10 * DAY, T0, T0 + 10 * DAY)
    longer = first.start(T0 + DAY, 25 * DAY, ALLOWANCE)  # only 20 days are left
    assert (longer.used, longer.until, longer.started_at) == (ALLOWANCE, T0 + 30 * DAY, T0)
    with pytest.raises(ValueError, match="used all 30d of vacation for 2025"):
        longer.start(T0 + 2 * DAY, DAY, ALLOWANCE)
    back = longer.end(T0 + 5 * DAY)
    assert (back.used, back.until) == (5 * DAY, T0 + 5 * DAY)
    assert not back.on_vacation(T0 + 5 * DAY)
    with pytest.raises(ValueError, match="not on vacation"):
        back.end(T0 + 6 * DAY)
    with pytest.raises(ValueError, match="like 3d"):
        back.start(T0, timedelta(0), ALLOWANCE)
    next_year = T0.replace(year=2026)
    assert back.left(next_year, ALLOWANCE) == ALLOWANCE


@given(
    st.lists(
        st.tuples(st.booleans(), st.integers(0, 40 * 86400), st.integers(1, 40 * 86400)),
        max_size=12,
    )
)
def test_vacation_never_exceeds_the_allowance(actions: list[tuple[bool, int, int]]) -> None:
    book = VacationBook.from_row(None, T0)
    now = T0
    for starting, wait, requested in actions:
        now += timedelta(seconds=wait)
        try:
            book = (
                book.start(now, timedelta(seconds=requested), ALLOWANCE)
                if starting
                else book.end(now)
            )
        except ValueError:
            continue
        assert timedelta(0) <= book.used_in(now.year) <= ALLOWANCE
        assert book.left(now, ALLOWANCE) == ALLOWANCE - book.used_in(now.year)


# ----------------------------------------------------------------------------------------------
# Planners
# ----------------------------------------------------------------------------------------------


def _row(seat: int, spec: str, remaining: timedelta, since: datetime | None) -> ClockRow:
    return ClockRow(7, seat, spec, to_ms(remaining), since, version=3, updated_at=T0)


def test_final_warning_on_any_clock_with_more_than_two_hours_left() -> None:
    hard = ClockSpec.parse("hard:1d")
    running = hard.new_clock(T0, running=True)
    kinds = [(t.kind, t.due_at) for t in deadline_timers(7, 0, running, 2)]
    assert kinds == [
        (CLOCK_TIMER, T0 + DAY),
        (FINAL_WARNING_TIMER, T0 + DAY - FINAL_WARNING_BEFORE),
    ]
    short = SeatClock(FINAL_WARNING_BEFORE, T0)
    assert [t.kind for t in deadline_timers(7, 0, short, 2)] == [CLOCK_TIMER]
    # A soft clock is warned the same way (its deadline lets the opponents claim).
    soft = CORRESPONDENCE.new_clock(T0, running=True)
    assert [(t.kind, t.due_at) for t in deadline_timers(7, 0, soft, 2)] == [
        (CLOCK_TIMER, T0 + 2 * DAY),
        (FINAL_WARNING_TIMER, T0 + 2 * DAY - FINAL_WARNING_BEFORE),
    ]
    assert deadline_timers(7, 0, SeatClock(DAY, None), 2) == ()
    assert {
        json.loads(t.payload_json)["clock_version"] for t in deadline_timers(7, 0, running, 2)
    } == {2}


def test_plan_turn_gives_a_timed_out_seat_its_increment_and_starts_the_next() -> None:
    spec = "hard:1d+1h/1d"
    rows = [_row(0, spec, DAY, T0), _row(1, spec, 5 * HOUR, None)]
    late = T0 + 2 * DAY  # seat 0 is a day past its deadline
    with pytest.raises(OutOfTimeError):
        plan_turn(rows, {0}, {1}, late)
    changes = plan_turn(rows, (), {1}, late, timed_out={0})
    banks = [(w.seat, w.remaining_ms, w.running_since) for w in changes.writes]
    assert banks == [(0, to_ms(HOUR), None), (1, to_ms(5 * HOUR), late)]
    assert all(w.expected_version == 3 for w in changes.writes)
    assert [(t.kind, t.seat, t.due_at) for t in changes.schedule] == [
        (CLOCK_TIMER, 1, late + 5 * HOUR),
        (FINAL_WARNING_TIMER, 1, late + 3 * HOUR),
    ]
    # A seat that times out and stays on the move (Generation Zero) runs again at once.
    again = plan_turn(rows, (), {0}, late, timed_out={0})
    assert [(w.seat, w.running_since) for w in again.writes] == [(0, late)]
    assert [(t.kind, t.due_at) for t in again.schedule] == [(CLOCK_TIMER, late + HOUR)]


def test_plan_reminders_replaces_the_next_seats_and_cancels_the_others() -> None:
    due = {1: T0 + DAY}
    changes = plan_reminders(7, before={0}, due=due, version=12)
    assert [(t.kind, t.game_id, t.seat, t.due_at) for t in changes.schedule] == [
        (REMINDER_TIMER, 7, 1, T0 + DAY)
    ]
    assert json.loads(changes.schedule[0].payload_json) == {"version": 12}
    assert changes.cancel == (TimerCancel(7, 0, (REMINDER_TIMER,)),)
    with_ply = plan_reminders(7, before=(), due=due, version=12, ply=30)
    assert json.loads(with_ply.schedule[0].payload_json) == {"version": 12, "ply": 30}
    # A seat that stays on the move keeps one reminder (replaced); a chance seat is skipped.
    assert plan_reminders(7, before={1, CHANCE}, due=due, version=13).cancel == ()
    assert plan_reminders(7, before={0}, due={}, version=13).schedule == ()


def test_reminder_delay_user_then_guild_then_default() -> None:
    default = timedelta(hours=24)
    user = UserSettingsRow(ALICE)
    assert reminder_delay(user, None, default) == default
    guild = GuildSettingsRow(9, reminder_quiet_s=3600)
    assert reminder_delay(user, guild, default) == HOUR
    own = UserSettingsRow(ALICE, reminder_quiet_s=600)
    assert reminder_delay(own, guild, default) == timedelta(minutes=10)
    off = UserSettingsRow(ALICE, ReminderDelivery.OFF, 600)
    assert reminder_delay(off, guild, default) is None
    dm = UserSettingsRow(ALICE, ReminderDelivery.DM)
    assert reminder_delay(dm, GuildSettingsRow(9), default) == default


def test_merge_changes_keeps_every_part_in_order() -> None:
    first = plan_reminders(7, before={0}, due={1: T0}, version=2)
    second = plan_turn([_row(0, "soft:1d", DAY, T0)], {0}, (), T0 + HOUR)
    merged = merge_changes(first, None, second)
    assert merged is not None
    assert merged.schedule == first.schedule + second.schedule
    assert merged.cancel == first.cancel + second.cancel
    assert merged.writes == second.writes
    assert merge_changes(None, ClockChanges()) is None


def test_timeout_rng_depends_on_seed_and_ply_only() -> None:
    draws = [timeout_rng(seed, ply).next64() for seed in (1, 2) for ply in (0, 1)]
    assert len(set(draws)) == 4
    assert timeout_rng(1, 0).next64() == draws[0]


# ----------------------------------------------------------------------------------------------
# Against the database, with a fake clock and the timer runner
# ----------------------------------------------------------------------------------------------


async def _clocked_game(database: Database, spec: ClockSpec, now: datetime) -> GameRow:
    game = await database.games.create(
        guild_id=9,
        channel_id=500,
        parent_channel_id=None,
        game="generatorb",
        options_json="{}",
        rules_version="1",
        seed=1,
        state_json="{}",
        ply=0,
        to_move=(0,),
        user_ids=(ALICE, BOB),
        now=now,
    )
    new_clocks = plan_start(spec, 2, (0,), now)
    await database.clocks.create(game.id, new_clocks, now=now)
    await database.clocks.apply(start_timers(game.id, new_clocks), now=now)
    return game


async def _move(database: Database, game_id: int, seat: int, now: datetime) -> None:
    """What the move commit will do: the mover's clock gets its increment, the other starts."""
    rows = await database.clocks.for_game(game_id)
    seats = {s.seat: s.user_id for s in await database.games.seats(game_id)}
    others = {other: user for other, user in seats.items() if other != seat}
    changes = plan_turn(
        rows, {seat}, set(others), now, paused_until=await vacation_ends(database, others, now)
    )
    await database.clocks.apply(changes, now=now)


async def test_soft_clock_deadline_lets_the_opponent_claim(
    database: Database, clock: FakeClock
) -> None:
    game = await _clocked_game(database, CORRESPONDENCE, clock.now)
    pending = await database.timers.pending(game_id=game.id)
    # Reminders belong to turns (the service plans them).
    assert [(t.kind, t.seat, t.due_at - T0) for t in pending] == [
        (FINAL_WARNING_TIMER, 0, 46 * HOUR),
        (CLOCK_TIMER, 0, 2 * DAY),
    ]
    clock.advance(6 * HOUR)
    await _move(database, game.id, 0, clock.now)
    banks = [
        (c.seat, c.remaining, c.running_since) for c in await database.clocks.for_game(game.id)
    ]
    assert banks == [(0, 66 * HOUR, None), (1, 2 * DAY, clock.now)]
    deadlines = {t.seat: t.due_at for t in await database.timers.pending(kinds=[CLOCK_TIMER])}
    assert deadlines == {1: clock.now + 2 * DAY}

    claimable: list[int] = []

    async def on_deadline(timer: TimerRow) -> None:
        [row] = [c for c in await database.clocks.for_game(game.id) if c.seat == timer.seat]
        assert json.loads(timer.payload_json) == {"clock_version": row.version}
        if SeatClock.from_row(row).flagged(clock.now):
            claimable.append(row.seat)

    runner = TimerRunner(database, {CLOCK_TIMER: on_deadline}, now=clock)
    clock.advance(2 * DAY - timedelta(seconds=1))
    assert (await runner.run_once()).claimed == 0
    clock.advance(timedelta(seconds=1))
    assert (await runner.run_once()).claimed == 1
    assert claimable == [1]
    assert (await runner.run_once()).claimed == 0


async def test_hard_clock_ends_the_game_at_zero(database: Database, clock: FakeClock) -> None:
    spec = ClockSpec.parse("hard:1d+1h/2d")
    game = await _clocked_game(database, spec, clock.now)

    async def on_deadline(timer: TimerRow) -> None:
        current = await database.games.get(game.id)
        assert current is not None
        [row] = [c for c in await database.clocks.for_game(game.id) if c.seat == timer.seat]
        if current.is_active and SeatClock.from_row(row).flagged(clock.now):
            await database.games.finish(
                game.id,
                current.version,
                status="finished",
                outcome_json='{"winners": [1]}',
                termination="timeout",
                now=clock.now,
            )
            await database.timers.cancel(game.id, kinds=[REMINDER_TIMER, FINAL_WARNING_TIMER])

    pending = await database.timers.pending(game_id=game.id)
    assert [(t.kind, t.seat, t.due_at - T0) for t in pending] == [
        (FINAL_WARNING_TIMER, 0, 22 * HOUR),
        (CLOCK_TIMER, 0, DAY),
    ]
    runner = TimerRunner(database, {CLOCK_TIMER: on_deadline}, now=clock)
    clock.advance(DAY)
    assert (await runner.run_once()).claimed == 1
    finished = await database.games.get(game.id)
    assert finished is not None
    assert (finished.status, finished.termination) == ("finished", "timeout")
    with pytest.raises(OutOfTimeError):
        plan_turn(await database.clocks.for_game(game.id), {0}, {1}, clock.now)


async def test_game_over_cancels_every_timer(database: Database, clock: FakeClock) -> None:
    game = await _clocked_game(database, CORRESPONDENCE, clock.now)
    changes = plan_turn(await database.clocks.for_game(game.id), {0}, (), clock.now)
    await database.clocks.apply(changes, now=clock.now)
    assert await database.timers.pending() == []
    assert all(c.running_since is None for c in await database.clocks.for_game(game.id))


async def test_vacation_pauses_running_clocks_and_moves_their_deadlines(
    database: Database, clock: FakeClock
) -> None:
    game = await _clocked_game(database, CORRESPONDENCE, clock.now)  # ALICE (seat 0) to move
    clock.advance(10 * HOUR)
    row = await start_vacation(database, ALICE, 3 * DAY, allowance=ALLOWANCE, now=clock.now)
    assert (row.used, row.until) == (3 * DAY, clock.now + 3 * DAY)
    until = clock.now + 3 * DAY
    alice_clock = (await database.clocks.for_game(game.id))[0]
    assert (alice_clock.remaining, alice_clock.running_since) == (38 * HOUR, until)
    deadline = {t.seat: t.due_at for t in await database.timers.pending(kinds=[CLOCK_TIMER])}
    assert deadline == {0: clock.now + 3 * DAY + 38 * HOUR}
    # The soft clock's final warning moves with its deadline.
    warning = {t.seat: t.due_at for t in await database.timers.pending(kinds=[FINAL_WARNING_TIMER])}
    assert warning == {0: clock.now + 3 * DAY + 36 * HOUR}

    # ALICE moves while away and BOB answers: ALICE's new turn starts paused until her
    # vacation ends.
    clock.advance(HOUR)
    await _move(database, game.id, 0, clock.now)
    clock.advance(HOUR)
    await _move(database, game.id, 1, clock.now)
    alice_clock = (await database.clocks.for_game(game.id))[0]
    assert alice_clock.running_since == until

    clock.advance(DAY)
    ended = await end_vacation(database, ALICE, now=clock.now)
    assert ended.used == 3 * DAY - (until - clock.now)
    alice_clock = (await database.clocks.for_game(game.id))[0]
    assert alice_clock.running_since == clock.now
    deadline = {t.seat: t.due_at for t in await database.timers.pending(kinds=[CLOCK_TIMER])}
    assert deadline == {0: clock.now + alice_clock.remaining}
    warning = {t.seat: t.due_at for t in await database.timers.pending(kinds=[FINAL_WARNING_TIMER])}
    assert warning == {0: clock.now + alice_clock.remaining - FINAL_WARNING_BEFORE}

    with pytest.raises(ValueError, match="not on vacation"):
        await end_vacation(database, ALICE, now=clock.now)
    await start_vacation(database, BOB, 31 * DAY, allowance=ALLOWANCE, now=clock.now)
    with pytest.raises(ValueError, match="used all"):
        await start_vacation(database, BOB, DAY, allowance=ALLOWANCE, now=clock.now)


def test_to_ms_rounds_down() -> None:
    assert to_ms(timedelta(microseconds=1999)) == 1
    assert to_ms(timedelta(days=2)) == 172_800_000


def test_clock_choices_offer_the_usual_clocks_in_words_and_a_typed_one_first() -> None:
    choices = clock_choices("")
    assert [value for value, _ in choices] == list(CLOCK_CHOICES)
    # Each offered clock is written as its words say it (days, not 48h for 2d).
    assert all(str(ClockSpec.parse(value)) in (value, "none") for value in CLOCK_CHOICES[2:])
    assert choices[1] == (
        "correspondence",
        "correspondence — soft clock: 2d to start, +1d per move, at most 4d",
    )
    assert clock_choices("hard") == [
        ("hard:2d+1d/4d", "hard:2d+1d/4d — hard clock: 2d to start, +1d per move, at most 4d"),
        ("hard:1d+12h/2d", "hard:1d+12h/2d — hard clock: 1d to start, +12h per move, at most 2d"),
    ]
    typed = clock_choices("hard:5d")
    assert typed[0] == ("hard:5d", "hard:5d — hard clock: 5d to start, no increment, at most 5d")
    assert clock_choices("blitz") == []
    assert all(len(label) <= 100 for _, label in clock_choices("soft:365d+365d/365d"))
