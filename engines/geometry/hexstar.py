"""The Chinese-checkers star of Orbs: 121 hex cells, its central hexagon and the torus (spec orbs).

Cells are axial ``(q, r)`` with ``s = -q - r``; a larger ``r`` is lower on the picture. A cell is
named by its row letter ``A``–``Q`` (``r = -8 … 8``) and its 1-based index from the left of that
row (``index = q - qmin(r) + 1``), so the centre ``(0, 0)`` is ``I5`` (spec orbs, *Board and
coordinates*, D-ORB-1).

Cells are numbered ``0 … 120`` in the spec's canonical *board order* (row A→Q, then index), so
sorting cell numbers sorts names the way positions print them. Every table here is a tuple
indexed by cell number, computed once at import:

* :data:`AXIAL`, :data:`NAMES` (``"I5"``), :data:`INDEX` (upper-case name → number);
* :data:`HEXAGON`: the 61 cells with ``max(|q|, |r|, |s|) <= 4``;
* :data:`POINTS`: the six 10-cell points by name (``"N"`` … ``"NW"``), each in zone-label order
  ``a1 b1 b2 c1 c2 c3 d1 d2 d3 d4``; :data:`HEX_ZONES`: the six 6-cell triangles of the hexagon
  board in order ``h1 … h6`` (both built by turning the N tables about the centre);
* :func:`neighbours` ``(board, wrap)``: the six-direction adjacency of a board shape, before holes;
* :data:`SEAM`: on the torus, the neighbours each hexagon cell reaches across the seam;
* :func:`centre`: the spec's pointy-top drawing position in unit space (``k = 1``).
"""

from __future__ import annotations

from functools import cache
from math import sqrt

__all__ = [
    "AXIAL",
    "BOARDS",
    "CELL_COUNT",
    "DIRECTIONS",
    "HEXAGON",
    "HEX_ZONES",
    "INDEX",
    "NAMES",
    "POINTS",
    "POINT_ORDER",
    "ROWS",
    "SEAM",
    "TORUS_SHIFTS",
    "WRAPS",
    "cells_of",
    "centre",
    "neighbours",
    "parse_cell",
    "turn",
]

#: Board shapes (option ``board``) and wrap modes (option ``wrap``).
BOARDS: tuple[str, ...] = ("star", "hexagon")
WRAPS: tuple[str, ...] = ("none", "torus")

#: The six axial offsets: right, left, down-right, up-left, up-right, down-left.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))

#: The torus translations T of the spec: an off-board neighbour ``c`` maps to ``c - t``.
TORUS_SHIFTS: tuple[tuple[int, int], ...] = ((9, -4), (4, 5), (-5, 9), (-9, 4), (-4, -5), (5, -9))

#: The points in clockwise order on screen, starting at the top.
POINT_ORDER: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")


def _on_star(q: int, r: int) -> bool:
    s = -q - r
    return (q >= -4 and r >= -4 and s >= -4) or (q <= 4 and r <= 4 and s <= 4)


def _in_hexagon(q: int, r: int) -> bool:
    return max(abs(q), abs(r), abs(q + r)) <= 4


#: Per row letter ``A``–``Q``: ``(r, qmin, qmax)``.
ROWS: tuple[tuple[int, int, int], ...] = tuple(
    (r, min(qs), max(qs))
    for r in range(-8, 9)
    for qs in [[q for q in range(-8, 9) if _on_star(q, r)]]
)

AXIAL: tuple[tuple[int, int], ...] = tuple(
    (q, r) for r, qmin, qmax in ROWS for q in range(qmin, qmax + 1)
)
CELL_COUNT = len(AXIAL)
NAMES: tuple[str, ...] = tuple(f"{chr(ord('A') + r + 8)}{q - ROWS[r + 8][1] + 1}" for q, r in AXIAL)
INDEX: dict[str, int] = {name: i for i, name in enumerate(NAMES)}
_AT: dict[tuple[int, int], int] = {qr: i for i, qr in enumerate(AXIAL)}

#: The 61 cells of the central hexagon.
HEXAGON: frozenset[int] = frozenset(i for i, (q, r) in enumerate(AXIAL) if _in_hexagon(q, r))


def turn(cell: int, times: int = 1) -> int:
    """``cell`` turned ``times`` × 60° clockwise about the centre: ``(q, r, s) → (−r, −s, −q)``."""
    q, r = AXIAL[cell]
    for _ in range(times % 6):
        q, r = -r, q + r
    return _AT[(q, r)]


def _turned(labels: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
    base = tuple(INDEX[name] for name in labels)
    return {
        point: tuple(turn(cell, times) for cell in base) for times, point in enumerate(POINT_ORDER)
    }


#: The 10-cell points in label order ``a1 b1 b2 c1 c2 c3 d1 d2 d3 d4`` (spec: *Start zones*).
POINTS: dict[str, tuple[int, ...]] = _turned(
    ("A1", "B1", "B2", "C1", "C2", "C3", "D1", "D2", "D3", "D4")
)
#: The hexagon board's 6-cell zones in label order ``h1 … h6`` (spec: *Start zones*, D-ORB-14).
HEX_ZONES: dict[str, tuple[int, ...]] = _turned(("E6", "E7", "E8", "F6", "F7", "G6"))


def cells_of(board: str) -> frozenset[int]:
    """The cells of a board shape: all 121 for ``"star"``, the 61 of :data:`HEXAGON` otherwise."""
    return frozenset(range(CELL_COUNT)) if board == "star" else HEXAGON


def _torus_image(q: int, r: int) -> int:
    for tq, tr in TORUS_SHIFTS:
        if _in_hexagon(q - tq, r - tr):
            return _AT[(q - tq, r - tr)]
    raise AssertionError(f"no torus image for {(q, r)}")  # unreachable: T tiles the plane


@cache
def neighbours(board: str, wrap: str = "none") -> tuple[tuple[int, ...], ...]:
    """Per cell, its neighbours on ``board`` (``"star"``/``"hexagon"``) under ``wrap``, sorted.

    Cells off the board get ``()``. Holes are not removed here (the engine does that). With
    ``wrap="torus"`` (hexagon only) every hexagon cell has exactly 6 distinct neighbours.
    Raises ``ValueError`` for an unknown board or wrap, or a torus on the star.
    """
    if board not in BOARDS or wrap not in WRAPS:
        raise ValueError(f"unknown board/wrap {board!r}/{wrap!r}")
    if wrap == "torus" and board != "hexagon":
        raise ValueError("the torus exists only on the hexagon board")
    playable = cells_of(board)
    table: list[tuple[int, ...]] = []
    for cell, (q, r) in enumerate(AXIAL):
        if cell not in playable:
            table.append(())
            continue
        found: set[int] = set()
        for dq, dr in DIRECTIONS:
            other = _AT.get((q + dq, r + dr))
            if other is not None and other in playable:
                found.add(other)
            elif wrap == "torus":
                found.add(_torus_image(q + dq, r + dr))
        table.append(tuple(sorted(found)))
    return tuple(table)


def _seam() -> dict[int, tuple[int, ...]]:
    plain, torus = neighbours("hexagon"), neighbours("hexagon", "torus")
    return {
        cell: tuple(n for n in torus[cell] if n not in plain[cell])
        for cell in sorted(HEXAGON)
        if len(torus[cell]) != len(plain[cell])
    }


#: On the torus: each hexagon edge cell → the cells it reaches across the seam, sorted.
SEAM: dict[int, tuple[int, ...]] = _seam()


def parse_cell(text: str) -> int | None:
    """The cell number of a name like ``"i5"`` (any case), or ``None`` if no such star cell."""
    return INDEX.get(text.strip().upper())


def centre(cell: int) -> tuple[float, float]:
    """The spec's pointy-top drawing position of ``cell`` for ``k = 1``, centre at ``(0, 0)``.

    ``x = √3·(q + r/2)``, ``y = 1.5·r`` (y grows downwards); neighbours are √3 apart.
    """
    q, r = AXIAL[cell]
    return sqrt(3) * (q + r / 2), 1.5 * r
