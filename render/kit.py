"""Drawing tools every board renderer shares: colours, the fixed PNG palette, text.

Renderers draw in RGB and then map the image onto a fixed palette of their own colours plus the
blends anti-aliasing makes (:func:`build_palette`), because a palette PNG encodes several times
faster than an RGB one and stays small. Text uses Pillow's bundled font (:func:`bundled_font`), so
pictures do not depend on the machine's fonts; :func:`displayable_label` cuts player names down
to what that font can draw.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

__all__ = [
    "BACKGROUND",
    "INK",
    "MUTED",
    "PANEL_BACKGROUND",
    "RGB",
    "WHITE",
    "blend",
    "build_palette",
    "bundled_font",
    "displayable_label",
    "draw_text",
    "palette_image",
    "text_stamp",
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


#: Latin letters that Unicode does not decompose into a base letter and an accent.
_FOLD = str.maketrans(
    {"ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss", "đ": "d",
     "Đ": "D", "ł": "l", "Ł": "L", "ı": "i", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D"}
)  # fmt: skip


def displayable_label(text: str, max_width: float, size: int) -> str:
    """``text`` cut down to what the bundled font can draw in ``max_width`` px at ``size`` px.

    Compatibility forms are normalised (full-width letters), accents folded (``é`` → ``e``,
    ``ø`` → ``o``), characters the font lacks (other scripts, emoji) and control characters
    dropped, whitespace collapsed, and a label that is still too wide cut with ``…``. Returns
    ``""`` when nothing drawable is left; the panel then shows the seat name alone.
    """
    folded = unicodedata.normalize("NFKD", text.translate(_FOLD))
    kept = "".join(
        " " if char.isspace() else char
        for char in folded
        if char.isspace() or (unicodedata.category(char)[0] not in "CM" and _has_glyph(char))
    )
    label = " ".join(kept.split())
    face = bundled_font(size)
    if face.getlength(label) <= max_width:
        return label
    while label and face.getlength(label + "…") > max_width:
        label = label[:-1].rstrip()
    return label + "…" if label else ""


@lru_cache(maxsize=4096)
def text_stamp(text: str, size: int, anchor: str, bold: bool) -> tuple[Image.Image, int, int]:
    """``text`` at ``size`` px as an anti-aliased ``L`` mask, and the offset of the mask's
    top-left corner from the ``anchor`` point (Pillow's anchors: ``"lm"`` = left-middle…).

    ``bold`` thickens the regular face with a one-pixel stroke. Cached for the whole process:
    panel texts come back image after image, and drawing text is the slow part of a picture.
    """
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
    anchor: str = "lm", bold: bool = False,
) -> None:  # fmt: skip
    """Draw ``text`` at ``size`` px in ``colour`` with its ``anchor`` point at (``x``, ``y``)."""
    if not text:
        return
    mask, left, top = text_stamp(text, size, anchor, bold)
    corner = (round(x) + left, round(y) + top)
    canvas.paste(colour, (*corner, corner[0] + mask.width, corner[1] + mask.height), mask)
