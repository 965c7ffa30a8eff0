"""Hidden information in the cogs and presenters: "My view", ``/hand``, the mover's private
events, and turns of many decisions — with a stand-in bot and service, no Discord."""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from bot import presenters
from bot.cogs.game import GameCog
from bot.cogs.play import PlayCog
from bot.service import NotAPlayerError, ServiceError
from bot.service.bot_seats import bot_user_id
from bot.service.models import Player, PrivateEvent, PrivateView
from bot.ui.board import board_view, post_board, post_turn
from bot.ui.buttons import GameButton, my_view_view
from bot.ui.custom_ids import GameAction, GameButtonId
from engines.base import Event, Outcome

from .test_bot_cogs import stand_in_bot
from .test_bot_presenters import NORTH, SOUTH, snapshot, turn
from .test_bot_replies import fake_interaction

SEEN = Event("seen", 0, "card 2 of North is Zanzibar", visible_to=frozenset({0}))
PEEKED = Event("peeked", 0, "looks at card 2 of North")


def hidden_snapshot(**changes: object) -> Any:
    return snapshot(
        game="secretcards", game_name="Secret cards", hidden_information=True, **changes
    )


def private_view(**changes: object) -> PrivateView:
    base = PrivateView(
        game_id=5,
        game="secretcards",
        game_name="Secret cards",
        status="active",
        version=3,
        ply=7,
        seat=0,
        seat_name="South",
        user_id=SOUTH,
        players=hidden_snapshot().players,
        to_move=True,
        prompt="Second decision of the turn.",
        view=None,
        events=(PrivateEvent(4, SEEN),),
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def acting(user_id: int) -> Any:
    """A ``/move`` interaction not answered yet; deferring answers it."""
    interaction = fake_interaction(done=False)
    interaction.user.id = user_id
    interaction.user.display_name = f"user{user_id}"

    async def defer(**_: Any) -> None:
        interaction.response.is_done.return_value = True

    interaction.response.defer = AsyncMock(side_effect=defer)
    return interaction


def labels(view: discord.ui.View | None) -> list[str]:
    assert view is not None
    return [item.item.label for item in view.children]  # type: ignore[attr-defined]


# ---- presenters ----------------------------------------------------------------------------


def test_the_mover_alone_hears_their_private_events_and_what_is_pending() -> None:
    result = turn(
        snapshot=hidden_snapshot(to_move=(0,), prompt="Second decision of the turn."),
        move="peek 2.2",
        events=(PEEKED,),
        private_events=(SEEN,),
        turn_goes_on=True,
    )
    assert presenters.move_ack_text(result, posted=True) == (
        "Played `peek 2.2`.\nOnly you see:\n• Card 2 of North is Zanzibar\n"
        "Still your turn: Second decision of the turn."
    )
    public = presenters.decision_text(result)
    assert public == (
        "<@11> (South) played `peek 2.2`: looks at card 2 of North. South decides again."
    )
    assert "Zanzibar" not in public


def test_an_acknowledgement_without_secrets_reads_as_before() -> None:
    assert presenters.move_ack_text(turn(), posted=True) == "Played `a1-a3`."


def test_the_private_view_text_gives_the_decision_and_the_events_with_their_plies() -> None:
    assert presenters.private_view_text(private_view()) == (
        "**Secret cards** · game 5 · ply 7 · your private view as South\n"
        "Your decision: Second decision of the turn.\n"
        "Only you saw:\n• ply 4: Card 2 of North is Zanzibar"
    )
    waiting = presenters.private_view_text(private_view(to_move=False, prompt=None, events=()))
    assert waiting.endswith("\nNot your decision now.")
    over = presenters.private_view_text(private_view(status="finished", to_move=False))
    assert "The game is over." in over


def test_game_info_keeps_the_position_of_a_hidden_game_secret() -> None:
    text = presenters.game_info_text(hidden_snapshot(position=""))
    assert "Position: secret until the game ends" in text


async def test_game_info_attaches_a_position_too_long_for_a_message() -> None:
    """A finished Generation Zero game shows its position (about 2,500 characters of JSON):
    inline it made a message Discord refuses, and /game info answered with the apology."""
    long_position = '{"players": 2, "chars": "' + "x" * 2600 + '"}'
    over = hidden_snapshot(position=long_position, status="finished", to_move=())
    text = presenters.game_info_text(over)
    assert len(text) < presenters.MESSAGE_LIMIT
    assert "Position: attached, `secretcards-5-position.txt`." in text
    bot = stand_in_bot()
    bot.service.game_info = AsyncMock(return_value=over)
    interaction = fake_interaction(done=False)
    interaction.response.defer = AsyncMock()
    info: Any = GameCog.info.callback
    await info(GameCog(bot), interaction)
    (call,) = interaction.followup.send.await_args_list
    attached = call.kwargs["file"]
    assert attached.filename == "secretcards-5-position.txt"
    assert attached.fp.read().decode() == long_position
    short = presenters.game_info_text(snapshot())
    assert "Position: `S:a1 N:h8" in short  # a short one stays in the text


# ---- buttons -------------------------------------------------------------------------------


def test_my_view_is_a_persistent_game_button() -> None:
    view = my_view_view(5, 3)
    (item,) = view.children
    assert isinstance(item, GameButton)
    assert item.item.label == "My view"
    assert item.item.custom_id == "gr:5:my_view:3"
    assert GameButtonId.parse("gr:5:my_view:3") == GameButtonId(5, GameAction.MY_VIEW, 3)
    assert view.timeout is None


def test_only_boards_of_hidden_games_in_play_carry_my_view() -> None:
    assert labels(board_view(hidden_snapshot())) == ["My view", "Watch"]
    assert labels(board_view(hidden_snapshot(), for_player=True)) == ["My view"]
    assert labels(board_view(snapshot())) == ["Watch"]
    assert labels(board_view(hidden_snapshot(status="finished", to_move=()))) == ["Rematch"]


def test_a_finished_exhibition_has_no_rematch_button() -> None:
    # Only players may ask for a rematch: under a game of bots only it refused everyone.
    bots = (Player(0, bot_user_id(1), "South"), Player(1, bot_user_id(1, 1), "North"))
    assert board_view(snapshot(status="finished", to_move=(), players=bots)) is None


async def test_a_posted_board_of_a_hidden_game_has_the_my_view_button() -> None:
    channel = MagicMock(spec=discord.PartialMessageable)
    channel.send = AsyncMock(return_value=MagicMock(id=1))
    bot = MagicMock()
    bot.get_partial_messageable.return_value = channel
    bot.seat_labels = AsyncMock(return_value=None)
    bot.service.render = AsyncMock(return_value=b"\x89PNG public")
    bot.service.set_board_message = AsyncMock()
    await post_board(bot, hidden_snapshot(), "text", mention_ids=[NORTH])
    assert labels(channel.send.await_args.kwargs["view"]) == ["My view", "Watch"]
    # The public picture: rendered from the snapshot, whose view is the spectator's.
    bot.service.render.assert_awaited_once()
    assert bot.service.render.await_args.args == (hidden_snapshot(),)


# ---- cogs ----------------------------------------------------------------------------------


@pytest.fixture
def posted(monkeypatch: pytest.MonkeyPatch) -> dict[str, AsyncMock]:
    """Replaces the public posting behind ``post_turn``; records what it would post."""
    mocks = {
        "post_board": AsyncMock(return_value=MagicMock()),
        "post_public": AsyncMock(return_value=MagicMock()),
    }
    for name, mock in mocks.items():
        monkeypatch.setattr(f"bot.ui.board.{name}", mock)  # what post_turn calls
    return mocks


async def test_a_decision_that_leaves_the_turn_to_the_mover_posts_one_line_and_no_board(
    posted: dict[str, AsyncMock],
) -> None:
    bot = stand_in_bot()
    result = turn(
        snapshot=hidden_snapshot(to_move=(0,), prompt="Second decision of the turn."),
        move="peek 2.2",
        events=(PEEKED,),
        private_events=(SEEN,),
        turn_goes_on=True,
    )
    bot.service.play = AsyncMock(return_value=result)
    interaction = acting(SOUTH)
    move: Any = PlayCog.move.callback
    await move(PlayCog(bot), interaction, "peek 2.2")
    posted["post_board"].assert_not_awaited()
    posted["post_public"].assert_awaited_once()
    call = posted["post_public"].await_args
    assert call is not None
    args, kwargs = call
    assert args[1] is interaction  # a follow-up of the /move, exempt from rate limits
    assert args[3] == presenters.decision_text(result)
    assert not kwargs.get("mention_ids")  # nobody is pinged (nobody else was shown anything)
    # The private answer is the interaction's own ephemeral response (no defer needed: the
    # move was played first); the public line follows as a follow-up.
    interaction.response.defer.assert_not_awaited()
    interaction.response.send_message.assert_awaited_once()
    sent = interaction.response.send_message.await_args
    assert sent.args[0] == presenters.move_ack_text(result, posted=True)
    assert sent.kwargs["ephemeral"] is True
    assert "Zanzibar" in sent.args[0]
    assert labels(sent.kwargs["view"]) == ["My view"]


async def test_a_decision_that_passes_the_turn_posts_the_board_and_pings_the_next(
    posted: dict[str, AsyncMock],
) -> None:
    bot = stand_in_bot()
    result = turn(snapshot=hidden_snapshot(), events=(PEEKED,), private_events=(SEEN,))
    bot.service.play = AsyncMock(return_value=result)
    interaction = acting(SOUTH)
    move: Any = PlayCog.move.callback
    await move(PlayCog(bot), interaction, "peek 2.2")
    posted["post_public"].assert_not_awaited()
    call = posted["post_board"].await_args
    assert call is not None
    args, kwargs = call
    assert args[2] == presenters.turn_text(result)
    assert "Zanzibar" not in args[2]
    assert kwargs["mention_ids"] == (NORTH,)
    assert kwargs["interaction"] is interaction
    answer = interaction.response.send_message.await_args
    assert answer.kwargs["ephemeral"] is True
    assert "Only you see:\n• Card 2 of North is Zanzibar" in answer.args[0]


async def test_a_decision_that_shows_another_person_something_pings_them(
    posted: dict[str, AsyncMock],
) -> None:
    """The quiet line of a decision that told another player something privately sends
    them to ``/hand`` and pings them (nobody else)."""
    bot = stand_in_bot()
    deciding = turn(
        snapshot=hidden_snapshot(to_move=(0,)),
        move="peek 2.2",
        events=(PEEKED,),
        turn_goes_on=True,
        told_privately=(NORTH,),
    )
    await post_turn(bot, deciding)
    call = posted["post_public"].await_args
    assert call is not None
    assert call.kwargs["mention_ids"] == (NORTH,)
    assert call.args[3].endswith(
        f"<@{NORTH}>: this move showed you something only you may see; `/hand` has it."
    )


async def test_the_board_post_of_a_knock_out_pings_the_player_knocked_out(
    posted: dict[str, AsyncMock],
) -> None:
    bot = stand_in_bot()
    three = (Player(0, SOUTH, "North"), Player(1, 33, "South-east"), Player(2, NORTH, "South"))
    out = Event("eliminated", 1, "South-east has no orbs left and is out (ORB-5)")
    await post_turn(bot, turn(snapshot=snapshot(players=three, to_move=(2,)), events=(out,)))
    call = posted["post_board"].await_args
    assert call is not None
    assert call.kwargs["mention_ids"] == (NORTH, 33)


async def test_a_watcher_hears_the_move_that_ended_the_game_then_the_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The direct message for a board that a move ended quotes the move's line before the
    result (the deciding turn); a board without a move's line, the result alone."""
    bot = stand_in_bot()
    sent: list[str] = []

    async def dm(_bot: object, _ids: object, text: str) -> None:
        sent.append(text)

    monkeypatch.setattr("bot.ui.board._watchers", AsyncMock(return_value=(77,)))
    monkeypatch.setattr("bot.ui.board.post_public", AsyncMock(return_value=MagicMock(id=9)))
    monkeypatch.setattr("bot.ui.board.direct_messages", dm)
    over = snapshot(status="finished", to_move=(), outcome=Outcome.win("core", 0, 2))
    line = f"<@{SOUTH}> (South) played `c3-d4`: the orb lands on the core."
    file = MagicMock(spec=discord.File)
    await post_board(bot, over, "final", mention_ids=(), watcher_line=lambda: line, drawn=file)
    await post_board(bot, over, f"<@{NORTH}> resigns.", mention_ids=(), drawn=file)
    assert sent[0].startswith(f"**Generatorb** in <#2>: {line} <@{SOUTH}> (South) wins")
    assert line not in sent[1]
    assert sent[1].startswith(f"**Generatorb** in <#2>: <@{SOUTH}> (South) wins")


async def test_my_view_answers_the_presser_alone_with_picture_and_text() -> None:
    bot = stand_in_bot()
    bot.display_name = AsyncMock(side_effect=lambda user_id: f"user{user_id}")
    private = private_view()
    bot.service.game_private_view = AsyncMock(return_value=private)
    bot.service.render_private = AsyncMock(return_value=b"\x89PNG private")
    interaction = acting(SOUTH)
    await PlayCog(bot).on_game_button(interaction, GameButtonId(5, GameAction.MY_VIEW, 1))
    interaction.response.defer.assert_awaited_once_with(ephemeral=True, thinking=True)
    # An old board (version 1) still shows the current view: the version is not asked for.
    bot.service.game_private_view.assert_awaited_once_with(5, SOUTH)
    bot.service.render_private.assert_awaited_once_with(
        private, seat_labels=("user11", "user22"), perspective=None
    )
    bot.service.perspective_of.assert_awaited_once_with(
        SOUTH, "secretcards", private.players, seat=0
    )
    sent = interaction.followup.send.await_args
    assert sent.args[0] == presenters.private_view_text(private)
    assert sent.kwargs["ephemeral"] is True
    assert sent.kwargs["file"].filename == "secretcards-5-7-private.png"


async def test_a_spectator_pressing_my_view_gets_one_friendly_sentence() -> None:
    bot = stand_in_bot()
    refusal = NotAPlayerError("Only the players have a private view of this game.")
    bot.service.game_private_view = AsyncMock(side_effect=refusal)
    interaction = acting(303)
    await PlayCog(bot).on_game_button(interaction, GameButtonId(5, GameAction.MY_VIEW, 3))
    interaction.followup.send.assert_awaited_once_with(
        "Only the players have a private view of this game.", ephemeral=True
    )


async def test_hand_in_a_game_without_secrets_says_so() -> None:
    bot = stand_in_bot()
    bot.service.private_view = AsyncMock(
        side_effect=ServiceError("Generatorb has no hidden cards: everything is on the board.")
    )
    interaction = acting(SOUTH)
    hand: Any = PlayCog.hand.callback
    await hand(PlayCog(bot), interaction)
    bot.service.private_view.assert_awaited_once_with(2, SOUTH)
    interaction.followup.send.assert_awaited_once_with(
        "Generatorb has no hidden cards: everything is on the board.", ephemeral=True
    )


async def test_hand_shows_the_private_view_even_when_drawing_fails() -> None:
    bot = stand_in_bot()
    bot.display_name = AsyncMock(return_value="someone")
    bot.service.private_view = AsyncMock(return_value=private_view())
    bot.service.render_private = AsyncMock(side_effect=RuntimeError("renderer broke"))
    interaction = acting(SOUTH)
    hand: Any = PlayCog.hand.callback
    await hand(PlayCog(bot), interaction)
    sent = interaction.followup.send.await_args
    assert sent.args[0].startswith("**Secret cards** · game 5")
    assert sent.kwargs["ephemeral"] is True
    assert sent.kwargs["file"] is discord.utils.MISSING
