"""Team wins (Orbs 0-2 against 1-3): a win is worth 5/6 to each teammate, and the solver
proves it all the same (``ai.rewards.win_rewards``, the profile's ``sides``)."""

from __future__ import annotations

from dataclasses import replace

from ai import LEVELS, choose_move
from ai.levels import pick_move
from ai.rewards import rewards_from_outcome, win_rewards
from ai.search import Budget, Mcts
from engines import get_engine
from engines.base import Outcome

ENGINE = get_engine("orbs")
RESOLVED = ENGINE.options_for(ENGINE.resolve_options({"teams": "02-13"}), 4)
#: North (seat 0) to move: its Fire on A1 beats seat 1's Air on B1, the other side's last
#: orb (seat 3 has none), so A1-B1 wins the game for seats 0 and 2 (ORB-8). Six other moves.
TEAM_WINS_AT_ONCE = "A1:F,D3:E/B1:A/C3:F/- 0 0"


def test_a_win_is_worth_what_the_side_ranked_first_gets() -> None:
    assert win_rewards(2) == (1.0, 1.0)
    assert win_rewards(4, [(0, 2), (1, 3)]) == (5 / 6,) * 4
    team_win = Outcome("last_standing", (0, 2), ((0, 2), (1, 3)))
    assert rewards_from_outcome(team_win, 4)[0] == win_rewards(4, [(0, 2), (1, 3)])[0]
    # Uneven sides: a pair against a lone seat, and a seat no side names.
    assert win_rewards(3, [(0, 1), (2,)]) == (0.75, 0.75, 1.0)
    assert win_rewards(3, [(0, 1)]) == (0.75, 0.75, 1.0)


def test_a_teams_win_at_once_is_proven_and_played_at_every_level() -> None:
    state = ENGINE.from_position(TEAM_WINS_AT_ONCE, RESOLVED)
    moves = ENGINE.legal_moves(state, 0)
    assert len(moves) == 7, "position changed"
    result = Mcts(ENGINE).search(state, 0, Budget(2_000, 60.0), 3)
    assert result.proven is not None
    assert ENGINE.format_move(state, result.moves[result.proven]) == "A1-B1"
    assert result.value == 5 / 6  # the root is solved: the search stopped at the proof
    for level in LEVELS:
        assert pick_move(result, level, 11) == result.proven
        # The level's iterations and mistakes without its clock, so load cannot cut it short.
        unhurried = replace(level, budget=replace(level.budget, seconds=60.0))
        assert choose_move("orbs", RESOLVED, 0, state, unhurried, 5) == "A1-B1"


def test_a_team_wins_with_a_teammate_out_of_orbs() -> None:
    # Seat 2 has lost all its orbs; the side 0-2 still wins together when A1-B1 takes the last
    # orb of the other side, and the win is proven at the same value.
    state = ENGINE.from_position("A1:F,D3:E/B1:A/-/- 0 0", RESOLVED)
    result = Mcts(ENGINE).search(state, 0, Budget(2_000, 60.0), 3)
    assert result.proven is not None
    assert ENGINE.format_move(state, result.moves[result.proven]) == "A1-B1"
    outcome = ENGINE.outcome(ENGINE.apply(state, 0, result.moves[result.proven]).state)
    assert outcome is not None
    assert outcome.ranking == ((0, 2), (1, 3))
    assert result.value == 5 / 6
