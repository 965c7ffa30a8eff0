"""``/game replay``'s options: which format is drawn, and the mixes refused in one sentence."""

from __future__ import annotations

import pytest

from bot.cogs.game import replay_format
from bot.service import ServiceError


@pytest.mark.parametrize(
    ("format", "ply", "from_ply", "to_ply", "speed", "drawn"),
    [
        (None, None, None, None, None, "png"),
        (None, 3, None, None, None, "png"),
        ("png", 3, None, None, None, "png"),
        ("gif", None, None, None, None, "gif"),
        # An option only a GIF uses asks for one.
        (None, None, 2, None, None, "gif"),
        (None, None, None, 5, None, "gif"),
        (None, None, None, None, "fast", "gif"),
        ("gif", None, 0, 4, "real", "gif"),
    ],
)
def test_the_format_drawn(
    format: str | None,
    ply: int | None,
    from_ply: int | None,
    to_ply: int | None,
    speed: str | None,
    drawn: str,
) -> None:
    assert replay_format(format, ply=ply, from_ply=from_ply, to_ply=to_ply, speed=speed) == drawn


@pytest.mark.parametrize(
    ("format", "ply", "from_ply", "to_ply", "speed", "said"),
    [
        ("gif", 2, None, None, None, "`ply` picks one board"),
        (None, 2, 1, None, None, "`ply` picks one board"),
        ("png", None, 1, 4, None, "`from_ply` and `to_ply` shape a GIF"),
        ("png", None, None, None, "fast", "`speed` shapes a GIF"),
    ],
)
def test_options_of_the_other_format_are_refused(
    format: str | None,
    ply: int | None,
    from_ply: int | None,
    to_ply: int | None,
    speed: str | None,
    said: str,
) -> None:
    with pytest.raises(ServiceError, match=said):
        replay_format(format, ply=ply, from_ply=from_ply, to_ply=to_ply, speed=speed)
