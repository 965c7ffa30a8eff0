"""The search's solver (MCTS-Solver over reward vectors, ``ai/search.py``) on Generatorb.

The positions come from one opening (South a1-c3, North h8-f6, South b1-d5, North g8xa2,
South b1-d5=2): North's orb on a2 threatens South's core a1 (spec generatorb G24). Every claim
of the solver is checked against a brute-force search of the same depth.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ai import choose_move
from ai.bots import RandomBot
from ai.evaluation import profile_for
from ai.levels import LEVELS, pick_move
from ai.search import Budget, Mcts, SearchResult
from tests.ai.helpers import GENERATORB as ENGINE
from tests.ai.helpers import GENERATORB_OPTIONS as RESOLVED
from tests.ai.helpers import SOUTH_IN_TROUBLE
from tests.ai.helpers import generatorb_state as _state
from tests.ai.helpers import wins_at_once as _wins_at_once

#: North to move; g8-a2=2 makes a spheroid on a2 that takes the core next turn, whatever
#: South does.
NORTH_WINS_IN_THREE = (
    "S:a1,b1,b2,c3,d4=3,d5=2 N:a2,e5=3,f6,g7,g8,h7,h8 supply:14/15 turn:N ply:5 passes:0"
)
#: After g8-a2=2: every South move lets North land on a1.
SOUTH_LOST = "S:a1,b1,b2,c3,d4=3,d5=2 N:a2=2,e5=3,f6,g7,g8,h7,h8 supply:14/14 turn:S ply:6 passes:0"
#: Two plies earlier, just after g8xa2, South is in trouble (``SOUTH_IN_TROUBLE``): most of
#: its moves lose within four plies.


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
    for number in (1, 4):
        # The level's iterations and mistakes, without its clock: on a loaded machine level
        # 1's 0.15 s stopped the search before it found the win (the iteration budget must
        # bind for the test to say the same everywhere).
        base = LEVELS[number - 1]
        level = replace(base, budget=replace(base.budget, seconds=60.0))
        text = choose_move("generatorb", RESOLVED, 1, state, level, 7)
        played = ENGINE.play(state, 1, text)[0]
        assert all(
            _wins_at_once(ENGINE.child(played, 0, z), 1) for z in ENGINE.legal_moves(played, 0)
        ), f"level {number} played {text}, which does not force the win"


def test_every_proven_loss_is_a_real_loss() -> None:
    """South to move after g8xa2: the moves the search calls lost lose within four plies.

    With uniform playouts: those spend visits on the losing moves long enough to prove them
    (capture-preferring playouts drop them sooner, see the next test)."""
    state = _state(SOUTH_IN_TROUBLE)
    uniform = replace(profile_for("generatorb"), capture_rate=0.0)
    result = Mcts(ENGINE, uniform).search(state, 0, Budget(4_000, 60.0), 3)
    lost = [m for m, e in zip(result.moves, result.exact, strict=True) if e == 0.0]
    assert lost, "the solver proved nothing here"
    for move in lost:
        assert _lost_within_four_plies(state, move), (
            f"{ENGINE.format_move(state, move)} was called lost"
        )


def _lost_within_four_plies(state: Any, move: Any) -> bool:
    """Whether South's ``move`` lets North win at once, or has a North reply after which
    every South move lets North win at once (brute force)."""
    after = ENGINE.child(state, 0, move)
    return _wins_at_once(after, 1) or any(
        all(_wins_at_once(ENGINE.child(reply, 0, z), 1) for z in ENGINE.legal_moves(reply, 0))
        for reply in (ENGINE.child(after, 1, y) for y in ENGINE.legal_moves(after, 1))
        if ENGINE.outcome(reply) is None
    )


def test_level_2s_budget_avoids_the_moves_lost_within_four_plies() -> None:
    """The same position: 21 of South's 25 moves lose within four plies. With Generatorb's
    capture-preferring playouts 600 iterations (level 2's budget) choose one of the other
    four for every seed tried; with uniform playouts they did not (2026-11-26)."""
    state = _state(SOUTH_IN_TROUBLE)
    moves = ENGINE.legal_moves(state, 0)
    lost = {move for move in moves if _lost_within_four_plies(state, move)}
    assert len(lost) == 21
    for seed in range(4):
        result = Mcts(ENGINE).search(state, 0, Budget(600, 60.0), seed)
        best = max(range(len(result.moves)), key=lambda i: result.visits[i])
        assert result.moves[best] not in lost, ENGINE.format_move(state, result.moves[best])


def _root(visits: list[int], values: list[float], exact: list[float | None]) -> SearchResult:
    """Root statistics of a made-up search over moves ``a``, ``b``, ``c``…"""
    moves = [chr(ord("a") + i) for i in range(len(visits))]
    return SearchResult(moves, visits, values, sum(visits), 0.1, 0.5, None, None, exact=exact)


def test_a_proven_loss_is_not_played_whatever_its_visits() -> None:
    result = _root([900, 50, 40], [0.6, 0.4, 0.45], [0.0, None, None])
    for lvl in LEVELS:
        assert pick_move(result, lvl, 5) in (1, 2)
    everything_lost = _root([10, 30], [0.0, 0.0], [0.0, 0.0])
    assert pick_move(everything_lost, LEVELS[4], 5) == 1  # the most resistant loss


#: North to move, holding four front-line cells: six moves win at once (G24 cannot, G25 can).
NORTH_WINS_SIX_WAYS = (
    "S:a1,a2,a3,b1,b2=2,c4=3,e5,g1,g5,h7=2 N:b7,d4,d5=2,d6,d8,e6,e8=3,f3,g2,g7,g8,h8 "
    "supply:9/7 turn:N ply:69 passes:0"
)


def _winning_moves(state: Any, seat: int) -> set[str]:
    wins = set()
    for move in ENGINE.legal_moves(state, seat):
        outcome = ENGINE.outcome(ENGINE.child(state, seat, move))
        if outcome is not None and outcome.winners == (seat,):
            wins.add(ENGINE.format_move(state, move))
    return wins


def _decisive(state: Any, seat: int) -> set[str]:
    decisive = profile_for("generatorb").decisive
    assert decisive is not None
    moves = ENGINE.legal_moves(state, seat)
    return {ENGINE.format_move(state, moves[i]) for i in decisive(state, seat, moves)}


def test_the_decisive_moves_are_tried_first_and_a_win_is_found_at_once() -> None:
    state = _state(NORTH_WINS_SIX_WAYS)
    assert _decisive(state, 1) == _winning_moves(state, 1)
    assert len(_winning_moves(state, 1)) == 6
    result = Mcts(ENGINE).search(state, 1, Budget(1, 5.0), 0)
    assert result.proven is not None  # the one iteration expanded a winning move


def test_every_move_that_wins_at_once_is_named_decisive() -> None:
    """Random games: the profile's decisive moves include every immediate win (G24, G25)."""
    bot = RandomBot()
    found = 0
    for seed in range(8):
        state = ENGINE.new_game(2, RESOLVED, seed)
        for ply in range(150):
            acting = ENGINE.to_move(state)
            if not acting:
                break
            seat = acting[0]
            wins = _winning_moves(state, seat)
            found += bool(wins)
            assert wins <= _decisive(state, seat), f"seed {seed} ply {ply}"
            state = ENGINE.play(state, seat, bot.choose(ENGINE, RESOLVED, seat, state, ply))[0]
    assert found  # the games did reach positions with an immediate win


def test_with_every_move_solved_the_best_exact_value_is_played() -> None:
    """Teams (Orbs): a win is worth 5/6, a loss 1/6, so neither is 1 or 0."""
    solved = _root([13, 3, 4], [0.3, 0.8, 0.2], [1 / 6, 5 / 6, 1 / 6])
    assert pick_move(solved, LEVELS[4], 1) == 1
    partly = _root([13, 3, 4], [0.3, 0.8, 0.6], [1 / 6, 5 / 6, None])
    assert pick_move(partly, LEVELS[4], 1) in (1, 2)  # never the move proven worse
