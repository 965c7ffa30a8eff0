"""Time the board renderer: ``python bench/render_board.py [--views N]``.

Builds N varied Generatorb views deterministically (SplitMix64 from ``engines.rng``, so every
run draws the same boards), renders each to PNG bytes through ``render.render_png`` and prints
the median and 99th-percentile time of render + encode over two passes (the first one also maps
the stacks met for the first time onto the palette), the first (cold-cache) render, the median
and largest PNG size, and the floor: Pillow encoding a blank picture of the same size and mode,
and the same pictures alone, with the renderers' settings. The views are random boards, not
reachable positions: the renderer does not care, and random boards are busier than most real
ones. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
from functools import partial

import render_timing

from engines.base import Outcome
from engines.generatorb import GRID, GeneratorbView, LastMove
from engines.rng import Rng
from render import render_png
from render.generatorb import PNG_COMPRESS_LEVEL, PNG_STRATEGY

TERMINATIONS = ("core", "front_line", "no_moves", "repetition", "move_limit", "resignation")
LABELS = ("Zoë the Orbmaster 🐉", "bob", "北の王", "a_very_long_discord_display_name_32")


def random_view(rng: Rng) -> GeneratorbView:
    """A board with 8–40 stacks, a last move (sometimes with a path, capture or refill, or a
    pass), and sometimes a finished game."""
    cells = list(GRID.cells)
    board = [0] * len(cells)
    for cell in rng.shuffled(cells)[: 8 + rng.below(33)]:
        board[cell] = (1 if rng.below(2) else -1) * (1 + rng.below(3))
    seat = rng.below(2)
    if rng.below(10) == 0:
        last = LastMove(seat, None, None)
    else:
        origin, *path, destination = rng.shuffled(cells)[: 2 + rng.below(4)]
        refilled = tuple(rng.shuffled(cells)[: rng.below(3)])
        last = LastMove(
            seat,
            origin,
            destination,
            split=rng.below(4) == 0,
            path=tuple(path),
            captured=rng.below(3) == 0,
            merged=rng.choice((0, 0, 2, 3)),
            refilled=refilled,
        )
    outcome = None
    if rng.below(8) == 0:
        termination = rng.choice(TERMINATIONS)
        outcome = (
            Outcome.win(termination, seat, 2)
            if termination in ("core", "front_line", "resignation")
            else Outcome.draw(termination, 2)
        )
    return GeneratorbView(
        board=tuple(board),
        supply=(rng.below(25), rng.below(25)),
        to_move=None if outcome else 1 - seat,
        ply=rng.below(400),
        passes=rng.below(2),
        outcome=outcome,
        last=last,
        viewer=None,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", type=int, default=300, help="how many views (default 300)")
    args = parser.parse_args()

    rng = Rng(20240611)
    views = [random_view(rng) for _ in range(args.views)]
    labels = [(rng.choice(LABELS), rng.choice(LABELS)) for _ in views]
    flips = [rng.below(4) == 0 for _ in views]

    renders = [
        partial(render_png, "generatorb", view, seat_labels=label, perspective=int(flip))
        for view, label, flip in zip(views, labels, flips, strict=True)
    ]
    cold = render_timing.cold_ms(renders[0])
    print(f"generatorb: {len(views)} views, render + PNG encode")
    print(f"  first render (cold caches): {cold:7.1f} ms")
    # Each stack is mapped onto the palette the first time it stands on a cell (at most
    # 64 cells × 6 stacks × 2 sides), so the first pass is slower than a long-running bot's
    # steady state: report both.
    for name in ("first pass", "second pass"):
        times, pngs = render_timing.run(renders)
        render_timing.print_times(times, prefix=f"{name} ")
    render_timing.print_sizes(pngs)
    render_timing.print_floor(pngs, times, PNG_COMPRESS_LEVEL, PNG_STRATEGY)


if __name__ == "__main__":
    main()
