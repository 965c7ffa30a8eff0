"""Engine-only benchmark for Generatorb: random playouts and mid-game move generation/apply.

Run: ``.venv/bin/python bench/engine.py [--seconds S]``. Prints medians over repeated runs and
the ratio to the peer figures measured for Abstract Play's TypeScript engine on node (about
1,150 plies/s in random playouts, about 0.8 ms per legal-move generation; issue #2).
Not a test: numbers depend on the machine. Targets: >= 3,500 plies/s, <= 0.15 ms generation.
"""

from __future__ import annotations

import argparse
import statistics
import time

from engines.generatorb import GeneratorbEngine, GeneratorbState
from engines.rng import Rng

PEER_PLIES_PER_SECOND = 1150.0
PEER_LEGAL_MS = 0.8
ENGINE = GeneratorbEngine()


def playouts(seconds: float, seed: int) -> float:
    """Plies per second of uniformly random games (legal_moves + child per ply)."""
    rng = Rng(seed)
    options = ENGINE.resolve_options({})
    plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = ENGINE.new_game(2, options, 0)
        while state.outcome is None:
            moves = ENGINE.legal_moves(state, state.turn)
            state = ENGINE.child(state, state.turn, moves[rng.below(len(moves))])
            plies += 1
    return plies / (time.perf_counter() - start)


def mid_game_positions(count: int) -> list[GeneratorbState]:
    """Positions between ply 30 and 90 of seeded random games (not finished)."""
    rng = Rng(99)
    options = ENGINE.resolve_options({})
    found: list[GeneratorbState] = []
    while len(found) < count:
        state = ENGINE.new_game(2, options, 0)
        target = 30 + rng.below(60)
        while state.outcome is None and state.ply < target:
            moves = ENGINE.legal_moves(state, state.turn)
            state = ENGINE.child(state, state.turn, moves[rng.below(len(moves))])
        if state.outcome is None:
            found.append(state)
    return found


def per_call_ms(positions: list[GeneratorbState], repeat: int) -> tuple[float, float]:
    """Median ms of legal_moves and of apply (with events) over the positions."""
    gen: list[float] = []
    app: list[float] = []
    for state in positions:
        t0 = time.perf_counter()
        for _ in range(repeat):
            moves = ENGINE.legal_moves(state, state.turn)
        gen.append((time.perf_counter() - t0) / repeat * 1e3)
        move = moves[len(moves) // 2]
        t0 = time.perf_counter()
        for _ in range(repeat):
            ENGINE.apply(state, state.turn, move)
        app.append((time.perf_counter() - t0) / repeat * 1e3)
    return statistics.median(gen), statistics.median(app)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per playout run")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rates = [playouts(args.seconds, seed) for seed in range(args.runs)]
    rate = statistics.median(rates)
    gen_ms, apply_ms = per_call_ms(mid_game_positions(200), repeat=50)
    print("Generatorb engine benchmark (median of runs)")
    print(
        f"  random playouts      {rate:10.0f} plies/s   ({rate / PEER_PLIES_PER_SECOND:.1f}x "
        f"Abstract Play's {PEER_PLIES_PER_SECOND:.0f}; target >= 3500)"
    )
    print(
        f"  legal_moves, mid-game {gen_ms:9.4f} ms       ({PEER_LEGAL_MS / gen_ms:.1f}x faster "
        f"than Abstract Play's {PEER_LEGAL_MS} ms; target <= 0.15)"
    )
    print(f"  apply (with events)  {apply_ms:10.4f} ms")
    print(f"  runs: {', '.join(f'{r:.0f}' for r in rates)} plies/s")


if __name__ == "__main__":
    main()
