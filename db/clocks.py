"""``ClocksRepo`` and ``VacationsRepo``: per-seat time banks and vacation allowances.

The database stores clocks; it does not run them. A seat's bank is ``remaining_ms`` at
``running_since`` (see :data:`db.schema.clocks`); the arithmetic (time used, increment,
maximum, vacation pauses) lives in :mod:`bot.service.clocks`, which turns a move or a
vacation into a :class:`~db.rows.ClockChanges`: clock writes plus the timers that wake the
bot at the new deadlines. :func:`apply_clock_changes` writes one atomically, in its own
transaction (:meth:`ClocksRepo.apply`) or in the caller's (a move's commit).

Every clock write is a compare-and-set on the row's ``version``, as game writes are on
``games.version``: a vacation starting while a move lands cannot overwrite the move's clocks,
one of them gets :class:`ClockChangedError` and reads again.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Integer,
    Row,
    String,
    and_,
    insert,
    literal,
    select,
    union_all,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from db.engine import Transactions, dialect_insert
from db.errors import PersistenceError
from db.rows import (
    ClockChanges,
    ClockRow,
    GuildSettingsRow,
    NewClock,
    UserSettingsRow,
    VacationRow,
    require_aware,
)
from db.schema import (
    GameStatus,
    ReminderDelivery,
    ThreadPolicy,
    UTCDateTime,
    clocks,
    games,
    guild_settings,
    seats,
    user_settings,
    vacations,
)
from db.settings import read_guild
from db.timers import cancel_timers, schedule_timer

__all__ = [
    "ClockChangedError",
    "ClocksRepo",
    "TurnContext",
    "VacationChangedError",
    "VacationsRepo",
    "apply_clock_changes",
    "insert_clocks",
]


class ClockChangedError(PersistenceError):
    """Compare-and-set on ``clocks.version`` failed: the seat's clock changed (or is gone).

    ``actual_version`` is ``None`` when the row does not exist; ``expected_version`` is
    ``None`` for a clock that started running although the change did not plan for it (a
    vacation racing a move). Read the clocks again.
    """

    def __init__(
        self, game_id: int, seat: int, expected_version: int | None, actual_version: int | None
    ) -> None:
        found = "has no clock" if actual_version is None else f"is at version {actual_version}"
        wanted = (
            "a clock nobody planned for"
            if expected_version is None
            else f"not version {expected_version}"
        )
        super().__init__(f"game {game_id} seat {seat} {found}, {wanted}")
        self.game_id = game_id
        self.seat = seat
        self.expected_version = expected_version
        self.actual_version = actual_version


class VacationChangedError(PersistenceError):
    """Compare-and-set on ``vacations.version`` failed: another change to the user's
    vacation landed first (``expected_version`` ``None`` means "no row yet")."""

    def __init__(self, user_id: int, expected_version: int | None) -> None:
        super().__init__(f"the vacation of user {user_id} is no longer at {expected_version}")
        self.user_id = user_id
        self.expected_version = expected_version


@dataclass(frozen=True, slots=True)
class TurnContext:
    """What planning a turn needs to know about the players to move next, read at once
    (:meth:`ClocksRepo.turn_context`): each user's settings (the defaults when they have no
    row), each user's vacation row (absent if they never took one) and the guild's settings
    (``None`` outside a guild)."""

    users: Mapping[int, UserSettingsRow]
    vacations: Mapping[int, VacationRow]
    guild: GuildSettingsRow | None


class ClocksRepo:
    """Reads and writes ``clocks`` (and, with them, ``timers``). Obtain it as
    ``Database.clocks``. Every method is one transaction."""

    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    async def create(
        self, game_id: int, new_clocks: Sequence[NewClock], *, now: datetime
    ) -> list[ClockRow]:
        """Give seats of game ``game_id`` their clocks, at version 1; returns them by seat.

        Raises :class:`sqlalchemy.exc.IntegrityError` if a seat does not exist or already
        has a clock, :class:`ValueError` for a naive ``now``.
        """
        require_aware("now", now)
        async with self._tx.write() as conn:
            return await insert_clocks(conn, game_id, new_clocks, now=now)

    async def apply(self, changes: ClockChanges, *, now: datetime) -> list[ClockRow]:
        """Apply ``changes`` atomically (see :func:`apply_clock_changes`); returns the
        written clocks. Raises :class:`ClockChangedError`; nothing is written then."""
        require_aware("now", now)
        async with self._tx.write() as conn:
            return await apply_clock_changes(conn, changes, now=now)

    async def for_game(self, game_id: int) -> list[ClockRow]:
        """The clocks of a game in seat order (empty for a game without a clock)."""
        async with self._tx.read() as conn:
            result = await conn.execute(
                select(clocks).where(clocks.c.game_id == game_id).order_by(clocks.c.seat)
            )
            return [_clock_row(row) for row in result]

    async def turn_context(self, user_ids: Collection[int], guild_id: int | None) -> TurnContext:
        """The settings and vacations of ``user_ids`` and the settings of guild ``guild_id``,
        in one statement: what a move's commit needs to plan the next turn's clocks and
        reminders (a statement per table cost a round trip to the database thread each)."""
        wanted = sorted(set(user_ids))
        users: dict[int, UserSettingsRow] = {}
        away: dict[int, VacationRow] = {}
        guild = None if guild_id is None else GuildSettingsRow(guild_id)
        async with self._tx.read() as conn:
            rows: Sequence[Row[Any]] = []
            if wanted:
                rows = (await conn.execute(_turn_context_query(wanted, guild_id))).all()
            for row in rows:
                if row.s_reminders is not None:
                    users[row.user_id] = UserSettingsRow(
                        row.user_id,
                        ReminderDelivery(row.s_reminders),
                        row.s_reminder_quiet_s,
                        row.s_updated_at,
                    )
                if row.v_version is not None:
                    away[row.user_id] = VacationRow(
                        user_id=row.user_id,
                        year=row.v_year,
                        used_ms=row.v_used_ms,
                        started_at=row.v_started_at,
                        until=row.v_until,
                        version=row.v_version,
                        updated_at=row.v_updated_at,
                    )
                if guild_id is not None and row.g_threads is not None:
                    guild = GuildSettingsRow(
                        guild_id,
                        ThreadPolicy(row.g_threads),
                        row.g_reminder_quiet_s,
                        row.g_updated_at,
                    )
            if not wanted and guild_id is not None:
                guild = await read_guild(conn, guild_id)
        for user_id in wanted:
            users.setdefault(user_id, UserSettingsRow(user_id))
        return TurnContext(users, away, guild)

    async def running_for_user(self, user_id: int) -> list[ClockRow]:
        """Clocks running or paused (``running_since`` set) for seats ``user_id`` holds in
        active games, by game and seat: the clocks a vacation pauses."""
        async with self._tx.read() as conn:
            return await running_clocks_of(conn, user_id)


async def running_clocks_of(conn: AsyncConnection, user_id: int) -> list[ClockRow]:
    """:meth:`ClocksRepo.running_for_user` inside the caller's transaction ``conn``."""
    result = await conn.execute(
        select(clocks)
        .join(seats, and_(seats.c.game_id == clocks.c.game_id, seats.c.seat == clocks.c.seat))
        .join(games, games.c.id == clocks.c.game_id)
        .where(
            seats.c.user_id == user_id,
            games.c.status == GameStatus.ACTIVE.value,
            clocks.c.running_since.is_not(None),
        )
        .order_by(clocks.c.game_id, clocks.c.seat)
    )
    return [_clock_row(row) for row in result]


class VacationsRepo:
    """Reads and writes ``vacations``. Obtain it as ``Database.vacations``."""

    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    async def get(self, user_id: int) -> VacationRow | None:
        """The user's vacation row, or ``None`` if they never took one."""
        async with self._tx.read() as conn:
            row = (
                await conn.execute(select(vacations).where(vacations.c.user_id == user_id))
            ).one_or_none()
        return None if row is None else _vacation_row(row)

    async def ensure(self, user_id: int, *, now: datetime) -> None:
        """Give ``user_id`` an empty vacation book (nothing used, not away) unless they have
        one, so a vacation's write always updates an existing row. Updating locks the row,
        which a move checking the row it planned with waits on; inserting a new row would
        not (on PostgreSQL a move would see no row and start the clock unpaused)."""
        require_aware("now", now)
        async with self._tx.write() as conn:
            statement = dialect_insert(conn, vacations).values(
                user_id=user_id,
                year=now.year,
                used_ms=0,
                started_at=None,
                until=None,
                updated_at=now,
                version=1,
            )
            await conn.execute(statement.on_conflict_do_nothing(index_elements=["user_id"]))

    async def write(
        self,
        user_id: int,
        expected_version: int | None,
        *,
        year: int,
        used_ms: int,
        started_at: datetime | None,
        until: datetime | None,
        now: datetime,
        changes: ClockChanges | None = None,
    ) -> VacationRow:
        """Store the user's vacation book and, in the same transaction, ``changes`` (the
        clocks it pauses or resumes and their rescheduled timers).

        Compare-and-set: ``expected_version`` is the version read (``None``: the user had no
        row; one is created at version 1). ``changes`` must cover every clock of the user
        that is running when the row is written. Raises :class:`VacationChangedError` if the
        row moved on, :class:`ClockChangedError` if a clock did or one started running that
        ``changes`` does not cover, :class:`ValueError` for a
        negative ``used_ms`` or naive datetimes. Nothing is written when it raises.
        """
        require_aware("now", now)
        for name, value in (("started_at", started_at), ("until", until)):
            if value is not None:
                require_aware(name, value)
        if used_ms < 0:
            raise ValueError(f"used_ms must not be negative, got {used_ms}")
        values = {
            "year": year,
            "used_ms": used_ms,
            "started_at": started_at,
            "until": until,
            "updated_at": now,
        }
        try:
            async with self._tx.write() as conn:
                if expected_version is None:
                    result = await conn.execute(
                        insert(vacations)
                        .values(user_id=user_id, version=1, **values)
                        .returning(*vacations.c)
                    )
                else:
                    result = await conn.execute(
                        update(vacations)
                        .where(
                            vacations.c.user_id == user_id,
                            vacations.c.version == expected_version,
                        )
                        .values(version=vacations.c.version + 1, **values)
                        .returning(*vacations.c)
                    )
                row = result.one_or_none()
                if row is None:
                    raise VacationChangedError(user_id, expected_version)
                if changes is not None:
                    # With the vacation row written (and locked), a move that starts one of
                    # the user's clocks either committed before — then it is running now and
                    # must be among the planned writes, or kept as read — or waits and then
                    # sees the new row.
                    planned = {(w.game_id, w.seat) for w in changes.writes}
                    kept = set(changes.kept)
                    for clock in await running_clocks_of(conn, user_id):
                        if (clock.game_id, clock.seat) not in planned and (
                            clock.game_id,
                            clock.seat,
                            clock.version,
                        ) not in kept:
                            raise ClockChangedError(clock.game_id, clock.seat, None, clock.version)
                    await apply_clock_changes(conn, changes, now=now)
        except IntegrityError as exc:
            if expected_version is None and "vacations" in str(exc.orig):
                raise VacationChangedError(user_id, expected_version) from exc
            raise
        return _vacation_row(row)


# ------------------------------------------------------------------------------------------
# Building blocks for other repositories' transactions
# ------------------------------------------------------------------------------------------


async def insert_clocks(
    conn: AsyncConnection, game_id: int, new_clocks: Sequence[NewClock], *, now: datetime
) -> list[ClockRow]:
    """:meth:`ClocksRepo.create` inside the caller's write transaction ``conn`` (for
    instance ``GamesRepo.create``'s, once the seats exist)."""
    if not new_clocks:
        return []
    result = await conn.execute(
        insert(clocks).returning(*clocks.c),
        [
            {
                "game_id": game_id,
                "seat": clock.seat,
                "spec": clock.spec,
                "remaining_ms": clock.remaining_ms,
                "running_since": clock.running_since,
                "version": 1,
                "updated_at": now,
            }
            for clock in new_clocks
        ],
    )
    return sorted((_clock_row(row) for row in result), key=lambda clock: clock.seat)


async def apply_clock_changes(
    conn: AsyncConnection, changes: ClockChanges, *, now: datetime
) -> list[ClockRow]:
    """Apply ``changes`` inside the caller's write transaction ``conn``.

    Order: check the vacation rows the plan was made with (``changes.vacations_seen``,
    locked until the transaction ends), cancel timers, write clocks (each a compare-and-set
    on its ``version``, which becomes ``expected_version + 1``), schedule timers (replacing
    the pending one of the same game, seat and kind). Returns the written clocks in the order
    of ``changes.writes``. Raises :class:`VacationChangedError` when a vacation changed since
    the plan and :class:`ClockChangedError` on the first clock that moved on; the caller's
    transaction must then roll back (``Transactions.write`` does when the error leaves it).
    """
    for user_id, seen in changes.vacations_seen:
        version = (
            await conn.execute(
                select(vacations.c.version).where(vacations.c.user_id == user_id).with_for_update()
            )
        ).scalar_one_or_none()
        if version != seen:
            raise VacationChangedError(user_id, seen)
    for cancel in changes.cancel:
        await cancel_timers(conn, cancel.game_id, seat=cancel.seat, kinds=cancel.kinds)
    written: list[ClockRow] = []
    for write in changes.writes:
        result = await conn.execute(
            update(clocks)
            .where(
                clocks.c.game_id == write.game_id,
                clocks.c.seat == write.seat,
                clocks.c.version == write.expected_version,
            )
            .values(
                remaining_ms=write.remaining_ms,
                running_since=write.running_since,
                version=clocks.c.version + 1,
                updated_at=now,
            )
            .returning(*clocks.c)
        )
        row = result.one_or_none()
        if row is None:
            actual = (
                await conn.execute(
                    select(clocks.c.version).where(
                        clocks.c.game_id == write.game_id, clocks.c.seat == write.seat
                    )
                )
            ).scalar_one_or_none()
            raise ClockChangedError(write.game_id, write.seat, write.expected_version, actual)
        written.append(_clock_row(row))
    for timer in changes.schedule:
        await schedule_timer(conn, timer, now=now)
    return written


def _clock_row(row: Row[Any]) -> ClockRow:
    return ClockRow(
        game_id=row.game_id,
        seat=row.seat,
        spec=row.spec,
        remaining_ms=row.remaining_ms,
        running_since=row.running_since,
        version=row.version,
        updated_at=row.updated_at,
    )


def _vacation_row(row: Row[Any]) -> VacationRow:
    return VacationRow(
        user_id=row.user_id,
        year=row.year,
        used_ms=row.used_ms,
        started_at=row.started_at,
        until=row.until,
        version=row.version,
        updated_at=row.updated_at,
    )


def _turn_context_query(user_ids: Sequence[int], guild_id: int | None) -> Any:
    """One row per user id: the user's settings (``s_*``), vacation (``v_*``) and the
    guild's settings (``g_*``), each column ``NULL`` where there is no such row."""
    each = [select(literal(u, BigInteger).label("user_id")) for u in user_ids]
    who = (each[0] if len(each) == 1 else union_all(*each)).subquery("wanted")
    joined = who.outerjoin(user_settings, user_settings.c.user_id == who.c.user_id).outerjoin(
        vacations, vacations.c.user_id == who.c.user_id
    )
    guild_columns: list[Any] = [
        literal(None, String).label("g_threads"),
        literal(None, Integer).label("g_reminder_quiet_s"),
        literal(None, UTCDateTime).label("g_updated_at"),
    ]
    if guild_id is not None:
        joined = joined.outerjoin(guild_settings, guild_settings.c.guild_id == guild_id)
        guild_columns = [
            guild_settings.c.threads.label("g_threads"),
            guild_settings.c.reminder_quiet_s.label("g_reminder_quiet_s"),
            guild_settings.c.updated_at.label("g_updated_at"),
        ]
    return select(
        who.c.user_id,
        user_settings.c.reminders.label("s_reminders"),
        user_settings.c.reminder_quiet_s.label("s_reminder_quiet_s"),
        user_settings.c.updated_at.label("s_updated_at"),
        vacations.c.year.label("v_year"),
        vacations.c.used_ms.label("v_used_ms"),
        vacations.c.started_at.label("v_started_at"),
        vacations.c.until.label("v_until"),
        vacations.c.version.label("v_version"),
        vacations.c.updated_at.label("v_updated_at"),
        *guild_columns,
    ).select_from(joined)
