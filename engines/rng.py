"""A small, documented random number generator whose results never change.

Gameroom's engines draw every random number (die rolls, shuffles, random setups) from the
game's own seed and a draw counter kept in the state, never from the global ``random`` module,
so a game replays exactly on any Python version and any machine.

The generator is SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
generators", OOPSLA 2014; the constants are those of Java's ``SplittableRandom``): the n-th
64-bit output of seed ``s`` is ``mix(s + (n + 1) * GAMMA)``. Because each output depends only
on the seed and its index, a state needs to carry just ``(seed, counter)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

__all__ = ["MASK64", "Rng", "splitmix64"]

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15

T = TypeVar("T")


def splitmix64(seed: int, index: int) -> int:
    """The ``index``-th (0-based) 64-bit output of SplitMix64 started from ``seed``."""
    z = (seed + (index + 1) * GAMMA) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


class Rng:
    """A cursor over SplitMix64 outputs: ``Rng(seed, counter)``.

    It is a small mutable helper for use *inside* one ``apply``; engines store
    ``(seed, rng.counter)`` back into the new state afterwards.
    """

    __slots__ = ("counter", "seed")

    def __init__(self, seed: int, counter: int = 0) -> None:
        self.seed = seed & MASK64
        self.counter = counter

    def next64(self) -> int:
        """The next 64-bit output; advances the counter by one."""
        value = splitmix64(self.seed, self.counter)
        self.counter += 1
        return value

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, so exactly uniform).

        Raises ``ValueError`` if ``n`` < 1.
        """
        if n < 1:
            raise ValueError("n must be at least 1")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def choice(self, items: Sequence[T]) -> T:
        """A uniform element of a non-empty sequence."""
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A new list with ``items`` in uniform random order (Fisher–Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
