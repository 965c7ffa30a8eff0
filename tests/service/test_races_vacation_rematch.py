"""The two races the slow-play work left open (issue 16), closed in the database.

* ``/vacation start`` racing a move: the move plans the next player's clock from the vacation
  row it read; the vacation pauses the clocks running when it reads. Whichever writes second
  must see the other: a move checks the vacation rows it planned with
  (``ClockChanges.vacations_seen``), and a vacation write checks it covers every clock running
  when it writes. Either way the new player's clock ends up paused.
* Two Rematch presses at the same instant from two processes (two services, one database):
  a partial unique index allows one open rematch challenge per game.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from datetime import timedelta
from typing import Any

import pytest

from bot.service import GameService, StaleActionError
from bot.service.social import RematchOpenError
from db import Database
from tests.pg.fixtures import db_backend_url, pg_server, pg_url
from tests.service.conftest import ALICE, BOB, GAMES, FakeClock, seeds, to_move_user, waiting_user
from tests.service.test_service_clocks import play_any, start

DAY = timedelta(days=1)

__all__ = ["db_backend_url", "pg_server", "pg_url"]


@pytest.fixture
def db_url(db_backend_url: str) -> str:
    """These races are run on SQLite and on PostgreSQL (where writers do not queue)."""
    return db_backend_url


async def test_a_vacation_booked_while_a_move_is_planned_makes_the_move_try_again(
    service: GameService, database: Database, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    snapshot = await start(service, "soft:2d+1d/4d")
    next_player = waiting_user(snapshot)
    read = database.clocks.turn_context

    async def read_then_book(user_ids: Collection[int], guild_id: int | None) -> Any:
        context = await read(user_ids, guild_id)
        monkeypatch.setattr(database.clocks, "turn_context", read)  # once
        await service.start_vacation(next_player, 3 * DAY)  # lands between read and write
        return context

    monkeypatch.setattr(database.clocks, "turn_context", read_then_book)
    with pytest.raises(StaleActionError):
        await play_any(service, snapshot)
    moved = await play_any(service, await service.snapshot(GAMES))  # the player tries again
    clock_of_next = moved.clock_of(moved.to_move[0])
    assert clock_of_next is not None
    assert clock_of_next.paused_until == clock.now + 3 * DAY  # paused, not running


async def test_a_move_landing_while_a_vacation_is_planned_is_paused_by_it(
    service: GameService, database: Database, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    snapshot = await start(service, "soft:2d+1d/4d")
    away = waiting_user(snapshot)
    read = database.clocks.running_for_user
    moved: list[Any] = []

    async def read_then_move(user_id: int) -> Any:
        running = await read(user_id)
        if not moved:  # the opponent moves after the vacation read the running clocks
            moved.append(await play_any(service, snapshot))
        return running

    monkeypatch.setattr(database.clocks, "running_for_user", read_then_move)
    info = await service.start_vacation(away, 3 * DAY)  # retried inside, then covers it
    assert info.until == clock.now + 3 * DAY
    after = await service.snapshot(GAMES)
    assert to_move_user(after) == away
    started = after.clock_of(after.to_move[0])
    assert started is not None
    assert started.paused_until == clock.now + 3 * DAY


async def test_two_processes_pressing_rematch_at_once_open_one_challenge(
    database: Database, clock: FakeClock
) -> None:
    first = GameService(database, clock=clock, rng_seed_source=seeds(1))
    second = GameService(database, clock=clock, rng_seed_source=seeds(50))
    snapshot = await start(first, None)
    ended = await first.resign(GAMES, to_move_user(snapshot))
    outcomes = await asyncio.gather(
        first.rematch(ended.game_id, ALICE),
        second.rematch(ended.game_id, BOB),
        return_exceptions=True,
    )
    opened = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, RematchOpenError)]
    assert len(opened) == 1, outcomes
    assert len(refused) == 1, outcomes
    assert refused[0].challenge.challenge_id == opened[0].challenge_id
