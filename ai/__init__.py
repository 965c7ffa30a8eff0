"""Gameroom's computer opponents: pure, seeded Monte Carlo tree search over the engines.

The package imports only :mod:`engines` and the standard library (an import-linter contract
checks it). The service calls three functions, normally in a worker process:

* :func:`choose_move` ``(engine_id, options, seat, state_or_view, level, seed) -> str``: the
  bot's move as canonical text;
* :func:`assess` ``(engine_id, options, seat, state_or_view, seed, budget) -> float``: the
  seat's expected reward in ``[0, 1]`` (for draw offers);
* :func:`suggest` ``(engine_id, seat, state_or_view, seed, budget, count=3) ->
  tuple[Suggestion, ...]``: the best few moves, best first, for ``/hint``.

The first two accept ``options`` for symmetry with the engine contract and do not read it: a
state (or view) carries its rules.

Modules: :mod:`ai.rewards` (reward vectors from outcomes), :mod:`ai.evaluation` (per-game
cut-off evaluations), :mod:`ai.search` (UCT and SO-ISMCTS), :mod:`ai.levels` (levels 1–5 and
the entry points), :mod:`ai.bots` (the :class:`Bot` protocol, a random bot and an MCTS bot),
:mod:`ai.arena` (seeded games between bots, for tests and benchmarks), :mod:`ai.workers` (a
search process ends with the bot that started it).
See ``docs/ai.md``.
"""

from __future__ import annotations

from ai.bots import Bot, MctsBot, RandomBot
from ai.levels import GAME_LEVELS, LEVELS, Level, assess, choose_move, level, levels_for
from ai.search import Budget, Mcts, SearchResult

__all__ = [
    "GAME_LEVELS",
    "LEVELS",
    "Bot",
    "Budget",
    "Level",
    "Mcts",
    "MctsBot",
    "RandomBot",
    "SearchResult",
    "assess",
    "choose_move",
    "level",
    "levels_for",
]
