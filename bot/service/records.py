"""Game records (``/game export``), the board at any ply (``/game replay``), and the one loop
that replays a move log.

A *record* is everything needed to replay a game without the bot: the game and its rules
version, the effective options, the seed, the seats and the move log, each move with its time
and the token ``python -m engines`` takes for it. ``docs/records.md`` documents the JSON field
by field. Two rules keep a record from giving anything away while the game goes on:

* the seed is ``null`` until the game is over: with it anyone could compute every future roll
  and draw;
* a game with hidden information cannot be exported until it is over: its record holds the
  position, and the position holds every hidden card (spec generation_zero R14). Its moves
  are public; ``/game moves`` lists them.

:func:`replay_log` is the only loop in the code base that turns logged moves back into engine
states. :meth:`GameService.replay <bot.service.GameService.replay>` (the consistency check), the
export (which moves need a ``[seat]`` prefix on the command line) and ``/game replay`` (the
board at ply N) all go through it.
"""

from __future__ import annotations

import dataclasses
import json
import shlex
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Protocol

from bot.service import _codec
from bot.service._cache import GameMeta
from bot.service.errors import ServiceError
from bot.service.logbook import RECENT_MOVES, public_events, resign_move_text
from bot.service.models import GameSnapshot, MoveRecord
from db import GameRow, MoveRow
from engines import get_engine
from engines.base import CHANCE, Engine, MoveError, OptionValue, Outcome

__all__ = [
    "RECORD_FORMAT",
    "BoardAtPly",
    "GameRecord",
    "LoggedMove",
    "RecordMove",
    "RecordSeat",
    "ReplayError",
    "ReplayStep",
    "board_at_ply",
    "build_record",
    "position_start",
    "public_view",
    "rebuild",
    "rebuild_game",
    "replay_log",
    "start_state",
]

#: The ``format`` of a record's JSON; a change of its shape bumps the number.
RECORD_FORMAT = "gameroom-record/1"

#: Where a long replay command is wrapped (the project's line length).
_COMMAND_WIDTH = 100


# ============================================================================================
# The replay loop
# ============================================================================================


class LoggedMove(Protocol):
    """A move log entry as the replay reads it (:class:`db.MoveRow` is one): ``ply`` counts
    from 1, ``seat`` is ``None`` for a chance outcome, ``text`` is the canonical move."""

    @property
    def ply(self) -> int: ...

    @property
    def seat(self) -> int | None: ...

    @property
    def text(self) -> str: ...


class ReplayError(RuntimeError):
    """A logged move does not replay as it was logged: the log is corrupt, or the rules
    changed under it. Always a bug or a data problem, never a user's mistake."""


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One logged move, replayed.

    ``before`` and ``after`` are the engine states around it (never shown to anyone: only
    :meth:`~engines.base.Engine.view` of them is). ``cli`` is the token ``python -m engines``
    applies for the move: the logged text, with a ``[seat]`` prefix when the position before
    the move let another seat, or several seats, act, so the CLI's default (the seat whose
    turn it is) would pick the wrong one. Chance outcomes (``roll:G``) and ``[k]resign`` rows
    are their own tokens.
    """

    ply: int
    seat: int | None
    text: str
    cli: str
    before: Any
    after: Any


def replay_log(
    engine: Engine[Any, Any], start: Any, moves: Sequence[LoggedMove]
) -> Iterator[ReplayStep]:
    """Replay ``moves`` (plies 1, 2, … in order) from the state ``start``, one step at a time.

    A chance row (seat ``None``) is applied as logged with
    :meth:`~engines.base.Engine.apply_chance`; a ``[k]resign`` row of seat ``k`` goes through
    :meth:`~engines.base.Engine.resign`; any other row is parsed again for its seat and must
    print back as the same canonical text. Raises :class:`ReplayError` naming the ply when
    the log skips a ply or a row does not replay as logged.
    """
    state = start
    for expected, move in enumerate(moves, start=1):
        if move.ply != expected:
            raise ReplayError(f"the move log jumps from ply {expected - 1} to ply {move.ply}")
        before = state
        cli = move.text
        try:
            if move.seat is None:
                state = engine.apply_chance(state, move.text).state
            elif move.text == resign_move_text(move.seat):
                resigned = engine.resign(state, move.seat)
                if resigned is None:
                    raise ReplayError(f"ply {move.ply}: {engine.info.id} does not resign in play")
                state = resigned.state
            else:
                state, canonical, _ = engine.play(state, move.seat, move.text)
                if canonical != move.text:
                    raise ReplayError(f"ply {move.ply}: {move.text!r} replays as {canonical!r}")
                if engine.to_move(before) != (move.seat,):
                    cli = f"[{move.seat}]{move.text}"
        except MoveError as exc:
            raise ReplayError(
                f"ply {move.ply}: seat {move.seat} {move.text!r} is refused: {exc.message}"
            ) from exc
        yield ReplayStep(move.ply, move.seat, move.text, cli, before, state)


def rebuild(
    engine: Engine[Any, Any], start: Any, moves: Sequence[LoggedMove], *, plies: int | None = None
) -> Any:
    """The state after the first ``plies`` moves of the log (all of them when ``None``),
    replayed from ``start`` by :func:`replay_log`, whose errors it raises."""
    state = start
    for step in replay_log(engine, start, moves if plies is None else moves[:plies]):
        state = step.after
    return state


def start_state(meta: GameMeta) -> Any:
    """The state a game began in: its engine's ``new_game`` with its seats, options and seed,
    or, for a game started from a custom position, :func:`position_start` of it."""
    if meta.start_position is not None:
        return position_start(
            meta.engine, meta.start_position, meta.options, len(meta.players), meta.seed
        )
    return meta.engine.new_game(len(meta.players), meta.options, meta.seed)


def position_start(
    engine: Engine[Any, Any],
    text: str,
    options: Mapping[str, OptionValue],
    players: int,
    seed: int,
) -> Any:
    """The state a game of ``players`` seats starts in from the position ``text`` (``/challenge
    position:``), read as ``python -m engines --players N --position TEXT`` reads it, with the
    game's ``seed`` put into the state.

    A position holds no generator state, so :meth:`~engines.base.Engine.from_position` starts
    the generator at seed 0; games with chance (Generator's die, Arbos' random setup draws)
    get the game's seed instead, so two games from one position do not roll alike. The seed
    goes into the state's ``seed`` field (both engines keep it there next to their draw
    counter, which stays 0). Generation Zero, the one game with hidden cards, takes no seed
    from outside: its position carries its own ``seed`` key (used only during the draft), so
    a custom position deals exactly as written. Generatorb and Orbs draw nothing after the
    start. Raises :class:`~engines.base.UsageError` (and :class:`ValueError`) as the CLI
    does for a malformed position or one whose seats are not ``players``.
    """
    state = engine.from_position(text, engine.options_for(options, players))
    engine.check_position_players(state, players, explicit=True)
    if not engine.info.has_chance:
        return state
    if dataclasses.is_dataclass(state) and not isinstance(state, type):
        if any(f.name == "seed" for f in dataclasses.fields(state)):
            return dataclasses.replace(state, seed=seed)
    elif "seed" in getattr(state, "_fields", ()):  # a NamedTuple state
        return state._replace(seed=seed)
    return state


def rebuild_game(meta: GameMeta, moves: Sequence[LoggedMove], *, plies: int | None = None) -> Any:
    """:func:`rebuild` from the game's :func:`start_state`: its state after ``plies`` moves."""
    return rebuild(meta.engine, start_state(meta), moves, plies=plies)


# ============================================================================================
# The record
# ============================================================================================


@dataclass(frozen=True, slots=True)
class RecordSeat:
    """Who played ``seat`` (0-based): the seat's ``name`` in the game (``"South"``), the
    Discord ``user_id`` and, when the bot could look it up, their ``display_name``."""

    seat: int
    name: str
    user_id: int
    display_name: str | None = None


@dataclass(frozen=True, slots=True)
class RecordMove:
    """One logged move: ``ply`` (from 1), ``seat`` (``None`` for a chance outcome), the
    canonical ``text`` as logged, the ``cli`` token that replays it (:class:`ReplayStep`) and
    when it was committed (``at``, aware UTC)."""

    ply: int
    seat: int | None
    text: str
    cli: str
    at: datetime


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game as exported by ``/game export`` (JSON: :meth:`to_json`; text: :meth:`to_text`).

    ``options`` are every option's effective value for this player count (what the CLI
    prints). ``seed`` is ``None`` while the game goes on. ``start_position`` is the custom
    position a game started from (``/challenge position:``); otherwise it is ``None`` unless
    the seed is withheld *and* the first position depends on it (Orbs and Generator draw the
    first player from the seed). A replay then starts from that position instead of a new
    game. ``position`` is the position after the last move. ``result`` is the
    stored outcome (``None`` while active or once aborted). ``logged_ending`` is true when
    the last logged move ends the game, so a replay's ``outcome`` equals ``result``; it is
    false for a game that goes on and for one that ended outside the move list (a
    two-player resignation, an agreed draw, an abort, a loss on time).
    """

    game_id: int
    game: str
    game_name: str
    rules_version: str
    players: int
    options: Mapping[str, OptionValue]
    seed: int | None
    start_position: str | None
    status: str
    result: Outcome | None
    position: str
    seats: tuple[RecordSeat, ...]
    created_at: datetime
    finished_at: datetime | None
    moves: tuple[RecordMove, ...]
    logged_ending: bool

    @property
    def file_stem(self) -> str:
        """``generatorb-12``: the attachments are ``<file_stem>.json`` and ``.txt``."""
        return f"{self.game}-{self.game_id}"

    def with_display_names(self, names: Mapping[int, str]) -> GameRecord:
        """This record with each seat's ``display_name`` taken from ``names`` (user id →
        name); seats whose user is not in ``names`` keep theirs."""
        seats = tuple(
            replace(s, display_name=names.get(s.user_id, s.display_name)) for s in self.seats
        )
        return replace(self, seats=seats)

    # ---- JSON --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data, keys in the documented order (docs/records.md)."""
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "game_name": self.game_name,
            "game_id": self.game_id,
            "rules_version": self.rules_version,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "start_position": self.start_position,
            "status": self.status,
            "result": None if self.result is None else self.result.to_json(),
            "position": self.position,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "user_id": str(s.user_id),
                    "display_name": s.display_name,
                }
                for s in self.seats
            ],
            "created_at": _iso(self.created_at),
            "finished_at": None if self.finished_at is None else _iso(self.finished_at),
            "moves": [
                {"ply": m.ply, "seat": m.seat, "text": m.text, "cli": m.cli, "at": _iso(m.at)}
                for m in self.moves
            ],
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text: documented key order, indent 2, UTF-8 kept."""
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    # ---- text --------------------------------------------------------------------------

    def to_text(self) -> str:
        """A plain text move list: a PGN-like header block, one numbered ply per line with
        its time and seat, the result, and the ``python -m engines`` commands replaying it."""
        lines = [_tag(name, value) for name, value in self._tags()]
        lines.append("")
        if self.moves:
            width = len(str(self.moves[-1].ply))
            who = [self._seat_name(m.seat) for m in self.moves]
            name_width = max(len(w) for w in who)
            for move, name in zip(self.moves, who, strict=True):
                lines.append(
                    f"{move.ply:>{width}}. {_iso(move.at)}  {name:<{name_width}}  {move.text}"
                )
        else:
            lines.append("No moves yet.")
        lines += ["", f"Result: {self.result_phrase()}."]
        lines += self._result_details()
        lines += [
            "",
            f"Replay with the JSON record saved as {self.file_stem}.json:",
            f"  {shlex.join(['python', '-m', 'engines', '--record', f'{self.file_stem}.json'])}",
            "or with the moves themselves:",
            *_wrap_command(self._replay_groups()),
        ]
        return "\n".join(lines) + "\n"

    def replay_argv(self) -> list[str]:
        """The ``python -m engines`` command line that replays the game: game, players, every
        option, the seed (or the start position), then ``--`` and each move's ``cli`` token."""
        return [word for group in self._replay_groups() for word in group]

    def _replay_groups(self) -> list[list[str]]:
        """:meth:`replay_argv` in groups a wrapped command keeps on one line (a flag and its
        value; a move)."""
        groups = [["python", "-m", "engines", self.game], ["--players", str(self.players)]]
        groups += [["--option", f"{k}={_option_text(v)}"] for k, v in self.options.items()]
        if self.seed is not None:
            groups.append(["--seed", str(self.seed)])
        if self.start_position is not None:
            groups.append(["--position", self.start_position])
        if self.moves:
            groups += [["--"], *([m.cli] for m in self.moves)]
        return groups

    def _tags(self) -> list[tuple[str, str]]:
        options = " ".join(f"{k}={_option_text(v)}" for k, v in self.options.items())
        tags = [
            ("Game", self.game_name),
            ("Record", self.file_stem),
            ("RulesVersion", self.rules_version),
            ("Players", str(self.players)),
            ("Options", options),
            ("Seed", "?" if self.seed is None else str(self.seed)),
            *([("StartPosition", self.start_position)] if self.start_position else []),
            ("Status", self.status),
            ("Result", self.result_phrase()),
            ("Created", _iso(self.created_at)),
        ]
        if self.finished_at is not None:
            tags.append(("Finished", _iso(self.finished_at)))
        tags += [(f"Seat{s.seat}", f"{s.name}: {self._player(s.seat)}") for s in self.seats]
        tags.append(("Format", RECORD_FORMAT))
        return tags

    def _seat_name(self, seat: int | None) -> str:
        return "chance" if seat is None else self.seats[seat].name

    def _player(self, seat: int) -> str:
        """``alice (user 101)``, or ``user 101`` when the name is unknown."""
        entry = self.seats[seat]
        who = f"user {entry.user_id}"
        return who if entry.display_name is None else f"{entry.display_name} ({who})"

    def _who(self, seat: int) -> str:
        """``South (alice)``, or ``South`` when the name is unknown."""
        entry = self.seats[seat]
        return entry.name if entry.display_name is None else f"{entry.name} ({entry.display_name})"

    def summary(self) -> str:
        """One line: ``Generatorb game 12, 34 plies: South (alice) wins (core).``"""
        plies = f"{len(self.moves)} {'ply' if len(self.moves) == 1 else 'plies'}"
        return f"{self.game_name} game {self.game_id}, {plies}: {self.result_phrase()}."

    def result_phrase(self) -> str:
        """How the game stands: ``South (alice) wins (core)``, ``drawn (agreement)``,
        ``* (the game goes on)`` or ``none (the game was aborted)``."""
        if self.status == "active":
            return "* (the game goes on)"
        if self.result is None:
            return "none (the game was aborted)"
        how = self.result.termination.replace("_", " ")
        if self.result.is_draw:
            return f"drawn ({how})"
        winners = self.result.winners
        verb = "wins" if len(winners) == 1 else "win"
        return f"{', '.join(self._who(s) for s in winners)} {verb} ({how})"

    def _result_details(self) -> list[str]:
        result = self.result
        lines = []
        if result is not None and self.players > 2:
            groups = [", ".join(self._who(s) for s in group) for group in result.ranking]
            lines.append("Ranking: " + "; ".join(f"{n}. {g}" for n, g in enumerate(groups, 1)))
        if result is not None and result.scores is not None:
            scores = result.scores
            lines.append(
                "Scores: " + ", ".join(f"{self._who(s)} {scores[s]:g}" for s in sorted(scores))
            )
        if self.status != "active" and not self.logged_ending:
            how = "aborted" if result is None else result.termination.replace("_", " ")
            lines += [
                f"The game ended outside the move list ({how}), so a replay of the moves ends",
                'with "outcome": null.',
            ]
        return lines


def build_record(row: GameRow, meta: GameMeta, moves: Sequence[MoveRow]) -> GameRecord:
    """The record of the game ``row`` (its ``meta`` and move log ``moves``).

    Replays the log (:func:`replay_log`) to find each move's ``cli`` token and checks that it
    rebuilds the stored position. Log rows after ``row.ply`` (a move that landed after the
    row was read) are left out. Display names are not filled in
    (:meth:`GameRecord.with_display_names`). Raises :class:`ServiceError` for a game with
    hidden information that is still going on, and :class:`ReplayError` when the log does not
    rebuild the stored position (a bug).
    """
    engine = meta.engine
    info = engine.info
    if row.is_active and info.has_hidden_information:
        raise ServiceError(
            f"{info.name} game {row.id} can be exported once it is over: its record holds the "
            "position, hidden cards included."
        )
    players = len(meta.players)
    logged = [m for m in moves if m.ply <= row.ply]
    start = start_state(meta)
    state = start
    record_moves = []
    for step, move in zip(replay_log(engine, start, logged), logged, strict=True):
        record_moves.append(RecordMove(step.ply, step.seat, step.text, step.cli, move.created_at))
        state = step.after
    position = engine.position(state)
    stored = engine.position(engine.loads(row.state_json))
    if position != stored:
        raise ReplayError(
            f"game {row.id}: the move log rebuilds {position!r}, not the stored {stored!r}"
        )
    seed = None if row.is_active else meta.seed
    start_position = meta.start_position  # a custom start (/challenge position:)
    if seed is None and start_position is None:
        # Without the seed a replay starts from seed 0: say where the game really began
        # when that differs (a first player drawn from the seed).
        first = engine.position(start)
        if first != engine.position(engine.new_game(players, meta.options, 0)):
            start_position = first
    return GameRecord(
        game_id=row.id,
        game=info.id,
        game_name=info.name,
        rules_version=row.rules_version,
        players=players,
        options=engine.options_for(meta.options, players),
        seed=seed,
        start_position=start_position,
        status=str(row.status),
        result=_codec.load_outcome(row.outcome_json),
        position=position,
        seats=tuple(RecordSeat(p.seat, p.seat_name, p.user_id) for p in meta.players),
        created_at=row.created_at,
        finished_at=row.finished_at,
        moves=tuple(record_moves),
        logged_ending=engine.outcome(state) is not None,
    )


# ============================================================================================
# The board at an earlier ply
# ============================================================================================


@dataclass(frozen=True, slots=True)
class BoardAtPly:
    """The public board of a game as it stood after ``snapshot.ply`` of its ``plies`` logged
    moves (``/game replay``).

    ``snapshot`` is the game at that ply: its ``view`` is the spectator's view
    (``viewer=None``) of the rebuilt state, for games with hidden information too;
    ``last_moves`` end with the move that led there; ``to_move`` are the seats that were to
    act (a pending chance outcome shows as nobody). At the last ply everything else is the
    game's as it is now; at an earlier one the game was still ``active``: no outcome, no
    pending draw offer or takeback, no clocks (their state then is not kept). ``version`` and
    ``updated_at`` stay the game's current ones: a replayed board carries no buttons.
    """

    snapshot: GameSnapshot
    plies: int

    @property
    def ply(self) -> int:
        return self.snapshot.ply

    @property
    def last_move(self) -> MoveRecord | None:
        """The move that led to this ply (``None`` at ply 0, the start position)."""
        moves = self.snapshot.last_moves
        return moves[-1] if self.ply > 0 and moves else None


def board_at_ply(
    current: GameSnapshot, start: Any, moves: Sequence[MoveRow], ply: int | None
) -> BoardAtPly:
    """The board of the game ``current`` (its snapshot now; ``start`` the state it began in,
    :func:`start_state`; ``moves`` its log) after ``ply`` moves: ``0`` is the start position,
    ``None`` the last ply.

    The state is rebuilt from the start with :func:`rebuild` and only its public view is kept:
    nothing secret is cached or returned. Raises :class:`ServiceError` naming the range for a
    ply outside ``0..current.ply``, and :class:`ReplayError` for a log that does not replay.
    """
    plies = current.ply
    wanted = plies if ply is None else ply
    if not 0 <= wanted <= plies:
        raise ServiceError(
            f"{current.game_name} game {current.game_id} has plies 0 to {plies} (0 is the "
            f"start position); there is no ply {wanted}."
        )
    engine = get_engine(current.game)
    logged = [m for m in moves if m.ply <= wanted]
    state = rebuild(engine, start, logged)
    hidden_now = current.hidden_information and current.is_active
    snapshot = replace(
        current,
        ply=wanted,
        to_move=tuple(s for s in engine.to_move(state) if s != CHANCE),
        only_moves=(),
        prompt=None,
        position="" if hidden_now else engine.position(state),
        # The stored result belongs to the last ply only: earlier the game was going on.
        view=public_view(engine, state, current.outcome if wanted == plies else None),
        last_moves=tuple(_move_record(m) for m in logged[-RECENT_MOVES:]),
        board_message_id=None,
    )
    if wanted < plies:
        # Earlier the game was going on: no result yet, nothing pending, clocks unknown.
        snapshot = replace(
            snapshot,
            status="active",
            outcome=None,
            draw_offer_seat=None,
            takeback_seat=None,
            clocks=(),
            finished_at=None,
        )
    return BoardAtPly(snapshot, plies)


# ============================================================================================
# Helpers
# ============================================================================================


def _move_record(move: MoveRow) -> MoveRecord:
    """A log row as the bot shows it: public events only."""
    events = public_events(_codec.load_events(move.events_json))
    return MoveRecord(move.ply, move.seat, move.text, events, move.created_at)


def _iso(moment: datetime) -> str:
    """``2025-03-14T15:09:26Z``: ISO 8601 in UTC, to the second."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _option_text(value: OptionValue) -> str:
    """An option value as typed after ``--option key=`` (``true``, ``20``, ``all``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _tag(name: str, value: str) -> str:
    """``[Game "Arbos"]``: a header line, with ``\\`` and ``"`` escaped as in PGN."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def _wrap_command(groups: Sequence[Sequence[str]]) -> list[str]:
    """A command as shell lines of at most about :data:`_COMMAND_WIDTH` characters, joined by
    ``\\`` continuations: the first indented by two spaces, the others by four. Each group of
    words (a flag and its value) stays on one line; a group longer than a line gets its own."""
    lines: list[str] = []
    current = ""
    for group in groups:
        words = " ".join(shlex.quote(word) for word in group)
        indent = 2 if not lines else 4
        if current and indent + len(current) + 1 + len(words) + 2 > _COMMAND_WIDTH:
            lines.append(current)
            current = words
        else:
            current = f"{current} {words}" if current else words
    lines.append(current)
    indents = ["  "] + ["    "] * (len(lines) - 1)
    ends = [" \\"] * (len(lines) - 1) + [""]
    return [f"{i}{line}{e}" for i, line, e in zip(indents, lines, ends, strict=True)]


def public_view(engine: Engine[Any, Any], state: Any, outcome: Outcome | None) -> Any:
    """The spectators' view of ``state`` in a game whose stored outcome is ``outcome``: a
    game ended on its row (a resignation the engine leaves to the bot, a draw by agreement)
    has a state that does not know it, so its view gets the outcome and nobody to act
    (:meth:`~engines.base.Engine.ended_view`), and its board shows the result. ``None``: the
    engine's view as it is (a game going on, or one the engine ended itself)."""
    view = engine.view(state, None)
    return view if outcome is None else engine.ended_view(view, outcome)
