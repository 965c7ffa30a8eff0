"""A bot's decisions of one turn gathered into one post (:mod:`bot.ui.decisions`), with a
stand-in bot and messages, no Discord: when a decision is added by an edit, and every case
in which it is posted apart instead."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from bot import presenters
from bot.cogs.game import GameCog
from bot.service.bot_seats import bot_user_id
from bot.service.models import Player, TurnResult
from bot.ui import decisions
from bot.ui.board import post_turn

from .test_bot_cogs import stand_in_bot
from .test_bot_presenters import NORTH, snapshot, turn

BOT = bot_user_id(2)
PLAYERS = (Player(0, BOT, "South"), Player(1, NORTH, "North"))


def decision(version: int, move: str, **changes: Any) -> TurnResult:
    """The bot's (South's) decision that left the game at ``version``, South to decide
    again (``turn_goes_on``)."""
    after = snapshot(players=PLAYERS, to_move=(0,), version=version)
    base = turn(snapshot=after, user_id=BOT, move=move, events=(), turn_goes_on=True)
    return replace(base, **changes)


class Channel:
    """A channel whose latest message is ``latest``; ``refuse``: Discord refuses the read;
    ``reads`` counts them."""

    def __init__(self) -> None:
        self.id = 2
        self.latest: Any = None
        self.refuse = False
        self.reads = 0

    async def _history(self) -> AsyncIterator[Any]:
        self.reads += 1
        if self.refuse:
            raise discord.Forbidden(MagicMock(status=403), "Missing Access")
        if self.latest is not None:
            yield self.latest

    def history(self, *, limit: int) -> AsyncIterator[Any]:
        assert limit == 1
        return self._history()


@pytest.fixture
def channel(monkeypatch: pytest.MonkeyPatch) -> Channel:
    """The channel of the game (id 2); no channel is remembered as unreadable yet."""
    monkeypatch.setattr(decisions, "_unreadable", {})
    return Channel()


@pytest.fixture
def public(monkeypatch: pytest.MonkeyPatch, channel: Channel) -> AsyncMock:
    """``post_public`` behind ``post_turn``: each post is a new message, the channel's
    latest, whose ``edit`` is recorded."""
    count = iter(range(100, 200))

    async def post(*_: Any, **__: Any) -> Any:
        message = MagicMock()
        message.id = next(count)
        message.channel = channel
        message.edit = AsyncMock()
        message.delete = AsyncMock()
        channel.latest = message
        return message

    mock = AsyncMock(side_effect=post)
    monkeypatch.setattr("bot.ui.board.post_public", mock)
    monkeypatch.setattr("bot.ui.board.render_file", AsyncMock(return_value=None))
    monkeypatch.setattr("bot.ui.board._watchers", AsyncMock(return_value=()))
    return mock


async def test_the_bots_next_decision_is_added_to_its_post(public: AsyncMock) -> None:
    bot = stand_in_bot()
    first, second, third = decision(4, "move A1 L3"), decision(5, "hold A2"), decision(6, "end")
    message = await post_turn(bot, first)
    assert await post_turn(bot, second) is message
    assert await post_turn(bot, third) is message
    public.assert_awaited_once()
    assert message is not None
    edited = message.edit.await_args_list  # type: ignore[attr-defined]
    assert [call.kwargs["content"] for call in edited] == [
        presenters.decision_text(second, [first]),
        presenters.decision_text(third, [first, second]),
    ]
    assert edited[-1].kwargs["content"] == (
        "**Gameroom (level 2)** (South) played `move A1 L3`.\n"
        "Then played `hold A2`.\nThen played `end`. South decides again."
    )
    assert edited[-1].kwargs["allowed_mentions"].users is False  # nobody pinged


async def test_the_turns_board_takes_the_posts_lines_and_replaces_it(public: AsyncMock) -> None:
    bot = stand_in_bot()
    first, second = decision(4, "move A1 L3"), decision(5, "hold A2")
    message = await post_turn(bot, first)
    await post_turn(bot, second)
    ended = decision(6, "end", turn_goes_on=False)
    board = await post_turn(bot, ended)  # its board
    assert board is not message
    assert public.await_args is not None
    assert public.await_args.args[3] == presenters.turn_text(ended, [first, second])
    assert public.await_args.args[3].startswith(
        "**Gameroom (level 2)** (South) played `move A1 L3`.\n"
        "Then played `hold A2`.\nThen played `end`.\n"
    )
    assert message is not None
    message.delete.assert_awaited_once()  # type: ignore[attr-defined]
    assert bot.decision_posts == {}
    await post_turn(bot, decision(7, "move A1 L4"))  # its next turn: a post of its own
    assert public.await_count == 3


async def test_a_board_after_a_message_in_between_leaves_the_post(
    public: AsyncMock, channel: Channel
) -> None:
    bot = stand_in_bot()
    message = await post_turn(bot, decision(4, "move A1 L3"))
    channel.latest = MagicMock(id=1)  # a person wrote since
    ended = decision(5, "end", turn_goes_on=False)
    await post_turn(bot, ended)
    assert public.await_args is not None
    assert public.await_args.args[3] == presenters.turn_text(ended)
    assert message is not None
    message.delete.assert_not_awaited()  # type: ignore[attr-defined]
    assert bot.decision_posts == {}


async def test_a_failed_delete_leaves_the_lines_told_twice(
    public: AsyncMock, caplog: pytest.LogCaptureFixture
) -> None:
    bot = stand_in_bot()
    message = await post_turn(bot, decision(4, "move A1 L3"))
    assert message is not None
    message.delete.side_effect = discord.Forbidden(  # type: ignore[attr-defined]
        MagicMock(status=403), "Missing Access"
    )
    ended = decision(5, "end", turn_goes_on=False)
    assert await post_turn(bot, ended) is not None
    assert "whose lines the board repeats" in caplog.text


@pytest.mark.parametrize(
    "why",
    ["a person", "an interaction", "told privately", "another change", "another seat", "long"],
)
async def test_a_decision_is_posted_apart(public: AsyncMock, why: str) -> None:
    bot = stand_in_bot()
    first = decision(4, "move A1 L3")
    await post_turn(bot, first)
    interaction = None
    if why == "a person":
        second = decision(5, "hold A2", user_id=NORTH)
    elif why == "an interaction":
        second, interaction = decision(5, "hold A2"), MagicMock()
    elif why == "told privately":
        second = decision(5, "hold A2", told_privately=(NORTH,))
    elif why == "another change":  # a draw offer in between, say
        second = decision(6, "hold A2")
    elif why == "another seat":
        second = decision(5, "hold A2", seat=1)
    else:
        second = decision(5, "x" * presenters.MESSAGE_LIMIT)
    await post_turn(bot, second, interaction=interaction)
    assert public.await_count == 2
    assert public.await_args is not None
    assert public.await_args.args[3] == presenters.decision_text(second)
    assert public.await_args.args[1] is interaction


async def test_a_message_in_between_or_a_failed_edit_posts_apart(
    public: AsyncMock, channel: Channel
) -> None:
    bot = stand_in_bot()
    await post_turn(bot, decision(4, "move A1 L3"))
    channel.latest = MagicMock(id=1)  # a person wrote since
    await post_turn(bot, decision(5, "hold A2"))
    assert public.await_count == 2
    channel.refuse = True  # no Read Message History
    await post_turn(bot, decision(6, "rest A2"))
    assert public.await_count == 3
    channel.refuse = False
    decisions._unreadable.clear()  # an hour later: asked again
    assert channel.latest is not None
    channel.latest.edit.side_effect = discord.NotFound(MagicMock(status=404), "Unknown Message")
    await post_turn(bot, decision(7, "end"))
    assert public.await_count == 4
    # The decision after a failed edit joins the post that told it.
    fourth = channel.latest
    assert await post_turn(bot, decision(8, "move A2 L4")) is fourth


async def test_another_game_in_the_channel_or_two_long_lines_are_posted_apart(
    public: AsyncMock,
) -> None:
    bot = stand_in_bot()
    await post_turn(bot, decision(4, "move A1 L3"))
    other = decision(5, "hold A2")
    other = replace(other, snapshot=replace(other.snapshot, game_id=6))
    await post_turn(bot, other)
    assert public.await_count == 2
    # Each line fits in a message, the two together do not.
    long = "a" * (presenters.MESSAGE_LIMIT // 2)
    first = replace(decision(6, long), snapshot=other.snapshot)
    first = replace(first, snapshot=replace(first.snapshot, version=10))  # a post of its own
    await post_turn(bot, first)
    second = replace(first, move=long + "b", snapshot=replace(first.snapshot, version=11))
    assert len(presenters.decision_text(second)) <= presenters.MESSAGE_LIMIT
    assert len(presenters.decision_text(second, [first])) > presenters.MESSAGE_LIMIT
    await post_turn(bot, second)
    assert public.await_count == 4


@pytest.mark.parametrize("error", [OSError("reset"), TimeoutError()])
@pytest.mark.parametrize("where", ["history", "edit"])
async def test_a_network_error_posts_the_line_apart(
    public: AsyncMock,
    channel: Channel,
    monkeypatch: pytest.MonkeyPatch,
    error: Exception,
    where: str,
) -> None:
    """Not an HTTPException (discord.py lets a connection reset or a time-out through): the
    decision is committed, so its line is posted apart rather than lost."""
    bot = stand_in_bot()
    message = await post_turn(bot, decision(4, "move A1 L3"))
    assert message is not None
    if where == "history":

        def broken(*, limit: int) -> Any:
            raise error

        monkeypatch.setattr(channel, "history", broken)
    else:
        message.edit.side_effect = error  # type: ignore[attr-defined]
    second = decision(5, "hold A2")
    assert await post_turn(bot, second) is not message
    assert public.await_count == 2
    assert public.await_args is not None
    assert public.await_args.args[3] == presenters.decision_text(second)


async def test_a_missing_permission_is_one_line_in_the_log(
    public: AsyncMock, channel: Channel, caplog: pytest.LogCaptureFixture
) -> None:
    bot = stand_in_bot()
    await post_turn(bot, decision(4, "move A1 L3"))
    channel.refuse = True
    caplog.set_level("INFO")
    await post_turn(bot, decision(5, "hold A2"))
    refused = [r for r in caplog.records if "not readable" in r.getMessage()]
    assert len(refused) == 1
    assert refused[0].levelname == "INFO"
    assert refused[0].exc_info is None
    # Not asked again for a while: a refused request counts against Discord's limits.
    reads = channel.reads
    await post_turn(bot, decision(6, "rest A2"))
    await post_turn(bot, decision(7, "end", turn_goes_on=False))
    assert channel.reads == reads
    assert public.await_count == 4


async def test_a_deleted_channel_forgets_its_decisions_post(public: AsyncMock) -> None:
    bot = stand_in_bot()
    await post_turn(bot, decision(4, "move A1 L3"))
    assert list(bot.decision_posts) == [2]
    bot.service.abort_in_deleted_channel = AsyncMock(return_value=[])
    bot.service.cancel_in_deleted_channel = AsyncMock(return_value=[])
    await GameCog(bot)._channel_gone(1, 2)
    assert bot.decision_posts == {}


@pytest.mark.parametrize("why", ["another change", "too long", "written while drawn"])
async def test_a_board_that_may_not_take_the_lines_leaves_the_post(
    public: AsyncMock, channel: Channel, monkeypatch: pytest.MonkeyPatch, why: str
) -> None:
    bot = stand_in_bot()
    first = decision(4, "x" * (presenters.MESSAGE_LIMIT // 2))
    message = await post_turn(bot, first)
    assert message is not None
    version = 6 if why == "another change" else 5
    move = "y" * (presenters.MESSAGE_LIMIT // 2) if why == "too long" else "end"
    ended = decision(version, move, turn_goes_on=False)
    if why == "too long":
        assert len(presenters.turn_text(ended)) <= presenters.MESSAGE_LIMIT
        assert len(presenters.turn_text(ended, [first])) > presenters.MESSAGE_LIMIT
    if why == "written while drawn":  # a person wrote while the board was drawn

        async def draw(*_: Any, **__: Any) -> None:
            channel.latest = MagicMock(id=1)

        monkeypatch.setattr("bot.ui.board.render_file", AsyncMock(side_effect=draw))
    await post_turn(bot, ended)
    assert public.await_args is not None
    assert public.await_args.args[3] == presenters.turn_text(ended)
    message.delete.assert_not_awaited()  # type: ignore[attr-defined]


async def test_a_refused_board_leaves_the_post_and_a_failed_delete_is_logged(
    public: AsyncMock, caplog: pytest.LogCaptureFixture
) -> None:
    bot = stand_in_bot()
    message = await post_turn(bot, decision(4, "move A1 L3"))
    assert message is not None
    posting = public.side_effect
    public.side_effect = None
    public.return_value = None  # Discord refuses the board
    await post_turn(bot, decision(5, "end", turn_goes_on=False))
    message.delete.assert_not_awaited()  # type: ignore[attr-defined]
    public.side_effect = posting
    again = await post_turn(bot, decision(6, "move A1 L4"))
    assert again is not None
    again.delete.side_effect = OSError("reset")  # type: ignore[attr-defined]
    assert await post_turn(bot, decision(7, "end", turn_goes_on=False)) is not None
    again.delete.assert_awaited_once()  # type: ignore[attr-defined]
    assert "whose lines the board repeats" in caplog.text


async def test_a_deleted_channel_forgets_the_posts_of_its_threads_games(
    public: AsyncMock,
) -> None:
    bot = stand_in_bot()
    await post_turn(bot, decision(4, "move A1 L3"))
    in_thread = MagicMock(channel_id=2, user_ids=())
    bot.service.abort_in_deleted_channel = AsyncMock(return_value=[in_thread])
    bot.service.cancel_in_deleted_channel = AsyncMock(return_value=[])
    await GameCog(bot)._channel_gone(1, 77)  # the thread's parent channel
    assert bot.decision_posts == {}
