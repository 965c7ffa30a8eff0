"""Game engines: pure rules, one module per game, and the registry the bot and CLI use.

The registry is built from an explicit tuple, so adding a game is one line here.
"""

from __future__ import annotations

from typing import Any

from engines.arbos import ArbosEngine
from engines.base import Engine, UsageError
from engines.generation_zero import GenerationZeroEngine
from engines.generator import GeneratorEngine
from engines.generatorb import GeneratorbEngine
from engines.orbs import OrbsEngine

__all__ = ["ENGINES", "get_engine"]

#: Every registered engine by game id, in the order menus list them.
ENGINES: dict[str, Engine[Any, Any]] = {
    engine.info.id: engine
    for engine in (
        GeneratorbEngine(),
        ArbosEngine(),
        GeneratorEngine(),
        OrbsEngine(),
        GenerationZeroEngine(),
    )
}


def get_engine(game_id: str) -> Engine[Any, Any]:
    """The engine for ``game_id``; raises :class:`UsageError` listing the known games."""
    try:
        return ENGINES[game_id]
    except KeyError:
        known = ", ".join(ENGINES)
        raise UsageError(f"unknown game {game_id!r}; games are: {known}") from None
