"""Fixtures for the service tests: real SQLite files in ``tmp_path``, a fake clock, fixed seeds.

Users are small ints: ``ALICE`` challenges, ``BOB`` accepts, ``CAROL`` watches (or, in games
for more players, joins with ``DAN`` and ``ERIN``). Games are played in channel ``GAMES``
unless a test says otherwise.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import engines
from bot.service import GameService, GameSnapshot
from db import Database
from engines.base import (
    CHANCE,
    ChanceOutcome,
    Engine,
    Event,
    GameInfo,
    IllegalMoveError,
    NotationError,
    NotYourTurnError,
    OptionSpec,
    OptionValue,
    Outcome,
    Transition,
    UsageError,
)

ALICE, BOB, CAROL, DAN, ERIN = 101, 202, 303, 404, 505
GUILD, GAMES, OTHER = 9, 500, 600
T0 = datetime(2025, 3, 14, 15, 9, 26, tzinfo=UTC)


class FakeClock:
    """A clock that only moves when told to."""

    def __init__(self, start: datetime = T0) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'gameroom.db'}"


@pytest.fixture
async def database(db_url: str) -> AsyncIterator[Database]:
    db = Database(db_url)
    await db.migrate()
    try:
        yield db
    finally:
        await db.close()


def seeds(start: int = 1) -> Callable[[], int]:
    """A deterministic seed source: ``start``, ``start + 1``, …"""
    counter = itertools.count(start)
    return lambda: next(counter)


@pytest.fixture
def service(database: Database, clock: FakeClock) -> GameService:
    return GameService(database, clock=clock, rng_seed_source=seeds())


StartGame = Callable[..., Awaitable[GameSnapshot]]


@pytest.fixture
def start_game(service: GameService) -> StartGame:
    """Challenge (ALICE → BOB by default) and accept; returns the first snapshot."""

    async def start(
        *,
        game: str = "generatorb",
        options: str | None = None,
        preset: str | None = None,
        channel_id: int = GAMES,
        challenger: int = ALICE,
        opponent: int = BOB,
        on: GameService | None = None,
    ) -> GameSnapshot:
        svc = on or service
        challenge = await svc.create_challenge(
            guild_id=GUILD,
            channel_id=channel_id,
            challenger_id=challenger,
            opponent_ids=[opponent],
            game=game,
            options_text=options,
            preset=preset,
        )
        started = (await svc.accept_challenge(challenge.challenge_id, opponent)).game
        assert started is not None
        return started

    return start


def to_move_user(snapshot: GameSnapshot) -> int:
    """The one user who may act now."""
    (user,) = snapshot.to_move_user_ids
    return user


def waiting_user(snapshot: GameSnapshot) -> int:
    """A player who may not act now (two-player games)."""
    (user,) = [u for u in snapshot.user_ids if u not in snapshot.to_move_user_ids]
    return user


# ----------------------------------------------------------------------------------------------
# A toy game with chance nodes, to exercise the service's generic chance handling
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DiceState:
    """Scores, whose turn, whether a die is about to be rolled (``pending``), and the
    game's generator: its ``seed`` and how many numbers were drawn (``draws``)."""

    scores: tuple[int, ...]
    turn: int | None  # None before the opening toss decides who starts
    pending: bool
    ply: int
    target: int
    seed: int = 0
    draws: int = 0


class DiceRace(Engine[DiceState, str]):
    """Race to ``target`` points: on your turn type ``roll``; a die (chance) adds 1–6.

    The game opens with a chance node (``first:0`` / ``first:1``) deciding who starts, so a
    game begins at a chance node, and every move leads to one.
    """

    info = GameInfo(
        id="dicerace",
        name="Dice race",
        min_players=2,
        max_players=2,
        default_players=2,
        options=(),
        presets=(),
        rules_version="1",
        seat_names=("Red", "Blue"),
        rules_summary="Roll; first to the target wins.",
        notation_help="`roll`",
        has_chance=True,
    )

    def new_game(self, players: int, options: Mapping[str, OptionValue], seed: int) -> DiceState:
        self.check_players(players)
        return DiceState((0,) * players, None, True, 0, 10, seed)

    def rng_state(self, state: DiceState) -> tuple[int, int]:
        return (state.seed, state.draws)

    def to_move(self, state: DiceState) -> tuple[int, ...]:
        if self.outcome(state) is not None:
            return ()
        return (CHANCE,) if state.pending else (state.turn or 0,)

    def chance_outcomes(self, state: DiceState) -> tuple[ChanceOutcome, ...]:
        if not state.pending:
            return ()
        if state.turn is None:
            return tuple(ChanceOutcome(f"first:{s}", 0.5) for s in range(len(state.scores)))
        return tuple(ChanceOutcome(f"d:{k}", 1 / 6) for k in range(1, 7))

    def apply_chance(self, state: DiceState, text: str) -> Transition[DiceState]:
        kind, _, value = text.partition(":")
        if kind == "first":
            seat = int(value)
            return Transition(
                replace(state, turn=seat, pending=False, draws=state.draws + 1),
                (Event("toss", None, f"{self.info.seat_names[seat]} starts"),),
            )
        turn = state.turn or 0
        scores = list(state.scores)
        scores[turn] += int(value)
        after = replace(
            state,
            scores=tuple(scores),
            turn=1 - turn,
            pending=False,
            ply=state.ply + 1,
            draws=state.draws + 1,
        )
        return Transition(after, (Event("rolled", turn, f"rolls {value}"),))

    def legal_moves(self, state: DiceState, seat: int) -> Sequence[str]:
        return ["roll"] if self.to_move(state) == (seat,) else []

    def parse_move(self, state: DiceState, seat: int, text: str) -> str:
        if text.strip().lower() != "roll":
            raise NotationError(f"{text!r} is not a move: type roll", text=text)
        if self.to_move(state) != (seat,):
            raise NotYourTurnError("not your turn", text=text)
        return "roll"

    def format_move(self, state: DiceState, move: str) -> str:
        return move

    def apply(self, state: DiceState, seat: int, move: str) -> Transition[DiceState]:
        if move != "roll":
            raise IllegalMoveError("only roll", text=move)
        return Transition(replace(state, pending=True), (Event("asked", seat, "asks the die"),))

    def outcome(self, state: DiceState) -> Outcome | None:
        for seat, score in enumerate(state.scores):
            if score >= state.target:
                return Outcome.win("target", seat, len(state.scores))
        return None

    def view(self, state: DiceState, viewer: int | None) -> Any:
        return state

    def position(self, state: DiceState) -> str:
        scores = "/".join(map(str, state.scores))
        return f"scores:{scores} turn:{state.turn} pending:{int(state.pending)} ply:{state.ply}"

    def from_position(self, text: str, options: Mapping[str, OptionValue]) -> DiceState:
        raise UsageError("dicerace has no position input")

    def dump_state(self, state: DiceState) -> dict[str, Any]:
        return {
            "scores": list(state.scores),
            "turn": state.turn,
            "pending": state.pending,
            "ply": state.ply,
            "target": state.target,
            "seed": state.seed,
            "draws": state.draws,
        }

    def load_state(self, data: Mapping[str, Any]) -> DiceState:
        return DiceState(
            tuple(data["scores"]),
            data["turn"],
            data["pending"],
            data["ply"],
            data["target"],
            data["seed"],
            data["draws"],
        )


@pytest.fixture
def dice_race(monkeypatch: pytest.MonkeyPatch) -> DiceRace:
    """Register :class:`DiceRace` in the engine registry for one test."""
    engine = DiceRace()
    monkeypatch.setitem(engines.ENGINES, engine.info.id, engine)
    return engine


# ----------------------------------------------------------------------------------------------
# A toy game for 2–4 players, to exercise lobbies, seat names and resigning in play
# ----------------------------------------------------------------------------------------------

#: Colour names by letter, for :class:`RoundRobin`'s seat names.
COLOURS = {"g": "Green", "r": "Red", "y": "Yellow", "b": "Blue"}


@dataclass(frozen=True, slots=True)
class RoundRobinState:
    """Each seat's ``scores``; ``turn`` is the seat to act (``None`` once over); ``out``
    the seats that resigned, in the order they did."""

    scores: tuple[int, ...]
    turn: int | None
    out: tuple[int, ...]
    target: int


class RoundRobin(Engine[RoundRobinState, str]):
    """Seats take turns typing ``tick`` (one point each); the first to ``target`` wins.

    2–4 players (3 by default). Like Generator (GEN-15), a seat may resign at any time and
    play goes on without it until one seat is left. Option ``colours`` orders the seat
    names (``gryb``: seat 0 Green, seat 1 Red, …). Option ``teams=true`` needs exactly 4
    players: :meth:`new_game` refuses it otherwise, like options whose validity depends on
    the player count.
    """

    info = GameInfo(
        id="roundrobin",
        name="Round robin",
        min_players=2,
        max_players=4,
        default_players=3,
        options=(
            OptionSpec("colours", "choice", "gryb", "order of the seat colours", ("gryb", "bygr")),
            OptionSpec("teams", "bool", False, "play 2 against 2 (4 players only)"),
        ),
        presets=(),
        rules_version="1",
        seat_names=("North", "East", "South", "West"),
        rules_summary="Type tick; the first to 3 points wins.",
        notation_help="`tick`",
    )

    def seat_names(self, players: int, options: Mapping[str, OptionValue]) -> tuple[str, ...]:
        return tuple(COLOURS[letter] for letter in str(options["colours"])[:players])

    def new_game(
        self, players: int, options: Mapping[str, OptionValue], seed: int
    ) -> RoundRobinState:
        self.check_players(players)
        if options["teams"] and players != 4:
            raise UsageError(f"teams=true needs 4 players, not {players}")
        return RoundRobinState((0,) * players, 0, (), 3)

    def to_move(self, state: RoundRobinState) -> tuple[int, ...]:
        return () if state.turn is None else (state.turn,)

    def legal_moves(self, state: RoundRobinState, seat: int) -> Sequence[str]:
        return ["tick"] if state.turn == seat else []

    def parse_move(self, state: RoundRobinState, seat: int, text: str) -> str:
        if text.strip().lower() != "tick":
            raise NotationError(f"{text!r} is not a move: type tick", text=text)
        if state.turn != seat:
            raise NotYourTurnError("not your turn", text=text)
        return "tick"

    def format_move(self, state: RoundRobinState, move: str) -> str:
        return move

    def apply(self, state: RoundRobinState, seat: int, move: str) -> Transition[RoundRobinState]:
        scores = list(state.scores)
        scores[seat] += 1
        after = replace(state, scores=tuple(scores), turn=self._next(state, seat))
        if scores[seat] >= state.target:
            after = replace(after, turn=None)
        return Transition(after, (Event("ticked", seat, "scores a point"),))

    def resign(self, state: RoundRobinState, seat: int) -> Transition[RoundRobinState] | None:
        if seat in state.out:
            raise IllegalMoveError(f"seat {seat} has already left", text=f"[{seat}]resign")
        out = (*state.out, seat)
        turn = state.turn
        if len(out) == len(state.scores) - 1:
            turn = None
        elif turn == seat:
            turn = self._next(replace(state, out=out), seat)
        return Transition(
            replace(state, out=out, turn=turn), (Event("resigned", seat, "leaves the game"),)
        )

    def _next(self, state: RoundRobinState, seat: int) -> int:
        players = len(state.scores)
        for step in range(1, players + 1):
            candidate = (seat + step) % players
            if candidate not in state.out:
                return candidate
        raise AssertionError("nobody left to move")

    def outcome(self, state: RoundRobinState) -> Outcome | None:
        players = len(state.scores)
        left = [s for s in range(players) if s not in state.out]
        if len(left) == 1:
            return Outcome("resignation", (left[0],), ((left[0],), tuple(sorted(state.out))))
        for seat, score in enumerate(state.scores):
            if score >= state.target:
                return Outcome.win("target", seat, players)
        return None

    def view(self, state: RoundRobinState, viewer: int | None) -> Any:
        return state

    def position(self, state: RoundRobinState) -> str:
        out = ",".join(map(str, state.out)) or "-"
        return f"scores:{'/'.join(map(str, state.scores))} turn:{state.turn} out:{out}"

    def from_position(self, text: str, options: Mapping[str, OptionValue]) -> RoundRobinState:
        raise UsageError("roundrobin has no position input")

    def dump_state(self, state: RoundRobinState) -> dict[str, Any]:
        return {
            "scores": list(state.scores),
            "turn": state.turn,
            "out": list(state.out),
            "target": state.target,
        }

    def load_state(self, data: Mapping[str, Any]) -> RoundRobinState:
        return RoundRobinState(
            tuple(data["scores"]), data["turn"], tuple(data["out"]), data["target"]
        )


@pytest.fixture
def round_robin(monkeypatch: pytest.MonkeyPatch) -> RoundRobin:
    """Register :class:`RoundRobin` in the engine registry for one test."""
    engine = RoundRobin()
    monkeypatch.setitem(engines.ENGINES, engine.info.id, engine)
    return engine
