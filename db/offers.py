"""``OfferPostsRepo``: where the open draw offer (migration 0010) or takeback request
(migration 0012) of a game is posted.

The offer itself is a column of the game's row (``games.draw_offer_seat``,
``games.takeback_seat``); these tables only remember the chat post that shows it, so
whichever process closes the offer can retire the post's buttons (``bot/ui/offers.py``).
"""

from __future__ import annotations

from sqlalchemy import Column, Table, delete, select

from db.engine import Transactions, dialect_insert
from db.schema import games

__all__ = ["OfferPostsRepo"]


class OfferPostsRepo:
    """Rows of ``table`` (``draw_offer_posts`` or ``takeback_posts``): at most one per game,
    deleted with their game. ``open_seat`` is the column of ``games`` that is set while the
    offer is open (``games.c.draw_offer_seat``, ``games.c.takeback_seat``)."""

    def __init__(self, transactions: Transactions, table: Table, open_seat: Column[int]) -> None:
        self._tx = transactions
        self._table = table
        self._open_seat = open_seat

    async def remember(self, game_id: int, channel_id: int, message_id: int) -> bool:
        """Message ``message_id`` in channel ``channel_id`` shows game ``game_id``'s offer.

        Stored (replacing any earlier post of the game) only while the offer is open
        (its ``open_seat`` set); returns whether it was. ``False`` means the offer
        closed between its post and this call, so the caller retires the post at once. The
        game's row is locked (``FOR UPDATE``; on SQLite the write transaction serialises), so a
        close that commits after this call finds the row and one that committed before is
        seen here.
        """
        async with self._tx.write() as conn:
            seat = (
                await conn.execute(
                    select(self._open_seat).where(games.c.id == game_id).with_for_update()
                )
            ).scalar_one_or_none()
            if seat is None:
                return False
            insert = dialect_insert(conn, self._table).values(
                game_id=game_id, channel_id=channel_id, message_id=message_id
            )
            await conn.execute(
                insert.on_conflict_do_update(
                    index_elements=[self._table.c.game_id],
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
                    delete(self._table)
                    .where(self._table.c.game_id == game_id)
                    .returning(self._table.c.channel_id, self._table.c.message_id)
                )
            ).first()
        return None if row is None else (row.channel_id, row.message_id)
