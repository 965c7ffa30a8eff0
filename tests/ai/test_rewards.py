"""Reward vectors from outcomes and from heuristic values (ai.rewards)."""

from __future__ import annotations

import pytest

from ai.rewards import rewards_from_outcome, rewards_from_values
from engines.base import Outcome


def test_two_players_win_and_draw() -> None:
    assert rewards_from_outcome(Outcome.win("core", 1, 2), 2) == (0.0, 1.0)
    assert rewards_from_outcome(Outcome.draw("no_moves", 2), 2) == (0.5, 0.5)


def test_multiplayer_is_linear_in_rank_with_shared_ties() -> None:
    outcome = Outcome("x", (2,), ((2,), (0, 3), (1,)))
    assert rewards_from_outcome(outcome, 4) == pytest.approx((0.5, 0.0, 1.0, 0.5))


def test_a_team_shares_its_result() -> None:
    """Orbs ranks a winning team in one group: teammates get the same reward."""
    outcome = Outcome("last_standing", (0, 2), ((0, 2), (1, 3)))
    rewards = rewards_from_outcome(outcome, 4)
    assert rewards[0] == rewards[2] > rewards[1] == rewards[3]


def test_values_match_the_outcome_scale() -> None:
    assert rewards_from_values((3.0, 3.0, 3.0), 1.0) == pytest.approx((0.5, 0.5, 0.5))
    high, low = rewards_from_values((10.0, 0.0), 1.0)
    assert high > 0.99
    assert low < 0.01
    assert high + low == pytest.approx(1.0)
