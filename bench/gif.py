"""Time and size animated replays: ``python bench/gif.py [--plies 50 150 300] [--games …]``.

For each game and each ply count, plays a seeded random game with the engine (uniformly random
legal moves; chance nodes sampled by the engine's own generator), keeps the public view after
every ply (``engine.view(state, None)``), renders the replay with
:func:`render.animate.render_gif` (move times drawn at random, so frame times vary) and prints
the seconds it took and the GIF's size. A game that ends before the ply count is started again
with the next seed (up to 20 seeds); if none lasts that long, the longest is used and its real
length printed. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from engines import ENGINES, get_engine
from engines.base import CHANCE
from engines.rng import Rng
from render.animate import MAX_BYTES, Frame, render_gif

LABELS = ("Zoë 🐉", "Владимир", "北の王", "محمد", "bob", "carol")


def play(game_id: str, plies: int, seed: int) -> tuple[list[Frame], int]:
    """A random game of up to ``plies`` plies as replay frames (start position first), and the
    number of players."""
    engine: Any = get_engine(game_id)
    players = engine.info.min_players
    options = engine.options_for(engine.resolve_options({}), players)
    state = engine.new_game(players, options, seed)
    rng = Rng(seed)
    frames = [Frame(engine.view(state, None))]
    while len(frames) <= plies and engine.outcome(state) is None:
        seats = engine.to_move(state)
        if not seats:
            break
        if seats[0] == CHANCE:
            state = engine.apply_chance(state, engine.sample_chance(state)).state
            continue
        seat = seats[0]
        moves = engine.legal_moves(state, seat)
        if not moves:
            break
        state = engine.apply(state, seat, moves[rng.below(len(moves))]).state
        frames.append(Frame(engine.view(state, None), seconds=float(rng.below(3600))))
    return frames, players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, nargs="+", default=[50, 150, 300])
    parser.add_argument("--games", nargs="+", default=list(ENGINES))
    args = parser.parse_args()
    print(
        f"{'game':<16} {'plies':>5} {'frames':>6} {'seconds':>8} {'bytes':>11}  limit {MAX_BYTES:,}"
    )
    for game_id in args.games:
        for plies in args.plies:
            best: tuple[list[Frame], int] = ([], 0)
            for seed in range(1, 21):
                frames, players = play(game_id, plies, seed)
                if len(frames) > len(best[0]):
                    best = (frames, players)
                if len(frames) > plies:
                    break
            frames, players = best
            start = time.perf_counter()
            data = render_gif(game_id, frames, seat_labels=LABELS[:players])
            seconds = time.perf_counter() - start
            print(f"{game_id:<16} {len(frames) - 1:>5} {len(frames):>6} {seconds:>8.2f} "
                  f"{len(data):>11,}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
