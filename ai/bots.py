"""The :class:`Bot` contract and two bots: uniformly random play and MCTS at a level.

A bot answers one question: given the engine, the game's options, a seat that is to move, what
that seat may know (the state for perfect information, the seat's view otherwise), a seed and a
budget, which move (canonical text) does it play? Benchmarks and tests pit bots against each
other through this protocol; the service uses :func:`ai.levels.choose_move`, which is
:class:`MctsBot` by engine id.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Protocol

from ai.levels import Level, decide, level
from ai.search import Budget, determinize_supported
from engines.base import Engine, OptionValue

__all__ = ["Bot", "MctsBot", "RandomBot"]


class Bot(Protocol):
    """A player. ``name`` is for tables; :meth:`choose` must return the canonical text
    (``engine.format_move``) of a legal move of ``seat``, which is to move."""

    name: str

    def choose(
        self,
        engine: Engine[Any, Any],
        options: Mapping[str, OptionValue],
        seat: int,
        state_or_view: Any,
        seed: int,
        budget: Budget | None = None,
    ) -> str:
        """The move ``seat`` plays. ``state_or_view`` is the state when
        ``engine.info.has_hidden_information`` is false, else ``engine.view(state, seat)``.
        ``budget`` overrides the bot's own, where it has one."""
        ...


class RandomBot:
    """Plays a uniformly random legal move (seeded). With a view, the legal moves come from
    one determinization of it (``engine.determinize``)."""

    name = "random"

    def choose(
        self,
        engine: Engine[Any, Any],
        options: Mapping[str, OptionValue],
        seat: int,
        state_or_view: Any,
        seed: int,
        budget: Budget | None = None,
    ) -> str:
        state = state_or_view
        if engine.info.has_hidden_information:
            if not determinize_supported(engine):
                raise NotImplementedError(f"{engine.info.id} cannot determinize a view")
            state = engine.determinize(state_or_view, seat, seed)
        moves = engine.legal_moves(state, seat)
        if not moves:
            raise ValueError(f"seat {seat} has no legal move")
        move = moves[int(random.Random(seed).random() * len(moves))]
        return engine.format_move(state, move)


class MctsBot:
    """MCTS (UCT, or SO-ISMCTS for a view) at a :class:`~ai.levels.Level`.

    ``which``: a level number or name, resolved in each game's own table
    (:func:`~ai.levels.levels_for`), or a :class:`~ai.levels.Level` played as it is. A
    ``budget`` given to :meth:`choose` replaces the level's (its mistake temperature stays).
    """

    def __init__(self, which: int | str | Level) -> None:
        self.which = which
        self.level = level(which)
        self.name = f"L{self.level.number} {self.level.name}"

    def choose(
        self,
        engine: Engine[Any, Any],
        options: Mapping[str, OptionValue],
        seat: int,
        state_or_view: Any,
        seed: int,
        budget: Budget | None = None,
    ) -> str:
        lvl = level(self.which, engine.info.id)
        return decide(
            engine,
            seat,
            state_or_view,
            is_view=engine.info.has_hidden_information,
            lvl=lvl,
            budget=budget or lvl.budget,
            seed=seed,
        )
