"""Time the Generation Zero board renderer: ``python bench/render_generation_zero.py [--views N]``.

Builds N busy Generation Zero views deterministically (SplitMix64 from ``engines.rng``, so every
run draws the same views) and renders each to PNG bytes with ``render.generation_zero.render``,
then prints the median and 99th-percentile time of render + encode over two passes (the first
one also makes the sprites met for the first time), the first (cold-cache) render, the median
and largest PNG size, and the floor (``render_timing.print_floor``). Each view starts from a
real 4-player (eighteen cards) or 2-player (sixteen) setup of the engine and then scatters every
character over a few cards, turns some Monsters and Canons face-up, gives 'Sues Canons and
characters effects, and adds pending battles, a last decision with a path and a full combat log.
They are random views, not reachable positions: the renderer does not care, and they are busier
than most real games. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from functools import partial
from typing import Any

import render_timing

from engines.generation_zero import GenerationZeroEngine, GenerationZeroView, LastDecision
from engines.rng import Rng
from render.generation_zero import PNG_COMPRESS_LEVEL, render

LABELS = ("Zoë the Sue Hunter 🐉", "bob", "北の王", "a_very_long_discord_display_name_32")
ENGINE = GenerationZeroEngine()


def busy_view(rng: Rng, base: GenerationZeroView) -> GenerationZeroView:
    """``base`` (a fresh setup's public view) made busy with draws from ``rng``."""
    data: dict[str, Any] = dict(base.data)
    cards = list(data["map"])
    crowded = rng.shuffled(cards)[:4]
    chars = {}
    for cid, char in data["chars"].items():
        fx = []
        if rng.below(3) == 0:
            fx.append({"kind": "add", "seat": 0, "stat": "attack", "turns": 1, "value": -1})
        if rng.below(6) == 0:
            fx.append({"kind": "paralyse", "seat": 1, "stat": "", "turns": 1, "value": 0})
        chars[cid] = {**char, "at": rng.choice(crowded), "cd": rng.below(3), "fx": fx,
                      "hp": max(1, char["hp"] - rng.below(3))}  # fmt: skip
    canons = {}
    sues = [cid for cid in chars if cid.startswith("S")]
    for token, canon in data["canons"].items():
        face_up = rng.below(2) == 0
        card = rng.choice(("aragone", "leggolas", "gimbly")) if face_up else ""
        if rng.below(3) == 0:
            holder = rng.choice(sues)
            chars[holder]["canons"] = [*chars[holder]["canons"], token]
            canons[token] = {**canon, "at": "", "card": card, "public": face_up}
        else:
            canons[token] = {**canon, "card": card, "public": face_up}
    monsters = {}
    for token, monster in data["monsters"].items():
        if rng.below(2) == 0:
            monsters[token] = {**monster, "card": "stone_troll", "hp": 4, "public": True}
        else:
            monsters[token] = monster
    data.update(chars=chars, canons=canons, monsters=monsters, pending=crowded[:2])
    path = tuple(rng.shuffled(cards)[:3])
    last = LastDecision("move", 0, "A1", path, path[-1], "", "move A1 L3")
    log = tuple(f"A{k} attacks S2: {k} vs 3, 1 damage (S2 5 → 4)" for k in range(1, 13))
    max_health = {cid: max(6, c["hp"]) for cid, c in chars.items()}
    return replace(base, data=data, last=last, combat_log=log, max_health=max_health)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", type=int, default=100, help="how many views (default 100)")
    args = parser.parse_args()

    rng = Rng(20250302)
    bases = [ENGINE.view(ENGINE.new_game(players, {}, seed), None)
             for players, seed in ((4, 1), (2, 2), (4, 3))]  # fmt: skip
    views = [busy_view(rng, bases[k % len(bases)]) for k in range(args.views)]
    labels = [LABELS[: view.data["players"]] for view in views]
    renders = [
        partial(render, view, seat_labels=label) for view, label in zip(views, labels, strict=True)
    ]
    cold = render_timing.cold_ms(renders[0])
    print(f"generation_zero: {len(views)} views, render + PNG encode")
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
