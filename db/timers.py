"""``TimersRepo``: durable timers, claimed by exactly one worker and fired once.

A timer is a row of ``timers``: a ``kind`` (which handler runs it), what it concerns
(``game_id``, ``seat``), when it is due (``due_at``) and a JSON ``payload``. A loop in each
bot process (:class:`bot.service.timers.TimerRunner`) calls :meth:`TimersRepo.claim_due`,
runs the handler of each claimed timer, then :meth:`TimersRepo.mark_fired` (or
:meth:`TimersRepo.release` to retry later, or :meth:`TimersRepo.mark_failed` to give up).
A repeating timer (a reminder) passes its next occurrence to :meth:`TimersRepo.mark_fired`,
which inserts it in the same transaction: the next one exists if and only if this one fired.

Claiming is a compare-and-set: ``UPDATE timers SET claimed_by = :worker, attempts =
attempts + 1 WHERE id IN (due candidates) AND status = 'pending' AND claimed_by IS NULL``.
On SQLite the write transaction (``BEGIN IMMEDIATE``) serialises claimers; on PostgreSQL the
candidate subquery is ``SELECT ... FOR UPDATE SKIP LOCKED`` (two claimers pick different
rows instead of queueing) and the ``claimed_by IS NULL`` condition is re-checked on the
latest row version, so a timer is claimed by exactly one worker either way. ``attempts`` and
``claimed_by`` together name one claim: a worker whose claim was released as stale
(:meth:`TimersRepo.release_stale`) can no longer mark the timer fired.

A timer runs its handler once unless a worker dies (or times out) between the handler's
effects and :meth:`mark_fired`; then it runs again after :meth:`release_stale`. Handlers
therefore check the truth (the game row, the clock row) before acting, which they must do
anyway since a move can land between a timer's claim and its handler.

At most one *pending* timer exists per game, seat and kind (partial unique indexes; see
:data:`db.schema.LIVE_SEAT_TIMER_INDEX`). :meth:`schedule` replaces the pending one by
default: a seat's clock deadline moves after every move. A cancelled or replaced timer is
deleted; fired and failed ones stay for diagnostics until :meth:`purge`.

To schedule or cancel timers in another repository's transaction (a move's commit), call
:func:`schedule_timer` and :func:`cancel_timers` with that transaction's connection.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from functools import cache
from typing import Any, Final

from sqlalchemy import Row, and_, bindparam, delete, insert, literal_column, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from db.engine import Transactions, insert_for
from db.rows import NewTimer, TimerRow, require_aware
from db.schema import TimerStatus, timers

__all__ = [
    "MAX_ERROR_CHARS",
    "TimersRepo",
    "cancel_timers",
    "schedule_timer",
]

#: ``last_error`` keeps at most this many characters of the error's text.
MAX_ERROR_CHARS: Final = 2000

_PENDING: Final = TimerStatus.PENDING.value


class TimersRepo:
    """Reads and writes ``timers``. Obtain it as ``Database.timers``.

    Every method is one transaction. Methods that act on a claim take the
    :class:`~db.rows.TimerRow` that :meth:`claim_due` returned and succeed only while that
    claim still holds.
    """

    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    # ----------------------------------------------------------------------------------------
    # Scheduling
    # ----------------------------------------------------------------------------------------

    async def schedule(self, timer: NewTimer, *, now: datetime, replace: bool = True) -> TimerRow:
        """Store ``timer`` as pending; returns the pending timer for its game, seat and kind.

        With ``replace`` (the default) a pending timer of the same game, seat and kind is
        deleted first (even if a worker is running it: that worker's :meth:`mark_fired` then
        returns ``False``). Without, an existing pending timer is kept and returned
        unchanged. Timers without a game never replace one another. Raises
        :class:`ValueError` for a naive ``now``.
        """
        require_aware("now", now)
        async with self._tx.write() as conn:
            return await schedule_timer(conn, timer, now=now, replace=replace)

    async def cancel(
        self,
        game_id: int,
        *,
        seat: int | None = None,
        kinds: Collection[str] | None = None,
    ) -> int:
        """Delete the game's pending timers, narrowed to ``seat`` and ``kinds`` if given.

        ``seat=None`` means every seat *and* the game-wide timers. A timer being run is
        deleted too (its worker's :meth:`mark_fired` returns ``False``). Returns how many
        timers were deleted.
        """
        async with self._tx.write() as conn:
            return await cancel_timers(conn, game_id, seat=seat, kinds=kinds)

    async def bring_forward(self, timer: TimerRow, due_at: datetime) -> bool:
        """Make the pending timer ``timer`` (as read) due at the earlier ``due_at``, if it is
        still that timer: pending, unclaimed, with the same payload (a write that replaced it
        in place, a turn change's new reminder, is left alone) and due later. ``False`` when
        it changed or is gone. Raises :class:`ValueError` for a naive ``due_at``."""
        require_aware("due_at", due_at)
        async with self._tx.write() as conn:
            result = await conn.execute(
                update(timers)
                .where(
                    timers.c.id == timer.id,
                    timers.c.status == _PENDING,
                    timers.c.claimed_by.is_(None),
                    timers.c.payload == timer.payload_json,
                    timers.c.due_at > due_at,
                )
                .values(due_at=due_at)
            )
            return result.rowcount == 1

    async def cancel_id(self, timer_id: int) -> bool:
        """Delete the pending timer ``timer_id``; ``False`` if there is none (fired, failed,
        cancelled or unknown)."""
        async with self._tx.write() as conn:
            result = await conn.execute(
                delete(timers).where(timers.c.id == timer_id, timers.c.status == _PENDING)
            )
            return result.rowcount == 1

    # ----------------------------------------------------------------------------------------
    # Claims
    # ----------------------------------------------------------------------------------------

    async def claim_due(
        self,
        now: datetime,
        worker: str,
        limit: int = 50,
        *,
        kinds: Collection[str] | None = None,
    ) -> list[TimerRow]:
        """Claim up to ``limit`` unclaimed pending timers with ``due_at <= now`` for ``worker``.

        Earliest due first. Each returned timer has ``claimed_by == worker``,
        ``claimed_at == now`` and ``attempts`` one higher than before; no other call, in this
        process or another, returns it until it is released. ``kinds`` restricts the claim
        to the kinds the worker can run (timers of other kinds are left for other workers).

        Raises :class:`ValueError` for an empty ``worker`` (at most 128 characters), a
        ``limit`` below 1 or a naive ``now``.
        """
        require_aware("now", now)
        if not 0 < len(worker) <= 128:
            raise ValueError(f"a worker name has 1 to 128 characters, not {worker!r}")
        if limit < 1:
            raise ValueError(f"limit must be at least 1, not {limit}")
        if kinds is not None and not kinds:
            return []
        candidates = select(timers.c.id).where(
            timers.c.status == _PENDING,
            timers.c.claimed_by.is_(None),
            timers.c.due_at <= now,
        )
        if kinds is not None:
            candidates = candidates.where(timers.c.kind.in_(sorted(kinds)))
        # SKIP LOCKED is PostgreSQL's; SQLAlchemy renders no locking clause on SQLite,
        # where BEGIN IMMEDIATE already serialises the whole transaction.
        candidates = (
            candidates.order_by(timers.c.due_at, timers.c.id)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
        async with self._tx.write() as conn:
            result = await conn.execute(
                update(timers)
                .where(
                    timers.c.id.in_(candidates.scalar_subquery()),
                    timers.c.status == _PENDING,
                    timers.c.claimed_by.is_(None),
                )
                .values(
                    claimed_by=worker,
                    claimed_at=now,
                    attempts=timers.c.attempts + 1,
                    updated_at=now,
                )
                .returning(*timers.c)
            )
            claimed = [_timer_row(row) for row in result]
        return sorted(claimed, key=lambda timer: (timer.due_at, timer.id))

    async def mark_fired(
        self, timer: TimerRow, *, now: datetime, follow_up: NewTimer | None = None
    ) -> bool:
        """Record that the handler of claimed ``timer`` succeeded (status ``"fired"``) and,
        in the same transaction, schedule its ``follow_up`` (a repeating reminder's next
        occurrence).

        The follow-up is inserted only once the claimed row has left ``pending``, so it may
        share the row's game, seat and kind (one pending timer per key). It never replaces
        another pending timer of its key: if one exists (planned meanwhile by a move), that
        one is kept. ``False`` if the claim no longer holds (released as stale and maybe
        claimed again, cancelled, or replaced); then nothing changes and no follow-up is
        scheduled. Raises :class:`ValueError` for a naive ``now`` or an unclaimed ``timer``.
        """
        require_aware("now", now)
        values = {
            "status": TimerStatus.FIRED.value,
            "fired_at": now,
            "last_error": None,
            "updated_at": now,
        }
        async with self._tx.write() as conn:
            if not await _settle_claim(conn, timer, values):
                return False
            if follow_up is not None:
                await schedule_timer(conn, follow_up, now=now, replace=False)
            return True

    async def release(
        self, timer: TimerRow, *, retry_at: datetime, error: str, now: datetime
    ) -> bool:
        """Give claimed ``timer`` back to be claimed again at ``retry_at`` (a retry).

        ``error`` (what went wrong, cut to :data:`MAX_ERROR_CHARS`) goes to ``last_error``.
        ``False`` if the claim no longer holds; then nothing changes.
        """
        require_aware("retry_at", retry_at)
        require_aware("now", now)
        values = {
            "claimed_by": None,
            "claimed_at": None,
            "due_at": retry_at,
            "last_error": error[:MAX_ERROR_CHARS],
            "updated_at": now,
        }
        return await self._settle_claim(timer, values)

    async def mark_failed(self, timer: TimerRow, *, error: str, now: datetime) -> bool:
        """Give up on claimed ``timer``: status ``"failed"``, ``error`` in ``last_error``.

        A failed timer is never claimed again (and frees its game, seat and kind for a new
        pending timer). ``False`` if the claim no longer holds; then nothing changes.
        """
        require_aware("now", now)
        values = {
            "status": TimerStatus.FAILED.value,
            "last_error": error[:MAX_ERROR_CHARS],
            "updated_at": now,
        }
        return await self._settle_claim(timer, values)

    async def release_stale(self, now: datetime, older_than: timedelta) -> list[TimerRow]:
        """Release claims made before ``now - older_than``: their worker died or hung.

        Released timers are pending and unclaimed again (their ``attempts`` keep counting
        the lost claim), so the next :meth:`claim_due` retries them. Returns them as they
        are after the release. Raises :class:`ValueError` for a negative ``older_than``.
        """
        require_aware("now", now)
        if older_than < timedelta(0):
            raise ValueError(f"older_than must not be negative, got {older_than}")
        async with self._tx.write() as conn:
            result = await conn.execute(
                update(timers)
                .where(
                    timers.c.status == _PENDING,
                    timers.c.claimed_by.is_not(None),
                    timers.c.claimed_at < now - older_than,
                )
                .values(
                    claimed_by=None,
                    claimed_at=None,
                    last_error="claim expired: the worker stopped before finishing",
                    updated_at=now,
                )
                .returning(*timers.c)
            )
            released = [_timer_row(row) for row in result]
        return sorted(released, key=lambda timer: timer.id)

    # ----------------------------------------------------------------------------------------
    # Reads and housekeeping
    # ----------------------------------------------------------------------------------------

    async def get(self, timer_id: int) -> TimerRow | None:
        """The timer with id ``timer_id``, or ``None`` (never scheduled, cancelled, purged)."""
        async with self._tx.read() as conn:
            row = (await conn.execute(select(timers).where(timers.c.id == timer_id))).one_or_none()
        return None if row is None else _timer_row(row)

    async def pending(
        self, *, game_id: int | None = None, kinds: Collection[str] | None = None
    ) -> list[TimerRow]:
        """Pending timers (claimed or not), earliest due first, narrowed by the filters."""
        query = select(timers).where(timers.c.status == _PENDING)
        if game_id is not None:
            query = query.where(timers.c.game_id == game_id)
        if kinds is not None:
            query = query.where(timers.c.kind.in_(sorted(kinds)))
        async with self._tx.read() as conn:
            result = await conn.execute(query.order_by(timers.c.due_at, timers.c.id))
            return [_timer_row(row) for row in result]

    async def purge(self, before: datetime) -> int:
        """Delete fired and failed timers last changed before ``before``; returns how many."""
        require_aware("before", before)
        async with self._tx.write() as conn:
            result = await conn.execute(
                delete(timers).where(timers.c.status != _PENDING, timers.c.updated_at < before)
            )
            return result.rowcount

    async def _settle_claim(self, timer: TimerRow, values: dict[str, Any]) -> bool:
        async with self._tx.write() as conn:
            return await _settle_claim(conn, timer, values)


# ------------------------------------------------------------------------------------------
# Building blocks for other repositories' transactions
# ------------------------------------------------------------------------------------------


async def schedule_timer(
    conn: AsyncConnection, timer: NewTimer, *, now: datetime, replace: bool = True
) -> TimerRow:
    """:meth:`TimersRepo.schedule` inside the caller's write transaction ``conn``.

    A timer of a game (its key: game, seat, kind) is written with one ``INSERT ... ON
    CONFLICT`` on the key's partial unique index: ``replace`` overwrites the pending timer of
    the same key in place (it becomes this one, unclaimed), ``replace=False`` keeps it, as if
    it had been there first. On PostgreSQL another transaction may insert a pending timer of
    the same key between our look-up and our ``INSERT`` (a worker's follow-up reminder racing
    a move's new one); nobody gets a duplicate-key error either way.
    """
    require_aware("now", now)
    values = {
        "kind": timer.kind,
        "game_id": timer.game_id,
        "seat": timer.seat,
        "due_at": timer.due_at,
        "payload": timer.payload_json,
        "status": _PENDING,
        "attempts": 0,
        "created_at": now,
        "updated_at": now,
    }
    if timer.game_id is None:  # no key: timers without a game never replace one another
        result = await conn.execute(insert(timers).values(values).returning(*timers.c))
        return _timer_row(result.one())
    no_seat = timer.seat is None
    same_key = and_(
        timers.c.status == _PENDING,
        timers.c.game_id == timer.game_id,
        timers.c.kind == timer.kind,
        timers.c.seat.is_(None) if no_seat else timers.c.seat == timer.seat,
    )
    if not replace:
        existing = (await conn.execute(select(timers).where(same_key))).one_or_none()
        if existing is not None:
            return _timer_row(existing)
    statement = _keyed_insert(conn.dialect.name, no_seat=no_seat, replace=replace)
    row = (await conn.execute(statement, values)).one_or_none()
    if row is None:  # replace=False lost the race: the other transaction's timer stays
        row = (await conn.execute(select(timers).where(same_key))).one()
    return _timer_row(row)


@cache
def _keyed_insert(dialect: str, *, no_seat: bool, replace: bool) -> Any:
    """The ``INSERT ... ON CONFLICT ... RETURNING`` of a timer with a key (a game), for one
    dialect and shape, built once: building it (``excluded`` makes a column proxy per
    column) cost more than running it. The values are bound when it is executed.

    ``replace`` overwrites the pending timer of the same key in place: it becomes this one,
    unclaimed (a worker that claimed the old one can no longer settle it). The conflict
    target's predicate must match the partial index's as written: PostgreSQL cannot infer the
    index from ``status = $1`` (a bound parameter), only from a literal.
    """
    pending = timers.c.status == literal_column(f"'{_PENDING}'")
    if no_seat:
        target = [timers.c.game_id, timers.c.kind]
        target_where = and_(pending, timers.c.seat.is_(None))
    else:
        target = [timers.c.game_id, timers.c.seat, timers.c.kind]
        target_where = pending
    statement = insert_for(dialect, timers)
    if replace:
        statement = statement.on_conflict_do_update(
            index_elements=target,
            index_where=target_where,
            set_={
                "due_at": statement.excluded.due_at,
                "payload": statement.excluded.payload,
                "attempts": 0,
                "last_error": None,
                "claimed_by": None,
                "claimed_at": None,
                "fired_at": None,
                "created_at": statement.excluded.created_at,
                "updated_at": statement.excluded.updated_at,
            },
        )
    else:
        statement = statement.on_conflict_do_nothing(
            index_elements=target, index_where=target_where
        )
    return statement.returning(*timers.c)


async def cancel_matching_timers(
    conn: AsyncConnection, kind: str, payloads: Sequence[tuple[int, str]]
) -> None:
    """Delete, inside the caller's write transaction ``conn``, the pending game-wide timers
    of ``kind`` whose game and payload are a pair of ``payloads`` (game id, payload JSON
    text, compared as text): timers planned for one version of a game that their caller is
    done with; a newer one that replaced such a timer stays."""
    if not payloads:
        return
    await conn.execute(
        delete(timers).where(
            timers.c.status == _PENDING,
            timers.c.kind == kind,
            timers.c.seat.is_(None),
            timers.c.game_id == bindparam("game"),
            timers.c.payload == bindparam("body"),
        ),
        [{"game": g, "body": body} for g, body in payloads],
    )


async def cancel_timers(
    conn: AsyncConnection,
    game_id: int,
    *,
    seat: int | None = None,
    kinds: Collection[str] | None = None,
) -> int:
    """:meth:`TimersRepo.cancel` inside the caller's write transaction ``conn``."""
    query = delete(timers).where(timers.c.status == _PENDING, timers.c.game_id == game_id)
    if seat is not None:
        query = query.where(timers.c.seat == seat)
    if kinds is not None:
        query = query.where(timers.c.kind.in_(sorted(kinds)))
    result = await conn.execute(query)
    return result.rowcount


async def _settle_claim(conn: AsyncConnection, timer: TimerRow, values: dict[str, Any]) -> bool:
    """Write ``values`` over claimed ``timer`` if that very claim still holds (same worker,
    same attempt, still pending); ``False`` otherwise."""
    if timer.claimed_by is None:
        raise ValueError(f"timer {timer.id} was not claimed: pass a row from claim_due()")
    result = await conn.execute(
        update(timers)
        .where(
            timers.c.id == timer.id,
            timers.c.status == _PENDING,
            timers.c.claimed_by == timer.claimed_by,
            timers.c.attempts == timer.attempts,
        )
        .values(values)
    )
    return result.rowcount == 1


def _timer_row(row: Row[Any]) -> TimerRow:
    return TimerRow(
        id=row.id,
        kind=row.kind,
        game_id=row.game_id,
        seat=row.seat,
        due_at=row.due_at,
        payload_json=row.payload,
        status=TimerStatus(row.status),
        attempts=row.attempts,
        last_error=row.last_error,
        claimed_by=row.claimed_by,
        claimed_at=row.claimed_at,
        fired_at=row.fired_at,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )
