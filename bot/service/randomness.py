"""Every random number the service draws, and how it derives them from the game's seed.

A game's seed is 63 random bits from :mod:`secrets`, stored with the game. Two streams are
derived from it with :func:`engines.rng.splitmix64`, at indices far from the small counters an
engine uses with the seed itself, so the three never overlap:

* seating — the spec's coin flip for who plays which seat (Generatorb: who is South);
* chance — one 64-bit draw per chance node, taken at counter = the node's ply in the move
  log, so a replay or another process draws exactly the same outcome.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import TypeVar

from engines.base import ChanceOutcome
from engines.rng import Rng, splitmix64

__all__ = ["chance_rng", "random_seed", "sample_chance", "seat_order"]

T = TypeVar("T")

_SEATING_STREAM = 1 << 40
_CHANCE_STREAM = (1 << 40) + 1


def random_seed() -> int:
    """A fresh 63-bit game seed (fits a signed 64-bit database column)."""
    return secrets.randbits(63)


def seat_order(seed: int, players: Sequence[T]) -> list[T]:
    """``players`` in seat order for the game with ``seed`` (a uniform shuffle)."""
    return Rng(splitmix64(seed, _SEATING_STREAM)).shuffled(players)


def chance_rng(seed: int, ply: int) -> Rng:
    """The generator for the chance node logged at ``ply`` of the game with ``seed``."""
    return Rng(splitmix64(seed, _CHANCE_STREAM), ply)


def sample_chance(outcomes: Sequence[ChanceOutcome], rng: Rng) -> str:
    """One outcome's text, drawn with probability proportional to its ``probability``.

    Uses exactly one 64-bit draw of ``rng``. Raises :class:`ValueError` if there are no
    outcomes or their probabilities do not add up to a positive total.
    """
    total = sum(o.probability for o in outcomes)
    if not outcomes or total <= 0:
        raise ValueError("a chance node needs outcomes with positive probability")
    point = rng.next64() / float(1 << 64) * total
    running = 0.0
    for outcome in outcomes:
        running += outcome.probability
        if point < running:
            return outcome.text
    return outcomes[-1].text
