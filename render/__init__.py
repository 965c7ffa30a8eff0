"""Board pictures: one module per game turns an engine *view* into PNG bytes.

Design. A renderer is a pure function ``render(view, *, seat_labels=None, flip=False) ->
bytes``: the same view always gives the same bytes, so golden-image tests can pin each game's
look (``tests/render/``). It only scales the unit-space layout that ``engines.geometry`` gives
(it never computes neighbours or parses cell names) and imports nothing of ours but
``engines``. Speed comes from three habits, measured by ``python bench/render_board.py`` and
``bench/render_<game>.py``: everything that does not depend on the view (cells, labels,
generators, the key) is drawn once per process and copied for each image; pieces and badges are
small sprites drawn once and pasted; and the finished RGB drawing is mapped onto a fixed
palette of the game's colours (plus the blends that anti-aliasing makes), because a palette PNG
encodes several times faster than an RGB one. Adaptive ``quantize()`` is never used. Text uses
Pillow's bundled font (``ImageFont.load_default(size=…)``), so pictures do not depend on the
machine's fonts.

Adding a game: write ``render/<game>.py`` with a ``render`` function of the signature above,
add one line to :data:`RENDERERS`, and add golden images under ``tests/render/golden/``.
Rendering is CPU-bound; the bot calls :func:`render_png` through ``asyncio.to_thread``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from render import arbos, generation_zero, generator, generatorb, orbs

__all__ = ["RENDERERS", "Renderer", "render_png"]


class Renderer(Protocol):
    """What each game's ``render`` function looks like."""

    def __call__(
        self, view: Any, /, *, seat_labels: Sequence[str] | None = ..., flip: bool = ...
    ) -> bytes: ...


#: Every game's renderer by game id (the ids of ``engines.ENGINES``).
RENDERERS: dict[str, Renderer] = {
    "generatorb": generatorb.render,
    "arbos": arbos.render,
    "generator": generator.render,
    "orbs": orbs.render,
    "generation_zero": generation_zero.render,
}


def render_png(
    game_id: str,
    view: object,
    *,
    seat_labels: tuple[str, ...] | None = None,
    flip: bool = False,
) -> bytes:
    """The PNG picture of ``view`` (a view from ``engines.get_engine(game_id).view``).

    ``seat_labels`` are the players' display names in seat order (any Unicode; renderers fold
    and shorten them to fit); ``flip`` turns the board for the second seat where the game
    supports it. Raises ``KeyError`` for a game without a renderer, ``TypeError`` if ``view``
    is not that game's view, and ``ValueError`` for a malformed view or the wrong number of
    labels.
    """
    try:
        renderer = RENDERERS[game_id]
    except KeyError:
        known = ", ".join(sorted(RENDERERS))
        raise KeyError(f"no renderer for game {game_id!r}; renderers exist for: {known}") from None
    return renderer(view, seat_labels=seat_labels, flip=flip)
