"""Takebacks and rematches: ``/takeback``, its Allow / Refuse buttons, and the Rematch button.

``/takeback`` asks the opponent, in the game's channel, to let the caller take back their last
move; the post pings the opponent and carries Allow takeback / Refuse
(:func:`bot.ui.buttons.takeback_view`). Allowing it posts the board as it was before the move;
refusing (or the requester withdrawing with Refuse) edits the post; a move in between closes
the request, and a press on its buttons then says so. The Rematch button under the final
board (:func:`bot.ui.board.board_view`) opens a new challenge for the same players, options and
clock, seats rotated, posted as ``/challenge`` posts its lobbies. Each handler is defer →
service → present, like the rest of the bot.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot import presenters
from bot.service import StaleActionError
from bot.service.bot_seats import bot_level, is_bot
from bot.service.models import TakebackAnswer
from bot.service.social import RematchOpenError
from bot.ui.board import post_board
from bot.ui.buttons import CHALLENGES_COG, SOCIAL_COG, takeback_view
from bot.ui.custom_ids import GameAction, GameButtonId
from bot.ui.host import BotHost, Interaction
from bot.ui.replies import (
    answer_errors,
    channel_id_of,
    edit_post,
    post_in_channel,
    send_ephemeral,
)

if TYPE_CHECKING:
    from bot.cogs.challenges import ChallengesCog

log = logging.getLogger(__name__)


class SocialCog(commands.Cog, name=SOCIAL_COG):
    """Asking the other players: take a move back, play again."""

    def __init__(self, bot: BotHost) -> None:
        self.bot = bot

    @app_commands.command(
        name="takeback", description="Ask your opponent to let you take back your last move"
    )
    async def takeback(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            self.bot.remember_name(interaction.user)
            request = await self.bot.service.request_takeback(
                channel_id_of(interaction), interaction.user.id
            )
            posted = await post_in_channel(
                self.bot,
                channel_id_of(interaction),
                presenters.takeback_request_text(request),
                guild_id=interaction.guild_id,
                mention_ids=request.opponent_user_ids,
                view=takeback_view(request.game_id, request.version),
            )
            if posted is None:
                # Nobody could answer a request nobody sees: withdraw it.
                await self.bot.service.answer_takeback(
                    request.game_id, interaction.user.id, accept=False, version=request.version
                )
                await interaction.followup.send(
                    "I could not post your request in this channel, so it is off.",
                    ephemeral=True,
                )
                return
            if any(is_bot(user_id) for user_id in request.opponent_user_ids):
                answer = await self.bot.service.bots.answer_takeback(request)
                if answer is not None:
                    await self._show_answer(posted, answer)
                await interaction.followup.send("Takeback asked of the bot.", ephemeral=True)
                return
            await interaction.followup.send(
                "Takeback asked; your opponent may allow or refuse it.", ephemeral=True
            )

    async def _show_answer(self, request_post: discord.Message, answer: TakebackAnswer) -> None:
        """The bot answered a takeback at once: say so on the request's post (no buttons
        left to press) and, if allowed, post the board as it was."""
        try:
            await request_post.edit(content=presenters.takeback_answer_text(answer), view=None)
        except discord.HTTPException:
            log.warning("game %d: could not edit the takeback request", answer.snapshot.game_id)
        await self._post_taken_back(answer)

    async def _post_taken_back(self, answer: TakebackAnswer) -> None:
        """After an allowed takeback: the board as it was, mentioning who moves now."""
        if answer.accepted:
            snapshot = answer.snapshot
            await post_board(
                self.bot,
                snapshot,
                presenters.takeback_done_text(answer),
                mention_ids=snapshot.to_move_user_ids,
            )

    async def on_game_button(self, interaction: Interaction, button: GameButtonId) -> None:
        """A button of this cog was pressed: Rematch, or a takeback request's answer."""
        if button.action is GameAction.REMATCH:
            await self._on_rematch(interaction, button)
            return
        await interaction.response.defer()
        async with answer_errors(interaction, game_id=button.game_id):
            self.bot.remember_name(interaction.user)
            try:
                answer = await self.bot.service.answer_takeback(
                    button.game_id,
                    interaction.user.id,
                    accept=button.action is GameAction.TAKEBACK_ACCEPT,
                    version=button.version,
                )
            except StaleActionError:
                await edit_post(interaction, presenters.TAKEBACK_REQUEST_CLOSED)
                raise
            await edit_post(interaction, presenters.takeback_answer_text(answer))
            await self._post_taken_back(answer)

    async def _on_rematch(self, interaction: Interaction, button: GameButtonId) -> None:
        """Rematch: open the new challenge and post its lobby where ``/challenge`` would.

        A game played in a thread that is archived by now gets its rematch in the thread's
        parent channel. A second press while that challenge is open points at it.
        """
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction, game_id=button.game_id):
            self.bot.remember_name(interaction.user)
            channel = interaction.channel
            archived = isinstance(channel, discord.Thread) and (channel.archived or channel.locked)
            try:
                info = await self.bot.service.rematch(
                    button.game_id, interaction.user.id, in_parent=archived
                )
            except RematchOpenError as already:
                await send_ephemeral(interaction, presenters.rematch_open_text(already.challenge))
                return
            challenges = self.bot.get_cog(CHALLENGES_COG)
            if challenges is None:
                log.error("rematch of game %d: the challenges cog is not loaded", button.game_id)
                await self.bot.service.cancel_challenge(info.challenge_id, info.challenger_id)
                await send_ephemeral(interaction, presenters.APOLOGY)
                return
            lobby = cast("ChallengesCog", challenges)
            levels = [level for u in info.seating or () if (level := bot_level(u)) is not None]
            message = await lobby._post_challenge(info, buttons=not levels)
            if levels:  # the bot takes its seats again, at the same levels
                await lobby._seat_bots(interaction, info, message, levels)
            await interaction.followup.send("Rematch challenge posted.", ephemeral=True)


async def setup(bot: BotHost) -> None:
    await bot.add_cog(SocialCog(bot))
