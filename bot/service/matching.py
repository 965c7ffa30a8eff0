"""Matching what a player typed against their legal moves (``/move`` autocomplete)."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["filter_moves", "normalise_move_text"]

#: Move punctuation common to board-game notations, ignored by the second matching pass.
_SEPARATORS = str.maketrans("", "", "-:x+~/*#")


def normalise_move_text(text: str) -> str:
    """Move text as engines compare it: whitespace removed, lower case."""
    return "".join(text.split()).lower()


def filter_moves(moves: Sequence[str], typed: str, *, limit: int) -> list[str]:
    """The moves matching ``typed``, best matches first, at most ``limit``.

    Order: moves starting with the normalised text (whitespace removed, lower case; the
    moves are compared normalised the same way, so ``m:`` finds Generator's ``M:G-GR`` and
    ``g3`` Orbs' ``G3-G4``); then moves starting with it when separators are ignored on both
    sides (``a1a3`` finds ``a1-a3``); then moves containing it. Within each group, the input
    order is kept. The moves are returned as given (canonical).
    """
    needle = normalise_move_text(typed)
    if not needle:
        return list(moves[:limit])
    bare = needle.translate(_SEPARATORS)
    groups: tuple[list[str], list[str], list[str]] = ([], [], [])
    for move in moves:
        key = normalise_move_text(move)
        if key.startswith(needle):
            groups[0].append(move)
        elif bare and key.translate(_SEPARATORS).startswith(bare):
            groups[1].append(move)
        elif needle in key:
            groups[2].append(move)
    return [*groups[0], *groups[1], *groups[2]][:limit]
