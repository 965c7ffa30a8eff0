"""The move log as the service writes and reads it: how its rows are named and filtered.

Pure helpers shared by every use case (no database, no clock): the ``[k]resign`` meta move,
the ``timeout`` notice, which events are public and which private, a logged row as a
:class:`~bot.service.models.MoveRecord`, and the position string a spectator may see.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from datetime import datetime
from typing import Any

from bot.service import _codec
from bot.service.models import MoveRecord
from db import MoveRow, NewMove
from engines.base import ELIMINATED_EVENT, Engine, Event

__all__ = [
    "AUTOMATIC_EVENT",
    "HAS_PRIVATE_EVENTS",
    "RECENT_MOVES",
    "TIMEOUT_EVENT",
    "is_automatic",
    "is_resignation",
    "last_chosen",
    "left_seats",
    "move_record",
    "played_for_the_seat",
    "played_on_time_out",
    "private_events_of",
    "public_events",
    "public_position",
    "resign_move_text",
    "seats_told_privately",
    "turn_so_far",
]

#: How many of the last moves a snapshot carries (``/game info``).
RECENT_MOVES = 8
#: How far back a turn of many decisions is looked for when the snapshot's last moves do
#: not reach its beginning (:meth:`bot.service.play.Play` for the watchers' line).
TURN_LOOKBACK = 40
#: The event kind the service adds to a forced move it played for a seat (GEN-12, ORB-4).
AUTOMATIC_EVENT = "automatic"
#: Event kind of the notice logged with every move the bot plays because a seat's time ran
#: out. Unlike a forced pass's ``automatic`` notice it is the timed-out seat's turn: the
#: opponent's last move cannot be taken back across it.
TIMEOUT_EVENT = "timeout"
#: How a private event looks in the move log's JSON (``_codec.dump_events``): a quick test
#: before parsing a row, since most rows hold public events only.
HAS_PRIVATE_EVENTS = '"visible_to":['


def resign_move_text(seat: int) -> str:
    """``[k]resign``: how the move log records that seat ``k`` resigned from a game that the
    engine lets go on (the spec's meta move, e.g. Generator's ``[k]resign``)."""
    return f"[{seat}]resign"


def is_resignation(move: MoveRecord) -> bool:
    """Whether logged ``move`` is its seat's resignation (:func:`resign_move_text`)."""
    return move.seat is not None and move.text == resign_move_text(move.seat)


def last_chosen(records: Sequence[MoveRecord]) -> MoveRecord | None:
    """The last move a seat chose among ``records`` (oldest first): not a chance outcome,
    nor a forced pass the bot played for a seat (:data:`AUTOMATIC_EVENT`); ``None`` if
    none."""
    moved = (
        m
        for m in reversed(records)
        if m.seat is not None and m.seat >= 0 and not played_for_the_seat(m)
    )
    return next(moved, None)


def seats_told_privately(
    events: Iterable[Event], *, besides: Collection[int] = ()
) -> tuple[int, ...]:
    """The seats some of ``events`` showed something only they may see (a private event is
    visible to them), in seat order, leaving out the seats ``besides`` (a mover, who reads
    them in their answer)."""
    seats = {s for e in events if e.visible_to is not None for s in e.visible_to}
    return tuple(sorted(seats - set(besides)))


def played_for_the_seat(move: MoveRecord) -> bool:
    """Whether the bot played logged ``move`` for its seat because it was the only legal
    move, a forced pass (its :data:`AUTOMATIC_EVENT`: GEN-12, ORB-4); :func:`is_automatic`
    asks the same of a row as stored."""
    return move.seat is not None and any(e.kind == AUTOMATIC_EVENT for e in move.events)


def is_automatic(move: MoveRow) -> bool:
    """Whether the bot played this log row for a seat because it was forced (a ``pass`` that
    was the only legal move), not the player (:func:`played_for_the_seat` of a row as
    stored; a quick look at the JSON first). Moves played on a time-out carry a ``timeout``
    event instead: they are the timed-out seat's turn, so a takeback stops at them."""
    if move.seat is None or f'"{AUTOMATIC_EVENT}"' not in move.events_json:
        return False
    return any(e.kind == AUTOMATIC_EVENT for e in _codec.load_events(move.events_json))


def played_on_time_out(move: MoveRecord) -> bool:
    """Whether the bot played logged ``move`` for its seat on a time-out (its
    :data:`TIMEOUT_EVENT`: the game's time-out rule, or a resignation on time)."""
    return any(e.kind == TIMEOUT_EVENT for e in move.events)


def public_events(events: Sequence[Event]) -> tuple[Event, ...]:
    """The events everyone may see."""
    return tuple(e for e in events if e.visible_to is None)


def private_events_of(events: Sequence[Event], seats: Sequence[int]) -> tuple[Event, ...]:
    """The events only some seats may see (``visible_to`` set) that one of ``seats`` may see."""
    wanted = set(seats)
    return tuple(e for e in events if e.visible_to is not None and e.visible_to & wanted)


def move_record(move: MoveRow | NewMove, at: datetime) -> MoveRecord:
    """A logged (or about to be logged) row as a :class:`MoveRecord` with its public events
    only, stamped ``at``."""
    events = _codec.load_events(move.events_json)
    return MoveRecord(
        ply=move.ply,
        seat=move.seat,
        text=move.text,
        events=public_events(events),
        at=at,
    )


def public_position(engine: Engine[Any, Any], state: Any, *, active: bool) -> str:
    """The position string, or ``""`` while a game with hidden information goes on: its
    position holds every secret (Generation Zero R14: never posted before the end)."""
    if active and engine.info.has_hidden_information:
        return ""
    return engine.position(state)


def left_seats(moves: Sequence[MoveRow | NewMove]) -> tuple[tuple[int, str], ...]:
    """:attr:`GameSnapshot.left_seats` from a move log: a ``[k]resign`` row makes seat ``k``
    ``resigned``; a public ``eliminated`` event (Orbs, ORB-5) makes its seat ``eliminated``.
    Each seat once, in the order they left."""
    gone: dict[int, str] = {}
    for move in moves:
        if move.seat is not None and move.text == resign_move_text(move.seat):
            gone.setdefault(move.seat, "resigned")
            continue
        for event in public_events(_codec.load_events(move.events_json)):
            if event.kind == ELIMINATED_EVENT and event.seat is not None:
                gone.setdefault(event.seat, "eliminated")
    return tuple(gone.items())


def turn_so_far(
    records: Sequence[MoveRecord], seat: int, ply: int
) -> tuple[tuple[MoveRecord, ...], bool]:
    """The rows of ``seat``'s turn logged before ``ply`` (a turn of many decisions:
    Generation Zero), oldest first, from ``records`` (consecutive log rows, oldest first):
    the seat's rows back to the last row of another seat, with the chance outcomes among
    them but not those before its first decision (a deal, a new round). Another seat's
    resignation logged during the turn is passed over and left out (its own post told
    it). The flag says whether the turn's beginning is among ``records`` (another seat's
    row, or the game's first ply, came before it); if not, the turn began earlier than
    they reach."""
    earlier = [r for r in records if r.ply < ply]
    start = len(earlier)
    while start > 0 and (
        earlier[start - 1].seat in (seat, None) or is_resignation(earlier[start - 1])
    ):
        start -= 1
    whole = start > 0 or (earlier[0].ply == 1 if earlier else ply == 1)
    turn = [r for r in earlier[start:] if r.seat in (seat, None)]
    while turn and turn[0].seat is None:
        turn = turn[1:]
    return tuple(turn), whole
