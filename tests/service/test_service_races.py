"""Two moves at once: exactly one lands, in one process (the lock) and across two (the CAS)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence

import pytest

from bot.service import (
    GameService,
    NoGameHereError,
    NotYourTurnError,
    StaleActionError,
    TurnResult,
)
from db import Database, GameRow

from .conftest import GAMES, GUILD, FakeClock, StartGame, to_move_user


@pytest.fixture
async def other_db(database: Database, db_url: str) -> AsyncIterator[Database]:
    """A second connection pool on the test database (``database`` migrated it first):
    another process's view of it."""
    second = Database(db_url)
    try:
        yield second
    finally:
        await second.close()


def after_read(
    database: Database, barrier: asyncio.Barrier
) -> Callable[[int], Awaitable[GameRow | None]]:
    """``active_in_channel`` that, the first time, waits for the barrier after reading."""
    read = database.games.active_in_channel
    first = True

    async def active_in_channel(channel_id: int) -> GameRow | None:
        nonlocal first
        row = await read(channel_id)
        if first:
            first = False
            await barrier.wait()
        return row

    return active_in_channel


def split(
    results: Sequence[TurnResult | BaseException],
) -> tuple[list[TurnResult], list[BaseException]]:
    landed = [r for r in results if isinstance(r, TurnResult)]
    refused = [r for r in results if isinstance(r, BaseException)]
    return landed, refused


async def test_two_moves_in_one_process_queue_on_the_lock(
    service: GameService, start_game: StartGame
) -> None:
    snapshot = await start_game()
    mover = to_move_user(snapshot)
    results = await asyncio.gather(
        service.play(GAMES, mover, "a1-a3"),
        service.play(GAMES, mover, "b1-b3"),
        return_exceptions=True,
    )
    landed, refused = split(results)
    assert len(landed) == 1
    assert len(refused) == 1
    # The second waited for the lock, reloaded, and found it is no longer its turn.
    assert isinstance(refused[0], NotYourTurnError)
    now = await service.snapshot(GAMES)
    assert now.ply == 1
    assert now.version == snapshot.version + 1
    assert [m.text for m in await service.move_list(GAMES)] == [landed[0].move]


async def test_two_processes_on_one_file_race_through_compare_and_set(
    database: Database,
    other_db: Database,
    clock: FakeClock,
    start_game: StartGame,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    snapshot = await start_game()
    mover = to_move_user(snapshot)
    one = GameService(database, clock=clock)
    two = GameService(other_db, clock=clock)
    # Each "process" reads the game, then waits until the other has read it too: both
    # decide on the same version, and only the database can tell them apart.
    both_read = asyncio.Barrier(2)
    for db in (database, other_db):
        monkeypatch.setattr(db.games, "active_in_channel", after_read(db, both_read))
    results = await asyncio.gather(
        one.play(GAMES, mover, "a1-a3"),
        two.play(GAMES, mover, "b1-b3"),
        return_exceptions=True,
    )
    landed, refused = split(results)
    assert len(landed) == 1
    assert len(refused) == 1
    assert isinstance(refused[0], StaleActionError)
    log = await database.games.moves(snapshot.game_id)
    assert [m.text for m in log] == [landed[0].move]
    # Whoever lost sees the winner's move next time it looks.
    for service in (one, two):
        assert (await service.snapshot(GAMES)).ply == 1


async def test_a_stale_cache_cannot_commit_an_old_position(
    database: Database, other_db: Database, clock: FakeClock, start_game: StartGame
) -> None:
    """Process two moves while process one still holds the old position in its cache: one's
    next commands, with nothing read in between, act on the new version."""
    snapshot = await start_game()
    one = GameService(database, clock=clock)
    two = GameService(other_db, clock=clock)
    await one.snapshot(GAMES)  # one caches the position at ply 0, South to move
    south = to_move_user(snapshot)
    await two.play(GAMES, south, "a1-a3")
    # One reads the active row again for every command, so South's second move in a row
    # is refused and North's lands on the new version.
    with pytest.raises(NotYourTurnError):
        await one.play(GAMES, south, "b1-b3")
    north = next(p.user_id for p in snapshot.players if p.user_id != south)
    result = await one.play(GAMES, north, "h8-h6")
    assert result.snapshot.ply == 2
    log = await database.games.moves(snapshot.game_id)
    assert [m.text for m in log] == ["a1-a3", "h8-h6"]


async def test_a_deleted_channel_aborts_a_game_moved_by_another_process_meanwhile(
    database: Database,
    other_db: Database,
    clock: FakeClock,
    start_game: StartGame,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Process two commits a move between process one's listing of the channel's games and
    its abort: one reads the game again and aborts it, rather than leaving it stranded."""
    snapshot = await start_game()
    one = GameService(database, clock=clock)
    two = GameService(other_db, clock=clock)
    await one.snapshot(GAMES)  # one caches the position at ply 0
    listing = database.games.active_in_or_under

    async def listed_then_moved(guild_id: int, channel_id: int) -> list[GameRow]:
        rows = await listing(guild_id, channel_id)
        await two.play(GAMES, to_move_user(snapshot), "a1-a3")
        return rows

    monkeypatch.setattr(database.games, "active_in_or_under", listed_then_moved)
    games = await one.abort_in_deleted_channel(GUILD, GAMES)
    assert [(g.game_id, g.status, g.ply) for g in games] == [(snapshot.game_id, "aborted", 1)]
    row = await database.games.get(snapshot.game_id)
    assert row is not None
    assert row.status == "aborted"


async def test_the_loser_of_a_race_to_end_the_game_hears_it_has_ended(
    service: GameService,
    database: Database,
    start_game: StartGame,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Both players resign at once, each having found the game active: one resignation ends
    # it, and the other, which waited for the lock, is told so rather than that the channel
    # has no game.
    snapshot = await start_game()
    users = [p.user_id for p in snapshot.players]
    both_read = asyncio.Barrier(2)
    read = database.games.active_in_channel

    async def active_in_channel(channel_id: int) -> GameRow | None:
        row = await read(channel_id)
        await both_read.wait()
        return row

    monkeypatch.setattr(database.games, "active_in_channel", active_in_channel)
    results = await asyncio.gather(
        *(service.resign(GAMES, user) for user in users), return_exceptions=True
    )
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(refused) == 1
    assert isinstance(refused[0], NoGameHereError)
    assert str(refused[0]) == "This game has already ended."
