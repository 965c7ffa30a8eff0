"""``BotHost``: what the ui modules and the cogs need from the bot, and nothing more.

The ui modules and the cogs are typed against this :class:`~typing.Protocol`, never against
:class:`bot.client.GameroomBot`, so the dependencies run one way: ``bot.client`` imports the
ui (and loads the cogs), never the reverse. ``bot/client.py`` checks statically that
``GameroomBot`` satisfies the protocol; the import-linter contracts in ``pyproject.toml``
keep ``bot.client`` out of ``bot.ui`` and ``bot.cogs``, TYPE_CHECKING imports included.

The discord.py members are declared with the signatures discord.py gives them (fewer
optional keywords where we pass none).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol, TypeAlias

import discord
from discord.ext import commands

from bot.service import GameService, GameSnapshot
from bot.service.locks import KeyedLock
from bot.settings import Settings
from bot.ui.decisions import DecisionPost
from bot.ui.offers import OfferPosts
from db import Database

__all__ = ["BotHost", "Interaction"]

#: An interaction as the cogs and buttons receive it. discord.py bounds an interaction's
#: client type by :class:`discord.Client`, which a protocol cannot meet, so this names the
#: base class; handlers reach the bot through their cog's ``bot`` (a :class:`BotHost`).
Interaction: TypeAlias = discord.Interaction[commands.Bot]


class BotHost(Protocol):
    """The bot as the ui and the cogs see it (implemented by ``bot.client.GameroomBot``)."""

    # ---- Gameroom's own -------------------------------------------------------------------

    #: The game service (built in ``setup_hook``).
    service: GameService
    #: The database, for the repositories the service does not wrap (settings, timers).
    database: Database
    settings: Settings
    #: The posts of open draw offers (to retire their buttons when a move closes them; built
    #: in ``setup_hook``, over the database).
    draw_offers: OfferPosts
    #: The posts of open takeback requests, kept the same way.
    takebacks: OfferPosts
    #: The posts of soft clocks' time-out notices (their Claim on time), kept the same way.
    claim_notices: OfferPosts
    #: Channel id → the order of its moves' posts (:func:`bot.ui.board.turn_in_order`).
    turn_order: KeyedLock[int]
    #: Channel id → the post of a bot's decisions in the turn under way, which its next
    #: decision is added to and the turn's board replaces (:mod:`bot.ui.decisions`; in
    #: memory, per process).
    decision_posts: dict[int, DecisionPost]

    def remember_name(self, user: discord.abc.User) -> None:
        """Note a user's display name (from an interaction) for later board labels."""
        ...

    async def display_name(self, user_id: int) -> str:
        """A user's display name: remembered, cached by discord.py, or fetched once."""
        ...

    async def seat_labels(self, snapshot: GameSnapshot) -> tuple[str, ...] | None:
        """The players' names in seat order for the board, or ``None`` if one is unknown."""
        ...

    # ---- discord.py's ---------------------------------------------------------------------

    @property
    def cogs(self) -> Mapping[str, commands.Cog]: ...

    @property
    def user(self) -> discord.ClientUser | None: ...

    @property
    def guilds(self) -> Sequence[discord.Guild]: ...

    def get_cog(self, name: str, /) -> commands.Cog | None: ...

    async def add_cog(self, cog: commands.Cog, /, *, override: bool = ...) -> None: ...

    async def wait_until_ready(self) -> None: ...

    def get_user(self, id: int, /) -> discord.User | None: ...

    async def fetch_user(self, user_id: int, /) -> discord.User: ...

    def get_channel(
        self, id: int, /
    ) -> discord.abc.GuildChannel | discord.Thread | discord.abc.PrivateChannel | None: ...

    async def fetch_channel(
        self, channel_id: int, /
    ) -> discord.abc.GuildChannel | discord.abc.PrivateChannel | discord.Thread: ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = ...
    ) -> discord.PartialMessageable: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...
