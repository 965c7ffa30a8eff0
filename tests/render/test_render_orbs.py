"""Tests of the Orbs board image (``render/orbs.py``, spec ``orbs.md``, "What the board image
must show").

Golden images: each view in :data:`GOLDEN_VIEWS` is rendered and its decoded pixels are compared
with ``tests/render/golden/orbs/<name>.png``. After a deliberate change to the look, regenerate
them with

    GAMEROOM_UPDATE_GOLDEN=1 .venv/bin/pytest tests/render/test_render_orbs.py -q

then open every changed PNG and look at it before committing. The goldens depend on Pillow's
bundled font and FreeType, so a Pillow upgrade may also require regenerating them.

Views are built by hand (the engine is not used): orbs are written as in the spec's position
notation (``"B1:A,B2:F/N1:A"``), zones come from the spec's tables through
``engines.geometry.hexstar`` (``POINTS``, ``HEX_ZONES``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engines.base import Outcome
from engines.geometry.hexstar import HEX_ZONES, HEXAGON, INDEX, NAMES, POINTS, SEAM, neighbours
from engines.orbs import OrbsEngine, OrbsLastMove, OrbsView
from render import kit
from render import orbs as ob
from tests.render.golden import GOLDEN_ROOT, check_golden, decode, rgb

GOLDEN_DIR = GOLDEN_ROOT / "orbs"

#: Where seats sit, by player count (spec: *Seats and points*).
SEATED = {
    2: ("N", "S"),
    3: ("N", "SE", "SW"),
    4: ("NE", "SE", "SW", "NW"),
    5: ("N", "NE", "SE", "SW", "NW"),
    6: ("N", "NE", "SE", "S", "SW", "NW"),
}
TORUS_SEATED = {2: ("N", "SE"), 3: ("N", "SE", "SW")}
#: The quartet opening on the star and on the hexagon (spec: *Openings*).
QUARTET = {"star": ".AFW.EFEWA", "hexagon": ".A.EWF"}

# ---- building views by hand ---------------------------------------------------------------------


def board_order(cells: Sequence[tuple[str, int, str]]) -> tuple[tuple[str, int, str], ...]:
    return tuple(sorted(cells, key=lambda orb: INDEX[orb[0]]))


def groups(text: str) -> tuple[tuple[str, int, str], ...]:
    """Orbs from the GROUPS field of the position notation: ``"B1:A,B2:F/-/N1:A"``."""
    found = []
    for seat, group in enumerate(text.split("/")):
        if group == "-":
            continue
        for item in group.split(","):
            cell, element = item.split(":")
            found.append((cell, seat, element))
    return board_order(found)


def zones(board: str, points: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    table = POINTS if board == "star" else HEX_ZONES
    return tuple(tuple(NAMES[cell] for cell in table[point]) for point in points)


def opening(board: str, points: Sequence[str], layout: str) -> tuple[tuple[str, int, str], ...]:
    """Every seat's orbs laid out by the opening string ``layout`` over its zone labels."""
    return board_order(
        [
            (name, seat, element)
            for seat, zone in enumerate(zones(board, points))
            for name, element in zip(zone, layout, strict=True)
            if element != "."
        ]
    )


def make_view(
    players: int,
    orbs: tuple[tuple[str, int, str], ...] | None = None,
    *,
    board: str = "star",
    wrap: str = "none",
    holes: tuple[str, ...] = (),
    sides: tuple[tuple[int, ...], ...] | None = None,
    to_move: int | None = 0,
    quiet: int = 0,
    quiet_limit: int | None = None,
    options: tuple[tuple[str, str], ...] | None = None,
    last: OrbsLastMove | None = None,
    outcome: Outcome | None = None,
) -> OrbsView:
    """An Orbs view with the spec's seating; the quartet start unless ``orbs`` are given."""
    points = (TORUS_SEATED if wrap == "torus" else SEATED)[players]
    if orbs is None:
        orbs = opening(board, points, QUARTET[board])
    sides = sides or tuple((seat,) for seat in range(players))
    still_in = len({seat for _, seat, _ in orbs})
    if options is None:
        teams = (
            "none"
            if all(len(side) == 1 for side in sides)
            else "-".join("".join(map(str, side)) for side in sides)
        )
        options = (("board", board), ("holes", ",".join(holes) or "none"), ("wrap", wrap),
                   ("void", "0"), ("opening", "quartet"), ("teams", teams))  # fmt: skip
    return OrbsView(
        players=players,
        board=board,
        wrap=wrap,
        holes=holes,
        sides=sides,
        zones=zones(board, points),
        points=points,
        orbs=orbs,
        to_move=to_move,
        quiet=quiet,
        quiet_limit=50 * still_in if quiet_limit is None else quiet_limit,
        options=options,
        last=last,
        outcome=outcome,
    )


RING6 = ("G5", "G7", "I3", "I7", "K5", "K7")
#: Seat 4's Fire burns seat 0's Air on I5.
BURN = OrbsLastMove(4, "capture", "I4", "I5", "F", "A", 0)
#: Seat 0's Earth attacks seat 1's Water across the torus seam and loses.
LOST_ACROSS_SEAM = OrbsLastMove(0, "lost", "E7", "M7", "E", "W", 1)
BUSY_OPTIONS = (
    ("board", "star"),
    ("holes", "ring6"),
    ("wrap", "none"),
    ("void", "1"),
    ("opening", "quartet"),
    ("teams", "03-14-25"),
)

START_2P = make_view(2)

#: Six players in three teams, every element, holes=ring6, void=1; seat 4's Fire has just
#: burned seat 0's Air on I5.
BUSY_6P = make_view(
    6,
    groups(
        "B1:A,C2:V,D2:E,D4:A,E7:F,F6:W,H5:E"
        "/E12:A,F11:V,F10:E,G10:W,G9:F,H8:A,H7:E"
        "/L11:V,M12:F,K10:W,J9:A,J8:E,K9:F,I8:W"
        "/O2:V,P1:F,N3:E,N1:A,M6:W,L6:F,J5:W"
        "/L2:V,M2:A,K2:E,L4:F,J3:W,I5:F,K3:E"
        "/F2:V,E2:F,G2:W,F4:E,H3:A,G4:F,H4:W"
    ),
    holes=RING6,
    sides=((0, 3), (1, 4), (2, 5)),
    to_move=5,
    quiet=0,
    options=BUSY_OPTIONS,
    last=BURN,
)

#: Teams 02-13; seat 3 (NW) is out; seat 1's Water and seat 2's Fire have just annihilated on I5.
TEAMS_4P = make_view(
    4,
    groups("E12:A,F11:W,G10:E,H9:F,G8:A/M13:F,L11:E,K10:A,J8:F/M1:W,L2:E,K3:A,J4:W,K2:F/-"),
    sides=((0, 2), (1, 3)),
    to_move=2,
    quiet=0,
    last=OrbsLastMove(1, "annihilation", "J6", "I5", "W", "F", 2),
)

#: The hexagon torus: seat 0's Earth attacked seat 1's Water across the seam (E7 → M7) and lost.
TORUS_2P = make_view(
    2,
    groups("E6:E,F6:A,G6:F,H5:W/J9:A,K9:W,M7:W,J8:E,K8:F,J7:A"),
    board="hexagon",
    wrap="torus",
    to_move=1,
    quiet=0,
    last=LOST_ACROSS_SEAM,
)

#: Over: seats 0 and 2 (team 02) are the last side standing after seat 2's Earth smothered
#: seat 1's last Fire.
FINISHED = make_view(
    4,
    groups("E12:A,F10:W,H8:E/-/I5:E,K4:E,J3:W/-"),
    sides=((0, 2), (1, 3)),
    to_move=None,
    quiet=0,
    quiet_limit=100,
    last=OrbsLastMove(2, "capture", "J5", "I5", "E", "F", 1),
    outcome=Outcome("last_standing", (0, 2), ((0, 2), (1, 3))),
)

LABELS_2 = ("Zoë Ångström 🌱", "bob")
LABELS_6 = ("Zoë Ångström 🌱", "bob", "北の王 Kita", "Ｆｕｌｌｗｉｄｔｈ", "carol", "x" * 60)
LABELS_4 = ("Ann", "Ben", "Cat", "Dan")

GOLDEN_VIEWS: dict[str, tuple[OrbsView, tuple[str, ...] | None]] = {
    "start_2p": (START_2P, LABELS_2),
    "busy_6p_teams_holes": (BUSY_6P, LABELS_6),
    "teams_4p_annihilation": (TEAMS_4P, LABELS_4),
    "torus_lost_attack": (TORUS_2P, ("Ann", "Ben")),
    "finished_team": (FINISHED, LABELS_4),
}


# ---- golden images -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GOLDEN_VIEWS))
def test_matches_golden_image(name: str, tmp_path: Path) -> None:
    view, labels = GOLDEN_VIEWS[name]
    check_golden(ob.render(view, seat_labels=labels), GOLDEN_DIR / f"{name}.png", tmp_path)


def test_same_view_gives_same_bytes() -> None:
    first = ob.render(BUSY_6P, seat_labels=LABELS_6)
    assert ob.render(BUSY_6P, seat_labels=LABELS_6) == first
    # Rebuilding every cached layer, sprite and text from scratch changes nothing either.
    for cached in (ob._board_layer, ob._layer, ob._orb_sprite, ob._ring_sample, ob._mini_orb,
                   ob._arrow_sprite, ob._badge_sprite, ob._origin_sprite, kit.text_stamp,
                   ob._label, ob._text_width, kit.palette_image):  # fmt: skip
        cached.cache_clear()
    assert ob.render(BUSY_6P, seat_labels=LABELS_6) == first


def test_renders_from_several_threads_alike() -> None:
    """The bot renders in worker threads; shared fonts and cached sprites must not interfere."""
    views = [view for view, _ in GOLDEN_VIEWS.values()]
    expected = [ob.render(view) for view in views]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(ob.render, views * 2))
    assert results == expected * 2


def busiest_view() -> OrbsView:
    """Six players with an orb on every one of the 121 cells, every element, a capture, a long
    options list and the longest labels: about the largest PNG the renderer makes."""
    orbs = tuple(
        (name, (k * 5 + k // 7) % 6, "FEAWV"[(k * 3 + k // 5) % 5]) for k, name in enumerate(NAMES)
    )
    holes = ",".join(NAMES[k] for k in range(0, 121, 13))
    options = (("board", "star"), ("holes", holes), ("wrap", "none"), ("void", "3"),
               ("opening", "FEAWFEAWFE"), ("teams", "024-135"))  # fmt: skip
    last = OrbsLastMove(2, "capture", "I4", "I5", "V", "F", 3)
    return make_view(6, orbs, sides=((0, 2, 4), (1, 3, 5)), to_move=3, quiet=12345,
                     options=options, last=last)  # fmt: skip


def test_png_is_a_small_palette_image_of_the_documented_size() -> None:
    for view in (START_2P, BUSY_6P, TORUS_2P, busiest_view()):
        data = ob.render(view, seat_labels=("W" * 80,) * view.players)
        assert len(data) <= 200_000
        image = decode(data)
        assert (image.format, image.mode) == ("PNG", "P")
        assert image.size == (ob.WIDTH, ob.HEIGHT) == (1080, 780)


@pytest.mark.parametrize(
    "labels",
    [
        ("Zoë Ångström 🌱", "北の王"),
        ("🌳🌳🌳", "\u202eevil\u202c"),
        ("a\tb\nc\x00d", "e\u0301\u0301\u0301"),
        ("مرحبا", "Ｆｕｌｌｗｉｄｔｈ"),
        ("", " "),
        ("W" * 200, "x" * 200),
    ],
)
def test_any_display_names_render(labels: tuple[str, str]) -> None:
    assert decode(ob.render(START_2P, seat_labels=labels)).size == (ob.WIDTH, ob.HEIGHT)


def test_labels_fold_latin_accents_and_draw_other_scripts() -> None:
    """Latin accents fold to the Latin face; other scripts are drawn, not dropped."""
    assert ob.render(START_2P, seat_labels=("北の王", "bob")) != ob.render(
        START_2P, seat_labels=("", "bob")
    )
    folded = ob.render(START_2P, seat_labels=("Zoë", "bob"))
    assert folded == ob.render(START_2P, seat_labels=("Zoe", "bob"))
    assert folded != ob.render(START_2P, seat_labels=("Zoe 🌱", "bob"))


# ---- what the picture shows --------------------------------------------------------------------

Box = tuple[float, float, float, float]


def colour_count(image: Image.Image, colour: tuple[int, int, int], box: Box) -> int:
    """How many pixels of ``colour`` lie in ``box`` (left, top, right, bottom)."""
    region = image.crop(tuple(round(v) for v in box))  # type: ignore[arg-type]
    return sum(1 for value in region.get_flattened_data() if value == colour)


def near_count(image: Image.Image, colour: tuple[int, int, int], box: Box, tolerance: int) -> int:
    """How many pixels in ``box`` differ from ``colour`` by at most ``tolerance`` per channel
    (small text is all anti-aliasing: few of its pixels have the ink's exact colour)."""
    region = image.crop(tuple(round(v) for v in box))  # type: ignore[arg-type]
    return sum(
        1
        for value in region.get_flattened_data()
        if isinstance(value, tuple)
        and max(abs(a - b) for a, b in zip(value, colour, strict=True)) <= tolerance
    )


def around(view: OrbsView, cell: str, r: float) -> Box:
    x, y = ob.cell_centre(view.board, view.wrap, cell)
    return (x - r, y - r, x + r, y + r)


def test_orbs_show_element_fill_and_owner_ring_on_their_cells() -> None:
    image = rgb(ob.render(BUSY_6P))
    scale = ob.SCALES[("star", "none")]
    for cell, seat, element in BUSY_6P.orbs:
        x, y = ob.cell_centre("star", "none", cell)
        fill_edge = scale.fill_radius - 1  # inside the fill, beside the glyph
        assert image.getpixel((round(x - fill_edge), round(y))) == ob.ELEMENT_FILL[element], cell
        ring = around(BUSY_6P, cell, scale.orb_radius)
        assert colour_count(image, ob.SEAT_COLOURS[seat], ring) > 20, cell
        others = [c for s, c in enumerate(ob.SEAT_COLOURS) if s != seat]
        assert all(colour_count(image, c, around(BUSY_6P, cell, 10)) == 0 for c in others)


def plate_box(view: OrbsView, cell: str, turns: int = 0) -> tuple[int, int, int, int]:
    scale = ob._scale(view.board, view.wrap)
    return ob._plate_box(*ob._name_plate(view, scale, cell, turns))


@pytest.mark.parametrize("view", [BUSY_6P, TORUS_2P, make_view(2, board="hexagon")])
def test_every_orb_shows_its_cells_name(view: OrbsView) -> None:
    """An orb hid its cell's name, so a newcomer counted along the row to type a move with
    their own orbs (exploratory pass 10): each orb carries its cell's name in dark ink on a
    white plate over the top of its ring, under nothing else (the last move's arrow and the
    clash badge leave it readable)."""
    image = rgb(ob.render(view))
    for cell, _, _ in view.orbs:
        box = plate_box(view, cell)
        area = (box[2] - box[0]) * (box[3] - box[1])
        assert colour_count(image, kit.WHITE, box) > area / 3, cell
        assert near_count(image, kit.INK, box, 60) > 8, cell


def _clearance(box: tuple[int, int, int, int], x: float, y: float) -> float:
    """How far the point (``x``, ``y``) lies from ``box``."""
    return math.hypot(x - min(max(x, box[0]), box[2]), y - min(max(y, box[1]), box[3]))


@pytest.mark.parametrize(("board", "wrap"), list(ob.SCALES))
def test_name_plates_clear_the_glyph_and_the_orbs_around(board: str, wrap: str) -> None:
    """A plate stays above its orb's glyph (Fire's apex is the highest point of any) and off
    the orbs around it and their seat numbers, whatever the cell's name."""
    scale = ob.SCALES[(board, wrap)]
    view = make_view(2, board=board, wrap=wrap)
    apex = 1.25 * math.sqrt(3) / 2 * 2 / 3 * scale.fill_radius
    spot, tag = (scale.orb_radius - scale.band / 2) / math.sqrt(2), 0.135 * scale.unit
    plain = neighbours(board)
    for cell in sorted(ob._BOARD_CELLS[board]):
        name = NAMES[cell]
        box = plate_box(view, name)
        _, y = ob.cell_centre(board, wrap, name)
        assert box[3] <= y - apex + 1, name  # (the box is rounded out to whole pixels)
        for other in plain[cell]:
            ox, oy = ob.cell_centre(board, wrap, NAMES[other])
            assert _clearance(box, ox, oy) > scale.orb_radius, (name, NAMES[other])
            assert _clearance(box, ox + spot, oy + spot) > tag, (name, NAMES[other])


def test_a_white_gap_parts_the_element_from_the_owner_ring() -> None:
    """North's Water (dark blue) inside North's blue ring read as one dark disc (exploratory
    pass 10): a white gap now runs between every ring and its element fill."""
    for scale in ob.SCALES.values():
        assert scale.gap >= 2.5
        for seat in range(6):
            for element in "FEAWV":
                image, ax, ay = ob._orb_sprite(scale, seat, element)
                middle = round(scale.fill_radius + scale.gap / 2)
                for x, y in ((ax - middle, ay), (ax, ay - middle)):
                    pixel = image.getpixel((x, y))
                    assert isinstance(pixel, tuple), pixel
                    assert pixel[:3] == kit.WHITE, (seat, element)


def test_empty_cells_show_their_names_and_holes_are_dark() -> None:
    image = rgb(ob.render(BUSY_6P))
    occupied = {cell for cell, _, _ in BUSY_6P.orbs}
    for name in ("A1", "I9", "Q1", "E13", "M1", "J4"):
        assert name not in occupied
        # The name is written in the cell's centre: muted ink there, none on a covered cell.
        assert near_count(image, ob.CELL_NAME, around(BUSY_6P, name, 6), 24) > 3, name
    assert near_count(image, ob.CELL_NAME, around(BUSY_6P, "H5", 6), 24) == 0
    for hole in RING6:
        x, y = ob.cell_centre("star", "none", hole)
        assert image.getpixel((round(x), round(y))) == ob.HOLE, hole


def test_start_zones_are_tinted_in_their_seats_colours() -> None:
    image = rgb(ob.render(TEAMS_4P))
    scale = ob.SCALES[("star", "none")]
    inset = scale.cell_radius - 4  # inside the disc, clear of the name
    for seat, zone in enumerate(TEAMS_4P.zones):
        for cell in zone:
            x, y = ob.cell_centre("star", "none", cell)
            if cell not in {c for c, _, _ in TEAMS_4P.orbs}:
                assert image.getpixel((round(x), round(y - inset))) == ob.ZONE_TINTS[seat], cell
    x, y = ob.cell_centre("star", "none", "I1")
    assert image.getpixel((round(x), round(y - inset))) == ob.CELL


def _cielab(colour: tuple[int, int, int]) -> tuple[float, float, float]:
    """sRGB (0–255) to CIELAB (D65 white), for colour distances a person can judge."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in colour)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """CIE76 ΔE: about 2.3 is a just-noticeable difference, 10+ reads at a glance."""
    return float(sum((p - q) ** 2 for p, q in zip(_cielab(a), _cielab(b), strict=True)) ** 0.5)


def test_start_zones_of_different_seats_are_told_apart_at_a_glance() -> None:
    # Seat 0's and seat 5's zones (N and NW, side by side) were 7 units apart when every
    # zone blended its colour at 0.25; SE's green looked like both.
    tints = ob.ZONE_TINTS
    for a in range(6):
        assert _distance(tints[a], ob.CELL) >= 18, a
        for b in range(a + 1, 6):
            assert _distance(tints[a], tints[b]) >= 15, (a, b)


def test_every_seat_has_its_own_ring_pattern_and_colour() -> None:
    assert len(set(ob.RING_PATTERNS)) == len(set(ob.SEAT_COLOURS)) == 6
    # Without colour the patterns still differ: the rings' outlines, drawn in grey, all differ.
    scale = ob.SCALES[("star", "none")]
    shapes = {ob._orb_sprite(scale, seat, "F")[0].convert("LA").tobytes() for seat in range(6)}
    assert len(shapes) == 6


def test_seam_ghosts_name_the_cells_across_the_seam() -> None:
    """Each edge cell's ghosts are exactly its SEAM partners, and the spec's torus examples
    hold: E7 meets M6 up-left and M7 up-right; E5 meets I9, J9 and M5; I1 meets E9, F9, M9."""
    for cell, ghosts in ob.SEAM_GHOSTS.items():
        assert sorted(partner for _, partner in ghosts) == sorted(SEAM[cell])
    by_name = {NAMES[c]: {d: NAMES[p] for d, p in g} for c, g in ob.SEAM_GHOSTS.items()}
    assert by_name["E7"] == {3: "M6", 4: "M7"}  # DIRECTIONS: (0, -1) up-left, (1, -1) up-right
    assert sorted(by_name["E5"].values()) == ["I9", "J9", "M5"]
    assert by_name["I1"] == {1: "E9", 3: "M9", 5: "F9"}  # left, up-left, down-left
    assert len(ob.GHOST_SPOTS) == 30


def test_torus_picture_writes_the_ghost_names_and_the_star_does_not() -> None:
    torus, star = rgb(ob.render(TORUS_2P)), rgb(ob.render(START_2P))
    scale = ob.SCALES[("hexagon", "torus")]
    for (ux, uy), _ in list(ob.GHOST_SPOTS.items())[:6]:
        x, y = ob.BOARD_CENTRE[0] + ux * scale.k, ob.BOARD_CENTRE[1] + uy * scale.k
        box = (x - 6, y - 5, x + 6, y + 5)
        assert near_count(torus, kit.MUTED, box, 24) > 3
    assert torus.size == star.size


@pytest.mark.parametrize("kind", ["capture", "annihilation", "lost"])
def test_a_clash_adds_a_badge_beside_the_target(kind: str) -> None:
    plain = replace(BURN, kind="move", victim="", victim_seat=None)
    clash = replace(BURN, kind=kind)
    moved = rgb(ob.render(replace(BUSY_6P, last=plain)))
    marked = rgb(ob.render(replace(BUSY_6P, last=clash)))
    box = around(BUSY_6P, "I5", 40)
    assert colour_count(marked, kit.WHITE, box) > colour_count(moved, kit.WHITE, box) + 30


@pytest.mark.parametrize("kind", ["capture", "annihilation", "lost"])
def test_a_clash_badge_covers_no_name_and_no_seat_number(kind: str) -> None:
    """The badge used to sit on a fixed diagonal, where it now would cover the name plate of
    the target's orb or of the one below it: it goes where it covers no name (on an orb or an
    empty cell) and no seat number, from whichever side the mover came, on any turn."""
    views = []
    for origin in ("H5", "H6", "I4", "I6", "J5", "J6"):
        gone = {origin, "I5"} if kind == "annihilation" else {origin}
        orbs = tuple(orb for orb in BUSY_6P.orbs if orb[0] not in gone)
        views.append(replace(BUSY_6P, orbs=orbs, last=replace(BURN, kind=kind, origin=origin)))
    gone = {"M7"} if kind == "annihilation" else set()
    torus = tuple(orb for orb in TORUS_2P.orbs if orb[0] not in gone)
    views.append(replace(TORUS_2P, orbs=torus, last=replace(LOST_ACROSS_SEAM, kind=kind)))
    for view in views:
        assert view.last is not None
        scale = ob._scale(view.board, view.wrap)
        spot, tag = (scale.orb_radius - scale.band / 2) / math.sqrt(2), 0.135 * scale.unit
        occupied = {cell for cell, _, _ in view.orbs}
        for turns in range(6) if view.wrap == "none" else (0,):
            badge = ob._badge_box(scale, kind, *ob._badge_spot(view, view.last, scale, turns))
            for cell in ob._BOARD_CELLS[view.board]:
                name = NAMES[cell]
                x, y = ob.cell_centre(view.board, view.wrap, name, turns)
                if name in occupied:
                    assert not ob._shared_area(badge, plate_box(view, name, turns)), name
                    assert _clearance(badge, x + spot, y + spot) > tag, name
                elif name not in view.holes:
                    text = kit.stamp_box(x, y, name, scale.name_size, "mm")
                    assert not ob._shared_area(badge, text), (view.last, turns, name)


def test_the_last_move_arrow_runs_from_origin_to_target() -> None:
    with_arrow = rgb(ob.render(BUSY_6P))
    without = rgb(ob.render(replace(BUSY_6P, last=None)))
    (x0, y0), (x1, y1) = (ob.cell_centre("star", "none", c) for c in ("I4", "I5"))
    middle = ((x0 + x1) / 2, (y0 + y1) / 2)
    assert with_arrow.getpixel((round(middle[0]), round(middle[1]))) == ob.ARROW
    assert without.getpixel((round(middle[0]), round(middle[1]))) != ob.ARROW
    # Passes and resignations are told in the panel only: the board stays as it was.
    for kind in ("pass", "resign"):
        last = OrbsLastMove(4, kind)
        board = rgb(ob.render(replace(BUSY_6P, last=last))).crop((0, 0, ob.BOARD_WIDTH, ob.HEIGHT))
        assert board.tobytes() == without.crop((0, 0, ob.BOARD_WIDTH, ob.HEIGHT)).tobytes()


def test_an_arrow_across_the_seam_leaves_and_enters_through_the_ghosts() -> None:
    scale = ob.SCALES[("hexagon", "torus")]
    arrows = ob._arrows(TORUS_2P, LOST_ACROSS_SEAM)
    assert [direction for _, direction in arrows] == [4, 4]  # up-right twice
    (sx, sy), _ = arrows[1]
    tx, ty = ob.cell_centre("hexagon", "torus", "M7")
    # The second arrow starts on the ghost one step down-left of M7.
    assert math.hypot(
        sx * scale.k + ob.BOARD_CENTRE[0] - tx, sy * scale.k + ob.BOARD_CENTRE[1] - ty
    ) == (pytest.approx(scale.unit))


def test_eliminated_seats_are_greyed_out_in_the_panel() -> None:
    image = rgb(ob.render(TEAMS_4P))
    row = ob.SEAT_ROW_TOP + 3 * ob.SEAT_ROW_HEIGHT
    box = (ob.PANEL_LEFT - 4, row, ob.PANEL_LEFT + 40, row + ob.SEAT_ROW_HEIGHT - 6)
    assert colour_count(image, ob.OUT, box) > 50
    assert colour_count(image, ob.SEAT_COLOURS[3], box) == 0
    live = (box[0], box[1] - ob.SEAT_ROW_HEIGHT, box[2], box[3] - ob.SEAT_ROW_HEIGHT)
    assert colour_count(image, ob.SEAT_COLOURS[2], live) > 50


def test_the_board_fits_its_area_at_every_scale() -> None:
    for (board, wrap), scale in ob.SCALES.items():
        cells = [NAMES[c] for c in (range(121) if board == "star" else sorted(HEXAGON))]
        r = scale.orb_radius
        for cell in cells:
            x, y = ob.cell_centre(board, wrap, cell)
            assert r < x < ob.BOARD_WIDTH - r, (board, cell)
            assert r < y < ob.HEIGHT - r, (board, cell)
        # Neighbouring orbs do not touch.
        assert 2 * r < scale.unit


# ---- words -------------------------------------------------------------------------------------


def test_headline() -> None:
    assert ob.headline(START_2P) == ("North to move", "")
    assert ob.headline(FINISHED) == ("Team A wins", "Last side standing")
    single = replace(FINISHED, outcome=Outcome("last_standing", (1,), ((1,), (0, 2, 3))))
    assert ob.headline(single) == ("South-east wins", "Last side standing")
    three = replace(BUSY_6P, to_move=None, outcome=Outcome("last_standing", (4, 0, 2), ()))
    assert ob.headline(three) == ("North, South-east and South-west win", "Last side standing")
    for termination, words in [
        ("annihilation", "The last two orbs annihilated"),
        ("same_element", "Only one element left"),
        ("stalemate", "Nobody can move"),
        ("no_progress", "Too many quiet turns"),
        ("agreement", "Draw agreed"),
        ("a_new_ending", "a new ending"),
    ]:
        drawn = replace(START_2P, to_move=None, outcome=Outcome(termination, (), ((0, 1),)))
        assert ob.headline(drawn) == ("Draw", words)


def test_quiet_text_counts_against_the_limit_in_turns_and_rounds() -> None:
    """The counter counts turns, the option ``no_progress_limit`` rounds (a turn of every
    player still in): with ``no_progress_limit=12`` the board read "1/24 quiet turns" and
    nothing said where 24 came from (exploratory pass 10), so the rounds follow."""
    two_in = replace(START_2P, quiet=37, quiet_limit=100)
    assert ob.quiet_text(two_in) == "37/100 quiet turns (limit: 50 rounds)"
    assert (
        ob.quiet_text(replace(two_in, quiet=1, quiet_limit=24))
        == "1/24 quiet turns (limit: 12 rounds)"
    )
    assert (
        ob.quiet_text(replace(two_in, quiet=0, quiet_limit=2)) == "0/2 quiet turns (limit: 1 round)"
    )
    assert ob.quiet_text(replace(two_in, quiet_limit=0)) == "37 quiet turns (no limit)"
    assert ob.quiet_text(replace(two_in, quiet=1, quiet_limit=0)) == "1 quiet turn (no limit)"
    # With a seat out the limit in turns shrinks; the rounds stay (FINISHED: 2 seats in).
    assert (
        ob.quiet_text(replace(FINISHED, outcome=None, to_move=0))
        == "0/100 quiet turns (limit: 50 rounds)"
    )
    # A hand-made limit that is no whole number of rounds says no rounds.
    assert ob.quiet_text(replace(two_in, quiet_limit=101)) == "37/101 quiet turns"


def test_the_final_board_shows_the_counter_only_when_it_ended_the_game() -> None:
    """The final board read "0/12 quiet turns" after "1/24" in play: the last capture reset
    the counter and the limit in turns shrank to the one player left. Once the game is over
    the counter no longer counts, so it is left out, unless quiet turns ended the game."""
    assert ob.quiet_text(FINISHED) == ""
    drawn = replace(
        START_2P, to_move=None, quiet=24, quiet_limit=24,
        outcome=Outcome("no_progress", (), ((0, 1),)),
    )  # fmt: skip
    assert ob.quiet_text(drawn) == "24/24 quiet turns (limit: 12 rounds)"
    # Left out, the counter's row goes to the last move.
    over = rgb(ob.render(FINISHED))
    row = ob.SEAT_ROW_TOP + FINISHED.players * ob.SEAT_ROW_HEIGHT + 14
    box = (ob.PANEL_LEFT, row - 8, ob.PANEL_LEFT + 36, row + 8)
    assert near_count(over, kit.MUTED, box, 30) > 10  # "Last", muted, where the counter was


def test_the_panel_lists_the_options_that_are_not_at_their_defaults() -> None:
    """The panel's Options listed the defaults (board, holes, wrap, void, opening, teams) but
    not ``no_progress_limit=12`` (exploratory pass 10): the engine's view now adds every other
    option not at its default."""
    engine = OrbsEngine()
    cases: list[tuple[dict[str, int | str], tuple[tuple[str, str], ...]]] = [
        ({}, ()),
        ({"no_progress_limit": 12}, (("no_progress_limit", "12"),)),
        ({"first_player": "seat0", "no_progress_limit": 0},
         (("no_progress_limit", "0"), ("first_player", "seat0"))),
    ]  # fmt: skip
    for given, extra in cases:
        options = engine.options_for(engine.complete_options({"board": "hexagon", **given}), 2)
        view = engine.view(engine.new_game(2, options, 0), None)
        shown = ("board", "holes", "wrap", "void", "opening", "teams")
        assert tuple(name for name, _ in view.options) == shown + tuple(n for n, _ in extra)
        assert view.options[len(shown) :] == extra
        lines = ob._wrap(ob._option_pieces(view), 15, 262)
        printed = " ".join(lines)
        assert ("no_progress_limit 12" in printed) == (given.get("no_progress_limit") == 12)


@pytest.mark.parametrize(
    ("last", "text"),
    [
        (OrbsLastMove(1, "move", "N4", "M5", "F"), "South: N4-M5"),
        (
            OrbsLastMove(0, "capture", "I5", "I6", "F", "A", 1),
            "North: I5-I6, Fire burns South's Air",
        ),
        (
            OrbsLastMove(0, "capture", "I5", "I6", "A", "W", 1),
            "North: I5-I6, Air evaporates South's Water",
        ),
        (
            OrbsLastMove(1, "annihilation", "I6", "I5", "W", "F", 0),
            "South: I6-I5, Water and North's Fire annihilate",
        ),
        (
            OrbsLastMove(1, "lost", "I6", "I5", "E", "W", 0),
            "South: I6-I5, North's Water erodes the attacking Earth",
        ),
        (OrbsLastMove(0, "pass"), "North passed"),
        (OrbsLastMove(1, "resign"), "South resigned"),
    ],
)
def test_describe_last_uses_the_notation(last: OrbsLastMove, text: str) -> None:
    assert ob.describe_last(replace(START_2P, last=last)) == text


def test_palette_keeps_every_meaningful_colour_exact() -> None:
    colours = ob._BASE_COLOURS
    image = Image.new("RGB", (len(colours), 1))
    for x, colour in enumerate(colours):
        image.putpixel((x, 0), colour)
    mapped = image.quantize(palette=kit.palette_image(ob.PALETTE), dither=Image.Dither.NONE)
    assert mapped.convert("RGB").tobytes() == image.tobytes()
    assert len(ob.PALETTE) <= 256


# ---- bad input ---------------------------------------------------------------------------------


def test_rejects_a_wrong_view_type_or_labels() -> None:
    with pytest.raises(TypeError, match="OrbsView"):
        ob.render(object())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="one string"):
        ob.render(START_2P, seat_labels="ab")
    with pytest.raises(ValueError, match="2 names"):
        ob.render(START_2P, seat_labels=("only one",))
    with pytest.raises(ValueError, match="6 names"):
        ob.render(BUSY_6P, seat_labels=LABELS_2)


def last(**changes: Any) -> OrbsLastMove:
    return replace(OrbsLastMove(0, "capture", "D1", "E5", "F", "A", 1), **changes)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": 7}, "2–6 seats"),
        ({"players": 1}, "2–6 seats"),
        ({"board": "square"}, "no Orbs board"),
        ({"wrap": "torus"}, "no Orbs board"),
        ({"holes": ("Z1",)}, "the hole 'Z1'"),
        ({"holes": ("I5", "I5")}, "listed twice"),
        ({"holes": ("D1",)}, "hole or a second orb"),
        ({"sides": ((0,),)}, "split seats"),
        ({"sides": ((0, 1), (1,))}, "split seats"),
        ({"zones": ((),)}, "zones and points"),
        ({"zones": (("A1",), ("I10",))}, "zone cell 'I10'"),
        ({"points": ("N", "X")}, "points are"),
        ({"orbs": (("I10", 0, "F"),)}, "orb's cell 'I10'"),
        ({"orbs": (("i5", 0, "F"),)}, "orb's cell 'i5'"),
        ({"orbs": (("I5", 0, "F"), ("I5", 1, "W"))}, "second orb"),
        ({"orbs": (("I5", 2, "F"),)}, "seat 2"),
        ({"orbs": (("I5", -1, "F"),)}, "seat -1"),
        ({"orbs": (("I5", 0, "X"),)}, "element 'X'"),
        ({"orbs": (("I5", 0, "f"),)}, "element 'f'"),
        ({"to_move": 2}, "to move"),
        ({"quiet": -1}, "≥ 0"),
        ({"quiet_limit": -5}, "≥ 0"),
        ({"outcome": Outcome("last_standing", (3,), ((3,),))}, "winners"),
        ({"last": last(kind="jump")}, "one of move"),
        ({"last": last(seat=2)}, "seat 2"),
        ({"last": last(target="E7")}, "not neighbours"),
        ({"last": last(origin="Z9")}, "origin 'Z9'"),
        ({"last": last(element="Q")}, "element 'Q'"),
        ({"last": last(victim="")}, "needs victim"),
        ({"last": last(victim_seat=None)}, "needs victim"),
        ({"last": last(victim_seat=5)}, "needs victim"),
        ({"last": last(kind="move")}, "has no victim"),
        ({"last": OrbsLastMove(0, "pass", "I5")}, "names no cells"),
    ],
)
def test_rejects_a_malformed_view(change: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ob.render(replace(START_2P, **change))  # type: ignore[arg-type]


def test_rejects_the_star_points_on_the_hexagon() -> None:
    with pytest.raises(ValueError, match="not a cell of the hexagon board"):
        ob.render(replace(TORUS_2P, orbs=(("A1", 0, "F"),)))
    with pytest.raises(ValueError, match="not neighbours"):
        ob.render(replace(TORUS_2P, last=replace(LOST_ACROSS_SEAM, target="M9")))


def test_registered_for_the_bot() -> None:
    import render

    assert render.RENDERERS["orbs"] is render.orbs.render
