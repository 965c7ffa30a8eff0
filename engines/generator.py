"""Generator: Looney Pyramids on the GRYB board, 2–4 players and a colour die (spec generator).

Rule ids ``GEN-1`` … ``GEN-15`` and decisions ``D-GEN-1`` … ``D-GEN-23`` refer to
``shared/specs/generator.md``. The board is :mod:`engines.geometry.gryb` (node numbers
0…339 in canonical order; colours 0…3 = G, R, Y, B).

Representation, chosen for speed (AI opponents will call ``legal_moves``/``apply`` constantly):

* pyramids, stacks and units are size bit masks (:mod:`engines.generator_board`: Small 1,
  Medium 2, Large 4; a stack ``MS`` is 3), and GEN-8 … GEN-10 are lookup tables there;
* the board is a tuple of 340 ints indexed by node, ``owner seat * 8 + stack`` (``0`` =
  empty); each seat's occupied nodes are kept sorted beside it, so move generation walks at
  most 15 stacks instead of 340 nodes;
* destinations come from precomputed tables per (horizontal option, unit base, node, roll)
  that already apply the level limits of GEN-8.

The die is an explicit chance node (D-GEN-17): the state holds the game's seed and draw counter
(:mod:`engines.rng`), and each ``roll:X`` advances the counter by exactly one draw. Reading
move tokens and positions is in :mod:`engines.generator_notation`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from engines.base import (
    CHANCE,
    ENDED_EVENT,
    ROLLED_EVENT,
    AmbiguousMoveError,
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
)
from engines.generator_board import (
    BASE,
    CAPTURES,
    COLOUR_SEAT_NAMES,
    DESTINATIONS,
    LANDS_ON_OWN,
    LARGE,
    MAX_LEVEL,
    MEDIUM,
    PER_SIZE,
    SIZE_NAMES,
    SIZE_OF_LETTER,
    SLOT,
    SMALL,
    STACK_OF_TEXT,
    STACK_TEXT,
    UNITS,
    capture_problem,
    power_coupling,
    stacking_problem,
    with_article,
)
from engines.generator_notation import (
    ROLL,
    TERMINATIONS,
    malformed,
    read_position,
    read_token,
)
from engines.geometry.gryb import (
    COLOUR,
    COLOUR_NAMES,
    COLOURS,
    LEVEL,
    NAMES,
    NEIGHBOURS,
    NODE_COUNT,
)
from engines.rng import Rng

__all__ = [
    "PASS",
    "GeneratorEngine",
    "GeneratorMove",
    "GeneratorState",
    "GeneratorView",
    "LastAction",
    "Rules",
    "format_move",
    "has_coupling",
    "position_text",
]

#: Sizes of pyramids, smallest first; a stack is written bottom to top, largest first.
SIZES = "SML"


@dataclass(frozen=True, slots=True)
class LastAction:
    """The most recent action, for the picture's highlight.

    ``kind`` is ``"move"``, ``"entry"``, ``"pass"`` or ``"resign"``; ``unit`` the pyramids that
    moved or entered, bottom to top (``"MS"``, ``"L"``; ``""`` for a pass or resignation);
    ``origin`` and ``destination`` are node numbers (an entry has ``origin None`` and the
    start node as destination; a pass or resignation has neither). ``captured`` is
    ``(owner seat, sizes bottom to top)`` of the stack sent home, or ``None``. ``roll`` is the
    colour the action was made with (``None`` for a resignation out of turn).
    """

    seat: int
    kind: str
    unit: str
    origin: int | None
    destination: int | None
    captured: tuple[int, str] | None
    roll: int | None


@dataclass(frozen=True, slots=True)
class GeneratorView:
    """Everything a renderer or presenter needs; Generator has no hidden information.

    ``colours[seat]`` is each seat's colour number. ``stacks`` lists ``(node, owner seat,
    sizes bottom to top)`` for every occupied node in node order. ``stashes[seat]`` is the
    ``(S, M, L)`` counts off the board, or ``None`` for a seat that resigned. ``to_move`` is the
    seat to act (``None`` once over); ``roll`` the colour it rolled (``None`` while the roll is
    pending or once over); ``extra_turn`` is true when this turn follows a capture (GEN-11).
    ``count`` is the number of turns played (COUNT); ``max_turns`` 0 means no limit.
    ``reachable`` lists, in node order, the nodes the seat to act can move or enter onto with
    this roll (empty when no roll is known). ``coupling`` holds the ``(S, M, L)`` nodes of
    the power coupling that won the game (GEN-13; empty otherwise), for the final picture.
    """

    colours: tuple[int, ...]
    stacks: tuple[tuple[int, int, str], ...]
    stashes: tuple[tuple[int, int, int] | None, ...]
    to_move: int | None
    roll: int | None
    extra_turn: bool
    count: int
    max_turns: int
    reachable: tuple[int, ...]
    outcome: Outcome | None
    last: LastAction | None
    viewer: int | None
    coupling: tuple[int, ...] = ()


# ---------------------------------------------------------------------------------------------
# Moves, rules and states
# ---------------------------------------------------------------------------------------------


class GeneratorMove(NamedTuple):
    """One action (GEN-5 step 2) as node numbers and a size mask.

    A **move** (GEN-7) has ``origin`` and ``destination`` nodes and the ``unit`` that goes;
    an **entry** (GEN-6) has ``origin -1``, the start node as ``destination`` and the entering
    size as ``unit``; :data:`PASS` (GEN-12) is ``(-1, -1, 0)``.
    """

    origin: int
    destination: int
    unit: int

    @property
    def is_pass(self) -> bool:
        return self.unit == 0

    @property
    def is_entry(self) -> bool:
        return self.origin < 0 and self.unit != 0


PASS = GeneratorMove(-1, -1, 0)


@dataclass(frozen=True, slots=True)
class Rules:
    """The options that matter during play, shared by every state of one game.

    ``colours[seat]`` is the colour number each seat plays, in GRYB order (GEN-2, D-GEN-19);
    ``adjacent`` is ``horizontal=adjacent`` (D-GEN-3); ``max_turns`` 0 means no limit
    (GEN-15); ``options`` are the resolved options, kept for storage.
    """

    colours: tuple[int, ...]
    adjacent: bool
    max_turns: int
    options: tuple[tuple[str, OptionValue], ...]


@dataclass(frozen=True, slots=True)
class GeneratorState:
    """One moment of a game. Immutable and hashable: every field is a scalar or a tuple.

    * ``board``: 340 stack codes by node, ``owner seat * 8 + size mask`` (``0`` = empty);
    * ``occupied[seat]``: the nodes holding that seat's stacks, ascending;
    * ``stashes[seat]``: its ``(S, M, L)`` pyramids off the board, ``None`` once resigned;
    * ``turn``: the seat to act (the last one to act once the game is over);
    * ``roll``: the colour it rolled, ``-1`` while the die is pending (a chance node);
    * ``extra``: this turn follows a capture (GEN-11);
    * ``count``: turns played so far (the position's COUNT; resignations do not count);
    * ``seed``, ``draws``: the game's generator (:mod:`engines.rng`), one draw per roll;
    * ``outcome``: set once the game is over; ``last``: the most recent action, if any.
    """

    board: tuple[int, ...]
    occupied: tuple[tuple[int, ...], ...]
    stashes: tuple[tuple[int, int, int] | None, ...]
    turn: int
    roll: int
    extra: bool
    count: int
    seed: int
    draws: int
    rules: Rules
    outcome: Outcome | None = None
    last: LastAction | None = None

    @property
    def players(self) -> int:
        return len(self.rules.colours)


# ---------------------------------------------------------------------------------------------
# Move generation (GEN-6 entries, GEN-7 … GEN-10 moves, GEN-12 pass)
# ---------------------------------------------------------------------------------------------


def _legal(state: GeneratorState, seat: int) -> list[GeneratorMove]:
    """``pass``, every legal entry (S, M, L) and every legal move of ``seat`` after its roll.

    The caller makes sure ``seat`` is to act and has rolled (``state.roll >= 0``).
    """
    roll = state.roll
    board = state.board
    moves = [PASS]
    start = state.rules.colours[seat]
    if roll == start:  # GEN-6: entries only on the player's own colour
        stash = state.stashes[seat]
        code = board[start]
        if stash is not None and (code == 0 or code >> 3 != seat):
            for size in (SMALL, MEDIUM, LARGE):
                if stash[SLOT[size]] and (code == 0 or CAPTURES[size * 8 + (code & 7)]):
                    moves.append(GeneratorMove(-1, start, size))
    tables = DESTINATIONS[state.rules.adjacent]
    for node in state.occupied[seat]:
        key = node * 4 + roll
        for unit in UNITS[board[node] & 7]:
            for dest in tables[BASE[unit]][key]:
                code = board[dest]
                if (
                    code == 0
                    or (LANDS_ON_OWN if code >> 3 == seat else CAPTURES)[unit * 8 + (code & 7)]
                ):
                    moves.append(GeneratorMove(node, dest, unit))
    return moves


def has_coupling(state: GeneratorState, seat: int) -> bool:
    """Whether ``seat`` holds a power coupling (GEN-13) in ``state``."""
    colour = state.rules.colours[seat]
    return power_coupling(state.board, state.occupied[seat], colour) is not None


def _winning_coupling(state: GeneratorState) -> tuple[int, ...]:
    """The ``(S, M, L)`` nodes of the power coupling that ended the game (GEN-13, GEN-14), or
    ``()`` when it did not end by one."""
    outcome = state.outcome
    if outcome is None or outcome.termination != "coupling" or not outcome.winners:
        return ()
    winner = outcome.winners[0]
    colour = state.rules.colours[winner]
    return power_coupling(state.board, state.occupied[winner], colour) or ()


def _next_seat(stashes: Sequence[tuple[int, int, int] | None], seat: int) -> int:
    """GEN-4: the next seat after ``seat`` that is still in the game."""
    players = len(stashes)
    for step in range(1, players + 1):
        following = (seat + step) % players
        if stashes[following] is not None:
            return following
    return seat


def _ending(
    termination: str, winner: int | None, stashes: Sequence[tuple[int, int, int] | None]
) -> Outcome:
    """The outcome of spec section "Turn flow and end": ranking groups ascending, no empties."""
    still_in = tuple(s for s, stash in enumerate(stashes) if stash is not None and s != winner)
    resigned = tuple(s for s, stash in enumerate(stashes) if stash is None)
    groups = (still_in, resigned) if winner is None else ((winner,), still_in, resigned)
    winners = () if winner is None else (winner,)
    return Outcome(termination, winners, tuple(group for group in groups if group))


def _insert(nodes: tuple[int, ...], node: int) -> tuple[int, ...]:
    """``nodes`` (ascending) with ``node`` added."""
    for i, existing in enumerate(nodes):
        if existing > node:
            return (*nodes[:i], node, *nodes[i:])
    return (*nodes, node)


def _advance(
    state: GeneratorState, seat: int, move: GeneratorMove
) -> tuple[GeneratorState, tuple[int, int, int] | None]:
    """Play a legal action of ``seat``: GEN-6/GEN-7/GEN-12, then the end-of-action steps.

    Returns the new state and the nodes of the power coupling that ended the game, if any.
    """
    board = list(state.board)
    occupied = list(state.occupied)
    stashes = list(state.stashes)
    captured: tuple[int, str] | None = None
    unit = move.unit
    if unit:
        mine = occupied[seat]
        origin, dest = move.origin, move.destination
        if origin < 0:  # GEN-6 entry: one pyramid leaves the stash
            stash = stashes[seat]
            assert stash is not None
            counts = list(stash)
            counts[SLOT[unit]] -= 1
            stashes[seat] = (counts[0], counts[1], counts[2])
        else:  # GEN-7 move: the unit leaves the origin, whatever is below it stays
            rest = board[origin] & 7 & ~unit
            if rest:
                board[origin] = seat * 8 + rest
            else:
                board[origin] = 0
                mine = tuple(n for n in mine if n != origin)
        code = board[dest]
        if code == 0:  # GEN-9 empty destination
            board[dest] = seat * 8 + unit
            mine = _insert(mine, dest)
        elif code >> 3 == seat:  # GEN-9 own stack: the unit goes on top
            board[dest] = code | unit
        else:  # GEN-10 capture: the whole enemy stack returns to its owner's stash
            owner, stack = code >> 3, code & 7
            captured = (owner, STACK_TEXT[stack])
            home = stashes[owner]
            assert home is not None
            stashes[owner] = (
                home[0] + (stack & SMALL),
                home[1] + (stack & MEDIUM) // MEDIUM,
                home[2] + (stack & LARGE) // LARGE,
            )
            occupied[owner] = tuple(n for n in occupied[owner] if n != dest)
            board[dest] = seat * 8 + unit
            mine = _insert(mine, dest)
        occupied[seat] = mine
    new_board = tuple(board)
    rules = state.rules
    count = state.count + 1  # "After an action by colour C", step 1
    outcome: Outcome | None = None
    turn, extra = seat, False
    coupling = power_coupling(new_board, occupied[seat], rules.colours[seat])  # GEN-14
    if coupling is not None:  # step 2
        outcome = _ending("coupling", seat, stashes)
    elif rules.max_turns and count >= rules.max_turns:  # step 3 (GEN-15)
        outcome = _ending("turn_limit", None, stashes)
    elif captured is not None:  # step 4: extra turn (GEN-11)
        extra = True
    else:  # step 5
        turn = _next_seat(stashes, seat)
    if move.is_pass:
        last = LastAction(seat, "pass", "", None, None, None, state.roll)
    else:
        last = LastAction(
            seat,
            "entry" if move.origin < 0 else "move",
            STACK_TEXT[unit],
            None if move.origin < 0 else move.origin,
            move.destination,
            captured,
            state.roll,
        )
    after = GeneratorState(
        new_board,
        tuple(occupied),
        tuple(stashes),
        turn,
        -1,
        extra,
        count,
        state.seed,
        state.draws,
        rules,
        outcome,
        last,
    )
    return after, coupling


# ---------------------------------------------------------------------------------------------
# Why an action is illegal (computed only when one is rejected)
# ---------------------------------------------------------------------------------------------


def _move_problem(
    state: GeneratorState, seat: int, origin: int, unit: int, dest: int
) -> str | None:
    """GEN-7 … GEN-10: why ``unit`` of ``seat``'s stack on ``origin`` may not go to ``dest``."""
    roll = state.roll
    o, d = NAMES[origin], NAMES[dest]
    rolled = COLOUR_NAMES[roll]
    if dest == origin:
        return "a move must go to another node (GEN-7)"
    if COLOUR[dest] != roll:
        return (
            f"you rolled {rolled}, so a move must go to a {rolled} node; "
            f"{d} is {COLOUR_NAMES[COLOUR[dest]]} (GEN-7)"
        )
    adjacent = state.rules.adjacent
    if dest not in NEIGHBOURS[adjacent][origin][roll]:
        if adjacent and dest in NEIGHBOURS[False][origin][roll]:
            return (
                f"with horizontal=adjacent a sideways move may not cross its quadrangle "
                f"diagonally, as {o} to {d} would (GEN-7, D-GEN-3)"
            )
        return (
            f"{d} is not a neighbour of {o}: a unit goes to the {rolled} node of its own "
            f"quadrangle, to its {rolled} child or up to a {rolled} parent (GEN-7)"
        )
    base = BASE[unit]
    if LEVEL[dest] > MAX_LEVEL[base]:
        return (
            f"{with_article(SIZE_NAMES[base])} may not go below level {MAX_LEVEL[base]}, and "
            f"{d} is on level {LEVEL[dest]} (GEN-8)"
        )
    code = state.board[dest]
    if code == 0:
        return None
    if code >> 3 == seat:
        return stacking_problem(unit, code & 7)
    return capture_problem(unit, code & 7)


#: The level-4 node whose name is the label the board prints on its centre, the unplayable
#: head node (spec "What the board image must show": "label it `GRYB`").
CENTRE_LABEL = NAMES.index("GRYB")

#: What a refusal adds when a move names GRYB from afar: the player may mean the centre,
#: which is no node (spec "Board and coordinates": "the head node is never a destination").
CENTRE_NOTE = (
    "GRYB here is the small blue node around GRY, not the centre labelled GRYB, which no "
    "pyramid can enter"
)

_CITED = re.compile(r"\s*\((?:D-)?GEN-\d+(?:,\s*(?:D-)?GEN-\d+)*\)$")


def _near_centre_label(nodes: Sequence[int]) -> bool:
    """Whether one of ``nodes`` is a neighbour of the node GRYB (of any colour, sideways
    moves of any kind): a move from there to GRYB means the node, not the board's centre."""
    return any(CENTRE_LABEL in NEIGHBOURS[False][n][COLOUR[CENTRE_LABEL]] for n in nodes)


def _with_centre_note(why: str) -> str:
    """``why`` with :data:`CENTRE_NOTE` before its rule ids (which stay at the end)."""
    cited = _CITED.search(why)
    cut = cited.start() if cited else len(why)
    return f"{why[:cut]}; {CENTRE_NOTE}{why[cut:]}"


def _entry_problem(state: GeneratorState, seat: int, size: int) -> str | None:
    """GEN-6: why ``seat`` may not enter a pyramid of ``size`` now, or ``None``."""
    start = state.rules.colours[seat]
    if state.roll != start:
        return (
            f"you may enter only on a roll of your own colour, {COLOUR_NAMES[start]}; "
            f"you rolled {COLOUR_NAMES[state.roll]} (GEN-6)"
        )
    stash = state.stashes[seat]
    if stash is None or stash[SLOT[size]] == 0:
        return f"you have no {SIZE_NAMES[size]} left in your stash (GEN-6)"
    code = state.board[start]
    if code == 0:
        return None
    if code >> 3 == seat:
        return (
            f"your own stack stands on your start node {NAMES[start]}, so nothing can enter (GEN-6)"
        )
    return capture_problem(size, code & 7)


def _unit_of(stack: int, typed: str, origin: int) -> int | str:
    """The unit a typed UNIT names in ``stack`` on ``origin`` (section "Move notation").

    No UNIT means the whole stack; one size letter the unit based on that pyramid; several
    letters must be exactly one of the stack's units. Returns the unit, or the reason why not.
    """
    o = NAMES[origin]
    if not typed:
        return stack
    if len(typed) == 1:
        size = SIZE_OF_LETTER[typed]
        if not stack & size:
            return f"the {STACK_TEXT[stack]} on {o} has no {SIZE_NAMES[size]}"
        return stack & (2 * size - 1)
    unit = STACK_OF_TEXT[typed]
    if unit not in UNITS[stack]:
        units = ", ".join(STACK_TEXT[u] for u in UNITS[stack])
        return (
            f"{typed} is not a unit of the {STACK_TEXT[stack]} on {o}: a unit is one pyramid "
            f"with everything above it, here {units} (GEN-7)"
        )
    return unit


# ---------------------------------------------------------------------------------------------
# Notation (spec sections "Move notation" and "Position notation"; reading is in
# engines.generator_notation)
# ---------------------------------------------------------------------------------------------


def format_move(move: GeneratorMove) -> str:
    """The canonical text of ``move``: ``UNIT:FROM-TO`` (``MS:Y-R``), ``+S`` or ``pass``."""
    if move.unit == 0:
        return "pass"
    if move.origin < 0:
        return "+" + STACK_TEXT[move.unit]
    return f"{STACK_TEXT[move.unit]}:{NAMES[move.origin]}-{NAMES[move.destination]}"


def position_text(state: GeneratorState) -> str:
    """``BOARD STASHES TURN COUNT``, e.g. ``G:gM,R:rM G545,R545 G=? 0``."""
    colours = state.rules.colours
    owners = [COLOURS[c].lower() for c in colours]
    board = ",".join(
        f"{NAMES[node]}:{owners[code >> 3]}{STACK_TEXT[code & 7]}"
        for node, code in enumerate(state.board)
        if code
    )
    stashes = ",".join(
        COLOURS[colour] + ("x" if stash is None else f"{stash[0]}{stash[1]}{stash[2]}")
        for colour, stash in zip(colours, state.stashes, strict=True)
    )
    if state.outcome is not None:
        turn = state.outcome.termination
    else:
        turn = f"{COLOURS[colours[state.turn]]}={'?' if state.roll < 0 else COLOURS[state.roll]}"
    return f"{board or '-'} {stashes} {turn} {state.count}"


# ---------------------------------------------------------------------------------------------
# Events and texts for the bot
# ---------------------------------------------------------------------------------------------

ENDING_TEXT = {
    "coupling": "{winner} wins with a power coupling",
    "resignation": "{winner} wins: every other player has resigned",
    "turn_limit": "draw: the limit of {limit} turns was reached",
}


def _seat_name(rules: Rules, seat: int) -> str:
    return COLOUR_SEAT_NAMES[rules.colours[seat]]


def _ending_event(state: GeneratorState) -> Event:
    outcome = state.outcome
    assert outcome is not None
    winner = _seat_name(state.rules, outcome.winners[0]) if outcome.winners else ""
    text = ENDING_TEXT[outcome.termination].format(winner=winner, limit=state.rules.max_turns)
    return Event(ENDED_EVENT, None, text)


def _events(
    before: GeneratorState,
    seat: int,
    move: GeneratorMove,
    after: GeneratorState,
    coupling: tuple[int, int, int] | None,
) -> tuple[Event, ...]:
    """Public events of one action, with short English phrases for the chat summary."""
    events: list[Event] = []
    dest = NAMES[move.destination] if move.unit else ""
    if move.is_pass:
        events.append(Event("passed", seat, "passed"))
    elif move.origin < 0:
        events.append(
            Event(
                "entered", seat, f"entered {with_article(SIZE_NAMES[move.unit])} on {dest}", (dest,)
            )
        )
    else:
        origin = NAMES[move.origin]
        unit = STACK_TEXT[move.unit]
        code = before.board[move.destination]
        if code and code >> 3 == seat:
            text = f"moved {unit} from {origin} onto their {STACK_TEXT[code & 7]} on {dest}"
            events.append(Event("stacked", seat, text, (origin, dest)))
        else:
            events.append(
                Event("moved", seat, f"moved {unit} from {origin} to {dest}", (origin, dest))
            )
    last = after.last
    if last is not None and last.captured is not None:
        owner, stack = last.captured
        text = f"captured {_seat_name(after.rules, owner)}'s {stack} on {dest}"
        events.append(Event("captured", seat, text, (dest,)))
        if after.outcome is None:
            events.append(Event("extra_turn", seat, "gets an extra turn for the capture"))
    if coupling is not None:
        cells = tuple(NAMES[node] for node in coupling)
        events.append(Event("coupling", seat, "completed a power coupling", cells))
    if after.outcome is not None:
        events.append(_ending_event(after))
    return tuple(events)


# ---------------------------------------------------------------------------------------------
# Options and metadata
# ---------------------------------------------------------------------------------------------

RULES_SUMMARY = """\
**Generator** — 2–4 players race Looney Pyramids across a board of quadrangles inside \
quadrangles: 4 start nodes, then 16, 64 and 256 nodes on levels 2–4. A node is named by its path \
of colours from the top (`R`, `RG`, `RGY`, `RGYB`). Each player has 5 Small, 5 Medium and 5 \
Large pyramids of their colour and starts with a Medium on their start node.
• Every turn a four-coloured die (G R Y B) is rolled for you. Move one of your units to a node \
of the rolled colour next to it (sideways in its quadrangle, down to a child or up to the \
parent), or on your own colour enter a pyramid from your stash onto your start node (not \
while a stack of yours stands there, as your first Medium does at the start), or pass.
• A unit is one pyramid with everything on it. A Large stays on levels 1–2, a Medium on 1–3.
• Land on your own stack only with a base smaller than its top. Land on an enemy to capture \
it: the unit's base must be smaller than the target's top, a lone Small is captured only by a \
lone Small, and a tower topped by a Small is immune. Captured pyramids go home, and every \
capture earns another turn.
• Win with a **power coupling**: your own Large on level 2, Medium on level 3 and Small on \
level 4, each on a node of your colour, one in each of the three other branches."""

NOTATION_HELP = """\
Nodes are paths of colours from the top: `R`, `RG`, `RGY`, `RGYB` (any case; `r.g.y` works too).
• `M:R-RR` moves the Medium on R to RR; `MS:Y-R` a Medium with the Small on it; `S:Y-R` only \
the Small. One letter means that pyramid and everything on it; no unit moves the whole stack: \
`R-RR`, `R RR`, `R to RR`.
• `RR` alone: the one move that goes to RR.
• `+S`, `+M`, `+L` (or `enter S`): enter a pyramid on your start node, on a roll of your colour, \
when no stack of yours stands there.
• `pass`. Resigning removes your pyramids; the others play on."""

INFO = GameInfo(
    id="generator",
    name="Generator",
    min_players=2,
    max_players=4,
    default_players=2,
    options=(
        OptionSpec(
            "colours",
            "text",
            "",
            "one letter per player from G R Y B, e.g. RB (default: the first N of GRYB)",
            examples=("RB", "GY", "RYB", "GRYB"),
        ),
        OptionSpec(
            "first_player",
            "choice",
            "random",
            "who takes the first turn: drawn at random, or seat 0",
            choices=("random", "seat0"),
        ),
        OptionSpec(
            "horizontal",
            "choice",
            "any",
            "sideways moves: to any node of the quadrangle, or only to the two next to it",
            choices=("any", "adjacent"),
        ),
        OptionSpec(
            "max_turns",
            "int",
            0,
            "the game is drawn after this many turns (0 = no limit)",
            minimum=0,
            maximum=None,  # spec: "integer ≥ 0"
            chat_maximum=100_000,
        ),
    ),
    presets=(
        Preset("standard", "Standard", {}, "the rules as written: no turn limit"),
        Preset("chat", "Chat (200 turns)", {"max_turns": "200"}, "drawn after 200 turns"),
    ),
    rules_version="1",
    seat_names=COLOUR_SEAT_NAMES,
    rules_summary=RULES_SUMMARY,
    notation_help=NOTATION_HELP,
    has_chance=True,
)


def _normalised_colours(value: OptionValue) -> str:
    """Option ``colours`` as stored: distinct GRYB letters in GRYB order, or ``""`` (default).

    Raises :class:`UsageError` naming the option for anything else.
    """
    text = value.strip().upper() if isinstance(value, str) else None
    if text == "":
        return ""
    if text is None or not (
        2 <= len(text) <= 4 and set(text) <= set(COLOURS) and len(set(text)) == len(text)
    ):
        raise UsageError(
            f"option colours: {value!r} is not allowed; use 2–4 different letters from "
            "G, R, Y and B, one per player (e.g. RB)"
        )
    return "".join(letter for letter in COLOURS if letter in text)


def _seat_colours(players: int, colours: OptionValue) -> tuple[int, ...]:
    """GEN-2: each seat's colour number; raises :class:`UsageError` on a length mismatch."""
    letters = _normalised_colours(colours) or COLOURS[:players]
    if len(letters) != players:
        raise UsageError(
            f"option colours: {letters} names {len(letters)} colours but there are {players} "
            "players; name one colour per player"
        )
    return tuple(COLOURS.index(letter) for letter in letters)


def _rules(options: Mapping[str, OptionValue], colours: tuple[int, ...]) -> Rules:
    return Rules(
        colours=colours,
        adjacent=options["horizontal"] == "adjacent",
        max_turns=int(options["max_turns"]),
        options=tuple(options.items()),
    )


# ---------------------------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------------------------


class GeneratorEngine(Engine[GeneratorState, GeneratorMove]):
    """Generator as specified in ``shared/specs/generator.md`` (rules version 1)."""

    #: GEN-12: when pass is the only legal move, the bot submits it and says so.
    plays_forced_moves = True

    info = INFO

    # ---- options and setup (GEN-2, GEN-3, options table) -----------------------------------

    def complete_options(self, given: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
        """Defaults plus ``colours`` normalised to GRYB order, upper case.

        ``colours`` stays ``""`` when not given: it then means the first N colours of GRYB for
        N players, which only :meth:`new_game`, :meth:`from_position` and :meth:`seat_names`
        know. Raises :class:`UsageError` for a ``colours`` value that is not 2–4 distinct
        letters of GRYB.
        """
        options = super().complete_options(given)
        options["colours"] = _normalised_colours(options["colours"])
        return options

    def new_game(
        self, players: int, options: Mapping[str, OptionValue], seed: int = 0
    ) -> GeneratorState:
        """GEN-3 setup: a Medium on every start node, stashes S5 M4 L5, the die pending.

        With ``first_player=random`` the first seat is ``Rng(seed, 0).below(players)`` and the
        draw counter continues after it. Raises :class:`UsageError` for a bad player count or
        a ``colours`` option of the wrong length.
        """
        self.check_players(players)
        opts = self.complete_options(options)
        colours = _seat_colours(players, opts["colours"])
        board = [0] * NODE_COUNT
        for seat, colour in enumerate(colours):
            board[colour] = seat * 8 + MEDIUM  # a start node's number is its colour
        rng = Rng(seed, 0)
        first = 0 if opts["first_player"] == "seat0" else rng.below(players)
        return GeneratorState(
            board=tuple(board),
            occupied=tuple((colour,) for colour in colours),
            stashes=((PER_SIZE, PER_SIZE - 1, PER_SIZE),) * players,
            turn=first,
            roll=-1,
            extra=False,
            count=0,
            seed=rng.seed,
            draws=rng.counter,
            rules=_rules(opts, colours),
        )

    def options_for(
        self, options: Mapping[str, OptionValue], players: int
    ) -> dict[str, OptionValue]:
        """``colours`` filled in for ``players`` (the first N of GRYB when not given), so the
        CLI prints ``"colours": "GR"`` and reads a position under the call's ``--players``.
        Raises :class:`UsageError` when ``colours`` names another number of colours."""
        opts = self.complete_options(options)
        opts["colours"] = "".join(COLOURS[c] for c in _seat_colours(players, opts["colours"]))
        return opts

    def seat_names(self, players: int, options: Mapping[str, OptionValue]) -> tuple[str, ...]:
        """The seats' colour names in seat order, e.g. ``("Red", "Blue")`` for ``colours=RB``.

        Raises :class:`UsageError` when ``colours`` does not name ``players`` colours.
        """
        colours = _seat_colours(players, options.get("colours", ""))
        return tuple(COLOUR_SEAT_NAMES[colour] for colour in colours)

    # ---- turn flow and chance (GEN-5, "Turn flow and end") ---------------------------------

    def to_move(self, state: GeneratorState) -> tuple[int, ...]:
        """``(seat,)`` after its roll, ``(CHANCE,)`` while the die is pending, ``()`` once over."""
        if state.outcome is not None:
            return ()
        return (CHANCE,) if state.roll < 0 else (state.turn,)

    def chance_outcomes(self, state: GeneratorState) -> tuple[ChanceOutcome, ...]:
        """The die (GEN-1): ``roll:G``, ``roll:R``, ``roll:Y``, ``roll:B``, each 1/4."""
        if state.outcome is not None or state.roll >= 0:
            return ()
        return tuple(ChanceOutcome(f"roll:{letter}", 0.25) for letter in COLOURS)

    def rng_state(self, state: GeneratorState) -> tuple[int, int]:
        return (state.seed, state.draws)

    def with_seed(self, state: GeneratorState, seed: int) -> GeneratorState:
        """The die rolls (D-GEN-17) from ``seed``: a position carries no seed."""
        return replace(state, seed=seed, draws=0)

    def apply_chance(self, state: GeneratorState, text: str) -> Transition[GeneratorState]:
        """Set the pending roll from ``roll:X`` (any case) and advance the draw counter by one.

        Raises :class:`GameOverError` once over, :class:`NotationError` for a token that is
        not a die outcome, :class:`IllegalMoveError` when the die has already been rolled.
        """
        if state.outcome is not None:
            raise GameOverError("the game is over", text=text)
        match = ROLL.fullmatch(text.strip())
        if not match:
            raise NotationError(
                f"{text.strip()!r} is not a die outcome: roll:G, roll:R, roll:Y or roll:B",
                text=text,
            )
        if state.roll >= 0:
            raise IllegalMoveError(
                f"the die has already been rolled this turn: {COLOUR_NAMES[state.roll]} (GEN-5)",
                text=text,
            )
        roll = COLOURS.index(match.group(1).upper())
        after = GeneratorState(
            state.board,
            state.occupied,
            state.stashes,
            state.turn,
            roll,
            state.extra,
            state.count,
            state.seed,
            state.draws + 1,
            state.rules,
            state.outcome,
            state.last,
        )
        # The roller is named: the chat line of a move ends with the next seat's roll, which
        # without a name reads as the mover's ("…; Yellow rolled green (G)").
        roller = _seat_name(state.rules, state.turn)
        event = Event(
            ROLLED_EVENT, state.turn, f"{roller} rolled {COLOUR_NAMES[roll]} ({COLOURS[roll]})"
        )
        return Transition(after, (event,))

    # ---- moves ---------------------------------------------------------------------------

    def legal_moves(self, state: GeneratorState, seat: int) -> list[GeneratorMove]:
        """``pass``, the legal entries and the legal moves of ``seat`` after its roll.

        Empty while the die is pending, for a seat not to act, and once over. ``resign`` is a
        meta move (:meth:`resign`) and never listed.
        """
        if state.outcome is not None or state.roll < 0 or seat != state.turn:
            return []
        return _legal(state, seat)

    def parse_move(self, state: GeneratorState, seat: int, text: str) -> GeneratorMove:
        """A token of the notation table -> the legal action of ``seat`` it names.

        Raises, in this order of checking: :class:`GameOverError`; :class:`NotationError`
        (not in the notation); :class:`NotYourTurnError` (another seat is to act, or the
        ``[k]`` prefix names another seat); :class:`IllegalMoveError` with the rule that
        forbids it (also for ``roll:X`` once rolled and for ``resign``, which is
        :meth:`resign`'s job); :class:`AmbiguousMoveError` listing the candidates when a bare
        destination is reached by several moves (D-GEN-22).
        """
        if state.outcome is not None:
            raise GameOverError("the game is over", text=text)
        typed = read_token(text, state.players)
        if (typed.seat is not None and typed.seat != seat) or seat != state.turn:
            raise NotYourTurnError(f"it is {_seat_name(state.rules, state.turn)}'s turn", text=text)

        def illegal(why: str) -> IllegalMoveError:
            return IllegalMoveError(why, text=text)

        if typed.kind == "resign":
            raise illegal("resigning is not a move: use the resign command (GEN-15)")
        if typed.kind == "roll":
            if state.roll >= 0:
                raise illegal(
                    f"the die has already been rolled this turn: {COLOUR_NAMES[state.roll]} (GEN-5)"
                )
            raise illegal("the die is rolled by the game, not played as a move (GEN-5)")
        if state.roll < 0:
            raise illegal("the die has not been rolled yet (GEN-5)")
        if typed.kind == "pass":
            return PASS  # GEN-12, D-GEN-14: always allowed after the roll
        if typed.kind == "entry":
            size = SIZE_OF_LETTER[typed.unit]
            problem = _entry_problem(state, seat, size)
            if problem:
                raise illegal(problem)
            return GeneratorMove(-1, state.rules.colours[seat], size)
        if typed.kind == "destination":
            return self._only_move_to(state, seat, typed.destination, text)
        origin, dest = typed.origin, typed.destination
        code = state.board[origin]
        if code == 0:
            why = f"there is no pyramid on {NAMES[origin]}"
            raise illegal(_with_centre_note(why) if origin == CENTRE_LABEL else why)
        if code >> 3 != seat:
            raise illegal(
                f"the {STACK_TEXT[code & 7]} on {NAMES[origin]} is "
                f"{_seat_name(state.rules, code >> 3)}'s: you move only your own pyramids "
                "(D-GEN-6)"
            )
        unit = _unit_of(code & 7, typed.unit, origin)
        if isinstance(unit, str):
            raise illegal(unit)
        problem = _move_problem(state, seat, origin, unit, dest)
        if problem:
            if dest == CENTRE_LABEL and not _near_centre_label([origin]):
                problem = _with_centre_note(problem)
            raise illegal(problem)
        return GeneratorMove(origin, dest, unit)

    def _only_move_to(
        self, state: GeneratorState, seat: int, dest: int, text: str
    ) -> GeneratorMove:
        """D-GEN-22: the one legal move (entries excluded) whose destination is ``dest``."""
        found = [m for m in _legal(state, seat) if m.origin >= 0 and m.destination == dest]
        if len(found) == 1:
            return found[0]
        d = NAMES[dest]
        if found:
            texts = sorted(format_move(m) for m in found)
            raise AmbiguousMoveError(
                f"several moves go to {d}: {', '.join(texts)}; name the unit, e.g. {texts[0]}",
                text=text,
                candidates=texts,
            )
        if COLOUR[dest] != state.roll:
            rolled = COLOUR_NAMES[state.roll]
            why = f"you rolled {rolled}, and {d} is {COLOUR_NAMES[COLOUR[dest]]} (GEN-7)"
        else:
            why = f"none of your units is next to {d} (GEN-7)"
            for origin in state.occupied[seat]:
                problem = _move_problem(state, seat, origin, state.board[origin] & 7, dest)
                if problem and dest in NEIGHBOURS[False][origin][state.roll]:
                    why = f"from {NAMES[origin]}, {problem}"
                    break
        if dest == CENTRE_LABEL and not _near_centre_label(state.occupied[seat]):
            why = _with_centre_note(why)
        raise IllegalMoveError(f"no legal move goes to {d}: {why}", text=text)

    def format_move(self, state: GeneratorState, move: GeneratorMove) -> str:
        """The canonical text (:func:`format_move`); it does not depend on ``state``."""
        return format_move(move)

    def apply(
        self, state: GeneratorState, seat: int, move: GeneratorMove
    ) -> Transition[GeneratorState]:
        """Play a legal action (GEN-6, GEN-7, GEN-12) and the steps after it: COUNT, the
        coupling check for the actor (GEN-13, GEN-14), the turn limit (GEN-15), then an extra
        turn after a capture (GEN-11) or the next seat (GEN-4), with the die pending.

        Never mutates ``state``. Events: ``passed``/``entered``/``moved``/``stacked``, then
        ``captured`` and ``extra_turn``, ``coupling`` and ``ended`` when they apply.
        """
        after, coupling = _advance(state, seat, move)
        return Transition(after, _events(state, seat, move, after, coupling))

    def child(self, state: GeneratorState, seat: int, move: GeneratorMove) -> GeneratorState:
        """:meth:`apply` without events: the fast path for search and playouts."""
        return _advance(state, seat, move)[0]

    def resign(self, state: GeneratorState, seat: int) -> Transition[GeneratorState]:
        """GEN-15 (D-GEN-20): ``seat`` leaves; its pyramids leave the board, its stash is ``x``.

        Allowed at any time, also when another seat is to act (that seat keeps its roll). If
        the seat to act resigns, its roll is discarded and the next seat starts a turn with
        the die pending. With one player left, that player wins (``resignation``). COUNT does
        not change. Raises :class:`GameOverError` once over and :class:`IllegalMoveError` for
        a seat that does not exist or has already left.
        """
        if state.outcome is not None:
            raise GameOverError("the game is over")
        if not 0 <= seat < state.players:
            raise IllegalMoveError(f"there is no seat {seat} in this game")
        if state.stashes[seat] is None:
            raise IllegalMoveError(
                f"{_seat_name(state.rules, seat)} has already left the game (GEN-15)"
            )
        board = list(state.board)
        for node in state.occupied[seat]:
            board[node] = 0
        occupied = list(state.occupied)
        occupied[seat] = ()
        stashes = list(state.stashes)
        stashes[seat] = None
        left = [s for s, stash in enumerate(stashes) if stash is not None]
        acting = seat == state.turn
        turn, roll, extra = state.turn, state.roll, state.extra
        outcome: Outcome | None = None
        if len(left) == 1:
            outcome = _ending("resignation", left[0], stashes)
            turn, roll, extra = left[0], -1, False
        elif acting:
            turn, roll, extra = _next_seat(stashes, seat), -1, False
        last = LastAction(
            seat, "resign", "", None, None, None, state.roll if acting and state.roll >= 0 else None
        )
        after = GeneratorState(
            tuple(board),
            tuple(occupied),
            tuple(stashes),
            turn,
            roll,
            extra,
            state.count,
            state.seed,
            state.draws,
            state.rules,
            outcome,
            last,
        )
        cells = tuple(NAMES[node] for node in state.occupied[seat])
        events = [Event("resigned", seat, "resigned; their pyramids leave the board", cells)]
        if outcome is not None:
            events.append(_ending_event(after))
        return Transition(after, tuple(events))

    def outcome(self, state: GeneratorState) -> Outcome | None:
        """Terminations ``coupling``, ``resignation``, ``turn_limit`` (spec table); no scores."""
        return state.outcome

    def prompt(self, state: GeneratorState, seat: int) -> str | None:
        """One sentence about the roll for the seat to act, e.g. "You rolled **yellow**: move a
        unit to a yellow node or pass." ``None`` when ``seat`` is not to act or has not rolled.
        """
        if state.outcome is not None or seat != state.turn or state.roll < 0:
            return None
        rolled = COLOUR_NAMES[state.roll]
        head = f"You rolled **{rolled}**"
        if state.extra:
            head += " (extra turn after your capture)"
        moves = _legal(state, seat)
        choices = []
        if any(m.origin >= 0 for m in moves):
            choices.append(f"move a unit to a {rolled} node")
        if any(m.is_entry for m in moves):
            choices.append(f"enter onto your start node {NAMES[state.rules.colours[seat]]}")
        if not choices:
            return f"{head}: no legal move, so pass."
        if len(choices) == 1:
            return f"{head}: {choices[0]} or pass."
        return f"{head}: {choices[0]}, {choices[1]}, or pass."

    def ended_view(self, view: Any, outcome: Outcome) -> Any:
        """As :meth:`Engine.ended_view`, with no roll, extra turn or reachable nodes left: they
        belong to the seat to act (GEN-5), and nobody acts in an ended game."""
        ended = super().ended_view(view, outcome)
        if ended is view:
            return view
        return replace(ended, roll=None, extra_turn=False, reachable=())

    def view(self, state: GeneratorState, viewer: int | None) -> GeneratorView:
        """Everything is public (no hidden information); the seed is not part of the view."""
        over = state.outcome is not None
        reachable: tuple[int, ...] = ()
        if not over and state.roll >= 0:
            reachable = tuple(sorted({m.destination for m in _legal(state, state.turn) if m.unit}))
        return GeneratorView(
            colours=state.rules.colours,
            stacks=tuple(
                (node, code >> 3, STACK_TEXT[code & 7])
                for node, code in enumerate(state.board)
                if code
            ),
            stashes=state.stashes,
            to_move=None if over else state.turn,
            roll=None if over or state.roll < 0 else state.roll,
            extra_turn=state.extra and not over,
            count=state.count,
            max_turns=state.rules.max_turns,
            reachable=reachable,
            outcome=state.outcome,
            last=state.last,
            viewer=viewer,
            coupling=_winning_coupling(state),
        )

    # ---- notation and storage --------------------------------------------------------------

    def position(self, state: GeneratorState) -> str:
        return position_text(state)

    def position_players(self, text: str) -> int | None:
        """The number of STASHES entries (one per player, resigned ones included)."""
        fields = text.split()
        return fields[1].count(",") + 1 if len(fields) >= 2 else None

    def from_position(self, text: str, options: Mapping[str, OptionValue]) -> GeneratorState:
        """A state from position notation, checked against all seven reading rules.

        The player count is the number of stash entries (the engine contract passes no
        ``players``); with the default ``colours`` they must be the first N of GRYB. A position
        holds no generator state, so the seed is 0 and the draw counter 0; nor does it say
        whether the turn follows a capture, so ``extra`` is false. Raises :class:`UsageError`
        when the text is malformed, inconsistent or not canonical.
        """
        opts = self.complete_options(options)
        fields = read_position(text, str(opts["colours"]))
        rules = _rules(opts, fields.colours)
        left = [s for s, stash in enumerate(fields.stashes) if stash is not None]
        if not left:
            raise malformed("every player has resigned")
        couplers = [
            s
            for s in left
            if power_coupling(fields.board, fields.occupied[s], fields.colours[s]) is not None
        ]
        if len(couplers) > 1:
            raise malformed("at most one player may hold a power coupling (check 7)")
        expected: str | None = None
        if couplers:
            expected = "coupling"
        elif len(left) == 1:
            expected = "resignation"
        elif rules.max_turns and fields.turns >= rules.max_turns:
            expected = "turn_limit"
        if expected is None and fields.turn in TERMINATIONS:
            raise malformed(f"TURN is {fields.turn}, but the game is not over (check 7)")
        if expected is not None and fields.turn != expected:
            raise malformed(f"TURN must be {expected} here (check 7)")
        outcome: Outcome | None = None
        roll = -1
        if expected is None:
            turn = fields.colours.index(COLOURS.index(fields.turn[0].upper()))
            roll = -1 if fields.turn[2] == "?" else COLOURS.index(fields.turn[2].upper())
        else:
            winner = couplers[0] if couplers else left[0] if len(left) == 1 else None
            outcome = _ending(expected, winner, fields.stashes)
            turn = left[0] if winner is None else winner
        state = GeneratorState(
            fields.board,
            fields.occupied,
            fields.stashes,
            turn,
            roll,
            False,
            fields.turns,
            0,
            0,
            rules,
            outcome,
        )
        canonical = position_text(state)
        if canonical != text:
            raise malformed(f"not in canonical form; write it as {canonical!r} (check 1)")
        return state

    def dump_state(self, state: GeneratorState) -> dict[str, Any]:
        """Position, options and what a position does not hold: turn and roll once over, the
        extra-turn flag, the generator, the outcome and the last action."""
        last = state.last
        return {
            "position": position_text(state),
            "options": dict(state.rules.options),
            "turn": state.turn,
            "roll": state.roll,
            "extra": state.extra,
            "rng": [state.seed, state.draws],
            "outcome": None if state.outcome is None else state.outcome.to_json(),
            "last": None
            if last is None
            else {
                "seat": last.seat,
                "kind": last.kind,
                "unit": last.unit,
                "origin": last.origin,
                "destination": last.destination,
                "captured": None if last.captured is None else list(last.captured),
                "roll": last.roll,
            },
        }

    def load_state(self, data: Mapping[str, Any]) -> GeneratorState:
        """Inverse of :meth:`dump_state`; raises :class:`UsageError` for a malformed position."""
        opts = self.complete_options(data["options"])
        fields = read_position(str(data["position"]), str(opts["colours"]))
        raw_last = data.get("last")
        last = None
        if raw_last is not None:
            captured = raw_last["captured"]
            last = LastAction(
                seat=int(raw_last["seat"]),
                kind=str(raw_last["kind"]),
                unit=str(raw_last["unit"]),
                origin=raw_last["origin"],
                destination=raw_last["destination"],
                captured=None if captured is None else (int(captured[0]), str(captured[1])),
                roll=raw_last["roll"],
            )
        raw_outcome = data.get("outcome")
        seed, draws = data["rng"]
        return GeneratorState(
            fields.board,
            fields.occupied,
            fields.stashes,
            int(data["turn"]),
            int(data["roll"]),
            bool(data["extra"]),
            fields.turns,
            int(seed),
            int(draws),
            _rules(opts, fields.colours),
            None if raw_outcome is None else Outcome.from_json(raw_outcome),
            last,
        )
