"""The posts of open draw offers, so that whatever closes an offer also retires its buttons.

A draw offer is posted with Accept / Decline (:func:`bot.ui.buttons.draw_offer_view`). Any move
declines it, and a resignation, an abort or a time-out ends the game under it; the service
records that at once, and :class:`DrawOfferPosts` then edits the offer's post to say so and
removes its buttons, so nobody presses a stale Accept. The posts are remembered in this
process only (``GameroomBot.draw_offers``): after a restart, or when another process closed the
offer, an old post keeps its buttons until someone presses one, and the press is answered as
stale and edits the post the same way (``presenters.DRAW_OFFER_CLOSED``).
"""

from __future__ import annotations

import logging

import discord

__all__ = ["DrawOfferPosts"]

log = logging.getLogger(__name__)


class DrawOfferPosts:
    """Open draw offers' posts by game id (at most one open offer per game)."""

    def __init__(self) -> None:
        self._posts: dict[int, discord.Message] = {}

    def remember(self, game_id: int, post: discord.Message) -> None:
        """``post`` shows the open draw offer of game ``game_id``."""
        self._posts[game_id] = post

    def forget(self, game_id: int) -> None:
        """The offer of ``game_id`` was answered on its own post (already edited)."""
        self._posts.pop(game_id, None)

    async def retire(self, game_id: int, text: str) -> None:
        """Replace the post of ``game_id``'s open offer with ``text`` and remove its buttons;
        nothing when this process holds no such post. A failure to edit is logged only."""
        post = self._posts.pop(game_id, None)
        if post is None:
            return
        try:
            await post.edit(content=text, view=None)
        except discord.HTTPException:
            log.warning("game %d: could not retire the draw offer's post", game_id)
