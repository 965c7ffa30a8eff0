"""The Generator board image (spec ``shared/specs/generator.md``, "What the board image must show").

:func:`render` turns a :class:`~engines.generator.GeneratorView` into a 1340 × 1000 palette PNG:
a 1000 × 1000 board on the left and a 340 px panel on the right.

The board is the spec's fractal layout, :data:`engines.geometry.gryb.POSITION` only scaled
(H = :data:`UNIT` = 250 px, head node at the centre, the 256 leaves on an even 62.5 px grid):

* every quadrangle as a square outline through its four nodes (thicker on higher levels), a
  thin line from each node to its parent, and the head node at the centre labelled ``GRYB``;
* a disc per node, shrinking with depth, tinted and rimmed in the node's colour and carrying
  its name: the full name on levels 1–2, the last letter on levels 3–4 (the rest of the name is
  the path to the centre). The four start nodes are the largest discs; each one in play has its
  seat's name underneath (``G  GREEN``), or above it where a node's full-name tag sits below;
* every stack as a small column of pyramids: each a triangle in its owner's hue with a dark
  outline, S < M < L in size, each smaller one standing on the one below, and the top one
  carrying the owner's letter, so ownership never depends on colour alone;
* a white tag with the full node name under every occupied or reachable node of levels 3–4 and
  under occupied nodes of levels 1–2 (whose disc the stack hides) other than the start nodes
  in play, which have their seat's label, so the names to type can be read without tracing
  the path;
* the last action: square frames on its origin and destination and an arrow between them; an
  entry gets a frame and a "+" badge on the start node; a capture gets a card with a black "x"
  and the captured stack beside the destination;
* the nodes the player to act can reach with the roll (``view.reachable``) ringed in pink. The
  last action's marks are squares and the reachable marks are rings, so shape alone tells them
  apart;
* once a power coupling has won, its three nodes (``view.coupling``) ringed thickly in the
  winner's dark hue, which the panel's result names ("Power coupling, ringed").

The panel lists each seat (its pyramid, colour, player name, stash as S/M/L counts, and
"TO ACT", "WINNER" or "resigned"), then the result, or whose turn it is with the die (a big face
in the rolled colour with its letter, or "?" and "rolling..." while the roll is pending) and
"EXTRA TURN" after a capture (GEN-11); the turns played (COUNT) and the limit; the last action
in the spec's notation; and a key to the symbols.

The spec's layout (G top-left, R top-right, Y bottom-right, B bottom-left) is the fixed
picture. With ``perspective`` (a seat) the board is turned by quarter turns so that the seat's
start corner is at the bottom left, where B is in the fixed picture: every node, its name, the
links and quadrangles turn with it, while text (node names, tags, the head node's ``GRYB``)
stays upright and the panel does not change.

Speed (``python bench/render_generator.py``; about 5 ms per busy image, 3.4 ms of it Pillow's
PNG encoding of 1.34 million pixels) comes from the habits of :mod:`render.generatorb`: the
board without pieces (lines, 341 discs and their names, the key) is drawn once per process,
supersampled for smooth edges, and mapped onto the fixed :data:`PALETTE` once; stacks, plates,
tags, rings, frames, badges and the die are small cached sprites, and panel texts cached masks,
drawn in RGB on a copy of the board; only the boxes drawn in are mapped onto the palette
(:class:`render.kit.Composer`), and the palette PNG is written at zlib level 2.
Text uses Pillow's bundled font; player names are fitted by
:func:`render.kit.displayable_label` (other scripts drawn with the bundled Noto faces).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import cache

from PIL import Image, ImageDraw

from engines.generator import GeneratorView, LastAction
from engines.geometry.gryb import (
    COLOUR,
    COLOUR_NAMES,
    COLOURS,
    DIRECTIONS,
    LEVEL,
    LEVEL_START,
    NAMES,
    NODE_COUNT,
    PARENT,
    POSITION,
    QUADRANGLES,
)
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
    box_of,
    build_palette,
    bundled_font,
    draw_text,
    encode_png,
    fitted_label,
    meets,
    stamp_box,
)

__all__ = [
    "HEIGHT",
    "PALETTE",
    "UNITS",
    "WIDTH",
    "count_text",
    "describe_action",
    "headline",
    "node_centre",
    "node_points",
    "render",
    "turns_for",
]

Point = tuple[float, float]
#: A sprite: an RGBA image and the pixel offset of its anchor inside it.
Sprite = tuple[Image.Image, int, int]

# ---- layout, in pixels ------------------------------------------------------------------------

BOARD_SIZE = 1000
PANEL_WIDTH = 340
WIDTH = BOARD_SIZE + PANEL_WIDTH
HEIGHT = BOARD_SIZE
PANEL_LEFT = BOARD_SIZE + 16
PANEL_RIGHT = WIDTH - 16
#: H of the spec's layout: how far a start node lies from the head node along each axis. The
#: drawing spans ±1.875 H = ±469 px around the centre, and the closest nodes are 44 px apart.
UNIT = 250
CENTRE: Point = (BOARD_SIZE / 2, BOARD_SIZE / 2)
#: Disc radius by level (index 0: the head node). Every node of levels 1–3 has four leaves
#: 44 px away on its diagonals, which bounds the discs and the stacks.
DISC_RADIUS = (22, 25, 17, 13, 10)
#: Font size of the name in a disc, by level.
DISC_FONT = (12, 24, 15, 13, 12)
#: Pyramid height and half base by size. GEN-8 keeps an L on levels 1–2 and an M on levels 1–3,
#: so the tallest column on each level still clears the leaves around it.
PYRAMID: dict[str, tuple[float, float]] = {"S": (24, 12), "M": (33, 16.5), "L": (42, 21)}
#: In a column each pyramid stands on the one below it where that one is this much narrower
#: (on each side) than its base, so every step of the silhouette shows.
TOWER_OVERHANG = 3.5
#: The seven stacks a node can hold, bottom to top (spec "Pieces and setup").
UNITS = ("L", "M", "S", "LM", "LS", "MS", "LMS")
#: The deepest level each size may stand on (GEN-8).
LOWEST_LEVEL = {"L": 2, "M": 3, "S": 4}
TAG_FONT = 12
TAG_HEIGHT = 15
#: How far the start node's seat name sits below its centre: clear of the leaves around it.
START_LABEL_DROP = 58
#: How far a badge's centre stays inside the board's edges.
BADGE_MARGIN = 28
DIE_HALF = 52
SEAT_ROW_TOP = 12
SEAT_ROW_HEIGHT = 74
#: Sprites are drawn this many times larger, then shrunk, for smooth edges.
SUPERSAMPLE = 4
#: The piece-free board is drawn this many times larger once, then shrunk.
BOARD_SUPERSAMPLE = 3
#: zlib level for the PNG (:func:`render.kit.encode_png`): encoding is most of the time; level 2
#: takes about half as long as Pillow's default 6 for about 25 % more bytes (≈ 85 KB rather than
#: 67 KB on busy views); level 1 is no faster, and the run-length strategy doubles the bytes.
PNG_COMPRESS_LEVEL = 2

# ---- colours -----------------------------------------------------------------------------------

#: Quadrangle outlines, parent links and the head node.
LINE: RGB = (0xA9, 0xA2, 0x94)
LINK: RGB = (0xC8, 0xC1, 0xB4)
HEAD: RGB = (0xDD, 0xD8, 0xCE)
#: Per colour G, R, Y, B (Okabe–Ito hues): the full hue of pyramids and the die, a dark shade
#: for disc rims and names, a pale tint for disc fills, and the ink for a letter on the hue.
HUE: tuple[RGB, ...] = (
    (0x00, 0x9E, 0x73),
    (0xD5, 0x5E, 0x00),
    (0xF0, 0xE4, 0x42),
    (0x00, 0x72, 0xB2),
)
DARK: tuple[RGB, ...] = (
    (0x00, 0x5E, 0x45),
    (0x8F, 0x3A, 0x00),
    (0x6E, 0x64, 0x00),
    (0x00, 0x48, 0x75),
)
TINT: tuple[RGB, ...] = (
    (0xCC, 0xEB, 0xE0),
    (0xF7, 0xD6, 0xBE),
    (0xFA, 0xF4, 0xBE),
    (0xC6, 0xDF, 0xF0),
)
HUE_INK: tuple[RGB, ...] = (WHITE, WHITE, INK, WHITE)
#: The last action's frames, arrow and entry badge, and the extra-turn badge (a dark reddish
#: purple, apart from the four hues).
HIGHLIGHT: RGB = (0x9C, 0x1F, 0x80)
#: Rings around the nodes the player to act can reach (a bright pink, apart from the hues).
REACH: RGB = (0xFF, 0x2E, 0x9A)

_BASE_COLOURS: tuple[RGB, ...] = (
    BACKGROUND, PANEL_BACKGROUND, INK, MUTED, WHITE, LINE, LINK, HEAD, *HUE, *DARK, *TINT,
    HIGHLIGHT, REACH,
)  # fmt: skip
#: Foreground/background pairs whose blends anti-aliasing produces (text on its background, a
#: sprite's rim on the board, a line across a disc). Each gets RAMP_STEPS − 1 palette entries.
_RAMP_PAIRS: tuple[tuple[RGB, RGB], ...] = (
    *((INK, bg) for bg in (BACKGROUND, PANEL_BACKGROUND, WHITE, *HUE, *TINT, HEAD, LINE)),
    *((MUTED, bg) for bg in (BACKGROUND, PANEL_BACKGROUND, WHITE)),
    *((WHITE, bg) for bg in (*HUE, INK, HIGHLIGHT)),
    *((DARK[c], bg) for c in range(4) for bg in (TINT[c], BACKGROUND, WHITE, LINE)),
    *((HUE[c], bg) for c in range(4) for bg in (BACKGROUND, PANEL_BACKGROUND)),
    *((LINE, bg) for bg in (BACKGROUND, LINK)),
    (LINK, BACKGROUND),
    *((HIGHLIGHT, bg) for bg in (BACKGROUND, WHITE, *TINT)),
    *((REACH, bg) for bg in (BACKGROUND, *TINT)),
)
RAMP_STEPS = 4


#: Every colour the PNG can contain, background first. Pixels drawn in other colours (the
#: blends anti-aliasing makes) are mapped to the nearest of these.
PALETTE: tuple[RGB, ...] = build_palette(_BASE_COLOURS, _RAMP_PAIRS, RAMP_STEPS)


# ---- text --------------------------------------------------------------------------------------


def _colour_name(colour: int) -> str:
    return COLOUR_NAMES[colour].capitalize()


# ---- geometry: the engine's unit-space layout, scaled ------------------------------------------

#: Pixel centre of every node, in node order.
NODE_XY: tuple[Point, ...] = tuple(
    (CENTRE[0] + u * UNIT, CENTRE[1] + v * UNIT) for u, v in POSITION
)


#: Where each colour's start corner is, in clockwise order from the top left of the fixed
#: picture; a seat's perspective turns its corner to :data:`HOME_CORNER` (bottom left).
HOME_CORNER = 3


def turns_for(colours: Sequence[int], perspective: int | None) -> int:
    """Clockwise quarter turns that bring seat ``perspective``'s start corner (its colour in
    ``colours``) to the bottom left: 0 for ``None`` and for Blue. ``ValueError`` for a seat the
    view does not have."""
    if perspective is None:
        return 0
    if not 0 <= perspective < len(colours):
        raise ValueError(f"this Generator game has seats 0–{len(colours) - 1}, not {perspective}")
    return (HOME_CORNER - colours[perspective]) % 4


def _turn(turns: int, u: float, v: float) -> Point:
    """``(u, v)`` (y pointing down) turned ``turns`` quarter turns clockwise."""
    for _ in range(turns % 4):
        u, v = -v, u
    return (u, v)


@cache
def node_points(turns: int = 0) -> tuple[Point, ...]:
    """Pixel centre of every node, in node order, on the board turned ``turns`` quarter turns
    clockwise (0: :data:`NODE_XY` itself)."""
    if turns % 4 == 0:
        return NODE_XY
    return tuple(
        (CENTRE[0] + u * UNIT, CENTRE[1] + v * UNIT)
        for u, v in (_turn(turns, pu, pv) for pu, pv in POSITION)
    )


def node_centre(node: int, turns: int = 0) -> Point:
    """The pixel centre of node ``node`` (0–339) on the board turned ``turns`` quarter turns
    clockwise; ``IndexError`` for any other number."""
    return node_points(turns)[node]


def _radius(node: int) -> float:
    return DISC_RADIUS[LEVEL[node]]


def _stack_layout(sizes: str, scale: float = 1.0) -> list[tuple[str, float]]:
    """Each pyramid of the stack ``sizes`` (bottom to top) with the y of its base line relative
    to the node's centre, the whole column centred on the node."""
    bases: list[tuple[str, float]] = [(sizes[0], 0.0)]
    for below, size in itertools.pairwise(sizes):
        height, half = PYRAMID[below]
        # Where the pyramid below is TOWER_OVERHANG narrower (each side) than this one's base.
        rise = height * (1 - (PYRAMID[size][1] - TOWER_OVERHANG) / half)
        bases.append((size, bases[-1][1] - rise * scale))
    top_size, top_base = bases[-1]
    apex = top_base - PYRAMID[top_size][0] * scale
    return [(size, base - apex / 2) for size, base in bases]


def _stack_height(sizes: str, scale: float = 1.0) -> float:
    """The height in px of the column ``sizes``, bottom base line to top apex."""
    layout = _stack_layout(sizes, scale)
    top_size, top_base = layout[-1]
    return layout[0][1] - (top_base - PYRAMID[top_size][0] * scale)


def _reach(node: int, sizes: str) -> float:
    """How far ``node``'s disc or its stack (``""``: none) reaches up or down from its centre."""
    return max(_radius(node), _stack_height(sizes) / 2 if sizes else 0.0)


def _side_reach(node: int, sizes: str) -> float:
    """How far ``node``'s disc or its stack (``""``: none) reaches sideways from its centre."""
    return max(_radius(node), PYRAMID[sizes[0]][1] if sizes else 0.0)


def _beside(node: int, reach: float, side: int, turns: int = 0) -> Point:
    """A spot beside ``node`` that no other node's disc covers, for a badge.

    Every node above the leaves has leaves on its four diagonals but free room straight to its
    side between them: the spot is ``reach`` px to the left (``side`` −1) or right (+1). A
    leaf's parent lies on one diagonal and another node may lie on the opposite one, but the
    diagonals towards the leaf's neighbours in the colour cycle are free; the spot is half a
    leaf spacing away on one of those, the upper one (clear of the name tag under the leaf)
    unless that runs off the board. ``reach`` and ``side`` do not matter for a leaf. ``turns``:
    the board's quarter turns (the diagonals turn with it).
    """
    x, y = node_points(turns)[node]
    if LEVEL[node] < 4:
        return (x + side * reach, y)
    step = UNIT * 0.125
    diagonals = [
        _turn(turns, *DIRECTIONS[c]) for c in ((COLOUR[node] + 1) % 4, (COLOUR[node] + 3) % 4)
    ]
    spots = sorted(
        ((x + dx * step, y + dy * step) for dx, dy in diagonals),
        key=lambda spot: spot[1],
    )
    low, high = BADGE_MARGIN, BOARD_SIZE - BADGE_MARGIN
    for sx, sy in spots:
        if low <= sx <= high and low <= sy <= high:
            return (sx, sy)
    # A corner leaf: both free diagonals run off the board, so pull the upper spot back in.
    sx, sy = spots[0]
    return (min(max(sx, low), high), min(max(sy, low), high))


# ---- sprites: drawn once, large, then shrunk for smooth edges ---------------------------------


class _Pen:
    """Draws on a transparent supersampled canvas; coordinates are in final pixels from the
    anchor, so sprite code reads like ordinary drawing code."""

    def __init__(self, half_width: float, half_height: float | None = None) -> None:
        self.half_x = math.ceil(half_width) + 2
        self.half_y = math.ceil(half_width if half_height is None else half_height) + 2
        size = (2 * self.half_x * SUPERSAMPLE, 2 * self.half_y * SUPERSAMPLE)
        self.image = Image.new("RGBA", size, (0, 0, 0, 0))
        self.draw = ImageDraw.Draw(self.image)

    def _xy(self, x: float, y: float) -> Point:
        return ((self.half_x + x) * SUPERSAMPLE, (self.half_y + y) * SUPERSAMPLE)

    def _box(self, x: float, y: float, rx: float, ry: float) -> tuple[float, float, float, float]:
        return (*self._xy(x - rx, y - ry), *self._xy(x + rx, y + ry))

    def disc(self, x: float, y: float, r: float, fill: RGB) -> None:
        self.draw.ellipse(self._box(x, y, r, r), fill=fill)

    def ring(self, x: float, y: float, r: float, colour: RGB, width: float) -> None:
        self.draw.ellipse(self._box(x, y, r, r), outline=colour, width=round(width * SUPERSAMPLE))

    def rectangle(
        self, rx: float, ry: float, fill: RGB | None, outline: RGB, width: float, radius: float
    ) -> None:
        """A rounded rectangle of half-sides ``rx`` × ``ry`` around the anchor."""
        self.draw.rounded_rectangle(
            self._box(0, 0, rx, ry), radius=radius * SUPERSAMPLE, fill=fill, outline=outline,
            width=round(width * SUPERSAMPLE),
        )  # fmt: skip

    def polygon(self, points: Sequence[Point], fill: RGB) -> None:
        self.draw.polygon([self._xy(x, y) for x, y in points], fill=fill)

    def line(self, points: Sequence[Point], colour: RGB, width: float) -> None:
        xy = [self._xy(x, y) for x, y in points]
        self.draw.line(xy, fill=colour, width=round(width * SUPERSAMPLE))

    def text(
        self, x: float, y: float, text: str, size: int, colour: RGB, bold: bool = True
    ) -> None:
        """Text centred on (``x``, ``y``), a little heavier than the font unless not ``bold``."""
        s = SUPERSAMPLE
        stroke = s // 2 if bold else 0
        self.draw.text(self._xy(x, y), text, font=bundled_font(size * s), fill=colour, anchor="mm",
                       stroke_width=stroke, stroke_fill=colour)  # fmt: skip

    def sprite(self) -> Sprite:
        return self.image.reduce(SUPERSAMPLE), self.half_x, self.half_y


def _sprite_box(sprite: Sprite, x: float, y: float) -> Box:
    """The box :func:`_paste` would cover with ``sprite`` anchored at (``x``, ``y``)."""
    image, ax, ay = sprite
    left, top = round(x) - ax, round(y) - ay
    return (left, top, left + image.width, top + image.height)


def _paste(canvas: Image.Image, sprite: Sprite, x: float, y: float) -> Box:
    """Paste ``sprite`` with its anchor at (``x``, ``y``); return the box it covers."""
    box = _sprite_box(sprite, x, y)
    canvas.paste(sprite[0], box[:2], sprite[0])
    return box


def _put(picture: Composer, sprite: Sprite, x: float, y: float) -> None:
    """:func:`_paste` on the picture's RGB drawing, marking the box."""
    picture.mark(_paste(picture.rgb, sprite, x, y))


@cache
def _stack_sprite(colour: int, sizes: str, scale: float = 1.0) -> Sprite:
    """The stack ``sizes`` (bottom to top, e.g. ``"LMS"``) of the seat playing ``colour``,
    anchored at its node's centre (``ValueError`` for a stack not in :data:`UNITS`).

    A small column: each smaller pyramid stands on the one below it, its base jutting out
    past the lower one's slopes, so the steps of the silhouette show the sizes. Every pyramid
    is a triangle in the owner's hue with a dark outline; the top one carries the owner's
    letter.
    """
    if sizes not in UNITS:
        raise ValueError(f"a stack is one of {', '.join(UNITS)}, not {sizes!r}")
    layout = _stack_layout(sizes, scale)
    pen = _Pen(PYRAMID[sizes[0]][1] * scale + 2, _stack_height(sizes, scale) / 2 + 2)
    rim = 2.2 * scale
    for size, base_y in layout:
        height, half = (value * scale for value in PYRAMID[size])
        pen.polygon([(0, base_y - height), (half, base_y), (-half, base_y)], INK)
        # The same triangle inset by the rim width on every side.
        slant = math.hypot(half, height)
        inset_x = rim * (slant + half) / height
        inner = [
            (0, base_y - height + rim * slant / half),
            (half - inset_x, base_y - rim),
            (-half + inset_x, base_y - rim),
        ]
        pen.polygon(inner, HUE[colour])
    top_size, top_base = layout[-1]
    letter = round({"S": 12, "M": 15, "L": 18}[top_size] * scale)
    pen.text(0, top_base - PYRAMID[top_size][0] * scale * 0.3, COLOURS[colour], letter,
             HUE_INK[colour])  # fmt: skip
    return pen.sprite()


@cache
def _plate_sprite(level: int, colour: int) -> Sprite:
    """A node's disc without its name, anchored at its centre: pasted under a stack so that the
    name does not peek out round the pyramids' slopes (the stack's tag names the node)."""
    r = DISC_RADIUS[level]
    pen = _Pen(r + 1)
    pen.disc(0, 0, r, DARK[colour])
    pen.disc(0, 0, r - (2 if level < 4 else 1.5), TINT[colour])
    return pen.sprite()


@cache
def _tag_sprite(text: str, ink: RGB = INK, rim: RGB = MUTED) -> Sprite:
    """A white label with ``text``, anchored at its centre."""
    width = bundled_font(TAG_FONT).getlength(text) + 8
    pen = _Pen(width / 2, TAG_HEIGHT / 2)
    pen.rectangle(width / 2, TAG_HEIGHT / 2, WHITE, rim, 1, 3)
    pen.text(0, 0.5, text, TAG_FONT, ink, bold=False)
    return pen.sprite()


@cache
def _ring_sprite(level: int) -> Sprite:
    """The pink ring, with a white gap inside, around a reachable node of ``level``."""
    r = DISC_RADIUS[level] + 6
    pen = _Pen(r + 2)
    pen.ring(0, 0, r - 1.5, WHITE, 5)
    pen.ring(0, 0, r, REACH, 3.5)
    return pen.sprite()


@cache
def _coupling_sprite(level: int, colour: int) -> Sprite:
    """The thick ring in the winner's hue, with a white gap inside, around a node of the
    power coupling that won (``view.coupling``)."""
    r = DISC_RADIUS[level] + 8
    pen = _Pen(r + 3)
    pen.ring(0, 0, r - 2.5, WHITE, 5)
    pen.ring(0, 0, r, DARK[colour], 5)
    return pen.sprite()


@cache
def _frame_sprite(reach: float) -> Sprite:
    """The last action's rounded square frame around something ``reach`` px from its centre."""
    half = reach + 6
    pen = _Pen(half + 2)
    pen.rectangle(half, half, None, HIGHLIGHT, 3.5, 6)
    return pen.sprite()


@cache
def _badge_sprite(kind: str) -> Sprite:
    """A round badge anchored at its centre: ``"capture"`` (x on black) or ``"entry"`` (+)."""
    pen = _Pen(10)
    arm = 4.5
    if kind == "capture":
        pen.disc(0, 0, 10, INK)
        strokes = [((-arm, -arm), (arm, arm)), ((-arm, arm), (arm, -arm))]
    elif kind == "entry":
        pen.disc(0, 0, 10, HIGHLIGHT)
        strokes = [((-arm - 1, 0), (arm + 1, 0)), ((0, -arm - 1), (0, arm + 1))]
    else:
        raise ValueError(f"unknown badge {kind!r}")
    for stroke in strokes:
        pen.line(stroke, WHITE, 2.5)
    return pen.sprite()


@cache
def _captured_sprite(colour: int, sizes: str) -> Sprite:
    """What a capture sent home: a white card with a black "x" badge and the captured stack at
    70 %, anchored at its centre."""
    stack, ax, ay = _stack_sprite(colour, sizes, 0.7)
    badge, bx, by = _badge_sprite("capture")
    half_x, half_y = bx + ax + 2, max(ay, by) + 1
    pen = _Pen(half_x, half_y)
    pen.rectangle(half_x, half_y, WHITE, INK, 1.5, 5)
    card = pen.sprite()[0]
    card.alpha_composite(badge, (3, pen.half_y - by))
    card.alpha_composite(stack, (2 * pen.half_x - 2 * ax - 3, pen.half_y - ay))
    return card, pen.half_x, pen.half_y


@cache
def _die_sprite(colour: int | None) -> Sprite:
    """The die face, anchored at its centre: a rounded square in the rolled colour with its
    letter, or a white one with a grey "?" while the roll is pending."""
    pen = _Pen(DIE_HALF + 2)
    if colour is None:
        pen.rectangle(DIE_HALF, DIE_HALF, WHITE, MUTED, 3, 16)
        pen.text(0, 3, "?", 68, MUTED)
    else:
        pen.rectangle(DIE_HALF, DIE_HALF, HUE[colour], INK, 3.5, 16)
        pen.text(0, 4, COLOURS[colour], 74, HUE_INK[colour])
    return pen.sprite()


# ---- the cached board --------------------------------------------------------------------------


@cache
def _board_layer(turns: int = 0) -> Image.Image:
    """Everything that never depends on the view: quadrangles, links, discs and their names, the
    head node, the panel's background and the key (RGB, cached per quarter turn of the board;
    the board is drawn supersampled, then shrunk)."""
    points = node_points(turns)
    s = BOARD_SUPERSAMPLE
    image = Image.new("RGB", (WIDTH * s, HEIGHT * s), BACKGROUND)
    draw = ImageDraw.Draw(image)

    def xy(point: Point) -> Point:
        return (point[0] * s, point[1] * s)

    def disc(centre: Point, r: float, fill: RGB, rim: RGB, rim_width: float) -> None:
        x, y = xy(centre)
        box = (x - r * s, y - r * s, x + r * s, y + r * s)
        draw.ellipse(box, fill=fill, outline=rim, width=round(rim_width * s))

    for node in range(NODE_COUNT):
        parent = CENTRE if PARENT[node] < 0 else points[PARENT[node]]
        draw.line((xy(points[node]), xy(parent)), fill=LINK, width=round(1.5 * s))
    for prefix, quad in QUADRANGLES.items():
        corners = [xy(points[node]) for node in quad]
        width = (3.5, 2.5, 1.75, 1.25)[len(prefix)]
        draw.line([*corners, corners[0]], fill=LINE, width=round(width * s), joint="curve")
    disc(CENTRE, DISC_RADIUS[0], HEAD, LINE, 2)
    draw.text(xy(CENTRE), "GRYB", font=bundled_font(DISC_FONT[0] * s), fill=INK, anchor="mm")
    for node in range(NODE_COUNT):
        level, colour = LEVEL[node], COLOUR[node]
        disc(points[node], DISC_RADIUS[level], TINT[colour], DARK[colour], 2 if level < 4 else 1.5)
        name = NAMES[node] if level <= 2 else NAMES[node][-1]
        bold = s // 2 if level <= 2 else 0
        face = bundled_font(DISC_FONT[level] * s)
        draw.text(xy(points[node]), name, font=face, fill=DARK[colour],
                  anchor="mm", stroke_width=bold, stroke_fill=DARK[colour])  # fmt: skip
    draw.rectangle((BOARD_SIZE * s, 0, WIDTH * s, HEIGHT * s), fill=PANEL_BACKGROUND)
    draw.line(((BOARD_SIZE * s, 0), (BOARD_SIZE * s, HEIGHT * s)), fill=LINE, width=2 * s)
    board = image.reduce(s)
    _draw_key(board)
    return board


def _draw_key(image: Image.Image) -> None:
    """The key to the symbols, at the bottom of the panel: the three sizes and a tower, the
    reachable ring, the last action's frame and the capture and entry badges."""
    top = HEIGHT - 196
    draw_text(image, PANEL_LEFT, top, "Key", 19, MUTED)
    for sizes, dx in (("S", 14), ("M", 74), ("L", 140), ("LMS", 212)):
        x = PANEL_LEFT + dx
        _paste(image, _stack_sprite(0, sizes), x, top + 44)
        name = "tower" if len(sizes) > 1 else sizes
        draw_text(image, x + PYRAMID[sizes[0]][1] + 5, top + 56, name, 17, INK)
    marks = (
        ("can move here", _ring_sprite(4), 0, 0),
        ("last action", _frame_sprite(8), 0, 1),
        ("captured", _badge_sprite("capture"), 166, 0),
        ("entered", _badge_sprite("entry"), 166, 1),
    )
    for name, sprite, dx, row in marks:
        x, y = PANEL_LEFT + 12 + dx, top + 94 + row * 34
        _paste(image, sprite, x, y)
        draw_text(image, x + 24, y, name, 17, INK)
    # How to read a name (spec "Reading node names", parent and colour): the picture's
    # labels spell it, but not how it is built.
    draw_text(
        image, PANEL_LEFT, HEIGHT - 40, "A node's name: its parent's name, then its", 15, MUTED
    )
    draw_text(image, PANEL_LEFT, HEIGHT - 20, "colour (YGB is the B node around YG)", 15, MUTED)


# ---- one image ---------------------------------------------------------------------------------


def render(
    view: GeneratorView,
    *,
    seat_labels: Sequence[str] | None = None,
    perspective: int | None = None,
) -> bytes:
    """Draw ``view`` as a 1340 × 1000 palette PNG and return its bytes.

    ``seat_labels`` are the players' display names in seat order, one per seat
    (``len(view.colours)``), shown beside each colour in the panel and folded to the bundled
    font (:func:`~render.kit.displayable_label`). ``perspective`` (a seat) turns the
    board by quarter turns so that seat's start corner is at the bottom left (``None``: the
    spec's fixed layout). The same arguments always give the same bytes.

    Raises ``TypeError`` if ``view`` is not a :class:`GeneratorView` or ``seat_labels`` is a
    single string, and ``ValueError`` if the view is malformed (see :func:`_check`) or
    ``seat_labels`` does not hold one name per seat, or ``perspective`` is not one of its seats.
    """
    if not isinstance(view, GeneratorView):
        raise TypeError(f"expected a GeneratorView, not {type(view).__name__}")
    if isinstance(seat_labels, str):
        raise TypeError("seat_labels must be a sequence of names, not one string")
    if seat_labels is not None and len(seat_labels) != len(view.colours):
        seats = len(view.colours)
        raise ValueError(
            f"seat_labels must hold {seats} names, one per seat, not {len(seat_labels)}"
        )
    _check(view)

    turns = turns_for(view.colours, perspective)
    xy = node_points(turns)
    # Drawn in RGB on a copy of the cached board; only the boxes drawn in are mapped onto the
    # palette, over the board mapped once per process (render.kit.Composer).
    picture = Composer(_layer(turns))
    stacks = {node: sizes for node, _, sizes in view.stacks}
    tags = _tags(view, stacks, turns)
    for label in _start_labels(view, xy, [_sprite_box(*tag) for tag in tags]):
        _put(picture, *label)
    if view.last is not None:
        _draw_last_action_under(picture, view.last, stacks, xy)
    for node in view.reachable:
        _put(picture, _ring_sprite(LEVEL[node]), *xy[node])
    coupling = _coupling(view)
    if coupling and view.outcome is not None:  # _coupling: won by a coupling
        winner = view.colours[view.outcome.winners[0]]
        for node in coupling:
            _put(picture, _coupling_sprite(LEVEL[node], winner), *xy[node])
    for node, owner, sizes in view.stacks:
        _put(picture, _plate_sprite(LEVEL[node], COLOUR[node]), *xy[node])
        _put(picture, _stack_sprite(view.colours[owner], sizes), *xy[node])
    for tag in tags:
        _put(picture, *tag)
    if view.last is not None:
        _draw_last_action_over(picture, view, view.last, stacks, turns)
    image = picture.rgb
    bottom = _draw_panel(image, ImageDraw.Draw(image), view, seat_labels)
    picture.mark((BOARD_SIZE + 2, 0, WIDTH, bottom + 4))
    return encode_png(picture.finish(), PNG_COMPRESS_LEVEL)


@cache
def _layer(turns: int) -> Layer:
    """:func:`_board_layer` and the same mapped onto :data:`PALETTE` (cached per turn)."""
    return Layer.of(_board_layer(turns), PALETTE)


def _check(view: GeneratorView) -> None:
    """Raise ``ValueError`` unless the view is drawable: 2–4 distinct colours 0–3; one stash per
    seat, each three counts 0–5 or ``None`` (resigned); stacks on distinct nodes in node order,
    owned by seats still in, each one of :data:`UNITS` within the level limits of GEN-8; a seat
    to act that has not resigned; and seats, rolls and nodes in range wherever the view (or its
    last action, see :func:`_check_last`) names them."""
    colours, players = view.colours, len(view.colours)
    if (
        not 2 <= players <= 4
        or len(set(colours)) != players
        or any(c not in range(4) for c in colours)
    ):
        raise ValueError(f"a Generator view has 2–4 distinct colours 0–3, not {colours}")
    if len(view.stashes) != players:
        raise ValueError(f"{players} seats need {players} stashes, not {len(view.stashes)}")
    for stash in view.stashes:
        if stash is not None and (len(stash) != 3 or any(not 0 <= n <= 5 for n in stash)):
            raise ValueError(f"a stash is three counts (S, M, L) of 0–5 or None, not {stash}")
    previous = -1
    for node, owner, sizes in view.stacks:
        if not previous < node < NODE_COUNT:
            raise ValueError(f"stacks go on distinct nodes 0–339 in node order: {view.stacks}")
        previous = node
        if owner not in range(players) or view.stashes[owner] is None:
            raise ValueError(f"the stack on {NAMES[node]} belongs to no seat still in: {owner}")
        if sizes not in UNITS:
            raise ValueError(f"the stack on {NAMES[node]} is not one of {', '.join(UNITS)}")
        if LEVEL[node] > LOWEST_LEVEL[sizes[0]]:
            raise ValueError(f"a {sizes[0]} may not stand on level {LEVEL[node]} ({NAMES[node]})")
    seats = [] if view.to_move is None else [view.to_move]
    if view.outcome is not None:
        seats += view.outcome.winners
    rolls = [view.roll]
    nodes = [*view.reachable, *view.coupling]
    last = view.last
    if last is not None:
        _check_last(last, players)
        seats.append(last.seat)
        rolls.append(last.roll)
        nodes += [n for n in (last.origin, last.destination) if n is not None]
    if any(seat not in range(players) for seat in seats):
        raise ValueError(f"the seats of this view are 0–{players - 1}: {view}")
    if view.to_move is not None and view.stashes[view.to_move] is None:
        raise ValueError(f"the seat to act, {view.to_move}, has resigned")
    if any(roll is not None and roll not in range(4) for roll in rolls):
        raise ValueError(f"a roll is a colour 0–3 or None: {view}")
    if any(node not in range(NODE_COUNT) for node in nodes):
        raise ValueError(f"the view names a node off the board (0–339): {view}")
    if view.count < 0 or view.max_turns < 0:
        raise ValueError(f"count and max_turns are at least 0: {view.count}, {view.max_turns}")


#: Which of (origin, destination) each kind of last action has.
_ACTION_ENDS = {
    "move": (True, True),
    "entry": (False, True),
    "pass": (False, False),
    "resign": (False, False),
}


def _check_last(last: LastAction, players: int) -> None:
    """Raise ``ValueError`` unless ``last`` is a known kind with the nodes and unit that kind
    needs, and a capture names a seat and a stack."""
    if _ACTION_ENDS.get(last.kind) != (last.origin is not None, last.destination is not None):
        raise ValueError(f"a last action of kind {last.kind!r} cannot have these nodes: {last}")
    if last.kind in ("move", "entry") and last.unit not in UNITS:
        raise ValueError(f"a {last.kind} moves one of {', '.join(UNITS)}, not {last.unit!r}")
    if last.captured is not None:
        owner, sizes = last.captured
        if owner not in range(players) or sizes not in UNITS:
            raise ValueError(f"captured must be (seat, one of {', '.join(UNITS)}): {last}")


# ---- the board's marks -------------------------------------------------------------------------


def _overlaps(box: Box, others: Sequence[Box]) -> int:
    """How many of ``others`` share pixels with ``box`` (:func:`render.kit.meets`)."""
    return sum(1 for other in others if meets(box, other))


def _start_labels(
    view: GeneratorView, xy: Sequence[Point] = NODE_XY, tags: Sequence[Box] = ()
) -> list[tuple[Sprite, float, float]]:
    """Under each start node in play, its seat's name (``G  GREEN``; greyed once resigned),
    with where it goes. Where it would cover more of the node tags (``tags``: their boxes)
    than the same distance above the node would, it goes above instead."""
    placed = []
    for seat, colour in enumerate(view.colours):
        x, y = xy[LEVEL_START[1] + colour]
        ink = MUTED if view.stashes[seat] is None else DARK[colour]
        text = f"{COLOURS[colour]}  {COLOUR_NAMES[colour].upper()}"
        sprite = _tag_sprite(text, ink, ink)
        below, above = y + START_LABEL_DROP, y - START_LABEL_DROP
        covered = _overlaps(_sprite_box(sprite, x, below), tags)
        if covered and _overlaps(_sprite_box(sprite, x, above), tags) < covered:
            below = above
        placed.append((sprite, x, below))
    return placed


def _tags(
    view: GeneratorView, stacks: dict[int, str], turns: int = 0
) -> list[tuple[Sprite, float, float]]:
    """Full-name tags under the nodes a player has to type, with where they go on the board
    turned ``turns`` quarter turns: occupied or reachable nodes whose disc does not show the
    full name (levels 3–4) or whose name a stack hides (levels 1–2), and the last action's
    origin. The start nodes of the view's colours have their seat's label instead
    (``R  RED``); the other level-1 nodes of a 2- or 3-player game are tagged like any other.

    A tag that would cover part of the last action's arrow (its head, where the arrow comes up
    into the node) goes above its node instead, where that spot is clear of the arrow, the
    capture card or entry badge, other tags and other nodes' discs and stacks."""
    xy = node_points(turns)
    named = set(view.reachable) | set(stacks)
    if view.last is not None and view.last.origin is not None:
        named.add(view.last.origin)
    labelled = {LEVEL_START[1] + colour for colour in view.colours}
    placed = []
    for node in sorted(named):
        if node in labelled or (LEVEL[node] <= 2 and node not in stacks):
            continue
        x, y = xy[node]
        drop = _reach(node, stacks.get(node, "")) + TAG_HEIGHT / 2 + 1
        placed.append((node, _tag_sprite(NAMES[node]), x, y, drop))
    if view.last is None:
        return [(sprite, x, y + drop) for _, sprite, x, y, drop in placed]
    arrow = _arrow_shapes(view.last, stacks, xy)
    marks = [_sprite_box(*mark) for mark in _last_action_marks(view, view.last, stacks, turns)]
    boxes = [_sprite_box(sprite, x, y + drop) for _, sprite, x, y, drop in placed]
    for k, (node, sprite, x, y, drop) in enumerate(placed):
        if not any(_box_meets(boxes[k], shape) for shape in arrow):
            continue
        above = _sprite_box(sprite, x, y - drop)
        if (
            not any(_box_meets(above, shape) for shape in arrow)
            and not _overlaps(above, marks + boxes[:k] + boxes[k + 1 :])
            and not _overlaps(above, _piece_boxes(stacks, xy, above, node))
        ):
            placed[k] = (node, sprite, x, y, -drop)
            boxes[k] = above
    return [(sprite, x, y + drop) for _, sprite, x, y, drop in placed]


def _piece_boxes(stacks: dict[int, str], xy: Sequence[Point], near: Box, but: int) -> list[Box]:
    """The boxes of the discs and stacks (and the head node) centred within 100 px of the box
    ``near``'s centre, but not of node ``but``."""
    found: list[Box] = []
    cx, cy = (near[0] + near[2]) / 2, (near[1] + near[3]) / 2
    for node, (x, y) in [(-1, CENTRE), *enumerate(xy)]:
        if node == but or abs(x - cx) > 100 or abs(y - cy) > 100:
            continue
        if node < 0:
            side = up = float(DISC_RADIUS[0])
        else:
            side, up = _side_reach(node, stacks.get(node, "")), _reach(node, stacks.get(node, ""))
        found.append((round(x - side), round(y - up), round(x + side), round(y + up)))
    return found


def _arrow(
    last: LastAction, stacks: dict[int, str], xy: Sequence[Point] = NODE_XY
) -> tuple[tuple[Point, Point], list[Point]] | None:
    """The last action's arrow: its shaft's centre line (drawn 5 px wide) from the origin's rim
    and its head, whose tip is at the edge of the destination's stack; ``None`` without both
    ends."""
    if last.origin is None or last.destination is None:
        return None
    (x0, y0), (x1, y1) = xy[last.origin], xy[last.destination]
    length = math.hypot(x1 - x0, y1 - y0)
    if length == 0:
        return None
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    start = _radius(last.origin)
    tip = length - _reach(last.destination, stacks.get(last.destination, "")) - 2
    head = min(16.0, max(tip - start, 0) * 0.6)
    back = tip - head
    line = ((x0 + ux * start, y0 + uy * start), (x0 + ux * back, y0 + uy * back))
    wing_x, wing_y = -uy * head * 0.6, ux * head * 0.6
    bx, by = x0 + ux * back, y0 + uy * back
    arrowhead = [
        (x0 + ux * tip, y0 + uy * tip), (bx + wing_x, by + wing_y), (bx - wing_x, by - wing_y)
    ]  # fmt: skip
    return line, arrowhead


def _arrow_shapes(
    last: LastAction, stacks: dict[int, str], xy: Sequence[Point] = NODE_XY
) -> list[list[Point]]:
    """The last action's arrow (:func:`_arrow`) as convex outlines: its shaft and its head."""
    arrow = _arrow(last, stacks, xy)
    if arrow is None:
        return []
    ((sx, sy), (bx, by)), arrowhead = arrow
    length = math.hypot(bx - sx, by - sy) or 1.0
    side_x, side_y = -(by - sy) / length * 2.5, (bx - sx) / length * 2.5
    shaft = [(sx + side_x, sy + side_y), (bx + side_x, by + side_y),
             (bx - side_x, by - side_y), (sx - side_x, sy - side_y)]  # fmt: skip
    return [shaft, arrowhead]


def _box_meets(box: Box, shape: Sequence[Point]) -> bool:
    """Whether the convex polygon ``shape`` shares area with ``box`` (separating axes)."""
    corners = [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]
    axes = [(1.0, 0.0), (0.0, 1.0)]
    edges = zip(shape, [*shape[1:], shape[0]], strict=True)
    axes += [(b[1] - a[1], a[0] - b[0]) for a, b in edges]
    for ax, ay in axes:
        spans = [[px * ax + py * ay for px, py in points] for points in (corners, shape)]
        if max(spans[0]) <= min(spans[1]) or max(spans[1]) <= min(spans[0]):
            return False
    return True


def _draw_last_action_under(
    picture: Composer,
    last: LastAction,
    stacks: dict[int, str],
    xy: Sequence[Point] = NODE_XY,
) -> None:
    """Under the pieces: frames on the last action's origin and destination, and an arrow from
    the origin's rim to the edge of the destination's stack."""
    for node in (last.origin, last.destination):
        if node is not None:
            _put(picture, _frame_sprite(_reach(node, stacks.get(node, ""))), *xy[node])
    arrow = _arrow(last, stacks, xy)
    if arrow is None:
        return
    line, arrowhead = arrow
    draw = ImageDraw.Draw(picture.rgb)
    draw.line(line, fill=HIGHLIGHT, width=5)
    draw.polygon(arrowhead, fill=HIGHLIGHT)
    picture.mark(box_of(line, 5))
    picture.mark(box_of(arrowhead, 2))


def _draw_last_action_over(
    picture: Composer,
    view: GeneratorView,
    last: LastAction,
    stacks: dict[int, str],
    turns: int = 0,
) -> None:
    """Over the pieces, beside the destination: a "+" badge on its left for an entry, and for a
    capture a card on its right with a black "x" and the stack that went home."""
    for mark in _last_action_marks(view, last, stacks, turns):
        _put(picture, *mark)


def _last_action_marks(
    view: GeneratorView, last: LastAction, stacks: dict[int, str], turns: int = 0
) -> list[tuple[Sprite, float, float]]:
    """The entry badge and the capture card of :func:`_draw_last_action_over`, with where they
    go."""
    node = last.destination
    if node is None:
        return []
    marks = []
    reach = _side_reach(node, stacks.get(node, ""))
    if last.kind == "entry":
        marks.append((_badge_sprite("entry"), *_beside(node, reach + 12, -1, turns)))
    if last.captured is not None:
        owner, captured = last.captured
        card = _captured_sprite(view.colours[owner], captured)
        marks.append((card, *_beside(node, reach + 4 + card[1], 1, turns)))
    return marks


# ---- the panel ---------------------------------------------------------------------------------

#: How each termination of the spec ("Turn flow and end") is told under the result.
TERMINATIONS = {
    "coupling": "Power coupling",
    "resignation": "Last player left",
    "turn_limit": "Turn limit reached",
}


def describe_action(last: LastAction, colours: Sequence[int]) -> str:
    """The last action in the spec's canonical notation after the mover's colour, e.g.
    ``"Red MS:Y-R"``, ``"Green +L"``, ``"Blue passed"`` or ``"Yellow resigned"``; a capture
    adds what went home: ``"Red S:G-Y took Blue L"``. ``colours`` are the view's colours."""
    mover = _colour_name(colours[last.seat])
    if last.kind == "move" and last.origin is not None and last.destination is not None:
        text = f"{mover} {last.unit}:{NAMES[last.origin]}-{NAMES[last.destination]}"
    elif last.kind == "entry":
        text = f"{mover} +{last.unit}"
    elif last.kind == "pass":
        text = f"{mover} passed"
    else:
        text = f"{mover} resigned"
    if last.captured is not None:
        owner, sizes = last.captured
        text += f" took {_colour_name(colours[owner])} {sizes}"
    return text


def count_text(view: GeneratorView) -> str:
    """COUNT in words, with the limit when ``max_turns`` is on: ``"37 of 120 turns played"``."""
    limit = f" of {view.max_turns}" if view.max_turns > 0 else ""
    noun = "turn" if view.count == 1 and not limit else "turns"
    return f"{view.count}{limit} {noun} played"


def _coupling(view: GeneratorView) -> tuple[int, ...]:
    """The nodes of the winning power coupling to ring: ``view.coupling`` when the game was
    won by one, else none."""
    outcome = view.outcome
    if outcome is None or outcome.termination != "coupling" or not outcome.winners:
        return ()
    return view.coupling


def headline(view: GeneratorView) -> tuple[str, str]:
    """The panel's big line and the line under it: ``("Red wins", "Power coupling,
    ringed")`` (the coupling's nodes ringed in the winner's colour, ``view.coupling``),
    ``("Draw", "Turn limit reached")``, or ``("Red to act", "")`` while the game runs."""
    outcome = view.outcome
    if outcome is not None:
        reason = TERMINATIONS.get(outcome.termination, outcome.termination.replace("_", " "))
        if _coupling(view):
            reason += ", ringed"
        if not outcome.winners:
            return ("Draw", reason)
        return (f"{_colour_name(view.colours[outcome.winners[0]])} wins", reason)
    if view.to_move is not None:
        return (f"{_colour_name(view.colours[view.to_move])} to act", "")
    return ("", "")


def turn_top(players: int) -> int:
    """The y of the panel's turn block (the result, or whose turn and the die): just under the
    seat rows."""
    return SEAT_ROW_TOP + players * SEAT_ROW_HEIGHT + 14


def _draw_panel(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: GeneratorView,
    seat_labels: Sequence[str] | None,
) -> int:
    """The right-hand panel: one row per seat; the result, or whose turn it is with the die;
    the turns played and the last action. (The key is part of the cached board.) Returns the
    y below everything it drew."""
    for seat in range(len(view.colours)):
        _draw_seat_row(image, draw, view, seat, seat_labels, SEAT_ROW_TOP + seat * SEAT_ROW_HEIGHT)
    top = turn_top(len(view.colours))
    big, reason = headline(view)
    over = view.outcome is not None
    lead = view.outcome.winners[0] if view.outcome and view.outcome.winners else view.to_move
    ink = INK if lead is None else DARK[view.colours[lead]]
    draw_text(image, PANEL_LEFT, top + 20, big, 40 if over else 34, ink, bold=True)
    if lead is not None and seat_labels is not None:
        width = PANEL_RIGHT - PANEL_LEFT if over else 170
        label, size = fitted_label(seat_labels[lead], width, 22, 16)
        draw_text(image, PANEL_LEFT, top + 58, label, size, INK)
    if over:
        draw_text(image, PANEL_LEFT, top + 94, reason, 22, INK)
    elif view.to_move is not None:
        if view.extra_turn:
            box = (PANEL_LEFT, top + 80, PANEL_LEFT + 150, top + 112)
            draw.rounded_rectangle(box, radius=7, fill=HIGHLIGHT)
            draw_text(image, PANEL_LEFT + 75, top + 96, "EXTRA TURN", 18, WHITE, "mm", bold=True)
        die_x = PANEL_RIGHT - DIE_HALF - 2
        _paste(image, _die_sprite(view.roll), die_x, top + DIE_HALF + 44)
        caption = "rolling..." if view.roll is None else f"rolled {COLOURS[view.roll]}"
        draw_text(image, die_x, top + 2 * DIE_HALF + 60, caption, 20, INK, "mm")
    text_y = top + 202
    draw_text(image, PANEL_LEFT, text_y, count_text(view), 22, INK)
    bottom = stamp_box(PANEL_LEFT, text_y, count_text(view), 22)[3]
    if view.last is not None:
        draw_text(image, PANEL_LEFT, text_y + 40, "Last action", 17, MUTED)
        for row, line in enumerate(_wrap(describe_action(view.last, view.colours), 22)):
            draw_text(image, PANEL_LEFT, text_y + 68 + row * 30, line, 22, INK)
            bottom = stamp_box(PANEL_LEFT, text_y + 68 + row * 30, line, 22)[3]
    return bottom


def _wrap(text: str, size: int) -> list[str]:
    """``text`` as one line of the panel's width at ``size`` px, or two broken at a space."""
    font, width = bundled_font(size), PANEL_RIGHT - PANEL_LEFT
    if font.getlength(text) <= width:
        return [text]
    words = text.split(" ")
    for cut in range(len(words) - 1, 0, -1):
        head = " ".join(words[:cut])
        if font.getlength(head) <= width:
            return [head, " ".join(words[cut:])]
    return [text]


def _draw_seat_row(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: GeneratorView,
    seat: int,
    seat_labels: Sequence[str] | None,
    top: int,
) -> None:
    """One seat: its pyramid, colour name and player name, its stash as S/M/L counts, and
    "TO ACT" or "WINNER" (on a tinted row), or "resigned" (colour name struck through)."""
    colour = view.colours[seat]
    stash = view.stashes[seat]
    active = view.to_move == seat
    won = view.outcome is not None and seat in view.outcome.winners
    if active or won:
        box = (PANEL_LEFT - 8, top, PANEL_RIGHT + 8, top + SEAT_ROW_HEIGHT - 6)
        draw.rounded_rectangle(box, radius=8, fill=TINT[colour], outline=DARK[colour], width=3)
    ink = INK if stash is not None else MUTED
    _paste(image, _stack_sprite(colour, "M", 1.15), PANEL_LEFT + 20, top + 34)
    name = _colour_name(colour)
    name_x, name_width = PANEL_LEFT + 48, bundled_font(26).getlength(name) + 1
    draw_text(image, name_x, top + 22, name, 26, ink, bold=True)
    if seat_labels is not None:
        x = name_x + name_width + 10
        label, size = fitted_label(seat_labels[seat], PANEL_RIGHT - x, 20, 16)
        draw_text(image, x, top + 23, label, size, ink)
    if stash is None:
        draw.line(((name_x - 2, top + 23), (name_x + 1 + name_width, top + 23)), fill=MUTED,
                  width=3)  # fmt: skip
        draw_text(image, name_x, top + 52, "resigned", 20, MUTED)
    else:
        counts = "   ".join(f"{size} {count}" for size, count in zip("SML", stash, strict=True))
        draw_text(image, name_x, top + 52, f"Stash  {counts}", 19, INK)
    tag = "TO ACT" if active else "WINNER" if won else ""
    draw_text(image, PANEL_RIGHT, top + 52, tag, 17, DARK[colour], "rm", bold=True)
