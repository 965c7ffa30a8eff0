"""Answering interactions and posting boards, with small spec'd stand-ins for discord objects."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from types import SimpleNamespace
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest
from discord import app_commands

from bot import presenters
from bot.client import GameroomTree
from bot.service import NotAPlayerError, NotYourTurnError
from bot.service.errors import ChallengeSetupError
from bot.ui.board import post_board
from bot.ui.replies import (
    allowed_users,
    answer_errors,
    answered_in_time,
    tolerate_another_session,
)
from engines import get_engine
from engines.base import UsageError

from .test_bot_presenters import snapshot


def fake_interaction(*, done: bool) -> Any:
    interaction = MagicMock(spec=discord.Interaction)
    interaction.response = MagicMock(spec=discord.InteractionResponse)
    interaction.response.is_done.return_value = done
    interaction.response.send_message = AsyncMock()
    interaction.followup = MagicMock(spec=discord.Webhook)
    interaction.followup.send = AsyncMock()
    interaction.command = None
    interaction.data = {"custom_id": "gr:c1:accept"}
    interaction.user = SimpleNamespace(id=7)
    interaction.channel_id, interaction.guild_id, interaction.id = 2, 1, 99
    interaction.created_at = discord.utils.utcnow()
    return interaction


def not_found() -> discord.NotFound:
    response = SimpleNamespace(status=404, reason="Not Found")
    return discord.NotFound(response, {"message": "Unknown Channel", "code": 10003})


async def test_a_service_error_is_answered_ephemerally_and_logged_with_its_game(
    caplog: pytest.LogCaptureFixture,
) -> None:
    interaction = fake_interaction(done=True)
    error = NotAPlayerError()
    error.game_id = 31
    with caplog.at_level(logging.INFO, logger="bot.ui.replies"):
        async with answer_errors(interaction):
            raise error
    interaction.followup.send.assert_awaited_once_with(
        "You are not playing in this game.", ephemeral=True
    )
    (record,) = caplog.records
    assert record.levelno == logging.INFO
    assert "game 31" in record.getMessage()
    assert "user 7" in record.getMessage()
    assert "You are not playing in this game." in record.getMessage()


async def test_a_refusal_longer_than_a_discord_message_still_arrives_cut() -> None:
    """A refusal that quotes a long input (a 6,000-character position) would be refused by
    Discord (2,000 a message) and the user left with "thinking…"; it is cut instead."""
    interaction = fake_interaction(done=True)
    async with answer_errors(interaction):
        raise ChallengeSetupError("that is not a position: " + "a" * 5000)
    (call,) = interaction.followup.send.await_args_list
    text = call.args[0]
    assert len(text) == presenters.MESSAGE_LIMIT
    assert text.startswith("that is not a position: aaa")
    assert text.endswith("…")


def test_engines_quote_at_most_a_short_piece_of_what_they_refuse() -> None:
    for game, text in (("generatorb", "a" * 6000), ("generator", "b" * 6000)):
        engine = get_engine(game)
        with pytest.raises(UsageError) as refused:
            engine.from_position(text, engine.resolve_options({}))
        assert len(str(refused.value)) < 300, str(refused.value)[:300]


async def test_a_bug_is_logged_and_the_user_gets_an_apology(
    caplog: pytest.LogCaptureFixture,
) -> None:
    interaction = fake_interaction(done=False)
    with caplog.at_level(logging.ERROR):
        async with answer_errors(interaction, game_id=12):
            raise KeyError("boom")
    interaction.response.send_message.assert_awaited_once_with(presenters.APOLOGY, ephemeral=True)
    (record,) = caplog.records
    assert "game 12" in record.getMessage()
    assert "gr:c1:accept" in record.getMessage()
    assert record.exc_info is not None


@pytest.mark.parametrize("shutting_down", [True, False])
async def test_a_command_gone_at_shutdown_is_no_bug(
    caplog: pytest.LogCaptureFixture, shutting_down: bool
) -> None:
    """discord.py's close removes the cogs' commands before the connection: an interaction
    in between finds none. Logged at INFO then, and at ERROR with an apology otherwise."""
    client = MagicMock()
    client._connection._command_tree = None  # a client without a tree yet
    client.shutting_down = shutting_down
    tree = GameroomTree(client)
    interaction = fake_interaction(done=False)
    with caplog.at_level(logging.INFO, logger="bot.client"):
        await tree.on_error(interaction, app_commands.CommandNotFound("move", []))
    (record,) = caplog.records
    if shutting_down:
        assert record.levelno == logging.INFO
        assert "shutting down" in record.getMessage()
        interaction.response.send_message.assert_not_awaited()
    else:
        assert record.levelno == logging.ERROR
        interaction.response.send_message.assert_awaited_once_with(
            presenters.APOLOGY, ephemeral=True
        )


def already_acknowledged() -> discord.HTTPException:
    response = SimpleNamespace(status=400, reason="Bad Request")
    return discord.HTTPException(
        response, {"message": "Interaction has already been acknowledged.", "code": 40060}
    )


async def test_a_handler_or_press_another_session_answered_first_is_one_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Inside a handler (``/move`` answers without deferring) and around a component's
    handler (its first ``defer`` fails): Discord's 40060 is one warning, no apology (it
    would be refused the same way), no traceback; other HTTP errors go on as before."""
    interaction = fake_interaction(done=False)
    with caplog.at_level(logging.INFO):
        async with answer_errors(interaction):
            raise already_acknowledged()
        async with tolerate_another_session(interaction):
            raise already_acknowledged()
    assert [r.levelno for r in caplog.records] == [logging.WARNING] * 2
    assert all("another process" in r.getMessage() for r in caplog.records)
    assert all(r.exc_info is None for r in caplog.records)
    interaction.response.send_message.assert_not_awaited()
    response = SimpleNamespace(status=500, reason="Server Error")
    with pytest.raises(discord.HTTPException):
        async with tolerate_another_session(interaction):
            raise discord.HTTPException(response, {"message": "oops", "code": 0})


async def test_an_interaction_another_session_answered_first_is_one_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Two processes on one shard (an overlapping restart) both handle each interaction;
    the later answer gets Discord's 40060. One warning naming the cause, no traceback, no
    apology (it would be refused the same way)."""
    client = MagicMock()
    client._connection._command_tree = None
    client.shutting_down = False
    tree = GameroomTree(client)
    interaction = fake_interaction(done=False)
    response = SimpleNamespace(status=400, reason="Bad Request")
    taken = discord.HTTPException(
        response, {"message": "Interaction has already been acknowledged.", "code": 40060}
    )
    command = MagicMock()
    with caplog.at_level(logging.INFO, logger="bot.client"):
        await tree.on_error(interaction, app_commands.CommandInvokeError(command, taken))
    (record,) = caplog.records
    assert record.levelno == logging.WARNING
    assert "another process" in record.getMessage()
    assert record.exc_info is None
    interaction.response.send_message.assert_not_awaited()


def test_allowed_users_pings_only_them() -> None:
    mentions = allowed_users([5, 6, 5])
    assert mentions.everyone is False
    assert mentions.roles is False
    assert isinstance(mentions.users, list)
    assert [u.id for u in mentions.users] == [5, 6]


async def test_a_board_that_cannot_be_posted_is_logged_and_the_move_stands(
    caplog: pytest.LogCaptureFixture,
) -> None:
    channel = MagicMock(spec=discord.PartialMessageable)
    channel.send = AsyncMock(side_effect=not_found())
    bot = MagicMock()
    bot.get_partial_messageable.return_value = channel
    bot.seat_labels = AsyncMock(return_value=("alice", "bob"))
    bot.service.render = AsyncMock(return_value=b"\x89PNG fake")
    bot.service.set_board_message = AsyncMock()
    with caplog.at_level(logging.WARNING):
        posted = await post_board(bot, snapshot(), "text", mention_ids=[11])
    assert posted is None
    channel.send.assert_awaited_once()
    assert isinstance(channel.send.await_args.kwargs["file"], discord.File)
    bot.service.set_board_message.assert_not_awaited()
    assert any("was not posted" in r.getMessage() for r in caplog.records)


async def test_a_posted_board_is_remembered() -> None:
    message = MagicMock(spec=discord.Message)
    message.id = 4242
    channel = MagicMock(spec=discord.PartialMessageable)
    channel.send = AsyncMock(return_value=message)
    bot = MagicMock()
    bot.get_partial_messageable.return_value = channel
    bot.seat_labels = AsyncMock(return_value=None)
    bot.service.render = AsyncMock(side_effect=RuntimeError("renderer broke"))
    bot.service.set_board_message = AsyncMock()
    # Drawing failed: the text still goes out, without a picture.
    shown = snapshot()
    assert await post_board(bot, shown, "text", mention_ids=[]) is message
    assert "file" not in channel.send.await_args.kwargs
    # With the version it shows, which calls off that version's board_post timer.
    bot.service.set_board_message.assert_awaited_once_with(5, 4242, shown.version)


# ---- answered_in_time: answer with the result, or defer while it takes long -----------------


async def test_quick_work_is_not_deferred() -> None:
    interaction = fake_interaction(done=False)
    interaction.response.defer = AsyncMock()
    assert (
        await answered_in_time(interaction, asyncio.sleep(0, result="board"), within=1) == "board"
    )
    interaction.response.defer.assert_not_awaited()


async def test_slow_work_is_deferred_privately_and_still_returns_its_result() -> None:
    interaction = fake_interaction(done=False)
    interaction.response.defer = AsyncMock()
    result = await answered_in_time(interaction, asyncio.sleep(0.05, result="board"), within=0.01)
    assert result == "board"
    interaction.response.defer.assert_awaited_once_with(ephemeral=True, thinking=True)


async def test_the_work_s_error_propagates_without_a_defer() -> None:
    interaction = fake_interaction(done=False)
    interaction.response.defer = AsyncMock()

    async def refused() -> None:
        raise NotYourTurnError((2,))

    with pytest.raises(NotYourTurnError):
        await answered_in_time(interaction, refused(), within=1)
    interaction.response.defer.assert_not_awaited()


async def test_an_expired_interaction_still_gets_the_work_done() -> None:
    interaction = fake_interaction(done=False)
    interaction.response.defer = AsyncMock(side_effect=not_found())
    result = await answered_in_time(interaction, asyncio.sleep(0.05, result="board"), within=0.01)
    assert result == "board"


async def test_an_interaction_that_arrived_late_is_deferred_sooner() -> None:
    interaction = fake_interaction(done=False)
    interaction.created_at = discord.utils.utcnow() - timedelta(seconds=2.45)
    interaction.response.defer = AsyncMock()
    result = await answered_in_time(interaction, asyncio.sleep(0.2, result="board"), within=1.5)
    assert result == "board"
    interaction.response.defer.assert_awaited_once_with(ephemeral=True, thinking=True)
