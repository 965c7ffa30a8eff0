"""What a search worker process runs besides the searches: it ends when its parent is gone,
and it can time a search where it runs.

The bot runs searches in a :class:`concurrent.futures.ProcessPoolExecutor` of ``spawn``-ed
processes (``bot/service/bots.py``). When the bot process ends normally it shuts them down;
when it is killed (``kill -9``, the out-of-memory killer, a crash) nobody does, and a worker
waiting for its next search waits for ever: in the tests, each bot killed mid-game left an
idle 36 MB process behind. :func:`exit_with_parent`, given as the pool's ``initializer``,
starts a daemon thread in the worker that ends the process once its parent has changed (on
POSIX an orphan is adopted by another process), checking every ``interval`` seconds.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

_T = TypeVar("_T")

__all__ = ["exit_with_parent", "timed"]


def exit_with_parent(parent_pid: int, interval: float = 1.0) -> None:
    """In a worker process: end it (``os._exit(0)``, no cleanup: it holds nothing to save)
    within about ``interval`` seconds of process ``parent_pid`` no longer being its parent.

    Returns at once; the watching runs in a daemon thread. Raises :class:`ValueError` for a
    non-positive ``interval``.
    """
    if interval <= 0:
        raise ValueError(f"interval must be positive, got {interval}")

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(interval)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def timed(function: Callable[..., _T], *args: Any) -> tuple[_T, float]:
    """``function(*args)`` and how long it took, in seconds of :func:`time.monotonic`, where
    it runs: in a worker process, the search alone, without the wait for a worker, starting
    one, or passing the position to it (``/hint`` says this time, bot/service/bots.py).
    Raises what ``function`` raises."""
    started = time.monotonic()
    result = function(*args)
    return result, time.monotonic() - started
