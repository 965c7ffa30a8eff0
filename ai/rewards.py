"""Reward vectors: what a finished (or cut-off) game is worth to each seat.

A reward vector has one float in ``[0, 1]`` per seat, seat order. The search maximises, at each
node, the reward of the seat that moved into it (max^n, Luckhardt & Irani 1986), so the same
code serves two to six players and teams.

The reward of a seat is the fraction of the *other* seats it finished ahead of, counting a tie
as half: 1 for a lone winner, 0 for a lone loser, linear in between, and a draw is shared. In a
two-player game that is the usual 1 / ½ / 0. Teams are ranked by the engines with a team's
seats in one group (Orbs), so teammates tie with one another and share the result; a team's
win is then worth less than 1 to each of them (:func:`win_rewards`), which the solver needs
to know.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engines.base import Outcome

__all__ = [
    "Rewards",
    "loss_rewards",
    "rewards_from_outcome",
    "rewards_from_values",
    "win_rewards",
]

#: One reward in ``[0, 1]`` per seat, in seat order.
Rewards = tuple[float, ...]


def rewards_from_outcome(outcome: Outcome, players: int) -> Rewards:
    """The reward vector of a finished game from its ``ranking`` (groups of tied seats).

    Seats missing from the ranking (none in the current engines) count as tied last.
    ``players`` must be at least 2. Example: ranking ``((2,), (0, 1, 3))`` with 4 players gives
    ``(1/3, 1/3, 1.0, 1/3)``: seat 2 beat three seats; the others beat nobody and tied with two.
    """
    place = [len(outcome.ranking)] * players
    for index, group in enumerate(outcome.ranking):
        for seat in group:
            if 0 <= seat < players:
                place[seat] = index
    others = players - 1
    result = []
    for seat in range(players):
        mine = place[seat]
        below = sum(1 for p in place if p > mine)
        tied = sum(1 for p in place if p == mine) - 1
        result.append((below + 0.5 * tied) / others)
    return tuple(result)


def rewards_from_values(values: Sequence[float], spread: float) -> Rewards:
    """A reward vector from per-seat heuristic values (higher is better for that seat).

    Each seat's reward is the mean over the other seats of ``sigmoid((mine - theirs) /
    spread)``: the chance of finishing ahead of each opponent if a value difference of
    ``spread`` were worth odds of e : 1. Equal values give ½, matching the tie rule of
    :func:`rewards_from_outcome`, so cut-off evaluations and true endings share one scale.
    ``spread`` is in the units of ``values`` and must be positive.
    """
    players = len(values)
    others = players - 1
    result = []
    for seat in range(players):
        mine = values[seat]
        total = 0.0
        for other in range(players):
            if other != seat:
                diff = (mine - values[other]) / spread
                diff = max(-30.0, min(30.0, diff))
                total += 1.0 / (1.0 + math.exp(-diff))
        result.append(total / others)
    return tuple(result)


def win_rewards(players: int, sides: Sequence[Sequence[int]] | None = None) -> Rewards:
    """Per seat, the reward of a win: its side ranked first, every other seat below.

    Without ``sides`` (each seat its own side) that is 1 for every seat. With teams it is
    less, since teammates tie: 5/6 for each seat of Orbs 2 against 2 (ahead of two seats, tied
    with one, out of three). The search's solver proves a move once it is worth this much to
    its mover (``ai.search``), so a team's win is proven like a lone one. Seats in no side
    count as sides of their own; ``players`` must be at least 2. Computed by
    :func:`rewards_from_outcome` itself, so the two agree to the last bit.
    """
    return _side_rewards(players, sides, first=True)


def loss_rewards(players: int, sides: Sequence[Sequence[int]] | None = None) -> Rewards:
    """Per seat, the reward of a loss: its side ranked last, every other seat above.

    Without ``sides`` that is 0 for every seat; with teams it is more, since teammates tie:
    1/6 for each seat of Orbs 2 against 2 (tied with one seat of three). No outcome gives a
    seat less, so a move proven to be worth this much to its mover is a proven loss, which
    :func:`ai.levels.pick_move` never plays while another move is left. Same arguments and
    exactness as :func:`win_rewards`.
    """
    return _side_rewards(players, sides, first=False)


def _side_rewards(players: int, sides: Sequence[Sequence[int]] | None, *, first: bool) -> Rewards:
    """Per seat, its reward when its side is ranked alone first (``first``) or alone last,
    the other seats tied in one group (:func:`win_rewards`, :func:`loss_rewards`)."""
    side_of = {seat: tuple(group) for group in sides or () for seat in group}
    result = []
    for seat in range(players):
        side = side_of.get(seat, (seat,))
        rest = tuple(s for s in range(players) if s not in side)
        if not rest:
            ranking: tuple[tuple[int, ...], ...] = (side,)
        else:
            ranking = (side, rest) if first else (rest, side)
        winners = ranking[0]
        result.append(rewards_from_outcome(Outcome("win", winners, ranking), players)[seat])
    return tuple(result)
