"""A draw offer's buttons are retired as soon as a move, a resignation or an abort closes the
offer (issue 17): the offer's post is edited to say so, without buttons."""

from __future__ import annotations

from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord

from bot import presenters
from bot.cogs.play import PlayCog
from bot.ui.offers import DrawOfferPosts
from tests.bot.test_bot_cogs import stand_in_bot
from tests.bot.test_hidden_cogs import acting


def offer_post() -> Any:
    post = MagicMock()
    post.edit = AsyncMock()
    return post


async def test_retiring_edits_the_post_once_and_removes_its_buttons() -> None:
    posts = DrawOfferPosts()
    post = offer_post()
    posts.remember(7, post)
    await posts.retire(7, presenters.DRAW_OFFER_LAPSED)
    post.edit.assert_awaited_once_with(content=presenters.DRAW_OFFER_LAPSED, view=None)
    await posts.retire(7, presenters.DRAW_OFFER_LAPSED)  # already retired: nothing
    post.edit.assert_awaited_once()
    await posts.retire(8, "nothing remembered")  # another game: nothing, no error


async def test_an_answered_offer_is_forgotten_and_a_failed_edit_is_only_logged() -> None:
    posts = DrawOfferPosts()
    answered, broken = offer_post(), offer_post()
    posts.remember(1, answered)
    posts.forget(1)
    await posts.retire(1, "late")
    answered.edit.assert_not_awaited()
    broken.edit = AsyncMock(side_effect=discord.HTTPException(MagicMock(status=404), "gone"))
    posts.remember(2, broken)
    await posts.retire(2, presenters.DRAW_OFFER_ENDED)  # the channel is gone: no raise


async def test_a_move_that_declines_an_offer_retires_its_post(monkeypatch: Any) -> None:
    bot = stand_in_bot()
    post = offer_post()
    bot.draw_offers.remember(5, post)
    result = MagicMock(turn_goes_on=False, declined_draw_offer=True, outcome=None)
    result.snapshot.game_id = 5
    bot.service.play = AsyncMock(return_value=result)
    monkeypatch.setattr("bot.ui.board.post_board", AsyncMock(return_value=MagicMock()))
    monkeypatch.setattr("bot.cogs.play.board_view", lambda *a, **k: None)
    monkeypatch.setattr("bot.cogs.play.presenters.move_ack_text", lambda *a, **k: "Played.")
    monkeypatch.setattr("bot.cogs.play.presenters.turn_text", lambda *a, **k: "A move.")
    interaction = acting(7)
    interaction.edit_original_response = AsyncMock()
    move: Any = PlayCog.move.callback
    await move(PlayCog(bot), interaction, "a1-a3")
    post.edit.assert_awaited_once_with(content=presenters.DRAW_OFFER_LAPSED, view=None)


async def test_a_resignation_that_ends_the_game_retires_the_offer(monkeypatch: Any) -> None:
    bot = stand_in_bot()
    post = offer_post()
    bot.draw_offers.remember(5, post)
    snapshot = MagicMock(game_id=5, is_active=False, user_ids=(1, 2))
    bot.service.resign = AsyncMock(return_value=snapshot)
    monkeypatch.setattr("bot.cogs.play.post_board", AsyncMock(return_value=MagicMock()))
    monkeypatch.setattr("bot.cogs.play.presenters.resign_text", lambda *a: "resigned")
    resign: Any = PlayCog.resign.callback
    await resign(PlayCog(bot), acting(7))
    post.edit.assert_awaited_once_with(content=presenters.DRAW_OFFER_ENDED, view=None)
