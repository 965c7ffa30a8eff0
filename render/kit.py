"""Drawing tools every board renderer shares: colours, the fixed PNG palette, text, and the
palette compositing that keeps a picture cheap.

Renderers draw anti-aliased shapes and text in RGB, and every PNG is a palette (``P``) image on a
fixed palette of the game's colours plus the blends anti-aliasing makes (:func:`build_palette`),
because a palette PNG encodes several times faster than an RGB one and stays small. Mapping a
whole RGB picture onto the palette costs about a millisecond, so a picture can be composed on
the palette (:class:`Composer`): the fixed layer is mapped once per process (:class:`Layer`);
a sprite or a text that sits on that layer alone can be mapped once per place and content
(:func:`sprite_patch`, :func:`region_patch`, :func:`text_patch`) and pasted, through a one-bit
mask; and only the boxes drawn over varying backgrounds are drawn in RGB and mapped. Every
pixel is the one that mapping the whole RGB picture would give, because the palette lookup
depends on a pixel's colour alone (``tests/render/test_compose.py``). :func:`encode_png` writes
the PNG with the fast zlib settings measured in ``bench/render_*.py``.

Text uses Pillow's bundled font (:func:`bundled_font`), so pictures do not depend on the machine's
fonts; characters it lacks fall back, one by one, to the Noto faces bundled in ``render/fonts/``
(:data:`FALLBACK_FACES`), and :func:`displayable_label` cuts player names down to what those
faces can draw. :func:`text_at` draws text exactly as ``ImageDraw.text`` would, from a cached
mask.
"""

from __future__ import annotations

import io
import math
import unicodedata
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import ClassVar

from PIL import Image, ImageDraw, ImageFont

__all__ = [
    "BACKGROUND",
    "FALLBACK_FACES",
    "FONT_DIR",
    "INK",
    "MUTED",
    "PANEL_BACKGROUND",
    "PNG_COMPRESS_LEVEL",
    "RGB",
    "WHITE",
    "Box",
    "Composer",
    "Layer",
    "Patch",
    "blend",
    "box_of",
    "build_palette",
    "bundled_font",
    "displayable_label",
    "draw_text",
    "encode_png",
    "face",
    "face_for",
    "face_runs",
    "fitted_label",
    "is_plain",
    "meets",
    "palette_image",
    "region_patch",
    "shape_arabic",
    "sprite_patch",
    "stamp_box",
    "text_at",
    "text_box",
    "text_patch",
    "text_stamp",
    "text_width",
    "tiles_of",
    "union",
    "visual_order",
]

RGB = tuple[int, int, int]

#: The house colours every board picture shares: the warm paper background, the panel's
#: slightly darker paper, the ink of text and lines, muted text, and white.
BACKGROUND: RGB = (0xF7, 0xF5, 0xF0)
PANEL_BACKGROUND: RGB = (0xEC, 0xE8, 0xDF)
INK: RGB = (0x1E, 0x1E, 0x1E)
MUTED: RGB = (0x6E, 0x6A, 0x62)
WHITE: RGB = (0xFF, 0xFF, 0xFF)


def blend(top: RGB, bottom: RGB, alpha: float) -> RGB:
    """``top`` over ``bottom`` at opacity ``alpha`` (0–1)."""
    r, g, b = (round(t * alpha + u * (1 - alpha)) for t, u in zip(top, bottom, strict=True))
    return (r, g, b)


def build_palette(
    base: Sequence[RGB], ramp_pairs: Iterable[tuple[RGB, RGB]], steps: int = 6
) -> tuple[RGB, ...]:
    """The ``base`` colours (first one = background) plus ``steps - 1`` blends of each
    ``(top, bottom)`` pair, near twins dropped. Raises ``AssertionError`` beyond 256 colours."""
    ramps = (blend(top, bottom, k / steps) for top, bottom in ramp_pairs for k in range(1, steps))
    colours = list(dict.fromkeys(base))
    for candidate in ramps:
        # Pillow's palette lookup works on 6-bit channels, so near twins would be merged anyway.
        if all(
            max(abs(c - d) for c, d in zip(candidate, kept, strict=True)) > 6 for kept in colours
        ):
            colours.append(candidate)
    if len(colours) > 256:
        raise AssertionError(f"the palette needs {len(colours)} colours; PNG allows 256")
    return tuple(colours)


@cache
def palette_image(palette: tuple[RGB, ...]) -> Image.Image:
    """A 1×1 ``P`` image carrying ``palette``, for ``Image.quantize(palette=…)``."""
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in palette for channel in colour])
    return image


# ---- palette compositing: most of a picture is never mapped onto the palette twice ------------

#: A pixel box: left, top, right, bottom (right and bottom exclusive), as ``Image.crop`` takes.
Box = tuple[int, int, int, int]

#: The default zlib level of the board PNGs (:func:`encode_png`). With Pillow's zlib-ng, levels 1
#: and 2 take the same time on the boards and 2 makes 4–7 % fewer bytes; 3 takes ~10 % longer,
#: Pillow's default 6 two to three times as long (``bench/render_*.py`` prints the encode alone).
PNG_COMPRESS_LEVEL = 2


def encode_png(
    image: Image.Image, level: int = PNG_COMPRESS_LEVEL, strategy: int = zlib.Z_DEFAULT_STRATEGY
) -> bytes:
    """``image`` (a ``P`` picture) as PNG bytes, at zlib ``level`` with ``strategy``
    (``zlib.Z_RLE`` is faster on pictures of large flat areas, but can double the bytes of
    busy ones). Pillow writes 8-bit indices without row filters for a palette image."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=level, compress_type=strategy)
    return out.getvalue()


def meets(a: Box, b: Box) -> bool:
    """Whether boxes ``a`` and ``b`` share a pixel."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def union(boxes: Iterable[Box]) -> Box:
    """The smallest box holding every one of ``boxes`` (at least one)."""
    lefts, tops, rights, bottoms = zip(*boxes, strict=True)
    return (min(lefts), min(tops), max(rights), max(bottoms))


def box_of(points: Iterable[tuple[float, float]], margin: float) -> Box:
    """The pixel box holding every point widened by ``margin`` px on each side (rounded out)."""
    xs, ys = zip(*points, strict=True)
    return (math.floor(min(xs) - margin), math.floor(min(ys) - margin),
            math.ceil(max(xs) + margin) + 1, math.ceil(max(ys) + margin) + 1)  # fmt: skip


@dataclass(frozen=True, slots=True, eq=False)
class Layer:
    """A fixed picture layer (drawn once per process): its RGB drawing and the same mapped onto
    ``palette`` (a ``P`` image; build it with :meth:`of`). Compared and hashed by identity, so
    caches can be keyed by it."""

    rgb: Image.Image
    paletted: Image.Image
    palette: tuple[RGB, ...]

    @classmethod
    def of(cls, rgb: Image.Image, palette: tuple[RGB, ...]) -> Layer:
        """The layer of the RGB drawing ``rgb`` on ``palette`` (nearest colour, no dithering)."""
        return cls(rgb, _to_palette(rgb, palette), palette)


def _to_palette(rgb: Image.Image, palette: tuple[RGB, ...]) -> Image.Image:
    return rgb.quantize(palette=palette_image(palette), dither=Image.Dither.NONE)


@dataclass(frozen=True, slots=True, eq=False)
class Patch:
    """Part of a picture already drawn over a layer and mapped onto the palette: the ``P``
    pixels, the one-bit mask of the pixels to paste (``None``: the whole box), and where they
    go."""

    image: Image.Image
    mask: Image.Image | None
    box: Box


def sprite_patch(layer: Layer, *sprites: tuple[Image.Image, tuple[int, int]]) -> Patch:
    """The :class:`Patch` of RGBA ``sprites`` pasted (each through its own alpha, in order) with
    their top-left corners where given on ``layer``: exactly the pixels that pasting them on
    the layer's RGB drawing and mapping the result onto the palette gives. Meant to be cached
    by the caller per sprite and place. Raises ``ValueError`` if nothing is opaque."""
    placed = []
    for sprite, (left, top) in sprites:
        covered = sprite.getchannel("A").getbbox()
        if covered is not None:
            tight = sprite.crop(covered)
            corner = (left + covered[0], top + covered[1])
            placed.append((tight, (*corner, corner[0] + tight.width, corner[1] + tight.height)))
    if not placed:
        raise ValueError("a sprite patch needs a sprite with some opaque pixels")
    box = union(where for _, where in placed)
    under = layer.rgb.crop(box)
    mask = Image.new("1", under.size, 0)
    for tight, where in placed:
        corner = (where[0] - box[0], where[1] - box[1])
        under.paste(tight, corner, tight)
        mask.paste(1, corner, tight.getchannel("A").point(lambda alpha: 255 if alpha else 0, "1"))
    return Patch(_to_palette(under, layer.palette), mask, box)


#: The side (px) of the tiles :class:`Composer` keeps its marked area in, for quick overlap
#: tests (an overlap of tiles may be no overlap of pixels: the test errs on the safe side).
TILE = 32
#: Two marked boxes are mapped as one box when that adds at most this many pixels: each mapping
#: (crop, map, paste) has a fixed cost of several thousand pixels' worth, and the boxes of one
#: sprite or line lie close together.
MERGE_SLACK = 12_000


def tiles_of(box: Box) -> frozenset[int]:
    """The :data:`TILE` tiles ``box`` touches, as ``row * 1024 + column`` (cached)."""
    return _tiles(box)


@lru_cache(maxsize=16_384)
def _tiles(box: Box) -> frozenset[int]:
    """The :data:`TILE` tiles ``box`` touches, as ``row * 1024 + column``."""
    return frozenset(
        row * 1024 + column
        for row in range(max(box[1], 0) // TILE, max(box[3] - 1, 0) // TILE + 1)
        for column in range(max(box[0], 0) // TILE, max(box[2] - 1, 0) // TILE + 1)
    )


#: :meth:`Composer.finish` maps a whole picture without patches at once when its boxes cover
#: at least this share of it.
FULL_MAP_SHARE = 0.55
#: How many of the boxes joined so far :func:`_merged` tries to join a box to (the nearest ones
#: above it): enough for the marks of one sprite or one line, cheap for a hundred marks.
MERGE_LOOKBACK = 6


def _merged(boxes: list[Box]) -> list[Box]:
    """``boxes`` with boxes that overlap or lie close together joined, where the join adds
    at most :data:`MERGE_SLACK` pixels to map (boxes taken top to bottom, each tried against
    the last :data:`MERGE_LOOKBACK` joined boxes; twice over, so joins can join)."""
    for _ in range(2):
        merged: list[Box] = []
        for box in sorted(boxes, key=lambda box: (box[1], box[0])):
            left, top, right, bottom = box
            area = (right - left) * (bottom - top)
            for index in range(len(merged) - 1, max(len(merged) - MERGE_LOOKBACK, 0) - 1, -1):
                kept_left, kept_top, kept_right, kept_bottom = merged[index]
                joined = (min(left, kept_left), min(top, kept_top),
                          max(right, kept_right), max(bottom, kept_bottom))  # fmt: skip
                joined_area = (joined[2] - joined[0]) * (joined[3] - joined[1])
                kept_area = (kept_right - kept_left) * (kept_bottom - kept_top)
                if joined_area <= area + kept_area + MERGE_SLACK:
                    merged[index] = joined
                    break
            else:
                merged.append(box)
        if len(merged) == len(boxes):
            break
        boxes = merged
    return merged


def region_patch(
    layer: Layer, box: Box, draw: Callable[[Image.Image, tuple[int, int]], None]
) -> Patch:
    """The :class:`Patch` of ``box`` after ``draw(canvas, origin)`` has drawn on the layer's
    RGB drawing there: ``canvas`` is the box's crop and ``origin`` its top-left corner, which
    ``draw`` subtracts from its coordinates (:func:`text_at` and :func:`draw_text` take it).
    Exact when nothing else is drawn in ``box``. Meant to be cached by the caller."""
    canvas = layer.rgb.crop(box)
    draw(canvas, (box[0], box[1]))
    return Patch(_to_palette(canvas, layer.palette), None, box)


@lru_cache(maxsize=1024)
def text_patch(
    layer: Layer, x: float, y: float, text: str, size: int, colour: RGB, anchor: str = "la",
    stroke: int = 0,
) -> Patch:  # fmt: skip
    """:func:`text_at` of Aileron ``text`` over ``layer``, as a :class:`Patch` of its box
    (cached for the process)."""

    def draw(canvas: Image.Image, origin: tuple[int, int]) -> None:
        text_at(canvas, x, y, text, size, colour, anchor, stroke, origin)

    return region_patch(layer, text_box(x, y, text, size, anchor, stroke), draw)


class Composer:
    """One picture composed on a copy of a :class:`Layer`'s palette image.

    Things that sit on the fixed layer alone go in as :class:`Patch` es (:meth:`put`). Things
    drawn over varying backgrounds are drawn in RGB on :attr:`rgb` (a copy of ``start``, by
    default the layer's RGB drawing, made on first use) with every box they touch given to
    :meth:`mark` before anything is drawn; whatever a marked box overlaps (:meth:`meets`: a
    patch, or a part of the layer missing from ``start``) must be drawn on :attr:`rgb` as well,
    in the picture's order. :meth:`finish` maps the marked boxes of :attr:`rgb` onto the palette
    over the rest.
    """

    #: Tests set this to check the composing: every picture is then one marked box, so all of
    #: it is drawn in RGB and mapped at once, as the renderers did before composing; the
    #: composed pictures must equal those pixel for pixel.
    map_everything: ClassVar[bool] = False

    def __init__(self, layer: Layer, start: Image.Image | None = None) -> None:
        self.layer = layer
        self._image: Image.Image | None = None
        self._marked: list[Box] = []
        self._boxes: list[Box] | None = []
        self._tiles: frozenset[int] = frozenset()
        self._start = layer.rgb if start is None else start
        self._rgb: Image.Image | None = None
        if self.map_everything:
            self.mark((0, 0, *layer.rgb.size))

    @property
    def image(self) -> Image.Image:
        """The palette picture (the layer's palette image, copied on first use)."""
        if self._image is None:
            self._image = self.layer.paletted.copy()
        return self._image

    @property
    def rgb(self) -> Image.Image:
        """The RGB canvas (``start`` copied on first use)."""
        if self._rgb is None:
            self._rgb = self._start.copy()
        return self._rgb

    def mark(self, box: Box) -> None:
        """Take ``box`` of :attr:`rgb` into the picture when it is finished."""
        width, height = self.layer.rgb.size
        clipped = (max(box[0], 0), max(box[1], 0), min(box[2], width), min(box[3], height))
        if clipped[0] < clipped[2] and clipped[1] < clipped[3]:
            self._marked.append(clipped)
            self._boxes = None

    @property
    def boxes(self) -> list[Box]:
        """The boxes :meth:`finish` maps: the marked boxes, those close together joined (so
        they may hold more than was marked; :meth:`meets` answers for these)."""
        return self._settle()

    def _settle(self) -> list[Box]:
        """Join the marked boxes (once after each :meth:`mark`) and find their tiles."""
        if self._boxes is None:
            self._boxes = _merged(self._marked)
            self._tiles = frozenset().union(*(_tiles(box) for box in self._boxes))
        return self._boxes

    def meets(self, box: Box) -> bool:
        """Whether ``box`` may overlap a box :meth:`finish` maps (certainly not if ``False``)."""
        return bool(self.boxes) and not self._tiles.isdisjoint(_tiles(box))

    @property
    def tiles(self) -> frozenset[int]:
        """The :data:`TILE` tiles the boxes :meth:`finish` maps touch (see :func:`tiles_of`)."""
        self._settle()
        return self._tiles

    def put(self, patch: Patch) -> None:
        """Paste ``patch`` (its covered pixels only) on the palette image."""
        if patch.mask is None:
            self.image.paste(patch.image, patch.box)
        else:
            self.image.paste(patch.image, patch.box, patch.mask)

    def finish(self) -> Image.Image:
        """The palette picture: the marked boxes of :attr:`rgb` mapped onto the palette (nearest
        colour, no dithering) over the patches and the layer. When the boxes cover most of a
        picture that has no patches, all of :attr:`rgb` is mapped at once, which is cheaper
        than copying the boxes around and gives the same pixels."""
        palette = palette_image(self.layer.palette)
        if self._image is None and self.boxes:
            width, height = self.layer.rgb.size
            covered = sum((box[2] - box[0]) * (box[3] - box[1]) for box in self.boxes)
            if covered >= FULL_MAP_SHARE * width * height:
                return self.rgb.quantize(palette=palette, dither=Image.Dither.NONE)
        if self.boxes:
            for box in self.boxes:
                mapped = self.rgb.crop(box).quantize(palette=palette, dither=Image.Dither.NONE)
                self.image.paste(mapped, box)
        return self.image


@cache
def bundled_font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled Aileron Regular at ``size`` px."""
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):
        raise RuntimeError("Pillow was built without FreeType, which the renderers need")
    return loaded


def _glyph_signature(char: str) -> tuple[tuple[int, int], bytes]:
    mask = bundled_font(16).getmask(char)
    return mask.size, bytes(mask)


@cache
def _has_glyph(char: str) -> bool:
    """Whether the bundled font has ``char`` (rather than drawing its missing-glyph box)."""
    return char == " " or _glyph_signature(char) != _glyph_signature("\ufffe")


# ---- fallback faces: every script a player name may use ---------------------------------------

#: Where the bundled Noto faces live (see ``render/fonts/build_fonts.py`` and ``OFL.txt``).
FONT_DIR = Path(__file__).parent / "fonts"

#: The faces tried, in order, for a character Pillow's Aileron (face 0) lacks: Latin, Greek and
#: Cyrillic; Arabic; Hebrew; a CJK subset (kana, Hangul, ~7,200 common ideographs); monochrome
#: emoji. Face ``i`` here is face ``i + 1`` in :func:`face`.
FALLBACK_FACES = (
    "NotoSans-Regular.ttf",
    "NotoSansArabic-Regular.ttf",
    "NotoSansHebrew-Regular.ttf",
    "NotoSansCJK-Subset.otf",
    "NotoEmoji-Regular.ttf",
)


@cache
def _face_bytes(name: str) -> bytes:
    return (FONT_DIR / name).read_bytes()


@cache
def face(index: int, size: int) -> ImageFont.FreeTypeFont:
    """Face ``index`` at ``size`` px: 0 is :func:`bundled_font`, 1… the :data:`FALLBACK_FACES`.

    Every face uses Pillow's basic layout (no shaping library), so pictures are the same on
    machines with and without libraqm/FriBiDi; :func:`visual_order` does the little shaping and
    reordering that names need. Raises ``IndexError`` for an unknown index, ``OSError`` if a
    font file is missing.
    """
    if index == 0:
        return bundled_font(size)
    data = _face_bytes(FALLBACK_FACES[index - 1])
    return ImageFont.truetype(io.BytesIO(data), size, layout_engine=ImageFont.Layout.BASIC)


@cache
def face_for(char: str) -> int | None:
    """The first face (0 = Aileron, see :func:`face`) with a glyph for ``char``; ``None`` if no
    face has one. Decided by drawing: a face without the glyph draws its missing-glyph box."""
    if _has_glyph(char):
        return 0
    for index in range(1, len(FALLBACK_FACES) + 1):
        font = face(index, 16)
        mask = font.getmask(char)
        missing = font.getmask("\ufffe")
        if (mask.size, bytes(mask)) != (missing.size, bytes(missing)):
            return index
    return None


def is_plain(text: str) -> bool:
    """Whether Aileron alone draws ``text`` (the fast path every picture used before names in
    other scripts: such text is drawn exactly as it always was)."""
    return all(_has_glyph(char) for char in text)


# ---- right-to-left: Arabic joining forms and a small bidirectional reordering -----------------


@cache
def _arabic_forms() -> tuple[dict[str, dict[str, str]], dict[tuple[str, str], dict[str, str]]]:
    """Each Arabic letter's presentation forms by position (``isolated``, ``final``,
    ``initial``, ``medial``) and the lam-alef ligatures', read from Unicode's decompositions."""
    letters: dict[str, dict[str, str]] = {}
    ligatures: dict[tuple[str, str], dict[str, str]] = {}
    for code in range(0xFB50, 0xFEFD):
        parts = unicodedata.decomposition(chr(code)).split()
        if not parts or parts[0] not in ("<isolated>", "<final>", "<initial>", "<medial>"):
            continue
        form, bases = parts[0][1:-1], tuple(chr(int(p, 16)) for p in parts[1:])
        if len(bases) == 1:
            letters.setdefault(bases[0], {}).setdefault(form, chr(code))
        elif len(bases) == 2 and bases[0] == "\u0644" and 0xFEF5 <= code <= 0xFEFC:
            ligatures.setdefault((bases[0], bases[1]), {})[form] = chr(code)
    letters["\u0640"] = dict.fromkeys(("isolated", "final", "initial", "medial"), "\u0640")
    return letters, ligatures


def _joins_next(char: str) -> bool:
    """Dual-joining: the letter connects to the one after it (in reading order)."""
    forms = _arabic_forms()[0].get(char, {})
    return "initial" in forms or "medial" in forms


def _joins_previous(char: str) -> bool:
    """Dual- or right-joining: the letter connects to the one before it."""
    return "final" in _arabic_forms()[0].get(char, {})


def shape_arabic(text: str) -> str:
    """``text`` (logical order) with each Arabic letter replaced by its presentation form for its
    place in the word (isolated, initial, medial, final) and lam + alef by their ligature: the
    contextual shaping a shaping engine would do, so Pillow's basic layout draws joined script.
    Other characters pass unchanged."""
    letters, ligatures = _arabic_forms()
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        after = text[index + 1] if index + 1 < len(text) else ""
        joined_before = index > 0 and _joins_next(text[index - 1]) and _joins_previous(char)
        ligature = ligatures.get((char, after))
        if ligature is not None:
            out.append(ligature["final" if joined_before else "isolated"])
            index += 2
            continue
        joined_after = bool(after) and _joins_next(char) and _joins_previous(after)
        form = {(True, True): "medial", (True, False): "final", (False, True): "initial",
                (False, False): "isolated"}[(joined_before, joined_after)]  # fmt: skip
        forms = letters.get(char, {})
        out.append(forms.get(form, forms.get("isolated", char)))
        index += 1
    return "".join(out)


_MIRROR = str.maketrans("()[]{}<>«»", ")(][}{><»«")


def visual_order(text: str) -> str:
    """``text`` shaped (:func:`shape_arabic`) and put in the left-to-right order to draw it: a
    small form of the Unicode bidirectional algorithm for one line without embeddings. The
    paragraph direction is that of the first strong letter; right-to-left runs (Arabic, Hebrew)
    are reversed with the numbers inside them kept left-to-right, neutrals between two runs of
    one direction take that direction and otherwise the paragraph's, and brackets in
    right-to-left runs are mirrored. Text without right-to-left letters is returned unchanged."""
    kinds = [unicodedata.bidirectional(char) for char in text]
    if not any(kind in ("R", "AL") for kind in kinds):
        return text
    text = shape_arabic(text)
    kinds = [unicodedata.bidirectional(char) for char in text]
    strong = [kind for kind in kinds if kind in ("L", "R", "AL")]
    base = 1 if strong and strong[0] != "L" else 0
    # Each character's direction: "L", "R" or None (neutral), numbers taking their context's.
    directions: list[str | None] = []
    previous = "R" if base else "L"
    for kind in kinds:
        if kind in ("L", "R", "AL"):
            previous = "L" if kind == "L" else "R"
            directions.append(previous)
        elif kind in ("EN", "AN"):
            directions.append("N" + previous)  # a number: drawn left-to-right, in its context
        else:
            directions.append(None)
    levels: list[int] = []
    for index, direction in enumerate(directions):
        if direction is None:
            before = next((d for d in reversed(directions[:index]) if d), "R" if base else "L")
            after = next((d for d in directions[index + 1 :] if d), "R" if base else "L")
            side = (before[-1], after[-1])
            direction = side[0] if side[0] == side[1] else ("R" if base else "L")
        if direction == "L":
            levels.append(2 if base else 0)
        elif direction == "R":
            levels.append(1)
        else:  # a number after right-to-left text, or in a right-to-left paragraph
            levels.append(2 if direction == "NR" or base else 0)
    chars = [char.translate(_MIRROR) if level % 2 else char
             for char, level in zip(text, levels, strict=True)]  # fmt: skip
    for floor in range(max(levels), 0, -1):
        index = 0
        while index < len(chars):
            if levels[index] < floor:
                index += 1
                continue
            end = index
            while end < len(chars) and levels[end] >= floor:
                end += 1
            chars[index:end] = chars[index:end][::-1]
            levels[index:end] = levels[index:end][::-1]
            index = end
    return "".join(chars)


def face_runs(text: str) -> list[tuple[int, str]]:
    """``text`` (already in visual order) split into runs drawn by one face each, as
    ``(face index, text)``: each character goes to :func:`face_for`'s face (Aileron's missing
    box if none has it); spaces to Aileron (some subsets have none, the emoji face's is wide)."""
    runs: list[tuple[int, str]] = []
    for char in text:
        index = face_for(char) or 0
        if runs and runs[-1][0] == index:
            runs[-1] = (index, runs[-1][1] + char)
        else:
            runs.append((index, char))
    return runs


def text_width(text: str, size: int) -> float:
    """The advance width in px of ``text`` at ``size`` px, as :func:`draw_text` draws it."""
    if is_plain(text):
        return bundled_font(size).getlength(text)
    return sum(face(index, size).getlength(run) for index, run in face_runs(visual_order(text)))


#: Latin letters that Unicode does not decompose into a base letter and an accent.
_FOLD = str.maketrans(
    {"ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss", "đ": "d",
     "Đ": "D", "ł": "l", "Ł": "L", "ı": "i", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D"}
)  # fmt: skip


@cache
def _displayable(char: str) -> str:
    """What a name keeps of ``char``: itself if Aileron has it; else its accent-folded Latin
    form (``é`` → ``e``, full-width ``Ａ`` → ``A``) if Aileron has that; else itself if a
    fallback face has it; else nothing. Control and combining characters give nothing."""
    if char.isspace():
        return " "
    if unicodedata.category(char)[0] in "CM":
        return ""
    if _has_glyph(char):
        return char
    folded = "".join(
        part
        for part in unicodedata.normalize("NFKD", char.translate(_FOLD))
        if unicodedata.category(part)[0] not in "CM"
    )
    if folded and all(_has_glyph(part) for part in folded):
        return folded
    return char if face_for(char) is not None else ""


@lru_cache(maxsize=4096)
def displayable_label(text: str, max_width: float, size: int) -> str:
    """``text`` cut down to what the bundled faces can draw in ``max_width`` px at ``size`` px.

    Returns logical-order text for :func:`draw_text`. Latin letters keep the look of Pillow's
    Aileron, which has only ASCII: accents are folded (``é`` → ``e``, ``ø`` → ``o``) and
    compatibility forms normalised (full-width letters). Every other character a fallback face
    has is kept (Cyrillic, Greek, Arabic, Hebrew, common CJK, emoji; :data:`FALLBACK_FACES`);
    control and combining characters (including emoji joiners and variation selectors) and
    characters no face has are dropped; whitespace is collapsed, and a label still too wide is
    cut with ``…``. Returns ``""`` when nothing drawable is left; the panel then shows the seat
    name alone. Cached: the same names come back picture after picture.
    """
    normalised = unicodedata.normalize("NFC", text)
    label = " ".join("".join(_displayable(char) for char in normalised).split())
    if text_width(label, size) <= max_width:
        return label
    while label and text_width(label + "…", size) > max_width:
        label = label[:-1].rstrip()
    return label + "…" if label else ""


@lru_cache(maxsize=4096)
def fitted_label(text: str, max_width: float, size: int, smallest: int) -> tuple[str, int]:
    """``(label, size)``: ``text`` whole (:func:`displayable_label`) at the largest size from
    ``size`` down to ``smallest`` px, in steps of 2 px, at which it fits ``max_width`` px;
    else cut with ``…`` at ``size``. A name a little too long is drawn a little smaller
    rather than cut: a bot's "Gameroom (level 3)" keeps the level that tells it apart."""
    for trial in range(size, smallest - 1, -2):
        label = displayable_label(text, max_width, trial)
        if not label.endswith("…"):
            return label, trial
    return displayable_label(text, max_width, size), size


@lru_cache(maxsize=4096)
def text_stamp(text: str, size: int, anchor: str, bold: bool) -> tuple[Image.Image, int, int]:
    """``text`` at ``size`` px as an anti-aliased ``L`` mask, and the offset of the mask's
    top-left corner from the ``anchor`` point (Pillow's anchors: ``"lm"`` = left-middle…).

    ``bold`` thickens the regular face with a one-pixel stroke. Text Aileron cannot draw alone
    is put in visual order (:func:`visual_order`), split into runs by face (:func:`face_runs`)
    and drawn run after run on Aileron's baseline. Cached for the whole process: panel texts
    come back image after image, and drawing text is the slow part of a picture.
    """
    if not is_plain(text):
        return _mixed_stamp(text, size, anchor, bold)
    font, stroke = bundled_font(size), 1 if bold else 0
    box = font.getbbox(text, anchor=anchor, stroke_width=stroke)
    left, top = math.floor(box[0]), math.floor(box[1])
    right, bottom = math.ceil(box[2]), math.ceil(box[3])
    mask = Image.new("L", (max(right - left, 1), max(bottom - top, 1)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=font, fill=255, anchor=anchor,
                              stroke_width=stroke, stroke_fill=255)  # fmt: skip
    return mask, left, top


def draw_text(
    canvas: Image.Image, x: float, y: float, text: str, size: int, colour: RGB,
    anchor: str = "lm", bold: bool = False, origin: tuple[int, int] = (0, 0),
) -> None:  # fmt: skip
    """Draw ``text`` at ``size`` px in ``colour`` with its ``anchor`` point at (``x``, ``y``) of
    the picture, on a ``canvas`` whose top-left pixel is ``origin`` of the picture."""
    if not text:
        return
    mask, left, top = text_stamp(text, size, anchor, bold)
    corner = (round(x) + left - origin[0], round(y) + top - origin[1])
    canvas.paste(colour, (*corner, corner[0] + mask.width, corner[1] + mask.height), mask)


def stamp_box(
    x: float, y: float, text: str, size: int, anchor: str = "lm", bold: bool = False
) -> Box:
    """The box :func:`draw_text` draws in (empty for empty text)."""
    if not text:
        corner = (round(x), round(y))
        return (*corner, *corner)
    mask, left, top = text_stamp(text, size, anchor, bold)
    corner = (round(x) + left, round(y) + top)
    return (*corner, corner[0] + mask.width, corner[1] + mask.height)


@lru_cache(maxsize=8192)
def _placed_mask(
    text: str, size: int, anchor: str, stroke: int, start: tuple[float, float]
) -> tuple[Image.Image | None, int, int]:
    """The mask ``ImageDraw.text`` makes for ``text`` at a point whose fractional part is
    ``start``, and its offset from the point's integer part (``None``: nothing to draw)."""
    core, (left, top) = bundled_font(size).getmask2(
        text, "L", None, None, None, stroke, anchor, 0, start, stroke_filled=True
    )
    width, height = core.size
    if not width or not height:
        return None, left, top
    return Image.frombytes("L", (width, height), bytes(core)), left, top


def _placed(
    x: float, y: float, text: str, size: int, anchor: str, stroke: int
) -> tuple[Image.Image | None, Box]:
    start = (math.modf(x)[0], math.modf(y)[0])
    mask, left, top = _placed_mask(text, size, anchor, stroke, start)
    corner = (int(x) + left, int(y) + top)
    if mask is None:
        return None, (*corner, *corner)
    return mask, (*corner, corner[0] + mask.width, corner[1] + mask.height)


def text_box(x: float, y: float, text: str, size: int, anchor: str = "la", stroke: int = 0) -> Box:
    """The box :func:`text_at` would draw in (empty, right = left, for blank text)."""
    return _placed(x, y, text, size, anchor, stroke)[1]


def text_at(
    canvas: Image.Image, x: float, y: float, text: str, size: int, colour: RGB,
    anchor: str = "la", stroke: int = 0, origin: tuple[int, int] = (0, 0),
) -> Box:  # fmt: skip
    """Draw Aileron ``text`` at ``size`` px exactly as ``ImageDraw.text((x, y), text,
    font=bundled_font(size), fill=colour, anchor=anchor, stroke_width=stroke,
    stroke_fill=colour)`` would (same pixels, the sub-pixel start included), from a mask cached
    for the whole process, on a ``canvas`` whose top-left pixel is ``origin`` of the picture;
    return the box drawn in (picture coordinates). For text :func:`is_plain` accepts."""
    mask, box = _placed(x, y, text, size, anchor, stroke)
    if mask is not None:
        left, top = box[0] - origin[0], box[1] - origin[1]
        canvas.paste(colour, (left, top, left + mask.width, top + mask.height), mask)
    return box


def _mixed_stamp(text: str, size: int, anchor: str, bold: bool) -> tuple[Image.Image, int, int]:
    """:func:`text_stamp` for text that needs fallback faces: runs side by side on one baseline,
    anchored by Aileron's vertical metrics and the runs' total advance."""
    emoji = len(FALLBACK_FACES)  # outlined pictures that a bold stroke would fill in
    runs = face_runs(visual_order(text))
    placed: list[tuple[ImageFont.FreeTypeFont, str, float]] = []
    cursor = 0.0
    for index, run in runs:
        font = face(index, size)
        placed.append((font, run, cursor))
        cursor += font.getlength(run)
    strokes = [1 if bold and index != emoji else 0 for index, _ in runs]
    boxes = [
        font.getbbox(run, anchor="ls", stroke_width=stroke)
        for (font, run, _), stroke in zip(placed, strokes, strict=True)
    ]
    left = math.floor(min(box[0] + x for box, (_, _, x) in zip(boxes, placed, strict=True)))
    right = math.ceil(max(box[2] + x for box, (_, _, x) in zip(boxes, placed, strict=True)))
    top = math.floor(min(box[1] for box in boxes))
    bottom = math.ceil(max(box[3] for box in boxes))
    mask = Image.new("L", (max(right - left, 1), max(bottom - top, 1)), 0)
    draw = ImageDraw.Draw(mask)
    for (font, run, x), stroke in zip(placed, strokes, strict=True):
        draw.text((x - left, -top), run, font=font, fill=255, anchor="ls", stroke_width=stroke,
                  stroke_fill=255)  # fmt: skip
    # Where the anchor point lies relative to the baseline's left end.
    aileron = bundled_font(size)
    vertical = (
        aileron.getbbox("x", anchor="l" + anchor[1])[1] - aileron.getbbox("x", anchor="ls")[1]
    )
    horizontal = {"l": 0.0, "m": cursor / 2, "r": cursor}[anchor[0]]
    return mask, math.floor(left - horizontal), math.floor(top + vertical)
