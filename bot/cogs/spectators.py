"""Spectators and the end of game threads: ``/watch``, ``/unwatch``, the Watch button,
``/games``, and the ``thread_archive`` timer.

Each command is defer → :class:`~bot.service.spectators.Spectators` → one ephemeral answer.
Watchers hear of a game from :func:`bot.ui.board.post_board`, which every board post goes
through; this cog only records who watches. The ``thread_archive`` handler runs in the timer
loop (:mod:`bot.cogs.timers` collects it through :meth:`SpectatorsCog.timer_handlers`) and
archives the thread of a game that ended a while ago.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import Final

import discord
from discord import app_commands
from discord.ext import commands

from bot import presenters
from bot.service.spectators import (
    THREAD_ARCHIVE_TIMER,
    GamesList,
    GamesScope,
    Spectators,
    WatchChange,
    WatchResult,
)
from bot.service.timers import Handler
from bot.ui.board import direct_message
from bot.ui.buttons import SPECTATORS_COG
from bot.ui.custom_ids import GameAction, GameButtonId
from bot.ui.host import BotHost, Interaction
from bot.ui.replies import (
    answer_errors,
    channel_id_of,
    game_channel,
    may_view,
    require_visible_game,
)
from db.rows import TimerRow

log = logging.getLogger(__name__)

#: The largest integer a Discord option carries (game ids are far below it).
MAX_GAME_ID: Final = 2**53

_SCOPES = [
    app_commands.Choice(name="this channel and its threads", value=GamesScope.CHANNEL.value),
    app_commands.Choice(name="this server", value=GamesScope.SERVER.value),
    app_commands.Choice(name="mine (played or watched)", value=GamesScope.MINE.value),
]


class SpectatorsCog(commands.Cog, name=SPECTATORS_COG):
    """Following games one does not play, and finding games to follow."""

    def __init__(self, bot: BotHost) -> None:
        self.bot = bot

    @property
    def spectators(self) -> Spectators:
        """Watchers and listings of the bot's service (which exists once the bot is set up;
        the cog may be loaded before, as the extension tests do)."""
        return Spectators(self.bot.service)

    # ---- /watch, /unwatch, the Watch button -----------------------------------------------

    @app_commands.command(
        name="watch", description="Follow a game you do not play: hear of its end, or every move"
    )
    @app_commands.describe(
        game_id="Which game (default: this channel's); any game of this server",
        every_move="Hear of every move, not only of the end (default: only the end)",
    )
    async def watch(
        self,
        interaction: Interaction,
        game_id: app_commands.Range[int, 1, MAX_GAME_ID] | None = None,
        every_move: bool = False,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction, game_id=game_id):
            await require_visible_game(interaction, self.bot.service, game_id)
            result = await self.spectators.watch(
                channel_id_of(interaction),
                interaction.user.id,
                guild_id=interaction.guild_id,
                game_id=game_id,
                every_move=every_move,
            )
            answer = await self._watch_answer(interaction.user.id, result, button=False)
            await interaction.followup.send(answer, ephemeral=True)

    @app_commands.command(name="unwatch", description="Stop following a game")
    @app_commands.describe(game_id="Which game (default: this channel's)")
    async def unwatch(
        self,
        interaction: Interaction,
        game_id: app_commands.Range[int, 1, MAX_GAME_ID] | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction, game_id=game_id):
            result = await self.spectators.unwatch(
                channel_id_of(interaction),
                interaction.user.id,
                guild_id=interaction.guild_id,
                game_id=game_id,
            )
            await interaction.followup.send(
                presenters.watch_text(result, button=False), ephemeral=True
            )

    async def on_game_button(self, interaction: Interaction, button: GameButtonId) -> None:
        """Watch under a board: follow that game after every move, or stop following it.

        Any board of the game works, however old (the version is only noted).
        """
        if button.action is not GameAction.WATCH:
            raise ValueError(f"the spectators cog has no {button.action} button")
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction, game_id=button.game_id):
            result = await self.spectators.toggle(button.game_id, interaction.user.id)
            answer = await self._watch_answer(interaction.user.id, result, button=True)
            await interaction.followup.send(answer, ephemeral=True)

    async def _watch_answer(self, user_id: int, result: WatchResult, *, button: bool) -> str:
        """The answer to ``user_id``'s watch request (the Watch ``button`` or ``/watch``).
        A watch that starts of a game played in a channel (news comes by direct message, not
        by a mention in a thread) is confirmed by direct message first: if the user takes
        none from the bot, the answer says so, instead of the watcher never hearing of the
        game's end."""
        text = presenters.watch_text(result, button=button)
        if result.change is not WatchChange.STARTED or result.in_thread:
            return text
        confirmation = presenters.watch_confirmation_text(result)
        if await direct_message(self.bot, user_id, confirmation) is False:  # refused (403)
            return f"{text} {presenters.WATCH_NO_DIRECT_MESSAGES}"
        return text  # sent, or Discord failed this once (logged): nothing to advise

    # ---- /games -------------------------------------------------------------------------

    @app_commands.command(
        name="games", description="Games in progress here, on this server, or yours"
    )
    @app_commands.describe(scope="Which games (default: this channel's; yours in a DM)")
    @app_commands.choices(scope=_SCOPES)
    async def games(self, interaction: Interaction, scope: str | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            if scope is None:
                chosen = GamesScope.MINE if interaction.guild_id is None else GamesScope.CHANNEL
            else:
                chosen = GamesScope(scope)
            listing = await self.spectators.games(
                chosen,
                user_id=interaction.user.id,
                guild_id=interaction.guild_id,
                channel_id=channel_id_of(interaction),
            )
            if chosen is GamesScope.SERVER:
                # Only games in channels the caller can read (a hidden channel's game is
                # nobody else's business).
                visible = tuple(
                    g for g in listing.games if may_view(interaction, game_channel(g.snapshot))
                )
                hidden = len(listing.games) - len(visible)
                listing = replace(listing, games=visible, total=listing.total - hidden)
            names = await self._names(listing)
            in_thread = isinstance(interaction.channel, discord.Thread)
            text = presenters.games_list_text(listing, names, in_thread=in_thread)
            for chunk in presenters.split_message(text):
                await interaction.followup.send(
                    chunk, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
                )

    async def _names(self, listing: GamesList) -> dict[int, str]:
        """Display names of every player listed; one that cannot be looked up is left out
        (the list shows its id)."""
        names: dict[int, str] = {}
        for item in listing.games:
            for user_id in item.snapshot.user_ids:
                if user_id in names:
                    continue
                try:
                    names[user_id] = await self.bot.display_name(user_id)
                except discord.HTTPException:
                    log.warning("could not look up the name of user %d", user_id)
        return names

    # ---- the thread_archive timer -------------------------------------------------------

    def timer_handlers(self) -> Mapping[str, Handler]:
        """This cog runs the ``thread_archive`` timers (:mod:`bot.cogs.timers`)."""
        return {THREAD_ARCHIVE_TIMER: self.archive_thread}

    async def archive_thread(self, timer: TimerRow) -> None:
        """Archive the thread of the game ``timer`` is about, if it is still to be archived.

        A thread that is gone (deleted) or that the bot may no longer edit (403) is logged
        and left alone: retrying would not help. Other Discord errors raise, so the timer
        loop retries later.
        """
        thread_id = await self.spectators.thread_to_archive(timer)
        if thread_id is None:
            return
        try:
            channel = self.bot.get_channel(thread_id) or await self.bot.fetch_channel(thread_id)
            if not isinstance(channel, discord.Thread):
                log.warning("game %s: channel %d is not a thread", timer.game_id, thread_id)
                return
            if channel.archived:
                return
            await channel.edit(archived=True)
        except discord.NotFound:
            log.info("game %s: thread %d is gone; nothing to archive", timer.game_id, thread_id)
            return
        except discord.Forbidden:
            log.warning("game %s: not allowed to archive thread %d", timer.game_id, thread_id)
            return
        log.info("game %s: thread %d archived", timer.game_id, thread_id)


async def setup(bot: BotHost) -> None:
    await bot.add_cog(SpectatorsCog(bot))
