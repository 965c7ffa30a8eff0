"""``GameroomBot``: the one Bot subclass; ``setup_hook`` is the single wiring point.

Start-up order (``setup_hook`` runs after login, before the gateway connects): open the
database and migrate it, build the :class:`~bot.service.GameService`, load the cogs, register
the persistent buttons, sync the slash commands (to the dev guild instantly, else globally).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot import presenters
from bot.presenters.common import ANONYMOUS_NAME
from bot.service import GameService, GameSnapshot
from bot.service.bot_seats import bot_name, is_bot
from bot.service.locks import KeyedLock
from bot.service.randomness import random_seed
from bot.settings import Settings
from bot.ui.bot_menu import BotLevelMenu, BotRemovalMenu
from bot.ui.buttons import ChallengeButton, GameButton
from bot.ui.decisions import DecisionPost
from bot.ui.host import BotHost
from bot.ui.offers import OfferPosts
from bot.ui.rematch_menu import RematchLevelMenu
from bot.ui.replies import answered_elsewhere, describe, log_answered_elsewhere, send_ephemeral
from db import Database
from db.ratings import is_anonymous

__all__ = ["EXTENSIONS", "GameroomBot", "intents", "point_at_discord"]

log = logging.getLogger(__name__)

#: The cogs, loaded in this order.
EXTENSIONS = (
    "bot.cogs.challenges",
    "bot.cogs.play",
    "bot.cogs.game",
    "bot.cogs.clocks",
    "bot.cogs.social",
    "bot.cogs.spectators",
    "bot.cogs.settings",
    "bot.cogs.timers",
    "bot.cogs.bots",
    "bot.cogs.ratings",
)

#: How many users' display names the board labels remember.
_NAME_CACHE_SIZE = 1024


def intents() -> discord.Intents:
    """The gateway intents: ``guilds`` alone, and none of the privileged ones.

    Slash commands and buttons arrive as interactions, whatever the intents, so the bot never
    reads messages, reactions, typing or member lists; ``guilds`` keeps its cache of guilds,
    channels and threads (where it posts, and threads it archives). Without the message
    intents Discord no longer sends the bot every message of every channel it can see, its
    own board posts included (each was decompressed, parsed and cached for nothing).
    """
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


def point_at_discord(settings: Settings) -> None:
    """Send REST calls and the gateway connection where the settings say (tests use a fake).

    REST routes, interaction callbacks and webhook follow-ups are all built from
    ``discord.http.Route.BASE`` (``discord/webhook/async_.py`` uses ``Route`` too); the
    gateway URL comes from ``DiscordWebSocket.DEFAULT_GATEWAY``. Unset settings leave
    discord.py's defaults alone.
    """
    if settings.discord_api_base is not None:
        discord.http.Route.BASE = settings.discord_api_base
    if settings.discord_gateway is not None:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway)


def _shard_options(settings: Settings) -> dict[str, Any]:
    """``shard_count``/``shard_ids`` for ``AutoShardedBot``: only those the settings give
    (none: discord.py asks Discord how many shards to run, and runs them all)."""
    options: dict[str, Any] = {}
    if settings.shard_count is not None:
        options["shard_count"] = settings.shard_count
    if settings.shard_ids is not None:
        options["shard_ids"] = list(settings.shard_ids)
    return options


class GameroomTree(app_commands.CommandTree["GameroomBot"]):
    """The command tree, with a last-resort error handler."""

    async def on_error(
        self, interaction: discord.Interaction[GameroomBot], error: app_commands.AppCommandError
    ) -> None:
        """Errors the cogs did not answer (checks, option conversion, bugs): log, apologise.

        An interaction that arrives while the bot shuts down finds no command (discord.py's
        ``close`` removes the cogs, and their commands, first): that is logged as such, at
        INFO, not as a bug; Discord tells the user the interaction failed. One that another
        session acknowledged first (Discord's 40060: two processes running the same shard
        during an overlapping restart) is one warning, with no apology to send."""
        if isinstance(error, app_commands.CommandNotFound) and self.client.shutting_down:
            log.info("%s arrived while the bot was shutting down", describe(interaction))
            return
        if answered_elsewhere(error):
            # Another session answered first: two processes run the same shard (docs/scale.md).
            log_answered_elsewhere(interaction)
            return
        log.error("unhandled error in %s", describe(interaction), exc_info=error)
        if interaction.type is discord.InteractionType.autocomplete:
            return
        try:
            await send_ephemeral(interaction, presenters.APOLOGY)
        except discord.HTTPException:
            log.warning("could not apologise for %s", describe(interaction))


class GameroomBot(commands.AutoShardedBot):
    """The Gameroom bot. ``service``, ``database``, ``draw_offers``, ``takebacks`` and
    ``claim_notices`` exist once ``setup_hook`` has run.

    Sharded (discord.py's ``AutoShardedBot``): one process runs every shard Discord recommends,
    or, with ``GAMEROOM_SHARD_COUNT`` and ``GAMEROOM_SHARD_IDS``, only its own shards, so
    several processes sharing one PostgreSQL database serve the bot together
    (``docs/scale.md``): every guarantee is the database's, not the process's."""

    service: GameService
    database: Database
    draw_offers: OfferPosts
    takebacks: OfferPosts
    claim_notices: OfferPosts
    #: Set when :meth:`close` begins (:meth:`GameroomTree.on_error` reads it).
    shutting_down: bool = False

    def __init__(self, settings: Settings) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents(),
            # Nobody is pinged unless a message names them explicitly (see allowed_users).
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=GameroomTree,
            **_shard_options(settings),
        )
        self.settings = settings
        self._names: OrderedDict[int, str] = OrderedDict()
        self.turn_order: KeyedLock[int] = KeyedLock()
        self.decision_posts: dict[int, DecisionPost] = {}

    async def setup_hook(self) -> None:
        self.database = Database(self.settings.db_url)
        await self.database.migrate()
        self.draw_offers = OfferPosts(
            self.database.draw_offer_posts,
            self,
            closed_text=presenters.DRAW_OFFER_CLOSED,
            what="draw offer",
        )
        self.takebacks = OfferPosts(
            self.database.takeback_posts,
            self,
            closed_text=presenters.TAKEBACK_REQUEST_CLOSED,
            what="takeback request",
        )
        self.claim_notices = OfferPosts(
            self.database.claim_posts,
            self,
            closed_text=presenters.CLAIM_LAPSED,
            what="claim notice",
        )
        fixed_seed = self.settings.game_seed
        seed_source = random_seed if fixed_seed is None else (lambda: fixed_seed)
        if fixed_seed is not None:
            log.warning("GAMEROOM_GAME_SEED is set: every new game gets seed %d", fixed_seed)
        self.service = GameService(
            self.database,
            challenge_ttl=self.settings.challenge_ttl,
            rng_seed_source=seed_source,
            default_clock=self.settings.default_clock,
            reminder_quiet=self.settings.reminder_quiet,
            vacation_allowance=self.settings.vacation_allowance,
            ai_workers=self.settings.ai_workers,
            exhibition_pace=self.settings.exhibition_pace,
        )
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(
            ChallengeButton, GameButton, BotLevelMenu, BotRemovalMenu, RematchLevelMenu
        )
        await self._sync_commands()
        log.info("set up: database %r, %d extensions", self.database, len(EXTENSIONS))

    async def _sync_commands(self) -> None:
        guild_id = self.settings.dev_guild_id
        if guild_id is None:
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))
            return
        guild = discord.Object(id=guild_id)
        self.tree.copy_global_to(guild=guild)
        synced = await self.tree.sync(guild=guild)
        log.info("synced %d commands to dev guild %d", len(synced), guild_id)

    async def close(self) -> None:
        self.shutting_down = True
        await super().close()
        if hasattr(self, "service"):
            self.service.bots.close()
        if hasattr(self, "database"):
            await self.database.close()

    async def on_ready(self) -> None:
        log.info("connected as %s (%s)", self.user, getattr(self.user, "id", "?"))

    # ---- display names for board labels -------------------------------------------------

    def remember_name(self, user: discord.abc.User) -> None:
        """Note a user's display name (from an interaction) for later board labels."""
        self._names[user.id] = user.display_name
        self._names.move_to_end(user.id)
        while len(self._names) > _NAME_CACHE_SIZE:
            self._names.popitem(last=False)

    async def display_name(self, user_id: int) -> str:
        """A user's display name: remembered, cached by discord.py, or fetched once; the
        bot's own seats are "Gameroom (level N)" (:func:`bot.service.bot_seats.bot_name`)
        and a forgotten player's anonymous id "Anonymous"."""
        if is_bot(user_id):
            return bot_name(user_id)
        if is_anonymous(user_id):
            return ANONYMOUS_NAME  # a forgotten player (/forget-me): no Discord user to ask
        name = self._names.get(user_id)
        if name is not None:
            return name
        user = self.get_user(user_id)
        if user is None:
            user = await self.fetch_user(user_id)
        self.remember_name(user)
        return user.display_name

    async def seat_labels(self, snapshot: GameSnapshot) -> tuple[str, ...] | None:
        """The players' names in seat order for the board, or ``None`` if one is unknown."""
        try:
            return tuple([await self.display_name(p.user_id) for p in snapshot.players])
        except discord.HTTPException:
            log.warning("game %d: could not look up player names", snapshot.game_id)
            return None


#: The ui and the cogs are typed against :class:`~bot.ui.host.BotHost`; mypy checks here that
#: the bot they are given satisfies it.
_HOST: type[BotHost] = GameroomBot
