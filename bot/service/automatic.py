"""The steps nobody decides: chance outcomes and forced passes, played by the service.

A pure function of the game's metadata and a state; the core (:meth:`GameCore.settle
<bot.service.core.GameCore.settle>`) and every use case that changes a position (a move, a
resignation, a time-out) play them before they commit, so the log and the state they store
never wait at a step nobody can take.
"""

from __future__ import annotations

from typing import Any

from bot.service import _codec
from bot.service._cache import GameMeta
from bot.service.logbook import AUTOMATIC_EVENT
from db import NewMove
from engines.base import CHANCE, Event

__all__ = ["MAX_AUTOMATIC_STEPS", "MAX_CHANCE_CHAIN", "automatic_steps"]

#: A chance node that leads to another chance node more often than this is an engine bug.
MAX_CHANCE_CHAIN = 64
#: Forced moves the bot plays in a row before it leaves the players to pass themselves.
MAX_AUTOMATIC_STEPS = 32


def automatic_steps(
    meta: GameMeta, state: Any, first_ply: int
) -> tuple[Any, list[NewMove], list[Event]]:
    """Play the steps nobody decides, from ``state`` on: chance outcomes and forced moves.

    Each chance outcome is drawn by the engine's own generator (seed and draw counter live
    in the state), so another process, or ``python -m engines`` with the same seed and
    moves, draws the same one; it is logged with seat ``None``. For engines with
    :attr:`~engines.base.Engine.plays_forced_moves` (Generator GEN-12), a seat whose only
    legal move is ``pass`` has it played and logged under its seat, with an ``automatic``
    event saying so. After :data:`MAX_AUTOMATIC_STEPS` forced moves in a row the players
    are left to pass themselves, so a position where nobody can ever move cannot spin.
    Returns the state after the last step, the log rows starting at ``first_ply``, and
    their events.
    """
    engine = meta.engine
    moves: list[NewMove] = []
    events: list[Event] = []
    forced = 0
    while True:
        to_move = engine.to_move(state)
        seat: int | None = None
        if to_move == (CHANCE,):
            if len(moves) >= MAX_CHANCE_CHAIN + MAX_AUTOMATIC_STEPS:
                raise RuntimeError(f"{engine.info.id}: chance nodes without end")
            text = engine.sample_chance(state)
            transition = engine.apply_chance(state, text)
            state, step_events = transition.state, transition.events
        elif engine.plays_forced_moves and len(to_move) == 1 and forced < MAX_AUTOMATIC_STEPS:
            seat = to_move[0]
            only = engine.few_legal_moves(state, seat, 1)
            # Only a forced pass is played for a player (GEN-12, ORB-4): a single real move
            # is still the player's to make, or to resign instead.
            if only != ("pass",):
                break
            forced += 1
            state, text, played = engine.play(state, seat, only[0])
            who = meta.players[seat].seat_name
            notice = Event(AUTOMATIC_EVENT, seat, f"{who} has no legal move and passes")
            step_events = (notice, *played)
        else:
            break
        ply = first_ply + len(moves)
        moves.append(NewMove(ply, seat, text, _codec.dump_events(step_events)))
        events.extend(step_events)
    return state, moves, events
