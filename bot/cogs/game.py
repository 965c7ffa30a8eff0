"""``/game info|rules|moves|abort``: facts about this channel's game, and stopping it."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, TypeAlias

import discord
from discord import app_commands
from discord.ext import commands

from bot import presenters
from bot.service import NoGameHereError
from bot.ui.board import post_board
from bot.ui.menus import GAME_CHOICES
from bot.ui.replies import answer_errors, channel_id_of
from engines import ENGINES

if TYPE_CHECKING:
    from bot.client import GameroomBot

Interaction: TypeAlias = "discord.Interaction[GameroomBot]"


class GameCog(commands.GroupCog, name="Game", group_name="game"):
    """The ``/game`` group."""

    def __init__(self, bot: GameroomBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="info", description="Players, options and state of this game")
    async def info(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            snapshot = await self.bot.service.snapshot(channel_id_of(interaction))
            await interaction.followup.send(
                presenters.game_info_text(snapshot),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )

    @app_commands.command(name="rules", description="The rules and move notation of a game")
    @app_commands.describe(game="Which game (default: the one in this channel)")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: Interaction, game: str | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            if game is None:
                try:
                    game = (await self.bot.service.snapshot(channel_id_of(interaction))).game
                except NoGameHereError:
                    game = next(iter(ENGINES))
            for chunk in presenters.split_message(presenters.rules_text(ENGINES[game].info)):
                await interaction.followup.send(chunk, ephemeral=True)

    @app_commands.command(name="moves", description="The move list of this game")
    async def moves(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            channel_id = channel_id_of(interaction)
            snapshot = await self.bot.service.snapshot(channel_id)
            text = presenters.move_list_text(snapshot, await self.bot.service.move_list(channel_id))
            if len(text) + 8 <= presenters.MESSAGE_LIMIT:
                await interaction.followup.send(f"```\n{text}\n```", ephemeral=True)
                return
            file = discord.File(
                io.BytesIO(text.encode()), filename=f"{snapshot.game}-{snapshot.game_id}.txt"
            )
            await interaction.followup.send(
                f"{snapshot.ply} plies: the list is attached.", file=file, ephemeral=True
            )

    @app_commands.command(name="abort", description="Stop this game without a result")
    async def abort(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            # Resolved permissions of the member in this channel, sent with the interaction.
            moderator = interaction.permissions.manage_messages
            snapshot = await self.bot.service.abort(
                channel_id_of(interaction), interaction.user.id, moderator=moderator
            )
            text = presenters.abort_text(snapshot, interaction.user.id)
            posted = await post_board(self.bot, snapshot, text, mention_ids=snapshot.user_ids)
            ack = "Game aborted." if posted else "Game aborted, but I could not post here."
            await interaction.followup.send(ack, ephemeral=True)


async def setup(bot: GameroomBot) -> None:
    await bot.add_cog(GameCog(bot))
