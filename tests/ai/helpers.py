"""Shared helpers for the AI tests: game setup and a stand-in determinization."""

from __future__ import annotations

from typing import Any, cast

from engines import get_engine
from engines.base import CHANCE
from engines.generation_zero import GenerationZeroEngine
from engines.generatorb import GeneratorbEngine

#: Generatorb and its default two-player options, for the tests of the solver and the
#: blunder check on hand-made positions.
GENERATORB = cast(GeneratorbEngine, get_engine("generatorb"))
GENERATORB_OPTIONS = GENERATORB.options_for(GENERATORB.resolve_options({}), 2)
#: South to move just after North's g8xa2 (opening a1-c3, h8-f6, b1-d5, g8xa2): North's orb
#: on a2 threatens South's core a1 (spec generatorb G24), and 21 of South's 25 moves lose
#: within four plies.
SOUTH_IN_TROUBLE = (
    "S:a1,b1,b2,c3,d4=3,d5 N:a2,e5=3,f6,g7,g8,h7,h8 supply:15/15 turn:S ply:4 passes:0"
)


def generatorb_state(position: str) -> Any:
    """The Generatorb state of ``position`` (position notation) with the default options."""
    return GENERATORB.from_position(position, GENERATORB_OPTIONS)


def wins_at_once(state: Any, seat: int) -> bool:
    """Brute force over every legal move: ``seat``, to move in the Generatorb ``state``,
    can end the game as its only winner."""
    for move in GENERATORB.legal_moves(state, seat):
        outcome = GENERATORB.outcome(GENERATORB.child(state, seat, move))
        if outcome is not None and outcome.winners == (seat,):
            return True
    return False


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
