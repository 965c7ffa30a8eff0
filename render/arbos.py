"""The Arbos board image (spec ``shared/specs/arbos.md``, sections 2 and 10).

:func:`render` turns an :class:`~engines.arbos.ArbosView` into a 1000 × 776 palette PNG:

* the 20 × 20 grid (36 px cells, a darker line every 5 cells to help counting) with the row
  letters ``A``–``T`` on the left and right (``A`` at the top) and the columns ``1``–``20`` on
  the top and bottom, exactly as cells are written (A2, D-A1);
* White spores as white discs with a dark outline, Black spores as black discs with a light
  rim, seeds as smaller green discs carrying a pale leaf, so a seed differs from a spore by
  size and glyph as well as by colour;
* each tree (A4) as one shape: a faint tint (light under White's trees, darker under Black's)
  spread under its spores and joined between neighbours, with a thin connector between every
  two neighbouring spores of the tree;
* the seeds linked to each player's best pair (A20) ringed in that player's colour: a black
  ring hugging the seed for Black, a white ring with dark edges just outside it for White;
* the last turn (``view.last``): every cell that received a token framed in blue, a replaced
  spore (A14) shown in the cell's corner as a small disc of its colour inside a vermillion
  "no" sign, and every cell a prune (A17) emptied crossed out in vermillion;
* at the end, each player's best pair of trees outlined with a thick band in that player's
  colour (the linked seeds keep their rings), and the result in words;
* a side panel: the phase and whose turn it is (with the seeds left to place during setup),
  a box per player (name, display name, hand, supply, trees, live score; the player to move or
  the winner boxed), the ``prune`` banner, the one-pass warning, the last turn in words and a
  key to the symbols.

Every colour that carries meaning also has a shape or words: the rings differ in position, the
frames are squares, prunes are crosses, and the panel spells out counts and the last turn.
Colours are from the Okabe–Ito set (blue, vermillion, bluish green) plus black and white.

How it stays fast (about 6 ms per busy image on a 2-core machine once the sprites exist, 2 ms
of it Pillow's PNG encoding; ``python bench/render_arbos.py``): the background, grid, edge
labels and key are drawn once per process by :func:`_base_layer`; every token, tint,
connector, ring, mark and panel text is a small supersampled sprite or mask made on first use
and pasted (a spore's sprite includes the halves of its connectors, so a tree costs two pastes
per spore); the RGB drawing is mapped onto the fixed palette :data:`PALETTE` (every colour used
plus the blends anti-aliasing makes between them) whole, since trees reach every row of a busy
board, and the palette PNG is written at zlib level 2 (:func:`render.kit.encode_png`).

Text uses Pillow's bundled font (Aileron), which covers printable ASCII plus a few Latin-1
marks, so the picture writes "3-3" with a hyphen (the font has no en dash) and player names are
fitted by :func:`render.kit.displayable_label` (other scripts drawn with the bundled Noto
faces).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from itertools import groupby

from PIL import Image, ImageDraw

from engines.arbos import (
    BLACK,
    EMPTY,
    SEED,
    SIZE,
    WHITE,
    ArbosAction,
    ArbosView,
    cell_name,
)
from engines.geometry.square import DIRECTIONS, SquareGrid
from render.kit import (
    BACKGROUND,
    INK,
    MUTED,
    RGB,
    build_palette,
    bundled_font,
    displayable_label,
    encode_png,
    is_plain,
    palette_image,
    text_stamp,
)

__all__ = ["CELL", "HEIGHT", "PALETTE", "WIDTH", "cell_centre", "describe_turn", "render"]

Point = tuple[float, float]
#: A sprite: an RGBA image (or an ``L`` mask) and the pixel offset of its anchor within it.
Sprite = tuple[Image.Image, int, int]

#: Seat numbers (seat 0 is White and acts first) and their names.
SEATS = (0, 1)
SEAT_NAMES = ("White", "Black")
#: The board value of each seat's spores.
SPORE_OF_SEAT = (WHITE, BLACK)

#: Arbos numbers cells ``row * 20 + column``, which is :class:`SquareGrid`'s ``x * size + y``
#: with ``x`` the row, so the square grid's neighbour tables (A3) serve the renderer as they are.
GRID = SquareGrid.of(SIZE)

# ---- layout, in pixels ------------------------------------------------------------------------

CELL = 36
#: The grid's top-left corner; the margins hold the edge labels.
BOARD_LEFT = 28
BOARD_TOP = 28
BOARD_SIDE = SIZE * CELL
BOARD_RIGHT = BOARD_LEFT + BOARD_SIDE
BOARD_BOTTOM = BOARD_TOP + BOARD_SIDE
WIDTH = 1000
HEIGHT = BOARD_BOTTOM + BOARD_TOP
#: The side panel: its outer left edge, the text's left and right edges.
PANEL_LEFT = BOARD_RIGHT + 32
TEXT_LEFT = PANEL_LEFT + 10
TEXT_RIGHT = WIDTH - 14
#: The second column of the counts in a player's box.
COUNT_COLUMN = TEXT_LEFT + 92
#: Where the (static) key starts; the panel's changing part ends above it.
KEY_TOP = HEIGHT - 176

SPORE_RADIUS = 14.5
SEED_RADIUS = 11.0
#: The rings around a linked seed: Black's hugs the seed, White's sits just outside it.
BLACK_RING = (11.5, 14.0)
WHITE_RING = (14.0, 17.75)
#: A tree's tint: a disc under each spore and a neck of this width between neighbours.
TINT_RADIUS = 16.5
TINT_NECK = 22.0
CONNECTOR_WIDTH = 4.0
#: How far each half of a bar between neighbours reaches past the halfway point, so that the
#: two halves overlap and leave no seam.
LINK_OVERLAP = 1.5
#: The end-of-game band around a best-pair tree: its colour, then its edge, beyond the tint.
BAND_WIDTH = 3.0
BAND_EDGE = 1.25
FRAME_WIDTH = 3.5
#: Sprites are drawn this many times larger, then shrunk, for smooth edges.
SUPERSAMPLE = 4
#: zlib level for the PNG (:func:`render.kit.encode_png`): level 2 is ~8 % faster than 3 for ~6 %
#: more bytes, and as fast as 1. The run-length strategy would nearly double the bytes here.
PNG_COMPRESS_LEVEL = 2

EDGE_LABEL_SIZE = 18

# ---- colours -----------------------------------------------------------------------------------

BOARD: RGB = (0xE6, 0xCC, 0x94)
GRID_LINE: RGB = (0xBC, 0x9E, 0x66)
#: Every fifth grid line, to help counting columns and rows.
GRID_MAJOR: RGB = (0x94, 0x77, 0x45)
WHITE_FILL: RGB = (0xFD, 0xFC, 0xF8)
BLACK_FILL: RGB = (0x2A, 0x2A, 0x2E)
BLACK_RIM: RGB = (0xD2, 0xD2, 0xD2)
#: Seeds: Okabe–Ito bluish green, a dark edge, and a pale leaf.
SEED_FILL: RGB = (0x00, 0x9E, 0x73)
SEED_EDGE: RGB = (0x00, 0x5A, 0x41)
LEAF: RGB = (0xE2, 0xF5, 0xD6)
#: Per seat (White, Black): the tint under a tree, the connectors between its spores.
TREE_TINT: tuple[RGB, RGB] = ((0xF6, 0xEC, 0xD0), (0xC2, 0xA3, 0x6A))
CONNECTOR: tuple[RGB, RGB] = ((0x86, 0x80, 0x74), (0x3E, 0x38, 0x2E))
#: Per seat: the colour of its marks (rings, end-of-game band) and of their edge.
MARK: tuple[RGB, RGB] = (WHITE_FILL, INK)
MARK_EDGE: tuple[RGB, RGB] = (INK, BLACK_RIM)
#: The last turn's frames (Okabe–Ito blue) and prune crosses (Okabe–Ito vermillion).
LAST: RGB = (0x00, 0x72, 0xB2)
PRUNED: RGB = (0xD5, 0x5E, 0x00)
#: Panel fills: the box of the player to move or the winner, the prune banner, the pass note.
ACTIVE_TINT: RGB = (0xFF, 0xEF, 0xC4)
BANNER_TINT: RGB = (0xFB, 0xDF, 0xCB)
NOTE_TINT: RGB = (0xDD, 0xEB, 0xF5)

_BASE_COLOURS: tuple[RGB, ...] = (
    BACKGROUND, INK, MUTED, BOARD, GRID_LINE, GRID_MAJOR, WHITE_FILL, BLACK_FILL, BLACK_RIM,
    SEED_FILL, SEED_EDGE, LEAF, *TREE_TINT, *CONNECTOR, LAST, PRUNED, ACTIVE_TINT, BANNER_TINT,
    NOTE_TINT,
)  # fmt: skip
#: What lies under a token, a ring or a mark on the board.
_GROUNDS: tuple[RGB, ...] = (BOARD, *TREE_TINT)
#: Foreground/background pairs whose blends anti-aliasing produces; each gets RAMP_STEPS − 1
#: palette entries. Pixels of other blends map to the nearest palette colour.
_RAMP_PAIRS: tuple[tuple[RGB, RGB], ...] = (
    *((INK, bg) for bg in (BACKGROUND, ACTIVE_TINT, BANNER_TINT, NOTE_TINT, *_GROUNDS)),
    (INK, WHITE_FILL),
    (MUTED, BACKGROUND),
    *((BLACK_RIM, bg) for bg in (*_GROUNDS, BACKGROUND, ACTIVE_TINT, BLACK_FILL, INK)),
    *((SEED_EDGE, bg) for bg in (*_GROUNDS, BACKGROUND, SEED_FILL, INK)),
    (LEAF, SEED_FILL),
    *((tint, BOARD) for tint in TREE_TINT),
    *((CONNECTOR[seat], TREE_TINT[seat]) for seat in SEATS),
    *((WHITE_FILL, bg) for bg in (*_GROUNDS, SEED_FILL)),
    *((LAST, bg) for bg in (*_GROUNDS, WHITE_FILL, BLACK_FILL, SEED_FILL, BACKGROUND)),
    *((PRUNED, bg) for bg in (*_GROUNDS, BACKGROUND, WHITE_FILL, BLACK_FILL, SEED_FILL)),
    (PRUNED, BANNER_TINT),
)
RAMP_STEPS = 6


#: Every colour the PNG can contain, background first.
PALETTE: tuple[RGB, ...] = build_palette(_BASE_COLOURS, _RAMP_PAIRS, RAMP_STEPS)


# ---- text --------------------------------------------------------------------------------------


def _text(
    image: Image.Image,
    xy: Point,
    text: str,
    size: int,
    *,
    fill: RGB = INK,
    anchor: str = "lm",
    bold: bool = False,
) -> None:
    """Write ``text`` at ``xy`` (placed by the Pillow text ``anchor``); ``bold`` thickens the
    regular face with a one-pixel stroke."""
    if text:
        _stamp(image, fill, _text_mask(text, size, anchor, bold), *xy)


@lru_cache(maxsize=4096)
def _text_mask(text: str, size: int, anchor: str, bold: bool) -> Sprite:
    """``text`` as an anti-aliased mask anchored at its ``anchor`` point (cached: most panel
    texts, such as ``"Supply 69"``, come back image after image)."""
    if not is_plain(text):  # a name in another script: fallback faces (render.kit)
        mask, x, y = text_stamp(text, size, anchor, bold)
        return mask, -x, -y
    font, stroke = bundled_font(size), 1 if bold else 0
    left, top, right, bottom = (
        round(v) for v in font.getbbox(text, anchor=anchor, stroke_width=stroke)
    )
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=font, fill=255, anchor=anchor,
                              stroke_width=stroke, stroke_fill=255)  # fmt: skip
    return mask, -left, -top


def _wrap(text: str, size: int, width: float) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` px (a single word that is
    wider stays on its own line)."""
    font = bundled_font(size)
    lines: list[str] = []
    for word in text.split():
        if lines and font.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


# ---- geometry: cells to pixels -----------------------------------------------------------------


def cell_centre(cell: int) -> tuple[int, int]:
    """The pixel centre of ``cell`` (0–399, reading order): the corner shared by its four
    middle pixels, so a sprite anchored there sits symmetrically in the cell."""
    row, column = divmod(cell, SIZE)
    return (BOARD_LEFT + column * CELL + CELL // 2, BOARD_TOP + row * CELL + CELL // 2)


# ---- sprites: drawn once, large, then shrunk for smooth edges ---------------------------------


#: A fill for :class:`_Pen`: an RGB(A) colour, or 0–255 on a mask.
Fill = tuple[int, ...] | int
TRANSPARENT = (0, 0, 0, 0)


class _Pen:
    """Draws on a transparent supersampled canvas around an anchor at ``(0, 0)``.

    ``reach`` is the half-side of the square the drawing fits in, or a box ``(left, top,
    right, bottom)``; coordinates are in final pixels from the anchor, so sprite code reads
    like ordinary drawing code. ``mode`` ``"RGBA"`` makes a coloured sprite and ``"L"`` a mask
    (draw with 255, erase with 0).
    """

    def __init__(
        self, reach: float | tuple[float, float, float, float], mode: str = "RGBA"
    ) -> None:
        if isinstance(reach, tuple):
            left, top, right, bottom = reach
        else:
            left, top, right, bottom = -reach, -reach, reach, reach
        self.left = math.floor(left) - 1
        self.top = math.floor(top) - 1
        width, height = math.ceil(right) + 1 - self.left, math.ceil(bottom) + 1 - self.top
        self.image = Image.new(mode, (width * SUPERSAMPLE, height * SUPERSAMPLE), 0)
        self.draw = ImageDraw.Draw(self.image)

    def xy(self, x: float, y: float) -> Point:
        """Supersampled canvas coordinates of the point ``(x, y)`` px from the anchor."""
        return ((x - self.left) * SUPERSAMPLE, (y - self.top) * SUPERSAMPLE)

    def circle(self, x: float, y: float, r: float, fill: Fill) -> None:
        (x0, y0), (x1, y1) = self.xy(x - r, y - r), self.xy(x + r, y + r)
        # Pillow's box is inclusive: the last supersampled pixel inside is x1 - 1.
        self.draw.ellipse((x0, y0, x1 - 1, y1 - 1), fill=fill)

    def polygon(self, points: Iterable[Point], fill: Fill) -> None:
        self.draw.polygon([self.xy(x, y) for x, y in points], fill=fill)

    def bar(self, start: Point, end: Point, width: float, fill: Fill) -> None:
        """A straight bar of ``width`` px from ``start`` to ``end``, cut square at both."""
        dx, dy = end[0] - start[0], end[1] - start[1]
        length = math.hypot(dx, dy)
        nx, ny = -dy / length * width / 2, dx / length * width / 2
        corners = [(start[0] + nx, start[1] + ny), (end[0] + nx, end[1] + ny),
                   (end[0] - nx, end[1] - ny), (start[0] - nx, start[1] - ny)]  # fmt: skip
        self.polygon(corners, fill)

    def square(self, half: float, fill: Fill) -> None:
        self.polygon([(-half, -half), (half, -half), (half, half), (-half, half)], fill)

    def sprite(self) -> Sprite:
        small = self.image.reduce(SUPERSAMPLE)
        return small, -self.left, -self.top


def _paste(canvas: Image.Image, sprite: Sprite, x: float, y: float) -> None:
    """Paste an RGBA sprite with its anchor at ``(x, y)``."""
    image, ax, ay = sprite
    canvas.paste(image, (round(x) - ax, round(y) - ay), image)


def _stamp(canvas: Image.Image, colour: RGB, mask: Sprite, x: float, y: float) -> None:
    """Paint ``colour`` through an ``L`` mask sprite anchored at ``(x, y)``."""
    image, ax, ay = mask
    left, top = round(x) - ax, round(y) - ay
    canvas.paste(colour, (left, top, left + image.width, top + image.height), image)


def _half_links(links: int, width: float) -> list[list[Point]]:
    """The corners of a bar ``width`` px wide from a cell's centre towards each neighbour in
    ``links`` (bit ``d`` set: the neighbour in ``DIRECTIONS[d]``), reaching just past the
    point halfway, where the neighbour's own half bar meets it."""
    bars = []
    for d, (d_row, d_column) in enumerate(DIRECTIONS):
        if links >> d & 1:
            unit = math.hypot(d_row, d_column)
            ux, uy = d_column / unit, d_row / unit
            length = unit * CELL / 2 + LINK_OVERLAP
            nx, ny = -uy * width / 2, ux * width / 2
            end = (ux * length, uy * length)
            bars.append([(nx, ny), (end[0] + nx, end[1] + ny), (end[0] - nx, end[1] - ny),
                         (-nx, -ny)])  # fmt: skip
    return bars


def _linked_pen(
    links: int, radius: float, width: float, mode: str
) -> tuple[_Pen, list[list[Point]]]:
    """A pen big enough for a disc of ``radius`` and the half bars of :func:`_half_links`."""
    bars = _half_links(links, width)
    corners = [point for bar in bars for point in bar]
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    box = (min([-radius, *xs]), min([-radius, *ys]), max([radius, *xs]), max([radius, *ys]))
    return _Pen(box, mode), bars


@cache
def _spore_sprite(seat: int, links: int = 0, radius: float = SPORE_RADIUS) -> Sprite:
    """A spore with the connectors to its tree's neighbours in ``links`` (see
    :func:`_half_links`): White's a white disc with a dark outline, Black's a black disc with a
    light rim."""
    pen, bars = _linked_pen(links, radius, CONNECTOR_WIDTH, "RGBA")
    for bar in bars:
        pen.polygon(bar, CONNECTOR[seat])
    if seat == 0:
        pen.circle(0, 0, radius, INK)
        pen.circle(0, 0, radius - max(1.25, radius / 7), WHITE_FILL)
    else:
        pen.circle(0, 0, radius, BLACK_RIM)
        pen.circle(0, 0, radius - max(1.0, radius / 10), BLACK_FILL)
    return pen.sprite()


@cache
def _seed_sprite(radius: float = SEED_RADIUS) -> Sprite:
    """A seed: a green disc with a dark edge and a pale leaf across it (lower left to upper
    right), so that it differs from a spore by size and glyph, not only by colour."""
    pen = _Pen(radius)
    pen.circle(0, 0, radius, SEED_EDGE)
    pen.circle(0, 0, radius - max(1.0, radius / 8), SEED_FILL)
    length, width = radius * 0.75, radius * 0.38
    # A lens y = ±w·(1 − t²), x = l·t for t in −1…1: pointed at both tips.
    steps = [k / 8 for k in range(-8, 9)]
    lens = [(length * t, width * (1 - t * t)) for t in steps]
    lens += [(x, -y) for x, y in reversed(lens)]

    def turned(point: Point) -> Point:  # 45° anticlockwise, as seen (y grows downwards)
        x, y = point
        c = math.sqrt(0.5)
        return ((x + y) * c, (y - x) * c)

    pen.polygon([turned(p) for p in lens], LEAF)
    pen.bar(turned((-length, 0)), turned((length * 0.55, 0)), max(0.8, radius / 12), SEED_FILL)
    return pen.sprite()


@cache
def _ring_sprite(seat: int, scale: float = 1.0) -> Sprite:
    """The ring around a seed linked to ``seat``'s best pair (A20).

    Black's is a black ring hugging the seed; White's a white ring with dark edges just
    outside Black's place, so a seed linked to both pairs wears both, one inside the other.
    """
    inner, outer = (r * scale for r in (WHITE_RING if seat == 0 else BLACK_RING))
    pen = _Pen(outer)
    pen.circle(0, 0, outer, INK)
    if seat == 0:  # a white band between two thin dark edges
        edge = 0.9 * scale
        pen.circle(0, 0, outer - edge, WHITE_FILL)
        pen.circle(0, 0, inner + edge, INK)
    pen.circle(0, 0, inner, TRANSPARENT)
    return pen.sprite()


@cache
def _replaced_sprite(colour: int) -> Sprite:
    """The corner badge of a replaced spore (A14): a small spore of the colour sent back
    inside a vermillion "no" sign."""
    pen = _Pen(9)
    pen.circle(0, 0, 9, PRUNED)
    pen.circle(0, 0, 7, TRANSPARENT)
    if colour == WHITE:
        pen.circle(0, 0, 6.5, INK)
        pen.circle(0, 0, 5.25, WHITE_FILL)
    else:
        pen.circle(0, 0, 6.5, BLACK_RIM)
        pen.circle(0, 0, 5.5, BLACK_FILL)
    pen.bar((-6, 6), (6, -6), 2.5, PRUNED)
    return pen.sprite()


@cache
def _tree_icon_sprite() -> Sprite:
    """The key's tree: two small White spores on a tint, joined by a connector."""
    pen = _Pen((-17, -9, 17, 9))
    for x in (-8, 8):
        pen.circle(x, 0, 8.5, TREE_TINT[0])
    pen.bar((-8, 0), (8, 0), 17, TREE_TINT[0])
    pen.bar((-8, 0), (8, 0), 3, CONNECTOR[0])
    for x in (-8, 8):
        pen.circle(x, 0, 7, INK)
        pen.circle(x, 0, 5.75, WHITE_FILL)
    return pen.sprite()


@cache
def _shape_mask(links: int, radius: float, width: float) -> Sprite:
    """A cell's part of a tree's shape: a disc of ``radius`` joined by bars ``width`` px wide
    towards its tree's neighbours in ``links`` (see :func:`_half_links`)."""
    pen, bars = _linked_pen(links, radius, width, "L")
    for bar in bars:
        pen.polygon(bar, 255)
    pen.circle(0, 0, radius, 255)
    return pen.sprite()


@cache
def _frame_mask(half: float = CELL / 2 - 0.5, width: float = FRAME_WIDTH) -> Sprite:
    """A square frame of outer half-side ``half``: a cell that received a token last turn."""
    pen = _Pen(half, "L")
    pen.square(half, 255)
    pen.square(half - width, 0)
    return pen.sprite()


@cache
def _cross_mask(arm: float = 11.0, width: float = 4.5) -> Sprite:
    """A diagonal cross: a cell that a prune (A17) emptied."""
    pen = _Pen(arm + width, "L")
    pen.bar((-arm, -arm), (arm, arm), width, 255)
    pen.bar((-arm, arm), (arm, -arm), width, 255)
    return pen.sprite()


# ---- the cached layer --------------------------------------------------------------------------


@cache
def _base_layer() -> Image.Image:
    """Everything that never depends on the view (RGB, cached): background, grid, edge labels
    and the key. Callers copy it."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((BOARD_LEFT, BOARD_TOP, BOARD_RIGHT, BOARD_BOTTOM), fill=BOARD)
    for k in range(SIZE + 1):
        colour = GRID_MAJOR if k % 5 == 0 else GRID_LINE
        offset = k * CELL
        draw.line((BOARD_LEFT + offset, BOARD_TOP, BOARD_LEFT + offset, BOARD_BOTTOM), colour)
        draw.line((BOARD_LEFT, BOARD_TOP + offset, BOARD_RIGHT, BOARD_TOP + offset), colour)
    _draw_edge_labels(image)
    _draw_key(image, draw)
    return image


def _draw_edge_labels(image: Image.Image) -> None:
    """Row letters left and right of the grid, column numbers above and below (A2)."""
    gap = BOARD_LEFT // 2
    for k in range(SIZE):
        letter, number = cell_name(k * SIZE)[0], str(k + 1)
        middle = BOARD_TOP + k * CELL + CELL // 2
        for x in (BOARD_LEFT - gap, BOARD_RIGHT + gap):
            _text(image, (x, middle), letter, EDGE_LABEL_SIZE, anchor="mm")
        middle = BOARD_LEFT + k * CELL + CELL // 2
        for y in (BOARD_TOP - gap, BOARD_BOTTOM + gap):
            _text(image, (middle, y), number, EDGE_LABEL_SIZE, anchor="mm")


KEY_ROW = 25


def _draw_key(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    """The key to the board's symbols, at the bottom of the panel: for each row its words and
    its icon, as sprites (pasted) or masks with their colour (stamped)."""
    draw.line((PANEL_LEFT, KEY_TOP - 10, WIDTH - 8, KEY_TOP - 10), fill=BLACK_RIM, width=1)
    small_seed = _seed_sprite(SEED_RADIUS * 0.6)
    rows: list[tuple[str, list[tuple[Sprite, RGB | None]]]] = [
        ("Seed", [(_seed_sprite(8.0), None)]),
        ("Tree (joined spores)", [(_tree_icon_sprite(), None)]),
        ("Linked: White's pair", [(small_seed, None), (_ring_sprite(0, 0.6), None)]),
        ("Linked: Black's pair", [(small_seed, None), (_ring_sprite(1, 0.6), None)]),
        ("Placed last turn", [(_frame_mask(10.5, 2.5), LAST)]),
        ("Spore replaced", [(_replaced_sprite(BLACK), None)]),
        ("Pruned last turn", [(_cross_mask(7.0, 3.5), PRUNED)]),
    ]
    icon_x, text_x = TEXT_LEFT + 13, TEXT_LEFT + 34
    for index, (label, icons) in enumerate(rows):
        y = KEY_TOP + 4 + index * KEY_ROW
        _text(image, (text_x, y), label, 16)
        for sprite, colour in icons:
            if colour is None:
                _paste(image, sprite, icon_x, y)
            else:
                _stamp(image, colour, sprite, icon_x, y)


# ---- one image ---------------------------------------------------------------------------------


def render(
    view: ArbosView, *, seat_labels: Sequence[str] | None = None, perspective: int | None = None
) -> bytes:
    """Draw ``view`` as a 1000 × 776 palette PNG and return its bytes (spec section 10).

    ``seat_labels`` are the players' display names, White's first, shown under the seat names
    (folded to the bundled font by :func:`render.kit.displayable_label`). ``perspective``
    is accepted for the common renderer signature and ignored: Arbos has no side of the board
    that belongs to a player, so the board is never turned. The same arguments always give the
    same bytes.

    Raises ``TypeError`` if ``view`` is not an :class:`ArbosView` or ``seat_labels`` is a
    single string, and ``ValueError`` if the view is malformed (see :func:`_check`) or
    ``seat_labels`` does not hold two names.
    """
    del perspective  # Arbos is never turned (see above).
    if not isinstance(view, ArbosView):
        raise TypeError(f"expected an ArbosView, not {type(view).__name__}")
    if isinstance(seat_labels, str):
        raise TypeError("seat_labels must be a sequence of two names, not one string")
    if seat_labels is not None and len(seat_labels) != 2:
        raise ValueError(f"seat_labels must hold 2 names, not {len(seat_labels)}")
    _check(view)

    image = _base_layer().copy()
    links = [[_tree_links(tree) for tree in view.trees[seat]] for seat in SEATS]
    if view.outcome is not None:  # the best pairs' bands, under the tints
        for seat in SEATS:
            for index in view.best_pair[seat]:
                _draw_band(image, seat, links[seat][index])
    for seat in SEATS:
        for tree in links[seat]:
            _draw_shapes(image, tree, TREE_TINT[seat], TINT_RADIUS, TINT_NECK)
    for seat in SEATS:
        for tree in links[seat]:
            for cell, bits in tree:
                _paste(image, _spore_sprite(seat, bits), *cell_centre(cell))
    for cell, value in enumerate(view.board):
        if value == SEED:
            _paste(image, _seed_sprite(), *cell_centre(cell))
    for seat in SEATS:
        for cell in view.linked_seeds[seat]:
            _paste(image, _ring_sprite(seat), *cell_centre(cell))
    _draw_last_turn(image, view.last)
    _draw_panel(image, ImageDraw.Draw(image), view, seat_labels)
    # Mapped onto the palette whole: trees reach every row of a busy board, so composing on
    # the palette (render.kit.Composer) would find no smaller box worth mapping.
    paletted = image.quantize(palette=palette_image(PALETTE), dither=Image.Dither.NONE)
    return encode_png(paletted, PNG_COMPRESS_LEVEL)


#: ``kind`` values of :class:`ArbosAction`.
ACTION_KINDS = frozenset({"setup", "spore", "seed", "replace", "double", "pass", "prune"})
PHASES = frozenset({"setup", "opening", "play"})


def _check(view: ArbosView) -> None:
    """Raise ``ValueError`` unless ``view`` is drawable and consistent with itself.

    Checked: a board of 400 values in EMPTY/WHITE/BLACK/SEED; a known phase; seats (to move,
    winners, actions) that are 0, 1 or ``None`` where allowed (an action only if it is a drawn
    setup seed); non-negative ``(White, Black)``
    count pairs; passes 0–2; a prune only with a player to move; each seat's trees splitting
    exactly that seat's spores; best pairs of at most 2 distinct tree indices; linked seeds
    on seeds; the last turn's actions of a known kind, on cells of the board.
    """
    board = view.board
    cells = range(SIZE * SIZE)
    if len(board) != len(cells) or any(v not in (EMPTY, WHITE, BLACK, SEED) for v in board):
        raise ValueError("an Arbos board is 400 values, each EMPTY, WHITE, BLACK or SEED")
    if view.phase not in PHASES:
        raise ValueError(f"unknown phase {view.phase!r}")
    if view.to_move not in (None, *SEATS):
        raise ValueError(f"Arbos seats are 0 and 1, not {view.to_move!r}")
    for name in ("setup_left", "hands", "supply", "scores"):
        pair = getattr(view, name)
        if len(pair) != 2 or any(not isinstance(n, int) or n < 0 for n in pair):
            raise ValueError(f"{name} must be two counts (White, Black), not {pair!r}")
    if not 0 <= view.passes <= 2:
        raise ValueError(f"passes is 0, 1 or 2, not {view.passes}")
    if view.prune < 0 or (view.prune > 0 and view.to_move is None):
        raise ValueError("a prune is due only from the player to move")
    if not len(view.trees) == len(view.best_pair) == len(view.linked_seeds) == 2:
        raise ValueError("trees, best_pair and linked_seeds hold one entry per seat")
    for seat in SEATS:
        trees, colour = view.trees[seat], SPORE_OF_SEAT[seat]
        in_trees = [cell for tree in trees for cell in tree]
        spores = [cell for cell in cells if board[cell] == colour]
        if any(not tree for tree in trees) or sorted(in_trees) != spores:
            raise ValueError(f"{SEAT_NAMES[seat]}'s trees must split its spores exactly")
        pair = view.best_pair[seat]
        if (
            len(pair) > 2
            or len(set(pair)) != len(pair)
            or any(not 0 <= index < len(trees) for index in pair)
        ):
            raise ValueError(f"{SEAT_NAMES[seat]}'s best pair {pair!r} does not index its trees")
        if any(cell not in cells or board[cell] != SEED for cell in view.linked_seeds[seat]):
            raise ValueError(f"{SEAT_NAMES[seat]}'s linked seeds must be seeds on the board")
    if view.outcome is not None and any(seat not in SEATS for seat in view.outcome.winners):
        raise ValueError(f"Arbos seats are 0 and 1: {view.outcome}")
    for action in view.last:
        if action.kind not in ACTION_KINDS or action.seat not in (None, *SEATS):
            raise ValueError(f"not an Arbos action: {action}")
        if action.seat is None and action.kind != "setup":
            raise ValueError(f"only a drawn setup seed has no seat: {action}")
        if any(cell not in cells for cell in (*action.placed, *action.removed)):
            raise ValueError(f"the action names a cell off the board: {action}")
        if action.replaced not in (None, WHITE, BLACK):
            raise ValueError(f"a replaced spore is WHITE or BLACK: {action}")


def _tree_links(tree: Sequence[int]) -> list[tuple[int, int]]:
    """Each cell of ``tree`` with the bit set of the directions in which its neighbour (A3) is
    in the tree too (bit ``d`` for ``DIRECTIONS[d]``)."""
    members = set(tree)
    steps = GRID.step
    return [(cell, sum(1 << d for d, n in enumerate(steps[cell]) if n in members)) for cell in tree]


def _draw_shapes(
    image: Image.Image, links: Sequence[tuple[int, int]], colour: RGB, radius: float, width: float
) -> None:
    """One smooth shape covering a tree: a disc on each cell and bars between neighbours."""
    for cell, bits in links:
        _stamp(image, colour, _shape_mask(bits, radius, width), *cell_centre(cell))


def _draw_band(image: Image.Image, seat: int, links: Sequence[tuple[int, int]]) -> None:
    """The end-of-game band around a best-pair tree, just outside where its tint goes: the
    seat's mark colour with a thin edge of the contrasting one."""
    for extra, colour in ((BAND_WIDTH + BAND_EDGE, MARK_EDGE[seat]), (BAND_WIDTH, MARK[seat])):
        _draw_shapes(image, links, colour, TINT_RADIUS + extra, TINT_NECK + 2 * extra)


def _draw_last_turn(image: Image.Image, last: Sequence[ArbosAction]) -> None:
    """Frames on the cells that received a token, a badge on a replaced spore's cell, and a
    cross on every cell a prune emptied."""
    corner = CELL / 2 - 6
    for action in last:
        for cell in action.removed:
            _stamp(image, PRUNED, _cross_mask(), *cell_centre(cell))
        for cell in action.placed:
            _stamp(image, LAST, _frame_mask(), *cell_centre(cell))
            if action.replaced is not None:
                x, y = cell_centre(cell)
                _paste(image, _replaced_sprite(action.replaced), x + corner, y - corner)


# ---- words -------------------------------------------------------------------------------------


def _pruned_trees(removed: Iterable[int]) -> list[int]:
    """The first cell (reading order) of each group of neighbouring cells in ``removed``.

    A prune removes whole trees of one player, and two trees of one player never touch, so the
    groups are exactly the pruned trees, and these cells are how spec section 6 writes them.
    """
    left = set(removed)
    firsts = []
    for start in sorted(left):
        if start not in left:
            continue
        firsts.append(start)
        stack = [start]
        left.discard(start)
        while stack:
            for neighbour in GRID.step[stack.pop()]:
                if neighbour in left:
                    left.discard(neighbour)
                    stack.append(neighbour)
    return firsts


def _describe_action(action: ArbosAction) -> str:
    """One action in words (see :func:`describe_turn`)."""
    cells = _pruned_trees(action.removed) if action.kind == "prune" else sorted(action.placed)
    names = " ".join(cell_name(cell) for cell in cells)
    if action.seat is None:  # only a drawn setup seed has no seat (see _check)
        return f"Seed drawn at {names}"
    word = "seed" if action.kind == "setup" else action.kind
    return f"{SEAT_NAMES[action.seat]}: {word} {names}".rstrip()


def describe_turn(last: Sequence[ArbosAction]) -> list[str]:
    """The last turn in words, one line per action, e.g. ``["Black: prune C4 J5", "Black:
    replace K6"]``.

    Moves follow spec section 6 (cells in reading order; a prune names each tree by its first
    cell) with the mover in front and the action's word spelled out (``spore K5``). Several
    seeds drawn in one go (a random setup) make one line, ``"Setup drew 20 seeds"``.
    """
    lines: list[str] = []
    for drawn, group in groupby(last, key=lambda a: a.kind == "setup" and a.seat is None):
        actions = list(group)
        if drawn and len(actions) > 1:
            lines.append(f"Setup drew {len(actions)} seeds")
        else:
            lines += [_describe_action(action) for action in actions]
    return lines


#: How each termination of spec section 8 is told under the result.
TERMINATIONS = {
    "passes": "Two passes in a row",
    "no_moves": "Neither player can act",
    "resignation": "{loser} resigned",
    "agreement": "Agreed by both players",
}

#: A line of the panel: text, font size in px, bold.
Line = tuple[str, int, bool]
#: The status title's size: "White wins 20-19" (scores are at most 20, the seeds) must fit.
TITLE_SIZE = 24


def _status_lines(view: ArbosView) -> list[Line]:
    """The top of the panel: the result, or the phase and whose turn it is."""
    outcome = view.outcome
    if outcome is not None:
        if not outcome.winners:
            # Arbos' rules have no draw (A21); the bot's draw by agreement is one.
            reason = TERMINATIONS.get(outcome.termination, outcome.termination.replace("_", " "))
            return [("Draw", TITLE_SIZE, True), (reason.format(loser=""), 18, False)]
        winner = outcome.winners[0]
        loser = 1 - winner
        title = f"{SEAT_NAMES[winner]} wins"
        lines: list[Line] = []
        if outcome.scores is not None:
            won, lost = (round(outcome.scores.get(seat, 0)) for seat in (winner, loser))
            title += f" {won}-{lost}"
            if won == lost and winner == 1:
                lines.append(("(ties go to Black)", 18, False))
        reason = TERMINATIONS.get(outcome.termination, outcome.termination.replace("_", " "))
        lines.append((reason.format(loser=SEAT_NAMES[loser]), 18, False))
        return [(title, TITLE_SIZE, True), *lines]
    mover = SEAT_NAMES[view.to_move] if view.to_move is not None else None
    if view.phase == "setup":
        left = sum(view.setup_left)
        turn = f"{mover} places a seed" if mover else "Drawing random seeds"
        return [
            ("Setup", TITLE_SIZE, True),
            (turn, 18, False),
            (f"{left} seeds left to place", 18, False),
        ]
    if view.phase == "opening":
        lines = [("Opening", TITLE_SIZE, True)]
        if mover:
            lines += [(f"{mover} to move", 18, False), ("and must place a spore", 18, False)]
        return lines
    return [("Play", TITLE_SIZE, True), *([(f"{mover} to move", 18, False)] if mover else [])]


STATUS_TOP = 24
BOX_TOP = 106
BOX_HEIGHT = 112
BOX_GAP = 10


def _draw_panel(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: ArbosView,
    seat_labels: Sequence[str] | None,
) -> None:
    """The side panel above the key: status, a box per player, the prune banner or pass note,
    and the last turn in words."""
    y = float(STATUS_TOP)
    for index, (text, size, bold) in enumerate(_status_lines(view)):
        if index == 1:
            y += 6
        _text(image, (TEXT_LEFT, y), text, _fitting_size(text, size, bold), bold=bold)
        y += size + 6
    for seat in SEATS:
        _draw_player(image, draw, view, seat, seat_labels, BOX_TOP + seat * (BOX_HEIGHT + BOX_GAP))
    y = BOX_TOP + 2 * (BOX_HEIGHT + BOX_GAP) + 4
    if view.prune > 0 and view.to_move is not None and view.outcome is None:
        trees = f"{view.prune} tree{'s' if view.prune != 1 else ''}"
        lines = [f"{SEAT_NAMES[view.to_move]} must prune", trees]
        y = _draw_notice(image, draw, y, lines, 20, BANNER_TINT, PRUNED, bold=True)
    if view.passes == 1 and view.outcome is None:
        lines = _wrap("1 pass - another pass ends the game", 18, TEXT_RIGHT - TEXT_LEFT - 8)
        y = _draw_notice(image, draw, y, lines, 18, NOTE_TINT, LAST, bold=False)
    if view.last:
        _text(image, (TEXT_LEFT, y + 10), "Last turn", 16, fill=MUTED)
        y += 32
        lines = [
            wrapped
            for line in describe_turn(view.last)
            for wrapped in _wrap(line, 17, TEXT_RIGHT - TEXT_LEFT)
        ]
        room = int((KEY_TOP - 22 - y) // 22) + 1
        if len(lines) > room:
            lines = [*lines[: room - 1], "…"]
        for line in lines:
            _text(image, (TEXT_LEFT, y), line, 17)
            y += 22


def _fitting_size(text: str, size: int, bold: bool) -> int:
    """``size``, or the largest smaller font size (down to 12 px) at which ``text`` fits the
    panel's width: a safety net for unforeseen words such as an unknown termination name."""
    width = TEXT_RIGHT - TEXT_LEFT - (2 if bold else 0)
    while size > 12 and bundled_font(size).getlength(text) > width:
        size -= 1
    return size


def _draw_notice(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    top: float,
    lines: Sequence[str],
    size: int,
    fill: RGB,
    edge: RGB,
    *,
    bold: bool,
) -> float:
    """A boxed message across the panel; returns the y just below it."""
    step = size + 6
    bottom = top + 12 + step * len(lines)
    draw.rounded_rectangle((PANEL_LEFT, top, WIDTH - 8, bottom), radius=8, fill=fill,
                           outline=edge, width=3)  # fmt: skip
    y = top + 6 + step / 2
    for line in lines:
        _text(image, (TEXT_LEFT + 2, y), line, size, bold=bold)
        y += step
    return bottom + 8


def _draw_player(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: ArbosView,
    seat: int,
    seat_labels: Sequence[str] | None,
    top: int,
) -> None:
    """A player's box: spore, seat name, display name and counts; framed and tinted for the
    player to move or the winner."""
    active = view.to_move == seat and view.outcome is None
    won = view.outcome is not None and seat in view.outcome.winners
    box = (PANEL_LEFT, top, WIDTH - 8, top + BOX_HEIGHT)
    if active or won:
        draw.rounded_rectangle(box, radius=8, fill=ACTIVE_TINT, outline=INK, width=2)
    else:
        draw.rounded_rectangle(box, radius=8, outline=BLACK_RIM, width=1)
    _paste(image, _spore_sprite(seat, radius=12.0), TEXT_LEFT + 14, top + 21)
    _text(image, (TEXT_LEFT + 34, top + 21), SEAT_NAMES[seat], 22, bold=True)
    tag = "TO MOVE" if active else "WINNER" if won else ""
    if tag:
        _text(image, (TEXT_RIGHT - 4, top + 21), tag, 15, anchor="rm")
    if seat_labels is not None:
        label = displayable_label(seat_labels[seat], TEXT_RIGHT - TEXT_LEFT - 8, 17)
        _text(image, (TEXT_LEFT + 4, top + 46), label, 17)
    last = (f"To place {view.setup_left[seat]}" if view.phase == "setup"
            else f"Score {view.scores[seat]}")  # fmt: skip
    counts = ((f"Hand {view.hands[seat]}", f"Supply {view.supply[seat]}"),
              (f"Trees {len(view.trees[seat])}", last))  # fmt: skip
    for row, (left, right) in enumerate(counts):
        y = top + 71 + row * 24
        _text(image, (TEXT_LEFT + 4, y), left, 19)
        _text(image, (COUNT_COLUMN, y), right, 19)
