"""The search's solver (MCTS-Solver over reward vectors, ``ai/search.py``) on Generatorb.

The positions come from one opening (South a1-c3, North h8-f6, South b1-d5, North g8xa2,
South b1-d5=2): North's orb on a2 threatens South's core a1 (spec generatorb G24). Every claim
of the solver is checked against a brute-force search of the same depth.
"""

from __future__ import annotations

from typing import Any

from ai import choose_move
from ai.levels import LEVELS, pick_move
from ai.search import Budget, Mcts, SearchResult
from engines import get_engine

ENGINE = get_engine("generatorb")
RESOLVED = ENGINE.options_for(ENGINE.resolve_options({}), 2)
#: North to move; g8-a2=2 makes a spheroid on a2 that takes the core next turn, whatever
#: South does.
NORTH_WINS_IN_THREE = (
    "S:a1,b1,b2,c3,d4=3,d5=2 N:a2,e5=3,f6,g7,g8,h7,h8 supply:14/15 turn:N ply:5 passes:0"
)
#: After g8-a2=2: every South move lets North land on a1.
SOUTH_LOST = "S:a1,b1,b2,c3,d4=3,d5=2 N:a2=2,e5=3,f6,g7,g8,h7,h8 supply:14/14 turn:S ply:6 passes:0"
#: Two plies earlier, just after g8xa2: most South moves lose within four plies.
SOUTH_IN_TROUBLE = (
    "S:a1,b1,b2,c3,d4=3,d5 N:a2,e5=3,f6,g7,g8,h7,h8 supply:15/15 turn:S ply:4 passes:0"
)


def _state(position: str) -> Any:
    return ENGINE.from_position(position, RESOLVED)


def _wins_at_once(state: Any, seat: int) -> bool:
    for move in ENGINE.legal_moves(state, seat):
        outcome = ENGINE.outcome(ENGINE.child(state, seat, move))
        if outcome is not None and outcome.winners == (seat,):
            return True
    return False


def test_a_lost_position_is_proven_move_by_move_and_the_search_stops() -> None:
    state = _state(SOUTH_LOST)
    moves = ENGINE.legal_moves(state, 0)
    assert all(_wins_at_once(ENGINE.child(state, 0, m), 1) for m in moves), "position changed"
    result = Mcts(ENGINE).search(state, 0, Budget(5_000, 60.0), 1)
    assert result.exact == [0.0] * len(moves)
    assert result.value == 0.0
    assert result.iterations == len(moves)  # one visit refutes each move, then it stops


def test_a_forced_win_three_plies_deep_is_proven_and_played() -> None:
    state = _state(NORTH_WINS_IN_THREE)
    result = Mcts(ENGINE).search(state, 1, Budget(20_000, 60.0), 3)
    assert result.proven is not None
    assert result.value == 1.0
    move = result.moves[result.proven]
    after = ENGINE.child(state, 1, move)
    replies = ENGINE.legal_moves(after, 0)
    assert replies
    assert all(_wins_at_once(ENGINE.child(after, 0, z), 1) for z in replies)
    for level in (1, 4):
        text = choose_move("generatorb", RESOLVED, 1, state, level, 7)
        played = ENGINE.play(state, 1, text)[0]
        assert all(
            _wins_at_once(ENGINE.child(played, 0, z), 1) for z in ENGINE.legal_moves(played, 0)
        ), f"level {level} played {text}, which does not force the win"


def test_every_proven_loss_is_a_real_loss() -> None:
    """South to move after g8xa2: the moves the search calls lost lose within four plies."""
    state = _state(SOUTH_IN_TROUBLE)
    result = Mcts(ENGINE).search(state, 0, Budget(4_000, 60.0), 3)
    lost = [m for m, e in zip(result.moves, result.exact, strict=True) if e == 0.0]
    assert lost, "the solver proved nothing here"
    for move in lost:
        after = ENGINE.child(state, 0, move)
        refuted = _wins_at_once(after, 1) or any(
            all(_wins_at_once(ENGINE.child(reply, 0, z), 1) for z in ENGINE.legal_moves(reply, 0))
            for reply in (ENGINE.child(after, 1, y) for y in ENGINE.legal_moves(after, 1))
            if ENGINE.outcome(reply) is None
        )
        assert refuted, f"{ENGINE.format_move(state, move)} was called lost"


def test_a_proven_loss_is_not_played_whatever_its_visits() -> None:
    result = SearchResult(
        moves=["a", "b", "c"],
        visits=[900, 50, 40],
        values=[0.6, 0.4, 0.45],
        iterations=990,
        seconds=0.1,
        value=0.5,
        proven=None,
        state=None,
        exact=[0.0, None, None],
    )
    for lvl in LEVELS:
        assert pick_move(result, lvl, 5) in (1, 2)
    everything_lost = SearchResult(
        ["a", "b"], [10, 30], [0.0, 0.0], 40, 0.1, 0.0, None, None, exact=[0.0, 0.0]
    )
    assert pick_move(everything_lost, LEVELS[4], 5) == 1  # the most resistant loss
