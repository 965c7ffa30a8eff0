"""``ChallengesRepo``: invitations to play, from ``/challenge`` until the game starts or not.

A challenge is a *lobby*: ``players`` seats, the challenger in one, invited players' seats
reserved until they answer, the rest open to anyone. Its users are rows of
``challenge_players``. While it is ``"open"`` the lobby changes one user at a time with
:meth:`ChallengesRepo.enter`, a compare-and-set on ``challenges.version`` (``UPDATE ... WHERE
status = 'open' AND version = :expected``): of two users pressing Join for the last seat
exactly one write lands, and the other caller reloads and sees the seat taken.

A challenge leaves ``"open"`` exactly once, also by compare-and-set: accepted together with
its game's creation (:meth:`db.GamesRepo.create`), declined or cancelled (:meth:`resolve`), or
expired (:meth:`expire_due`), so an expiry sweep never overrides an answer.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Row, exists, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from db.engine import Transactions
from db.errors import (
    ChallengeChangedError,
    ChallengeClosedError,
    ChallengeFullError,
    ChallengeNotFoundError,
    RematchAlreadyOpenError,
    RematchAlreadyStartedError,
)
from db.rows import ChallengeEntry, ChallengePlayerRow, ChallengeRow, require_aware
from db.schema import (
    OPEN_REMATCH_INDEX,
    ChallengePlayerRole,
    ChallengePlayerStatus,
    ChallengeStatus,
    GameStatus,
    challenge_players,
    challenges,
    games,
)

__all__ = ["ChallengesRepo", "claim_open_challenge", "read_challenge", "write_entry"]

_ANSWERS = (ChallengeStatus.ACCEPTED, ChallengeStatus.DECLINED, ChallengeStatus.CANCELLED)
_HOLDING = (ChallengePlayerStatus.INVITED.value, ChallengePlayerStatus.SEATED.value)


class ChallengesRepo:
    """Reads and writes ``challenges`` and ``challenge_players``.

    Obtain it as ``Database.challenges``. Every method is one transaction; rows come back
    as :class:`~db.rows.ChallengeRow` with their lobby.
    """

    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        challenger_id: int,
        invited_ids: Sequence[int],
        players: int,
        game: str,
        options_json: str,
        now: datetime,
        expires_at: datetime,
        clock: str = "none",
        seating: Sequence[int] | None = None,
        rematch_of: int | None = None,
        start_position: str | None = None,
        rated: bool = True,
    ) -> ChallengeRow:
        """Record an open challenge for ``players`` seats, at version 1 (``rated``: whether
        its game will count for ratings).

        ``clock`` is the clock's canonical text; ``seating`` fixes the seat order (user ids,
        one per seat; a rematch) instead of drawing it at the start; ``rematch_of`` names the
        game this challenge is a rematch of; ``start_position`` a custom start position (the
        game's position notation, stored as given; ``None``: the standard start).

        The challenger is seated; each of ``invited_ids`` (in that order) gets a reserved
        seat; the remaining ``players - 1 - len(invited_ids)`` seats are open to anyone.

        Raises :class:`ValueError` if ``expires_at`` is not after ``now``, if a user is named
        twice (the challenger among the invited included), or if the seats cannot hold the
        challenger and every invited user (a ``seating`` may name others too: the bot's
        seats, which join later); :class:`RematchAlreadyOpenError` when another rematch
        of ``rematch_of`` is open, :class:`RematchAlreadyStartedError` when one has started
        (checked in the insert's transaction: :func:`_refuse_second_rematch`).
        """
        require_aware("now", now)
        require_aware("expires_at", expires_at)
        if expires_at <= now:
            raise ValueError(f"challenge would expire at {expires_at}, not after {now}")
        users = [challenger_id, *invited_ids]
        if len(set(users)) != len(users):
            raise ValueError(f"a user is listed twice in {users}")
        if players < len(users):
            raise ValueError(f"{players} seats cannot hold {len(users)} listed users")
        if seating is not None and (
            len(seating) != players
            or len(set(seating)) != len(seating)
            or not set(users) <= set(seating)
        ):
            raise ValueError(f"seating {list(seating)} must seat {users} and others once each")
        try:
            async with self._tx.write() as conn:
                if rematch_of is not None:
                    await _refuse_second_rematch(conn, rematch_of)
                result = await conn.execute(
                    insert(challenges)
                    .values(
                        guild_id=guild_id,
                        channel_id=channel_id,
                        challenger_id=challenger_id,
                        game=game,
                        options=options_json,
                        players=players,
                        clock=clock,
                        seating=None if seating is None else json.dumps(list(seating)),
                        rematch_of=rematch_of,
                        start_position=start_position,
                        rated=rated,
                        status=ChallengeStatus.OPEN.value,
                        version=1,
                        created_at=now,
                        expires_at=expires_at,
                    )
                    .returning(challenges.c.id)
                )
                challenge_id = result.scalar_one()
                listed = [
                    (challenger_id, ChallengePlayerRole.CHALLENGER, ChallengePlayerStatus.SEATED)
                ]
                listed += [
                    (user_id, ChallengePlayerRole.INVITED, ChallengePlayerStatus.INVITED)
                    for user_id in invited_ids
                ]
                await conn.execute(
                    insert(challenge_players),
                    [
                        {
                            "challenge_id": challenge_id,
                            "user_id": user_id,
                            "role": role.value,
                            "status": status.value,
                            "ordinal": ordinal,
                            "created_at": now,
                            "updated_at": now,
                        }
                        for ordinal, (user_id, role, status) in enumerate(listed)
                    ],
                )
                return await read_challenge(conn, challenge_id)
        except IntegrityError as exc:
            if rematch_of is not None and _is_open_rematch_conflict(exc):
                raise RematchAlreadyOpenError(rematch_of) from exc
            raise

    async def get(self, challenge_id: int) -> ChallengeRow | None:
        """The challenge with id ``challenge_id`` and its lobby, or ``None``."""
        async with self._tx.read() as conn:
            result = await conn.execute(select(challenges).where(challenges.c.id == challenge_id))
            row = result.one_or_none()
            if row is None:
                return None
            lobbies = await _lobbies(conn, [challenge_id])
        return _challenge_row(row, lobbies.get(challenge_id, ()))

    async def list_open(
        self, *, channel_id: int | None = None, user_id: int | None = None
    ) -> list[ChallengeRow]:
        """Open challenges, oldest first, narrowed by every filter given.

        ``user_id`` keeps those the user made, is invited to, or holds a seat in.
        Challenges past ``expires_at`` are included until :meth:`expire_due` marks them.
        """
        query = select(challenges).where(challenges.c.status == ChallengeStatus.OPEN.value)
        if channel_id is not None:
            query = query.where(challenges.c.channel_id == channel_id)
        if user_id is not None:
            listed = exists().where(
                challenge_players.c.challenge_id == challenges.c.id,
                challenge_players.c.user_id == user_id,
                challenge_players.c.status.in_(_HOLDING),
            )
            query = query.where(or_(challenges.c.challenger_id == user_id, listed))
        async with self._tx.read() as conn:
            rows = (await conn.execute(query.order_by(challenges.c.id))).all()
            lobbies = await _lobbies(conn, [row.id for row in rows])
        return [_challenge_row(row, lobbies.get(row.id, ())) for row in rows]

    async def open_places(self) -> list[tuple[int, int]]:
        """``(guild_id, channel_id)`` of every channel or thread with an open challenge, each
        once, in id order; challenges outside a guild are left out (see
        :meth:`db.games.GamesRepo.active_places`)."""
        query = (
            select(challenges.c.guild_id, challenges.c.channel_id)
            .where(
                challenges.c.status == ChallengeStatus.OPEN.value,
                challenges.c.guild_id.is_not(None),
            )
            .distinct()
            .order_by(challenges.c.guild_id, challenges.c.channel_id)
        )
        async with self._tx.read() as conn:
            result = await conn.execute(query)
            return [(int(row.guild_id), int(row.channel_id)) for row in result.all()]

    async def set_message(self, challenge_id: int, message_id: int | None) -> None:
        """Remember the message that shows the challenge (its buttons live there).

        No version bump: the lobby did not change. Raises :class:`ChallengeNotFoundError`.
        """
        async with self._tx.write() as conn:
            result = await conn.execute(
                update(challenges)
                .where(challenges.c.id == challenge_id)
                .values(message_id=message_id)
            )
            if result.rowcount != 1:
                raise ChallengeNotFoundError(challenge_id)

    async def enter(
        self,
        challenge_id: int,
        expected_version: int,
        entry: ChallengeEntry,
        *,
        now: datetime,
    ) -> ChallengeRow:
        """Record one user's new place in an open lobby: invited, seated, declined or left.

        One transaction: compare-and-set on the challenge (open, not expired at ``now``, at
        ``expected_version``; the version becomes ``expected_version + 1``), then the user's
        row is written as ``entry`` says (a new row goes to the end of the listing, an
        existing one keeps its place). Returns the challenge after the change.

        Raises :class:`ChallengeClosedError` (missing, answered or expired),
        :class:`ChallengeChangedError` (the lobby changed since ``expected_version``) and
        :class:`ChallengeFullError` if more users would hold seats than there are seats.
        Nothing is written when it raises.
        """
        require_aware("now", now)
        async with self._tx.write() as conn:
            await claim_open_challenge(
                conn, challenge_id, now=now, expected_version=expected_version, values={}
            )
            await write_entry(conn, challenge_id, entry, now=now)
            return await read_challenge(conn, challenge_id)

    async def resolve(
        self,
        challenge_id: int,
        *,
        new_status: str,
        now: datetime,
        game_id: int | None = None,
        entry: ChallengeEntry | None = None,
    ) -> ChallengeRow | None:
        """Answer an open challenge: ``"accepted"``, ``"declined"`` or ``"cancelled"``.

        Compare-and-set from ``"open"`` and not yet expired at ``now`` (``expires_at >
        now``), whatever the lobby's version: of two racing answers exactly one gets the
        updated row, the other ``None`` (as does an answer to a missing, answered or expired
        challenge). ``entry``, if given, is written in the same transaction (the invited
        player who declines a two-seat challenge). ``game_id`` links an accepted challenge
        to its game; to create the game and accept in one transaction, use
        ``GamesRepo.create(..., challenge_id=...)`` instead.

        Raises :class:`ValueError` for another status, or a ``game_id`` on a refusal.
        """
        require_aware("now", now)
        status = ChallengeStatus(new_status)
        if status not in _ANSWERS:
            raise ValueError(f"resolve() answers with accepted/declined/cancelled, not {status}")
        if game_id is not None and status is not ChallengeStatus.ACCEPTED:
            raise ValueError("only an accepted challenge has a game")
        values = {"status": status.value, "resolved_at": now, "game_id": game_id}
        async with self._tx.write() as conn:
            try:
                await claim_open_challenge(
                    conn, challenge_id, now=now, expected_version=None, values=values
                )
            except ChallengeClosedError:
                return None
            if entry is not None:
                await write_entry(conn, challenge_id, entry, now=now)
            return await read_challenge(conn, challenge_id)

    async def expire_due(
        self, now: datetime, *, challenge_id: int | None = None
    ) -> list[ChallengeRow]:
        """Mark every open challenge with ``expires_at <= now`` as ``"expired"`` (only
        challenge ``challenge_id`` when given: a rematch making room for a new one).

        Returns the challenges this call expired, by id (each is returned by exactly one
        call, even with several processes sweeping), so the caller can edit their messages.
        """
        require_aware("now", now)
        only = () if challenge_id is None else (challenges.c.id == challenge_id,)
        async with self._tx.write() as conn:
            result = await conn.execute(
                update(challenges)
                .where(
                    challenges.c.status == ChallengeStatus.OPEN.value,
                    challenges.c.expires_at <= now,
                    *only,
                )
                .values(
                    status=ChallengeStatus.EXPIRED.value,
                    resolved_at=now,
                    version=challenges.c.version + 1,
                )
                .returning(*challenges.c)
            )
            rows = result.all()
            lobbies = await _lobbies(conn, [row.id for row in rows])
        expired = [_challenge_row(row, lobbies.get(row.id, ())) for row in rows]
        return sorted(expired, key=lambda row: row.id)

    async def set_expiry(
        self, challenge_id: int, expires_at: datetime, *, now: datetime
    ) -> ChallengeRow | None:
        """Move an open challenge's expiry to ``expires_at`` (a lobby opened for the bot,
        kept short until its bots sat: ``bot.service.lobby``). Only while it is open and not
        expired at ``now``; returns the challenge after the change, else ``None``. The
        lobby's version is left alone: nobody's press is made stale by it."""
        require_aware("now", now)
        require_aware("expires_at", expires_at)
        async with self._tx.write() as conn:
            result = await conn.execute(
                update(challenges)
                .where(
                    challenges.c.id == challenge_id,
                    challenges.c.status == ChallengeStatus.OPEN.value,
                    challenges.c.expires_at > now,
                )
                .values(expires_at=expires_at)
                .returning(challenges.c.id)
            )
            if result.first() is None:
                return None
            return await read_challenge(conn, challenge_id)

    async def challenge_of_game(self, game_id: int) -> ChallengeRow | None:
        """The accepted challenge that started game ``game_id`` (its ``game_id`` names the
        game), or ``None`` for a game no challenge started (a test's, or one whose challenge
        row is gone)."""
        return await self._newest(
            challenges.c.game_id == game_id,
            challenges.c.status == ChallengeStatus.ACCEPTED.value,
        )

    async def started_rematch(self, game_id: int) -> ChallengeRow | None:
        """The accepted challenge that is a rematch of game ``game_id`` (its ``game_id`` names
        the rematch game; the newest if several were accepted before this check existed), or
        ``None``. A game gets one rematch that starts: the service refuses another. A rematch
        whose game was aborted does not count (that game has no Rematch of its own)."""
        return await self._newest_rematch(game_id, ChallengeStatus.ACCEPTED, _played())

    async def open_rematch(self, game_id: int) -> ChallengeRow | None:
        """The open challenge that is a rematch of game ``game_id`` (the newest if, by a race
        between processes, there are several), or ``None``.

        Like :meth:`list_open`, a challenge past ``expires_at`` counts until
        :meth:`expire_due` marks it: the caller compares ``expires_at`` with its clock.
        """
        return await self._newest_rematch(game_id, ChallengeStatus.OPEN)

    async def _newest_rematch(
        self, game_id: int, status: ChallengeStatus, *where: Any
    ) -> ChallengeRow | None:
        """The newest challenge in ``status`` that is a rematch of game ``game_id`` and meets
        the conditions ``where``."""
        return await self._newest(
            challenges.c.rematch_of == game_id, challenges.c.status == status.value, *where
        )

    async def _newest(self, *where: Any) -> ChallengeRow | None:
        """The newest challenge (highest id) that meets the conditions ``where``, with its
        lobby, or ``None``."""
        async with self._tx.read() as conn:
            row = (
                await conn.execute(
                    select(challenges).where(*where).order_by(challenges.c.id.desc()).limit(1)
                )
            ).one_or_none()
            if row is None:
                return None
            lobbies = await _lobbies(conn, [row.id])
        return _challenge_row(row, lobbies.get(row.id, ()))


# ------------------------------------------------------------------------------------------
# Building blocks shared with GamesRepo.create (which accepts a challenge in its transaction)
# ------------------------------------------------------------------------------------------


async def claim_open_challenge(
    conn: AsyncConnection,
    challenge_id: int,
    *,
    now: datetime,
    expected_version: int | None,
    values: Mapping[str, Any],
) -> None:
    """Compare-and-set an open, unexpired challenge: apply ``values`` and bump its version.

    With ``expected_version`` the challenge must also be at that version. Must run inside a
    write transaction (on PostgreSQL the ``UPDATE`` also locks the row until it ends, so
    lobby reads after it see every committed change). Raises :class:`ChallengeClosedError`
    if the challenge is missing, answered or expired at ``now``, and
    :class:`ChallengeChangedError` if it is open at another version.
    """
    query = update(challenges).where(
        challenges.c.id == challenge_id,
        challenges.c.status == ChallengeStatus.OPEN.value,
        challenges.c.expires_at > now,
    )
    if expected_version is not None:
        query = query.where(challenges.c.version == expected_version)
    result = await conn.execute(query.values({**values, "version": challenges.c.version + 1}))
    if result.rowcount == 1:
        return
    current = (
        await conn.execute(
            select(challenges.c.status, challenges.c.version, challenges.c.expires_at).where(
                challenges.c.id == challenge_id
            )
        )
    ).one_or_none()
    still_open = (
        current is not None
        and current.status == ChallengeStatus.OPEN.value
        and current.expires_at > now
    )
    if still_open and expected_version is not None and current is not None:
        raise ChallengeChangedError(challenge_id, expected_version, current.version)
    raise ChallengeClosedError(challenge_id)


async def write_entry(
    conn: AsyncConnection, challenge_id: int, entry: ChallengeEntry, *, now: datetime
) -> None:
    """Write ``entry`` over the user's lobby row, or append a new row; then check the seats.

    Must run inside a write transaction, after :func:`claim_open_challenge` (which
    serialises lobby changes). Raises :class:`ChallengeFullError` if more users would hold
    seats than the challenge has; the caller's transaction then rolls back.
    """
    changed = await conn.execute(
        update(challenge_players)
        .where(
            challenge_players.c.challenge_id == challenge_id,
            challenge_players.c.user_id == entry.user_id,
        )
        .values(role=entry.role.value, status=entry.status.value, updated_at=now)
    )
    if changed.rowcount == 0:
        last = (
            await conn.execute(
                select(func.max(challenge_players.c.ordinal)).where(
                    challenge_players.c.challenge_id == challenge_id
                )
            )
        ).scalar_one()
        await conn.execute(
            insert(challenge_players).values(
                challenge_id=challenge_id,
                user_id=entry.user_id,
                role=entry.role.value,
                status=entry.status.value,
                ordinal=0 if last is None else last + 1,
                created_at=now,
                updated_at=now,
            )
        )
    held = (
        await conn.execute(
            select(func.count()).where(
                challenge_players.c.challenge_id == challenge_id,
                challenge_players.c.status.in_(_HOLDING),
            )
        )
    ).scalar_one()
    players = (
        await conn.execute(select(challenges.c.players).where(challenges.c.id == challenge_id))
    ).scalar_one()
    if held > players:
        raise ChallengeFullError(challenge_id, players)


async def read_challenge(conn: AsyncConnection, challenge_id: int) -> ChallengeRow:
    """The challenge and its lobby as ``conn`` sees them (inside the caller's transaction).

    Raises :class:`ChallengeNotFoundError`.
    """
    row = (
        await conn.execute(select(challenges).where(challenges.c.id == challenge_id))
    ).one_or_none()
    if row is None:
        raise ChallengeNotFoundError(challenge_id)
    lobbies = await _lobbies(conn, [challenge_id])
    return _challenge_row(row, lobbies.get(challenge_id, ()))


async def _lobbies(
    conn: AsyncConnection, challenge_ids: Iterable[int]
) -> dict[int, tuple[ChallengePlayerRow, ...]]:
    """The lobby of each challenge in ``challenge_ids``, in listing order (one query)."""
    ids = list(challenge_ids)
    if not ids:
        return {}
    result = await conn.execute(
        select(challenge_players)
        .where(challenge_players.c.challenge_id.in_(ids))
        .order_by(challenge_players.c.challenge_id, challenge_players.c.ordinal)
    )
    lobbies: dict[int, list[ChallengePlayerRow]] = {}
    for r in result:
        lobbies.setdefault(r.challenge_id, []).append(
            ChallengePlayerRow(
                user_id=r.user_id,
                role=ChallengePlayerRole(r.role),
                status=ChallengePlayerStatus(r.status),
                created_at=r.created_at,
                updated_at=r.updated_at,
            )
        )
    return {challenge_id: tuple(rows) for challenge_id, rows in lobbies.items()}


def _challenge_row(row: Row[Any], lobby: Sequence[ChallengePlayerRow]) -> ChallengeRow:
    return ChallengeRow(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        message_id=row.message_id,
        challenger_id=row.challenger_id,
        game=row.game,
        options_json=row.options,
        players=row.players,
        status=ChallengeStatus(row.status),
        version=row.version,
        game_id=row.game_id,
        created_at=row.created_at,
        expires_at=row.expires_at,
        resolved_at=row.resolved_at,
        lobby=tuple(lobby),
        clock=row.clock,
        seating=None if row.seating is None else tuple(int(u) for u in json.loads(row.seating)),
        rematch_of=row.rematch_of,
        start_position=row.start_position,
        rated=bool(row.rated),
    )


def _played() -> Any:
    """The condition "this challenge's game was not aborted": an accepted rematch whose game
    was aborted does not count as the game's rematch (that game has no Rematch of its own)."""
    return exists().where(
        games.c.id == challenges.c.game_id, games.c.status != GameStatus.ABORTED.value
    )


async def _refuse_second_rematch(conn: AsyncConnection, game_id: int) -> None:
    """Raise :class:`RematchAlreadyStartedError` or :class:`RematchAlreadyOpenError` when
    game ``game_id`` already has a rematch that started (accepted, its game not aborted) or
    is open; called in the transaction that inserts a new rematch.

    The game's row is locked first (``FOR UPDATE`` on PostgreSQL; SQLite's ``BEGIN
    IMMEDIATE`` already serialises writers), so rematches of one game are created one at a
    time, and one statement then looks for open and started ones together. Without this, a
    caller that checked "none started", then "none open", could miss an open rematch
    accepted (by another process) between its two checks, and open a second one: the
    partial unique index only covers open challenges.
    """
    await conn.execute(select(games.c.id).where(games.c.id == game_id).with_for_update())
    live = (
        await conn.execute(
            select(challenges.c.status, challenges.c.game_id)
            .where(
                challenges.c.rematch_of == game_id,
                or_(
                    challenges.c.status == ChallengeStatus.OPEN.value,
                    (challenges.c.status == ChallengeStatus.ACCEPTED.value) & _played(),
                ),
            )
            .order_by(challenges.c.id.desc())
            .limit(1)
        )
    ).one_or_none()
    if live is None:
        return
    if live.status == ChallengeStatus.OPEN.value:
        raise RematchAlreadyOpenError(game_id)
    raise RematchAlreadyStartedError(game_id, live.game_id)


def _is_open_rematch_conflict(exc: IntegrityError) -> bool:
    """Whether ``exc`` is the one-open-rematch-per-game index refusing an insert.

    PostgreSQL names the index in its message; SQLite names the indexed column.
    """
    message = str(exc.orig)
    return OPEN_REMATCH_INDEX in message or (
        "UNIQUE constraint failed" in message and "challenges.rematch_of" in message
    )
