"""``WatchersRepo``: who follows which game (``/watch`` and the Watch button)."""

from __future__ import annotations

from datetime import datetime
from typing import Final

from sqlalchemy import case, delete, select, update

from db.engine import Transactions, dialect_insert
from db.rows import WatcherRow, require_aware
from db.schema import GameStatus, games, watchers

__all__ = ["ONE_WATCHER_FEWER", "WatchersRepo"]

#: ``games.watchers`` after one of the game's watchers left (never below 0).
ONE_WATCHER_FEWER: Final = case((games.c.watchers > 0, games.c.watchers - 1), else_=0)


class WatchersRepo:
    """Rows of ``watchers``; deleted with their game (``ON DELETE CASCADE``). Each watch and
    unwatch also keeps ``games.watchers``, the game's count of watchers, in the same
    transaction."""

    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    async def watch(
        self, game_id: int, user_id: int, *, every_move: bool, now: datetime
    ) -> WatcherRow:
        """``user_id`` follows game ``game_id`` (again: ``every_move`` is updated, the first
        ``created_at`` kept). Returns the row as stored. Raises :class:`ValueError` for a
        naive ``now`` and ``sqlalchemy.exc.IntegrityError`` for an unknown game."""
        require_aware("now", now)
        where = (watchers.c.game_id == game_id) & (watchers.c.user_id == user_id)
        async with self._tx.write() as conn:
            # Insert first: only the watch that inserts the row counts it. Two first watches
            # racing in two processes on PostgreSQL: the second's insert waits for the first
            # to commit, then finds the row and does nothing, so the count stays right.
            inserted = await conn.execute(
                dialect_insert(conn, watchers)
                .values(game_id=game_id, user_id=user_id, every_move=every_move, created_at=now)
                .on_conflict_do_nothing(index_elements=[watchers.c.game_id, watchers.c.user_id])
                .returning(*watchers.c)
            )
            row = inserted.first()
            if row is not None:
                await conn.execute(
                    update(games).where(games.c.id == game_id).values(watchers=games.c.watchers + 1)
                )
            else:  # watching again: only how often to be told changes
                updated = await conn.execute(
                    update(watchers)
                    .where(where)
                    .values(every_move=every_move)
                    .returning(*watchers.c)
                )
                row = updated.one()
        return WatcherRow(row.game_id, row.user_id, row.every_move, row.created_at)

    async def unwatch(self, game_id: int, user_id: int) -> bool:
        """``user_id`` stops following game ``game_id``; ``False`` if they did not."""
        async with self._tx.write() as conn:
            result = await conn.execute(
                delete(watchers).where(
                    (watchers.c.game_id == game_id) & (watchers.c.user_id == user_id)
                )
            )
            gone = result.rowcount > 0
            if gone:
                await conn.execute(
                    update(games).where(games.c.id == game_id).values(watchers=ONE_WATCHER_FEWER)
                )
        return gone

    async def for_game(self, game_id: int) -> list[WatcherRow]:
        """Every watcher of game ``game_id``, earliest first."""
        async with self._tx.read() as conn:
            rows = await conn.execute(
                select(watchers)
                .where(watchers.c.game_id == game_id)
                .order_by(watchers.c.created_at, watchers.c.user_id)
            )
            return [WatcherRow(r.game_id, r.user_id, r.every_move, r.created_at) for r in rows]

    async def get(self, game_id: int, user_id: int) -> WatcherRow | None:
        """How ``user_id`` follows game ``game_id``, or ``None`` if they do not."""
        async with self._tx.read() as conn:
            row = (
                await conn.execute(
                    select(watchers).where(
                        (watchers.c.game_id == game_id) & (watchers.c.user_id == user_id)
                    )
                )
            ).one_or_none()
        if row is None:
            return None
        return WatcherRow(row.game_id, row.user_id, row.every_move, row.created_at)

    async def active_games_of(self, user_id: int) -> list[int]:
        """The ids of the *active* games ``user_id`` watches, in game id order (one query:
        ``/games scope:mine`` lists them beside the games the user plays)."""
        async with self._tx.read() as conn:
            rows = await conn.execute(
                select(watchers.c.game_id)
                .join(games, games.c.id == watchers.c.game_id)
                .where(watchers.c.user_id == user_id, games.c.status == GameStatus.ACTIVE.value)
                .order_by(watchers.c.game_id)
            )
            return [r.game_id for r in rows]
