"""The random numbers the service itself draws: a new game's seed and its seating.

A game's seed is 63 random bits from :mod:`secrets`, stored with the game and handed to the
engine, whose own generator (:mod:`engines.rng`, seed and draw counter in the state) picks
chance outcomes. The seating — the spec's coin flip for who plays which seat (Generatorb: who
is South) — is drawn from a stream derived from the seed with :func:`engines.rng.splitmix64`
at an index far from the small counters an engine uses, so the two never overlap.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import TypeVar

from engines.rng import Rng, splitmix64

__all__ = ["random_seed", "seat_order"]

T = TypeVar("T")

_SEATING_STREAM = 1 << 40


def random_seed() -> int:
    """A fresh 63-bit game seed (fits a signed 64-bit database column)."""
    return secrets.randbits(63)


def seat_order(seed: int, players: Sequence[T]) -> list[T]:
    """``players`` in seat order for the game with ``seed`` (a uniform shuffle)."""
    return Rng(splitmix64(seed, _SEATING_STREAM)).shuffled(players)
