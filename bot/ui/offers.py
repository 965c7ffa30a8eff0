"""The posts of open offers, so that whatever closes an offer also retires its buttons.

A draw offer is posted with Accept / Decline (:func:`bot.ui.buttons.draw_offer_view`), a
takeback request with Allow / Refuse (:func:`bot.ui.buttons.takeback_view`), a soft clock's
time-out notice with Claim on time (:func:`bot.cogs.clocks.claim_view`). Any move declines
the first two, the late player's move ends the claim, and a resignation, an abort or a
time-out ends the game under any of them; the service records that at once, and
:class:`OfferPosts` then edits the offer's post to say so and removes its buttons, so nobody
presses a stale Accept. The bot keeps one per kind: ``bot.draw_offers``, ``bot.takebacks``
and ``bot.claim_notices``.

The post's channel and message ids are kept in the database (``draw_offer_posts``, migration
0010; ``takeback_posts``, migration 0012; ``claim_posts``, migration 0013), not in the
process: the process that closes the
offer retires the post also when another process posted it, or when the bot restarted in
between. An offer that closed before its post was stored (a move in another process between
the post and the store) is retired at once. What is left: a post whose store or edit failed
(logged) keeps its buttons until someone presses one; the press is answered as stale and
edits the post the same way (``presenters.DRAW_OFFER_CLOSED``,
``presenters.TAKEBACK_REQUEST_CLOSED``).
"""

from __future__ import annotations

import logging

import discord

from db.offers import OfferPostsRepo

__all__ = ["OfferPosts"]

log = logging.getLogger(__name__)


class OfferPosts:
    """Open offers' posts of one kind by game id (at most one open offer per game), stored
    in ``repo``; ``client`` edits a post by its ids
    (:meth:`discord.Client.get_partial_messageable`), so the post need not be in this
    process's cache. ``closed_text`` replaces a post whose offer closed before it was stored;
    ``what`` names the kind in the log ("draw offer", "takeback request").

    Every method is best effort: a failure to read, store or edit is logged, never raised, so
    the move, resignation or answer that called it stands.
    """

    def __init__(
        self, repo: OfferPostsRepo, client: discord.Client, *, closed_text: str, what: str
    ) -> None:
        self._repo = repo
        self._client = client
        self._closed_text = closed_text
        self._what = what

    async def remember(
        self, game_id: int, post: discord.Message, *, ply: int | None = None
    ) -> None:
        """``post`` shows the open offer of game ``game_id`` (of the game at ``ply``, when
        given: a claim notice). When the offer has closed already, the post is retired at
        once (with ``closed_text``)."""
        try:
            stored = await self._repo.remember(game_id, post.channel.id, post.id, ply=ply)
        except Exception:
            log.exception("game %d: could not store the %s's post", game_id, self._what)
            return
        if not stored:
            await self._edit(game_id, post, self._closed_text)

    async def post_of(self, game_id: int) -> discord.PartialMessage | None:
        """The stored post of ``game_id``'s open offer, to edit (it stays stored), or
        ``None`` when none is stored or it cannot be read (logged)."""
        try:
            found = await self._repo.find(game_id)
        except Exception:
            log.exception("game %d: could not read the %s's post", game_id, self._what)
            return None
        if found is None:
            return None
        return self._post(*found)

    async def forget(self, game_id: int) -> None:
        """The offer of ``game_id`` was answered on its own post (already edited)."""
        try:
            await self._repo.take(game_id)
        except Exception:
            log.exception("game %d: could not drop the %s's post", game_id, self._what)

    async def retire(self, game_id: int, text: str) -> None:
        """Replace the post of ``game_id``'s open offer with ``text`` and remove its buttons;
        nothing when no post is stored (none was open, or it was retired already)."""
        try:
            taken = await self._repo.take(game_id)
        except Exception:
            log.exception("game %d: could not read the %s's post", game_id, self._what)
            return
        if taken is None:
            return
        await self._edit(game_id, self._post(*taken), text)

    def _post(self, channel_id: int, message_id: int) -> discord.PartialMessage:
        """The post with these ids, to edit without fetching it."""
        return self._client.get_partial_messageable(channel_id).get_partial_message(message_id)

    async def _edit(
        self, game_id: int, post: discord.Message | discord.PartialMessage, text: str
    ) -> None:
        try:
            await post.edit(content=text, view=None)
        except discord.HTTPException:
            log.warning("game %d: could not retire the %s's post", game_id, self._what)
