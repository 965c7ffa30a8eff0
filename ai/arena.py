"""Whole games between bots, as the service would run them: for benchmarks and tests.

:func:`play_game` plays one seeded game. Chance nodes are sampled with the game's own seeded
generator (``engine.sample_chance``), exactly as the service does; each bot receives the
state (perfect information) or its own view (hidden information), never more. Every returned
text is checked with ``engine.parse_move`` before it is played, so an illegal move raises.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ai.bots import Bot
from ai.rewards import rewards_from_outcome
from ai.search import Budget
from engines.base import CHANCE, Engine, OptionValue, Outcome

__all__ = ["GameRecord", "play_game"]


@dataclass(slots=True)
class GameRecord:
    """One finished (or capped) game.

    ``outcome`` is ``None`` when ``max_plies`` stopped the game first. ``rewards`` per seat
    (:mod:`ai.rewards`; ½ each for a capped game). ``moves`` the canonical texts played,
    chance outcomes included; ``think`` ``(seat, seconds)`` per bot decision; ``state`` the
    final state.
    """

    outcome: Outcome | None
    rewards: tuple[float, ...]
    moves: list[str] = field(default_factory=list)
    think: list[tuple[int, float]] = field(default_factory=list)
    state: Any = None


def play_game(
    engine: Engine[Any, Any],
    players: int,
    options: Mapping[str, OptionValue],
    bots: Sequence[Bot],
    seed: int,
    *,
    budget: Budget | None = None,
    max_plies: int = 5_000,
) -> GameRecord:
    """Play a game of ``engine`` with ``bots[seat]`` in each seat and return its record.

    ``options`` are typed options (``resolve_options`` is applied, then ``options_for``);
    ``seed`` seeds the game and, mixed with the ply, each decision; ``budget`` overrides the
    bots' own. Raises whatever ``engine.parse_move`` raises for an illegal bot move.
    """
    resolved = engine.options_for(engine.resolve_options(options), players)
    state = engine.new_game(players, resolved, seed)
    hidden = engine.info.has_hidden_information
    record = GameRecord(None, (0.5,) * players)
    for ply in range(max_plies):
        acting = engine.to_move(state)
        if not acting:
            break
        if acting == (CHANCE,):
            text = engine.sample_chance(state)
            state = engine.apply_chance(state, text).state
            record.moves.append(text)
            continue
        seat = min(acting)
        subject = engine.view(state, seat) if hidden else state
        started = time.perf_counter()
        text = bots[seat].choose(engine, resolved, seat, subject, seed * 100_003 + ply, budget)
        record.think.append((seat, time.perf_counter() - started))
        move = engine.parse_move(state, seat, text)
        state = engine.apply(state, seat, move).state
        record.moves.append(text)
    record.state = state
    record.outcome = engine.outcome(state)
    if record.outcome is not None:
        record.rewards = rewards_from_outcome(record.outcome, players)
    return record
