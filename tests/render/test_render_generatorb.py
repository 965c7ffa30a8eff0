"""Tests of the Generatorb board image (``render/generatorb.py``, spec section 10).

Golden images: each view in :data:`GOLDEN_VIEWS` is rendered and its decoded pixels (mode,
size and RGB values) are compared with ``tests/render/golden/<name>.png``. After a deliberate
change to the look, regenerate them with

    GAMEROOM_UPDATE_GOLDEN=1 .venv/bin/pytest tests/render -q

then open every changed PNG and look at it before committing. The goldens depend on Pillow's
bundled font and FreeType, so a Pillow upgrade may also require regenerating them. On a
mismatch the rendered image is written next to pytest's temporary files for comparison.

Views are built directly from ``GeneratorbView``/``LastMove`` (not by playing moves), so these
tests do not depend on the engine's move logic.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

import render
from engines.base import Outcome
from engines.generatorb import GRID, GeneratorbView, LastMove
from render import generatorb as gb
from render import kit
from tests.render.golden import GOLDEN_ROOT, check_golden, decode

GOLDEN_DIR = GOLDEN_ROOT


def cell(name: str) -> int:
    return GRID.index_of[name]


def board(south: str, north: str) -> tuple[int, ...]:
    """A board from position-notation piece lists, e.g. ``board("a1,d4=3", "h8")``."""
    cells = [0] * 64
    for pieces, sign in ((south, 1), (north, -1)):
        for item in filter(None, pieces.split(",")):
            name, _, height = item.partition("=")
            cells[cell(name)] = sign * int(height or 1)
    return tuple(cells)


def view(
    south: str,
    north: str,
    *,
    supply: tuple[int, int] = (17, 17),
    to_move: int | None = 0,
    ply: int = 0,
    passes: int = 0,
    outcome: Outcome | None = None,
    last: LastMove | None = None,
) -> GeneratorbView:
    return GeneratorbView(
        board=board(south, north),
        supply=supply,
        to_move=to_move,
        ply=ply,
        passes=passes,
        outcome=outcome,
        last=last,
        viewer=None,
    )


START = view("a1,a2,b1,b2,d4=3", "e5=3,g7,g8,h7,h8")
#: South's orb jumped c1-c3-c5-e7 (typed path), capturing on e7; a1 was refilled.
MIDGAME = view(
    "a1,a2,b2,c2,c4=2,e7,f2=3,d6",
    "h8,h7,g8,g7=2,f5,c8=3,b6=2,d4",
    supply=(9, 11),
    to_move=1,
    ply=23,
    last=LastMove(
        seat=0,
        origin=cell("c1"),
        destination=cell("e7"),
        path=(cell("c3"), cell("c5"), cell("e5")),
        captured=True,
        refilled=(cell("a1"),),
    ),
)
#: Every height for both sides; North's last move split a spheroid onto its own spheroid.
HEIGHTS = view(
    "a1,a2=2,b1=3,c3=2,d5=3,f1,g2=2",
    "h8,g8=2,e6=3,f6,c6=2,b7,d7",
    supply=(12, 10),
    ply=40,
    last=LastMove(seat=1, origin=cell("f6"), destination=cell("e6"), split=True, merged=3),
)
#: South won on the front line; its last move merged e2 onto e4.
GAME_OVER = view(
    "a1,a2,b2,a8,b7,c6,d5,e4=2",
    "h8,h7,g8,f6=3",
    supply=(3, 5),
    to_move=None,
    ply=57,
    outcome=Outcome.win("front_line", 0, 2),
    last=LastMove(seat=0, origin=cell("e2"), destination=cell("e4"), merged=2),
)
#: North passed without a refill: one more such pass draws.
PASSED = view(
    "c3,e3=2",
    "f6,g7",
    supply=(0, 0),
    to_move=0,
    ply=88,
    passes=1,
    last=LastMove(seat=1, origin=None, destination=None),
)
DRAW = view(
    "c3", "f6", supply=(0, 0), to_move=None, ply=90, passes=2,
    outcome=Outcome.draw("no_moves", 2), last=LastMove(seat=1, origin=None, destination=None),
)  # fmt: skip

LABELS = ("Zoë Ångström 🐉", "北の王")

GOLDEN_VIEWS: dict[str, tuple[GeneratorbView, tuple[str, str] | None, bool]] = {
    "start": (START, None, False),
    "midgame_capture": (MIDGAME, LABELS, False),
    "heights_split_merge": (HEIGHTS, ("alice", "bob"), False),
    "game_over": (GAME_OVER, ("alice", "bob"), False),
    "passed": (PASSED, ("alice", "a very long display name indeed"), False),
    "draw_flipped": (DRAW, ("alice", "bob"), True),
    "midgame_flipped": (MIDGAME, LABELS, True),
}


@pytest.mark.parametrize("name", sorted(GOLDEN_VIEWS))
def test_matches_golden_image(name: str, tmp_path: Path) -> None:
    board_view, labels, flip = GOLDEN_VIEWS[name]
    data = gb.render(board_view, seat_labels=labels, perspective=1 if flip else None)
    check_golden(data, GOLDEN_DIR / f"{name}.png", tmp_path)


def test_same_view_gives_same_bytes() -> None:
    first = gb.render(MIDGAME, seat_labels=LABELS)
    assert gb.render(MIDGAME, seat_labels=LABELS) == first
    # Rebuilding the cached layers and sprites from scratch changes nothing either.
    for cached in (gb._board_layer, gb._cell_labels, gb._named_layer, gb._piece_sprite,
                   gb._piece_patch, gb._panel, gb._panel_patch, kit.text_patch,
                   kit.palette_image):  # fmt: skip
        cached.cache_clear()
    assert gb.render(MIDGAME, seat_labels=LABELS) == first


def busiest_view() -> GeneratorbView:
    """Every cell occupied, every highlight in use: the largest PNG we can make."""
    cells = tuple((1 if i % 3 else -1) * (i % 3 + 1) for i in GRID.cells)
    path = tuple(cell(name) for name in ("c3", "e5", "g7", "e7", "c7", "a5"))
    last = LastMove(0, cell("a1"), cell("a3"), path=path, captured=True, refilled=(cell("b1"),))
    return GeneratorbView(cells, (24, 24), 1, 399, 1, None, last, None)


def test_png_is_small_decodes_and_is_800_px_wide() -> None:
    for board_view in (START, MIDGAME, busiest_view()):
        data = render.render_png("generatorb", board_view, seat_labels=("W" * 40, "M" * 40))
        assert len(data) < 150_000
        image = decode(data)
        assert image.format == "PNG"
        assert image.mode == "P"
        assert image.size == (gb.WIDTH, gb.HEIGHT) == (800, 800)


def pixel(data: bytes, xy: tuple[float, float]) -> tuple[int, int, int]:
    rgb = decode(data).convert("RGB")
    value = rgb.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(value, tuple)
    return (value[0], value[1], value[2])


def piece_fill_point(name: str, flip: bool) -> tuple[float, float]:
    """A point inside the piece on ``name`` that shows its fill (between number and rings)."""
    x, y = gb._piece_centre(cell(name), flip)
    return (x - 12, y)


def count(data: bytes, colour: tuple[int, int, int], centre: tuple[float, float], r: int) -> int:
    """How many pixels of ``colour`` lie in the square of half-side ``r`` around ``centre``."""
    x, y = round(centre[0]), round(centre[1])
    region = decode(data).convert("RGB").crop((x - r, y - r, x + r, y + r))
    return sum(1 for value in region.get_flattened_data() if value == colour)


@pytest.mark.parametrize("flip", [False, True])
def test_stacks_are_drawn_on_their_cells_in_their_owners_colour(flip: bool) -> None:
    data = gb.render(HEIGHTS, perspective=int(flip))
    for index, value in enumerate(HEIGHTS.board):
        colour = pixel(data, piece_fill_point(GRID.names[index], flip))
        if value > 0:
            assert colour == gb.SEAT_FILL[0], GRID.names[index]
        elif value < 0:
            assert colour == gb.SEAT_FILL[1], GRID.names[index]
        else:
            assert colour not in gb.SEAT_FILL, GRID.names[index]


def test_diamond_orientation_follows_the_spec() -> None:
    """G30: a1 at the bottom, h8 at the top, a8 left, h1 right; flip turns it 180°."""
    for flip in (False, True):
        bottom, top, left, right = (gb._centre(cell(n), flip) for n in ("a1", "h8", "a8", "h1"))
        if flip:
            bottom, top, left, right = top, bottom, right, left
        assert bottom[1] > left[1] == right[1] > top[1]
        assert left[0] < bottom[0] == top[0] < right[0]
        assert left[0] - gb.HALF > 0
        assert right[0] + gb.HALF < gb.WIDTH


def test_last_move_frames_origin_and_destination() -> None:
    data = gb.render(MIDGAME)
    for name in ("c1", "e7"):
        x, y = gb._centre(cell(name), False)
        assert pixel(data, (x, y + gb.HALF - 3)) == gb.HIGHLIGHT, name
    untouched = gb._centre(cell("d2"), False)
    assert count(data, gb.HIGHLIGHT, untouched, round(gb.HALF)) == 0


def test_badges_mark_capture_and_refill() -> None:
    data = gb.render(MIDGAME)
    for name, colour in (("e7", gb.CAPTURE), ("a1", gb.REFILL)):
        x, y = gb._centre(cell(name), False)
        assert count(data, colour, (x + gb.HALF - 16, y), 10) > 40, name
    quiet = gb.render(START)
    x, y = gb._centre(cell("a1"), False)
    assert count(quiet, gb.REFILL, (x + gb.HALF - 16, y), 10) == 0


def test_status_tells_turn_result_and_pass_warning() -> None:
    assert gb._status_lines(START)[0][0] == "South to move"
    assert gb._status_lines(GAME_OVER)[:2] == [("South wins", 28), ("Holds 5 front-line cells", 17)]
    assert gb._status_lines(DRAW)[:2] == [("Draw", 28), ("Neither player can move", 17)]
    resigned = view("c3", "f6", to_move=None, outcome=Outcome.win("resignation", 1, 2))
    assert gb._status_lines(resigned)[:2] == [("North wins", 28), ("South resigned", 17)]
    passed = [text for text, _ in gb._status_lines(PASSED)]
    assert "Last: North passed" in passed
    assert any("draw" in text for text in passed)
    assert not any("draw" in text for text, _ in gb._status_lines(MIDGAME))


@pytest.mark.parametrize(
    ("last", "text"),
    [
        (LastMove(0, cell("a1"), cell("a3")), "South a1-a3"),
        (LastMove(0, cell("c1"), cell("c5"), captured=True), "South c1xc5"),
        (LastMove(1, cell("c3"), cell("d4"), merged=3), "North c3-d4=3"),
        (LastMove(0, cell("c3"), cell("e5"), split=True), "South c3~e5"),
        (LastMove(0, cell("c3"), cell("d4"), split=True, captured=True), "South c3*d4"),
        (LastMove(0, cell("b2"), cell("a1"), split=True, merged=2), "South b2~a1=2"),
        (LastMove(1, None, None), "North passed"),
    ],
)
def test_describe_move_uses_canonical_notation(last: LastMove, text: str) -> None:
    assert gb.describe_move(last) == text


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("alice", "alice"),
        ("Zoë Ångström", "Zoe Angstrom"),
        ("Søren Łukasz", "Soren Lukasz"),
        ("ｆｕｌｌｗｉｄｔｈ", "fullwidth"),
        ("🐉 dragon  🐉", "🐉 dragon 🐉"),
        ("北の王", "北の王"),
        ("Владимир Йо", "Владимир Йо"),
        ("محمد", "محمد"),
        ("👨\u200d👩\u200d👧\ufe0f", "👨👩👧"),
        ("\U000e0001", ""),
        ("tab\tand\nnewline\x00", "tab and newline"),
    ],
)
def test_displayable_label_folds_latin_and_keeps_other_scripts(raw: str, shown: str) -> None:
    assert gb.displayable_label(raw, 1000, 17) == shown


def test_displayable_label_truncates_to_the_width() -> None:
    label = gb.displayable_label("a very long display name indeed", 120, 17)
    assert label.endswith("…")
    assert kit.bundled_font(17).getlength(label) <= 120
    assert "a very long display name indeed".startswith(label[:-1])
    assert gb.displayable_label("WWWW", 1, 17) == ""


def test_palette_keeps_every_meaningful_colour_exact() -> None:
    """Mapping onto the fixed palette must not shift the colours that carry meaning."""
    colours = gb._BASE_COLOURS
    image = Image.new("RGB", (len(colours), 1))
    for x, colour in enumerate(colours):
        image.putpixel((x, 0), colour)
    mapped = image.quantize(palette=kit.palette_image(gb.PALETTE), dither=Image.Dither.NONE)
    assert mapped.convert("RGB").tobytes() == image.tobytes()
    assert len(gb.PALETTE) <= 256


def test_render_png_dispatches_and_rejects_bad_input() -> None:
    assert render.render_png("generatorb", START) == gb.render(START)
    with pytest.raises(KeyError, match="no renderer"):
        render.render_png("chess", START)
    with pytest.raises(TypeError):
        render.render_png("generatorb", object())
    with pytest.raises(ValueError, match="64"):
        render.render_png(
            "generatorb", GeneratorbView((0,) * 63, (0, 0), 0, 0, 0, None, None, None)
        )
    with pytest.raises(ValueError, match="64"):
        render.render_png(
            "generatorb", GeneratorbView((4,) * 64, (0, 0), 0, 0, 0, None, None, None)
        )
    with pytest.raises(ValueError, match="2 names"):
        render.render_png("generatorb", START, seat_labels=("only one",))
    with pytest.raises(TypeError):
        gb.render(START, seat_labels="ab")
    with pytest.raises(ValueError, match="seats"):
        render.render_png("generatorb", replace(START, to_move=2))
    with pytest.raises(ValueError, match="off the board"):
        render.render_png("generatorb", replace(START, last=LastMove(0, 0, 64)))
    with pytest.raises(ValueError, match="neither"):
        render.render_png("generatorb", replace(START, last=LastMove(0, 0, None)))


def test_renders_from_several_threads_alike() -> None:
    """The bot renders in worker threads; shared fonts and cached layers must not interfere."""
    cases = [
        (board_view, flip) for board_view in (START, MIDGAME, HEIGHTS) for flip in (False, True)
    ]
    expected = [gb.render(board_view, perspective=int(flip)) for board_view, flip in cases]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(
            pool.map(lambda case: gb.render(case[0], perspective=int(case[1])), cases * 3)
        )
    assert results == expected * 3


def test_north_perspective_changes_the_picture() -> None:
    assert gb.render(MIDGAME, perspective=1) != gb.render(MIDGAME)
    with pytest.raises(ValueError, match="seats 0 and 1"):
        gb.render(MIDGAME, perspective=2)
