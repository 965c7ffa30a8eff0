"""The strongest level's blunder check (``ai/tactics.py``) on Generatorb.

Every loss the check claims is confirmed by a brute-force search over all moves (not only
the profile's decisive ones), in two hand-picked positions and along random games.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

import ai.levels as levels_module
from ai import choose_move, tactics
from ai.evaluation import profile_for
from ai.levels import LEVELS, Level, level, play_index, suggest
from ai.search import Budget, Mcts, SearchResult
from ai.tactics import applies, loses_in_three, safe_choice, unrefuted
from engines import get_engine
from tests.ai.helpers import GENERATORB as ENGINE
from tests.ai.helpers import GENERATORB_OPTIONS as RESOLVED
from tests.ai.helpers import SOUTH_IN_TROUBLE, new_state
from tests.ai.helpers import generatorb_state as _state
from tests.ai.helpers import wins_at_once as _wins_at_once

PROFILE = profile_for("generatorb")

#: South to move, from a game level 5 lost in 10 plies (bench seed 40000): North's spheroid
#: on d3 takes c3 and then lands on the core a1 whatever South does, unless South moves
#: b1-b3=2 or c3-a1=2 now. Level 5 played d4-g1.
SOUTH_TO_GUARD = (
    "S:a1,a2,b1,b2,b3,c3,d4=3,e4 N:d3=2,e5=3,g6,g7,g8,h7,h8 supply:14/14 turn:S ply:6 passes:0"
)
#: South's two moves there that do not lose within three plies.
GUARDS = {"b1-b3=2", "c3-a1=2"}


def _reply_forces_win(state: Any, seat: int, move: Any, reply: Any) -> bool:
    """Brute force: after ``seat``'s ``move`` and the opponent's ``reply`` the opponent has
    won, or wins at once after every answer of ``seat``."""
    after = ENGINE.child(ENGINE.child(state, seat, move), 1 - seat, reply)
    outcome = ENGINE.outcome(after)
    if outcome is not None:
        return outcome.winners == (1 - seat,)
    return all(
        _wins_at_once(ENGINE.child(after, seat, answer), 1 - seat)
        for answer in ENGINE.legal_moves(after, seat)
    )


def _lost_in_three(state: Any, seat: int, move: Any) -> bool:
    """Brute force over every reply: ``move`` loses within three more plies."""
    after = ENGINE.child(state, seat, move)
    if ENGINE.outcome(after) is not None:
        return False
    return any(
        _reply_forces_win(state, seat, move, reply) for reply in ENGINE.legal_moves(after, 1 - seat)
    )


def test_it_finds_exactly_the_moves_brute_force_finds() -> None:
    for position, lost_count in ((SOUTH_TO_GUARD, 32), (SOUTH_IN_TROUBLE, 21)):
        state = _state(position)
        moves = ENGINE.legal_moves(state, 0)
        claimed = {m for m in moves if loses_in_three(ENGINE, PROFILE, state, 0, m) is not None}
        truth = {m for m in moves if _lost_in_three(state, 0, m)}
        assert claimed == truth
        assert len(truth) == lost_count
    guard = _state(SOUTH_TO_GUARD)
    reply = loses_in_three(ENGINE, PROFILE, guard, 0, ENGINE.parse_move(guard, 0, "d4-g1"))
    assert reply is not None
    assert ENGINE.format_move(ENGINE.play(guard, 0, "d4-g1")[0], reply) == "d3xc3"
    for safe in GUARDS:
        assert loses_in_three(ENGINE, PROFILE, guard, 0, ENGINE.parse_move(guard, 0, safe)) is None


def test_every_claim_along_random_games_is_a_real_loss() -> None:
    """Random games, every eighth position, eight moves drawn at random (to keep it short):
    each refutation the check names is a real one."""
    claims = 0
    for seed in range(3):
        state = ENGINE.new_game(2, RESOLVED, seed)
        rng = random.Random(seed)
        for ply in range(48):
            acting = ENGINE.to_move(state)
            if not acting:
                break
            seat = acting[0]
            moves = ENGINE.legal_moves(state, seat)
            if ply % 8 == 7:
                for move in rng.sample(moves, min(8, len(moves))):
                    reply = loses_in_three(ENGINE, PROFILE, state, seat, move)
                    if reply is not None:
                        claims += 1
                        assert _reply_forces_win(state, seat, move, reply), (seed, ply)
            state = ENGINE.child(state, seat, rng.choice(moves))
    assert claims  # the games did reach positions with such a loss


@pytest.fixture
def patient(monkeypatch: pytest.MonkeyPatch) -> None:
    """A check that never runs out of time, so the move does not depend on the machine."""
    monkeypatch.setattr(tactics, "CHECK_SECONDS", 60.0)


def _root(moves: list[Any], visits: list[int], state: Any) -> SearchResult:
    return SearchResult(
        moves, visits, [0.5] * len(moves), sum(visits), 0.1, 0.5, None, state, exact=[]
    )


def test_the_check_replaces_a_refuted_pick_with_the_next_safe_move(
    patient: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = _state(SOUTH_TO_GUARD)
    moves = [ENGINE.parse_move(state, 0, t) for t in ("d4-g1", "a2-c2", "c3-a1=2", "b1-b3=2")]
    result = _root(moves, [500, 300, 100, 90], state)
    mcts = Mcts(ENGINE)
    strongest = level(5, "generatorb")
    assert strongest.blunder_check
    assert play_index(ENGINE, mcts, result, 0, strongest, 1, is_view=False) == (2, False)
    unchecked = replace(strongest, blunder_check=False)
    assert play_index(ENGINE, mcts, result, 0, unchecked, 1, is_view=False) == (0, False)
    # Every candidate lost: the search's own pick stands, known to lose.
    doomed = _root(moves[:2], [500, 300], state)
    assert play_index(ENGINE, mcts, doomed, 0, strongest, 1, is_view=False) == (0, True)
    assert safe_choice(ENGINE, PROFILE, state, 0, moves, [0, 1, 3]) == (3, True)
    assert unrefuted(ENGINE, PROFILE, state, 0, moves, [0, 1, 2, 3], 1) == [2]
    assert unrefuted(ENGINE, PROFILE, state, 0, moves, [0, 1, 2, 3], 5) == [2, 3]
    # Out of time after the first candidate: the pick stands.
    monkeypatch.setattr(tactics, "CHECK_SECONDS", 0.0)
    assert safe_choice(ENGINE, PROFILE, state, 0, moves, [0, 3]) == (0, False)
    assert unrefuted(ENGINE, PROFILE, state, 0, moves, [2, 3], 2) == [2]  # the first only


def test_a_draw_by_the_move_limit_is_no_loss() -> None:
    """The same position near the move limit (400 plies): at ply 396 North's combination
    lands on the core at ply 399; at ply 397 South's answer reaches ply 400 and draws first."""
    for ply, lost in ((396, True), (397, False)):
        state = _state(SOUTH_TO_GUARD.replace("ply:6", f"ply:{ply}"))
        move = ENGINE.parse_move(state, 0, "d4-g1")
        assert (loses_in_three(ENGINE, PROFILE, state, 0, move) is not None) is lost, ply
        assert _lost_in_three(state, 0, move) is lost, ply


def test_level_5_no_longer_plays_into_the_loss_at_a_small_budget(patient: None) -> None:
    """With its check, level 5 at 200 iterations (the clock out of the way) avoids the loss
    in every seed; without it, the same searches walk into it at least once."""
    state = _state(SOUTH_TO_GUARD)
    small: Level = replace(LEVELS[4], budget=Budget(200, 60.0))
    played = {s: choose_move("generatorb", RESOLVED, 0, state, small, s) for s in range(6)}
    assert set(played.values()) <= GUARDS, played
    careless = replace(small, blunder_check=False)
    unchecked = [choose_move("generatorb", RESOLVED, 0, state, careless, s) for s in range(6)]
    assert any(move not in GUARDS for move in unchecked), unchecked


def test_it_applies_only_where_it_can_prove_something() -> None:
    position = _state(SOUTH_TO_GUARD)
    assert applies(ENGINE, PROFILE, position)
    assert not applies(ENGINE, replace(PROFILE, players=lambda _: 3), position)
    for game, players in (("orbs", 2), ("arbos", 2), ("generator", 2)):
        state, _ = new_state(game, players, 1)
        assert not applies(get_engine(game), profile_for(game), state), game
    gz = get_engine("generation_zero")
    state, _ = new_state("generation_zero", 2, 1)
    with_decisive = replace(profile_for("generation_zero"), decisive=lambda *_: [])
    assert with_decisive.players(state) == 2
    assert not applies(gz, with_decisive, state)  # hidden cards: a view proves nothing
    assert [lv.blunder_check for lv in LEVELS] == [False, False, False, False, True]


def test_a_hint_never_offers_a_move_that_loses_in_three(patient: None) -> None:
    """/hint's moves (``ai.levels.suggest``) at a budget too small to see the loss: only the
    two moves that guard the core are offered, and the first is level 5's move."""
    state = _state(SOUTH_TO_GUARD)
    budget = Budget(200, 60.0)
    strongest = replace(LEVELS[-1], budget=budget)
    for seed in range(3):
        hints = suggest("generatorb", 0, state, seed, budget)
        assert hints
        assert {hint.move for hint in hints} <= GUARDS, hints
        assert hints[0].move == choose_move("generatorb", RESOLVED, 0, state, strongest, seed)


def test_a_hint_offers_a_safe_move_before_a_pick_whose_check_ran_out(
    patient: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Level 5's check ran out of time on a pick that loses in three plies, so level 5 would
    play it; /hint's own checks of the other moves find the two guards: they come first,
    and the lost pick last, as a loss by force."""
    state = _state(SOUTH_TO_GUARD)
    lost = ENGINE.parse_move(state, 0, "d4-g1")

    def out_of_time(_engine: Any, _mcts: Any, result: SearchResult, *_: Any, **__: Any) -> Any:
        return result.moves.index(lost), True

    monkeypatch.setattr(levels_module, "play_index", out_of_time)
    hints = suggest("generatorb", 0, state, 0, Budget(200, 60.0))
    assert {h.move for h in hints[:2]} == GUARDS, hints
    assert (hints[2].move, hints[2].forced, hints[2].value) == ("d4-g1", "loss", 0.0)
    alone = suggest("generatorb", 0, state, 0, Budget(200, 60.0), count=1)
    assert alone[0].move in GUARDS
