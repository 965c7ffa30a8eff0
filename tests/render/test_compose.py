"""Composing on the palette (``render.kit.Composer``) must not change a single pixel.

Generatorb, Generator and Orbs map onto their palette only what a picture changes (and
Generatorb pastes its stacks, panels and status lines ready-mapped), where they used to draw the
whole picture in RGB and map all of it. ``Composer.map_everything`` switches back to the old
way; for a few dozen busy random views of every game (the benchmarks' own,
``bench/render_*.py``) both ways must give the same palette indices. (Arbos and Generation Zero
still map whole pictures, so for them this checks nothing new.)
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from PIL import Image, ImageDraw

from engines.rng import Rng
from render import kit, render_png

BENCH = Path(__file__).resolve().parents[2] / "bench"
LABELS = ("Zoë 🐉", "bob", "北の王", "a_very_long_discord_display_name_32", "Пётр", "שלום")

Case = tuple[str, object, tuple[str, ...], int | None]


def bench(name: str, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCH))
    return importlib.import_module(f"render_{name}")


def generatorb_cases(module: ModuleType, rng: Rng) -> list[Case]:
    return [
        ("generatorb", module.random_view(rng), (rng.choice(LABELS), rng.choice(LABELS)),
         rng.below(2))
        for _ in range(60)
    ]  # fmt: skip


def arbos_cases(module: ModuleType, rng: Rng) -> list[Case]:
    return [
        ("arbos", module.random_view(rng), (rng.choice(LABELS), rng.choice(LABELS)), None)
        for _ in range(30)
    ]


def generator_cases(module: ModuleType, rng: Rng) -> list[Case]:
    cases: list[Case] = []
    for _ in range(40):
        view = module.random_view(rng)
        seats = len(view.colours)
        labels = tuple(rng.choice(LABELS) for _ in range(seats))
        cases.append(("generator", view, labels, rng.choice((None, *range(seats)))))
    return cases


def orbs_cases(module: ModuleType, rng: Rng) -> list[Case]:
    cases: list[Case] = []
    for k in range(40):
        view = module.random_view(rng, module.SETUPS[k % len(module.SETUPS)])
        labels = tuple(rng.choice(LABELS) for _ in range(view.players))
        cases.append(("orbs", view, labels, rng.choice((None, *range(view.players)))))
    return cases


def generation_zero_cases(module: ModuleType, rng: Rng) -> list[Case]:
    engine = module.ENGINE
    cases: list[Case] = []
    for k, (players, seed) in enumerate(((4, 1), (2, 2), (4, 3)) * 6):
        state = engine.new_game(players, {}, seed)
        base = engine.view(state, None)
        view = module.busy_view(rng, base) if k % 3 else engine.view(state, k % players)
        cases.append(("generation_zero", view, LABELS[:players], None))
    return cases


CASES: dict[str, Callable[[ModuleType, Rng], list[Case]]] = {
    "board": generatorb_cases,
    "arbos": arbos_cases,
    "generator": generator_cases,
    "orbs": orbs_cases,
    "generation_zero": generation_zero_cases,
}


def indices(data: bytes) -> tuple[str, tuple[int, int], bytes, list[int] | None]:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.mode, image.size, image.tobytes(), image.getpalette()


@pytest.mark.parametrize("name", sorted(CASES))
def test_composed_pictures_equal_mapping_the_whole_drawing(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cases = CASES[name](bench(name, monkeypatch), Rng(20260111))
    composed = [
        render_png(game, view, seat_labels=labels, perspective=seat)
        for game, view, labels, seat in cases
    ]
    monkeypatch.setattr(kit.Composer, "map_everything", True)
    for (game, view, labels, seat), data in zip(cases, composed, strict=True):
        reference = render_png(game, view, seat_labels=labels, perspective=seat)
        assert indices(data) == indices(reference), (game, view)


def test_composer_maps_only_marked_boxes() -> None:
    rgb = Image.new("RGB", (64, 64), kit.BACKGROUND)
    layer = kit.Layer.of(rgb, (kit.BACKGROUND, kit.INK))
    picture = kit.Composer(layer)
    picture.rgb.paste(kit.INK, (0, 0, 64, 64))
    picture.mark((8, 8, 16, 16))
    assert picture.meets((0, 0, 9, 9))
    assert not picture.meets((40, 40, 48, 48))
    mapped = picture.finish().convert("RGB")
    assert mapped.getpixel((10, 10)) == kit.INK
    assert mapped.getpixel((40, 40)) == kit.BACKGROUND


def test_marked_boxes_close_together_are_mapped_as_one() -> None:
    layer = kit.Layer.of(Image.new("RGB", (400, 400), kit.BACKGROUND), (kit.BACKGROUND,))
    picture = kit.Composer(layer)
    for x in range(0, 100, 10):
        picture.mark((x, 0, x + 12, 12))
    picture.mark((300, 300, 310, 310))
    assert sorted(picture.boxes) == [(0, 0, 102, 12), (300, 300, 310, 310)]
    # A join covers more than was marked: meets() answers for the joined boxes.
    picture.mark((0, 100, 4, 104))
    assert picture.meets((0, 100, 1, 101))


def test_text_at_draws_what_imagedraw_draws() -> None:
    for x, y, anchor, stroke in ((10, 20.8, "lm", 0), (150.25, 40.5, "rm", 1), (60, 30, "mm", 0)):
        expected = Image.new("RGB", (200, 60), kit.BACKGROUND)
        ImageDraw.Draw(expected).text(
            (x, y), "Ply 123 South", font=kit.bundled_font(17), fill=kit.INK, anchor=anchor,
            stroke_width=stroke, stroke_fill=kit.INK,
        )  # fmt: skip
        drawn = Image.new("RGB", (200, 60), kit.BACKGROUND)
        box = kit.text_at(drawn, x, y, "Ply 123 South", 17, kit.INK, anchor, stroke)
        assert drawn.tobytes() == expected.tobytes()
        assert box == kit.text_box(x, y, "Ply 123 South", 17, anchor, stroke)
        inside = Image.new("RGB", (200, 60), kit.BACKGROUND)
        inside.paste(expected.crop(box), box[:2])
        assert inside.tobytes() == expected.tobytes()  # everything drawn lies in the box
