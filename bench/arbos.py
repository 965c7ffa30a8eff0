"""Time the Arbos engine: ``python bench/arbos.py [--games N]``.

Plays N seeded random games (random setup, 10 seeds each, moves chosen uniformly among the
non-pass moves, with an occasional pass) and times, on every position of every game:

* legal-move generation for the player to move, split into a *mid-game* bucket (40–100
  spores on the board) and a *full board* bucket (150 spores or more);
* ``apply`` (with events) of a random legal move in the same buckets;
* the autocomplete path, ``suggest_moves`` for a two-character prefix.

It also times the worst case the spec warns about: legal-move generation with a seed in hand,
where every legal pair of cells is a double (tens of thousands of moves). Prints medians and
the ratio to the issue's target of 2 ms. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from engines.arbos import BLACK, WHITE, ArbosEngine, ArbosState
from engines.base import CHANCE
from engines.rng import Rng

ENGINE = ArbosEngine()
TARGET_MS = 2.0


def timed(call: Callable[[], Any], repeat: int = 5) -> float:
    """Median wall time of ``call`` in milliseconds over ``repeat`` runs."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def game(seed: int) -> list[ArbosState]:
    """The positions of one seeded random game where a player is to move."""
    rng = Rng(seed, 1)
    state = ENGINE.new_game(2, ENGINE.resolve_options({}), seed)
    positions = []
    while ENGINE.to_move(state):
        if ENGINE.to_move(state) == (CHANCE,):
            state = ENGINE.apply_chance(state, ENGINE.sample_chance(state)).state
            continue
        positions.append(state)
        moves = ENGINE.legal_moves(state, state.turn)
        active = [m for m in moves if m.kind != "pass"]
        move = rng.choice(active) if active and rng.below(30) else rng.choice(moves)
        state = ENGINE.child(state, state.turn, move)
    return positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    args = parser.parse_args()
    buckets: dict[str, dict[str, list[float]]] = {
        "mid-game": {"legal": [], "apply": [], "suggest": []},
        "full board": {"legal": [], "apply": [], "suggest": []},
    }
    plies = 0
    start = time.perf_counter()
    for seed in range(args.games):
        for state in game(seed):
            plies += 1
            spores = state.board.count(WHITE) + state.board.count(BLACK)
            name = "mid-game" if 40 <= spores <= 100 else "full board" if spores >= 150 else ""
            if not name:
                continue
            seat = state.turn
            moves = ENGINE.legal_moves(state, seat)
            move = moves[plies % len(moves)]
            buckets[name]["legal"].append(timed(lambda s=state: ENGINE.legal_moves(s, s.turn)))
            buckets[name]["apply"].append(timed(lambda s=state, m=move: ENGINE.apply(s, s.turn, m)))
            buckets[name]["suggest"].append(
                timed(lambda s=state: ENGINE.suggest_moves(s, s.turn, "k1", 25))
            )
    elapsed = time.perf_counter() - start
    print(f"{args.games} games, {plies} positions to move ({elapsed:.1f} s including timing)")
    for name, series in buckets.items():
        for what, values in series.items():
            if values:
                median = statistics.median(values)
                print(
                    f"{name:>10} {what:>8}: median {median:.3f} ms over {len(values)} positions"
                    f" ({median / TARGET_MS:.2f}x the {TARGET_MS:g} ms target)"
                )

    # The worst case: a seed in hand on an open board, so every pair of cells is a double.
    opening = ENGINE.from_position(
        "/".join(["20"] * 9 + ["9g10"] + ["20"] * 10)
        + " phase:play turn:W setup:0/0 hands:1/0 supply:79/80 passes:0 prune:0",
        ENGINE.resolve_options({}),
    )
    count = len(ENGINE.legal_moves(opening, 0))
    worst = timed(lambda: ENGINE.legal_moves(opening, 0), repeat=3)
    suggest = timed(lambda: ENGINE.suggest_moves(opening, 0, "double K5 ", 25))
    print(
        f"with a seed in hand on an open board: {count} legal moves in {worst:.1f} ms "
        f"(listing every double); autocomplete of a double's second cell {suggest:.3f} ms"
    )


if __name__ == "__main__":
    main()
