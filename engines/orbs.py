"""Orbs: elemental orbs on a Chinese-checkers star, 2–6 players and teams (spec orbs).

On a turn a player moves one of their orbs one step; moving onto an enemy orb resolves by element
(ORB-2): opposites (Fire–Water, Earth–Air) and Void destroy both, otherwise Fire burns Air, Air
evaporates Water, Water erodes Earth and Earth smothers Fire. The last side with orbs wins.

Representation. The board is a tuple of 121 ints indexed by cell number
(:mod:`engines.geometry.hexstar`, board order): ``-1`` empty, else ``seat * 5 + element`` with
elements numbered as :data:`ELEMENTS`. Everything the options decide (board shape, holes, wrap,
teams, the no-progress limit) lives in one cached :class:`Rules` object the state points to, so
a state is small, immutable and hashable. A move is a pair of cell numbers; :data:`PASS` and
:data:`DRAW` are the two non-moves.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, Final, NamedTuple

from engines.base import (
    ELIMINATED_EVENT,
    ENDED_EVENT,
    MAX_DIGITS,
    SEAT_DIGITS,
    Engine,
    Event,
    GameInfo,
    GameOverError,
    IllegalMoveError,
    NotationError,
    NotYourTurnError,
    OptionSpec,
    OptionValue,
    Outcome,
    Preset,
    Transition,
    UsageError,
    ascii_digits,
    quoted,
)
from engines.geometry.hexstar import (
    CELL_COUNT,
    HEX_ZONES,
    INDEX,
    NAMES,
    POINTS,
    cells_of,
    neighbours,
)
from engines.rng import Rng

__all__ = [
    "DRAW",
    "ELEMENTS",
    "ELEMENT_NAMES",
    "PASS",
    "OrbsEngine",
    "OrbsLastMove",
    "OrbsMove",
    "OrbsState",
    "OrbsView",
    "Rules",
]

#: Element letters in the spec's order: Fire, Earth, Air, Water, Void.
ELEMENTS: tuple[str, ...] = ("F", "E", "A", "W", "V")
ELEMENT_NAMES: dict[str, str] = {
    "F": "Fire",
    "E": "Earth",
    "A": "Air",
    "W": "Water",
    "V": "Void",
}
FIRE, EARTH, AIR, WATER, VOID = range(5)
#: ORB-2: what each element beats (F>A, A>W, W>E, E>F) and its opposite (F–W, E–A).
BEATS: tuple[int, ...] = (AIR, FIRE, WATER, EARTH, -1)
OPPOSITE: tuple[int, ...] = (WATER, AIR, EARTH, FIRE, -1)
#: The verb for "X beats Y", for the chat summary.
VERBS: tuple[str, ...] = ("burns", "smothers", "evaporates", "erodes", "")

EMPTY = -1
OrbsMove = tuple[int, int]
#: The only move of a seat without a legal move (ORB-4).
PASS: OrbsMove = (-1, -1)
#: All remaining players agreed to a draw (meta move, sent by the bot: D-ORB-11).
DRAW: OrbsMove = (-2, -2)

#: Seats' points per player count (spec: *Seats and points*, D-ORB-12).
SEATING: dict[int, tuple[str, ...]] = {
    2: ("N", "S"),
    3: ("N", "SE", "SW"),
    4: ("NE", "SE", "SW", "NW"),
    5: ("N", "NE", "SE", "SW", "NW"),
    6: ("N", "NE", "SE", "S", "SW", "NW"),
}
TORUS_SEATING: dict[int, tuple[str, ...]] = {2: ("N", "SE"), 3: ("N", "SE", "SW")}
POINT_NAMES: dict[str, str] = {
    "N": "North",
    "NE": "North-east",
    "SE": "South-east",
    "S": "South",
    "SW": "South-west",
    "NW": "North-west",
}

#: Openings as strings over the zone labels (star: a1 b1 b2 c1 c2 c3 d1 d2 d3 d4; hexagon:
#: h1 … h6), for even and odd seats (spec: *Openings*, D-ORB-13).
OPENINGS: dict[str, dict[str, tuple[str, str] | None]] = {
    "quartet": {"star": (".AFW.EFEWA", ".AFW.EFEWA"), "hexagon": (".A.EWF", ".A.EWF")},
    "opposites": {
        "star": ("FFWWFWFWFW", "EEAAEAEAEA"),
        "hexagon": ("FWFWFW", "EAEAEA"),
    },
    "rare_water": {"star": ("WAFAEEFEAF", "WAFAEEFEAF"), "hexagon": None},
}
#: Zone-label indices that receive Void orbs, in order (star c2, a1, b1; hexagon h1, h3, h2).
VOID_LABELS: dict[str, tuple[int, ...]] = {"star": (4, 0, 1), "hexagon": (0, 2, 1)}
HOLE_PRESETS: dict[str, tuple[str, ...]] = {
    "none": (),
    "center": ("I5",),
    "triad": ("G5", "I7", "K5"),
    "ring6": ("G5", "G7", "I7", "K7", "K5", "I3"),
}
#: Terminations (ORB-8) in the order their checks run, plus the meta endings.
TERMINATIONS: tuple[str, ...] = (
    "annihilation",
    "last_standing",
    "same_element",
    "stalemate",
    "no_progress",
    "agreement",
)

RULES_SUMMARY = """\
2–6 players, alone or in teams, on a Chinese Checkers star; each owns orbs of Fire, Earth, Air \
and Water (and Void ones with the `void` option).
• On your turn move one of your orbs one step to a neighbouring cell. There are no jumps; if \
you cannot move, the bot passes for you.
• Moving onto an enemy orb resolves by element: Fire burns Air, Air evaporates Water, Water \
erodes Earth, Earth smothers Fire (the winner stays, and a losing attack removes the \
attacker). Opposites (Fire–Water, Earth–Air) and any Void destroy each other.
• You may not move onto your own or a teammate's orb, or onto the same element.
• A player without orbs is out. The last side with orbs wins; a board of one element, a \
stalemate or too many turns without a removal are draws."""

NOTATION_HELP = """\
Cells are a row letter A–Q (top to bottom) and a number from the left of that row: the centre \
is `I5`.
• `I5-I6` moves the orb on I5 to I6 (also `I5 I6`, `I5>I6`, `I5xI6`, `i5 to i6`).
• `pass` only when no move is possible (the bot plays it for you). Resign with `/resign`; offer \
a draw with `/draw`."""


# ---------------------------------------------------------------------------------------------
# Views (what the picture shows)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OrbsLastMove:
    """The last ply, for the picture's arrow and clash marker.

    ``kind`` is ``"move"`` (onto an empty cell), ``"capture"`` (the mover beat the target and
    stands on ``target``), ``"annihilation"`` (both orbs removed: opposites or a Void),
    ``"lost"`` (the target beat the mover, which was removed), ``"pass"`` or ``"resign"``.
    ``origin``/``target`` are cell names (``""`` for a pass or resignation); ``element`` is the
    mover's element letter, ``victim``/``victim_seat`` the element and owner of the orb that was
    hit (``""``/``None`` when nothing was hit).
    """

    seat: int
    kind: str
    origin: str = ""
    target: str = ""
    element: str = ""
    victim: str = ""
    victim_seat: int | None = None


@dataclass(frozen=True, slots=True)
class OrbsView:
    """Everything the Orbs picture shows; there is no hidden information (spec orbs).

    * ``players`` seats; ``board`` ``"star"``/``"hexagon"``; ``wrap`` ``"none"``/``"torus"``.
    * ``holes``: hole cell names in board order.
    * ``sides``: the seats grouped by side (teams, or one seat each), each group ascending,
      groups ordered by their smallest seat.
    * ``zones``: per seat, its start-zone cell names in zone-label order (for the faint tint).
    * ``points``: per seat, the point it sits at (``"N"``, ``"NE"`` … ``"NW"``).
    * ``orbs``: ``(cell, seat, element)`` for every orb, in board order.
    * ``to_move``: the seat to move, ``None`` once the game is over.
    * ``quiet``: the quiet counter; ``quiet_limit``: the turns that end the game now
      (``no_progress_limit`` × players still in; ``0`` = no limit).
    * ``options``: the options in use as ``(name, printed value)`` pairs, for the panel: board,
      holes, wrap, void, opening and teams always, then any other option not at its default
      (``no_progress_limit``, ``first_player``), in the order of the game's options.
    * ``last``: the last ply or ``None``; ``outcome``: set once the game is over.
    """

    players: int
    board: str
    wrap: str
    holes: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]
    zones: tuple[tuple[str, ...], ...]
    points: tuple[str, ...]
    orbs: tuple[tuple[str, int, str], ...]
    to_move: int | None
    quiet: int
    quiet_limit: int
    options: tuple[tuple[str, str], ...]
    last: OrbsLastMove | None = None
    outcome: Outcome | None = None


# ---------------------------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------------------------


def _option_text(value: OptionValue) -> str:
    return value if isinstance(value, str) else str(value)


def _opening(value: OptionValue, board: str, void: int) -> str:
    """Option ``opening`` as printed: a keyword in lower case or a custom string in upper case.

    Raises :class:`UsageError` for ``rare_water`` on the hexagon, or a custom string of the
    wrong length, with other characters than ``FEAW.``, or without any orb (Voids count).
    """
    text = _option_text(value).strip()
    if text.lower() in OPENINGS:
        if OPENINGS[text.lower()][board] is None:
            raise UsageError(f"option opening: {text.lower()} is not offered on the {board} board")
        return text.lower()
    custom = text.upper()
    size = 10 if board == "star" else 6
    if len(custom) != size or set(custom) - set("FEAW."):
        raise UsageError(
            f"option opening: {quoted(text)} is not allowed; use quartet, opposites, rare_water or "
            f"{size} characters from F E A W . (one per start-zone cell)"
        )
    if custom == "." * size and void == 0:
        raise UsageError("option opening: a custom opening must place at least one orb")
    return custom


def _holes(value: OptionValue, board: str) -> tuple[str, tuple[int, ...]]:
    """Option ``holes`` as printed, and its cells sorted. Raises :class:`UsageError` for a
    name that is not a cell of ``board`` or a cell listed twice."""
    text = _option_text(value).strip()
    if text.lower() in HOLE_PRESETS:
        names = HOLE_PRESETS[text.lower()]
        printed = text.lower()
    else:
        names = tuple(part.strip().upper() for part in text.split(","))
        printed = ""
    playable = cells_of(board)
    cells: list[int] = []
    for name in names:
        cell = INDEX.get(name)
        if cell is None or cell not in playable:
            raise UsageError(
                f"option holes: {quoted(name or text)} is not a cell of the {board} board"
            )
        if cell in cells:
            raise UsageError(f"option holes: {name} is listed twice")
        cells.append(cell)
    cells.sort()
    return printed or ",".join(NAMES[c] for c in cells), tuple(cells)


def _teams(value: OptionValue) -> str:
    """Option ``teams`` in canonical form (groups ascending, ordered by smallest seat; a
    partition into single seats is ``none``). Raises :class:`UsageError` for bad syntax or a
    seat named twice; whether it names every seat is checked once the player count is known."""
    text = _option_text(value).strip().lower()
    if text == "none":
        return "none"
    groups = text.split("-")
    seats = [c for group in groups for c in group]
    if not all(group and group.isascii() and group.isdigit() for group in groups) or len(
        set(seats)
    ) != len(seats):
        raise UsageError(
            f"option teams: {quoted(text)} is not allowed; use none or groups of seat digits "
            "joined by '-', every seat once, e.g. 02-13"
        )
    ordered = sorted(("".join(sorted(group)) for group in groups), key=lambda g: g[0])
    if all(len(group) == 1 for group in ordered):
        return "none"
    return "-".join(ordered)


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything the options and the player count decide, computed once per combination.

    ``playable`` is the set of cells orbs may stand on; ``adjacent[c]`` the playable
    neighbours of ``c`` (holes removed, torus applied); ``side[seat]`` the index of the seat's
    side in ``sides``; ``zones[seat]`` its start-zone cells in label order; ``limit`` the
    no-progress limit L (0 = off).
    """

    players: int
    board: str
    wrap: str
    holes: tuple[int, ...]
    playable: frozenset[int]
    adjacent: tuple[tuple[int, ...], ...]
    sides: tuple[tuple[int, ...], ...]
    side: tuple[int, ...]
    points: tuple[str, ...]
    zones: tuple[tuple[int, ...], ...]
    limit: int
    options: tuple[tuple[str, OptionValue], ...]

    def teammates(self, a: int, b: int) -> bool:
        return self.side[a] == self.side[b]


def _connected(cells: frozenset[int], adjacent: tuple[tuple[int, ...], ...]) -> bool:
    if not cells:
        return False
    start = min(cells)
    seen = {start}
    frontier = [start]
    while frontier:
        cell = frontier.pop()
        for other in adjacent[cell]:
            if other not in seen:
                seen.add(other)
                frontier.append(other)
    return len(seen) == len(cells)


@cache
def _playable(
    board: str, wrap: str, holes: tuple[int, ...]
) -> tuple[frozenset[int], tuple[tuple[int, ...], ...]]:
    """The cells orbs may stand on, and per cell its playable neighbours (holes removed)."""
    playable = cells_of(board) - set(holes)
    table = neighbours(board, wrap)
    adjacent = tuple(
        tuple(n for n in table[c] if n in playable) if c in playable else ()
        for c in range(CELL_COUNT)
    )
    return frozenset(playable), adjacent


@cache
def _rules(players: int, options: tuple[tuple[str, OptionValue], ...]) -> Rules:
    """The :class:`Rules` of ``players`` seats under complete, canonical ``options``.

    Raises :class:`UsageError` for the checks that need the player count: the torus with more
    than 3 players, teams that do not name every seat, a hole in a seated start zone.
    """
    opts = dict(options)
    board, wrap = str(opts["board"]), str(opts["wrap"])
    if wrap == "torus" and players > 3:
        raise UsageError("option wrap: torus is for 2 or 3 players")
    teams = str(opts["teams"])
    sides = (
        tuple((seat,) for seat in range(players))
        if teams == "none"
        else tuple(tuple(int(c) for c in group) for group in teams.split("-"))
    )
    if sorted(seat for group in sides for seat in group) != list(range(players)):
        raise UsageError(f"option teams: {teams} must name every seat 0–{players - 1} exactly once")
    if len(sides) < 2:
        raise UsageError("option teams: there must be at least two sides")
    points = (TORUS_SEATING if wrap == "torus" else SEATING)[players]
    zone_table = POINTS if board == "star" else HEX_ZONES
    zones = tuple(zone_table[point] for point in points)
    holes = _holes(opts["holes"], board)[1]
    for seat, zone in enumerate(zones):
        for cell in holes:
            if cell in zone:
                raise UsageError(f"option holes: {NAMES[cell]} is in the start zone of seat {seat}")
    side = [0] * players
    for index, group in enumerate(sides):
        for seat in group:
            side[seat] = index
    playable, adjacent = _playable(board, wrap, holes)
    return Rules(
        players=players,
        board=board,
        wrap=wrap,
        holes=holes,
        playable=playable,
        adjacent=adjacent,
        sides=sides,
        side=tuple(side),
        points=points,
        zones=zones,
        limit=int(opts["no_progress_limit"]),
        options=options,
    )


class OrbsState(NamedTuple):
    """An Orbs position plus what play needs beyond it.

    ``board`` per cell (``-1`` or ``seat * 5 + element``); ``turn`` the seat to move (kept
    once over); ``quiet`` the quiet counter (ORB-8.5); ``end`` ``""`` while running, else the
    termination; ``drawn`` the seats sharing an annihilation draw; ``last`` the last ply
    (for the picture, not part of the position); ``rules`` the options' :class:`Rules`.
    """

    board: tuple[int, ...]
    turn: int
    quiet: int
    end: str
    drawn: tuple[int, ...]
    last: OrbsLastMove | None
    rules: Rules


# ---------------------------------------------------------------------------------------------
# Rules as functions
# ---------------------------------------------------------------------------------------------


def clash(mover: int, target: int) -> str:
    """ORB-2 for orb values ``mover`` onto ``target`` of different sides.

    Returns ``"same"`` (illegal: same element, neither Void), ``"both"`` (opposites or a Void:
    both removed), ``"win"`` (the target is removed, the mover takes the cell) or ``"lose"``
    (the mover is removed).
    """
    x, y = mover % 5, target % 5
    if x == VOID or y == VOID or OPPOSITE[x] == y:
        return "both"
    if x == y:
        return "same"
    return "win" if BEATS[x] == y else "lose"


def _orbs_of(board: Sequence[int], seat: int, playable: frozenset[int]) -> list[int]:
    """The cells of ``seat``'s orbs, ascending (orbs stand only on ``playable`` cells)."""
    low = seat * 5
    high = low + 5
    return [cell for cell in _ascending(playable) if low <= board[cell] < high]


@lru_cache(maxsize=64)
def _ascending(cells: frozenset[int]) -> tuple[int, ...]:
    """``cells`` in ascending order, computed once per board shape."""
    return tuple(sorted(cells))


def _seats_in(board: Sequence[int], players: int) -> list[bool]:
    """Per seat: whether it still has an orb (one pass over the distinct cell values)."""
    present = [False] * players
    for value in set(board):
        if value >= 0:
            present[value // 5] = True
    return present


def _moves(board: Sequence[int], rules: Rules, seat: int) -> list[OrbsMove]:
    """ORB-3: every step of ``seat``'s orbs onto an empty cell or a hittable enemy orb."""
    moves: list[OrbsMove] = []
    side = rules.side
    my_side = side[seat]
    for origin in _orbs_of(board, seat, rules.playable):
        mover = board[origin]
        for target in rules.adjacent[origin]:
            value = board[target]
            if value < 0 or (side[value // 5] != my_side and clash(mover, value) != "same"):
                moves.append((origin, target))
    return moves


def _next_seat(present: Sequence[bool], after: int) -> int:
    """ORB-6: the next seat after ``after`` that still has orbs (``after`` itself if none)."""
    players = len(present)
    for step in range(1, players + 1):
        seat = (after + step) % players
        if present[seat]:
            return seat
    return after


def _ending(board: Sequence[int], rules: Rules, quiet: int) -> str:
    """ORB-8 checks 1–5 in order: the termination that applies, or ``""`` (which seats drew
    an annihilation is :func:`_settle`'s, from the seats that had orbs before the ply)."""
    present = _seats_in(board, rules.players)
    sides_in = {rules.side[s] for s in range(rules.players) if present[s]}
    if not sides_in:
        return "annihilation"
    if len(sides_in) == 1:
        return "last_standing"
    elements = {value % 5 for value in set(board) if value >= 0}
    if len(elements) == 1 and VOID not in elements:
        return "same_element"
    # An orb next to an empty cell can always step there, and the options keep the board
    # connected, so only a full board needs the whole search (spec ORB-8.4's remark).
    full = all(board[cell] >= 0 for cell in rules.playable)
    if full and not any(present[s] and _moves(board, rules, s) for s in range(rules.players)):
        return "stalemate"
    if rules.limit > 0 and quiet >= rules.limit * sum(present):
        return "no_progress"
    return ""


def _sides_seats(rules: Rules, seats: Sequence[int]) -> tuple[int, ...]:
    """Every seat of every side that one of ``seats`` belongs to, ascending."""
    wanted = {rules.side[s] for s in seats}
    return tuple(s for s in range(rules.players) if rules.side[s] in wanted)


def _outcome(state: OrbsState) -> Outcome | None:
    """The outcome table of *Turn flow and end*: winners and a two-group ranking."""
    if not state.end:
        return None
    rules = state.rules
    if state.end == "annihilation":
        first: tuple[int, ...] = state.drawn
        winners: tuple[int, ...] = ()
    else:
        present = _seats_in(state.board, rules.players)
        first = _sides_seats(rules, [s for s in range(rules.players) if present[s]])
        winners = first if state.end == "last_standing" else ()
    rest = tuple(s for s in range(rules.players) if s not in first)
    ranking = tuple(group for group in (first, rest) if group)
    return Outcome(state.end, winners, ranking)


def _settle(
    board: tuple[int, ...],
    rules: Rules,
    turn: int,
    quiet: int,
    before: Sequence[bool],
    last: OrbsLastMove | None,
    *,
    advance: bool,
) -> OrbsState:
    """Run the end checks; if the game goes on and ``advance``, pass the turn (ORB-6)."""
    end = _ending(board, rules, quiet)
    drawn: tuple[int, ...] = ()
    if end == "annihilation":
        drawn = _sides_seats(rules, [s for s in range(rules.players) if before[s]])
    elif not end and advance:
        turn = _next_seat(_seats_in(board, rules.players), turn)
    return OrbsState(board, turn, quiet, end, drawn, last, rules)


# ---------------------------------------------------------------------------------------------
# Position notation ("GROUPS TURN QUIET")
# ---------------------------------------------------------------------------------------------


def position_text(state: OrbsState) -> str:
    """The canonical position line of *Position notation*."""
    groups: list[list[str]] = [[] for _ in range(state.rules.players)]
    for cell, value in enumerate(state.board):
        if value >= 0:
            groups[value // 5].append(f"{NAMES[cell]}:{ELEMENTS[value % 5]}")
    text = "/".join(",".join(group) if group else "-" for group in groups)
    if not state.end:
        turn = str(state.turn)
    elif state.end == "annihilation":
        turn = "annihilation:" + "".join(str(s) for s in state.drawn)
    else:
        turn = state.end
    return f"{text} {turn} {state.quiet}"


_ITEM = re.compile(r"([A-Q])(\d{1,2}):([FEAWV])")


def read_position(text: str, rules: Rules) -> OrbsState:
    """A state from a position line under ``rules``; raises :class:`UsageError` unless every
    reading rule holds (canonical text, one group per seat, orbs on playable cells, a TURN that
    agrees with the ORB-8 checks)."""
    fields = text.split(" ")
    if len(fields) != 3:
        raise UsageError("an Orbs position is GROUPS TURN QUIET, separated by single spaces")
    groups_text, turn_text, quiet_text = fields
    groups = groups_text.split("/")
    if len(groups) != rules.players:
        raise UsageError(f"the position has {len(groups)} groups for {rules.players} players")
    board = [EMPTY] * CELL_COUNT
    for seat, group in enumerate(groups):
        if group == "-":
            continue
        for item in group.split(","):
            match = _ITEM.fullmatch(item)
            if match is None:
                raise UsageError(f"{item!r} is not CELL:ELEMENT (e.g. I5:F)")
            cell = INDEX.get(f"{match.group(1)}{match.group(2)}")
            if cell is None:
                raise UsageError(f"{item!r}: there is no cell {match.group(1)}{match.group(2)}")
            if cell not in rules.playable:
                raise UsageError(f"{NAMES[cell]} is not a playable cell of this board")
            if board[cell] != EMPTY:
                raise UsageError(f"two orbs on {NAMES[cell]}")
            board[cell] = seat * 5 + ELEMENTS.index(match.group(3))
    if not ascii_digits(quiet_text, MAX_DIGITS):
        raise UsageError(f"the quiet counter {quoted(quiet_text)} is not a number")
    quiet = int(quiet_text)
    frozen = tuple(board)
    present = _seats_in(frozen, rules.players)
    found = _ending(frozen, rules, quiet)
    end, turn = "", 0
    drawn: tuple[int, ...] = ()
    if ascii_digits(turn_text, MAX_DIGITS):
        turn = int(turn_text)
        if turn >= rules.players or not present[turn]:
            raise UsageError(f"seat {turn_text} cannot be to move: it has no orbs")
        if found:
            raise UsageError(f"a running position cannot be over by {found} (ORB-8)")
    elif turn_text.startswith("annihilation:"):
        digits = turn_text.split(":", 1)[1]
        drawn = tuple(int(c) for c in digits if c in "0123456789")
        two_sides = {rules.side[s] for s in drawn if s < rules.players}
        if (
            found != "annihilation"
            or len(drawn) != len(digits)
            or len(two_sides) != 2
            or drawn != _sides_seats(rules, drawn)
        ):
            raise UsageError("annihilation needs an empty board and the seats of two sides")
        end = "annihilation"
    elif turn_text in TERMINATIONS[1:]:
        expected = "" if turn_text == "agreement" else turn_text
        if found != expected:
            raise UsageError(f"the position is not over by {quoted(turn_text)} (ORB-8)")
        end = turn_text
    else:
        raise UsageError(f"{quoted(turn_text)} is neither a seat number nor a termination")
    state = OrbsState(frozen, turn, quiet, end, drawn, None, rules)
    if position_text(state) != text:
        raise UsageError(
            f"the position is not canonical; it would print as {position_text(state)!r}"
        )
    return state


# ---------------------------------------------------------------------------------------------
# Move notation
# ---------------------------------------------------------------------------------------------

_PREFIX = re.compile(rf"\[({SEAT_DIGITS})\]\s*(.*)")
_STEP = re.compile(r"([a-z])(\d{1,2})(?: ?[->x] ?| | to |)([a-z])(\d{1,2})")

#: The options every Orbs picture lists (the spec's "options in use"); the others are listed
#: where they differ from their defaults (:meth:`OrbsEngine.view`).
_SHOWN_OPTIONS = ("board", "holes", "wrap", "void", "opening", "teams")

INFO = GameInfo(
    id="orbs",
    name="Orbs",
    min_players=2,
    max_players=6,
    default_players=2,
    options=(
        OptionSpec(
            "board",
            "choice",
            "star",
            "the full 121-cell star, or only its 61-cell central hexagon",
            choices=("star", "hexagon"),
        ),
        OptionSpec(
            "opening",
            "text",
            "quartet",
            "quartet, opposites, rare_water, or one character per start cell from F E A W .",
            examples=("quartet", "opposites", "rare_water"),
        ),
        OptionSpec(
            "void", "int", 0, "Void orbs per player (they destroy anything they touch)", maximum=3
        ),
        OptionSpec(
            "holes",
            "text",
            "none",
            "none, center, triad, ring6, or a comma list of cells such as G7,I5",
            examples=("none", "center", "triad", "ring6", "G7,I5"),
        ),
        OptionSpec(
            "wrap",
            "choice",
            "none",
            "torus: the hexagon's edges wrap around (hexagon board, 2–3 players)",
            choices=("none", "torus"),
        ),
        OptionSpec(
            "teams",
            "text",
            "none",
            "none, or seats grouped like 02-13 (4 players) or 024-135",
            examples=("none", "02-13", "03-14-25", "024-135"),
        ),
        OptionSpec(
            "no_progress_limit",
            "int",
            50,
            "rounds without a removal before a draw (× players still in; 0 = off)",
            maximum=None,  # spec: "integer ≥ 0"
            chat_maximum=1_000_000,
        ),
        OptionSpec(
            "first_player",
            "choice",
            "random",
            "who moves first: drawn at random, or seat 0",
            choices=("random", "seat0"),
        ),
    ),
    presets=(
        Preset("standard", "Standard", {}, "the star, two of each element per player"),
        Preset(
            "hexagon", "Hexagon", {"board": "hexagon"}, "the small central hexagon, 4 orbs each"
        ),
        Preset(
            "torus",
            "Hexagon torus",
            {"board": "hexagon", "wrap": "torus"},
            "the hexagon with wrapping edges (2–3 players)",
        ),
        Preset("void", "With Void", {"void": "1"}, "one Void orb each"),
        Preset(
            "teams4",
            "Teams of two (4 players)",
            {"teams": "02-13"},
            "opposite seats play together",
        ),
        Preset(
            "teams6",
            "Two teams of three (6 players)",
            {"teams": "024-135"},
            "every other seat plays together",
        ),
        Preset("holes", "Ring of holes", {"holes": "ring6"}, "six holes around the centre"),
    ),
    rules_version="1",
    seat_names=tuple(POINT_NAMES.values()),
    rules_summary=RULES_SUMMARY,
    notation_help=NOTATION_HELP,
)
#: The options listed only where they differ from their defaults, in the game's order.
_OTHER_OPTIONS = tuple(o.name for o in INFO.options if o.name not in _SHOWN_OPTIONS)


# ---------------------------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------------------------


#: The event kind of each last-move kind, in the past tense the other engines use
#: (:class:`engines.base.Event`): a move, a capture, an annihilation, an attacker lost.
_EVENT_KINDS: Final = {
    "move": "moved",
    "capture": "captured",
    "annihilation": "annihilated",
    "lost": "lost",
}


class OrbsEngine(Engine[OrbsState, OrbsMove]):
    """Orbs as specified in ``shared/specs/orbs.md`` (rules version 1)."""

    #: ORB-4: a player without a legal move passes, and the bot submits it.
    plays_forced_moves = True
    #: D-ORB-11: the bot gathers every remaining player's consent before it sends ``draw``.
    bot_decided_moves = frozenset({"draw"})

    info = INFO

    # ---- options and setup (Options, ORB-9) ------------------------------------------------

    def complete_options(self, given: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
        """Defaults plus every text option in its printed form.

        Checks what does not depend on the player count: the opening against the board
        (``rare_water`` only on the star; a custom string's length and orbs), holes that are
        cells of the board, listed once and leave one connected piece, the torus only on the
        hexagon, and the syntax of ``teams``. Raises :class:`UsageError`.
        """
        opts = super().complete_options(given)
        board, wrap = str(opts["board"]), str(opts["wrap"])
        if wrap == "torus" and board != "hexagon":
            raise UsageError("option wrap: torus needs board=hexagon")
        opts["opening"] = _opening(opts["opening"], board, int(opts["void"]))
        printed, holes = _holes(opts["holes"], board)
        opts["holes"] = printed
        if not _connected(*_playable(board, wrap, holes)):
            raise UsageError("option holes: the holes cut the board into separate pieces")
        opts["teams"] = _teams(opts["teams"])
        return opts

    def options_for(
        self, options: Mapping[str, OptionValue], players: int
    ) -> dict[str, OptionValue]:
        """The options, checked against ``players`` (teams, torus, holes in seated zones).

        Raises :class:`UsageError` when they cannot fit that many players.
        """
        opts = self.complete_options(options)
        self.rules(players, opts)
        return opts

    def rules(self, players: int, options: Mapping[str, OptionValue]) -> Rules:
        """The cached :class:`Rules` of ``players`` seats; raises :class:`UsageError`."""
        self.check_players(players)
        opts = self.complete_options(options)
        return _rules(players, tuple(opts.items()))

    def seat_names(self, players: int, options: Mapping[str, OptionValue]) -> tuple[str, ...]:
        """Each seat's point, e.g. ``("North", "South")`` (2 players; the torus seats N, SE).

        With ``teams``, each name carries its team's letter in the printed order of the option
        (``teams=02-13`` → ``"North-east, team A"``, ``"South-east, team B"`` …), so every
        message that names a seat also says whose side it is on.
        """
        torus = options.get("wrap") == "torus" and players in TORUS_SEATING
        points = (TORUS_SEATING if torus else SEATING).get(players, ())
        names = [POINT_NAMES[p] for p in points]
        teams = _teams(options.get("teams", "none"))
        if teams != "none":
            for letter, group in zip("ABCDEF", teams.split("-"), strict=False):
                for digit in group:
                    if int(digit) < len(names):
                        names[int(digit)] += f", team {letter}"
        return tuple(names)

    def options_players(self, options: Mapping[str, OptionValue]) -> int | None:
        """The seats option ``teams`` names (``024-135``: six), or ``None`` without teams
        (spec orbs, options: teams must name every seat exactly once)."""
        teams = str(options.get("teams", "none"))
        if teams == "none":
            return None
        return sum(len(group) for group in teams.split("-"))

    def new_game(
        self, players: int, options: Mapping[str, OptionValue], seed: int = 0
    ) -> OrbsState:
        """ORB-9 setup: each seat's opening in its zone, then its Voids on the fixed labels.

        With ``first_player=random`` the first seat is ``Rng(seed, 0).below(players)``
        (ORB-6). Raises :class:`UsageError` for a bad player count or options.
        """
        rules = self.rules(players, options)
        opts = dict(rules.options)
        opening, void = str(opts["opening"]), int(opts["void"])
        board = [EMPTY] * CELL_COUNT
        for seat, zone in enumerate(rules.zones):
            pattern = OPENINGS[opening][rules.board] if opening in OPENINGS else None
            letters = list(pattern[seat % 2] if pattern is not None else opening)
            for label in VOID_LABELS[rules.board][:void]:
                letters[label] = "V"
            for cell, letter in zip(zone, letters, strict=True):
                if letter != ".":
                    board[cell] = seat * 5 + ELEMENTS.index(letter)
        first = 0 if opts["first_player"] == "seat0" else Rng(seed, 0).below(players)
        present = _seats_in(board, players)
        state = _settle(tuple(board), rules, first, 0, present, None, advance=False)
        if not state.end and not present[first]:
            state = state._replace(turn=_next_seat(present, first))
        return state

    # ---- turn flow --------------------------------------------------------------------------

    def to_move(self, state: OrbsState) -> tuple[int, ...]:
        """``(seat,)`` while the game runs, ``()`` once over (there are no chance nodes)."""
        return () if state.end else (state.turn,)

    def legal_moves(self, state: OrbsState, seat: int) -> list[OrbsMove]:
        """ORB-3/ORB-4: the seat's steps, or ``[PASS]`` when it has none; ``[]`` off turn."""
        if state.end or seat != state.turn:
            return []
        return _moves(state.board, state.rules, seat) or [PASS]

    def parse_move(self, state: OrbsState, seat: int, text: str) -> OrbsMove:
        """Read a move in any accepted form (*Move notation*) and check it is legal.

        Raises :class:`GameOverError` for any token after the end; else
        :class:`NotationError` (not a move, a cell not on this board, a seat that does not
        exist, ``draw`` with a prefix), :class:`NotYourTurnError` (a prefix naming another
        seat than ``seat``, or ``seat`` not to move) and :class:`IllegalMoveError` with the
        reason (spec orbs, "Error kinds").
        """
        rules = state.rules
        if state.end:
            raise GameOverError("the game is over", text=text)
        raw = " ".join(text.split()).lower()
        prefix = _PREFIX.fullmatch(raw)
        if prefix:
            claimed = int(prefix.group(1))
            raw = prefix.group(2)
            if claimed >= rules.players:
                raise NotationError(f"there is no seat {claimed}", text=text)
            if raw == "draw":
                raise NotationError("`draw` takes no seat prefix", text=text)
            if claimed != seat:
                raise NotYourTurnError(f"the prefix [{claimed}] is not your seat", text=text)
        if raw == "draw":
            move: OrbsMove = DRAW
        elif raw == "pass":
            move = PASS
        elif raw == "resign":
            raise IllegalMoveError("resign with the resign command", text=text)
        else:
            move = self._parse_step(rules, raw, text)
        if seat != state.turn:
            raise NotYourTurnError(f"it is seat {state.turn}'s turn", text=text)
        if move == DRAW:
            return move
        legal = _moves(state.board, rules, seat)
        if move == PASS:
            if legal:
                raise IllegalMoveError(
                    "you have a legal move, so you may not pass (ORB-4)", text=text
                )
            return PASS
        if move not in legal:
            raise IllegalMoveError(self._why_illegal(state, seat, move), text=text)
        return move

    @staticmethod
    def _parse_step(rules: Rules, raw: str, text: str) -> OrbsMove:
        match = _STEP.fullmatch(raw)
        if not match:
            raise NotationError(
                f"{text.strip()!r} is not a move: write FROM-TO like I5-I6, or pass", text=text
            )
        cells: list[int] = []
        for row, number in (match.group(1, 2), match.group(3, 4)):
            name = f"{row.upper()}{number}"
            cell = INDEX.get(name)
            if cell is None or cell not in cells_of(rules.board):
                raise NotationError(f"{name} is not a cell of the {rules.board} board", text=text)
            cells.append(cell)
        return cells[0], cells[1]

    @staticmethod
    def _why_illegal(state: OrbsState, seat: int, move: OrbsMove) -> str:
        rules, board = state.rules, state.board
        origin, target = move
        mover = board[origin]
        if mover < 0 or mover // 5 != seat:
            return f"there is no orb of yours on {NAMES[origin]}"
        if origin in rules.holes or target in rules.holes:
            hole = NAMES[target if target in rules.holes else origin]
            return f"{hole} is a hole: nothing may stand on it"
        if target not in rules.adjacent[origin]:
            return (
                f"{NAMES[origin]} and {NAMES[target]} are not neighbours: "
                "an orb moves exactly one step (ORB-3)"
            )
        value = board[target]
        if value // 5 == seat:
            return f"{NAMES[target]} holds your own orb (ORB-2)"
        if rules.teammates(seat, value // 5):
            return f"{NAMES[target]} holds a teammate's orb (ORB-2, ORB-7)"
        name = ELEMENT_NAMES[ELEMENTS[mover % 5]]
        return f"{name} cannot attack {name}: same elements do not interact (ORB-2)"

    def format_move(self, state: OrbsState, move: OrbsMove) -> str:
        if move == PASS:
            return "pass"
        if move == DRAW:
            return "draw"
        return f"{NAMES[move[0]]}-{NAMES[move[1]]}"

    def apply(self, state: OrbsState, seat: int, move: OrbsMove) -> Transition[OrbsState]:
        """Play a legal move, pass or agreed draw; then ORB-8 and the next turn (ORB-6)."""
        rules = state.rules
        if move == DRAW:
            after = state._replace(end="agreement", last=None)
            return Transition(after, (Event(ENDED_EVENT, None, _ending_text(after)),))
        before = _seats_in(state.board, rules.players)
        if move == PASS:
            last = OrbsLastMove(seat, "pass")
            after = _settle(state.board, rules, seat, state.quiet + 1, before, last, advance=True)
            return Transition(after, (Event("passed", seat, "passed: no legal move"),))
        origin, target = move
        board = list(state.board)
        mover, victim = board[origin], board[target]
        element = ELEMENTS[mover % 5]
        board[origin] = EMPTY
        if victim < 0:
            board[target] = mover
            kind, text = "move", f"{ELEMENT_NAMES[element]} steps to {NAMES[target]}"
        else:
            result = clash(mover, victim)
            hit = f"{ELEMENT_NAMES[ELEMENTS[victim % 5]]} on {NAMES[target]}"
            if rules.players > 2:  # among several opponents, say whose orb it is
                hit = f"{POINT_NAMES[rules.points[victim // 5]]}'s {hit}"
            if result == "win":
                board[target] = mover
                kind = "capture"
                text = f"{ELEMENT_NAMES[element]} {VERBS[mover % 5]} {hit}"
            elif result == "both":
                board[target] = EMPTY
                kind = "annihilation"
                text = f"{ELEMENT_NAMES[element]} and {hit} destroy each other"
            else:
                kind = "lost"
                text = f"{ELEMENT_NAMES[element]} from {NAMES[origin]} attacks {hit} and is lost"
        last = OrbsLastMove(
            seat,
            kind,
            NAMES[origin],
            NAMES[target],
            element,
            ELEMENTS[victim % 5] if victim >= 0 else "",
            victim // 5 if victim >= 0 else None,
        )
        quiet = 0 if victim >= 0 else state.quiet + 1
        after = _settle(tuple(board), rules, seat, quiet, before, last, advance=True)
        events = [Event(_EVENT_KINDS[kind], seat, text, (NAMES[origin], NAMES[target]))]
        now = _seats_in(after.board, rules.players)
        # Another seat than the mover's: the text names its point, since the bot names only
        # the mover ("… Fire burns Air on K4; South has no orbs left and is out").
        events.extend(
            Event(
                ELIMINATED_EVENT,
                s,
                f"{POINT_NAMES[rules.points[s]]} has no orbs left and is out (ORB-5)",
            )
            for s in range(rules.players)
            if before[s] and not now[s]
        )
        if after.end:
            events.append(Event(ENDED_EVENT, None, _ending_text(after)))
        return Transition(after, tuple(events))

    def resign(self, state: OrbsState, seat: int) -> Transition[OrbsState]:
        """D-ORB-18: ``[k]resign`` removes all of seat k's orbs and resets the quiet counter.

        Allowed at any time. If the resigner was to move, the turn passes on; otherwise it
        stays. Then ORB-8 runs. Raises :class:`GameOverError` once over and
        :class:`IllegalMoveError` for a seat that does not exist or has no orbs.
        """
        if state.end:
            raise GameOverError("the game is over")
        rules = state.rules
        if not 0 <= seat < rules.players:
            raise IllegalMoveError(f"there is no seat {seat} in this game")
        before = _seats_in(state.board, rules.players)
        if not before[seat]:
            raise IllegalMoveError("a seat without orbs cannot resign: it is already out")
        board = tuple(EMPTY if v >= 0 and v // 5 == seat else v for v in state.board)
        last = OrbsLastMove(seat, "resign")
        after = _settle(board, rules, state.turn, 0, before, last, advance=seat == state.turn)
        events = [Event("resigned", seat, "resigned: their orbs leave the board")]
        if after.end:
            events.append(Event(ENDED_EVENT, None, _ending_text(after)))
        return Transition(after, tuple(events))

    def outcome(self, state: OrbsState) -> Outcome | None:
        return _outcome(state)

    def view(self, state: OrbsState, viewer: int | None) -> OrbsView:
        """Everything is public; ``viewer`` is ignored."""
        rules = state.rules
        present = _seats_in(state.board, rules.players)
        opts = dict(rules.options)
        return OrbsView(
            players=rules.players,
            board=rules.board,
            wrap=rules.wrap,
            holes=tuple(NAMES[c] for c in rules.holes),
            sides=rules.sides,
            zones=tuple(tuple(NAMES[c] for c in zone) for zone in rules.zones),
            points=rules.points,
            orbs=tuple(
                (NAMES[cell], value // 5, ELEMENTS[value % 5])
                for cell, value in enumerate(state.board)
                if value >= 0
            ),
            to_move=None if state.end else state.turn,
            quiet=state.quiet,
            quiet_limit=rules.limit * sum(present),
            options=tuple(
                (name, str(opts[name]))
                for name in _SHOWN_OPTIONS + _OTHER_OPTIONS
                if name in _SHOWN_OPTIONS or opts[name] != INFO.option(name).default
            ),
            last=state.last,
            outcome=_outcome(state),
        )

    def position(self, state: OrbsState) -> str:
        return position_text(state)

    def from_position(self, text: str, options: Mapping[str, OptionValue]) -> OrbsState:
        """*Position notation* under the options; the player count is the number of groups.

        Raises :class:`UsageError` for a malformed position or options that do not fit.
        """
        fields = text.split(" ")
        if len(fields) != 3:
            raise UsageError("an Orbs position is GROUPS TURN QUIET, separated by single spaces")
        if "/" not in fields[0]:
            # One group would read as one player: say what GROUPS is instead.
            raise UsageError("GROUPS has one group per seat, separated by / (at least two)")
        players = fields[0].count("/") + 1
        return read_position(text, self.rules(players, options))

    def position_players(self, text: str) -> int | None:
        """The number of groups of GROUPS (one per seat, *Position notation*); ``None`` for
        text not shaped like a position (not three fields, or no ``/`` between groups), so
        its reading reports what is wrong with it rather than a count of one player."""
        fields = text.split()
        if len(fields) != 3 or "/" not in fields[0]:
            return None
        return fields[0].count("/") + 1

    def check_position_players(self, state: OrbsState, players: int, *, explicit: bool) -> None:
        """Reading rule 2: exactly ``players`` groups (the call's count, 2 by default)."""
        if state.rules.players != players:
            raise UsageError(
                f"the position has {state.rules.players} groups but the game has {players} "
                "players (--players)"
            )

    def dump_state(self, state: OrbsState) -> dict[str, Any]:
        """The position, the options, the seat to move once over, and the last ply."""
        last = state.last
        return {
            "position": position_text(state),
            "players": state.rules.players,
            "options": dict(state.rules.options),
            "turn": state.turn,
            "last": None
            if last is None
            else {
                "seat": last.seat,
                "kind": last.kind,
                "origin": last.origin,
                "target": last.target,
                "element": last.element,
                "victim": last.victim,
                "victim_seat": last.victim_seat,
            },
        }

    def load_state(self, data: Mapping[str, Any]) -> OrbsState:
        """Inverse of :meth:`dump_state`; raises :class:`UsageError` for a malformed position."""
        rules = self.rules(int(data["players"]), data["options"])
        state = read_position(str(data["position"]), rules)
        raw = data.get("last")
        last = None if raw is None else OrbsLastMove(**raw)
        return state._replace(turn=int(data["turn"]), last=last)


def _ending_text(state: OrbsState) -> str:
    """A short phrase for the chat summary of how the game ended."""
    end = state.end
    if end == "annihilation":
        return "the last two orbs destroyed each other: a draw (ORB-8)"
    if end == "last_standing":
        return "only one side has orbs left and wins (ORB-8)"
    if end == "same_element":
        return "every orb left is the same element, so nothing can be removed: a draw (ORB-8)"
    if end == "stalemate":
        return "nobody can move: a draw (ORB-8)"
    if end == "no_progress":
        return "too many turns without a removal: a draw (ORB-8)"
    return f"{'both' if state.rules.players == 2 else 'all'} players agreed to a draw"
