"""Time the Orbs board renderer: ``python bench/render_orbs.py [--views N]``.

Builds N busy Orbs views deterministically (SplitMix64 from ``engines.rng``, so every run draws
the same boards), renders each to PNG bytes with ``render.orbs.render`` and prints the median and
99th-percentile time of render + encode over two passes (the first one also draws each game's
fixed board layer and the sprites met for the first time), the very first (cold-cache) render,
the median and largest PNG size, and the floor
(``render_timing.print_floor``).

The views come from eight game setups (star and hexagon, 2–6 players, holes, teams, the torus),
as a running bot would see them: each setup's board layer is drawn once and reused. Each view
puts 6–12 orbs (4–9 on a crowded hexagon) of random elements, Void included, per seat on random
free cells, a last move of a random kind (a step, a capture, an annihilation, a lost attack, a
pass or a resignation) between neighbouring cells, and sometimes a finished game. They are
random views, not reachable positions: the renderer does not care, and they are busier than most
real games. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import statistics
from dataclasses import dataclass
from functools import partial

import render_timing

from engines.base import Outcome
from engines.geometry.hexstar import HEX_ZONES, NAMES, POINTS, cells_of, neighbours
from engines.orbs import ELEMENTS, OrbsLastMove, OrbsView
from engines.rng import Rng
from render.orbs import PNG_COMPRESS_LEVEL, render

LABELS = ("Zoë the Orb Sage 🔥", "bob", "北の王", "a_very_long_discord_display_name_32")


@dataclass(frozen=True)
class Setup:
    """What stays fixed for a game: board shape, seating, holes and teams."""

    board: str
    wrap: str
    points: tuple[str, ...]
    holes: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]


RING6 = ("G5", "G7", "I3", "I7", "K5", "K7")
SETUPS = (
    Setup("star", "none", ("N", "S"), (), ((0,), (1,))),
    Setup("star", "none", ("N", "SE", "SW"), RING6, ((0,), (1,), (2,))),
    Setup("star", "none", ("NE", "SE", "SW", "NW"), ("G5", "I7", "K5"), ((0, 2), (1, 3))),
    Setup("star", "none", ("N", "NE", "SE", "SW", "NW"), ("I5",), tuple((s,) for s in range(5))),
    Setup("star", "none", ("N", "NE", "SE", "S", "SW", "NW"), RING6, ((0, 3), (1, 4), (2, 5))),
    Setup("hexagon", "none", ("N", "S"), ("I5",), ((0,), (1,))),
    Setup("hexagon", "torus", ("N", "SE", "SW"), (), ((0,), (1,), (2,))),
    Setup("hexagon", "none", ("N", "NE", "SE", "S", "SW", "NW"), (), ((0, 2, 4), (1, 3, 5))),
)


def random_view(rng: Rng, setup: Setup) -> OrbsView:
    players = len(setup.points)
    zones = POINTS if setup.board == "star" else HEX_ZONES
    free = rng.shuffled(sorted(cells_of(setup.board) - {NAMES.index(h) for h in setup.holes}))
    orbs: dict[int, tuple[int, str]] = {}
    most = min(12, (len(free) - 6) // players)  # leave room to move on the small hexagon
    for seat in range(players):
        for _ in range(most // 2 + rng.below(most - most // 2 + 1)):
            orbs[free.pop()] = (seat, rng.choice(ELEMENTS))
    adjacency = neighbours(setup.board, setup.wrap)
    target = rng.choice(sorted(orbs))
    origins = [c for c in adjacency[target] if c in free]
    owner, element = orbs[target]
    other = (owner + 1 + rng.below(players - 1)) % players
    kind = rng.choice(("move", "move", "capture", "annihilation", "lost", "pass", "resign"))
    last: OrbsLastMove | None
    if not origins or kind in ("pass", "resign"):
        last = OrbsLastMove(owner, "pass" if not origins else kind)
    else:
        origin, victim = NAMES[rng.choice(origins)], rng.choice(ELEMENTS)
        if kind == "move":
            last = OrbsLastMove(owner, kind, origin, NAMES[target], element)
        elif kind == "capture":
            last = OrbsLastMove(owner, kind, origin, NAMES[target], element, victim, other)
        elif kind == "lost":  # the orb on the target held out against ``other``
            last = OrbsLastMove(other, kind, origin, NAMES[target], victim, element, owner)
        else:  # annihilation: the target is empty now
            del orbs[target]
            last = OrbsLastMove(owner, kind, origin, NAMES[target], element, victim, other)
    still_in = len({seat for seat, _ in orbs.values()})
    outcome = None
    if rng.below(8) == 0:
        outcome = Outcome("last_standing", setup.sides[0], (setup.sides[0],))
    return OrbsView(
        players=players,
        board=setup.board,
        wrap=setup.wrap,
        holes=setup.holes,
        sides=setup.sides,
        zones=tuple(tuple(NAMES[c] for c in zones[point]) for point in setup.points),
        points=setup.points,
        orbs=tuple((NAMES[c], seat, e) for c, (seat, e) in sorted(orbs.items())),
        to_move=None if outcome else rng.below(players),
        quiet=rng.below(100),
        quiet_limit=50 * still_in,
        options=(
            ("board", setup.board),
            ("holes", ",".join(setup.holes) or "none"),
            ("wrap", setup.wrap),
            ("void", "1"),
            ("opening", "quartet"),
            ("teams", "-".join("".join(map(str, side)) for side in setup.sides)),
        ),
        last=last,
        outcome=outcome,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", type=int, default=200, help="how many views (default 200)")
    args = parser.parse_args()

    rng = Rng(20250511)
    views = [random_view(rng, SETUPS[k % len(SETUPS)]) for k in range(args.views)]
    labels = [tuple(rng.choice(LABELS) for _ in range(view.players)) for view in views]
    renders = [
        partial(render, view, seat_labels=label) for view, label in zip(views, labels, strict=True)
    ]
    cold = render_timing.cold_ms(renders[0])

    orbs = statistics.median(len(view.orbs) for view in views)
    print(f"orbs: {len(views)} views ({len(SETUPS)} setups, median {orbs:.0f} orbs), "
          "render + PNG encode")  # fmt: skip
    print(f"  first render (cold caches): {cold:7.1f} ms")
    # Each setup's board layer and each sprite are made on first use, so the first pass is
    # slower than a long-running bot's steady state: report both.
    for name in ("first pass", "second pass"):
        times, pngs = render_timing.run(renders)
        render_timing.print_times(times, prefix=f"{name} ")
    render_timing.print_sizes(pngs)
    render_timing.print_floor(pngs, times, PNG_COMPRESS_LEVEL)


if __name__ == "__main__":
    main()
