"""TimerRunner: due timers fire once, across restarts and with two runners on one file;
a failing handler is retried with backoff, then given up and logged."""

from __future__ import annotations

import asyncio
import json
import logging
from collections import Counter
from datetime import timedelta

import pytest

from bot.service.timers import RunReport, TimerRunner
from db import Database
from db.rows import NewTimer, TimerRow
from db.schema import TimerStatus
from tests.service.conftest import T0, FakeClock

MINUTE = timedelta(minutes=1)


class Recorder:
    """A handler that remembers the timers it ran and fails while told to."""

    def __init__(self, failures: int = 0, delay: float = 0) -> None:
        self.ran: list[int] = []
        self.failures = failures
        self.delay = delay

    async def __call__(self, timer: TimerRow) -> None:
        if self.delay:
            await asyncio.sleep(self.delay)
        self.ran.append(timer.id)
        if self.failures:
            self.failures -= 1
            raise RuntimeError(f"handler broke on timer {timer.id}")


async def _schedule(database: Database, kind: str, minutes: int) -> TimerRow:
    return await database.timers.schedule(NewTimer(kind, T0 + minutes * MINUTE), now=T0)


async def test_a_timer_fires_once_when_due(database: Database, clock: FakeClock) -> None:
    handler = Recorder()
    runner = TimerRunner(database, {"reminder": handler}, now=clock, worker="w")
    timer = await _schedule(database, "reminder", 10)

    assert await runner.run_once() == RunReport()
    clock.advance(10 * MINUTE)
    assert await runner.run_once() == RunReport(fired=(timer.id,))
    clock.advance(MINUTE)
    assert await runner.run_once() == RunReport()
    assert handler.ran == [timer.id]
    fired = await database.timers.get(timer.id)
    assert fired is not None
    assert (fired.status, fired.fired_at, fired.attempts) == (TimerStatus.FIRED, timer.due_at, 1)


async def test_kinds_without_a_handler_are_left_for_other_runners(
    database: Database, clock: FakeClock
) -> None:
    runner = TimerRunner(database, {"reminder": Recorder()}, now=clock)
    other = await _schedule(database, "clock", 0)
    assert (await runner.run_once()).claimed == 0
    assert [t.id for t in await database.timers.pending()] == [other.id]


async def test_reminders_fire_once_each_across_a_restart(db_url: str, clock: FakeClock) -> None:
    handler = Recorder()
    async with Database(db_url) as first:
        await first.migrate()
        early = await _schedule(first, "reminder", 1)
        next_one = await _schedule(first, "reminder", 2)
        late = await _schedule(first, "reminder", 60)
        clock.advance(5 * MINUTE)
        # A worker claims `early` and dies before finishing it.
        [lost] = await first.timers.claim_due(clock.now, "dead worker", 1)
        assert lost.id == early.id
        runner = TimerRunner(first, {"reminder": handler}, now=clock, worker="first")
        assert (await runner.run_once()).fired == (next_one.id,)

    clock.advance(10 * MINUTE)  # the stale claim on `early` is 10 minutes old now
    async with Database(db_url) as second:
        runner = TimerRunner(
            second,
            {"reminder": handler},
            now=clock,
            worker="second",
            handler_timeout=MINUTE,
            stale_after=5 * MINUTE,
        )
        report = await runner.run_once()
        assert report.released_stale == (early.id,)
        assert report.fired == (early.id,)
        clock.advance(timedelta(hours=1))
        assert (await runner.run_once()).fired == (late.id,)
        assert (await runner.run_once()).claimed == 0
    assert Counter(handler.ran) == {next_one.id: 1, early.id: 1, late.id: 1}


async def test_two_runners_on_one_file_run_each_timer_exactly_once(
    db_url: str, clock: FakeClock
) -> None:
    handler = Recorder(delay=0.001)
    first, second = Database(db_url), Database(db_url)
    try:
        await first.migrate()
        timers = [await _schedule(first, "clock", index % 5) for index in range(60)]
        clock.advance(10 * MINUTE)
        runners = [
            TimerRunner(database, {"clock": handler}, now=clock, worker=name, batch_size=4)
            for database, name in ((first, "a"), (second, "b"))
        ]

        async def drain(runner: TimerRunner) -> int:
            total = 0
            while claimed := (await runner.run_once()).claimed:
                total += claimed
            return total

        totals = await asyncio.gather(*(drain(runner) for runner in runners))
        pending = await first.timers.pending()
    finally:
        await first.close()
        await second.close()
    assert sum(totals) == 60
    assert all(totals)
    assert Counter(handler.ran) == {timer.id: 1 for timer in timers}
    assert pending == []


class Repeater:
    """A handler whose timers repeat: payload ``{"chain": c, "n": n}`` is followed by
    ``n + 1`` a minute later, up to ``last``; it records each (chain, n) it ran."""

    def __init__(self, clock: FakeClock, last: int) -> None:
        self.clock = clock
        self.last = last
        self.ran: list[tuple[int, int]] = []

    async def __call__(self, timer: TimerRow) -> NewTimer | None:
        payload = json.loads(timer.payload_json)
        chain, n = payload["chain"], payload["n"]
        await asyncio.sleep(0.001)
        self.ran.append((chain, n))
        if n == self.last:
            return None
        next_payload = json.dumps({"chain": chain, "n": n + 1})
        return NewTimer(timer.kind, self.clock.now + MINUTE, payload_json=next_payload)


def _repeating(chain: int) -> NewTimer:
    return NewTimer("reminder", T0, payload_json=json.dumps({"chain": chain, "n": 0}))


async def test_a_follow_up_is_scheduled_as_its_timer_fires(
    database: Database, clock: FakeClock
) -> None:
    handler = Repeater(clock, last=2)
    runner = TimerRunner(database, {"reminder": handler}, now=clock)
    first = await database.timers.schedule(_repeating(7), now=T0)

    assert (await runner.run_once()).fired == (first.id,)
    [second] = await database.timers.pending()
    assert (second.due_at, json.loads(second.payload_json)) == (T0 + MINUTE, {"chain": 7, "n": 1})
    assert (await runner.run_once()).claimed == 0  # not due yet
    clock.advance(MINUTE)
    assert (await runner.run_once()).fired == (second.id,)
    clock.advance(MINUTE)
    assert (await runner.run_once()).claimed == 1
    clock.advance(timedelta(days=1))
    assert (await runner.run_once()).claimed == 0
    assert handler.ran == [(7, 0), (7, 1), (7, 2)]
    assert await database.timers.pending() == []


async def test_a_lost_claim_drops_its_follow_up(database: Database, clock: FakeClock) -> None:
    async def cancelled_meanwhile(timer: TimerRow) -> NewTimer:
        assert await database.timers.cancel_id(timer.id)
        return NewTimer("reminder", clock.now + MINUTE)

    runner = TimerRunner(database, {"reminder": cancelled_meanwhile}, now=clock)
    timer = await _schedule(database, "reminder", 0)
    assert (await runner.run_once()).lost == (timer.id,)
    assert await database.timers.pending() == []


async def test_a_failing_handler_schedules_no_follow_up(
    database: Database, clock: FakeClock
) -> None:
    async def breaks(timer: TimerRow) -> NewTimer:
        raise RuntimeError("no")

    runner = TimerRunner(database, {"reminder": breaks}, now=clock, max_attempts=1)
    timer = await _schedule(database, "reminder", 0)
    assert (await runner.run_once()).failed == (timer.id,)
    assert await database.timers.pending() == []


async def test_two_runners_on_one_file_run_each_repetition_exactly_once(
    db_url: str, clock: FakeClock
) -> None:
    handler = Repeater(clock, last=3)
    first, second = Database(db_url), Database(db_url)
    try:
        await first.migrate()
        for chain in range(12):
            await first.timers.schedule(_repeating(chain), now=T0)
        runners = [
            TimerRunner(database, {"reminder": handler}, now=clock, worker=name, batch_size=3)
            for database, name in ((first, "a"), (second, "b"))
        ]

        async def drain(runner: TimerRunner) -> int:
            total = 0
            while claimed := (await runner.run_once()).claimed:
                total += claimed
            return total

        totals: list[int] = []
        for _ in range(4):  # each round fires one repetition of every chain
            totals += await asyncio.gather(*(drain(runner) for runner in runners))
            clock.advance(MINUTE)
        assert (await runners[0].run_once()).claimed == 0
        pending = await first.timers.pending()
    finally:
        await first.close()
        await second.close()
    assert sum(totals) == 12 * 4
    assert Counter(handler.ran) == {(chain, n): 1 for chain in range(12) for n in range(4)}
    assert pending == []


async def test_a_failing_handler_is_retried_with_backoff_then_given_up(
    database: Database, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    handler = Recorder(failures=99)
    runner = TimerRunner(
        database,
        {"clock": handler},
        now=clock,
        max_attempts=3,
        backoff_base=MINUTE,
        backoff_cap=timedelta(hours=1),
    )
    timer = await _schedule(database, "clock", 0)
    caplog.set_level(logging.WARNING, logger="bot.service.timers")

    assert (await runner.run_once()).retried == (timer.id,)
    clock.advance(MINUTE - timedelta(seconds=1))
    assert (await runner.run_once()).claimed == 0  # backing off: 1 minute after attempt 1
    clock.advance(timedelta(seconds=1))
    assert (await runner.run_once()).retried == (timer.id,)
    clock.advance(MINUTE)
    assert (await runner.run_once()).claimed == 0  # 2 minutes after attempt 2
    clock.advance(MINUTE)
    assert (await runner.run_once()).failed == (timer.id,)
    clock.advance(timedelta(days=1))
    assert (await runner.run_once()).claimed == 0

    assert handler.ran == [timer.id] * 3
    failed = await database.timers.get(timer.id)
    assert failed is not None
    assert failed.status is TimerStatus.FAILED
    assert failed.last_error == f"RuntimeError: handler broke on timer {timer.id}"
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1
    assert "giving up" in errors[0].getMessage()
    assert errors[0].exc_info is not None
    assert sum("retrying" in r.getMessage() for r in caplog.records) == 2


async def test_a_handler_that_recovers_fires_once(database: Database, clock: FakeClock) -> None:
    handler = Recorder(failures=1)
    runner = TimerRunner(database, {"clock": handler}, now=clock, backoff_base=MINUTE)
    timer = await _schedule(database, "clock", 0)
    assert (await runner.run_once()).retried == (timer.id,)
    clock.advance(MINUTE)
    assert (await runner.run_once()).fired == (timer.id,)
    fired = await database.timers.get(timer.id)
    assert fired is not None
    assert (fired.status, fired.attempts, fired.last_error) == (TimerStatus.FIRED, 2, None)


async def test_a_slow_handler_times_out_and_is_retried(
    database: Database, clock: FakeClock
) -> None:
    async def hangs(timer: TimerRow) -> None:
        await asyncio.sleep(10)

    runner = TimerRunner(
        database,
        {"clock": hangs},
        now=clock,
        handler_timeout=timedelta(milliseconds=20),
        stale_after=MINUTE,
    )
    timer = await _schedule(database, "clock", 0)
    assert (await runner.run_once()).retried == (timer.id,)
    released = await database.timers.get(timer.id)
    assert released is not None
    assert released.last_error is not None
    assert "timed out" in released.last_error


async def test_a_timer_cancelled_while_its_handler_runs_is_reported_lost(
    database: Database, clock: FakeClock
) -> None:
    async def cancels_itself(timer: TimerRow) -> None:
        assert await database.timers.cancel_id(timer.id)

    runner = TimerRunner(database, {"clock": cancels_itself}, now=clock)
    timer = await _schedule(database, "clock", 0)
    assert (await runner.run_once()).lost == (timer.id,)


def test_backoff_doubles_up_to_the_cap(database: Database) -> None:
    runner = TimerRunner(
        database,
        {"clock": Recorder()},
        backoff_base=timedelta(seconds=30),
        backoff_cap=timedelta(minutes=5),
    )
    assert [runner.backoff(n).total_seconds() for n in range(1, 7)] == [30, 60, 120, 240, 300, 300]
    assert runner.backoff(1000) == timedelta(minutes=5)


def test_the_runner_checks_its_settings(database: Database) -> None:
    with pytest.raises(ValueError, match="handler"):
        TimerRunner(database, {})
    with pytest.raises(ValueError, match="at least 1"):
        TimerRunner(database, {"clock": Recorder()}, max_attempts=0)
    with pytest.raises(ValueError, match="positive"):
        TimerRunner(database, {"clock": Recorder()}, backoff_base=timedelta(0))
    with pytest.raises(ValueError, match="stale_after"):
        TimerRunner(database, {"clock": Recorder()}, handler_timeout=MINUTE, stale_after=MINUTE)
    assert TimerRunner(database, {"clock": Recorder()}).worker.count(":") >= 2
