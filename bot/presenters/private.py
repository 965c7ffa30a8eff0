"""Hidden information: what one player alone may read, always sent ephemerally to them — the
mover's confirmation with the events only their seat sees, and the text beside their private
picture ("My view", ``/hand``).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.presenters.common import _capitalised, _code, seat_label
from bot.service import TurnResult
from bot.service.models import PrivateView
from engines.base import Event

__all__ = ["move_ack_text", "private_view_text"]


def _private_lines(events: Iterable[Event]) -> list[str]:
    return [f"• {_capitalised(e.text)}" for e in events]


def move_ack_text(result: TurnResult, *, posted: bool) -> str:
    """The mover's private confirmation.

    Says so when the public post could not be made; lists what only the mover's seat may
    see of this move (:attr:`TurnResult.private_events`); and when the mover decides again
    (:attr:`TurnResult.turn_goes_on`), what is pending — the engine's prompt.
    """
    what = "board" if not result.turn_goes_on else "move"
    if posted:
        lines = [f"Played {_code(result.move)}."]
    else:
        lines = [
            f"Played {_code(result.move)}, but I could not post the {what} in this channel; "
            "`/board` shows it."
        ]
    if result.private_events:
        lines.append("Only you see:")
        lines.extend(_private_lines(result.private_events))
    if result.turn_goes_on:
        prompt = result.snapshot.prompt
        lines.append(f"Still your turn: {prompt}" if prompt else "Still your turn.")
    return "\n".join(lines)


def private_view_text(private: PrivateView) -> str:
    """The text beside a player's private picture ("My view", ``/hand``), ephemeral.

    Which game and seat, what the seat must decide now (the engine's prompt) or that it is
    waiting, and its latest private events with their plies, oldest first.
    """
    head = (
        f"**{private.game_name}** · game {private.game_id} · ply {private.ply} · "
        f"your private view as {seat_label(private.seat_name)}"
    )
    lines = [head]
    if not private.is_active:
        lines.append("The game is over.")
    elif private.to_move:
        lines.append(
            f"Your decision: {private.prompt}" if private.prompt else "It is your decision."
        )
    else:
        lines.append("Not your decision now.")
    if private.events:
        lines.append("Only you saw:")
        lines.extend(
            f"• ply {item.ply}: {_capitalised(item.event.text)}" for item in private.events
        )
    return "\n".join(lines)
