"""Generation Zero: the bot decides from its seat's view only (SO-ISMCTS over determinizations).

Two states that differ only in what the bot seat cannot know (which hidden Canon is which
card, which hidden Monster is which) have the same view, so the bot must play the same move
for the same seed.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from ai import LEVELS, Budget, Level, assess, choose_move
from ai.search import Mcts, determinize_supported
from engines import get_engine
from engines.generation_zero import GenerationZeroState
from engines.generation_zero.position import print_position
from tests.ai.helpers import new_state

ENGINE = get_engine("generation_zero")

pytestmark = pytest.mark.skipif(
    not determinize_supported(ENGINE), reason="engines: Generation Zero has no determinize yet"
)


def _swap_hidden(state: GenerationZeroState, seat: int) -> GenerationZeroState:
    """``state`` with two hidden Canons' cards and two hidden Monsters' cards (and Health)
    exchanged, both pairs unknown to ``seat`` and brought by the same other seat."""
    doc: dict[str, Any] = json.loads(state.text)
    other = doc["seats"][1 - seat]["brought"]
    canons = [
        t
        for t, c in sorted(doc["canons"].items())
        if not c["public"] and seat not in c["known"] and c["card"] in other
    ]
    assert len(canons) >= 2, "the test needs two hidden Canons of the same seat"
    a, b = doc["canons"][canons[0]], doc["canons"][canons[1]]
    a["card"], b["card"] = b["card"], a["card"]
    monsters = [
        t
        for t, m in sorted(doc["monsters"].items())
        if m["at"] and not m["public"] and seat not in m["known"]
    ]
    assert len(monsters) >= 2, "the test needs two hidden Monsters"
    m, n = doc["monsters"][monsters[0]], doc["monsters"][monsters[1]]
    m["card"], n["card"] = n["card"], m["card"]
    m["hp"], n["hp"] = n["hp"], m["hp"]
    return GenerationZeroState(state.rules, print_position(doc), state.last, state.log)


@pytest.mark.parametrize("seed", [3, 8])
def test_hidden_cards_do_not_change_the_move(seed: int) -> None:
    state, resolved = new_state("generation_zero", 2, seed)
    seat = ENGINE.to_move(state)[0]
    twin = _swap_hidden(state, seat)
    assert twin.text != state.text
    view, twin_view = ENGINE.view(state, seat), ENGINE.view(twin, seat)
    assert view == twin_view
    # The iteration budget must bind (not the clock) for the search to be reproducible.
    for base in (LEVELS[0], LEVELS[4]):
        level = Level(base.number, base.name, Budget(40, 60.0), base.temperature, base.candidates)
        first = choose_move("generation_zero", resolved, seat, view, level, 41)
        second = choose_move("generation_zero", resolved, seat, twin_view, level, 41)
        assert first == second
        ENGINE.parse_move(state, seat, first)  # legal in the true state
    budget = Budget(30, 30.0)
    assert assess("generation_zero", resolved, seat, view, 5, budget) == assess(
        "generation_zero", resolved, seat, twin_view, 5, budget
    )


def test_a_single_legal_move_is_played_without_a_search(monkeypatch: pytest.MonkeyPatch) -> None:
    # Random play until the seat to move has one legal move (seed 1: "stay" at ply 6).
    state, resolved = new_state("generation_zero", 2, 1)
    rng = random.Random(1)
    while len(ENGINE.legal_moves(state, ENGINE.to_move(state)[0])) != 1:
        seat = ENGINE.to_move(state)[0]
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat))).state
    seat = ENGINE.to_move(state)[0]
    (only,) = ENGINE.legal_moves(state, seat)

    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("searched a decision with one legal move")

    monkeypatch.setattr(Mcts, "search_view", no_search)
    move = choose_move("generation_zero", resolved, seat, ENGINE.view(state, seat), 5, 7)
    assert move == ENGINE.format_move(state, only)
