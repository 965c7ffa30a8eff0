"""``Engine.timeout_moves``: what the bot plays for a seat whose time ran out.

Arbos follows its spec's section 5 (turn timer, D-A13) branch by branch, including the
auto-prune's order; Generation Zero plays its spec 8.4 default for the one decision that timed
out; the other games leave it to the platform (``None``). A contract check over the whole
registry plays the returned moves in random playouts: they must be legal, in order.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engines import ENGINES
from engines.arbos import ArbosEngine, ArbosState, auto_prune
from engines.base import CHANCE, Engine, IllegalMoveError
from engines.generation_zero import GenerationZeroEngine, default_decision
from engines.rng import Rng
from tests.engines.test_arbos import board_with, load, pos

ARBOS = ArbosEngine()
GZ = GenerationZeroEngine()


def play_all(engine: Engine[Any, Any], state: Any, seat: int, texts: list[str]) -> Any:
    """Play ``texts`` for ``seat`` in order (each must be legal), then the chance nodes."""
    for text in texts:
        state, canonical, _ = engine.play(state, seat, text)
        assert canonical == text
        while engine.to_move(state) == (CHANCE,):
            state = engine.apply_chance(state, engine.sample_chance(state)).state
    return state


# ---- Arbos, section 5 --------------------------------------------------------------------


def manual_setup() -> ArbosState:
    state = ARBOS.new_game(2, ARBOS.resolve_options({"setup_mode": "manual"}), 3)
    return ARBOS.play(state, 0, "seed K10")[0]  # one seed down: spacing matters now


def test_arbos_manual_setup_places_a_random_legal_setup_seed() -> None:
    state = manual_setup()
    assert ARBOS.to_move(state) == (1,)
    legal = set(ARBOS.legal_move_texts(state, 1))
    picks: Counter[str] = Counter()
    for seed in range(60):
        moves = ARBOS.timeout_moves(state, 1, Rng(seed))
        assert moves is not None
        assert len(moves) == 1
        assert moves[0] in legal
        assert moves[0].startswith("seed ")
        picks[moves[0]] += 1
    # Uniform over hundreds of cells: sixty draws land on many different ones.
    assert len(picks) > 40
    after = play_all(ARBOS, state, 1, ARBOS.timeout_moves(state, 1, Rng(0)) or [])
    assert ARBOS.to_move(after) == (0,)


def test_arbos_timeout_moves_depend_only_on_the_generator() -> None:
    state = manual_setup()
    assert ARBOS.timeout_moves(state, 1, Rng(7, 3)) == ARBOS.timeout_moves(state, 1, Rng(7, 3))


def test_arbos_opening_places_a_random_legal_spore() -> None:
    state = load(pos(board_with(A1="g", K10="g"), phase="opening"))
    legal = set(ARBOS.legal_move_texts(state, 0))
    picks: set[str] = set()
    for seed in range(40):
        moves = ARBOS.timeout_moves(state, 0, Rng(seed))
        assert moves is not None
        (move,) = moves
        assert move in legal
        assert not move.startswith(("double", "seed", "pass"))  # a bare cell: one spore
        picks.add(move)
    assert len(picks) > 30
    after = play_all(ARBOS, state, 0, ARBOS.timeout_moves(state, 0, Rng(1)) or [])
    assert after.phase == "play"
    assert ARBOS.to_move(after) == (1,)


def five_black_trees(**extra: str) -> ArbosState:
    """Black to move with 5 trees, so 2 must be pruned. By the auto-prune's order:
    K1 (1 spore, no seed), T20 (1 spore, no seed, later first cell), A1 (1 spore, linked to
    the seed on A2), E5–E6 (2 spores), M5–M7 (3 spores)."""
    cells = {"A1": "b", "A2": "g", "K1": "b", "T20": "b", "E5": "b", "E6": "b"}
    cells.update({"M5": "b", "M6": "b", "M7": "b", "C10": "w", **extra})
    return load(pos(board_with(**cells), turn="B", supply="79/72", prune="2"))


def test_arbos_prune_due_auto_prunes_the_weakest_trees_then_passes() -> None:
    state = five_black_trees()
    moves = ARBOS.timeout_moves(state, 1, Rng(0))
    # Fewest spores first; among those, fewest linked seeds (A1 has one); then reading order.
    assert moves == ["prune K1 T20", "pass"]
    after = play_all(ARBOS, state, 1, moves)
    assert after.prune == 0
    assert after.passes == 1
    assert after.supply == (79, 74)
    assert ARBOS.to_move(after) == (0,)


def test_arbos_auto_prune_prefers_fewer_spores_over_fewer_seeds() -> None:
    # A seed beside T20 too: the three single spores now tie on size, K1 alone has no seed.
    state = five_black_trees(S20="g")
    assert auto_prune(state, 1) == ARBOS.parse_move(state, 1, "prune A1 K1")
    # With a seed beside K1 as well, reading order decides between the three singles.
    state = five_black_trees(S20="g", J1="g")
    assert ARBOS.format_move(state, auto_prune(state, 1)) == "prune A1 K1"


def test_arbos_auto_prune_needs_a_due_prune() -> None:
    state = load(pos(board_with(A1="b", C3="w"), supply="79/79"))
    with pytest.raises(IllegalMoveError, match="no prune is due"):
        auto_prune(state, 1)


def test_arbos_otherwise_passes() -> None:
    state = load(pos(board_with(A1="b", C3="w", K8="g"), turn="B", supply="79/79"))
    assert ARBOS.timeout_moves(state, 1, Rng(0)) == ["pass"]
    assert ARBOS.timeout_moves(state, 0, Rng(0)) == []  # not White's turn


# ---- Generation Zero, spec 8.4 ---------------------------------------------------------------


def test_generation_zero_plays_the_default_of_one_decision() -> None:
    state = GZ.new_game(2, GZ.resolve_options({}), 5)
    for _ in range(30):
        seats = GZ.to_move(state)
        if not seats:
            break
        (seat,) = seats
        moves = GZ.timeout_moves(state, seat, Rng(0))
        assert moves == [default_decision(GZ, state)]
        assert GZ.timeout_moves(state, 1 - seat, Rng(0)) == []
        state = play_all(GZ, state, seat, moves)


# ---- every engine ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["generator", "generatorb", "orbs"])
def test_games_without_a_timeout_rule_leave_it_to_the_platform(game: str) -> None:
    engine = ENGINES[game]
    state = engine.new_game(engine.info.default_players, engine.resolve_options({}), 1)
    while engine.to_move(state) == (CHANCE,):
        state = engine.apply_chance(state, engine.sample_chance(state)).state
    (seat,) = engine.to_move(state)
    assert engine.timeout_moves(state, seat, Rng(0)) is None


#: Options that reach every branch of a game's timeout rule in a playout (Arbos: a manual
#: setup, and seeds in hand, whose replaces can force a prune).
PLAYOUT_OPTIONS = {"arbos": {"setup_mode": "manual", "seeds_per_player": "7"}}


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_timeout_moves_are_legal_in_order_in_random_playouts(game: str) -> None:
    engine = ENGINES[game]
    options = engine.resolve_options(PLAYOUT_OPTIONS.get(game, {}))
    rng = Rng(len(game), 11)
    for seed in range(2):
        state = engine.new_game(engine.info.default_players, options, seed)
        for ply in range(150):
            while engine.to_move(state) == (CHANCE,):
                state = engine.apply_chance(state, engine.sample_chance(state)).state
            seats = engine.to_move(state)
            if not seats:
                break
            seat = seats[0]
            moves = engine.timeout_moves(state, seat, Rng(seed, ply))
            if moves is not None and ply % 4 == 0:
                assert moves, f"{game}: no move for a seat to move"
                state = play_all(engine, state, seat, moves)
                continue
            texts = engine.few_legal_moves(state, seat, 200) or engine.legal_move_texts(state, seat)
            # Passing ends some games at once (Arbos: two in a row); play on when possible.
            texts = sorted(t for t in texts if t != "pass") or ["pass"]
            state = engine.play(state, seat, rng.choice(texts))[0]
