"""The board message ids are stored in group commits (bot/service/views.py, _BoardMessages)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from typing import Any

import pytest

from bot.service import GameService
from bot.service.clock_plans import BOARD_POST_GRACE, BOARD_POST_TIMER
from db import Database
from tests.service.conftest import GAMES, StartGame, to_move_user


async def test_posts_of_the_same_moment_share_one_write_and_each_is_stored_on_return(
    service: GameService, database: Database, start_game: StartGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = [await start_game(channel_id=500 + n) for n in range(4)]
    groups: list[dict[int, int | None]] = []
    write = database.games.set_board_messages

    async def spy(message_ids: Mapping[int, int | None], **done: Any) -> None:
        groups.append(dict(message_ids))
        await write(message_ids, **done)

    monkeypatch.setattr(database.games, "set_board_messages", spy)
    await asyncio.gather(*(service.set_board_message(g.game_id, 9000 + g.game_id) for g in games))
    assert groups == [{g.game_id: 9000 + g.game_id for g in games}]
    for game in games:
        row = await database.games.get(game.game_id)
        assert row is not None
        assert row.board_message_id == 9000 + game.game_id

    # Idle again: the next id is written at once, alone, and the newest id of a game wins.
    await service.set_board_message(games[0].game_id, 1)
    await service.set_board_message(games[0].game_id, 2)
    assert groups[1:] == [{games[0].game_id: 1}, {games[0].game_id: 2}]
    row = await database.games.get(games[0].game_id)
    assert row is not None
    assert row.board_message_id == 2


async def test_ids_posted_while_a_group_is_written_go_in_the_next_group(
    service: GameService, database: Database, start_game: StartGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, third = [await start_game(channel_id=600 + n) for n in range(3)]
    groups: list[dict[int, int | None]] = []
    writing = asyncio.Event()
    release = asyncio.Event()
    write = database.games.set_board_messages

    async def slow(message_ids: Mapping[int, int | None], **done: Any) -> None:
        groups.append(dict(message_ids))
        writing.set()
        await release.wait()
        await write(message_ids, **done)

    monkeypatch.setattr(database.games, "set_board_messages", slow)
    one = asyncio.ensure_future(service.set_board_message(first.game_id, 11))
    await writing.wait()  # the first group is being written
    two = asyncio.ensure_future(service.set_board_message(second.game_id, 22))
    three = asyncio.ensure_future(service.set_board_message(third.game_id, 33))
    await asyncio.sleep(0)
    release.set()
    await asyncio.gather(one, two, three)
    assert groups == [{first.game_id: 11}, {second.game_id: 22, third.game_id: 33}]


async def test_a_failed_write_is_raised_to_its_callers_and_the_next_group_is_written(
    service: GameService, database: Database, start_game: StartGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await start_game()
    write = database.games.set_board_messages
    failures = iter([RuntimeError("disk full")])

    async def flaky(message_ids: Mapping[int, int | None], **done: Any) -> None:
        for failure in failures:
            raise failure
        await write(message_ids, **done)

    monkeypatch.setattr(database.games, "set_board_messages", flaky)
    with pytest.raises(RuntimeError, match="disk full"):
        await service.set_board_message(game.game_id, 5)
    await service.set_board_message(game.game_id, 6)
    row = await database.games.get(game.game_id)
    assert row is not None
    assert row.board_message_id == 6


@pytest.mark.parametrize(("game", "options"), [("generatorb", None), ("arbos", None)])
async def test_a_start_plans_its_first_boards_post(
    service: GameService, database: Database, start_game: StartGame, game: str, options: Any
) -> None:
    """The first board is posted like a move's: the start plans a ``board_post`` for the
    version it leaves, also when the game opened at a chance node and was settled at once
    (Arbos' random setup: one timer, of the settled version, not of version 1)."""
    snapshot = await start_game(game=game, options=options)
    (timer,) = await database.timers.pending(game_id=snapshot.game_id, kinds=[BOARD_POST_TIMER])
    assert json.loads(timer.payload_json) == {"version": snapshot.version}
    assert (snapshot.version > 1) is (game == "arbos")  # settled: the setup's draws
    await service.set_board_message(snapshot.game_id, 70, snapshot.version)
    assert not await database.timers.pending(game_id=snapshot.game_id, kinds=[BOARD_POST_TIMER])


async def test_a_move_plans_its_board_post_and_the_post_calls_it_off(
    service: GameService, database: Database, start_game: StartGame
) -> None:
    """A move that passes the turn leaves a ``board_post`` timer for its version, due after
    the grace; storing the board of that version deletes it, and a board of another version
    does not (a crash mid-move: the board comes late, never not at all)."""
    snapshot = await start_game()
    result = await service.play(GAMES, to_move_user(snapshot), "a1-a3")
    version = result.snapshot.version
    (timer,) = await database.timers.pending(game_id=snapshot.game_id, kinds=[BOARD_POST_TIMER])
    assert timer.seat is None
    assert json.loads(timer.payload_json) == {"version": version}
    assert timer.due_at - result.snapshot.updated_at == BOARD_POST_GRACE
    await service.set_board_message(snapshot.game_id, 77, version - 1)  # an older board
    assert await database.timers.pending(game_id=snapshot.game_id, kinds=[BOARD_POST_TIMER])
    await service.set_board_message(snapshot.game_id, 78, version)
    assert not await database.timers.pending(game_id=snapshot.game_id, kinds=[BOARD_POST_TIMER])
    # Two boards of one game in one group (a /board public:True of the old version beside
    # the move's board) both count: the move's timer goes.
    again = await service.play(GAMES, to_move_user(result.snapshot), "h8-h6")
    await asyncio.gather(
        service.set_board_message(snapshot.game_id, 81, again.snapshot.version),
        service.set_board_message(snapshot.game_id, 80, again.snapshot.version - 1),
    )
    assert not await database.timers.pending(game_id=snapshot.game_id, kinds=[BOARD_POST_TIMER])
    result = again
    # The next move plans the next one; a board stored without a version leaves it.
    after = await service.play(GAMES, to_move_user(result.snapshot), "a2-a4")
    await service.set_board_message(snapshot.game_id, 79)
    (timer,) = await database.timers.pending(game_id=snapshot.game_id, kinds=[BOARD_POST_TIMER])
    assert json.loads(timer.payload_json) == {"version": after.snapshot.version}


async def test_a_resignation_plans_the_final_boards_post(
    service: GameService, database: Database, start_game: StartGame
) -> None:
    """A resignation that ends the game on its row (Generatorb leaves it to the bot) plans
    a ``board_post`` for the final board, scheduled after the end's cancellation of the
    game's timers; storing that board calls it off."""
    snapshot = await start_game()
    ended = await service.resign(GAMES, to_move_user(snapshot))
    assert not ended.is_active
    (timer,) = await database.timers.pending(game_id=snapshot.game_id, kinds=[BOARD_POST_TIMER])
    assert json.loads(timer.payload_json) == {"version": ended.version}
    await service.set_board_message(snapshot.game_id, 90, ended.version)
    assert not await database.timers.pending(game_id=snapshot.game_id, kinds=[BOARD_POST_TIMER])


async def test_a_decision_within_a_turn_plans_no_board_post(
    service: GameService, database: Database, start_game: StartGame
) -> None:
    # Generation Zero: a 'Sue's rest is one of many decisions of the seat's turn; it is
    # answered with a quiet line, not a board, so there is no board to wait for.
    snapshot = await start_game(game="generation_zero")
    await service.set_board_message(snapshot.game_id, 70, snapshot.version)  # the first board
    mover = to_move_user(snapshot)
    moves = await service.autocomplete_moves(GAMES, mover, "rest")
    result = await service.play(GAMES, mover, moves[0])
    assert result.turn_goes_on
    assert not await database.timers.pending(game_id=snapshot.game_id, kinds=[BOARD_POST_TIMER])
