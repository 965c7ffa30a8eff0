"""ChallengesRepo: answers are compare-and-set from "open"; expiry sweeps exactly once."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

import pytest

from db import (
    ChallengeNotFoundError,
    ChallengeRow,
    ChallengeStatus,
    Database,
    GameRow,
)

#: The ``new_game`` fixture of conftest.py: starts a game, keywords as GamesRepo.create.
NewGame = Callable[..., Awaitable[GameRow]]

T0 = datetime(2025, 3, 14, 15, 9, 26, tzinfo=UTC)
HOUR = timedelta(hours=1)


async def _challenge(
    db: Database,
    *,
    channel_id: int = 500,
    challenger_id: int = 11,
    opponent_id: int | None = 22,
    expires_at: datetime = T0 + HOUR,
) -> ChallengeRow:
    return await db.challenges.create(
        guild_id=9,
        channel_id=channel_id,
        challenger_id=challenger_id,
        opponent_id=opponent_id,
        game="generatorb",
        options_json='{"size": 8}',
        now=T0,
        expires_at=expires_at,
    )


async def test_create_and_get(db: Database) -> None:
    challenge = await _challenge(db, opponent_id=None)
    assert challenge.status is ChallengeStatus.OPEN
    assert challenge.is_open
    assert (challenge.opponent_id, challenge.game_id, challenge.message_id) == (None, None, None)
    assert (challenge.created_at, challenge.expires_at, challenge.resolved_at) == (
        T0,
        T0 + HOUR,
        None,
    )
    assert await db.challenges.get(challenge.id) == challenge
    assert await db.challenges.get(404) is None


async def test_create_refuses_a_challenge_that_is_already_expired(db: Database) -> None:
    with pytest.raises(ValueError, match="not after"):
        await _challenge(db, expires_at=T0)


async def test_set_message(db: Database) -> None:
    challenge = await _challenge(db)
    await db.challenges.set_message(challenge.id, 1_300_000_000_000_000_000)
    stored = await db.challenges.get(challenge.id)
    assert stored is not None
    assert stored.message_id == 1_300_000_000_000_000_000
    with pytest.raises(ChallengeNotFoundError):
        await db.challenges.set_message(404, 1)


@pytest.mark.parametrize("answer", ["accepted", "declined", "cancelled"])
async def test_resolve_answers_once(db: Database, answer: str) -> None:
    challenge = await _challenge(db)
    later = T0 + timedelta(minutes=3)
    resolved = await db.challenges.resolve(challenge.id, new_status=answer, now=later)
    assert resolved is not None
    assert (resolved.status, resolved.resolved_at) == (answer, later)
    assert await db.challenges.resolve(challenge.id, new_status="declined", now=later) is None
    assert await db.challenges.get(challenge.id) == resolved


async def test_resolve_refuses_wrong_arguments(db: Database) -> None:
    challenge = await _challenge(db)
    with pytest.raises(ValueError, match="not expired"):
        await db.challenges.resolve(challenge.id, new_status="expired", now=T0)
    with pytest.raises(ValueError, match="only an accepted challenge"):
        await db.challenges.resolve(challenge.id, new_status="declined", now=T0, game_id=1)
    with pytest.raises(ValueError, match="naive"):
        await db.challenges.resolve(challenge.id, new_status="declined", now=datetime(2025, 1, 1))
    assert await db.challenges.resolve(404, new_status="accepted", now=T0) is None


async def test_resolve_links_the_game(db: Database, new_game: NewGame) -> None:
    challenge = await _challenge(db)
    game = await new_game()
    resolved = await db.challenges.resolve(
        challenge.id, new_status="accepted", now=T0, game_id=game.id
    )
    assert resolved is not None
    assert resolved.game_id == game.id


async def test_two_racing_accepts_exactly_one_wins(db: Database, db_url: str) -> None:
    async with Database(db_url) as other:
        for _ in range(10):
            challenge = await _challenge(db, opponent_id=None)
            results = await asyncio.gather(
                db.challenges.resolve(challenge.id, new_status="accepted", now=T0),
                other.challenges.resolve(challenge.id, new_status="accepted", now=T0),
            )
            winners = [r for r in results if r is not None]
            assert len(winners) == 1, results
            assert winners[0].status is ChallengeStatus.ACCEPTED


async def test_an_expired_challenge_cannot_be_answered(db: Database) -> None:
    challenge = await _challenge(db, expires_at=T0 + HOUR)
    # Not yet marked by expire_due, but past its time all the same.
    assert await db.challenges.resolve(challenge.id, new_status="accepted", now=T0 + HOUR) is None
    stored = await db.challenges.get(challenge.id)
    assert stored is not None
    assert stored.is_open


async def test_expire_due_marks_each_expired_challenge_once(db: Database) -> None:
    soon = await _challenge(db, expires_at=T0 + HOUR)
    later = await _challenge(db, expires_at=T0 + 2 * HOUR)
    answered = await _challenge(db, expires_at=T0 + HOUR)
    await db.challenges.resolve(answered.id, new_status="declined", now=T0)

    assert await db.challenges.expire_due(T0 + HOUR - timedelta(seconds=1)) == []
    expired = await db.challenges.expire_due(T0 + HOUR)  # expires_at <= now
    assert [c.id for c in expired] == [soon.id]
    assert expired[0].status is ChallengeStatus.EXPIRED
    assert expired[0].resolved_at == T0 + HOUR
    assert await db.challenges.expire_due(T0 + HOUR) == []

    expired = await db.challenges.expire_due(T0 + 3 * HOUR)
    assert [c.id for c in expired] == [later.id]
    stored = await db.challenges.get(answered.id)
    assert stored is not None
    assert stored.status is ChallengeStatus.DECLINED


async def test_concurrent_sweeps_return_each_challenge_once(db: Database, db_url: str) -> None:
    ids = {(await _challenge(db, channel_id=n)).id for n in range(5)}
    async with Database(db_url) as other:
        first, second = await asyncio.gather(
            db.challenges.expire_due(T0 + HOUR), other.challenges.expire_due(T0 + HOUR)
        )
    swept = [c.id for c in first + second]
    assert sorted(swept) == sorted(ids)


async def test_list_open(db: Database) -> None:
    mine = await _challenge(db, channel_id=1, challenger_id=11, opponent_id=22)
    theirs = await _challenge(db, channel_id=2, challenger_id=33, opponent_id=11)
    open_one = await _challenge(db, channel_id=2, challenger_id=33, opponent_id=None)
    done = await _challenge(db, channel_id=1, challenger_id=11)
    await db.challenges.resolve(done.id, new_status="cancelled", now=T0)
    assert [c.id for c in await db.challenges.list_open()] == [mine.id, theirs.id, open_one.id]
    assert [c.id for c in await db.challenges.list_open(user_id=11)] == [mine.id, theirs.id]
    assert [c.id for c in await db.challenges.list_open(channel_id=2)] == [theirs.id, open_one.id]
    assert [c.id for c in await db.challenges.list_open(channel_id=1, user_id=33)] == []
