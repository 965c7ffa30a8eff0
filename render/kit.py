"""Drawing tools every board renderer shares: colours, the fixed PNG palette, text.

Renderers draw in RGB and then map the image onto a fixed palette of their own colours plus the
blends anti-aliasing makes (:func:`build_palette`), because a palette PNG encodes several times
faster than an RGB one and stays small. Text uses Pillow's bundled font (:func:`bundled_font`), so
pictures do not depend on the machine's fonts; characters it lacks fall back, one by one, to the
Noto faces bundled in ``render/fonts/`` (:data:`FALLBACK_FACES`), and :func:`displayable_label`
cuts player names down to what those faces can draw.
"""

from __future__ import annotations

import io
import math
import unicodedata
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

__all__ = [
    "BACKGROUND",
    "FALLBACK_FACES",
    "FONT_DIR",
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
    "face",
    "face_for",
    "face_runs",
    "is_plain",
    "palette_image",
    "shape_arabic",
    "text_stamp",
    "text_width",
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


def displayable_label(text: str, max_width: float, size: int) -> str:
    """``text`` cut down to what the bundled faces can draw in ``max_width`` px at ``size`` px.

    Returns logical-order text for :func:`draw_text`. Latin letters keep the look of Pillow's
    Aileron, which has only ASCII: accents are folded (``é`` → ``e``, ``ø`` → ``o``) and
    compatibility forms normalised (full-width letters). Every other character a fallback face
    has is kept (Cyrillic, Greek, Arabic, Hebrew, common CJK, emoji; :data:`FALLBACK_FACES`);
    control and combining characters (including emoji joiners and variation selectors) and
    characters no face has are dropped; whitespace is collapsed, and a label still too wide is
    cut with ``…``. Returns ``""`` when nothing drawable is left; the panel then shows the seat
    name alone.
    """
    normalised = unicodedata.normalize("NFC", text)
    label = " ".join("".join(_displayable(char) for char in normalised).split())
    if text_width(label, size) <= max_width:
        return label
    while label and text_width(label + "…", size) > max_width:
        label = label[:-1].rstrip()
    return label + "…" if label else ""


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
    anchor: str = "lm", bold: bool = False,
) -> None:  # fmt: skip
    """Draw ``text`` at ``size`` px in ``colour`` with its ``anchor`` point at (``x``, ``y``)."""
    if not text:
        return
    mask, left, top = text_stamp(text, size, anchor, bold)
    corner = (round(x) + left, round(y) + top)
    canvas.paste(colour, (*corner, corner[0] + mask.width, corner[1] + mask.height), mask)


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
