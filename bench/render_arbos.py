"""Time the Arbos board renderer: ``python bench/render_arbos.py [--views N]``.

Builds N busy Arbos views deterministically (SplitMix64 from ``engines.rng``, so every run
draws the same boards), renders each to PNG bytes with ``render.arbos.render`` and prints the
median and 99th-percentile time of render + encode over two passes (the first one also makes
the sprites met for the first time), the very first (cold-cache) render, and the median and
largest PNG size.

Each board is a spread random setup (20 seeds, A7 spacing) on which each player grows three
trees from random starting cells, one spore at a time next to the tree, up to 30–80 spores a
player: late-game boards, busier than most real ones. Trees, scores, best pairs and linked
seeds are worked out here (a flood fill and a search over pairs, A4 and A20), not by the
engine, so the benchmark does not depend on the engine's move logic. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import statistics
import time
from itertools import combinations

from engines.arbos import BLACK, EMPTY, SEED, SIZE, WHITE, ArbosAction, ArbosView
from engines.base import Outcome
from engines.rng import Rng
from render.arbos import render

CELLS = range(SIZE * SIZE)
LABELS = ("Zoë the Gardener 🌱", "bob", "北の王", "a_very_long_discord_display_name_32")


def neighbours(cell: int) -> list[int]:
    row, column = divmod(cell, SIZE)
    return [
        (row + dr) * SIZE + column + dc
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= row + dr < SIZE and 0 <= column + dc < SIZE
    ]


NEIGHBOURS = tuple(tuple(neighbours(cell)) for cell in CELLS)


def trees_of(board: list[int], colour: int) -> tuple[tuple[int, ...], ...]:
    """A4: groups of ``colour`` spores joined through neighbours, sorted, by first cell."""
    seen: set[int] = set()
    trees = []
    for start in CELLS:
        if board[start] != colour or start in seen:
            continue
        seen.add(start)
        tree, stack = [start], [start]
        while stack:
            for n in NEIGHBOURS[stack.pop()]:
                if board[n] == colour and n not in seen:
                    seen.add(n)
                    tree.append(n)
                    stack.append(n)
        trees.append(tuple(sorted(tree)))
    return tuple(trees)


def best_pair(
    board: list[int], trees: tuple[tuple[int, ...], ...]
) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """A20: (score, best pair of tree indices, the seeds linked to it)."""
    links = [{n for cell in tree for n in NEIGHBOURS[cell] if board[n] == SEED} for tree in trees]
    pairs: list[tuple[int, ...]] = list(combinations(range(len(trees)), 2)) or [
        (i,) for i in range(len(trees))
    ]
    best: tuple[int, tuple[int, ...], tuple[int, ...]] = (0, (), ())
    for pair in pairs:
        seeds = set().union(*(links[i] for i in pair))
        if len(seeds) > best[0] or not best[1]:
            best = (len(seeds), pair, tuple(sorted(seeds)))
    return best


def random_board(rng: Rng) -> list[int]:
    board = [EMPTY] * len(CELLS)
    seeds: list[int] = []
    for _ in range(20):
        legal = [
            c
            for c in CELLS
            if all(max(abs(c // SIZE - s // SIZE), abs(c % SIZE - s % SIZE)) >= 3 for s in seeds)
        ]
        if not legal:
            break
        seeds.append(rng.choice(legal))
    for cell in seeds:
        board[cell] = SEED
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
    trees = (trees_of(board, WHITE), trees_of(board, BLACK))
    scored = [best_pair(board, trees[seat]) for seat in (0, 1)]
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

    start = time.perf_counter()
    render(views[0], seat_labels=labels[0])
    cold = time.perf_counter() - start

    # Sprites are made on first use (one per spore shape met so far), so the first pass over
    # the views is slower than a long-running bot's steady state: report both.
    print(
        f"arbos: {len(views)} views (median {median_spores(views):.0f} spores), render + PNG encode"
    )
    print(f"  first render (cold caches): {cold * 1000:7.1f} ms")
    for name in ("first pass", "second pass"):
        times: list[float] = []
        sizes: list[int] = []
        for view, label in zip(views, labels, strict=True):
            start = time.perf_counter()
            data = render(view, seat_labels=label)
            times.append(time.perf_counter() - start)
            sizes.append(len(data))
        times.sort()
        p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
        print(f"  {name + ' median:':27} {statistics.median(times) * 1000:7.2f} ms")
        print(f"  {name + ' p99:':27} {p99 * 1000:7.2f} ms")
    print(f"  PNG size median:            {statistics.median(sizes) / 1000:7.1f} KB")
    print(f"  PNG size max:               {max(sizes) / 1000:7.1f} KB")


def median_spores(views: list[ArbosView]) -> float:
    return statistics.median(
        sum(1 for value in view.board if value in (WHITE, BLACK)) for view in views
    )


if __name__ == "__main__":
    main()
