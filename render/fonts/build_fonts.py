"""Rebuild the fonts in ``render/fonts/`` from their upstream packages (a one-off, not run by CI).

The renderers draw Latin text in Pillow's bundled Aileron (so existing pictures keep their exact
pixels) and fall back, character by character, to the Noto faces built here. Sources, all under
the SIL Open Font License 1.1 (``OFL.txt``):

* Debian ``fonts-noto-core`` 20201225-1: ``NotoSans-Regular.ttf`` (Latin, Greek, Cyrillic…),
  ``NotoSansArabic-Regular.ttf`` and ``NotoSansHebrew-Regular.ttf``;
* Debian ``fonts-noto-cjk`` 1:20220127+repack1-1: ``NotoSansCJK-Regular.ttc``, face 0
  (Noto Sans CJK JP), subset as described below;
* PyPI ``manimgx-fonts`` 2026.9.26.post1: ``NotoEmoji[wght].ttf``, Google's monochrome Noto
  Emoji, instanced at weight 400. A monochrome outline face scales to any size like text;
  Noto Color Emoji is a 109 px colour bitmap font that FreeType can only draw at that size.

Usage (from the repository root, with ``fonttools`` installed in the venv)::

    apt-get download fonts-noto-core fonts-noto-cjk && for d in *.deb; do dpkg -x $d x; done
    pip download --no-deps manimgx-fonts && unzip manimgx_fonts-*.whl -d m
    .venv/bin/python render/fonts/build_fonts.py x/usr/share/fonts m/manimgx_fonts

The CJK subset (see :func:`cjk_characters`) is the commonest ideographs of the three national
standards' first levels plus all kana and the 2,350 common Hangul syllables, instead of the full
65,535-glyph face (~16 MB per weight):

* GB 2312 level 1: the 3,755 commonest simplified Chinese hanzi;
* JIS X 0208 level 1: the 2,965 commonest Japanese kanji;
* Big5 level 1: the 5,401 commonest traditional Chinese hanzi;
* KS X 1001: the 2,350 commonest Hangul syllables and the compatibility jamo;
* hiragana, katakana (with the phonetic extensions and half-width forms), CJK punctuation and
  full-width forms.

A character outside the subset is dropped from a name like any other undrawable character.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont
from fontTools.varLib import instancer

HERE = Path(__file__).parent


def _decode_range(codec: str, rows: range, cols: range) -> set[str]:
    """The characters of a double-byte code's rows × columns that decode to one character."""
    found: set[str] = set()
    for row in rows:
        for col in cols:
            try:
                text = bytes((row, col)).decode(codec)
            except UnicodeDecodeError:
                continue
            if len(text) == 1:
                found.add(text)
    return found


def cjk_characters() -> set[str]:
    """Every character the CJK subset keeps (see the module docstring)."""
    chars = _decode_range("gb2312", range(0xB0, 0xD8), range(0xA1, 0xFF))  # GB 2312 level 1
    chars |= _decode_range("euc_jp", range(0xB0, 0xD0), range(0xA1, 0xFF))  # JIS X 0208 lvl 1
    chars |= _decode_range("big5", range(0xA4, 0xC7), range(0x40, 0xFF))  # Big5 level 1
    chars |= _decode_range("euc_kr", range(0xB0, 0xC9), range(0xA1, 0xFF))  # KS X 1001 Hangul
    chars = {c for c in chars if c.isalpha()}
    for low, high in ((0x3000, 0x303F), (0x3040, 0x30FF), (0x31F0, 0x31FF), (0x3130, 0x318F),
                      (0xFF00, 0xFFEF)):  # fmt: skip
        chars |= {chr(code) for code in range(low, high + 1)}
    return chars


def _subset(font: TTFont, unicodes: set[int], out: Path) -> None:
    options = subset.Options()
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.glyph_names = False
    options.layout_features = []  # Pillow's basic layout reads no GSUB/GPOS
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)
    font.save(out)
    print(f"{out.name}: {out.stat().st_size:,} bytes, {len(font.getGlyphOrder()):,} glyphs")


def _ranges(*pairs: tuple[int, int]) -> set[int]:
    return {code for low, high in pairs for code in range(low, high + 1)}


def main(debian_fonts: Path, manimgx: Path) -> None:
    noto = debian_fonts / "truetype" / "noto"
    _subset(TTFont(noto / "NotoSans-Regular.ttf"),
            _ranges((0x20, 0x24F), (0x250, 0x2FF), (0x370, 0x3FF), (0x400, 0x52F),
                    (0x1C80, 0x1C8F), (0x1E00, 0x1FFF), (0x2000, 0x20CF), (0x2100, 0x214F),
                    (0x2C60, 0x2C7F), (0x2DE0, 0x2DFF), (0xA640, 0xA69F), (0xA720, 0xA7FF)),
            HERE / "NotoSans-Regular.ttf")  # fmt: skip
    _subset(TTFont(noto / "NotoSansArabic-Regular.ttf"),
            _ranges((0x600, 0x6FF), (0x750, 0x77F), (0x8A0, 0x8FF), (0xFB50, 0xFDFF),
                    (0xFE70, 0xFEFF)),
            HERE / "NotoSansArabic-Regular.ttf")  # fmt: skip
    _subset(TTFont(noto / "NotoSansHebrew-Regular.ttf"), _ranges((0x590, 0x5FF), (0xFB1D, 0xFB4F)),
            HERE / "NotoSansHebrew-Regular.ttf")  # fmt: skip
    cjk = TTCollection(debian_fonts / "opentype" / "noto" / "NotoSansCJK-Regular.ttc").fonts[0]
    _subset(cjk, {ord(c) for c in cjk_characters()}, HERE / "NotoSansCJK-Subset.otf")
    variable = TTFont(manimgx / "NotoEmoji[wght].ttf")
    emoji = instancer.instantiateVariableFont(variable, {"wght": 400})
    _subset(emoji, set(emoji.getBestCmap()), HERE / "NotoEmoji-Regular.ttf")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
