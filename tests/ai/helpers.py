"""Shared helpers for the AI tests: game setup and a stand-in determinization."""

from __future__ import annotations

from typing import Any

from engines import get_engine
from engines.base import CHANCE
from engines.generation_zero import GenerationZeroEngine


def new_state(game: str, players: int, seed: int, **options: Any) -> tuple[Any, dict[str, Any]]:
    """A new game's state past any opening chance draws, and its stored options."""
    engine = get_engine(game)
    resolved = engine.options_for(engine.resolve_options(options), players)
    state = engine.new_game(players, resolved, seed)
    while engine.to_move(state) == (CHANCE,):
        state = engine.apply_chance(state, engine.sample_chance(state)).state
    return state, resolved


class PeekingGenerationZero(GenerationZeroEngine):
    """Generation Zero whose ``determinize`` returns one fixed true state.

    Only for exercising the ISMCTS loop (legal moves, whole games) while the engine's own
    ``determinize`` hook may be missing: it *cheats*, so it is never used for the
    hidden-information test.
    """

    def __init__(self, truth: Any) -> None:
        self.truth = truth

    def determinize(self, view: Any, seat: int, seed: int) -> Any:
        return self.truth
