"""``DrawOfferPostsRepo``: where the open draw offer of a game is posted (migration 0010).

The offer itself is ``games.draw_offer_seat``; this table only remembers the chat post that
shows it, so whichever process closes the offer can retire the post's buttons
(``bot/ui/offers.py``).
"""

from __future__ import annotations

from sqlalchemy import delete, select

from db.engine import Transactions, dialect_insert
from db.schema import draw_offer_posts, games

__all__ = ["DrawOfferPostsRepo"]


class DrawOfferPostsRepo:
    """Rows of ``draw_offer_posts``: at most one per game, deleted with their game."""

    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    async def remember(self, game_id: int, channel_id: int, message_id: int) -> bool:
        """Message ``message_id`` in channel ``channel_id`` shows game ``game_id``'s draw offer.

        Stored (replacing any earlier post of the game) only while the offer is open
        (``games.draw_offer_seat`` set); returns whether it was. ``False`` means the offer
        closed between its post and this call, so the caller retires the post at once. The
        game's row is locked (``FOR UPDATE``; on SQLite the write transaction serialises), so a
        close that commits after this call finds the row and one that committed before is
        seen here.
        """
        async with self._tx.write() as conn:
            seat = (
                await conn.execute(
                    select(games.c.draw_offer_seat).where(games.c.id == game_id).with_for_update()
                )
            ).scalar_one_or_none()
            if seat is None:
                return False
            insert = dialect_insert(conn, draw_offer_posts).values(
                game_id=game_id, channel_id=channel_id, message_id=message_id
            )
            await conn.execute(
                insert.on_conflict_do_update(
                    index_elements=[draw_offer_posts.c.game_id],
                    set_={
                        "channel_id": insert.excluded.channel_id,
                        "message_id": insert.excluded.message_id,
                    },
                )
            )
        return True

    async def take(self, game_id: int) -> tuple[int, int] | None:
        """Delete and return game ``game_id``'s offer post as ``(channel_id, message_id)``;
        ``None`` when there is none (answered on its post, already retired, or never stored).
        Of two processes taking it at once, one gets it."""
        async with self._tx.write() as conn:
            row = (
                await conn.execute(
                    delete(draw_offer_posts)
                    .where(draw_offer_posts.c.game_id == game_id)
                    .returning(draw_offer_posts.c.channel_id, draw_offer_posts.c.message_id)
                )
            ).first()
        return None if row is None else (row.channel_id, row.message_id)
