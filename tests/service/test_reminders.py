"""Reminders: due after the quiet time, repeated at the interval, stopped by a move, by the
end of the game or by ``off``; DM or channel; once each across a restart.

Real SQLite files, a real :class:`GameService`, a fake clock, and the reminder handler run
through :meth:`TimerRunner.run_once`, as the bot's timer loop runs it.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, replace
from datetime import timedelta

import pytest

from bot.service import GameService, GameSnapshot
from bot.service.reminders import (
    MAX_QUIET,
    REMINDER_TIMER,
    EffectiveSettings,
    QuietSource,
    ReminderDecision,
    ReminderNotice,
    Reminders,
    effective_settings,
    parse_quiet,
)
from bot.service.timers import TimerRunner
from bot.service.vacations import start_vacation
from db import Database
from db.rows import NewTimer, TimerRow
from db.schema import ReminderDelivery, ThreadPolicy, TimerStatus
from tests.service.conftest import (
    ALICE,
    BOB,
    GAMES,
    GUILD,
    T0,
    FakeClock,
    StartGame,
    seeds,
    to_move_user,
    waiting_user,
)

QUIET = timedelta(hours=24)
INTERVAL = timedelta(hours=12)
SECOND = timedelta(seconds=1)


class Inbox:
    """The reminder handler the bot's loop would run, delivering into a list."""

    def __init__(self, reminders: Reminders) -> None:
        self.reminders = reminders
        self.decisions: list[ReminderDecision] = []

    @property
    def notices(self) -> list[ReminderNotice]:
        return [d.notice for d in self.decisions if d.notice is not None]

    async def __call__(self, timer: TimerRow) -> NewTimer | None:
        decision = await self.reminders.decide(timer)
        self.decisions.append(decision)
        return decision.follow_up


@dataclass
class Loop:
    """A service, the reminders, an inbox and a runner on one database."""

    service: GameService
    reminders: Reminders
    inbox: Inbox
    runner: TimerRunner

    async def tick(self) -> list[ReminderNotice]:
        """One run of the loop; the notices it delivered."""
        before = len(self.inbox.notices)
        await self.runner.run_once()
        return self.inbox.notices[before:]


def make_loop(service: GameService, clock: FakeClock, worker: str = "w") -> Loop:
    reminders = Reminders(service, interval=INTERVAL, now=clock)
    inbox = Inbox(reminders)
    runner = TimerRunner(
        service.database,
        {REMINDER_TIMER: inbox},
        now=clock,
        worker=worker,
        handler_timeout=timedelta(seconds=5),
        stale_after=timedelta(minutes=5),
    )
    return Loop(service, reminders, inbox, runner)


@pytest.fixture
def loop(service: GameService, clock: FakeClock) -> Loop:
    return make_loop(service, clock)


async def plan_first_reminder(
    database: Database, snapshot: GameSnapshot, clock: FakeClock, **payload: int
) -> TimerRow:
    """The reminder the service plans when a turn begins: due after the quiet time, with
    the game's version (and optionally more) in its payload. Replaces one already planned."""
    (seat,) = snapshot.to_move
    body = json.dumps({"version": snapshot.version, **payload})
    timer = NewTimer(REMINDER_TIMER, clock.now + QUIET, snapshot.game_id, seat, body)
    return await database.timers.schedule(timer, now=clock.now)


async def pending_reminders(database: Database, game_id: int) -> list[TimerRow]:
    return await database.timers.pending(game_id=game_id, kinds={REMINDER_TIMER})


async def any_move(service: GameService, user_id: int) -> str:
    moves = await service.legal_moves(GAMES, user_id)
    assert moves
    return moves[0]


# ----------------------------------------------------------------------------------------------
# One turn's reminders
# ----------------------------------------------------------------------------------------------


async def test_a_reminder_comes_after_the_quiet_time_then_at_every_interval(
    loop: Loop, start_game: StartGame, database: Database, clock: FakeClock
) -> None:
    game = await start_game()
    first = await plan_first_reminder(database, game, clock)

    clock.advance(QUIET - SECOND)
    assert await loop.tick() == []
    clock.advance(SECOND)
    [notice] = await loop.tick()
    assert notice == ReminderNotice(
        game_id=game.game_id,
        game_name="Generatorb",
        guild_id=GUILD,
        channel_id=GAMES,
        user_id=to_move_user(game),
        seat=first.seat or 0,
        seat_name=game.players[first.seat or 0].seat_name,
        delivery=ReminderDelivery.CHANNEL,
        to_move_since=T0,
        board_message_id=None,
        clock=None,
    )
    [second] = await pending_reminders(database, game.game_id)
    assert (second.due_at, second.payload_json, second.seat) == (
        clock.now + INTERVAL,
        first.payload_json,
        first.seat,
    )
    assert await loop.tick() == []

    for _ in range(3):
        clock.advance(INTERVAL - SECOND)
        assert await loop.tick() == []
        clock.advance(SECOND)
        assert [n.user_id for n in await loop.tick()] == [to_move_user(game)]
    fired = await database.timers.get(first.id)
    assert fired is not None
    assert fired.status is TimerStatus.FIRED


async def test_the_service_plans_each_turns_first_reminder(
    loop: Loop, service: GameService, start_game: StartGame, clock: FakeClock
) -> None:
    game = await start_game()  # the service's default quiet time is 24h, like QUIET
    first_mover = to_move_user(game)
    clock.advance(QUIET - SECOND)
    assert await loop.tick() == []
    clock.advance(SECOND)
    assert [n.user_id for n in await loop.tick()] == [first_mover]

    clock.advance(timedelta(hours=1))
    moved = await service.play(GAMES, first_mover, await any_move(service, first_mover))
    second_mover = to_move_user(moved.snapshot)
    clock.advance(QUIET)
    [notice] = await loop.tick()
    assert (notice.user_id, notice.to_move_since) == (second_mover, clock.now - QUIET)
    clock.advance(INTERVAL)
    assert [n.user_id for n in await loop.tick()] == [second_mover]


async def test_a_reminder_in_a_game_with_a_clock_carries_the_seats_clock(
    loop: Loop, service: GameService, clock: FakeClock
) -> None:
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        opponent_ids=[BOB],
        game="generatorb",
        clock="hard:3d",
    )
    game = (await service.accept_challenge(challenge.challenge_id, BOB)).game
    assert game is not None
    clock.advance(QUIET)
    [notice] = await loop.tick()
    assert notice.clock is not None
    assert (notice.clock.seat, notice.clock.mode, notice.clock.flagged) == (
        notice.seat,
        "hard",
        False,
    )
    assert notice.clock.time_left == timedelta(days=2)
    assert notice.clock.deadline == T0 + timedelta(days=3)


async def test_a_move_ends_the_reminders_of_the_turn(
    loop: Loop,
    service: GameService,
    start_game: StartGame,
    database: Database,
    clock: FakeClock,
) -> None:
    game = await start_game()
    mover = to_move_user(game)
    await plan_first_reminder(database, game, clock)
    clock.advance(QUIET)
    assert [n.user_id for n in await loop.tick()] == [mover]
    [follow_up] = await pending_reminders(database, game.game_id)

    clock.advance(timedelta(hours=1))
    await service.play(GAMES, mover, await any_move(service, mover))

    # Whatever the service planned for the next turn, the mover's chain is over: the
    # follow-up planned before the move is stale if it still runs...
    decision = await loop.reminders.decide(follow_up)
    assert decision == ReminderDecision(None, None, "turn changed")
    # ...and over the next days nobody reminds the mover again.
    for _ in range(6):
        clock.advance(INTERVAL)
        assert mover not in [n.user_id for n in await loop.tick()]


async def test_the_next_turn_is_reminded_from_when_it_began(
    loop: Loop,
    service: GameService,
    start_game: StartGame,
    database: Database,
    clock: FakeClock,
) -> None:
    game = await start_game()
    clock.advance(timedelta(hours=5))
    mover = to_move_user(game)
    after = (await service.play(GAMES, mover, await any_move(service, mover))).snapshot
    await plan_first_reminder(database, after, clock)
    clock.advance(QUIET)
    [notice] = await loop.tick()
    assert (notice.user_id, notice.to_move_since) == (to_move_user(after), T0 + timedelta(hours=5))


async def test_the_end_of_the_game_ends_its_reminders(
    loop: Loop,
    service: GameService,
    start_game: StartGame,
    database: Database,
    clock: FakeClock,
) -> None:
    game = await start_game()
    planned = await plan_first_reminder(database, game, clock)
    await service.resign(GAMES, waiting_user(game))
    assert await loop.reminders.decide(planned) == ReminderDecision(None, None, "game over")
    clock.advance(QUIET)
    assert await loop.tick() == []


async def test_off_suppresses_reminders_and_ends_the_chain(
    loop: Loop, start_game: StartGame, database: Database, clock: FakeClock
) -> None:
    game = await start_game()
    await database.settings.set_user(
        to_move_user(game), reminders=ReminderDelivery.OFF, now=clock.now
    )
    await plan_first_reminder(database, game, clock)
    clock.advance(QUIET)
    assert await loop.tick() == []
    assert loop.inbox.decisions == [ReminderDecision(None, None, "reminders off")]
    assert await pending_reminders(database, game.game_id) == []


@pytest.mark.parametrize("delivery", [ReminderDelivery.DM, ReminderDelivery.CHANNEL])
async def test_the_notice_carries_the_players_choice(
    loop: Loop,
    start_game: StartGame,
    database: Database,
    clock: FakeClock,
    delivery: ReminderDelivery,
) -> None:
    game = await start_game()
    await database.settings.set_user(to_move_user(game), reminders=delivery, now=clock.now)
    await database.settings.set_user(waiting_user(game), reminders=ReminderDelivery.OFF, now=T0)
    await plan_first_reminder(database, game, clock)
    clock.advance(QUIET)
    [notice] = await loop.tick()
    assert (notice.user_id, notice.delivery) == (to_move_user(game), delivery)


async def test_a_player_on_vacation_is_reminded_when_it_ends(
    loop: Loop, start_game: StartGame, database: Database, clock: FakeClock
) -> None:
    game = await start_game()
    await plan_first_reminder(database, game, clock)
    clock.advance(QUIET - timedelta(hours=1))
    until = clock.now + timedelta(days=3)
    await start_vacation(
        database, to_move_user(game), timedelta(days=3), allowance=timedelta(days=30), now=clock.now
    )
    # Whether or not the vacation moved the reminder, none arrives during the vacation...
    for _ in range(5):
        clock.advance(INTERVAL)
        assert clock.now < until
        assert await loop.tick() == []
    # ...and the chain goes on when it ends.
    clock.advance(until - clock.now)
    assert [n.user_id for n in await loop.tick()] == [to_move_user(game)]
    [follow_up] = await pending_reminders(database, game.game_id)
    assert follow_up.due_at == until + INTERVAL


async def test_a_reminder_found_during_a_vacation_waits_for_its_end(
    loop: Loop, start_game: StartGame, database: Database, clock: FakeClock
) -> None:
    game = await start_game()
    planned = await plan_first_reminder(database, game, clock)
    await start_vacation(
        database, to_move_user(game), timedelta(days=3), allowance=timedelta(days=30), now=clock.now
    )
    clock.advance(QUIET)
    decision = await loop.reminders.decide(planned)
    assert (decision.notice, decision.reason) == (None, "on vacation")
    assert decision.follow_up is not None
    assert decision.follow_up.due_at == T0 + timedelta(days=3)
    assert decision.follow_up.payload_json == planned.payload_json


async def test_a_draw_offer_does_not_stop_the_reminders_of_a_turn_planned_with_its_ply(
    loop: Loop,
    service: GameService,
    start_game: StartGame,
    database: Database,
    clock: FakeClock,
) -> None:
    game = await start_game()
    with_ply = await plan_first_reminder(database, game, clock, ply=game.ply)
    await service.offer_draw(GAMES, waiting_user(game))  # bumps the version, not the turn
    clock.advance(QUIET)
    decision = await loop.reminders.decide(with_ply)
    assert decision.notice is not None
    assert decision.notice.user_id == to_move_user(game)
    version_only = await plan_first_reminder(database, game, clock)
    assert (await loop.reminders.decide(version_only)).reason == "turn changed"


@pytest.mark.parametrize(
    ("seat", "payload"),
    [(0, "{}"), (0, "not json"), (0, "[1]"), (0, '{"version": "3"}'), (None, '{"version": 1}')],
)
async def test_a_malformed_reminder_is_dropped_without_an_error(
    loop: Loop,
    start_game: StartGame,
    database: Database,
    clock: FakeClock,
    seat: int | None,
    payload: str,
) -> None:
    game = await start_game()
    await database.timers.schedule(
        NewTimer(REMINDER_TIMER, clock.now, game.game_id, seat, payload), now=clock.now
    )
    report = await loop.runner.run_once()
    assert len(report.fired) == 1
    assert loop.inbox.decisions[-1] == ReminderDecision(None, None, "malformed")


async def test_a_reminder_of_a_deleted_game_is_dropped(
    loop: Loop, start_game: StartGame, database: Database, clock: FakeClock
) -> None:
    game = await start_game()
    planned = await plan_first_reminder(database, game, clock)
    orphan = replace(planned, game_id=10**9)
    assert (await loop.reminders.decide(orphan)).reason == "no such game"


def test_the_interval_must_be_positive(service: GameService) -> None:
    with pytest.raises(ValueError, match="positive"):
        Reminders(service, interval=timedelta(0))


# ----------------------------------------------------------------------------------------------
# Once each across a restart
# ----------------------------------------------------------------------------------------------


async def test_reminders_fire_once_each_across_a_restart(db_url: str, clock: FakeClock) -> None:
    first_database = Database(db_url)
    await first_database.migrate()
    first_service = GameService(first_database, clock=clock, rng_seed_source=seeds())
    challenge = await first_service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        opponent_ids=[BOB],
        game="generatorb",
    )
    game = (await first_service.accept_challenge(challenge.challenge_id, BOB)).game
    assert game is not None
    mover = to_move_user(game)
    await plan_first_reminder(first_database, game, clock)
    first = make_loop(first_service, clock, worker="first")

    # The first process delivers the first reminder...
    clock.advance(QUIET)
    assert [n.user_id for n in await first.tick()] == [mover]
    # ...then dies while running the second: its handler never finishes.
    clock.advance(INTERVAL)
    started, release = asyncio.Event(), asyncio.Event()

    async def hangs(timer: TimerRow) -> NewTimer | None:
        started.set()
        await release.wait()
        raise AssertionError("a dead process delivers nothing")

    dying = TimerRunner(first_database, {REMINDER_TIMER: hangs}, now=clock, worker="dying")
    run = asyncio.create_task(dying.run_once())
    await started.wait()
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run
    [claimed] = [t for t in await first_database.timers.pending() if t.claimed_by == "dying"]
    await first_database.close()

    # A new process on the same file takes over once the claim is stale.
    async with Database(db_url) as second_database:
        second_service = GameService(second_database, clock=clock, rng_seed_source=seeds())
        second = make_loop(second_service, clock, worker="second")
        clock.advance(timedelta(minutes=5))
        assert await second.tick() == []  # the claim is not stale yet
        clock.advance(SECOND)
        [notice] = await second.tick()  # released and delivered, once
        assert notice.user_id == mover
        assert await second.tick() == []
        [follow_up] = await pending_reminders(second_database, game.game_id)
        assert follow_up.id != claimed.id
        assert follow_up.due_at == clock.now + INTERVAL
        clock.advance(INTERVAL)
        assert [n.user_id for n in await second.tick()] == [mover]
        assert await second.tick() == []

    fired_due = [d for d in first.inbox.decisions + second.inbox.decisions if d.notice]
    assert len(fired_due) == 3


# ----------------------------------------------------------------------------------------------
# Settings
# ----------------------------------------------------------------------------------------------


async def test_effective_settings_fall_back_from_user_to_server_to_default(
    database: Database,
) -> None:
    default = timedelta(hours=24)
    assert await effective_settings(database, ALICE, GUILD, default_quiet=default) == (
        EffectiveSettings(
            ReminderDelivery.CHANNEL,
            default,
            QuietSource.DEFAULT,
            None,
            None,
            ThreadPolicy.WHEN_BUSY,
        )
    )
    await database.settings.set_guild(
        GUILD, reminder_quiet_s=3600, threads=ThreadPolicy.ALWAYS, now=T0
    )
    server = await effective_settings(database, ALICE, GUILD, default_quiet=default)
    assert (server.quiet, server.quiet_source, server.threads) == (
        timedelta(hours=1),
        QuietSource.SERVER,
        ThreadPolicy.ALWAYS,
    )
    await database.settings.set_user(
        ALICE, reminders=ReminderDelivery.DM, reminder_quiet_s=7200, now=T0
    )
    mine = await effective_settings(database, ALICE, GUILD, default_quiet=default)
    assert (mine.delivery, mine.quiet, mine.quiet_source, mine.server_quiet) == (
        ReminderDelivery.DM,
        timedelta(hours=2),
        QuietSource.USER,
        timedelta(hours=1),
    )
    in_dm = await effective_settings(database, BOB, None, default_quiet=default)
    assert (in_dm.quiet_source, in_dm.threads, in_dm.server_quiet) == (
        QuietSource.DEFAULT,
        None,
        None,
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12h", timedelta(hours=12)),
        (" 1d 12H ", timedelta(days=1, hours=12)),
        ("1m", timedelta(minutes=1)),
        ("30d", MAX_QUIET),
        ("default", None),
        ("Reset", None),
    ],
)
def test_parse_quiet(text: str, expected: timedelta | None) -> None:
    assert parse_quiet(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("59s", "A quiet time is from 1m to 30d"),
        ("31d", "A quiet time is from 1m to 30d"),
        ("999999999999d", "A quiet time is from 1m to 30d"),
        ("soon", "is not a duration"),
        ("3600", "Give '3600' a unit"),
    ],
)
def test_parse_quiet_refuses_with_a_sentence(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_quiet(text)
