"""The per-game evaluations (ai.evaluation): what they reward, on hand-made positions."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from ai import Budget, Mcts, assess, choose_move
from ai.evaluation import (
    _arbos_value,
    _generator_progress,
    _generatorb_values,
    _gz_values,
    _orbs_distances,
    profile_for,
)
from ai.search import EXPLORATION
from engines import arbos, get_engine
from engines.generator_board import LARGE, MEDIUM, SMALL
from engines.geometry import gryb
from engines.geometry.hexstar import INDEX
from engines.orbs import read_position
from tests.ai.helpers import new_state


def test_generatorb_values_a_spheroid_and_a_globe_above_their_orbs() -> None:
    """An orb is worth 1, a spheroid 2.5 and a globe 3.5 (spec generatorb G3; the values won
    61% of 232 games against 1, 2 and 3 at an equal budget, docs/ai-runs.md); the other
    seat's value does not move, and an orb in supply is worth 1."""
    engine = get_engine("generatorb")
    resolved = engine.options_for(engine.resolve_options({}), 2)

    def values(position: str) -> tuple[float, float]:
        return _generatorb_values(engine.from_position(position, resolved))

    orb, spheroid, globe = (
        values(f"S:a1,b2,c3{height} N:h8,g7 supply:10/10 turn:S ply:4 passes:0")
        for height in ("", "=2", "=3")
    )
    assert spheroid[0] - orb[0] == pytest.approx(1.5)
    assert globe[0] - spheroid[0] == pytest.approx(1.0)
    assert orb[1] == spheroid[1] == globe[1]
    more_supply = values("S:a1,b2,c3 N:h8,g7 supply:11/10 turn:S ply:4 passes:0")
    assert more_supply[0] - orb[0] == pytest.approx(1.0)


def test_orbs_distances_follow_the_star() -> None:
    state, _ = new_state("orbs", 2, 1)
    distances = _orbs_distances(state.rules.adjacent)
    assert distances[INDEX["I5"]][INDEX["I6"]] == 1
    assert distances[INDEX["A1"]][INDEX["B2"]] == 1
    assert distances[INDEX["A1"]][INDEX["Q1"]] == 16


def test_orbs_rewards_walking_toward_a_victim() -> None:
    """Far from any capture, the evaluation prefers the Fire that stands nearer enemy Air."""
    rules = new_state("orbs", 2, 1)[0].rules
    evaluate = profile_for("orbs").evaluate
    assert evaluate is not None
    far = read_position("E5:F/Q1:A 0 0", rules)
    near = read_position("I5:F/Q1:A 0 0", rules)
    assert evaluate(near)[0] > evaluate(far)[0]
    assert all(0.0 <= r <= 1.0 for r in evaluate(near))


def test_orbs_level_one_takes_a_capture_it_can_afford() -> None:
    """Fire next to a lone enemy Air burns it and wins the game at once."""
    engine = get_engine("orbs")
    rules = new_state("orbs", 2, 1)[0].rules
    state = read_position("I5:F/I6:A 0 0", rules)
    move = choose_move("orbs", {}, 0, engine.dumps(state), 1, 3)
    assert engine.parse_move(state, 0, move) == (INDEX["I5"], INDEX["I6"])


def test_orbs_teammates_share_the_evaluation() -> None:
    state, _ = new_state("orbs", 4, 2, teams="02-13")
    evaluate = profile_for("orbs").evaluate
    assert evaluate is not None
    rewards = evaluate(state)
    assert rewards[0] == pytest.approx(rewards[2])
    assert rewards[1] == pytest.approx(rewards[3])


def _node(name: str) -> int:
    return gryb.NAMES.index(name)


def test_generator_progress_counts_a_power_coupling_as_three() -> None:
    red = 1  # GEN-13's example: S on GYBR, M on YBR, L on BR
    board = [0] * gryb.NODE_COUNT
    nodes = (_node("GYBR"), _node("YBR"), _node("BR"))
    for node, size in zip(nodes, (SMALL, MEDIUM, LARGE), strict=True):
        board[node] = red * 8 + size
    assert _generator_progress(tuple(board), tuple(sorted(nodes)), red) == pytest.approx(3.0)
    # The same pieces in the home branch count for nothing.
    home = (_node("RGYR"), _node("RBR"), _node("RR"))
    board = [0] * gryb.NODE_COUNT
    for node, size in zip(home, (SMALL, MEDIUM, LARGE), strict=True):
        board[node] = red * 8 + size
    assert _generator_progress(tuple(board), tuple(sorted(home)), red) == 0.0


def _progress_of(colour: int, pieces: dict[str, int]) -> float:
    board = [0] * gryb.NODE_COUNT
    for name, size in pieces.items():
        board[_node(name)] = colour * 8 + size
    nodes = tuple(sorted(_node(name) for name in pieces))
    return _generator_progress(tuple(board), nodes, colour)


def test_generator_credit_counts_moves_left_not_levels() -> None:
    """A part on its level but on the wrong colour needs one roll of the seat's colour, as
    does the same part one level up (a move down onto the child of that colour, GEN-7), so
    both get the same credit; one more level up gets less, and a part in place the most."""
    red = 1
    # Small: on GYBR it is in place; GYBG (wrong colour, level 4) and GYB (level 3) are one
    # move away, GY two, G three.
    in_place = _progress_of(red, {"GYBR": SMALL})
    wrong_colour = _progress_of(red, {"GYBG": SMALL})
    one_up = _progress_of(red, {"GYB": SMALL})
    two_up = _progress_of(red, {"GY": SMALL})
    three_up = _progress_of(red, {"G": SMALL})
    assert in_place == pytest.approx(1.0)
    assert wrong_colour == pytest.approx(one_up)
    assert in_place > one_up > two_up > three_up > 0.0
    # Large: level 1 outside the home branch is one move from BR, like BG.
    assert _progress_of(red, {"B": LARGE}) == pytest.approx(_progress_of(red, {"BG": LARGE}))
    # Medium: on level 2 it is one move from level 3.
    assert _progress_of(red, {"YB": MEDIUM}) == pytest.approx(_progress_of(red, {"YBG": MEDIUM}))
    # The start node and the home branch count for nothing.
    assert _progress_of(red, {"R": LARGE, "RG": MEDIUM}) == 0.0


def test_a_profile_sets_the_exploration_constant() -> None:
    engine = get_engine("generator")
    assert Mcts(engine).exploration == profile_for("generator").exploration
    assert Mcts(engine, exploration=0.5).exploration == 0.5
    assert Mcts(get_engine("arbos")).exploration == EXPLORATION


def test_orbs_assess_calls_the_opening_even() -> None:
    """The search's Orbs evaluation is one-sided (optimistic for every seat); ``assess`` uses
    a symmetric one, so the symmetric opening is worth about ½ to either seat."""
    engine = get_engine("orbs")
    state, options = new_state("orbs", 2, 4)
    text = engine.dumps(state)
    for seat in (0, 1):
        value = assess("orbs", options, seat, text, 5, Budget(300, 5.0))
        assert 0.4 < value < 0.6


# ---- Generation Zero (spec generation_zero R7, R9, R12) --------------------------------------


def _gz_state(chars: dict[str, Any], canons: dict[str, Any] | None = None, **options: Any) -> Any:
    """A hand-made two-player position on the atlas map (spec 2.3), automatic steps run."""
    engine = get_engine("generation_zero")
    resolved = engine.options_for(engine.resolve_options(options), 2)
    position = {
        "chars": chars,
        "canons": canons or {},
        "players": 2,
        "set": "gz-lotr",
        "version": 1,
    }
    return engine.from_position(json.dumps(position), resolved)


#: Seat 0's 'Sue (Allure 4) on the Shyre (L6); seat 1's Raven on Lothlorient (L11), whom
#: seat 0's Inkwell does not outfight (she deals 3 of his 5 Health a thrust, he 2 of her 5).
_GZ_SUES = {
    "S1": {"at": "the_shyre", "card": "glitterwen", "seat": 0},
    "S2": {"at": "lothlorient", "card": "raven", "seat": 1},
    "A1": {"at": "rivendull", "card": "inkwell", "seat": 0},
}


def test_generation_zero_values_a_canon_in_reach() -> None:
    """R7.1/R7.3: a loose Canon whose Speed reaches the 'Sue (Gimbly, Speed 1, on Bree next
    to the Shyre) is worth more than one far off (Caradrama), and less than one held."""
    near = _gz_state(_GZ_SUES, {"C1": {"at": "bree", "card": "gimbly"}})
    far = _gz_state(_GZ_SUES, {"C1": {"at": "caradrama", "card": "gimbly"}})
    held_chars = {**_GZ_SUES, "S1": {**_GZ_SUES["S1"], "canons": ["C1"]}}
    held = _gz_state(held_chars, {"C1": {"at": "", "card": "gimbly"}})
    none = _gz_state(_GZ_SUES)
    values = [_gz_values(state)[0] - _gz_values(none)[0] for state in (far, near, held)]
    assert 0.0 < values[0] < values[1] < values[2]
    assert values[1] == pytest.approx(0.5)  # in reach: half a Canon point
    assert values[2] == pytest.approx(1.0)  # held: one point of R12.1
    # Seat 1's Raven is further from both Canons; her prospects do not depend on seat 0's.
    assert _gz_values(near)[1] < _gz_values(near)[0]


def test_generation_zero_canon_prospects_follow_the_options() -> None:
    """With ``canon_points=0`` (the purist preset) a Canon in reach is worth nothing."""
    canons = {"C1": {"at": "bree", "card": "gimbly"}}
    with_canon = _gz_state(_GZ_SUES, canons, canon_points=0)
    without = _gz_state(_GZ_SUES, canon_points=0)
    assert _gz_values(with_canon) == _gz_values(without)


def test_generation_zero_values_an_agent_near_a_sue_it_outfights() -> None:
    """R9.1/R9.5: Inkwell (Attack 4, 5 Health) outfights Faelinn (Defence 3, Attack 3,
    4 Health): next to her (Moaria, within his Speed 3) he is worth more to his seat than
    far off (Helm's Shallow). Kay-Seven (Attack 3) cannot hurt her, so he earns nothing."""

    def values(card: str, at: str) -> list[float]:
        chars = {
            "S1": {"at": "the_shyre", "card": "glitterwen", "seat": 0},
            "S2": {"at": "lothlorient", "card": "faelinn", "seat": 1},
            "A1": {"at": at, "card": card, "seat": 0},
        }
        return _gz_values(_gz_state(chars))

    near, far = values("inkwell", "moaria"), values("inkwell", "helms_shallow")
    assert near[0] > far[0]
    assert near[1] == pytest.approx(far[1])
    # In reach: 0.15 of the 2 kill points she is worth (0.3); far: 5 steps, 2 beyond his
    # Speed, so 2/6 less.
    assert near[0] - far[0] == pytest.approx(0.3 * 2 / 6)
    assert values("kay_seven", "moaria") == pytest.approx(values("kay_seven", "helms_shallow"))


def test_generation_zero_evaluation_is_a_reward_vector() -> None:
    """Rewards in [0, 1] that sum to 1 for two seats; the leaf is evaluated at once."""
    profile = profile_for("generation_zero")
    assert profile.playout_plies == 0
    assert profile.evaluate is not None
    state = _gz_state(_GZ_SUES, {"C1": {"at": "bree", "card": "gimbly"}})
    rewards = profile.evaluate(state)
    assert len(rewards) == 2
    assert all(0.0 <= r <= 1.0 for r in rewards)
    assert sum(rewards) == pytest.approx(1.0)
    assert rewards[0] > 0.5  # seat 0's 'Sue has a Canon in reach


# ---- Arbos -----------------------------------------------------------------------------------


def _arbos_board(rows: dict[str, str]) -> arbos.ArbosState:
    """A play-phase Arbos position with ``rows`` (row letter -> row text, A20 notation); the
    other rows empty."""
    board = "/".join(rows.get(letter, "20") for letter in "ABCDEFGHIJKLMNOPQRST")
    return arbos.parse_position(
        f"{board} phase:play turn:W setup:0/0 hands:0/0 supply:70/70 passes:0 prune:0",
        "random",
    )


def _white_value(state: arbos.ArbosState) -> float:
    seeds = [cell for cell in arbos.CELLS if state.board[cell] == arbos.SEED]
    return _arbos_value(seeds, arbos.trees_of(state.board, arbos.WHITE))


@pytest.mark.parametrize(
    ("row", "credit"),
    [
        ("wg18", 1.0),
        ("w1g17", 0.5),
        ("w2g16", 0.2),
        ("w3g15", 0.1),
        ("w4g14", 0.05),
        ("w5g13", 0.0),
    ],
)
def test_arbos_credits_a_seed_by_its_distance_from_a_tree(row: str, credit: float) -> None:
    """A seed touching the tree scores (A20: 1); one to four spores away it is worth ½, ⅕,
    1/10 and 1/20 of a seed; further away nothing."""
    assert _white_value(_arbos_board({"E": row})) == pytest.approx(credit)


def test_arbos_value_counts_the_best_two_trees_and_each_seed_once() -> None:
    """Three trees: the value is the best pair's, and a seed next to both trees of the pair
    counts once, at its best credit (A20's distinct seeds)."""
    state = _arbos_board(
        {
            "A": "wgw17",  # two trees share the seed A2
            "J": "w1g17",  # a third tree, half a seed
        }
    )
    assert arbos.trees_of(state.board, arbos.WHITE).total == 3
    assert _white_value(state) == pytest.approx(1.0 + 0.5)


def test_arbos_value_is_the_a20_score_plus_reach() -> None:
    """On positions from random play, the value is never below the A20 score and exceeds it
    by at most ½ a seed for each seed not yet linked."""
    engine = get_engine("arbos")
    for seed in range(6):
        state, _ = new_state("arbos", 2, seed)
        rng = random.Random(seed)
        for _ in range(40 + 20 * seed):
            acting = engine.to_move(state)
            if not acting:
                break
            if acting[0] < 0:
                state = engine.apply_chance(state, engine.sample_chance(state)).state
                continue
            moves = engine.legal_moves(state, acting[0])
            state = engine.apply(state, acting[0], rng.choice(moves)).state
        board = state.board
        seeds = [cell for cell in arbos.CELLS if board[cell] == arbos.SEED]
        for colour in (arbos.WHITE, arbos.BLACK):
            trees = arbos.trees_of(board, colour)
            score = arbos.score_of(board, trees)[0]
            value = _arbos_value(seeds, trees)
            assert score <= value <= score + 0.5 * (len(seeds) - score) + 1e-9


def test_arbos_evaluation_prefers_growing_toward_a_seed() -> None:
    """The same spore count, one tree a spore nearer the seed: the evaluation prefers it, so
    the search grows trees toward seeds before any seed is linked."""
    evaluate = profile_for("arbos").evaluate
    assert evaluate is not None
    far = _arbos_board({"E": "ww3g14", "P": "10b9"})
    near = _arbos_board({"E": "2ww1g14", "P": "10b9"})
    assert evaluate(near)[0] > evaluate(far)[0]


def test_arbos_evaluation_sees_a_seed_four_spores_away() -> None:
    """A side whose trees have linked every seed within two spores still has a way forward:
    the tree one spore nearer a seed three or four spores away is worth more (with a reach of
    two spores both were worth the same, and the search played its spores anywhere)."""
    evaluate = profile_for("arbos").evaluate
    assert evaluate is not None
    far = _arbos_board({"E": "ww4g13", "P": "10b9"})  # E2 to the seed E7: five cells
    near = _arbos_board({"E": "1ww3g13", "P": "10b9"})  # E3 to E7: four
    assert evaluate(near)[0] > evaluate(far)[0]
