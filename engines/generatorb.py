"""Generatorb (The Front Line): the rules of ``shared/specs/generatorb.md``.

Rule ids (G1…G30, D-G…) in comments refer to that spec. Seat 0 is South, seat 1 is North.

Representation, chosen for speed (AI opponents will call ``legal_moves``/``apply`` constantly):
the board is a tuple of 64 small ints indexed ``x * 8 + y`` (see ``engines.geometry.square``);
``+h`` is a South stack of height ``h``, ``-h`` a North stack, ``0`` empty. Jump sequences are
searched over precomputed neighbour tables.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from engines.base import (
    ENDED_EVENT,
    MAX_DIGITS,
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
    plain_decimal,
    quoted,
)
from engines.geometry.square import SquareGrid

GRID = SquareGrid.of(8)
SOUTH, NORTH = 0, 1
SEAT_LETTERS = ("S", "N")
SEAT_NAMES = ("South", "North")

#: G3: each side's generator cells in the refill order of G23 step 3, core first.
GENERATORS: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(GRID.index_of[c] for c in ("a1", "a2", "b1", "b2")),
    tuple(GRID.index_of[c] for c in ("h8", "h7", "g8", "g7")),
)
#: G3: the cores.
CORES: tuple[int, int] = (GRID.index_of["a1"], GRID.index_of["h8"])
#: G4: the front line, the a8–h1 anti-diagonal.
FRONT_LINE: tuple[int, ...] = tuple(
    GRID.index_of[c] for c in ("a8", "b7", "c6", "d5", "e4", "f3", "g2", "h1")
)


@dataclass(frozen=True, slots=True)
class LastMove:
    """What the last ply did, for highlights (spec generatorb section 10).

    Cells are indices into ``GRID``. ``origin``/``destination`` are ``None`` for a pass.
    ``path`` holds the intermediate landing cells of a jump sequence: one shortest route the
    engine derives from the canonical move (:func:`jump_route`), so it depends only on the move
    log and a replay reproduces it; empty for steps, slides and single jumps.
    ``captured`` is true when an enemy stack was taken on ``destination``; ``merged`` is the
    height of the stack made by a merge (0 if none); ``refilled`` the cells the refill filled.
    """

    seat: int
    origin: int | None
    destination: int | None
    split: bool = False
    path: tuple[int, ...] = ()
    captured: bool = False
    merged: int = 0
    refilled: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class GeneratorbView:
    """Everything a renderer or presenter needs; there is no hidden information (section 10).

    ``board`` is 64 ints as in the module docstring; ``stacks`` lists ``(cell, seat, height)``
    for every occupied cell in cell order. ``to_move`` is ``None`` once the game is over.
    """

    board: tuple[int, ...]
    supply: tuple[int, int]
    to_move: int | None
    ply: int
    passes: int
    outcome: Outcome | None
    last: LastMove | None
    viewer: int | None

    @property
    def stacks(self) -> tuple[tuple[int, int, int], ...]:
        return tuple(
            (cell, SOUTH if v > 0 else NORTH, abs(v)) for cell, v in enumerate(self.board) if v
        )


# ---------------------------------------------------------------------------------------------
# Precomputed tables (G5 neighbours, G11 jumps, G20 rays, G21 orthogonal neighbours)
# ---------------------------------------------------------------------------------------------

#: JUMPS[i]: the (jumped cell, landing cell) pairs of a single jump from i (G11).
JUMPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(
        (GRID.step[i][d], GRID.step[GRID.step[i][d]][d])
        for d in range(8)
        if GRID.step[i][d] >= 0 and GRID.step[GRID.step[i][d]][d] >= 0
    )
    for i in GRID.cells
)
#: STEPS[i]: the 8-neighbours of i (G18 b).
STEPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(n for n in GRID.step[i] if n >= 0) for i in GRID.cells
)
RAYS = GRID.ray
ORTHOGONAL = GRID.orthogonal
IS_CORE: tuple[bool, ...] = tuple(i in CORES for i in GRID.cells)
#: Under refill=all the North order is Abstract Play's g7, g8, h7, h8 (G23, D-AP2).
REFILL_ALL_ORDER: tuple[tuple[int, ...], tuple[int, ...]] = (
    GENERATORS[SOUTH],
    tuple(GRID.index_of[c] for c in ("g7", "g8", "h7", "h8")),
)
SIGN = (1, -1)
NAMES = GRID.names
HEIGHT_NAMES = ("", "orb", "spheroid", "globe")


def _globe_may_stand(board: Sequence[int], cell: int, origin: int) -> bool:
    """G21: a globe may not end on a core nor orthogonally next to another globe.

    ``origin`` is the moving piece's own cell, which never counts as "another globe".
    """
    if IS_CORE[cell]:
        return False
    for n in ORTHOGONAL[cell]:  # noqa: SIM110 (a plain loop is faster on this hot path)
        if n != origin and (board[n] == 3 or board[n] == -3):
            return False
    return True


# ---------------------------------------------------------------------------------------------
# Moves and states
# ---------------------------------------------------------------------------------------------


class GeneratorbMove(NamedTuple):
    """One move (G10): ``origin``/``destination`` cell indices (``-1`` for a pass).

    ``split`` is true when only the top orb of a spheroid moves (G19); ``capture`` and
    ``merged`` (the height of the stack a merge makes, else 0) describe the landing (G16,
    G17); ``refill`` is the chosen refill cell when it differs from the default (G23), else
    ``-1``. A path the player typed is validated by :meth:`GeneratorbEngine.parse_move` and
    then dropped: the outcome depends only on origin, destination and split (D-G19).
    """

    origin: int
    destination: int
    split: bool = False
    capture: bool = False
    merged: int = 0
    refill: int = -1

    @property
    def is_pass(self) -> bool:
        return self.origin < 0

    @property
    def key(self) -> tuple[int, int, bool, int]:
        """What identifies the move (its canonical string): origin, destination, split, refill."""
        return (self.origin, self.destination, self.split, self.refill)


PASS = GeneratorbMove(-1, -1)


@dataclass(frozen=True, slots=True)
class Rules:
    """The options that matter during play (section 5), shared by every state of a game."""

    refill_all: bool
    move_limit: int
    repetition_draw: bool
    options: tuple[tuple[str, OptionValue], ...]


class _Seen(NamedTuple):
    """One link of the repetition history (G28 c): a position since the last irreversible ply.

    Captures and refills change supplies or orb totals, which never come back, so the chain
    restarts after them and a repetition search only walks the reversible stretch.
    """

    key: int
    board: tuple[int, ...]
    turn: int
    prev: _Seen | None


@dataclass(frozen=True, slots=True)
class GeneratorbState:
    """A position plus what play needs: rules, outcome, last move and repetition history."""

    board: tuple[int, ...]
    supply: tuple[int, int]
    turn: int
    ply: int
    passes: int
    rules: Rules
    outcome: Outcome | None = None
    last: LastMove | None = None
    seen: _Seen | None = None


# ---------------------------------------------------------------------------------------------
# Move generation
# ---------------------------------------------------------------------------------------------


def _jump_landings(board: Sequence[int], origin: int, sign: int) -> tuple[list[int], list[int]]:
    """G11–G13: the empty final cells and the occupied final cells of jump sequences.

    The piece has left ``origin`` (a split leaves an orb there, but by G14 parity the origin is
    never jumped over, and it may never be landed on). Returns ``(empty, occupied)`` landing
    cells, each at most once; occupied ones still need the capture/merge test.
    """
    visited = {origin}
    frontier = [origin]
    empty: list[int] = []
    occupied: list[int] = []
    while frontier:
        cell = frontier.pop()
        for over, land in JUMPS[cell]:
            v = board[over]
            # G12: orbs and spheroids of either colour, and own globes, are jumpable.
            if v == 0 or (v * sign == -3) or over == origin:
                continue
            if land in visited:
                continue
            visited.add(land)
            if board[land] == 0:
                empty.append(land)
                frontier.append(land)
            else:
                occupied.append(land)
    return empty, occupied


def _landing(
    board: Sequence[int], sign: int, origin: int, target: int, arriving: int, strength: int
) -> GeneratorbMove | None:
    """The move ending on an occupied ``target`` if G16 (capture) or G17 (merge) allows it."""
    v = board[target] * sign
    if v < 0:  # enemy: G16, globes never captured
        if -v <= strength and -v < 3:
            return GeneratorbMove(origin, target, arriving == 1 and strength == 2, True)
        return None
    made = v + arriving
    if made > 3:
        return None
    if made == 3 and not _globe_may_stand(board, target, origin):
        return None
    return GeneratorbMove(origin, target, arriving == 1 and strength == 2, False, made)


def _piece_moves(board: Sequence[int], cell: int, sign: int) -> list[GeneratorbMove]:
    """Every move of the piece on ``cell`` (G15 orb, G18 spheroid, G19 split, G20 globe)."""
    height = board[cell] * sign
    moves: list[GeneratorbMove] = []
    if height == 3:  # G20 queen slides through empty cells, G21 limits the destination
        for ray in RAYS[cell]:
            for dest in ray:
                if board[dest]:
                    break
                if _globe_may_stand(board, dest, cell):
                    moves.append(GeneratorbMove(cell, dest))
        return moves
    empty, occupied = _jump_landings(board, cell, sign)
    if height == 1:  # G15: jumps only, strength 1
        moves.extend(GeneratorbMove(cell, dest) for dest in empty)
        for dest in occupied:
            m = _landing(board, sign, cell, dest, 1, 1)
            if m is not None:
                moves.append(m)
        return moves
    # G18 (whole spheroid, arriving 2, strength 2) and G19 (split top orb, arriving 1, strength 2)
    for dest in empty:
        moves.append(GeneratorbMove(cell, dest))
        moves.append(GeneratorbMove(cell, dest, True))
    for dest in occupied:
        for arriving in (2, 1):
            m = _landing(board, sign, cell, dest, arriving, 2)
            if m is not None:
                moves.append(m)
    for dest in STEPS[cell]:
        if board[dest] == 0:
            moves.append(GeneratorbMove(cell, dest))
            moves.append(GeneratorbMove(cell, dest, True))
        else:
            for arriving in (2, 1):
                m = _landing(board, sign, cell, dest, arriving, 2)
                if m is not None:
                    moves.append(m)
    return moves


def _empty_generators_after(board: Sequence[int], seat: int, move: GeneratorbMove) -> list[int]:
    """Own generator cells that are empty once ``move`` has been played (before the refill)."""
    out = []
    for cell in GENERATORS[seat]:
        if cell == move.destination:
            continue
        if board[cell] == 0 or (cell == move.origin and not move.split):
            out.append(cell)
    return out


def _default_refill(empty: Sequence[int], move: GeneratorbMove) -> int:
    """G23 steps 2–3: the vacated cell if it is an empty own generator cell, else the first."""
    if not move.split and move.origin in empty:
        return move.origin
    return empty[0]


def _with_refill_choices(
    state: GeneratorbState, seat: int, moves: list[GeneratorbMove]
) -> list[GeneratorbMove]:
    """Add one ``@cell`` form per non-default empty generator cell (section 6, refill=one)."""
    if state.rules.refill_all or state.supply[seat] == 0:
        return moves
    board = state.board
    out = []
    for move in moves:
        out.append(move)
        empty = _empty_generators_after(board, seat, move)
        if len(empty) >= 2:
            default = _default_refill(empty, move)
            out.extend(move._replace(refill=cell) for cell in empty if cell != default)
    return out


def _all_moves(state: GeneratorbState, seat: int) -> list[GeneratorbMove]:
    """G10/G27: every legal move of ``seat`` (``pass`` only when nothing else exists)."""
    board = state.board
    sign = SIGN[seat]
    moves: list[GeneratorbMove] = []
    for cell in range(64):
        if board[cell] * sign > 0:
            moves.extend(_piece_moves(board, cell, sign))
    if not moves:
        moves.append(PASS)
    return _with_refill_choices(state, seat, moves)


# ---------------------------------------------------------------------------------------------
# Playing a move: G16/G17 landing, G23 refill, G24–G28 endings
# ---------------------------------------------------------------------------------------------


def _wins(board: Sequence[int], seat: int) -> str | None:
    """G24/G25/G26: ``"core"`` or ``"front_line"`` if ``seat`` meets a win condition."""
    sign = SIGN[seat]
    if board[CORES[1 - seat]] * sign > 0:
        return "core"
    held = 0
    for cell in FRONT_LINE:
        if board[cell] * sign > 0:
            held += 1
    return "front_line" if held >= 5 else None


def _advance(state: GeneratorbState, seat: int, move: GeneratorbMove) -> GeneratorbState:
    """Play a legal ``move``: landing, refill, counters, then the G28 checks in order."""
    board = list(state.board)
    sign = SIGN[seat]
    supply = list(state.supply)
    irreversible = False
    if not move.is_pass:
        origin, dest = move.origin, move.destination
        height = board[origin] * sign
        if move.split:
            board[origin] = sign
            arriving = 1
        else:
            board[origin] = 0
            arriving = height
        target = board[dest] * sign
        if target < 0:  # G16 capture: the enemy stack leaves the game
            board[dest] = arriving * sign
            irreversible = True
        else:  # empty cell or G17 merge
            board[dest] = (target + arriving) * sign
    refilled = _refill(board, supply, seat, state.rules.refill_all, move)
    if refilled:
        irreversible = True
    ply = state.ply + 1
    passes = state.passes + 1 if move.is_pass and not refilled else 0
    new_board = tuple(board)
    turn = 1 - seat
    outcome: Outcome | None = None
    win = _wins(new_board, seat)
    seen = state.seen
    if win is not None:
        outcome = Outcome.win(win, seat, 2)
    elif passes >= 2:
        outcome = Outcome.draw("no_moves", 2)
    if state.rules.repetition_draw:
        key = hash((new_board, turn))
        seen = _Seen(key, new_board, turn, None if irreversible else seen)
        if outcome is None and _occurrences(seen) >= 3:
            outcome = Outcome.draw("repetition", 2)
    if outcome is None and 0 < state.rules.move_limit <= ply:
        outcome = Outcome.draw("move_limit", 2)
    last = LastMove(
        seat=seat,
        origin=None if move.is_pass else move.origin,
        destination=None if move.is_pass else move.destination,
        split=move.split,
        captured=move.capture,
        merged=move.merged,
        refilled=refilled,
    )
    return GeneratorbState(
        new_board, (supply[0], supply[1]), turn, ply, passes, state.rules, outcome, last, seen
    )


def _refill(
    board: list[int], supply: list[int], seat: int, refill_all: bool, move: GeneratorbMove
) -> tuple[int, ...]:
    """G23: put orbs from the supply on empty own generator cells; returns the cells filled."""
    if supply[seat] == 0:
        return ()
    sign = SIGN[seat]
    if refill_all:
        filled = []
        for cell in REFILL_ALL_ORDER[seat]:
            if supply[seat] == 0:
                break
            if board[cell] == 0:
                board[cell] = sign
                supply[seat] -= 1
                filled.append(cell)
        return tuple(filled)
    empty = [c for c in GENERATORS[seat] if board[c] == 0]
    if not empty:
        return ()
    cell = move.refill if move.refill >= 0 else _default_refill(empty, move)
    board[cell] = sign
    supply[seat] -= 1
    return (cell,)


def _occurrences(seen: _Seen) -> int:
    """How often the newest position of the chain occurs in it (G28 c)."""
    count = 0
    node: _Seen | None = seen
    while node is not None:
        if node.key == seen.key and node.turn == seen.turn and node.board == seen.board:
            count += 1
        node = node.prev
    return count


def jump_route(board: Sequence[int], seat: int, origin: int, dest: int) -> tuple[int, ...]:
    """The intermediate landings of a shortest jump sequence from ``origin`` to ``dest``.

    Breadth-first over empty landings (G13), ties broken by the fixed direction order, so the
    route is a function of the board and the move. Empty when ``dest`` is a step or a single
    jump away, or not reachable by jumping (a step or a globe slide).
    """
    sign = SIGN[seat]
    parent = {origin: -1}
    frontier = [origin]
    for cell in frontier:  # the list grows while it is walked: a FIFO queue
        for over, land in JUMPS[cell]:
            v = board[over]
            if v == 0 or v * sign == -3 or over == origin or land in parent:
                continue
            if land == dest:
                route = []
                while cell != origin:
                    route.append(cell)
                    cell = parent[cell]
                return tuple(reversed(route))
            if board[land] == 0:
                parent[land] = cell
                frontier.append(land)
    return ()


def _events(
    before: GeneratorbState,
    seat: int,
    move: GeneratorbMove,
    after: GeneratorbState,
    route: tuple[int, ...],
) -> tuple[Event, ...]:
    """Public events of one ply, with short English phrases for the chat summary."""
    events: list[Event] = []
    if move.is_pass:
        events.append(Event("passed", seat, "passes (no legal move)"))
    else:
        o, d = NAMES[move.origin], NAMES[move.destination]
        height = abs(before.board[move.origin])
        piece = "the top orb of the spheroid" if move.split else f"the {HEIGHT_NAMES[height]}"
        cells = (o, *(NAMES[c] for c in route), d)
        if move.capture:
            taken = HEIGHT_NAMES[abs(before.board[move.destination])]
            events.append(
                Event("captured", seat, f"{piece} on {o} captures the {taken} on {d}", cells)
            )
        elif move.merged:
            made = HEIGHT_NAMES[move.merged]
            events.append(
                Event("merged", seat, f"{piece} on {o} stacks onto {d}, making a {made}", cells)
            )
        else:
            text = (
                f"the spheroid on {o} splits: its top orb moves to {d}"
                if move.split
                else f"{piece} on {o} moves to {d}"
            )
            events.append(Event("moved", seat, text, cells))
    assert after.last is not None
    if after.last.refilled:
        names = [NAMES[c] for c in after.last.refilled]
        where = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        count = len(after.last.refilled)
        events.append(
            Event(
                "refilled",
                seat,
                f"{'an orb enters' if count == 1 else f'{count} orbs enter'} "
                f"{where} from the supply",
                tuple(NAMES[c] for c in after.last.refilled),
            )
        )
    if after.outcome is not None:
        events.append(Event(ENDED_EVENT, None, _ending_text(after.outcome)))
    return tuple(events)


ENDING_TEXT = {
    "core": "{winner} wins by reaching the enemy core",
    "front_line": "{winner} wins by holding five front-line cells",
    "no_moves": "draw: neither side can move",
    "repetition": "draw: the same position occurred three times",
    "move_limit": "draw: the move limit was reached",
}  # A resignation or an agreed draw ends the game on the bot's record, not in the engine.


def _ending_text(outcome: Outcome) -> str:
    winner = SEAT_NAMES[outcome.winners[0]] if outcome.winners else ""
    template = ENDING_TEXT.get(outcome.termination, outcome.termination)
    return template.format(winner=winner)


# ---------------------------------------------------------------------------------------------
# Notation (section 6)
# ---------------------------------------------------------------------------------------------

WHOLE_FIRST = "-:x+"
SPLIT_FIRST = "~/*#"
LATER = "-:x*+#"
CAPTURE_CLAIMS = "x*"
MERGE_CLAIMS = "+#"


class _Parsed(NamedTuple):
    """A move as typed, checked against the grammar only."""

    seat: int | None
    cells: tuple[int, ...]  # empty for pass
    split: bool
    claim: str  # "", "capture" or "merge"
    height: int  # the =H claim, else 0
    refill: int  # -1 if no @cell


def _cell_at(text: str, i: int) -> int:
    """The cell index written at ``text[i:i+2]``, or -1."""
    if i + 1 < len(text) and "a" <= text[i] <= "h" and "1" <= text[i + 1] <= "8":
        return (ord(text[i]) - 97) * 8 + ord(text[i + 1]) - 49
    return -1


def _parse_text(raw: str, *, suggest: bool = True) -> _Parsed:
    """Section 6 grammar. Raises :class:`NotationError` quoting the input; for cells without
    a separator between them, with the move written out when that reads (``suggest``,
    :func:`_no_separator`)."""
    text = "".join(raw.split()).lower()

    def fail(why: str) -> NotationError:
        return NotationError(f"{raw.strip()!r} is not a Generatorb move: {why}", text=raw)

    i = 0
    seat: int | None = None
    if text.startswith("["):
        close = text.find("]")
        if close < 0 or not ascii_digits(text[1:close], most=MAX_DIGITS):
            raise fail("a seat prefix is written like [0]")
        seat = int(text[1:close])
        i = close + 1
    refill = -1
    at = text.find("@", i)
    body_end = len(text) if at < 0 else at
    if at >= 0:
        refill = _cell_at(text, at + 1)
        if refill < 0 or at + 3 != len(text):
            raise fail("@ must be followed by one cell, e.g. @b1")
    body = text[i:body_end]
    if body == "pass":
        return _Parsed(seat, (), False, "", 0, refill)
    height = 0
    if len(body) >= 2 and body[-2] == "=":
        if body[-1] not in "23":
            raise fail("a merge claim is =2 or =3")
        height = int(body[-1])
        body = body[:-2]
    first = _cell_at(body, 0)
    if first < 0:
        raise fail("it must start with a cell a1–h8 (or be 'pass')")
    cells = [first]
    seps: list[str] = []
    j = 2
    while j < len(body):
        sep = body[j]
        if sep not in WHOLE_FIRST + SPLIT_FIRST:
            raise fail(_no_separator(body, j, raw if suggest else None))
        cell = _cell_at(body, j + 1)
        if cell < 0:
            raise fail("each separator must be followed by a cell a1–h8")
        seps.append(sep)
        cells.append(cell)
        j += 3
    if not seps:
        raise fail("write origin, separator and destination, e.g. a1-a3")
    split = seps[0] in SPLIT_FIRST
    for k, sep in enumerate(seps):
        if k > 0 and sep not in LATER:
            raise fail(f"{sep!r} may only follow the first cell")
        if k > 0 and sep in "*#" and not split:
            raise fail(f"{sep!r} marks a split, but this move is a whole-piece move")
        if k < len(seps) - 1 and sep in CAPTURE_CLAIMS + MERGE_CLAIMS:
            raise fail("a capture or merge mark may only be the last separator")
    last = seps[-1]
    claim = "capture" if last in CAPTURE_CLAIMS else "merge" if last in MERGE_CLAIMS else ""
    if height and claim == "":
        claim = "merge"
    return _Parsed(seat, tuple(cells), split, claim, height, refill)


#: Cells written with nothing, spaces or "to" between them (``e2e4``, ``a1 a3``, ``a1 to a3``).
_GAP = re.compile(r"([a-h][1-8])(?:\s*to\s*|\s*)(?=[a-h][1-8])", re.IGNORECASE)


def _no_separator(body: str, j: int, raw: str | None) -> str:
    """Why ``body[j]`` is no separator, and how to write the move: section 6 removes the
    spaces first, so ``a1 a3`` and ``a1 to a3`` read as ``a1a3`` and ``a1toa3``, cells with no
    separator (a notation error, like the spec's ``e2e4``). The example is the first of these
    that the notation reads: the whole move typed, ``raw``, with a hyphen for each such gap,
    suffixes kept (``a1-a3@b1`` for ``a1 to a3@b1``); what was typed up to the gap, a hyphen
    and the cell after it (``c3-d4`` for ``c3 d4x``); else an example, ``e.g. a1-a3``."""
    after = _cell_at(body, j)
    if after < 0 and body.startswith("to", j):
        after = _cell_at(body, j + 2)
    said = "" if after >= 0 else f"{body[j]!r} is not a separator; "
    candidates = []
    if raw is not None and after >= 0:
        candidates = ["".join(_GAP.sub(r"\1-", raw.strip()).split()).lower()]
        candidates.append(f"{body[:j]}-{NAMES[after]}")
    for written in candidates:
        try:
            _parse_text(written, suggest=False)
        except NotationError:
            continue
        return f"{said}write {written}, with a hyphen between the cells (~ for a split)"
    return f"{said}write the cells with a hyphen between them, e.g. a1-a3 (~ for a split)"


def format_move(move: GeneratorbMove) -> str:
    """The canonical string of a move (section 6 table): ``a1-a3``, ``c3*d4``, ``b2~a1=2@b1``."""
    if move.is_pass:
        text = "pass"
    else:
        if move.capture:
            sep = "*" if move.split else "x"
        else:
            sep = "~" if move.split else "-"
        text = NAMES[move.origin] + sep + NAMES[move.destination]
        if move.merged:
            text += f"={move.merged}"
    if move.refill >= 0:
        text += "@" + NAMES[move.refill]
    return text


# ---------------------------------------------------------------------------------------------
# Position notation (section 7)
# ---------------------------------------------------------------------------------------------


def _pieces_text(board: Sequence[int], seat: int) -> str:
    sign = SIGN[seat]
    parts = []
    for cell in range(64):
        h = board[cell] * sign
        if h > 0:
            parts.append(NAMES[cell] if h == 1 else f"{NAMES[cell]}={h}")
    return ",".join(parts) if parts else "-"


def position_text(state: GeneratorbState) -> str:
    """``S:<pieces> N:<pieces> supply:<s>/<n> turn:<S|N> ply:<n> passes:<0-2>``."""
    return (
        f"S:{_pieces_text(state.board, SOUTH)} N:{_pieces_text(state.board, NORTH)} "
        f"supply:{state.supply[0]}/{state.supply[1]} turn:{SEAT_LETTERS[state.turn]} "
        f"ply:{state.ply} passes:{state.passes}"
    )


def _parse_position(text: str) -> tuple[tuple[int, ...], tuple[int, int], int, int, int]:
    """Parse section 7 notation into (board, supply, turn, ply, passes); UsageError if bad:
    fields separated by single spaces (the line's ends may carry whitespace), an orb written
    as its bare cell and only a spheroid or globe with a height (``=2``, ``=3``)."""
    fields = text.strip().split(" ")
    prefixes = ("s:", "n:", "supply:", "turn:", "ply:", "passes:")
    if len(fields) != 6 or not all(
        f.lower().startswith(p) for f, p in zip(fields, prefixes, strict=True)
    ):
        raise UsageError(
            "malformed position: expected 'S:<pieces> N:<pieces> supply:<s>/<n> turn:<S|N> "
            f"ply:<n> passes:<0-2>', got {quoted(text)}"
        )
    values = [f.split(":", 1)[1].lower() for f in fields]
    board = [0] * 64
    for seat in (SOUTH, NORTH):
        pieces = values[seat]
        if pieces == "-":
            continue
        for item in pieces.split(","):
            name, _, height_text = item.partition("=")
            cell = GRID.index_of.get(name, -1)
            height = 1
            if height_text or "=" in item:
                if height_text not in ("2", "3"):
                    raise UsageError(f"malformed position: bad height in {item!r}")
                height = int(height_text)
            if cell < 0:
                raise UsageError(f"malformed position: {name!r} is not a cell a1–h8")
            if board[cell]:
                raise UsageError(f"malformed position: {name} is listed twice")
            board[cell] = height * SIGN[seat]
    south, slash, north = values[2].partition("/")
    if not (slash and plain_decimal(south, 2) and plain_decimal(north, 2)):
        raise UsageError(
            "malformed position: supply must be <0-99>/<0-99> without leading zeros, "
            f"got {quoted(values[2])}"
        )
    if values[3] not in ("s", "n"):
        raise UsageError(f"malformed position: turn must be S or N, got {values[3]!r}")
    if len(values[4]) > MAX_DIGITS:
        raise UsageError(f"malformed position: ply has more than {MAX_DIGITS} digits")
    if not plain_decimal(values[4]):
        raise UsageError(
            "malformed position: ply must be a number without leading zeros, "
            f"got {quoted(values[4])}"
        )
    if values[5] not in ("0", "1", "2"):
        raise UsageError(f"malformed position: passes must be 0, 1 or 2, got {values[5]!r}")
    turn = SOUTH if values[3] == "s" else NORTH
    return tuple(board), (int(south), int(north)), turn, int(values[4]), int(values[5])


# ---------------------------------------------------------------------------------------------
# Why a move is illegal (only computed when one is rejected)
# ---------------------------------------------------------------------------------------------


def _explain(board: Sequence[int], seat: int, origin: int, dest: int, split: bool) -> str:
    """A one-sentence reason why no legal move goes from ``origin`` to ``dest``."""
    sign = SIGN[seat]
    height = board[origin] * sign
    target = board[dest] * sign
    o, d = NAMES[origin], NAMES[dest]
    ox, oy = GRID.xy(origin)
    dx, dy = GRID.xy(dest)
    adjacent = max(abs(ox - dx), abs(oy - dy)) == 1
    piece = "the top orb" if split else f"the {HEIGHT_NAMES[height]} on {o}"
    if height == 3:
        if target:
            return "a globe only slides to an empty cell; it never captures or merges (G20)"
        if not (ox == dx or oy == dy or abs(ox - dx) == abs(oy - dy)):
            return "a globe slides in a straight line, like a chess queen (G20)"
        if IS_CORE[dest]:
            return "a globe may never end on a core (G21)"
        if not _globe_may_stand(board, dest, origin):
            return f"a globe may not end orthogonally next to another globe at {d} (G21)"
        return f"the way from {o} to {d} is blocked: a globe slides through empty cells (G20)"
    if height == 1 and adjacent:
        return "an orb never steps; it moves only by jumping (G15)"
    if target == 3:
        return "nothing lands on an own globe (G17)"
    if target == -3:
        return "globes are never captured (G16)"
    strength = 2 if split or height == 2 else 1
    arriving = 1 if split else height
    if target < 0 and -target > strength:
        return f"{piece} can only capture orbs (G16)"
    if target > 0 and target + arriving > 3:
        return f"stacks are at most 3 high, and {arriving}+{target} makes {arriving + target} (G17)"
    if target > 0 and target + arriving == 3:
        if IS_CORE[dest]:
            return "a globe may never be made on a core (G21)"
        if not _globe_may_stand(board, dest, origin):
            return f"a globe made on {d} would stand orthogonally next to another globe (G21)"
    if abs(ox - dx) in (0, 2) and abs(oy - dy) in (0, 2):  # one jump away: what is jumped?
        over = board[GRID.index((ox + dx) // 2, (oy + dy) // 2)]
        if over * sign == -3:
            return (
                f"the enemy globe on {NAMES[GRID.index((ox + dx) // 2, (oy + dy) // 2)]} "
                "cannot be jumped (G12)"
            )
    return f"{piece} cannot reach {d}: no step or jump sequence leads there (G11–G13)"


def _check_path(
    board: Sequence[int], seat: int, origin: int, path: Sequence[int], dest: int
) -> str | None:
    """Section 6: every typed hop must be a single jump (G11) over empty landings (G13)."""
    sign = SIGN[seat]
    visited = {origin}
    here = origin
    hops = [*path, dest]
    for k, land in enumerate(hops):
        hx, hy = GRID.xy(here)
        lx, ly = GRID.xy(land)
        ddx, ddy = lx - hx, ly - hy
        if ddx not in (-2, 0, 2) or ddy not in (-2, 0, 2) or (ddx, ddy) == (0, 0):
            return f"{NAMES[here]} to {NAMES[land]} is not a single jump (G11)"
        over = GRID.index(hx + ddx // 2, hy + ddy // 2)
        v = board[over]
        if v == 0 or over == origin:
            return f"there is no piece on {NAMES[over]} to jump over (G11)"
        if v * sign == -3:
            return f"the enemy globe on {NAMES[over]} cannot be jumped (G12)"
        if land in visited:
            return f"the jump sequence lands on {NAMES[land]} twice (G13)"
        if k < len(hops) - 1 and board[land]:
            return f"a jump sequence ends at the first occupied landing, {NAMES[land]} (G13)"
        visited.add(land)
        here = land
    return None


# ---------------------------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------------------------

RULES_SUMMARY = """\
**Generatorb** — two players, South (moves first) and North, on an 8×8 board drawn as a diamond.
Each has 24 orbs: 4 in a corner *generator* (the corner cell is the *core*), a globe of 3 on the \
centre line, the rest in a supply. Stacks are 1 high (**orb**), 2 (**spheroid**) or 3 (**globe**).
• An orb moves only by jumping over an adjacent piece (either colour; never an enemy globe), \
possibly several jumps in a row. It captures an enemy orb by landing on it.
• A spheroid also steps one cell in any of 8 directions, captures orbs and spheroids, and may \
split: its top orb moves alone with the same mobility and strength.
• Landing on your own stack merges (at most 3 high). A globe slides like a chess queen, never \
captures and cannot be captured; no globe may end on a core or orthogonally next to another globe.
• After each turn one orb from your supply refills an empty cell of your generator.
• Win by putting a piece on the enemy core, or by holding 5 of the 8 front-line cells (the long \
middle row). Draws: both players stuck, a position three times, or the ply limit (400)."""

NOTATION_HELP = """\
Cells are a1–h8 (file a–h, rank 1–8; a1 is South's core at the bottom, h8 North's at the top).
• `a1-a3` move a whole piece (step, jump sequence or globe slide); `c1xc5` capture
• `c3~e5` split: the top orb of a spheroid moves; `c3*d4` split capture
• `a3-c5=2`, `c3~e5=3` a merge, with the height it makes
• jump paths may be typed: `c1-c3-c5`
• `a1-a3@b1`, `pass@b1`: the suffix `@b1` picks the empty generator cell the refill goes to \
(without it: the cell you left, else the first empty one)
• `pass` only when you have no move.
Abstract Play (`+ / #`) and Super Duper Games notation are accepted too."""

INFO = GameInfo(
    id="generatorb",
    name="Generatorb",
    min_players=2,
    max_players=2,
    default_players=2,
    options=(
        OptionSpec(
            "preset",
            "choice",
            "none",
            "abstractplay = Abstract Play's rules (supply 20, refill all)",
            choices=("none", "abstractplay"),
        ),
        OptionSpec("start_globes", "bool", True, "start with a globe on d4 and e5"),
        OptionSpec(
            "start_supply",
            "int",
            17,
            "orbs in each supply at the start (default 17 with globes, 20 without)",
            minimum=0,
            maximum=24,
        ),
        OptionSpec(
            "refill",
            "choice",
            "one",
            "one orb per turn, or fill all empty generator cells",
            choices=("one", "all"),
        ),
        OptionSpec(
            "move_limit", "int", 400, "ply cap for a draw (0 = none)", minimum=0, maximum=100000
        ),
        OptionSpec("repetition_draw", "bool", True, "third occurrence of a position draws"),
    ),
    presets=(
        Preset("standard", "Standard", {}, "all defaults"),
        Preset("no_globes", "No globes", {"start_globes": "false"}, "the source's variant"),
        Preset(
            "abstractplay",
            "Abstract Play",
            {"preset": "abstractplay"},
            "supply 20, refill every empty generator cell",
        ),
    ),
    rules_version="1",
    seat_names=SEAT_NAMES,
    rules_summary=RULES_SUMMARY,
    notation_help=NOTATION_HELP,
)


def _rules(options: Mapping[str, OptionValue]) -> Rules:
    return Rules(
        refill_all=options["refill"] == "all",
        move_limit=int(options["move_limit"]),
        repetition_draw=bool(options["repetition_draw"]),
        options=tuple(options.items()),
    )


def _board_code(board: Sequence[int]) -> str:
    return "".join("cba0123"[v + 3] for v in board)


def _board_from_code(code: str) -> tuple[int, ...]:
    return tuple("cba0123".index(ch) - 3 for ch in code)


class GeneratorbEngine(Engine[GeneratorbState, GeneratorbMove]):
    """Generatorb as specified in ``shared/specs/generatorb.md`` (rules version 1)."""

    info = INFO

    # ---- options and setup (sections 3 and 5) -------------------------------------------

    def complete_options(self, given: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
        """Section 5: ``preset=abstractplay`` sets supply 20 and refill all; explicit options win;
        ``start_supply`` defaults to 17 with globes, 20 without."""
        merged: dict[str, OptionValue] = {}
        if given.get("preset") == "abstractplay":
            merged.update(start_supply=20, refill="all")
        merged.update(given)
        if "start_supply" not in merged:
            merged["start_supply"] = 17 if merged.get("start_globes", True) else 20
        return super().complete_options(merged)

    def new_game(
        self, players: int, options: Mapping[str, OptionValue], seed: int = 0
    ) -> GeneratorbState:
        """G8/G9 setup. ``seed`` is ignored: Generatorb has no chance (section 5)."""
        self.check_players(players)
        opts = self.complete_options(options)
        board = [0] * 64
        for seat in (SOUTH, NORTH):
            for cell in GENERATORS[seat]:
                board[cell] = SIGN[seat]
        if opts["start_globes"]:
            board[GRID.index_of["d4"]] = 3
            board[GRID.index_of["e5"]] = -3
        supply = int(opts["start_supply"])
        return self._start(tuple(board), (supply, supply), SOUTH, 0, 0, _rules(opts))

    def _start(
        self,
        board: tuple[int, ...],
        supply: tuple[int, int],
        turn: int,
        ply: int,
        passes: int,
        rules: Rules,
    ) -> GeneratorbState:
        seen = _Seen(hash((board, turn)), board, turn, None) if rules.repetition_draw else None
        return GeneratorbState(board, supply, turn, ply, passes, rules, None, None, seen)

    # ---- the contract ------------------------------------------------------------------

    def to_move(self, state: GeneratorbState) -> tuple[int, ...]:
        """``(0,)`` or ``(1,)``; ``()`` once over (section 8)."""
        return () if state.outcome is not None else (state.turn,)

    def legal_moves(self, state: GeneratorbState, seat: int) -> list[GeneratorbMove]:
        """Every legal move of ``seat``: G11–G22, with ``@cell`` variants (section 6)."""
        if state.outcome is not None or seat != state.turn:
            return []
        return _all_moves(state, seat)

    def parse_move(self, state: GeneratorbState, seat: int, text: str) -> GeneratorbMove:
        """Section 6 notation -> a legal move of ``seat``.

        Raises :class:`GameOverError`, :class:`NotationError`, :class:`NotYourTurnError` or
        :class:`IllegalMoveError` (with the rule that forbids it), in that order of checking.
        ``ambiguous`` never occurs (origin, destination and split determine the move).
        """
        if state.outcome is not None:
            raise GameOverError("the game is over", text=text)
        parsed = _parse_text(text)
        if (parsed.seat is not None and parsed.seat != seat) or seat != state.turn:
            raise NotYourTurnError(f"it is {SEAT_NAMES[state.turn]}'s turn", text=text)
        board = state.board
        sign = SIGN[seat]

        def illegal(why: str) -> IllegalMoveError:
            return IllegalMoveError(why, text=text)

        if not parsed.cells:
            if any(board[c] * sign > 0 and _piece_moves(board, c, sign) for c in range(64)):
                raise illegal("you may pass only when you have no legal move (G27)")
            move = PASS
        else:
            origin, dest = parsed.cells[0], parsed.cells[-1]
            path = parsed.cells[1:-1]
            height = board[origin] * sign
            if height <= 0:
                raise illegal(f"there is no {SEAT_NAMES[seat]} piece on {NAMES[origin]}")
            if origin == dest:
                raise illegal("a move must end on another cell (G22)")
            if parsed.split and height != 2:
                raise illegal(
                    f"only a spheroid can split; {NAMES[origin]} holds "
                    f"a{'n' if height == 1 else ''} {HEIGHT_NAMES[height]} (G19)"
                )
            if path:
                if height == 3:
                    raise illegal("a globe slides; it never jumps (G20)")
                problem = _check_path(board, seat, origin, path, dest)
                if problem:
                    raise illegal(problem)
            found = [
                m
                for m in _piece_moves(board, origin, sign)
                if m.destination == dest and m.split == parsed.split
            ]
            if not found:
                raise illegal(_explain(board, seat, origin, dest, parsed.split))
            move = found[0]
            if parsed.claim == "capture" and not move.capture:
                raise illegal(
                    f"{text.strip()} marks a capture, but nothing is captured on {NAMES[dest]}"
                )
            if parsed.claim == "merge" and not move.merged:
                raise illegal(
                    f"{text.strip()} marks a merge, but nothing is merged on {NAMES[dest]}"
                )
            if parsed.height and not move.merged:
                raise illegal(
                    f"{text.strip()} marks a merge of height {parsed.height}, "
                    f"but nothing is merged on {NAMES[dest]}"
                )
            if parsed.height and parsed.height != move.merged:
                raise illegal(f"this merge makes height {move.merged}, not {parsed.height}")
        if parsed.refill >= 0:
            move = move._replace(refill=self._refill_choice(state, seat, move, parsed.refill))
        return move

    def _refill_choice(
        self, state: GeneratorbState, seat: int, move: GeneratorbMove, cell: int
    ) -> int:
        """G23 step 1: validate an ``@cell``; returns -1 when it names the default cell."""
        if state.rules.refill_all:
            raise IllegalMoveError("a refill cell cannot be chosen under refill=all (G23)")
        if state.supply[seat] == 0:
            raise IllegalMoveError("your supply is empty, so nothing is refilled (G23)")
        empty = _empty_generators_after(state.board, seat, move)
        if cell not in empty:
            raise IllegalMoveError(
                f"{NAMES[cell]} is not an empty cell of your generator after this move (G23)"
            )
        return -1 if cell == _default_refill(empty, move) else cell

    def format_move(self, state: GeneratorbState, move: GeneratorbMove) -> str:
        """Section 6 canonical form."""
        return format_move(move)

    def apply(
        self, state: GeneratorbState, seat: int, move: GeneratorbMove
    ) -> Transition[GeneratorbState]:
        """G10: move, refill (G23), win check (G24–G26), draws (G28); returns events too.

        Also records the jump route of the move in ``last.path`` for the highlight
        (:func:`jump_route`); :meth:`child` skips that and the events.
        """
        after = _advance(state, seat, move)
        route: tuple[int, ...] = ()
        if not move.is_pass and abs(state.board[move.origin]) < 3:
            route = jump_route(state.board, seat, move.origin, move.destination)
            if route and after.last is not None:
                after = replace(after, last=replace(after.last, path=route))
        return Transition(after, _events(state, seat, move, after, route))

    def child(self, state: GeneratorbState, seat: int, move: GeneratorbMove) -> GeneratorbState:
        """:meth:`apply` without events or the highlight route: the fast path for search and
        playouts. Positions and outcomes are the same as :meth:`apply`'s."""
        return _advance(state, seat, move)

    def outcome(self, state: GeneratorbState) -> Outcome | None:
        return state.outcome

    def view(self, state: GeneratorbState, viewer: int | None) -> GeneratorbView:
        """Everything is public (section 10); ``viewer`` is recorded for orientation only."""
        return GeneratorbView(
            board=state.board,
            supply=state.supply,
            to_move=None if state.outcome is not None else state.turn,
            ply=state.ply,
            passes=state.passes,
            outcome=state.outcome,
            last=state.last,
            viewer=viewer,
        )

    # ---- notation and storage ------------------------------------------------------------

    def position(self, state: GeneratorbState) -> str:
        return position_text(state)

    def from_position(self, text: str, options: Mapping[str, OptionValue]) -> GeneratorbState:
        """Section 7. Raises :class:`UsageError` if malformed, including a position where the
        side to move already meets a win condition (D-G25)."""
        board, supply, turn, ply, passes = _parse_position(text)
        rules = _rules(self.complete_options(options))
        if _wins(board, turn) is not None:
            raise UsageError(
                "malformed position: the side to move already meets a win condition (D-G25)"
            )
        state = self._start(board, supply, turn, ply, passes, rules)
        win = _wins(board, 1 - turn)
        outcome: Outcome | None = None
        if win is not None:
            outcome = Outcome.win(win, 1 - turn, 2)
        elif passes >= 2:
            outcome = Outcome.draw("no_moves", 2)
        elif 0 < rules.move_limit <= ply:
            outcome = Outcome.draw("move_limit", 2)
        if outcome is not None:
            state = GeneratorbState(
                board, supply, turn, ply, passes, rules, outcome, None, state.seen
            )
        return state

    def dump_state(self, state: GeneratorbState) -> dict[str, Any]:
        """Position, options, outcome, last move and the repetition chain (oldest first)."""
        chain = []
        node = state.seen
        while node is not None:
            chain.append([_board_code(node.board), node.turn])
            node = node.prev
        chain.reverse()
        last = state.last
        return {
            "position": position_text(state),
            "options": dict(state.rules.options),
            "outcome": None if state.outcome is None else state.outcome.to_json(),
            "last": None
            if last is None
            else {
                "seat": last.seat,
                "origin": last.origin,
                "destination": last.destination,
                "split": last.split,
                "path": list(last.path),
                "captured": last.captured,
                "merged": last.merged,
                "refilled": list(last.refilled),
            },
            "seen": chain,
        }

    def load_state(self, data: Mapping[str, Any]) -> GeneratorbState:
        """Inverse of :meth:`dump_state`."""
        board, supply, turn, ply, passes = _parse_position(str(data["position"]))
        rules = _rules(self.complete_options(data["options"]))
        seen: _Seen | None = None
        for code, seen_turn in data.get("seen", []):
            seen_board = _board_from_code(code)
            seen = _Seen(hash((seen_board, seen_turn)), seen_board, int(seen_turn), seen)
        raw_last = data.get("last")
        last = None
        if raw_last is not None:
            last = LastMove(
                seat=int(raw_last["seat"]),
                origin=raw_last["origin"],
                destination=raw_last["destination"],
                split=bool(raw_last["split"]),
                path=tuple(raw_last["path"]),
                captured=bool(raw_last["captured"]),
                merged=int(raw_last["merged"]),
                refilled=tuple(raw_last["refilled"]),
            )
        raw_outcome = data.get("outcome")
        outcome = None if raw_outcome is None else Outcome.from_json(raw_outcome)
        return GeneratorbState(board, supply, turn, ply, passes, rules, outcome, last, seen)
