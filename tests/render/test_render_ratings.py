"""The rating pictures (render/ratings.py): deterministic PNGs, and no character the bundled
faces cannot draw (an arrow or a minus sign once came out as a missing-glyph box)."""

from __future__ import annotations

import io

from PIL import Image

from render.ratings import LeaderboardLine, _trend_text, leaderboard_png


def board() -> bytes:
    lines = [LeaderboardLine(n, f"player {n}", 1600 - 10 * n, 10 + n, 4 - n) for n in (1, 2, 3)]
    caller = LeaderboardLine(40, "me", 1400, 7, -3, highlight=True)
    return leaderboard_png("Orbs leaderboard", lines, caller=caller, footer="gate")


def test_the_leaderboard_is_a_deterministic_png() -> None:
    first = board()
    assert first == board()
    image = Image.open(io.BytesIO(first))
    assert image.format == "PNG"
    assert image.width == 720


def test_trends_are_written_in_characters_every_face_has() -> None:
    for trend in (12, -12, 0):
        text, _ = _trend_text(trend)
        assert all(ch.isascii() or ch == "–" for ch in text), text
