"""Lobbies for more than two seats: Join, Accept, Decline, Leave, Start, Cancel, expiry, races;
seat names from the engine; resigning from a game that goes on without the resigner.

The game is :class:`~tests.service.conftest.RoundRobin` (2–4 players, 3 by default).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import timedelta
from typing import Any

import pytest

from bot.service import (
    AbortNotAllowedError,
    ChallengeClosedError,
    ChallengeInfo,
    ChallengePlayer,
    ChallengeSetupError,
    GameService,
    GameSnapshot,
    LobbyError,
    LobbyUpdate,
    NotAPlayerError,
    NotChallengedError,
    TooManySeatsError,
)
from bot.service.lobby import BOTS_TO_SIT_WITHIN, DEFAULT_CHALLENGE_TTL
from bot.service.logbook import resign_move_text
from db import ChallengeRow, Database
from engines.base import Outcome

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    DAN,
    ERIN,
    GAMES,
    GUILD,
    FakeClock,
    RoundRobin,
    seeds,
    to_move_user,
)

pytestmark = pytest.mark.usefixtures("round_robin")


async def lobby(
    service: GameService,
    *,
    opponents: Sequence[int] = (),
    players: int | None = 3,
    options: str | None = None,
    channel_id: int = GAMES,
) -> ChallengeInfo:
    return await service.create_challenge(
        guild_id=GUILD,
        channel_id=channel_id,
        challenger_id=ALICE,
        opponent_ids=opponents,
        players=players,
        game="roundrobin",
        options_text=options,
    )


async def started(update: Awaitable[LobbyUpdate]) -> GameSnapshot:
    game = (await update).game
    assert game is not None
    return game


def listing(info: ChallengeInfo) -> list[tuple[int, str, str]]:
    return [(p.user_id, p.role, p.status) for p in info.lobby]


# ---- creating ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("opponents", "players", "seats"),
    [((BOB, CAROL), None, 3), ((), None, 3), ((BOB,), 4, 4), ((BOB,), None, 2)],
)
async def test_the_seat_count_defaults_to_the_named_players_else_the_games_default(
    service: GameService, opponents: tuple[int, ...], players: int | None, seats: int
) -> None:
    info = await lobby(service, opponents=opponents, players=players)
    assert info.players == seats
    assert info.min_players == 2
    assert info.invited_ids == info.pending_ids == opponents
    assert info.seated_ids == (ALICE,)
    assert info.open_seats == seats - 1 - len(opponents)


@pytest.mark.parametrize(
    ("opponents", "players", "options", "expected"),
    [
        ((), 5, None, "Round robin is played by 2–4 players, not 5."),
        ((BOB, CAROL, DAN, ERIN), None, None, "Round robin is played by 2–4 players, not 5."),
        ((BOB, CAROL, DAN), 3, None, "You named 3 opponents, but a game for 3 players"),
        ((), 3, "teams=true", "Teams=true needs 4 players, not 3."),
    ],
)
async def test_a_lobby_that_could_never_start_is_refused(
    service: GameService,
    database: Database,
    opponents: tuple[int, ...],
    players: int | None,
    options: str | None,
    expected: str,
) -> None:
    with pytest.raises(ChallengeSetupError) as error:
        await lobby(service, opponents=opponents, players=players, options=options)
    assert error.value.message.startswith(expected)
    assert await database.challenges.list_open() == []


# ---- filling the seats ---------------------------------------------------------------------


async def test_three_seats_filled_by_accept_and_join_start_the_game(service: GameService) -> None:
    info = await lobby(service, opponents=[BOB])
    update = await service.join_challenge(info.challenge_id, CAROL)
    assert update.game is None
    assert listing(update.challenge) == [
        (ALICE, "challenger", "seated"),
        (BOB, "invited", "invited"),
        (CAROL, "joined", "seated"),
    ]
    assert update.challenge.open_seats == 0
    with pytest.raises(LobbyError, match="Every seat is taken or reserved"):
        await service.join_challenge(info.challenge_id, DAN)  # BOB's seat is reserved
    with pytest.raises(LobbyError, match="already have a seat"):
        await service.join_challenge(info.challenge_id, CAROL)

    update = await service.accept_challenge(info.challenge_id, BOB)
    game = update.game
    assert game is not None
    assert update.challenge.status == "accepted"
    assert update.challenge.game_id == game.game_id
    assert sorted(game.user_ids) == sorted([ALICE, BOB, CAROL])
    assert [p.seat_name for p in game.players] == ["Green", "Red", "Yellow"]
    assert game.to_move == (0,)
    with pytest.raises(ChallengeClosedError, match="already accepted"):
        await service.join_challenge(info.challenge_id, DAN)


async def test_seat_names_come_from_the_engine_and_the_options(service: GameService) -> None:
    info = await lobby(service, opponents=[BOB, CAROL], options="colours=bygr")
    await service.accept_challenge(info.challenge_id, BOB)
    game = await started(service.join_challenge(info.challenge_id, CAROL))  # Join = Accept
    assert [p.seat_name for p in game.players] == ["Blue", "Yellow", "Green"]
    assert (await service.snapshot(GAMES)).players == game.players


async def test_seating_is_drawn_from_the_games_seed(database: Database, clock: FakeClock) -> None:
    orders = set()
    for seed in range(1, 13):
        service = GameService(database, clock=clock, rng_seed_source=seeds(seed))
        info = await lobby(service, channel_id=3000 + seed)
        await service.join_challenge(info.challenge_id, BOB)
        game = await started(service.join_challenge(info.challenge_id, CAROL))
        orders.add(game.user_ids)
    assert len(orders) > 2  # not always the lobby's order
    assert all(sorted(order) == sorted([ALICE, BOB, CAROL]) for order in orders)


async def test_decline_frees_the_seat_and_leave_gives_one_back(service: GameService) -> None:
    info = await lobby(service, opponents=[BOB, CAROL])
    cid = info.challenge_id
    with pytest.raises(NotChallengedError, match="press Cancel"):
        await service.decline_challenge(cid, ALICE)
    with pytest.raises(NotChallengedError, match="Only an invited player"):
        await service.decline_challenge(cid, DAN)
    with pytest.raises(NotChallengedError, match="press Decline"):
        await service.leave_challenge(cid, CAROL)

    declined = await service.decline_challenge(cid, BOB)
    assert declined.challenge.is_open  # three seats: only BOB's seat opens
    assert (declined.challenge.declined_ids, declined.challenge.open_seats) == ((BOB,), 1)
    with pytest.raises(LobbyError, match="gave your seat up"):
        await service.accept_challenge(cid, BOB)
    with pytest.raises(NotChallengedError, match="press Join"):
        await service.accept_challenge(cid, DAN)

    joined = await service.join_challenge(cid, DAN)
    assert (joined.game, joined.challenge.open_seats) == (None, 0)
    with pytest.raises(NotChallengedError, match="press Cancel"):
        await service.leave_challenge(cid, ALICE)
    with pytest.raises(NotChallengedError, match="do not have a seat"):
        await service.leave_challenge(cid, ERIN)
    left = await service.leave_challenge(cid, DAN)
    assert listing(left.challenge) == [
        (ALICE, "challenger", "seated"),
        (BOB, "invited", "declined"),
        (CAROL, "invited", "invited"),
        (DAN, "joined", "left"),
    ]
    # BOB changes his mind and takes the open seat; CAROL's acceptance fills the last one.
    assert (await service.join_challenge(cid, BOB)).game is None
    with pytest.raises(NotChallengedError, match="already accepted"):
        await service.decline_challenge(cid, BOB)
    game = await started(service.accept_challenge(cid, CAROL))
    assert sorted(game.user_ids) == sorted([ALICE, BOB, CAROL])


async def test_the_challenger_may_start_early_with_the_players_present(
    service: GameService,
) -> None:
    info = await lobby(service, opponents=[ERIN], players=4)
    cid = info.challenge_id
    assert not info.can_start_early
    with pytest.raises(LobbyError, match="at least 2 players to start; 1 has a seat so far"):
        await service.start_challenge(cid, ALICE)
    joined = await service.join_challenge(cid, BOB)
    assert joined.challenge.can_start_early
    with pytest.raises(NotChallengedError, match="Only the challenger can start"):
        await service.start_challenge(cid, BOB)
    update = await service.start_challenge(cid, ALICE)
    assert update.game is not None
    assert sorted(update.game.user_ids) == sorted([ALICE, BOB])
    assert [p.seat_name for p in update.game.players] == ["Green", "Red"]
    assert update.challenge.status == "accepted"
    assert update.challenge.pending_ids == (ERIN,)  # her invitation lapsed unanswered
    with pytest.raises(ChallengeClosedError):
        await service.accept_challenge(cid, ERIN)


async def test_start_refuses_options_that_need_every_seat(service: GameService) -> None:
    info = await lobby(service, players=4, options="teams=true")
    await service.join_challenge(info.challenge_id, BOB)
    await service.join_challenge(info.challenge_id, CAROL)
    with pytest.raises(LobbyError, match=r"With `teams=true`, .* needs all 4 seats filled"):
        await service.start_challenge(info.challenge_id, ALICE)
    still = await service.get_challenge(info.challenge_id)
    assert (still.status, still.seated_ids) == ("open", (ALICE, BOB, CAROL))
    # The lobby never offered it: no Start button, no "starts with at least 2" sentence.
    assert still.min_players == 4
    assert not still.can_start_early
    game = await started(service.join_challenge(info.challenge_id, DAN))
    assert len(game.players) == 4


async def test_an_orbs_team_lobby_starts_only_with_every_seat_its_teams_name(
    service: GameService,
) -> None:
    teams = await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        game="orbs",
        players=4,
        options_text="teams=02-13",
    )
    assert (teams.min_players, teams.can_start_early) == (4, False)
    await service.join_challenge(teams.challenge_id, BOB)
    with pytest.raises(LobbyError, match=r"With `teams=02-13`, Orbs needs all 4 seats filled"):
        await service.start_challenge(teams.challenge_id, ALICE)
    # Without teams, two of the four seats are enough, as for any Orbs lobby.
    free = await service.create_challenge(
        guild_id=GUILD, channel_id=700, challenger_id=ALICE, game="orbs", players=4
    )
    await service.join_challenge(free.challenge_id, BOB)
    assert (await service.get_challenge(free.challenge_id)).can_start_early


async def test_a_team_preset_without_players_sets_the_seats_its_teams_name(
    service: GameService,
) -> None:
    six = await service.create_challenge(
        guild_id=GUILD, channel_id=GAMES, challenger_id=ALICE, game="orbs", preset="teams6"
    )
    assert six.players == 6
    four = await service.create_challenge(
        guild_id=GUILD,
        channel_id=700,
        challenger_id=ALICE,
        opponent_ids=[BOB],
        game="orbs",
        options_text="teams=02-13",
    )
    assert four.players == 4
    # Without teams, naming one opponent still makes two seats.
    two = await service.create_challenge(
        guild_id=GUILD, channel_id=701, challenger_id=ALICE, opponent_ids=[BOB], game="orbs"
    )
    assert two.players == 2
    # Options that several counts fit (a hole in a two-player start zone) do not choose
    # one: refused with the reason, as before.
    with pytest.raises(ChallengeSetupError, match="start zone"):
        await service.create_challenge(
            guild_id=GUILD,
            channel_id=703,
            challenger_id=ALICE,
            opponent_ids=[BOB],
            game="orbs",
            options_text="holes=A1",
        )
    # A count given that the teams do not fit is still refused, with the engine's reason.
    with pytest.raises(ChallengeSetupError, match="teams"):
        await service.create_challenge(
            guild_id=GUILD,
            channel_id=702,
            challenger_id=ALICE,
            game="orbs",
            players=2,
            preset="teams4",
        )


async def test_bot_seats_count_like_opponents_unless_the_options_name_the_seats(
    service: GameService,
) -> None:
    """``/challenge bot_level:`` (or a mention of the bot) asks for bot seats: without
    ``players`` they add to the seats counted from who was named, but a team preset keeps
    the seats its teams name (it was refused as a game of two)."""
    teams = await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        game="orbs",
        preset="teams6",
        bot_seats=1,
    )
    assert teams.players == 6
    counted = await service.create_challenge(
        guild_id=GUILD,
        channel_id=700,
        challenger_id=ALICE,
        opponent_ids=[BOB],
        game="orbs",
        bot_seats=2,
    )
    assert counted.players == 4
    refusals: list[tuple[dict[str, Any], int, str, int]] = [
        # the game's most players, counted from who was named
        ({"game": "generatorb", "opponent_ids": [BOB]}, 1, "game", 2),
        # the seats the options name
        ({"game": "orbs", "options_text": "teams=01-23", "opponent_ids": [BOB]}, 3, "options", 4),
        # the seats typed
        ({"game": "orbs", "players": 3, "opponent_ids": [BOB, CAROL]}, 1, "players", 3),
    ]
    for setup, bots, limit, seats in refusals:
        with pytest.raises(TooManySeatsError) as refused:
            await service.create_challenge(
                guild_id=GUILD, channel_id=710, challenger_id=ALICE, bot_seats=bots, **setup
            )
        assert (refused.value.limit, refused.value.seats, refused.value.bots) == (
            limit,
            seats,
            bots,
        )


async def test_an_exhibition_without_players_seats_what_its_options_name(
    service: GameService,
) -> None:
    teams = await service.open_exhibition(
        guild_id=GUILD, channel_id=GAMES, user_id=ALICE, game="orbs", players=None, preset="teams4"
    )
    assert teams.players == 4
    usual = await service.open_exhibition(
        guild_id=GUILD, channel_id=700, user_id=ALICE, game="generator", players=None
    )
    assert usual.players == 2


async def test_cancel_and_expiry_close_a_lobby_with_players_in_it(
    database: Database, clock: FakeClock
) -> None:
    service = GameService(database, clock=clock, challenge_ttl=timedelta(minutes=30))
    cancelled = await lobby(service)
    await service.join_challenge(cancelled.challenge_id, BOB)
    with pytest.raises(NotChallengedError, match="Only the challenger can cancel"):
        await service.cancel_challenge(cancelled.challenge_id, BOB)
    closed = await service.cancel_challenge(cancelled.challenge_id, ALICE)
    assert (closed.status, closed.seated_ids) == ("cancelled", (ALICE, BOB))
    with pytest.raises(ChallengeClosedError, match="cancelled"):
        await service.leave_challenge(cancelled.challenge_id, BOB)

    expiring = await lobby(service, channel_id=700)
    await service.join_challenge(expiring.challenge_id, BOB)
    clock.advance(timedelta(minutes=30))
    with pytest.raises(ChallengeClosedError, match="expired"):
        await service.join_challenge(expiring.challenge_id, CAROL)
    (expired,) = await service.expire_challenges()
    assert (expired.challenge_id, expired.status) == (expiring.challenge_id, "expired")
    assert expired.seated_ids == (ALICE, BOB)


# ---- races ---------------------------------------------------------------------------------


def read_then_wait(
    database: Database, barrier: asyncio.Barrier, versions: list[int]
) -> Callable[[int], Awaitable[ChallengeRow | None]]:
    """``challenges.get`` that, the first time, waits for the barrier after reading: two
    presses then decide on the same lobby before either writes. Appends each version read."""
    read = database.challenges.get
    first = True

    async def get(challenge_id: int) -> ChallengeRow | None:
        nonlocal first
        row = await read(challenge_id)
        versions.append(-1 if row is None else row.version)
        if first:
            first = False
            await barrier.wait()
        return row

    return get


@pytest.fixture
async def second_service(db_url: str, clock: FakeClock) -> AsyncIterator[GameService]:
    """Another process's service: its own connections to the same database file."""
    other = Database(db_url)
    try:
        yield GameService(other, clock=clock, rng_seed_source=seeds(1000))
    finally:
        await other.close()


async def test_two_joins_for_different_seats_both_land(
    service: GameService, second_service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = await lobby(service, players=4)
    barrier = asyncio.Barrier(2)
    versions: list[int] = []
    for svc in (service, second_service):
        get = read_then_wait(svc.database, barrier, versions)
        monkeypatch.setattr(svc.database.challenges, "get", get)
    first, second = await asyncio.gather(
        service.join_challenge(info.challenge_id, BOB),
        second_service.join_challenge(info.challenge_id, CAROL),
    )
    # Both decided on version 1; one write lost the compare-and-set, read again and landed.
    assert versions == [1, 1, 2]
    assert (first.game, second.game) == (None, None)
    now = await service.get_challenge(info.challenge_id)
    assert sorted(now.seated_ids) == sorted([ALICE, BOB, CAROL])
    assert now.open_seats == 1


async def test_two_joins_for_the_last_seat_start_exactly_one_game(
    service: GameService,
    second_service: GameService,
    database: Database,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    info = await lobby(service)
    await service.join_challenge(info.challenge_id, BOB)
    barrier = asyncio.Barrier(2)
    versions: list[int] = []
    for svc in (service, second_service):
        get = read_then_wait(svc.database, barrier, versions)
        monkeypatch.setattr(svc.database.challenges, "get", get)
    results = await asyncio.gather(
        service.join_challenge(info.challenge_id, CAROL),
        second_service.join_challenge(info.challenge_id, DAN),
        return_exceptions=True,
    )
    landed = [r for r in results if isinstance(r, LobbyUpdate)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(landed) == 1, results
    assert landed[0].game is not None
    assert versions[:2] == [2, 2]  # both decided to fill the last seat of version 2
    assert len(refused) == 1
    assert isinstance(refused[0], ChallengeClosedError)
    assert refused[0].message == "This challenge is no longer open: it was already accepted."
    assert len(await database.games.list_active(channel_id=GAMES)) == 1
    final = await service.get_challenge(info.challenge_id)
    assert len(final.seated_ids) == 3
    assert set(final.seated_ids) == set(landed[0].game.user_ids)


# ---- resigning from a game that goes on ----------------------------------------------------


async def test_a_resignation_in_a_three_player_game_is_a_logged_move(
    service: GameService, database: Database, round_robin: RoundRobin
) -> None:
    info = await lobby(service)
    await service.join_challenge(info.challenge_id, BOB)
    game = await started(service.join_challenge(info.challenge_id, CAROL))
    first = to_move_user(game)
    game = (await service.play(GAMES, first, "tick")).snapshot
    mover = to_move_user(game)
    (waiting,) = [u for u in game.user_ids if u not in (first, mover)]
    waiting_seat = next(p.seat for p in game.players if p.user_id == waiting)

    after = await service.resign(GAMES, waiting)  # out of turn
    assert after.is_active
    assert after.outcome is None
    assert after.to_move_user_ids == (mover,)  # the turn did not move
    assert after.ply == 2
    last = after.last_moves[-1]
    assert (last.seat, last.text) == (waiting_seat, resign_move_text(waiting_seat))
    assert [e.text for e in last.events] == ["leaves the game"]
    with pytest.raises(NotAPlayerError, match="already resigned"):
        await service.resign(GAMES, waiting)
    with pytest.raises(NotAPlayerError, match="You have left this game"):
        await service.play(GAMES, waiting, "tick")  # not "not your turn": it never comes
    with pytest.raises(AbortNotAllowedError, match="left this game"):
        await service.abort(GAMES, waiting)  # a resigner cannot stop the others' game

    # The player to move resigns: the turn passes to the last one left, who wins at once.
    ended = await service.resign(GAMES, mover)
    assert not ended.is_active
    assert ended.to_move == ()
    (winner,) = [p.seat for p in ended.players if p.user_id == first]
    mover_seat = next(p.seat for p in ended.players if p.user_id == mover)
    assert ended.outcome == Outcome(
        "resignation", (winner,), ((winner,), tuple(sorted([waiting_seat, mover_seat])))
    )
    log = [(m.seat, m.text) for m in await database.games.moves(ended.game_id)]
    assert log[1:] == [
        (waiting_seat, f"[{waiting_seat}]resign"),
        (mover_seat, f"[{mover_seat}]resign"),
    ]
    report = await service.replay(ended.game_id)
    assert report.matches
    assert report.plies == 3


async def test_an_engine_without_resign_in_play_still_ends_the_game(
    service: GameService, round_robin: RoundRobin, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(round_robin, "resign", lambda state, seat: None)
    info = await lobby(service)
    await service.join_challenge(info.challenge_id, BOB)
    game = await started(service.join_challenge(info.challenge_id, CAROL))
    bob_seat = next(p.seat for p in game.players if p.user_id == BOB)
    ended = await service.resign(GAMES, BOB)
    others = tuple(s for s in range(3) if s != bob_seat)
    assert ended.outcome == Outcome("resignation", others, (others, (bob_seat,)))
    assert ended.status == "finished"
    assert ended.ply == 0  # nothing logged: the bot ended it


def test_the_lobby_records_are_plain_values() -> None:
    player = ChallengePlayer(BOB, "invited", "declined")
    assert not player.holds_seat
    assert ChallengePlayer(BOB, "invited", "invited").holds_seat


async def test_a_lobby_opened_for_the_bot_expires_soon_until_its_bots_sit(
    service: GameService, clock: FakeClock
) -> None:
    """A lobby the bot is to join right after it is posted (without buttons) lives
    ``BOTS_TO_SIT_WITHIN`` until the bots sit, then the usual time from its creation: a
    process that stopped in between leaves a dead lobby for minutes, not a day (a rematch's
    would block the next rematch). A lobby without bots keeps the usual time."""
    opened = await service.create_challenge(
        guild_id=GUILD, channel_id=GAMES, challenger_id=ALICE, game="orbs", players=4, bot_seats=1
    )
    assert opened.expires_at == opened.created_at + BOTS_TO_SIT_WITHIN
    seated = await service.add_bots(opened.challenge_id, ALICE, [1])
    assert seated.game is None  # two seats still open
    assert seated.challenge.expires_at == opened.created_at + DEFAULT_CHALLENGE_TTL
    # The Add-bot menu of an ordinary lobby leaves its expiry alone.
    plain = await service.create_challenge(
        guild_id=GUILD, channel_id=700, challenger_id=ALICE, game="orbs", players=4
    )
    assert plain.expires_at == plain.created_at + DEFAULT_CHALLENGE_TTL
    clock.advance(timedelta(hours=1))
    added = await service.add_bots(plain.challenge_id, ALICE, [2])
    assert added.challenge.expires_at == plain.expires_at
    # The process stopped before the bots sat: the lobby expires within minutes.
    stranded = await service.create_challenge(
        guild_id=GUILD, channel_id=701, challenger_id=ALICE, game="generatorb", bot_seats=1
    )
    clock.advance(BOTS_TO_SIT_WITHIN)
    expired = await service.expire_challenges()
    assert [c.challenge_id for c in expired] == [stranded.challenge_id]


async def test_a_team_game_stores_each_seats_team(service: GameService) -> None:
    """``seats.team`` holds each seat's side when the options make teams (Orbs 02-13), and
    nothing in a game of sides of one."""
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        opponent_ids=[BOB, CAROL, DAN],
        game="orbs",
        options_text="teams=02-13",
    )
    for user in (BOB, CAROL, DAN):
        started = (await service.accept_challenge(challenge.challenge_id, user)).game
    assert started is not None
    seats = await service.database.games.seats(started.game_id)
    assert [s.team for s in seats] == [0, 1, 0, 1]
    plain = await service.create_challenge(
        guild_id=GUILD, channel_id=GAMES + 1, challenger_id=ERIN, opponent_ids=[BOB], game="orbs"
    )
    alone = (await service.accept_challenge(plain.challenge_id, BOB)).game
    assert alone is not None
    assert [s.team for s in await service.database.games.seats(alone.game_id)] == [None, None]
