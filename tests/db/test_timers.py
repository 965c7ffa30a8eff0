"""TimersRepo, ClocksRepo and VacationsRepo: durable timers claimed once, clock banks, CAS."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import delete, insert
from sqlalchemy.exc import IntegrityError

from db import Database, GameRow
from db.clocks import ClockChangedError, VacationChangedError
from db.rows import ClockChanges, ClockWrite, NewClock, NewTimer, TimerCancel
from db.schema import TimerStatus, games, timers

NewGame = Callable[..., Awaitable[GameRow]]

T0 = datetime(2025, 3, 14, 15, 9, 26, tzinfo=UTC)
MINUTE = timedelta(minutes=1)


def _timer(kind: str = "clock", minutes: int = 0, **keywords: object) -> NewTimer:
    return NewTimer(kind, T0 + minutes * MINUTE, **keywords)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------------------------
# Scheduling
# ----------------------------------------------------------------------------------------------


async def test_schedule_stores_a_pending_timer(db: Database, new_game: NewGame) -> None:
    game = await new_game()
    timer = await db.timers.schedule(
        _timer("reminder", 30, game_id=game.id, seat=1, payload_json='{"n": 1}'), now=T0
    )
    assert timer == await db.timers.get(timer.id)
    assert (timer.kind, timer.game_id, timer.seat, timer.payload_json) == (
        "reminder",
        game.id,
        1,
        '{"n": 1}',
    )
    assert (timer.status, timer.attempts, timer.claimed_by, timer.fired_at) == (
        TimerStatus.PENDING,
        0,
        None,
        None,
    )
    assert timer.due_at == T0 + 30 * MINUTE
    assert (timer.created_at, timer.updated_at) == (T0, T0)


async def test_schedule_replaces_the_pending_timer_of_the_same_game_seat_and_kind(
    db: Database, new_game: NewGame
) -> None:
    game = await new_game()
    first = await db.timers.schedule(_timer(minutes=10, game_id=game.id, seat=0), now=T0)
    other_seat = await db.timers.schedule(_timer(minutes=10, game_id=game.id, seat=1), now=T0)
    other_kind = await db.timers.schedule(_timer("reminder", 5, game_id=game.id, seat=0), now=T0)
    later = T0 + timedelta(seconds=1)
    second = await db.timers.schedule(_timer(minutes=20, game_id=game.id, seat=0), now=later)
    assert second.id == first.id  # replaced in place: one row per pending key
    assert second.due_at == first.due_at + timedelta(minutes=10)
    assert second.created_at == later
    pending = await db.timers.pending(game_id=game.id)
    assert [t.id for t in pending] == [other_kind.id, other_seat.id, second.id]
    assert [t.due_at for t in pending][-1] == second.due_at


async def test_bring_forward_moves_only_the_timer_as_read(db: Database, new_game: NewGame) -> None:
    """The compare-and-set /vacation end uses: a timer replaced in place meanwhile (a turn
    change's new reminder, another payload) is left as it is."""
    game = await new_game()
    held = await db.timers.schedule(
        _timer("reminder", 60, game_id=game.id, seat=0, payload_json='{"version":1}'), now=T0
    )
    assert await db.timers.bring_forward(held, T0 + 5 * MINUTE)
    assert not await db.timers.bring_forward(held, T0 + 10 * MINUTE)  # not later: left
    [moved] = await db.timers.pending(game_id=game.id)
    assert moved.due_at == T0 + 5 * MINUTE
    replaced = _timer("reminder", 90, game_id=game.id, seat=0, payload_json='{"version":2}')
    await db.timers.schedule(replaced, now=T0)
    assert not await db.timers.bring_forward(moved, T0 + MINUTE)
    [kept] = await db.timers.pending(game_id=game.id)
    assert (kept.due_at, kept.payload_json) == (T0 + 90 * MINUTE, '{"version":2}')


async def test_schedule_without_replace_keeps_the_pending_timer(
    db: Database, new_game: NewGame
) -> None:
    game = await new_game()
    first = await db.timers.schedule(_timer(minutes=10, game_id=game.id), now=T0)
    kept = await db.timers.schedule(_timer(minutes=99, game_id=game.id), now=T0, replace=False)
    assert kept == first
    assert len(await db.timers.pending()) == 1


async def test_game_wide_timers_are_unique_per_kind_and_timers_without_a_game_never_clash(
    db: Database, new_game: NewGame
) -> None:
    game = await new_game()
    first = await db.timers.schedule(_timer("expiry", 1, game_id=game.id), now=T0)
    second = await db.timers.schedule(_timer("expiry", 2, game_id=game.id), now=T0)
    await db.timers.schedule(_timer("challenge_expiry", 1), now=T0)
    await db.timers.schedule(_timer("challenge_expiry", 1), now=T0)
    assert second.id == first.id  # the game's one pending expiry, replaced in place
    assert second.due_at == first.due_at + MINUTE
    assert [t.kind for t in await db.timers.pending()] == [
        "challenge_expiry",
        "challenge_expiry",
        "expiry",
    ]
    assert (await db.timers.pending(game_id=game.id)) == [second]


@pytest.mark.parametrize("seat", [0, None])
async def test_the_database_refuses_two_pending_timers_for_one_key(
    db: Database, new_game: NewGame, seat: int | None
) -> None:
    game = await new_game()
    row = {
        "kind": "clock",
        "game_id": game.id,
        "seat": seat,
        "due_at": T0,
        "payload": "{}",
        "status": "pending",
        "attempts": 0,
        "created_at": T0,
        "updated_at": T0,
    }
    async with db.engine.begin() as conn:
        await conn.execute(insert(timers).values(row))
        await conn.execute(insert(timers).values({**row, "status": "fired"}))  # history is fine
    with pytest.raises(IntegrityError, match=r"(?i)unique"):
        async with db.engine.begin() as conn:
            await conn.execute(insert(timers).values(row))


def test_new_timer_checks_its_fields() -> None:
    with pytest.raises(ValueError, match="naive"):
        NewTimer("clock", datetime(2025, 1, 1))
    with pytest.raises(ValueError, match="1 to 32"):
        NewTimer("", T0)
    with pytest.raises(ValueError, match="needs its game_id"):
        NewTimer("clock", T0, seat=1)


async def test_cancel_deletes_pending_timers_by_seat_and_kind(
    db: Database, new_game: NewGame
) -> None:
    game = await new_game()
    other = await new_game(channel_id=501)
    for seat in (0, 1):
        for kind in ("clock", "reminder"):
            await db.timers.schedule(_timer(kind, 5, game_id=game.id, seat=seat), now=T0)
    await db.timers.schedule(_timer("wide", 5, game_id=game.id), now=T0)
    kept = await db.timers.schedule(_timer(minutes=5, game_id=other.id, seat=0), now=T0)

    assert await db.timers.cancel(game.id, seat=0, kinds=["reminder"]) == 1
    assert await db.timers.cancel(game.id, seat=1) == 2
    remaining = {(t.seat, t.kind) for t in await db.timers.pending(game_id=game.id)}
    assert remaining == {(0, "clock"), (None, "wide")}
    assert await db.timers.cancel(game.id) == 2
    assert await db.timers.pending() == [kept]
    assert await db.timers.cancel_id(kept.id)
    assert not await db.timers.cancel_id(kept.id)


async def test_deleting_a_game_deletes_its_timers(db: Database, new_game: NewGame) -> None:
    game = await new_game()
    await db.timers.schedule(_timer(game_id=game.id, seat=0), now=T0)
    async with db.engine.begin() as conn:
        await conn.execute(delete(games).where(games.c.id == game.id))
    assert await db.timers.pending() == []


# ----------------------------------------------------------------------------------------------
# Claims
# ----------------------------------------------------------------------------------------------


async def test_claim_due_takes_due_timers_earliest_first_up_to_the_limit(db: Database) -> None:
    late = await db.timers.schedule(_timer("a", 3), now=T0)
    early = await db.timers.schedule(_timer("a", 1), now=T0)
    middle = await db.timers.schedule(_timer("a", 2), now=T0)
    future = await db.timers.schedule(_timer("a", 60), now=T0)

    now = T0 + 5 * MINUTE
    claimed = await db.timers.claim_due(now, "w1", limit=2)
    assert [t.id for t in claimed] == [early.id, middle.id]
    assert all((t.claimed_by, t.claimed_at, t.attempts) == ("w1", now, 1) for t in claimed)
    assert all(t.status is TimerStatus.PENDING for t in claimed)
    assert [t.id for t in await db.timers.claim_due(now, "w2")] == [late.id]
    assert await db.timers.claim_due(now, "w3") == []
    unclaimed = [t for t in await db.timers.pending() if t.claimed_by is None]
    assert [t.id for t in unclaimed] == [future.id]


async def test_claim_due_only_takes_the_kinds_asked_for(db: Database) -> None:
    clock = await db.timers.schedule(_timer("clock"), now=T0)
    reminder = await db.timers.schedule(_timer("reminder"), now=T0)
    assert [t.id for t in await db.timers.claim_due(T0, "w", kinds={"clock"})] == [clock.id]
    assert await db.timers.claim_due(T0, "w", kinds=()) == []
    assert [t.id for t in await db.timers.claim_due(T0, "w")] == [reminder.id]


async def test_claim_due_checks_its_arguments(db: Database) -> None:
    with pytest.raises(ValueError, match="worker"):
        await db.timers.claim_due(T0, "")
    with pytest.raises(ValueError, match="limit"):
        await db.timers.claim_due(T0, "w", limit=0)
    with pytest.raises(ValueError, match="naive"):
        await db.timers.claim_due(datetime(2025, 1, 1), "w")


async def test_mark_fired_settles_the_claim_once(db: Database) -> None:
    await db.timers.schedule(_timer(), now=T0)
    [claimed] = await db.timers.claim_due(T0, "w")
    assert await db.timers.mark_fired(claimed, now=T0 + MINUTE)
    assert not await db.timers.mark_fired(claimed, now=T0 + MINUTE)
    fired = await db.timers.get(claimed.id)
    assert fired is not None
    assert (fired.status, fired.fired_at, fired.claimed_by) == (
        TimerStatus.FIRED,
        T0 + MINUTE,
        "w",
    )
    assert await db.timers.claim_due(T0 + timedelta(days=1), "w") == []
    unclaimed = await db.timers.schedule(_timer("other"), now=T0)
    with pytest.raises(ValueError, match="not claimed"):
        await db.timers.mark_fired(unclaimed, now=T0)


async def test_release_retries_later_and_mark_failed_gives_up(db: Database) -> None:
    await db.timers.schedule(_timer(), now=T0)
    [first] = await db.timers.claim_due(T0, "w")
    assert await db.timers.release(first, retry_at=T0 + 10 * MINUTE, error="boom", now=T0)
    assert await db.timers.claim_due(T0 + 9 * MINUTE, "w") == []
    [second] = await db.timers.claim_due(T0 + 10 * MINUTE, "w")
    assert (second.id, second.attempts, second.last_error) == (first.id, 2, "boom")
    # The first claim is over: it can neither fire nor fail the timer any more.
    assert not await db.timers.mark_fired(first, now=T0)
    assert await db.timers.mark_failed(second, error="x" * 5000, now=T0 + 11 * MINUTE)
    failed = await db.timers.get(first.id)
    assert failed is not None
    assert failed.status is TimerStatus.FAILED
    assert failed.last_error == "x" * 2000
    assert await db.timers.claim_due(T0 + timedelta(days=9), "w") == []


async def test_release_stale_frees_claims_of_dead_workers(db: Database) -> None:
    await db.timers.schedule(_timer("a"), now=T0)
    await db.timers.schedule(_timer("b", 4), now=T0)
    [old] = await db.timers.claim_due(T0, "dead", kinds={"a"})
    [recent] = await db.timers.claim_due(T0 + 4 * MINUTE, "alive", kinds={"b"})

    released = await db.timers.release_stale(T0 + 5 * MINUTE, older_than=2 * MINUTE)
    assert [t.id for t in released] == [old.id]
    assert released[0].claimed_by is None
    assert not await db.timers.mark_fired(old, now=T0 + 5 * MINUTE)  # too late, dead worker
    [again] = await db.timers.claim_due(T0 + 5 * MINUTE, "new")
    assert (again.id, again.attempts) == (old.id, 2)
    assert await db.timers.mark_fired(recent, now=T0 + 5 * MINUTE)
    with pytest.raises(ValueError, match="negative"):
        await db.timers.release_stale(T0, -MINUTE)


async def test_a_cancelled_timer_cannot_be_marked_by_its_worker(db: Database) -> None:
    await db.timers.schedule(_timer(), now=T0)
    [claimed] = await db.timers.claim_due(T0, "w")
    assert await db.timers.cancel_id(claimed.id)
    assert not await db.timers.mark_fired(claimed, now=T0)


async def test_mark_fired_schedules_the_follow_up_of_the_same_key_in_one_transaction(
    db: Database, new_game: NewGame
) -> None:
    game = await new_game()
    payload = '{"version": 3}'
    await db.timers.schedule(
        _timer("reminder", game_id=game.id, seat=1, payload_json=payload), now=T0
    )
    [claimed] = await db.timers.claim_due(T0, "w")
    follow_up = _timer("reminder", 60, game_id=game.id, seat=1, payload_json=payload)

    assert await db.timers.mark_fired(claimed, now=T0 + MINUTE, follow_up=follow_up)

    fired = await db.timers.get(claimed.id)
    assert fired is not None
    assert fired.status is TimerStatus.FIRED
    [pending] = await db.timers.pending(game_id=game.id)
    assert pending.id != claimed.id
    assert (pending.kind, pending.seat, pending.due_at, pending.payload_json) == (
        "reminder",
        1,
        T0 + 60 * MINUTE,
        payload,
    )
    assert (pending.attempts, pending.claimed_by, pending.created_at) == (0, None, T0 + MINUTE)


async def test_a_lost_claim_schedules_no_follow_up(db: Database, new_game: NewGame) -> None:
    game = await new_game()
    await db.timers.schedule(_timer("reminder", game_id=game.id, seat=0), now=T0)
    [claimed] = await db.timers.claim_due(T0, "w")
    # A move lands meanwhile and plans the seat's reminder afresh, replacing the claimed row.
    fresh = await db.timers.schedule(_timer("reminder", 30, game_id=game.id, seat=0), now=T0)

    follow_up = _timer("reminder", 60, game_id=game.id, seat=0)
    assert not await db.timers.mark_fired(claimed, now=T0, follow_up=follow_up)
    assert [t.id for t in await db.timers.pending(game_id=game.id)] == [fresh.id]


async def test_a_follow_up_never_replaces_a_pending_timer_of_its_key(
    db: Database, new_game: NewGame
) -> None:
    game = await new_game()
    await db.timers.schedule(_timer("nudge", game_id=game.id, seat=0), now=T0)
    other = await db.timers.schedule(_timer("reminder", 5, game_id=game.id, seat=0), now=T0)
    [claimed] = await db.timers.claim_due(T0, "w", kinds={"nudge"})
    follow_up = _timer("reminder", 60, game_id=game.id, seat=0)
    assert await db.timers.mark_fired(claimed, now=T0, follow_up=follow_up)
    assert [t.id for t in await db.timers.pending(game_id=game.id)] == [other.id]


async def test_a_failing_follow_up_insert_leaves_the_claim_as_it_was(db: Database) -> None:
    await db.timers.schedule(_timer("reminder"), now=T0)
    [claimed] = await db.timers.claim_due(T0, "w")
    orphan = _timer("reminder", 60, game_id=10**9, seat=0)  # no such game: foreign key fails
    with pytest.raises(IntegrityError):
        await db.timers.mark_fired(claimed, now=T0, follow_up=orphan)
    [still] = await db.timers.pending()
    assert (still.id, still.status, still.claimed_by) == (claimed.id, TimerStatus.PENDING, "w")
    assert await db.timers.mark_fired(claimed, now=T0)


async def test_purge_deletes_old_fired_and_failed_timers_only(db: Database) -> None:
    for kind in ("fires", "fails", "waits"):
        await db.timers.schedule(_timer(kind), now=T0)
    fires, fails = await db.timers.claim_due(T0, "w", kinds={"fires", "fails"})
    await db.timers.mark_fired(fires, now=T0)
    await db.timers.mark_failed(fails, error="no", now=T0)
    assert await db.timers.purge(T0) == 0
    assert await db.timers.purge(T0 + MINUTE) == 2
    assert [t.kind for t in await db.timers.pending()] == ["waits"]


async def test_two_databases_on_one_file_claim_every_timer_exactly_once(db_url: str) -> None:
    first, second = Database(db_url), Database(db_url)
    try:
        await first.migrate()
        for index in range(120):
            await first.timers.schedule(_timer(f"k{index % 3}", index % 7), now=T0)
        now = T0 + timedelta(hours=1)

        async def drain(database: Database, worker: str) -> list[int]:
            taken: list[int] = []
            while batch := await database.timers.claim_due(now, worker, limit=7):
                taken.extend(t.id for t in batch)
                await asyncio.sleep(0)
            return taken

        results = await asyncio.gather(
            drain(first, "a"), drain(second, "b"), drain(first, "c"), drain(second, "d")
        )
    finally:
        await first.close()
        await second.close()
    counts = Counter(timer_id for taken in results for timer_id in taken)
    assert len(counts) == 120
    assert set(counts.values()) == {1}
    # Which claimer wins how many depends on scheduling (SQLite serialises writers), so only
    # the exactly-once property is asserted, never fairness.


# ----------------------------------------------------------------------------------------------
# Clocks and vacations
# ----------------------------------------------------------------------------------------------


async def test_clocks_are_created_read_and_written_with_compare_and_set(
    db: Database, new_game: NewGame
) -> None:
    game = await new_game()
    created = await db.clocks.create(
        game.id,
        [
            NewClock(seat=1, spec="soft:2d+1d/4d", remaining_ms=172_800_000, running_since=None),
            NewClock(seat=0, spec="soft:2d+1d/4d", remaining_ms=172_800_000, running_since=T0),
        ],
        now=T0,
    )
    assert [(c.seat, c.version, c.running_since) for c in created] == [(0, 1, T0), (1, 1, None)]
    assert await db.clocks.for_game(game.id) == created
    assert created[0].remaining == timedelta(days=2)

    write = ClockWrite(game.id, 0, 1, remaining_ms=1000, running_since=None)
    timer = _timer(minutes=5, game_id=game.id, seat=1)
    changes = ClockChanges(writes=(write,), schedule=(timer,))
    [written] = await db.clocks.apply(changes, now=T0 + MINUTE)
    assert (written.version, written.remaining_ms, written.updated_at) == (2, 1000, T0 + MINUTE)
    assert [(t.seat, t.due_at) for t in await db.timers.pending()] == [(1, timer.due_at)]

    # A second write quoting version 1 fails and leaves everything as it was.
    stale = ClockChanges(
        writes=(ClockWrite(game.id, 1, 1, 5, None), write),
        cancel=(TimerCancel(game.id),),
    )
    with pytest.raises(ClockChangedError) as caught:
        await db.clocks.apply(stale, now=T0)
    assert (caught.value.seat, caught.value.actual_version) == (0, 2)
    assert [c.version for c in await db.clocks.for_game(game.id)] == [2, 1]
    assert len(await db.timers.pending()) == 1
    with pytest.raises(ClockChangedError, match="has no clock"):
        await db.clocks.apply(ClockChanges(writes=(ClockWrite(game.id, 7, 1, 0, None),)), now=T0)


async def test_a_clock_needs_an_existing_seat(db: Database, new_game: NewGame) -> None:
    game = await new_game()
    with pytest.raises(IntegrityError, match=r"(?i)foreign key"):
        await db.clocks.create(game.id, [NewClock(5, "soft:1d+0s/1d", 0, None)], now=T0)


async def test_running_for_user_lists_running_clocks_in_active_games(
    db: Database, new_game: NewGame
) -> None:
    playing = await new_game(500, user_ids=(11, 22))
    finished = await new_game(501, user_ids=(11, 22))
    for game in (playing, finished):
        await db.clocks.create(
            game.id,
            [NewClock(0, "soft:1d+0s/1d", 1, T0), NewClock(1, "soft:1d+0s/1d", 1, None)],
            now=T0,
        )
    await db.games.finish(
        finished.id, 1, status="finished", outcome_json=None, termination="resign", now=T0
    )
    assert [(c.game_id, c.seat) for c in await db.clocks.running_for_user(11)] == [(playing.id, 0)]
    assert await db.clocks.running_for_user(22) == []


async def test_vacations_are_written_with_compare_and_set(db: Database, new_game: NewGame) -> None:
    assert await db.vacations.get(11) is None
    row = await db.vacations.write(
        11, None, year=2025, used_ms=5, started_at=T0, until=T0 + MINUTE, now=T0
    )
    assert (row.version, row.used, row.until) == (1, timedelta(milliseconds=5), T0 + MINUTE)
    assert await db.vacations.get(11) == row
    with pytest.raises(VacationChangedError):
        await db.vacations.write(11, None, year=2025, used_ms=6, started_at=T0, until=T0, now=T0)
    with pytest.raises(VacationChangedError):
        await db.vacations.write(11, 7, year=2025, used_ms=6, started_at=T0, until=T0, now=T0)
    updated = await db.vacations.write(
        11, 1, year=2025, used_ms=6, started_at=T0, until=T0, now=T0 + MINUTE
    )
    assert (updated.version, updated.used_ms) == (2, 6)
    with pytest.raises(ValueError, match="negative"):
        await db.vacations.write(11, 2, year=2025, used_ms=-1, started_at=None, until=None, now=T0)

    # The clock changes ride in the same transaction: a stale clock undoes the vacation.
    game = await new_game()
    await db.clocks.create(game.id, [NewClock(0, "soft:1d+0s/1d", 1, T0)], now=T0)
    stale = ClockChanges(writes=(ClockWrite(game.id, 0, 9, 0, None),))
    with pytest.raises(ClockChangedError):
        await db.vacations.write(
            11, 2, year=2025, used_ms=0, started_at=None, until=None, now=T0, changes=stale
        )
    assert await db.vacations.get(11) == updated


async def test_clock_rows_survive_a_new_database_object(db_url: str, tmp_path: Path) -> None:
    async with Database(db_url) as first:
        await first.migrate()
        game = await first.games.create(
            guild_id=None,
            channel_id=1,
            parent_channel_id=None,
            game="generatorb",
            options_json="{}",
            rules_version="1",
            seed=1,
            state_json="{}",
            ply=0,
            to_move=(0,),
            user_ids=(1, 2),
            now=T0,
        )
        created = await first.clocks.create(game.id, [NewClock(0, "hard:1h+0s/1h", 9, T0)], now=T0)
    async with Database(db_url) as second:
        assert await second.clocks.for_game(game.id) == created


async def test_replacing_a_timer_many_times_keeps_working(db: Database, new_game: NewGame) -> None:
    # PostgreSQL plans a prepared statement generically after five runs; a conflict target
    # whose predicate was a bound parameter then matched no partial index ("there is no unique
    # or exclusion constraint matching the ON CONFLICT specification"). Every move of a game
    # reschedules its reminder this way, so the tenth move of a game failed.
    game = await new_game()
    for minutes in range(1, 13):
        timer = await db.timers.schedule(_timer(minutes=minutes, game_id=game.id, seat=0), now=T0)
        assert timer.due_at == T0 + timedelta(minutes=minutes)
