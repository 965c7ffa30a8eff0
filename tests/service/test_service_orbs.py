"""Orbs through the service: moves the bot decides itself, forced passes, resignations.

The engine's own rules are tested in ``tests/engines/test_orbs.py``; here the service's part:
``draw`` is accepted by the engine (the CLI sends it after everyone agreed) but a player may
not play it alone through ``/move`` (D-ORB-11), and a two-player draw offer ends the game by
agreement as in every other game.
"""

from __future__ import annotations

import pytest

from bot.service import GameService, InvalidMoveError
from bot.service.automatic import automatic_steps
from tests.service.conftest import GAMES, StartGame, to_move_user, waiting_user


async def test_draw_cannot_be_played_alone(service: GameService, start_game: StartGame) -> None:
    game = await start_game(game="orbs")
    mover = to_move_user(game)
    with pytest.raises(InvalidMoveError, match="/draw") as caught:
        await service.play(GAMES, mover, "draw")
    assert caught.value.kind == "illegal"
    after = await service.snapshot(GAMES)
    assert after.version == game.version  # nothing was committed
    assert after.status == "active"


async def test_two_player_draw_offer_ends_by_agreement(
    service: GameService, start_game: StartGame
) -> None:
    game = await start_game(game="orbs")
    offer = await service.offer_draw(GAMES, to_move_user(game))
    finished = await service.answer_draw(
        offer.game_id, waiting_user(game), accept=True, version=offer.version
    )
    assert finished.outcome is not None
    assert finished.outcome.termination == "agreement"
    assert finished.outcome.ranking == ((0, 1),)
    assert finished.position.endswith(" agreement 0")  # the engine ended it (D-ORB-11)
    assert finished.view.to_move is None


async def test_forced_pass_is_played_but_a_single_real_move_is_not(
    service: GameService, start_game: StartGame
) -> None:
    game = await start_game(game="orbs")
    row = await service.database.games.get(game.game_id)
    assert row is not None
    meta = await service.core.game_meta(row)
    engine = meta.engine
    # Seat 1's only legal move is A1-B2 (B1 holds its own Fire): it stays the player's.
    single = engine.from_position("B1:F,I5:W/A1:F 1 0", meta.options)
    assert engine.legal_move_texts(single, 1) == ["A1-B2"]
    assert automatic_steps(meta, single, 1)[1] == []
    # A seat with no move at all passes automatically (ORB-4).
    boxed = engine.from_position("A1:F/B1:F,B2:F,Q1:W 0 0", meta.options)
    _, moves, events = automatic_steps(meta, boxed, 1)
    assert [m.text for m in moves] == ["pass"]
    assert "has no legal move and passes" in events[0].text


async def test_a_move_is_played_and_the_turn_passes(
    service: GameService, start_game: StartGame
) -> None:
    game = await start_game(game="orbs", options="first_player=seat0")
    result = await service.play(GAMES, to_move_user(game), "d1-e5")
    assert result.move == "D1-E5"
    assert [e.text for e in result.events] == ["Fire steps to E5"]
    assert result.snapshot.to_move == (1,)
