"""Generation Zero's determinized states (what ISMCTS searches) play exactly like states read
from their position text: ``determinize`` hands the dealt position object to the state
instead of printing and re-parsing it (spec generation_zero R14, section 7)."""

from __future__ import annotations

import random

import pytest

from engines import get_engine
from engines.generation_zero.engine import GenerationZeroState
from tests.ai.helpers import new_state


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (2, 5), (3, 2), (4, 3)])
def test_a_determinization_plays_like_its_position_text(players: int, seed: int) -> None:
    engine = get_engine("generation_zero")
    state, _ = new_state("generation_zero", players, seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(20, 80)):
        acting = engine.to_move(state)
        if not acting:
            break
        move = rng.choice(engine.legal_moves(state, acting[0]))
        state = engine.apply(state, acting[0], move).state
    acting = engine.to_move(state)
    assert acting, "the random game ended too early for this test"
    seat = acting[0]
    view = engine.view(state, seat)
    for deal in range(3):
        dealt = engine.determinize(view, seat, deal)
        parsed = GenerationZeroState(dealt.rules, dealt.text, dealt.last, dealt.log)
        assert engine.view(dealt, seat) == view
        moves = random.Random(deal)
        for _ in range(40):
            acting = engine.to_move(dealt)
            assert acting == engine.to_move(parsed)
            if not acting:
                break
            legal = engine.legal_moves(dealt, acting[0])
            assert legal == engine.legal_moves(parsed, acting[0])
            move = moves.choice(legal)
            dealt = engine.apply(dealt, acting[0], move).state
            parsed = engine.apply(parsed, acting[0], move).state
            assert dealt == parsed
