"""``ai.levels.suggest``: the moves behind ``/hint``. The first is the strongest level's own
choice from the same search, every move is legal, a forced win comes first, and a game with
hidden cards is searched from the seat's view only."""

from __future__ import annotations

import pytest

from ai import LEVELS
from ai.levels import Level, choose_move, suggest
from ai.search import Budget
from engines import get_engine

from .helpers import new_state
from .test_hidden_information import ENGINE as GZ
from .test_hidden_information import _swap_hidden

#: Iterations bind, not the clock, so the searches repeat exactly.
BUDGET = Budget(300, 60.0)


@pytest.mark.parametrize("game", ["generatorb", "generator", "orbs", "arbos"])
def test_the_first_suggestion_is_the_strongest_levels_move(game: str) -> None:
    engine = get_engine(game)
    state, resolved = new_state(game, 2, 11)
    seat = engine.to_move(state)[0]
    suggestions = suggest(game, seat, engine.dumps(state), 5, BUDGET)
    assert 1 <= len(suggestions) <= 3
    strongest = Level(5, "strongest", BUDGET, 0.0, 1)
    assert suggestions[0].move == choose_move(
        game, resolved, seat, engine.dumps(state), strongest, 5
    )
    assert len({s.move for s in suggestions}) == len(suggestions)
    for suggestion in suggestions:
        engine.parse_move(state, seat, suggestion.move)  # legal, in canonical notation
        assert 0.0 <= suggestion.value <= 1.0
        assert 0.0 < suggestion.share <= 1.0
    assert sum(s.share for s in suggestions) <= 1.0 + 1e-9
    shares = [s.share for s in suggestions[1:]]
    assert shares == sorted(shares, reverse=True)


def test_a_forced_win_is_suggested_first_and_said_to_be_proven() -> None:
    """Generatorb: South's spheroid on g7 steps onto North's empty core h8 (G24)."""
    engine = get_engine("generatorb")
    options = engine.options_for(engine.resolve_options({}), 2)
    state = engine.from_position(
        "S:a1,a2,b1,b2,g7=2 N:e5=3,c8 supply:17/17 turn:S ply:9 passes:0", options
    )
    (first, *_) = suggest("generatorb", 0, state, 1, BUDGET)
    assert first.move == "g7-h8"
    assert first.proven
    assert first.value == 1.0


def test_hidden_cards_do_not_change_the_suggestions() -> None:
    state, _ = new_state("generation_zero", 2, 3)
    seat = GZ.to_move(state)[0]
    view, twin_view = GZ.view(state, seat), GZ.view(_swap_hidden(state, seat), seat)
    budget = Budget(40, 60.0)
    assert suggest("generation_zero", seat, view, 9, budget) == suggest(
        "generation_zero", seat, twin_view, 9, budget
    )
    with pytest.raises(ValueError, match="pass the seat's view"):
        suggest("generation_zero", seat, GZ.dumps(state), 9, budget)


def test_count_must_be_positive() -> None:
    state, _ = new_state("generatorb", 2, 1)
    with pytest.raises(ValueError, match="count"):
        suggest("generatorb", 0, state, 1, LEVELS[0].budget, count=0)
