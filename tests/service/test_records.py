"""Game records (``/game export``), the board at any ply (``/game replay``) and the replay loop.

Games are played through a real :class:`GameService` on a SQLite file with random legal moves;
their records are then replayed by ``python -m engines`` (in-process through
:func:`engines.__main__.run`, once as a subprocess) and must end in the stored position.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import shlex
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

import engines
from bot.service import GameService, GameSnapshot, InvalidMoveError, NoGameHereError
from bot.service.errors import ServiceError
from bot.service.records import (
    RECORD_FORMAT,
    GameRecord,
    ReplayError,
    rebuild,
    replay_log,
)
from db import Database
from engines import get_engine
from engines.__main__ import run
from engines.base import (
    Engine,
    Event,
    GameInfo,
    NotationError,
    NotYourTurnError,
    OptionValue,
    Outcome,
    Transition,
    UsageError,
)
from engines.rng import Rng

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    GAMES,
    GUILD,
    OTHER,
    FakeClock,
    StartGame,
    seeds,
    to_move_user,
)

#: The JSON's keys, in the order docs/records.md lists them.
RECORD_KEYS = [
    "format",
    "game",
    "game_name",
    "game_id",
    "rules_version",
    "players",
    "options",
    "seed",
    "start_position",
    "status",
    "result",
    "position",
    "seats",
    "created_at",
    "finished_at",
    "moves",
]
REPO = Path(__file__).resolve().parents[2]
_MINUTE = timedelta(minutes=1)


# ----------------------------------------------------------------------------------------------
# Helpers: start games for several players, play random legal moves, read the stored position
# ----------------------------------------------------------------------------------------------


async def start_table(
    service: GameService,
    game: str,
    users: Sequence[int],
    *,
    options: str | None = None,
    channel_id: int = GAMES,
) -> GameSnapshot:
    """``users[0]`` challenges the others to ``game``; each accepts; the game starts."""
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=channel_id,
        challenger_id=users[0],
        opponent_ids=list(users[1:]),
        game=game,
        options_text=options,
    )
    started = None
    for user in users[1:]:
        started = (await service.accept_challenge(challenge.challenge_id, user)).game
    assert started is not None
    return started


async def play_random(
    service: GameService, snapshot: GameSnapshot, rng: Rng, *, plies: int | None = None
) -> GameSnapshot:
    """Random legal moves by whoever is to move until the game ends or reaches ``plies``.

    Arbos lists too many doubles to ask for every legal move, so its moves come from
    autocomplete, whose suggestions may be the start of a move: those are skipped.
    """
    channel = snapshot.channel_id
    while snapshot.is_active and (plies is None or snapshot.ply < plies):
        user = to_move_user(snapshot)
        if snapshot.game == "arbos":
            moves = await service.autocomplete_moves(channel, user, "")
        else:
            moves = await service.legal_moves(channel, user)
        assert moves
        for index in Rng(rng.below(1 << 30)).shuffled(range(len(moves))):
            try:
                snapshot = (await service.play(channel, user, moves[index])).snapshot
                break
            except InvalidMoveError:
                continue
        else:
            raise AssertionError(f"no suggestion of {moves} plays")
    return snapshot


async def stored_position(database: Database, game_id: int) -> str:
    row = await database.games.get(game_id)
    assert row is not None
    engine = get_engine(row.game)
    return engine.position(engine.loads(row.state_json))


def replay_in_cli(record: GameRecord, tmp_path: Path) -> dict[str, Any]:
    """Replay ``record`` three ways in-process (``--record``, the flags with ``--moves-file``,
    the text form's command) and return the one JSON answer they all give."""
    json_path = tmp_path / f"{record.file_stem}.json"
    json_path.write_text(record.to_json(), encoding="utf-8")
    status, by_record = run(["--record", str(json_path)])
    assert status == 0, by_record

    argv = record.replay_argv()
    assert argv[:3] == ["python", "-m", "engines"]
    flags = argv[3 : argv.index("--")] if "--" in argv else argv[3:]
    moves_path = tmp_path / "moves.txt"
    moves_path.write_text("".join(f"{m.cli}\n" for m in record.moves), encoding="utf-8")
    assert run([*flags, "--moves-file", str(moves_path)]) == (0, by_record)

    assert run(text_command(record.to_text())[3:]) == (0, by_record)
    return by_record


def text_command(text: str) -> list[str]:
    """The last command of a record's text form (its lines joined at the ``\\`` breaks)."""
    lines = text.rstrip("\n").split("\n")
    start = max(i for i, line in enumerate(lines) if line.startswith("  python -m engines "))
    return shlex.split(" ".join(line.rstrip(" \\") for line in lines[start:]))


def check_replay(record: GameRecord, output: dict[str, Any], position: str) -> None:
    """The CLI's answer to a record: every move applied as logged, the stored position."""
    assert output["error"] is None
    assert output["game"] == record.game
    assert output["players"] == record.players
    assert output["options"] == dict(record.options)
    assert output["applied"] == [m.text for m in record.moves]
    assert output["position"] == position == record.position
    if record.logged_ending:
        assert record.result is not None
        assert output["outcome"] == record.result.to_json()
        assert output["to_move"] == []
    else:
        assert output["outcome"] is None


# ----------------------------------------------------------------------------------------------
# Records of real games of all five engines, replayed by the CLI
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """A game to play through the service: ``game`` for ``players`` with ``options``; the
    record is exported (and replayed) after ``midway`` plies and once the game is over.
    ``ending``: ``play`` to the end, ``resign`` (two seats resign one after the other),
    ``abort`` (a moderator stops it)."""

    game: str
    players: int
    options: str | None
    midway: int
    ending: str


CASES = {
    "generatorb": Case("generatorb", 2, None, 24, "resign"),
    "arbos": Case("arbos", 2, "seeds_per_player=7", 30, "abort"),
    "generator": Case("generator", 3, "max_turns=12", 12, "play"),
    "orbs": Case("orbs", 3, None, 9, "resign"),
    "generation_zero": Case("generation_zero", 3, None, 0, "play"),
}


def seed_source_for(case: Case) -> int:
    """A seed whose first position differs from seed 0's when it can (the first player is
    drawn from the seed), so an active record needs its start position."""
    engine = get_engine(case.game)
    options = engine.resolve_options(dict(p.split("=", 1) for p in (case.options or "").split()))
    base = engine.position(engine.new_game(case.players, options, 0))
    for seed in range(1, 50):
        if engine.position(engine.new_game(case.players, options, seed)) != base:
            return seed
    return 1


@pytest.mark.parametrize("game", sorted(CASES))
async def test_records_of_every_engine_replay_to_the_stored_position(
    game: str, database: Database, clock: FakeClock, tmp_path: Path
) -> None:
    case = CASES[game]
    service = GameService(database, clock=clock, rng_seed_source=seeds(seed_source_for(case)))
    users = [ALICE, BOB, CAROL][: case.players]
    snapshot = await start_table(service, game, users, options=case.options)
    rng = Rng(sum(map(ord, game)))

    # -- midway: the game goes on, the seed is withheld ------------------------------------
    snapshot = await play_random(service, snapshot, rng, plies=case.midway)
    hidden = get_engine(game).info.has_hidden_information
    if hidden:
        with pytest.raises(ServiceError, match="once it is over"):
            await service.export_record(GAMES, guild_id=GUILD)
    else:
        assert snapshot.is_active
        record = await service.export_record(GAMES, guild_id=GUILD)
        assert record.seed is None
        assert record.status == "active"
        assert (record.start_position is not None) == (game in ("generator", "orbs"))
        output = replay_in_cli(record, tmp_path)
        check_replay(record, output, await stored_position(database, snapshot.game_id))

    # -- the end ---------------------------------------------------------------------------
    if case.ending == "resign":
        for user in users[:2]:
            clock.advance(_MINUTE)
            snapshot = await service.resign(GAMES, user)
            if not snapshot.is_active:
                break
            snapshot = await play_random(service, snapshot, rng, plies=snapshot.ply + 3)
    elif case.ending == "abort":
        snapshot = await service.abort(GAMES, CAROL, moderator=True)
    else:
        snapshot = await play_random(service, snapshot, rng)
    assert not snapshot.is_active
    record = await service.export_record(GAMES, guild_id=GUILD)
    row = await database.games.get(snapshot.game_id)
    assert row is not None
    assert record.seed == row.seed
    assert record.start_position is None
    assert record.status == snapshot.status
    assert len(record.moves) == snapshot.ply
    output = replay_in_cli(record, tmp_path)
    check_replay(record, output, await stored_position(database, snapshot.game_id))
    if game == "generator":
        assert any(m.seat is None and m.text.startswith("roll:") for m in record.moves)
    if game == "arbos":
        assert [m.text[:6] for m in record.moves[:14]] == ["setup:"] * 14
        assert record.result is None
    if game == "orbs":
        assert sum(m.text.endswith("]resign") for m in record.moves) == 2
        assert record.logged_ending  # the second resignation left one seat: a logged end
    if game == "generatorb":
        # A two-player resignation ends the game outside the move list.
        assert not record.logged_ending
        assert record.result is not None
        assert record.result.termination == "resignation"
        assert "The game ended outside the move list (resignation)" in record.to_text()
    if game == "generation_zero":
        assert record.logged_ending


async def test_a_record_replays_in_a_python_m_engines_subprocess(
    service: GameService, database: Database, start_game: StartGame, tmp_path: Path
) -> None:
    snapshot = await start_game(game="generatorb")
    snapshot = await play_random(service, snapshot, Rng(5), plies=10)
    record = await service.export_record(GAMES, guild_id=GUILD)
    path = tmp_path / f"{record.file_stem}.json"
    path.write_text(record.to_json(), encoding="utf-8")
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "engines",
        "--record",
        str(path),
        cwd=REPO,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    stdout, stderr = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, stderr.decode()
    output = json.loads(stdout)
    assert output["position"] == await stored_position(database, snapshot.game_id)
    assert output["applied"] == [m.text for m in record.moves]


# ----------------------------------------------------------------------------------------------
# The record's fields
# ----------------------------------------------------------------------------------------------


async def test_the_json_has_the_documented_keys_and_shapes(
    service: GameService, database: Database, start_game: StartGame, clock: FakeClock
) -> None:
    snapshot = await start_game(game="generatorb", options="start_supply=12")
    snapshot = await play_random(service, snapshot, Rng(3), plies=4)
    clock.advance(_MINUTE)
    snapshot = await service.resign(GAMES, to_move_user(snapshot))
    record = await service.export_record(GAMES, guild_id=GUILD)
    data = json.loads(record.to_json())
    assert list(data) == RECORD_KEYS
    assert record.to_json().startswith('{\n  "format": "gameroom-record/1",\n')
    row = await database.games.get(snapshot.game_id)
    assert row is not None
    assert data["format"] == RECORD_FORMAT
    assert (data["game"], data["game_name"], data["game_id"]) == (
        "generatorb",
        "Generatorb",
        snapshot.game_id,
    )
    assert data["rules_version"] == row.rules_version == "1"
    assert data["players"] == 2
    assert data["options"]["start_supply"] == 12
    assert list(data["options"]) == [o.name for o in get_engine("generatorb").info.options]
    assert data["seed"] == row.seed
    assert data["start_position"] is None
    assert data["status"] == "finished"
    assert data["result"]["termination"] == "resignation"
    assert set(data["result"]) == {"termination", "winners", "ranking", "scores"}
    assert data["position"] == await stored_position(database, snapshot.game_id)
    assert [list(s) for s in data["seats"]] == [["seat", "name", "user_id", "display_name"]] * 2
    assert [s["name"] for s in data["seats"]] == ["South", "North"]
    assert {s["user_id"] for s in data["seats"]} == {str(ALICE), str(BOB)}
    assert data["created_at"] == "2025-03-14T15:09:26Z"
    assert data["finished_at"] == "2025-03-14T15:10:26Z"
    assert [list(m) for m in data["moves"]] == [["ply", "seat", "text", "cli", "at"]] * 4
    assert [m["ply"] for m in data["moves"]] == [1, 2, 3, 4]
    assert [m["seat"] for m in data["moves"]] == [0, 1, 0, 1]
    assert all(m["cli"] == m["text"] for m in data["moves"])
    assert {m["at"] for m in data["moves"]} == {"2025-03-14T15:09:26Z"}

    named = record.with_display_names({ALICE: 'Alice "Ace"', BOB: "Bob"})
    assert {s["display_name"] for s in json.loads(named.to_json())["seats"]} == {
        'Alice "Ace"',
        "Bob",
    }
    assert record.seats[0].display_name is None  # the record itself is unchanged


async def test_the_seed_is_withheld_until_the_game_is_over(
    service: GameService, database: Database, start_game: StartGame
) -> None:
    snapshot = await start_game(game="generator", options="first_player=seat0")
    snapshot = await play_random(service, snapshot, Rng(8), plies=6)
    active = await service.export_record(GAMES, guild_id=GUILD)
    assert active.status == "active"
    assert json.loads(active.to_json())["seed"] is None
    assert active.start_position is None  # seat 0 starts whatever the seed
    assert '[Seed "?"]' in active.to_text()
    assert "--seed" not in active.replay_argv()
    assert active.result is None
    assert active.finished_at is None

    snapshot = await service.resign(GAMES, ALICE)  # one seat is left: the game is over
    assert not snapshot.is_active
    over = await service.export_record(GAMES, guild_id=GUILD)
    row = await database.games.get(snapshot.game_id)
    assert row is not None
    assert over.seed == row.seed
    assert f'[Seed "{row.seed}"]' in over.to_text()
    assert over.replay_argv()[over.replay_argv().index("--seed") + 1] == str(row.seed)


async def test_a_hidden_information_game_is_exported_only_once_over(
    service: GameService, database: Database, start_game: StartGame, tmp_path: Path
) -> None:
    snapshot = await start_game(game="generation_zero")
    snapshot = await play_random(service, snapshot, Rng(2), plies=3)
    with pytest.raises(ServiceError) as refused:
        await service.export_record(GAMES, guild_id=GUILD)
    assert refused.value.message == (
        f"Generation Zero game {snapshot.game_id} can be exported once it is over: its record "
        "holds the position, hidden cards included."
    )
    assert refused.value.game_id == snapshot.game_id
    # The board of any ply stays open to everyone: it is the public view.
    board = await service.board_at(GAMES, guild_id=GUILD, ply=2)
    assert board.snapshot.position == ""

    snapshot = await play_random(service, snapshot, Rng(2), plies=8)
    snapshot = await service.resign(GAMES, to_move_user(snapshot))
    assert not snapshot.is_active
    record = await service.export_record(GAMES, guild_id=GUILD)
    assert record.seed is not None
    output = replay_in_cli(record, tmp_path)
    check_replay(record, output, await stored_position(database, snapshot.game_id))


async def test_an_aborted_game_exports_with_no_result(
    service: GameService, start_game: StartGame, tmp_path: Path
) -> None:
    snapshot = await start_game(game="arbos", options="setup_mode=manual")
    snapshot = await service.abort(GAMES, ALICE)
    assert snapshot.status == "aborted"
    record = await service.export_record(GAMES, guild_id=GUILD)
    assert record.status == "aborted"
    assert record.result is None
    assert record.seed is not None
    assert record.moves == ()
    assert record.finished_at is not None
    assert "Result: none (the game was aborted)." in record.to_text()
    assert "No moves yet." in record.to_text()
    assert "--" not in record.replay_argv()
    output = replay_in_cli(record, tmp_path)
    assert output["applied"] == []
    assert output["position"] == record.position


async def test_the_text_form(service: GameService, start_game: StartGame, clock: FakeClock) -> None:
    snapshot = await start_game(game="generator", options="first_player=seat0 max_turns=3")
    while snapshot.is_active:
        clock.advance(_MINUTE)
        snapshot = await play_random(service, snapshot, Rng(4), plies=snapshot.ply + 1)
    record = (await service.export_record(GAMES, guild_id=GUILD)).with_display_names(
        {ALICE: "Alice", BOB: 'Bob "B"'}
    )
    text = record.to_text()
    lines = text.splitlines()
    assert lines[0] == '[Game "Generator"]'
    assert f'[Record "generator-{snapshot.game_id}"]' in lines
    assert '[Options "colours=GR first_player=seat0 horizontal=any max_turns=3"]' in lines
    assert '[Status "finished"]' in lines
    assert "[Result " in text
    seat_tags = [line for line in lines if line.startswith("[Seat")]
    assert len(seat_tags) == 2
    assert any(line.endswith(f': Bob \\"B\\" (user {BOB})"]') for line in seat_tags)
    assert f'[Format "{RECORD_FORMAT}"]' in lines
    move_lines = [line for line in lines if line[:3].strip().rstrip(".").isdigit()]
    assert len(move_lines) == len(record.moves)
    first = record.moves[0]
    assert move_lines[0].split() == ["1.", "2025-03-14T15:09:26Z", "chance", first.text]
    assert any("Green " in line for line in move_lines)
    assert f"Result: {record.result_phrase()}." in lines
    assert f"  python -m engines --record generator-{snapshot.game_id}.json" in lines
    assert text_command(text) == record.replay_argv()
    assert max(len(line) for line in lines if line.startswith("  python")) <= 100


# ----------------------------------------------------------------------------------------------
# The board at any ply
# ----------------------------------------------------------------------------------------------


async def test_the_board_at_every_ply_is_the_position_the_game_had(
    service: GameService, database: Database, start_game: StartGame
) -> None:
    """Generator logs a roll after every move: a snapshot after a move covers two plies."""
    snapshot = await start_game(game="generator")
    seen = {snapshot.ply: snapshot.position}
    rng = Rng(21)
    while snapshot.is_active and snapshot.ply < 40:
        snapshot = await play_random(service, snapshot, rng, plies=snapshot.ply + 1)
        seen[snapshot.ply] = snapshot.position
    for ply, position in seen.items():
        board = await service.board_at(GAMES, guild_id=GUILD, ply=ply)
        assert board.snapshot.position == position
        assert board.ply == ply
        assert board.plies == snapshot.ply
    engine = get_engine("generator")
    row = await database.games.get(snapshot.game_id)
    assert row is not None
    meta_seed, moves = row.seed, await database.games.moves(snapshot.game_id)
    start = engine.new_game(2, engine.resolve_options({}), meta_seed)
    stored = engine.loads(row.state_json)
    assert engine.dumps(rebuild(engine, start, moves)) == engine.dumps(stored)
    steps = list(replay_log(engine, start, moves))
    assert [s.ply for s in steps] == list(range(1, snapshot.ply + 1))
    assert all(a.after is b.before for a, b in itertools.pairwise(steps))
    for step in steps:
        assert engine.position(rebuild(engine, start, moves, plies=step.ply)) == (
            engine.position(step.after)
        )
    # Every ply through the service, the rolls between the snapshots included.
    assert len(steps) > len(seen)
    for step in steps:
        board = await service.board_at(GAMES, guild_id=GUILD, ply=step.ply)
        assert board.snapshot.position == engine.position(step.after)


async def test_the_board_at_a_ply_says_where_it_stands(
    service: GameService, start_game: StartGame
) -> None:
    snapshot = await start_game(game="generatorb")
    snapshot = await play_random(service, snapshot, Rng(6), plies=5)
    last = await service.board_at(GAMES, guild_id=GUILD)
    assert (last.ply, last.plies) == (5, 5)
    assert last.snapshot.view == snapshot.view
    assert last.snapshot.position == snapshot.position
    assert last.last_move == snapshot.last_moves[-1]
    start = await service.board_at(GAMES, guild_id=GUILD, ply=0)
    assert start.last_move is None
    assert start.snapshot.last_moves == ()
    assert start.snapshot.to_move == (0,)
    third = await service.board_at(GAMES, guild_id=GUILD, ply=3)
    assert third.last_move is not None
    assert (third.last_move.ply, third.last_move.seat) == (3, 0)
    assert third.snapshot.to_move == (1,)
    assert [m.ply for m in third.snapshot.last_moves] == [1, 2, 3]

    snapshot = await service.resign(GAMES, BOB)
    final = await service.board_at(GAMES, guild_id=GUILD, ply=5)
    assert final.snapshot.status == "finished"
    assert final.snapshot.outcome == snapshot.outcome
    earlier = await service.board_at(GAMES, guild_id=GUILD, ply=4)
    assert earlier.snapshot.status == "active"
    assert earlier.snapshot.outcome is None


@pytest.mark.parametrize("ply", [-1, 6, 1000])
async def test_a_ply_out_of_range_is_refused_naming_the_range(
    service: GameService, start_game: StartGame, ply: int
) -> None:
    snapshot = await start_game(game="generatorb")
    snapshot = await play_random(service, snapshot, Rng(6), plies=5)
    with pytest.raises(ServiceError) as refused:
        await service.board_at(GAMES, guild_id=GUILD, ply=ply)
    assert refused.value.message == (
        f"Generatorb game {snapshot.game_id} has plies 0 to 5 (0 is the start position); "
        f"there is no ply {ply}."
    )


async def test_a_hidden_game_is_replayed_in_its_public_view_only(
    service: GameService, database: Database, start_game: StartGame
) -> None:
    snapshot = await start_game(game="generation_zero")
    snapshot = await play_random(service, snapshot, Rng(12), plies=6)
    engine = get_engine("generation_zero")
    row = await database.games.get(snapshot.game_id)
    assert row is not None
    start = engine.new_game(2, engine.resolve_options({}), row.seed)
    moves = await database.games.moves(snapshot.game_id)
    for ply in (0, 3, 6):
        board = await service.board_at(GAMES, guild_id=GUILD, ply=ply)
        state = rebuild(engine, start, moves, plies=ply)
        assert board.snapshot.view == engine.view(state, None)
        assert all(board.snapshot.view != engine.view(state, seat) for seat in (0, 1))
        assert board.snapshot.position == ""
        assert board.snapshot.only_moves == ()
        assert board.snapshot.prompt is None


async def test_games_are_chosen_by_channel_or_by_id_within_the_guild(
    service: GameService, database: Database, start_game: StartGame
) -> None:
    here = await start_game(game="generatorb")
    there = await start_game(game="orbs", channel_id=OTHER)
    assert (await service.export_record(GAMES, guild_id=GUILD)).game_id == here.game_id
    by_id = await service.export_record(GAMES, guild_id=GUILD, game_id=there.game_id)
    assert by_id.game == "orbs"
    board = await service.board_at(GAMES, guild_id=GUILD, game_id=there.game_id, ply=0)
    assert board.snapshot.game_id == there.game_id
    for guild_id, message in ((GUILD + 1, "on this server"), (None, "in this conversation")):
        for call in (service.export_record, service.board_at):
            with pytest.raises(NoGameHereError, match=message):
                await call(GAMES, guild_id=guild_id, game_id=there.game_id)
    with pytest.raises(NoGameHereError, match=f"There is no game {there.game_id + 50} on"):
        await service.board_at(GAMES, guild_id=GUILD, game_id=there.game_id + 50)
    with pytest.raises(NoGameHereError):
        await service.export_record(OTHER + 1, guild_id=GUILD)


async def test_a_game_outside_any_guild_is_shown_only_in_its_own_conversation(
    service: GameService,
) -> None:
    challenge = await service.create_challenge(
        guild_id=None, channel_id=77, challenger_id=ALICE, opponent_ids=[BOB], game="generatorb"
    )
    started = (await service.accept_challenge(challenge.challenge_id, BOB)).game
    assert started is not None
    record = await service.export_record(77, guild_id=None, game_id=started.game_id)
    assert record.game_id == started.game_id
    with pytest.raises(NoGameHereError):
        await service.export_record(78, guild_id=None, game_id=started.game_id)
    with pytest.raises(NoGameHereError):
        await service.export_record(77, guild_id=GUILD, game_id=started.game_id)


# ----------------------------------------------------------------------------------------------
# The replay loop
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Logged:
    ply: int
    seat: int | None
    text: str


def test_the_replay_loop_refuses_a_log_that_does_not_replay() -> None:
    engine = get_engine("generatorb")
    start = engine.new_game(2, engine.resolve_options({}), 0)
    with pytest.raises(ReplayError, match="jumps from ply 1 to ply 3"):
        rebuild(engine, start, [Logged(1, 0, "a1-a3"), Logged(3, 1, "h8-h6")])
    with pytest.raises(ReplayError, match=r"ply 1: 'A1-A3' replays as 'a1-a3'"):
        rebuild(engine, start, [Logged(1, 0, "A1-A3")])
    with pytest.raises(ReplayError, match="ply 2: seat 0 'h8-h6' is refused"):
        rebuild(engine, start, [Logged(1, 0, "a1-a3"), Logged(2, 0, "h8-h6")])
    with pytest.raises(ReplayError, match="generatorb does not resign in play"):
        rebuild(engine, start, [Logged(1, 1, "[1]resign")])
    assert engine.position(rebuild(engine, start, [Logged(1, 0, "a1-a3")], plies=0)) == (
        engine.position(start)
    )


async def test_service_replay_names_the_game_of_a_corrupt_log(
    service: GameService, database: Database, start_game: StartGame
) -> None:
    snapshot = await start_game(game="generatorb")
    snapshot = await play_random(service, snapshot, Rng(1), plies=2)
    assert (await service.replay(snapshot.game_id)).matches
    async with database.engine.begin() as conn:
        await conn.exec_driver_sql("UPDATE moves SET text = 'a1a3' WHERE ply = 1")
    with pytest.raises(ReplayError) as failed:
        await service.replay(snapshot.game_id)
    assert f"game {snapshot.game_id}" in failed.value.__notes__


# ----------------------------------------------------------------------------------------------
# Moves where several seats may act need their seat on the command line
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TicksState:
    """``ticks[s]``: how many times seat ``s`` ticked; a round ends when both have."""

    ticks: tuple[int, int]
    order: str


class Ticks(Engine[TicksState, str]):
    """Both seats type ``tick`` each round, in any order, for three rounds; whoever ticks
    first in the last round wins. ``[k]tick`` names the seat (engine-cli.md)."""

    info = GameInfo(
        id="ticks",
        name="Ticks",
        min_players=2,
        max_players=2,
        default_players=2,
        options=(),
        presets=(),
        rules_version="1",
        seat_names=("Left", "Right"),
        rules_summary="Tick.",
        notation_help="`tick`",
        has_simultaneous_moves=True,
    )

    def new_game(self, players: int, options: Mapping[str, OptionValue], seed: int) -> TicksState:
        return TicksState((0, 0), "")

    def to_move(self, state: TicksState) -> tuple[int, ...]:
        if self.outcome(state) is not None:
            return ()
        low = min(state.ticks)
        return tuple(s for s in (0, 1) if state.ticks[s] == low)

    def legal_moves(self, state: TicksState, seat: int) -> Sequence[str]:
        return ["tick"] if seat in self.to_move(state) else []

    def parse_move(self, state: TicksState, seat: int, text: str) -> str:
        body = text.strip()
        if body.startswith(f"[{seat}]"):
            body = body[len(f"[{seat}]") :]
        if body != "tick":
            raise NotationError(f"{text!r} is not a move: type tick", text=text)
        if seat not in self.to_move(state):
            raise NotYourTurnError("not your turn", text=text)
        return "tick"

    def format_move(self, state: TicksState, move: str) -> str:
        return move

    def apply(self, state: TicksState, seat: int, move: str) -> Transition[TicksState]:
        ticks = list(state.ticks)
        ticks[seat] += 1
        after = TicksState((ticks[0], ticks[1]), state.order + str(seat))
        return Transition(after, (Event("ticked", seat, "ticks"),))

    def outcome(self, state: TicksState) -> Outcome | None:
        if min(state.ticks) < 3:
            return None
        return Outcome.win("last_round", int(state.order[-2]), 2)

    def view(self, state: TicksState, viewer: int | None) -> Any:
        return state

    def position(self, state: TicksState) -> str:
        return f"{state.ticks[0]}/{state.ticks[1]} {state.order or '-'}"

    def from_position(self, text: str, options: Mapping[str, OptionValue]) -> TicksState:
        raise UsageError("ticks has no position input")

    def dump_state(self, state: TicksState) -> dict[str, Any]:
        return {"ticks": list(state.ticks), "order": state.order}

    def load_state(self, data: Mapping[str, Any]) -> TicksState:
        return TicksState((data["ticks"][0], data["ticks"][1]), data["order"])


async def test_a_move_made_when_several_seats_may_act_is_replayed_with_its_seat(
    service: GameService,
    database: Database,
    start_game: StartGame,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(engines.ENGINES, "ticks", Ticks())
    snapshot = await start_game(game="ticks")
    for user in (BOB, ALICE, ALICE, BOB, BOB, ALICE):
        snapshot = (await service.play(GAMES, user, "tick")).snapshot
    assert not snapshot.is_active
    record = await service.export_record(GAMES, guild_id=GUILD)
    seat = {p.user_id: p.seat for p in snapshot.players}
    # Both seats may act at the start of each round; the second tick of a round is forced.
    assert [m.cli for m in record.moves] == [
        f"[{seat[BOB]}]tick",
        "tick",
        f"[{seat[ALICE]}]tick",
        "tick",
        f"[{seat[BOB]}]tick",
        "tick",
    ]
    output = replay_in_cli(record, tmp_path)
    check_replay(record, output, await stored_position(database, snapshot.game_id))
    # Without the prefixes the CLI gives each round's first tick to seat 0: another game.
    status, texts = run(["ticks", *(m.text for m in record.moves)])
    assert status == 0
    assert texts["position"] != record.position
