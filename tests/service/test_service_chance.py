"""Chance nodes, with a toy dice game registered for the test (Generatorb has none)."""

from __future__ import annotations

import pytest

from bot.service import GameService
from bot.service.randomness import sample_chance
from db import Database
from engines.base import CHANCE, ChanceOutcome
from engines.rng import Rng

from .conftest import GAMES, DiceRace, FakeClock, StartGame, seeds, to_move_user


async def test_chance_outcomes_are_sampled_logged_and_replayed(
    service: GameService, database: Database, start_game: StartGame, dice_race: DiceRace
) -> None:
    snapshot = await start_game(game="dicerace")
    # The opening toss happened before anyone moved, and is the first log entry.
    log = await database.games.moves(snapshot.game_id)
    assert [(m.ply, m.seat) for m in log] == [(1, None)]
    assert log[0].text in ("first:0", "first:1")
    assert snapshot.ply == 1
    assert snapshot.to_move != (CHANCE,)
    while snapshot.is_active:
        result = await service.play(GAMES, to_move_user(snapshot), "roll")
        assert result.move == "roll"
        assert len(result.chance) == 1
        assert result.chance[0].startswith("d:")
        assert [e.kind for e in result.events] == ["asked", "rolled"]
        assert result.snapshot.ply == snapshot.ply + 2
        snapshot = result.snapshot
    assert snapshot.outcome is not None
    assert snapshot.outcome.termination == "target"
    log = await database.games.moves(snapshot.game_id)
    assert [m.seat is None for m in log[1:]] == [i % 2 == 1 for i in range(len(log) - 1)]
    report = await service.replay(snapshot.game_id)
    assert report.matches
    assert report.plies == len(log)


async def test_the_same_seed_rolls_the_same_dice(
    database: Database, clock: FakeClock, dice_race: DiceRace
) -> None:
    async def play_out(channel_id: int) -> list[str]:
        service = GameService(database, clock=clock, rng_seed_source=seeds(42))
        challenge = await service.create_challenge(
            guild_id=1,
            channel_id=channel_id,
            challenger_id=1,
            opponent_id=2,
            game="dicerace",
        )
        snapshot = await service.accept_challenge(challenge.challenge_id, 2)
        while snapshot.is_active:
            snapshot = (await service.play(channel_id, to_move_user(snapshot), "roll")).snapshot
        return [m.text for m in await database.games.moves(snapshot.game_id)]

    assert await play_out(1) == await play_out(2)


def test_sample_chance_follows_the_probabilities() -> None:
    outcomes = (ChanceOutcome("a", 0.75), ChanceOutcome("b", 0.25))
    draws = [sample_chance(outcomes, Rng(5, counter)) for counter in range(4000)]
    assert 0.72 < draws.count("a") / len(draws) < 0.78
    assert sample_chance(outcomes, Rng(9, 3)) == sample_chance(outcomes, Rng(9, 3))
    with pytest.raises(ValueError, match="positive probability"):
        sample_chance((), Rng(1))
