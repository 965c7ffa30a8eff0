"""Chance nodes, with a toy dice game registered for the test (Generatorb has none)."""

from __future__ import annotations

from bot.service import GameService
from db import Database
from engines.base import CHANCE

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
        # The roll was played and logged (below); its own event tells it, so the post does
        # not name it again by its notation.
        assert result.unannounced == ()
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
            opponent_ids=[2],
            game="dicerace",
        )
        snapshot = (await service.accept_challenge(challenge.challenge_id, 2)).game
        assert snapshot is not None
        while snapshot.is_active:
            snapshot = (await service.play(channel_id, to_move_user(snapshot), "roll")).snapshot
        return [m.text for m in await database.games.moves(snapshot.game_id)]

    assert await play_out(1) == await play_out(2)


async def test_the_service_rolls_what_the_engines_own_generator_rolls(
    service: GameService, database: Database, start_game: StartGame, dice_race: DiceRace
) -> None:
    """Same seed and moves give the same dice as ``python -m engines`` (engine.sample_chance)."""
    snapshot = await start_game(game="dicerace")
    while snapshot.is_active:
        snapshot = (await service.play(GAMES, to_move_user(snapshot), "roll")).snapshot
    seed = (await database.games.get(snapshot.game_id)).seed  # type: ignore[union-attr]
    state = dice_race.new_game(2, {}, seed)
    rolls = set()
    for move in await database.games.moves(snapshot.game_id):
        if move.seat is None:
            assert move.text == dice_race.sample_chance(state)
            rolls.add(move.text)
            state = dice_race.apply_chance(state, move.text).state
        else:
            state = dice_race.play(state, move.seat, move.text)[0]
    assert len(rolls) > 2  # the draw counter advances: not the same roll every time


async def test_a_single_legal_move_is_spelled_out_in_the_snapshot(
    service: GameService, start_game: StartGame, dice_race: DiceRace
) -> None:
    """The dice race always has exactly one legal move, as a forced pass (G27) would."""
    snapshot = await start_game(game="dicerace")
    assert snapshot.only_moves == ("roll",)
    result = await service.play(GAMES, to_move_user(snapshot), "roll")
    assert result.snapshot.only_moves == (("roll",) if result.snapshot.is_active else ())
