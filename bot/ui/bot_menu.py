"""The lobby's bot menus: "Add a bot…" gives an open seat to the bot at a level, "Remove a
bot…" takes a bot's seat back.

Persistent selects: ``gr:c<challenge_id>:bots`` (:class:`~bot.ui.custom_ids.BotMenuId`), one
option per level, named as players read them ("Level 3 · club"), and
``gr:c<challenge_id>:unbot`` (:class:`~bot.ui.custom_ids.BotRemovalMenuId`), one option per
seated bot, named as the lobby post numbers it ("2. Gameroom (level 3)"). Like the lobby
buttons they work after a restart; the service checks each press against the lobby as it is
now (only the challenger may add or remove bots, only to open seats, only bots still
seated). The press goes to the challenges cog.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, cast

import discord

from ai.levels import LEVELS
from bot.service import ChallengeInfo
from bot.service.bot_seats import bot_name, is_bot
from bot.ui.custom_ids import (
    BOT_MENU_TEMPLATE,
    BOT_REMOVAL_TEMPLATE,
    BotMenuId,
    BotRemovalMenuId,
)
from bot.ui.host import Interaction
from bot.ui.replies import cog_unavailable, tolerate_another_session

__all__ = [
    "BotLevelMenu",
    "BotMenuHandler",
    "BotRemovalMenu",
    "level_options",
    "removal_options",
]

#: The cog that handles the menu (the challenges cog's name).
_CHALLENGES_COG = "Challenges"


class BotMenuHandler(Protocol):
    """What the challenges cog offers the menu."""

    async def on_add_bot(self, interaction: Interaction, challenge_id: int, level: int) -> None: ...

    async def on_remove_bot(
        self, interaction: Interaction, challenge_id: int, bot_id: int
    ) -> None: ...


def level_options() -> list[discord.SelectOption]:
    """One option per bot level, "Level 3 · club", its value the level's number (the lobby's
    "Add a bot…" menu and the Rematch level menu name levels alike)."""
    return [
        discord.SelectOption(
            label=f"Level {level.number} · {level.name}",
            value=str(level.number),
            description=f"thinks up to {level.budget.seconds:g} s a move",
        )
        for level in LEVELS
    ]


def removal_options(info: ChallengeInfo) -> list[discord.SelectOption]:
    """One option per bot seated in lobby ``info``, labelled with its line in the lobby post
    ("2. Gameroom (level 3)"; two bots of one level differ only by that number), its value
    the bot user id. Empty when no bot is seated."""
    holders = [p for p in info.lobby if p.holds_seat]
    return [
        discord.SelectOption(label=f"{number}. {bot_name(p.user_id)}", value=str(p.user_id))
        for number, p in enumerate(holders, start=1)
        if is_bot(p.user_id)
    ]


class BotLevelMenu(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=re.compile(BOT_MENU_TEMPLATE)
):
    """ "Add a bot…": a select of the five levels on an open lobby."""

    def __init__(self, menu_id: BotMenuId) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=str(menu_id),
                placeholder="Add a bot to an open seat…",
                min_values=1,
                max_values=1,
                options=level_options(),
            )
        )
        self.menu_id = menu_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> BotLevelMenu:
        return cls(BotMenuId(int(match["challenge_id"])))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = await _handler(interaction)
        if cog is not None:
            picked = _picked(self.item)
            level = int(picked) if picked.isdigit() else 0
            async with tolerate_another_session(interaction):
                await cog.on_add_bot(
                    cast(Interaction, interaction), self.menu_id.challenge_id, level
                )


class BotRemovalMenu(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=re.compile(BOT_REMOVAL_TEMPLATE)
):
    """ "Remove a bot…": a select of the bots seated in an open lobby (``options``, from
    :func:`removal_options`; rebuilt after a restart without them, since a press carries the
    chosen value)."""

    def __init__(
        self, menu_id: BotRemovalMenuId, options: list[discord.SelectOption] | None = None
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=str(menu_id),
                placeholder="Remove a bot…",
                min_values=1,
                max_values=1,
                options=options or [],
            )
        )
        self.menu_id = menu_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> BotRemovalMenu:
        return cls(BotRemovalMenuId(int(match["challenge_id"])))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = await _handler(interaction)
        if cog is not None:
            picked = _picked(self.item)
            # A value that is not a number names no bot: the service answers "no longer seated".
            bot_id = int(picked) if picked.lstrip("-").isdigit() else 0
            async with tolerate_another_session(interaction):
                await cog.on_remove_bot(
                    cast(Interaction, interaction), self.menu_id.challenge_id, bot_id
                )


async def _handler(interaction: discord.Interaction[Any]) -> BotMenuHandler | None:
    """The challenges cog that handles a menu's choice, or ``None`` when it is not loaded
    (the presser is told so: :func:`~bot.ui.replies.cog_unavailable`)."""
    cog = interaction.client.get_cog(_CHALLENGES_COG)
    if cog is None:
        await cog_unavailable(interaction, _CHALLENGES_COG)
        return None
    return cast(BotMenuHandler, cog)


def _picked(select: discord.ui.Select[Any]) -> str:
    """The one value chosen in ``select`` (``""`` if none came with the press)."""
    return select.values[0] if select.values else ""
