"""Playouts that prefer captures (``GameProfile.captures`` / ``capture_rate``, ai/search.py).

Generatorb's profile names its capturing moves (spec generatorb G16) and plays one of them in
70% of playout plies that have any. The positions come from seeded random play.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from ai.evaluation import profile_for
from ai.search import Mcts
from engines import get_engine

ENGINE = get_engine("generatorb")
RESOLVED = ENGINE.options_for(ENGINE.resolve_options({}), 2)


def _positions_with_captures(count: int) -> list[Any]:
    """Positions (seeded random play) in which the side to move has a capture and does not
    win at once."""
    found: list[Any] = []
    decisive = profile_for("generatorb").decisive
    assert decisive is not None
    for game in range(50):
        rng = random.Random(game)
        state = ENGINE.new_game(2, RESOLVED, game)
        for _ in range(60):
            acting = ENGINE.to_move(state)
            if not acting:
                break
            moves = ENGINE.legal_moves(state, acting[0])
            if any(m.capture for m in moves) and not decisive(state, acting[0], moves):
                found.append(state)
                break
            state = ENGINE.apply(state, acting[0], rng.choice(moves)).state
        if len(found) == count:
            return found
    raise AssertionError("random play found too few positions with a capture")


def test_the_captures_are_exactly_the_moves_written_as_captures() -> None:
    captures = profile_for("generatorb").captures
    assert captures is not None
    for state in _positions_with_captures(5):
        seat = ENGINE.to_move(state)[0]
        moves = ENGINE.legal_moves(state, seat)
        named = {moves[i] for i in captures(state, seat, moves)}
        written = {m for m in moves if any(c in ENGINE.format_move(state, m) for c in "x*")}
        assert named == written
        assert named


def _first_plies(rate: float, state: Any, seeds: int) -> list[Any]:
    """The state after the first playout ply, for ``seeds`` seeds, with ``capture_rate``
    ``rate`` (the playout stops after one ply; the evaluation records where it stopped)."""
    seen: list[Any] = []

    def record(position: Any) -> tuple[float, float]:
        seen.append(position)
        return (0.5, 0.5)

    profile = replace(
        profile_for("generatorb"), playout_plies=1, evaluate=record, capture_rate=rate
    )
    mcts = Mcts(ENGINE, profile)
    for seed in range(seeds):
        mcts._playout(state, 2, random.Random(seed))
    return seen


def _key(state: Any) -> tuple[Any, ...]:
    """What a position is (pieces, supplies, side to move), whatever else the state keeps."""
    return (tuple(state.board), tuple(state.supply), state.turn)


def test_a_playout_prefers_captures_at_the_profiles_rate() -> None:
    state = _positions_with_captures(1)[0]
    seat = ENGINE.to_move(state)[0]
    moves = ENGINE.legal_moves(state, seat)
    after_capture = [_key(ENGINE.apply(state, seat, m).state) for m in moves if m.capture]
    share = len(after_capture) / len(moves)
    assert share < 0.5  # else a uniform playout would look like a preferring one

    always = _first_plies(1.0, state, 40)
    assert all(_key(s) in after_capture for s in always)

    never = _first_plies(0.0, state, 200)
    uniform = sum(_key(s) in after_capture for s in never) / len(never)
    assert uniform < share + 0.15  # uniform play: captures at about their share of moves

    preferred = _first_plies(0.7, state, 200)
    rate = sum(_key(s) in after_capture for s in preferred) / len(preferred)
    assert 0.7 + 0.3 * share - 0.12 < rate < 0.7 + 0.3 * share + 0.12
