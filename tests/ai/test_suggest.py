"""``ai.levels.suggest``: the moves behind ``/hint``. The first is the strongest level's own
choice from the same search, every move is legal, a forced win comes first and reads as a
win also for a team, and a game with hidden cards is searched from the seat's view only."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ai import LEVELS
from ai.levels import choose_move, level, suggest
from ai.search import Budget
from engines import get_engine

from .helpers import new_state
from .test_hidden_information import ENGINE as GZ
from .test_teams import ENGINE as ORBS
from .test_teams import RESOLVED, TEAM_LOSES_WITH_A1_B1, TEAM_WINS_AT_ONCE

#: Iterations bind, not the clock, so the searches repeat exactly.
BUDGET = Budget(300, 60.0)


@pytest.mark.parametrize("game", ["generatorb", "generator", "orbs", "arbos"])
def test_the_first_suggestion_is_the_strongest_levels_move(game: str) -> None:
    engine = get_engine(game)
    state, resolved = new_state(game, 2, 11)
    seat = engine.to_move(state)[0]
    suggestions = suggest(game, seat, engine.dumps(state), 5, BUDGET)
    assert 1 <= len(suggestions) <= 3
    strongest = replace(level(5, game), budget=BUDGET)  # the game's own (Orbs: minimax backups)
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


@pytest.mark.parametrize("players", [2, 4])
def test_orbs_hints_value_an_even_opening_near_a_half(players: int) -> None:
    """Orbs' search evaluates one-sidedly (every seat optimistic), so its own values read
    about 0.68 for each side of an even opening; a hint's values come from a second search
    with the even-handed evaluation of ``assess``, near ½ there, while its moves stay the
    strongest level's."""
    state, resolved = new_state("orbs", players, 11)
    seat = ORBS.to_move(state)[0]
    shown = suggest("orbs", seat, ORBS.dumps(state), 5, BUDGET, value_budget=BUDGET)
    one_sided = suggest("orbs", seat, ORBS.dumps(state), 5, BUDGET, value_budget=Budget(1, 60.0))
    assert [s.move for s in shown] == [s.move for s in one_sided]
    strongest = replace(level(5, "orbs"), budget=BUDGET)
    assert shown[0].move == choose_move("orbs", resolved, seat, ORBS.dumps(state), strongest, 5)
    assert all(0.4 <= s.value <= 0.6 for s in shown), [s.value for s in shown]
    assert max(s.value for s in one_sided) > 0.6, "the search's own values read high"


def test_a_forced_win_is_suggested_first_and_said_to_be_proven() -> None:
    """Generatorb: South's spheroid on g7 steps onto North's empty core h8 (G24)."""
    engine = get_engine("generatorb")
    options = engine.options_for(engine.resolve_options({}), 2)
    state = engine.from_position(
        "S:a1,a2,b1,b2,g7=2 N:e5=3,c8 supply:17/17 turn:S ply:9 passes:0", options
    )
    (first, *_) = suggest("generatorb", 0, state, 1, BUDGET)
    assert first.move == "g7-h8"
    assert (first.forced, first.value) == ("win", 1.0)


def test_a_teams_forced_win_and_loss_read_as_a_win_and_a_loss() -> None:
    """Orbs 0-2 against 1-3: a team's win is worth 5/6 to each teammate, but a hint says
    "wins by force" (value 1), and a move that loses is left out or said to lose."""
    won = suggest("orbs", 0, ORBS.from_position(TEAM_WINS_AT_ONCE, RESOLVED), 3, BUDGET)
    assert (won[0].move, won[0].forced, won[0].value) == ("A1-B1", "win", 1.0)
    lost = suggest("orbs", 0, ORBS.from_position(TEAM_LOSES_WITH_A1_B1, RESOLVED), 3, BUDGET)
    assert lost[0].move != "A1-B1"
    assert all(s.forced != "win" and 0.0 <= s.value <= 1.0 for s in lost)
    assert [s.value for s in lost if s.forced == "loss"] in ([], [0.0])


def test_a_game_with_hidden_cards_is_searched_from_the_seats_view_only() -> None:
    """The view gives legal moves for the seat; the state itself is refused, so no caller
    can hand the search another seat's cards (``Bots.hint`` passes the view:
    tests/service/test_bots.py)."""
    state, _ = new_state("generation_zero", 2, 3)
    seat = GZ.to_move(state)[0]
    suggestions = suggest("generation_zero", seat, GZ.view(state, seat), 9, Budget(40, 60.0))
    for suggestion in suggestions:
        GZ.parse_move(state, seat, suggestion.move)
    with pytest.raises(ValueError, match="pass the seat's view"):
        suggest("generation_zero", seat, GZ.dumps(state), 9, Budget(40, 60.0))
    with pytest.raises(ValueError, match="view"):
        suggest("generation_zero", seat, GZ.view(state, 1 - seat), 9, Budget(40, 60.0))


def test_count_must_be_positive() -> None:
    state, _ = new_state("generatorb", 2, 1)
    with pytest.raises(ValueError, match="count"):
        suggest("generatorb", 0, state, 1, LEVELS[0].budget, count=0)
