"""``SettingsRepo``: per-guild and per-user settings of slow play (threads, reminders).

A guild or user without a row has the defaults (:class:`~db.rows.GuildSettingsRow`,
:class:`~db.rows.UserSettingsRow` with ``updated_at`` ``None``); the first change writes the
row. Each write reads and writes in one write transaction, so two changes to different
fields of one row both land.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final, TypeVar

from sqlalchemy import Column, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from db.engine import Transactions
from db.rows import GuildSettingsRow, UserSettingsRow, require_aware
from db.schema import ReminderDelivery, ThreadPolicy, guild_settings, user_settings

__all__ = ["KEEP", "SettingsRepo"]

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
            return await _read_guild(conn, guild_id)

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
            old = await _read_guild(conn, guild_id)
            values = {
                "threads": _kept(threads, old.threads).value,
                "reminder_quiet_s": _kept(reminder_quiet_s, old.reminder_quiet_s),
                "updated_at": now,
            }
            await _write(conn, guild_settings.c.guild_id, guild_id, values, exists=old.updated_at)
            return await _read_guild(conn, guild_id)

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
        now: datetime,
    ) -> UserSettingsRow:
        """Change the given fields of user ``user_id``'s settings; returns them after.

        Raises :class:`ValueError` for a negative quiet time or a naive ``now``.
        """
        require_aware("now", now)
        _check_quiet(reminder_quiet_s)
        async with self._tx.write() as conn:
            old = await _read_user(conn, user_id)
            values = {
                "reminders": _kept(reminders, old.reminders).value,
                "reminder_quiet_s": _kept(reminder_quiet_s, old.reminder_quiet_s),
                "updated_at": now,
            }
            await _write(conn, user_settings.c.user_id, user_id, values, exists=old.updated_at)
            return await _read_user(conn, user_id)


def _kept(value: _T | _Keep, old: _T) -> _T:
    """``value``, or ``old`` for :data:`KEEP`."""
    return old if isinstance(value, _Keep) else value


async def _write(
    conn: AsyncConnection,
    key: Column[int],
    key_value: int,
    values: dict[str, Any],
    *,
    exists: datetime | None,
) -> None:
    """Insert the settings row keyed ``key == key_value``, or update it when it ``exists``
    (its ``updated_at``; ``None``: no row yet)."""
    table = key.table
    if exists is None:
        await conn.execute(insert(table).values({key.name: key_value, **values}))
    else:
        await conn.execute(update(table).where(key == key_value).values(**values))


def _check_quiet(value: object) -> None:
    if isinstance(value, int) and value < 0:
        raise ValueError(f"a quiet time cannot be negative: {value} s")


async def _read_guild(conn: AsyncConnection, guild_id: int) -> GuildSettingsRow:
    row = (
        await conn.execute(select(guild_settings).where(guild_settings.c.guild_id == guild_id))
    ).one_or_none()
    if row is None:
        return GuildSettingsRow(guild_id)
    return GuildSettingsRow(
        guild_id, ThreadPolicy(row.threads), row.reminder_quiet_s, row.updated_at
    )


async def _read_user(conn: AsyncConnection, user_id: int) -> UserSettingsRow:
    row = (
        await conn.execute(select(user_settings).where(user_settings.c.user_id == user_id))
    ).one_or_none()
    if row is None:
        return UserSettingsRow(user_id)
    return UserSettingsRow(
        user_id, ReminderDelivery(row.reminders), row.reminder_quiet_s, row.updated_at
    )
