"""A bot's decisions of one turn, gathered into one post.

In a game of many decisions per turn (Generation Zero), a decision that leaves the same seat
to decide again gets one public line and no board (:func:`bot.presenters.decision_text`). A
person's line is their ``/move``'s own answer; a bot's was a post of its own, so a person
playing three bots read some 170 posts in a ten-round game, most of them one line each.
:func:`bot.ui.board.post_turn` therefore edits the bot's post of the same turn instead, adding
the new decision's line, when:

- the decision is a bot's (no interaction) and shows nobody anything privately (a line that
  sends someone to ``/hand`` must ping them, which an edit does not);
- the post holds that seat's decisions of that game, and nothing else changed the game since
  (its version follows on: no draw offer, takeback or time-out in between);
- the post is still the channel's latest message (read back just before the edit: a person
  who wrote in between, or any other post, makes the next decision a post of its own; a
  message landing in the instant between that read and the edit ends up below the line
  added, a window of one request that one read cannot close), and the text fits in a
  message.

Else the decision is posted anew, as before. The board at the turn's end, on the same
conditions (the bot's last decision of the turn; the post still the latest message, read once
the board is drawn, just before it is posted), takes the post's lines above its own, which
starts "Then played", and the post is deleted as soon as the board is out: one post a bot
turn is what stays in the channel. (A failed delete leaves the lines told twice.)

Per process and in memory: after a restart, or when another process played the previous
decision (docs/scale.md), the next decision starts a post of its own. Nothing is lost either
way: every decision is told when it is played, and the watchers' message tells the whole turn
as before.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Final

import discord

from bot.service.models import TurnResult

__all__ = ["UNREADABLE_FOR_S", "DecisionPost", "still_latest"]

log = logging.getLogger(__name__)


@dataclass
class DecisionPost:
    """The post of a bot seat's decisions in one turn so far (:attr:`BotHost.decision_posts`
    keeps one per channel): the game, the seat, the game's version after the last decision
    told, the message, and the decisions it tells, oldest first."""

    game_id: int
    seat: int
    version: int
    message: discord.Message
    told: list[TurnResult] = field(default_factory=list)

    def follows(self, result: TurnResult) -> bool:
        """Whether ``result`` is the same seat's next decision in the same game, with no
        other change to the game in between."""
        snapshot = result.snapshot
        return (
            snapshot.game_id == self.game_id
            and result.seat == self.seat
            and snapshot.version == self.version + 1
        )


#: How long (seconds, monotonic) a channel whose latest message Discord refused to show is
#: not asked again: a refused request counts against Discord's limit of invalid requests,
#: and a bot turn would ask at every decision. Per process; a permission granted meanwhile
#: is used after this.
UNREADABLE_FOR_S: Final = 3600.0

_unreadable: dict[int, float] = {}


async def still_latest(message: discord.Message) -> bool:
    """Whether ``message`` is still the latest message of its channel (one request; needs
    Read Message History). ``False`` when the read fails, whatever the error (the decision
    is committed: its line must be posted apart rather than lost): a refusal (the
    permission missing) is logged on one line, and the channel is not asked again for
    :data:`UNREADABLE_FOR_S`; anything else is logged with its traceback."""
    channel_id = message.channel.id
    refused_at = _unreadable.get(channel_id)
    if refused_at is not None:
        if time.monotonic() - refused_at < UNREADABLE_FOR_S:
            return False
        del _unreadable[channel_id]
    try:
        latest = [m.id async for m in message.channel.history(limit=1)]
    except discord.Forbidden as error:
        log.info("channel %d: its latest message is not readable (%s)", channel_id, error)
        _unreadable[channel_id] = time.monotonic()
        return False
    except Exception:
        log.warning("could not read channel %d's latest message", channel_id, exc_info=True)
        return False
    return latest == [message.id]
