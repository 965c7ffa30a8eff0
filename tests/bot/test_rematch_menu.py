"""The Rematch level menu (bot/ui/rematch_menu.py) and the social cog's rematch handlers, with
a stand-in bot: a game the bot played in gets the menu, a game of people its rematch at once;
a choice opens the rematch at that level, and a stranger, a second choice or a deleted game
get one ephemeral sentence."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from bot import presenters
from bot.cogs.social import SocialCog
from bot.service.bot_seats import bot_user_id
from bot.service.errors import NoGameHereError, NotAPlayerError
from bot.service.social import RematchOpenError, RematchPlan, RematchStartedError
from bot.ui.custom_ids import CHALLENGE_TEMPLATE, GAME_TEMPLATE, GameAction, GameButtonId
from bot.ui.rematch_menu import (
    REMATCH_MENU_TEMPLATE,
    SAME_LEVEL,
    RematchLevelMenu,
    RematchMenuId,
    chosen_level,
    rematch_level_view,
)

from .test_bot_replies import fake_interaction
from .test_bot_ui import ALICE, BOB, CHALLENGER, lobby

GAME = 31
LEVEL_1, LEVEL_3 = bot_user_id(1), bot_user_id(3)
REMATCH = GameButtonId(GAME, GameAction.REMATCH, 12)


# ---- the menu ------------------------------------------------------------------------------


async def test_the_menu_id_survives_a_restart_and_is_no_other_components() -> None:
    view = rematch_level_view(GAME, [1])
    [menu] = view.children
    assert isinstance(menu, RematchLevelMenu)
    assert menu.custom_id == str(RematchMenuId(GAME)) == f"gr:{GAME}:rematch_level"
    assert view.timeout is None
    assert not re.fullmatch(GAME_TEMPLATE, menu.custom_id)
    assert not re.fullmatch(CHALLENGE_TEMPLATE, menu.custom_id)
    assert not re.fullmatch(REMATCH_MENU_TEMPLATE, str(REMATCH))
    match = menu.template.fullmatch(menu.custom_id)
    assert match is not None
    again = await RematchLevelMenu.from_custom_id(None, menu.item, match)  # type: ignore[arg-type]
    assert again.menu_id == menu.menu_id
    assert [o.value for o in again.item.options] == [SAME_LEVEL, "1", "2", "3", "4", "5"]
    labels = [o.label for o in menu.item.options]
    assert labels[:2] == ["Same level (1 · beginner)", "Level 1 · beginner"]
    assert labels[-1] == "Level 5 · strongest"
    [two] = rematch_level_view(GAME, [2, 1]).children
    assert isinstance(two, RematchLevelMenu)
    assert two.item.options[0].label == "Same levels (1, 2)"


def test_chosen_level() -> None:
    assert chosen_level([SAME_LEVEL]) is None
    assert chosen_level(["3"]) == 3
    assert chosen_level(["x"]) == chosen_level([]) == 0  # refused by the service


def test_rematch_texts() -> None:
    assert presenters.rematch_level_prompt([1]) == (
        "Rematch: at which level should Gameroom play? It played at level 1 this game."
    )
    assert "levels 1 and 2" in presenters.rematch_level_prompt([2, 1, 2])
    assert presenters.rematch_posted_text() == "Rematch challenge posted."
    assert presenters.rematch_posted_text([3]) == (
        "Rematch challenge posted, against Gameroom at level 3."
    )


# ---- the cog -------------------------------------------------------------------------------


def stand_in_bot() -> Any:
    bot = MagicMock()
    bot.service = MagicMock()
    challenges = MagicMock()
    challenges._post_challenge = AsyncMock(return_value=MagicMock())
    challenges._seat_bots = AsyncMock()
    bot.get_cog = MagicMock(return_value=challenges)
    return bot


def interaction_of(user: int, *, done: bool) -> Any:
    interaction = fake_interaction(done=done)
    interaction.user.id = user
    interaction.user.display_name = "alice"
    interaction.response.defer = AsyncMock()
    interaction.edit_original_response = AsyncMock()
    interaction.channel = MagicMock(spec=discord.TextChannel)
    interaction.message.id = 555  # the menu's message
    return interaction


def rematch_info(seating: tuple[int, ...]) -> Any:
    return replace(
        lobby(players=2, lobby=(CHALLENGER,)),
        seating=seating,
        rematch_of=GAME,
        message_id=77,
    )


async def test_rematch_under_a_game_with_the_bot_asks_the_level_first() -> None:
    bot = stand_in_bot()
    bot.service.rematches.plan = AsyncMock(
        return_value=RematchPlan(ALICE, (), (LEVEL_1, ALICE), (1,))
    )
    bot.service.rematch = AsyncMock()
    interaction = interaction_of(ALICE, done=True)
    await SocialCog(bot).on_game_button(interaction, REMATCH)
    bot.service.rematches.plan.assert_awaited_once_with(GAME, ALICE)
    bot.service.rematch.assert_not_awaited()  # nothing opened yet
    assert interaction.followup.send.await_args is not None
    args, kwargs = interaction.followup.send.await_args
    assert args == (presenters.rematch_level_prompt([1]),)
    assert kwargs["ephemeral"] is True
    [menu] = kwargs["view"].children
    assert isinstance(menu, RematchLevelMenu)
    assert menu.menu_id == RematchMenuId(GAME)


async def test_rematch_under_a_game_of_people_opens_at_once() -> None:
    bot = stand_in_bot()
    bot.service.rematches.plan = AsyncMock(return_value=RematchPlan(ALICE, (BOB,), (BOB, ALICE)))
    bot.service.rematch = AsyncMock(return_value=rematch_info((BOB, ALICE)))
    interaction = interaction_of(ALICE, done=True)
    await SocialCog(bot).on_game_button(interaction, REMATCH)
    bot.service.rematch.assert_awaited_once_with(GAME, ALICE, in_parent=False, bot_level=None)
    bot.get_cog.return_value._seat_bots.assert_not_awaited()
    interaction.followup.send.assert_awaited_once_with("Rematch challenge posted.", ephemeral=True)


async def test_rematch_pressed_while_one_is_open_points_at_it() -> None:
    bot = stand_in_bot()
    open_one = rematch_info((LEVEL_1, ALICE))
    bot.service.rematches.plan = AsyncMock(side_effect=RematchOpenError(open_one))
    interaction = interaction_of(ALICE, done=True)
    await SocialCog(bot).on_game_button(interaction, REMATCH)
    interaction.followup.send.assert_awaited_once_with(
        presenters.rematch_open_text(open_one), ephemeral=True
    )


async def test_choosing_a_level_opens_the_rematch_with_the_bot_at_it() -> None:
    bot = stand_in_bot()
    info = rematch_info((LEVEL_3, ALICE))
    bot.service.rematch = AsyncMock(return_value=info)
    interaction = interaction_of(ALICE, done=True)
    await SocialCog(bot).on_rematch_level(interaction, GAME, 3)
    bot.service.rematch.assert_awaited_once_with(GAME, ALICE, in_parent=False, bot_level=3)
    challenges = bot.get_cog.return_value
    challenges._post_challenge.assert_awaited_once_with(info, buttons=False)
    assert challenges._seat_bots.await_args is not None
    assert challenges._seat_bots.await_args.args[3] == [3]
    # The menu becomes what happened: nothing left to choose twice.
    interaction.edit_original_response.assert_awaited_once_with(
        content="Rematch challenge posted, against Gameroom at level 3.", view=None
    )
    interaction.followup.send.assert_not_awaited()


async def test_a_second_choice_points_at_the_open_rematch() -> None:
    bot = stand_in_bot()
    open_one = rematch_info((LEVEL_3, ALICE))
    bot.service.rematch = AsyncMock(side_effect=RematchOpenError(open_one))
    interaction = interaction_of(ALICE, done=True)
    await SocialCog(bot).on_rematch_level(interaction, GAME, None)
    interaction.edit_original_response.assert_awaited_once_with(
        content=presenters.rematch_open_text(open_one), view=None
    )
    bot.get_cog.return_value._post_challenge.assert_not_awaited()


async def test_an_old_menu_after_the_rematch_started_points_at_that_game() -> None:
    bot = stand_in_bot()
    started = replace(rematch_info((LEVEL_3, ALICE)), status="accepted", game_id=GAME + 1)
    bot.service.rematch = AsyncMock(side_effect=RematchStartedError(started))
    interaction = interaction_of(ALICE, done=True)
    await SocialCog(bot).on_rematch_level(interaction, GAME, 4)
    text = presenters.rematch_open_text(started)
    assert text.startswith(f"This game's rematch has already started (game {GAME + 1}): ")
    assert "/77" in text  # a link to the rematch's post
    interaction.edit_original_response.assert_awaited_once_with(content=text, view=None)
    bot.get_cog.return_value._post_challenge.assert_not_awaited()


@pytest.mark.parametrize(
    ("error", "sentence"),
    [
        (NotAPlayerError("Only the players can ask for a rematch."), "Only the players"),
        (NoGameHereError("That game does not exist."), "That game does not exist."),
    ],
)
async def test_a_refused_choice_is_one_ephemeral_sentence(error: Exception, sentence: str) -> None:
    bot = stand_in_bot()
    bot.service.rematch = AsyncMock(side_effect=error)
    interaction = interaction_of(BOB + 100, done=True)
    await SocialCog(bot).on_rematch_level(interaction, GAME, 3)
    assert interaction.followup.send.await_args is not None
    args, kwargs = interaction.followup.send.await_args
    assert args[0].startswith(sentence)
    assert kwargs == {"ephemeral": True}
    interaction.edit_original_response.assert_not_awaited()
    bot.get_cog.return_value._post_challenge.assert_not_awaited()


async def test_a_double_click_opens_one_rematch() -> None:
    bot = stand_in_bot()
    release = asyncio.Event()

    async def slow_rematch(*args: object, **kwargs: object) -> Any:
        await release.wait()
        return rematch_info((LEVEL_3, ALICE))

    bot.service.rematch = AsyncMock(side_effect=slow_rematch)
    cog = SocialCog(bot)
    first, second = interaction_of(ALICE, done=False), interaction_of(ALICE, done=False)
    second.response.send_message = AsyncMock()
    in_flight = asyncio.create_task(cog.on_rematch_level(first, GAME, 3))
    await asyncio.sleep(0)
    await cog.on_rematch_level(second, GAME, 4)  # while the first is being answered
    second.response.send_message.assert_awaited_once_with(
        presenters.REMATCH_ALREADY_CHOSEN, ephemeral=True
    )
    release.set()
    await in_flight
    bot.service.rematch.assert_awaited_once_with(GAME, ALICE, in_parent=False, bot_level=3)
    third = interaction_of(ALICE, done=False)  # and after it, too
    await cog.on_rematch_level(third, GAME, 3)
    assert bot.service.rematch.await_count == 1


async def test_a_refused_choice_leaves_the_menu_usable() -> None:
    bot = stand_in_bot()
    bot.service.rematch = AsyncMock(
        side_effect=[NoGameHereError("That game does not exist."), rematch_info((LEVEL_3, ALICE))]
    )
    cog = SocialCog(bot)
    await cog.on_rematch_level(interaction_of(ALICE, done=True), GAME, 3)
    again = interaction_of(ALICE, done=True)
    await cog.on_rematch_level(again, GAME, 3)
    assert bot.service.rematch.await_count == 2
    again.edit_original_response.assert_awaited_once_with(
        content="Rematch challenge posted, against Gameroom at level 3.", view=None
    )
