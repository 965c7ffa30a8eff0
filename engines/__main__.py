"""``python -m engines``: every engine from the command line, one JSON object out.

The contract (flags, keys, error kinds, exit statuses) is ``shared/design/engine-cli.md``;
it is stable: change it only with a note in CHANGELOG.md. ``--record PATH`` replays a game
record exported by the bot (``/game export``, ``docs/records.md``).
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TypeGuard

from engines import ENGINES, get_engine
from engines.base import (
    CHANCE,
    SEAT_DIGITS,
    Engine,
    GameOverError,
    IllegalMoveError,
    MoveError,
    NotationError,
    NotYourTurnError,
    OptionValue,
    Transition,
    UsageError,
    require_ascii,
)

SEAT_PREFIX = re.compile(rf"^\s*\[({SEAT_DIGITS})\]")
#: ``resign`` (the seat to act) or ``[k]resign`` (seat k, at any time), for games where play
#: goes on without the resigner (:meth:`engines.base.Engine.resign`, e.g. Generator GEN-15).
RESIGN = re.compile(rf"^\s*(?:\[({SEAT_DIGITS})\])?\s*resign\s*$", re.IGNORECASE)
#: The ``format`` of the game records ``--record`` reads (``bot/service/records.py``).
RECORD_FORMAT = "gameroom-record/1"

log = logging.getLogger("engines.cli")


class _UsageParser(argparse.ArgumentParser):
    """argparse that reports a bad call as the contract's usage error (exit 2, JSON)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


#: The flags that take a value (:func:`_parser`); :func:`_moves_last` must know them to tell
#: a flag's value (``--seed -5``) from a move.
VALUE_FLAGS = ("--players", "--option", "--seed", "--position", "--moves-file", "--record")


def _parser() -> argparse.ArgumentParser:
    p = _UsageParser(prog="python -m engines", description="Play any Gameroom engine.")
    p.add_argument("game", nargs="?", help="game id: " + ", ".join(ENGINES))
    p.add_argument("moves", nargs="*", metavar="MOVE", help="moves in the game's notation")
    p.add_argument("--list", action="store_true", help="list every game and exit")
    p.add_argument("--players", type=int, help="number of seats")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--seed", type=int, help="seed of the game's generator (default 0)")
    p.add_argument("--position", metavar="TEXT|@FILE")
    p.add_argument("--legal", action="store_true", help="add legal_moves to the output")
    p.add_argument("--moves-file", metavar="PATH")
    p.add_argument(
        "--record",
        metavar="PATH",
        help="replay a game record from /game export (game, players, options, seed, moves)",
    )
    return p


def _takes_value(flag: str) -> bool:
    """Whether long flag ``flag`` (``--seed``, or a prefix argparse accepts: ``--se``) is one
    of :data:`VALUE_FLAGS` given without ``=VALUE``."""
    if "=" in flag:
        return False
    return len([f for f in VALUE_FLAGS if f.startswith(flag)]) == 1


def _moves_last(argv: Sequence[str]) -> list[str]:
    """``argv`` with its flags first, then ``--``, then GAME and the MOVE tokens in order.

    A MOVE is what a player types in ``/move`` (engine-cli.md), and a malformed one is a
    ``notation`` error, exit 1, whatever its first character. Left to argparse, a token that
    starts with ``-`` would be read as a flag: ``-h8`` as ``-h`` (a usage error), ``-a1`` as
    an unknown one. So here a token is a flag only if it starts with ``--``, or is ``-h``;
    the one after a flag of :data:`VALUE_FLAGS` is that flag's value (``--seed -5``); every
    other token, and all after a ``--`` of the caller, is GAME or a MOVE. A misspelt flag
    (``--playres``) stays a usage error.
    """
    flags: list[str] = []
    positional: list[str] = []
    tokens = iter(argv)
    for token in tokens:
        if token == "--":
            positional.extend(tokens)
        elif token.startswith("--") or token == "-h":
            flags.append(token)
            value = next(tokens, None) if _takes_value(token) else None
            if value is not None:
                flags.append(value)
        else:
            positional.append(token)
    return [*flags, "--", *positional]


def _game_list() -> dict[str, Any]:
    games = []
    for engine in ENGINES.values():
        info = engine.info
        games.append(
            {
                "id": info.id,
                "name": info.name,
                "players": {
                    "min": info.min_players,
                    "max": info.max_players,
                    "default": info.default_players,
                },
                "options": [
                    {
                        "name": o.name,
                        "type": o.type,
                        "default": o.default,
                        "allowed": o.allowed(),
                        "help": o.help,
                    }
                    for o in info.options
                ],
                "presets": [
                    {"id": p.id, "label": p.label, "options": dict(p.options)} for p in info.presets
                ],
                "chance": info.has_chance,
                "hidden_information": info.has_hidden_information,
                "rules_version": info.rules_version,
            }
        )
    return {"games": games}


def _parse_options(engine: Engine[Any, Any], pairs: Sequence[str]) -> dict[str, OptionValue]:
    raw: dict[str, str] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq:
            raise UsageError(f"--option wants KEY=VALUE, got {pair!r}")
        key = key.strip()
        if not value.strip():
            # An option is either left out (its default) or given a value: `colours=` is a
            # bad value (spec generator, Options), not a way to ask for the default.
            spec = engine.info.option(key)
            raise UsageError(f"option {key}: an empty value is not allowed; use {spec.allowed()}")
        raw[key] = value
    return engine.resolve_options(raw)


def _read_text(value: str) -> str:
    if value.startswith("@"):
        try:
            return Path(value[1:]).read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise UsageError(f"cannot read {value[1:]}: {exc.strerror}") from None
    return value


@dataclass(frozen=True, slots=True)
class _Setup:
    """What one call plays: the engine, the number of seats, every option's effective value,
    the state to start from and the MOVE tokens to apply in order."""

    engine: Engine[Any, Any]
    players: int
    options: dict[str, OptionValue]
    state: Any
    tokens: list[str]


def _from_flags(args: argparse.Namespace) -> _Setup:
    """The game the flags describe: GAME, ``--players``, ``--option``, ``--seed`` or
    ``--position``, then the MOVE tokens and ``--moves-file``. Raises :class:`UsageError`."""
    if not args.game:
        raise UsageError("name a game: " + ", ".join(ENGINES))
    engine = get_engine(args.game)
    position = None if args.position is None else _read_text(args.position)
    players = args.players
    if players is None and position is not None:
        # engine-cli.md: without --players a position plays with the count it carries.
        players = engine.position_players(position)
    if players is None:
        players = engine.info.default_players
    engine.check_players(players)
    options = engine.options_for(_parse_options(engine, args.option), players)
    if position is not None:
        state = engine.from_position(position, options)
        engine.check_position_players(state, players, explicit=args.players is not None)
        if args.seed is not None:
            state = engine.with_seed(state, args.seed)
    else:
        state = engine.new_game(players, options, 0 if args.seed is None else args.seed)
    tokens = list(args.moves)
    if args.moves_file:
        try:
            lines = Path(args.moves_file).read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise UsageError(f"cannot read {args.moves_file}: {exc.strerror}") from None
        tokens += [line.strip() for line in lines if line.strip()]
    return _Setup(engine, players, options, state, tokens)


def _from_record(args: argparse.Namespace) -> _Setup:
    """The game of the record at ``--record PATH`` (``docs/records.md``).

    The record says everything: game, players, options, seed (or the start position when the
    seed was withheld) and the moves (each one's ``cli`` token), so any flag that would say it
    too is a usage error; only ``--legal`` may be added. A record written under another rules
    version is replayed all the same, with a warning on standard error. Raises
    :class:`UsageError` for an unreadable file, a file that is not a record, or a record whose
    fields the engine refuses.
    """
    clashing = [
        flag
        for flag, given in (
            ("GAME or MOVE", bool(args.game) or bool(args.moves)),
            ("--players", args.players is not None),
            ("--option", bool(args.option)),
            ("--seed", args.seed is not None),
            ("--position", args.position is not None),
            ("--moves-file", args.moves_file is not None),
        )
        if given
    ]
    if clashing:
        raise UsageError(
            "--record reads the game, players, options, seed and moves from the record; "
            f"drop {', '.join(clashing)}"
        )
    path = args.record
    record = _read_record(path)

    def bad(key: str, wanted: str) -> UsageError:
        return UsageError(f"{path}: the record's {key!r} must be {wanted}")

    game, players, options = record.get("game"), record.get("players"), record.get("options")
    seed, start, moves = record.get("seed"), record.get("start_position"), record.get("moves")
    if not isinstance(game, str):
        raise bad("game", "a game id: " + ", ".join(ENGINES))
    if not _is_int(players):
        raise bad("players", "a number of seats")
    if not isinstance(options, dict):
        raise bad("options", "an object of option values")
    if seed is not None and not _is_int(seed):
        raise bad("seed", "an integer or null")
    if start is not None and not isinstance(start, str):
        raise bad("start_position", "a position string or null")
    if not isinstance(moves, list) or not all(
        isinstance(m, dict) and isinstance(m.get("cli"), str) for m in moves
    ):
        raise bad("moves", 'a list of objects with a "cli" token')
    engine = get_engine(game)
    if record.get("rules_version") != engine.info.rules_version:
        log.warning(
            "%s was recorded under %s rules version %r; this engine has version %r",
            path,
            engine.info.name,
            record.get("rules_version"),
            engine.info.rules_version,
        )
    engine.check_players(players)
    resolved = engine.options_for(engine.resolve_options(_record_options(path, options)), players)
    if start is not None:
        state = engine.from_position(start, resolved)
        engine.check_position_players(state, players, explicit=True)
    else:
        state = engine.new_game(players, resolved, 0 if seed is None else seed)
    return _Setup(engine, players, resolved, state, [m["cli"] for m in moves])


def _read_record(path: str) -> Mapping[str, Any]:
    """The JSON object of a game record; raises :class:`UsageError` if it is not one."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path} is not JSON: {exc.msg} (line {exc.lineno})") from None
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        raise UsageError(
            f"{path} is not a Gameroom game record (format {RECORD_FORMAT!r}, "
            "from the bot's /game export)"
        )
    return data


def _record_options(path: str, options: Mapping[str, Any]) -> dict[str, str]:
    """A record's option values (JSON booleans, integers, text) as typed ``key=value`` text,
    so the engine validates them as it validates ``--option`` (an empty text value is the
    stored default here, as the bot stores Generator's ``colours`` before seating)."""
    typed: dict[str, str] = {}
    for key, value in options.items():
        if isinstance(value, bool):
            typed[key] = "true" if value else "false"
        elif isinstance(value, int | str):
            typed[key] = str(value)
        else:
            raise UsageError(f"{path}: option {key} is {value!r}, not a boolean, integer or text")
    return typed


def _is_int(value: object) -> TypeGuard[int]:
    """True for a JSON integer (``true`` and ``false`` are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def run(argv: Sequence[str]) -> tuple[int, dict[str, Any]]:
    """Run the CLI on ``argv``; returns ``(exit status, JSON object)`` (engine-cli.md)."""
    try:
        args = _parser().parse_args(_moves_last(argv))
        if args.list:
            return 0, _game_list()
        setup = _from_record(args) if args.record is not None else _from_flags(args)
    except UsageError as exc:
        return 2, {"error": {"kind": "usage", "message": str(exc)}}

    engine, players, options = setup.engine, setup.players, setup.options
    state, tokens = setup.state, setup.tokens
    applied: list[str] = []
    error = None
    before, drawn = state, 0
    state = _settle_chance(engine, state, applied, tokens, 0)
    for index, token in enumerate(tokens):
        try:
            state = _play_token(engine, state, token, applied, players)
        except MoveError as exc:
            error = {"index": index, "input": token, "kind": exc.kind, "message": exc.message}
            if isinstance(exc, NotationError) and not engine.sample_before_notation_check:
                # Arbos section 8: a malformed token is rejected before any draw.
                state = before
                del applied[drawn:]
            break
        before, drawn = state, len(applied)
        state = _settle_chance(engine, state, applied, tokens, index + 1)
    to_move = tuple(s for s in engine.to_move(state) if s != CHANCE)
    outcome = engine.outcome(state)
    result: dict[str, Any] = {
        "game": engine.info.id,
        "players": players,
        "options": options,
        "applied": applied,
        "error": error,
        "position": engine.position(state),
        "to_move": list(to_move),
        "outcome": None if outcome is None else outcome.to_json(),
    }
    if args.legal:
        seats = [s for s in to_move if s != CHANCE]
        legal: set[str] = set()
        for seat in seats:
            legal.update(engine.legal_move_texts(state, seat))
        if engine.to_move(state) == (CHANCE,):
            legal.update(o.text for o in engine.chance_outcomes(state))
        result["legal_moves"] = sorted(legal)
    return (1 if error else 0), result


def _play_token(
    engine: Engine[Any, Any], state: Any, token: str, applied: list[str], players: int
) -> Any:
    """Apply one MOVE token by the seat whose turn it is (or the ``[seat]`` it names).

    A resignation the engine handles itself (:meth:`~engines.base.Engine.resign` returns a
    transition) may come from any seat at any time and is recorded as ``[k]resign``.
    """
    to_move = engine.to_move(state)
    if not to_move:
        raise GameOverError("the game is over", text=token)
    require_ascii(token)
    resigned = _resignation(engine, state, token, to_move, players)
    if resigned is not None:
        seat, transition = resigned
        applied.append(f"[{seat}]resign")
        return transition.state
    if to_move == (CHANCE,):
        transition = engine.apply_chance(state, token)
        applied.append(engine.chance_text(state, token))
        return transition.state
    prefix = SEAT_PREFIX.match(token)
    if prefix:
        seat = int(prefix.group(1))
        if seat not in to_move:
            # A token that is not a move at all is a notation error whoever sends it
            # (Generator: "a roll: token with a seat prefix"); engines check notation first.
            engine.parse_move(state, seat, token)
            raise NotYourTurnError(f"seat {seat} may not act now", text=token)
    else:
        seat = to_move[0]
    new_state, canonical, _events = engine.play(state, seat, token)
    applied.append(canonical)
    return new_state


def _resignation(
    engine: Engine[Any, Any], state: Any, token: str, to_move: tuple[int, ...], players: int
) -> tuple[int, Transition[Any]] | None:
    """``(seat, transition)`` if ``token`` is a resignation the engine plays, else ``None``.

    ``None`` also when the engine leaves resignations to the bot (``resign`` returns ``None``,
    e.g. Generatorb): the token then takes the normal path and gets that game's notation
    error. Raises :class:`NotationError` for a seat number that does not exist, and whatever
    the engine's ``resign`` raises (a seat that has already left).
    """
    match = RESIGN.match(token)
    if not match:
        return None
    if match.group(1) is not None:
        seat = int(match.group(1))
        if seat >= players:
            raise NotationError(f"there is no seat {seat}; seats are 0–{players - 1}", text=token)
    elif to_move[0] == CHANCE:
        return None
    else:
        seat = to_move[0]
    transition = engine.resign(state, seat)
    return None if transition is None else (seat, transition)


def _settle_chance(
    engine: Engine[Any, Any], state: Any, applied: list[str], tokens: list[str], next_index: int
) -> Any:
    """At a chance node with no forcing token next (:func:`_forces`), sample it from the
    seeded generator."""
    while engine.to_move(state) == (CHANCE,):
        if next_index < len(tokens) and _forces(engine, state, tokens[next_index]):
            return state
        text = engine.sample_chance(state)
        state = engine.apply_chance(state, text).state
        applied.append(text)
    return state


def _forces(engine: Engine[Any, Any], state: Any, token: str) -> bool:
    """Whether ``token`` speaks to the chance node of ``state``: an outcome in the game's
    chance notation, legal here or not. An illegal one (Arbos: `setup:A2` beside a seed, a
    spacing violation) is judged as it stands, before any draw (spec arbos section 8: a
    `setup:CELL` token forces the next placement); anything else (a move, a malformed token)
    lets the pending draws happen first."""
    try:
        engine.apply_chance(state, token)
    except IllegalMoveError:
        return True
    except MoveError:
        return False
    return True


def main(argv: Sequence[str] | None = None) -> int:
    status, result = run(sys.argv[1:] if argv is None else argv)
    sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
