"""The Generatorb board image (spec ``shared/specs/generatorb.md``, sections 2, 3 and 10).

:func:`render` turns a :class:`~engines.generatorb.GeneratorbView` into an 800 × 800 PNG:

* the 8 × 8 board as a diamond (G30: ``a1`` bottom, ``h8`` top, ``a8`` left, ``h1`` right),
  taken from ``SquareGrid.diamond_centre``/``diamond_outline`` and only scaled; every cell
  carries its name, files run along the lower-right edge and ranks along the lower-left edge;
* both generators (G3) tinted and framed in their owner's colour, each core ringed and starred,
  the front line (G4, the diamond's only 8-cell row) tinted and outlined in green;
* every stack as a sprite whose colour, brightness, shape *and* number each tell its owner and
  height: orb = one disc "1", spheroid = two stacked discs "2", globe = a ringed ball "3";
  South is light orange with dark ink, North dark blue with white ink (Okabe–Ito hues, so
  colour-blind safe, and still apart in greyscale);
* the last move: origin and destination framed, an arrow along the jump route
  (``last.path``), a "×" badge on a capture and a "+" badge on each refilled cell; a pass is
  told in words;
* a panel per player in the corner on their side of the board (name, supply, "to move" or
  "winner"), a status corner (whose turn or the result, the ply, the last move, the
  ``passes:1`` warning) and a key to the symbols.

How it stays fast (about 5–8 ms per image on a 2-core machine; ``python bench/render.py``):
everything that does not depend on the view (cells, generators, cores, front line, edge labels,
key) is drawn once per process and orientation by :func:`_board_layer`; pieces, badges and
frames are small sprites drawn once, supersampled for smooth edges, and pasted. The picture is
drawn in RGB so text and sprites can be anti-aliased, then mapped onto the *fixed* palette
:data:`PALETTE` (every colour used plus the blends anti-aliasing makes between them) with
``Image.quantize(palette=…)``: a cached nearest-colour lookup of about a millisecond, unlike the
adaptive ``quantize()`` (≈ 45 ms). A palette PNG encodes several times faster than an RGB one.

Text uses the font bundled with Pillow (Aileron, ``ImageFont.load_default(size=…)``), so the
output does not depend on the machine's fonts. It covers printable ASCII only; player names are
folded to it by :func:`displayable_label`.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from functools import cache

from PIL import Image, ImageDraw

from engines.generatorb import (
    CORES,
    FRONT_LINE,
    GENERATORS,
    GRID,
    NORTH,
    SEAT_NAMES,
    SOUTH,
    GeneratorbView,
    LastMove,
)
from render.kit import (
    BACKGROUND,
    INK,
    MUTED,
    RGB,
    WHITE,
    build_palette,
    bundled_font,
    displayable_label,
    draw_text,
    is_plain,
    palette_image,
)

__all__ = ["HEIGHT", "PALETTE", "WIDTH", "describe_move", "displayable_label", "render"]

Point = tuple[float, float]
#: A sprite: an RGBA image and the pixel offset of its anchor (usually its centre).
Sprite = tuple[Image.Image, int, int]

# ---- layout, in pixels ------------------------------------------------------------------------

WIDTH = 800
HEIGHT = 800
#: Where the diamond layout's unit square lands: left and top offset, side length.
BOARD_LEFT = 24
BOARD_TOP = 24
BOARD_SIZE = 752
#: Half a rhombus diagonal (47 px); the rhombus's inscribed circle has radius HALF/√2 ≈ 33.
HALF = GRID.diamond_half_diagonal * BOARD_SIZE
#: Pieces sit this far below the cell centre, leaving the cell's top corner to its name.
PIECE_DROP = 5
#: The cell name's centre, above the cell centre.
LABEL_RISE = 30
#: Radii of the stack shapes; each stays inside the rhombus's inscribed circle.
ORB_RADIUS = 19
SPHEROID_RADIUS = 21
SPHEROID_OFFSET = 4
GLOBE_RADIUS = 27
#: How far a stack of each height (index; 0 = empty cell) reaches out from its centre, at most.
PIECE_REACH = (6, ORB_RADIUS + 1, SPHEROID_RADIUS + SPHEROID_OFFSET, GLOBE_RADIUS + 1)
#: The ring around a core: inside the rhombus, clear of the cell name (no globe stands there).
CORE_RING_RADIUS = 27
#: Sprites are drawn this many times larger, then shrunk, for smooth edges.
SUPERSAMPLE = 4
#: zlib level for the PNG: 3 costs ~2 ms against ~6 ms at Pillow's default 6, for ~15 % more bytes.
PNG_COMPRESS_LEVEL = 3

CELL_LABEL_SIZE = 14
EDGE_LABEL_SIZE = 18
PANEL_WIDTH = 280
PANEL_HEIGHT = 84
PANEL_MARGIN = 8

# ---- colours -----------------------------------------------------------------------------------

CELL_LIGHT: RGB = (0xEE, 0xE9, 0xDE)
CELL_DARK: RGB = (0xDB, 0xD3, 0xC3)
GRID_LINE: RGB = (0xB5, 0xAC, 0x9A)
#: The front line: a tint of Okabe–Ito bluish green and a darker edge.
FRONT_TINT: RGB = (0xCF, 0xE6, 0xDA)
FRONT_EDGE: RGB = (0x00, 0x7A, 0x5A)
#: Per seat (South, North): piece fill (Okabe–Ito orange / blue), generator tint, dark shade.
SEAT_FILL: tuple[RGB, RGB] = ((0xE6, 0x9F, 0x00), (0x00, 0x72, 0xB2))
SEAT_TINT: tuple[RGB, RGB] = ((0xF6, 0xD8, 0x9C), (0xB3, 0xD3, 0xE9))
SEAT_DARK: tuple[RGB, RGB] = ((0x8A, 0x5A, 0x00), (0x00, 0x45, 0x6E))
#: The number on a piece: dark on light orange, white on dark blue.
SEAT_INK: tuple[RGB, RGB] = (INK, WHITE)
#: The last move's frames and arrow (a dark reddish purple, apart from both seat hues).
HIGHLIGHT: RGB = (0xB0, 0x3A, 0x7E)
CAPTURE: RGB = (0xD5, 0x5E, 0x00)
REFILL: RGB = (0x00, 0x9E, 0x73)

_BASE_COLOURS: tuple[RGB, ...] = (
    BACKGROUND, INK, MUTED, WHITE, CELL_LIGHT, CELL_DARK, GRID_LINE, FRONT_TINT, FRONT_EDGE,
    *SEAT_FILL, *SEAT_TINT, *SEAT_DARK, HIGHLIGHT, CAPTURE, REFILL,
)  # fmt: skip
_CELL_FILLS: tuple[RGB, ...] = (CELL_LIGHT, CELL_DARK, FRONT_TINT, *SEAT_TINT)
#: Foreground/background pairs whose blends anti-aliasing produces: text on its background,
#: a sprite's rim on a cell, a line across a cell. Each gets RAMP_STEPS − 1 palette entries.
_RAMP_PAIRS: tuple[tuple[RGB, RGB], ...] = (
    *((INK, bg) for bg in (*_CELL_FILLS, *SEAT_FILL, BACKGROUND)),
    *((MUTED, bg) for bg in (*_CELL_FILLS, BACKGROUND, HIGHLIGHT)),
    *((WHITE, bg) for bg in (*SEAT_FILL, CAPTURE, REFILL, INK)),
    *((HIGHLIGHT, bg) for bg in (*_CELL_FILLS, BACKGROUND, INK)),
    *((GRID_LINE, bg) for bg in _CELL_FILLS),
    *((FRONT_EDGE, bg) for bg in (*_CELL_FILLS, BACKGROUND)),
    *((SEAT_DARK[seat], bg) for seat in (SOUTH, NORTH) for bg in (*_CELL_FILLS, BACKGROUND)),
    *((colour, BACKGROUND) for colour in SEAT_FILL),
    *((colour, INK) for colour in (CAPTURE, REFILL)),
)
RAMP_STEPS = 6


#: Every colour the PNG can contain, background first. Pixels drawn in other colours (the
#: blends anti-aliasing makes) are mapped to the nearest of these.
PALETTE: tuple[RGB, ...] = build_palette(_BASE_COLOURS, _RAMP_PAIRS, RAMP_STEPS)


# ---- text --------------------------------------------------------------------------------------


# ---- geometry: the engine's unit-space diamond, scaled (and turned for ``flip``) --------------


def _point(u: float, v: float, flip: bool) -> Point:
    if flip:
        u, v = 1.0 - u, 1.0 - v
    return (BOARD_LEFT + u * BOARD_SIZE, BOARD_TOP + v * BOARD_SIZE)


def _centre(cell: int, flip: bool) -> Point:
    """Pixel centre of ``cell``'s rhombus; ``flip`` turns the board 180° (North at the bottom)."""
    return _point(*GRID.diamond_centre(cell), flip)


def _piece_centre(cell: int, flip: bool) -> Point:
    x, y = _centre(cell, flip)
    return (x, y + PIECE_DROP)


def _outline(cell: int, flip: bool) -> list[Point]:
    """The four pixel corners of ``cell``'s rhombus."""
    return [_point(u, v, flip) for u, v in GRID.diamond_outline(cell)]


# ---- sprites: drawn once, large, then shrunk for smooth edges ---------------------------------


class _Pen:
    """Draws on a transparent supersampled square; coordinates are in final pixels from the
    centre, so sprite code reads like ordinary drawing code."""

    def __init__(self, reach: float) -> None:
        self.half = math.ceil(reach) + 2
        side = 2 * self.half * SUPERSAMPLE
        self.image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
        self.draw = ImageDraw.Draw(self.image)

    def _xy(self, x: float, y: float) -> Point:
        return ((self.half + x) * SUPERSAMPLE, (self.half + y) * SUPERSAMPLE)

    def disc(
        self, x: float, y: float, r: float, fill: RGB, rim: RGB = INK, rim_width: float = 2
    ) -> None:
        self.circle(x, y, r, rim)
        self.circle(x, y, r - rim_width, fill)

    def circle(self, x: float, y: float, r: float, fill: RGB) -> None:
        self.draw.ellipse((*self._xy(x - r, y - r), *self._xy(x + r, y + r)), fill=fill)

    def ring(self, x: float, y: float, r: float, colour: RGB, width: float) -> None:
        box = (*self._xy(x - r, y - r), *self._xy(x + r, y + r))
        self.draw.ellipse(box, outline=colour, width=round(width * SUPERSAMPLE))

    def polygon(self, points: Sequence[Point], fill: RGB | tuple[int, int, int, int]) -> None:
        self.draw.polygon([self._xy(x, y) for x, y in points], fill=fill)

    def line(self, points: Sequence[Point], colour: RGB, width: float) -> None:
        xy = [self._xy(x, y) for x, y in points]
        self.draw.line(xy, fill=colour, width=round(width * SUPERSAMPLE))

    def text(self, x: float, y: float, text: str, size: int, colour: RGB) -> None:
        s = SUPERSAMPLE
        self.draw.text(self._xy(x, y), text, font=bundled_font(size * s), fill=colour, anchor="mm",
                       stroke_width=s, stroke_fill=colour)  # fmt: skip

    def sprite(self) -> Sprite:
        small = self.image.reduce(SUPERSAMPLE)
        return small, self.half, self.half


@cache
def _piece_sprite(seat: int, height: int, scale: float = 1.0) -> Sprite:
    """The stack of ``height`` (1–3) owned by ``seat``, anchored at its centre.

    Orb: one disc. Spheroid: two discs, the lower one showing below the upper. Globe: a
    larger ball with two inner rings. Each shows its height as a number.
    """
    fill, ink = SEAT_FILL[seat], SEAT_INK[seat]
    pen = _Pen((GLOBE_RADIUS + SPHEROID_OFFSET) * scale)
    number = round(22 * scale)
    if height == 1:
        pen.disc(0, 0, ORB_RADIUS * scale, fill)
        pen.text(0, 0, "1", number, ink)
    elif height == 2:
        offset, r = SPHEROID_OFFSET * scale, SPHEROID_RADIUS * scale
        pen.disc(0, offset, r, fill)
        pen.disc(0, -offset, r, fill)
        pen.text(0, -offset, "2", number, ink)
    elif height == 3:
        r = GLOBE_RADIUS * scale
        pen.disc(0, 0, r, fill)
        pen.ring(0, 0, r - 6 * scale, ink, 2 * scale)
        pen.ring(0, 0, r - 11 * scale, ink, 2 * scale)
        pen.text(0, 0, "3", number, ink)
    else:
        raise ValueError(f"a stack is 1–3 orbs high, not {height}")
    return pen.sprite()


@cache
def _badge_sprite(kind: str) -> Sprite:
    """A round badge anchored at its centre: ``"capture"`` (×) or ``"refill"`` (+)."""
    pen = _Pen(10)
    arm = 5.0
    if kind == "capture":
        pen.disc(0, 0, 10, CAPTURE)
        strokes = [((-arm, -arm), (arm, arm)), ((-arm, arm), (arm, -arm))]
    elif kind == "refill":
        pen.disc(0, 0, 10, REFILL)
        strokes = [((-arm - 1, 0), (arm + 1, 0)), ((0, -arm - 1), (0, arm + 1))]
    else:
        raise ValueError(f"unknown badge {kind!r}")
    for stroke in strokes:
        pen.line(stroke, WHITE, 3)
    return pen.sprite()


def _rhombus(r: float) -> list[Point]:
    return [(0, -r), (r, 0), (0, r), (-r, 0)]


@cache
def _frame_sprite(half: float = HALF, width: float = 5) -> Sprite:
    """A rhombus frame just inside a cell of half-diagonal ``half``, anchored at the centre."""
    pen = _Pen(half)
    pen.polygon(_rhombus(half - 1), HIGHLIGHT)
    pen.polygon(_rhombus(half - 1 - width * math.sqrt(2)), (0, 0, 0, 0))
    return pen.sprite()


@cache
def _star_sprite(seat: int) -> Sprite:
    """A five-pointed star in the seat's dark shade: the core glyph."""
    radius = 8.5
    pen = _Pen(radius)
    points = []
    for k in range(10):
        r = radius if k % 2 == 0 else radius * 0.45
        angle = -math.pi / 2 + k * math.pi / 5
        points.append((r * math.cos(angle), r * math.sin(angle)))
    pen.polygon(points, SEAT_DARK[seat])
    return pen.sprite()


@cache
def _swatch_sprite(fill: RGB, edge: RGB, half: float = 11) -> Sprite:
    """A small tinted rhombus with a coloured edge, for the key."""
    pen = _Pen(half)
    pen.polygon(_rhombus(half), edge)
    pen.polygon(_rhombus(half - 2.5), fill)
    return pen.sprite()


def _paste(canvas: Image.Image, sprite: Sprite, x: float, y: float) -> None:
    image, ax, ay = sprite
    canvas.paste(image, (round(x) - ax, round(y) - ay), image)


# ---- the cached layers -------------------------------------------------------------------------


def _cell_fill(cell: int) -> RGB:
    for seat in (SOUTH, NORTH):
        if cell in GENERATORS[seat]:
            return SEAT_TINT[seat]
    if cell in FRONT_LINE:
        return FRONT_TINT
    x, y = GRID.xy(cell)
    return CELL_LIGHT if (x + y) % 2 else CELL_DARK


@cache
def _board_layer(flip: bool) -> Image.Image:
    """Everything that never depends on the view, for one orientation (RGB, cached).

    Cell names are not part of it: each render stamps them (:func:`_cell_labels`) over the
    last move's frames and arrow, before the pieces.
    """
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for cell in GRID.cells:
        draw.polygon(_outline(cell, flip), fill=_cell_fill(cell), outline=GRID_LINE)
    front = sorted(FRONT_LINE, key=lambda cell: _centre(cell, flip)[0])
    draw.polygon(_row_outline(front, flip), outline=FRONT_EDGE, width=3)
    for seat in (SOUTH, NORTH):
        for cell in GENERATORS[seat]:
            draw.polygon(_outline(cell, flip), outline=SEAT_DARK[seat], width=2)
        x, y = _piece_centre(CORES[seat], flip)
        r = CORE_RING_RADIUS
        draw.ellipse((x - r, y - r, x + r, y + r), outline=SEAT_DARK[seat], width=3)
        cx, cy = _centre(CORES[seat], flip)
        for side in (-1, 1):
            _paste(image, _star_sprite(seat), cx + side * (HALF - 11), cy)
    _draw_edge_labels(draw, flip)
    _draw_key(image, draw)
    return image


def _row_outline(row: Sequence[int], flip: bool) -> list[Point]:
    """The outline of a horizontal row of cells given left to right: a zigzag band."""
    top: list[Point] = []
    bottom: list[Point] = []
    for cell in row:
        above, _, below, left = _sorted_corners(cell, flip)
        top += [left, above]
        bottom += [left, below]
    right = _sorted_corners(row[-1], flip)[1]
    return [*top, right, *reversed(bottom)]


def _sorted_corners(cell: int, flip: bool) -> tuple[Point, Point, Point, Point]:
    """``cell``'s corners as drawn: top, right, bottom, left (whatever the orientation)."""
    corners = _outline(cell, flip)
    top = min(corners, key=lambda p: p[1])
    bottom = max(corners, key=lambda p: p[1])
    left = min(corners, key=lambda p: p[0])
    right = max(corners, key=lambda p: p[0])
    return top, right, bottom, left


def _draw_edge_labels(draw: ImageDraw.ImageDraw, flip: bool) -> None:
    """Files along the lower-right edge and ranks along the lower-left edge, as drawn."""
    font = bundled_font(EDGE_LABEL_SIZE)
    edge = GRID.size - 1 if flip else 0
    out = HALF / 2 + 10
    for x in range(GRID.size):
        cx, cy = _centre(GRID.index(x, edge), flip)
        draw.text((cx + out, cy + out), chr(ord("a") + x), font=font, fill=INK, anchor="mm")
    for y in range(GRID.size):
        cx, cy = _centre(GRID.index(edge, y), flip)
        draw.text((cx - out, cy + out), str(y + 1), font=font, fill=INK, anchor="mm")


def _draw_key(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    """The key to the symbols, in the bottom-right corner: pieces in one column, marks in a
    second one that starts higher because the corner widens towards the right."""
    font = bundled_font(14)
    pieces = (("orb", 1), ("spheroid", 2), ("globe", 3))
    for row, (name, height) in enumerate(pieces):
        y = HEIGHT - 100 + row * 34
        _paste(image, _piece_sprite(SOUTH, height, 0.55), 584, y)
        draw.text((602, y), name, font=font, fill=INK, anchor="lm")
    marks: list[tuple[str, Sprite]] = [
        ("core", _star_sprite(SOUTH)),
        ("front line", _swatch_sprite(FRONT_TINT, FRONT_EDGE)),
        ("last move", _frame_sprite(11, 2.5)),
        ("refilled", _badge_sprite("refill")),
        ("captured", _badge_sprite("capture")),
    ]
    for row, (name, sprite) in enumerate(marks):
        y = HEIGHT - 168 + row * 34
        _paste(image, sprite, 700, y)
        draw.text((718, y), name, font=font, fill=INK, anchor="lm")


@cache
def _cell_labels(flip: bool) -> tuple[tuple[Image.Image, tuple[int, int]], ...]:
    """Each cell's name as an anti-aliased mask and the pixel where it goes (cached)."""
    font = bundled_font(CELL_LABEL_SIZE)
    stamps = []
    for cell in GRID.cells:
        name = GRID.names[cell]
        left, top, right, bottom = (round(v) for v in font.getbbox(name, anchor="mm"))
        mask = Image.new("L", (right - left, bottom - top), 0)
        ImageDraw.Draw(mask).text((-left, -top), name, font=font, fill=255, anchor="mm")
        cx, cy = _centre(cell, flip)
        stamps.append((mask, (round(cx) + left, round(cy - LABEL_RISE) + top)))
    return tuple(stamps)


# ---- one image ---------------------------------------------------------------------------------


def render(
    view: GeneratorbView, *, seat_labels: Sequence[str] | None = None, flip: bool = False
) -> bytes:
    """Draw ``view`` as an 800 × 800 palette PNG and return its bytes (spec section 10).

    ``seat_labels`` are the players' display names, South's first, shown beside the seat
    names (see :func:`displayable_label`); ``flip`` turns the board 180° so that North sits at
    the bottom, for North's players. The same arguments always give the same bytes.

    Raises ``TypeError`` if ``view`` is not a :class:`GeneratorbView` or ``seat_labels`` is a
    single string, and ``ValueError`` if the view is malformed (see :func:`_check`) or
    ``seat_labels`` does not hold two names.
    """
    if not isinstance(view, GeneratorbView):
        raise TypeError(f"expected a GeneratorbView, not {type(view).__name__}")
    if isinstance(seat_labels, str):
        raise TypeError("seat_labels must be a sequence of two names, not one string")
    if seat_labels is not None and len(seat_labels) != 2:
        raise ValueError(f"seat_labels must hold 2 names, not {len(seat_labels)}")
    _check(view)

    image = _board_layer(flip).copy()
    draw = ImageDraw.Draw(image)
    last = view.last
    if last is not None and last.origin is not None and last.destination is not None:
        cells = (last.origin, *last.path, last.destination)
        _draw_move_trace(image, draw, cells, PIECE_REACH[abs(view.board[last.destination])], flip)
    for mask, xy in _cell_labels(flip):
        image.paste(MUTED, (*xy, xy[0] + mask.width, xy[1] + mask.height), mask)
    for cell, value in enumerate(view.board):
        if value:
            sprite = _piece_sprite(SOUTH if value > 0 else NORTH, abs(value))
            _paste(image, sprite, *_piece_centre(cell, flip))
    if last is not None:
        _draw_badges(image, last, flip)
    bottom_seat = NORTH if flip else SOUTH
    for seat in (SOUTH, NORTH):
        top = HEIGHT - PANEL_MARGIN - PANEL_HEIGHT if seat == bottom_seat else PANEL_MARGIN
        _draw_panel(image, draw, view, seat, seat_labels, top)
    _draw_status(draw, view)
    return _encode(image)


def _check(view: GeneratorbView) -> None:
    """Raise ``ValueError`` unless the board is 64 ints in -3..3, every seat named is 0 or 1,
    and the last move's cells are on the board."""
    if len(view.board) != len(GRID.cells) or any(not -3 <= v <= 3 for v in view.board):
        raise ValueError("a Generatorb board is 64 ints in -3..3")
    seats = [view.to_move] if view.to_move is not None else []
    if view.outcome is not None:
        seats += view.outcome.winners
    if view.last is not None:
        seats.append(view.last.seat)
        ends = (view.last.origin, view.last.destination)
        if (ends[0] is None) != (ends[1] is None):
            raise ValueError("a last move has both an origin and a destination, or neither")
        cells = [c for c in ends if c is not None] + [*view.last.path, *view.last.refilled]
        if any(c not in GRID.cells for c in cells):
            raise ValueError(f"last move names a cell off the board: {view.last}")
    if any(seat not in (SOUTH, NORTH) for seat in seats):
        raise ValueError(f"Generatorb seats are 0 and 1: {view}")


def _draw_move_trace(
    image: Image.Image, draw: ImageDraw.ImageDraw, cells: Sequence[int], reach: float, flip: bool
) -> None:
    """Under the pieces: frames on the first and last of ``cells`` (origin, jump route,
    destination) and an arrow through them whose tip stops ``reach`` px short of the last."""
    for cell in (cells[0], cells[-1]):
        _paste(image, _frame_sprite(), *_centre(cell, flip))
    points = [_piece_centre(cell, flip) for cell in cells]
    draw.line(points, fill=HIGHLIGHT, width=5, joint="curve")
    for x, y in points[1:-1]:
        draw.ellipse((x - 6, y - 6, x + 6, y + 6), fill=HIGHLIGHT)
    _draw_arrowhead(draw, points[-2], points[-1], reach)


def _draw_arrowhead(draw: ImageDraw.ImageDraw, start: Point, end: Point, reach: float) -> None:
    """A triangle pointing along ``start`` → ``end``, its tip ``reach`` px short of ``end``."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    if length == 0:  # a path that repeats the destination: no direction to point in
        return
    ux, uy = dx / length, dy / length
    tip = (end[0] - ux * reach, end[1] - uy * reach)
    back = (tip[0] - ux * 18, tip[1] - uy * 18)
    wing_x, wing_y = -uy * 10, ux * 10
    draw.polygon(
        [tip, (back[0] + wing_x, back[1] + wing_y), (back[0] - wing_x, back[1] - wing_y)],
        fill=HIGHLIGHT,
    )


def _draw_badges(image: Image.Image, last: LastMove, flip: bool) -> None:
    """Badges over the pieces, in the cell's right corner: × on a capture, + on a refill."""
    badges = [(cell, "refill") for cell in last.refilled]
    if last.captured and last.destination is not None:
        badges.append((last.destination, "capture"))
    for cell, kind in badges:
        x, y = _centre(cell, flip)
        _paste(image, _badge_sprite(kind), x + HALF - 16, y)


def _draw_panel(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: GeneratorbView,
    seat: int,
    seat_labels: Sequence[str] | None,
    top: int,
) -> None:
    """A player's panel: their piece, seat name, display name, supply, and whether they move
    next or won."""
    left = PANEL_MARGIN
    active = view.to_move == seat
    won = view.outcome is not None and seat in view.outcome.winners
    if active or won:
        box = (left, top, left + PANEL_WIDTH, top + PANEL_HEIGHT)
        draw.rounded_rectangle(box, radius=8, fill=SEAT_TINT[seat], outline=SEAT_DARK[seat],
                               width=3)  # fmt: skip
    _paste(image, _piece_sprite(seat, 1), left + 28, top + 27)
    name_font, small_font = bundled_font(24), bundled_font(17)
    name = SEAT_NAMES[seat]
    draw.text((left + 54, top + 27), name, font=name_font, fill=INK, anchor="lm")
    if seat_labels is not None:
        x = left + 54 + name_font.getlength(name) + 10
        label = displayable_label(seat_labels[seat], left + PANEL_WIDTH - 10 - x, 17)
        if is_plain(label):
            draw.text((x, top + 28), label, font=small_font, fill=INK, anchor="lm")
        else:  # other scripts: fallback faces (render.kit)
            draw_text(image, x, top + 28, label, 17, INK)
    draw.text((left + 54, top + 60), f"Supply {view.supply[seat]}", font=small_font, fill=INK,
              anchor="lm")  # fmt: skip
    tag = "TO MOVE" if active else "WINNER" if won else ""
    if tag:
        draw.text((left + PANEL_WIDTH - 12, top + 60), tag, font=bundled_font(15),
                  fill=SEAT_DARK[seat], anchor="rm", stroke_width=1,
                  stroke_fill=SEAT_DARK[seat])  # fmt: skip


#: How each termination of spec section 8 is told under the result.
TERMINATIONS = {
    "core": "Reached the enemy core",
    "front_line": "Holds 5 front-line cells",
    "no_moves": "Neither player can move",
    "repetition": "Position repeated 3 times",
    "move_limit": "Ply limit reached",
    "resignation": "{loser} resigned",
    "agreement": "Agreed by both players",
}


def _status_lines(view: GeneratorbView) -> list[tuple[str, int]]:
    """The status corner's lines and their font sizes, top to bottom."""
    lines: list[tuple[str, int]] = []
    outcome = view.outcome
    if outcome is not None:
        if outcome.winners:
            winner = outcome.winners[0]
            result, loser = f"{SEAT_NAMES[winner]} wins", SEAT_NAMES[1 - winner]
        else:
            result, loser = "Draw", ""
        reason = TERMINATIONS.get(outcome.termination, outcome.termination.replace("_", " "))
        lines += [(result, 28), (reason.format(loser=loser), 17)]
    elif view.to_move is not None:
        lines.append((f"{SEAT_NAMES[view.to_move]} to move", 28))
    lines.append((f"Ply {view.ply}", 17))
    if view.last is not None:
        lines.append((f"Last: {describe_move(view.last)}", 17))
    if view.passes == 1 and outcome is None:
        lines += [("Another pass without a", 15), ("refill ends in a draw", 15)]
    return lines


def describe_move(last: LastMove) -> str:
    """The last move in the spec's canonical notation (section 6) with the mover, e.g.
    ``"South c3~e5=3"`` or ``"North passed"``; refill cells are not named."""
    mover = SEAT_NAMES[last.seat]
    if last.origin is None or last.destination is None:
        return f"{mover} passed"
    if last.split:
        sep = "*" if last.captured else "~"
    else:
        sep = "x" if last.captured else "-"
    merged = f"={last.merged}" if last.merged else ""
    return f"{mover} {GRID.names[last.origin]}{sep}{GRID.names[last.destination]}{merged}"


def _draw_status(draw: ImageDraw.ImageDraw, view: GeneratorbView) -> None:
    """Whose turn (or the result), the ply, the last move: right-aligned in the top corner."""
    y = 26.0
    for text, size in _status_lines(view):
        draw.text((WIDTH - 12, y), text, font=bundled_font(size), fill=INK, anchor="rm")
        y += size * 0.6 + 18


def _encode(image: Image.Image) -> bytes:
    """Map the RGB drawing onto :data:`PALETTE` and encode it as a PNG."""
    paletted = image.quantize(palette=palette_image(PALETTE), dither=Image.Dither.NONE)
    out = io.BytesIO()
    paletted.save(out, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()
