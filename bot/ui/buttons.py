"""Persistent buttons: :class:`discord.ui.DynamicItem` subclasses keyed by their custom ids.

discord.py recreates a button from its custom id whenever one is pressed (the bot registers
these classes with ``add_dynamic_items`` in ``setup_hook``), so buttons posted before a restart
keep working. The buttons only route: each press goes to the cog that owns the action, found
by name, which asks the service and answers.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, TypeAlias, cast

import discord

from bot.service import ChallengeInfo
from bot.ui.bot_menu import BotLevelMenu, BotRemovalMenu, removal_options
from bot.ui.custom_ids import (
    CHALLENGE_TEMPLATE,
    GAME_TEMPLATE,
    BotMenuId,
    BotRemovalMenuId,
    ChallengeAction,
    ChallengeButtonId,
    GameAction,
    GameButtonId,
)
from bot.ui.host import Interaction
from bot.ui.replies import cog_unavailable, tolerate_another_session

__all__ = [
    "CHALLENGES_COG",
    "CLOCKS_COG",
    "GAME_ACTION_COGS",
    "PLAY_COG",
    "SOCIAL_COG",
    "SPECTATORS_COG",
    "ChallengeButton",
    "ChallengeButtonHandler",
    "GameButton",
    "GameButtonHandler",
    "challenge_view",
    "draw_offer_view",
    "my_view_view",
    "takeback_view",
]

#: Names of the cogs that answer button presses.
CHALLENGES_COG = "Challenges"
PLAY_COG = "Play"
CLOCKS_COG = "Clocks"
SPECTATORS_COG = "Spectators"
SOCIAL_COG = "Social"

#: Which cog answers each game button (by the cog's name; each implements
#: :class:`GameButtonHandler` for its actions).
GAME_ACTION_COGS: dict[GameAction, str] = {
    GameAction.DRAW_ACCEPT: PLAY_COG,
    GameAction.DRAW_DECLINE: PLAY_COG,
    GameAction.MY_VIEW: PLAY_COG,
    GameAction.WATCH: SPECTATORS_COG,
    GameAction.REMATCH: SOCIAL_COG,
    GameAction.TAKEBACK_ACCEPT: SOCIAL_COG,
    GameAction.TAKEBACK_DECLINE: SOCIAL_COG,
    GameAction.CLAIM_TIME: CLOCKS_COG,
}

#: discord.py types item callbacks for any client; ours is always the Gameroom bot.
AnyInteraction: TypeAlias = discord.Interaction[Any]


class ChallengeButtonHandler(Protocol):
    """What the challenges cog offers the challenge buttons."""

    async def on_challenge_button(
        self, interaction: Interaction, button: ChallengeButtonId
    ) -> None: ...


class GameButtonHandler(Protocol):
    """What a cog named in :data:`GAME_ACTION_COGS` offers the game buttons."""

    async def on_game_button(self, interaction: Interaction, button: GameButtonId) -> None: ...


_CHALLENGE_STYLE = {
    ChallengeAction.ACCEPT: ("Accept", discord.ButtonStyle.success),
    ChallengeAction.DECLINE: ("Decline", discord.ButtonStyle.danger),
    ChallengeAction.JOIN: ("Join", discord.ButtonStyle.primary),
    ChallengeAction.LEAVE: ("Leave", discord.ButtonStyle.secondary),
    ChallengeAction.START: ("Start", discord.ButtonStyle.success),
    ChallengeAction.CANCEL: ("Cancel", discord.ButtonStyle.secondary),
}
_GAME_STYLE = {
    GameAction.DRAW_ACCEPT: ("Accept draw", discord.ButtonStyle.success),
    GameAction.DRAW_DECLINE: ("Decline", discord.ButtonStyle.danger),
    GameAction.MY_VIEW: ("My view", discord.ButtonStyle.secondary),
    GameAction.WATCH: ("Watch", discord.ButtonStyle.secondary),
    GameAction.REMATCH: ("Rematch", discord.ButtonStyle.primary),
    GameAction.TAKEBACK_ACCEPT: ("Allow takeback", discord.ButtonStyle.success),
    GameAction.TAKEBACK_DECLINE: ("Refuse", discord.ButtonStyle.danger),
    GameAction.CLAIM_TIME: ("Claim on time", discord.ButtonStyle.danger),
}


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=re.compile(CHALLENGE_TEMPLATE)
):
    """Accept, Decline, Join, Leave, Start or Cancel on a challenge post
    (``gr:c<challenge_id>:<action>``)."""

    def __init__(self, button_id: ChallengeButtonId) -> None:
        label, style = _CHALLENGE_STYLE[button_id.action]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=str(button_id)))
        self.button_id = button_id

    @classmethod
    async def from_custom_id(
        cls, interaction: AnyInteraction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ChallengeButton:
        return cls(ChallengeButtonId.from_match(match))

    async def callback(self, interaction: AnyInteraction) -> None:
        cog = interaction.client.get_cog(CHALLENGES_COG)
        if cog is None:
            await cog_unavailable(interaction, CHALLENGES_COG)
            return
        async with tolerate_another_session(interaction):
            await cast(ChallengeButtonHandler, cog).on_challenge_button(
                cast(Interaction, interaction), self.button_id
            )


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=re.compile(GAME_TEMPLATE)
):
    """A button on a game post (``gr:<game_id>:<action>:<version>``): a draw or takeback
    answer, "My view" under the boards of games with hidden information, Watch, Rematch,
    Claim on time. The press goes to the cog :data:`GAME_ACTION_COGS` names."""

    def __init__(self, button_id: GameButtonId) -> None:
        label, style = _GAME_STYLE[button_id.action]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=str(button_id)))
        self.button_id = button_id

    @classmethod
    async def from_custom_id(
        cls, interaction: AnyInteraction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameButton:
        return cls(GameButtonId.from_match(match))

    async def callback(self, interaction: AnyInteraction) -> None:
        name = GAME_ACTION_COGS[self.button_id.action]
        cog = interaction.client.get_cog(name)
        if cog is None:
            await cog_unavailable(interaction, name)
            return
        async with tolerate_another_session(interaction):
            await cast(GameButtonHandler, cog).on_game_button(
                cast(Interaction, interaction), self.button_id
            )


def challenge_view(info: ChallengeInfo) -> discord.ui.View:
    """The buttons of a lobby as it stands (persistent: no timeout).

    Accept and Decline while an invitation is pending, Join while a seat is open, Leave once
    someone besides the challenger is seated, Start once the challenger may start early
    (:attr:`ChallengeInfo.can_start_early`), and always Cancel; below them, while a seat is
    open, the challenger's "Add a bot…" menu (:class:`~bot.ui.bot_menu.BotLevelMenu`), and
    while a bot is seated, the "Remove a bot…" menu
    (:class:`~bot.ui.bot_menu.BotRemovalMenu`). A two-seat challenge thus shows Accept /
    Decline / Cancel to a named opponent and Join / Cancel to anyone.
    """
    actions: list[ChallengeAction] = []
    if info.pending_ids:
        actions += [ChallengeAction.ACCEPT, ChallengeAction.DECLINE]
    if info.open_seats > 0:
        actions.append(ChallengeAction.JOIN)
    if len(info.seated_ids) > 1:
        actions.append(ChallengeAction.LEAVE)
    if info.can_start_early:
        actions.append(ChallengeAction.START)
    actions.append(ChallengeAction.CANCEL)
    view = discord.ui.View(timeout=None)
    for action in actions:
        view.add_item(ChallengeButton(ChallengeButtonId(info.challenge_id, action)))
    if info.open_seats > 0:
        view.add_item(BotLevelMenu(BotMenuId(info.challenge_id)))
    if seated_bots := removal_options(info):
        view.add_item(BotRemovalMenu(BotRemovalMenuId(info.challenge_id), seated_bots))
    return view


def draw_offer_view(game_id: int, version: int) -> discord.ui.View:
    """Accept / Decline for the draw offer made at ``version`` of game ``game_id``."""
    view = discord.ui.View(timeout=None)
    for action in (GameAction.DRAW_ACCEPT, GameAction.DRAW_DECLINE):
        view.add_item(GameButton(GameButtonId(game_id, action, version)))
    return view


def my_view_view(game_id: int, version: int) -> discord.ui.View:
    """The "My view" button of game ``game_id``, for a board drawn at ``version``.

    Any player who presses it, on this board or an older one, even after a restart, gets
    their *current* private view ephemerally; the version in the custom id is only noted.
    """
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton(GameButtonId(game_id, GameAction.MY_VIEW, version)))
    return view


def takeback_view(game_id: int, version: int) -> discord.ui.View:
    """Allow takeback / Refuse for the takeback request made at ``version`` of game
    ``game_id`` (the requester's Refuse withdraws it)."""
    view = discord.ui.View(timeout=None)
    for action in (GameAction.TAKEBACK_ACCEPT, GameAction.TAKEBACK_DECLINE):
        view.add_item(GameButton(GameButtonId(game_id, action, version)))
    return view
