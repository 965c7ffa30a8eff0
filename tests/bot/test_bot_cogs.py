"""Cog handlers with a stand-in bot: every ending is announced with the board, pinging players."""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import pytest

from bot.cogs.challenges import ChallengesCog
from bot.cogs.game import GameCog
from bot.cogs.play import PlayCog
from bot.service import ChallengeClosedError, ChallengeInfo
from bot.ui.custom_ids import ChallengeAction, ChallengeButtonId, GameAction, GameButtonId
from engines.base import Outcome

from .test_bot_presenters import NORTH, SOUTH, T, snapshot
from .test_bot_replies import fake_interaction


def stand_in_bot() -> Any:
    bot = MagicMock()
    bot.service = MagicMock()
    return bot


@pytest.fixture
def posted_boards(monkeypatch: pytest.MonkeyPatch) -> AsyncMock:
    """Replaces ``post_board`` in the cogs; records what they would post."""
    post = AsyncMock(return_value=MagicMock())
    monkeypatch.setattr("bot.cogs.game.post_board", post)
    monkeypatch.setattr("bot.cogs.play.post_board", post)
    return post


async def test_an_abort_posts_the_final_board_and_pings_both_players(
    posted_boards: AsyncMock,
) -> None:
    bot = stand_in_bot()
    aborted = replace(snapshot(), status="aborted", to_move=())
    bot.service.abort = AsyncMock(return_value=aborted)
    interaction = fake_interaction(done=False)
    interaction.user.id = NORTH
    interaction.response.defer = AsyncMock()
    interaction.permissions.manage_messages = False
    # discord.py calls a cog's command callback with the cog first.
    abort: Any = GameCog.abort.callback
    await abort(GameCog(bot), interaction)
    bot.service.abort.assert_awaited_once_with(2, NORTH, moderator=False)
    posted_boards.assert_awaited_once()
    assert posted_boards.await_args is not None
    args, kwargs = posted_boards.await_args
    assert args[1] is aborted
    assert "aborted" in args[2]
    assert kwargs["mention_ids"] == (SOUTH, NORTH)
    interaction.followup.send.assert_awaited_once_with("Game aborted.", ephemeral=True)


async def test_an_accepted_draw_posts_the_final_board_and_pings_both_players(
    posted_boards: AsyncMock,
) -> None:
    bot = stand_in_bot()
    drawn = replace(snapshot(), status="finished", to_move=(), outcome=Outcome.draw("agreement", 2))
    bot.service.answer_draw = AsyncMock(return_value=drawn)
    interaction = fake_interaction(done=True)
    interaction.user.id = NORTH
    interaction.response.defer = AsyncMock()
    interaction.edit_original_response = AsyncMock()
    cog = PlayCog(bot)
    await cog.on_game_button(interaction, GameButtonId(5, GameAction.DRAW_ACCEPT, 3))
    bot.service.answer_draw.assert_awaited_once_with(5, NORTH, accept=True, version=3)
    interaction.edit_original_response.assert_awaited_once()
    posted_boards.assert_awaited_once()
    assert posted_boards.await_args is not None
    args, kwargs = posted_boards.await_args
    assert args[2] == "Drawn by agreement. The game between <@11> and <@22> is drawn."
    assert kwargs["mention_ids"] == (SOUTH, NORTH)


async def test_a_press_on_a_challenge_past_its_expiry_says_it_expired() -> None:
    """The expiry loop has not marked it yet: the post and the presser both hear "expired"."""
    bot = stand_in_bot()
    still_open = ChallengeInfo(
        challenge_id=8,
        guild_id=1,
        channel_id=2,
        message_id=77,
        challenger_id=SOUTH,
        opponent_id=NORTH,
        game="generatorb",
        game_name="Generatorb",
        options={},
        options_text="",
        status="open",
        game_id=None,
        created_at=T,
        expires_at=T,
    )
    bot.service.accept_challenge = AsyncMock(side_effect=ChallengeClosedError("expired"))
    bot.service.get_challenge = AsyncMock(return_value=still_open)
    interaction = fake_interaction(done=True)
    interaction.user.id = NORTH
    interaction.response.defer = AsyncMock()
    interaction.edit_original_response = AsyncMock()
    cog = ChallengesCog(bot)
    await cog.on_challenge_button(interaction, ChallengeButtonId(8, ChallengeAction.ACCEPT))
    interaction.edit_original_response.assert_awaited_once_with(
        content="<@11> challenged <@22> to **Generatorb**: nobody answered in time, "
        "so the challenge expired.",
        view=None,
    )
    interaction.followup.send.assert_awaited_once_with(
        "This challenge has expired.", ephemeral=True
    )
