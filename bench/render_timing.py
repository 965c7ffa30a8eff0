"""Timing shared by the render benchmarks (``bench/render_*.py``): run each render once, cold
first, and print the median and 99th-percentile time, the PNG sizes, and the floor measured in
the same run — what Pillow alone needs to encode a picture of the same size and mode — so the
ratio of render + encode to encode alone is visible."""

from __future__ import annotations

import io
import statistics
import time
import zlib
from collections.abc import Callable, Sequence

from PIL import Image

from render.kit import encode_png

Render = Callable[[], bytes]


def cold_ms(render: Render) -> float:
    """Wall time in ms of one render, meant to be the first of the process (cold caches)."""
    start = time.perf_counter()
    render()
    return (time.perf_counter() - start) * 1000


def run(renders: Sequence[Render]) -> tuple[list[float], list[bytes]]:
    """Each render once: ``(sorted times in ms, the PNGs in render order)``."""
    times: list[float] = []
    pngs: list[bytes] = []
    for render in renders:
        start = time.perf_counter()
        data = render()
        times.append((time.perf_counter() - start) * 1000)
        pngs.append(data)
    times.sort()
    return times, pngs


def print_times(times: Sequence[float], prefix: str = "") -> None:
    """``median`` and ``p99`` lines for sorted ``times`` (ms)."""
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    print(f"  {prefix + 'median:':27} {statistics.median(times):7.2f} ms")
    print(f"  {prefix + 'p99:':27} {p99:7.2f} ms")


def print_sizes(pngs: Sequence[bytes]) -> None:
    """Median and largest PNG size (KB)."""
    sizes = [len(data) for data in pngs]
    print(f"  PNG size median:            {statistics.median(sizes) / 1000:7.1f} KB")
    print(f"  PNG size max:               {max(sizes) / 1000:7.1f} KB")


def print_floor(
    pngs: Sequence[bytes],
    times: Sequence[float],
    level: int,
    strategy: int = zlib.Z_DEFAULT_STRATEGY,
    repeat: int = 3,
) -> None:
    """The floor, measured now with the renderer's own PNG settings (``render.kit.encode_png``
    at zlib ``level`` with ``strategy``) on pictures of the same size and mode as ``pngs``: a
    blank one (the bare encode: nothing can be faster), and the very pictures rendered (encode
    alone, no drawing); each as a median over ``repeat`` rounds, and the ratio of the render
    median (``times``) to it."""

    def encode_ms(image: Image.Image) -> float:
        start = time.perf_counter()
        encode_png(image, level, strategy)
        return (time.perf_counter() - start) * 1000

    pictures = []
    for data in pngs:
        picture = Image.open(io.BytesIO(data))
        picture.load()
        pictures.append(picture)
    first = pictures[0]
    blank = Image.new(first.mode, first.size, 0)
    if first.mode == "P":
        blank.putpalette(first.getpalette() or [])
    bare = [encode_ms(blank) for _ in range(repeat * len(pictures))]
    alone = [encode_ms(picture) for _ in range(repeat) for picture in pictures]
    median = statistics.median(times)
    size = f"{first.width}×{first.height} {first.mode}"
    for name, floor in ((f"blank {size}", bare), ("same pictures", alone)):
        value = statistics.median(floor)
        print(f"  {'floor, encode ' + name + ':':38} {value:6.2f} ms  (render + encode "
              f"{median / value:4.2f}×)")  # fmt: skip
