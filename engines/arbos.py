"""Arbos: spores, seeds and trees on a 20×20 board (spec arbos).

Rule ids ``A1`` … ``A23`` and decisions ``D-A1`` … ``D-A21`` refer to
``shared/specs/arbos.md``. Seat 0 is White (acts first), seat 1 is Black.

Cells are numbered ``0 … 399`` in reading order (D-A1): ``row * 20 + column`` with row 0 =
``A`` at the top and column 0 = ``1`` at the left, so ``A1`` is 0, ``A20`` is 19 and ``T20``
is 399. A board is a tuple of 400 ints: :data:`EMPTY`, :data:`WHITE` (a White spore),
:data:`BLACK` (a Black spore) or :data:`SEED`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.base import Outcome

__all__ = ["BLACK", "EMPTY", "SEED", "SIZE", "WHITE", "ArbosAction", "ArbosView", "cell_name"]

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
