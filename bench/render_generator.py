"""Time the Generator board renderer: ``python bench/render_generator.py [--views N]``.

Builds N busy Generator views deterministically (SplitMix64 from ``engines.rng``, so every run
draws the same boards), renders each to PNG bytes with ``render.generator.render`` and prints
the median and 99th-percentile time of render + encode over two passes (the first one also makes
the sprites met for the first time), the first (cold-cache) render, the median and largest PNG
size, and the floor (``render_timing.print_floor``). Each view seats 2–4 players with most of
their pyramids on the board as stacks of every kind (within the level limits of GEN-8), up to
eight reachable nodes, a last action (often a capture) and sometimes a finished game. They are
random views, not reachable positions: the renderer does not care, and they are busier than most
real games. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
from functools import partial

import render_timing

from engines.base import Outcome
from engines.generator import GeneratorView, LastAction
from engines.geometry.gryb import LEVEL, NODE_COUNT
from engines.rng import Rng
from render.generator import LOWEST_LEVEL, PNG_COMPRESS_LEVEL, UNITS, render

LABELS = ("Zoë the Pyramid Sage 🐉", "bob", "北の王", "a_very_long_discord_display_name_32")
#: Every colour set a game can use, as seat colours in GRYB order.
COLOUR_SETS = ((0, 1), (0, 2), (1, 3), (0, 1, 2), (1, 2, 3), (0, 1, 2, 3))


def random_view(rng: Rng) -> GeneratorView:
    """A busy view: each seat puts 4–6 stacks on free nodes, each stack within its level
    limit and the seat's 5 S, 5 M and 5 L."""
    colours = rng.choice(COLOUR_SETS)
    players = len(colours)
    free = rng.shuffled(range(NODE_COUNT))
    stacks: list[tuple[int, int, str]] = []
    stashes: list[tuple[int, int, int] | None] = []
    for seat in range(players):
        left = {"S": 5, "M": 5, "L": 5}
        for _ in range(4 + rng.below(3)):
            sizes = rng.choice(UNITS)
            if any(left[size] == 0 for size in sizes):
                continue
            node = next((n for n in free if LEVEL[n] <= LOWEST_LEVEL[sizes[0]]), None)
            if node is None:  # every node that could hold this stack is taken
                continue
            free.remove(node)
            stacks.append((node, seat, sizes))
            for size in sizes:
                left[size] -= 1
        stashes.append((left["S"], left["M"], left["L"]))
    seat = rng.below(players)
    origin, destination = rng.shuffled(range(NODE_COUNT))[:2]
    captured = (rng.below(players), rng.choice(UNITS)) if rng.below(2) else None
    kind = rng.choice(("move", "move", "move", "entry", "pass"))
    if kind == "entry":
        destination = colours[seat]  # the seat's start node: node number = colour (level 1)
    last = LastAction(
        seat,
        kind,
        "" if kind == "pass" else rng.choice(("S", "M", "MS", "LMS")),
        origin if kind == "move" else None,
        None if kind == "pass" else destination,
        None if kind == "pass" else captured,
        rng.below(4),
    )
    outcome = None
    if rng.below(8) == 0:
        outcome = rng.choice(
            (
                Outcome.win("coupling", seat, players),
                Outcome.win("resignation", seat, players),
                Outcome.draw("turn_limit", players),
            )
        )
    return GeneratorView(
        colours=colours,
        stacks=tuple(sorted(stacks)),
        stashes=tuple(stashes),
        to_move=None if outcome else seat,
        roll=None if outcome or rng.below(5) == 0 else rng.below(4),
        extra_turn=rng.below(3) == 0,
        count=rng.below(500),
        max_turns=rng.choice((0, 0, 300, 1000)),
        reachable=() if outcome else tuple(sorted(rng.shuffled(free)[: rng.below(9)])),
        outcome=outcome,
        last=last,
        viewer=None,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", type=int, default=200, help="how many views (default 200)")
    args = parser.parse_args()

    rng = Rng(20250302)
    views = [random_view(rng) for _ in range(args.views)]
    labels = [tuple(rng.choice(LABELS) for _ in view.colours) for view in views]

    renders = [
        partial(render, view, seat_labels=label) for view, label in zip(views, labels, strict=True)
    ]
    cold = render_timing.cold_ms(renders[0])
    print(f"generator: {len(views)} views, render + PNG encode")
    print(f"  first render (cold caches): {cold:7.1f} ms")
    # Sprites and patches are made on first use, so the first pass is slower than a
    # long-running bot's steady state: report both.
    for name in ("first pass", "second pass"):
        times, pngs = render_timing.run(renders)
        render_timing.print_times(times, prefix=f"{name} ")
    render_timing.print_sizes(pngs)
    render_timing.print_floor(pngs, times, PNG_COMPRESS_LEVEL)


if __name__ == "__main__":
    main()
