"""``GamesRepo``: games, their seats and their move log.

Every method is one transaction. Writes that change a game quote the ``version`` the caller
last saw and fail with :class:`~db.errors.StaleVersionError` if another writer got there
first (compare-and-set: ``UPDATE games ... WHERE id = :id AND version = :expected``), so two
moves racing on the same position can never both land.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Row, bindparam, delete, exists, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from db.challenges import claim_open_challenge, write_entry
from db.clocks import apply_clock_changes, insert_clocks
from db.engine import Transactions
from db.errors import (
    ChannelBusyError,
    GameNotActiveError,
    GameNotFoundError,
    StaleVersionError,
)
from db.ratings import apply_rating_hook
from db.rows import (
    ChallengeEntry,
    ClockChanges,
    GameRow,
    MoveRow,
    NewClock,
    NewMove,
    RatingHook,
    SeatRow,
    decode_mask,
    decode_seats,
    encode_mask,
    encode_seats,
    require_aware,
)
from db.schema import (
    ACTIVE_GAME_PER_CHANNEL_INDEX,
    ChallengeStatus,
    GameStatus,
    challenges,
    games,
)
from db.schema import moves as move_log
from db.schema import seats as seat_table
from db.timers import cancel_matching_timers

__all__ = ["GamesRepo"]

_ENDED = (GameStatus.FINISHED, GameStatus.ABORTED)
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


class GamesRepo:
    """Reads and writes ``games``, ``seats`` and ``moves``. Obtain it as ``Database.games``."""

    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    # ----------------------------------------------------------------------------------------
    # Writes
    # ----------------------------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        parent_channel_id: int | None,
        game: str,
        options_json: str,
        rules_version: str,
        seed: int,
        state_json: str,
        ply: int,
        to_move: Sequence[int],
        user_ids: Sequence[int],
        now: datetime,
        teams: Sequence[int | None] | None = None,
        challenge_id: int | None = None,
        challenge_version: int | None = None,
        challenge_entry: ChallengeEntry | None = None,
        clock: str = "none",
        clocks: Sequence[NewClock] = (),
        clock_changes: Callable[[int], ClockChanges | None] | None = None,
        start_position: str | None = None,
        rated: bool | None = None,
    ) -> GameRow:
        """Start an active game at version 1 with seats ``0..len(user_ids)-1``.

        ``clock`` is the clock's canonical text, stored as given (``none``: no clock).
        ``start_position`` is the custom position the game started from (the game's position
        notation, stored as given; ``None``: the standard start).
        ``rated``: whether the game counts for ratings; ``None`` (the default) copies the
        challenge's ``rated`` option (rated without a challenge).
        ``clocks`` are the seats' time banks, inserted at version 1 once the seats exist.
        ``clock_changes``, if given, is called with the new game's id inside the transaction
        and what it returns is applied there too (:func:`db.clocks.apply_clock_changes`:
        the first deadline and reminder timers), so a game never starts without them.

        ``user_ids[i]`` plays seat ``i`` (the same user may hold several seats);
        ``teams[i]``, if given, is that seat's team. With ``challenge_id``, the same
        transaction accepts that challenge (compare-and-set from ``"open"`` and not expired at
        ``now``, and at ``challenge_version`` if given) and links it to the new game, so a
        challenge never ends up accepted without its game, nor a game started from a
        challenge someone else accepted or from a lobby that changed meanwhile.
        ``challenge_entry`` records, in that transaction too, the answer that filled the last
        seat (see :meth:`db.ChallengesRepo.enter`).

        Raises :class:`ChannelBusyError` if ``channel_id`` already has an active game (the
        partial unique index refused it), :class:`ChallengeClosedError` if the challenge is
        no longer open, :class:`ChallengeChangedError` if it is not at
        ``challenge_version``, :class:`ChallengeFullError` if ``challenge_entry`` overfills
        it, :class:`ValueError` for no players, a ``teams`` of the wrong length, a
        ``seed`` outside the signed 64-bit range, challenge arguments without
        ``challenge_id`` or a naive ``now``. Nothing is written when it raises.
        """
        require_aware("now", now)
        if not user_ids:
            raise ValueError("a game needs at least one seat")
        if teams is not None and len(teams) != len(user_ids):
            raise ValueError(f"{len(teams)} teams for {len(user_ids)} seats")
        if not _INT64_MIN <= seed <= _INT64_MAX:
            raise ValueError(f"seed {seed} does not fit a signed 64-bit column")
        if challenge_id is None and (challenge_version, challenge_entry) != (None, None):
            raise ValueError("challenge_version and challenge_entry need a challenge_id")
        seat_teams: Sequence[int | None] = teams if teams is not None else [None] * len(user_ids)
        values = {
            "guild_id": guild_id,
            "channel_id": channel_id,
            "parent_channel_id": parent_channel_id,
            "game": game,
            "options": options_json,
            "rules_version": rules_version,
            "seed": seed,
            "status": GameStatus.ACTIVE.value,
            "version": 1,
            "ply": ply,
            "to_move": encode_seats(to_move),
            "state": state_json,
            "clock": clock,
            "start_position": start_position,
            "rated": _rated(rated, challenge_id),
            "created_at": now,
            "updated_at": now,
        }
        try:
            async with self._tx.write() as conn:
                if challenge_id is not None:
                    await claim_open_challenge(
                        conn,
                        challenge_id,
                        now=now,
                        expected_version=challenge_version,
                        values={"status": ChallengeStatus.ACCEPTED.value, "resolved_at": now},
                    )
                    if challenge_entry is not None:
                        await write_entry(conn, challenge_id, challenge_entry, now=now)
                result = await conn.execute(insert(games).values(values).returning(*games.c))
                row = _game_row(result.one())
                await conn.execute(
                    insert(seat_table),
                    [
                        {"game_id": row.id, "seat": seat, "user_id": user_id, "team": team}
                        for seat, (user_id, team) in enumerate(
                            zip(user_ids, seat_teams, strict=True)
                        )
                    ],
                )
                if challenge_id is not None:
                    await conn.execute(
                        update(challenges)
                        .where(challenges.c.id == challenge_id)
                        .values(game_id=row.id)
                    )
                await insert_clocks(conn, row.id, clocks, now=now)
                if clock_changes is not None:
                    changes = clock_changes(row.id)
                    if changes:
                        await apply_clock_changes(conn, changes, now=now)
        except IntegrityError as exc:
            if _is_active_game_conflict(exc):
                raise ChannelBusyError(channel_id) from exc
            raise
        return row

    async def commit_moves(
        self,
        game_id: int,
        expected_version: int,
        *,
        moves: Sequence[NewMove],
        state_json: str,
        ply: int,
        to_move: Sequence[int],
        status: str,
        outcome_json: str | None,
        termination: str | None,
        now: datetime,
        clock_changes: ClockChanges | None = None,
        rating: RatingHook | None = None,
    ) -> GameRow:
        """Append ``moves`` to the log and store the position they lead to, atomically.

        One transaction: compare-and-set on ``version`` (which becomes ``expected_version +
        1``), the new ``state_json``/``ply``/``to_move``/``status``/``outcome_json``/
        ``termination``, any pending draw offer cleared, ``finished_at = now`` if ``status``
        is ``"finished"`` or ``"aborted"``, then one log row per move, then ``clock_changes``
        (the seats' clocks after the move and their timers;
        :func:`db.clocks.apply_clock_changes`), then the ``rating`` update if given
        (:func:`db.ratings.apply_rating_hook`: a game that ends rated). Readers see all of it
        or none of it. Returns the updated game.

        Raises :class:`StaleVersionError` if the game is no longer at ``expected_version``,
        :class:`GameNotActiveError` if it has ended, :class:`GameNotFoundError` if there is
        no such game, :class:`~db.clocks.ClockChangedError` if a clock moved on (a vacation
        landed first), :class:`ValueError` for an empty ``moves`` or an unknown ``status``,
        and :class:`sqlalchemy.exc.IntegrityError` if a move's ply is already logged.
        """
        require_aware("now", now)
        if not moves:
            raise ValueError("commit_moves needs at least one move")
        new_status = GameStatus(status)
        values: dict[str, Any] = {
            "state": state_json,
            "ply": ply,
            "to_move": encode_seats(to_move),
            "status": new_status.value,
            "outcome": outcome_json,
            "termination": termination,
            "draw_offer_seat": None,
            "draw_agreed": None,
            "takeback_seat": None,
            "updated_at": now,
        }
        if new_status in _ENDED:
            values["finished_at"] = now
        async with self._tx.write() as conn:
            row = await _compare_and_set(conn, game_id, expected_version, values)
            await conn.execute(
                insert(move_log),
                [
                    {
                        "game_id": game_id,
                        "ply": move.ply,
                        "seat": move.seat,
                        "text": move.text,
                        "events": move.events_json,
                        "created_at": now,
                    }
                    for move in moves
                ],
            )
            if clock_changes:
                await apply_clock_changes(conn, clock_changes, now=now)
            if rating is not None:
                await apply_rating_hook(conn, rating, game_id)
        return row

    async def finish(
        self,
        game_id: int,
        expected_version: int,
        *,
        status: str,
        outcome_json: str | None,
        termination: str | None,
        now: datetime,
        clock_changes: ClockChanges | None = None,
        rating: RatingHook | None = None,
    ) -> GameRow:
        """End an active game without a move: resignation, agreed draw, timeout or abort.

        ``status`` is ``"finished"`` or ``"aborted"``. Sets ``to_move`` to ``()``, clears a
        draw offer, stamps ``finished_at`` and applies ``clock_changes`` (every clock
        stopped, the game's timers cancelled) in the same transaction; compare-and-set on
        ``version`` as in :meth:`commit_moves`, with the same errors (and
        :class:`ValueError` for a status that does not end the game). ``rating`` as in
        :meth:`commit_moves`.
        """
        require_aware("now", now)
        new_status = GameStatus(status)
        if new_status not in _ENDED:
            raise ValueError(f"finish() needs 'finished' or 'aborted', not {status!r}")
        values = {
            "status": new_status.value,
            "outcome": outcome_json,
            "termination": termination,
            "to_move": "",
            "draw_offer_seat": None,
            "draw_agreed": None,
            "takeback_seat": None,
            "finished_at": now,
            "updated_at": now,
        }
        async with self._tx.write() as conn:
            row = await _compare_and_set(conn, game_id, expected_version, values)
            if clock_changes:
                await apply_clock_changes(conn, clock_changes, now=now)
            if rating is not None:
                await apply_rating_hook(conn, rating, game_id)
            return row

    async def set_draw_offer(
        self,
        game_id: int,
        expected_version: int,
        seat: int | None,
        now: datetime,
        *,
        agreed: Sequence[int] = (),
    ) -> GameRow:
        """Record that ``seat`` offers a draw, ``agreed`` (the offerer's seats, ``seat``
        included) agreeing to it from the start (``seat`` ``None`` withdraws or declines the
        offer and clears them).

        Bumps ``version`` (buttons showing the old offer become stale); compare-and-set and
        errors as in :meth:`commit_moves`. The next committed move clears the offer.
        """
        require_aware("now", now)
        mask = None if seat is None else encode_mask({seat, *agreed})
        values = {"draw_offer_seat": seat, "draw_agreed": mask, "updated_at": now}
        async with self._tx.write() as conn:
            return await _compare_and_set(conn, game_id, expected_version, values)

    async def agree_to_draw(
        self, game_id: int, version: int, seats: Sequence[int], now: datetime
    ) -> GameRow | None:
        """Add ``seats`` to those agreeing to the open draw offer of game ``game_id`` at
        ``version``, in one statement (``draw_agreed | mask``), so acceptances that land
        together (other processes) all count. The version stays: the offer is the same, and
        its buttons keep working for the others. Returns the row after it, or ``None`` when
        the game is not at ``version`` with an offer open (a move, an answer or an end came
        first). Raises ``ValueError`` for no seats."""
        require_aware("now", now)
        if not seats:
            raise ValueError("agree_to_draw needs at least one seat")
        open_offer = (
            (games.c.id == game_id)
            & (games.c.version == version)
            & (games.c.status == GameStatus.ACTIVE.value)
            & games.c.draw_offer_seat.is_not(None)
        )
        async with self._tx.write() as conn:
            result = await conn.execute(
                update(games)
                .where(open_offer)
                .values(
                    draw_agreed=func.coalesce(games.c.draw_agreed, 0).op("|")(encode_mask(seats)),
                    updated_at=now,
                )
                .returning(*games.c)
            )
            row = result.one_or_none()
            return None if row is None else _game_row(row)

    async def set_takeback(
        self, game_id: int, expected_version: int, seat: int | None, now: datetime
    ) -> GameRow:
        """Record that ``seat`` asks to take its last move back (``None``: the request is
        answered or withdrawn).

        Bumps ``version`` (buttons showing the old request become stale); compare-and-set and
        errors as in :meth:`commit_moves`. The next committed move clears the request.
        """
        require_aware("now", now)
        values = {"takeback_seat": seat, "updated_at": now}
        async with self._tx.write() as conn:
            return await _compare_and_set(conn, game_id, expected_version, values)

    async def set_board_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the last board message posted for the game (no version bump).

        Works on ended games too (the final board). Raises :class:`GameNotFoundError`.
        """
        async with self._tx.write() as conn:
            result = await conn.execute(
                update(games).where(games.c.id == game_id).values(board_message_id=message_id)
            )
            if result.rowcount != 1:
                raise GameNotFoundError(game_id)

    async def set_board_messages(
        self,
        message_ids: Mapping[int, int | None],
        *,
        done_timers: tuple[str, Sequence[tuple[int, str]]] | None = None,
    ) -> None:
        """:meth:`set_board_message` for many games (game id → message id) in one
        transaction. A game that does not exist is skipped (the drivers do not count the rows
        of a many-row update alike: asyncpg reports one statement's). ``done_timers`` is
        ``(kind, [(game id, payload), …])``: the game-wide timers the posts make needless, deleted
        in the same transaction (:func:`db.timers.cancel_matching_timers`)."""
        if not message_ids:
            return
        async with self._tx.write() as conn:
            await conn.execute(
                update(games)
                .where(games.c.id == bindparam("game_id"))
                .values(board_message_id=bindparam("message_id")),
                [{"game_id": g, "message_id": m} for g, m in message_ids.items()],
            )
            if done_timers is not None:
                await cancel_matching_timers(conn, *done_timers)

    # ----------------------------------------------------------------------------------------
    # Reads
    # ----------------------------------------------------------------------------------------

    async def get(self, game_id: int) -> GameRow | None:
        """The game with id ``game_id``, or ``None``."""
        async with self._tx.read() as conn:
            result = await conn.execute(select(games).where(games.c.id == game_id))
            row = result.one_or_none()
        return None if row is None else _game_row(row)

    async def active_in_channel(self, channel_id: int) -> GameRow | None:
        """The active game in a channel or thread, or ``None`` (there is at most one)."""
        async with self._tx.read() as conn:
            result = await conn.execute(
                select(games).where(
                    games.c.channel_id == channel_id,
                    games.c.status == GameStatus.ACTIVE.value,
                )
            )
            row = result.one_or_none()
        return None if row is None else _game_row(row)

    async def active_with_draw_offer(self) -> list[GameRow]:
        """The active games with an open draw offer, by id (a process that starts looks for
        offers its bots were to answer when the last one stopped)."""
        async with self._tx.read() as conn:
            result = await conn.execute(
                select(games)
                .where(
                    games.c.status == GameStatus.ACTIVE.value,
                    games.c.draw_offer_seat.is_not(None),
                )
                .order_by(games.c.id)
            )
            return [_game_row(row) for row in result]

    async def active_in_or_under(self, guild_id: int, channel_id: int) -> list[GameRow]:
        """The active games of guild ``guild_id`` played in channel or thread ``channel_id``
        or in a thread of it (``parent_channel_id``), oldest first: what a deleted channel
        takes with it. The guild narrows the read to the ``(guild_id, status)`` index."""
        async with self._tx.read() as conn:
            result = await conn.execute(
                select(games)
                .where(
                    games.c.guild_id == guild_id,
                    games.c.status == GameStatus.ACTIVE.value,
                    or_(games.c.channel_id == channel_id, games.c.parent_channel_id == channel_id),
                )
                .order_by(games.c.id)
            )
            return [_game_row(row) for row in result.all()]

    async def active_places(self) -> list[tuple[int, int]]:
        """``(guild_id, channel_id)`` of every channel or thread with an active game, each
        once, in id order; games outside a guild (``guild_id`` NULL) are left out. What a bot
        process checks on connecting, for channels deleted while none was connected."""
        async with self._tx.read() as conn:
            result = await conn.execute(
                select(games.c.guild_id, games.c.channel_id)
                .where(games.c.status == GameStatus.ACTIVE.value, games.c.guild_id.is_not(None))
                .distinct()
                .order_by(games.c.guild_id, games.c.channel_id)
            )
            return [(int(row.guild_id), int(row.channel_id)) for row in result.all()]

    async def latest_in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's active game, else its most recently created one, else ``None``.

        Lets ``/board`` and ``/game moves`` still show a game that has just ended.
        """
        async with self._tx.read() as conn:
            result = await conn.execute(
                select(games)
                .where(games.c.channel_id == channel_id)
                .order_by((games.c.status == GameStatus.ACTIVE.value).desc(), games.c.id.desc())
                .limit(1)
            )
            row = result.one_or_none()
        return None if row is None else _game_row(row)

    async def list_active(
        self,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        user_id: int | None = None,
    ) -> list[GameRow]:
        """Active games, oldest first, narrowed by every filter given.

        ``user_id`` keeps the games where that user holds a seat.
        """
        query = select(games).where(games.c.status == GameStatus.ACTIVE.value)
        if guild_id is not None:
            query = query.where(games.c.guild_id == guild_id)
        if channel_id is not None:
            query = query.where(games.c.channel_id == channel_id)
        if user_id is not None:
            query = query.where(
                exists().where(seat_table.c.game_id == games.c.id, seat_table.c.user_id == user_id)
            )
        async with self._tx.read() as conn:
            result = await conn.execute(query.order_by(games.c.id))
            return [_game_row(row) for row in result]

    async def seats(self, game_id: int) -> list[SeatRow]:
        """The seats of a game in seat order (empty if there is no such game)."""
        async with self._tx.read() as conn:
            result = await conn.execute(
                select(seat_table)
                .where(seat_table.c.game_id == game_id)
                .order_by(seat_table.c.seat)
            )
            return [
                SeatRow(game_id=r.game_id, seat=r.seat, user_id=r.user_id, team=r.team)
                for r in result
            ]

    async def moves(self, game_id: int, *, since_ply: int = 0) -> list[MoveRow]:
        """The move log of a game after ``since_ply`` (``ply > since_ply``), in ply order.

        Plies count from 1, so the default gives the whole log; ``since_ply=game.ply - 1``
        gives the last move.
        """
        async with self._tx.read() as conn:
            result = await conn.execute(
                select(move_log)
                .where(move_log.c.game_id == game_id, move_log.c.ply > since_ply)
                .order_by(move_log.c.ply)
            )
            return [
                MoveRow(
                    game_id=r.game_id,
                    ply=r.ply,
                    seat=r.seat,
                    text=r.text,
                    events_json=r.events,
                    created_at=r.created_at,
                )
                for r in result
            ]

    # ----------------------------------------------------------------------------------------
    # Takebacks
    # ----------------------------------------------------------------------------------------

    async def rewind(
        self,
        game_id: int,
        expected_version: int,
        *,
        to_ply: int,
        state_json: str,
        to_move: Sequence[int],
        now: datetime,
        clock_changes: ClockChanges | None = None,
    ) -> GameRow:
        """Take moves back: the game returns to the position after ply ``to_ply``.

        One transaction: compare-and-set on ``version`` (which becomes ``expected_version +
        1``), the log rows with ``ply > to_ply`` deleted, ``state_json``/``ply = to_ply``/
        ``to_move`` stored, the pending takeback request and draw offer cleared, and
        ``clock_changes`` (if any) applied by :func:`db.clocks.apply_clock_changes`. The game
        stays active. Returns the updated game.

        Raises :class:`StaleVersionError`, :class:`GameNotActiveError` and
        :class:`GameNotFoundError` as :meth:`commit_moves` does,
        :class:`~db.clocks.ClockChangedError` if a clock moved on, and :class:`ValueError`
        for a negative ``to_ply`` or a naive ``now``. Nothing is written when it raises.
        """
        require_aware("now", now)
        if to_ply < 0:
            raise ValueError(f"cannot rewind to ply {to_ply}")
        values = {
            "state": state_json,
            "ply": to_ply,
            "to_move": encode_seats(to_move),
            "draw_offer_seat": None,
            "draw_agreed": None,
            "takeback_seat": None,
            "updated_at": now,
        }
        async with self._tx.write() as conn:
            row = await _compare_and_set(conn, game_id, expected_version, values)
            await conn.execute(
                delete(move_log).where(move_log.c.game_id == game_id, move_log.c.ply > to_ply)
            )
            if clock_changes:
                await apply_clock_changes(conn, clock_changes, now=now)
        return row


async def _compare_and_set(
    conn: AsyncConnection, game_id: int, expected_version: int, values: Mapping[str, Any]
) -> GameRow:
    """Update an active game at ``expected_version``, bumping ``version``; or say why not.

    Must run inside a write transaction: the caller's block rolls back when this raises.
    """
    result = await conn.execute(
        update(games)
        .where(
            games.c.id == game_id,
            games.c.version == expected_version,
            games.c.status == GameStatus.ACTIVE.value,
        )
        .values({**values, "version": games.c.version + 1})
        .returning(*games.c)
    )
    row = result.one_or_none()
    if row is not None:
        return _game_row(row)
    current = (
        await conn.execute(select(games.c.version, games.c.status).where(games.c.id == game_id))
    ).one_or_none()
    if current is None:
        raise GameNotFoundError(game_id)
    if current.version != expected_version:
        raise StaleVersionError(game_id, expected_version, current.version)
    raise GameNotActiveError(game_id, current.status)


def _is_active_game_conflict(exc: IntegrityError) -> bool:
    """Whether ``exc`` is the one-active-game-per-channel index refusing an insert.

    PostgreSQL names the index in its message; SQLite names the indexed column.
    """
    message = str(exc.orig)
    return ACTIVE_GAME_PER_CHANNEL_INDEX in message or (
        "UNIQUE constraint failed" in message and "games.channel_id" in message
    )


def _game_row(row: Row[Any]) -> GameRow:
    return GameRow(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        parent_channel_id=row.parent_channel_id,
        game=row.game,
        options_json=row.options,
        rules_version=row.rules_version,
        seed=row.seed,
        status=GameStatus(row.status),
        version=row.version,
        ply=row.ply,
        to_move=decode_seats(row.to_move),
        state_json=row.state,
        outcome_json=row.outcome,
        termination=row.termination,
        draw_offer_seat=row.draw_offer_seat,
        draw_agreed=decode_mask(row.draw_agreed),
        takeback_seat=row.takeback_seat,
        clock=row.clock,
        board_message_id=row.board_message_id,
        created_at=row.created_at,
        updated_at=row.updated_at,
        finished_at=row.finished_at,
        start_position=row.start_position,
        rated=row.rated,
        watchers=row.watchers,
    )


def _rated(rated: bool | None, challenge_id: int | None) -> Any:
    """The ``games.rated`` value of a new game: as given, else the challenge's option (a
    scalar subquery, read in the creating transaction), else rated."""
    if rated is not None:
        return rated
    if challenge_id is None:
        return True
    return select(challenges.c.rated).where(challenges.c.id == challenge_id).scalar_subquery()
