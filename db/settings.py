"""``SettingsRepo``: per-guild and per-user settings of slow play (threads, reminders).

A guild or user without a row has the defaults (:class:`~db.rows.GuildSettingsRow`,
:class:`~db.rows.UserSettingsRow` with ``updated_at`` ``None``); the first change writes the
row. Each write makes sure the row exists (``INSERT ... ON CONFLICT DO NOTHING``), locks it
(``SELECT ... FOR UPDATE`` on PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` already serialises
writers), then updates it, all in one write transaction: two changes to different fields of
one row, from two processes, both land, and two first writes never clash on the key.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final, TypeVar

from sqlalchemy import Column, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from db.engine import Transactions, dialect_insert
from db.rows import GuildSettingsRow, UserSettingsRow, require_aware
from db.schema import (
    BoardPerspective,
    ReminderDelivery,
    ThreadPolicy,
    guild_settings,
    user_settings,
)

__all__ = ["KEEP", "SettingsRepo", "read_guild"]

_T = TypeVar("_T")


class _Keep:
    """The type of :data:`KEEP`."""

    def __repr__(self) -> str:
        return "KEEP"


#: Passed for a field a write leaves as it is (``None`` is a value: "use the default").
KEEP: Final = _Keep()


class SettingsRepo:
    """Guild and user settings (tables ``guild_settings`` and ``user_settings``)."""

    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    async def guild(self, guild_id: int) -> GuildSettingsRow:
        """Guild ``guild_id``'s settings, the defaults if it never changed any."""
        async with self._tx.read() as conn:
            return await read_guild(conn, guild_id)

    async def set_guild(
        self,
        guild_id: int,
        *,
        threads: ThreadPolicy | _Keep = KEEP,
        reminder_quiet_s: int | _Keep | None = KEEP,
        now: datetime,
    ) -> GuildSettingsRow:
        """Change the given fields of guild ``guild_id``'s settings; returns them after.

        Raises :class:`ValueError` for a negative quiet time or a naive ``now``.
        """
        require_aware("now", now)
        _check_quiet(reminder_quiet_s)
        async with self._tx.write() as conn:
            default = GuildSettingsRow(guild_id)
            await _ensure_row(
                conn,
                guild_settings.c.guild_id,
                guild_id,
                {
                    "threads": default.threads.value,
                    "reminder_quiet_s": default.reminder_quiet_s,
                    "updated_at": now,
                },
            )
            old = await read_guild(conn, guild_id, lock=True)
            values = {
                "threads": _kept(threads, old.threads).value,
                "reminder_quiet_s": _kept(reminder_quiet_s, old.reminder_quiet_s),
                "updated_at": now,
            }
            await conn.execute(
                update(guild_settings).where(guild_settings.c.guild_id == guild_id).values(values)
            )
            return await read_guild(conn, guild_id)

    async def user(self, user_id: int) -> UserSettingsRow:
        """User ``user_id``'s settings, the defaults if they never changed any."""
        async with self._tx.read() as conn:
            return await _read_user(conn, user_id)

    async def set_user(
        self,
        user_id: int,
        *,
        reminders: ReminderDelivery | _Keep = KEEP,
        reminder_quiet_s: int | _Keep | None = KEEP,
        board_perspective: BoardPerspective | _Keep | None = KEEP,
        now: datetime,
    ) -> UserSettingsRow:
        """Change the given fields of user ``user_id``'s settings; returns them after.
        (``board_perspective`` ``None``: back to the default.)

        Raises :class:`ValueError` for a negative quiet time or a naive ``now``.
        """
        require_aware("now", now)
        _check_quiet(reminder_quiet_s)
        async with self._tx.write() as conn:
            default = UserSettingsRow(user_id)
            await _ensure_row(
                conn,
                user_settings.c.user_id,
                user_id,
                {
                    "reminders": default.reminders.value,
                    "reminder_quiet_s": default.reminder_quiet_s,
                    "updated_at": now,
                },
            )
            old = await _read_user(conn, user_id, lock=True)
            values = {
                "reminders": _kept(reminders, old.reminders).value,
                "reminder_quiet_s": _kept(reminder_quiet_s, old.reminder_quiet_s),
                "board_perspective": _perspective_value(
                    _kept(board_perspective, old.board_perspective)
                ),
                "updated_at": now,
            }
            await conn.execute(
                update(user_settings).where(user_settings.c.user_id == user_id).values(values)
            )
            return await _read_user(conn, user_id)


def _kept(value: _T | _Keep, old: _T) -> _T:
    """``value``, or ``old`` for :data:`KEEP`."""
    return old if isinstance(value, _Keep) else value


async def _ensure_row(
    conn: AsyncConnection, key: Column[int], key_value: int, defaults: dict[str, Any]
) -> None:
    """Insert the settings row keyed ``key == key_value`` with ``defaults`` unless it exists
    (``ON CONFLICT DO NOTHING``: a concurrent first write is no error)."""
    statement = dialect_insert(conn, key.table).values({key.name: key_value, **defaults})
    await conn.execute(statement.on_conflict_do_nothing(index_elements=[key]))


def _perspective_value(value: BoardPerspective | None) -> str | None:
    return None if value is None else BoardPerspective(value).value


def _check_quiet(value: object) -> None:
    if isinstance(value, int) and value < 0:
        raise ValueError(f"a quiet time cannot be negative: {value} s")


async def read_guild(
    conn: AsyncConnection, guild_id: int, *, lock: bool = False
) -> GuildSettingsRow:
    """Guild ``guild_id``'s settings inside the caller's transaction ``conn`` (the defaults
    when it has no row); ``lock`` reads it ``FOR UPDATE``."""
    query = select(guild_settings).where(guild_settings.c.guild_id == guild_id)
    if lock:
        query = query.with_for_update()
    row = (await conn.execute(query)).one_or_none()
    if row is None:
        return GuildSettingsRow(guild_id)
    return GuildSettingsRow(
        guild_id, ThreadPolicy(row.threads), row.reminder_quiet_s, row.updated_at
    )


async def _read_user(conn: AsyncConnection, user_id: int, *, lock: bool = False) -> UserSettingsRow:
    query = select(user_settings).where(user_settings.c.user_id == user_id)
    if lock:
        query = query.with_for_update()
    row = (await conn.execute(query)).one_or_none()
    if row is None:
        return UserSettingsRow(user_id)
    return UserSettingsRow(
        user_id,
        ReminderDelivery(row.reminders),
        row.reminder_quiet_s,
        row.updated_at,
        None if row.board_perspective is None else BoardPerspective(row.board_perspective),
        bool(row.leaderboard_hidden),
    )
