"""Board geometry, computed once per board: cells, neighbours, labels and unit-space layouts.

Renderers only scale these layouts; they never compute neighbours or parse labels.
"""

from engines.geometry.square import DIRECTIONS, SquareGrid

__all__ = ["DIRECTIONS", "SquareGrid"]
