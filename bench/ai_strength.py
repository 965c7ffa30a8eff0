"""Playing strength of the bot levels: seeded matches, win rates with 95% Wilson intervals.

Run: ``.venv/bin/python bench/ai_strength.py [--games N] [--game ID ...] [--match A-B ...]``.
A match ``A-B`` pits level A (``1``…``5``) against B (a level or ``random``):

* two-player games: N games, seats alternating; the score is wins + ½ draws, shown as a rate
  with its 95% Wilson interval (draws counted as half a win, the usual approximation).
  Goals (issue 14): L1 vs random ≥ 90%, each level vs the one below ≥ 60%, L5 vs random ≥ 99%.
* multi-player games (``--players`` > 2): one seat plays A, every other seat B, the A seat
  rotating; reported: A's mean reward (1 = first, 0 = last, ties shared, see ``ai.rewards``)
  with its Wilson interval, against ``1/2``, the mean of an equal field.

Defaults finish in a few minutes on one core: Generatorb and Orbs, matches ``1-random`` and
``2-1``, 6 games each. Games are capped at ``--max-plies`` (a capped game counts as a draw).
Not a test: numbers depend on the machine (the levels have wall-clock limits).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import Any

# bench/ai.py would shadow the ``ai`` package: drop this directory from the path and make the
# repository root importable when run as ``python bench/ai_strength.py``.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from ai.arena import play_game  # noqa: E402
from ai.bots import Bot, MctsBot, RandomBot  # noqa: E402
from engines import get_engine  # noqa: E402

DEFAULT_GAMES = ("generatorb", "orbs")
DEFAULT_MATCHES = ("1-random", "2-1")
#: Options per game for the benchmark: turn limits keep Generator finite.
OPTIONS: dict[str, dict[str, Any]] = {"generator": {"max_turns": 200}}


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion ``score / n`` (Wilson 1927)."""
    if n == 0:
        return (0.0, 1.0)
    p = score / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def make_bot(name: str) -> Bot:
    return RandomBot() if name == "random" else MctsBot(int(name))


def run_match(
    game: str, players: int, a: str, b: str, games: int, seed: int, max_plies: int
) -> tuple[float, int, float, float]:
    """``(A's total score, games, seconds, A's mean seconds per decision)``."""
    engine = get_engine(game)
    options = OPTIONS.get(game, {})
    total = 0.0
    started = time.perf_counter()
    think: list[float] = []
    for index in range(games):
        seat = index % players
        bots = [make_bot(a) if s == seat else make_bot(b) for s in range(players)]
        record = play_game(engine, players, options, bots, seed + index, max_plies=max_plies)
        total += record.rewards[seat]
        think.extend(t for s, t in record.think if s == seat)
    mean_think = sum(think) / len(think) if think else 0.0
    return total, games, time.perf_counter() - started, mean_think


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="games per match (default 6)")
    parser.add_argument("--game", action="append", help="game id (repeatable)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--match", action="append", help="A-B, e.g. 1-random or 3-2")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--max-plies", type=int, default=1500)
    args = parser.parse_args()
    game_ids = args.game or list(DEFAULT_GAMES)
    matches = args.match or list(DEFAULT_MATCHES)
    for game in game_ids:
        print(f"\n{game}, {args.players} players, {args.games} games per match")
        print(
            f"{'match':<12} {'score':>7} {'rate':>6} {'95% Wilson':>15} {'s/dec A':>8} {'time':>7}"
        )
        for match in matches:
            a, b = match.split("-")
            score, n, seconds, think = run_match(
                game, args.players, a, b, args.games, args.seed, args.max_plies
            )
            low, high = wilson(score, n)
            label = f"L{a} vs {b if b == 'random' else 'L' + b}"
            print(
                f"{label:<12} {score:>7.1f} {score / n:>6.0%} {low:>7.0%}–{high:<7.0%}"
                f" {think:>8.2f} {seconds:>6.0f}s",
                flush=True,
            )


if __name__ == "__main__":
    main()
