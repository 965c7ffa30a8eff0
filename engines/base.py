"""The engine contract every game implements (see ``shared/design/architecture.md``).

An engine is a stateless object with pure functions over immutable states:

* ``new_game(players, options, seed) -> state``
* ``to_move(state) -> tuple[int, ...]`` (empty once the game is over; ``(CHANCE,)`` at a
  chance node)
* ``legal_moves / parse_move / format_move`` (text <-> move objects, one canonical string each)
* ``apply(state, seat, move) -> Transition(state, events)`` (never mutates ``state``);
  ``child(state, seat, move) -> state`` is the same without events, for the AI (a game may
  override it with a quicker form)
* ``outcome(state) -> Outcome | None``
* ``view(state, viewer) -> view`` (what a seat, or a spectator ``None``, may see)
* ``position(state) / from_position(text, options)`` (the spec's position notation)
* ``dump_state / load_state`` (JSON text with a format version, for the database)

Errors a player can cause while moving are the five :class:`MoveError` subclasses. Errors a
caller causes while *setting up* a game (bad option, malformed position, wrong player count) are
:class:`UsageError`. Nothing in this package touches the clock, the network or global randomness.
"""

from __future__ import annotations

import dataclasses
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from engines.rng import Rng

__all__ = [
    "CHANCE",
    "ELIMINATED_EVENT",
    "ENDED_EVENT",
    "MAX_DIGITS",
    "ROLLED_EVENT",
    "SEAT_DIGITS",
    "TURN_EVENT",
    "AmbiguousMoveError",
    "ChanceOutcome",
    "Engine",
    "Event",
    "GameInfo",
    "GameOverError",
    "IllegalMoveError",
    "MoveError",
    "NotYourTurnError",
    "NotationError",
    "OptionSpec",
    "OptionValue",
    "Outcome",
    "Preset",
    "Transition",
    "UsageError",
    "ascii_digits",
    "plain_decimal",
    "quoted",
    "require_ascii",
]

#: Pseudo-seat that acts at a chance node (a die roll, a shuffle). The service samples it.
CHANCE = -1

S = TypeVar("S")  # an engine's state type
M = TypeVar("M")  # an engine's move type

OptionValue = bool | int | str


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------


class UsageError(ValueError):
    """The call itself is wrong: unknown option or value, bad player count, malformed position.

    The CLI maps it to exit status 2; the bot shows its message to the challenger.
    """


#: The most digits a number typed in a move, a position or an option may have: Python's
#: ``int`` refuses to read more than 4,300 (``ValueError``), and no rule needs that many.
MAX_DIGITS = 4000

#: The seat number of a ``[k]`` prefix, as a regular expression: ASCII digits, leading zeros
#: allowed (``[0001]`` is seat 1; spec generatorb: ``"[" digits "]"``), at most
#: :data:`MAX_DIGITS` (``\d`` would take other scripts' digits).
SEAT_DIGITS = f"[0-9]{{1,{MAX_DIGITS}}}"


def ascii_digits(text: str, most: int | None = None) -> bool:
    """Whether ``text`` is a number as notation writes it: ASCII digits only (``str.isdigit``
    also takes ``²``, which ``int`` refuses), at least one and at most ``most``."""
    if not text or (most is not None and len(text) > most):
        return False
    return text.isascii() and text.isdigit()


def plain_decimal(text: str, most: int | None = MAX_DIGITS) -> bool:
    """Whether ``text`` is a number as notation prints it: :func:`ascii_digits` (at most
    ``most`` of them) without leading zeros (``0``, ``17``; not ``017``)."""
    return ascii_digits(text, most) and (text == "0" or not text.startswith("0"))


#: How much of a caller's text an error message quotes (:func:`quoted`).
QUOTED_CHARS = 60


def quoted(text: str, limit: int = QUOTED_CHARS) -> str:
    """``text`` as an error message quotes it (its ``repr``), cut to ``limit`` characters with
    ``…``: a 6,000-character position must not make a message Discord refuses (2,000)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}…"


class MoveError(Exception):
    """Base of the five errors a submitted move can raise. ``kind`` is the CLI's error kind."""

    kind: ClassVar[str] = "move"

    def __init__(self, message: str, *, text: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.text = text


class NotationError(MoveError):
    """The text is not a move in this game's notation at all (it quotes the input)."""

    kind = "notation"


class IllegalMoveError(MoveError):
    """The text is well formed but the move is not allowed here; the message says why."""

    kind = "illegal"


class AmbiguousMoveError(MoveError):
    """Several legal moves match the text; ``candidates`` holds their canonical strings."""

    kind = "ambiguous"

    def __init__(self, message: str, *, text: str = "", candidates: Sequence[str] = ()) -> None:
        super().__init__(message, text=text)
        self.candidates = tuple(candidates)


class NotYourTurnError(MoveError):
    """The seat that submitted the move may not act now."""

    kind = "not_your_turn"


class GameOverError(MoveError):
    """The game has ended; no move is accepted."""

    kind = "game_over"


def require_ascii(text: str) -> None:
    """Raise :class:`NotationError` unless ``text`` is ASCII apart from whitespace.

    Every game's move notation is written in ASCII letters, digits and punctuation. A check
    made before any parsing keeps ``str.lower`` from turning another script's letter into a
    cell name: the Kelvin sign ``K`` (U+212A) lowers to ``k``, so ``K5`` read as Arbos'
    ``K5`` (engine-cli.md: a token that is not in the game's notation is ``notation``).
    Whitespace of any script passes (a phone's no-break space): the specs remove or split
    on whitespace (spec generatorb section 6: "All whitespace is removed first"), and the
    parsers' ``str.split`` and regular expressions' whitespace class take it as such.
    """
    other = next((c for c in text if not c.isascii() and not c.isspace()), None)
    if other is not None:
        raise NotationError(
            "moves are written in plain letters, digits and punctuation (ASCII); "
            f"{quoted(text)} has {other!r} (U+{ord(other):04X})",
            text=text,
        )


# --------------------------------------------------------------------------------------------
# Metadata
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One game option, as the spec's options table lists it.

    ``type`` is ``"bool"``, ``"int"`` (with ``minimum``/``maximum``), ``"choice"`` (with
    ``choices``) or ``"text"`` (any string; the engine completes its validation in
    :meth:`Engine.complete_options`, e.g. Generator's ``colours``). ``default`` is the value
    when neither the player nor a preset sets it; an engine may derive a default from other
    options in :meth:`Engine.resolve_options`.

    An ``"int"`` option must name its ``maximum`` (``None`` for no bound): the field's
    default, 0, would allow 0 alone, so a range of one value raises :class:`ValueError`
    when the spec is declared. (A default outside the range is how an engine says "derived
    in :meth:`Engine.resolve_options`", e.g. Generation Zero's preset-dependent options.)
    """

    name: str
    type: str
    default: OptionValue
    help: str
    choices: tuple[str, ...] = ()
    minimum: int = 0
    #: ``None``: no upper bound (the spec says only "integer ≥ 0").
    maximum: int | None = 0
    #: The largest value a chat user may set, for an option without ``maximum``: a longer
    #: number would not fit the posts that show the options (``None``: ``maximum``).
    chat_maximum: int | None = None
    #: Settable only from the command line, never by a chat user: Generation Zero's
    #: ``content`` is a file path on the machine, which a Discord user must not choose.
    cli_only: bool = False
    #: Values to offer for a ``"text"`` option, which has no ``choices`` (the chat's
    #: autocomplete; Generator's ``colours=RB``, Orbs' ``teams=02-13``). Any other value the
    #: engine accepts may still be typed.
    examples: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.type != "int":
            return
        if self.maximum is not None and self.maximum <= self.minimum:
            raise ValueError(
                f"option {self.name}: give its maximum, above its minimum (None: no bound)"
            )

    def parse(self, text: str) -> OptionValue:
        """Parse a typed value (``"true"``, ``"20"``, ``"all"``) into this option's type.

        Raises :class:`UsageError` naming the option and the allowed values.
        """
        raw = text.strip()
        if self.type == "bool":
            low = raw.lower()
            if low in ("true", "false"):
                return low == "true"
        elif self.type == "int":
            if raw.isascii() and raw.isdigit() and len(raw) <= MAX_DIGITS:
                value = int(raw)
                if self.minimum <= value and (self.maximum is None or value <= self.maximum):
                    return value
        elif self.type == "text":
            return raw  # the engine checks it (Engine.complete_options)
        elif raw.lower() in self.choices:
            return raw.lower()
        raise UsageError(f"option {self.name}: {quoted(text)} is not allowed; use {self.allowed()}")

    def allowed(self) -> str:
        """A short human description of the allowed values, e.g. ``"true or false"``."""
        if self.type == "bool":
            return "true or false"
        if self.type == "int":
            if self.maximum is None:
                return f"an integer ≥ {self.minimum}"
            return f"an integer {self.minimum}–{self.maximum}"
        if self.type == "text":
            return f"text: {self.help}"
        return " or ".join(self.choices)

    def format(self, value: OptionValue) -> str:
        """The value as typed in ``key=value`` form (``true``, ``20``, ``all``)."""
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)


@dataclass(frozen=True, slots=True)
class Preset:
    """A named bundle of options offered by the bot (``/challenge preset:``)."""

    id: str
    label: str
    options: Mapping[str, str]
    help: str = ""


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What an engine says about itself; the bot builds menus and help from this only."""

    id: str
    name: str
    min_players: int
    max_players: int
    default_players: int
    options: tuple[OptionSpec, ...]
    presets: tuple[Preset, ...]
    rules_version: str
    seat_names: tuple[str, ...]
    rules_summary: str
    notation_help: str
    has_chance: bool = False
    has_hidden_information: bool = False
    has_simultaneous_moves: bool = False

    def option(self, name: str, *, in_chat: bool = False) -> OptionSpec:
        """The option called ``name``; raises :class:`UsageError` listing the known ones
        (``in_chat``: those a challenge in chat may set, without the ``cli_only`` ones)."""
        for spec in self.options:
            if spec.name == name:
                return spec
        known = ", ".join(s.name for s in self.options if not (in_chat and s.cli_only))
        raise UsageError(f"unknown option {quoted(name)} for {self.name}; options are: {known}")

    def preset(self, preset_id: str) -> Preset:
        """The preset called ``preset_id``; raises :class:`UsageError` listing the known ones."""
        for preset in self.presets:
            if preset.id == preset_id:
                return preset
        known = ", ".join(p.id for p in self.presets)
        raise UsageError(f"unknown preset {preset_id!r} for {self.name}; presets are: {known}")


# --------------------------------------------------------------------------------------------
# Results of play
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened in one ply, for summaries and highlights.

    ``kind`` is a short word, mostly in the past tense (``moved``, ``captured``, ``merged``,
    ``refilled``, ``annihilated``, ``passed``, ``ended``…), or a notice of what is now due
    (Arbos' ``prune_due``, ``pass_pending``); the bot reads :data:`ENDED_EVENT`,
    :data:`TURN_EVENT` and :data:`ROLLED_EVENT` by name; ``seat`` is the acting seat, or the
    seat a notice is about (the one to prune, the one whose pass would end the game), or
    ``None``; ``cells`` are the cells involved in notation order; ``text`` is a short English
    phrase without the player's name (the bot adds it). ``visible_to`` is ``None`` for a
    public event, else the seats that may see it.
    """

    kind: str
    seat: int | None
    text: str
    cells: tuple[str, ...] = ()
    visible_to: frozenset[int] | None = None


#: Event kinds the bot reads by name (besides ``passed`` and ``eliminated``, which it reads
#: where one engine's words need it). The engine announcing the end of the game in its own
#: words ("South wins by reaching the enemy core"): the bot says it once, beside the result.
ENDED_EVENT = "ended"
#: A change of turn the engine announces (Generation Zero's "round 2: Seat 2 to play"): the
#: post's ping of that seat says it.
TURN_EVENT = "turn"
#: A chance outcome drawn for the seat about to act (Generator's die: "Red rolled yellow (Y)"):
#: that seat's prompt says it again ("You rolled **yellow**: …").
ROLLED_EVENT = "rolled"
#: A seat out of a game that goes on without it (Orbs' ORB-5: "South-east has no orbs left
#: and is out"): the bot counts it as having left, and names its player.
ELIMINATED_EVENT = "eliminated"


@dataclass(frozen=True, slots=True)
class Transition(Generic[S]):
    """What :meth:`Engine.apply` returns: the new state and the events of that ply."""

    state: S
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended.

    ``termination`` is one of the names in the game's spec (``core``, ``resignation``…);
    ``winners`` the winning seats (empty for a draw); ``ranking`` groups of tied seats, best
    first; ``scores`` maps seat -> score for games that score, else ``None``.
    """

    termination: str
    winners: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    scores: Mapping[int, float] | None = None

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def to_json(self) -> dict[str, Any]:
        """The CLI's ``outcome`` object (engine-cli.md)."""
        scores = None
        if self.scores is not None:
            scores = {str(seat): value for seat, value in sorted(self.scores.items())}
        return {
            "termination": self.termination,
            "winners": list(self.winners),
            "ranking": [list(group) for group in self.ranking],
            "scores": scores,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        scores = data.get("scores")
        return cls(
            termination=str(data["termination"]),
            winners=tuple(int(s) for s in data["winners"]),
            ranking=tuple(tuple(int(s) for s in group) for group in data["ranking"]),
            scores=None if scores is None else {int(k): float(v) for k, v in scores.items()},
        )

    @classmethod
    def win(cls, termination: str, winner: int, players: int) -> Outcome:
        """One winner; every other seat tied second."""
        rest = tuple(s for s in range(players) if s != winner)
        return cls(termination, (winner,), ((winner,), rest) if rest else ((winner,),))

    @classmethod
    def draw(cls, termination: str, players: int) -> Outcome:
        """Nobody wins; every seat tied."""
        return cls(termination, (), (tuple(range(players)),))


@dataclass(frozen=True, slots=True)
class ChanceOutcome:
    """One outcome of a chance node: its notation (``roll:G``) and probability."""

    text: str
    probability: float


# --------------------------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------------------------


class Engine(ABC, Generic[S, M]):
    """Rules of one game as pure functions over immutable states of type ``S``.

    Subclasses set :attr:`info` and implement the abstract methods. Helpers defined here
    (:meth:`resolve_options`, :meth:`play`, :meth:`legal_move_texts`) are generic.
    """

    info: ClassVar[GameInfo]
    #: At a chance node, whether a player's token with a notation error is judged after the
    #: pending chance outcomes are sampled (Generator: "any other token … makes the engine
    #: sample the roll first") or rejected before any draw (Arbos section 8).
    sample_before_notation_check: ClassVar[bool] = True
    #: Whether the bot plays a seat's forced ``pass`` (its only legal move) for it and says so
    #: (Generator GEN-12, Orbs ORB-4: "the bot submits it"). Any other single legal move stays
    #: the player's to make. Generatorb keeps it off: its forced pass may carry a refill choice.
    plays_forced_moves: ClassVar[bool] = False
    #: Whether one seat's turn is a chain of decisions (Generation Zero R5: order each
    #: character, then its thrusts…). When True and a decision leaves the same seat to decide
    #: next, the bot posts no new board: it tells the mover privately what is pending
    #: (:meth:`prompt`) and posts one short public line; the board and the ping come when the
    #: decision passes to another seat or the game ends. False: every decision posts a board.
    many_decisions_per_turn: ClassVar[bool] = False
    #: Canonical moves the engine accepts (the CLI sends them) but the bot decides itself,
    #: through its own flow, so ``/move`` refuses them: Orbs' ``draw`` needs every player still
    #: in to agree (D-ORB-11), which the bot's draw offer collects.
    bot_decided_moves: ClassVar[frozenset[str]] = frozenset()
    #: version of the JSON written by :meth:`dump_state`; bump when its shape changes.
    state_format: ClassVar[int] = 1

    # ---- options -----------------------------------------------------------------------

    def resolve_options(
        self, raw: Mapping[str, str | OptionValue], *, preset: str | None = None
    ) -> dict[str, OptionValue]:
        """Validate typed options and fill in defaults.

        ``raw`` maps option names to typed text (``"true"``) or already-typed values.
        ``preset`` names one of :attr:`GameInfo.presets` (the bot's menu of option bundles);
        options given in ``raw`` override the preset's. Returns every option of :attr:`info` in
        its declared order with its effective value. Raises :class:`UsageError` for an unknown
        key, a bad value or an unknown preset.
        """
        given: dict[str, OptionValue] = {}
        if preset is not None:
            for key, text in self.info.preset(preset).options.items():
                given[key] = self.info.option(key).parse(text)
        for key, value in raw.items():
            spec = self.info.option(key)
            given[key] = spec.parse(value) if isinstance(value, str) else value
        return self.complete_options(given)

    def complete_options(self, given: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
        """Fill options the caller did not give; override to derive defaults from others."""
        return {spec.name: given.get(spec.name, spec.default) for spec in self.info.options}

    def options_for(
        self, options: Mapping[str, OptionValue], players: int
    ) -> dict[str, OptionValue]:
        """``options`` with the values a player count decides filled in.

        Options are resolved before the number of players is known (a lobby may start with
        fewer seats), so an engine may leave such a default open (Generator's ``colours``: the
        first N of GRYB). The CLI prints these values and reads positions under them. Raises
        :class:`UsageError` when an option cannot fit ``players``. The default returns a copy.
        """
        return dict(options)

    def check_players(self, players: int) -> None:
        """Raise :class:`UsageError` unless ``players`` is allowed for this game."""
        low, high = self.info.min_players, self.info.max_players
        if not low <= players <= high:
            allowed = str(low) if low == high else f"{low}–{high}"
            raise UsageError(f"{self.info.name} is played by {allowed} players, not {players}")

    # ---- the contract ------------------------------------------------------------------

    @abstractmethod
    def new_game(self, players: int, options: Mapping[str, OptionValue], seed: int) -> S:
        """The initial state. ``options`` as returned by :meth:`resolve_options`."""

    @abstractmethod
    def to_move(self, state: S) -> tuple[int, ...]:
        """Seats that may act now; ``(CHANCE,)`` at a chance node; ``()`` once over."""

    def chance_outcomes(self, state: S) -> tuple[ChanceOutcome, ...]:
        """Outcomes of the chance node ``state`` is at; empty for games without chance."""
        return ()

    @abstractmethod
    def legal_moves(self, state: S, seat: int) -> Sequence[M]:
        """Every legal move of ``seat`` (empty if it may not act)."""

    @abstractmethod
    def parse_move(self, state: S, seat: int, text: str) -> M:
        """The legal move ``text`` denotes for ``seat``.

        Raises exactly one of :class:`NotationError`, :class:`IllegalMoveError`,
        :class:`AmbiguousMoveError`, :class:`NotYourTurnError`, :class:`GameOverError`.
        """

    @abstractmethod
    def format_move(self, state: S, move: M) -> str:
        """The one canonical string of ``move`` in ``state`` (format∘parse is the identity)."""

    @abstractmethod
    def apply(self, state: S, seat: int, move: M) -> Transition[S]:
        """Play a legal ``move`` (from :meth:`parse_move` or :meth:`legal_moves`).

        Never mutates ``state``. Behaviour for a move that is not legal is undefined.
        """

    def child(self, state: S, seat: int, move: M) -> S:
        """The position after a legal ``move``: ``apply(state, seat, move).state``, without
        building its events. The AI steps its search with this (:func:`ai.search.stepper`);
        a game whose events cost time overrides it with a quicker form that reaches the same
        positions and outcomes (Generatorb, Arbos and Generator do)."""
        return self.apply(state, seat, move).state

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    @abstractmethod
    def view(self, state: S, viewer: int | None) -> Any:
        """What ``viewer`` (a seat, or ``None`` for a spectator) may see of ``state``."""

    def ended_view(self, view: Any, outcome: Outcome) -> Any:
        """The public ``view`` of a game that ended with ``outcome`` outside this engine's
        moves: a resignation the engine leaves to the bot (:meth:`resign` returns ``None``)
        or a draw by agreement, which end the game on the bot's record while the state still
        has a seat to act. Returns the view with that outcome and nobody to act, for the
        final picture; a view that knows its outcome already is returned as it is.

        The default replaces the dataclass fields ``outcome`` and ``to_move`` (``()`` where
        ``to_move`` is a tuple, else ``None``); a view without both fields is returned as it
        is. An engine whose view holds more than only the seat to act may have pending
        overrides it (Arbos: a prune due)."""
        if not dataclasses.is_dataclass(view) or isinstance(view, type):
            return view
        names = {field.name for field in dataclasses.fields(view)}
        if not {"outcome", "to_move"} <= names:
            return view
        known, pending = (getattr(view, name) for name in ("outcome", "to_move"))
        if known is not None:
            return view
        return dataclasses.replace(
            view, outcome=outcome, to_move=() if isinstance(pending, tuple) else None
        )

    def determinize(self, view: Any, seat: int, seed: int) -> S:
        """A full state consistent with ``view`` (what ``seat`` sees, i.e. ``self.view(state,
        seat)``): hidden cards the seat cannot know are dealt at random (from ``seed``) out of
        the cards unaccounted for.

        For the AI opponents (architecture.md, "Bots"): an AI of a hidden-information game never
        receives the full state, only its seat's view; it samples determinizations and searches
        them with :meth:`legal_moves` / :meth:`apply`. Contract, for every engine that
        implements it: the result is legal to play on; ``self.view(result, seat) == view``; it
        is a function of ``(view, seat, seed)`` only (deterministic, drawn through
        :mod:`engines.rng`), so two states that differ only in what ``seat`` cannot see give
        the same determinization for the same seed.

        Engines with hidden information (:attr:`GameInfo.has_hidden_information`) override it
        (Generation Zero: spec ``generation_zero`` R14). Their seat views also carry what the
        AI reads of a view without dealing it (``ai.levels``): ``viewer`` (the seat, checked
        so the AI is never handed another seat's view), ``outcome`` (an :class:`Outcome` or
        ``None``), ``to_move`` (truthy while someone is to move) and ``scores`` (one entry per
        seat, whose length gives the player count of a finished game).
        Perfect-information engines do not override it: a seat may know the whole state, so
        their AI is given the state itself, and their views (drawn for the renderer) need not
        carry everything a state holds (the chance generator's seed, say). The default raises
        :class:`NotImplementedError`; it also raises :class:`ValueError` for a view that is not
        ``seat``'s.
        """
        raise NotImplementedError(
            f"{self.info.name} has no hidden information: give the AI the state itself"
        )

    @abstractmethod
    def position(self, state: S) -> str:
        """The canonical position string (the spec's position notation)."""

    @abstractmethod
    def from_position(self, text: str, options: Mapping[str, OptionValue]) -> S:
        """A state from position notation; raises :class:`UsageError` if malformed."""

    def position_players(self, text: str) -> int | None:
        """The number of seats the position notation ``text`` carries, if it carries one.

        The CLI plays ``--position`` without ``--players`` with this count (engine-cli.md: a
        position is malformed only when its count differs from an *explicit* ``--players``).
        ``None`` (the default) when the notation has no count (two-player games) or the text
        cannot be read that far; :meth:`from_position` then judges the text. Never raises.
        """
        return None

    def options_players(self, options: Mapping[str, OptionValue]) -> int | None:
        """The number of seats ``options`` (as :meth:`resolve_options` returns them) name, if
        they name one: the bot's ``/challenge`` then has that many seats when no ``players``
        is given. ``None`` (the default) for options that fit any count, or that fit some
        counts only without naming one (an Orbs hole in a start zone). Never raises."""
        return None

    def check_position_players(self, state: S, players: int, *, explicit: bool) -> None:
        """Raise :class:`UsageError` if a position read by :meth:`from_position` does not fit
        the call's player count (``explicit``: the caller gave ``--players``).

        The default accepts every position: most games have a fixed count or carry it in their
        options. Orbs needs one group per seat of ``players`` (its reading rule 2);
        Generation Zero refuses a ``players`` key that differs from an explicit count (7.4).
        """

    @abstractmethod
    def dump_state(self, state: S) -> dict[str, Any]:
        """A JSON-ready dict with everything needed to continue the game (``load_state``)."""

    @abstractmethod
    def load_state(self, data: Mapping[str, Any]) -> S:
        """Inverse of :meth:`dump_state`."""

    # ---- generic helpers ---------------------------------------------------------------

    def dumps(self, state: S) -> str:
        """:meth:`dump_state` as compact JSON text with the format version."""
        body = {"format": self.state_format, "game": self.info.id, **self.dump_state(state)}
        return json.dumps(body, separators=(",", ":"), sort_keys=True)

    def loads(self, text: str) -> S:
        """Inverse of :meth:`dumps`; raises :class:`UsageError` for another game or format."""
        data = json.loads(text)
        if data.get("game") != self.info.id or data.get("format") != self.state_format:
            raise UsageError(
                f"stored state is {data.get('game')!r} format {data.get('format')!r}, "
                f"expected {self.info.id!r} format {self.state_format}"
            )
        return self.load_state(data)

    def legal_move_texts(self, state: S, seat: int) -> list[str]:
        """Canonical strings of :meth:`legal_moves`, sorted by code point, no duplicates."""
        return sorted({self.format_move(state, m) for m in self.legal_moves(state, seat)})

    def few_legal_moves(self, state: S, seat: int, limit: int) -> tuple[str, ...] | None:
        """The canonical legal moves of ``seat`` if there are at most ``limit``, else ``None``.

        The bot spells out a forced move ("your only legal move is `pass`"). The default lists
        every move; games whose full list is huge (Arbos with a seed in hand: every pair of
        cells is a double) override it to answer without building the list.
        """
        texts = self.legal_move_texts(state, seat)
        return tuple(texts) if len(texts) <= limit else None

    def play(self, state: S, seat: int, text: str) -> tuple[S, str, tuple[Event, ...]]:
        """Parse and apply ``text`` for ``seat``: ``(new state, canonical text, events)``.

        Raises the :class:`MoveError` subclasses of :meth:`parse_move`, and
        :class:`NotationError` for text that is not ASCII (:func:`require_ascii`).
        """
        require_ascii(text)
        move = self.parse_move(state, seat, text)
        canonical = self.format_move(state, move)
        transition = self.apply(state, seat, move)
        return transition.state, canonical, transition.events

    def seat_names(self, players: int, options: Mapping[str, OptionValue]) -> tuple[str, ...]:
        """The name of each seat for this player count and options (``("White", "Black")``).

        Shown next to each player's name in challenges, turn messages and pictures. The
        default is the first ``players`` of :attr:`GameInfo.seat_names`; games whose seats
        depend on options (Generator's ``colours``) override it.
        """
        return self.info.seat_names[:players]

    def resign(self, state: S, seat: int) -> Transition[S] | None:
        """Let ``seat`` leave the game, if the rules say what that does; else ``None``.

        ``None`` (the default) means the bot ends the game itself: the other seats win.
        Games where play goes on without the resigner (Generator GEN-15, Orbs) override this
        and return the new state, whose :meth:`outcome` is set once one seat is left. Raises
        :class:`IllegalMoveError` when ``seat`` has already left.
        """
        return None

    def timeout_moves(self, state: S, seat: int, rng: Rng) -> list[str] | None:
        """The moves the bot plays for ``seat`` when its time runs out, as the game's spec
        says, in order (canonical text, each legal after the ones before it); ``None``: the
        spec says nothing, and the platform's rule applies (a two-player game is lost on
        time, a seat of a larger game resigns).

        Called only while ``seat`` is to move. ``rng`` is a generator the caller derives
        from the game's seed and ply, for specs that pick at random (Arbos section 5: a
        uniformly random legal spore); the moves are logged as played, so a replay needs
        no generator. The default returns ``None``.
        """
        return None

    def suggest_moves(self, state: S, seat: int, typed: str, limit: int) -> list[str] | None:
        """Autocomplete choices for ``typed`` (at most ``limit``), or ``None`` for the default.

        ``None`` (the default) makes the bot match ``typed`` against
        :meth:`legal_move_texts`. Games with too many legal moves to list (Arbos: every pair
        of cells for a double) override this and complete from what was typed instead.
        Every suggestion must be accepted by :meth:`parse_move`.
        """
        return None

    def suggestion_label(self, state: S, seat: int, text: str) -> str:
        """What the chat's autocomplete shows for the suggested move ``text`` of ``seat``
        (the move sent stays ``text``): by default ``text`` itself. A game whose notation
        names cards by id shows their names beside it (Generation Zero: ``pick kay_seven —
        Unit K-7 "Kay-Seven"``). Only ``seat`` sees it, and it may say no more than the move
        text already does: no hidden fact beyond what the id names."""
        return text

    def prompt(self, state: S, seat: int) -> str | None:
        """One sentence telling ``seat`` what it must decide now, if that is not obvious.

        Examples: "Black must prune 1 tree first: `prune <cell>` names a cell of each tree."
        or "You rolled Y: move to a yellow node, or pass." The bot adds it to the turn
        message. ``None`` (the default) when there is nothing special to say.

        The turn message is public, so in games with hidden information the sentence must
        hold only public facts (whose decision, for which character, of what kind); the
        seat's private facts belong in :meth:`view` and in events with ``visible_to``.
        """
        return None

    def with_seed(self, state: S, seed: int) -> S:
        """``state`` with the game's generator started again from ``seed`` (draw counter 0).

        For a state read from a position, which carries no generator: engine-cli.md's
        ``--seed`` seeds the draws after ``--position`` too. Games with chance whose position
        notation holds no seed (Arbos, Generator) override this; the default returns
        ``state`` (no chance, or a position that carries its own seed: Generation Zero).
        """
        return state

    def rng_state(self, state: S) -> tuple[int, int]:
        """``(seed, draw counter)`` of the game's generator in ``state`` (see engines/rng.py).

        Games with chance override this; the default ``(0, 0)`` is never drawn from, because
        :meth:`chance_outcomes` is empty for games without chance.
        """
        return (0, 0)

    def sample_chance(self, state: S) -> str:
        """The outcome the game's own seeded generator picks at this chance node (its notation).

        Used by the service and the CLI alike, so a replay is exact. Draws one 53-bit number
        from ``Rng(*rng_state(state))``; the engine's :meth:`apply_chance` advances the counter.
        Raises :class:`IllegalMoveError` when ``state`` is not at a chance node.
        """
        outcomes = self.chance_outcomes(state)
        if not outcomes:
            raise IllegalMoveError("there is nothing to roll or shuffle now")
        point = Rng(*self.rng_state(state)).below(1 << 53) / (1 << 53)
        total = 0.0
        for outcome in outcomes:
            total += outcome.probability
            if point < total:
                return outcome.text
        return outcomes[-1].text

    def apply_chance(self, state: S, text: str) -> Transition[S]:
        """Apply a chance outcome given in the game's chance notation (``roll:G``).

        Games with chance override this; the default raises :class:`IllegalMoveError`.
        """
        raise IllegalMoveError(f"{self.info.name} has no chance nodes", text=text)

    def chance_text(self, state: S, text: str) -> str:
        """The canonical text of the chance token ``text`` that :meth:`apply_chance` has just
        accepted at ``state``: one of :meth:`chance_outcomes`' texts (engine-cli.md:
        ``applied`` holds the canonical notation, chance outcomes included).

        The default matches ``text`` without surrounding space and case (``ROLL:g`` ->
        ``roll:G``) and returns it stripped when none matches; a game whose chance notation
        allows more than that (Arbos' separators: ``setup:K5,``) overrides it.
        """
        key = text.strip().lower()
        for outcome in self.chance_outcomes(state):
            if outcome.text.lower() == key:
                return outcome.text
        return text.strip()
