"""Engine-only benchmark for Generator: move generation, apply and random playouts.

Run: ``.venv/bin/python bench/generator.py [--seconds S] [--positions N]``. For 2, 3 and 4
players it prints

* the median time of ``legal_moves`` and of ``apply`` (with events) and ``child`` (without)
  per decision, over decision points (a seat to act after its roll) sampled from seeded
  random playouts;
* random-playout speed: plies per second (actions and die rolls, each applied through the
  engine, rolls sampled from the game's own generator) and complete playouts per second under
  the ``chat`` preset (a draw after 200 turns), the bot's usual table.

Not a test: numbers depend on the machine. Target from the brief: well under 0.1 ms for
generation and for apply on typical positions.
"""

from __future__ import annotations

import argparse
import statistics
import time

from engines.base import CHANCE
from engines.generator import GeneratorEngine, GeneratorState
from engines.rng import Rng

ENGINE = GeneratorEngine()


def decision_points(players: int, count: int, seed: int) -> list[GeneratorState]:
    """``count`` states where a seat is to act after its roll, from seeded random games.

    Each game contributes the decisions between its 20th and 400th turn, every 7th one, so
    the sample covers openings, crowded middles and long games alike.
    """
    rng = Rng(seed)
    options = ENGINE.resolve_options({})
    found: list[GeneratorState] = []
    game = 0
    while len(found) < count:
        state = ENGINE.new_game(players, options, seed * 1000 + game)
        game += 1
        while ENGINE.to_move(state) and state.count < 400 and len(found) < count:
            if ENGINE.to_move(state) == (CHANCE,):
                state = ENGINE.apply_chance(state, ENGINE.sample_chance(state)).state
                continue
            if state.count >= 20 and state.count % 7 == 0:
                found.append(state)
            moves = ENGINE.legal_moves(state, state.turn)
            state = ENGINE.child(state, state.turn, moves[rng.below(len(moves))])
    return found


def per_call_us(states: list[GeneratorState], repeat: int) -> tuple[float, float, float, float]:
    """Medians in µs of legal_moves, apply and child per decision, and the mean move count."""
    rng = Rng(5)
    generate: list[float] = []
    apply: list[float] = []
    child: list[float] = []
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
        t0 = time.perf_counter()
        for _ in range(repeat):
            ENGINE.child(state, seat, move)
        child.append((time.perf_counter() - t0) / repeat * 1e6)
    return (
        statistics.median(generate),
        statistics.median(apply),
        statistics.median(child),
        statistics.fmean(sizes),
    )


def playouts(players: int, seconds: float, seed: int, preset: str | None) -> tuple[float, float]:
    """``(plies per second, finished playouts per second)`` of uniformly random games.

    A ply is one die roll or one action; rolls are sampled with ``sample_chance`` and applied
    with ``apply_chance``, actions chosen uniformly from ``legal_moves`` and played with
    ``child``. Resignations do not happen.
    """
    rng = Rng(seed)
    options = ENGINE.resolve_options({}, preset=preset)
    plies = finished = 0
    start = time.perf_counter()
    game = 0
    state = ENGINE.new_game(players, options, seed)
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            to_move = ENGINE.to_move(state)
            if not to_move:
                finished += 1
                game += 1
                state = ENGINE.new_game(players, options, seed + game)
            elif to_move == (CHANCE,):
                state = ENGINE.apply_chance(state, ENGINE.sample_chance(state)).state
            else:
                moves = ENGINE.legal_moves(state, state.turn)
                state = ENGINE.child(state, state.turn, moves[rng.below(len(moves))])
            plies += 1
    elapsed = time.perf_counter() - start
    return plies / elapsed, finished / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per playout run")
    parser.add_argument("--positions", type=int, default=300, help="decision points per count")
    parser.add_argument("--repeat", type=int, default=200, help="calls per decision point")
    args = parser.parse_args()
    print("Generator engine benchmark (medians; µs = microseconds)")
    print(
        f"{'players':>7} {'moves':>6} {'legal_moves':>12} {'apply':>9} {'child':>9} "
        f"{'plies/s':>9} {'chat playouts/s':>16}"
    )
    for players in (2, 3, 4):
        states = decision_points(players, args.positions, seed=players)
        gen_us, apply_us, child_us, mean_moves = per_call_us(states, args.repeat)
        rate, _ = playouts(players, args.seconds, seed=players, preset=None)
        _, chat_rate = playouts(players, args.seconds, seed=players, preset="chat")
        print(
            f"{players:>7} {mean_moves:>6.1f} {gen_us:>9.1f} µs {apply_us:>6.1f} µs "
            f"{child_us:>6.1f} µs {rate:>9,.0f} {chat_rate:>16,.1f}"
        )


if __name__ == "__main__":
    main()
