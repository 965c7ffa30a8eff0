"""Numbers longer than Python will read (``int`` refuses more than 4,300 digits) in a
position or a move are the caller's mistake: a ``usage`` or ``notation`` error in the one
JSON object, never a traceback (engine-cli.md; :data:`engines.base.MAX_DIGITS`)."""

from __future__ import annotations

import pytest

from engines.__main__ import run

#: More digits than ``int`` reads by default.
HUGE = "9" * 5000
ARBOS = (
    "g4g4g4g4/20/20/20/g4g4g4g4/20/20/20/g4g4g4g4/20/20/20/g4g4g4g4/20/20/20/g4g4g4g4/20/20/20"
    " phase:opening turn:W setup:0/0 hands:0/0 supply:80/80 passes:0 prune:0"
)


@pytest.mark.parametrize(
    ("game", "position"),
    [
        ("generatorb", f"S:a1 N:h8 supply:{HUGE}/0 turn:N ply:1 passes:0"),
        ("generatorb", f"S:a1 N:h8 supply:0/0 turn:N ply:{HUGE} passes:0"),
        ("arbos", ARBOS.replace("hands:0/0", f"hands:{HUGE}/0")),
        ("arbos", ARBOS.replace("passes:0", f"passes:{HUGE}")),
        ("arbos", ARBOS.replace("g4g4g4g4/20/20", f"g4g4g4g4/20/{HUGE}", 1)),
        ("generator", f"G:gM,R:rM G545,R545 G=? {HUGE}"),
        ("orbs", f"I5:F/I6:A 0 {HUGE}"),
        ("orbs", f"I5:F/I6:A {HUGE} 0"),
        ("generation_zero", f'{{"players": {HUGE}}}'),
    ],
)
def test_a_position_with_a_number_too_long_to_read_is_malformed(game: str, position: str) -> None:
    status, result = run([game, "--position", position])
    assert status == 2
    assert result["error"]["kind"] == "usage"
    assert len(result["error"]["message"]) < 300  # the number is quoted, not echoed whole


@pytest.mark.parametrize(
    ("game", "move"),
    [
        ("generation_zero", f"move A1 L{HUGE}"),
        ("arbos", f"A{HUGE}"),
        ("orbs", f"I{HUGE}-I5"),
        ("generatorb", f"[{HUGE}]a1-a3"),
        ("generator", f"[{HUGE}]pass"),
    ],
)
def test_a_move_with_a_number_too_long_to_read_is_refused(game: str, move: str) -> None:
    status, result = run([game, move])
    assert status == 1
    assert result["error"]["kind"] in ("notation", "illegal")
