"""Player names in any script, and boards drawn from a seat's side (render.kit, render_png).

Golden images pin names in Cyrillic, CJK, Hangul, Hebrew, Arabic (joined and right-to-left)
and emoji in four games, and Generatorb from both seats' sides with those names.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import render
from render import kit
from render.generatorb import _panel
from tests.render import test_render_arbos as arbos_tests
from tests.render import test_render_generator as generator_tests
from tests.render import test_render_generatorb as generatorb_tests
from tests.render import test_render_orbs as orbs_tests
from tests.render.golden import GOLDEN_ROOT, check_golden, rgb

GOLDEN_DIR = GOLDEN_ROOT / "names"

GOLDEN: dict[str, tuple[str, object, tuple[str, ...], int | None]] = {
    "generatorb_south": ("generatorb", generatorb_tests.MIDGAME, ("Владимир 🐉", "محمد علي"), 0),
    "generatorb_north": ("generatorb", generatorb_tests.MIDGAME, ("Владимир 🐉", "محمد علي"), 1),
    "orbs_cjk_hebrew": ("orbs", orbs_tests.START_2P, ("北の王 Kita", "שלום 🎲"), None),
    "arbos_hangul_cyrillic": ("arbos", arbos_tests.MIDGAME, ("김민준", "Алёна 🌱"), None),
    "generator_four_scripts": (
        "generator",
        generator_tests.BUSY,
        ("Zoë 🐉", "Пётр", "王小明", "فاطمة 2024"),
        None,
    ),
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_names_in_any_script_match_golden(name: str, tmp_path: Path) -> None:
    game_id, view, labels, perspective = GOLDEN[name]
    data = render.render_png(game_id, view, seat_labels=labels, perspective=perspective)
    check_golden(data, GOLDEN_DIR / f"{name}.png", tmp_path)


@pytest.mark.parametrize(
    ("raw", "drawn"),
    [
        ("abc", "abc"),
        ("שלום", "םולש"),  # right-to-left: reversed for left-to-right drawing
        ("abc שלום def", "abc םולש def"),
        ("שלום 123", "123 םולש"),  # numbers stay left-to-right inside right-to-left text
        ("Ali (علي)", "Ali (ﻲﻠﻋ)"),  # joined forms: initial, medial, final
        ("لا", "ﻻ"),  # lam-alef ligature
    ],
)
def test_visual_order_reverses_and_shapes_right_to_left_runs(raw: str, drawn: str) -> None:
    assert kit.visual_order(raw) == drawn


def test_face_runs_pick_a_face_per_character() -> None:
    runs = kit.face_runs("ab 北 🐉 й")
    assert [index for index, _ in runs] == [0, 4, 0, 5, 0, 1]
    assert "".join(text for _, text in runs) == "ab 北 🐉 й"


def test_latin_text_takes_the_unchanged_fast_path() -> None:
    assert kit.is_plain("Supply 12 (TO MOVE)")
    assert not kit.is_plain("Пётр")
    assert kit.text_width("Supply 12", 17) == kit.bundled_font(17).getlength("Supply 12")


def test_every_script_draws_ink_and_labels_fit_their_width() -> None:
    for name in ("Владимир", "北の王", "김민준", "محمد", "שלום", "🐉🎲"):
        label = kit.displayable_label(name, 60, 17)
        assert label, name
        assert kit.text_width(label, 17) <= 60
        mask, _, _ = kit.text_stamp(label, 17, "lm", False)
        assert mask.getbbox() is not None, name


def test_a_name_a_little_too_long_is_drawn_smaller_rather_than_cut() -> None:
    name = "Gameroom (level 3)"  # what a bot's seat is called: the level must show
    width = kit.text_width(name, 15) + 1
    assert kit.text_width(name, 17) > width
    assert kit.fitted_label(name, width, 17, 15) == (name, 15)
    assert kit.fitted_label(name, 400, 17, 15) == (name, 17)
    cut, size = kit.fitted_label(name, width - 20, 17, 15)
    assert cut.endswith("…")
    assert size == 17
    # Generatorb's panel beside "South": the whole name, smaller.
    texts = [text for _, _, text, *_ in _panel(0, name, 17, "WINNER", 700).texts]
    assert name in texts


def test_perspective_none_is_the_fixed_picture_and_north_is_turned() -> None:
    view = generatorb_tests.MIDGAME
    fixed = render.render_png("generatorb", view)
    assert render.render_png("generatorb", view, perspective=0) == fixed
    assert render.render_png("generatorb", view, perspective=1) == render.RENDERERS["generatorb"](
        view, perspective=1
    )
    assert render.render_png("generatorb", view, perspective=1) != fixed


def test_games_without_sides_ignore_perspective() -> None:
    view = arbos_tests.MIDGAME
    assert render.render_png("arbos", view, perspective=1) == render.render_png("arbos", view)
    assert "arbos" not in render.PERSPECTIVE_GAMES


@pytest.mark.parametrize("bad", [-1, 2, True])
def test_bad_perspective_is_refused(bad: int) -> None:
    with pytest.raises(ValueError, match=r"perspective|seats"):
        render.render_png("generatorb", generatorb_tests.MIDGAME, perspective=bad)


def test_north_sees_its_generator_at_the_bottom() -> None:
    """North's core cell is drawn in the lower half for North and the upper half for South."""
    from engines.generatorb import CORES, NORTH
    from render import generatorb as gb

    assert gb._centre(CORES[NORTH], True)[1] > gb.HEIGHT / 2 > gb._centre(CORES[NORTH], False)[1]
    north = rgb(render.render_png("generatorb", generatorb_tests.MIDGAME, perspective=1))
    south = rgb(render.render_png("generatorb", generatorb_tests.MIDGAME, perspective=0))
    assert north.size == south.size
