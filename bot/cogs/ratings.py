"""``/rating``, ``/leaderboard`` and ``/forget-me`` (docs/ratings.md).

Thin as every cog: defer, ask the service, draw the picture in a worker thread
(:mod:`render.ratings`), post it with its caption.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Final

import discord
from discord import app_commands
from discord.ext import commands

from ai.levels import LEVELS
from bot import presenters
from bot.service.bot_seats import bot_user_id
from bot.service.rating_models import Leaderboard, LeaderboardEntry, RatingProfile
from bot.ui.host import BotHost, Interaction
from bot.ui.menus import GAME_CHOICES
from bot.ui.replies import answer_errors
from render.ratings import LeaderboardLine, ProfileGame, leaderboard_png, profile_card_png

__all__ = ["RATINGS_COG", "RatingsCog"]

log = logging.getLogger(__name__)

#: The cog's name (``bot.get_cog(RATINGS_COG)``).
RATINGS_COG: Final = "Ratings"
#: How many players a leaderboard lists.
LEADERBOARD_SIZE: Final = 15


class RatingsCog(commands.Cog, name=RATINGS_COG):
    """Ratings: profile cards, leaderboards, and forgetting a user."""

    def __init__(self, bot: BotHost) -> None:
        self.bot = bot

    async def _name(self, user_id: int) -> str:
        """A name for a picture: the display name (a forgotten player's is "Anonymous"), or
        ``User <id>`` when Discord cannot say."""
        try:
            return await self.bot.display_name(user_id)
        except discord.HTTPException:
            return f"User {user_id}"

    @app_commands.command(name="rating", description="A player's ratings, record and history")
    @app_commands.describe(
        user="Whose ratings (default: yours)",
        game="Which game first (default: most played); for the bot, that game only",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def rating(
        self, interaction: Interaction, user: discord.User | None = None, game: str | None = None
    ) -> None:
        await interaction.response.defer(thinking=True)
        async with answer_errors(interaction):
            target = user or interaction.user
            me = self.bot.user
            if me is not None and target.id == me.id:
                await self._bot_levels(interaction, game)
                return
            self.bot.remember_name(target)
            profile = await self.bot.service.rating_profile(target.id, game)
            name, games, title, history, best = await self._profile_picture(
                profile, target.display_name
            )
            png = await asyncio.to_thread(
                profile_card_png, name, games, chart_title=title, history=history, best_win=best
            )
            await interaction.followup.send(
                presenters.profile_caption(profile),
                file=discord.File(io.BytesIO(png), filename=f"rating-{target.id}.png"),
                allowed_mentions=discord.AllowedMentions.none(),
            )

    async def _bot_levels(self, interaction: Interaction, game: str | None) -> None:
        """``/rating user:@Gameroom``: the bot has a rating per level, not one of its own
        (docs/ratings.md), so the answer lists the five levels' ratings in text."""
        profiles = [
            await self.bot.service.rating_profile(bot_user_id(level.number), game)
            for level in LEVELS
        ]
        for chunk in presenters.split_message(presenters.bot_levels_caption(profiles, game)):
            await interaction.followup.send(chunk, allowed_mentions=discord.AllowedMentions.none())

    async def _profile_picture(
        self, profile: RatingProfile, name: str
    ) -> tuple[str, list[ProfileGame], str, list[tuple[float, int]], str | None]:
        games = [
            ProfileGame(
                g.game_name,
                presenters.profile_rating_text(g),
                g.games,
                g.wins,
                g.draws,
                g.losses,
            )
            for g in profile.ratings
        ]
        first = profile.ratings[0] if profile.ratings else None
        history = [(at.timestamp(), value) for at, value in first.history] if first else []
        title = f"{first.game_name} rating history" if first else "Rating history"
        best = None
        if first is not None and first.best_win is not None:
            opponent, rating, game_id = first.best_win
            best = f"{await self._name(opponent)} ({rating}), game {game_id}"
        return name, games, title, history, best

    @app_commands.command(name="leaderboard", description="The best rated players of a game")
    @app_commands.describe(game="Which game", scope="This server's players, or everyone")
    @app_commands.choices(
        game=GAME_CHOICES,
        scope=[
            app_commands.Choice(name="this server", value="server"),
            app_commands.Choice(name="global", value="global"),
        ],
    )
    async def leaderboard(self, interaction: Interaction, game: str, scope: str = "server") -> None:
        await interaction.response.defer(thinking=True)
        async with answer_errors(interaction):
            board = await self.bot.service.leaderboard(
                game,
                scope=scope,
                guild_id=interaction.guild_id,
                caller_id=interaction.user.id,
                limit=LEADERBOARD_SIZE,
            )
            lines = [await self._line(e, interaction.user.id) for e in board.entries]
            caller = (
                None
                if board.caller is None
                else await self._line(board.caller, interaction.user.id)
            )
            if caller is not None and board.caller_note:
                caller = None  # not listed: the caption says why
            png = await asyncio.to_thread(
                leaderboard_png,
                presenters.leaderboard_title(board),
                lines,
                caller=caller,
                footer=presenters.leaderboard_footer(board),
            )
            await interaction.followup.send(
                presenters.leaderboard_caption(board, interaction.user.id),
                file=discord.File(io.BytesIO(png), filename=_filename(board)),
                allowed_mentions=discord.AllowedMentions.none(),
            )

    async def _line(self, entry: LeaderboardEntry, caller_id: int) -> LeaderboardLine:
        return LeaderboardLine(
            entry.place,
            await self._name(entry.user_id),
            entry.rating,
            entry.games,
            entry.trend,
            highlight=entry.user_id == caller_id,
        )

    @app_commands.command(
        name="forget-me",
        description="Anonymise you in past games and delete your ratings and settings",
    )
    @app_commands.describe(confirm=f"Type '{presenters.FORGET_ME_PHRASE}' to confirm")
    async def forget_me(self, interaction: Interaction, confirm: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            if confirm.strip().lower() != presenters.FORGET_ME_PHRASE:
                await interaction.followup.send(presenters.forget_me_refused_text(), ephemeral=True)
                return
            anonymous = await self.bot.service.forget_me(interaction.user.id)
            log.info("a user was forgotten (now %d)", anonymous)
            await interaction.followup.send(presenters.forget_me_done_text(), ephemeral=True)


def _filename(board: Leaderboard) -> str:
    return f"leaderboard-{board.game}-{board.scope}.png"


async def setup(bot: BotHost) -> None:
    await bot.add_cog(RatingsCog(bot))
