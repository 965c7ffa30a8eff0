"""Timing shared by the render benchmarks (``bench/render_*.py``): run each render once, cold
first, and print the median and 99th-percentile time and the PNG sizes."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence

Render = Callable[[], bytes]


def cold_ms(render: Render) -> float:
    """Wall time in ms of one render, meant to be the first of the process (cold caches)."""
    start = time.perf_counter()
    render()
    return (time.perf_counter() - start) * 1000


def run(renders: Sequence[Render]) -> tuple[list[float], list[int]]:
    """Each render once: ``(sorted times in ms, PNG sizes in bytes)``."""
    times: list[float] = []
    sizes: list[int] = []
    for render in renders:
        start = time.perf_counter()
        data = render()
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(data))
    times.sort()
    return times, sizes


def print_times(times: Sequence[float], prefix: str = "") -> None:
    """``median`` and ``p99`` lines for sorted ``times`` (ms)."""
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    print(f"  {prefix + 'median:':27} {statistics.median(times):7.2f} ms")
    print(f"  {prefix + 'p99:':27} {p99:7.2f} ms")


def print_sizes(sizes: Sequence[int]) -> None:
    """Median and largest PNG size (KB)."""
    print(f"  PNG size median:            {statistics.median(sizes) / 1000:7.1f} KB")
    print(f"  PNG size max:               {max(sizes) / 1000:7.1f} KB")
