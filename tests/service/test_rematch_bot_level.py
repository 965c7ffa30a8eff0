"""A rematch against the bot at another level (issue 14): ``rematch(bot_level=…)`` gives
every bot seat the chosen level, ``None`` keeps the levels, a level outside 1–5 is refused
before anything is written; ``Rematches.plan`` answers the Rematch button without writing.
"""

from __future__ import annotations

import pytest

from bot.service import GameService, GameSnapshot
from bot.service.bot_seats import bot_level, bot_user_id, is_bot
from bot.service.errors import NoGameHereError, NotAPlayerError
from bot.service.lobby import BOTS_TO_SIT_WITHIN
from bot.service.social import (
    RematchError,
    RematchOpenError,
    RematchStartedError,
    bots_at_level,
    plan_rematch,
)
from tests.service.conftest import ALICE, BOB, CAROL, GAMES, GUILD, StartGame

LEVEL_1, LEVEL_2 = bot_user_id(1), bot_user_id(2)


# ---- the pure plan -------------------------------------------------------------------------


def test_plan_rematch_gives_every_bot_seat_the_chosen_level() -> None:
    plan = plan_rematch("finished", [ALICE, LEVEL_1], ALICE, bot_level=3)
    assert plan.seating == (bot_user_id(3), ALICE)
    assert plan.bot_levels == (3,)
    assert plan.has_bots
    assert plan.invited_ids == ()
    # Two bots of different levels become two bots of one level, each its own instance.
    plan = plan_rematch("finished", [LEVEL_1, ALICE, LEVEL_2], ALICE, bot_level=4)
    assert plan.seating == (ALICE, bot_user_id(4, 0), bot_user_id(4, 1))
    assert plan.bot_levels == (4, 4)
    assert bots_at_level([BOB, LEVEL_2, LEVEL_1], 5) == (BOB, bot_user_id(5, 0), bot_user_id(5, 1))


def test_plan_rematch_without_a_level_keeps_the_bots_levels() -> None:
    plan = plan_rematch("finished", [LEVEL_2, ALICE, LEVEL_1], ALICE)
    assert plan.seating == (ALICE, LEVEL_1, LEVEL_2)
    assert plan.bot_levels == (1, 2)
    people = plan_rematch("finished", [ALICE, BOB], BOB, bot_level=3)  # no bot: nothing to level
    assert people.seating == (BOB, ALICE)
    assert not people.has_bots


@pytest.mark.parametrize("level", [0, 6, -1, 100])
def test_plan_rematch_refuses_a_level_outside_1_to_5(level: int) -> None:
    with pytest.raises(RematchError, match="Bot levels are 1 to 5"):
        plan_rematch("finished", [ALICE, LEVEL_1], ALICE, bot_level=level)


# ---- through the service -------------------------------------------------------------------


async def game_lost_to_the_bot(service: GameService, level: int = 1) -> GameSnapshot:
    """ALICE against the bot at ``level``, resigned at once."""
    challenge = await service.create_challenge(
        guild_id=GUILD, channel_id=GAMES, challenger_id=ALICE, game="generatorb", players=2
    )
    started = (await service.add_bots(challenge.challenge_id, ALICE, [level])).game
    assert started is not None
    over = await service.resign(GAMES, ALICE)
    assert not over.is_active
    return over


async def test_a_rematch_at_a_new_level_seats_the_bot_at_that_level(
    service: GameService,
) -> None:
    over = await game_lost_to_the_bot(service, level=1)
    old = [p.user_id for p in over.players]
    plan = await service.rematches.plan(over.game_id, ALICE)
    assert plan.has_bots
    assert plan.bot_levels == (1,)

    info = await service.rematch(over.game_id, ALICE, bot_level=3)
    assert info.rematch_of == over.game_id
    # Its bot sits right after: until then it would expire soon (a crash in between would
    # otherwise block the next rematch for a day).
    assert info.expires_at - info.created_at == BOTS_TO_SIT_WITHIN
    assert info.seating == tuple(bot_user_id(3) if is_bot(u) else u for u in old[1:] + old[:1])
    # The challenger gives the seat back to the bot, as the cog does, at the seating's level.
    levels = [lv for u in info.seating or () if (lv := bot_level(u)) is not None]
    assert levels == [3]
    started = (await service.add_bots(info.challenge_id, ALICE, levels)).game
    assert started is not None
    assert [p.user_id for p in started.players] == list(info.seating or ())
    assert [bot_level(p.user_id) for p in started.players if is_bot(p.user_id)] == [3]


async def test_a_rematch_without_a_level_keeps_the_bots_level(service: GameService) -> None:
    over = await game_lost_to_the_bot(service, level=2)
    info = await service.rematch(over.game_id, ALICE, bot_level=None)
    assert sorted(info.seating or ()) == sorted([ALICE, bot_user_id(2)])
    started = (await service.add_bots(info.challenge_id, ALICE, [2])).game
    assert started is not None
    assert bot_user_id(2) in started.user_ids


async def test_a_rematch_at_an_invalid_level_is_refused_and_opens_nothing(
    service: GameService,
) -> None:
    over = await game_lost_to_the_bot(service)
    for level in (0, 6):
        with pytest.raises(RematchError, match="Bot levels are 1 to 5"):
            await service.rematch(over.game_id, ALICE, bot_level=level)
    assert await service.database.challenges.open_rematch(over.game_id) is None
    info = await service.rematch(over.game_id, ALICE, bot_level=5)  # the button still works
    assert bot_user_id(5) in (info.seating or ())


async def test_rematch_menu_refusals_a_stranger_a_second_choice_and_no_game(
    service: GameService,
) -> None:
    over = await game_lost_to_the_bot(service)
    with pytest.raises(NotAPlayerError, match="Only the players"):
        await service.rematches.plan(over.game_id, CAROL)
    with pytest.raises(NotAPlayerError, match="Only the players"):
        await service.rematch(over.game_id, CAROL, bot_level=3)
    with pytest.raises(NoGameHereError):
        await service.rematches.plan(9999, ALICE)
    with pytest.raises(NoGameHereError):
        await service.rematch(9999, ALICE, bot_level=3)

    first = await service.rematch(over.game_id, ALICE, bot_level=3)
    # A double click, or an old menu: the open rematch is pointed at, whatever the level.
    for level in (3, 4, None):
        with pytest.raises(RematchOpenError) as raised:
            await service.rematch(over.game_id, ALICE, bot_level=level)
        assert raised.value.challenge.challenge_id == first.challenge_id
    with pytest.raises(RematchOpenError):
        await service.rematches.plan(over.game_id, ALICE)
    # Once it is cancelled, a new choice opens a new one.
    await service.cancel_challenge(first.challenge_id, ALICE)
    second = await service.rematch(over.game_id, ALICE, bot_level=1)
    assert second.challenge_id != first.challenge_id
    assert bot_user_id(1) in (second.seating or ())


async def test_an_old_menu_after_the_rematch_started_opens_no_second_game(
    service: GameService,
) -> None:
    """Two Rematch presses give two level menus; the first choice's rematch starts (the bot
    takes its seat at once). The second menu, or the button, must not open a second game:
    they point at the rematch game instead, at any level, for either player."""
    over = await game_lost_to_the_bot(service)
    info = await service.rematch(over.game_id, ALICE, bot_level=2)
    started = (await service.add_bots(info.challenge_id, ALICE, [2])).game
    assert started is not None
    for level in (2, 5, None):
        with pytest.raises(RematchStartedError) as raised:
            await service.rematch(over.game_id, ALICE, bot_level=level)
        assert raised.value.challenge.game_id == started.game_id
        assert raised.value.message == "This game's rematch has already started."
    with pytest.raises(RematchStartedError):
        await service.rematches.plan(over.game_id, ALICE)
    assert await service.database.challenges.open_rematch(over.game_id) is None
    # The rematch game itself can have its own rematch once it is over.
    await service.resign(GAMES, ALICE)
    again = await service.rematch(started.game_id, ALICE, bot_level=1)
    assert again.rematch_of == started.game_id


async def test_a_rematch_accepted_between_the_check_and_the_write_is_still_refused(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process may accept the open rematch between this one's "none started" check
    and its insert. Simulated by hiding the started rematch from the first check: the
    insert's transaction finds it, and the player gets the same pointer to the game."""
    over = await game_lost_to_the_bot(service)
    info = await service.rematch(over.game_id, ALICE, bot_level=2)
    started = (await service.add_bots(info.challenge_id, ALICE, [2])).game
    assert started is not None
    challenges = service.database.challenges
    real = challenges.started_rematch
    hidden: list[int] = []

    async def stale_once(game_id: int) -> object:
        if not hidden:
            hidden.append(game_id)
            return None
        return await real(game_id)

    monkeypatch.setattr(challenges, "started_rematch", stale_once)
    with pytest.raises(RematchStartedError) as raised:
        await service.rematch(over.game_id, ALICE, bot_level=3)
    assert hidden == [over.game_id]
    assert raised.value.challenge.game_id == started.game_id
    assert await challenges.open_rematch(over.game_id) is None


async def test_a_rematch_whose_game_was_aborted_frees_the_button(service: GameService) -> None:
    """An aborted game has no Rematch of its own, so its players ask again under the game
    it was the rematch of."""
    over = await game_lost_to_the_bot(service)
    info = await service.rematch(over.game_id, ALICE, bot_level=2)
    assert (await service.add_bots(info.challenge_id, ALICE, [2])).game is not None
    with pytest.raises(RematchStartedError):
        await service.rematch(over.game_id, ALICE)
    aborted = await service.abort(GAMES, ALICE)
    assert not aborted.is_active
    again = await service.rematch(over.game_id, ALICE, bot_level=3)
    assert again.rematch_of == over.game_id


async def test_rematch_plan_of_a_game_of_people_has_no_bots(
    service: GameService, start_game: StartGame
) -> None:
    start = await start_game()
    over = await service.resign(GAMES, ALICE)
    assert (await service.rematches.plan(start.game_id, BOB)).has_bots is False
    info = await service.rematch(over.game_id, BOB, bot_level=4)  # no bot seat: ignored
    assert sorted(info.seating or ()) == sorted([ALICE, BOB])
