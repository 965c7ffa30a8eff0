"""A draw offer's buttons are retired as soon as a move, a resignation or an abort closes the
offer (issue 17), and so are a takeback request's: the post is edited to say so, without
buttons, by whichever process closes it (the post's ids are stored, migrations 0010 and
0012)."""

from __future__ import annotations

from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord

from bot import presenters
from bot.cogs.play import PlayCog
from bot.service import StaleActionError
from bot.ui.custom_ids import GameAction, GameButtonId
from bot.ui.offers import OfferPosts
from tests.bot.fakes import PostsClient, memory_offer_posts
from tests.bot.test_bot_cogs import stand_in_bot
from tests.bot.test_hidden_cogs import acting


async def test_retiring_edits_the_post_once_and_removes_its_buttons() -> None:
    posts, _, client = memory_offer_posts()
    post = client.post(100, 1)
    await posts.remember(7, post)
    await posts.retire(7, presenters.DRAW_OFFER_LAPSED)
    post.edit.assert_awaited_once_with(content=presenters.DRAW_OFFER_LAPSED, view=None)
    await posts.retire(7, presenters.DRAW_OFFER_LAPSED)  # already retired: nothing
    post.edit.assert_awaited_once()
    await posts.retire(8, "nothing remembered")  # another game: nothing, no error


async def test_a_post_is_retired_by_its_ids_not_by_the_object_that_posted_it() -> None:
    """Another process (or this one after a restart) retires the post: only the stored ids
    lead to it."""
    posts, repo, client = memory_offer_posts()
    await posts.remember(7, client.post(100, 1))
    other_client = PostsClient()
    elsewhere = OfferPosts(repo, other_client, closed_text="", what="offer")  # type: ignore[arg-type]
    post_there = other_client.post(100, 1)  # the same Discord message, seen by the other client
    await elsewhere.retire(7, presenters.DRAW_OFFER_ENDED)
    post_there.edit.assert_awaited_once_with(content=presenters.DRAW_OFFER_ENDED, view=None)
    assert repo.rows == {}


async def test_an_offer_closed_before_its_post_was_stored_is_retired_at_once() -> None:
    posts, repo, client = memory_offer_posts()
    repo.closed.add(7)  # a move in another process came between the post and the store
    post = client.post(100, 1)
    await posts.remember(7, post)
    post.edit.assert_awaited_once_with(content=presenters.DRAW_OFFER_CLOSED, view=None)
    assert repo.rows == {}


async def test_an_answered_offer_is_forgotten_and_failures_are_only_logged(
    caplog: Any,
) -> None:
    posts, repo, client = memory_offer_posts()
    answered, broken = client.post(100, 1), client.post(100, 2)
    await posts.remember(1, answered)
    await posts.forget(1)
    await posts.retire(1, "late")
    answered.edit.assert_not_awaited()
    broken.edit = AsyncMock(side_effect=discord.HTTPException(MagicMock(status=404), "gone"))
    await posts.remember(2, broken)
    await posts.retire(2, presenters.DRAW_OFFER_ENDED)  # the channel is gone: no raise
    repo.take = AsyncMock(side_effect=OSError("database unreachable"))  # type: ignore[method-assign]
    await posts.retire(3, presenters.DRAW_OFFER_ENDED)  # logged, no raise
    await posts.forget(3)
    assert "could not read the draw offer's post" in caplog.text
    assert "could not drop the draw offer's post" in caplog.text


async def play_a_move(bot: Any, result: Any, monkeypatch: Any) -> None:
    """``/move`` in game 5 through the cog, the service answering ``result`` and the board
    post, its view and texts stood in for."""
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


async def test_a_move_that_declines_an_offer_retires_its_post(monkeypatch: Any) -> None:
    bot = stand_in_bot()
    post = bot.offer_client.post(100, 1)
    await bot.draw_offers.remember(5, post)
    result = MagicMock(turn_goes_on=False, declined_draw_offer=True, outcome=None)
    await play_a_move(bot, result, monkeypatch)
    post.edit.assert_awaited_once_with(content=presenters.DRAW_OFFER_LAPSED, view=None)


async def test_a_move_that_refuses_a_takeback_request_retires_its_post(monkeypatch: Any) -> None:
    bot = stand_in_bot()
    offer, request = bot.offer_client.post(100, 1), bot.offer_client.post(100, 2)
    await bot.draw_offers.remember(5, offer)
    await bot.takebacks.remember(5, request)
    result = MagicMock(
        turn_goes_on=False, declined_draw_offer=False, refused_takeback=True, outcome=None
    )
    await play_a_move(bot, result, monkeypatch)
    request.edit.assert_awaited_once_with(content=presenters.TAKEBACK_REQUEST_LAPSED, view=None)
    offer.edit.assert_not_awaited()  # the move declined no draw offer (none was open)


async def test_a_resignation_that_ends_the_game_retires_the_offer_and_request(
    monkeypatch: Any,
) -> None:
    bot = stand_in_bot()
    post = bot.offer_client.post(100, 1)
    await bot.draw_offers.remember(5, post)
    snapshot = MagicMock(game_id=5, is_active=False, user_ids=(1, 2))
    bot.service.resign = AsyncMock(return_value=snapshot)
    monkeypatch.setattr("bot.cogs.play.post_board", AsyncMock(return_value=MagicMock()))
    monkeypatch.setattr("bot.cogs.play.presenters.resign_text", lambda *a: "resigned")
    request = bot.offer_client.post(100, 2)
    await bot.takebacks.remember(5, request)
    resign: Any = PlayCog.resign.callback
    await resign(PlayCog(bot), acting(7))
    post.edit.assert_awaited_once_with(content=presenters.DRAW_OFFER_ENDED, view=None)
    request.edit.assert_awaited_once_with(content=presenters.TAKEBACK_REQUEST_ENDED, view=None)


async def test_a_press_on_a_closed_offer_says_so_on_its_post_and_drops_it() -> None:
    """An offer post no process retired (its store failed, or it predates migration 0010):
    the press is answered as stale and the post loses its buttons."""
    bot = stand_in_bot()
    bot.service.answer_draw = AsyncMock(
        side_effect=StaleActionError("This draw offer is no longer open.")
    )
    interaction = acting(7)
    interaction.edit_original_response = AsyncMock()
    interaction.original_response = AsyncMock(return_value=MagicMock(components=[MagicMock()]))
    button = GameButtonId(5, GameAction.DRAW_ACCEPT, 3)
    await PlayCog(bot).on_game_button(interaction, button)
    interaction.edit_original_response.assert_awaited_once_with(
        content=presenters.DRAW_OFFER_CLOSED, view=None
    )
    interaction.followup.send.assert_awaited_once_with(
        "This draw offer is no longer open.", ephemeral=True
    )


async def test_a_stale_press_on_an_answered_post_leaves_its_answer() -> None:
    """A double click: the first press answered the offer and took the buttons off its post;
    the second, stale, is told so alone and the post keeps the first press's words."""
    bot = stand_in_bot()
    bot.service.answer_draw = AsyncMock(
        side_effect=StaleActionError("This draw offer is no longer open.")
    )
    interaction = acting(7)
    interaction.edit_original_response = AsyncMock()
    interaction.original_response = AsyncMock(return_value=MagicMock(components=[]))
    await PlayCog(bot).on_game_button(interaction, GameButtonId(5, GameAction.DRAW_ACCEPT, 3))
    interaction.edit_original_response.assert_not_awaited()
    interaction.followup.send.assert_awaited_once_with(
        "This draw offer is no longer open.", ephemeral=True
    )
