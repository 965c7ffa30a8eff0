"""``ChallengesRepo``: invitations to play, from ``/challenge`` until answered or expired.

A challenge leaves ``"open"`` exactly once. Every transition is a compare-and-set
(``UPDATE ... WHERE status = 'open'``), so of two players pressing "Accept" at the same
moment exactly one wins, and an expiry sweep never overrides an answer.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Row, insert, or_, select, update

from db.engine import Transactions
from db.errors import ChallengeNotFoundError
from db.rows import ChallengeRow, require_aware
from db.schema import ChallengeStatus, challenges

__all__ = ["ChallengesRepo"]

_ANSWERS = (ChallengeStatus.ACCEPTED, ChallengeStatus.DECLINED, ChallengeStatus.CANCELLED)


class ChallengesRepo:
    """Reads and writes ``challenges``. Obtain it as ``Database.challenges``."""

    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        challenger_id: int,
        opponent_id: int | None,
        game: str,
        options_json: str,
        now: datetime,
        expires_at: datetime,
    ) -> ChallengeRow:
        """Record an open challenge. ``opponent_id=None`` lets anyone accept it.

        Raises :class:`ValueError` if ``expires_at`` is not after ``now``.
        """
        require_aware("now", now)
        require_aware("expires_at", expires_at)
        if expires_at <= now:
            raise ValueError(f"challenge would expire at {expires_at}, not after {now}")
        async with self._tx.write() as conn:
            result = await conn.execute(
                insert(challenges)
                .values(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    challenger_id=challenger_id,
                    opponent_id=opponent_id,
                    game=game,
                    options=options_json,
                    status=ChallengeStatus.OPEN.value,
                    created_at=now,
                    expires_at=expires_at,
                )
                .returning(*challenges.c)
            )
            return _challenge_row(result.one())

    async def get(self, challenge_id: int) -> ChallengeRow | None:
        """The challenge with id ``challenge_id``, or ``None``."""
        async with self._tx.read() as conn:
            result = await conn.execute(select(challenges).where(challenges.c.id == challenge_id))
            row = result.one_or_none()
        return None if row is None else _challenge_row(row)

    async def list_open(
        self, *, channel_id: int | None = None, user_id: int | None = None
    ) -> list[ChallengeRow]:
        """Open challenges, oldest first, narrowed by every filter given.

        ``user_id`` keeps those the user made or was named in. Challenges past
        ``expires_at`` are included until :meth:`expire_due` marks them.
        """
        query = select(challenges).where(challenges.c.status == ChallengeStatus.OPEN.value)
        if channel_id is not None:
            query = query.where(challenges.c.channel_id == channel_id)
        if user_id is not None:
            query = query.where(
                or_(challenges.c.challenger_id == user_id, challenges.c.opponent_id == user_id)
            )
        async with self._tx.read() as conn:
            result = await conn.execute(query.order_by(challenges.c.id))
            return [_challenge_row(row) for row in result]

    async def set_message(self, challenge_id: int, message_id: int | None) -> None:
        """Remember the message that shows the challenge (its buttons live there).

        Raises :class:`ChallengeNotFoundError`.
        """
        async with self._tx.write() as conn:
            result = await conn.execute(
                update(challenges)
                .where(challenges.c.id == challenge_id)
                .values(message_id=message_id)
            )
            if result.rowcount != 1:
                raise ChallengeNotFoundError(challenge_id)

    async def resolve(
        self,
        challenge_id: int,
        *,
        new_status: str,
        now: datetime,
        game_id: int | None = None,
    ) -> ChallengeRow | None:
        """Answer an open challenge: ``"accepted"``, ``"declined"`` or ``"cancelled"``.

        Compare-and-set from ``"open"`` and not yet expired at ``now`` (``expires_at >
        now``): of two racing answers exactly one gets the updated row, the other ``None``
        (as does an answer to a missing, answered or expired challenge). ``game_id`` links
        an accepted challenge to its game; to create the game and accept in one
        transaction, use ``GamesRepo.create(..., challenge_id=...)`` instead.

        Raises :class:`ValueError` for another status, or a ``game_id`` on a refusal.
        """
        require_aware("now", now)
        status = ChallengeStatus(new_status)
        if status not in _ANSWERS:
            raise ValueError(f"resolve() answers with accepted/declined/cancelled, not {status}")
        if game_id is not None and status is not ChallengeStatus.ACCEPTED:
            raise ValueError("only an accepted challenge has a game")
        async with self._tx.write() as conn:
            result = await conn.execute(
                update(challenges)
                .where(
                    challenges.c.id == challenge_id,
                    challenges.c.status == ChallengeStatus.OPEN.value,
                    challenges.c.expires_at > now,
                )
                .values(status=status.value, resolved_at=now, game_id=game_id)
                .returning(*challenges.c)
            )
            row = result.one_or_none()
        return None if row is None else _challenge_row(row)

    async def expire_due(self, now: datetime) -> list[ChallengeRow]:
        """Mark every open challenge with ``expires_at <= now`` as ``"expired"``.

        Returns the challenges this call expired, by id (each is returned by exactly one
        call, even with several processes sweeping), so the caller can edit their messages.
        """
        require_aware("now", now)
        async with self._tx.write() as conn:
            result = await conn.execute(
                update(challenges)
                .where(
                    challenges.c.status == ChallengeStatus.OPEN.value,
                    challenges.c.expires_at <= now,
                )
                .values(status=ChallengeStatus.EXPIRED.value, resolved_at=now)
                .returning(*challenges.c)
            )
            rows = [_challenge_row(row) for row in result]
        return sorted(rows, key=lambda row: row.id)


def _challenge_row(row: Row[Any]) -> ChallengeRow:
    return ChallengeRow(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        message_id=row.message_id,
        challenger_id=row.challenger_id,
        opponent_id=row.opponent_id,
        game=row.game,
        options_json=row.options,
        status=ChallengeStatus(row.status),
        game_id=row.game_id,
        created_at=row.created_at,
        expires_at=row.expires_at,
        resolved_at=row.resolved_at,
    )
