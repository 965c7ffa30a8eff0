"""The GRYB board of Generator: 340 nodes in quadrangles inside quadrangles (spec generator).

A node is named by the path of colours from the unplayable head node down to it: ``G`` … ``B``
on level 1, ``GG`` … ``BB`` on level 2, down to the 256 leaves ``GGGG`` … ``BBBB`` on level 4.
Nodes are numbered ``0 … 339`` in the spec's canonical order (level first, then the letters
read as base-4 digits with G=0, R=1, Y=2, B=3), so ``index("G") == 0``, ``index("GG") == 4``,
``index("GGG") == 20`` and ``index("GGGG") == 84``.

Colours are the integers ``0 … 3`` in the cycle order G → R → Y → B (:data:`COLOURS`).

Every table here is a tuple indexed by node number, computed once at import:

* :data:`NAMES`, :data:`LEVEL`, :data:`COLOUR`, :data:`BRANCH` (the level-1 ancestor's colour);
* :data:`PARENT` (``-1`` on level 1: the head node is never a destination, D-GEN-2);
* :data:`CHILD` ``[n][c]``: the child of colour ``c`` (``-1`` on level 4);
* :data:`SIBLING` ``[n][c]``: the node of colour ``c`` in ``n``'s quadrangle (``n`` itself for
  its own colour);
* :data:`NEIGHBOURS` ``[adjacent][n][c]``: the neighbours of ``n`` of colour ``c`` (sibling,
  child, parent; at most one of each), i.e. where a roll of ``c`` can take a unit from ``n``;
  ``adjacent`` is the ``horizontal=adjacent`` option (no diagonal siblings);
* :data:`POSITION`: the spec's drawing layout in unit space, head node at ``(0, 0)``, ``H = 1``,
  y growing downwards; the picture spans ±1.875 (section "What the board image must show").
"""

from __future__ import annotations

__all__ = [
    "ADJACENT_COLOURS",
    "BRANCH",
    "CHILD",
    "COLOURS",
    "COLOUR_NAMES",
    "DIRECTIONS",
    "EXTENT",
    "LEVEL",
    "LEVEL_START",
    "NAMES",
    "NEIGHBOURS",
    "NODE_COUNT",
    "PARENT",
    "POSITION",
    "QUADRANGLES",
    "SIBLING",
    "colour_of_letter",
    "index",
    "parse_node",
]

#: The four colours in cycle order; a colour is its position in this string.
COLOURS = "GRYB"
#: English names of the colours, by colour number.
COLOUR_NAMES = ("green", "red", "yellow", "blue")
#: First node number of each level (index 0 unused): the spec's ``{1:0, 2:4, 3:20, 4:84}``.
LEVEL_START = (0, 0, 4, 20, 84)
#: Number of playable nodes (D-GEN-1).
NODE_COUNT = 340
#: Unit direction of each colour in the drawing: G top-left, R top-right, Y bottom-right,
#: B bottom-left, so every quadrangle reads G → R → Y → B clockwise.
DIRECTIONS = ((-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0))
#: Half the width of the drawing in units of H (the leaves reach ±1.875).
EXTENT = 1.875
#: ``ADJACENT_COLOURS[c]``: the two colours next to ``c`` in the cycle (``horizontal=adjacent``).
ADJACENT_COLOURS = tuple(frozenset({(c + 1) % 4, (c + 3) % 4}) for c in range(4))


def colour_of_letter(letter: str) -> int:
    """The colour number of ``G``, ``R``, ``Y`` or ``B`` (any case); ``ValueError`` otherwise."""
    position = COLOURS.find(letter.upper()) if len(letter) == 1 else -1
    if position < 0:
        raise ValueError(f"{letter!r} is not a colour; colours are G, R, Y and B")
    return position


def index(name: str) -> int:
    """The node number of a canonical (upper-case, no dots) name; ``KeyError`` if none."""
    return _INDEX[name]


def parse_node(text: str) -> int | None:
    """The node ``text`` names, reading the spec's loose form, or ``None``.

    Case is ignored and a ``.`` may stand between letters (``r.g.y`` = ``RGY``). Returns
    ``None`` for anything else, including names longer than 4 letters.
    """
    name = text.replace(".", "").upper()
    if ".." in text or text.startswith(".") or text.endswith("."):
        return None
    return _INDEX.get(name)


def _names() -> tuple[str, ...]:
    names: list[str] = []
    level = [""]
    for _ in range(4):
        level = [prefix + letter for prefix in level for letter in COLOURS]
        names.extend(level)
    return tuple(names)


NAMES: tuple[str, ...] = _names()
_INDEX: dict[str, int] = {name: i for i, name in enumerate(NAMES)}
LEVEL: tuple[int, ...] = tuple(len(name) for name in NAMES)
COLOUR: tuple[int, ...] = tuple(COLOURS.index(name[-1]) for name in NAMES)
BRANCH: tuple[int, ...] = tuple(COLOURS.index(name[0]) for name in NAMES)
PARENT: tuple[int, ...] = tuple(_INDEX[name[:-1]] if len(name) > 1 else -1 for name in NAMES)
CHILD: tuple[tuple[int, ...], ...] = tuple(
    tuple(_INDEX.get(name + letter, -1) for letter in COLOURS) for name in NAMES
)
SIBLING: tuple[tuple[int, ...], ...] = tuple(
    tuple(_INDEX[name[:-1] + letter] for letter in COLOURS) for name in NAMES
)


def _neighbours(node: int, colour: int, adjacent: bool) -> tuple[int, ...]:
    """Sibling, child and parent of ``node`` that have ``colour``, in node order."""
    found = []
    own = COLOUR[node]
    if colour != own and (not adjacent or colour in ADJACENT_COLOURS[own]):
        found.append(SIBLING[node][colour])
    if CHILD[node][colour] >= 0:
        found.append(CHILD[node][colour])
    parent = PARENT[node]
    if parent >= 0 and COLOUR[parent] == colour:
        found.append(parent)
    return tuple(sorted(found))


#: ``NEIGHBOURS[adjacent][node][colour]``: the spec's neighbours of ``node`` with that colour
#: (siblings, children and parent; the relation is symmetric). ``adjacent`` (``0`` or ``1``)
#: drops the diagonal siblings G–Y and R–B (option ``horizontal=adjacent``).
NEIGHBOURS: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = tuple(
    tuple(tuple(_neighbours(n, c, adjacent) for c in range(4)) for n in range(len(NAMES)))
    for adjacent in (False, True)
)
#: Every quadrangle by name: ``""`` (the top one) and each node of levels 1–3, with its four
#: nodes in colour order.
QUADRANGLES: dict[str, tuple[int, ...]] = {
    prefix: tuple(_INDEX[prefix + letter] for letter in COLOURS)
    for prefix in ("", *(name for name in NAMES if len(name) < 4))
}


def _position(name: str) -> tuple[float, float]:
    x = y = 0.0
    scale = 1.0
    for letter in name:
        dx, dy = DIRECTIONS[COLOURS.index(letter)]
        x += scale * dx
        y += scale * dy
        scale *= 0.5
    return (x, y)


POSITION: tuple[tuple[float, float], ...] = tuple(_position(name) for name in NAMES)
