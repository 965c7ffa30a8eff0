"""Board pictures: one module per game turns an engine *view* into PNG bytes.

Design. A renderer is a pure function ``render(view, *, seat_labels=None, perspective=None)
-> bytes``: the same view always gives the same bytes, so golden-image tests can pin each game's
look (``tests/render/``). It only scales the unit-space layout that ``engines.geometry`` gives
(it never computes neighbours or parses cell names) and imports nothing of ours but
``engines``. Speed comes from four habits, measured by ``python bench/render_board.py`` and
``bench/render_<game>.py`` (each prints the floor beside its medians: Pillow encoding a picture
of the same size and mode): everything that does not depend on the view (cells, labels,
generators, the key) is drawn once per process; pieces and badges are small sprites drawn once
and pasted; every picture is a palette PNG on a fixed palette of the game's colours (plus the
blends that anti-aliasing makes), because a palette PNG encodes several times faster than an
RGB one; and where a view changes only part of the picture (Generatorb, Generator, Orbs) the
picture is composed on that palette (:class:`render.kit.Composer`): the fixed layer is mapped
onto it once, and per image only what the view changes is mapped (Generatorb also pastes its
stacks, panels and status lines ready-mapped), with the same pixels as mapping the whole
drawing. PNGs are written at zlib level 2 (Generatorb: level 1, run-length strategy;
:func:`render.kit.encode_png`), which is then most of the time. Adaptive ``quantize()`` is
never used. Text uses Pillow's bundled font (``ImageFont.load_default(size=…)``) for Latin and
the Noto faces bundled in ``render/fonts/`` for every other script (:mod:`render.kit`), so
pictures do not depend on the machine's fonts. :func:`render.animate.render_gif` strings
pictures into an animated replay.

Adding a game: write ``render/<game>.py`` with a ``render`` function of the signature above,
add one line to :data:`RENDERERS`, and add golden images under ``tests/render/golden/``.
Rendering is CPU-bound; the bot calls :func:`render_png` through ``asyncio.to_thread``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from render import arbos, generation_zero, generator, generatorb, orbs
from render.animate import Frame, Timing, render_gif

__all__ = [
    "PERSPECTIVE_GAMES",
    "RENDERERS",
    "Frame",
    "Renderer",
    "Timing",
    "render_gif",
    "render_png",
]


class Renderer(Protocol):
    """What each game's ``render`` function looks like: ``perspective`` is the seat whose side
    is drawn at the bottom, in the games of :data:`PERSPECTIVE_GAMES` (the others ignore it)."""

    def __call__(
        self,
        view: Any,
        /,
        *,
        seat_labels: Sequence[str] | None = ...,
        perspective: int | None = ...,
    ) -> bytes: ...


#: Every game's renderer by game id (the ids of ``engines.ENGINES``).
RENDERERS: dict[str, Renderer] = {
    "generatorb": generatorb.render,
    "arbos": arbos.render,
    "generator": generator.render,
    "orbs": orbs.render,
    "generation_zero": generation_zero.render,
}


#: The games whose board is drawn differently for a seat's ``perspective`` (``docs/pictures.md``):
#: Generatorb turns the diamond 180° for North (seat 1), so each player's generator is at the
#: bottom; Generator turns its GRYB board by quarter turns so the seat's start corner is at the
#: bottom left; Orbs turns its star or hexagon by sixths so the seat's start point is at the
#: bottom. Arbos has no side that belongs to a player and Generation Zero's map has no player
#: sides: they draw one picture for everybody.
PERSPECTIVE_GAMES: frozenset[str] = frozenset({"generatorb", "generator", "orbs"})


def render_png(
    game_id: str,
    view: object,
    *,
    seat_labels: tuple[str, ...] | None = None,
    perspective: int | None = None,
) -> bytes:
    """The PNG picture of ``view`` (a view from ``engines.get_engine(game_id).view``).

    ``seat_labels`` are the players' display names in seat order (any Unicode: Latin in the
    house face, other scripts, right-to-left names and emoji in the bundled Noto fallbacks;
    renderers shorten them to fit). ``perspective`` is the seat (0-based) whose side of the
    board is drawn at the bottom, in the games of :data:`PERSPECTIVE_GAMES`; ``None`` (and any
    seat in the other games) gives the fixed picture. Coordinate labels move with their cells
    and stay upright.

    Raises ``KeyError`` for a game without a renderer, ``TypeError`` if ``view`` is not that
    game's view, and ``ValueError`` for a malformed view, the wrong number of labels or a
    negative ``perspective`` (or one that is not a seat of the view, in Generator and Orbs; in
    Generatorb, one other than 0 or 1).
    """
    try:
        renderer = RENDERERS[game_id]
    except KeyError:
        known = ", ".join(sorted(RENDERERS))
        raise KeyError(f"no renderer for game {game_id!r}; renderers exist for: {known}") from None
    if perspective is not None and (
        isinstance(perspective, bool) or not isinstance(perspective, int) or perspective < 0
    ):
        raise ValueError(f"perspective must be a seat number (0, 1, …), not {perspective!r}")
    return renderer(view, seat_labels=seat_labels, perspective=perspective)
