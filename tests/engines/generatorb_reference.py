"""A deliberately naive second reading of the Generatorb movement rules, for cross-checks.

It enumerates jump *sequences* literally (G13: every path by depth-first search, with explicit
landing lists) on (x, y) coordinates, instead of the engine's reachability search over cell
tables. The two must agree on the set of (origin, destination, split, capture, merged height)
in every position. Slow on purpose: only tests use it.
"""

from __future__ import annotations

from collections.abc import Iterator

DIRS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
CORES = {(0, 0), (7, 7)}

Board = dict[tuple[int, int], tuple[int, int]]  # (x, y) -> (seat, height)


def on_board(x: int, y: int) -> bool:
    return 0 <= x < 8 and 0 <= y < 8


def globe_ok(board: Board, cell: tuple[int, int], origin: tuple[int, int]) -> bool:
    if cell in CORES:
        return False
    x, y = cell
    for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
        if (nx, ny) != origin and board.get((nx, ny), (0, 0))[1] == 3:
            return False
    return True


def jump_paths(board: Board, seat: int, origin: tuple[int, int]) -> Iterator[list[tuple[int, int]]]:
    """Every jump sequence from origin as its list of landing cells (G11–G13)."""

    def extend(path: list[tuple[int, int]]) -> Iterator[list[tuple[int, int]]]:
        here = path[-1] if path else origin
        for dx, dy in DIRS:
            over = (here[0] + dx, here[1] + dy)
            land = (here[0] + 2 * dx, here[1] + 2 * dy)
            if not on_board(*land) or over == origin or over not in board:
                continue
            owner, height = board[over]
            if height == 3 and owner != seat:
                continue
            if land == origin or land in path:
                continue
            new = [*path, land]
            yield new
            if land not in board:
                yield from extend(new)

    yield from extend([])


def moves(board: Board, seat: int) -> set[tuple[int, int, bool, bool, int]]:
    """(origin, destination, split, capture, merged) for every non-pass move, as cell indices."""
    out: set[tuple[int, int, bool, bool, int]] = set()

    def idx(c: tuple[int, int]) -> int:
        return c[0] * 8 + c[1]

    def land(
        origin: tuple[int, int], dest: tuple[int, int], arriving: int, strength: int, split: bool
    ) -> None:
        if dest not in board:
            if arriving == 3 and not globe_ok(board, dest, origin):
                return
            out.add((idx(origin), idx(dest), split, False, 0))
            return
        owner, height = board[dest]
        if owner != seat:
            if height < 3 and height <= strength:
                out.add((idx(origin), idx(dest), split, True, 0))
            return
        made = height + arriving
        if made <= 3 and (made < 3 or globe_ok(board, dest, origin)):
            out.add((idx(origin), idx(dest), split, False, made))

    for origin, (owner, height) in list(board.items()):
        if owner != seat:
            continue
        if height == 3:
            for dx, dy in DIRS:
                x, y = origin[0] + dx, origin[1] + dy
                while on_board(x, y) and (x, y) not in board:
                    land(origin, (x, y), 3, 0, False)
                    x, y = x + dx, y + dy
            continue
        variants = [(height, 1 if height == 1 else 2, False)]
        if height == 2:
            variants.append((1, 2, True))
        for arriving, strength, split in variants:
            for path in jump_paths(board, seat, origin):
                land(origin, path[-1], arriving, strength, split)
            if height == 2:
                for dx, dy in DIRS:
                    dest = (origin[0] + dx, origin[1] + dy)
                    if on_board(*dest):
                        land(origin, dest, arriving, strength, split)
    return out
