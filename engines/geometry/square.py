"""The square grid (files ``a``…, ranks ``1``…) and its diamond drawing.

Cells are numbered ``index = x * size + y`` (x = file, y = rank, both 0-based), which is also
the order the position notations sort by (``a1 < a2 < … < a8 < b1``). A :class:`SquareGrid` is
built once per size and cached; everything in it is immutable.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

__all__ = ["DIRECTIONS", "ORTHOGONAL", "Point", "SquareGrid"]

#: The 8 king directions (dx, dy), in a fixed order.
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1),
)  # fmt: skip
#: The 4 edge-sharing directions.
ORTHOGONAL: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class SquareGrid:
    """An ``size`` × ``size`` grid of cells named ``a1``… with precomputed neighbour tables.

    Attributes (all tuples indexed by cell index):

    * ``names[i]`` — ``"a1"`` …; ``index_of`` maps a lower-case name back.
    * ``step[i][d]`` — the neighbour of ``i`` in ``DIRECTIONS[d]``, or ``-1`` off the board.
    * ``ray[i][d]`` — the cells from ``i`` outward in direction ``d``, nearest first.
    * ``orthogonal[i]`` — the edge-sharing neighbours of ``i``.
    """

    size: int
    names: tuple[str, ...]
    index_of: dict[str, int]
    step: tuple[tuple[int, ...], ...]
    ray: tuple[tuple[tuple[int, ...], ...], ...]
    orthogonal: tuple[tuple[int, ...], ...]

    @staticmethod
    @cache
    def of(size: int) -> SquareGrid:
        """The (cached) grid of the given size (1–26 files)."""
        if not 1 <= size <= 26:
            raise ValueError("size must be 1–26")

        def inside(x: int, y: int) -> bool:
            return 0 <= x < size and 0 <= y < size

        names = tuple(f"{chr(97 + i // size)}{i % size + 1}" for i in range(size * size))
        step: list[tuple[int, ...]] = []
        ray: list[tuple[tuple[int, ...], ...]] = []
        orthogonal: list[tuple[int, ...]] = []
        for i in range(size * size):
            x, y = divmod(i, size)
            step.append(
                tuple(
                    (x + dx) * size + y + dy if inside(x + dx, y + dy) else -1
                    for dx, dy in DIRECTIONS
                )
            )
            rays = []
            for dx, dy in DIRECTIONS:
                cells = []
                k = 1
                while inside(x + k * dx, y + k * dy):
                    cells.append((x + k * dx) * size + y + k * dy)
                    k += 1
                rays.append(tuple(cells))
            ray.append(tuple(rays))
            orthogonal.append(
                tuple((x + dx) * size + y + dy for dx, dy in ORTHOGONAL if inside(x + dx, y + dy))
            )
        return SquareGrid(
            size=size,
            names=names,
            index_of={name: i for i, name in enumerate(names)},
            step=tuple(step),
            ray=tuple(ray),
            orthogonal=tuple(orthogonal),
        )

    @property
    def cells(self) -> range:
        return range(self.size * self.size)

    def xy(self, index: int) -> tuple[int, int]:
        """``(file, rank)``, both 0-based."""
        return divmod(index, self.size)

    def index(self, x: int, y: int) -> int:
        return x * self.size + y

    # ---- the diamond drawing (spec generatorb G30) ----------------------------------------

    def diamond_centre(self, index: int) -> Point:
        """Centre of a cell in the diamond drawing, in unit space ``[0, 1]²`` (y down).

        ``a1`` is at the bottom, the last cell at the top, ``a<size>`` left, ``<last>1`` right:
        X = ½ + (x − y)·h, Y = 1 − (x + y + 1)·h with h = 1 / (2·size), half a rhombus diagonal.
        """
        h = self.diamond_half_diagonal
        x, y = divmod(index, self.size)
        return (0.5 + (x - y) * h, 1.0 - (x + y + 1) * h)

    @property
    def diamond_half_diagonal(self) -> float:
        return 1.0 / (2 * self.size)

    def diamond_outline(self, index: int) -> tuple[Point, Point, Point, Point]:
        """The rhombus of a cell in unit space: top, right, bottom, left corners."""
        cx, cy = self.diamond_centre(index)
        h = self.diamond_half_diagonal
        return ((cx, cy - h), (cx + h, cy), (cx, cy + h), (cx - h, cy))
