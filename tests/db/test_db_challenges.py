"""ChallengesRepo: lobbies change by compare-and-set on their version; answers once; expiry once."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta

import pytest

from db import (
    ChallengeChangedError,
    ChallengeClosedError,
    ChallengeEntry,
    ChallengeFullError,
    ChallengeNotFoundError,
    ChallengePlayerRole,
    ChallengePlayerStatus,
    ChallengeRow,
    ChallengeStatus,
    Database,
    GameRow,
)

#: The ``new_game`` fixture of conftest.py: starts a game, keywords as GamesRepo.create.
NewGame = Callable[..., Awaitable[GameRow]]

T0 = datetime(2025, 3, 14, 15, 9, 26, tzinfo=UTC)
HOUR = timedelta(hours=1)
ROLE, STATUS = ChallengePlayerRole, ChallengePlayerStatus


async def _challenge(
    db: Database,
    *,
    channel_id: int = 500,
    challenger_id: int = 11,
    invited_ids: Sequence[int] = (22,),
    players: int = 2,
    expires_at: datetime = T0 + HOUR,
) -> ChallengeRow:
    return await db.challenges.create(
        guild_id=9,
        channel_id=channel_id,
        challenger_id=challenger_id,
        invited_ids=invited_ids,
        players=players,
        game="generatorb",
        options_json='{"size": 8}',
        now=T0,
        expires_at=expires_at,
    )


def _listing(challenge: ChallengeRow) -> list[tuple[int, str, str]]:
    return [(p.user_id, p.role.value, p.status.value) for p in challenge.lobby]


def joins(user_id: int) -> ChallengeEntry:
    return ChallengeEntry(user_id, ROLE.JOINED, STATUS.SEATED)


async def test_create_and_get(db: Database) -> None:
    challenge = await _challenge(db, invited_ids=())
    assert challenge.status is ChallengeStatus.OPEN
    assert challenge.is_open
    assert (challenge.players, challenge.version) == (2, 1)
    assert (challenge.game_id, challenge.message_id) == (None, None)
    assert (challenge.created_at, challenge.expires_at, challenge.resolved_at) == (
        T0,
        T0 + HOUR,
        None,
    )
    assert _listing(challenge) == [(11, "challenger", "seated")]
    assert challenge.seated_ids == (11,)
    assert challenge.open_seats == 1
    assert await db.challenges.get(challenge.id) == challenge
    assert await db.challenges.get(404) is None


async def test_a_lobby_lists_the_challenger_then_the_invited_in_the_order_named(
    db: Database,
) -> None:
    challenge = await _challenge(db, invited_ids=(33, 22), players=4)
    assert _listing(challenge) == [
        (11, "challenger", "seated"),
        (33, "invited", "invited"),
        (22, "invited", "invited"),
    ]
    assert challenge.open_seats == 1
    entry = challenge.entry_of(33)
    assert entry is not None
    assert entry.holds_seat
    assert challenge.entry_of(44) is None


@pytest.mark.parametrize(
    ("invited", "players", "message"),
    [
        ((22, 22), 3, "listed twice"),
        ((11,), 2, "listed twice"),
        ((22, 33), 2, "cannot hold 3"),
    ],
)
async def test_create_refuses_an_impossible_lobby(
    db: Database, invited: tuple[int, ...], players: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        await _challenge(db, invited_ids=invited, players=players)


async def test_create_refuses_a_challenge_that_is_already_expired(db: Database) -> None:
    with pytest.raises(ValueError, match="not after"):
        await _challenge(db, expires_at=T0)


async def test_open_places_lists_each_channel_with_an_open_challenge_once(db: Database) -> None:
    await _challenge(db, channel_id=7)
    await _challenge(db, channel_id=7, challenger_id=33)
    closed = await _challenge(db, channel_id=5, challenger_id=44)
    await db.challenges.resolve(closed.id, new_status="cancelled", now=T0)
    assert await db.challenges.open_places() == [(9, 7)]


async def test_set_message(db: Database) -> None:
    challenge = await _challenge(db)
    await db.challenges.set_message(challenge.id, 1_300_000_000_000_000_000)
    stored = await db.challenges.get(challenge.id)
    assert stored is not None
    assert stored.message_id == 1_300_000_000_000_000_000
    assert stored.version == 1  # the lobby did not change
    with pytest.raises(ChallengeNotFoundError):
        await db.challenges.set_message(404, 1)


async def test_enter_records_joins_answers_and_leaves_one_version_at_a_time(
    db: Database,
) -> None:
    challenge = await _challenge(db, invited_ids=(22,), players=4)
    later = T0 + timedelta(minutes=5)
    accepted = await db.challenges.enter(
        challenge.id, 1, ChallengeEntry(22, ROLE.INVITED, STATUS.SEATED), now=later
    )
    assert accepted.version == 2
    joined = await db.challenges.enter(challenge.id, 2, joins(44), now=later)
    joined = await db.challenges.enter(challenge.id, 3, joins(33), now=later)
    assert _listing(joined) == [
        (11, "challenger", "seated"),
        (22, "invited", "seated"),
        (44, "joined", "seated"),
        (33, "joined", "seated"),
    ]
    assert joined.open_seats == 0
    left = await db.challenges.enter(
        challenge.id, 4, ChallengeEntry(44, ROLE.JOINED, STATUS.LEFT), now=later
    )
    assert left.seated_ids == (11, 22, 33)
    assert left.open_seats == 1
    back = await db.challenges.enter(challenge.id, 5, joins(44), now=later + HOUR / 2)
    assert back.seated_ids == (11, 22, 44, 33)  # the returning player keeps their place
    entry = back.entry_of(44)
    assert entry is not None
    assert (entry.created_at, entry.updated_at) == (later, later + HOUR / 2)
    assert back.version == 6
    assert await db.challenges.get(challenge.id) == back


async def test_enter_refuses_a_stale_version_a_closed_lobby_and_an_extra_seat(
    db: Database,
) -> None:
    challenge = await _challenge(db, invited_ids=(22,), players=3)
    with pytest.raises(ChallengeChangedError) as stale:
        await db.challenges.enter(challenge.id, 5, joins(33), now=T0)
    assert (stale.value.expected_version, stale.value.actual_version) == (5, 1)
    await db.challenges.enter(challenge.id, 1, joins(33), now=T0)
    # 22 is invited (seat reserved) and 33 joined: no seat is left for 44.
    with pytest.raises(ChallengeFullError):
        await db.challenges.enter(challenge.id, 2, joins(44), now=T0)
    stored = await db.challenges.get(challenge.id)
    assert stored is not None
    assert (stored.version, stored.entry_of(44)) == (2, None)
    with pytest.raises(ChallengeClosedError):
        await db.challenges.enter(challenge.id, 2, joins(44), now=T0 + HOUR)  # expired
    await db.challenges.resolve(challenge.id, new_status="cancelled", now=T0)
    with pytest.raises(ChallengeClosedError):
        await db.challenges.enter(challenge.id, 3, joins(44), now=T0)
    with pytest.raises(ChallengeClosedError):
        await db.challenges.enter(404, 1, joins(44), now=T0)


async def test_two_racing_joins_for_the_last_seat_exactly_one_lands(
    db: Database, db_url: str
) -> None:
    """Two processes read the same lobby and both try to take its last open seat."""
    async with Database(db_url) as other:
        for _ in range(10):
            challenge = await _challenge(db, invited_ids=(22,), players=3)
            results = await asyncio.gather(
                db.challenges.enter(challenge.id, challenge.version, joins(33), now=T0),
                other.challenges.enter(challenge.id, challenge.version, joins(44), now=T0),
                return_exceptions=True,
            )
            landed = [r for r in results if isinstance(r, ChallengeRow)]
            refused = [r for r in results if isinstance(r, BaseException)]
            assert len(landed) == 1, results
            assert [type(r) for r in refused] == [ChallengeChangedError]
            stored = await db.challenges.get(challenge.id)
            assert stored == landed[0]
            assert stored.open_seats == 0
            assert len(stored.lobby) == 3


@pytest.mark.parametrize("answer", ["accepted", "declined", "cancelled"])
async def test_resolve_answers_once(db: Database, answer: str) -> None:
    challenge = await _challenge(db)
    later = T0 + timedelta(minutes=3)
    resolved = await db.challenges.resolve(challenge.id, new_status=answer, now=later)
    assert resolved is not None
    assert (resolved.status, resolved.resolved_at, resolved.version) == (answer, later, 2)
    assert await db.challenges.resolve(challenge.id, new_status="declined", now=later) is None
    assert await db.challenges.get(challenge.id) == resolved


async def test_resolve_records_the_decline_of_a_two_seat_challenge(db: Database) -> None:
    challenge = await _challenge(db)
    declined = await db.challenges.resolve(
        challenge.id,
        new_status="declined",
        now=T0,
        entry=ChallengeEntry(22, ROLE.INVITED, STATUS.DECLINED),
    )
    assert declined is not None
    assert _listing(declined) == [(11, "challenger", "seated"), (22, "invited", "declined")]


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
    assert await db.challenges.challenge_of_game(game.id) == resolved
    # A challenge declined or still open names no game: only the accepted one started it.
    await _challenge(db)
    assert await db.challenges.challenge_of_game(game.id + 1) is None


async def test_two_racing_answers_exactly_one_wins(db: Database, db_url: str) -> None:
    async with Database(db_url) as other:
        for _ in range(10):
            challenge = await _challenge(db, invited_ids=())
            results = await asyncio.gather(
                db.challenges.resolve(challenge.id, new_status="accepted", now=T0),
                other.challenges.resolve(challenge.id, new_status="cancelled", now=T0),
            )
            winners = [r for r in results if r is not None]
            assert len(winners) == 1, results
            assert winners[0].status in ("accepted", "cancelled")


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
    assert expired[0].version == 2
    assert _listing(expired[0]) == _listing(soon)
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
    mine = await _challenge(db, channel_id=1, challenger_id=11, invited_ids=(22,))
    theirs = await _challenge(db, channel_id=2, challenger_id=33, invited_ids=(11,))
    open_one = await _challenge(db, channel_id=2, challenger_id=33, invited_ids=(), players=3)
    declined = await _challenge(db, channel_id=3, challenger_id=33, invited_ids=(11, 22), players=3)
    await db.challenges.enter(
        declined.id, 1, ChallengeEntry(11, ROLE.INVITED, STATUS.DECLINED), now=T0
    )
    done = await _challenge(db, channel_id=1, challenger_id=11)
    await db.challenges.resolve(done.id, new_status="cancelled", now=T0)
    assert [c.id for c in await db.challenges.list_open()] == [
        mine.id,
        theirs.id,
        open_one.id,
        declined.id,
    ]
    assert [c.id for c in await db.challenges.list_open(user_id=11)] == [mine.id, theirs.id]
    await db.challenges.enter(open_one.id, 1, joins(11), now=T0)
    assert [c.id for c in await db.challenges.list_open(user_id=11)] == [
        mine.id,
        theirs.id,
        open_one.id,
    ]
    assert [c.id for c in await db.challenges.list_open(channel_id=2)] == [theirs.id, open_one.id]
    assert [c.id for c in await db.challenges.list_open(channel_id=1, user_id=33)] == []


async def test_two_racing_joins_for_the_last_seat_start_one_game(
    db: Database, db_url: str, new_game: NewGame
) -> None:
    """Filling the last seat creates the game in the same transaction: exactly once."""
    async with Database(db_url) as other:
        for round_ in range(5):
            challenge = await _challenge(db, channel_id=700 + round_, invited_ids=(), players=3)
            challenge = await db.challenges.enter(challenge.id, 1, joins(22), now=T0)
            results = await asyncio.gather(
                *(
                    new_game(
                        700 + round_,
                        user_ids=(11, 22, joiner),
                        database=database,
                        challenge_id=challenge.id,
                        challenge_version=challenge.version,
                        challenge_entry=joins(joiner),
                    )
                    for joiner, database in ((33, db), (44, other))
                ),
                return_exceptions=True,
            )
            started = [r for r in results if isinstance(r, GameRow)]
            refused = [r for r in results if isinstance(r, BaseException)]
            assert len(started) == 1, results
            assert len(refused) == 1
            assert isinstance(refused[0], ChallengeClosedError)
            stored = await db.challenges.get(challenge.id)
            assert stored is not None
            assert (stored.status, stored.game_id) == ("accepted", started[0].id)
            assert len(stored.seated_ids) == 3
            assert len(await db.games.list_active(channel_id=700 + round_)) == 1
