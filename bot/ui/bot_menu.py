"""The lobby's "Add a bot…" menu: the challenger gives an open seat to the bot at a level.

A persistent select (``gr:c<challenge_id>:bots``, :class:`~bot.ui.custom_ids.BotMenuId`) with
one option per level, named as players read them ("3 · club"). Like the lobby buttons it
works after a restart; the service checks the press against the lobby as it is now (only
the challenger may add bots, and only to open seats). The press goes to the challenges cog.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, cast

import discord

from ai.levels import LEVELS
from bot.ui.custom_ids import BOT_MENU_TEMPLATE, BotMenuId
from bot.ui.host import Interaction
from bot.ui.replies import cog_unavailable

__all__ = ["BotLevelMenu", "BotMenuHandler", "level_options"]

#: The cog that handles the menu (the challenges cog's name).
_CHALLENGES_COG = "Challenges"


class BotMenuHandler(Protocol):
    """What the challenges cog offers the menu."""

    async def on_add_bot(self, interaction: Interaction, challenge_id: int, level: int) -> None: ...


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
        cog = interaction.client.get_cog(_CHALLENGES_COG)
        if cog is None:
            await cog_unavailable(interaction, _CHALLENGES_COG)
            return
        level = int(self.item.values[0]) if self.item.values else 0
        await cast(BotMenuHandler, cog).on_add_bot(
            cast(Interaction, interaction), self.menu_id.challenge_id, level
        )
