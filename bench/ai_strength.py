"""Playing strength of the bot levels: seeded matches, win rates with 95% Wilson intervals.

Run: ``.venv/bin/python bench/ai_strength.py [--games N] [--game ID ...] [--match A-B ...]``
(``--players N``, ``--option NAME=VALUE``, ``--seed S``, ``--verbose`` for every game).
A match ``A-B`` pits level A (``1``…``5``) against B (a level or ``random``); game ``i`` uses
seed ``S + i`` (``S + i // players`` with ``--paired``), so a run is reproducible where the
iteration budgets, not the clocks, bind.

* two-player games: N games, seats alternating; the score is wins + ½ draws, shown as a rate
  with its 95% Wilson interval (draws counted as half a win, the usual approximation), and
  A's wins-draws-losses. Goals (issue 14): L1 vs random ≥ 90%, each level vs the one below
  ≥ 60%, L5 vs random ≥ 99%.
* multi-player games (``--players`` > 2): one seat plays A, every other seat B, the A seat
  rotating; reported: A's mean reward (1 = first, 0 = last, ties shared, see ``ai.rewards``)
  with its Wilson interval, and A's mean rank ``1 + (players − 1) × (1 − reward)``; an equal
  field gives ½ and rank ``(players + 1) / 2``. W-D-L then counts first alone / in between /
  last alone.

Also printed: mean plies per game (chance draws included) and A's mean / largest seconds per
decision. Generator is played with a turn limit (its default has none, so a game between
bots could go on for ever): ``max_turns=600`` with 2 players, 4,000 with 3 or 4 (see
:func:`bench_options`). Defaults finish in a few minutes: Generatorb and Orbs, matches
``1-random`` and ``2-1``, 6 games each. Games are capped at ``--max-plies`` (default 1,500,
or twice the turn limit and 100 more when there is one; a capped game counts as a draw).
Not a test: numbers depend on the machine (the levels have wall-clock limits).

``--paired`` plays each seed ``players`` times in a row, A in each seat once (game ``i``
has seed ``S + i // players``): the deal's luck (Generation Zero's cards, Generator's
rolls, Arbos' random setup) then falls on both sides alike instead of adding to the
spread of the result. The Wilson interval still treats the games as independent, which
overstates the spread of a paired run: it stays a conservative bound.

``--jobs N`` plays N games at a time, each in a worker process (``ProcessPoolExecutor``);
game ``i`` still has its seed (``S + i``, or ``S + i // players`` with ``--paired``) and
the verbose lines come in game order, so a run's
games are the same as with one job wherever the iteration budgets bind. Where a level's
clock binds (level 5 nearly always), more jobs than free cores give each search less of a
core: a harder test for the stronger side, to be said beside the figures.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from ai.arena import play_game
from ai.bots import Bot, MctsBot, RandomBot
from engines import get_engine

DEFAULT_GAMES = ("generatorb", "orbs")
DEFAULT_MATCHES = ("1-random", "2-1")
#: Plies a game may last when it has no turn limit (``--max-plies``).
MAX_PLIES = 1500


def bench_options(game: str, players: int) -> dict[str, Any]:
    """The options a benchmark game is played with: a turn limit keeps Generator finite.

    Two bots finish a 2-player Generator game in about 200 plies, so 600 turns rarely bind.
    Four low-level bots take far longer to couple: with 600 turns, 29 of 40 games of level 2
    against three level 1s ended at the limit as draws; with 3,000 turns all 40 ended by
    coupling, the longest after 2,876 turns (2026-11-26). So 3 and 4 players get 4,000.
    """
    if game == "generator":
        return {"max_turns": 600 if players == 2 else 4000}
    return {}


def max_plies_for(options: dict[str, Any]) -> int:
    """``--max-plies``' default: twice the turn limit and 100 more (a Generator turn is a die
    roll and a move), else :data:`MAX_PLIES`."""
    turns = options.get("max_turns")
    return 2 * int(turns) + 100 if turns else MAX_PLIES


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


@dataclass(slots=True)
class MatchResult:
    """A's total score over ``games``; wins / draws / losses of A (a win: A among the
    outcome's winners with a reward above ½, so first alone or with its team, not in a first
    place everybody shares; a loss: A in the last place; else a draw: shared or middle
    places); mean plies per game, wall seconds, A's mean and maximum seconds per decision."""

    score: float = 0.0
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    plies: float = 0.0
    seconds: float = 0.0
    think: float = 0.0
    think_max: float = 0.0


@dataclass(frozen=True, slots=True)
class GameTask:
    """Game ``index`` of a match (seed ``seed + index``, or ``seed + index // players`` when
    ``paired``; A in seat ``index % players``)."""

    game: str
    players: int
    a: str
    b: str
    options: dict[str, Any]
    seed: int
    index: int
    max_plies: int
    paired: bool = False

    @property
    def game_seed(self) -> int:
        return self.seed + (self.index // self.players if self.paired else self.index)


@dataclass(frozen=True, slots=True)
class GamePlayed:
    """What a match keeps of one game: A's seat and reward, how it ended (a termination, or
    ``capped``), its plies and A's seconds per decision; ``place`` ``"won"`` (A among the
    winners, with a reward above ½), ``"last"`` (A in the last of several places) or
    ``"shared"``."""

    seat: int
    reward: float
    end: str
    plies: int
    think: tuple[float, ...]
    place: str = "shared"


def play_task(task: GameTask) -> GamePlayed:
    """Play one game of a match (in this process or a worker's)."""
    seat = task.index % task.players
    bots = [make_bot(task.a) if s == seat else make_bot(task.b) for s in range(task.players)]
    engine = get_engine(task.game)
    record = play_game(
        engine, task.players, task.options, bots, task.game_seed, max_plies=task.max_plies
    )
    end = record.outcome.termination if record.outcome else "capped"
    think = tuple(t for s, t in record.think if s == seat)
    place = "shared"
    if record.outcome is not None:
        ranking = record.outcome.ranking
        if seat in record.outcome.winners and record.rewards[seat] > 0.5:
            place = "won"  # first, alone or with teammates (not a tie with everybody)
        elif len(ranking) > 1 and seat in ranking[-1]:
            place = "last"
    return GamePlayed(seat, record.rewards[seat], end, len(record.moves), think, place)


def _played(tasks: list[GameTask], jobs: int) -> Iterator[GamePlayed]:
    """The games of ``tasks`` in their order, played ``jobs`` at a time."""
    if jobs <= 1:
        yield from map(play_task, tasks)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(play_task, tasks)


def run_match(
    game: str,
    players: int,
    a: str,
    b: str,
    games: int,
    seed: int,
    max_plies: int,
    options: dict[str, Any] | None = None,
    verbose: bool = False,
    jobs: int = 1,
    paired: bool = False,
) -> MatchResult:
    """Play ``games`` seeded games, A's seat rotating, ``jobs`` at a time; see
    :class:`MatchResult`. ``options``: the game's options (default :func:`bench_options`);
    ``paired``: each seed once per seat (:class:`GameTask`)."""
    opts = bench_options(game, players) if options is None else options
    result = MatchResult()
    started = time.perf_counter()
    think: list[float] = []
    plies = 0
    tasks = [GameTask(game, players, a, b, opts, seed, i, max_plies, paired) for i in range(games)]
    for index, played in enumerate(_played(tasks, jobs)):
        seat, reward = played.seat, played.reward
        result.score += reward
        result.games += 1
        if played.place == "won":
            result.wins += 1
        elif played.place == "last":
            result.losses += 1
        else:
            result.draws += 1
        plies += played.plies
        think.extend(played.think)
        if verbose:
            print(
                f"  game {index + 1}: seat {seat} reward {reward:.2f} ({played.end}, "
                f"{played.plies} plies, seed {tasks[index].game_seed})",
                flush=True,
            )
    result.plies = plies / games if games else 0.0
    result.think = sum(think) / len(think) if think else 0.0
    result.think_max = max(think, default=0.0)
    result.seconds = time.perf_counter() - started
    return result


def _option(text: str) -> tuple[str, Any]:
    name, _, value = text.partition("=")
    return name, int(value) if value.lstrip("-").isdigit() else value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="games per match (default 6)")
    parser.add_argument("--game", action="append", help="game id (repeatable)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--match", action="append", help="A-B, e.g. 1-random or 3-2")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--max-plies", type=int, help="cap per game (default: twice the turn limit + 100, or 1500)"
    )
    parser.add_argument(
        "--option", action="append", default=[], help="game option NAME=VALUE (repeatable)"
    )
    parser.add_argument("--verbose", action="store_true", help="print every game")
    parser.add_argument(
        "--jobs", type=int, default=1, help="games played at a time, one process each (default 1)"
    )
    parser.add_argument(
        "--paired", action="store_true", help="play each seed once per seat, A in each seat"
    )
    args = parser.parse_args()
    if args.paired and args.games % args.players:
        parser.error(f"--paired needs --games a multiple of --players ({args.players})")
    game_ids = args.game or list(DEFAULT_GAMES)
    matches = args.match or list(DEFAULT_MATCHES)
    extra = dict(_option(text) for text in args.option)
    for game in game_ids:
        options = {**bench_options(game, args.players), **extra}
        max_plies = args.max_plies or max_plies_for(options)
        shown = ", ".join(f"{k}={v}" for k, v in options.items()) or "default options"
        paired = ", each seed once per seat" if args.paired else ""
        print(f"\n{game}, {args.players} players, {args.games} games per match{paired}, {shown}")
        print(
            f"{'match':<12} {'score':>7} {'rate':>6} {'95% Wilson':>13} {'W-D-L':>9}"
            f" {'rank':>5} {'plies':>6} {'s/dec A':>11} {'time':>6}"
        )
        for match in matches:
            a, b = match.split("-")
            r = run_match(
                game,
                args.players,
                a,
                b,
                args.games,
                args.seed,
                max_plies,
                options,
                args.verbose,
                args.jobs,
                args.paired,
            )
            low, high = wilson(r.score, r.games)
            rate = r.score / r.games
            # Mean rank of A, 1 = first: reward = fraction of the others beaten (ties half).
            rank = 1 + (args.players - 1) * (1 - rate)
            label = f"L{a} vs {b if b == 'random' else 'L' + b}"
            print(
                f"{label:<12} {r.score:>7.1f} {rate:>6.0%} {low:>5.0%}–{high:<6.0%}"
                f" {f'{r.wins}-{r.draws}-{r.losses}':>9} {rank:>5.2f} {r.plies:>6.0f}"
                f" {r.think:>5.2f}/{r.think_max:<5.2f} {r.seconds:>5.0f}s",
                flush=True,
            )


if __name__ == "__main__":
    main()
