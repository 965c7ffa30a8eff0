"""Time the Arbos board renderer: ``python bench/render_arbos.py [--views N]``.

Builds N busy Arbos views deterministically (SplitMix64 from ``engines.rng``, so every run
draws the same boards), renders each to PNG bytes with ``render.arbos.render`` and prints the
median and 99th-percentile time of render + encode over two passes (the first one also makes
the sprites met for the first time), the very first (cold-cache) render, the median and largest
PNG size, and the floor (``render_timing.print_floor``).

Each board is a spread random setup (20 seeds, A7 spacing) on which each player grows three
trees from random starting cells, one spore at a time next to the tree, up to 30–80 spores a
player: late-game boards, busier than most real ones. Trees, scores, best pairs and linked
seeds come from the engine's ``trees_of`` and ``score_of`` (A4, A20); no move is played, so the
boards need not be reachable. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import statistics
from functools import partial

import render_timing

from engines.arbos import (
    BLACK,
    CELLS,
    EMPTY,
    NEIGHBOURS,
    SEED,
    TOO_CLOSE,
    WHITE,
    ArbosAction,
    ArbosView,
    score_of,
    trees_of,
)
from engines.base import Outcome
from engines.rng import Rng
from render.arbos import PNG_COMPRESS_LEVEL, render

LABELS = ("Zoë the Gardener 🌱", "bob", "北の王", "a_very_long_discord_display_name_32")


def random_board(rng: Rng) -> list[int]:
    board = [EMPTY] * len(CELLS)
    for _ in range(20):  # a random setup with the A7 spacing
        legal = [
            c for c in CELLS if board[c] == EMPTY and all(board[n] != SEED for n in TOO_CLOSE[c])
        ]
        if not legal:
            break
        board[rng.choice(legal)] = SEED
    for colour in (WHITE, BLACK):
        target = 30 + rng.below(51)
        free = [c for c in CELLS if board[c] == EMPTY]
        grown = rng.shuffled(free)[:3]
        for cell in grown:
            board[cell] = colour
        for _ in range(200):
            if len(grown) >= target:
                break
            frontier = [n for n in NEIGHBOURS[rng.choice(grown)] if board[n] == EMPTY]
            if frontier:
                cell = rng.choice(frontier)
                board[cell] = colour
                grown.append(cell)
    return board


def random_last(rng: Rng, board: list[int], seat: int) -> tuple[ArbosAction, ...]:
    """A last turn of a random kind, on cells that fit it."""
    own = [c for c in CELLS if board[c] == (WHITE, BLACK)[seat]]
    seeds = [c for c in CELLS if board[c] == SEED]
    empty = [c for c in CELLS if board[c] == EMPTY]
    kind = rng.choice(("spore", "spore", "double", "replace", "seed", "pass", "prune"))
    if kind == "spore" and own:
        return (ArbosAction(seat, "spore", placed=(rng.choice(own),)),)
    if kind == "double" and len(own) >= 2:
        return (ArbosAction(seat, "double", placed=tuple(rng.shuffled(own)[:2])),)
    if kind == "replace" and seeds:
        return (ArbosAction(seat, "replace", placed=(rng.choice(seeds),), replaced=BLACK),)
    if kind == "prune" and own and empty:
        removed = tuple(sorted(rng.shuffled(empty)[: 1 + rng.below(6)]))
        return (
            ArbosAction(seat, "prune", removed=removed),
            ArbosAction(seat, "spore", placed=(rng.choice(own),)),
        )
    return (ArbosAction(seat, "pass"),)


def random_view(rng: Rng) -> ArbosView:
    board = random_board(rng)
    found = (trees_of(board, WHITE), trees_of(board, BLACK))
    trees = tuple(tuple(tuple(t) for t in seat_trees.cells) for seat_trees in found)
    scored = [score_of(board, seat_trees) for seat_trees in found]
    scores = (scored[0][0], scored[1][0])
    mover = rng.below(2)
    outcome = None
    if rng.below(8) == 0:
        winner = 1 if scores[1] >= scores[0] else 0
        outcome = Outcome("passes", (winner,), ((winner,), (1 - winner,)), dict(enumerate(scores)))
    to_move = None if outcome else 1 - mover
    return ArbosView(
        board=tuple(board),
        phase="play",
        to_move=to_move,
        setup_left=(0, 0),
        hands=(rng.below(3), rng.below(3)),
        supply=(80 - board.count(WHITE), 80 - board.count(BLACK)),
        passes=2 if outcome else rng.below(2),
        prune=max(0, len(trees[to_move]) - 3) if to_move is not None else 0,
        trees=trees,
        scores=scores,
        best_pair=(scored[0][1], scored[1][1]),
        linked_seeds=(scored[0][2], scored[1][2]),
        outcome=outcome,
        last=random_last(rng, board, mover),
        viewer=None,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", type=int, default=200, help="how many views (default 200)")
    args = parser.parse_args()

    rng = Rng(20240917)
    views = [random_view(rng) for _ in range(args.views)]
    labels = [(rng.choice(LABELS), rng.choice(LABELS)) for _ in views]

    renders = [
        partial(render, view, seat_labels=label) for view, label in zip(views, labels, strict=True)
    ]
    cold = render_timing.cold_ms(renders[0])

    # Sprites are made on first use (one per spore shape met so far), so the first pass over
    # the views is slower than a long-running bot's steady state: report both.
    print(
        f"arbos: {len(views)} views (median {median_spores(views):.0f} spores), render + PNG encode"
    )
    print(f"  first render (cold caches): {cold:7.1f} ms")
    for name in ("first pass", "second pass"):
        times, pngs = render_timing.run(renders)
        render_timing.print_times(times, prefix=f"{name} ")
    render_timing.print_sizes(pngs)
    render_timing.print_floor(pngs, times, PNG_COMPRESS_LEVEL)


def median_spores(views: list[ArbosView]) -> float:
    return statistics.median(
        sum(1 for value in view.board if value in (WHITE, BLACK)) for view in views
    )


if __name__ == "__main__":
    main()
