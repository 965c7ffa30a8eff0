"""Implicit minimax backups in the closed-loop search (``ai/search.py``, ``Mcts(minimax=w)``).

Each node keeps the evaluation of its state when added, and above it the value of the child
best for its actor (at a chance node, the probability-weighted mean of the outcomes drawn so
far); selection blends it with the mean reward. These tests check that invariant over whole
trees grown in Orbs (a leaf evaluated at once), Generatorb (a leaf scored by a playout, so
evaluated apart) and Generator (a die: chance nodes), and that a weight of 0 keeps none.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from ai.evaluation import profile_for
from ai.search import ROOT_MOVER, Budget, Mcts, Node, _minimax_of
from engines import get_engine
from engines.base import CHANCE
from tests.ai.helpers import new_state


def _grow(game: str, players: int, weight: float, iterations: int, seed: int) -> Node:
    """A tree of ``iterations`` closed-loop iterations from a position a few random plies
    into a seeded game (the search's own loop, so the tree can be read)."""
    engine = get_engine(game)
    state, _ = new_state(game, players, seed)
    rng = random.Random(seed)
    for _ in range(6):
        acting = engine.to_move(state)
        if acting == (CHANCE,):
            state = engine.apply_chance(state, engine.sample_chance(state)).state
            continue
        seat = min(acting)
        moves = engine.legal_moves(state, seat)
        state = engine.apply(state, seat, moves[int(rng.random() * len(moves))]).state
    while engine.to_move(state) == (CHANCE,):
        state = engine.apply_chance(state, engine.sample_chance(state)).state
    mcts = Mcts(engine, minimax=weight)
    mcts._win, mcts._loss = mcts._win_and_loss(state, players)
    root = Node(ROOT_MOVER, None, state)
    mcts._prepare(root, players)
    for _ in range(iterations):
        mcts._iterate_closed(root, players, rng)
        if root.solved is not None:
            break
    return root


def _nodes(root: Node) -> list[Node]:
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(node.children.values())
    return found


@pytest.mark.parametrize(
    ("game", "players"), [("orbs", 2), ("orbs", 3), ("generatorb", 2), ("generator", 2)]
)
def test_every_node_keeps_its_best_childs_value_and_every_leaf_its_evaluation(
    game: str, players: int
) -> None:
    root = _grow(game, players, 0.4, 600, seed=11)
    evaluate = profile_for(game).evaluate
    assert evaluate is not None
    leaves = inner = chances = 0
    for node in _nodes(root):
        if node.solved is not None:
            # A win found while settling a new node is added beside the path, unvalued.
            assert node.minimax in (None, node.solved)
            continue
        assert node.minimax is not None, "a node of the tree has no minimax value"
        if not node.children:
            leaves += 1
            assert node.minimax == pytest.approx(evaluate(node.state))
        else:
            inner += 1
            chances += node.chance is not None
            assert node.minimax == _minimax_of(node)
            if node.chance is None:
                best = max(c.minimax[node.actor] for c in node.children.values() if c.minimax)
                assert node.minimax[node.actor] == best
    assert leaves > 100
    assert inner > 5
    if game == "generator":
        assert chances > 0, "no die roll in the tree: the chance rule went untested"


def test_a_chance_node_weighs_the_outcomes_drawn_by_their_probabilities() -> None:
    node = Node(ROOT_MOVER, None, None)
    node.chance = ([0.5, 0.75, 1.0], ["a", "b", "c"])
    for text, value in (("a", (1.0, 0.0)), ("c", (0.0, 1.0))):
        child = Node(CHANCE, text, None)
        child.minimax = value
        node.children[text] = child
    # "b" (a quarter) is not drawn yet: "a" counts 0.5 / 0.75, "c" 0.25 / 0.75.
    assert _minimax_of(node) == pytest.approx((2 / 3, 1 / 3))
    node.children["b"] = Node(CHANCE, "b", None)  # drawn, but not valued yet
    assert _minimax_of(node) == pytest.approx((2 / 3, 1 / 3))


def test_a_decision_node_takes_the_vector_best_for_its_actor_the_first_of_equals() -> None:
    node = Node(ROOT_MOVER, None, None)
    node.actor = 1
    values: list[Any] = [(0.9, 0.2), (0.1, 0.7), (0.4, 0.7), None]
    for index, value in enumerate(values):
        child = Node(1, index, None)
        child.minimax = value
        node.children[index] = child
    assert _minimax_of(node) == (0.1, 0.7)
    assert _minimax_of(Node(ROOT_MOVER, None, None)) is None


def test_without_a_weight_the_search_keeps_no_minimax_values() -> None:
    root = _grow("orbs", 2, 0.0, 300, seed=3)
    assert all(node.minimax is None for node in _nodes(root))


def test_the_weight_must_be_between_0_and_1() -> None:
    engine = get_engine("orbs")
    for weight in (-0.1, 1.5):
        with pytest.raises(ValueError, match="between 0 and 1"):
            Mcts(engine, minimax=weight)


def test_the_same_seed_and_iterations_give_the_same_search_with_the_backups() -> None:
    engine = get_engine("orbs")
    state, _ = new_state("orbs", 2, 5)
    first, second = (
        Mcts(engine, minimax=0.4).search(state, 0, Budget(400, 60.0), 9) for _ in range(2)
    )
    assert first.visits == second.visits
    assert first.values == second.values
