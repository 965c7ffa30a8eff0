"""A MOVE that starts with ``-`` is a move, not a flag: a malformed one is a ``notation``
error with exit status 1, as in ``/move`` (engine-cli.md), while flags, their values and a
misspelt flag keep their meaning (``engines.__main__._moves_last``)."""

from __future__ import annotations

import pytest

from engines.__main__ import run


@pytest.mark.parametrize("token", ["-h8", "-a1", "-x", "-5", "-", "--a1"])
@pytest.mark.parametrize("dashes", [[], ["--"]])
def test_a_move_that_starts_with_a_dash_is_a_notation_error(token: str, dashes: list[str]) -> None:
    status, result = run(["generatorb", "a1-a3", *dashes, token, "h8-h6"])
    if token == "--a1" and not dashes:
        # Two dashes are a flag's (a misspelt one is the caller's mistake), as the contract's
        # own flags all are; `--` first makes it a move.
        assert (status, result["error"]["kind"]) == (2, "usage")
        return
    assert status == 1
    assert result["applied"] == ["a1-a3"]
    assert result["error"] == {
        "index": 1,
        "input": token,
        "kind": "notation",
        "message": result["error"]["message"],
    }


def test_flags_and_their_values_keep_their_places_among_the_moves() -> None:
    # A negative seed is the flag's value; a flag between moves and an abbreviated flag
    # (argparse's prefixes) still work.
    status, result = run(["generatorb", "a1-a3", "--seed", "-5", "--leg", "h8-h6"])
    assert status == 0
    assert result["applied"] == ["a1-a3", "h8-h6"]
    assert "legal_moves" in result
    assert run(["generatorb", "--se=3", "a1-a3"])[1]["applied"] == ["a1-a3"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["generatorb", "--playres", "2"], "unrecognized arguments: --playres"),
        (["generatorb", "--seed"], "expected one argument"),
        (["generatorb", "--p", "2"], "ambiguous option"),
    ],
)
def test_a_wrong_flag_is_still_a_usage_error(argv: list[str], message: str) -> None:
    status, result = run(argv)
    assert status == 2
    assert message in result["error"]["message"]
