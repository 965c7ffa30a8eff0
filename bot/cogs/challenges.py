"""``/challenge`` and its buttons: invite someone (or anyone) to a game, accept, decline, cancel.

Accepting starts the game in the challenge's channel, or in a new thread off the challenge post
when the channel already has a game. A loop marks challenges nobody answered as expired and
edits their posts.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Final, TypeAlias

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot import presenters
from bot.service import (
    ChallengeClosedError,
    ChallengeInfo,
    ChannelBusyError,
    GameSnapshot,
    ServiceError,
)
from bot.service.options import MAX_CHOICE_LENGTH, suggest_options
from bot.ui.board import post_board
from bot.ui.buttons import CHALLENGES_COG, challenge_view
from bot.ui.custom_ids import ChallengeAction, ChallengeButtonId
from bot.ui.menus import GAME_CHOICES
from bot.ui.replies import (
    answer_errors,
    channel_id_of,
    edit_post,
    post_in_channel,
    send_ephemeral,
)
from engines import ENGINES

if TYPE_CHECKING:
    from bot.client import GameroomBot

log = logging.getLogger(__name__)

Interaction: TypeAlias = "discord.Interaction[GameroomBot]"

#: Threads for games stay open for a week without activity (games are slow).
THREAD_ARCHIVE_MINUTES: Final = 10080
_THREAD_TYPES = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


def _game_of(interaction: Interaction) -> str:
    """The game the user picked so far in this command (the first one if none yet)."""
    picked = getattr(interaction.namespace, "game", None)
    return picked if isinstance(picked, str) and picked in ENGINES else next(iter(ENGINES))


class ChallengesCog(commands.Cog, name=CHALLENGES_COG):
    """Challenges: the road from "want to play?" to a game with seats."""

    def __init__(self, bot: GameroomBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        # Check often enough that a short TTL (tests, events) expires on time, at most a minute.
        seconds = min(60.0, max(1.0, self.bot.settings.challenge_ttl.total_seconds() / 4))
        self.expire_challenges.change_interval(seconds=seconds)
        self.expire_challenges.start()

    async def cog_unload(self) -> None:
        self.expire_challenges.cancel()

    # ---- /challenge ---------------------------------------------------------------------

    @app_commands.command(name="challenge", description="Challenge someone (or anyone) to a game")
    @app_commands.describe(
        game="The game to play",
        opponent="Who you challenge; leave empty to let anyone accept",
        options="Game options as key=value pairs, e.g. refill=all",
        preset="A named set of options",
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def challenge(
        self,
        interaction: Interaction,
        game: str,
        opponent: discord.User | None = None,
        options: app_commands.Range[str, 0, 200] | None = None,
        preset: str | None = None,
    ) -> None:
        if opponent is not None and opponent.bot:
            await send_ephemeral(interaction, "You can only challenge people, not bots.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            self.bot.remember_name(interaction.user)
            info = await self.bot.service.create_challenge(
                guild_id=interaction.guild_id,
                channel_id=channel_id_of(interaction),
                challenger_id=interaction.user.id,
                opponent_id=None if opponent is None else opponent.id,
                game=game,
                options_text=options,
                preset=preset,
            )
            await self._post_challenge(interaction, info)
            await interaction.followup.send("Challenge posted.", ephemeral=True)

    async def _post_challenge(self, interaction: Interaction, info: ChallengeInfo) -> None:
        message = await post_in_channel(
            self.bot,
            info.channel_id,
            presenters.challenge_text(info),
            guild_id=info.guild_id,
            mention_ids=[] if info.opponent_id is None else [info.opponent_id],
            view=challenge_view(info.challenge_id, open_to_anyone=info.opponent_id is None),
        )
        if message is None:
            # Nobody could answer a challenge nobody sees: withdraw it.
            await self.bot.service.cancel_challenge(info.challenge_id, info.challenger_id)
            raise ServiceError("I cannot post in this channel, so the challenge is off.")
        await self.bot.service.set_challenge_message(info.challenge_id, message.id)

    @challenge.autocomplete("options")
    async def options_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        info = ENGINES[_game_of(interaction)].info
        return [app_commands.Choice(name=s, value=s) for s in suggest_options(info, current)]

    @challenge.autocomplete("preset")
    async def preset_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        info = ENGINES[_game_of(interaction)].info
        typed = current.lower()
        return [
            app_commands.Choice(
                name=f"{p.label} ({p.help})"[:MAX_CHOICE_LENGTH] if p.help else p.label,
                value=p.id,
            )
            for p in info.presets
            if typed in p.id or typed in p.label.lower()
        ][:25]

    # ---- buttons ------------------------------------------------------------------------

    async def on_challenge_button(
        self, interaction: Interaction, button: ChallengeButtonId
    ) -> None:
        """Accept / Decline / Cancel pressed on a challenge post."""
        await interaction.response.defer()
        async with answer_errors(interaction):
            self.bot.remember_name(interaction.user)
            try:
                if button.action is ChallengeAction.ACCEPT:
                    await self._accept(interaction, button.challenge_id)
                else:
                    await self._close(interaction, button)
            except ChallengeClosedError as closed:
                # A double click, or a press the expiry loop has not caught up with:
                # make the post say so, then tell the presser.
                await self._show_closed(interaction, button.challenge_id, closed.status)
                raise

    async def _accept(self, interaction: Interaction, challenge_id: int) -> None:
        service = self.bot.service
        user_id = interaction.user.id
        try:
            snapshot = await service.accept_challenge(challenge_id, user_id)
        except ChannelBusyError:
            snapshot = await self._accept_in_thread(interaction, challenge_id)
        info = await service.get_challenge(challenge_id)
        await edit_post(
            interaction,
            presenters.challenge_closed_text(
                info, by_user_id=user_id, game_channel_id=snapshot.channel_id
            ),
        )
        await post_board(
            self.bot,
            snapshot,
            presenters.game_started_text(snapshot),
            mention_ids=snapshot.user_ids,
        )

    async def _accept_in_thread(self, interaction: Interaction, challenge_id: int) -> GameSnapshot:
        """The channel is busy: open a thread off the challenge post and start the game there."""
        busy = "This channel already has a game in progress; finish it or challenge elsewhere."
        message = interaction.message
        if message is None or getattr(interaction.channel, "type", None) in _THREAD_TYPES:
            raise ChannelBusyError(busy)
        info = await self.bot.service.get_challenge(challenge_id)
        names = [await self.bot.display_name(info.challenger_id), interaction.user.display_name]
        try:
            thread = await message.create_thread(
                name=f"{info.game_name}: {names[0]} vs {names[1]}"[:100],
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
        except discord.HTTPException as exc:
            raise ChannelBusyError(busy) from exc
        try:
            return await self.bot.service.accept_challenge(
                challenge_id,
                interaction.user.id,
                channel_id=thread.id,
                parent_channel_id=info.channel_id,
            )
        except BaseException:
            await _delete_quietly(thread)
            raise

    async def _close(self, interaction: Interaction, button: ChallengeButtonId) -> None:
        service = self.bot.service
        if button.action is ChallengeAction.DECLINE:
            info = await service.decline_challenge(button.challenge_id, interaction.user.id)
        else:
            info = await service.cancel_challenge(button.challenge_id, interaction.user.id)
        await edit_post(interaction, presenters.challenge_closed_text(info))

    async def _show_closed(self, interaction: Interaction, challenge_id: int, status: str) -> None:
        info = await self.bot.service.get_challenge(challenge_id)
        if info.is_open:
            # Past its expiry, but the expiry loop has not marked it yet.
            info = replace(info, status=status)
        channel_id = None
        if info.game_id is not None:
            channel_id = (await self.bot.service.game_snapshot(info.game_id)).channel_id
        await edit_post(
            interaction, presenters.challenge_closed_text(info, game_channel_id=channel_id)
        )

    # ---- expiry -------------------------------------------------------------------------

    @tasks.loop(seconds=60)
    async def expire_challenges(self) -> None:
        """Mark challenges past their expiry and say so on their posts."""
        try:
            expired = await self.bot.service.expire_challenges()
        except Exception:
            log.exception("could not expire challenges")
            return
        for info in expired:
            if info.message_id is None:
                continue
            channel = self.bot.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
            try:
                await channel.get_partial_message(info.message_id).edit(
                    content=presenters.challenge_closed_text(info), view=None
                )
            except discord.HTTPException:
                log.warning("challenge %d: could not edit its post", info.challenge_id)

    @expire_challenges.before_loop
    async def _before_expiry(self) -> None:
        await self.bot.wait_until_ready()


async def _delete_quietly(thread: discord.Thread) -> None:
    try:
        await thread.delete()
    except discord.HTTPException:
        log.warning("could not delete unused thread %d", thread.id)


async def setup(bot: GameroomBot) -> None:
    await bot.add_cog(ChallengesCog(bot))
