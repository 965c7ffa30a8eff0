"""Cog handlers with a stand-in bot: every ending is announced with the board, pinging players."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from types import SimpleNamespace
from typing import Any
from unittest.mock import AsyncMock, MagicMock, patch

import discord
import pytest

from bot import presenters
from bot.cogs import bots as bots_cog
from bot.cogs.challenges import ChallengesCog
from bot.cogs.clocks import ClocksCog
from bot.cogs.game import GameCog
from bot.cogs.play import PlayCog
from bot.cogs.social import SocialCog
from bot.service import (
    ChallengeClosedError,
    ChallengeInfo,
    ChallengePlayer,
    ChannelBusyError,
    LobbyUpdate,
    NoGameHereError,
    NotAPlayerError,
    Player,
    ServiceError,
    TooManySeatsError,
)
from bot.service.bot_seats import bot_user_id
from bot.service.locks import KeyedLock
from bot.service.models import (
    ClockEvent,
    ClockEventKind,
    DrawOffer,
    TakebackAnswer,
    TakebackRequest,
)
from bot.ui.custom_ids import ChallengeAction, ChallengeButtonId, GameAction, GameButtonId
from db.rows import GuildSettingsRow, TimerRow
from db.schema import TimerStatus
from engines import ENGINES
from engines.base import Outcome

from .fakes import memory_offer_posts
from .test_bot_presenters import NORTH, SOUTH, T, snapshot
from .test_bot_replies import fake_interaction


def stand_in_bot() -> Any:
    bot = MagicMock()
    bot.service = MagicMock()
    bot.draw_offers, _, bot.offer_client = memory_offer_posts()
    bot.takebacks, _, _ = memory_offer_posts(
        bot.offer_client,
        closed_text=presenters.TAKEBACK_REQUEST_CLOSED,
        what="takeback request",
    )
    bot.claim_notices, _, _ = memory_offer_posts(
        bot.offer_client, closed_text=presenters.CLAIM_LAPSED, what="claim notice"
    )
    bot.turn_order = KeyedLock()
    bot.decision_posts = {}
    # Every guild has the default settings (threads when the channel is busy).
    bot.service.database.settings.guild = AsyncMock(return_value=GuildSettingsRow(1))
    # Pictures shown to one player are drawn the fixed way unless a test says otherwise.
    bot.service.perspective_of = AsyncMock(return_value=None)
    return bot


@pytest.fixture
def posted_boards(monkeypatch: pytest.MonkeyPatch) -> AsyncMock:
    """Replaces ``post_board`` in the cogs; records what they would post."""
    post = AsyncMock(return_value=MagicMock())
    monkeypatch.setattr("bot.cogs.game.post_board", post)
    monkeypatch.setattr("bot.cogs.play.post_board", post)
    monkeypatch.setattr("bot.ui.board.post_board", post)  # a move posts through post_turn
    monkeypatch.setattr("bot.cogs.challenges.post_board", post)
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
    assert args[2] == "The game between <@11> and <@22> is drawn by agreement."
    assert kwargs["mention_ids"] == (SOUTH, NORTH)


THREE = (Player(0, SOUTH, "Green"), Player(1, NORTH, "Red"), Player(2, 33, "Yellow"))


def accepted_by_red(**changes: object) -> Any:
    """Green (11) offered a draw in a three-player game; Red (22) has just accepted it and
    Yellow (33) is still to answer."""
    base = snapshot(players=THREE, draw_offer_seat=0, draw_agreed=(0, 1), draw_waiting=(2,))
    return replace(base, **changes)  # type: ignore[arg-type]


#: What Red's acceptance shows on the post (Yellow still to answer).
SHOWN = presenters.draw_progress_text(accepted_by_red())
#: The words of Yellow's closing acceptance, taken by another process.
CLOSED_BY_YELLOW = "<@33> accepted the draw offer: the game is drawn."


async def press_accept_in_three(
    now: Any, *, post_text: str = SHOWN, buttons_left: bool = False
) -> tuple[Any, list[Any]]:
    """Red presses Accept; the service then reads the offer as ``now`` (what another
    process may have done meanwhile), and the post as ``post_text`` with or without buttons
    (whichever edit landed last). Returns the interaction and each edit of the post as
    ``(content, buttons kept)``."""
    bot = stand_in_bot()
    bot.service.answer_draw = AsyncMock(return_value=accepted_by_red())
    bot.service.draw_offer_now = AsyncMock(return_value=now)
    interaction = fake_interaction(done=True)
    interaction.user.id = NORTH
    interaction.response.defer = AsyncMock()
    edits: list[Any] = []

    async def edit_original_response(**kwargs: Any) -> None:
        edits.append((kwargs["content"], "view" not in kwargs))

    interaction.edit_original_response = edit_original_response
    interaction.original_response = AsyncMock(
        return_value=MagicMock(content=post_text, components=[MagicMock()] if buttons_left else [])
    )
    await PlayCog(bot).on_game_button(interaction, GameButtonId(5, GameAction.DRAW_ACCEPT, 3))
    bot.service.draw_offer_now.assert_awaited_with(5, 3)
    return interaction, edits


async def test_an_acceptance_shown_while_nothing_changed_is_edited_once() -> None:
    _, edits = await press_accept_in_three(accepted_by_red(), buttons_left=True)
    assert edits == [(SHOWN, True)]


def drawn_by_yellow() -> Any:
    return accepted_by_red(
        status="finished", to_move=(), outcome=Outcome.draw("agreement", 3), draw_waiting=()
    )


@pytest.mark.parametrize("buttons_left", [False, True])
async def test_a_progress_edit_landing_after_the_final_answer_is_put_right(
    posted_boards: AsyncMock, buttons_left: bool
) -> None:
    """Yellow accepted in another process, whose edit ("… the game is drawn", no buttons)
    landed before this one's "still to answer: Yellow", which changed the text only: the
    post shows our stale text without buttons, so it is settled. (With buttons left: the
    closing edit has not landed yet, or failed.)"""
    _, edits = await press_accept_in_three(drawn_by_yellow(), buttons_left=buttons_left)
    assert edits == [
        (SHOWN, True),
        ("Every player still in accepted the draw offer: the game is drawn.", False),
    ]
    posted_boards.assert_not_awaited()  # the process that drew the game posts the board


async def test_another_processs_stale_progress_is_settled_too() -> None:
    """A four-player offer: Yellow's acceptance (another process, killed before its own
    check) left "still to answer" on the post after Blue's closing answer; it is no text of
    ours, but an open offer's, so it is settled."""
    theirs = presenters.draw_progress_text(accepted_by_red(draw_agreed=(0, 1, 2)))
    assert theirs != SHOWN
    _, edits = await press_accept_in_three(drawn_by_yellow(), post_text=theirs)
    assert edits[-1] == ("Every player still in accepted the draw offer: the game is drawn.", False)


async def test_a_final_answer_landing_after_the_progress_edit_is_left_alone() -> None:
    _, edits = await press_accept_in_three(drawn_by_yellow(), post_text=CLOSED_BY_YELLOW)
    assert edits == [(SHOWN, True)]


async def test_a_decline_or_a_move_elsewhere_settles_a_stale_progress_post() -> None:
    goes_on = accepted_by_red(version=4, draw_offer_seat=None, draw_agreed=(), draw_waiting=())
    _, edits = await press_accept_in_three(goes_on)
    assert edits == [(SHOWN, True), (presenters.DRAW_OFFER_CLOSED, False)]


async def test_a_later_acceptance_elsewhere_is_shown_instead_of_an_older_one() -> None:
    """Four players: Red's edit landed after Yellow's (made in another process), so the post
    shows Yellow's acceptance again."""
    four = (*THREE, Player(3, 44, "Blue"))
    shown = accepted_by_red(players=four, draw_waiting=(2, 3))
    later = accepted_by_red(players=four, draw_agreed=(0, 1, 2), draw_waiting=(3,))
    bot = stand_in_bot()
    bot.service.answer_draw = AsyncMock(return_value=shown)
    bot.service.draw_offer_now = AsyncMock(return_value=later)
    interaction = fake_interaction(done=True)
    interaction.user.id = NORTH
    interaction.response.defer = AsyncMock()
    interaction.edit_original_response = AsyncMock()
    await PlayCog(bot).on_game_button(interaction, GameButtonId(5, GameAction.DRAW_ACCEPT, 3))
    contents = [c.kwargs["content"] for c in interaction.edit_original_response.await_args_list]
    assert contents == [
        presenters.draw_progress_text(shown),
        presenters.draw_progress_text(later),
    ]
    assert "Accepted by <@22> and <@33>; still to answer: <@44>" in contents[-1]
    assert bot.service.draw_offer_now.await_count == 2  # and the second read agreed


async def test_the_bots_progress_edit_is_checked_the_same_way(posted_boards: AsyncMock) -> None:
    """/draw in a three-player game with a bot: the bot accepts, Yellow is to answer; Yellow
    answered in another process before the bot's edit landed, so the post is settled."""
    bot = stand_in_bot()
    three = (THREE[0], Player(1, bot_user_id(2), "Red"), THREE[2])
    shown = accepted_by_red(players=three)
    drawn = replace(
        shown, status="finished", to_move=(), outcome=Outcome.draw("agreement", 3), draw_waiting=()
    )
    bot.service.bots.answer_draw = AsyncMock(return_value=(shown, bot_user_id(2)))
    bot.service.draw_offer_now = AsyncMock(return_value=drawn)
    post = MagicMock()
    post.edit = AsyncMock()
    # Yellow's answer (another process) removed the buttons; the bot's edit then put its
    # text back.
    stale = MagicMock(content=presenters.draw_progress_text(shown), components=[])
    post.fetch = AsyncMock(return_value=stale)
    offer = DrawOffer(5, 3, 0, SOUTH, (bot_user_id(2), 33))
    await PlayCog(bot)._bot_answers(offer, post)
    assert [c.kwargs for c in post.edit.await_args_list] == [
        {"content": presenters.draw_progress_text(shown)},
        {
            "content": "Every player still in accepted the draw offer: the game is drawn.",
            "view": None,
        },
    ]
    posted_boards.assert_not_awaited()


async def test_a_starting_process_lets_the_bots_answer_an_offer_left_open() -> None:
    """A process stopped between a /draw to the bot and the bot's answer: the next one,
    once ready, has the bot answer on the offer's stored post (under its channel's turn
    order); an offer whose post is not stored is left to a move or its Decline."""
    bot = stand_in_bot()
    waiting = DrawOffer(5, 3, 0, SOUTH, (bot_user_id(2),))
    unposted = DrawOffer(6, 9, 0, SOUTH, (bot_user_id(2),))
    bot.service.offers_awaiting_bots = AsyncMock(return_value=[waiting, unposted])
    post = bot.offer_client.post(100, 1)
    await bot.draw_offers.remember(5, post)
    declined = snapshot(draw_waiting=())
    bot.service.bots.answer_draw = AsyncMock(return_value=(declined, bot_user_id(2)))
    await PlayCog(bot).on_ready()
    bot.service.bots.answer_draw.assert_awaited_once_with(waiting)
    text = presenters.draw_answer_text(accepted=False, by_user_id=bot_user_id(2))
    post.edit.assert_awaited_once_with(content=text, view=None)


async def test_a_late_first_board_of_a_game_never_settled_settles_it_first(
    posted_boards: AsyncMock,
) -> None:
    """The process that started a game at a chance node (Arbos' setup, an opening roll)
    stopped before settling it: the version-1 board_post timer plays the opening chance
    steps first, then posts that board, pinging the players, not "seat -1"."""
    bot = stand_in_bot()
    waiting = snapshot(to_move=(-1,), version=1, ply=0, last_moves=())
    settled = snapshot(to_move=(0,), version=2, ply=1, last_moves=())
    bot.service.game_snapshot = AsyncMock(return_value=waiting)
    bot.service.settle_start = AsyncMock(return_value=settled)
    timer = TimerRow(
        1,
        "board_post",
        5,
        None,
        T,
        '{"version":1}',
        TimerStatus.PENDING,
        1,
        None,
        None,
        None,
        None,
        T,
        T,
    )
    await PlayCog(bot).on_board_post(timer)
    bot.service.settle_start.assert_awaited_once_with(5)
    assert posted_boards.await_args is not None
    shown, text = posted_boards.await_args.args[1:3]
    assert shown is settled
    assert text.startswith("The first board could not be posted at the time.")
    assert set(posted_boards.await_args.kwargs["mention_ids"]) == set(settled.user_ids)


async def test_the_typing_indicator_is_sent_again_until_the_bot_has_moved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One typing request shows for about 10 s: a bot turn that waits for a busy search
    worker sends it again, until the search is done; a failure only ends the indicator."""
    monkeypatch.setattr(bots_cog, "TYPING_EVERY_S", 0.01)
    bot = stand_in_bot()
    channel = MagicMock()
    channel.typing = AsyncMock()
    bot.get_partial_messageable = MagicMock(return_value=channel)
    turn = MagicMock(game_id=5, channel_id=2)
    showing = asyncio.create_task(bots_cog.BotsCog(bot)._show_thinking(turn))
    await asyncio.sleep(0.1)
    assert channel.typing.await_count >= 3
    showing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await showing
    channel.typing = AsyncMock(side_effect=OSError("connection reset"))
    await bots_cog.BotsCog(bot)._show_thinking(turn)  # returns: no task exception left over
    channel.typing.assert_awaited_once()


async def test_a_failed_check_leaves_the_progress_edit_and_the_answer_alone(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot = stand_in_bot()
    bot.service.answer_draw = AsyncMock(return_value=accepted_by_red())
    bot.service.draw_offer_now = AsyncMock(side_effect=RuntimeError("database gone"))
    interaction = fake_interaction(done=True)
    interaction.user.id = NORTH
    interaction.response.defer = AsyncMock()
    interaction.edit_original_response = AsyncMock()
    await PlayCog(bot).on_game_button(interaction, GameButtonId(5, GameAction.DRAW_ACCEPT, 3))
    interaction.edit_original_response.assert_awaited_once()
    interaction.followup.send.assert_not_awaited()  # no apology: the acceptance stands
    assert "could not check the draw offer's post" in caplog.text


def lobby_info(**changes: object) -> ChallengeInfo:
    """Generator for three by ANN: BOB invited, one seat open."""
    base = ChallengeInfo(
        challenge_id=8,
        guild_id=1,
        channel_id=2,
        message_id=77,
        challenger_id=ANN,
        game="generator",
        game_name="Generator",
        players=3,
        min_players=2,
        lobby=(
            ChallengePlayer(ANN, "challenger", "seated"),
            ChallengePlayer(BOB, "invited", "invited"),
        ),
        options={},
        options_text="",
        status="open",
        game_id=None,
        created_at=T,
        expires_at=T,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


ANN, BOB, CAT = 1, 2, 3


def pressing(user_id: int) -> Any:
    """A component interaction by ``user_id`` that the cog may defer and edit."""
    interaction = fake_interaction(done=True)
    interaction.user.id = user_id
    interaction.user.display_name = f"user{user_id}"
    interaction.response.defer = AsyncMock()
    interaction.edit_original_response = AsyncMock()
    return interaction


def button_labels(view: Any) -> list[str | None]:
    """The labels of a view's buttons (not its menus: an open lobby has "Add a bot…"); None
    for a button without one."""
    return [item.item.label for item in view.children if isinstance(item.item, discord.ui.Button)]


async def test_a_press_on_a_challenge_past_its_expiry_says_it_expired() -> None:
    """The expiry loop has not marked it yet: the post and the presser both hear "expired"."""
    bot = stand_in_bot()
    still_open = lobby_info(
        challenger_id=SOUTH,
        game="generatorb",
        game_name="Generatorb",
        players=2,
        lobby=(
            ChallengePlayer(SOUTH, "challenger", "seated"),
            ChallengePlayer(NORTH, "invited", "invited"),
        ),
    )
    bot.service.accept_challenge = AsyncMock(side_effect=ChallengeClosedError("expired"))
    bot.service.get_challenge = AsyncMock(return_value=still_open)
    interaction = pressing(NORTH)
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


@pytest.mark.parametrize(
    ("action", "method"),
    [
        (ChallengeAction.ACCEPT, "accept_challenge"),
        (ChallengeAction.JOIN, "join_challenge"),
        (ChallengeAction.START, "start_challenge"),
        (ChallengeAction.DECLINE, "decline_challenge"),
        (ChallengeAction.LEAVE, "leave_challenge"),
    ],
)
async def test_a_lobby_press_edits_the_post_with_the_buttons_that_fit_now(
    posted_boards: AsyncMock, action: ChallengeAction, method: str
) -> None:
    bot = stand_in_bot()
    after = lobby_info(
        lobby=(
            ChallengePlayer(ANN, "challenger", "seated"),
            ChallengePlayer(BOB, "invited", "invited"),
            ChallengePlayer(CAT, "joined", "seated"),
        )
    )
    setattr(bot.service, method, AsyncMock(return_value=LobbyUpdate(after)))
    interaction = pressing(CAT)
    await ChallengesCog(bot).on_challenge_button(interaction, ChallengeButtonId(8, action))
    getattr(bot.service, method).assert_awaited_once()
    assert getattr(bot.service, method).await_args.args == (8, CAT)
    interaction.edit_original_response.assert_awaited_once()
    edited = interaction.edit_original_response.await_args.kwargs
    assert edited["content"] == presenters.challenge_text(after)
    assert button_labels(edited["view"]) == ["Accept", "Decline", "Leave", "Start", "Cancel"]
    posted_boards.assert_not_awaited()
    interaction.followup.send.assert_not_awaited()  # nothing to say privately


async def test_the_press_that_fills_the_last_seat_announces_the_game_to_every_player(
    posted_boards: AsyncMock,
) -> None:
    bot = stand_in_bot()
    game = snapshot(
        game="generator",
        game_name="Generator",
        ply=0,
        to_move=(0,),
        last_moves=(),
        players=(Player(0, CAT, "Green"), Player(1, ANN, "Red"), Player(2, BOB, "Yellow")),
    )
    started = lobby_info(status="accepted", game_id=game.game_id)
    bot.service.accept_challenge = AsyncMock(return_value=LobbyUpdate(started, game))
    interaction = pressing(BOB)
    await ChallengesCog(bot).on_challenge_button(
        interaction, ChallengeButtonId(8, ChallengeAction.ACCEPT)
    )
    interaction.edit_original_response.assert_awaited_once_with(
        content=presenters.challenge_closed_text(started, game=game), view=None
    )
    posted_boards.assert_awaited_once()
    assert posted_boards.await_args is not None
    args, kwargs = posted_boards.await_args
    assert args[1] is game
    assert args[2].startswith("**Generator** begins: <@3> plays 🟢 Green, <@1> plays 🔴 Red")
    assert kwargs["mention_ids"] == (CAT, ANN, BOB)


async def test_a_busy_channel_starts_the_game_in_a_thread_named_after_the_players(
    posted_boards: AsyncMock,
) -> None:
    bot = stand_in_bot()
    bot.display_name = AsyncMock(side_effect=lambda user_id: f"user{user_id}")
    game = snapshot(channel_id=555)
    seated = lobby_info(
        lobby=(
            ChallengePlayer(ANN, "challenger", "seated"),
            ChallengePlayer(BOB, "invited", "invited"),
            ChallengePlayer(CAT, "joined", "seated"),
        )
    )
    bot.service.get_challenge = AsyncMock(return_value=seated)
    bot.service.accept_challenge = AsyncMock(
        side_effect=[ChannelBusyError(), LobbyUpdate(replace(seated, status="accepted"), game)]
    )
    interaction = pressing(BOB)
    interaction.channel = MagicMock(type=discord.ChannelType.text)
    thread = MagicMock(spec=discord.Thread)
    thread.id = 555
    interaction.message.create_thread = AsyncMock(return_value=thread)
    await ChallengesCog(bot).on_challenge_button(
        interaction, ChallengeButtonId(8, ChallengeAction.ACCEPT)
    )
    interaction.message.create_thread.assert_awaited_once()
    assert interaction.message.create_thread.await_args is not None
    assert interaction.message.create_thread.await_args.kwargs["name"] == (
        "Generator: user1 vs user3 vs user2"
    )
    assert bot.service.accept_challenge.await_args_list[-1].kwargs == {
        "channel_id": 555,
        "parent_channel_id": 2,
    }
    thread.delete.assert_not_called()
    posted_boards.assert_awaited_once()


async def test_challenge_invites_up_to_three_and_pings_only_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bot = stand_in_bot()
    info = lobby_info(
        players=4,
        lobby=(
            ChallengePlayer(ANN, "challenger", "seated"),
            ChallengePlayer(BOB, "invited", "invited"),
            ChallengePlayer(CAT, "invited", "invited"),
        ),
    )
    bot.service.create_challenge = AsyncMock(return_value=info)
    bot.service.set_challenge_message = AsyncMock()
    post = AsyncMock(return_value=MagicMock(id=99))
    monkeypatch.setattr("bot.cogs.challenges.post_in_channel", post)
    interaction = fake_interaction(done=False)
    interaction.user.id = ANN
    interaction.response.defer = AsyncMock()
    bob, cat = MagicMock(id=BOB, bot=False), MagicMock(id=CAT, bot=False)
    command: Any = ChallengesCog.challenge.callback
    await command(
        ChallengesCog(bot), interaction, "generator", bob, None, cat, 4, "max_turns=50", None
    )
    bot.service.create_challenge.assert_awaited_once_with(
        guild_id=1,
        channel_id=2,
        challenger_id=ANN,
        opponent_ids=[BOB, CAT],
        players=4,
        game="generator",
        options_text="max_turns=50",
        preset=None,
        clock=None,
        start_position=None,
        rated=True,
        bot_seats=0,
    )
    assert post.await_args is not None
    args, kwargs = post.await_args
    assert args[2] == presenters.challenge_text(info)
    assert kwargs["mention_ids"] == (BOB, CAT)
    assert button_labels(kwargs["view"]) == ["Accept", "Decline", "Join", "Cancel"]
    bot.service.set_challenge_message.assert_awaited_once_with(8, 99)
    interaction.followup.send.assert_awaited_once_with("Challenge posted.", ephemeral=True)


async def test_a_bot_cannot_be_challenged() -> None:
    bot = stand_in_bot()
    bot.service.create_challenge = AsyncMock()
    interaction = fake_interaction(done=False)
    command: Any = ChallengesCog.challenge.callback
    robot = MagicMock(id=BOB, bot=True)
    await command(ChallengesCog(bot), interaction, "generator", None, robot, None, None, None, None)
    bot.service.create_challenge.assert_not_awaited()
    interaction.response.send_message.assert_awaited_once_with(
        "You can only challenge people or me, not other bots.", ephemeral=True
    )


async def test_a_challenge_to_the_bot_asks_the_service_for_its_bot_seats() -> None:
    bot = stand_in_bot()
    bot.service.create_challenge = AsyncMock(
        side_effect=TooManySeatsError("Generatorb", people=1, bots=1, seats=2, limit="game")
    )
    interaction = fake_interaction(done=False)
    command: Any = ChallengesCog.challenge.callback
    bob = MagicMock(id=BOB, bot=False)
    await command(ChallengesCog(bot), interaction, "generatorb", bob, bot_level=3)
    assert bot.service.create_challenge.await_args.kwargs["bot_seats"] == 1
    assert bot.service.create_challenge.await_args.kwargs["players"] is None
    said = interaction.response.send_message.await_args.args[0]
    assert said.startswith(
        "Generatorb is played by at most 2 players: you, the 1 person you named and the bot "
        "are too many."
    )


def test_too_many_seats_says_what_the_seats_came_from() -> None:
    def text(limit: str, people: int, bots: int, seats: int) -> str:
        error = TooManySeatsError("Orbs", people=people, bots=bots, seats=seats, limit=limit)
        return presenters.error_text(error)

    assert text("game", 0, 7, 6).startswith(
        "Orbs is played by at most 6 players: you and 7 bots are too many. Name the bot once"
    )
    assert text("options", 1, 3, 4) == (
        "Those Orbs options seat 4 players: you, the 1 person you named and 3 bots are too many."
    )
    assert text("players", 2, 1, 3) == (
        "A game of Orbs for 3 players has no room for you, the 2 people you named and the bot."
    )


async def test_a_challenge_to_the_bot_that_cannot_start_is_withdrawn() -> None:
    """The bot's seat fills the lobby, but the game cannot start (a busy channel where no
    thread can be opened): the challenge is cancelled, not left open to anyone who Joins."""
    bot = stand_in_bot()
    cog = ChallengesCog(bot)
    no_thread = ServiceError("I could not open a thread for this game here.")
    cog._press_where_games_go = AsyncMock(side_effect=no_thread)  # type: ignore[method-assign]
    info = lobby_info(
        game="generatorb",
        game_name="Generatorb",
        players=2,
        lobby=(ChallengePlayer(ANN, "challenger", "seated"),),
    )
    bot.service.cancel_challenge = AsyncMock(return_value=replace(info, status="cancelled"))
    message = MagicMock(spec=discord.Message)
    message.edit = AsyncMock()
    interaction = fake_interaction(done=True)
    with pytest.raises(ServiceError):
        await cog._seat_bots(interaction, info, message, [2])
    bot.service.cancel_challenge.assert_awaited_once_with(info.challenge_id, ANN)
    assert message.edit.await_args is not None
    assert message.edit.await_args.kwargs["view"] is None
    assert message.edit.await_args.kwargs["content"].endswith("cancelled.")


async def test_the_very_same_challenge_sent_twice_posts_once() -> None:
    """A double submit of one /challenge (every argument the same, the first posted or still
    being handled) is refused, so it opens no second lobby nor a second game against the
    bot; a challenge with any other argument, or one sent again after the first was
    refused, goes through."""
    bot = stand_in_bot()
    bot.service.create_challenge = AsyncMock(return_value=lobby_info())
    bot.service.set_challenge_message = AsyncMock()
    bot.service.get_challenge = AsyncMock(return_value=lobby_info())  # still open
    cog = ChallengesCog(bot)
    command: Any = ChallengesCog.challenge.callback
    bob = MagicMock(id=BOB, bot=False)
    with patch("bot.cogs.challenges.post_in_channel", AsyncMock(return_value=MagicMock())):
        first, second = fake_interaction(done=False), fake_interaction(done=False)
        await asyncio.gather(
            command(cog, first, "generator", bob), command(cog, second, "generator", bob)
        )
        assert bot.service.create_challenge.await_count == 1
        refused = second if second.response.send_message.await_count else first
        said = refused.response.send_message.await_args.args[0]
        assert said.startswith("You sent this same challenge a moment ago")
        # Posted and still open: refused; once declined (or its game over), sent again.
        await command(cog, fake_interaction(done=False), "generator", bob)
        assert bot.service.create_challenge.await_count == 1
        bot.service.get_challenge = AsyncMock(return_value=lobby_info(status="declined"))
        await command(cog, fake_interaction(done=False), "generator", bob)
        assert bot.service.create_challenge.await_count == 2
        bot.service.get_challenge = AsyncMock(return_value=lobby_info())  # that one: open
        # Another argument is another challenge.
        await command(cog, fake_interaction(done=False), "generator", bob, rated=False)
        assert bot.service.create_challenge.await_count == 3
        # A challenge the service refused may be sent again at once.
        bot.service.create_challenge = AsyncMock(side_effect=ChannelBusyError())
        await command(cog, fake_interaction(done=False), "orbs", bob)
        await command(cog, fake_interaction(done=False), "orbs", bob)
        assert bot.service.create_challenge.await_count == 2


async def test_a_double_submit_of_a_resend_posts_once() -> None:
    """The first challenge was declined; the same command then sent twice at once posts
    once: the lookup of the declined one yields to the event loop, and the second copy must
    find the first being handled (it posted twice)."""
    bot = stand_in_bot()
    bot.service.create_challenge = AsyncMock(return_value=lobby_info())
    bot.service.set_challenge_message = AsyncMock()

    async def declined(_: int) -> Any:
        await asyncio.sleep(0)  # a real database read yields to the loop
        return lobby_info(status="declined")

    bot.service.get_challenge = AsyncMock(side_effect=declined)
    cog = ChallengesCog(bot)
    command: Any = ChallengesCog.challenge.callback
    bob = MagicMock(id=BOB, bot=False)
    with patch("bot.cogs.challenges.post_in_channel", AsyncMock(return_value=MagicMock())):
        await command(cog, fake_interaction(done=False), "generator", bob)
        first, second = fake_interaction(done=False), fake_interaction(done=False)
        await asyncio.gather(
            command(cog, first, "generator", bob), command(cog, second, "generator", bob)
        )
    assert bot.service.create_challenge.await_count == 2


async def test_no_challenge_where_the_bot_may_not_attach_its_boards() -> None:
    bot = stand_in_bot()
    bot.service.create_challenge = AsyncMock()
    interaction = fake_interaction(done=False)
    interaction.app_permissions = discord.Permissions(send_messages=True, attach_files=False)
    command: Any = ChallengesCog.challenge.callback
    await command(ChallengesCog(bot), interaction, "generatorb", bot_level=1)
    bot.service.create_challenge.assert_not_awaited()
    said = interaction.response.send_message.await_args.args[0]
    assert said.startswith("I may not attach files in this channel")


async def test_a_move_given_up_mid_commit_lets_its_channel_go_when_it_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The /move handler gives up (here: deferring failed with a network error) while its
    move still waits for the channel's turn order and then commits: the order it takes must
    be let go when the move ends, or every later move in the channel would wait for ever."""
    bot = stand_in_bot()
    release = asyncio.Event()

    async def slow_play(*_: object) -> Any:
        await release.wait()
        return MagicMock(turn_goes_on=True)

    bot.service.play = slow_play

    async def failing_answer(_: object, work: Any) -> Any:
        await asyncio.sleep(0.01)  # the move is under way
        raise OSError("the network went away")

    monkeypatch.setattr("bot.cogs.play.answered_in_time", failing_answer)
    interaction = fake_interaction(done=False)
    blocker = asyncio.Event()

    async def earlier_move_posting() -> None:
        async with bot.turn_order(interaction.channel_id):
            await blocker.wait()

    earlier = asyncio.create_task(earlier_move_posting())
    await asyncio.sleep(0)
    move: Any = PlayCog.move.callback
    await move(PlayCog(bot), interaction, "a1-a3")  # answered with the apology
    blocker.set()  # the earlier post is out: the given-up move takes the order, then ends
    await earlier
    release.set()
    for _ in range(50):
        await asyncio.sleep(0.01)
    async with bot.turn_order(interaction.channel_id, wait=0.5) as held:
        assert held, "the channel's turn order was never let go"
    assert len(bot.turn_order) == 0


async def test_a_time_out_holds_its_channels_turn_order_while_it_is_applied_and_posted() -> None:
    """A clock's time-out may play a default decision that hands a bot the move: the bot's
    board must wait until the time-out's own board is out."""
    bot = stand_in_bot()
    bot.database.games.get = AsyncMock(return_value=MagicMock(channel_id=2))
    seen: list[bool] = []

    async def fired(_: object) -> Any:
        async with bot.turn_order(2, wait=0.01) as held:
            seen.append(held)  # taken by the handler, so not to be had here
        return MagicMock()

    bot.service.clock_timer_fired = fired
    cog = ClocksCog(bot)
    cog.announce = AsyncMock()  # type: ignore[method-assign]  # the post, recorded
    await cog.on_clock_timer(MagicMock(game_id=5))
    assert seen == [False]
    cog.announce.assert_awaited_once()
    async with bot.turn_order(2, wait=0.01) as held:
        assert held  # and let go afterwards


async def test_a_time_outs_board_pings_those_it_showed_something_privately(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The time-out rule's last draft pick deals every seat its Canons: its board pings the
    players it sends to /hand, besides the player to move and the late one."""
    bot = stand_in_bot()
    post = AsyncMock(return_value=MagicMock())
    monkeypatch.setattr("bot.cogs.clocks.post_board", post)
    event = ClockEvent(
        snapshot(), 0, SOUTH, ClockEventKind.TIMED_OUT, moves=("pick a1",), told_privately=(77,)
    )
    await ClocksCog(bot).announce(event)
    call = post.await_args
    assert call is not None
    assert call.kwargs["mention_ids"] == (NORTH, SOUTH, 77)
    assert "<@77>: this move showed you something only you may see" in call.args[2]


async def test_an_allowed_takeback_holds_its_channels_turn_order_until_its_board_is_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The requester learns from the takeback's board that it is their move again, and may
    /move at once: their board must not come above the takeback's, so the commit and the post
    hold the channel's turn order like a move."""
    bot = stand_in_bot()
    held_at: dict[str, bool] = {}

    async def probe(step: str) -> None:
        async with bot.turn_order(2, wait=0.01) as free:
            held_at[step] = not free

    async def allowed(*_: object, **__: object) -> TakebackAnswer:
        await probe("commit")
        return TakebackAnswer(snapshot(), 0, SOUTH, NORTH, accepted=True, removed=("a1-a3",))

    async def post(*_: object, **__: object) -> Any:
        await probe("post")
        return MagicMock()

    bot.service.answer_takeback = allowed
    monkeypatch.setattr("bot.cogs.social.post_board", post)
    monkeypatch.setattr("bot.cogs.social.edit_post", AsyncMock())
    interaction = fake_interaction(done=False)
    interaction.response.defer = AsyncMock()
    await SocialCog(bot).on_game_button(interaction, GameButtonId(5, GameAction.TAKEBACK_ACCEPT, 3))
    assert held_at == {"commit": True, "post": True}
    async with bot.turn_order(2, wait=0.01) as free:
        assert free  # and let go afterwards


async def test_a_takeback_the_bot_allows_at_once_holds_the_turn_order_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """/takeback against the bot: the bot answers inside the command, so its commit and the
    board it goes back to are held like a move."""
    bot = stand_in_bot()
    held_at: dict[str, bool] = {}

    async def probe(step: str) -> None:
        async with bot.turn_order(2, wait=0.01) as free:
            held_at[step] = not free

    request = TakebackRequest(5, 3, 0, SOUTH, (bot_user_id(1),), "a1-a3", 1)
    bot.service.request_takeback = AsyncMock(return_value=request)

    async def allowed(_: object) -> TakebackAnswer:
        await probe("commit")
        return TakebackAnswer(snapshot(), 0, SOUTH, bot_user_id(1), True, ("a1-a3",))

    async def post(*_: object, **__: object) -> Any:
        await probe("post")
        return MagicMock()

    bot.service.bots.answer_takeback = allowed
    request_post = MagicMock()
    request_post.edit = AsyncMock()
    monkeypatch.setattr("bot.cogs.social.post_in_channel", AsyncMock(return_value=request_post))
    monkeypatch.setattr("bot.cogs.social.post_board", post)
    interaction = fake_interaction(done=False)
    interaction.response.defer = AsyncMock()
    takeback: Any = SocialCog.takeback.callback
    await takeback(SocialCog(bot), interaction)
    assert held_at == {"commit": True, "post": True}
    interaction.followup.send.assert_awaited_once_with("Takeback asked of the bot.", ephemeral=True)


# ---- /game rules -----------------------------------------------------------------------------


async def ask_rules(bot: Any, game: str | None) -> list[str]:
    """Run ``/game rules`` (``game:`` as given) in channel 2; return the texts sent, checking
    every one was ephemeral."""
    interaction = fake_interaction(done=False)
    interaction.response.defer = AsyncMock()
    rules: Any = GameCog.rules.callback
    await rules(GameCog(bot), interaction, game)
    interaction.response.defer.assert_awaited_once_with(ephemeral=True, thinking=True)
    sent = interaction.followup.send.await_args_list
    assert all(call.kwargs == {"ephemeral": True} for call in sent)
    return [call.args[0] for call in sent]


async def test_rules_with_no_game_here_and_none_chosen_asks_to_pick_one() -> None:
    # README: "this channel's game, or the chosen game"; with neither, no game is guessed.
    bot = stand_in_bot()
    bot.service.snapshot = AsyncMock(side_effect=NoGameHereError())
    sent = await ask_rules(bot, None)
    assert sent[0] == (
        "There is no game in this channel: pick one with `game:` "
        "(Generatorb, Arbos, Generator, Orbs or Generation Zero)."
    )
    assert all(engine.info.name in sent[0] for engine in ENGINES.values())
    assert "**Notation**" not in sent[0]


async def test_rules_without_game_option_shows_this_channels_game() -> None:
    bot = stand_in_bot()
    bot.service.snapshot = AsyncMock(return_value=snapshot(game="orbs", game_name="Orbs"))
    sent = await ask_rules(bot, None)
    bot.service.snapshot.assert_awaited_once_with(2)
    assert sent[0].startswith("**Orbs** — ")
    assert "\n".join(sent) == presenters.rules_text(ENGINES["orbs"].info, turns=True)


@pytest.mark.parametrize("game", sorted(ENGINES))
async def test_every_games_rules_open_with_its_name_in_bold_once(game: str) -> None:
    bot = stand_in_bot()
    bot.service.snapshot = AsyncMock(side_effect=AssertionError("game: was given"))
    info = ENGINES[game].info
    sent = await ask_rules(bot, game)
    text = "\n".join(sent)
    assert text.startswith(f"**{info.name}** — ")
    assert text.count(f"**{info.name}**") == 1  # Generatorb's and Generator's not doubled
    # Games whose boards turn to the player to move say so after the notation (which reads
    # the fixed picture); Arbos and Generation Zero draw one picture for everyone.
    turned = game in ("generatorb", "generator", "orbs")
    ending = f"{info.notation_help}\n{presenters.TURNED_BOARDS}" if turned else info.notation_help
    assert text.endswith(ending)
    assert info.rules_summary in text
    bot.service.snapshot.assert_not_called()


@pytest.mark.parametrize("refused", [NotAPlayerError(), NoGameHereError()])
async def test_a_move_typed_in_the_channel_of_a_thread_game_points_to_the_thread(
    refused: Exception,
) -> None:
    """The channel's game is someone else's, or there is none: the caller, who plays in a
    thread of this channel, is told where to play rather than that they play nothing."""
    bot = stand_in_bot()
    bot.service.play = AsyncMock(side_effect=refused)
    orbs = snapshot(game="orbs", game_name="Orbs", channel_id=9)
    bot.service.games_in_threads_of = AsyncMock(return_value=[orbs])
    interaction = fake_interaction(done=False)
    move: Any = PlayCog.move.callback
    await move(PlayCog(bot), interaction, "B1-A1")
    answer = interaction.response.send_message.await_args
    assert answer.args[0] == "Your **Orbs** game (game 5) is in <#9>: play it there."
    assert answer.kwargs["ephemeral"]
    # Nobody plays in a thread of it: the refusal stays what it was.
    bot.service.games_in_threads_of = AsyncMock(return_value=[])
    interaction = fake_interaction(done=False)
    await move(PlayCog(bot), interaction, "B1-A1")
    assert interaction.response.send_message.await_args.args[0] == str(refused)


async def test_a_move_refused_by_the_channels_own_game_keeps_its_reason() -> None:
    """A player who resigned from the channel's game is told so, not sent to a thread."""
    bot = stand_in_bot()
    left = NotAPlayerError("You have left this game, so you have no more moves in it.", seated=True)
    bot.service.play = AsyncMock(side_effect=left)
    bot.service.games_in_threads_of = AsyncMock(return_value=[snapshot(channel_id=9)])
    interaction = fake_interaction(done=False)
    move: Any = PlayCog.move.callback
    await move(PlayCog(bot), interaction, "a1-a3")
    assert interaction.response.send_message.await_args.args[0] == str(left)
    bot.service.games_in_threads_of.assert_not_awaited()


async def test_options_and_presets_wait_for_the_game_to_be_picked() -> None:
    cog = ChallengesCog(stand_in_bot())
    options: Any = ChallengesCog.options_autocomplete
    presets: Any = ChallengesCog.preset_autocomplete
    interaction = fake_interaction(done=False)
    interaction.namespace = SimpleNamespace()  # /challenge with no game picked yet
    assert await options(cog, interaction, "") == []
    assert await presets(cog, interaction, "") == []
    interaction.namespace = SimpleNamespace(game="orbs")
    assert "teams6" in [c.value for c in await presets(cog, interaction, "")]
    assert await options(cog, interaction, "")
