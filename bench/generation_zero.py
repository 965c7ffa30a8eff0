"""Time the Generation Zero engine: ``python bench/generation_zero.py [--games N]``.

Plays N seeded random games for 2, 3 and 4 players (moves chosen uniformly among the legal
decisions) and prints, per player count, the median time of legal-move generation and of
``apply`` per decision, the decisions per game and the playouts per second. The brief's
target: a typical decision's ``legal_moves`` + ``apply`` well under 1 ms. A benchmark, not a
test.
"""

from __future__ import annotations

import argparse
import statistics
import time

from engines.generation_zero import GenerationZeroEngine
from engines.rng import Rng

ENGINE = GenerationZeroEngine()


def playouts(players: int, games: int) -> tuple[list[float], list[float], int, float]:
    """``(legal ms samples, apply ms samples, decisions, seconds)`` over ``games`` games."""
    options = ENGINE.resolve_options({})
    legal_ms: list[float] = []
    apply_ms: list[float] = []
    decisions = 0
    start = time.perf_counter()
    for seed in range(games):
        state = ENGINE.new_game(players, options, seed)
        rng = Rng(seed)
        while seats := ENGINE.to_move(state):
            t0 = time.perf_counter()
            moves = ENGINE.legal_moves(state, seats[0])
            t1 = time.perf_counter()
            state = ENGINE.apply(state, seats[0], moves[rng.below(len(moves))]).state
            t2 = time.perf_counter()
            legal_ms.append((t1 - t0) * 1000)
            apply_ms.append((t2 - t1) * 1000)
            decisions += 1
    return legal_ms, apply_ms, decisions, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    for players in (2, 3, 4):
        legal, applied, decisions, seconds = playouts(players, args.games)
        legal_p90 = statistics.quantiles(legal, n=10)[-1]
        apply_p90 = statistics.quantiles(applied, n=10)[-1]
        print(
            f"{players} players: legal_moves median {statistics.median(legal):.3f} ms "
            f"(p90 {legal_p90:.3f}), apply median "
            f"{statistics.median(applied):.3f} ms (p90 {apply_p90:.3f}), "
            f"{decisions / args.games:.0f} decisions/game, {args.games / seconds:.1f} playouts/s"
        )


if __name__ == "__main__":
    main()
