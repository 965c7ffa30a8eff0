"""The Rematch button's level menu: the player picks the bot's level for a rematch.

Rematch under the final board of a game the bot played in does not open the rematch at once:
it answers ephemerally (only the presser sees it) with this select, "Same level (1 ·
beginner)" then one option per level ("Level 3 · club"), named as the lobby's "Add a bot…"
menu names them (:mod:`bot.ui.bot_menu`). Choosing opens the rematch with every bot seat at
the chosen level, or at the levels it had ("same"). A game of people only gets no menu: one
press opens its rematch, as before.

The select is persistent like the lobby's menu: a :class:`discord.ui.DynamicItem` with the
custom id ``gr:<game_id>:rematch_level`` (:class:`RematchMenuId`; no game button's id has this
shape, ``gr:<game_id>:<action>:<version>``), so a menu still on the player's screen after a
restart works (the client registers it with the other persistent components). The id names no
user and no version: nobody but the presser sees an ephemeral message, and the service checks
every choice against the game as it is now (only its players may ask, one open rematch per
game: a second choice, or a choice after the rematch was opened some other way, is pointed at
the open challenge). The choice goes to the social cog.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

import discord

from ai.levels import LEVELS
from bot.ui.bot_menu import level_options
from bot.ui.host import Interaction
from bot.ui.replies import cog_unavailable, tolerate_another_session

__all__ = [
    "REMATCH_MENU_TEMPLATE",
    "SAME_LEVEL",
    "RematchLevelMenu",
    "RematchMenuHandler",
    "RematchMenuId",
    "chosen_level",
    "rematch_level_view",
]

#: The cog that handles the menu (the social cog's name).
_SOCIAL_COG = "Social"


#: The option that keeps every bot seat at the level it had.
SAME_LEVEL = "same"

#: Template of the level menu's custom id (a regular expression matched against the whole id).
REMATCH_MENU_TEMPLATE = r"gr:(?P<game_id>\d+):rematch_level"


@dataclass(frozen=True, slots=True)
class RematchMenuId:
    """The level menu of game ``game_id``'s rematch: ``gr:<game_id>:rematch_level``."""

    game_id: int

    def __str__(self) -> str:
        return f"gr:{self.game_id}:rematch_level"


def chosen_level(values: Sequence[str]) -> int | None:
    """The level a choice of the menu names: ``None`` for "same", else the level (0 for a
    value that is none, which the service refuses like any level outside 1–5)."""
    value = values[0] if values else ""
    if value == SAME_LEVEL:
        return None
    return int(value) if value.isdigit() else 0


class RematchMenuHandler(Protocol):
    """What the social cog offers the menu."""

    async def on_rematch_level(
        self, interaction: Interaction, game_id: int, level: int | None
    ) -> None: ...


def _same_label(levels: Sequence[int]) -> str:
    distinct = sorted(set(levels))
    if not distinct:  # rebuilt from a custom id: the labels are not shown again
        return "Same level"
    if len(distinct) == 1:
        return f"Same level ({distinct[0]} · {LEVELS[distinct[0] - 1].name})"
    return f"Same levels ({', '.join(str(level) for level in distinct)})"


class RematchLevelMenu(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=re.compile(REMATCH_MENU_TEMPLATE)
):
    """ "Rematch against…": same level(s), or one of the five levels."""

    def __init__(self, menu_id: RematchMenuId, levels: Sequence[int] = ()) -> None:
        options = [
            discord.SelectOption(
                label=_same_label(levels),
                value=SAME_LEVEL,
                description="the bot plays as it did this game",
            ),
            *level_options(),
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=str(menu_id),
                placeholder="Rematch against…",
                min_values=1,
                max_values=1,
                options=options,
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
    ) -> RematchLevelMenu:
        return cls(RematchMenuId(int(match["game_id"])))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog(_SOCIAL_COG)
        if cog is None:
            await cog_unavailable(interaction, _SOCIAL_COG)
            return
        async with tolerate_another_session(interaction):
            await cast(RematchMenuHandler, cog).on_rematch_level(
                cast(Interaction, interaction), self.menu_id.game_id, chosen_level(self.item.values)
            )


def rematch_level_view(game_id: int, levels: Sequence[int]) -> discord.ui.View:
    """The level menu for a rematch of game ``game_id``, whose bot seats had ``levels``
    (persistent: no timeout)."""
    view = discord.ui.View(timeout=None)
    view.add_item(RematchLevelMenu(RematchMenuId(game_id), levels))
    return view
