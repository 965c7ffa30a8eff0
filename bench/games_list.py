"""Cost of ``/games``: listing ~100 active games through :class:`Spectators`.

Starts ``--games`` Generatorb games on a SQLite file in a temporary directory, one per
channel of one guild, all of them played by one user (each against another opponent) and a
few plies into the game, then prints the median and p90 in milliseconds of
:meth:`Spectators.games` for:

* server, warm — scope ``server``: one listing query, then the snapshots of the
  :data:`~bot.service.spectators.MAX_LISTED` most recently active games, from the service's
  caches (what a busy bot sees);
* server, cold — the same with a new :class:`GameService` each time (empty caches: every
  snapshot reads its seats and last moves and loads its state, as after a restart);
* mine, warm / mine, cold — scope ``mine`` for the user who plays every game: every one of
  them is read (they are sorted by whose turn it is before the cut).

The snapshots are read concurrently (``asyncio.gather``), so their database round trips
overlap. ``/games`` is deferred, so the user sees "thinking…" meanwhile; targets: a warm
listing under 100 ms, a cold one under 500 ms. Run ``python bench/games_list.py``; this is not
a test.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.service import GameService
from bot.service.spectators import GamesList, GamesScope, Spectators
from db import Database

GUILD, PLAYER = 1, 1000
TARGET_WARM_MS, TARGET_COLD_MS = 100.0, 500.0


def seeds() -> Callable[[], int]:
    counter = iter(range(1, 1 << 30))
    return lambda: next(counter)


async def populate(service: GameService, games: int, plies: int) -> None:
    """``games`` games in channels 1..games, PLAYER against opponent 2000+i, ``plies`` in."""
    for number in range(1, games + 1):
        challenge = await service.create_challenge(
            guild_id=GUILD,
            channel_id=number,
            challenger_id=PLAYER,
            opponent_ids=[2000 + number],
            game="generatorb",
        )
        update = await service.accept_challenge(challenge.challenge_id, 2000 + number)
        assert update.game is not None
        for _ in range(plies):
            snapshot = await service.snapshot(number)
            (user,) = snapshot.to_move_user_ids
            move = (await service.legal_moves(number, user))[0]
            await service.play(number, user, move)


async def timed(runs: int, call: Callable[[], Awaitable[GamesList]]) -> list[float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        listing = await call()
        samples.append((time.perf_counter() - start) * 1000)
        assert listing.games
    return samples


def report(name: str, samples: list[float], target: float) -> bool:
    median = statistics.median(samples)
    p90 = sorted(samples)[int(0.9 * (len(samples) - 1))]
    ok = median <= target
    verdict = "ok" if ok else "SLOW"
    print(f"{name:<14} median {median:7.2f} ms   p90 {p90:7.2f} ms   ", end="")
    print(f"target {target:.0f} ms   {verdict}")
    return ok


async def main(games: int, plies: int, runs: int) -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        database = Database(f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}")
        await database.migrate()
        try:
            service = GameService(database, rng_seed_source=seeds())
            started = time.perf_counter()
            await populate(service, games, plies)
            print(
                f"{games} games, {plies} plies each, set up in "
                f"{time.perf_counter() - started:.1f} s; {runs} runs per case"
            )
            warm = Spectators(service)

            def listing(spectators: Spectators, scope: GamesScope) -> Awaitable[GamesList]:
                return spectators.games(scope, user_id=PLAYER, guild_id=GUILD, channel_id=1)

            def cold(scope: GamesScope) -> Awaitable[GamesList]:
                return listing(Spectators(GameService(database)), scope)

            cases: list[tuple[str, Callable[[], Awaitable[GamesList]], float]] = [
                ("server, warm", lambda: listing(warm, GamesScope.SERVER), TARGET_WARM_MS),
                ("server, cold", lambda: cold(GamesScope.SERVER), TARGET_COLD_MS),
                ("mine, warm", lambda: listing(warm, GamesScope.MINE), TARGET_WARM_MS),
                ("mine, cold", lambda: cold(GamesScope.MINE), TARGET_COLD_MS),
            ]
            results = [
                report(name, await timed(runs, call), target) for name, call, target in cases
            ]
        finally:
            await database.close()
    return all(results)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--plies", type=int, default=6)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    sys.exit(0 if asyncio.run(main(args.games, args.plies, args.runs)) else 1)
