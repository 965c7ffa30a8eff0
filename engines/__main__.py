"""``python -m engines``: every engine from the command line, one JSON object out.

The contract (flags, keys, error kinds, exit statuses) is ``shared/design/engine-cli.md``;
it is stable: change it only with a note in CHANGELOG.md.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from engines import ENGINES, get_engine
from engines.base import (
    CHANCE,
    Engine,
    GameOverError,
    MoveError,
    NotationError,
    NotYourTurnError,
    OptionValue,
    Transition,
    UsageError,
)

SEAT_PREFIX = re.compile(r"^\s*\[(\d+)\]")
#: ``resign`` (the seat to act) or ``[k]resign`` (seat k, at any time), for games where play
#: goes on without the resigner (:meth:`engines.base.Engine.resign`, e.g. Generator GEN-15).
RESIGN = re.compile(r"^\s*(?:\[(\d+)\])?\s*resign\s*$", re.IGNORECASE)


class _UsageParser(argparse.ArgumentParser):
    """argparse that reports a bad call as the contract's usage error (exit 2, JSON)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _parser() -> argparse.ArgumentParser:
    p = _UsageParser(prog="python -m engines", description="Play any Gameroom engine.")
    p.add_argument("game", nargs="?", help="game id: " + ", ".join(ENGINES))
    p.add_argument("moves", nargs="*", metavar="MOVE", help="moves in the game's notation")
    p.add_argument("--list", action="store_true", help="list every game and exit")
    p.add_argument("--players", type=int, help="number of seats")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--position", metavar="TEXT|@FILE")
    p.add_argument("--legal", action="store_true", help="add legal_moves to the output")
    p.add_argument("--moves-file", metavar="PATH")
    return p


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
        raw[key.strip()] = value
    return engine.resolve_options(raw)


def _read_text(value: str) -> str:
    if value.startswith("@"):
        try:
            return Path(value[1:]).read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise UsageError(f"cannot read {value[1:]}: {exc.strerror}") from None
    return value


def run(argv: Sequence[str]) -> tuple[int, dict[str, Any]]:
    """Run the CLI on ``argv``; returns ``(exit status, JSON object)`` (engine-cli.md)."""
    try:
        args = _parser().parse_intermixed_args(list(argv))
        if args.list:
            return 0, _game_list()
        if not args.game:
            raise UsageError("name a game: " + ", ".join(ENGINES))
        engine = get_engine(args.game)
        players = engine.info.default_players if args.players is None else args.players
        engine.check_players(players)
        options = engine.options_for(_parse_options(engine, args.option), players)
        if args.position is not None:
            state = engine.from_position(_read_text(args.position), options)
            engine.check_position_players(state, players, explicit=args.players is not None)
        else:
            state = engine.new_game(players, options, args.seed)
        tokens = list(args.moves)
        if args.moves_file:
            try:
                lines = Path(args.moves_file).read_text(encoding="utf-8").splitlines()
            except OSError as exc:
                raise UsageError(f"cannot read {args.moves_file}: {exc.strerror}") from None
            tokens += [line.strip() for line in lines if line.strip()]
    except UsageError as exc:
        return 2, {"error": {"kind": "usage", "message": str(exc)}}

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
    resigned = _resignation(engine, state, token, to_move, players)
    if resigned is not None:
        seat, transition = resigned
        applied.append(f"[{seat}]resign")
        return transition.state
    if to_move == (CHANCE,):
        texts = {o.text.lower(): o.text for o in engine.chance_outcomes(state)}
        transition = engine.apply_chance(state, token)
        applied.append(texts.get(token.strip().lower(), token.strip()))
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
    """At a chance node with no forcing token next, sample it from the seeded generator."""
    while engine.to_move(state) == (CHANCE,):
        if next_index < len(tokens):
            forced = {o.text.lower() for o in engine.chance_outcomes(state)}
            if tokens[next_index].strip().lower() in forced:
                return state
        text = engine.sample_chance(state)
        state = engine.apply_chance(state, text).state
        applied.append(text)
    return state


def main(argv: Sequence[str] | None = None) -> int:
    status, result = run(sys.argv[1:] if argv is None else argv)
    sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
