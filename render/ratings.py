"""Rating pictures: the ``/rating`` profile card and the ``/leaderboard`` table.

Drawn like the boards (the house paper, panel and ink of :mod:`render.kit`, its text with
fallback faces), from plain values: the bot resolves names and numbers, this module only
draws. Pure and thread-safe: the service calls it in a worker thread.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.kit import (
    BACKGROUND,
    INK,
    MUTED,
    PANEL_BACKGROUND,
    RGB,
    blend,
    displayable_label,
    draw_text,
)

__all__ = [
    "LeaderboardLine",
    "ProfileGame",
    "leaderboard_png",
    "profile_card_png",
]

GAIN: RGB = (0x2E, 0x7D, 0x32)
LOSS: RGB = (0xC6, 0x28, 0x28)
LINE: RGB = (0x3B, 0x5B, 0x8C)
RULE: RGB = blend(MUTED, BACKGROUND, 0.35)
HIGHLIGHT: RGB = blend(LINE, BACKGROUND, 0.18)

_WIDTH = 720
_PAD = 24


@dataclass(frozen=True, slots=True)
class ProfileGame:
    """One game's line on the profile card: ``rating`` as shown (``1540?``)."""

    game_name: str
    rating: str
    games: int
    wins: int
    draws: int
    losses: int


@dataclass(frozen=True, slots=True)
class LeaderboardLine:
    """One leaderboard row; ``highlight``: the caller's own row."""

    place: int
    name: str
    rating: int
    games: int
    trend: int
    highlight: bool = False


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


def _trend_text(trend: int) -> tuple[str, RGB]:
    if trend > 0:
        return f"+{trend}", GAIN  # ASCII signs: Aileron draws only ASCII, no arrows
    if trend < 0:
        return f"-{-trend}", LOSS
    return "–", MUTED


def profile_card_png(
    name: str,
    games: Sequence[ProfileGame],
    *,
    chart_title: str,
    history: Sequence[tuple[float, int]],
    best_win: str | None,
) -> bytes:
    """The profile card of player ``name``: a line per game (rating, games, wins / draws /
    losses), the best win, and the rating history of the first game (``(time, rating)``
    pairs, oldest first) as a line chart."""
    rows = max(1, len(games))
    chart_h = 220
    height = _PAD + 44 + 30 + rows * 30 + 16 + 30 + chart_h + 40 + _PAD
    image = Image.new("RGB", (_WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    y = _PAD
    draw_text(image, _PAD, y + 16, displayable_label(name, _WIDTH - 2 * _PAD, 30), 30, INK,
              bold=True)  # fmt: skip
    y += 44
    columns = (_PAD, 300, 420, 510)
    for x, head in zip(columns, ("Game", "Rating", "Games", "W / D / L"), strict=True):
        draw_text(image, x, y + 12, head, 16, MUTED)
    y += 30
    if not games:
        draw_text(image, _PAD, y + 14, "No rated games yet.", 20, MUTED)
        y += 30
    for index, game in enumerate(games):
        if index % 2 == 0:
            draw.rectangle((_PAD - 8, y, _WIDTH - _PAD + 8, y + 28), fill=PANEL_BACKGROUND)
        cells = (
            game.game_name,
            game.rating,
            str(game.games),
            f"{game.wins} / {game.draws} / {game.losses}",
        )
        for x, cell in zip(columns, cells, strict=True):
            draw_text(image, x, y + 14, cell, 20, INK, bold=x == 300)
        y += 30
    y += 16
    draw_text(image, _PAD, y + 12, f"Best win: {best_win}" if best_win else "Best win: –", 18,
              INK)  # fmt: skip
    y += 30
    _chart(image, (_PAD, y, _WIDTH - _PAD, y + chart_h), history, chart_title)
    return _png(image)


def _chart(
    image: Image.Image,
    box: tuple[int, int, int, int],
    history: Sequence[tuple[float, int]],
    title: str,
) -> None:
    """A line chart of ``history`` in ``box`` on the panel colour, with its title above."""
    left, top, right, bottom = box
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(box, radius=10, fill=PANEL_BACKGROUND)
    draw_text(image, left + 12, top + 16, title, 16, MUTED)
    if len(history) < 2:
        draw_text(image, (left + right) / 2, (top + bottom) / 2, "Not enough games for a chart",
                  18, MUTED, anchor="mm")  # fmt: skip
        return
    plot = (left + 64, top + 34, right - 16, bottom - 16)
    ratings = [r for _, r in history]
    low, high = min(ratings), max(ratings)
    low, high = (low - 10, high + 10) if high - low < 20 else (low, high)
    times = [t for t, _ in history]
    first, last = times[0], times[-1]
    span = (last - first) or 1.0
    # Evenly spaced by game rather than by time when the games bunch up: by index reads better.
    by_index = len(history) > 2 and span / (len(history) - 1) < 1.0

    def point(index: int, when: float, rating: int) -> tuple[float, float]:
        fraction = index / (len(history) - 1) if by_index else (when - first) / span
        x = plot[0] + fraction * (plot[2] - plot[0])
        y = plot[3] - (rating - low) / (high - low) * (plot[3] - plot[1])
        return x, y

    for k in range(3):
        value = round(low + (high - low) * k / 2)
        y = plot[3] - (value - low) / (high - low) * (plot[3] - plot[1])
        draw.line((plot[0], y, plot[2], y), fill=RULE, width=1)
        draw_text(image, plot[0] - 8, y, str(value), 14, MUTED, anchor="rm")
    points = [point(i, t, r) for i, (t, r) in enumerate(history)]
    draw.line(points, fill=LINE, width=3, joint="curve")
    x, y = points[-1]
    draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=LINE)


def leaderboard_png(
    title: str,
    lines: Sequence[LeaderboardLine],
    *,
    caller: LeaderboardLine | None,
    footer: str,
) -> bytes:
    """The leaderboard table: place, name, rating, games, trend; the caller's own row
    highlighted, or added under a gap when they are not in the top."""
    shown = list(lines)
    extra = caller is not None and not any(line.highlight for line in shown)
    height = _PAD + 44 + 30 + max(1, len(shown)) * 32 + (44 if extra else 0) + 36 + _PAD
    image = Image.new("RGB", (_WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    y = _PAD
    draw_text(image, _PAD, y + 16, displayable_label(title, _WIDTH - 2 * _PAD, 28), 28, INK,
              bold=True)  # fmt: skip
    y += 44
    columns = {"#": _PAD, "Player": 84, "Rating": 440, "Games": 540, "Trend": 620}
    for head, x in columns.items():
        draw_text(image, x, y + 12, head, 16, MUTED)
    y += 30
    if not shown:
        draw_text(image, _PAD, y + 16, "Nobody qualifies yet.", 20, MUTED)
        y += 32

    def row(line: LeaderboardLine, y: int, index: int) -> None:
        if line.highlight:
            draw.rectangle((_PAD - 8, y, _WIDTH - _PAD + 8, y + 30), fill=HIGHLIGHT)
        elif index % 2 == 0:
            draw.rectangle((_PAD - 8, y, _WIDTH - _PAD + 8, y + 30), fill=PANEL_BACKGROUND)
        middle = y + 15
        draw_text(image, columns["#"], middle, str(line.place), 20, INK, bold=line.place <= 3)
        draw_text(image, columns["Player"], middle, displayable_label(line.name, 340, 20), 20, INK)
        draw_text(image, columns["Rating"], middle, str(line.rating), 20, INK, bold=True)
        draw_text(image, columns["Games"], middle, str(line.games), 20, INK)
        text, colour = _trend_text(line.trend)
        draw_text(image, columns["Trend"], middle, text, 18, colour)

    for index, line in enumerate(shown):
        row(line, y, index)
        y += 32
    if extra and caller is not None:
        draw_text(image, _WIDTH / 2, y + 10, "...", 20, MUTED, anchor="mm")
        y += 14
        row(caller, y, 1)
        y += 30
    draw_text(image, _PAD, y + 20, footer, 14, MUTED)
    return _png(image)
