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

How it stays fast (about 2.5 ms per busy image on a 2-core machine, of which 1.8 ms is
Pillow's PNG encoding alone; ``python bench/render_board.py``): the picture is composed on the
*fixed* palette :data:`PALETTE` (every colour used plus the blends anti-aliasing makes between
them) with :class:`render.kit.Composer`, so almost nothing is drawn or mapped per image.
Everything that does not depend on the view (cells, generators, cores, front line, edge labels,
key) is drawn once per process and orientation by :func:`_board_layer`, and with the cell names
mapped onto the palette once (:func:`_named_layer`); each stack on each cell is drawn once,
supersampled for smooth edges, blended over its cell and mapped (:func:`_piece_patch`, at most
64 × 6 × 2), and pasted through a one-bit mask; panels and status lines are mapped once per
content (:func:`_panel_patch`, :func:`render.kit.text_patch`). Only the last move's frames,
arrow and badges, which lie over varying backgrounds, are drawn in RGB per image, with the
names and stacks they overlap, and only their boxes are mapped. Every pixel is the one drawing
the whole picture in RGB and mapping it gives (``tests/render/test_compose.py``). The PNG is
written at zlib level 1 with the run-length strategy (:func:`render.kit.encode_png`), the
fastest setting for this picture.

Text uses the font bundled with Pillow (Aileron, ``ImageFont.load_default(size=…)``), so the
output does not depend on the machine's fonts. Aileron covers printable ASCII only: player names
keep their Latin letters with accents folded, and other scripts (Cyrillic, CJK, emoji…) are
drawn with the bundled Noto faces (:func:`render.kit.displayable_label`).
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import pairwise

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
    Box,
    Composer,
    Layer,
    Patch,
    box_of,
    build_palette,
    bundled_font,
    displayable_label,
    draw_text,
    encode_png,
    fitted_label,
    is_plain,
    region_patch,
    sprite_patch,
    stamp_box,
    text_at,
    text_box,
    text_patch,
    tiles_of,
    union,
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
#: zlib settings of the PNG (:func:`render.kit.encode_png`): the run-length strategy suits the
#: flat board, ~12 % faster than plain level 1 or 2 for ~10 % more bytes (≈ 62 KB on busy
#: views); level 3 would take ~25 % longer.
PNG_COMPRESS_LEVEL = 1
PNG_STRATEGY = zlib.Z_RLE

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
        """The drawing shrunk to final size and cropped to its visible pixels (less to blend
        when pasted), anchored where the pen's centre was."""
        small = self.image.reduce(SUPERSAMPLE)
        left, top, right, bottom = small.getchannel("A").getbbox() or (0, 0, 1, 1)
        return small.crop((left, top, right, bottom)), self.half - left, self.half - top


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


def _sprite_box(sprite: Sprite, x: float, y: float) -> Box:
    """Where ``sprite`` lands with its anchor at (``x``, ``y``)."""
    image, ax, ay = sprite
    left, top = round(x) - ax, round(y) - ay
    return (left, top, left + image.width, top + image.height)


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
def _cell_labels(flip: bool) -> tuple[tuple[Image.Image, Box], ...]:
    """Each cell's name as an anti-aliased mask and the box where it goes (cached)."""
    font = bundled_font(CELL_LABEL_SIZE)
    stamps = []
    for cell in GRID.cells:
        name = GRID.names[cell]
        left, top, right, bottom = (round(v) for v in font.getbbox(name, anchor="mm"))
        mask = Image.new("L", (right - left, bottom - top), 0)
        ImageDraw.Draw(mask).text((-left, -top), name, font=font, fill=255, anchor="mm")
        cx, cy = _centre(cell, flip)
        x, y = round(cx) + left, round(cy - LABEL_RISE) + top
        stamps.append((mask, (x, y, x + mask.width, y + mask.height)))
    return tuple(stamps)


@cache
def _labels_by_tile(flip: bool) -> dict[int, tuple[int, ...]]:
    """For each tile (:func:`render.kit.tiles_of`), the indices of the cell names that touch it."""
    found: dict[int, list[int]] = {}
    for index, (_, box) in enumerate(_cell_labels(flip)):
        for tile in tiles_of(box):
            found.setdefault(tile, []).append(index)
    return {tile: tuple(indices) for tile, indices in found.items()}


@cache
def _named_layer(flip: bool) -> Layer:
    """:func:`_board_layer` with every cell's name stamped on it, in RGB and on
    :data:`PALETTE`: what a picture starts from (cached per orientation)."""
    image = _board_layer(flip).copy()
    for mask, box in _cell_labels(flip):
        image.paste(MUTED, box, mask)
    return Layer.of(image, PALETTE)


@cache
def _piece_patch(cell: int, value: int, flip: bool) -> Patch:
    """The stack ``value`` (as on the board: > 0 South's, < 0 North's) on ``cell``, blended
    over the named board and mapped onto the palette (cached: 64 cells × 6 stacks × 2 sides)."""
    sprite = _piece_sprite(SOUTH if value > 0 else NORTH, abs(value))
    box = _sprite_box(sprite, *_piece_centre(cell, flip))
    return sprite_patch(_named_layer(flip), (sprite[0], (box[0], box[1])))


# ---- one image ---------------------------------------------------------------------------------


def render(
    view: GeneratorbView,
    *,
    seat_labels: Sequence[str] | None = None,
    perspective: int | None = None,
) -> bytes:
    """Draw ``view`` as an 800 × 800 palette PNG and return its bytes (spec section 10).

    ``seat_labels`` are the players' display names, South's first, shown beside the seat
    names (see :func:`displayable_label`); ``perspective`` 1 (North) turns the board 180° so
    that North sits at the bottom, for North's players (``None`` or 0: South at the bottom;
    the drawing helpers call this turn ``flip``). The same arguments always give the same
    bytes.

    Raises ``TypeError`` if ``view`` is not a :class:`GeneratorbView` or ``seat_labels`` is a
    single string, and ``ValueError`` if the view is malformed (see :func:`_check`),
    ``seat_labels`` does not hold two names or ``perspective`` is not 0, 1 or ``None``.
    """
    if perspective not in (None, 0, 1):
        raise ValueError(f"Generatorb has seats 0 and 1, not {perspective}")
    flip = perspective == 1
    if not isinstance(view, GeneratorbView):
        raise TypeError(f"expected a GeneratorbView, not {type(view).__name__}")
    if isinstance(seat_labels, str):
        raise TypeError("seat_labels must be a sequence of two names, not one string")
    if seat_labels is not None and len(seat_labels) != 2:
        raise ValueError(f"seat_labels must hold 2 names, not {len(seat_labels)}")
    _check(view)

    # Composed on the palette (render.kit.Composer): the named board, each stack, the panels
    # and the status lines come ready-mapped from caches; the last move and its badges, which
    # lie over varying backgrounds, are drawn in RGB inside marked boxes, with whatever they
    # overlap drawn again there in the picture's order.
    layer = _named_layer(flip)
    picture = Composer(layer, start=_board_layer(flip))
    last = view.last
    trace: tuple[int, ...] = ()
    reach = 0
    if last is not None and last.origin is not None and last.destination is not None:
        trace = (last.origin, *last.path, last.destination)
        reach = PIECE_REACH[abs(view.board[last.destination])]
        for box in _trace_boxes(trace, reach, flip):
            picture.mark(box)
    badges = _badges(last, flip) if last is not None else []
    for sprite, x, y in badges:
        picture.mark(_sprite_box(sprite, x, y))
    bottom_seat = NORTH if flip else SOUTH
    panels = []
    for seat in (SOUTH, NORTH):
        top = HEIGHT - PANEL_MARGIN - PANEL_HEIGHT if seat == bottom_seat else PANEL_MARGIN
        won = view.outcome is not None and seat in view.outcome.winners
        tag = "TO MOVE" if view.to_move == seat else "WINNER" if won else ""
        label = seat_labels[seat] if seat_labels is not None else None
        panels.append(_panel(seat, label, view.supply[seat], tag, top))
    status = _status_texts(view)
    # Panels and status never share pixels with the board, but stay exact if they did.
    late = [panel for panel in panels if picture.meets(panel.box)]
    late_status = [line for line in status if picture.meets(text_box(*line[:4], line[5]))]
    for panel in late:
        picture.mark(panel.box)
    for x, y, text, size, _, anchor in late_status:
        picture.mark(text_box(x, y, text, size, anchor))

    image = picture.rgb if picture.boxes else None
    if image is not None and trace:
        _draw_move_trace(image, ImageDraw.Draw(image), trace, reach, flip)
    if image is not None:
        labels = _cell_labels(flip)
        by_tile = _labels_by_tile(flip)
        for index in sorted({i for tile in picture.tiles for i in by_tile.get(tile, ())}):
            mask, box = labels[index]
            image.paste(MUTED, box, mask)
    for cell, value in enumerate(view.board):
        if value:
            patch = _piece_patch(cell, value, flip)
            picture.put(patch)
            if image is not None and picture.meets(patch.box):
                sprite = _piece_sprite(SOUTH if value > 0 else NORTH, abs(value))
                _paste(image, sprite, *_piece_centre(cell, flip))
    for panel in panels:
        picture.put(_panel_patch(panel, flip))
    for line in status:
        picture.put(text_patch(layer, *line))
    if image is not None:
        for sprite, x, y in badges:
            _paste(image, sprite, x, y)
        for panel in late:
            _draw_panel(image, panel)
        for x, y, text, size, colour, anchor in late_status:
            text_at(image, x, y, text, size, colour, anchor)
    return encode_png(picture.finish(), PNG_COMPRESS_LEVEL, PNG_STRATEGY)


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


#: The last move's line is marked for RGB drawing in pieces at most this long (px), so a long
#: jump marks a band along itself rather than the box of the whole jump.
TRACE_STEP = 160
#: Half the width of the last move's line plus a safety margin (px), around its pieces.
TRACE_MARGIN = 5


def _draw_move_trace(
    image: Image.Image, draw: ImageDraw.ImageDraw, cells: Sequence[int], reach: float, flip: bool
) -> None:
    """Under the pieces: frames on the first and last of ``cells`` (origin, jump route,
    destination) and an arrow through them whose tip stops ``reach`` px short of the last.
    Everything it draws lies inside :func:`_trace_boxes`."""
    for cell in (cells[0], cells[-1]):
        _paste(image, _frame_sprite(), *_centre(cell, flip))
    points = [_piece_centre(cell, flip) for cell in cells]
    draw.line(points, fill=HIGHLIGHT, width=5, joint="curve")
    for x, y in points[1:-1]:
        draw.ellipse((x - 6, y - 6, x + 6, y + 6), fill=HIGHLIGHT)
    head = _arrowhead(points[-2], points[-1], reach)
    if head:
        draw.polygon(head, fill=HIGHLIGHT)


def _trace_boxes(cells: Sequence[int], reach: float, flip: bool) -> list[Box]:
    """Boxes holding every pixel :func:`_draw_move_trace` draws: the two frames, the line in
    pieces of at most :data:`TRACE_STEP` px, the dots on the route and the arrowhead."""
    boxes = [_sprite_box(_frame_sprite(), *_centre(cell, flip)) for cell in (cells[0], cells[-1])]
    points = [_piece_centre(cell, flip) for cell in cells]
    for (ax, ay), (bx, by) in pairwise(points):
        steps = max(1, math.ceil(math.hypot(bx - ax, by - ay) / TRACE_STEP))
        ends = [(ax + (bx - ax) * k / steps, ay + (by - ay) * k / steps) for k in range(steps + 1)]
        boxes += [box_of(pair, TRACE_MARGIN) for pair in pairwise(ends)]
    boxes += [box_of([point], 7) for point in points[1:-1]]
    head = _arrowhead(points[-2], points[-1], reach)
    if head:
        boxes.append(box_of(head, 2))
    return boxes


def _arrowhead(start: Point, end: Point, reach: float) -> list[Point]:
    """A triangle pointing along ``start`` → ``end``, its tip ``reach`` px short of ``end``
    (none for a path that repeats the destination: no direction to point in)."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    if length == 0:
        return []
    ux, uy = dx / length, dy / length
    tip = (end[0] - ux * reach, end[1] - uy * reach)
    back = (tip[0] - ux * 18, tip[1] - uy * 18)
    wing_x, wing_y = -uy * 10, ux * 10
    return [tip, (back[0] + wing_x, back[1] + wing_y), (back[0] - wing_x, back[1] - wing_y)]


def _badges(last: LastMove, flip: bool) -> list[tuple[Sprite, float, float]]:
    """Badges over the pieces, in the cell's right corner: × on a capture, + on a refill."""
    badges = [(cell, "refill") for cell in last.refilled]
    if last.captured and last.destination is not None:
        badges.append((last.destination, "capture"))
    placed = []
    for cell, kind in badges:
        x, y = _centre(cell, flip)
        placed.append((_badge_sprite(kind), x + HALF - 16, y))
    return placed


#: A text to draw with :func:`render.kit.text_at`: x, y, text, size, colour, anchor, stroke.
Text = tuple[float, float, str, int, RGB, str, int]


@dataclass(frozen=True, slots=True)
class _Panel:
    """A player's panel, ready to draw: its frame (if any), piece, Aileron texts, a name in
    other scripts (drawn with :func:`render.kit.draw_text`) and the box holding all of it."""

    seat: int
    frame: Box | None  # the rounded frame's corners (inclusive), when the seat moves or won
    piece: Point
    texts: tuple[Text, ...]
    mixed: tuple[float, float, str, int] | None  # x, y, text, size
    box: Box


@lru_cache(maxsize=256)
def _panel(seat: int, seat_label: str | None, supply: int, tag: str, top: int) -> _Panel:
    """A player's panel: their piece, seat name, display name, supply, and ``tag`` ("TO MOVE",
    "WINNER" or nothing, which also frames the panel) (cached)."""
    left = PANEL_MARGIN
    boxes = []
    frame = None
    if tag:
        frame = (left, top, left + PANEL_WIDTH, top + PANEL_HEIGHT)
        boxes.append((left, top, left + PANEL_WIDTH + 1, top + PANEL_HEIGHT + 1))
    piece = (left + 28.0, top + 27.0)
    boxes.append(_sprite_box(_piece_sprite(seat, 1), *piece))
    name = SEAT_NAMES[seat]
    texts: list[Text] = [(left + 54, top + 27, name, 24, INK, "lm", 0)]
    mixed = None
    if seat_label is not None:
        x = left + 54 + bundled_font(24).getlength(name) + 10
        # Smaller rather than cut: "Gameroom (level 3)" keeps its level.
        label, size = fitted_label(seat_label, left + PANEL_WIDTH - 10 - x, 17, 15)
        if is_plain(label):
            texts.append((x, top + 28, label, size, INK, "lm", 0))
        else:  # other scripts: fallback faces (render.kit)
            mixed = (x, top + 28.0, label, size)
            boxes.append(stamp_box(x, top + 28, label, size))
    texts.append((left + 54, top + 60, f"Supply {supply}", 17, INK, "lm", 0))
    if tag:
        texts.append((left + PANEL_WIDTH - 12, top + 60, tag, 15, SEAT_DARK[seat], "rm", 1))
    boxes += [text_box(x, y, text, size, anchor, stroke) for x, y, text, size, _, anchor, stroke
              in texts]  # fmt: skip
    return _Panel(seat, frame, piece, tuple(texts), mixed, union(boxes))


def _draw_panel(image: Image.Image, panel: _Panel, origin: tuple[int, int] = (0, 0)) -> None:
    """Draw ``panel`` on ``image``, whose top-left pixel is ``origin`` of the picture."""
    ox, oy = origin
    seat = panel.seat
    if panel.frame is not None:
        left, top, right, bottom = panel.frame
        ImageDraw.Draw(image).rounded_rectangle(
            (left - ox, top - oy, right - ox, bottom - oy), radius=8, fill=SEAT_TINT[seat],
            outline=SEAT_DARK[seat], width=3,
        )  # fmt: skip
    sprite = _piece_sprite(seat, 1)
    box = _sprite_box(sprite, *panel.piece)
    image.paste(sprite[0], (box[0] - ox, box[1] - oy), sprite[0])
    for x, y, text, size, colour, anchor, stroke in panel.texts:
        text_at(image, x, y, text, size, colour, anchor, stroke, origin)
    if panel.mixed is not None:
        x, y, label, size = panel.mixed
        draw_text(image, x, y, label, size, INK, origin=origin)


@lru_cache(maxsize=256)
def _panel_patch(panel: _Panel, flip: bool) -> Patch:
    """``panel`` drawn over the named board and mapped onto the palette (cached)."""

    def draw(canvas: Image.Image, origin: tuple[int, int]) -> None:
        _draw_panel(canvas, panel, origin)

    return region_patch(_named_layer(flip), panel.box, draw)


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


def _status_texts(view: GeneratorbView) -> list[tuple[float, float, str, int, RGB, str]]:
    """Whose turn (or the result), the ply, the last move: right-aligned in the top corner."""
    y = 26.0
    texts = []
    for text, size in _status_lines(view):
        texts.append((float(WIDTH - 12), y, text, size, INK, "rm"))
        y += size * 0.6 + 18
    return texts
