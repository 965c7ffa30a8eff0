"""GamesRepo: one active game per channel, compare-and-set on version, atomic commits."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from db import (
    ChallengeChangedError,
    ChallengeClosedError,
    ChallengeEntry,
    ChallengeFullError,
    ChallengePlayerRole,
    ChallengePlayerStatus,
    ChannelBusyError,
    Database,
    GameNotActiveError,
    GameNotFoundError,
    GameRow,
    GameStatus,
    MoveRow,
    NewMove,
    SeatRow,
    StaleVersionError,
)
from db.rows import decode_mask, decode_seats, encode_mask, encode_seats
from db.schema import games, moves, seats

#: The ``new_game`` fixture of conftest.py: starts a game, keywords as GamesRepo.create.
NewGame = Callable[..., Awaitable[GameRow]]

T0 = datetime(2025, 3, 14, 15, 9, 26, tzinfo=UTC)


async def _play(
    db: Database, game: GameRow, text: str, *, now: datetime = T0, **overrides: object
) -> GameRow:
    """Commit one move by the seat to move (seat 0 once over), as the service would."""
    seat = game.to_move[0] if game.to_move else 0
    arguments: dict[str, object] = {
        "moves": [NewMove(ply=game.ply + 1, seat=seat, text=text, events_json="[]")],
        "state_json": f'{{"ply": {game.ply + 1}}}',
        "ply": game.ply + 1,
        "to_move": (1 - seat,),
        "status": "active",
        "outcome_json": None,
        "termination": None,
        "now": now,
    }
    arguments.update(overrides)
    return await db.games.commit_moves(game.id, game.version, **arguments)  # type: ignore[arg-type]


async def _count(db: Database, table_name: str) -> int:
    table = {"games": games, "seats": seats, "moves": moves}[table_name]
    async with db.engine.connect() as conn:
        return (await conn.execute(select(func.count()).select_from(table))).scalar_one()


# ----------------------------------------------------------------------------------------------
# Creating and reading
# ----------------------------------------------------------------------------------------------


async def test_create_stores_the_game_and_its_seats(db: Database, new_game: NewGame) -> None:
    game = await new_game(500, user_ids=(11, 22), parent_channel_id=400)
    assert game.status is GameStatus.ACTIVE
    assert (game.version, game.ply, game.to_move) == (1, 0, (0,))
    assert (game.channel_id, game.parent_channel_id, game.guild_id) == (500, 400, 9)
    assert game.seed == 2**63 - 1  # a full 64-bit seed survives
    assert game.created_at == game.updated_at == T0
    assert game.finished_at is None
    assert await db.games.get(game.id) == game
    assert await db.games.active_in_channel(500) == game
    assert await db.games.seats(game.id) == [
        SeatRow(game_id=game.id, seat=0, user_id=11, team=None),
        SeatRow(game_id=game.id, seat=1, user_id=22, team=None),
    ]


async def test_create_with_teams_and_discord_sized_ids(db: Database, new_game: NewGame) -> None:
    snowflake = 1_234_567_890_123_456_789
    game = await new_game(
        snowflake, user_ids=(snowflake, snowflake + 1, 7, 8), teams=(0, 1, 0, 1), guild_id=None
    )
    assert game.channel_id == snowflake
    assert game.guild_id is None
    assert [(s.user_id, s.team) for s in await db.games.seats(game.id)] == [
        (snowflake, 0),
        (snowflake + 1, 1),
        (7, 0),
        (8, 1),
    ]


@pytest.mark.parametrize(
    ("seats", "text"), [((), ""), ((0,), "0"), ((0, 2, 3), "0,2,3"), ((-1,), "-1")]
)
def test_to_move_column_format(seats: tuple[int, ...], text: str) -> None:
    # (-1,) is engines.base.CHANCE: the service resolves chance nodes, but the column copes.
    assert encode_seats(seats) == text
    assert decode_seats(text) == seats


async def test_create_refuses_bad_seat_lists(new_game: NewGame) -> None:
    with pytest.raises(ValueError, match="at least one seat"):
        await new_game(user_ids=())
    with pytest.raises(ValueError, match="3 teams for 2 seats"):
        await new_game(teams=(0, 1, 0))
    with pytest.raises(TypeError, match="sequence of seat numbers"):
        await new_game(to_move="0")
    with pytest.raises(ValueError, match="signed 64-bit"):
        await new_game(seed=2**64 - 1)


async def test_timestamps_must_be_aware_and_come_back_in_utc(
    db: Database, new_game: NewGame
) -> None:
    with pytest.raises(ValueError, match="naive"):
        await new_game(now=datetime(2025, 1, 1, 12, 0))
    tokyo = timezone(timedelta(hours=9))
    game = await new_game(now=datetime(2025, 1, 1, 21, 0, tzinfo=tokyo))
    assert game.created_at == datetime(2025, 1, 1, 12, 0, tzinfo=UTC)
    assert game.created_at.tzinfo is UTC


async def test_missing_game_reads_as_none_or_empty(db: Database) -> None:
    assert await db.games.get(404) is None
    assert await db.games.active_in_channel(404) is None
    assert await db.games.seats(404) == []
    assert await db.games.moves(404) == []


async def test_list_active_filters(db: Database, new_game: NewGame) -> None:
    first = await new_game(1, user_ids=(11, 22))
    second = await new_game(2, user_ids=(22, 33), guild_id=10)
    ended = await new_game(3, user_ids=(11, 33))
    await db.games.finish(
        ended.id, 1, status="aborted", outcome_json=None, termination="abandoned", now=T0
    )
    assert [g.id for g in await db.games.list_active()] == [first.id, second.id]
    assert [g.id for g in await db.games.list_active(user_id=11)] == [first.id]
    assert [g.id for g in await db.games.list_active(user_id=22)] == [first.id, second.id]
    assert [g.id for g in await db.games.list_active(guild_id=10)] == [second.id]
    assert [g.id for g in await db.games.list_active(channel_id=2, user_id=11)] == []


async def test_active_places_lists_each_guild_channel_with_an_active_game_once(
    db: Database, new_game: NewGame
) -> None:
    await new_game(7, guild_id=10)
    await new_game(3, user_ids=(33, 44))
    ended = await new_game(4, user_ids=(55, 66))
    await new_game(8, user_ids=(77, 88), guild_id=None)  # outside a guild: left out
    await db.games.finish(
        ended.id, 1, status="aborted", outcome_json=None, termination="abandoned", now=T0
    )
    assert await db.games.active_places() == [(9, 3), (10, 7)]


# ----------------------------------------------------------------------------------------------
# One active game per channel (the partial unique index)
# ----------------------------------------------------------------------------------------------


async def test_second_active_game_in_a_channel_is_refused(db: Database, new_game: NewGame) -> None:
    first = await new_game(500)
    with pytest.raises(ChannelBusyError) as caught:
        await new_game(500, user_ids=(33, 44))
    assert caught.value.channel_id == 500
    assert await db.games.active_in_channel(500) == first
    assert await _count(db, "games") == 1
    assert await _count(db, "seats") == 2


async def test_a_new_game_may_start_once_the_first_has_ended(
    db: Database, new_game: NewGame
) -> None:
    first = await new_game(500)
    await db.games.finish(
        first.id, first.version, status="finished", outcome_json="{}", termination="resign", now=T0
    )
    second = await new_game(500)
    assert second.id != first.id
    assert await db.games.active_in_channel(500) == second


async def test_another_channel_is_independent(new_game: NewGame) -> None:
    first = await new_game(500)
    other = await new_game(501)
    assert first.id != other.id


async def test_racing_creates_in_one_channel_start_exactly_one_game(
    db: Database, db_url: str, new_game: NewGame
) -> None:
    async with Database(db_url) as other:
        results = await asyncio.gather(
            new_game(500), new_game(500, database=other), return_exceptions=True
        )
    assert sorted(type(r).__name__ for r in results) == ["ChannelBusyError", "GameRow"]
    assert len(await db.games.list_active(channel_id=500)) == 1


# ----------------------------------------------------------------------------------------------
# Moves and compare-and-set
# ----------------------------------------------------------------------------------------------


async def test_commit_moves_updates_the_game_and_appends_the_log(
    db: Database, new_game: NewGame
) -> None:
    game = await new_game()
    later = T0 + timedelta(minutes=5)
    after = await _play(db, game, "a1", now=later)
    assert (after.version, after.ply, after.to_move) == (2, 1, (1,))
    assert after.state_json == '{"ply": 1}'
    assert (after.created_at, after.updated_at) == (T0, later)
    assert await db.games.get(game.id) == after
    assert await db.games.moves(game.id) == [
        MoveRow(game_id=game.id, ply=1, seat=0, text="a1", events_json="[]", created_at=later)
    ]


async def test_several_moves_in_one_commit_include_chance(db: Database, new_game: NewGame) -> None:
    game = await new_game()
    after = await _play(
        db,
        game,
        "",
        moves=[
            NewMove(ply=1, seat=0, text="a1", events_json='[{"kind": "moved"}]'),
            NewMove(ply=2, seat=None, text="roll 6", events_json='[{"kind": "rolled"}]'),
        ],
        ply=2,
    )
    log = await db.games.moves(game.id)
    assert [(m.ply, m.seat, m.text) for m in log] == [(1, 0, "a1"), (2, None, "roll 6")]
    assert [m.ply for m in await db.games.moves(game.id, since_ply=1)] == [2]
    assert after.version == 2


async def test_a_stale_version_is_refused(db: Database, new_game: NewGame) -> None:
    game = await new_game()
    await _play(db, game, "a1")
    with pytest.raises(StaleVersionError) as caught:
        await _play(db, game, "b2")  # still quoting version 1
    assert (caught.value.expected_version, caught.value.actual_version) == (1, 2)
    assert [m.text for m in await db.games.moves(game.id)] == ["a1"]


async def test_unknown_game_or_status(db: Database, new_game: NewGame) -> None:
    game = await new_game()
    with pytest.raises(GameNotFoundError):
        await db.games.commit_moves(
            404,
            1,
            moves=[NewMove(1, 0, "a1", "[]")],
            state_json="{}",
            ply=1,
            to_move=(1,),
            status="active",
            outcome_json=None,
            termination=None,
            now=T0,
        )
    with pytest.raises(ValueError, match="'paused' is not a valid GameStatus"):
        await _play(db, game, "a1", status="paused")
    with pytest.raises(ValueError, match="at least one move"):
        await _play(db, game, "a1", moves=[])
    with pytest.raises(ValueError, match="plies count from 1"):
        NewMove(ply=0, seat=0, text="a1", events_json="[]")


async def test_concurrent_commits_from_two_processes_land_exactly_once(
    db: Database, db_url: str, new_game: NewGame
) -> None:
    # Two Database objects on one file: separate pools and connections, like two processes.
    game = await new_game()
    async with Database(db_url) as other:
        for round_number in range(10):
            current = await db.games.get(game.id)
            assert current is not None
            results = await asyncio.gather(
                _play(db, current, f"first{round_number}"),
                _play(other, current, f"second{round_number}"),
                return_exceptions=True,
            )
            landed = [r for r in results if isinstance(r, GameRow)]
            refused = [r for r in results if isinstance(r, StaleVersionError)]
            assert (len(landed), len(refused)) == (1, 1), results
            assert landed[0].version == current.version + 1
    log = await db.games.moves(game.id)
    assert [m.ply for m in log] == list(range(1, 11))
    final = await db.games.get(game.id)
    assert final is not None
    assert (final.version, final.ply) == (11, 10)


async def test_a_failure_mid_transaction_leaves_nothing_behind(
    db: Database, new_game: NewGame
) -> None:
    game = await new_game()
    # The game row is updated and the first move inserted before the duplicate ply fails.
    with pytest.raises(IntegrityError):
        await _play(
            db,
            game,
            "",
            moves=[NewMove(1, 0, "a1", "[]"), NewMove(1, 1, "b2", "[]")],
            ply=2,
        )
    assert await db.games.get(game.id) == game
    assert await db.games.moves(game.id) == []
    # ...and the game carries on from where it was.
    assert (await _play(db, game, "a1")).version == 2


# ----------------------------------------------------------------------------------------------
# Ending, draw offers, board messages
# ----------------------------------------------------------------------------------------------


async def test_the_last_move_can_end_the_game(db: Database, new_game: NewGame) -> None:
    game = await new_game()
    end = T0 + timedelta(hours=1)
    over = await _play(
        db,
        game,
        "a1#",
        to_move=(),
        status="finished",
        outcome_json='{"winners": [0]}',
        termination="core_captured",
        now=end,
    )
    assert over.status is GameStatus.FINISHED
    assert not over.is_active
    assert (over.to_move, over.finished_at, over.termination) == ((), end, "core_captured")
    assert await db.games.active_in_channel(game.channel_id) is None
    with pytest.raises(GameNotActiveError):
        await _play(db, over, "b2")


async def test_finish_resigns_and_bumps_the_version(db: Database, new_game: NewGame) -> None:
    game = await new_game()
    over = await db.games.finish(
        game.id, 1, status="finished", outcome_json='{"winners": [1]}', termination="resign", now=T0
    )
    assert (over.status, over.version, over.to_move, over.finished_at) == (
        GameStatus.FINISHED,
        2,
        (),
        T0,
    )
    with pytest.raises(StaleVersionError):
        await db.games.finish(
            game.id, 1, status="aborted", outcome_json=None, termination=None, now=T0
        )
    with pytest.raises(GameNotActiveError):
        await db.games.finish(
            game.id, 2, status="aborted", outcome_json=None, termination=None, now=T0
        )
    with pytest.raises(ValueError, match="'finished' or 'aborted'"):
        await db.games.finish(
            game.id, 2, status="active", outcome_json=None, termination=None, now=T0
        )


async def test_a_draw_offer_is_versioned_and_cleared_by_the_next_move(
    db: Database, new_game: NewGame
) -> None:
    game = await new_game()
    offered = await db.games.set_draw_offer(game.id, 1, 0, T0)
    assert (offered.draw_offer_seat, offered.version) == (0, 2)
    with pytest.raises(StaleVersionError):
        await db.games.set_draw_offer(game.id, 1, None, T0)
    moved = await _play(db, offered, "a1")
    assert moved.draw_offer_seat is None


async def test_agreement_to_a_draw_gathers_seats_at_one_version_until_a_move(
    db: Database, new_game: NewGame
) -> None:
    game = await new_game(user_ids=(11, 22, 33, 44))
    assert await db.games.agree_to_draw(game.id, 1, [1], T0) is None  # no offer open
    offered = await db.games.set_draw_offer(game.id, 1, 2, T0, agreed=[2])
    assert (offered.draw_offer_seat, offered.draw_agreed, offered.version) == (2, (2,), 2)
    # Two acceptances that land together both count, and the offer's version stays.
    first, second = await asyncio.gather(
        db.games.agree_to_draw(game.id, 2, [0], T0), db.games.agree_to_draw(game.id, 2, [3], T0)
    )
    assert first is not None
    assert second is not None
    stored = await db.games.get(game.id)
    assert stored is not None
    assert (stored.draw_agreed, stored.version) == ((0, 2, 3), 2)
    assert await db.games.agree_to_draw(game.id, 1, [1], T0) is None  # an old version
    moved = await _play(db, stored, "a1")
    assert (moved.draw_offer_seat, moved.draw_agreed) == (None, ())
    assert await db.games.agree_to_draw(game.id, moved.version, [1], T0) is None
    declined = await db.games.set_draw_offer(game.id, moved.version, 1, T0)
    assert declined.draw_agreed == (1,)
    cleared = await db.games.set_draw_offer(game.id, declined.version, None, T0)
    assert (cleared.draw_offer_seat, cleared.draw_agreed) == (None, ())


def test_seat_masks_round_trip() -> None:
    assert encode_mask([0, 2]) == 0b101
    assert decode_mask(0b101) == (0, 2)
    assert decode_mask(None) == decode_mask(0) == ()
    assert decode_mask(encode_mask({5, 1, 3})) == (1, 3, 5)
    with pytest.raises(ValueError, match="seat"):
        encode_mask([-1])


async def test_board_message_is_remembered_without_a_version_bump(
    db: Database, new_game: NewGame
) -> None:
    game = await new_game()
    await db.games.set_board_message(game.id, 1_200_000_000_000_000_001)
    stored = await db.games.get(game.id)
    assert stored is not None
    assert (stored.board_message_id, stored.version) == (1_200_000_000_000_000_001, 1)
    with pytest.raises(GameNotFoundError):
        await db.games.set_board_message(404, 1)


# ----------------------------------------------------------------------------------------------
# Accepting a challenge and creating its game in one transaction
# ----------------------------------------------------------------------------------------------


async def _open_challenge(db: Database, channel_id: int = 500) -> int:
    challenge = await db.challenges.create(
        guild_id=9,
        channel_id=channel_id,
        challenger_id=11,
        invited_ids=(),
        players=2,
        game="generatorb",
        options_json="{}",
        now=T0,
        expires_at=T0 + timedelta(hours=1),
    )
    return challenge.id


async def test_create_from_a_challenge_accepts_and_links_it(
    db: Database, new_game: NewGame
) -> None:
    challenge_id = await _open_challenge(db)
    game = await new_game(challenge_id=challenge_id, now=T0 + timedelta(minutes=1))
    challenge = await db.challenges.get(challenge_id)
    assert challenge is not None
    assert (challenge.status, challenge.game_id) == ("accepted", game.id)
    assert challenge.resolved_at == T0 + timedelta(minutes=1)
    assert challenge.version == 2
    with pytest.raises(ChallengeClosedError):
        await new_game(501, challenge_id=challenge_id)
    assert await _count(db, "games") == 1


async def test_create_from_a_lobby_quotes_its_version_and_records_the_last_answer(
    db: Database, new_game: NewGame
) -> None:
    challenge_id = await _open_challenge(db)
    joiner = ChallengeEntry(22, ChallengePlayerRole.JOINED, ChallengePlayerStatus.SEATED)
    with pytest.raises(ChallengeChangedError) as changed:
        await new_game(challenge_id=challenge_id, challenge_version=7, challenge_entry=joiner)
    assert (changed.value.expected_version, changed.value.actual_version) == (7, 1)
    game = await new_game(challenge_id=challenge_id, challenge_version=1, challenge_entry=joiner)
    challenge = await db.challenges.get(challenge_id)
    assert challenge is not None
    assert (challenge.status, challenge.game_id, challenge.version) == ("accepted", game.id, 2)
    assert challenge.seated_ids == (11, 22)
    with pytest.raises(ValueError, match="need a challenge_id"):
        await new_game(502, challenge_version=1)


async def test_create_refuses_an_answer_that_overfills_the_lobby(
    db: Database, new_game: NewGame
) -> None:
    challenge_id = await _open_challenge(db)
    first = ChallengeEntry(22, ChallengePlayerRole.JOINED, ChallengePlayerStatus.SEATED)
    await db.challenges.enter(challenge_id, 1, first, now=T0)
    second = ChallengeEntry(33, ChallengePlayerRole.JOINED, ChallengePlayerStatus.SEATED)
    with pytest.raises(ChallengeFullError):
        await new_game(challenge_id=challenge_id, challenge_entry=second)
    assert await _count(db, "games") == 0
    challenge = await db.challenges.get(challenge_id)
    assert challenge is not None
    assert (challenge.is_open, challenge.seated_ids) == (True, (11, 22))


async def test_create_from_a_challenge_in_a_busy_channel_keeps_it_open(
    db: Database, new_game: NewGame
) -> None:
    await new_game(500)
    challenge_id = await _open_challenge(db, channel_id=500)
    # The challenge is marked accepted first, then the game insert fails: all rolled back.
    with pytest.raises(ChannelBusyError):
        await new_game(500, challenge_id=challenge_id)
    challenge = await db.challenges.get(challenge_id)
    assert challenge is not None
    assert challenge.is_open
    assert challenge.resolved_at is None
    assert await _count(db, "games") == 1


async def test_create_from_an_expired_challenge_is_refused(db: Database, new_game: NewGame) -> None:
    challenge_id = await _open_challenge(db)
    with pytest.raises(ChallengeClosedError):
        await new_game(challenge_id=challenge_id, now=T0 + timedelta(hours=1))
    assert await _count(db, "games") == 0


async def test_latest_in_channel_prefers_the_active_game(db: Database, new_game: NewGame) -> None:
    assert await db.games.latest_in_channel(999) is None
    first = await new_game(999)
    latest = await db.games.latest_in_channel(999)
    assert latest is not None
    assert latest.id == first.id
    await db.games.finish(
        first.id, first.version, status="finished", outcome_json=None, termination="core", now=T0
    )
    ended = await db.games.latest_in_channel(999)
    assert ended is not None
    assert ended.id == first.id
    assert ended.status == "finished"
    second = await new_game(999)
    latest = await db.games.latest_in_channel(999)
    assert latest is not None
    assert latest.id == second.id
