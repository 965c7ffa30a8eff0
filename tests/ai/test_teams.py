"""Team wins and losses (Orbs 0-2 against 1-3): a win is worth 5/6 to each teammate and a
loss 1/6, and the solver proves them, and the final choice avoids a proven loss, all the same
(``ai.rewards.win_rewards``, ``loss_rewards``, the profile's ``sides``)."""

from __future__ import annotations

from dataclasses import replace

from ai import LEVELS, choose_move
from ai.levels import pick_move
from ai.rewards import loss_rewards, rewards_from_outcome, win_rewards
from ai.search import Budget, Mcts, SearchResult
from engines import get_engine
from engines.base import Outcome

ENGINE = get_engine("orbs")
RESOLVED = ENGINE.options_for(ENGINE.resolve_options({"teams": "02-13"}), 4)
#: North (seat 0) to move: its Fire on A1 beats seat 1's Air on B1, the other side's last
#: orb (seat 3 has none), so A1-B1 wins the game for seats 0 and 2 (ORB-8). Six other moves.
TEAM_WINS_AT_ONCE = "A1:F,D3:E/B1:A/C3:F/- 0 0"
#: North (seat 0) to move with its side's last orb, an Air on A1 (seat 2 has none): A1-B1
#: attacks seat 1's Fire, which burns it, so the other side wins (ORB-8); A1-B2 goes on.
TEAM_LOSES_WITH_A1_B1 = "A1:A/B1:F/-/D3:E 0 0"


def test_a_win_is_worth_what_the_side_ranked_first_gets() -> None:
    assert win_rewards(2) == (1.0, 1.0)
    assert win_rewards(4, [(0, 2), (1, 3)]) == (5 / 6,) * 4
    team_win = Outcome("last_standing", (0, 2), ((0, 2), (1, 3)))
    assert rewards_from_outcome(team_win, 4)[0] == win_rewards(4, [(0, 2), (1, 3)])[0]
    # Uneven sides: a pair against a lone seat, and a seat no side names.
    assert win_rewards(3, [(0, 1), (2,)]) == (0.75, 0.75, 1.0)
    assert win_rewards(3, [(0, 1)]) == (0.75, 0.75, 1.0)


def test_a_loss_is_worth_what_the_side_ranked_last_gets() -> None:
    assert loss_rewards(2) == (0.0, 0.0)
    assert loss_rewards(4, [(0, 2), (1, 3)]) == (1 / 6,) * 4
    team_loss = Outcome("last_standing", (1, 3), ((1, 3), (0, 2)))
    assert rewards_from_outcome(team_loss, 4)[0] == loss_rewards(4, [(0, 2), (1, 3)])[0]
    assert loss_rewards(6, [(0, 3), (1, 4), (2, 5)]) == (0.1,) * 6
    assert loss_rewards(3, [(0, 1)]) == (0.25, 0.25, 0.0)


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


def test_a_teams_proven_loss_is_never_played_whatever_its_visits() -> None:
    state = ENGINE.from_position(TEAM_LOSES_WITH_A1_B1, RESOLVED)
    assert [ENGINE.format_move(state, m) for m in ENGINE.legal_moves(state, 0)] == [
        "A1-B1",
        "A1-B2",
    ], "position changed"
    result = Mcts(ENGINE).search(state, 0, Budget(200, 60.0), 3)
    assert result.loss == 1 / 6
    lost = [i for i, m in enumerate(result.moves) if ENGINE.format_move(state, m) == "A1-B1"]
    assert [result.exact[i] for i in lost] == [1 / 6]
    # The refuted move with most of the visits, as when its refutation came late: a loss for
    # the side is worth 1/6, not 0, to seat 0, and it is still not played.
    made_up = SearchResult(
        ["A1-B1", "A1-B2"], [100, 10], [0.2, 0.4], 110, 0.1, 0.3, None, None, 0,
        [1 / 6, None], loss=1 / 6,
    )  # fmt: skip
    for level in LEVELS:
        assert pick_move(made_up, level, 5) == 1
        unhurried = replace(level, budget=replace(level.budget, seconds=60.0))
        assert choose_move("orbs", RESOLVED, 0, state, unhurried, 5) == "A1-B2"
