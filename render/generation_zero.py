"""The Generation Zero board image (spec ``shared/specs/generation_zero.md``, sections 2, 4.10
and 10).

:func:`render` turns a :class:`~engines.generation_zero.GenerationZeroView` into a 1280 × 880
palette PNG: a header strip across the top, the board (910 × 812) on the left and a 350 px
panel on the right.

The board is the layout's slot geometry (:meth:`GenerationZeroView.slot_centres`, unit
``(u, v)`` squares) turned back by 45°: a slot's centre is ``x = (u + v) · A``,
``y = (u − v) · B`` (that is column and row), and each Location card is a diamond of half-width
:data:`CARD_A` and half-height :data:`CARD_B`, so neighbouring cards (spec 2.1: corner to
corner on the checkerboard) share an edge. Each card shows

* its slot label (``L7``) at the top corner, its name (wrapped, folded to the bundled font by
  :func:`render.kit.displayable_label`) under it, its terrain as a pale fill and a glyph at the
  left corner, and a ``2`` badge at the right corner when entering costs 2 (rivers, mountains;
  not with ``appendix_terrain=false``); a gold star beside the label while the Bree Monster
  lives there;
* what lies on it, in rows that fit the diamond: the living Monster (a dark square with ``?``
  and its label while its ``card`` is blank; its label, Health, name, Attack and Defence once
  the view shows the card), the living characters in arrival order (round tokens in the seat's
  colour with the id; ``hp/max`` under it; the Canon tokens a 'Sue holds under that; badges: a
  gold dot when the Special is charged or the turns left, ``P`` when paralysed, the number of
  timed effects, the number of Canons held or artefacts taken), and the unensnared Canons
  (face-down chips with the token; the name under it only when the view's ``card`` is set).
  A crowded card switches to smaller tokens so everything stays on the card.

Marks: the last decision's path as purple arrows and its location framed in purple; the card
of the fight or battle being fought framed thick in red, pending battles framed thin in red
with a ``!``; the character whose decision it is ringed in orange; identities only the viewer
knows (a private view) drawn with purple edges.

The panel holds the title ("public board", or "Private view: <name>" on a purple banner),
the round against ``max_rounds`` ("Draft" while ``part`` is ``draft``, spec 3.5), the result or
whose decision it is (with the view's prompt), one block per seat (score, kills, "TO ACT",
"WINNER" or "resigned", then one line per character with its card name, Health, charge,
effects, Canons and artefacts; "drafted", "dead" or "out" instead for one not on the map, see
:func:`roster_status`), pending battles,
the Bree flag (``grey``), the last decision, the last lines of the combat log, the viewer's
``brought`` Canons and the identities it knows (private view only), and a key. The bundled font
has no dashes or arrows, so text uses ``-`` and ``->``.

Hidden information: the picture is drawn from ``view.data`` alone; a card name is only ever
looked up from a ``card`` field the view filled in, never by token, so the public image cannot
show more than the public view. :func:`render_recording_texts` returns the strings drawn, for
tests.

``perspective`` is accepted for the common renderer signature and ignored: every seat sees the
same board.

Speed (``python bench/render_generation_zero.py``): the background, panel and key are drawn once
per process, the cards of a map (fills, glyphs, labels, names) once per map (supersampled, then
shrunk); tokens, chips, badges and frames are small cached sprites and texts cached masks;
the RGB drawing is mapped onto the fixed :data:`PALETTE` whole (tokens lie on every card) and
the palette PNG is written at zlib level 2 (:func:`render.kit.encode_png`), as the other
renderers do (see ``render/__init__``).
"""

from __future__ import annotations

import contextvars
import itertools
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engines.generation_zero import GenerationZeroView, LastDecision
from engines.generation_zero.content import TERRAINS, Content, Layout
from render.kit import (
    BACKGROUND,
    INK,
    MUTED,
    PANEL_BACKGROUND,
    RGB,
    WHITE,
    build_palette,
    bundled_font,
    displayable_label,
    draw_text,
    encode_png,
    palette_image,
    text_width,
)

__all__ = [
    "CARD_A",
    "CARD_B",
    "HEIGHT",
    "PALETTE",
    "SEAT_COLOURS",
    "WIDTH",
    "render",
    "render_recording_texts",
    "roster_status",
    "slot_xy",
    "travelled",
]

Point = tuple[float, float]
#: A sprite: an RGBA image and the pixel offset of its anchor inside it.
Sprite = tuple[Image.Image, int, int]

# ---- layout, in pixels ------------------------------------------------------------------------

#: Half-width and half-height of a Location card's diamond; also the pixel size of one column
#: and one row of the checkerboard.
CARD_A = 130
CARD_B = 116
HEADER = 44
BOARD_LEFT = 0
BOARD_TOP = HEADER
BOARD_WIDTH = 7 * CARD_A
BOARD_HEIGHT = 7 * CARD_B
WIDTH = 1280
HEIGHT = BOARD_TOP + BOARD_HEIGHT + 24
PANEL_LEFT = BOARD_WIDTH + 14
PANEL_RIGHT = WIDTH - 12
PANEL_WIDTH = PANEL_RIGHT - PANEL_LEFT
#: The key's top edge; the panel's changing part stays above it.
KEY_TOP = HEIGHT - 156
#: How far card contents keep from the diamond's edges.
CARD_MARGIN = 6
#: Where the contents of a card may start (below the name) and how far the terrain glyph and
#: cost badge reach in from the side corners.
ITEMS_TOP = -36
#: The vertical centre of a one-line Location name, and of the two lines of a long one.
NAME_ONE_LINE = -60
NAME_TWO_LINES = (-64, -48)
SIDE_ZONE = 40
ITEM_GAP = 2
ROW_GAP = 2
SUPERSAMPLE = 4
CARDS_SUPERSAMPLE = 2
#: zlib level (:func:`render.kit.encode_png`): encoding is most of the time; 2 is about twice as
#: fast as 6 for ~25 % more bytes, and as fast as 1. The run-length strategy would be ~15 %
#: faster but passes 100 KB on busy views.
PNG_COMPRESS_LEVEL = 2


@dataclass(frozen=True, slots=True)
class _Size:
    """Token geometry of one density: normal, or compact for crowded cards."""

    radius: int
    id_font: int
    caption_font: int
    min_width: int
    badge: int


NORMAL = _Size(radius=16, id_font=15, caption_font=13, min_width=42, badge=7)
#: Captions stay at 12 px or more even on crowded cards, and Health is drawn in the regular
#: weight (:data:`BOLD_FROM`): at 11 px bold, "5/5" and "6/6" looked alike.
COMPACT = _Size(radius=13, id_font=12, caption_font=12, min_width=34, badge=6)
#: The smallest size drawn bold among the captions under tokens.
BOLD_FROM = 14
SIZES = (NORMAL, COMPACT)

# ---- colours -----------------------------------------------------------------------------------

CARD_EDGE: RGB = (0x8C, 0x84, 0x76)
#: Per seat (Okabe–Ito blue, vermillion, bluish green, reddish purple): token fill and a dark
#: shade for text on the panel.
SEAT_COLOURS: tuple[RGB, ...] = (
    (0x00, 0x72, 0xB2),
    (0xD5, 0x5E, 0x00),
    (0x00, 0x9E, 0x73),
    (0xCC, 0x79, 0xA7),
)
SEAT_DARK: tuple[RGB, ...] = (
    (0x00, 0x48, 0x75),
    (0x8F, 0x3A, 0x00),
    (0x00, 0x5E, 0x45),
    (0x8A, 0x3D, 0x6A),
)
SEAT_TINT: tuple[RGB, ...] = (
    (0xCC, 0xE3, 0xF0),
    (0xF7, 0xDF, 0xCC),
    (0xCC, 0xEC, 0xE3),
    (0xF5, 0xE4, 0xED),
)
#: Per terrain: the card's pale fill and the glyph's dark colour.
TERRAIN_FILL: Mapping[str, RGB] = {
    "forest": (0xD2, 0xE6, 0xC6),
    "hills": (0xEA, 0xE3, 0xBC),
    "cave": (0xDC, 0xD5, 0xD0),
    "plain": (0xF3, 0xEE, 0xCF),
    "valley": (0xDC, 0xEE, 0xDC),
    "river": (0xC8, 0xE0, 0xF2),
    "mountain": (0xDC, 0xD8, 0xE6),
    "city": (0xF0, 0xDB, 0xD2),
}
TERRAIN_INK: Mapping[str, RGB] = {
    "forest": (0x2E, 0x6B, 0x2E),
    "hills": (0x7A, 0x66, 0x22),
    "cave": (0x4A, 0x40, 0x3A),
    "plain": (0x88, 0x78, 0x1E),
    "valley": (0x3A, 0x76, 0x4E),
    "river": (0x1F, 0x5F, 0x9A),
    "mountain": (0x55, 0x4E, 0x6A),
    "city": (0x8A, 0x44, 0x30),
}
MONSTER: RGB = (0x4A, 0x3A, 0x32)
CANON: RGB = (0x1B, 0x6E, 0x6E)
#: The last decision's arrows and frame.
HIGHLIGHT: RGB = (0x7B, 0x2C, 0xBF)
#: Fights and battles.
BATTLE: RGB = (0xC8, 0x1E, 0x1E)
#: The Special's charge mark and the Bree star.
GOLD: RGB = (0xF2, 0xB7, 0x05)
#: The ring round the character whose decision it is.
TO_ACT: RGB = (0xFF, 0x8C, 0x00)
#: Private facts: the private banner and the edges of identities only the viewer knows.
PRIVATE: RGB = (0x6A, 0x1B, 0x9A)
EFFECT: RGB = (0xE0, 0x6C, 0x00)

_BASE_COLOURS: tuple[RGB, ...] = (
    BACKGROUND, PANEL_BACKGROUND, INK, MUTED, WHITE, CARD_EDGE, *SEAT_COLOURS, *SEAT_DARK,
    *SEAT_TINT, *TERRAIN_FILL.values(), *TERRAIN_INK.values(), MONSTER, CANON, HIGHLIGHT, BATTLE,
    GOLD, TO_ACT, PRIVATE, EFFECT,
)  # fmt: skip
#: Foreground/background pairs whose blends anti-aliasing produces.
_RAMP_PAIRS: tuple[tuple[RGB, RGB], ...] = (
    *((INK, bg) for bg in (BACKGROUND, PANEL_BACKGROUND, WHITE, *TERRAIN_FILL.values())),
    *((MUTED, bg) for bg in (BACKGROUND, PANEL_BACKGROUND, WHITE)),
    *((WHITE, bg) for bg in (*SEAT_COLOURS, MONSTER, CANON, PRIVATE, BATTLE, HIGHLIGHT)),
    *((TERRAIN_INK[t], TERRAIN_FILL[t]) for t in TERRAINS),
    *((CARD_EDGE, bg) for bg in (*TERRAIN_FILL.values(), BACKGROUND)),
    *((colour, PANEL_BACKGROUND) for colour in (*SEAT_COLOURS, *SEAT_DARK)),
    *((colour, INK) for colour in SEAT_COLOURS),
    *((HIGHLIGHT, bg) for bg in TERRAIN_FILL.values()),
    *((BATTLE, bg) for bg in (*TERRAIN_FILL.values(), PANEL_BACKGROUND)),
    (CANON, WHITE),
    (PRIVATE, WHITE),
    (TO_ACT, WHITE),
    (GOLD, INK),
)
RAMP_STEPS = 4

#: Every colour the PNG can contain, background first.
PALETTE: tuple[RGB, ...] = build_palette(_BASE_COLOURS, _RAMP_PAIRS, RAMP_STEPS)

#: How each termination (spec 8.3) is told under the result.
TERMINATIONS = {
    "no_fights_left": "No fights left",
    "round_limit": "Round limit reached",
    "resignation": "All other seats resigned",
}
#: Three-letter stat names for effects in the panel.
STAT_SHORT = {
    "attack": "Atk",
    "defence": "Def",
    "speed": "Spd",
    "stealth": "Stl",
    "observe": "Obs",
    "allure": "All",
    "insanity": "Ins",
    "special": "Spc",
    "health": "HP",
}
#: Combat log lines shown.
LOG_LINES = 5
#: The panel's character lines: font size and spacing.
ROSTER_FONT = 14
ROSTER_LINE = 18
#: The line a seat's score and tag move to when its name needs its whole header line.
HEADER_LINE = 18

# ---- text --------------------------------------------------------------------------------------

#: While :func:`render_recording_texts` runs: the list every drawn string is appended to.
_RECORDER: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar(
    "generation_zero_texts", default=None
)


def _text(
    canvas: Image.Image, x: float, y: float, text: str, size: int, colour: RGB,
    anchor: str = "lm", bold: bool = False,
) -> None:  # fmt: skip
    """Draw ``text`` at ``size`` px with its ``anchor`` point at (``x``, ``y``). Every string of
    the picture that depends on the view goes through here (see :func:`render_recording_texts`)."""
    if not text:
        return
    recorder = _RECORDER.get()
    if recorder is not None:
        recorder.append(text)
    draw_text(canvas, x, y, text, size, colour, anchor, bold)


@lru_cache(maxsize=4096)
def _width(text: str, size: int, bold: bool = False) -> float:
    """The advance width of ``text`` at ``size`` px (a little more when drawn bold)."""
    return text_width(text, size) + (2 if bold else 0)


@lru_cache(maxsize=1024)
def _fit(text: str, max_width: float, size: int) -> str:
    """``text`` folded to the bundled font and cut with ``…`` to ``max_width`` px."""
    return displayable_label(text, max_width, size)


def _wrap(text: str, max_width: float, size: int, max_lines: int) -> list[str]:
    """``text`` broken at spaces into at most ``max_lines`` lines of ``max_width`` px; the last
    line is cut with ``…`` when the text does not fit."""
    words = _fit(text, 10_000, size).split()
    lines: list[str] = []
    while words and len(lines) < max_lines:
        take = 1
        while take < len(words) and _width(" ".join(words[: take + 1]), size) <= max_width:
            take += 1
        if len(lines) == max_lines - 1:
            take = len(words)
        lines.append(_fit(" ".join(words[:take]), max_width, size))
        words = words[take:]
    return lines


# ---- geometry ----------------------------------------------------------------------------------


def slot_xy(view: GenerationZeroView, slot: int) -> Point:
    """The pixel centre of slot ``slot`` (0-based, ``L1`` = 0) of the view's layout: its unit
    centre ``(u, v)`` turned back to column ``u + v`` and row ``u - v``, scaled by
    :data:`CARD_A` × :data:`CARD_B`. ``IndexError`` for a slot the layout does not have."""
    return _slot_xy(view.layout, slot)


def _slot_xy(layout: Layout, slot: int) -> Point:
    u, v = layout.unit_centre(slot)
    col, row = u + v, u - v
    return (BOARD_LEFT + (col + 1) * CARD_A, BOARD_TOP + (row + 1) * CARD_B)


def _half_width(d: float) -> float:
    """The half-width, inside the margin, of a card's diamond at ``d`` px below its centre."""
    return max(CARD_A * (1 - abs(d) / CARD_B) - CARD_MARGIN * 1.4, 0.0)


# ---- sprites -----------------------------------------------------------------------------------


class _Pen:
    """Draws on a transparent supersampled canvas; coordinates in final pixels from the
    anchor."""

    def __init__(self, half_width: float, half_height: float | None = None) -> None:
        self.half_x = math.ceil(half_width) + 2
        self.half_y = math.ceil(half_width if half_height is None else half_height) + 2
        size = (2 * self.half_x * SUPERSAMPLE, 2 * self.half_y * SUPERSAMPLE)
        self.image = Image.new("RGBA", size, (0, 0, 0, 0))
        self.draw = ImageDraw.Draw(self.image)

    def xy(self, x: float, y: float) -> Point:
        return ((self.half_x + x) * SUPERSAMPLE, (self.half_y + y) * SUPERSAMPLE)

    def box(self, x: float, y: float, rx: float, ry: float) -> tuple[float, float, float, float]:
        return (*self.xy(x - rx, y - ry), *self.xy(x + rx, y + ry))

    def disc(self, x: float, y: float, r: float, fill: RGB) -> None:
        self.draw.ellipse(self.box(x, y, r, r), fill=fill)

    def ring(self, x: float, y: float, r: float, colour: RGB, width: float) -> None:
        self.draw.ellipse(self.box(x, y, r, r), outline=colour, width=round(width * SUPERSAMPLE))

    def rect(
        self, rx: float, ry: float, fill: RGB | None, outline: RGB | None, width: float,
        radius: float,
    ) -> None:  # fmt: skip
        self.draw.rounded_rectangle(self.box(0, 0, rx, ry), radius=radius * SUPERSAMPLE,
                                    fill=fill, outline=outline,
                                    width=round(width * SUPERSAMPLE))  # fmt: skip

    def polygon(self, points: Sequence[Point], fill: RGB) -> None:
        self.draw.polygon([self.xy(x, y) for x, y in points], fill=fill)

    def line(self, points: Sequence[Point], colour: RGB, width: float) -> None:
        self.draw.line([self.xy(x, y) for x, y in points], fill=colour,
                       width=round(width * SUPERSAMPLE), joint="curve")  # fmt: skip

    def sprite(self) -> Sprite:
        return self.image.reduce(SUPERSAMPLE), self.half_x, self.half_y


def _paste(canvas: Image.Image, sprite: Sprite, x: float, y: float) -> None:
    image, ax, ay = sprite
    canvas.paste(image, (round(x) - ax, round(y) - ay), image)


@cache
def _token_sprite(seat: int, kind: str, radius: int) -> Sprite:
    """A character's round token in ``seat``'s colour, anchored at its centre: an Agent a
    plain disc, a 'Sue a disc with a white halo inside the rim, a temp Agent a pale disc with
    a coloured rim (its id is drawn over it in dark ink)."""
    pen = _Pen(radius + 1)
    pen.disc(0, 0, radius, INK)
    if kind == "temp":
        pen.disc(0, 0, radius - 1.5, SEAT_COLOURS[seat])
        pen.disc(0, 0, radius - 4.5, SEAT_TINT[seat])
    else:
        pen.disc(0, 0, radius - 1.5, SEAT_COLOURS[seat])
        if kind == "sue":
            pen.ring(0, 0, radius - 3, WHITE, 1.6)
    return pen.sprite()


@cache
def _monster_sprite(radius: int, private: bool) -> Sprite:
    """A Monster: a dark rounded square, anchored at its centre (purple edge when only the
    viewer knows its card)."""
    pen = _Pen(radius + 1)
    pen.rect(radius, radius, MONSTER, PRIVATE if private else INK, 2.5 if private else 1.5, 5)
    return pen.sprite()


@cache
def _canon_sprite(half_width: int, face_up: bool, private: bool) -> Sprite:
    """A Canon chip of half-width ``half_width``, anchored at its centre: face-down (solid
    teal, the card's back) or face-up (white with a teal edge, purple when only the viewer
    knows it)."""
    pen = _Pen(half_width, 10)
    if face_up:
        edge = PRIVATE if private else CANON
        pen.rect(half_width, 9, WHITE, edge, 2, 4)
    else:
        pen.rect(half_width, 9, CANON, INK, 1, 4)
    return pen.sprite()


@cache
def _badge_sprite(colour: RGB, radius: int, rim: RGB = INK) -> Sprite:
    """A small round badge, anchored at its centre."""
    pen = _Pen(radius + 1)
    pen.disc(0, 0, radius, rim)
    pen.disc(0, 0, radius - 1.2, colour)
    return pen.sprite()


@cache
def _ring_sprite(radius: int) -> Sprite:
    """The orange ring round the character whose decision it is."""
    r = radius + 5
    pen = _Pen(r + 2)
    pen.ring(0, 0, r, TO_ACT, 4)
    return pen.sprite()


@cache
def _frame_sprite(colour: RGB, inset: float, width: float) -> Sprite:
    """A diamond outline ``inset`` px inside a card's edge, anchored at the card's centre."""
    pen = _Pen(CARD_A, CARD_B)
    a, b = CARD_A - inset * 1.12, CARD_B - inset * 1.12
    pen.line([(0, -b), (a, 0), (0, b), (-a, 0), (0, -b), (a, 0)], colour, width)
    return pen.sprite()


@cache
def _star_sprite() -> Sprite:
    """The gold star marking the Bree Monster's card."""
    pen = _Pen(10)
    points = [
        (math.sin(k * math.pi / 5) * (9 if k % 2 == 0 else 4),
         -math.cos(k * math.pi / 5) * (9 if k % 2 == 0 else 4))
        for k in range(10)
    ]  # fmt: skip
    pen.polygon(points, INK)
    inner = [(x * 0.78, y * 0.78 + 0.3) for x, y in points]
    pen.polygon(inner, GOLD)
    return pen.sprite()


@cache
def _terrain_sprite(terrain: str, size: int = 22) -> Sprite:
    """The terrain glyph in its dark colour, anchored at its centre, ``size`` px across."""
    ink = TERRAIN_INK.get(terrain, INK)
    h = size / 2
    pen = _Pen(h)
    if terrain == "forest":
        for dx, scale in ((-h * 0.45, 0.8), (h * 0.4, 1.0)):
            top = -h * scale
            pen.polygon([(dx, top), (dx + h * 0.5 * scale, h * 0.45), (dx - h * 0.5 * scale,
                         h * 0.45)], ink)  # fmt: skip
            pen.line([(dx, h * 0.4), (dx, h)], ink, 2)
    elif terrain == "hills":
        pen.draw.chord(pen.box(-h * 0.35, h * 0.5, h * 0.65, h * 0.9), 180, 360, fill=ink)
        pen.draw.chord(pen.box(h * 0.4, h * 0.6, h * 0.6, h * 0.7), 180, 360, fill=ink)
    elif terrain == "cave":
        pen.draw.chord(pen.box(0, h * 0.55, h, h * 1.3), 180, 360, fill=ink)
        pen.draw.chord(pen.box(0, h * 0.6, h * 0.45, h * 0.75), 180, 360, fill=INK)
    elif terrain == "plain":
        for dx in (-h * 0.6, 0, h * 0.6):
            pen.line([(dx - 3, h * 0.5), (dx - 1, -h * 0.2)], ink, 1.8)
            pen.line([(dx, h * 0.5), (dx + 2, -h * 0.5)], ink, 1.8)
            pen.line([(dx + 3, h * 0.5), (dx + 5, -h * 0.1)], ink, 1.8)
        pen.line([(-h, h * 0.55), (h, h * 0.55)], ink, 2)
    elif terrain == "valley":
        pen.polygon([(-h, -h * 0.6), (0, h * 0.6), (h, -h * 0.6), (h, h * 0.8), (-h, h * 0.8)],
                    ink)  # fmt: skip
    elif terrain == "river":
        for dy in (-h * 0.5, 0, h * 0.5):
            wave = [
                (x, dy + math.sin(x / h * math.pi * 1.5) * 2.5) for x in range(-int(h), int(h) + 1)
            ]
            pen.line(wave, ink, 2.2)
    elif terrain == "mountain":
        pen.polygon([(-h, h * 0.7), (-h * 0.25, -h * 0.8), (h * 0.45, h * 0.7)], ink)
        pen.polygon([(-h * 0.1, h * 0.7), (h * 0.45, -h * 0.3), (h, h * 0.7)], ink)
        pen.polygon([(-h * 0.25, -h * 0.8), (-h * 0.45, -h * 0.35), (-h * 0.05, -h * 0.35)],
                    WHITE)  # fmt: skip
    else:  # city (and any terrain a content set may add later): towers
        for dx, top in ((-h * 0.65, -h * 0.2), (-h * 0.15, -h * 0.9), (h * 0.45, -h * 0.45)):
            pen.polygon([(dx - h * 0.25, h * 0.8), (dx - h * 0.25, top), (dx + h * 0.25, top),
                         (dx + h * 0.25, h * 0.8)], ink)  # fmt: skip
            pen.polygon([(dx - h * 0.25, top), (dx, top - h * 0.3), (dx + h * 0.25, top)], ink)
    return pen.sprite()


@cache
def _cost_sprite() -> Sprite:
    """The badge marking a card that costs 2 to enter: a white disc with a dark ``2``."""
    pen = _Pen(11)
    pen.disc(0, 0, 11, INK)
    pen.disc(0, 0, 9.5, WHITE)
    pen.draw.text(pen.xy(0, 0.5), "2", font=bundled_font(15 * SUPERSAMPLE), fill=INK,
                  anchor="mm", stroke_width=SUPERSAMPLE // 2, stroke_fill=INK)  # fmt: skip
    return pen.sprite()


# ---- the cached layers -------------------------------------------------------------------------


@cache
def _base_layer() -> Image.Image:
    """Everything that never depends on the view: background, panel, header strip, key."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((BOARD_WIDTH, HEADER, WIDTH, HEIGHT), fill=PANEL_BACKGROUND)
    draw.line(((BOARD_WIDTH, HEADER), (BOARD_WIDTH, HEIGHT)), fill=CARD_EDGE, width=2)
    draw.line(((0, HEADER), (WIDTH, HEADER)), fill=CARD_EDGE, width=2)
    _draw_key(image)
    return image


def _draw_key(image: Image.Image) -> None:
    """The key at the bottom of the panel: the eight terrains, the marks, then the badges
    on a token's corners (:func:`_draw_character`)."""
    top = KEY_TOP
    stamp = _RECORDER.set(None)  # the key is static: not part of a view's texts
    try:
        _text(image, PANEL_LEFT, top, "Key", 15, MUTED, bold=True)
        for k, terrain in enumerate(TERRAINS):
            x = PANEL_LEFT + 10 + (k % 4) * 86
            y = top + 22 + (k // 4) * 24
            _paste(image, _terrain_sprite(terrain, 18), x, y)
            _text(image, x + 14, y, terrain, 13, INK)
        y = top + 74
        _paste(image, _cost_sprite(), PANEL_LEFT + 10, y)
        _text(image, PANEL_LEFT + 26, y, "costs 2", 13, INK)
        _paste(image, _star_sprite(), PANEL_LEFT + 96, y)
        _text(image, PANEL_LEFT + 110, y, "Bree Monster", 13, INK)
        _paste(image, _badge_sprite(GOLD, 6), PANEL_LEFT + 212, y)
        _text(image, PANEL_LEFT + 222, y, "Special charged", 13, INK)
        y += 22
        draw = ImageDraw.Draw(image)
        draw.line(((PANEL_LEFT + 2, y), (PANEL_LEFT + 20, y)), fill=HIGHLIGHT, width=4)
        _text(image, PANEL_LEFT + 26, y, "last decision", 13, INK)
        draw.line(((PANEL_LEFT + 120, y), (PANEL_LEFT + 138, y)), fill=BATTLE, width=4)
        _text(image, PANEL_LEFT + 144, y, "fight / battle", 13, INK)
        draw.ellipse((PANEL_LEFT + 236, y - 7, PANEL_LEFT + 250, y + 7), outline=TO_ACT, width=3)
        _text(image, PANEL_LEFT + 256, y, "decides now", 13, INK)
        y += 22
        _key_badge(image, PANEL_LEFT + 10, y, WHITE, "3", INK, "turns to Special")
        _key_badge(image, PANEL_LEFT + 150, y, PRIVATE, "P", WHITE, "paralysed")
        _key_badge(image, PANEL_LEFT + 250, y, EFFECT, "1", WHITE, "effects")
        y += 22
        _key_badge(image, PANEL_LEFT + 10, y, CANON, "2", WHITE, "Canons held ('Sue)")
        _key_badge(image, PANEL_LEFT + 150, y, GOLD, "1", INK, "artefacts (Agent)")
    finally:
        _RECORDER.reset(stamp)


def _key_badge(
    image: Image.Image, x: float, y: float, fill: RGB, mark: str, ink: RGB, label: str
) -> None:
    """One badge of the key: the badge as a token's corner shows it, then what it counts."""
    _paste(image, _badge_sprite(fill, 7), x, y)
    _text(image, x, y, mark, 11, ink, "mm", bold=True)
    _text(image, x + 12, y, label, 13, INK)


@lru_cache(maxsize=8)
def _cards_layer(
    content: Content, layout_name: str, cards: tuple[str, ...], costs: bool
) -> Image.Image:
    """The base layer with the Location cards of one map: diamonds in terrain colours, slot
    labels, names, terrain glyphs and the cost badges (``costs``: ``appendix_terrain`` on)."""
    layout = content.layouts[layout_name]
    s = CARDS_SUPERSAMPLE
    board = Image.new("RGB", (BOARD_WIDTH * s, BOARD_HEIGHT * s), BACKGROUND)
    draw = ImageDraw.Draw(board)
    for slot, location_id in enumerate(cards):
        x, y = _slot_xy(layout, slot)
        x, y = (x - BOARD_LEFT) * s, (y - BOARD_TOP) * s
        terrain = content.locations[location_id].terrain
        diamond = [(x, y - CARD_B * s), (x + CARD_A * s, y), (x, y + CARD_B * s),
                   (x - CARD_A * s, y)]  # fmt: skip
        draw.polygon(diamond, fill=TERRAIN_FILL.get(terrain, WHITE))
        draw.line([*diamond, diamond[0], diamond[1]], fill=CARD_EDGE, width=2 * s, joint="curve")
    image = _base_layer().copy()
    image.paste(board.reduce(s), (BOARD_LEFT, BOARD_TOP))
    for slot, location_id in enumerate(cards):
        x, y = _slot_xy(layout, slot)
        location = content.locations[location_id]
        _text(image, x, y - 86, f"L{slot + 1}", 18, INK, "mm", bold=True)
        lines = _name_lines(location.name)
        offsets = (NAME_ONE_LINE,) if len(lines) == 1 else NAME_TWO_LINES
        for line, dy in zip(lines, offsets, strict=True):
            _text(image, x, y + dy, _fit(line, 2 * _half_width(dy - 7), 14), 14, INK, "mm")
        _paste(image, _terrain_sprite(location.terrain), x - CARD_A + 24, y)
        if costs and content.terrain[location.terrain].move_cost >= 2:
            _paste(image, _cost_sprite(), x + CARD_A - 22, y)
    return image


def _name_lines(name: str) -> list[str]:
    """A Location's name in one line, or two, that fit the top of its diamond (the second line
    cut with ``…`` if even two do not hold it)."""
    size = 14
    folded = _fit(name, 10_000, size)
    if _width(folded, size) <= 2 * _half_width(NAME_ONE_LINE - 7):
        return [folded]
    first, second = (2 * _half_width(d - 7) for d in NAME_TWO_LINES)
    words = folded.split()
    splits = [(" ".join(words[:cut]), " ".join(words[cut:])) for cut in range(1, len(words))]
    fitting = [
        (max(_width(head, size), _width(tail, size)), head, tail)
        for head, tail in splits
        if _width(head, size) <= first and _width(tail, size) <= second
    ]
    if fitting:
        _, head, tail = min(fitting)  # the most even split
        return [head, tail]
    cut = 1
    while cut < len(words) and _width(" ".join(words[: cut + 1]), size) <= first:
        cut += 1
    head, tail = " ".join(words[:cut]), " ".join(words[cut:])
    if _width(head, size) > first:
        return [_fit(head, first, size), _fit(tail, second, size)] if tail else [head]
    return [head, _fit(tail, second, size)] if tail else [head]


# ---- reading the view ----------------------------------------------------------------------------


class _Reader:
    """Typed access to ``view.data`` (the R14 view object) and the catalogue."""

    def __init__(self, view: GenerationZeroView) -> None:
        self.view = view
        self.data = view.data
        self.content = view.content
        self.players = int(self.data["players"])
        self.chars: Mapping[str, Mapping[str, Any]] = self.data["chars"]
        self.canons: Mapping[str, Mapping[str, Any]] = self.data["canons"]
        self.monsters: Mapping[str, Mapping[str, Any]] = self.data["monsters"]
        self.map = view.map
        self.slot = {location: k for k, location in enumerate(self.map)}
        #: The draft (spec 3.5) is on: picked characters wait off the map at full Health.
        self.drafting = self.data.get("part") == "draft"

    def label(self, location: str) -> str:
        return f"L{self.slot[location] + 1}"

    def card_name(self, cid: str) -> str:
        """The card name of character ``cid`` (public: every character's card is public)."""
        char = self.chars[cid]
        card = str(char["card"])
        if char["kind"] == "sue":
            return self.content.sues[card].name
        return self.content.agent_card(card).name

    def max_health(self, cid: str) -> int:
        return int(self.view.max_health.get(cid, self.chars[cid]["hp"]))

    def seat_name(self, seat: int, labels: Sequence[str] | None, width: float, size: int) -> str:
        name = f"Seat {seat + 1}"
        if labels is not None:
            label = _fit(labels[seat], width - _width(name + "  ", size), size)
            if label:
                return f"{name}  {label}"
        return name

    def fight_location(self) -> str:
        """Where a fight or battle is being fought now (``""`` if none)."""
        battle = self.data.get("battle")
        if battle:
            return str(battle["at"])
        fight = self.data.get("fight")
        if fight:
            char = self.chars.get(str(fight["char"]))
            return str(char["at"]) if char else ""
        return ""

    def bree_lives(self, location: str) -> bool:
        """Whether the Bree Monster lives on ``location``: a living Monster on the card that
        hosts it (a public fact: the catalogue says which card hosts it, and setup puts no
        other Monster there)."""
        if not self.view.options.get("bree_monster", True):
            return False
        card = self.content.locations[location]
        return card.hosts_bree_monster and self.view.monster_at(location) is not None


def _check(view: GenerationZeroView, seat_labels: Sequence[str] | None) -> None:
    """Raise ``ValueError`` unless the view is drawable: a known layout whose slots the map
    fills with distinct known locations; characters, Canons and Monsters on the map (or
    ``""``), of seats in range; pending battles, the last decision's path and location on the
    map; one score per seat; ``seat_labels`` one per seat."""
    data = view.data
    try:
        players = data["players"]
        layout = view.layout
        cards = view.map
        if not isinstance(players, int) or not 2 <= players <= len(SEAT_COLOURS):
            raise ValueError(f"a view has 2-4 players, not {players!r}")
        if len(cards) != len(layout.slots) or len(set(cards)) != len(cards):
            raise ValueError("the map must fill every slot of the layout with distinct cards")
        if any(card not in view.content.locations for card in cards):
            raise ValueError(f"the map names an unknown location: {cards}")
        on_map = {*cards, ""}
        for cid, char in data["chars"].items():
            if char["at"] not in on_map or char["seat"] not in range(players):
                raise ValueError(f"character {cid} is off the map or of no seat: {char}")
            if char["kind"] not in ("agent", "sue", "temp"):
                raise ValueError(f"character {cid} has an unknown kind {char['kind']!r}")
            if char["at"]:
                if char["kind"] == "sue":
                    view.content.sues[char["card"]]
                else:
                    view.content.agent_card(char["card"])
        for token, thing in (*data["canons"].items(), *data["monsters"].items()):
            if thing["at"] not in on_map:
                raise ValueError(f"{token} lies off the map: {thing['at']!r}")
            if thing["card"] and token.startswith("M"):
                view.content.monster(thing["card"])
            elif thing["card"]:
                view.content.canons[thing["card"]]
        if any(location not in cards for location in data["pending"]):
            raise ValueError(f"a pending battle is off the map: {data['pending']}")
        if len(data["seats"]) != players or len(view.scores) != players:
            raise ValueError(f"{players} seats need {players} seat records and scores")
        last = view.last
        if last is not None and any(p not in on_map for p in (*last.path, last.location)):
            raise ValueError(f"the last decision leaves the map: {last}")
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"malformed Generation Zero view: {error!r}") from None
    if seat_labels is not None and len(seat_labels) != players:
        raise ValueError(
            f"seat_labels must hold {players} names, one per seat, not {len(seat_labels)}"
        )


# ---- the items on a card -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Item:
    """Something drawn on a card: ``kind`` ``monster``, ``char`` or ``canon`` and its id."""

    kind: str
    ident: str
    width: float
    height: float


def _item_size(reader: _Reader, kind: str, ident: str, size: _Size) -> tuple[float, float]:
    """Width and height in px of an item at ``size``."""
    token = 2 * size.radius
    if kind == "char":
        char = reader.chars[ident]
        width = max(
            size.min_width, _width(f"{char['hp']}/{reader.max_health(ident)}", size.caption_font)
        )
        height = token + size.caption_font + 3
        if char["canons"]:
            width = max(width, _width(" ".join(char["canons"]), size.caption_font - 1))
            height += size.caption_font
        return width, height
    if kind == "monster":
        card = str(reader.monsters[ident]["card"])
        if not card:
            return max(size.min_width, token + 4), token + size.caption_font + 3
        return token + 4 + _monster_text_width(size), token + size.caption_font + 3
    card = str(reader.canons[ident]["card"])
    width = max(30.0, _width(ident, 12, True) + 10)
    if card:
        name = _fit(reader.content.canons[card].name, 80, size.caption_font)
        return max(width, _width(name, size.caption_font)), 20 + size.caption_font + 1
    return width, 20.0


def _monster_text_width(size: _Size) -> float:
    return 96.0 if size is NORMAL else 84.0


def _layout_items(items: Sequence[_Item]) -> list[tuple[_Item, float, float]] | None:
    """Each item with its centre offset ``(dx, top_dy)`` from the card's centre (``top_dy``:
    the item's top edge), in rows that fit the diamond under the name; ``None`` if they do not
    fit."""
    placed: list[tuple[_Item, float, float]] = []
    top = float(ITEMS_TOP)
    queue = list(items)
    while queue:
        row: list[_Item] = []
        while queue:
            candidate = [*row, queue[0]]
            height = max(item.height for item in candidate)
            half = min(_half_width(top), _half_width(top + height), CARD_A - SIDE_ZONE)
            width = sum(item.width for item in candidate) + ITEM_GAP * (len(candidate) - 1)
            if width > 2 * half:
                break
            row.append(queue.pop(0))
        if not row:
            return None
        height = max(item.height for item in row)
        x = -(sum(item.width for item in row) + ITEM_GAP * (len(row) - 1)) / 2
        for item in row:
            placed.append((item, x + item.width / 2, top))
            x += item.width + ITEM_GAP
        top += height + ROW_GAP
    return placed


def _card_items(reader: _Reader, location: str, size: _Size) -> list[_Item]:
    view = reader.view
    found: list[tuple[str, str]] = []
    monster = view.monster_at(location)
    if monster is not None:
        found.append(("monster", monster))
    found += [("char", cid) for cid in view.characters_at(location)]
    found += [("canon", token) for token in view.canons_at(location)]
    return [_Item(kind, ident, *_item_size(reader, kind, ident, size)) for kind, ident in found]


def _draw_card_contents(image: Image.Image, reader: _Reader, location: str) -> None:
    """The Monster, characters and Canons on ``location``, normal size if they fit, else
    compact (if even those do not fit, the compact rows run on towards the bottom corner)."""
    cx, cy = _slot_xy(reader.view.layout, reader.slot[location])
    for size in SIZES:
        items = _card_items(reader, location, size)
        placed = _layout_items(items)
        if placed is not None:
            break
    if placed is None:
        placed = []
        top = float(ITEMS_TOP)
        for item in items:  # one per row: overflow stays drawn, if cramped
            placed.append((item, 0.0, top))
            top += item.height * 0.6
    for item, dx, top in placed:
        x, y = cx + dx, cy + top
        if item.kind == "char":
            _draw_character(image, reader, item.ident, x, y, size)
        elif item.kind == "monster":
            _draw_monster(image, reader, item, x, y, size)
        else:
            _draw_canon(image, reader, item.ident, x, y, size)


def _draw_character(
    image: Image.Image, reader: _Reader, cid: str, x: float, top: float, size: _Size
) -> None:
    """A character's token with its id, badges, ``hp/max`` and held Canon tokens."""
    char = reader.chars[cid]
    seat, kind, r = int(char["seat"]), str(char["kind"]), size.radius
    y = top + r
    if reader.view.to_act == cid:
        _paste(image, _ring_sprite(r), x, y)
    _paste(image, _token_sprite(seat, kind, r), x, y)
    ink = SEAT_DARK[seat] if kind == "temp" else WHITE
    _text(image, x, y + 0.5, cid, size.id_font, ink, "mm", bold=True)
    b = size.badge
    corner = r * 0.78
    if int(char["cd"]) == 0:
        _paste(image, _badge_sprite(GOLD, b - 1), x + corner, y - corner)
    else:
        _paste(image, _badge_sprite(WHITE, b), x + corner, y - corner)
        _text(image, x + corner, y - corner, str(char["cd"]), b + 4, INK, "mm")
    effects = list(char["fx"])
    if any(e["kind"] == "paralyse" for e in effects):
        _paste(image, _badge_sprite(PRIVATE, b), x - corner, y - corner)
        _text(image, x - corner, y - corner, "P", b + 4, WHITE, "mm", bold=True)
    timed = sum(1 for e in effects if e["kind"] != "paralyse")
    if timed:
        _paste(image, _badge_sprite(EFFECT, b), x - corner, y + corner)
        _text(image, x - corner, y + corner, str(timed), b + 4, WHITE, "mm", bold=True)
    held = len(char["canons"]) if kind == "sue" else len(char["arts"])
    if held:
        colour = CANON if kind == "sue" else GOLD
        _paste(image, _badge_sprite(colour, b), x + corner, y + corner)
        _text(image, x + corner, y + corner, str(held), b + 4, WHITE if kind == "sue" else INK,
              "mm", bold=True)  # fmt: skip
    caption_y = top + 2 * r + 2 + size.caption_font / 2
    hp = f"{char['hp']}/{reader.max_health(cid)}"
    _text(
        image, x, caption_y, hp, size.caption_font, INK, "mm", bold=size.caption_font >= BOLD_FROM
    )
    if char["canons"]:
        tokens = " ".join(char["canons"])
        _text(image, x, caption_y + size.caption_font, tokens, size.caption_font - 1, CANON, "mm",
              bold=True)  # fmt: skip


def _draw_monster(
    image: Image.Image, reader: _Reader, item: _Item, x: float, top: float, size: _Size
) -> None:
    """A Monster: ``?`` and its label while its card is blank; else its label and Health, with
    name and Attack/Defence beside it."""
    token = item.ident
    monster = reader.monsters[token]
    card_id = str(monster["card"])
    r = size.radius
    if not card_id:
        y = top + r
        _paste(image, _monster_sprite(r, False), x, y)
        _text(image, x, y + 1, "?", size.id_font + 5, WHITE, "mm", bold=True)
        _text(image, x, top + 2 * r + 2 + size.caption_font / 2, token, size.caption_font, INK,
              "mm", bold=True)  # fmt: skip
        return
    card = reader.content.monster(card_id)
    private = not monster["public"]
    left = x - item.width / 2
    tx, y = left + r, top + r
    _paste(image, _monster_sprite(r, private), tx, y)
    _text(image, tx, y + 0.5, token, size.id_font - 1, WHITE, "mm", bold=True)
    hp = f"{monster['hp']}/{card.health}"
    _text(image, tx, top + 2 * r + 2 + size.caption_font / 2, hp, size.caption_font, INK, "mm",
          bold=size.caption_font >= BOLD_FROM)  # fmt: skip
    text_x = left + 2 * r + 4
    width = _monster_text_width(size)
    ink = PRIVATE if private else INK
    font = size.caption_font - 1
    lines = _wrap(card.name, width, font, 2)
    for row, line in enumerate(lines):
        _text(image, text_x, top + 6 + row * (font + 1), line, font, ink, bold=True)
    stats = f"Atk {card.attack}  Def {card.defence}"
    _text(image, text_x, top + 6 + len(lines) * (font + 1) + 1, stats, font, ink)


def _draw_canon(
    image: Image.Image, reader: _Reader, token: str, x: float, top: float, size: _Size
) -> None:
    """A Canon chip with its token; the card's name under it when the view shows it."""
    canon = reader.canons[token]
    card = str(canon["card"])
    half = round(max(15.0, _width(token, 12, True) / 2 + 5))
    private = bool(card) and not canon["public"]
    _paste(image, _canon_sprite(half, bool(card), private), x, top + 10)
    _text(image, x, top + 10.5, token, 12, CANON if card else WHITE, "mm", bold=True)
    if card:
        name = _fit(reader.content.canons[card].name, 80, size.caption_font)
        ink = PRIVATE if private else CANON
        _text(image, x, top + 21 + size.caption_font / 2, name, size.caption_font, ink, "mm")


# ---- marks on the board ------------------------------------------------------------------------


def _draw_marks(image: Image.Image, draw: ImageDraw.ImageDraw, reader: _Reader) -> None:
    """Frames for the fight being fought, pending battles and the last decision; the last
    decision's path as arrows; the Bree star."""
    layout = reader.view.layout
    fighting = reader.fight_location()
    for location in reader.map:
        x, y = _slot_xy(layout, reader.slot[location])
        if reader.bree_lives(location):
            _paste(image, _star_sprite(), x + 26, y - 87)
    for location in reader.data["pending"]:
        x, y = _slot_xy(layout, reader.slot[location])
        _paste(image, _frame_sprite(BATTLE, 5, 3), x, y)
        _paste(image, _badge_sprite(BATTLE, 9), x - 27, y - 87)
        _text(image, x - 27, y - 86.5, "!", 14, WHITE, "mm", bold=True)
    if fighting:
        x, y = _slot_xy(layout, reader.slot[fighting])
        _paste(image, _frame_sprite(BATTLE, 5, 6), x, y)
    last = reader.view.last
    if last is None:
        return
    path, location = travelled(last, reader.data["chars"])
    if location and location != fighting:
        x, y = _slot_xy(layout, reader.slot[location])
        _paste(
            image,
            _frame_sprite(HIGHLIGHT, 12 if location in reader.data["pending"] else 5, 4),
            x,
            y,
        )
    points = [_slot_xy(layout, reader.slot[p]) for p in path]
    for step, ((x0, y0), (x1, y1)) in enumerate(itertools.pairwise(points), start=2):
        _arrow(draw, x0, y0, x1, y1, head=step == len(points))


def travelled(
    last: LastDecision, chars: Mapping[str, Mapping[str, Any]]
) -> tuple[tuple[str, ...], str]:
    """The last decision's path and location as far as its character got: a 'Sue's move
    stops at a Monster on the way to fight it (R6.5, R8.1), so while she stands there the
    path ends where she is (the fight's frame marks that location, so the decision's own
    frame is left out there), not at the landing she named (which she reaches only if the
    fight lets her walk on). Any other decision: its own
    ``path`` and ``location``."""
    if last.kind != "move" or last.char not in chars:
        return last.path, last.location
    at = chars[last.char].get("at")
    if at not in last.path[1:-1]:
        return last.path, last.location
    return last.path[: last.path.index(at) + 1], str(at)


def _arrow(
    draw: ImageDraw.ImageDraw, x0: float, y0: float, x1: float, y1: float, head: bool
) -> None:
    """A purple arrow from one card's centre towards the next, stopping short of both."""
    length = math.hypot(x1 - x0, y1 - y0)
    if length == 0:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    # Across the shared edge (half-way) only: from 32% to 68% of the way it stays clear of
    # the tokens and names around both cards' centres (22%-70% ran over them).
    start, tip = length * 0.32, length * 0.68
    back = tip - (16 if head else 0)
    draw.line(((x0 + ux * start, y0 + uy * start), (x0 + ux * back, y0 + uy * back)),
              fill=HIGHLIGHT, width=6)  # fmt: skip
    if head:
        bx, by = x0 + ux * back, y0 + uy * back
        wx, wy = -uy * 11, ux * 11
        draw.polygon([(x0 + ux * tip, y0 + uy * tip), (bx + wx, by + wy), (bx - wx, by - wy)],
                     fill=HIGHLIGHT)  # fmt: skip


# ---- the header and the panel ------------------------------------------------------------------


def _viewer_name(reader: _Reader, seat_labels: Sequence[str] | None) -> str:
    viewer = reader.view.viewer
    assert viewer is not None
    if seat_labels is not None:
        label = _fit(seat_labels[viewer], 320, 20)
        if label:
            return label
    return f"Seat {viewer + 1}"


def _draw_header(image: Image.Image, draw: ImageDraw.ImageDraw, reader: _Reader,
                 seat_labels: Sequence[str] | None) -> None:  # fmt: skip
    """The strip across the top: the title (a purple banner for a private view) and the
    round against ``max_rounds``, or "Draft" while the draft runs (spec 3.5: the rounds start
    after setup)."""
    view = reader.view
    max_rounds = view.options.get("max_rounds", "?")
    if reader.drafting:
        round_text = "Draft"
    else:
        round_text = f"Round {reader.data['round']}/{max_rounds}"
    if view.viewer is None:
        _text(image, 14, HEADER / 2, "Generation Zero - public board", 22, INK, bold=True)
        _text(image, WIDTH - 14, HEADER / 2, round_text, 20, INK, "rm", bold=True)
        return
    draw.rectangle((0, 0, WIDTH, HEADER - 1), fill=PRIVATE)
    # The fixed words first: a name in a right-to-left script then stays a run of its own
    # inside a left-to-right line ("Private view: שלום"), instead of turning the line around.
    title = f"Private view: {_viewer_name(reader, seat_labels)}"
    _text(image, 14, HEADER / 2, title, 22, WHITE, bold=True)
    _text(image, WIDTH - 14, HEADER / 2, round_text, 20, WHITE, "rm", bold=True)


def _headline(reader: _Reader) -> tuple[str, RGB]:
    view = reader.view
    outcome = view.outcome
    if outcome is not None:
        names = ", ".join(f"Seat {s + 1}" for s in outcome.winners)
        if not outcome.winners:
            return "Draw", INK
        verb = "wins" if len(outcome.winners) == 1 else "win"
        return f"{names} {verb}", SEAT_DARK[outcome.winners[0]]
    if view.to_move:
        seat = view.to_move[0]
        who = f"Seat {seat + 1} decides"
        if view.to_act:
            who += f" for {view.to_act}"
        return who, SEAT_DARK[seat]
    return "", INK


def _draw_panel(image: Image.Image, draw: ImageDraw.ImageDraw, reader: _Reader,
                seat_labels: Sequence[str] | None) -> None:  # fmt: skip
    """The panel, top to bottom: headline and prompt (or the result), the seats with their
    characters, pending battles, the Bree flag, the last decision, the combat log and, in a
    private view, the viewer's Canons and what it knows. Stops above the key."""
    view = reader.view
    y = HEADER + 22.0
    headline, colour = _headline(reader)
    _text(image, PANEL_LEFT, y, headline, 20, colour, bold=True)
    y += 24
    if view.outcome is not None:
        term = view.outcome.termination
        _text(image, PANEL_LEFT, y, TERMINATIONS.get(term, term.replace("_", " ")), 15, INK)
        y += 20
    else:
        # A command in backticks reads as quoted words ("Playing "end" ends the whole turn"):
        # without any mark it read as a slip (review 3).
        for line in _wrap(re.sub(r"`([^`]*)`", r'"\1"', view.prompt), PANEL_WIDTH, 15, 3):
            _text(image, PANEL_LEFT, y, line, 15, INK)
            y += 19
    y += 6
    for seat in range(reader.players):
        y = _draw_seat(image, draw, reader, seat, seat_labels, y)
    lines: list[tuple[str, RGB, bool]] = []
    if reader.data["pending"]:
        pending = ", ".join(reader.label(p) for p in reader.data["pending"])
        lines.append((f"Pending battles: {pending}", BATTLE, True))
    if reader.data["grey"]:
        lines.append(("Bree Monster slain: 'Sues Def -1 vs Monsters", INK, False))
    last = view.last
    if last is not None:
        text = f"Seat {last.seat + 1} resigned" if last.kind == "resign" else last.text
        lines.append((f"Last: Seat {last.seat + 1}: {text}" if last.kind != "resign" else text,
                      HIGHLIGHT, True))  # fmt: skip
    for text, ink, bold in lines:
        _text(image, PANEL_LEFT, y, _fit(text, PANEL_WIDTH, 15), 15, ink, bold=bold)
        y += 20
    log = [line.replace("→", "->") for line in view.combat_log[-LOG_LINES:]]
    if log and y + 20 < KEY_TOP:
        y += 3
        _text(image, PANEL_LEFT, y, "Combat log", 14, MUTED, bold=True)
        y += 18
        for line in log:
            if y > KEY_TOP - 12:
                break
            _text(image, PANEL_LEFT, y, _fit(line, PANEL_WIDTH, 14), 14, INK)
            y += 18
    if view.viewer is not None:
        _draw_private(image, reader, y + 6)


def _draw_seat(image: Image.Image, draw: ImageDraw.ImageDraw, reader: _Reader, seat: int,
               seat_labels: Sequence[str] | None, top: float) -> float:  # fmt: skip
    """One seat's block: name, score and kills, status, then its characters. Returns the y
    under it."""
    view = reader.view
    record = reader.data["seats"][seat]
    out = int(record["out"]) > 0
    active = seat in view.to_move
    won = view.outcome is not None and seat in view.outcome.winners
    mine = sorted(
        (cid for cid, c in reader.chars.items() if int(c["seat"]) == seat),
        key=lambda cid: ("SAT".index(cid[0]) if cid[0] in "SAT" else 3, int(cid[1:] or 0)),
    )
    ink = MUTED if out else SEAT_DARK[seat]
    kills = int(record["kills"])
    points = view.scores[seat]
    score = f"{points} pt{'' if points == 1 else 's'} · {kills} kill{'' if kills == 1 else 's'}"
    tag = "resigned" if out else "WINNER" if won else "TO ACT" if active else ""
    right = f"{tag}  {score}" if tag else score
    # The name takes the line the score and the tag leave; a name that needs more (a bot's
    # "Gameroom (level 3)" beside WINNER) gets the whole line, and they go on one of their own.
    left = PANEL_LEFT + 22
    room = PANEL_RIGHT - _width(right, 14, True) - 10 - left
    name = reader.seat_name(seat, seat_labels, PANEL_RIGHT - left, 16)
    apart = _width(name, 16) > room  # measured as seat_name fits it
    extras = {cid: _roster_extras(reader, cid) for cid in mine}
    rows = {cid: _roster_rows(text) for cid, text in extras.items()}
    height = 24 + (HEADER_LINE if apart else 0) + ROSTER_LINE * sum(rows.values())
    if active or won:
        box = (PANEL_LEFT - 6, top - 12, PANEL_RIGHT + 4, top + height - 8)
        draw.rounded_rectangle(box, radius=6, fill=SEAT_TINT[seat], outline=SEAT_DARK[seat],
                               width=2)  # fmt: skip
    _paste(image, _token_sprite(seat, "agent", 8), PANEL_LEFT + 8, top)
    _text(image, left, top, name, 16, ink, bold=True)
    if out:
        width = _width(name, 16, True)
        draw.line(((left, top + 1), (left + width, top + 1)), fill=MUTED, width=2)
    y = top + (HEADER_LINE if apart else 0)
    _text(image, PANEL_RIGHT, y, right, 14, ink, "rm", bold=True)
    y += 20
    for cid in mine:
        status = roster_status(reader.chars[cid], drafting=reader.drafting, seat_out=out)
        _draw_roster_line(image, reader, cid, y, status, extras[cid], rows[cid])
        y += ROSTER_LINE * rows[cid]
    return y + 8


#: Where a roster line's extras (effects, Canons, artefacts, ``done``) start: after the id, the
#: card name, Health and charge; and where they go on when they need a line of their own.
EXTRAS_LEFT = PANEL_LEFT + 256
EXTRAS_WRAP_LEFT = PANEL_LEFT + 36


def _roster_extras(reader: _Reader, cid: str) -> str:
    """A living character's effects, the Canons held (with their names when the view shows
    them), artefacts, and ``done`` once it has acted this turn; "" for one not in play."""
    char = reader.chars[cid]
    if not char["at"]:
        return ""
    extras = [_effect_text(e) for e in char["fx"]]
    for token in char["canons"]:
        card = str(reader.canons[token]["card"]) if token in reader.canons else ""
        extras.append(f"{token} {reader.content.canons[card].name}" if card else token)
    extras += list(char["arts"])
    if char["acted"]:
        extras.append("done")
    return " ".join(extras)


def _roster_rows(extras: str) -> int:
    """1, or 2 when ``extras`` (:func:`_roster_extras`) do not fit beside the Health and
    charge: then they take the next line, so a public Canon's name is never cut away (spec
    generation_zero section 10)."""
    return 1 if _width(extras, ROSTER_FONT - 1) <= PANEL_RIGHT - EXTRAS_LEFT else 2


def roster_status(char: Mapping[str, Any], *, drafting: bool, seat_out: bool) -> str:
    """What a roster line shows in place of Health and charge for one character.

    Takes ``char``, the character's object of the view (spec 7.2; only ``at`` is read),
    ``drafting``, whether the position's ``part`` is ``draft``, and ``seat_out``, whether its
    seat resigned. Returns ``""`` for a character on the map (its Health is shown); "out" for
    a resigned seat's, whose living characters left play (R12.4) and are not told from its
    dead; "drafted" during the draft, when every picked character has ``at`` ``""`` and full
    Health until setup ends (3.5), so it is not yet placed, not dead; "dead" otherwise (R10).
    """
    if char["at"]:
        return ""
    if seat_out:
        return "out"
    return "drafted" if drafting else "dead"


def _draw_roster_line(image: Image.Image, reader: _Reader, cid: str, y: float, status: str,
                      extras: str, rows: int) -> None:  # fmt: skip
    """One character: id, card name, Health, charge, then its ``extras``
    (:func:`_roster_extras`; on the next line when ``rows`` is 2, :func:`_roster_rows`).
    A character not on the map reads ``status`` (:func:`roster_status`) instead: greyed when
    it is "dead" or "out", in ink when it is "drafted" (still to be placed)."""
    char = reader.chars[cid]
    seat = int(char["seat"])
    greyed = status in ("dead", "out")
    ink = MUTED if greyed else INK
    size = ROSTER_FONT
    x = PANEL_LEFT + 6
    _text(image, x, y, cid, size, MUTED if greyed else SEAT_DARK[seat], bold=True)
    _text(image, x + 30, y, _fit(reader.card_name(cid), 132, size), size, ink)
    x = PANEL_LEFT + 172
    if status:
        _text(image, x, y, status, size, ink)
        return
    _text(image, x, y, f"{char['hp']}/{reader.max_health(cid)}", size, INK, bold=True)
    # The token's corner badge, which the key explains ("Special charged", "turns to
    # Special"): "ready" and "cd 5" were in no key (exploratory pass 10).
    cd = int(char["cd"])
    if cd == 0:
        _paste(image, _badge_sprite(GOLD, 6), x + 46, y)
    else:
        _paste(image, _badge_sprite(WHITE, 7), x + 46, y)
        _text(image, x + 46, y, str(cd), 11, INK, "mm", bold=True)
    left = EXTRAS_LEFT
    if rows == 2:
        left, y = EXTRAS_WRAP_LEFT, y + ROSTER_LINE
    _text(image, left, y, _fit(extras, PANEL_RIGHT - left, size - 1), size - 1, INK)


def _effect_text(effect: Mapping[str, Any]) -> str:
    """``Atk-1``, ``Def x2``, ``Spd=0`` or ``paralysed``, with the turns left when timed."""
    kind, value = effect["kind"], int(effect["value"])
    stat = STAT_SHORT.get(str(effect["stat"]), str(effect["stat"])[:3].capitalize())
    if kind == "paralyse":
        text = "paralysed"
    elif kind == "add":
        text = f"{stat}{value:+d}"
    elif kind == "mul":
        text = f"{stat}x{value}"
    else:
        text = f"{stat}={value}"
    turns = int(effect["turns"])
    return f"{text}({turns})" if turns > 0 else text


def _draw_private(image: Image.Image, reader: _Reader, top: float) -> None:
    """The viewer's ``brought`` Canons and the identities only it knows."""
    viewer = reader.view.viewer
    assert viewer is not None
    content = reader.content
    brought = [content.canons[card].name for card in reader.data["seats"][viewer]["brought"]]
    known = [
        f"{token} {content.canons[c['card']].name}"
        for token, c in sorted(reader.canons.items(), key=lambda kv: int(kv[0][1:]))
        if c["card"] and not c["public"]
    ]
    known += [
        f"{token} {content.monster(m['card']).name}"
        for token, m in sorted(reader.monsters.items(), key=lambda kv: int(kv[0][1:]))
        if m["card"] and not m["public"] and m["at"]
    ]
    y = top
    for title, entries in (("Your Canons (brought)", brought), ("Known only to you", known)):
        if y > KEY_TOP - 30:
            return
        _text(image, PANEL_LEFT, y, title, 13, PRIVATE, bold=True)
        y += 17
        text = ", ".join(entries) if entries else "none"
        for line in _wrap(text, PANEL_WIDTH, 13, max(1, int((KEY_TOP - 10 - y) // 16))):
            _text(image, PANEL_LEFT, y, line, 13, INK)
            y += 16
        y += 4


# ---- one image ---------------------------------------------------------------------------------


def render(
    view: GenerationZeroView,
    *,
    seat_labels: Sequence[str] | None = None,
    perspective: int | None = None,
) -> bytes:
    """Draw ``view`` as a 1280 × 880 palette PNG (see the module docstring) and return its
    bytes.

    ``seat_labels`` are the players' display names in seat order, one per seat
    (``view.data["players"]``), folded to the bundled font. ``perspective`` is ignored: every
    seat sees the same board. The same arguments always give the same bytes. Only ``view`` is drawn:
    a blank ``card`` stays face-down.

    Raises ``TypeError`` if ``view`` is not a :class:`GenerationZeroView` or ``seat_labels`` is
    a single string, and ``ValueError`` if the view is malformed (see :func:`_check`) or
    ``seat_labels`` does not hold one name per seat.
    """
    del perspective  # one board for everybody
    if not isinstance(view, GenerationZeroView):
        raise TypeError(f"expected a GenerationZeroView, not {type(view).__name__}")
    if isinstance(seat_labels, str):
        raise TypeError("seat_labels must be a sequence of names, not one string")
    _check(view, seat_labels)
    reader = _Reader(view)
    costs = bool(view.options.get("appendix_terrain", True))
    stamp = _RECORDER.set(None)  # the cached cards layer holds only catalogue facts
    try:
        layer = _cards_layer(view.content, str(view.data["layout"]), view.map, costs)
    finally:
        _RECORDER.reset(stamp)
    image = layer.copy()
    draw = ImageDraw.Draw(image)
    _draw_header(image, draw, reader, seat_labels)
    _draw_marks(image, draw, reader)
    for location in reader.map:
        _draw_card_contents(image, reader, location)
    _draw_panel(image, draw, reader, seat_labels)
    # Mapped onto the palette whole: tokens and chips lie on every card, so composing on the
    # palette (render.kit.Composer) would find no smaller box worth mapping.
    paletted = image.quantize(palette=palette_image(PALETTE), dither=Image.Dither.NONE)
    return encode_png(paletted, PNG_COMPRESS_LEVEL)


def render_recording_texts(
    view: GenerationZeroView, *, seat_labels: Sequence[str] | None = None
) -> tuple[bytes, tuple[str, ...]]:
    """:func:`render`, plus every string drawn from the view (the header, the card contents
    and the panel; not the cached slot labels, Location names and key, which are catalogue
    facts), in drawing order. For tests that check what a picture can reveal."""
    with _recording() as texts:
        data = render(view, seat_labels=seat_labels)
    return data, tuple(texts)


@contextmanager
def _recording() -> Iterator[list[str]]:
    texts: list[str] = []
    stamp = _RECORDER.set(texts)
    try:
        yield texts
    finally:
        _RECORDER.reset(stamp)
