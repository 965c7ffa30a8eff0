"""Time the Generation Zero engine: ``python bench/generation_zero.py [--games N]``.

Plays N seeded random games for 2, 3 and 4 players (moves chosen uniformly among the legal
decisions with :mod:`engines.rng`, game ``k`` from seed ``k``) and prints, per player count:

* **random playouts/s**: 1 / the median time of one whole playout (``new_game`` excluded;
  ``to_move`` + ``legal_moves`` + ``apply`` for every decision), and the mean rate;
* the median time of ``legal_moves`` and of ``apply`` per decision (p90 in brackets);
* decisions per game.

The AI calls ``legal_moves``/``apply`` hundreds of thousands of times per decision, so these
are the figures to watch. A benchmark, not a test: numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import statistics
import time

from engines.generation_zero import GenerationZeroEngine
from engines.rng import Rng

ENGINE = GenerationZeroEngine()


def playouts(
    players: int, games: int, preset: str
) -> tuple[list[float], list[float], list[float], int]:
    """``(playout seconds, legal ms, apply ms, decisions)`` over ``games`` seeded games."""
    options = ENGINE.resolve_options({}, preset=preset)
    per_game: list[float] = []
    legal_ms: list[float] = []
    apply_ms: list[float] = []
    decisions = 0
    clock = time.perf_counter
    for seed in range(games):
        state = ENGINE.new_game(players, options, seed)
        rng = Rng(seed)
        start = clock()
        while seats := ENGINE.to_move(state):
            t0 = clock()
            moves = ENGINE.legal_moves(state, seats[0])
            t1 = clock()
            state = ENGINE.apply(state, seats[0], moves[rng.below(len(moves))]).state
            t2 = clock()
            legal_ms.append((t1 - t0) * 1000)
            apply_ms.append((t2 - t1) * 1000)
            decisions += 1
        per_game.append(clock() - start)
    return per_game, legal_ms, apply_ms, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="playouts per player count")
    parser.add_argument("--preset", default="standard", help="option preset (standard, draft…)")
    args = parser.parse_args()
    print(f"Generation Zero random playouts ({args.games} seeded games each, {args.preset})")
    for players in (2, 3, 4):
        per_game, legal, applied, decisions = playouts(players, args.games, args.preset)
        median = statistics.median(per_game)
        legal_p90 = statistics.quantiles(legal, n=10)[-1]
        apply_p90 = statistics.quantiles(applied, n=10)[-1]
        print(
            f"{players} players: {1 / median:7.1f} playouts/s (median; mean "
            f"{len(per_game) / sum(per_game):.1f}), legal_moves median "
            f"{statistics.median(legal):.3f} ms (p90 {legal_p90:.3f}), apply median "
            f"{statistics.median(applied):.3f} ms (p90 {apply_p90:.3f}), "
            f"{decisions / args.games:.0f} decisions/game"
        )


if __name__ == "__main__":
    main()
