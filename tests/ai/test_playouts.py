"""Playouts that prefer captures (``GameProfile.captures`` / ``capture_rate``, ai/search.py),
and playouts that draw their moves without listing them (``GameProfile.playout_move``).

Generatorb's profile names its capturing moves (spec generatorb G16) and plays one of them in
70% of playout plies that have any. Arbos' profile draws a spore on a random legal cell
(``engines.arbos.random_spore``). The positions come from seeded random play.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from ai.evaluation import GameProfile, profile_for
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


def test_a_quick_draw_cannot_be_combined_with_decisive_or_captures() -> None:
    """The quick draw lists no moves, so hooks that pick among the listed moves could not
    run: the profile refuses the combination."""
    generatorb = profile_for("generatorb")
    with pytest.raises(ValueError, match="playout_move"):
        replace(generatorb, playout_move=lambda state, seat, draw: None)
    with pytest.raises(ValueError, match="playout_move"):
        GameProfile(lambda state: 2, captures=generatorb.captures, playout_move=print)


def test_arbos_playouts_draw_legal_spores_without_listing_moves() -> None:
    """Each playout ply of Arbos comes from the quick draw when it finds a cell, and the
    move it plays is legal; the legal moves are listed only when the draw finds none."""
    engine = get_engine("arbos")
    state = engine.new_game(2, engine.options_for(engine.resolve_options({}), 2), 3)
    rng = random.Random(3)
    while len(engine.to_move(state)) != 1 or engine.to_move(state)[0] < 0 or state.phase != "play":
        acting = engine.to_move(state)
        if acting[0] < 0:
            state = engine.apply_chance(state, engine.sample_chance(state)).state
        else:
            move = rng.choice(engine.legal_moves(state, acting[0]))
            state = engine.apply(state, acting[0], move).state
    profile = profile_for("arbos")
    quick = profile.playout_move
    assert quick is not None
    drawn: list[tuple[Any, int, Any]] = []
    listed: list[int] = []

    def recording(position: Any, seat: int, draw: Any) -> Any:
        move = quick(position, seat, draw)
        drawn.append((position, seat, move))
        return move

    mcts = Mcts(engine, replace(profile, playout_move=recording, playout_plies=6))
    real_legal = mcts._legal

    def counting(state: Any, seat: int) -> Sequence[Any]:
        listed.append(seat)
        return real_legal(state, seat)

    mcts._legal = counting
    for seed in range(20):
        mcts._playout(state, 2, random.Random(seed))
    found = [(p, seat, move) for p, seat, move in drawn if move is not None]
    assert len(drawn) == 20 * 6
    assert len(found) >= 0.9 * len(drawn)
    assert len(listed) == len(drawn) - len(found)
    for position, seat, move in found[:30]:
        assert move in engine.legal_moves(position, seat)
