"""Generator's pyramids on the GRYB board: sizes, stacks, units and the rules between them.

Pure tables and predicates shared by the engine (:mod:`engines.generator`) and its notation
reader (:mod:`engines.generator_notation`). Rule ids refer to ``shared/specs/generator.md``.

A **size** is one bit: Small ``1``, Medium ``2``, Large ``4``. A **stack** or a **unit** is the
OR of its sizes (``MS`` = 3, ``LMS`` = 7): its top pyramid is the lowest set bit, its base the
highest, and the unit based on size ``b`` is ``stack & (2 * b - 1)`` (GEN-7). Nodes and colours
are those of :mod:`engines.geometry.gryb`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

from engines.geometry.gryb import BRANCH, COLOUR, COLOUR_NAMES, LEVEL, NEIGHBOURS, NODE_COUNT

__all__ = [
    "BASE",
    "BRANCH_ORDERS",
    "CAPTURES",
    "COLOUR_SEAT_NAMES",
    "DESTINATIONS",
    "LANDS_ON_OWN",
    "LARGE",
    "MAX_LEVEL",
    "MEDIUM",
    "PER_SIZE",
    "QUALIFYING",
    "SIZE_NAMES",
    "SIZE_OF_LETTER",
    "SLOT",
    "SMALL",
    "STACK_OF_TEXT",
    "STACK_TEXT",
    "TOP",
    "UNITS",
    "capture_problem",
    "power_coupling",
    "stacking_problem",
    "with_article",
]


SMALL, MEDIUM, LARGE = 1, 2, 4
#: The seven stacks (and units) by size mask, written bottom to top; ``""`` for no pyramid.
STACK_TEXT = ("", "S", "M", "MS", "L", "LS", "LM", "LMS")
STACK_OF_TEXT = {text: mask for mask, text in enumerate(STACK_TEXT) if text}
SIZE_OF_LETTER = {"S": SMALL, "M": MEDIUM, "L": LARGE}
SIZE_NAMES = {SMALL: "Small", MEDIUM: "Medium", LARGE: "Large"}
#: Stash slot of each size (stashes are ``(S, M, L)`` counts).
SLOT = {SMALL: 0, MEDIUM: 1, LARGE: 2}
#: GEN-8: the deepest level each size may stand on.
MAX_LEVEL = {SMALL: 4, MEDIUM: 3, LARGE: 2}
#: GEN-3: each player's pyramids of each size.
PER_SIZE = 5
#: Seat names by colour (the seats are named after the colours they play).
COLOUR_SEAT_NAMES = tuple(name.capitalize() for name in COLOUR_NAMES)

#: TOP[stack]: its top (smallest) pyramid; BASE[stack]: its base (largest) pyramid.
TOP = tuple(mask & -mask for mask in range(8))
BASE = (0, SMALL, MEDIUM, MEDIUM, LARGE, LARGE, LARGE, LARGE)
#: UNITS[stack]: the movable units of a stack, whole stack first: each pyramid together with
#: every pyramid above it (GEN-7, D-GEN-7).
UNITS = tuple(
    tuple(stack & (2 * size - 1) for size in (LARGE, MEDIUM, SMALL) if stack & size)
    for stack in range(8)
)


def with_article(word: str) -> str:
    """``"a Medium"``, ``"an L"``: the word with its indefinite article."""
    return f"an {word}" if word[0] in "AEIOU" else f"a {word}"


def stacking_problem(unit: int, stack: int) -> str | None:
    """GEN-9 (D-GEN-8): why ``unit`` may not land on the player's own ``stack``, or ``None``.

    ``unit`` and ``stack`` are size masks. The unit's base must be smaller than the top.
    """
    if BASE[unit] < TOP[stack]:
        return None
    return (
        f"{with_article(SIZE_NAMES[BASE[unit]])} cannot land on your own {SIZE_NAMES[TOP[stack]]}: "
        "a unit may only go on top of a larger pyramid (GEN-9)"
    )


def capture_problem(unit: int, stack: int) -> str | None:
    """GEN-10 (D-GEN-9, D-GEN-10): why ``unit`` may not capture the enemy ``stack``, or ``None``.

    ``unit`` is the moving unit (or the entering pyramid), ``stack`` the target, both size
    masks. The attacker is the unit's base and the defender the target's top.
    """
    if stack & SMALL and stack != SMALL:
        return "a tower topped by a Small cannot be captured (GEN-10)"
    if stack == SMALL:
        if unit == SMALL:
            return None
        return "a lone Small can only be captured by a lone Small (GEN-10)"
    if BASE[unit] < TOP[stack]:
        return None
    attacker = SIZE_NAMES[BASE[unit]]
    what = (
        with_article(attacker)
        if unit == BASE[unit]
        else f"the {STACK_TEXT[unit]} (its base {with_article(attacker)})"
    )
    defender = with_article(SIZE_NAMES[TOP[stack]])
    return (
        f"{what} cannot capture {defender}: the attacker, the unit's base, must be smaller "
        "than the top of the target (GEN-10)"
    )


#: ``LANDS_ON_OWN[unit * 8 + stack]`` and ``CAPTURES[unit * 8 + stack]``: GEN-9 and GEN-10 as
#: lookup tables, derived from the two functions above so the reasons and the move generator
#: can never disagree.
LANDS_ON_OWN = tuple(
    unit > 0 and stack > 0 and stacking_problem(unit, stack) is None
    for unit in range(8)
    for stack in range(8)
)
CAPTURES = tuple(
    unit > 0 and stack > 0 and capture_problem(unit, stack) is None
    for unit in range(8)
    for stack in range(8)
)


def _destinations(adjacent: bool, base: int) -> tuple[tuple[int, ...], ...]:
    """``[node * 4 + roll]``: where a unit with this ``base`` may step (GEN-7, GEN-8)."""
    return tuple(
        tuple(d for d in NEIGHBOURS[adjacent][node][roll] if LEVEL[d] <= MAX_LEVEL[base])
        for node in range(NODE_COUNT)
        for roll in range(4)
    )


#: ``DESTINATIONS[adjacent][base][node * 4 + roll]``: the neighbours of ``node`` of colour
#: ``roll`` where a unit with that ``base`` size may stand, before looking at what is there.
DESTINATIONS: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = tuple(
    tuple(_destinations(adjacent, base) if base in MAX_LEVEL else () for base in range(LARGE + 1))
    for adjacent in (False, True)
)
#: ``QUALIFYING[colour][node]``: the level of ``node`` if a pyramid there can count for a
#: power coupling of that colour (GEN-13: a node of the colour, on level 2–4, outside the
#: home branch), else 0.
QUALIFYING = tuple(
    tuple(
        LEVEL[n] if COLOUR[n] == colour and BRANCH[n] != colour and LEVEL[n] >= 2 else 0
        for n in range(NODE_COUNT)
    )
    for colour in range(4)
)
#: GEN-13: for each home colour, the ways to give the three other branches to (S, M, L).
BRANCH_ORDERS = tuple(
    tuple(permutations(tuple(b for b in range(4) if b != colour))) for colour in range(4)
)


def power_coupling(
    board: Sequence[int], nodes: Sequence[int], colour: int
) -> tuple[int, int, int] | None:
    """GEN-13: the ``(S, M, L)`` nodes of a power coupling among ``nodes``, or ``None``.

    ``nodes`` are the occupied nodes of the player of ``colour`` (ascending). The Small must
    be on level 4, the Medium on level 3 and the Large on level 2, each on a node of
    ``colour``, in three different branches other than the home branch; smaller own pyramids
    on top do not matter (D-GEN-15). When several couplings exist, the first nodes in node
    order are reported.
    """
    qualifying = QUALIFYING[colour]
    smalls: dict[int, int] = {}
    mediums: dict[int, int] = {}
    larges: dict[int, int] = {}
    for node in nodes:
        level = qualifying[node]
        if level == 4:  # only a lone Small can stand on level 4
            smalls.setdefault(BRANCH[node], node)
        elif level == 3 and board[node] & MEDIUM:
            mediums.setdefault(BRANCH[node], node)
        elif level == 2 and board[node] & LARGE:
            larges.setdefault(BRANCH[node], node)
    if not (smalls and mediums and larges):
        return None
    for small, medium, large in BRANCH_ORDERS[colour]:
        if small in smalls and medium in mediums and large in larges:
            return (smalls[small], mediums[medium], larges[large])
    return None
