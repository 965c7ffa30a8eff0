"""``python -m engines --record PATH``: replaying a game record exported by the bot.

The records here are written by hand in the documented shape (docs/records.md), so these tests
need neither the bot nor a database; ``tests/service/test_records.py`` replays real exports.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from engines import get_engine
from engines.__main__ import RECORD_FORMAT, run

GENERATORB_MOVES = ["a1-a3", "h8-h6", "b1-b3", "g8-g6"]


def record_data(**fields: Any) -> dict[str, Any]:
    """A record of a Generatorb game after :data:`GENERATORB_MOVES`, with ``fields`` replaced."""
    data: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "game": "generatorb",
        "game_name": "Generatorb",
        "game_id": 12,
        "rules_version": get_engine("generatorb").info.rules_version,
        "players": 2,
        "options": {"start_supply": 12, "repetition_draw": False, "refill": "all"},
        "seed": 99,
        "start_position": None,
        "status": "active",
        "result": None,
        "position": "",
        "seats": [],
        "created_at": "2025-03-14T15:09:26Z",
        "finished_at": None,
        "moves": [
            {"ply": n, "seat": (n - 1) % 2, "text": t, "cli": t, "at": "2025-03-14T15:09:26Z"}
            for n, t in enumerate(GENERATORB_MOVES, start=1)
        ],
    }
    data.update(fields)
    return data


def write(tmp_path: Path, data: Any, name: str = "record.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_a_record_replays_like_the_same_flags_and_moves(tmp_path: Path) -> None:
    status, output = run(["--record", write(tmp_path, record_data())])
    options = ["start_supply=12", "repetition_draw=false", "refill=all"]
    flags = ["generatorb", "--seed", "99", *(f"--option={o}" for o in options)]
    assert (status, output) == run([*flags, *GENERATORB_MOVES])
    assert status == 0
    assert output["applied"] == GENERATORB_MOVES
    assert output["options"]["start_supply"] == 12
    assert output["options"]["refill"] == "all"
    assert output["outcome"] is None


def test_legal_moves_may_be_asked_of_a_record(tmp_path: Path) -> None:
    status, output = run(["--record", write(tmp_path, record_data()), "--legal"])
    assert status == 0
    assert (
        output["legal_moves"] == run(["generatorb", "--legal", *GENERATORB_MOVES])[1]["legal_moves"]
    )


def test_a_refused_move_in_a_record_exits_1_naming_it(tmp_path: Path) -> None:
    data = record_data()
    data["moves"][2]["cli"] = "b1-b2"
    status, output = run(["--record", write(tmp_path, data)])
    assert status == 1
    assert output["applied"] == GENERATORB_MOVES[:2]
    assert output["error"]["index"] == 2
    assert output["error"]["input"] == "b1-b2"
    assert output["error"]["kind"] == "illegal"


def test_the_seed_and_the_start_position_of_a_record_are_used(tmp_path: Path) -> None:
    generator = {"colours": "GR", "first_player": "random", "horizontal": "any", "max_turns": 0}
    seeded = record_data(game="generator", options=generator, seed=31, moves=[])
    by_record = run(["--record", write(tmp_path, seeded)])
    assert by_record == run(["generator", "--seed", "31"])
    assert by_record[1]["applied"][0].startswith("roll:")  # sampled from seed 31

    orbs = get_engine("orbs")
    options = orbs.options_for(orbs.resolve_options({}), 3)
    seed = next(s for s in range(100) if orbs.to_move(orbs.new_game(3, options, s)) == (2,))
    turn_two = orbs.position(orbs.new_game(3, options, seed))
    data = record_data(
        game="orbs", players=3, options=options, seed=None, start_position=turn_two, moves=[]
    )
    status, output = run(["--record", write(tmp_path, data)])
    assert status == 0
    assert output["to_move"] == [2]
    assert output == run(["orbs", "--players", "3", "--position", turn_two])[1]


def test_a_record_of_another_rules_version_replays_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="engines.cli"):
        status, output = run(["--record", write(tmp_path, record_data(rules_version="0"))])
    assert status == 0
    assert output["applied"] == GENERATORB_MOVES
    assert "rules version '0'" in caplog.text


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["generatorb"], "GAME or MOVE"),
        (["a1-a3"], "GAME or MOVE"),
        (["--players", "2"], "--players"),
        (["--option", "refill=all"], "--option"),
        (["--seed", "0"], "--seed"),
        (["--position", "x"], "--position"),
        (["--moves-file", "moves.txt"], "--moves-file"),
    ],
)
def test_a_record_says_everything_so_other_flags_are_usage_errors(
    tmp_path: Path, extra: list[str], named: str
) -> None:
    status, output = run(["--record", write(tmp_path, record_data()), *extra])
    assert status == 2
    message = output["error"]["message"]
    assert output["error"]["kind"] == "usage"
    assert message.startswith("--record reads the game, players, options, seed and moves")
    assert message.endswith(f"drop {named}")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("{not json", "is not JSON"),
        ([1, 2], "is not a Gameroom game record"),
        ({"format": "gameroom-record/0"}, "is not a Gameroom game record"),
        (record_data(game=7), "'game' must be a game id"),
        (record_data(game="chess"), "unknown game"),
        (record_data(players="2"), "'players' must be a number of seats"),
        (record_data(players=True), "'players' must be a number of seats"),
        (record_data(players=5), "played by 2 players, not 5"),
        (record_data(options=[]), "'options' must be an object"),
        (record_data(options={"refill": ["all"]}), "option refill is ['all']"),
        (record_data(options={"castling": True}), "unknown option 'castling'"),
        (record_data(options={"start_supply": 999}), "option start_supply: '999'"),
        (record_data(seed="99"), "'seed' must be an integer or null"),
        (record_data(start_position=3), "'start_position' must be a position string"),
        (record_data(start_position="nonsense"), "nonsense"),
        (record_data(moves={"cli": "a1-a3"}), "'moves' must be a list of objects"),
        (record_data(moves=[{"text": "a1-a3"}]), 'with a "cli" token'),
    ],
)
def test_a_file_that_is_not_a_usable_record_is_a_usage_error(
    tmp_path: Path, data: Any, message: str
) -> None:
    path = tmp_path / "record.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    status, output = run(["--record", str(path)])
    assert status == 2
    assert output["error"]["kind"] == "usage"
    assert message in output["error"]["message"]


def test_a_missing_record_file_is_a_usage_error(tmp_path: Path) -> None:
    status, output = run(["--record", str(tmp_path / "nowhere.json")])
    assert status == 2
    assert output["error"]["message"].startswith(f"cannot read {tmp_path / 'nowhere.json'}")


def test_list_still_answers_with_a_record(tmp_path: Path) -> None:
    status, output = run(["--list", "--record", write(tmp_path, record_data())])
    assert status == 0
    assert "games" in output
