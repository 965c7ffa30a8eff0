"""Arbos: spores, seeds and trees on a 20×20 board (spec arbos).

Rule ids ``A1`` … ``A23`` and decisions ``D-A1`` … ``D-A21`` refer to
``shared/specs/arbos.md``. Seat 0 is White (acts first), seat 1 is Black.

Cells are numbered ``0 … 399`` in reading order (D-A1): ``row * 20 + column`` with row 0 =
``A`` at the top and column 0 = ``1`` at the left, so ``A1`` is 0, ``A20`` is 19 and ``T20``
is 399. A board is a tuple of 400 ints: :data:`EMPTY`, :data:`WHITE` (a White spore),
:data:`BLACK` (a Black spore) or :data:`SEED`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations
from typing import Any, NamedTuple

from engines.base import (
    CHANCE,
    ENDED_EVENT,
    SEAT_DIGITS,
    ChanceOutcome,
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
    plain_decimal,
    quoted,
)
from engines.rng import Rng

__all__ = [
    "BLACK",
    "EMPTY",
    "SEED",
    "SIZE",
    "WHITE",
    "ArbosAction",
    "ArbosEngine",
    "ArbosMove",
    "ArbosState",
    "ArbosView",
    "auto_prune",
    "cell_name",
    "random_spore",
]

SIZE = 20
ROWS = "ABCDEFGHIJKLMNOPQRST"
EMPTY, WHITE, BLACK, SEED = 0, 1, 2, 3
SEAT_NAMES = ("White", "Black")


def cell_name(cell: int) -> str:
    """``K10`` for cell 209: row letter then column number (A2, D-A1)."""
    row, column = divmod(cell, SIZE)
    return f"{ROWS[row]}{column + 1}"


@dataclass(frozen=True, slots=True)
class ArbosAction:
    """One recorded action, for the picture's highlight and the turn summary.

    ``kind`` is ``"setup"`` (a setup seed, drawn or chosen), ``"spore"``, ``"seed"``,
    ``"replace"``, ``"double"``, ``"pass"`` or ``"prune"``. ``placed`` are the cells that
    received a token; ``removed`` the cells a prune emptied; ``replaced`` the colour
    (:data:`WHITE`/:data:`BLACK`) of the spore a replace sent back, else ``None``.
    ``seat`` is ``None`` for a drawn (random) setup seed.
    """

    seat: int | None
    kind: str
    placed: tuple[int, ...] = ()
    removed: tuple[int, ...] = ()
    replaced: int | None = None


@dataclass(frozen=True, slots=True)
class ArbosView:
    """Everything a renderer or presenter needs; Arbos has no hidden information (section 10).

    ``board`` is 400 ints in reading order. ``phase`` is ``"setup"``, ``"opening"`` or
    ``"play"``. ``to_move`` is the seat to act or to place a manual setup seed (``None`` during
    a random setup draw and once over). ``setup_left``, ``hands`` and ``supply`` are
    ``(White, Black)`` counts. ``trees[seat]`` lists that seat's trees (A4), each a sorted tuple
    of cells, ordered by first cell. ``scores`` are the live A20 scores; ``best_pair[seat]``
    the indices into ``trees[seat]`` of the pair that scores (0, 1 or 2 of them) and
    ``linked_seeds[seat]`` the seed cells linked to it. ``last`` holds the actions of the most
    recent turn (a prune and the action that followed it, or one action).
    """

    board: tuple[int, ...]
    phase: str
    to_move: int | None
    setup_left: tuple[int, int]
    hands: tuple[int, int]
    supply: tuple[int, int]
    passes: int
    prune: int
    trees: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    scores: tuple[int, int]
    best_pair: tuple[tuple[int, ...], tuple[int, ...]]
    linked_seeds: tuple[tuple[int, ...], tuple[int, ...]]
    outcome: Outcome | None
    last: tuple[ArbosAction, ...]
    viewer: int | None


# ---------------------------------------------------------------------------------------------
# Precomputed neighbourhoods (A3)
# ---------------------------------------------------------------------------------------------

CELLS = range(SIZE * SIZE)
_CELL_RE = re.compile(r"([a-t])(1[0-9]|20|[1-9])")
#: The first words of Arbos moves that take cells (spec arbos section 6), completed by
#: :meth:`ArbosEngine.suggest_moves`.
_ACTION_WORDS = frozenset({"seed", "replace", "double", "prune", "spore"})
_NAMES: tuple[str, ...] = tuple(cell_name(c) for c in CELLS)
_INDEX: dict[str, int] = {name.lower(): c for c, name in enumerate(_NAMES)}


def _around(cell: int, reach: int, *, sides_only: bool = False) -> tuple[int, ...]:
    row, column = divmod(cell, SIZE)
    found = []
    for dr in range(-reach, reach + 1):
        for dc in range(-reach, reach + 1):
            if (dr, dc) == (0, 0) or (sides_only and dr and dc):
                continue
            r, c = row + dr, column + dc
            if 0 <= r < SIZE and 0 <= c < SIZE:
                found.append(r * SIZE + c)
    return tuple(found)


#: NEIGHBOURS[c]: the up to 8 cells sharing a side or a corner with c (A3).
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_around(c, 1) for c in CELLS)
#: SIDES[c]: the up to 4 cells sharing a side with c.
SIDES: tuple[tuple[int, ...], ...] = tuple(_around(c, 1, sides_only=True) for c in CELLS)
#: TOO_CLOSE[c]: cells at Chebyshev distance 1 or 2 (the 5×5 square of A7, D-A3).
TOO_CLOSE: tuple[tuple[int, ...], ...] = tuple(_around(c, 2) for c in CELLS)


def _touching(a: int, b: int) -> bool:
    """True when a and b are different neighbours (Chebyshev distance 1)."""
    ra, ca = divmod(a, SIZE)
    rb, cb = divmod(b, SIZE)
    return a != b and abs(ra - rb) <= 1 and abs(ca - cb) <= 1


# ---------------------------------------------------------------------------------------------
# Trees (A4): labelled by a flood fill over the 8-neighbourhood
# ---------------------------------------------------------------------------------------------


class Trees(NamedTuple):
    """One colour's trees on a board: ``label[c]`` is the tree of cell c (``-1`` if c holds no
    spore of that colour) and ``cells[t]`` the sorted cells of tree t; trees are numbered in
    reading order of their first cell."""

    label: list[int]
    cells: list[list[int]]

    @property
    def total(self) -> int:
        return len(self.cells)


def trees_of(board: Sequence[int], colour: int) -> Trees:
    """The trees (A4) of ``colour`` (:data:`WHITE` or :data:`BLACK`) on ``board``.

    For a board given as a tuple (a state's), the answer is remembered for the latest 256
    boards and colours: one move's checks (the prune due, A19's end check) and a search's
    evaluation ask for the same board's trees several times. The result is shared, so it
    must not be changed.
    """
    if isinstance(board, tuple):
        return _remembered_trees(board, colour)
    return _flood_trees(board, colour)


@lru_cache(maxsize=256)
def _remembered_trees(board: tuple[int, ...], colour: int) -> Trees:
    return _flood_trees(board, colour)


def _flood_trees(board: Sequence[int], colour: int) -> Trees:
    """:func:`trees_of` without the memory: a flood fill over the 8-neighbourhood."""
    label = [-1] * (SIZE * SIZE)
    cells: list[list[int]] = []
    for start in CELLS:
        if board[start] != colour or label[start] >= 0:
            continue
        tree = len(cells)
        label[start] = tree
        members = [start]
        stack = [start]
        while stack:
            for n in NEIGHBOURS[stack.pop()]:
                if board[n] == colour and label[n] < 0:
                    label[n] = tree
                    members.append(n)
                    stack.append(n)
        members.sort()
        cells.append(members)
    return Trees(label, cells)


def _adjacent_trees(trees: Trees, cell: int) -> int:
    """Bit mask of the trees with a spore next to ``cell``."""
    mask = 0
    label = trees.label
    for n in NEIGHBOURS[cell]:
        if label[n] >= 0:
            mask |= 1 << label[n]
    return mask


def _pieces_without(board: Sequence[int], cell: int) -> int:
    """How many trees the tree of ``cell`` falls into if the spore on ``cell`` leaves (0–8).

    A quick local test settles most cases: when the spore's same-colour neighbours touch one
    another in one chain around it, the tree stays whole. Otherwise a flood fill decides.
    """
    colour = board[cell]
    around = [n for n in NEIGHBOURS[cell] if board[n] == colour]
    if len(around) <= 1:
        return len(around)
    # Chains among the neighbours themselves.
    chain = {around[0]}
    grown = True
    while grown:
        grown = False
        for n in around:
            if n not in chain and any(_touching(n, m) for m in chain):
                chain.add(n)
                grown = True
    if len(chain) == len(around):
        return 1
    seen = {cell}
    pieces = 0
    for start in around:
        if start in seen:
            continue
        pieces += 1
        seen.add(start)
        stack = [start]
        while stack:
            for n in NEIGHBOURS[stack.pop()]:
                if board[n] == colour and n not in seen:
                    seen.add(n)
                    stack.append(n)
    return pieces


def score_of(board: Sequence[int], trees: Trees) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """A20: ``(score, best pair of tree numbers, linked seed cells of that pair)``.

    The pair is the first best one in tree order; a single tree scores alone; no tree scores
    0 with an empty pair.
    """
    linked = [
        frozenset(n for c in tree for n in NEIGHBOURS[c] if board[n] == SEED)
        for tree in trees.cells
    ]
    if not linked:
        return 0, (), ()
    if len(linked) == 1:
        return len(linked[0]), (0,), tuple(sorted(linked[0]))
    best, best_seeds = (0, 1), linked[0] | linked[1]
    for a, b in combinations(range(len(linked)), 2):
        seeds = linked[a] | linked[b]
        if len(seeds) > len(best_seeds):
            best, best_seeds = (a, b), seeds
    return len(best_seeds), best, tuple(sorted(best_seeds))


# ---------------------------------------------------------------------------------------------
# Moves and state
# ---------------------------------------------------------------------------------------------


class ArbosMove(NamedTuple):
    """A move in canonical form: ``kind`` is ``setup`` (a manual setup seed), ``spore``,
    ``seed``, ``replace``, ``double``, ``pass`` or ``prune``; ``cells`` in canonical order
    (a double's cells in reading order; a prune's trees as their first cells, sorted)."""

    kind: str
    cells: tuple[int, ...] = ()


PASS = ArbosMove("pass")


class ArbosState(NamedTuple):
    """An Arbos position plus what the position string does not hold.

    ``board`` is 400 ints (module docstring); ``phase`` ``setup``/``opening``/``play``;
    ``turn`` the seat to act or to place next; ``setup_left``, ``hands``, ``supply`` are
    ``(White, Black)``; ``prune`` the trees the seat to move must prune now (A17). ``mode`` is
    the ``setup_mode`` option; ``seed``/``counter`` the generator of random setup draws
    (engines/rng.py). ``ending`` is ``passes`` or ``no_moves`` once over. ``last`` holds the
    actions of the latest turn (for highlights).
    """

    board: tuple[int, ...]
    phase: str
    turn: int
    setup_left: tuple[int, int]
    hands: tuple[int, int]
    supply: tuple[int, int]
    passes: int
    prune: int
    mode: str
    seed: int
    counter: int
    ending: str | None
    last: tuple[ArbosAction, ...]


def _colour(seat: int) -> int:
    return WHITE if seat == 0 else BLACK


def _setup_cells(board: Sequence[int]) -> list[int]:
    """Free cells where a setup seed may go (A7 spacing, D-A3)."""
    return [c for c in CELLS if board[c] == EMPTY and all(board[n] != SEED for n in TOO_CLOSE[c])]


def _qualifies(board: Sequence[int], cell: int, opponent: int) -> bool:
    """A11 or A12 for a free ``cell``: next to a seed, or no opponent spore on a side."""
    if any(board[n] == SEED for n in NEIGHBOURS[cell]):
        return True
    return all(board[n] != opponent for n in SIDES[cell])


def _spore_cells(board: Sequence[int], seat: int) -> list[int]:
    """Free cells where ``seat`` may put a spore under A11/A12, before the A17 check."""
    opponent = _colour(1 - seat)
    return [c for c in CELLS if board[c] == EMPTY and _qualifies(board, c, opponent)]


def _trees_after_spore(trees: Trees, cell: int) -> int:
    return trees.total + 1 - _adjacent_trees(trees, cell).bit_count()


def _trees_after_pair(trees: Trees, a: int, ma: int, b: int, mb: int) -> int:
    """Tree count after own spores on a and b (masks ma/mb of the trees next to each)."""
    joined = 1 if (ma & mb or _touching(a, b)) else 0
    return trees.total + 2 - (ma | mb).bit_count() - joined


def random_spore(
    state: ArbosState, seat: int, draw: Callable[[], float], tries: int = 32
) -> ArbosMove | None:
    """A legal spore move of ``seat`` (A11/A12, within A17's three trees), on a cell drawn
    uniformly among the cells where one is legal, or ``None``.

    Rejection sampling: up to ``tries`` cells are drawn uniformly from the board (``draw()``
    returns a float in [0, 1), e.g. ``random.Random.random``) and the first legal one is
    returned. ``None`` when no draw hit a legal cell, or when the turn is not a plain turn of
    ``seat`` with spores in supply (setup, a due prune, the game over, another seat to move):
    the caller then lists the legal moves (:meth:`ArbosEngine.legal_moves`). For playouts: a
    draw checks a few cells where listing the legal moves checks all 400.
    """
    if (
        state.ending is not None
        or state.phase == "setup"
        or state.prune
        or state.turn != seat
        or state.supply[seat] < 1
    ):
        return None
    board = state.board
    opponent = _colour(1 - seat)
    trees: Trees | None = None
    cells = len(board)
    for _ in range(tries):
        cell = int(draw() * cells)
        if board[cell] != EMPTY or not _qualifies(board, cell, opponent):
            continue
        if trees is None:
            trees = trees_of(board, _colour(seat))
        if _trees_after_spore(trees, cell) <= 3:
            return ArbosMove("spore", (cell,))
    return None


def _replace_ok(board: Sequence[int], trees: Trees, seat: int, cell: int) -> bool:
    """A14 + A17: replacing an own spore may not leave the mover with 4 trees."""
    if board[cell] != _colour(seat):
        return board[cell] in (WHITE, BLACK)
    return trees.total - 1 + _pieces_without(board, cell) <= 3


def _has_action(state: ArbosState, seat: int) -> bool:
    """Whether ``seat`` has a legal action A11–A15 now (A19 b), prunes aside."""
    board = state.board
    colour = _colour(seat)
    opening = state.phase == "opening" and seat == 0
    if state.supply[seat] >= 1:
        trees = trees_of(board, colour)
        opponent = _colour(1 - seat)
        # With three trees or more, a spore that touches none of them would add a tree
        # (A17), so only the cells around the seat's own spores can hold a legal one: look
        # only there, not through all 400 cells.
        candidates: Iterable[int] = CELLS
        if trees.total >= 3:
            candidates = (n for tree in trees.cells for c in tree for n in NEIGHBOURS[c])
        for c in candidates:
            if (
                board[c] == EMPTY
                and _qualifies(board, c, opponent)
                and _trees_after_spore(trees, c) <= 3
            ):
                return True
    if opening or state.hands[seat] < 1:
        # A double needs a legal single spore cell too (each cell must qualify on its own,
        # and a pair never leaves fewer trees than its better single placement).
        return False
    if EMPTY in board:
        return True
    trees = trees_of(board, colour)
    return any(_replace_ok(board, trees, seat, c) for c in CELLS if board[c] in (WHITE, BLACK))


def _after_turn(state: ArbosState, seat: int) -> ArbosState:
    """A19 after an action or pass: phase, turn, the next player's due prune, the end checks."""
    board = state.board
    following = 1 - seat
    prune = max(0, trees_of(board, _colour(following)).total - 3)
    phase = "play" if state.phase == "opening" else state.phase
    state = state._replace(phase=phase, turn=following, prune=prune)
    return _check_end(state)


def _check_end(state: ArbosState) -> ArbosState:
    """A19: two passes end the game; so does a turn start (after any due prune) at which
    neither player has a legal action."""
    if state.phase == "setup":
        return state
    if state.passes >= 2:
        return state._replace(ending="passes")
    if state.prune == 0 and not (
        _has_action(state, state.turn) or _has_action(state, 1 - state.turn)
    ):
        return state._replace(ending="no_moves")
    return state


def _after_setup_placement(state: ArbosState) -> ArbosState:
    """Section 8: alternate placers; the early end (A9) and the end of setup."""
    white, black = state.setup_left
    if white == 0 and black == 0:
        return _end_setup(state)
    state = state._replace(turn=0 if white == black else 1)
    if not _setup_cells(state.board):
        return _end_setup(state)
    return state


def _end_setup(state: ArbosState) -> ArbosState:
    """Setup is over: unplaced seeds go to their owners' hands; White opens (A9, A16)."""
    hands = (state.hands[0] + state.setup_left[0], state.hands[1] + state.setup_left[1])
    state = state._replace(phase="opening", turn=0, setup_left=(0, 0), hands=hands)
    return _check_end(state)


def _apply_move(state: ArbosState, seat: int, move: ArbosMove) -> tuple[ArbosState, ArbosAction]:
    board = list(state.board)
    hands = list(state.hands)
    supply = list(state.supply)
    colour = _colour(seat)
    kind, cells = move
    if kind == "setup":
        board[cells[0]] = SEED
        left = list(state.setup_left)
        left[seat] -= 1
        action = ArbosAction(seat, "setup", cells)
        placed = state._replace(board=tuple(board), setup_left=(left[0], left[1]), last=(action,))
        return _after_setup_placement(placed), action
    if kind == "prune":
        trees = trees_of(board, colour)
        removed = sorted(c for first in cells for c in trees.cells[trees.label[first]])
        for c in removed:
            board[c] = EMPTY
        supply[seat] += len(removed)
        action = ArbosAction(seat, "prune", removed=tuple(removed))
        pruned = state._replace(
            board=tuple(board), supply=(supply[0], supply[1]), prune=0, last=(action,)
        )
        return _check_end(pruned), action
    replaced = None
    if kind == "spore":
        board[cells[0]] = colour
        supply[seat] -= 1
    elif kind == "seed":
        board[cells[0]] = SEED
        hands[seat] -= 1
    elif kind == "replace":
        replaced = board[cells[0]]
        supply[0 if replaced == WHITE else 1] += 1
        board[cells[0]] = SEED
        hands[seat] -= 1
    elif kind == "double":
        for c in cells:
            board[c] = colour
        hands[seat] -= 1
        supply[seat] -= 2
    action = ArbosAction(seat, kind, () if kind == "pass" else cells, replaced=replaced)
    earlier = state.last if state.last and state.last[-1].kind == "prune" else ()
    acted = state._replace(
        board=tuple(board),
        hands=(hands[0], hands[1]),
        supply=(supply[0], supply[1]),
        passes=state.passes + 1 if kind == "pass" else 0,
        last=(*earlier, action),
    )
    return _after_turn(acted, seat), action


def _legal_moves(state: ArbosState, seat: int, *, doubles: bool = True) -> list[ArbosMove]:
    board = state.board
    if state.phase == "setup":
        return [ArbosMove("setup", (c,)) for c in _setup_cells(board)]
    colour = _colour(seat)
    trees = trees_of(board, colour)
    if state.prune:
        firsts = [tree[0] for tree in trees.cells]
        return [ArbosMove("prune", combo) for combo in combinations(firsts, state.prune)]
    moves: list[ArbosMove] = []
    opening = state.phase == "opening"
    hand, supply = state.hands[seat], state.supply[seat]
    spore_cells = _spore_cells(board, seat) if supply >= 1 else []
    moves.extend(ArbosMove("spore", (c,)) for c in spore_cells if _trees_after_spore(trees, c) <= 3)
    if doubles and hand >= 1 and supply >= 2:
        masks = [(c, _adjacent_trees(trees, c)) for c in spore_cells]
        if trees.total <= 1:
            moves.extend(ArbosMove("double", (a, b)) for (a, _), (b, _) in combinations(masks, 2))
        else:
            moves.extend(
                ArbosMove("double", (a, b))
                for (a, ma), (b, mb) in combinations(masks, 2)
                if _trees_after_pair(trees, a, ma, b, mb) <= 3
            )
    if not opening:
        if hand >= 1:
            moves.extend(ArbosMove("seed", (c,)) for c in CELLS if board[c] == EMPTY)
            moves.extend(
                ArbosMove("replace", (c,))
                for c in CELLS
                if board[c] in (WHITE, BLACK) and _replace_ok(board, trees, seat, c)
            )
        moves.append(PASS)
    return moves


# ---------------------------------------------------------------------------------------------
# Notation (section 6)
# ---------------------------------------------------------------------------------------------

_PREFIX = re.compile(rf"\s*\[({SEAT_DIGITS})\]\s*")
_WORDS = {"spore": 1, "seed": 1, "replace": 1, "double": 2, "pass": 0, "prune": -1}


class _Parsed(NamedTuple):
    seat: int | None
    word: str  # "cell" for a bare cell, "chance" for setup:CELL, else the action word
    cells: tuple[int, ...]


def _cell(word: str, text: str) -> int:
    if _CELL_RE.fullmatch(word) is None:
        raise NotationError(f"{word.upper()!r} is not a cell; cells run from A1 to T20", text=text)
    return _INDEX[word]


def _parse_text(text: str) -> _Parsed:
    """Section 6 input -> its words, without looking at the position. Raises NotationError."""
    rest = text
    seat = None
    prefix = _PREFIX.match(rest)
    if prefix:
        seat = int(prefix.group(1))
        rest = rest[prefix.end() :]
    typed = [w for w in re.split(r"[\s,]+", rest.strip()) if w]
    words = [w.lower() for w in typed]
    if not words:
        raise NotationError("an empty move; type a cell such as `K10`, or `pass`", text=text)
    first = words[0]
    if first.startswith("setup:"):
        if seat is not None:
            raise NotationError("a setup draw takes no seat prefix", text=text)
        if len(words) != 1:
            raise NotationError("`setup:CELL` is one word", text=text)
        return _Parsed(None, "chance", (_cell(first[6:], text),))
    if first not in _WORDS:
        if re.fullmatch(r"[a-z]\d+", first):
            if len(words) != 1:
                raise NotationError("a spore goes on one cell, e.g. `K10`", text=text)
            return _Parsed(seat, "cell", (_cell(first, text),))
        known = ", ".join(_WORDS)
        raise NotationError(
            f"unknown word {typed[0]!r}; a move is a cell such as `K10` or starts with {known}",
            text=text,
        )
    expected = _WORDS[first]
    if expected >= 0 and len(words) - 1 != expected:
        # Counted before the cells are read: `pass pass` is a pass with a word too many,
        # not a cell named 'PASS'.
        need = {0: "no cell", 1: "one cell", 2: "two cells"}[expected]
        raise NotationError(f"`{first}` takes {need}", text=text)
    cells = tuple(_cell(w, text) for w in words[1:])
    if expected < 0 and not cells:
        raise NotationError("`prune` names one cell of each tree to remove", text=text)
    return _Parsed(seat, first, cells)


def _setup_cell(text: str) -> int:
    """The cell of chance token ``text`` (section 6: ``setup:K5``, any case and separators).
    Raises :class:`NotationError` for anything that is not a setup draw."""
    parsed = _parse_text(text)
    if parsed.word != "chance":
        raise NotationError("a random setup draw is written `setup:CELL`", text=text)
    return parsed.cells[0]


def _setup_token(cell: int) -> str:
    """The chance token of a random setup placement on ``cell`` (section 6: ``setup:K5``)."""
    return f"setup:{_NAMES[cell]}"


def format_move(move: ArbosMove) -> str:
    """The canonical text of ``move`` (section 6): ``K5``, ``seed K5``, ``double E5 F9``…"""
    names = " ".join(_NAMES[c] for c in move.cells)
    if move.kind == "spore":
        return names
    if move.kind == "setup":
        return f"seed {names}"
    if move.kind == "pass":
        return "pass"
    return f"{move.kind} {names}"


# ---------------------------------------------------------------------------------------------
# Position notation (section 7)
# ---------------------------------------------------------------------------------------------

_LETTERS = {EMPTY: "", WHITE: "w", BLACK: "b", SEED: "g"}
_CODES = {"w": WHITE, "b": BLACK, "g": SEED}
_FIELDS = ("phase", "turn", "setup", "hands", "supply", "passes", "prune")


def position_text(state: ArbosState) -> str:
    """The canonical position string of ``state`` (section 7)."""
    rows = []
    for r in range(SIZE):
        out, run = [], 0
        for cell in state.board[r * SIZE : (r + 1) * SIZE]:
            if cell == EMPTY:
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            out.append(_LETTERS[cell])
        if run:
            out.append(str(run))
        rows.append("".join(out))
    w, b = "W", "B"
    return (
        f"{'/'.join(rows)} phase:{state.phase} turn:{(w, b)[state.turn]}"
        f" setup:{state.setup_left[0]}/{state.setup_left[1]}"
        f" hands:{state.hands[0]}/{state.hands[1]}"
        f" supply:{state.supply[0]}/{state.supply[1]}"
        f" passes:{state.passes} prune:{state.prune}"
    )


def _malformed(why: str) -> UsageError:
    return UsageError(f"malformed Arbos position: {why}")


def _parse_board(text: str) -> tuple[int, ...]:
    rows = text.split("/")
    if len(rows) != SIZE:
        raise _malformed(f"the board has {len(rows)} rows, not 20")
    board: list[int] = []
    for r, row in enumerate(rows):
        cells: list[int] = []
        for token in re.findall(r"\d+|.", row, re.DOTALL):  # a newline is a bad character too
            if token in _CODES:
                cells.append(_CODES[token])
            elif plain_decimal(token) and 1 <= int(token) <= SIZE:
                cells.extend([EMPTY] * int(token))
            else:
                raise _malformed(f"row {ROWS[r]} has a bad character or run {quoted(token)}")
        if len(cells) != SIZE:
            raise _malformed(f"row {ROWS[r]} has {len(cells)} cells, not 20")
        board.extend(cells)
    return tuple(board)


def _pair(field: str, value: str) -> tuple[int, int]:
    parts = value.split("/")
    if len(parts) != 2 or not all(plain_decimal(p) for p in parts):
        raise _malformed(f"{field} must be two counts like 3/4, not {quoted(value)}")
    return int(parts[0]), int(parts[1])


def parse_position(text: str, mode: str) -> ArbosState:
    """Section 7: a validated state, before the automatic steps of loading.

    Raises :class:`UsageError` for every malformed case the spec lists.
    """
    fields = text.strip().lower().split(" ")
    if len(fields) != 1 + len(_FIELDS):
        raise _malformed("expected the board and 7 fields separated by single spaces")
    board = _parse_board(fields[0])
    values: dict[str, str] = {}
    for name, field in zip(_FIELDS, fields[1:], strict=True):
        key, sep, value = field.partition(":")
        if key != name or not sep:
            raise _malformed(f"expected field {name}: where {field!r} stands")
        values[name] = value
    phase = values["phase"]
    if phase not in ("setup", "opening", "play"):
        raise _malformed(f"phase must be setup, opening or play, not {phase!r}")
    if values["turn"] not in ("w", "b"):
        raise _malformed("turn must be W or B")
    turn = 0 if values["turn"] == "w" else 1
    setup_left = _pair("setup", values["setup"])
    hands = _pair("hands", values["hands"])
    supply = _pair("supply", values["supply"])
    for name in ("passes", "prune"):
        if not plain_decimal(values[name]):
            raise _malformed(f"{name} must be a number")
    passes, prune = int(values["passes"]), int(values["prune"])
    spores = (board.count(WHITE), board.count(BLACK))
    if max(*hands, *setup_left) > 10:
        raise _malformed("a hand or setup count is above 10")
    if board.count(SEED) + sum(hands) + sum(setup_left) > 20:
        raise _malformed("more than 20 seeds in all")
    if supply[0] + spores[0] > 80 or supply[1] + spores[1] > 80:
        raise _malformed("more than 80 spores of one colour")
    if passes > 2:
        raise _malformed("passes is above 2")
    if phase == "setup":
        if any(spores):
            raise _malformed("spores on the board during setup")
        if setup_left == (0, 0):
            raise _malformed("setup phase with no setup seeds left")
        if passes or prune:
            raise _malformed("passes and prune must be 0 during setup")
        if turn != (0 if setup_left[0] == setup_left[1] else 1):
            raise _malformed("the turn breaks the setup alternation (White first)")
        if setup_left[0] > setup_left[1]:
            # White places first, so White never has more left to place than Black; with
            # more, Black would place on and its count go below 0. (Black ahead by two or
            # more still reads: the turn rule holds, and Black places until they are even.)
            raise _malformed("White has more setup seeds left than Black (White places first)")
        if supply[0] == 0:
            # Setup leaves the supplies as they are, and an opening with White supply 0 is
            # malformed: White could neither place its first spore (A16) nor pass.
            raise _malformed("setup with White supply 0: White could not open (A16)")
    else:
        if setup_left != (0, 0):
            raise _malformed(f"setup must be 0/0 in phase {phase}")
        if phase == "opening" and (turn != 0 or any(spores) or passes or supply[0] == 0):
            raise _malformed("phase opening needs turn W, no spores, no passes, White supply")
    mover = trees_of(board, _colour(turn)).total
    if prune != max(0, mover - 3):
        raise _malformed(f"prune must be {max(0, mover - 3)} for this board")
    if trees_of(board, _colour(1 - turn)).total > 3:
        raise _malformed("the player not to move has more than 3 trees")
    if prune and passes:
        raise _malformed("a pending prune with passes above 0")
    return ArbosState(
        board, phase, turn, setup_left, hands, supply, passes, prune, mode, 0, 0, None, ()
    )


def _settle(state: ArbosState) -> ArbosState:
    """Section 7 "on load": a dead-end setup ends; two passes or A19 (b) end the game."""
    if state.phase == "setup":
        return _end_setup(state) if not _setup_cells(state.board) else state
    return _check_end(state)


def auto_prune(state: ArbosState, seat: int) -> ArbosMove:
    """Section 5's auto-prune for a due prune of ``seat`` (A17): its trees sorted by fewest
    spores, then fewest linked seeds, then earliest first cell in reading order; the first
    T − 3 are pruned. Raises :class:`IllegalMoveError` when no prune is due."""
    if not state.prune:
        raise IllegalMoveError(f"no prune is due: {SEAT_NAMES[seat]} has at most 3 trees (A17)")
    board = state.board
    trees = trees_of(board, _colour(seat))

    def weakness(tree: list[int]) -> tuple[int, int, int]:
        linked = {n for c in tree for n in NEIGHBOURS[c] if board[n] == SEED}
        return (len(tree), len(linked), tree[0])

    weakest = sorted(trees.cells, key=weakness)[: state.prune]
    return ArbosMove("prune", tuple(sorted(tree[0] for tree in weakest)))


# ---------------------------------------------------------------------------------------------
# Legality with reasons
# ---------------------------------------------------------------------------------------------


def _spore_problem(board: Sequence[int], trees: Trees | None, seat: int, cell: int) -> str | None:
    """Why a spore of ``seat`` may not go on ``cell`` (A11/A12, A17), or None."""
    name = _NAMES[cell]
    if board[cell] != EMPTY:
        return f"{name} is not free"
    if not _qualifies(board, cell, _colour(1 - seat)):
        return (
            f"{name} is not next to a seed and has an opponent spore on a side, "
            "so no spore may go there (A11, A12)"
        )
    if trees is not None and _trees_after_spore(trees, cell) > 3:
        return f"a spore on {name} would give {SEAT_NAMES[seat]} a fourth tree (A17)"
    return None


def _check(state: ArbosState, seat: int, parsed: _Parsed) -> ArbosMove:
    """The legal move ``parsed`` denotes; raises IllegalMoveError naming the rule."""
    board = state.board
    word, cells = parsed.word, parsed.cells
    name = SEAT_NAMES[seat]
    if word == "chance":
        raise IllegalMoveError("no random setup draw is pending; `setup:CELL` is not a move")
    if state.phase == "setup":
        if word not in ("cell", "seed"):
            raise IllegalMoveError("during setup the only move is placing a seed: `seed CELL`")
        cell = cells[0]
        if board[cell] != EMPTY:
            raise IllegalMoveError(f"{_NAMES[cell]} is not free")
        if any(board[n] == SEED for n in TOO_CLOSE[cell]):
            raise IllegalMoveError(
                f"{_NAMES[cell]} is within 2 cells of another seed; setup seeds need two "
                "empty cells between them (A7)"
            )
        return ArbosMove("setup", cells)
    trees = trees_of(board, _colour(seat))
    if state.prune:
        if word != "prune":
            raise IllegalMoveError(
                f"{name} must first prune {_trees(state.prune)}: `prune CELL …` names a cell of "
                "each tree to remove (A17)"
            )
        if len(cells) != state.prune:
            raise IllegalMoveError(
                f"name exactly {state.prune} cell{'s' if state.prune > 1 else ''}, one in each "
                f"tree to prune (A17)"
            )
        firsts = set()
        for cell in cells:
            if board[cell] != _colour(seat):
                raise IllegalMoveError(f"{_NAMES[cell]} is not one of {name}'s spores (A17)")
            first = trees.cells[trees.label[cell]][0]
            if first in firsts:
                raise IllegalMoveError("two cells of the same tree; name each tree once (A17)")
            firsts.add(first)
        return ArbosMove("prune", tuple(sorted(firsts)))
    if word == "prune":
        raise IllegalMoveError(f"no prune is due: {name} has at most 3 trees (A17)")
    if state.phase == "opening" and word in ("pass", "seed", "replace"):
        raise IllegalMoveError("White's first turn must place a spore (A16)")
    hand, supply = state.hands[seat], state.supply[seat]
    if word == "pass":
        return PASS
    if word in ("cell", "spore"):
        if supply < 1:
            raise IllegalMoveError(f"{name} has no spores left in supply")
        problem = _spore_problem(board, trees, seat, cells[0])
        if problem:
            raise IllegalMoveError(problem)
        return ArbosMove("spore", cells)
    if hand < 1:
        raise IllegalMoveError(f"{name} has no seed in hand for `{word}` (A13–A15)")
    cell = cells[0]
    if word == "seed":
        if board[cell] != EMPTY:
            raise IllegalMoveError(f"{_NAMES[cell]} is not free")
        return ArbosMove("seed", cells)
    if word == "replace":
        if board[cell] not in (WHITE, BLACK):
            raise IllegalMoveError(f"{_NAMES[cell]} holds no spore to replace (A14)")
        if not _replace_ok(board, trees, seat, cell):
            raise IllegalMoveError(
                f"replacing {_NAMES[cell]} would split {name}'s tree into a fourth tree (A17)"
            )
        return ArbosMove("replace", cells)
    # double (A15)
    if supply < 2:
        raise IllegalMoveError(f"a double needs 2 spores in supply; {name} has {supply}")
    a, b = sorted(cells)
    if a == b:
        raise IllegalMoveError("a double places spores on two different cells (A15)")
    for c in (a, b):
        problem = _spore_problem(board, None, seat, c)
        if problem:
            raise IllegalMoveError(problem)
    ma, mb = _adjacent_trees(trees, a), _adjacent_trees(trees, b)
    if _trees_after_pair(trees, a, ma, b, mb) > 3:
        raise IllegalMoveError(f"this double would leave {name} with more than 3 trees (A17)")
    return ArbosMove("double", (a, b))


def _trees(n: int) -> str:
    return f"{n} tree{'s' if n != 1 else ''}"


# ---------------------------------------------------------------------------------------------
# Events and texts
# ---------------------------------------------------------------------------------------------

_COLOUR_NAMES = {WHITE: "White", BLACK: "Black"}
_ENDINGS = {"passes": "after two passes in a row", "no_moves": "as nobody can place anything"}


def _action_event(action: ArbosAction) -> Event:
    names = tuple(_NAMES[c] for c in (*action.placed, *action.removed))
    where = " and ".join(names)
    kind = action.kind
    if kind == "setup":
        text = f"a setup seed is drawn on {where}" if action.seat is None else f"seeds {where}"
    elif kind == "spore":
        text = f"puts a spore on {where}"
    elif kind == "seed":
        text = f"puts a seed from hand on {where}"
    elif kind == "replace":
        owner = _COLOUR_NAMES[action.replaced] if action.replaced is not None else "a"
        text = f"replaces {owner}'s spore on {where} with a seed"
    elif kind == "double":
        text = f"discards a seed and puts spores on {where}"
    elif kind == "prune":
        text = f"prunes {len(action.removed)} spore{'s' if len(action.removed) != 1 else ''}"
    else:
        text = "passes"
    return Event(kind, action.seat, text, names)


def _scores(state: ArbosState) -> tuple[int, int]:
    """The A20 scores of White and Black on the board as it is."""
    white = score_of(state.board, trees_of(state.board, WHITE))[0]
    black = score_of(state.board, trees_of(state.board, BLACK))[0]
    return white, black


def _standing(state: ArbosState) -> str:
    """``"as it stands: White 2, Black 0"``: the A20 scores of the board as it is
    (:func:`_scores`), and who a tie goes to (Black, A21)."""
    white, black = _scores(state)
    tie = ", a tie going to Black" if white == black else ""
    return f"as it stands: White {white}, Black {black}{tie}"


def _pass_pending(state: ArbosState) -> str:
    """A19 a, one pass made: ``"Black may end the game by passing too (as it stands: White 2,
    Black 0)"`` (:func:`_standing`)."""
    return f"{SEAT_NAMES[state.turn]} may end the game by passing too ({_standing(state)})"


def _ending_text(outcome: Outcome) -> str:
    scores = outcome.scores or {}
    white, black = int(scores.get(0, 0)), int(scores.get(1, 0))
    winner = SEAT_NAMES[outcome.winners[0]]
    tie = " (ties go to Black)" if white == black else ""
    how = _ENDINGS.get(outcome.termination, outcome.termination)
    return f"{winner} wins {max(white, black)}–{min(white, black)}{tie} {how}"


def _outcome(state: ArbosState) -> Outcome | None:
    if state.ending is None:
        return None
    white = score_of(state.board, trees_of(state.board, WHITE))[0]
    black = score_of(state.board, trees_of(state.board, BLACK))[0]
    winner = 1 if black >= white else 0
    return Outcome(state.ending, (winner,), ((winner,), (1 - winner,)), {0: white, 1: black})


# ---------------------------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------------------------

INFO = GameInfo(
    id="arbos",
    name="Arbos",
    min_players=2,
    max_players=2,
    default_players=2,
    options=(
        OptionSpec(
            "seeds_per_player",
            "int",
            10,
            "seeds each player places in setup; the other 10 − N stay in hand for actions",
            minimum=7,
            maximum=10,
        ),
        OptionSpec(
            "setup_mode",
            "choice",
            "random",
            "random: the bot scatters the setup seeds; manual: players place them in turn",
            choices=("random", "manual"),
        ),
    ),
    presets=(
        Preset("standard", "Standard", {}, "10 seeds each, scattered at random"),
        Preset(
            "hands",
            "Seeds in hand",
            {"seeds_per_player": "7"},
            "7 seeds each on the board, 3 kept in hand for seed, replace and double",
        ),
        Preset("manual", "Manual setup", {"setup_mode": "manual"}, "players place the seeds"),
    ),
    rules_version="1",
    seat_names=SEAT_NAMES,
    rules_summary=(
        "White and Black grow spores on a 20×20 board scattered with green seeds. A connected "
        "group of your spores (8 directions) is a tree; you may never have more than 3. On "
        "your turn put a spore next to a seed, or anywhere with no enemy spore on a side; or "
        "play a seed from your hand: place it, replace any spore with it, or discard it to "
        "put two spores. Two passes in a row end the game. Score: the seeds touching your "
        "best two trees. Higher score wins; a tie goes to Black."
    ),
    notation_help=(
        "`K10` puts a spore on K10 (rows A–T top to bottom, columns 1–20). With seeds in "
        "hand: `seed K10`, `replace K10`, `double E5 F9`. `pass`. When you have more than 3 "
        "trees: `prune K10` names a cell of each tree to remove. In a manual setup: `seed K10`."
    ),
    has_chance=True,
)


class ArbosEngine(Engine[ArbosState, ArbosMove]):
    """Arbos as specified in ``shared/specs/arbos.md`` (rules version 1)."""

    info = INFO
    #: Section 8: a token with a notation error is rejected before any setup draw.
    sample_before_notation_check = False

    # ---- setup -------------------------------------------------------------------------

    def new_game(
        self, players: int, options: Mapping[str, OptionValue], seed: int = 0
    ) -> ArbosState:
        """Section 3: an empty board; N setup seeds to place each, 10 − N in hand."""
        self.check_players(players)
        opts = self.complete_options(options)
        n = int(opts["seeds_per_player"])
        board = (EMPTY,) * (SIZE * SIZE)
        return ArbosState(
            board, "setup", 0, (n, n), (10 - n, 10 - n), (80, 80), 0, 0,
            str(opts["setup_mode"]), seed, 0, None, (),
        )  # fmt: skip

    def to_move(self, state: ArbosState) -> tuple[int, ...]:
        """``(seat,)``; ``(CHANCE,)`` while a random setup seed is drawn; ``()`` once over."""
        if state.ending is not None:
            return ()
        if state.phase == "setup" and state.mode == "random":
            return (CHANCE,)
        return (state.turn,)

    def _acts(self, state: ArbosState, seat: int) -> bool:
        """Whether ``seat`` is a player who acts now. Chance, which draws the random setup
        seeds, is not: it has outcomes (:meth:`chance_outcomes`), no moves, prompts or
        suggestions."""
        return seat != CHANCE and seat in self.to_move(state)

    def chance_outcomes(self, state: ArbosState) -> tuple[ChanceOutcome, ...]:
        """A5/D-A17: each legal setup cell, uniformly (``setup:CELL``)."""
        if self.to_move(state) != (CHANCE,):
            return ()
        cells = _setup_cells(state.board)
        return tuple(ChanceOutcome(_setup_token(c), 1 / len(cells)) for c in cells)

    def rng_state(self, state: ArbosState) -> tuple[int, int]:
        return (state.seed, state.counter)

    def with_seed(self, state: ArbosState, seed: int) -> ArbosState:
        """The random setup draws (section 8) from ``seed``: a position carries no seed."""
        return state._replace(seed=seed, counter=0)

    def apply_chance(self, state: ArbosState, text: str) -> Transition[ArbosState]:
        """Place the drawn (or forced) setup seed ``setup:CELL``.

        Raises :class:`NotationError` for a malformed token and :class:`IllegalMoveError`
        when no draw is pending or the cell breaks the A7 spacing.
        """
        cell = _setup_cell(text)
        if self.to_move(state) != (CHANCE,):
            raise IllegalMoveError("no random setup draw is pending", text=text)
        if cell not in _setup_cells(state.board):
            raise IllegalMoveError(
                f"{_NAMES[cell]} is taken or within 2 cells of a seed (A7)", text=text
            )
        board = list(state.board)
        board[cell] = SEED
        left = list(state.setup_left)
        left[state.turn] -= 1
        action = ArbosAction(None, "setup", (cell,))
        placed = state._replace(
            board=tuple(board),
            setup_left=(left[0], left[1]),
            counter=state.counter + 1,
            last=(action,),
        )
        after = _after_setup_placement(placed)
        return Transition(after, self._events(after, (action,)))

    def chance_text(self, state: ArbosState, text: str) -> str:
        """``setup:CELL`` as section 6 prints it, whatever separators and case ``text`` used
        (``SETUP:k5,`` -> ``setup:K5``). Raises :class:`NotationError` for a token that is
        not a setup draw."""
        return _setup_token(_setup_cell(text))

    # ---- moves -------------------------------------------------------------------------

    def legal_moves(self, state: ArbosState, seat: int) -> list[ArbosMove]:
        """Every legal move of ``seat`` (section 6). With seeds in hand this includes every
        legal double pair, which can be tens of thousands of moves: the bot completes moves
        with :meth:`suggest_moves` instead of listing them. Chance (a random setup draw)
        has none: its draws are :meth:`chance_outcomes`."""
        if not self._acts(state, seat):
            return []
        return _legal_moves(state, seat)

    def few_legal_moves(self, state: ArbosState, seat: int, limit: int) -> tuple[str, ...] | None:
        """The legal moves if at most ``limit``, without listing doubles when the other moves
        already exceed it. With a seed in hand every free cell is a legal ``seed`` (outside the
        opening), and in the opening White has no tree, so every qualifying cell is a legal
        spore: when the other moves are few, so are the cells a double could use."""
        if not self._acts(state, seat):
            return ()
        singles = _legal_moves(state, seat, doubles=False)
        if len(singles) > limit:
            return None
        return super().few_legal_moves(state, seat, limit)

    def parse_move(self, state: ArbosState, seat: int, text: str) -> ArbosMove:
        """Section 6 input -> the legal move of ``seat``.

        Raises :class:`GameOverError`, :class:`NotationError`, :class:`NotYourTurnError` or
        :class:`IllegalMoveError` (naming the rule), in that order of checking.
        """
        if state.ending is not None:
            raise GameOverError("the game is over", text=text)
        parsed = _parse_text(text)
        if parsed.seat is not None and parsed.seat != seat:
            raise NotYourTurnError(f"the prefix [{parsed.seat}] is not your seat", text=text)
        if self.to_move(state) == (CHANCE,):
            if parsed.word == "chance":
                raise IllegalMoveError("setup draws are made by the bot, not as moves", text=text)
            raise NotYourTurnError("the setup seeds are being scattered", text=text)
        if seat != state.turn:
            raise NotYourTurnError(f"it is {SEAT_NAMES[state.turn]}'s turn", text=text)
        try:
            return _check(state, seat, parsed)
        except IllegalMoveError as exc:
            raise IllegalMoveError(exc.message, text=text) from None

    def format_move(self, state: ArbosState, move: ArbosMove) -> str:
        return format_move(move)

    def apply(self, state: ArbosState, seat: int, move: ArbosMove) -> Transition[ArbosState]:
        after, action = _apply_move(state, seat, move)
        return Transition(after, self._events(after, (action,)))

    def child(self, state: ArbosState, seat: int, move: ArbosMove) -> ArbosState:
        """:meth:`apply` without events, for searches and playouts."""
        return _apply_move(state, seat, move)[0]

    def _events(self, after: ArbosState, actions: Sequence[ArbosAction]) -> tuple[Event, ...]:
        events = [_action_event(a) for a in actions]
        if after.phase == "opening" and actions[-1].kind == "setup":
            events.append(Event("setup_done", None, "setup is over; White opens"))
        if after.prune and after.ending is None:
            events.append(
                Event(
                    "prune_due",
                    after.turn,
                    f"{SEAT_NAMES[after.turn]} has {after.prune + 3} trees and must prune "
                    f"{_trees(after.prune)}",
                )
            )
        if actions[-1].kind == "pass" and after.passes == 1 and after.ending is None:
            # Said to the passer too, not only in the next mover's prompt: a person who
            # passed before the bot's turn never read that the bot could end the game.
            events.append(Event("pass_pending", after.turn, _pass_pending(after)))
        outcome = _outcome(after)
        if outcome is not None:
            events.append(Event(ENDED_EVENT, None, _ending_text(outcome)))
        return tuple(events)

    def outcome(self, state: ArbosState) -> Outcome | None:
        """Section 8: ``passes`` or ``no_moves`` with both scores; ties go to Black (A21)."""
        return _outcome(state)

    # ---- views and notation ------------------------------------------------------------

    def ended_view(self, view: Any, outcome: Outcome) -> Any:
        """As :meth:`Engine.ended_view`, with no prune due either: a prune belongs to the
        player to act (A17), and nobody acts in an ended game."""
        ended = super().ended_view(view, outcome)
        return ended if ended is view else replace(ended, prune=0)

    def view(self, state: ArbosState, viewer: int | None) -> ArbosView:
        """Everything is public (section 10); ``viewer`` is only recorded."""
        trees = (trees_of(state.board, WHITE), trees_of(state.board, BLACK))
        scored = tuple(score_of(state.board, t) for t in trees)
        to_move = self.to_move(state)
        return ArbosView(
            board=state.board,
            phase=state.phase,
            to_move=to_move[0] if to_move and to_move[0] != CHANCE else None,
            setup_left=state.setup_left,
            hands=state.hands,
            supply=state.supply,
            passes=state.passes,
            prune=state.prune,
            trees=(
                tuple(tuple(t) for t in trees[0].cells),
                tuple(tuple(t) for t in trees[1].cells),
            ),
            scores=(scored[0][0], scored[1][0]),
            best_pair=(scored[0][1], scored[1][1]),
            linked_seeds=(scored[0][2], scored[1][2]),
            outcome=_outcome(state),
            last=state.last,
            viewer=viewer,
        )

    def position(self, state: ArbosState) -> str:
        return position_text(state)

    def from_position(self, text: str, options: Mapping[str, OptionValue]) -> ArbosState:
        """Section 7, then the automatic steps of loading. ``seeds_per_player`` has no
        effect (the position carries its counts); ``setup_mode`` decides whether the remaining
        setup seeds are drawn (from seed 0: a position carries no seed) or chosen."""
        opts = self.complete_options(options)
        return _settle(parse_position(text, str(opts["setup_mode"])))

    def dump_state(self, state: ArbosState) -> dict[str, Any]:
        return {
            "position": position_text(state),
            "mode": state.mode,
            "seed": state.seed,
            "counter": state.counter,
            "ending": state.ending,
            "last": [
                [a.seat, a.kind, list(a.placed), list(a.removed), a.replaced] for a in state.last
            ],
        }

    def load_state(self, data: Mapping[str, Any]) -> ArbosState:
        state = parse_position(str(data["position"]), str(data["mode"]))
        last = tuple(
            ArbosAction(seat, kind, tuple(placed), tuple(removed), replaced)
            for seat, kind, placed, removed, replaced in data["last"]
        )
        ending = data["ending"]
        return state._replace(
            seed=int(data["seed"]),
            counter=int(data["counter"]),
            ending=None if ending is None else str(ending),
            last=last,
        )

    # ---- chat helpers ------------------------------------------------------------------

    def prompt(self, state: ArbosState, seat: int) -> str | None:
        """What is special about this turn: a manual setup placement, a due prune (A17), the
        opening restriction (A16) or a pending pass (A19 a)."""
        if not self._acts(state, seat):
            return None
        name = SEAT_NAMES[seat]
        if state.phase == "setup":
            w, b = state.setup_left
            return (
                f"{name} places a setup seed: `seed CELL`. Seeds left to place: White {w}, "
                f"Black {b}. A setup seed needs two empty cells between it and every other "
                "seed (A7)."
            )
        if state.prune:
            return (
                f"{name} has {state.prune + 3} trees and must prune {_trees(state.prune)} first: "
                f"`prune CELL` names one cell of each tree to remove; then {name} plays (A17)."
            )
        if state.phase == "opening":
            # A double takes a seed from the hand (and two from the supply): offered only
            # when White has them (none in hand in the standard setup).
            double = state.hands[seat] > 0 and state.supply[seat] >= 2
            tail = ", or a double" if double else ""
            return f"White's first turn must place a spore (a cell such as `K10`{tail})."
        if state.passes == 1:
            if not state.supply[seat] and not state.hands[seat]:  # pass is all it can play
                return f"{name} can only pass, which ends the game ({_standing(state)})."
            return f"{_pass_pending(state)}; any other move plays on."
        return None

    def timeout_moves(self, state: ArbosState, seat: int, rng: Rng) -> list[str] | None:
        """Section 5 (turn timer, D-A13): what the bot plays for ``seat`` when its time runs
        out. A manual setup placement: a uniformly random legal ``seed CELL``; the opening: a
        uniformly random legal spore; a due prune: the auto-prune (:func:`auto_prune`), then
        ``pass``; otherwise ``pass``. Empty when ``seat`` is not to move."""
        if not self._acts(state, seat):
            return []
        if state.phase == "setup":
            return [format_move(ArbosMove("setup", (rng.choice(_setup_cells(state.board)),)))]
        if state.prune:
            prune = auto_prune(state, seat)
            pruned = _apply_move(state, seat, prune)[0]
            # The prune may end the game (a side left without trees): then nothing follows.
            return [format_move(prune)] if pruned.ending else [format_move(prune), "pass"]
        if state.phase == "opening":
            spores = [m for m in _legal_moves(state, seat, doubles=False) if m.kind == "spore"]
            if spores:
                return [format_move(rng.choice(spores))]
        return ["pass"]

    def suggest_moves(self, state: ArbosState, seat: int, typed: str, limit: int) -> list[str]:
        """Complete what was typed without listing every double (issue: chat autocomplete).

        ``K1`` offers ``K1`` and the legal ``K10``…``K19``; ``seed K``, ``replace``,
        ``prune`` and ``double E5 F`` complete their next cell from the legal ones (a whole
        action word, ``seed``, as if a space followed it); an empty or partial first word
        also offers the action words that are legal now. A suggestion
        is a legal move, or a legal move's beginning (an action word, a double's first cell)
        to keep typing from. Cells come in reading order; at most ``limit`` suggestions.
        """
        if not self._acts(state, seat):
            return []
        text = typed.lower().replace(",", " ")
        words = text.split()
        partial = "" if not words or text.endswith(" ") else words.pop()
        if not words and partial in _ACTION_WORDS:
            # A whole action word, as this list offered it a moment ago: go on to its cells
            # (``seed`` finds ``seed A1``…, as ``seed `` with a space does).
            words, partial = [partial], ""
        if state.phase == "setup":
            if words and words != ["seed"]:
                return []
            cells = _setup_cells(state.board)
            return _complete("seed ", cells, partial, limit)
        if not words:
            return self._first_word(state, seat, partial, limit)
        word = words[0]
        given = []
        for w in words[1:]:
            if _CELL_RE.fullmatch(w) is None:
                return []
            given.append(_INDEX[w])
        cells = self._next_cells(state, seat, word, given)
        head = " ".join([word, *(_NAMES[c] for c in given)]) + " "
        return _complete(head, cells, partial, limit)

    def suggestion_label(self, state: ArbosState, seat: int, text: str) -> str:
        """A suggestion that is only a move's beginning (an action word, a double's first
        cell, a prune with trees left to name; :meth:`suggest_moves`) says what is still to
        type, since sent as it is it would be refused: ``double K10 … (one more cell)``.
        ``pass`` in play says what it risks (A19 a, A20, A21): ``pass — White may then pass
        to end the game (now White 2, Black 0)``, or ``pass — ends the game (…)`` after the
        other's pass; at most 100 characters, a choice's limit in Discord."""
        words = text.split()
        if text == "pass" and state.phase == "play" and not state.prune:
            # Said before the pass, where the player chooses it (exploratory pass 10: a
            # person passed and the bot's pass ended the game at once). Short: a choice's
            # label holds 100 characters (bot.service.options.MAX_CHOICE_LENGTH).
            white, black = _scores(state)
            now = f"now White {white}, Black {black}" + (", Black wins ties" * (white == black))
            if state.passes:
                return f"pass — ends the game ({now})"
            return f"pass — {SEAT_NAMES[1 - seat]} may then pass to end the game ({now})"
        if not words or words[0] not in _WORDS:
            return text
        need = _WORDS[words[0]]
        if need < 0:  # prune: one cell of each tree to prune
            need = state.prune or 1
        missing = need - (len(words) - 1)
        if missing <= 0:
            return text
        if words[0] == "prune":
            more = (
                "a cell of each tree to prune" if len(words) == 1 else "a cell of each other tree"
            )
        elif missing > 1:
            more = "two cells"
        else:
            more = "one more cell" if len(words) > 1 else "a cell"
        return f"{text} … (then {more})"

    def _first_word(self, state: ArbosState, seat: int, partial: str, limit: int) -> list[str]:
        legal_words: list[str] = []
        if state.prune:
            legal_words.append("prune")
        else:
            hand, supply = state.hands[seat], state.supply[seat]
            if state.phase != "opening":
                legal_words.append("pass")
                if hand:
                    legal_words += ["seed", "replace"]
            if hand and supply >= 2:
                legal_words.append("double")
        words = [w for w in legal_words if w.startswith(partial)]
        cells = self._next_cells(state, seat, "spore", []) if not state.prune else []
        return (words + _complete("", cells, partial, limit))[:limit]

    def _next_cells(self, state: ArbosState, seat: int, word: str, given: list[int]) -> list[int]:
        """Cells that may follow ``word`` and the ``given`` cells in a legal move."""
        board = state.board
        trees = trees_of(board, _colour(seat))
        hand, supply = state.hands[seat], state.supply[seat]
        if word == "prune":
            if not state.prune or len(given) >= state.prune:
                return []
            named = {trees.label[c] for c in given if trees.label[c] >= 0}
            return [c for c in CELLS if trees.label[c] >= 0 and trees.label[c] not in named]
        if state.prune or (state.phase == "opening" and word not in ("double", "spore")):
            return []
        if word == "spore":
            if supply < 1 or given:
                return []
            return [c for c in _spore_cells(board, seat) if _trees_after_spore(trees, c) <= 3]
        if hand < 1:
            return []
        if word == "seed":
            return [] if given else [c for c in CELLS if board[c] == EMPTY]
        if word == "replace":
            if given:
                return []
            return [
                c
                for c in CELLS
                if board[c] in (WHITE, BLACK) and _replace_ok(board, trees, seat, c)
            ]
        if word != "double" or supply < 2 or len(given) >= 2:
            return []
        spore_cells = _spore_cells(board, seat)
        if not given:
            return spore_cells
        a = given[0]
        if a not in spore_cells:
            return []
        ma = _adjacent_trees(trees, a)
        return [
            b
            for b in spore_cells
            if b != a and _trees_after_pair(trees, a, ma, b, _adjacent_trees(trees, b)) <= 3
        ]


def _complete(head: str, cells: Sequence[int], partial: str, limit: int) -> list[str]:
    """``head`` + each cell name starting with ``partial`` (exact match first)."""
    exact = [c for c in cells if _NAMES[c].lower() == partial]
    rest = [c for c in cells if _NAMES[c].lower().startswith(partial) and c not in exact]
    return [f"{head}{_NAMES[c]}" for c in (*exact, *rest)[:limit]]
