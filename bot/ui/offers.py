"""The posts of open draw offers, so that whatever closes an offer also retires its buttons.

A draw offer is posted with Accept / Decline (:func:`bot.ui.buttons.draw_offer_view`). Any move
declines it, and a resignation, an abort or a time-out ends the game under it; the service
records that at once, and :class:`DrawOfferPosts` then edits the offer's post to say so and
removes its buttons, so nobody presses a stale Accept.

The post's channel and message ids are kept in the database (``draw_offer_posts``, migration
0010), not in the process: the process that closes the offer retires the post also when
another process posted it, or when the bot restarted in between. An offer that closed before
its post was stored (a move in another process between the post and the store) is retired at
once. What is left: a post whose store or edit failed (logged) keeps its buttons until someone
presses one; the press is answered as stale and edits the post the same way
(``presenters.DRAW_OFFER_CLOSED``).
"""

from __future__ import annotations

import logging

import discord

from bot import presenters
from db.offers import DrawOfferPostsRepo

__all__ = ["DrawOfferPosts"]

log = logging.getLogger(__name__)


class DrawOfferPosts:
    """Open draw offers' posts by game id (at most one open offer per game), stored in
    ``repo``; ``client`` edits a post by its ids (:meth:`discord.Client.get_partial_messageable`),
    so the post need not be in this process's cache.

    Every method is best effort: a failure to read, store or edit is logged, never raised, so
    the move, resignation or answer that called it stands.
    """

    def __init__(self, repo: DrawOfferPostsRepo, client: discord.Client) -> None:
        self._repo = repo
        self._client = client

    async def remember(self, game_id: int, post: discord.Message) -> None:
        """``post`` shows the open draw offer of game ``game_id``. When the offer has closed
        already, the post is retired at once (:data:`presenters.DRAW_OFFER_CLOSED`)."""
        try:
            stored = await self._repo.remember(game_id, post.channel.id, post.id)
        except Exception:
            log.exception("game %d: could not store the draw offer's post", game_id)
            return
        if not stored:
            await self._edit(game_id, post, presenters.DRAW_OFFER_CLOSED)

    async def forget(self, game_id: int) -> None:
        """The offer of ``game_id`` was answered on its own post (already edited)."""
        try:
            await self._repo.take(game_id)
        except Exception:
            log.exception("game %d: could not drop the draw offer's post", game_id)

    async def retire(self, game_id: int, text: str) -> None:
        """Replace the post of ``game_id``'s open offer with ``text`` and remove its buttons;
        nothing when no post is stored (none was open, or it was retired already)."""
        try:
            taken = await self._repo.take(game_id)
        except Exception:
            log.exception("game %d: could not read the draw offer's post", game_id)
            return
        if taken is None:
            return
        channel_id, message_id = taken
        channel = self._client.get_partial_messageable(channel_id)
        await self._edit(game_id, channel.get_partial_message(message_id), text)

    @staticmethod
    async def _edit(
        game_id: int, post: discord.Message | discord.PartialMessage, text: str
    ) -> None:
        try:
            await post.edit(content=text, view=None)
        except discord.HTTPException:
            log.warning("game %d: could not retire the draw offer's post", game_id)
