"""Cost of one server-side turn: seeded random Generatorb games through the GameService.

Plays ``--games`` games on a SQLite file in a temporary directory, each to ``--plies`` plies
(``move_limit`` raised, and a random policy that avoids moves ending the game early, draws by
repetition included), and prints per-turn median and p99 in milliseconds of:

* legal moves  — ``engine.legal_move_texts`` for the side to move (what ``/move``
  autocomplete computes once per position; the service caches it per game version);
* parse+apply  — ``engine.play`` on the same position (the service does exactly this);
* db commit    — ``GamesRepo.commit_moves`` (one transaction: CAS update + move row);
* render+PNG   — ``GameService.render`` (worker thread, palette PNG);
* whole turn   — ``GameService.play`` + ``GameService.render``: everything the bot does
  between the deferred ``/move`` and posting the board.

Then the ratio of each cost around ply 300 to around ply 10 (plies 295–305 vs 5–15), which
shows whether anything grows with the game's length. Targets: whole turn ≤ 15 ms median and
≤ 50 ms p99. Run ``python bench/turn.py`` (``make bench``); this is not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from bot.service import GameService, GameSnapshot
from db import Database, GameRow
from engines import get_engine

METRICS = ("legal moves", "parse+apply", "db commit", "render+PNG", "whole turn")
TARGET_MEDIAN_MS, TARGET_P99_MS = 15.0, 50.0
EARLY, LATE = range(5, 16), range(295, 306)
OPTIONS = "move_limit=100000"

Samples = dict[str, dict[int, float]]  # metric -> ply -> milliseconds


def percentile(values: Sequence[float], fraction: float) -> float:
    """The ``fraction`` quantile by nearest rank (p99 of 100 samples is the largest but one)."""
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))
    return ordered[index]


def timed_commit(database: Database, sink: list[float]) -> Callable[..., Awaitable[GameRow]]:
    """``commit_moves`` that appends its duration (ms) to ``sink``."""
    commit = database.games.commit_moves

    async def commit_moves(*args: Any, **kwargs: Any) -> GameRow:
        start = time.perf_counter()
        try:
            return await commit(*args, **kwargs)
        finally:
            sink.append((time.perf_counter() - start) * 1000)

    return commit_moves


def choose(engine: Any, state: Any, seat: int, moves: list[str], rng: random.Random) -> str:
    """A random move that does not end the game, if there is one (to reach long games)."""
    for text in rng.sample(moves, len(moves)):
        after, _, _ = engine.play(state, seat, text)
        if engine.outcome(after) is None:
            return text
    return rng.choice(moves)


async def play_game(
    service: GameService, commits: list[float], channel_id: int, plies: int, seed: int
) -> list[dict[str, float]]:
    """One game; returns per-ply timings (index = ply - 1)."""
    engine = get_engine("generatorb")
    rng = random.Random(seed)
    challenge = await service.create_challenge(
        guild_id=1,
        channel_id=channel_id,
        challenger_id=1,
        opponent_ids=[2],
        game="generatorb",
        options_text=OPTIONS,
    )
    started = await service.accept_challenge(challenge.challenge_id, 2)
    assert started.game is not None
    snapshot: GameSnapshot = started.game
    mirror = engine.new_game(2, snapshot.options, 0)
    rows: list[dict[str, float]] = []
    while snapshot.is_active and snapshot.ply < plies:
        (seat,) = snapshot.to_move
        user = snapshot.players[seat].user_id
        start = time.perf_counter()
        moves = engine.legal_move_texts(mirror, seat)
        legal_ms = (time.perf_counter() - start) * 1000
        text = choose(engine, mirror, seat, moves, rng)
        start = time.perf_counter()
        mirror, _, _ = engine.play(mirror, seat, text)
        apply_ms = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        result = await service.play(channel_id, user, text)
        played = time.perf_counter()
        png = await service.render(result.snapshot)
        done = time.perf_counter()
        whole_ms, render_ms = (done - start) * 1000, (done - played) * 1000
        if not png.startswith(b"\x89PNG") or result.snapshot.position != engine.position(mirror):
            raise RuntimeError(f"ply {result.snapshot.ply}: the service and the engine disagree")
        rows.append(
            {
                "legal moves": legal_ms,
                "parse+apply": apply_ms,
                "db commit": commits[-1],
                "render+PNG": render_ms,
                "whole turn": whole_ms,
            }
        )
        snapshot = result.snapshot
    return rows


async def store_finished_games(database: Database, count: int) -> None:
    """Fill the database with ``count`` finished two-player games (each with its seats and
    ten logged moves), in bulk, so a run shows whether a turn's cost grows with the number of
    stored games (issue 16: 100,000 games ≤ 1.2x the latency of 10)."""
    from datetime import UTC, datetime

    from db.schema import games as games_table
    from db.schema import moves as moves_table
    from db.schema import seats as seats_table

    engine = get_engine("generatorb")
    state = engine.dumps(engine.new_game(2, engine.resolve_options({}), 0))
    at = datetime(2026, 1, 1, tzinfo=UTC)
    batch = 5000
    async with database.engine.begin() as conn:
        for start in range(0, count, batch):
            ids = range(start + 1, min(count, start + batch) + 1)
            await conn.execute(
                games_table.insert(),
                [
                    {
                        "id": i,
                        "guild_id": 1,
                        "channel_id": 10**6 + i,
                        "game": "generatorb",
                        "options": "{}",
                        "rules_version": "1",
                        "seed": i,
                        "status": "finished",
                        "version": 12,
                        "ply": 10,
                        "to_move": "",
                        "state": state,
                        "outcome": None,
                        "termination": "resignation",
                        "clock": "none",
                        "created_at": at,
                        "updated_at": at,
                        "finished_at": at,
                    }
                    for i in ids
                ],
            )
            await conn.execute(
                seats_table.insert(),
                [{"game_id": i, "seat": s, "user_id": 7 + s} for i in ids for s in (0, 1)],
            )
            await conn.execute(
                moves_table.insert(),
                [
                    {"game_id": i, "ply": p, "seat": p % 2, "text": "a1-a3", "events": "[]",
                     "created_at": at}
                    for i in ids
                    for p in range(1, 11)
                ],
            )  # fmt: skip


async def run(games: int, plies: int, seed: int, directory: Path, stored_games: int = 0) -> int:
    database = Database(f"sqlite+aiosqlite:///{directory / 'bench.db'}")
    await database.migrate()
    if stored_games:
        await store_finished_games(database, stored_games)
        print(f"{stored_games} finished games stored before the run")
    commits: list[float] = []
    database.games.commit_moves = timed_commit(database, commits)  # type: ignore[method-assign,assignment]
    service = GameService(database)
    per_ply: dict[str, dict[int, list[float]]] = {m: defaultdict(list) for m in METRICS}
    lengths = []
    try:
        for game in range(games):
            rows = await play_game(service, commits, 1000 + game, plies, seed + game)
            lengths.append(len(rows))
            for ply, row in enumerate(rows, start=1):
                for metric in METRICS:
                    per_ply[metric][ply].append(row[metric])
    finally:
        await database.close()
    return report(per_ply, lengths)


def report(per_ply: dict[str, dict[int, list[float]]], lengths: list[int]) -> int:
    turns = sum(lengths)
    print(f"{len(lengths)} games, {turns} turns (plies per game: {', '.join(map(str, lengths))})")
    print()
    header = (
        f"{'per turn (ms)':<14}{'median':>9}{'p99':>9}{'~ply 10':>10}{'~ply 300':>10}{'ratio':>8}"
    )
    print(header)
    print("-" * len(header))
    for metric in METRICS:
        every = [v for values in per_ply[metric].values() for v in values]
        early = [v for p in EARLY for v in per_ply[metric].get(p, [])]
        late = [v for p in LATE for v in per_ply[metric].get(p, [])]
        early_median = statistics.median(early) if early else float("nan")
        late_median = statistics.median(late) if late else float("nan")
        ratio = late_median / early_median if early and late else float("nan")
        print(
            f"{metric:<14}{statistics.median(every):>9.2f}{percentile(every, 0.99):>9.2f}"
            f"{early_median:>10.2f}{late_median:>10.2f}{ratio:>8.2f}"
        )
    whole = [v for values in per_ply["whole turn"].values() for v in values]
    median, p99 = statistics.median(whole), percentile(whole, 0.99)
    ok = median <= TARGET_MEDIAN_MS and p99 <= TARGET_P99_MS
    print()
    print(
        f"whole turn: median {median:.2f} ms (target ≤ {TARGET_MEDIAN_MS:g}), "
        f"p99 {p99:.2f} ms (target ≤ {TARGET_P99_MS:g}): {'OK' if ok else 'MISSED'}"
    )
    print("ratio = median around ply 300 (295–305) / median around ply 10 (5–15)")
    return 0 if ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games to play (default 4)")
    parser.add_argument("--plies", type=int, default=320, help="plies per game (default 320)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game's policy")
    parser.add_argument(
        "--stored-games",
        type=int,
        default=0,
        help="finished games to store first (compare 10 with 100000: nothing should grow)",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="gameroom-bench-") as directory:
        return asyncio.run(
            run(args.games, args.plies, args.seed, Path(directory), args.stored_games)
        )


if __name__ == "__main__":
    sys.exit(main())
