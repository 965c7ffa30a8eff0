"""``OfferPostsRepo``: where the open draw offer (migration 0010), takeback request
(migration 0012) or soft clock's claim notice (migration 0013) of a game is posted.

The offer itself lives in the game's row (``games.draw_offer_seat``, ``games.takeback_seat``;
a claim is open while the game is active at the ply the notice was posted at); these
tables only remember the chat post that shows it, so whichever process closes the offer can
retire the post's buttons (``bot/ui/offers.py``).
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, Table, delete, select

from db.engine import Transactions, dialect_insert
from db.schema import games

__all__ = ["OfferPostsRepo"]


class OfferPostsRepo:
    """Rows of ``table`` (``draw_offer_posts``, ``takeback_posts`` or ``claim_posts``): at
    most one per game, deleted with their game. ``open_when`` is true of the game's row
    while the offer is open (``games.c.draw_offer_seat.is_not(None)``; for a claim notice,
    ``games.c.status == "active"``)."""

    def __init__(
        self, transactions: Transactions, table: Table, open_when: ColumnElement[bool]
    ) -> None:
        self._tx = transactions
        self._table = table
        self._open_when = open_when

    async def remember(
        self, game_id: int, channel_id: int, message_id: int, *, ply: int | None = None
    ) -> bool:
        """Message ``message_id`` in channel ``channel_id`` shows game ``game_id``'s offer.

        Stored (replacing any earlier post of the game) only while the offer is open
        (``open_when``, and the game still at ``ply`` when one is given: a claim notice
        stands until a move is logged, whatever else changes the game's version, a draw
        offer or a vacation); returns whether it was. ``False`` means the
        offer closed between its post and this call, so the caller retires the post at once.
        The game's row is locked (``FOR UPDATE``; on SQLite the write transaction
        serialises), so a close that commits after this call finds the row and one that
        committed before is seen here.
        """
        async with self._tx.write() as conn:
            found = (
                await conn.execute(
                    select(self._open_when.label("open"), games.c.ply)
                    .where(games.c.id == game_id)
                    .with_for_update()
                )
            ).first()
            if found is None or not found.open:
                return False
            if ply is not None and found.ply != ply:
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

    async def find(self, game_id: int) -> tuple[int, int] | None:
        """Game ``game_id``'s offer post as ``(channel_id, message_id)``, left stored;
        ``None`` when there is none."""
        async with self._tx.read() as conn:
            row = (
                await conn.execute(
                    select(self._table.c.channel_id, self._table.c.message_id).where(
                        self._table.c.game_id == game_id
                    )
                )
            ).first()
        return None if row is None else (row.channel_id, row.message_id)

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
