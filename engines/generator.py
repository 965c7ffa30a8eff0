"""Generator: Looney Pyramids on the GRYB board, 2–4 players and a colour die (spec generator).

Rule ids ``GEN-1`` … ``GEN-15`` and decisions ``D-GEN-1`` … ``D-GEN-23`` refer to
``shared/specs/generator.md``. The board is :mod:`engines.geometry.gryb` (node numbers
0…339 in canonical order; colours 0…3 = G, R, Y, B).
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.base import Outcome

__all__ = ["GeneratorView", "LastAction"]

#: Sizes of pyramids, smallest first; a stack is written bottom to top, largest first.
SIZES = "SML"


@dataclass(frozen=True, slots=True)
class LastAction:
    """The most recent action, for the picture's highlight.

    ``kind`` is ``"move"``, ``"entry"``, ``"pass"`` or ``"resign"``; ``unit`` the pyramids that
    moved or entered, bottom to top (``"MS"``, ``"L"``; ``""`` for a pass or resignation);
    ``origin`` and ``destination`` are node numbers (an entry has ``origin None`` and the
    start node as destination; a pass or resignation has neither). ``captured`` is
    ``(owner seat, sizes bottom to top)`` of the stack sent home, or ``None``. ``roll`` is the
    colour the action was made with (``None`` for a resignation out of turn).
    """

    seat: int
    kind: str
    unit: str
    origin: int | None
    destination: int | None
    captured: tuple[int, str] | None
    roll: int | None


@dataclass(frozen=True, slots=True)
class GeneratorView:
    """Everything a renderer or presenter needs; Generator has no hidden information.

    ``colours[seat]`` is each seat's colour number. ``stacks`` lists ``(node, owner seat,
    sizes bottom to top)`` for every occupied node in node order. ``stashes[seat]`` is the
    ``(S, M, L)`` counts off the board, or ``None`` for a seat that resigned. ``to_move`` is the
    seat to act (``None`` once over); ``roll`` the colour it rolled (``None`` while the roll is
    pending or once over); ``extra_turn`` is true when this turn follows a capture (GEN-11).
    ``count`` is the number of turns played (COUNT); ``max_turns`` 0 means no limit.
    ``reachable`` lists, in node order, the nodes the seat to act can move or enter onto with
    this roll (empty when no roll is known).
    """

    colours: tuple[int, ...]
    stacks: tuple[tuple[int, int, str], ...]
    stashes: tuple[tuple[int, int, int] | None, ...]
    to_move: int | None
    roll: int | None
    extra_turn: bool
    count: int
    max_turns: int
    reachable: tuple[int, ...]
    outcome: Outcome | None
    last: LastAction | None
    viewer: int | None
