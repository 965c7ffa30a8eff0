"""Two-seat challenges: options and presets, who may answer, double clicks, busy channels,
expiry. Lobbies for more seats are in ``test_service_lobby.py``."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from datetime import timedelta

import pytest

from bot.service import (
    ChallengeClosedError,
    ChallengeNotFoundError,
    ChallengePlayer,
    ChallengeSetupError,
    ChannelBusyError,
    GameService,
    GameSnapshot,
    LobbyError,
    LobbyUpdate,
    NotChallengedError,
)
from db import Database
from engines import ENGINES

from .conftest import ALICE, BOB, CAROL, GAMES, GUILD, OTHER, FakeClock, StartGame, seeds


async def challenge(
    service: GameService,
    *,
    opponent: int | None = BOB,
    options: str | None = None,
    preset: str | None = None,
    channel_id: int = GAMES,
) -> int:
    info = await service.create_challenge(
        guild_id=GUILD,
        channel_id=channel_id,
        challenger_id=ALICE,
        opponent_ids=[] if opponent is None else [opponent],
        game="generatorb",
        options_text=options,
        preset=preset,
    )
    return info.challenge_id


async def started(update: Awaitable[LobbyUpdate]) -> GameSnapshot:
    """The game a press started (the test fails if it did not start one)."""
    game = (await update).game
    assert game is not None
    return game


async def test_options_and_presets_are_validated_and_stored(service: GameService) -> None:
    challenge_id = await challenge(
        service, options="refill=ALL, move_limit = 50", preset="no_globes"
    )
    info = await service.get_challenge(challenge_id)
    assert info.status == "open"
    assert info.game_name == "Generatorb"
    assert info.options["refill"] == "all"
    assert info.options["move_limit"] == 50
    assert info.options["start_globes"] is False
    assert info.options["start_supply"] == 20
    assert info.options_text == "start_globes=false start_supply=20 refill=all move_limit=50"
    assert (info.players, info.min_players, info.lobby) == (
        2,
        2,
        (
            ChallengePlayer(ALICE, "challenger", "seated"),
            ChallengePlayer(BOB, "invited", "invited"),
        ),
    )
    snapshot = await started(service.accept_challenge(challenge_id, BOB))
    assert snapshot.options == info.options
    assert snapshot.position.startswith("S:a1,a2,b1,b2 N:g7,g8,h7,h8 supply:20/20")


@pytest.mark.parametrize(
    ("options", "preset", "expected"),
    [
        ("refill=some", None, "Option refill: 'some' is not allowed; use one or all."),
        ("turn_timer=5", None, "options are: preset, start_globes"),
        ("refill", None, "key=value"),
        ("refill=all refill=one", None, "given twice"),
        (None, "blitz", "presets are: standard, no_globes, abstractplay"),
    ],
)
async def test_bad_options_say_what_is_allowed(
    service: GameService, options: str | None, preset: str | None, expected: str
) -> None:
    with pytest.raises(ChallengeSetupError) as error:
        await challenge(service, options=options, preset=preset)
    assert expected in error.value.message


async def test_unknown_game_and_self_challenge_are_refused(service: GameService) -> None:
    with pytest.raises(ChallengeSetupError) as unknown:
        await service.create_challenge(
            guild_id=GUILD,
            channel_id=GAMES,
            challenger_id=ALICE,
            opponent_ids=[BOB],
            game="chess",
        )
    assert unknown.value.message == f"Unknown game 'chess'; games are: {', '.join(ENGINES)}."
    with pytest.raises(ChallengeSetupError, match="yourself"):
        await challenge(service, opponent=ALICE)


@pytest.mark.parametrize(
    ("opponents", "players", "expected"),
    [
        ([BOB, CAROL], None, "Generatorb is played by 2 players, not 3."),
        ([BOB], 3, "Generatorb is played by 2 players, not 3."),
        ([BOB, BOB], None, "You named the same opponent twice."),
    ],
)
async def test_a_two_player_game_takes_one_opponent(
    service: GameService, opponents: list[int], players: int | None, expected: str
) -> None:
    with pytest.raises(ChallengeSetupError) as error:
        await service.create_challenge(
            guild_id=GUILD,
            channel_id=GAMES,
            challenger_id=ALICE,
            opponent_ids=opponents,
            players=players,
            game="generatorb",
        )
    assert error.value.message == expected


async def test_only_the_challenged_user_may_answer(service: GameService) -> None:
    challenge_id = await challenge(service)
    with pytest.raises(NotChallengedError, match="This challenge is for someone else"):
        await service.accept_challenge(challenge_id, CAROL)
    with pytest.raises(NotChallengedError, match="your own"):
        await service.accept_challenge(challenge_id, ALICE)
    with pytest.raises(LobbyError, match="Every seat is taken or reserved"):
        await service.join_challenge(challenge_id, CAROL)
    with pytest.raises(NotChallengedError, match="Only an invited player"):
        await service.decline_challenge(challenge_id, CAROL)
    with pytest.raises(NotChallengedError, match="Only the challenger can cancel"):
        await service.cancel_challenge(challenge_id, BOB)
    with pytest.raises(NotChallengedError, match="Only the challenger can start"):
        await service.start_challenge(challenge_id, BOB)
    with pytest.raises(LobbyError, match="needs all 2 seats filled"):
        await service.start_challenge(challenge_id, ALICE)
    declined = await service.decline_challenge(challenge_id, BOB)
    assert declined.game is None
    assert declined.challenge.status == "declined"  # two seats: a refusal closes it
    assert declined.challenge.declined_ids == (BOB,)
    with pytest.raises(ChallengeClosedError, match="declined"):
        await service.accept_challenge(challenge_id, BOB)
    with pytest.raises(ChallengeNotFoundError):
        await service.accept_challenge(challenge_id + 100, BOB)


async def test_an_open_challenge_is_for_anyone_but_the_challenger(service: GameService) -> None:
    challenge_id = await challenge(service, opponent=None)
    with pytest.raises(LobbyError, match="you already have a seat"):
        await service.join_challenge(challenge_id, ALICE)
    with pytest.raises(NotChallengedError):
        await service.decline_challenge(challenge_id, CAROL)
    joined = await service.join_challenge(challenge_id, CAROL)
    assert joined.game is not None
    assert sorted(joined.game.user_ids) == [ALICE, CAROL]
    info = await service.get_challenge(challenge_id)
    assert info == joined.challenge
    assert info.status == "accepted"
    assert info.game_id == joined.game.game_id
    assert info.seated_ids == (ALICE, CAROL)


async def test_cancel_by_the_challenger(service: GameService) -> None:
    challenge_id = await challenge(service)
    assert (await service.cancel_challenge(challenge_id, ALICE)).status == "cancelled"
    with pytest.raises(ChallengeClosedError, match="cancelled"):
        await service.cancel_challenge(challenge_id, ALICE)


async def test_a_double_click_starts_one_game(database: Database, clock: FakeClock) -> None:
    one = GameService(database, clock=clock, rng_seed_source=seeds(1))
    two = GameService(database, clock=clock, rng_seed_source=seeds(1000))
    challenge_id = await challenge(one)
    results = await asyncio.gather(
        one.accept_challenge(challenge_id, BOB),
        two.accept_challenge(challenge_id, BOB),
        return_exceptions=True,
    )
    landed = [r for r in results if isinstance(r, LobbyUpdate)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(landed) == 1
    assert landed[0].game is not None
    assert len(refused) == 1
    assert isinstance(refused[0], ChallengeClosedError)
    assert len(await database.games.list_active(channel_id=GAMES)) == 1


async def test_a_busy_channel_refuses_without_writing_then_a_thread_works(
    service: GameService, start_game: StartGame
) -> None:
    await start_game()
    challenge_id = await challenge(service)
    with pytest.raises(ChannelBusyError):
        await service.accept_challenge(challenge_id, BOB)
    unchanged = await service.get_challenge(challenge_id)
    assert (unchanged.status, unchanged.pending_ids) == ("open", (BOB,))  # not even seated
    thread_id = 777
    snapshot = await started(
        service.accept_challenge(challenge_id, BOB, channel_id=thread_id, parent_channel_id=GAMES)
    )
    assert snapshot.channel_id == thread_id
    assert (await service.snapshot(thread_id)).game_id == snapshot.game_id


async def test_seats_come_from_the_games_seed(database: Database, clock: FakeClock) -> None:
    """The spec's coin flip: who plays South depends on the seed, and only on it."""
    orders = set()
    for seed in range(1, 9):
        service = GameService(database, clock=clock, rng_seed_source=seeds(seed))
        challenge_id = await challenge(service, channel_id=1000 + seed)
        snapshot = await started(service.accept_challenge(challenge_id, BOB))
        orders.add(snapshot.user_ids)
        again = GameService(database, clock=clock, rng_seed_source=seeds(seed))
        challenge_id = await challenge(again, channel_id=2000 + seed)
        replayed = await started(again.accept_challenge(challenge_id, BOB))
        assert replayed.user_ids == snapshot.user_ids
    assert orders == {(ALICE, BOB), (BOB, ALICE)}


async def test_challenges_expire_after_the_ttl(database: Database, clock: FakeClock) -> None:
    service = GameService(database, clock=clock, challenge_ttl=timedelta(minutes=30))
    first = await challenge(service)
    clock.advance(timedelta(minutes=20))
    second = await challenge(service, channel_id=OTHER)
    assert await service.expire_challenges() == []
    clock.advance(timedelta(minutes=10))
    # Past its expiry but not yet swept: it cannot be accepted any more.
    with pytest.raises(ChallengeClosedError, match="expired"):
        await service.accept_challenge(first, BOB)
    expired = await service.expire_challenges()
    assert [c.challenge_id for c in expired] == [first]
    assert expired[0].status == "expired"
    assert await service.expire_challenges() == []
    clock.advance(timedelta(minutes=20))
    assert [c.challenge_id for c in await service.expire_challenges()] == [second]


async def test_accept_on_an_open_challenge_takes_the_open_seat(service: GameService) -> None:
    """Open challenges posted before the lobby existed carry an Accept button, not Join: an
    Accept from anyone then takes the open seat, so those posts still work after upgrading."""
    challenge_id = await challenge(service, opponent=None)
    accepted = await service.accept_challenge(challenge_id, CAROL)
    assert accepted.game is not None
    assert sorted(accepted.game.user_ids) == [ALICE, CAROL]


async def test_an_invitation_is_still_only_for_the_invited(service: GameService) -> None:
    challenge_id = await challenge(service)
    with pytest.raises(NotChallengedError, match="someone else"):
        await service.accept_challenge(challenge_id, CAROL)
