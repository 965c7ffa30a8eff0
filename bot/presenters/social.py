"""Takebacks and rematches: ``/takeback`` and its Allow / Refuse buttons, the Rematch button
(``bot/cogs/social.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.presenters.common import _code, _join, _mentions, _player, mention
from bot.presenters.turns import _to_move_text
from bot.service import ChallengeInfo
from bot.service.bot_seats import BOT_NAME
from bot.service.models import TakebackAnswer, TakebackRequest

__all__ = [
    "REMATCH_ALREADY_CHOSEN",
    "TAKEBACK_REQUEST_CLOSED",
    "TAKEBACK_REQUEST_ENDED",
    "TAKEBACK_REQUEST_LAPSED",
    "rematch_level_prompt",
    "rematch_open_text",
    "rematch_posted_text",
    "takeback_answer_text",
    "takeback_done_text",
    "takeback_request_text",
]


#: A takeback request post whose request was answered, withdrawn or overtaken by a move or
#: the game's end, found so on a press or when the post is stored (``bot/ui/offers.py``).
TAKEBACK_REQUEST_CLOSED = (
    "This takeback request is no longer open: it was answered, or the game went on without it."
)
#: The request's post once a move refused it (the buttons are removed).
TAKEBACK_REQUEST_LAPSED = "This takeback request lapsed: a move was played instead."
#: The request's post once the game ended another way (resignation, abort, time-out).
TAKEBACK_REQUEST_ENDED = "This takeback request lapsed: the game ended."


def takeback_request_text(request: TakebackRequest) -> str:
    """The public request (Allow / Refuse buttons are added by the caller), pinging the
    opponent: ``<@1> asks to take back `a1-a3`. <@2>, do you allow it? (A move refuses
    it.)``"""
    return (
        f"{mention(request.user_id)} asks to take back {_code(request.move)}. "
        f"{_mentions(request.opponent_user_ids)}, do you allow it? (A move refuses it.)"
    )


def takeback_answer_text(answer: TakebackAnswer) -> str:
    """The request post once answered: allowed, refused or withdrawn."""
    if answer.accepted:
        taker = mention(answer.user_id)
        return f"{mention(answer.by_user_id)} allowed it: {taker} took back {_taken_back(answer)}."
    if answer.withdrawn:
        return f"{mention(answer.user_id)} withdrew the takeback request; the game goes on."
    return (
        f"{mention(answer.by_user_id)} refused to let {mention(answer.user_id)} take the move "
        "back; the game goes on."
    )


def takeback_done_text(answer: TakebackAnswer) -> str:
    """The board post after an allowed takeback: who took back what (and what the bot had
    played after it: its reply, forced moves), then whose move it is now.

    ``<@1> (South) took back `a1-a3` and the bot's reply `h6-i5` after it.`` then ``<@1>,
    your move (South).``
    """
    snapshot = answer.snapshot
    line = f"{_player(snapshot.players[answer.seat])} took back {_taken_back(answer)}"
    return f"{line}.\n{_to_move_text(snapshot)}"


def _taken_back(answer: TakebackAnswer) -> str:
    """What an allowed takeback removed: `` `a1-a3` and the bot's reply `h6-i5` after it``
    (the bot's replies and forced moves after the requester's move, when there were any);
    the request's post and the board both say all of it."""
    parts = []
    if answer.replies:
        noun = "reply" if len(answer.replies) == 1 else "replies"
        parts.append(f"the bot's {noun} {_join([_code(m) for m in answer.replies])}")
    if answer.forced:
        parts.append(f"the forced {_join([_code(m) for m in answer.forced])}")
    after = f" and {' and '.join(parts)} after it" if parts else ""
    return f"{_code(answer.move)}{after}"


def _message_link(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """The link that opens a message in Discord."""
    guild = "@me" if guild_id is None else str(guild_id)
    return f"https://discord.com/channels/{guild}/{channel_id}/{message_id}"


def rematch_open_text(challenge: ChallengeInfo) -> str:
    """The ephemeral answer to a second Rematch press while the first one's challenge is
    open (where it is, so the presser can answer it), or once it has started (a game has one
    rematch; its post says where the game is)."""
    if challenge.message_id is None:
        where = f"in <#{challenge.channel_id}>"
    else:
        where = _message_link(challenge.guild_id, challenge.channel_id, challenge.message_id)
    if challenge.game_id is not None:
        return (
            f"This game's rematch has already started (game {challenge.game_id}): {where}. "
            "Ask for the next one under its final board."
        )
    return f"A rematch of this game is already open: {where}"


#: A second choice in a Rematch level menu whose first choice is being answered (a double
#: click): the first one counts.
REMATCH_ALREADY_CHOSEN = "You already chose in this menu; the rematch is on its way."


def _levels(levels: Sequence[int]) -> str:
    """``level 3``, ``levels 1 and 2`` (each level once, in order)."""
    distinct = sorted(set(levels))
    if len(distinct) == 1:
        return f"level {distinct[0]}"
    return f"levels {_join([str(level) for level in distinct])}"


def rematch_level_prompt(levels: Sequence[int]) -> str:
    """The ephemeral answer to Rematch under a game the bot played in (``levels``: its
    seats' levels), above the level menu: ``Rematch: at which level should Gameroom play?
    It played at level 1 this game.``"""
    return (
        f"Rematch: at which level should {BOT_NAME} play? It played at {_levels(levels)} this game."
    )


def rematch_posted_text(levels: Sequence[int] = ()) -> str:
    """What the player who asked for a rematch hears once its challenge is posted; with the
    levels of the bot's seats when it plays: ``Rematch challenge posted, against Gameroom at
    level 3.``"""
    if not levels:
        return "Rematch challenge posted."
    return f"Rematch challenge posted, against {BOT_NAME} at {_levels(levels)}."
