"""Reading Generator's text: move tokens and positions (spec sections "Move notation" and
"Position notation").

This module only checks the grammar and the facts a position states on its own (reading rules
2–6); the engine (:mod:`engines.generator`) decides legality, checks rule 7 and the canonical
form, and prints moves and positions.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from engines.base import MAX_DIGITS, SEAT_DIGITS, NotationError, UsageError, ascii_digits, quoted
from engines.generator_board import (
    BASE,
    LARGE,
    MAX_LEVEL,
    MEDIUM,
    PER_SIZE,
    SIZE_NAMES,
    SLOT,
    SMALL,
    STACK_OF_TEXT,
    with_article,
)
from engines.geometry.gryb import COLOUR_NAMES, COLOURS, LEVEL, NAMES, NODE_COUNT, index, parse_node

__all__ = [
    "ROLL",
    "TERMINATIONS",
    "PositionFields",
    "Token",
    "malformed",
    "read_position",
    "read_token",
]

# ---------------------------------------------------------------------------------------------
# Move tokens
# ---------------------------------------------------------------------------------------------

_NODE = r"[gryb](?:\.?[gryb])*"
_SEAT_PREFIX = re.compile(rf"\[({SEAT_DIGITS})\] ?")
#: The spec's table exactly: `+S`, `+ s`, `enter S`, `enter:s`; SEP1 is `:` or one space
#: (no space around the `:`), SEP2 `-` or `>` with an optional space on each side, a space, or
#: ` to `. Anything else is a notation error.
_ENTRY = re.compile(r"(?:\+ ?|enter:|enter )([lms])")
_MOVE = re.compile(
    rf"(?:(?P<unit>[lms]+)(?::| ))?(?P<origin>{_NODE})(?: ?[->] ?| to | )"
    rf"(?P<destination>{_NODE})"
)
_DESTINATION = re.compile(_NODE)
ROLL = re.compile(r"roll:([gryb])", re.IGNORECASE)


class Token(NamedTuple):
    """A token checked against the grammar only; ``kind`` is what it asks for."""

    seat: int | None
    kind: str  # "pass", "entry", "move", "destination", "roll" or "resign"
    unit: str  # the typed UNIT (upper case) or the entering size letter; "" if none
    origin: int
    destination: int


def read_token(raw: str, players: int) -> Token:
    """Parse one token of the notation table; raises :class:`NotationError` quoting it."""
    text = " ".join(raw.split()).lower()
    shown = " ".join(raw.split())

    def fail(why: str) -> NotationError:
        return NotationError(f"{shown!r} is not a Generator move: {why}", text=raw)

    seat: int | None = None
    prefix = _SEAT_PREFIX.match(text)
    if prefix:
        seat = int(prefix.group(1))
        if seat >= players:
            raise fail(f"there is no seat {seat}; seats are 0–{players - 1}")
        text = text[prefix.end() :]
    if text.startswith("roll"):
        if seat is not None:
            raise fail("a die outcome takes no seat prefix")
        if not ROLL.fullmatch(text):
            raise fail("a die outcome is roll:G, roll:R, roll:Y or roll:B")
        return Token(None, "roll", text[-1].upper(), -1, -1)
    if text in ("pass", "resign"):
        return Token(seat, text, "", -1, -1)
    entry = _ENTRY.fullmatch(text)
    if entry:
        return Token(seat, "entry", entry.group(1).upper(), -1, -1)
    move = _MOVE.fullmatch(text)
    if move:
        unit = (move.group("unit") or "").upper()
        if unit and unit not in STACK_OF_TEXT:
            raise fail(f"{unit} is not a unit; units are LMS, LM, LS, MS, L, M and S")
        origin = _node(move.group("origin"), fail)
        return Token(seat, "move", unit, origin, _node(move.group("destination"), fail))
    if _DESTINATION.fullmatch(text):
        return Token(seat, "destination", "", -1, _node(text, fail))
    raise fail("write a move like M:R-RR or R-RR, a destination like RR, +S, or pass")


def _node(text: str, fail: Callable[[str], NotationError]) -> int:
    node = parse_node(text)
    if node is None:
        raise fail(f"{text.upper()} is not a node, since a node name has 1 to 4 letters")
    return node


# ---------------------------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------------------------

TERMINATIONS = ("coupling", "resignation", "turn_limit")
_BOARD_ENTRY = re.compile(r"([GRYB]{1,4}):([gryb])([LMS]{1,3})", re.IGNORECASE)
_STASH_ENTRY = re.compile(r"([GRYB])([0-5]{3}|x)", re.IGNORECASE)
_TURN = re.compile(r"([GRYB])=([GRYB?])", re.IGNORECASE)


class PositionFields(NamedTuple):
    """A position read field by field (checks 2–6 done; check 7 and canonical form not)."""

    board: tuple[int, ...]
    occupied: tuple[tuple[int, ...], ...]
    stashes: tuple[tuple[int, int, int] | None, ...]
    colours: tuple[int, ...]
    turn: str  # "coupling", "resignation", "turn_limit" or "C=X"
    turns: int


def malformed(why: str) -> UsageError:
    """The :class:`UsageError` for a position that breaks a reading rule."""
    return UsageError(f"malformed position: {why}")


def read_position(text: str, colours_option: str) -> PositionFields:
    """Read the four fields of a position under the ``colours`` option (``""`` = default).

    Raises :class:`UsageError` for checks 2–6 of the spec's reading rules.
    """
    fields = text.split(" ")
    if len(fields) != 4:
        raise malformed(f"expected four fields 'BOARD STASHES TURN COUNT', got {quoted(text)}")
    board_text, stash_text, turn_text, count_text = fields
    colours: list[int] = []
    stashes: list[tuple[int, int, int] | None] = []
    for entry in stash_text.split(","):
        match = _STASH_ENTRY.fullmatch(entry)
        if not match:
            raise malformed(f"stash entry {entry!r} is not a colour and three digits 0–5, or x")
        colours.append(COLOURS.index(match.group(1).upper()))
        digits = match.group(2)
        resigned = digits.lower() == "x"
        stashes.append(None if resigned else (int(digits[0]), int(digits[1]), int(digits[2])))
    wanted = colours_option or COLOURS[: len(colours)]
    if "".join(COLOURS[c] for c in colours) != wanted:
        raise malformed(f"the stashes must be those of the colours in use, {wanted} (check 3)")
    if not 2 <= len(colours) <= 4:
        raise malformed("Generator is played by 2–4 players")
    seat_of = {colour: seat for seat, colour in enumerate(colours)}
    board = [0] * NODE_COUNT
    occupied: list[list[int]] = [[] for _ in colours]
    if board_text != "-":
        for entry in board_text.split(","):
            match = _BOARD_ENTRY.fullmatch(entry)
            if not match:
                raise malformed(f"board entry {entry!r} is not NODE:oSIZES, e.g. Y:rMS")
            node = index(match.group(1).upper())
            owner = COLOURS.index(match.group(2).upper())
            stack = STACK_OF_TEXT.get(match.group(3).upper(), 0)
            if not stack:
                raise malformed(f"{entry!r}: a stack is one of L M S LM LS MS LMS")
            if owner not in seat_of:
                raise malformed(f"{entry!r}: nobody plays {COLOUR_NAMES[owner]}")
            seat = seat_of[owner]
            if stashes[seat] is None:
                raise malformed(f"{entry!r}: {COLOUR_NAMES[owner]} has resigned (check 5)")
            if board[node]:
                raise malformed(f"node {NAMES[node]} is listed twice (check 2)")
            if LEVEL[node] > MAX_LEVEL[BASE[stack]]:
                raise malformed(
                    f"{entry!r}: {with_article(SIZE_NAMES[BASE[stack]])} may not stand on level "
                    f"{LEVEL[node]} (GEN-8, check 2)"
                )
            board[node] = seat * 8 + stack
            occupied[seat].append(node)
    for seat, stash in enumerate(stashes):
        if stash is None:
            continue
        for size in (SMALL, MEDIUM, LARGE):
            on_board = sum(1 for node in occupied[seat] if board[node] & size)
            if on_board + stash[SLOT[size]] != PER_SIZE:
                who = COLOUR_NAMES[colours[seat]].capitalize()
                raise malformed(
                    f"{who} has {on_board} {SIZE_NAMES[size]} on the board and "
                    f"{stash[SLOT[size]]} in the stash, not {PER_SIZE} (check 4)"
                )
    if not ascii_digits(count_text, MAX_DIGITS):
        raise malformed(f"COUNT must be a number, got {quoted(count_text)}")
    if turn_text not in TERMINATIONS:
        match = _TURN.fullmatch(turn_text)
        if not match:
            raise malformed(f"TURN must be C=? or C=X, or a termination name; got {turn_text!r}")
        colour = COLOURS.index(match.group(1).upper())
        if colour not in seat_of or stashes[seat_of[colour]] is None:
            raise malformed(f"{COLOUR_NAMES[colour]} is not in the game (check 6)")
    return PositionFields(
        tuple(board),
        tuple(tuple(sorted(nodes)) for nodes in occupied),
        tuple(stashes),
        tuple(colours),
        turn_text,
        int(count_text),
    )
