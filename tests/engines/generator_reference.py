"""A deliberately naive Generator move generator, written from the spec's text only.

It shares no code or tables with ``engines/generator*.py``: nodes are names (``"RGY"``),
stacks are strings written bottom to top (``"LMS"``), neighbours are derived from the names,
and the rules are transcribed clause by clause. Tests compare its answer with the engine's on
random positions.
"""

from __future__ import annotations

COLOURS = "GRYB"
ORDER = "SML"  # sizes, smallest first
MAX_LEVEL = {"L": 2, "M": 3, "S": 4}  # GEN-8


def neighbours(name: str, adjacent: bool) -> set[str]:
    """Siblings, children and parent of a node (section "Board and coordinates")."""
    found = set()
    quadrangle, own = name[:-1], name[-1]
    for letter in COLOURS:
        if letter == own:
            continue
        distance = (COLOURS.index(letter) - COLOURS.index(own)) % 4
        if adjacent and distance == 2:  # the diagonal pairs G–Y and R–B
            continue
        found.add(quadrangle + letter)
    if len(name) < 4:
        found.update(name + letter for letter in COLOURS)
    if len(name) > 1:
        found.add(quadrangle)
    return found


def bigger(a: str, b: str) -> bool:
    return ORDER.index(a) > ORDER.index(b)


def may_capture(unit: str, target: str) -> bool:
    """GEN-10, rule by rule: ``unit`` and ``target`` written bottom to top."""
    attacker, defender = unit[0], target[-1]
    if len(target) >= 2 and defender == "S":  # 1. towers topped by a Small are immune
        return False
    if target == "S":  # 2. a lone Small falls only to a lone Small
        return unit == "S"
    return bigger(defender, attacker)  # 3.


def moves(
    board: dict[str, tuple[str, str]],
    player: str,
    stash: dict[str, int],
    roll: str,
    adjacent: bool,
) -> set[str]:
    """Canonical texts of every legal action of ``player`` (a colour letter) after ``roll``.

    ``board`` maps node names to ``(owner colour, stack bottom to top)``; ``stash`` the
    player's counts by size letter. ``pass`` is always included (GEN-12).
    """
    found = {"pass"}
    if roll == player:  # GEN-6
        on_start = board.get(player)
        for size in "SML":
            if stash[size] == 0:
                continue
            if on_start is None or (on_start[0] != player and may_capture(size, on_start[1])):
                found.add("+" + size)
    for origin, (owner, stack) in board.items():
        if owner != player:
            continue
        for cut in range(len(stack)):  # GEN-7: one pyramid with everything above it
            unit = stack[cut:]
            for dest in neighbours(origin, adjacent):
                if dest[-1] != roll or len(dest) > MAX_LEVEL[unit[0]]:  # GEN-7, GEN-8
                    continue
                there = board.get(dest)
                if there is None:
                    ok = True
                elif there[0] == player:  # GEN-9: base smaller than the top it lands on
                    ok = bigger(there[1][-1], unit[0])
                else:
                    ok = may_capture(unit, there[1])
                if ok:
                    found.add(f"{unit}:{origin}-{dest}")
    return found


def coupling(board: dict[str, tuple[str, str]], player: str) -> bool:
    """GEN-13, by brute force over every choice of three pieces."""
    smalls = [n for n, (o, s) in board.items() if o == player and len(n) == 4 and "S" in s]
    mediums = [n for n, (o, s) in board.items() if o == player and len(n) == 3 and "M" in s]
    larges = [n for n, (o, s) in board.items() if o == player and len(n) == 2 and "L" in s]
    for small in smalls:
        for medium in mediums:
            for large in larges:
                nodes = (small, medium, large)
                branches = {n[0] for n in nodes}
                if (
                    all(n[-1] == player for n in nodes)
                    and len(branches) == 3
                    and player not in branches
                ):
                    return True
    return False
