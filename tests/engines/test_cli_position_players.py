"""``python -m engines GAME --position P`` without ``--players``: the count comes from P.

engine-cli.md: ``--players`` defaults to the game's default, but a position that carries its
own player count (Generator's stashes, Orbs' groups, Generation Zero's ``players`` key) plays
with that count; the position is malformed only when it differs from an *explicit*
``--players``. Generatorb and Arbos are two-player games whose notation carries no count.
"""

from __future__ import annotations

import json

import pytest

from engines import ENGINES, get_engine
from engines.__main__ import run

GZ_THREE = json.dumps(
    {
        "chars": {
            "A1": {"at": "minas_tiresome", "card": "inkwell", "seat": 0},
            "A3": {"at": "rivendull", "card": "kay_seven", "seat": 1},
            "A5": {"at": "cirith_ungood", "card": "glorp", "seat": 2},
            "S1": {"at": "the_shyre", "card": "glitterwen", "seat": 0},
            "S2": {"at": "lothlorient", "card": "raven", "seat": 1},
            "S3": {"at": "weathertip", "card": "faelinn", "seat": 2},
        },
        "players": 3,
        "set": "gz-lotr",
        "version": 1,
    }
)

#: (game, position, players it carries, options the count decides)
CARRIED = [
    ("generator", "G:gM,R:rM,Y:yM G545,R545,Y545 G=B 4", 3, {"colours": "GRY"}),
    ("generator", "G:gM,R:rM,Y:yM,B:bM G545,R545,Y545,B545 G=B 4", 4, {"colours": "GRYB"}),
    ("orbs", "I5:F/H5:A/I6:A/A1:E 0 0", 4, {}),
    ("orbs", "G6:F/M13:A/M1:E 0 0", 3, {}),
    ("generation_zero", GZ_THREE, 3, {"max_rounds": 10, "monsters": 5}),
]


@pytest.mark.parametrize(("game", "text", "players", "decided"), CARRIED)
def test_position_gives_the_player_count(
    game: str, text: str, players: int, decided: dict[str, object]
) -> None:
    assert get_engine(game).position_players(text) == players
    status, out = run([game, "--position", text, "--legal"])
    assert status == 0, out
    assert out["players"] == players
    for key, value in decided.items():
        assert out["options"][key] == value
    assert out["position"] == get_engine(game).position(
        get_engine(game).from_position(out["position"], out["options"])
    )
    # The same count given explicitly gives the same answer.
    assert run([game, "--players", str(players), "--position", text, "--legal"]) == (status, out)


@pytest.mark.parametrize(("game", "text", "players", "decided"), CARRIED)
def test_explicit_players_that_differ_are_a_usage_error(
    game: str, text: str, players: int, decided: dict[str, object]
) -> None:
    other = 2 if players != 2 else 3
    status, out = run([game, "--players", str(other), "--position", text])
    assert status == 2
    assert out["error"]["kind"] == "usage"


def test_two_player_positions_carry_no_count() -> None:
    for game in ("generatorb", "arbos"):
        engine = get_engine(game)
        state = engine.new_game(2, engine.resolve_options({}), 0)
        text = engine.position(state)
        assert engine.position_players(text) is None
        status, out = run([game, "--position", text])
        assert status == 0
        assert out["players"] == 2


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_unreadable_positions_stay_usage_errors(game: str) -> None:
    assert get_engine(game).position_players("") is None
    status, out = run([game, "--position", "{not a position"])
    assert status == 2
    assert out["error"]["kind"] == "usage"


def test_an_explicit_option_equal_to_another_counts_preset_is_kept() -> None:
    """``max_rounds=12`` and ``monsters=4`` (the 2-player preset's values) chosen for a
    3-player position stay 12 and 4: the engine does not mistake them for defaults."""
    status, out = run(
        [
            "generation_zero",
            "--position",
            GZ_THREE,
            "--option",
            "max_rounds=12",
            "--option",
            "monsters=4",
            "--legal",
        ]
    )
    assert status == 0, out
    assert (out["options"]["max_rounds"], out["options"]["monsters"]) == (12, 4)
    state = get_engine("generation_zero").from_position(out["position"], out["options"])
    assert dict(state.rules.options)["max_rounds"] == 12
    assert dict(state.rules.options)["monsters"] == 4
