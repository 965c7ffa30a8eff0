"""A search worker ends when the process that started it is killed, and times a search where
it runs (ai/workers.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

import ai.workers
from ai.workers import exit_with_parent, timed

ROOT = Path(__file__).resolve().parents[2]

# A parent that starts a pool as the bot does (spawn, the initializer), makes sure its worker
# runs, prints the worker's pid, and waits to be killed.
PARENT = """
import multiprocessing, os, sys, time
from concurrent.futures import ProcessPoolExecutor
from ai.workers import exit_with_parent

if __name__ == "__main__":
    pool = ProcessPoolExecutor(
        1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=exit_with_parent,
        initargs=(os.getpid(), float(sys.argv[1])),
    )
    print(pool.submit(os.getpid).result(), flush=True)
    time.sleep(60)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by its new parent) counts as gone.
    status = Path(f"/proc/{pid}/stat")
    return not (status.exists() and status.read_text().split(") ")[-1].startswith("Z"))


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc; POSIX reparenting")
def test_a_worker_ends_soon_after_its_parent_is_killed(tmp_path: Path) -> None:
    script = tmp_path / "parent.py"
    script.write_text(PARENT)
    parent = subprocess.Popen(
        [sys.executable, str(script), "0.1"],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert parent.stdout is not None
        worker = int(parent.stdout.readline())
        assert _alive(worker)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 10
        while _alive(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(worker), "the worker outlived its killed parent"
    finally:
        parent.kill()


def test_the_interval_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        exit_with_parent(os.getpid(), 0)


def test_timed_returns_the_result_and_the_time_it_took(monkeypatch: pytest.MonkeyPatch) -> None:
    readings = iter([10.0, 12.44])
    monkeypatch.setattr(ai.workers, "time", SimpleNamespace(monotonic=lambda: next(readings)))
    result, seconds = timed(divmod, 7, 2)
    assert result == (3, 1)
    assert seconds == pytest.approx(2.44)


def test_timed_raises_what_the_function_raises() -> None:
    with pytest.raises(ZeroDivisionError):
        timed(divmod, 1, 0)
