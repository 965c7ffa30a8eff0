"""Engine-only benchmark for Orbs: move generation, apply and random playouts.

Run: ``.venv/bin/python bench/orbs.py [--seconds S] [--positions N]``. For 2, 3, 4 and 6
players (6 also in teams ``024-135``) it prints

* the median time of ``legal_moves`` and of ``apply`` (with events and the ORB-8 end checks)
  per decision, over decision points sampled from seeded random playouts;
* random-playout speed: plies per second and finished playouts per second (the default
  ``no_progress_limit`` ends aimless games, so every playout finishes);
* first, **random playouts/s** over ``--games`` seeded games per table (game ``k`` from seed
  ``k``): 1 / the median time of one playout, with the medians of ``legal_moves`` and
  ``apply`` per ply (``--playouts-only`` stops there).

Not a test: numbers depend on the machine. The bot calls each of these once per chat message;
a future AI calls them many times, so they are kept well under 0.1 ms.
"""

from __future__ import annotations

import argparse
import statistics
import time

from engines.orbs import OrbsEngine, OrbsState
from engines.rng import Rng

ENGINE = OrbsEngine()
TABLES: tuple[tuple[int, dict[str, str]], ...] = (
    (2, {}),
    (3, {}),
    (4, {}),
    (6, {}),
    (6, {"teams": "024-135"}),
)


def decision_points(players: int, options: dict[str, str], count: int) -> list[OrbsState]:
    """``count`` states with a seat to move, every 3rd ply of seeded random games."""
    rng = Rng(players)
    opts = ENGINE.resolve_options(options)
    found: list[OrbsState] = []
    game = 0
    while len(found) < count:
        state = ENGINE.new_game(players, opts, game)
        game += 1
        ply = 0
        while ENGINE.to_move(state) and len(found) < count:
            if ply % 3 == 0:
                found.append(state)
            moves = ENGINE.legal_moves(state, state.turn)
            state = ENGINE.apply(state, state.turn, moves[rng.below(len(moves))]).state
            ply += 1
    return found


def per_call_us(states: list[OrbsState], repeat: int) -> tuple[float, float, float]:
    """Medians in µs of legal_moves and apply per decision, and the mean move count."""
    rng = Rng(5)
    generate: list[float] = []
    apply: list[float] = []
    sizes: list[int] = []
    for state in states:
        seat = state.turn
        t0 = time.perf_counter()
        for _ in range(repeat):
            moves = ENGINE.legal_moves(state, seat)
        generate.append((time.perf_counter() - t0) / repeat * 1e6)
        sizes.append(len(moves))
        move = moves[rng.below(len(moves))]
        t0 = time.perf_counter()
        for _ in range(repeat):
            ENGINE.apply(state, seat, move)
        apply.append((time.perf_counter() - t0) / repeat * 1e6)
    return statistics.median(generate), statistics.median(apply), statistics.fmean(sizes)


def playouts(players: int, options: dict[str, str], seconds: float) -> tuple[float, float]:
    """``(plies per second, finished playouts per second)`` of uniformly random games."""
    rng = Rng(players)
    opts = ENGINE.resolve_options(options)
    plies = finished = game = 0
    state = ENGINE.new_game(players, opts, game)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            if not ENGINE.to_move(state):
                finished += 1
                game += 1
                state = ENGINE.new_game(players, opts, game)
            moves = ENGINE.legal_moves(state, state.turn)
            state = ENGINE.apply(state, state.turn, moves[rng.below(len(moves))]).state
            plies += 1
    elapsed = time.perf_counter() - start
    return plies / elapsed, finished / elapsed


def playout_medians(
    players: int, options: dict[str, str], games: int
) -> tuple[float, float, float, float]:
    """Seeded random playouts (game ``k`` from seed ``k``, moves uniform with ``Rng(k)``):
    ``(playouts/s from the median playout time, plies per playout, median legal_moves µs,
    median apply µs)``; ``new_game`` is not timed."""
    opts = ENGINE.resolve_options(options)
    clock = time.perf_counter
    per_game: list[float] = []
    legal_us: list[float] = []
    apply_us: list[float] = []
    plies = 0
    for seed in range(games):
        state = ENGINE.new_game(players, opts, seed)
        rng = Rng(seed)
        start = clock()
        while ENGINE.to_move(state):
            t0 = clock()
            moves = ENGINE.legal_moves(state, state.turn)
            t1 = clock()
            state = ENGINE.apply(state, state.turn, moves[rng.below(len(moves))]).state
            t2 = clock()
            legal_us.append((t1 - t0) * 1e6)
            apply_us.append((t2 - t1) * 1e6)
            plies += 1
        per_game.append(clock() - start)
    return (
        1 / statistics.median(per_game),
        plies / games,
        statistics.median(legal_us),
        statistics.median(apply_us),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per playout run")
    parser.add_argument("--positions", type=int, default=300, help="decision points per table")
    parser.add_argument("--repeat", type=int, default=100, help="calls per decision point")
    parser.add_argument("--games", type=int, default=30, help="seeded playouts per table")
    parser.add_argument(
        "--playouts-only", action="store_true", help="only the seeded random playouts"
    )
    args = parser.parse_args()
    print(f"Orbs random playouts ({args.games} seeded games per table; median playout time)")
    print(f"{'table':>14} {'playouts/s':>11} {'plies/game':>11} {'legal_moves':>12} {'apply':>9}")
    for players, options in TABLES:
        rate, plies, legal_us, apply_us = playout_medians(players, options, args.games)
        label = f"{players}p" + (f" teams {options['teams']}" if "teams" in options else "")
        print(f"{label:>14} {rate:>11.1f} {plies:>11.0f} {legal_us:>9.1f} µs {apply_us:>6.1f} µs")
    if args.playouts_only:
        return
    print()
    print("Orbs engine benchmark (medians; µs = microseconds)")
    print(
        f"{'table':>14} {'moves':>6} {'legal_moves':>12} {'apply':>9} "
        f"{'plies/s':>9} {'playouts/s':>11}"
    )
    for players, options in TABLES:
        states = decision_points(players, options, args.positions)
        gen_us, apply_us, mean_moves = per_call_us(states, args.repeat)
        rate, games = playouts(players, options, args.seconds)
        label = f"{players}p" + (f" teams {options['teams']}" if "teams" in options else "")
        print(
            f"{label:>14} {mean_moves:>6.1f} {gen_us:>9.1f} µs {apply_us:>6.1f} µs "
            f"{rate:>9,.0f} {games:>11,.1f}"
        )


if __name__ == "__main__":
    main()
