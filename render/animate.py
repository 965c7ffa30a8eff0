"""Animated replays: a whole game, or a range of plies, as one animated GIF.

:func:`render_gif` draws each :class:`Frame` (a *public* view, and how long the move that led to
it took) with the game's renderer (:func:`render.render_png`) and writes the pictures as one
GIF, lichess-style:

* one fixed palette for the whole animation: every renderer maps its drawing onto its game's
  fixed ``PALETTE`` (``render/<game>.py``), so every frame carries the same colours in the same
  order, and the GIF has one global colour table and no local ones;
* each frame after the first stores only the box that changed since the previous picture, and
  inside that box the unchanged pixels as the transparent colour (Pillow's GIF writer does both
  when frames share a palette; ``tests/render/test_animate.py`` checks it), so a 300-ply game
  stays far below Discord's 10 MiB upload limit (figures: ``python bench/gif.py``);
* a frame is shown for as long as :class:`Timing` says: the real move time log-scaled between a
  floor and a cap, or a fixed time per frame; the last frame is held longer. Consecutive frames
  whose pictures are identical are merged by the writer (their times added up).

Public views only: a frame's view must be what a spectator sees (``engine.view(state, None)``);
a Generation Zero view of one seat (hidden hands) is refused. Rendering takes about as long as
one PNG per frame (tens of ms) and is CPU-bound: the bot calls it through
``asyncio.to_thread``, never on the event loop.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image

__all__ = ["MAX_BYTES", "Frame", "ReplayTooLargeError", "Timing", "frame_durations", "render_gif"]

#: Discord's upload limit for a bot without boosts, in bytes (10 MiB).
MAX_BYTES = 10 * 1024 * 1024


class ReplayTooLargeError(ValueError):
    """The GIF came out over the ``limit`` (:data:`MAX_BYTES`): ``size`` bytes for
    ``frames`` frames (the frames given; the writer may merge identical ones), of which a GIF
    of the first frame alone takes ``first_size``: a whole picture, where each later frame
    stores only what changed, so ``(size - first_size) / (frames - 1)`` is the cost of one
    more frame."""

    def __init__(self, size: int, frames: int, limit: int, first_size: int) -> None:
        super().__init__(
            f"the replay GIF is {size:,} bytes, more than Discord's {limit:,}; "
            "pass a shorter range of plies"
        )
        self.size = size
        self.frames = frames
        self.limit = limit
        self.first_size = first_size


@dataclass(frozen=True, slots=True)
class Frame:
    """One picture of a replay.

    ``view`` is the public view (``engines.get_engine(game_id).view(state, None)``) after a ply,
    or of the starting position for the first frame. ``seconds`` is how long the player took
    over the move that led to it (wall-clock seconds, ≥ 0), or ``None`` when unknown (the start
    position, an imported game): such a frame is shown for :attr:`Timing.unknown_ms`.
    """

    view: object
    seconds: float | None = None


@dataclass(frozen=True, slots=True)
class Timing:
    """How long each frame is shown, in milliseconds (GIF stores hundredths of a second, so
    every time is rounded to a multiple of 10 ms).

    With ``fixed_ms`` set, every frame but the last is shown that long ("fixed speed").
    Otherwise a frame whose move took ``t`` seconds is shown
    ``floor_ms + (cap_ms - floor_ms) * min(1, log(1 + t) / log(1 + saturate_s))``: a snap move
    gets ``floor_ms``, a move of ``saturate_s`` (a day by default) or longer gets ``cap_ms``,
    a minute about 1.4 s and an hour about 2.3 s with the defaults. The last frame is shown
    ``last_ms``. Raises ``ValueError`` for a time below 10 ms, ``floor_ms > cap_ms`` or a
    ``saturate_s`` that is not positive.
    """

    floor_ms: int = 500
    cap_ms: int = 3000
    saturate_s: float = 86_400.0
    unknown_ms: int = 1000
    last_ms: int = 3000
    fixed_ms: int | None = None

    def __post_init__(self) -> None:
        times = (self.floor_ms, self.cap_ms, self.unknown_ms, self.last_ms)
        if min(times) < 10 or (self.fixed_ms is not None and self.fixed_ms < 10):
            raise ValueError("every frame time must be at least 10 ms")
        if self.floor_ms > self.cap_ms:
            raise ValueError(f"floor_ms {self.floor_ms} exceeds cap_ms {self.cap_ms}")
        if not self.saturate_s > 0:
            raise ValueError(f"saturate_s must be positive, not {self.saturate_s}")

    def frame_ms(self, seconds: float | None) -> int:
        """How long a (not last) frame whose move took ``seconds`` is shown, in ms. Raises
        ``ValueError`` for negative or non-finite ``seconds``."""
        if self.fixed_ms is not None:
            return _centis(self.fixed_ms)
        if seconds is None:
            return _centis(self.unknown_ms)
        if not (math.isfinite(seconds) and seconds >= 0):
            raise ValueError(f"a move time must be a finite number of seconds ≥ 0, not {seconds}")
        share = min(1.0, math.log1p(seconds) / math.log1p(self.saturate_s))
        return _centis(self.floor_ms + (self.cap_ms - self.floor_ms) * share)


def _centis(ms: float) -> int:
    """``ms`` rounded to GIF's 10 ms steps (at least 10 ms)."""
    return max(10, round(ms / 10) * 10)


def frame_durations(frames: Sequence[Frame], timing: Timing = Timing()) -> list[int]:
    """Each frame's display time in ms under ``timing`` (the last one ``timing.last_ms``)."""
    durations = [timing.frame_ms(frame.seconds) for frame in frames]
    if durations:
        durations[-1] = _centis(timing.last_ms)
    return durations


def _check_public(game_id: str, view: object) -> None:
    """Refuse a view that shows one seat's hidden information (Generation Zero's hands)."""
    data = getattr(view, "data", None)
    if (
        game_id == "generation_zero"
        and isinstance(data, Mapping)
        and data.get("viewer") is not None
    ):
        raise ValueError(
            "replays show public views only: pass engine.view(state, None), not a seat's view"
        )


def render_gif(
    game_id: str,
    frames: Sequence[Frame],
    *,
    seat_labels: tuple[str, ...] | None = None,
    perspective: int | None = None,
    timing: Timing = Timing(),
    loop: bool = True,
) -> bytes:
    """The animated GIF of ``frames`` (at least one), in order, as bytes.

    Every frame is drawn by :func:`render.render_png` with ``seat_labels`` (players' names in
    seat order, any script) and ``perspective`` (a seat to draw the board for, or ``None`` for
    the fixed picture), so the frames are exactly the still pictures, all the same size. Shown
    for :func:`frame_durations` ms each; ``loop`` repeats the animation forever, else it plays
    once. Deterministic: the same arguments give the same bytes.

    Raises ``ValueError`` for no frames, a non-public view or a bad move time,
    :class:`ReplayTooLargeError` (a ``ValueError``) for a result over :data:`MAX_BYTES`; and
    whatever :func:`render.render_png` raises for a bad game id, view or labels
    (``KeyError``, ``TypeError``, ``ValueError``).
    """
    from render import render_png  # render/__init__ imports this module

    if not frames:
        raise ValueError("a replay needs at least one frame")
    durations = frame_durations(frames, timing)
    images: list[Image.Image] = []
    for frame in frames:
        _check_public(game_id, frame.view)
        png = render_png(game_id, frame.view, seat_labels=seat_labels, perspective=perspective)
        image: Image.Image = Image.open(io.BytesIO(png))
        image.load()
        if image.mode != "P":  # every renderer writes a palette PNG; stay safe if one does not
            image = image.convert("P", palette=Image.Palette.ADAPTIVE)
        images.append(image)
    palette = images[0].getpalette()
    out = io.BytesIO()
    repeat = {"loop": 0} if loop else {}  # no NETSCAPE loop block: play once
    images[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=images[1:],
        duration=durations,
        disposal=1,  # leave each frame in place: the next one only paints what changed
        # The one palette for every frame (no per-frame palette optimisation) ...
        palette=bytes(palette or ()),
        # ... and "optimize" makes the writer paint unchanged pixels inside the changed box
        # with a spare transparent index, which compresses to almost nothing.
        optimize=True,
        **repeat,
    )
    data = out.getvalue()
    if len(data) > MAX_BYTES:
        alone = io.BytesIO()
        images[0].save(alone, format="GIF", palette=bytes(palette or ()), **repeat)
        raise ReplayTooLargeError(len(data), len(frames), MAX_BYTES, len(alone.getvalue()))
    return data
