"""Takebacks and rematches: what the service may do, decided by pure functions.

Issue 7's social flow: a player may ask to take back their own last move (``/takeback``; the
opponent allows or refuses it) and, once a game is over, any player may ask for a rematch
(same game, same options and clock, seats rotated). The service
(:meth:`~bot.service.GameService.request_takeback`, :meth:`~bot.service.GameService.
answer_takeback`, :meth:`~bot.service.GameService.rematch`) reads the game, lets these
functions decide, and writes. Nothing here touches the database or the clock.

Which log rows a takeback removes (:func:`plan_takeback`): the requester's last move — the
last row a player chose, so not a chance outcome nor a forced move the bot played — and every
row logged after it, which may only be forced moves the bot played for a seat (an automatic
``pass``). It is refused when a removed row is a chance outcome (a die roll, a shuffle:
"never across a die roll"), a ``[k]resign``, or, in a game with hidden information, a row
that revealed something (:func:`reveals`).
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from ai.levels import LEVELS
from bot.service import _codec, bot_seats
from bot.service.bot_seats import bot_user_id, is_bot
from bot.service.errors import NotAPlayerError, ServiceError
from bot.service.logbook import AUTOMATIC_EVENT, is_automatic, resign_move_text
from bot.service.models import ChallengeInfo
from db import MoveRow
from db.ratings import is_anonymous
from engines.base import ENDED_EVENT, TURN_EVENT

__all__ = [
    "AUTOMATIC_EVENT",
    "PUBLIC_REVEALS",
    "TAKEBACK_CLOSED",
    "RematchError",
    "RematchOpenError",
    "RematchPlan",
    "RematchStartedError",
    "TakebackError",
    "TakebackPlan",
    "bots_at_level",
    "is_automatic",
    "plan_rematch",
    "plan_takeback",
    "reveals",
    "rotated_seating",
]


#: What an answer to a takeback request that is no longer open hears (answered, withdrawn, or
#: a move came first).
TAKEBACK_CLOSED = "This takeback request is no longer open."

#: Public event kinds that reveal hidden information, per game with hidden information.
#: Private events (``visible_to`` set) always reveal something to their seats; these public
#: ones turn a hidden card face up for everyone, or let a seat learn one. Generation Zero
#: (R14): ``fight`` makes a Monster public, ``battle`` makes the ensnared Canons of its 'Sues
#: public, ``chapter`` and ``ensnared`` add the acting seat to a Canon's ``known`` list. A
#: game with hidden information that is not listed here takes no takebacks at all.
PUBLIC_REVEALS: Mapping[str, frozenset[str]] = {
    "generation_zero": frozenset({"fight", "battle", "chapter", "ensnared"}),
}
#: How a refused takeback names a public reveal, by event kind (after "it …"): what that
#: kind may show, since the rule goes by kind (a battle without ensnared Canons shows
#: nothing, and is refused all the same). In order of preference when a row has several
#: (Generation Zero logs a battle as ``fight`` "a battle starts", then ``battle``).
_REVEAL_WORDS: Mapping[str, str] = {
    "battle": "started a battle, which turns any ensnared Canons face up",
    "fight": "started a Monster fight, which turns the Monster face up",
    "chapter": "played a chapter, which shows a Canon to the seat that plays it",
    "ensnared": "ensnared a Canon, which shows it to the seat that ensnares it",
}


class TakebackError(ServiceError):
    """A takeback cannot be asked for or allowed now; the message says why."""


class RematchError(ServiceError):
    """A rematch cannot be asked for from this game; the message says why."""


class RematchOpenError(RematchError):
    """A rematch of the game is already open: ``challenge`` is that challenge (the bot
    points at its post)."""

    def __init__(
        self,
        challenge: ChallengeInfo,
        message: str = "A rematch of this game is already open: answer that challenge.",
    ) -> None:
        super().__init__(message)
        self.challenge = challenge


class RematchStartedError(RematchOpenError):
    """The game's rematch has already started (``challenge`` is accepted; its ``game_id``
    names the rematch game). A game has one rematch: the next one is asked for under the
    rematch's own final board. This is what an old Rematch button or level menu meets after
    a game of bots only, whose rematch starts the moment it is opened."""

    def __init__(self, challenge: ChallengeInfo) -> None:
        super().__init__(challenge, "This game's rematch has already started.")


# ============================================================================================
# Takebacks
# ============================================================================================


@dataclass(frozen=True, slots=True)
class TakebackPlan:
    """What a takeback removes: ``seat``'s move ``move`` logged at ``ply`` and every row
    after it, whose texts ``removed`` lists oldest first (``move`` first); of the rows after
    the move, ``replies`` are the bot's own replies and ``forced`` the forced moves it played
    for a seat (each oldest first). The game goes back to the position after ply
    :attr:`to_ply`."""

    seat: int
    ply: int
    move: str
    removed: tuple[str, ...]
    replies: tuple[str, ...] = ()
    forced: tuple[str, ...] = ()

    @property
    def to_ply(self) -> int:
        """The last ply that stays in the log."""
        return self.ply - 1


def reveals(move: MoveRow, *, game: str, hidden_information: bool) -> bool:
    """Whether the row made hidden information known (only games with hidden information
    have any): one of its events is private (``visible_to`` set), or is a public event of a
    kind :data:`PUBLIC_REVEALS` lists for ``game``. A game with hidden information missing
    from that table is assumed to reveal something with every row."""
    return _reveal_words(move, game=game, hidden_information=hidden_information) is not None


def _reveal_words(move: MoveRow, *, game: str, hidden_information: bool) -> str | None:
    """What the row revealed, in words after "it" (``"showed a hidden card to a player"``,
    :data:`_REVEAL_WORDS`), or ``None`` if nothing (see :func:`reveals`)."""
    if not hidden_information:
        return None
    kinds = PUBLIC_REVEALS.get(game)
    if kinds is None:
        return "may have shown hidden information"
    events = _codec.load_events(move.events_json)
    if any(e.visible_to is not None for e in events):
        return "showed a hidden card to a player"
    found = {e.kind for e in events if e.kind in kinds}
    if not found:
        return None
    # The most telling kind: a battle begins with a ``fight`` event ("a battle starts").
    kind = next((k for k in _REVEAL_WORDS if k in found), min(found))
    return _REVEAL_WORDS.get(kind, "turned a hidden card face up")


def _chance_words(row: MoveRow) -> str:
    """A chance row told as its public events say it ("Red rolled yellow (Y)"), without the
    kinds the chat leaves out too (an ending, a turn banner), else in notation
    (`` `roll:Y` ``): a person refused a takeback reads the roll, not the code."""
    public = [
        e.text
        for e in _codec.load_events(row.events_json)
        if e.visible_to is None and e.kind not in (ENDED_EVENT, TURN_EVENT)
    ]
    return "; ".join(public) if public else f"`{row.text}`"


def plan_takeback(
    moves: Sequence[MoveRow],
    seats: Collection[int],
    *,
    game: str,
    hidden_information: bool,
    replies_of: Collection[int] = (),
) -> TakebackPlan:
    """The takeback of the last move of one of ``seats`` (the requester's), from the whole
    move log ``moves`` (plies in order). Moves of ``replies_of`` (the bot's seats, which
    answer at once) logged after it are taken back with it, so a person can take back a move
    against the bot although the bot has already replied.

    Raises :class:`TakebackError` when there is none to take back (no move of the
    requester's yet, or the opponent has moved since), when it is a resignation, or when a
    row to remove is a chance outcome or revealed hidden information (:func:`reveals`;
    the message says which row and what it may have shown).
    """
    last = len(moves) - 1
    while last >= 0 and (
        moves[last].seat is None or is_automatic(moves[last]) or moves[last].seat in replies_of
    ):
        last -= 1
    seat = moves[last].seat if last >= 0 else None
    if seat is None or seat not in seats:
        if not any(m.seat in seats and not is_automatic(m) for m in moves[: max(last, 0)]):
            raise TakebackError("You have not moved yet, so there is nothing to take back.")
        raise TakebackError(
            "Your opponent has moved since your last move; you can only take back your own "
            "last move, before the reply."
        )
    move = moves[last]
    if move.text == resign_move_text(seat):
        raise TakebackError("A resignation cannot be taken back.")
    removed = moves[last:]
    for row in removed:
        if row.seat is None:
            raise TakebackError(
                f"Your move was followed by a chance outcome ({_chance_words(row)}), and a "
                "takeback never undoes a die roll or a shuffle."
            )
        words = _reveal_words(row, game=game, hidden_information=hidden_information)
        if words is not None and row is move:
            raise TakebackError(f"Your move {words}, so it cannot be taken back.")
        if words is not None:
            after_it = "forced move" if is_automatic(row) else "bot's reply"
            raise TakebackError(
                f"The {after_it} `{row.text}` after your move {words}, so your move cannot "
                "be taken back."
            )
    after = removed[1:]
    return TakebackPlan(
        seat,
        move.ply,
        move.text,
        tuple(row.text for row in removed),
        replies=tuple(row.text for row in after if not is_automatic(row)),
        forced=tuple(row.text for row in after if is_automatic(row)),
    )


# ============================================================================================
# Rematches
# ============================================================================================


@dataclass(frozen=True, slots=True)
class RematchPlan:
    """The rematch challenge to open: ``challenger_id`` (the player who asked),
    ``invited_ids`` (every other person, in seat order), ``seating`` (user ids by new
    seat, :func:`rotated_seating`, bots included) and ``bot_levels`` (the level of each of
    the bot's seats in ``seating`` order, which the challenger gives back to the bot once the
    lobby is posted; empty for a game of people only)."""

    challenger_id: int
    invited_ids: tuple[int, ...]
    seating: tuple[int, ...]
    bot_levels: tuple[int, ...] = ()

    @property
    def has_bots(self) -> bool:
        """Whether the bot holds a seat (the Rematch button then offers a level menu)."""
        return bool(self.bot_levels)


def rotated_seating(user_ids: Sequence[int]) -> tuple[int, ...]:
    """Seats rotated by one: new seat ``k`` goes to the user of old seat ``k + 1`` (the
    user of the last seat moves to seat 0), so everyone moves one seat and, in a two-player
    game, the players swap."""
    return (*user_ids[1:], *user_ids[:1])


def bots_at_level(user_ids: Sequence[int], level: int) -> tuple[int, ...]:
    """``user_ids`` with every bot seat given to a bot of ``level`` instead (people keep
    theirs): the ``k``-th bot seat gets the bot user id of ``level`` and instance ``k``, so
    several bots of one level stay apart, as the lobby seats them
    (:func:`bot.service.lobby_rules.bot_press` takes the first free instance)."""
    instances = itertools.count()
    return tuple(bot_user_id(level, next(instances)) if is_bot(u) else u for u in user_ids)


def plan_rematch(
    status: str, user_ids: Sequence[int], user_id: int, *, bot_level: int | None = None
) -> RematchPlan:
    """Decide whether ``user_id`` may ask for a rematch of a game with ``status`` whose
    seats (in order) are held by ``user_ids``.

    ``bot_level`` (1–5) gives every bot seat of the rematch to the bot at that level; ``None``
    keeps each bot seat at the level it had. A game without bot seats ignores it.

    Raises :class:`~bot.service.errors.NotAPlayerError` for anyone without a seat and
    :class:`RematchError` for a ``bot_level`` outside 1–5, a game that goes on, an aborted
    game, a game where one user held several seats (a challenge seats each user once), or
    one with a seat of a user forgotten by ``/forget-me`` (an anonymous id nobody can accept
    for).
    """
    if bot_level is not None and not 1 <= bot_level <= len(LEVELS):
        raise RematchError(f"Bot levels are 1 to {len(LEVELS)}.")
    if user_id not in user_ids:
        raise NotAPlayerError("Only the players can ask for a rematch.")
    if status == "active":
        raise RematchError("This game is still going on; ask for a rematch once it is over.")
    if status == "aborted":
        raise RematchError(
            "This game was aborted, so there is nothing to play again; "
            "use /challenge for a new game."
        )
    if len(set(user_ids)) != len(user_ids):
        raise RematchError(
            "A player held several seats in this game, and a challenge seats each player "
            "once; use /challenge for a new game."
        )
    if any(is_anonymous(u) for u in user_ids):
        raise RematchError(
            "A player of this game has left Gameroom's records (/forget-me), so they cannot "
            "be invited again; use /challenge for a new game."
        )
    seating = rotated_seating(user_ids)
    if bot_level is not None:
        seating = bots_at_level(seating, bot_level)
    return RematchPlan(
        challenger_id=user_id,
        invited_ids=tuple(u for u in user_ids if u != user_id and not is_bot(u)),
        seating=seating,
        bot_levels=tuple(level for u in seating if (level := bot_seats.bot_level(u)) is not None),
    )
