"""Contract tests of the AI over the whole engine registry.

Every registered game: bots at level 1 with a tiny budget finish whole seeded games playing
only legal moves (``ai.arena.play_game`` parses every move), chance nodes included; forced
moves; the time limit; determinism for a seed; the inputs ``choose_move`` refuses.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from ai import Budget, Mcts, MctsBot, RandomBot, assess, choose_move
from ai import search as search_module
from ai.arena import play_game
from ai.evaluation import DEFAULT_PROFILE, profile_for
from ai.levels import level, pick_move, search
from ai.search import determinize_supported
from engines import ENGINES, get_engine
from engines.base import CHANCE
from engines.generatorb import GeneratorbEngine
from engines.orbs import OrbsEngine
from tests.ai.helpers import PeekingGenerationZero, new_state

TINY = Budget(6, 0.5)
#: (game, players, options) covering every registered engine, its player counts and teams.
SETUPS: list[tuple[str, int, dict[str, Any]]] = [
    ("generatorb", 2, {}),
    ("arbos", 2, {}),
    ("generator", 2, {"max_turns": 60}),
    ("generator", 4, {"max_turns": 40}),
    ("orbs", 2, {}),
    ("orbs", 4, {"teams": "02-13", "no_progress_limit": 4}),
    ("generation_zero", 2, {}),
]


def test_every_registered_engine_is_covered() -> None:
    assert {game for game, _, _ in SETUPS} == set(ENGINES)


@pytest.mark.parametrize(("game", "players", "options"), SETUPS)
def test_level_one_bots_finish_a_whole_game(
    game: str, players: int, options: dict[str, Any]
) -> None:
    engine = get_engine(game)
    if engine.info.has_hidden_information and not determinize_supported(engine):
        pytest.skip("engine has no determinize yet (covered by the peeking ISMCTS test)")
    bots = [MctsBot(1)] * players
    record = play_game(engine, players, options, bots, seed=11, budget=TINY, max_plies=4000)
    assert record.outcome is not None, f"{game}: not finished after {len(record.moves)} plies"
    assert len(record.rewards) == players
    if engine.info.has_chance:
        assert any(":" in text for text in record.moves), "no chance outcome was sampled"


def test_ismcts_plays_generation_zero_to_the_end() -> None:
    """The open-loop search over a (here: peeking) determinization plays legal moves only."""
    engine = get_engine("generation_zero")
    state, _ = new_state("generation_zero", 2, 5)
    rng = random.Random(5)
    for ply in range(400):
        acting = engine.to_move(state)
        if not acting:
            break
        seat = acting[0]
        if ply % 2:
            moves = engine.legal_moves(state, seat)
            text = engine.format_move(state, moves[int(rng.random() * len(moves))])
        else:
            peek = Mcts(PeekingGenerationZero(state), profile_for("generation_zero"))
            result = peek.search_view(engine.view(state, seat), seat, Budget(5, 1.0), ply)
            assert result.moves
            best = max(range(len(result.moves)), key=result.visits.__getitem__)
            text = engine.format_move(state, result.moves[best])
        state = engine.apply(state, seat, engine.parse_move(state, seat, text)).state
    assert engine.outcome(state) is not None


@pytest.mark.parametrize("game", ["generator", "arbos"])
def test_a_forced_move_is_played_without_search(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Generator's forced ``pass`` after a useless roll, Arbos' forced ``pass``."""

    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("searched a decision with one legal move")

    monkeypatch.setattr(Mcts, "search", no_search)
    engine = get_engine(game)
    resolved = engine.options_for(engine.resolve_options({}), 2)
    rng = random.Random(0)
    for seed in range(5):
        state = engine.new_game(2, resolved, seed)
        for _ in range(400):
            acting = engine.to_move(state)
            if not acting:
                break
            if acting == (CHANCE,):
                state = engine.apply_chance(state, engine.sample_chance(state)).state
                continue
            moves = engine.legal_moves(state, acting[0])
            if len(moves) == 1:
                text = choose_move(game, resolved, acting[0], engine.dumps(state), 5, 1)
                assert text == engine.format_move(state, moves[0])
                return
            move = moves[int(rng.random() * len(moves))]
            state = engine.apply(state, acting[0], move).state
    pytest.fail("no forced move found")


class _TickingClock:
    """A ``time`` stand-in whose ``perf_counter`` advances ``step`` seconds at each reading,
    so a search's time budget is tested without the machine's speed or load."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 1000.0

    def perf_counter(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("game", ["arbos", "generatorb", "orbs", "generation_zero"])
def test_the_time_limit_is_respected(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A billion iterations would take hours: the clock stops the search before the iteration
    that would end past its 0.3 s at the average pace (ai.search: the clock is read once per
    iteration, here 10 ms apart), and the first iteration always runs."""
    state, _ = new_state(game, 2, 3)
    engine = get_engine(game)
    seat = engine.to_move(state)[0]
    clock = _TickingClock(0.01)
    monkeypatch.setattr(search_module, "time", clock)
    if engine.info.has_hidden_information:
        result = Mcts(engine).search_view(engine.view(state, seat), seat, Budget(10**9, 0.3), 1)
    else:
        result = Mcts(engine).search(state, seat, Budget(10**9, 0.3), 1)
    assert 26 <= result.iterations <= 29
    assert 0.27 <= result.seconds <= 0.3 + 0.01  # past the budget by one iteration at most
    clock.step = 1.0  # one iteration longer than the whole budget: it runs, and only it
    single = Mcts(engine).search(state, seat, Budget(10**9, 0.3), 1)
    assert single.iterations == 1


@pytest.mark.parametrize(("game", "players", "options"), SETUPS[:-1])
def test_same_seed_same_move(game: str, players: int, options: dict[str, Any]) -> None:
    state, _ = new_state(game, players, 9, **options)
    engine = get_engine(game)
    seat = engine.to_move(state)[0]
    budget = Budget(40, 60.0)
    first = Mcts(engine).search(state, seat, budget, 123)
    again = Mcts(engine).search(state, seat, budget, 123)
    assert first.iterations == again.iterations == 40
    assert [engine.format_move(state, m) for m in first.moves] == [
        engine.format_move(state, m) for m in again.moves
    ]
    assert first.visits == again.visits
    # A level's deliberate mistake is drawn from the seed too (the level's own budget could be
    # cut by the clock on a busy machine, so the search here is bound by iterations).
    lvl = level(2)
    picks = {pick_move(search(game, seat, engine.dumps(state), budget, 77), lvl, 77) for _ in "ab"}
    assert len(picks) == 1


def test_a_hidden_information_game_refuses_the_state() -> None:
    state, resolved = new_state("generation_zero", 2, 1)
    engine = get_engine("generation_zero")
    seat = engine.to_move(state)[0]
    with pytest.raises(ValueError, match="hidden information"):
        choose_move("generation_zero", resolved, seat, state, 1, 1)
    with pytest.raises(ValueError, match="hidden information"):
        choose_move("generation_zero", resolved, seat, engine.dumps(state), 1, 1)
    with pytest.raises(ValueError, match="view"):
        choose_move("generation_zero", resolved, seat, engine.view(state, 1 - seat), 1, 1)


def test_a_seat_not_to_move_is_refused() -> None:
    state, resolved = new_state("generatorb", 2, 1)
    with pytest.raises(ValueError, match="not to move"):
        choose_move("generatorb", resolved, 1, state, 1, 1)


def test_of_several_seats_listed_to_move_only_the_lowest_is_searched_for() -> None:
    """No engine lists two seats today; one that did would have its lowest act first, so a
    search for the other is refused at once rather than finding no move of its own."""

    class BothListed(GeneratorbEngine):
        info = replace(GeneratorbEngine.info, id="both_listed")

        def to_move(self, state: Any) -> tuple[int, ...]:
            acting = super().to_move(state)
            return (0, 1) if acting == (0,) else acting  # seat 0 still acts first

    engine = BothListed()
    state = engine.new_game(2, engine.options_for(engine.resolve_options({}), 2), 1)
    with pytest.raises(ValueError, match="seat 1 is not to move"):
        Mcts(engine).search(state, 1, TINY, 1)
    assert Mcts(engine).search(state, 0, TINY, 1).moves
    watched = Mcts(engine).search(state, 1, TINY, 1, to_move=False)  # as assess watches
    assert 0.0 <= watched.value <= 1.0


def test_a_game_of_more_than_two_without_a_profile_is_refused_clearly() -> None:
    """The default profile counts two seats: Orbs under a new id (no profile) is refused at
    once with what to do, and the same engine under its own id searches."""

    class UnprofiledOrbs(OrbsEngine):
        info = replace(OrbsEngine.info, id="unprofiled_orbs")

    with pytest.raises(NotImplementedError, match="register its GameProfile"):
        Mcts(UnprofiledOrbs())
    with pytest.raises(NotImplementedError, match="register its GameProfile"):
        Mcts(UnprofiledOrbs(), DEFAULT_PROFILE)  # as assess passes it
    assert Mcts(OrbsEngine()).profile is profile_for("orbs")


def test_assess_is_a_probability_and_sees_a_won_game() -> None:
    engine = get_engine("orbs")
    record = play_game(engine, 2, {}, [MctsBot(1), RandomBot()], seed=2, budget=TINY)
    assert record.outcome is not None
    resolved = engine.options_for(engine.resolve_options({}), 2)
    final = [assess("orbs", resolved, s, record.state, 1, TINY) for s in (0, 1)]
    assert final == list(record.rewards)
    state, resolved = new_state("generatorb", 2, 1)
    for seat in (0, 1):  # works whoever is to move
        value = assess("generatorb", resolved, seat, state, 1, Budget(30, 5.0))
        assert 0.0 <= value <= 1.0


def test_an_immediate_win_is_taken() -> None:
    """Generatorb: South's orb can jump onto North's empty core h8 (G24)."""
    engine = get_engine("generatorb")
    resolved = engine.options_for(engine.resolve_options({}), 2)
    state = engine.from_position("S:a1,f6,g7 N:b2,h7 supply:0/0 turn:S ply:10 passes:0", resolved)
    wins = [
        m
        for m in engine.legal_moves(state, 0)
        if (o := engine.outcome(engine.apply(state, 0, m).state)) and o.winners == (0,)
    ]
    assert wins, "test position has no winning move"
    for lvl in (1, 5):
        text = choose_move("generatorb", resolved, 0, state, lvl, 4)
        after = engine.play(state, 0, text)[0]
        outcome = engine.outcome(after)
        assert outcome is not None
        assert outcome.winners == (0,)
