"""Rating figures (issue 15): one rating update, a leaderboard over many players, a rebuild.

Run: ``.venv/bin/python bench/ratings.py [--players 100000] [--games 100000]``.

* **update**: :func:`bot.service.ratings.update_ratings` for a 6-player game (every player
  already rated), median and p99 over 2,000 calls. Goal ≤ 1 ms.
* **leaderboard**: ``/leaderboard`` reads over ``--players`` rated players of one game in a
  SQLite file: the gated top 25 (one scan of the ``(game, rating)`` index) plus the caller's
  place (a count), median of 20. Goal ≤ 100 ms.
* **rebuild**: ``python -m bot ratings rebuild``'s work over ``--games`` finished rated
  games of 2–6 players among 5,000 users, written straight into the tables. Goal ≤ 60 s.

Not a test: the numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import insert

from bot.service import GameService
from bot.service.ratings import GameResult, shown_rating, update_ratings
from db import Database
from db.rows import RatingRow
from db.schema import games, seats
from db.schema import moves as move_log
from engines.base import Outcome

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def bench_update() -> tuple[float, float]:
    rng = random.Random(1)
    current = {
        u: RatingRow(u, "orbs", rng.uniform(20, 30), rng.uniform(2, 6), 0.0, 20, 8, 2, 10, 1, T0)
        for u in range(1, 7)
    }
    outcome = Outcome("x", (2,), ((2,), (0, 4), (1,), (3,), (5,)))
    result = GameResult(
        2, "orbs", 1, T0 + timedelta(days=3), tuple(range(1, 7)),
        tuple((s,) for s in range(6)), outcome,
    )  # fmt: skip
    times = []
    for _ in range(2000):
        start = time.perf_counter()
        update_ratings(result, current)
        times.append(time.perf_counter() - start)
    times.sort()
    return statistics.median(times) * 1e3, times[int(len(times) * 0.99)] * 1e3


async def bench_leaderboard(directory: Path, players: int) -> tuple[float, float]:
    database = Database(f"sqlite+aiosqlite:///{directory / 'board.db'}")
    await database.migrate()
    rng = random.Random(2)
    rows = []
    for user in range(1, players + 1):
        mu, sigma = rng.gauss(25, 4), rng.uniform(2, 8)
        played = T0 - timedelta(days=rng.uniform(0, 60))
        games_played = rng.randint(1, 200)
        rows.append(
            RatingRow(user, "orbs", mu, sigma, shown_rating(mu, sigma), games_played,
                      games_played // 2, 0, games_played - games_played // 2, 1, played)
        )  # fmt: skip
    await database.ratings.replace_all(rows, [])
    gate = {"min_games": 5, "max_sigma": 6.2, "active_since": T0 - timedelta(days=30)}
    caller = rows[players // 2]
    top_times, place_times = [], []
    for _ in range(20):
        start = time.perf_counter()
        top = await database.ratings.leaderboard("orbs", limit=25, hide_private=True, **gate)  # type: ignore[arg-type]
        top_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        await database.ratings.place(caller, hide_private=True, **gate)  # type: ignore[arg-type]
        place_times.append(time.perf_counter() - start)
    assert len(top) == 25
    await database.close()
    return statistics.median(top_times) * 1e3, statistics.median(place_times) * 1e3


async def bench_rebuild(directory: Path, count: int) -> tuple[float, int]:
    database = Database(f"sqlite+aiosqlite:///{directory / 'rebuild.db'}")
    await database.migrate()
    rng = random.Random(3)
    game_rows, seat_rows, move_rows = [], [], []
    for game_id in range(1, count + 1):
        n = rng.randint(2, 6)
        users = rng.sample(range(1, 5001), n)
        order = list(range(n))
        rng.shuffle(order)
        outcome = Outcome("x", (order[0],), ((order[0],), tuple(order[1:])))
        at = T0 + timedelta(minutes=game_id)
        game_rows.append({
            "id": game_id, "guild_id": 1, "channel_id": game_id, "parent_channel_id": None,
            "game": "orbs", "options": "{}", "rules_version": "1", "seed": 0,
            "status": "finished", "version": 9, "ply": 40, "to_move": "", "state": "{}",
            "outcome": __import__("json").dumps(outcome.to_json()), "termination": "x",
            "draw_offer_seat": None, "takeback_seat": None, "clock": "none",
            "board_message_id": None, "created_at": at, "updated_at": at, "finished_at": at,
            "start_position": None, "rated": True, "rating_seq": game_id,
        })  # fmt: skip
        seat_rows.extend(
            {"game_id": game_id, "seat": s, "user_id": u, "team": None} for s, u in enumerate(users)
        )
        # One ply per seat: a game in which a seat never moved is not rated (is_rated).
        move_rows.extend(
            {"game_id": game_id, "ply": s + 1, "seat": s, "text": "x", "events": "[]",
             "created_at": at}
            for s in range(n)
        )  # fmt: skip
    async with database.engine.begin() as conn:
        for i in range(0, len(game_rows), 5000):
            await conn.execute(insert(games), game_rows[i : i + 5000])
        for i in range(0, len(seat_rows), 20000):
            await conn.execute(insert(seats), seat_rows[i : i + 20000])
        for i in range(0, len(move_rows), 20000):
            await conn.execute(insert(move_log), move_rows[i : i + 20000])
    start = time.perf_counter()
    report = await GameService(database).rebuild_ratings()
    elapsed = time.perf_counter() - start
    await database.close()
    if report.games != count:  # every game written is rated: a rebuild that skips one is wrong
        raise SystemExit(f"the rebuild rated {report.games} of {count} games")
    return elapsed, report.changes


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=100_000)
    arguments = parser.parse_args()
    median, p99 = bench_update()
    print(f"update, 6 players: median {median:.3f} ms, p99 {p99:.3f} ms (goal ≤ 1 ms)")
    with tempfile.TemporaryDirectory() as folder:
        top, place = await bench_leaderboard(Path(folder), arguments.players)
        print(
            f"leaderboard over {arguments.players} players: top 25 {top:.1f} ms, "
            f"caller's place {place:.1f} ms, together {top + place:.1f} ms (goal ≤ 100 ms)"
        )
        seconds, changes = await bench_rebuild(Path(folder), arguments.games)
        print(
            f"rebuild of {arguments.games} games ({changes} rating changes): {seconds:.1f} s "
            "(goal ≤ 60 s)"
        )


if __name__ == "__main__":
    asyncio.run(main())
