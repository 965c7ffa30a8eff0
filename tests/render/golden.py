"""Golden-image checks shared by every renderer's tests.

A golden is a PNG under ``tests/render/golden/``; :func:`check_golden` compares decoded pixels
(mode, size and RGB values), not bytes, so a different zlib build does not fail the tests. After
a deliberate change to a game's look, regenerate with

    GAMEROOM_UPDATE_GOLDEN=1 .venv/bin/pytest tests/render -q

and open every changed PNG before committing.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image

GOLDEN_ROOT = Path(__file__).parent / "golden"
UPDATE = os.environ.get("GAMEROOM_UPDATE_GOLDEN") == "1"


def decode(data: bytes) -> Image.Image:
    """PNG bytes decoded (and fully loaded)."""
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def rgb(data: bytes) -> Image.Image:
    """PNG bytes decoded and converted to RGB."""
    return decode(data).convert("RGB")


def check_golden(data: bytes, path: Path, tmp_path: Path) -> None:
    """Fail unless ``data`` shows the same pixels as the golden ``path``.

    With ``GAMEROOM_UPDATE_GOLDEN=1`` it writes ``data`` to ``path`` instead. On a mismatch the
    rendered image is left in ``tmp_path`` for comparison.
    """
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return
    assert path.exists(), f"no golden {path.name}; run with GAMEROOM_UPDATE_GOLDEN=1"
    expected, actual = decode(path.read_bytes()), decode(data)
    assert (actual.mode, actual.size) == (expected.mode, expected.size)
    expected_rgb = expected.convert("RGB").tobytes()
    actual_rgb = actual.convert("RGB").tobytes()
    if actual_rgb != expected_rgb:
        (tmp_path / path.name).write_bytes(data)
        differing = sum(a != b for a, b in zip(actual_rgb, expected_rgb, strict=True)) // 3
        pytest.fail(f"{path.stem}: ~{differing} pixels differ; rendered image in {tmp_path}")
