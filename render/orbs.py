"""The Orbs board image (spec ``shared/specs/orbs.md``, "What the board image must show").

:func:`render` turns an :class:`~engines.orbs.OrbsView` into a 1080 × 780 palette PNG: the board
on the left (720 px), a panel on the right.

The board is :func:`engines.geometry.hexstar.centre` scaled, pointy-top, one point straight up:

* every cell a disc, joined to its neighbours by thin lines, with its name (``I5``) in small
  type, so the picture spells the notation; the row letter at both ends of every row; holes
  as dark blocker discs; each seat's start zone (``view.zones``) tinted faintly in its colour;
* on the torus (``wrap="torus"``) a ring of dashed *seam ghosts* just outside the hexagon: each
  one stands where an edge cell's off-board neighbour would be and carries the name of the cell
  it really is across the seam (:data:`~engines.geometry.hexstar.SEAM`), so ``E7`` shows its
  neighbours ``M6`` and ``M7`` above it;
* every orb a disc: its element by a glyph *and* a fill (Fire ▲ red, Water ▼ dark blue,
  Air ○ pale blue, Earth ■ brown, Void ✕ purple-grey; the glyphs are drawn as shapes), its
  owner by a thick ring in the seat's colour (Okabe–Ito) with a pattern of its own (seat 0
  solid, 1 dashed, 2 double, 3 dotted, 4 dash-dot, 5 thick-thin) and the seat number in a
  small white disc on the ring, so neither element nor owner depends on colour alone; a white
  gap parts the fill from the ring (North's dark Water in North's blue ring read as one
  disc), and the cell's name sits on a small white plate over the top of the ring, so the
  cells of the orbs can be read as well as the empty ones;
* the last move: a dashed circle where the mover stood and a dark arrow onto the target
  (across the seam it points at the target's ghost, and a second arrow leaves the origin's
  ghost on the far side); a clash adds a badge beside the target: ✓ for a capture, ✕✕ for an
  annihilation, ✕ (and a bar instead of the arrow head) when the attacker lost, on the side
  where it covers no cell name and no seat number.

The panel shows the headline (whose turn, or the result and how the game ended), one row per
seat in turn order (ring sample with the seat number, point, display name, team, orbs per
element; a seat without orbs greyed out and marked "out"), the quiet counter against its limit
with that limit in rounds too ("1/24 quiet turns (limit: 12 rounds)"; while the game runs, or on the
final board when quiet turns ended it), the last move in words (passes and resignations appear
only here), the options in use (every option not at its default among them) and a key to the
symbols. The spec's star, point N up, is the fixed picture; with ``perspective`` (a
seat) the board turns by sixths so that the seat's start point is at the bottom (where S is):
cells, lines, zones, holes, seam ghosts, row letters and the last move's arrows turn with it,
while every name, letter and glyph stays upright and the panel does not change.

Speed (``python bench/render_orbs.py``): everything fixed for a game (cells, lines, names, row
letters, holes, zone tints, seam ghosts, the key) is drawn once per board shape, holes and zones
(:func:`_board_layer`, supersampled then shrunk) and copied; orbs, the arrow and the badges are
small cached sprites; panel texts are cached masks; only the boxes drawn in are mapped onto the
fixed :data:`PALETTE` (the board once per game; :class:`render.kit.Composer`) and the palette
PNG is written at zlib level 2, as the other renderers do (see ``render/__init__``).
Text uses Pillow's bundled font; player names are folded by :func:`render.kit.displayable_label`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from engines.geometry.hexstar import (
    AXIAL,
    BOARDS,
    DIRECTIONS,
    HEXAGON,
    INDEX,
    NAMES,
    POINT_ORDER,
    SEAM,
    TORUS_SHIFTS,
    cells_of,
    centre,
    neighbours,
)
from engines.orbs import ELEMENT_NAMES, ELEMENTS, POINT_NAMES, OrbsLastMove, OrbsView
from render.kit import (
    BACKGROUND,
    INK,
    MUTED,
    PANEL_BACKGROUND,
    RGB,
    WHITE,
    Box,
    Composer,
    Layer,
    blend,
    build_palette,
    bundled_font,
    displayable_label,
    draw_text,
    encode_png,
    fitted_label,
    stamp_box,
    text_stamp,
)

__all__ = [
    "HEIGHT",
    "PALETTE",
    "RING_PATTERNS",
    "SEAT_COLOURS",
    "WIDTH",
    "cell_centre",
    "describe_last",
    "headline",
    "quiet_text",
    "render",
    "turns_for",
]

Point = tuple[float, float]
#: A sprite: an RGBA image and the pixel offset of its anchor inside it.
Sprite = tuple[Image.Image, int, int]

# ---- layout, in pixels ------------------------------------------------------------------------

BOARD_WIDTH = 720
PANEL_WIDTH = 360
WIDTH = BOARD_WIDTH + PANEL_WIDTH
HEIGHT = 780
PANEL_LEFT = BOARD_WIDTH + 18
PANEL_RIGHT = WIDTH - 16
#: Sprites are drawn this many times larger, then shrunk, for smooth edges.
SUPERSAMPLE = 4
#: The fixed board layer is drawn this many times larger once, then shrunk.
BOARD_SUPERSAMPLE = 3
#: zlib level for the PNG (:func:`render.kit.encode_png`): encoding is much of the time; level 2
#: is ~10 % faster than 3 for ~4 % more bytes, and as fast as 1. The run-length strategy would
#: be ~15 % faster but passes 100 KB on busy six-player boards.
PNG_COMPRESS_LEVEL = 2


@dataclass(frozen=True, slots=True)
class _Scale:
    """The drawing size of one board shape: ``k`` is the spec's pixel factor (neighbours are
    ``√3·k`` apart) and every size on the board follows from it."""

    k: int

    @property
    def unit(self) -> float:
        """The distance between neighbouring cell centres, in px."""
        return math.sqrt(3) * self.k

    @property
    def cell_radius(self) -> float:
        return 0.38 * self.unit

    @property
    def orb_radius(self) -> float:
        return 0.465 * self.unit

    @property
    def band(self) -> float:
        """The width of an orb's owner ring."""
        return 0.15 * self.unit

    @property
    def gap(self) -> float:
        """The white gap between an orb's owner ring and its element fill."""
        return 0.05 * self.unit

    @property
    def fill_radius(self) -> float:
        """The radius of an orb's element fill, inside its ring and the gap."""
        return self.orb_radius - self.band - self.gap

    @property
    def name_size(self) -> int:
        """Font size of the cell names."""
        return max(11, round(0.21 * self.unit))

    @property
    def letter_size(self) -> int:
        """Font size of the row letters."""
        return round(0.37 * self.unit)


#: Per ``(board, wrap)``: the scale, the largest that fits the board area with its row letters
#: (and, on the torus, the seam ghosts): the star's rows E and M are 12 neighbour steps wide
#: and its 17 rows 24·k tall; the hexagon is 8 steps wide, 10 with its ghosts.
SCALES: dict[tuple[str, str], _Scale] = {
    ("star", "none"): _Scale(29),
    ("hexagon", "none"): _Scale(40),
    ("hexagon", "torus"): _Scale(34),
}
#: The board's centre (the cell I5) in the picture.
BOARD_CENTRE: Point = (BOARD_WIDTH / 2, HEIGHT / 2)

# ---- colours -----------------------------------------------------------------------------------

#: Cells, their rims and the lines between neighbours.
CELL: RGB = (0xE6, 0xD9, 0xBC)
CELL_RIM: RGB = (0xB5, 0xA4, 0x80)
LINE: RGB = (0xC9, 0xBC, 0x9E)
#: Holes: a dark blocker disc with a lighter rim.
HOLE: RGB = (0x3B, 0x37, 0x33)
HOLE_RIM: RGB = (0x8A, 0x83, 0x7A)
#: The seats' colours (Okabe–Ito blue, vermillion, bluish green, orange, reddish purple, sky
#: blue), in seat order; yellow is left out because it vanishes on the white ring ground.
SEAT_COLOURS: tuple[RGB, ...] = (
    (0x00, 0x72, 0xB2),
    (0xD5, 0x5E, 0x00),
    (0x00, 0x9E, 0x73),
    (0xE6, 0x9F, 0x00),
    (0xCC, 0x79, 0xA7),
    (0x56, 0xB4, 0xE9),
)
#: The ring pattern of each seat, in seat order.
RING_PATTERNS: tuple[str, ...] = ("solid", "dashed", "double", "dotted", "dash-dot", "thick-thin")
#: How strongly each seat's colour tints its start zone, in seat order. One strength for all
#: (0.25 until 2026-11-27) turned the two blues grey: the zones of neighbours N and NW were
#: 7 CIELAB units apart, and SE's green looked like them. These strengths keep every pair of
#: zones at least 15 units apart (N–NW 18) and each at least 18 from a plain cell.
ZONE_STRENGTHS: tuple[float, ...] = (0.45, 0.35, 0.4, 0.4, 0.4, 0.3)
#: A start zone's cells: the seat's colour faintly over the cell colour.
ZONE_TINTS: tuple[RGB, ...] = tuple(
    blend(colour, CELL, strength)
    for colour, strength in zip(SEAT_COLOURS, ZONE_STRENGTHS, strict=True)
)
#: A seat without orbs: its ring sample in the panel.
OUT: RGB = (0xA8, 0xA3, 0x9A)
#: Per element letter: the orb's fill and its glyph's colour.
ELEMENT_FILL: dict[str, RGB] = {
    "F": (0xD8, 0x33, 0x1F),
    "E": (0x7A, 0x4E, 0x26),
    "A": (0xDD, 0xEE, 0xFA),
    "W": (0x1B, 0x3A, 0x8C),
    "V": (0x66, 0x58, 0x78),
}
GLYPH_INK: dict[str, RGB] = {
    "F": (0xFF, 0xEE, 0xC8),
    "E": (0xF2, 0xDC, 0xB2),
    "A": (0x24, 0x40, 0x5E),
    "W": WHITE,
    "V": WHITE,
}
#: The last move's arrow and marks; the panel's box around the seat to move or the winners.
ARROW: RGB = INK
ACTIVE_TINT: RGB = (0xFF, 0xEF, 0xC4)
#: The names of empty cells: darker than the kit's MUTED grey, which read at 2.8–3.9 : 1 on
#: the cells and start zones; this one gives 5.3 : 1 on the darkest zone tint (N's).
CELL_NAME: RGB = (0x33, 0x30, 0x2B)

_BASE_COLOURS: tuple[RGB, ...] = (
    BACKGROUND, PANEL_BACKGROUND, INK, MUTED, CELL_NAME, WHITE, CELL, CELL_RIM, LINE, HOLE,
    HOLE_RIM, *SEAT_COLOURS, *ZONE_TINTS, OUT, *ELEMENT_FILL.values(), *GLYPH_INK.values(),
    ACTIVE_TINT,
)  # fmt: skip
_GROUNDS: tuple[RGB, ...] = (CELL, *ZONE_TINTS, BACKGROUND)
#: Foreground/background pairs whose blends anti-aliasing produces (text on its ground, a rim
#: on the board, a ring's pattern on its white ground, a glyph on its fill). Each gets
#: RAMP_STEPS − 1 palette entries; other blends map to the nearest palette colour.
_RAMP_PAIRS: tuple[tuple[RGB, RGB], ...] = (
    *((INK, bg) for bg in (*_GROUNDS, PANEL_BACKGROUND, WHITE, ACTIVE_TINT, LINE)),
    *((INK, fill) for fill in ELEMENT_FILL.values()),
    *((INK, colour) for colour in (*SEAT_COLOURS, OUT)),
    *((MUTED, bg) for bg in (*_GROUNDS, PANEL_BACKGROUND, ACTIVE_TINT)),
    *((CELL_NAME, bg) for bg in _GROUNDS),
    *((WHITE, colour) for colour in (*SEAT_COLOURS, OUT)),
    *((GLYPH_INK[e], ELEMENT_FILL[e]) for e in ELEMENTS),
    *((CELL_RIM, bg) for bg in (BACKGROUND, LINE)),
    (LINE, BACKGROUND),
    *((HOLE, bg) for bg in (BACKGROUND, LINE, HOLE_RIM)),
    # (White over the near-white grounds gives blends Pillow would mistake for white itself.)
    *((WHITE, bg) for bg in (CELL, *ZONE_TINTS, LINE)),
)
RAMP_STEPS = 4

#: Every colour the PNG can contain, background first.
PALETTE: tuple[RGB, ...] = build_palette(_BASE_COLOURS, _RAMP_PAIRS, RAMP_STEPS)

# ---- text --------------------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def _text_width(text: str, size: int, bold: bool = False) -> float:
    return bundled_font(size).getlength(text) + (2 if bold else 0)


def _wrap(pieces: Sequence[str], size: int, width: float) -> list[str]:
    """``pieces`` (words, or phrases kept whole) joined by spaces into lines no wider than
    ``width`` px; a piece wider than a line on its own is cut with ``…``."""
    font = bundled_font(size)
    lines: list[str] = []
    for piece in pieces:
        if lines and font.getlength(f"{lines[-1]} {piece}") <= width:
            lines[-1] = f"{lines[-1]} {piece}"
        else:
            lines.append(_label(piece, width, size))
    return lines


@lru_cache(maxsize=256)
def _label(text: str, max_width: float, size: int) -> str:
    """A player's name folded and cut to fit (:func:`render.kit.displayable_label`)."""
    return displayable_label(text, max_width, size)


# ---- geometry: the engine's unit-space layout, scaled ------------------------------------------


def _scale(board: str, wrap: str) -> _Scale:
    return SCALES[(board, wrap)]


#: The point a seat's perspective brings to the bottom of the picture.
BOTTOM_POINT = "S"


def turns_for(points: Sequence[str], perspective: int | None) -> int:
    """Clockwise sixths of a turn that bring seat ``perspective``'s point (its entry in the
    view's ``points``) to the bottom: 0 for ``None`` and for a seat at S. ``ValueError`` for a
    seat the view does not have."""
    if perspective is None:
        return 0
    if not 0 <= perspective < len(points):
        raise ValueError(f"this Orbs game has seats 0–{len(points) - 1}, not {perspective}")
    bottom = POINT_ORDER.index(BOTTOM_POINT)
    return (bottom - POINT_ORDER.index(points[perspective])) % 6


def _turn(turns: int, unit_xy: Point) -> Point:
    """``unit_xy`` (y pointing down) turned ``turns`` sixths of a turn clockwise about I5."""
    if turns % 6 == 0:
        return unit_xy
    angle = math.radians(60 * (turns % 6))
    cos, sin = math.cos(angle), math.sin(angle)
    x, y = unit_xy
    return (x * cos - y * sin, x * sin + y * cos)


def _turned_direction(direction: int, turns: int) -> int:
    """The index in ``DIRECTIONS`` of ``direction`` turned ``turns`` sixths clockwise."""
    if turns % 6 == 0:
        return direction
    tx, ty = _turn(turns, _step(direction))
    return min(
        range(len(DIRECTIONS)),
        key=lambda d: math.hypot(_step(d)[0] - tx, _step(d)[1] - ty),
    )


def _pixel(scale: _Scale, unit_xy: Point, turns: int = 0) -> Point:
    x, y = _turn(turns, unit_xy)
    return (BOARD_CENTRE[0] + x * scale.k, BOARD_CENTRE[1] + y * scale.k)


def cell_centre(board: str, wrap: str, cell: str, turns: int = 0) -> Point:
    """The pixel centre of the cell named ``cell`` (upper case, e.g. ``"I5"``) in the picture of
    ``board`` (``"star"``/``"hexagon"``) under ``wrap`` (``"none"``/``"torus"``), the board
    turned ``turns`` sixths clockwise. Raises ``KeyError`` for an unknown name or a board/wrap
    pair that does not exist."""
    return _pixel(_scale(board, wrap), centre(INDEX[cell]), turns)


def _step(direction: int) -> Point:
    """The unit-space offset (k = 1) of one step in ``DIRECTIONS[direction]``."""
    dq, dr = DIRECTIONS[direction]
    return (math.sqrt(3) * (dq + dr / 2), 1.5 * dr)


def _seam_ghosts() -> dict[int, tuple[tuple[int, int], ...]]:
    """Per hexagon edge cell: ``(direction, partner)`` for each of its off-board directions, the
    partner being the cell of :data:`SEAM` that lies across the seam that way (the one a torus
    translation of :data:`TORUS_SHIFTS` carries onto the off-board spot)."""
    at = {AXIAL[cell]: cell for cell in HEXAGON}
    ghosts: dict[int, tuple[tuple[int, int], ...]] = {}
    for cell, partners in SEAM.items():
        q, r = AXIAL[cell]
        found = []
        for direction, (dq, dr) in enumerate(DIRECTIONS):
            spot = (q + dq, r + dr)
            if spot in at:
                continue
            (partner,) = (  # exactly one translation brings the spot back into the hexagon
                p
                for p in partners
                for tq, tr in TORUS_SHIFTS
                if AXIAL[p] == (spot[0] - tq, spot[1] - tr)
            )
            found.append((direction, partner))
        ghosts[cell] = tuple(found)
    return ghosts


#: On the torus: each edge cell's off-board directions and the cells across the seam there.
SEAM_GHOSTS: dict[int, tuple[tuple[int, int], ...]] = _seam_ghosts()


def _ghost_spots() -> dict[Point, str]:
    """The unit-space centre of every seam ghost (30 around the hexagon) and the name of the
    cell it stands for."""
    spots: dict[Point, str] = {}
    for cell, ghosts in SEAM_GHOSTS.items():
        x, y = centre(cell)
        for direction, partner in ghosts:
            dx, dy = _step(direction)
            spots[(round(x + dx, 6), round(y + dy, 6))] = NAMES[partner]
    return spots


#: On the torus: the unit-space centre of every seam ghost and the cell it stands for.
GHOST_SPOTS: dict[Point, str] = _ghost_spots()

# ---- sprites: drawn once, large, then shrunk for smooth edges ---------------------------------


class _Pen:
    """Draws on a transparent supersampled canvas around an anchor at (0, 0); coordinates are in
    final pixels from the anchor, so sprite code reads like ordinary drawing code."""

    def __init__(self, half_width: float, half_height: float | None = None) -> None:
        self.half_x = math.ceil(half_width) + 2
        self.half_y = math.ceil(half_width if half_height is None else half_height) + 2
        size = (2 * self.half_x * SUPERSAMPLE, 2 * self.half_y * SUPERSAMPLE)
        self.image = Image.new("RGBA", size, (0, 0, 0, 0))
        self.draw = ImageDraw.Draw(self.image)

    def xy(self, x: float, y: float) -> Point:
        return ((self.half_x + x) * SUPERSAMPLE, (self.half_y + y) * SUPERSAMPLE)

    def _box(self, x: float, y: float, r: float) -> tuple[float, float, float, float]:
        (x0, y0), (x1, y1) = self.xy(x - r, y - r), self.xy(x + r, y + r)
        return (x0, y0, x1, y1)

    def disc(self, x: float, y: float, r: float, fill: RGB) -> None:
        self.draw.ellipse(self._box(x, y, r), fill=fill)

    def ring(self, r: float, width: float, colour: RGB) -> None:
        """A ring about the anchor whose outer edge has radius ``r``."""
        self.draw.ellipse(self._box(0, 0, r), outline=colour, width=round(width * SUPERSAMPLE))

    def arc(self, r: float, width: float, start: float, end: float, colour: RGB) -> None:
        """Part of :meth:`ring` from ``start`` to ``end`` degrees (clockwise from 3 o'clock)."""
        self.draw.arc(self._box(0, 0, r), start, end, fill=colour,
                      width=round(width * SUPERSAMPLE))  # fmt: skip

    def polygon(self, points: Sequence[Point], fill: RGB) -> None:
        self.draw.polygon([self.xy(x, y) for x, y in points], fill=fill)

    def line(self, points: Sequence[Point], colour: RGB, width: float) -> None:
        self.draw.line([self.xy(x, y) for x, y in points], fill=colour,
                       width=round(width * SUPERSAMPLE), joint="curve")  # fmt: skip

    def text(self, x: float, y: float, text: str, size: int, colour: RGB, bold: bool) -> None:
        """Text centred on (``x``, ``y``), a little heavier than the font if ``bold``."""
        stroke = SUPERSAMPLE // 2 if bold else 0
        self.draw.text(self.xy(x, y), text, font=bundled_font(size * SUPERSAMPLE), fill=colour,
                       anchor="mm", stroke_width=stroke, stroke_fill=colour)  # fmt: skip

    def sprite(self) -> Sprite:
        return self.image.reduce(SUPERSAMPLE), self.half_x, self.half_y


def _paste(canvas: Image.Image, sprite: Sprite, x: float, y: float) -> Box:
    """Paste ``sprite`` with its anchor at (``x``, ``y``); return the box it covers."""
    image, ax, ay = sprite
    left, top = round(x) - ax, round(y) - ay
    canvas.paste(image, (left, top), image)
    return (left, top, left + image.width, top + image.height)


def _put(picture: Composer, sprite: Sprite, x: float, y: float) -> None:
    """:func:`_paste` on the picture's RGB drawing, marking the box."""
    picture.mark(_paste(picture.rgb, sprite, x, y))


def _draw_glyph(pen: _Pen, element: str, r: float) -> None:
    """The element's glyph, drawn as a shape inside a fill disc of radius ``r`` about the
    anchor: Fire ▲, Water ▼, Air ○, Earth ■, Void ✕."""
    ink = GLYPH_INK[element]
    if element in "FW":
        side = 1.25 * r
        height = side * math.sqrt(3) / 2
        flip = 1 if element == "F" else -1
        # Centred on the triangle's centroid, a third of the height above the base.
        apex, base = -flip * height * 2 / 3, flip * height / 3
        pen.polygon([(0, apex), (side / 2, base), (-side / 2, base)], ink)
    elif element == "A":
        pen.ring(0.55 * r, 0.2 * r, ink)
    elif element == "E":
        half = 0.45 * r
        pen.polygon([(-half, -half), (half, -half), (half, half), (-half, half)], ink)
    else:
        arm, width = 0.5 * r, 0.24 * r
        pen.line([(-arm, -arm), (arm, arm)], ink, width)
        pen.line([(-arm, arm), (arm, -arm)], ink, width)


def _draw_ring(pen: _Pen, outer: float, band: float, colour: RGB, pattern: str) -> None:
    """An owner ring of ``band`` px inside radius ``outer``: a white ground, the ``pattern`` in
    ``colour`` on it, and thin dark edges on both sides. Dashes and dots are edged in dark ink
    too, so that their shapes show even where the colour is nearly as light as the ground."""
    inner = outer - band
    middle = outer - band / 2
    edge = 0.7

    def arc(outer_edge: float, width: float, start: float, end: float) -> None:
        pen.arc(outer_edge, width, start, end, INK)
        inset = math.degrees(edge / (outer_edge - width / 2))
        pen.arc(outer_edge - edge, width - 2 * edge, start + inset, end - inset, colour)

    def dot(angle: float, r: float) -> None:
        x, y = middle * math.cos(math.radians(angle)), middle * math.sin(math.radians(angle))
        pen.disc(x, y, r, INK)
        pen.disc(x, y, r - edge, colour)

    pen.disc(0, 0, outer, WHITE)
    if pattern == "solid":
        pen.ring(outer, band, colour)
    elif pattern == "dashed":
        for k in range(8):
            arc(outer, band, k * 45 + 8, k * 45 + 37)
    elif pattern == "double":
        pen.ring(outer, band * 0.36, colour)
        pen.ring(inner + band * 0.36, band * 0.36, colour)
    elif pattern == "dotted":
        for k in range(10):
            dot(k * 36 + 18, band * 0.45)
    elif pattern == "dash-dot":
        for k in range(5):
            arc(outer, band, k * 72 + 4, k * 72 + 40)
            dot(k * 72 + 56, band * 0.4)
    elif pattern == "thick-thin":
        pen.ring(outer, band * 0.55, colour)
        pen.ring(inner + band * 0.27, band * 0.27, colour)
    else:
        raise ValueError(f"unknown ring pattern {pattern!r}")
    pen.ring(outer, max(1.0, band * 0.14), INK)
    pen.ring(inner + 0.5, 1.0, INK)


@cache
def _orb_sprite(scale: _Scale, seat: int, element: str) -> Sprite:
    """An orb of ``seat`` and ``element`` (letter) anchored at its centre: the element's fill
    and glyph inside the seat's patterned ring, the seat number in a small white disc on the
    ring's lower right."""
    outer, band = scale.orb_radius, scale.band
    pen = _Pen(outer)
    _draw_ring(pen, outer, band, SEAT_COLOURS[seat], RING_PATTERNS[seat])
    fill = scale.fill_radius
    pen.disc(0, 0, fill, ELEMENT_FILL[element])
    _draw_glyph(pen, element, fill)
    spot = (outer - band / 2) / math.sqrt(2)
    tag = 0.135 * scale.unit
    pen.disc(spot, spot, tag, INK)
    pen.disc(spot, spot, tag - 1, WHITE)
    pen.text(spot, spot + 0.5, str(seat), round(1.55 * tag), INK, bold=True)
    return pen.sprite()


@cache
def _name_sprite(scale: _Scale, name: str) -> Sprite:
    """An occupied cell's name on a small white plate, anchored at its centre: laid over the
    top of the orb's ring (:func:`_name_spot`), so the cells of the orbs can be read too."""
    size = scale.name_size
    left, _, right, _ = bundled_font(size).getbbox(name, anchor="mm")
    half_x = (right - left) / 2 + 0.2 * size
    half_y = 0.5 * size
    pen = _Pen(half_x, half_y)
    pen.draw.rounded_rectangle(
        (*pen.xy(-half_x, -half_y), *pen.xy(half_x, half_y)), radius=0.3 * size * SUPERSAMPLE,
        fill=WHITE,
    )  # fmt: skip
    image, ax, ay = pen.sprite()
    mask, mx, my = text_stamp(name, size, "mm", False)
    image.paste((*INK, 255), (ax + mx, ay + my, ax + mx + mask.width, ay + my + mask.height),
                mask)  # fmt: skip
    return image, ax, ay


def _name_spot(scale: _Scale) -> float:
    """How far above an orb's centre its name plate's centre is: on the ring, low enough to
    stay clear of the orbs above it and their seat numbers."""
    return scale.orb_radius - 0.5 * scale.name_size - 2


@cache
def _ring_sample(seat: int, radius: float, out: bool) -> Sprite:
    """The panel's sample of a seat's ring with the seat number in the middle, greyed (``out``)
    once the seat has no orbs."""
    pen = _Pen(radius)
    band = 0.32 * radius
    _draw_ring(pen, radius, band, OUT if out else SEAT_COLOURS[seat], RING_PATTERNS[seat])
    pen.text(0, 0.5, str(seat), round(1.05 * radius), MUTED if out else INK, bold=True)
    return pen.sprite()


@cache
def _mini_orb(element: str, radius: float) -> Sprite:
    """A small element disc with its glyph and a dark rim, for the panel's counts and key."""
    pen = _Pen(radius)
    pen.disc(0, 0, radius, INK)
    pen.disc(0, 0, radius - 1.2, ELEMENT_FILL[element])
    _draw_glyph(pen, element, radius - 1.2)
    return pen.sprite()


@cache
def _origin_sprite(scale: _Scale) -> Sprite:
    """The dashed circle where the last move's orb stood."""
    r = scale.orb_radius
    pen = _Pen(r)
    for k in range(12):
        pen.arc(r, 2.2, k * 30, k * 30 + 17, ARROW)
    return pen.sprite()


@cache
def _arrow_sprite(scale: _Scale, direction: int, blocked: bool) -> Sprite:
    """The last move's arrow, anchored at the origin's centre and pointing one step in
    ``DIRECTIONS[direction]``: from the origin's rim into the target orb's ring, dark with a
    white edge. ``blocked`` (the attacker lost) ends it in a bar instead of a head."""
    unit = scale.unit
    dx, dy = _step(direction)
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    nx, ny = -uy, ux
    start, tip = 0.2 * unit, unit - scale.orb_radius + 0.55 * scale.band
    head, half_head, shaft = 0.3 * unit, 0.17 * unit, 0.045 * unit
    pen = _Pen(unit)
    halo = 1.6

    def at(along: float, across: float) -> Point:
        return (ux * along + nx * across, uy * along + ny * across)

    if blocked:  # a T: the bar stops at the target orb's rim
        front = unit - scale.orb_radius - 0.5
        back = front - 0.09 * unit
        shape = [at(start, -shaft), at(back, -shaft), at(back, -half_head),
                 at(front, -half_head), at(front, half_head), at(back, half_head),
                 at(back, shaft), at(start, shaft)]  # fmt: skip
    else:
        back = tip - head
        shape = [at(start, -shaft), at(back, -shaft), at(back, -half_head), at(tip, 0),
                 at(back, half_head), at(back, shaft), at(start, shaft)]  # fmt: skip
    pen.line([*shape, shape[0]], WHITE, 2 * halo)
    pen.polygon(shape, ARROW)
    return pen.sprite()


@cache
def _badge_sprite(scale: _Scale, kind: str) -> Sprite:
    """The clash marker, anchored at its centre: a white badge with ✓ (``"capture"``), ✕✕
    (``"annihilation"``) or ✕ (``"lost"``) in dark strokes."""
    r = 0.2 * scale.unit
    crosses = {"capture": 0, "lost": 1, "annihilation": 2}[kind]
    half_width = r * (1.75 if crosses == 2 else 1)
    pen = _Pen(half_width, r)
    pen.draw.rounded_rectangle(
        (*pen.xy(-half_width, -r), *pen.xy(half_width, r)), radius=r * SUPERSAMPLE,
        fill=WHITE, outline=INK, width=round(1.5 * SUPERSAMPLE),
    )  # fmt: skip
    stroke, arm = 0.2 * r, 0.45 * r
    if crosses == 0:
        pen.line([(-0.5 * r, 0.02 * r), (-0.12 * r, 0.42 * r), (0.55 * r, -0.45 * r)], INK, stroke)
    for k in range(crosses):
        x = 0 if crosses == 1 else (k - 0.5) * 1.5 * r
        pen.line([(x - arm, -arm), (x + arm, arm)], INK, stroke)
        pen.line([(x - arm, arm), (x + arm, -arm)], INK, stroke)
    return pen.sprite()


# ---- the fixed board layer ---------------------------------------------------------------------


@lru_cache(maxsize=16)
def _board_layer(
    board: str,
    wrap: str,
    holes: tuple[str, ...],
    zones: tuple[tuple[str, ...], ...],
    turns: int = 0,
) -> Image.Image:
    """Everything fixed for a game: the panel's ground and key, and the board without orbs
    (lines, cells with their names, zone tints, holes, row letters, seam ghosts). Cached per
    board shape, holes, zones and turn (``turns`` sixths clockwise): a running game draws it
    once per perspective."""
    scale = _scale(board, wrap)
    s = BOARD_SUPERSAMPLE
    image = Image.new("RGB", (WIDTH * s, HEIGHT * s), BACKGROUND)
    draw = ImageDraw.Draw(image)
    cells = sorted(cells_of(board))
    hole_set = {INDEX[name] for name in holes}
    tint = {INDEX[name]: ZONE_TINTS[seat] for seat, zone in enumerate(zones) for name in zone}
    xy = {cell: _pixel(scale, centre(cell), turns) for cell in cells}

    def big(point: Point) -> Point:
        return (point[0] * s, point[1] * s)

    def disc(point: Point, r: float, fill: RGB | None, rim: RGB, width: float) -> None:
        x, y = big(point)
        draw.ellipse((x - r * s, y - r * s, x + r * s, y + r * s), fill=fill, outline=rim,
                     width=round(width * s))  # fmt: skip

    draw.rectangle((BOARD_WIDTH * s, 0, WIDTH * s, HEIGHT * s), fill=PANEL_BACKGROUND)
    draw.line(((BOARD_WIDTH * s, 0), (BOARD_WIDTH * s, HEIGHT * s)), fill=CELL_RIM, width=2 * s)
    plain = neighbours(board)
    for cell in cells:
        for other in plain[cell]:
            if cell < other and not {cell, other} & hole_set:
                draw.line((big(xy[cell]), big(xy[other])), fill=LINE, width=round(2.5 * s))
    ghosts = [(_pixel(scale, spot, turns), name) for spot, name in GHOST_SPOTS.items()]
    if wrap == "torus":  # short lines from the edge cells towards their ghosts, then the ghosts
        for cell, seam in SEAM_GHOSTS.items():
            if cell in hole_set:
                continue
            for direction, _ in seam:
                dx, dy = _turn(turns, _step(direction))
                end = (xy[cell][0] + dx * scale.k * 0.55, xy[cell][1] + dy * scale.k * 0.55)
                draw.line((big(xy[cell]), big(end)), fill=LINE, width=round(2.5 * s))
        for point, _ in ghosts:
            r = scale.cell_radius * 0.9
            x, y = big(point)
            for k in range(16):
                draw.arc((x - r * s, y - r * s, x + r * s, y + r * s), k * 22.5, k * 22.5 + 12,
                         fill=MUTED, width=round(1.5 * s))  # fmt: skip
    for cell in cells:
        if cell in hole_set:
            disc(xy[cell], scale.cell_radius, HOLE, HOLE, 0)
            disc(xy[cell], scale.cell_radius * 0.72, None, HOLE_RIM, 1.5)
        else:
            disc(xy[cell], scale.cell_radius, tint.get(cell, CELL), CELL_RIM, 1.5)
    layer = image.reduce(s)

    for cell in cells:
        if cell not in hole_set:
            draw_text(layer, *xy[cell], NAMES[cell], scale.name_size, CELL_NAME, "mm")
    if wrap == "torus":
        for (x, y), name in ghosts:
            draw_text(layer, x, y, name, scale.name_size, CELL_NAME, "mm")
    reach = 1.8 if wrap == "torus" else 0.85
    rows: dict[int, list[int]] = {}
    for cell in cells:  # board order: each row from left to right
        rows.setdefault(AXIAL[cell][1], []).append(cell)
    for r, row in rows.items():
        letter = chr(ord("A") + r + 8)
        if turns % 6 == 0:
            (x0, y), (x1, _) = xy[row[0]], xy[row[-1]]
            ends = [(x0 - reach * scale.unit, y), (x1 + reach * scale.unit, y)]
        else:  # the letters stay at the rows' ends, in unit space, and turn with them
            (u0, v), (u1, _) = centre(row[0]), centre(row[-1])
            off = reach * scale.unit / scale.k
            ends = [_pixel(scale, (u0 - off, v), turns), _pixel(scale, (u1 + off, v), turns)]
            # Turned, some rows end towards a star point: keep their letters in the picture.
            margin = scale.letter_size * 0.7 + 2
            ends = [
                (min(max(x, margin), BOARD_WIDTH - margin), min(max(y, margin), HEIGHT - margin))
                for x, y in ends
            ]
        for x, y in ends:
            draw_text(layer, x, y, letter, scale.letter_size, INK, "mm", bold=True)
    _draw_key(layer, wrap, bool(holes))
    return layer


def _draw_key(image: Image.Image, wrap: str, holes: bool) -> None:
    """The key at the foot of the panel: the five elements and what beats what, the last
    move's marks, and holes and seam ghosts when the board has them."""
    top = HEIGHT - 150
    draw_text(image, PANEL_LEFT, top, "Key", 16, MUTED)
    x: float = PANEL_LEFT + 9
    for element in ELEMENTS:
        _paste(image, _mini_orb(element, 9), x, top + 26)
        name = ELEMENT_NAMES[element]
        draw_text(image, x + 13, top + 26, name, 15, INK)
        x += 13 + _text_width(name, 15) + 16
    draw_text(image, PANEL_LEFT, top + 50, "Fire > Air > Water > Earth > Fire;", 15, INK)
    draw_text(image, PANEL_LEFT, top + 70, "Fire+Water, Earth+Air, Void: both go", 15, INK)
    scale = SCALES[("star", "none")]
    marks = (("captured", "capture"), ("annihilated", "annihilation"), ("attacker lost", "lost"))
    x = PANEL_LEFT + 12
    for words, kind in marks:
        sprite = _badge_sprite(scale, kind)
        _paste(image, sprite, x + sprite[1] - 12, top + 98)
        x += 2 * sprite[1] - 6
        draw_text(image, x, top + 98, words, 15, INK)
        x += _text_width(words, 15) + 16
    extras = []
    if holes:
        extras.append("dark disc: hole")
    if wrap == "torus":
        extras.append("dashed names: across the seam")
    if extras:
        draw_text(image, PANEL_LEFT, top + 124, "; ".join(extras), 15, INK)


# ---- checking the view -------------------------------------------------------------------------

_LAST_KINDS = ("move", "capture", "annihilation", "lost", "pass", "resign")
#: The cells of each board shape.
_BOARD_CELLS: dict[str, frozenset[int]] = {board: cells_of(board) for board in BOARDS}


def _cell(name: str, board: str, what: str) -> int:
    """The number of the cell ``name`` on ``board``, or ``ValueError`` naming ``what`` it is."""
    cell = INDEX.get(name) if isinstance(name, str) else None
    if cell is None or cell not in _BOARD_CELLS[board]:
        raise ValueError(f"{what} {name!r} is not a cell of the {board} board")
    return cell


def _check(view: OrbsView, seat_labels: Sequence[str] | None) -> None:
    """Raise ``ValueError`` unless the view is drawable: 2–6 seats; a known board and wrap (the
    torus only on the hexagon); holes, zones, orbs and the last move on cells of the board; no
    orb on a hole and one orb per cell; sides that split the seats; a point per seat; elements
    of :data:`~engines.orbs.ELEMENTS`; every seat named in range; counters ≥ 0; one label per
    seat."""
    players = view.players
    if not isinstance(players, int) or not 2 <= players <= 6:
        raise ValueError(f"Orbs has 2–6 seats, not {players!r}")
    if view.board not in BOARDS or (view.board, view.wrap) not in SCALES:
        raise ValueError(f"no Orbs board {view.board!r} with wrap {view.wrap!r}")
    seats = range(players)
    if seat_labels is not None and len(seat_labels) != players:
        raise ValueError(f"seat_labels must hold {players} names, one per seat, "
                         f"not {len(seat_labels)}")  # fmt: skip
    holes = [_cell(name, view.board, "the hole") for name in view.holes]
    if len(set(holes)) != len(holes):
        raise ValueError(f"a hole is listed twice: {view.holes}")
    if sorted(seat for side in view.sides for seat in side) != list(seats):
        raise ValueError(f"the sides must split seats 0–{players - 1}: {view.sides}")
    if len(view.zones) != players or len(view.points) != players:
        raise ValueError(f"{players} seats need {players} zones and points")
    for zone in view.zones:
        for name in zone:
            _cell(name, view.board, "the zone cell")
    if any(point not in POINT_ORDER for point in view.points):
        raise ValueError(f"points are {', '.join(POINT_ORDER)}, not {view.points}")
    taken: set[int] = set(holes)
    for name, seat, element in view.orbs:
        cell = _cell(name, view.board, "the orb's cell")
        if cell in taken:
            raise ValueError(f"{name} holds a hole or a second orb")
        taken.add(cell)
        if seat not in seats:
            raise ValueError(f"the orb on {name} belongs to seat {seat!r}, not 0–{players - 1}")
        if element not in ELEMENTS:
            raise ValueError(f"the orb on {name} has element {element!r}, not one of FEAWV")
    if view.to_move is not None and view.to_move not in seats:
        raise ValueError(f"seat {view.to_move!r} cannot be to move with {players} seats")
    if view.quiet < 0 or view.quiet_limit < 0:
        raise ValueError(
            f"the quiet counter and its limit are ≥ 0: {view.quiet}/{view.quiet_limit}"
        )
    if view.outcome is not None and any(seat not in seats for seat in view.outcome.winners):
        raise ValueError(f"winners {view.outcome.winners} are not all seats 0–{players - 1}")
    if view.last is not None:
        _check_last(view.last, view, players)


def _check_last(last: OrbsLastMove, view: OrbsView, players: int) -> None:
    """The last move: a known kind by a seat in range; a pass or resignation names no cells; a
    step names neighbouring cells (across the seam on the torus), the mover's element, and for
    a clash the orb it hit."""
    if last.kind not in _LAST_KINDS:
        raise ValueError(f"a last move is one of {', '.join(_LAST_KINDS)}, not {last.kind!r}")
    if last.seat not in range(players):
        raise ValueError(f"the last move's seat {last.seat!r} is not 0–{players - 1}")
    if last.kind in ("pass", "resign"):
        if last.origin or last.target:
            raise ValueError(f"a {last.kind} names no cells: {last}")
        return
    origin = _cell(last.origin, view.board, "the last move's origin")
    target = _cell(last.target, view.board, "the last move's target")
    if target not in neighbours(view.board, view.wrap)[origin]:
        raise ValueError(f"{last.origin} and {last.target} are not neighbours")
    if last.element not in ELEMENTS:
        raise ValueError(f"the mover's element {last.element!r} is not one of FEAWV")
    clash = last.kind != "move"
    if clash != (last.victim in ELEMENTS) or clash != (last.victim_seat in range(players)):
        raise ValueError(f"a {last.kind} {'needs' if clash else 'has no'} victim: {last}")


# ---- words -------------------------------------------------------------------------------------

#: How each termination of ORB-8 is told under the result.
TERMINATIONS = {
    "last_standing": "Last side standing",
    "annihilation": "The last two orbs annihilated",
    "same_element": "Only one element left",
    "stalemate": "Nobody can move",
    "no_progress": "Too many quiet turns",
    "agreement": "Draw agreed",
}
#: The verb for ``X beats Y`` (ORB-2), by the winner's element.
BEATS = {"F": "burns", "A": "evaporates", "W": "erodes", "E": "smothers"}


def _seat_name(view: OrbsView, seat: int) -> str:
    """The seat's point, as the chat names it (the engine's seat names): ``"South-east"``."""
    return POINT_NAMES[view.points[seat]]


def _list(view: OrbsView, seats: Sequence[int]) -> str:
    """``"North"``, ``"North and South"``, ``"North, South-east and South-west"``."""
    names = [_seat_name(view, seat) for seat in seats]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def headline(view: OrbsView) -> tuple[str, str]:
    """The panel's big line and the one under it: ``("South to move", "")`` while the
    game runs; ``("Team A wins", "Last side standing")``, ``("North and South-east win",
    …)`` (winners who are not one team) or ``("Draw", "Draw agreed")``
    once it is over (an unknown termination is written with spaces for underscores)."""
    outcome = view.outcome
    if outcome is None:
        if view.to_move is None:
            return ("", "")
        return (f"{_seat_name(view, view.to_move)} to move", "")
    reason = TERMINATIONS.get(outcome.termination, outcome.termination.replace("_", " "))
    winners = sorted(outcome.winners)
    if not winners:
        return ("Draw", reason)
    if len(winners) == 1:
        return (f"{_seat_name(view, winners[0])} wins", reason)
    team = _team_texts(view.sides).get(winners[0], "")
    if any(sorted(side) == winners for side in view.sides) and team:
        # One team won: its letter as the chat names it, "Team A wins".
        return (f"{team[:1].upper()}{team[1:]} wins", reason)
    return (f"{_list(view, winners)} win", reason)


def quiet_text(view: OrbsView) -> str:
    """The quiet counter (turns in a row without an orb removed, ORB-8.5) against its limit,
    with the limit in the rounds the option ``no_progress_limit`` is given in:
    ``"1/24 quiet turns (limit: 12 rounds)"`` with two players still in (the limit in turns is the
    rounds × the players still in, so it shrinks as players go out, the rounds do not);
    ``"37 quiet turns (no limit)"`` when the limit is off (``quiet_limit == 0``). Once the game
    is over the counter no longer counts: ``""`` (nothing is drawn) unless too many quiet
    turns ended it. A view whose limit is no whole number of rounds gets no rounds."""
    outcome = view.outcome
    if outcome is not None and outcome.termination != "no_progress":
        return ""
    noun = "turn" if view.quiet == 1 and not view.quiet_limit else "turns"
    if not view.quiet_limit:
        return f"{view.quiet} quiet {noun} (no limit)"
    text = f"{view.quiet}/{view.quiet_limit} quiet {noun}"
    still_in = len({seat for _, seat, _ in view.orbs})
    if still_in and view.quiet_limit % still_in == 0:
        rounds = view.quiet_limit // still_in
        text += f" (limit: {rounds} round{'' if rounds == 1 else 's'})"
    return text


def describe_last(view: OrbsView) -> str:
    """The last move in words after the mover's seat, with the canonical move: ``"South:
    N4-M5"``, ``"…: I5-I6, Fire burns North's Air"``, ``"…: I5-I6, Fire and North's Water
    annihilate"``, ``"…: I5-I6, North's Water erodes the attacking Earth"``, ``"South
    passed"`` or ``"… resigned"``; ``""`` without a last move."""
    last = view.last
    if last is None:
        return ""
    mover = _seat_name(view, last.seat)
    if last.kind == "pass":
        return f"{mover} passed"
    if last.kind == "resign":
        return f"{mover} resigned"
    text = f"{mover}: {last.origin}-{last.target}"
    attacker = ELEMENT_NAMES.get(last.element, last.element)
    victim = ELEMENT_NAMES.get(last.victim, last.victim)
    if last.victim_seat is not None:
        victim = f"{_seat_name(view, last.victim_seat)}'s {victim}"
    if last.kind == "capture":
        text += f", {attacker} {BEATS.get(last.element, 'beats')} {victim}"
    elif last.kind == "annihilation":
        text += f", {attacker} and {victim} annihilate"
    elif last.kind == "lost":
        text += f", {victim} {BEATS.get(last.victim, 'beats')} the attacking {attacker}"
    return text


def _option_pieces(view: OrbsView) -> list[str]:
    """The options as ``"name value,"`` phrases (the last without a comma), for wrapping."""
    pieces = [f"{name} {value}" for name, value in view.options]
    return [f"{piece}," for piece in pieces[:-1]] + pieces[-1:]


# ---- one image ---------------------------------------------------------------------------------


def render(
    view: OrbsView,
    *,
    seat_labels: Sequence[str] | None = None,
    perspective: int | None = None,
) -> bytes:
    """Draw ``view`` as a 1080 × 780 palette PNG and return its bytes.

    ``seat_labels`` are the players' display names in seat order, one per seat
    (``view.players``), shown in the panel folded to the bundled font
    (:func:`render.kit.displayable_label`). ``perspective`` (a seat) turns the board by sixths
    so that seat's start point is at the bottom; ``None`` draws the spec's star, point N at the
    top. The same arguments always give the same bytes.

    Raises ``TypeError`` if ``view`` is not an :class:`OrbsView` or ``seat_labels`` is a single
    string, and ``ValueError`` if the view is malformed (unknown cell name or element, a seat
    out of range…; see :func:`_check`), ``seat_labels`` does not hold one name per seat or
    ``perspective`` is not one of its seats.
    """
    if not isinstance(view, OrbsView):
        raise TypeError(f"expected an OrbsView, not {type(view).__name__}")
    if isinstance(seat_labels, str):
        raise TypeError("seat_labels must be a sequence of names, not one string")
    _check(view, seat_labels)

    turns = turns_for(view.points, perspective)
    scale = _scale(view.board, view.wrap)
    # Drawn in RGB on a copy of the cached board; only the boxes drawn in are mapped onto the
    # palette, over the board mapped once per game (render.kit.Composer).
    picture = Composer(
        _layer(view.board, view.wrap, tuple(view.holes), tuple(map(tuple, view.zones)), turns)
    )
    last = view.last
    moved = last is not None and last.kind not in ("pass", "resign")
    if last is not None and moved:
        origin = cell_centre(view.board, view.wrap, last.origin, turns)
        _put(picture, _origin_sprite(scale), *origin)
    for name, seat, element in view.orbs:
        at = cell_centre(view.board, view.wrap, name, turns)
        _put(picture, _orb_sprite(scale, seat, element), *at)
    if last is not None and moved:
        _draw_arrows(picture, view, last, scale, turns)
    # Every orb's cell name, over the arrow's tip where it comes into an orb from above.
    for name, _, _ in view.orbs:
        _put(picture, *_name_plate(view, scale, name, turns))
    if last is not None and moved and last.kind != "move":
        spot = _badge_spot(view, last, scale, turns)
        _put(picture, _badge_sprite(scale, last.kind), *spot)
    bottom = _draw_panel(picture.rgb, view, seat_labels)
    picture.mark((BOARD_WIDTH, 0, WIDTH, bottom + 4))
    return encode_png(picture.finish(), PNG_COMPRESS_LEVEL)


@lru_cache(maxsize=16)
def _layer(
    board: str,
    wrap: str,
    holes: tuple[str, ...],
    zones: tuple[tuple[str, ...], ...],
    turns: int = 0,
) -> Layer:
    """:func:`_board_layer` and the same mapped onto :data:`PALETTE` (cached alike)."""
    return Layer.of(_board_layer(board, wrap, holes, zones, turns), PALETTE)


def _arrows(view: OrbsView, last: OrbsLastMove) -> list[tuple[Point, int]]:
    """``(unit-space start, direction)`` of each arrow of the last move: one step from the
    origin towards the target, or across the seam two, from the origin towards the target's
    ghost and from the origin's ghost beside the target into the target."""
    origin, target = INDEX[last.origin], INDEX[last.target]
    if target in neighbours(view.board)[origin]:
        (oq, or_), (tq, tr) = AXIAL[origin], AXIAL[target]
        return [(centre(origin), DIRECTIONS.index((tq - oq, tr - or_)))]
    leave = next(d for d, partner in SEAM_GHOSTS[origin] if partner == target)
    enter = next(d for d, partner in SEAM_GHOSTS[target] if partner == origin)
    (tx, ty), (gx, gy) = centre(target), _step(enter)
    dq, dr = DIRECTIONS[enter]
    return [(centre(origin), leave), ((tx + gx, ty + gy), DIRECTIONS.index((-dq, -dr)))]


def _last_arrow(view: OrbsView, last: OrbsLastMove, turns: int = 0) -> tuple[Point, int]:
    """The last move's last arrow, the one that comes into the target: its unit-space start
    (turned) and its direction (an index in ``DIRECTIONS``, turned)."""
    start, direction = _arrows(view, last)[-1]
    return _turn(turns, start), _turned_direction(direction, turns)


def _draw_arrows(
    picture: Composer, view: OrbsView, last: OrbsLastMove, scale: _Scale, turns: int = 0
) -> None:
    """The arrow(s) of the last move; after a lost attack the last one ends in a bar."""
    arrows = [(start, _turned_direction(d, turns)) for start, d in _arrows(view, last)]
    for leg, (start, direction) in enumerate(arrows, start=1):
        blocked = last.kind == "lost" and leg == len(arrows)
        _put(picture, _arrow_sprite(scale, direction, blocked), *_pixel(scale, start, turns))


def _name_plate(
    view: OrbsView, scale: _Scale, name: str, turns: int = 0
) -> tuple[Sprite, float, float]:
    """The name plate of the orb on cell ``name`` and where it goes: over the top of its
    ring."""
    x, y = cell_centre(view.board, view.wrap, name, turns)
    return _name_sprite(scale, name), x, y - _name_spot(scale)


def _plate_box(sprite: Sprite, x: float, y: float) -> Box:
    """The box of the name plate ``sprite`` anchored at (``x``, ``y``), without the
    transparent margin of :class:`_Pen`."""
    image, ax, ay = sprite
    left, top = round(x) - ax, round(y) - ay
    return (left + 2, top + 2, left + image.width - 2, top + image.height - 2)


def _around(x: float, y: float, half_x: float, half_y: float) -> Box:
    return (round(x - half_x), round(y - half_y), round(x + half_x), round(y + half_y))


def _shared_area(a: Box, b: Box) -> int:
    """How many pixels the boxes ``a`` and ``b`` share."""
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return width * height if width > 0 and height > 0 else 0


#: What a clash badge should not cover, by weight: the names on orbs and on empty cells, the
#: seat numbers and the arrow's head count most; the element glyphs of other orbs less; rings
#: not at all (the badge sits on the target's own).
_NAME_WEIGHT, _GLYPH_WEIGHT = 4, 1


def _badge_obstacles(
    view: OrbsView, last: OrbsLastMove, scale: _Scale, turns: int = 0
) -> list[tuple[Box, int]]:
    """What a clash badge beside the target should not cover, as boxes with weights: the name
    plates and seat numbers of the orbs on the target and around it, the names of the empty
    cells there, the last arrow's head and shaft, and (less) the other orbs' glyphs."""
    board = view.board
    orbs = {name: seat for name, seat, _ in view.orbs}
    holes = set(view.holes)
    avoid: list[tuple[Box, int]] = []
    target = INDEX[last.target]
    for cell in (target, *neighbours(board)[target]):
        name = NAMES[cell]
        x, y = cell_centre(board, view.wrap, name, turns)
        if name in orbs:
            avoid.append((_plate_box(*_name_plate(view, scale, name, turns)), _NAME_WEIGHT))
            spot, tag = (scale.orb_radius - scale.band / 2) / math.sqrt(2), 0.135 * scale.unit
            avoid.append((_around(x + spot, y + spot, tag, tag), _NAME_WEIGHT))
            if cell != target:
                fill = scale.fill_radius
                avoid.append((_around(x, y, fill, fill), _GLYPH_WEIGHT))
        elif name not in holes:
            avoid.append((stamp_box(x, y, name, scale.name_size, "mm"), _NAME_WEIGHT))
    if view.wrap == "torus":  # the seam ghosts' names
        tx, ty = cell_centre(board, view.wrap, last.target, turns)
        for ghost, name in GHOST_SPOTS.items():
            x, y = _pixel(scale, ghost, turns)
            if math.hypot(x - tx, y - ty) < 1.5 * scale.unit:
                avoid.append((stamp_box(x, y, name, scale.name_size, "mm"), _NAME_WEIGHT))
    start, direction = _last_arrow(view, last, turns)
    sx, sy = _pixel(scale, start)
    dx, dy = _step(direction)
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    tip = scale.unit - scale.orb_radius + 0.55 * scale.band
    along = 0.2 * scale.unit
    while along < tip:
        near_head = along > tip - 0.3 * scale.unit
        width = 0.17 * scale.unit if near_head else 0.045 * scale.unit + 1
        avoid.append((_around(sx + ux * along, sy + uy * along, width, width), _NAME_WEIGHT))
        along += 0.08 * scale.unit
    return avoid


def _badge_box(scale: _Scale, kind: str, x: float, y: float) -> Box:
    """The box of the clash badge of ``kind`` centred on (``x``, ``y``), without its margin."""
    r = 0.2 * scale.unit
    return _around(x, y, r * (1.75 if kind == "annihilation" else 1), r)


def _badge_spot(view: OrbsView, last: OrbsLastMove, scale: _Scale, turns: int = 0) -> Point:
    """Where the clash badge goes: beside the target, on the side that covers least of what
    must stay readable (:func:`_badge_obstacles`), 0.8 of an orb's radius from its centre, or
    a whole radius where that covers less (the badge then reaches over the rings around);
    among equals, the one farthest from where the mover came."""
    tx, ty = cell_centre(view.board, view.wrap, last.target, turns)
    avoid = _badge_obstacles(view, last, scale, turns)
    dx, dy = _step(_last_arrow(view, last, turns)[1])
    spots = []
    for reach in (0.8, 1.0):
        for step in range(24):
            ox, oy = math.cos(math.radians(15 * step)), math.sin(math.radians(15 * step))
            x, y = tx + ox * reach * scale.orb_radius, ty + oy * reach * scale.orb_radius
            spots.append((reach, -(ox * dx + oy * dy), x, y))
    # In order of preference, so the first spot that covers nothing is the one.
    best: tuple[int, Point] | None = None
    for _, _, x, y in sorted(spots):
        box = _badge_box(scale, last.kind, x, y)
        if box[0] < 0 or box[1] < 0 or box[2] > BOARD_WIDTH or box[3] > HEIGHT:
            continue
        cost = sum(weight * _shared_area(box, other) for other, weight in avoid)
        if best is None or cost < best[0]:
            best = (cost, (x, y))
        if cost == 0:
            break
    assert best is not None  # a badge always fits on some side of a cell within the board
    return best[1]


#: The panel: where the seat rows start and how tall each is; at most this many lines of
#: options fit above the key with six seats and a three-line last move.
OPTION_LINES = 4
SEAT_ROW_TOP = 96
SEAT_ROW_HEIGHT = 58
RING_SAMPLE_RADIUS = 19.0


#: The narrowest an element's count may be on a seat's row (its orb and a two-digit count).
MIN_COUNT_STEP = 38


def _team_texts(sides: Sequence[Sequence[int]]) -> dict[int, str]:
    """Per seat, ``team A``: its side's letter, as the chat names it (the engine's seat
    names, sides lettered by their smallest seat, as ``teams=02-13`` prints them), on each
    of its seats' rows."""
    ordered = sorted(sides, key=min)
    return {
        seat: f"team {letter}"
        for letter, side in zip("ABCDEF", ordered, strict=False)
        for seat in side
    }


def _draw_panel(image: Image.Image, view: OrbsView, seat_labels: Sequence[str] | None) -> int:
    """The panel above the key: headline, one row per seat, quiet counter, last move, options.
    Returns the y below everything it drew."""
    draw = ImageDraw.Draw(image)
    big, reason = headline(view)
    draw_text(image, PANEL_LEFT, 30, big, 26, INK, bold=True)
    if reason:
        draw_text(image, PANEL_LEFT, 66, reason, 19, INK)
    elif view.to_move is not None and seat_labels is not None:
        name = _label(seat_labels[view.to_move], PANEL_RIGHT - PANEL_LEFT, 19)
        draw_text(image, PANEL_LEFT, 66, name, 19, INK)
    counts = [dict.fromkeys(ELEMENTS, 0) for _ in range(view.players)]
    for _, seat, element in view.orbs:
        counts[seat][element] += 1
    shown = [e for e in ELEMENTS if any(c[e] for c in counts)] or list(ELEMENTS[:4])
    teams = _team_texts(view.sides)
    with_teams = any(len(side) > 1 for side in view.sides)
    winners = set(view.outcome.winners) if view.outcome is not None else set()
    for seat in range(view.players):
        top = SEAT_ROW_TOP + seat * SEAT_ROW_HEIGHT
        out = not any(counts[seat].values())
        active = seat == view.to_move or seat in winners
        if active:
            box = (PANEL_LEFT - 8, top, PANEL_RIGHT + 6, top + SEAT_ROW_HEIGHT - 5)
            draw.rounded_rectangle(box, radius=8, fill=ACTIVE_TINT, outline=INK, width=2)
        ink = MUTED if out else INK
        mid = top + (SEAT_ROW_HEIGHT - 5) / 2
        _paste(image, _ring_sample(seat, RING_SAMPLE_RADIUS, out), PANEL_LEFT + 18, mid)
        x: float = PANEL_LEFT + 46
        title = _seat_name(view, seat)
        draw_text(image, x, top + 16, title, 18, ink, bold=True)
        tag = "TO MOVE" if seat == view.to_move else "WINNER" if seat in winners else ""
        tag = "out" if out and not tag else tag
        tag_width = _text_width(tag, 14, bold=True) + 8 if tag else 0
        y = top + 39
        counts_left = x + (_text_width(teams[seat], 15) + 10 if with_teams else 0)
        counts_right: float = PANEL_RIGHT
        tag_y: float | None = top + 16
        if seat_labels is not None:
            left = x + _text_width(title, 18, bold=True) + 8
            name, size = fitted_label(seat_labels[seat], PANEL_RIGHT - tag_width - left, 17, 15)
            if tag and name.endswith("…"):
                # A name ("Gameroom (level 3)", whose level tells the bots apart) is worth more
                # than the tag, which repeats the headline, the row's frame or "no orbs": the
                # tag goes down to the counts' row if they keep room there, else it goes.
                name, size = fitted_label(seat_labels[seat], PANEL_RIGHT - left, 17, 15)
                room = (PANEL_RIGHT - tag_width - counts_left) / len(shown)
                tag_y = y if out or room >= MIN_COUNT_STEP else None
                counts_right = PANEL_RIGHT - (tag_width if tag_y is not None else 0)
            draw_text(image, left, top + 16, name, size, ink)
        if tag_y is not None:
            draw_text(image, PANEL_RIGHT, tag_y, tag, 14, ink, "rm", bold=True)
        if with_teams:
            draw_text(image, x, y, teams[seat], 15, ink)
        x = counts_left
        if out:
            draw_text(image, x, y, "no orbs", 15, ink)
            continue
        step = min(44, (counts_right - x) / len(shown))
        for element in shown:
            _paste(image, _mini_orb(element, 8), x + 8, y)
            draw_text(image, x + 19, y, str(counts[seat][element]), 16, ink)
            x += step
    y = SEAT_ROW_TOP + view.players * SEAT_ROW_HEIGHT + 14
    width = PANEL_RIGHT - PANEL_LEFT
    quiet = quiet_text(view)
    bottom = y
    if quiet:
        size = 17 if _text_width(quiet, 17) <= width else 15
        quiet = _label(quiet, width, size)
        draw_text(image, PANEL_LEFT, y, quiet, size, INK)
        bottom = stamp_box(PANEL_LEFT, y, quiet, size)[3]
    else:  # over: the last move goes up into the counter's place
        y -= 28
    lines = _wrap(describe_last(view).split(), 16, width - 40)
    if lines:
        y += 28
        draw_text(image, PANEL_LEFT, y, "Last", 16, MUTED)
        for line in lines[:3]:
            draw_text(image, PANEL_LEFT + 40, y, line, 16, INK)
            bottom = max(bottom, stamp_box(PANEL_LEFT + 40, y, line, 16)[3])
            y += 21
        y -= 21
    options = _wrap(_option_pieces(view), 15, width - 64)
    if len(options) > OPTION_LINES:  # only a long custom holes list gets here
        last_line = options[OPTION_LINES - 1].rstrip(",") + " …"
        options = [*options[: OPTION_LINES - 1], _label(last_line, width - 64, 15)]
    if options:
        y += 28
        draw_text(image, PANEL_LEFT, y, "Options", 15, MUTED)
        for line in options:
            draw_text(image, PANEL_LEFT + 62, y, line, 15, INK)
            bottom = max(bottom, stamp_box(PANEL_LEFT + 62, y, line, 15)[3])
            y += 20
    return bottom
