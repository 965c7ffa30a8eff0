"""Speed of the AI: MCTS iterations/s, playout plies/s and think time per level, per game.

Run: ``.venv/bin/python bench/ai_speed.py [--seconds S] [--decisions N] [--game ID ...]``.

For each game setup it prints, measured in the same run:

* the floor: uniformly random play, plies/s and whole random games (playouts) per second
  (games capped at 3,000 plies; ``legal_moves`` + the engine's ``child``, quick in three games);
* MCTS from positions 0–40 random plies into a game: iterations/s and playout plies/s
  (target, issue 14: Generatorb ≥ 2,000 iterations/s);
* per level, the wall-clock think time of ``choose_move`` per decision over ``N`` positions:
  median and p99 (targets: level 1 ≤ 0.2 s; level 5 ≤ 2 s median, ≤ 5 s p99, on one core).

Not a test: numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from ai import LEVELS, Budget, Mcts, choose_move
from engines import get_engine
from engines.base import CHANCE, Engine

#: (game, players, options) measured by default.
SETUPS: list[tuple[str, int, dict[str, Any]]] = [
    ("generatorb", 2, {}),
    ("arbos", 2, {}),
    ("generator", 2, {}),
    ("generator", 4, {}),
    ("orbs", 2, {}),
    ("orbs", 4, {}),
    ("generation_zero", 2, {}),
    ("generation_zero", 4, {}),
]


def _step(engine: Engine[Any, Any], state: Any, seat: int, move: Any) -> Any:
    return engine.child(state, seat, move)


def random_play(
    engine: Engine[Any, Any], players: int, options: dict[str, Any], seconds: float
) -> tuple[float, float]:
    """``(plies/s, games/s)`` of seeded uniformly random games capped at 3,000 plies."""
    resolved = engine.options_for(engine.resolve_options(options), players)
    rng = random.Random(1)
    plies = games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = engine.new_game(players, resolved, games)
        for _ in range(3000):
            acting = engine.to_move(state)
            if not acting:
                break
            if acting == (CHANCE,):
                state = engine.apply_chance(state, engine.sample_chance(state)).state
            else:
                moves = engine.legal_moves(state, acting[0])
                state = _step(engine, state, acting[0], moves[int(rng.random() * len(moves))])
            plies += 1
        games += 1
    elapsed = time.perf_counter() - started
    return plies / elapsed, games / elapsed


def positions(
    engine: Engine[Any, Any], players: int, options: dict[str, Any], count: int
) -> list[tuple[Any, int]]:
    """``count`` seeded (state, seat to move) pairs 0–40 random plies into a game."""
    resolved = engine.options_for(engine.resolve_options(options), players)
    rng = random.Random(7)
    found: list[tuple[Any, int]] = []
    seed = 0
    while len(found) < count:
        seed += 1
        state = engine.new_game(players, resolved, seed)
        target = int(rng.random() * 41)
        ply = 0
        while True:
            acting = engine.to_move(state)
            if not acting:
                break
            if acting == (CHANCE,):
                state = engine.apply_chance(state, engine.sample_chance(state)).state
                continue
            if ply >= target and len(engine.legal_moves(state, acting[0])) > 1:
                found.append((state, acting[0]))
                break
            moves = engine.legal_moves(state, acting[0])
            state = _step(engine, state, acting[0], moves[int(rng.random() * len(moves))])
            ply += 1
    return found


def subject(engine: Engine[Any, Any], state: Any, seat: int) -> Any:
    return engine.view(state, seat) if engine.info.has_hidden_information else state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per speed measurement")
    parser.add_argument("--decisions", type=int, default=4, help="positions per level")
    parser.add_argument("--game", action="append", help="game id (repeatable)")
    parser.add_argument("--levels", default="12345", help="levels to time, e.g. 15")
    args = parser.parse_args()
    setups = [s for s in SETUPS if not args.game or s[0] in args.game]
    levels = [lv for lv in LEVELS if str(lv.number) in args.levels]
    print(
        f"{'game':<20} {'random plies/s':>14} {'playouts/s':>10} {'MCTS it/s':>9}"
        f" {'MCTS plies/s':>12}  " + "  ".join(f"L{lv.number} med/p99 s" for lv in levels)
    )
    for game, players, options in setups:
        engine = get_engine(game)
        plies_s, games_s = random_play(engine, players, options, args.seconds)
        spots = positions(engine, players, options, max(args.decisions, 3))
        mcts = Mcts(engine)
        iterations = plies = 0
        elapsed = 0.0
        for index, (state, seat) in enumerate(spots[:3]):
            started = time.perf_counter()
            look = subject(engine, state, seat)
            budget = Budget(10**9, args.seconds / 3)
            if engine.info.has_hidden_information:
                result = mcts.search_view(look, seat, budget, index)
            else:
                result = mcts.search(look, seat, budget, index)
            elapsed += time.perf_counter() - started
            iterations += result.iterations
            plies += result.plies
        cells = []
        resolved = engine.options_for(engine.resolve_options(options), players)
        for lv in levels:
            times = []
            for index, (state, seat) in enumerate(spots[: args.decisions]):
                look = subject(engine, state, seat)
                if not engine.info.has_hidden_information:
                    look = engine.dumps(state)
                started = time.perf_counter()
                # The level's number, so that a game's own table (ai.levels.GAME_LEVELS)
                # is timed, not the default one.
                choose_move(game, resolved, seat, look, lv.number, index)
                times.append(time.perf_counter() - started)
            p99 = sorted(times)[min(len(times) - 1, int(0.99 * len(times)))]
            cells.append(f"{statistics.median(times):>5.2f}/{p99:<5.2f}")
        print(
            f"{game + ' ' + str(players) + 'p':<20} {plies_s:>14,.0f} {games_s:>10.1f}"
            f" {iterations / elapsed:>9,.0f} {plies / elapsed:>12,.0f}  "
            + "  ".join(f"{c:>12}" for c in cells),
            flush=True,
        )


if __name__ == "__main__":
    main()
