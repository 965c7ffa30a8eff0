"""Generatorb (The Front Line): the rules of ``shared/specs/generatorb.md``.

Rule ids (G1…G30, D-G…) in comments refer to that spec. Seat 0 is South, seat 1 is North.

Representation, chosen for speed (AI opponents will call ``legal_moves``/``apply`` constantly):
the board is a tuple of 64 small ints indexed ``x * 8 + y`` (see ``engines.geometry.square``);
``+h`` is a South stack of height ``h``, ``-h`` a North stack, ``0`` empty. Jump sequences are
searched over precomputed neighbour tables.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.base import Outcome
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
    ``path`` holds the intermediate landing cells the player typed (empty if none).
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
