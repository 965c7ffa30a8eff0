"""Takebacks and rematches: ``/takeback``, its Allow / Refuse buttons, and the Rematch button.

``/takeback`` asks the opponent, in the game's channel, to let the caller take back their last
move; the post pings the opponent and carries Allow takeback / Refuse
(:func:`bot.ui.buttons.takeback_view`). Allowing it posts the board as it was before the move,
holding the channel's turn order (:func:`bot.ui.board.turn_in_order`) from the commit to that
post like a move does, so the requester's quick next move cannot post above it;
refusing (or the requester withdrawing with Refuse) edits the post; a move in between closes
the request, and a press on its buttons then says so. The Rematch button under the final
board (:func:`bot.ui.board.board_view`) opens a new challenge for the same players, options and
clock, seats rotated, posted as ``/challenge`` posts its lobbies; under a game the bot played
in it first asks the presser, in an ephemeral menu, at which level the bot plays the rematch
(:mod:`bot.ui.rematch_menu`). Each handler is defer → service → present, like the rest of the
bot.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot import presenters
from bot.service import StaleActionError
from bot.service.bot_seats import bot_level, is_bot
from bot.service.models import TakebackAnswer
from bot.service.social import RematchOpenError
from bot.ui.board import post_board, turn_in_order
from bot.ui.buttons import CHALLENGES_COG, SOCIAL_COG, takeback_view
from bot.ui.custom_ids import GameAction, GameButtonId
from bot.ui.host import BotHost, Interaction
from bot.ui.rematch_menu import rematch_level_view
from bot.ui.replies import (
    answer_errors,
    channel_id_of,
    close_post,
    edit_post,
    post_in_channel,
    send_ephemeral,
)

if TYPE_CHECKING:
    from bot.cogs.challenges import ChallengesCog

log = logging.getLogger(__name__)

#: How many used Rematch level menus the cog remembers (to answer a double click).
_CHOSEN_MENUS_KEPT = 256


class SocialCog(commands.Cog, name=SOCIAL_COG):
    """Asking the other players: take a move back, play again."""

    def __init__(self, bot: BotHost) -> None:
        self.bot = bot
        #: Messages of Rematch level menus a choice was made in (in flight or done), so a
        #: double click opens one rematch.
        self._chosen_menus: OrderedDict[int, None] = OrderedDict()

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
            # Kept, so that a move, a resignation or the game's end retires its buttons.
            await self.bot.takebacks.remember(request.game_id, posted)
            if any(is_bot(user_id) for user_id in request.opponent_user_ids):
                async with turn_in_order(self.bot, channel_id_of(interaction)):
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
        await self.bot.takebacks.forget(answer.snapshot.game_id)
        try:
            await request_post.edit(content=presenters.takeback_answer_text(answer), view=None)
        except discord.HTTPException:
            log.warning("game %d: could not edit the takeback request", answer.snapshot.game_id)
        await self._post_taken_back(answer)

    async def _post_taken_back(self, answer: TakebackAnswer) -> None:
        """After an allowed takeback: the board as it was, mentioning who moves now; a soft
        clock's time-out notice against the seat that was to move lapses with its turn."""
        if answer.accepted:
            snapshot = answer.snapshot
            await post_board(
                self.bot,
                snapshot,
                presenters.takeback_done_text(answer),
                mention_ids=snapshot.to_move_user_ids,
            )
            await self.bot.claim_notices.retire(snapshot.game_id, presenters.CLAIM_LAPSED)

    async def on_game_button(self, interaction: Interaction, button: GameButtonId) -> None:
        """A button of this cog was pressed: Rematch, or a takeback request's answer."""
        if button.action is GameAction.REMATCH:
            await self._on_rematch(interaction, button)
            return
        await interaction.response.defer()
        async with answer_errors(interaction, game_id=button.game_id):
            self.bot.remember_name(interaction.user)
            async with turn_in_order(self.bot, channel_id_of(interaction)):
                try:
                    answer = await self.bot.service.answer_takeback(
                        button.game_id,
                        interaction.user.id,
                        accept=button.action is GameAction.TAKEBACK_ACCEPT,
                        version=button.version,
                    )
                except StaleActionError:
                    await close_post(interaction, presenters.TAKEBACK_REQUEST_CLOSED)
                    raise
                await self.bot.takebacks.forget(button.game_id)
                await edit_post(interaction, presenters.takeback_answer_text(answer))
                await self._post_taken_back(answer)

    async def _on_rematch(self, interaction: Interaction, button: GameButtonId) -> None:
        """Rematch: open the new challenge and post its lobby where ``/challenge`` would; under
        a game the bot played in, first ask the presser the bot's level (an ephemeral menu,
        :mod:`bot.ui.rematch_menu`, whose choice comes to :meth:`on_rematch_level`).

        A second press while that challenge is open points at it.
        """
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction, game_id=button.game_id):
            self.bot.remember_name(interaction.user)
            try:
                plan = await self.bot.service.rematches.plan(button.game_id, interaction.user.id)
                if plan.has_bots:
                    await interaction.followup.send(
                        presenters.rematch_level_prompt(plan.bot_levels),
                        view=rematch_level_view(button.game_id, plan.bot_levels),
                        ephemeral=True,
                    )
                    return
                levels = await self._open_rematch(interaction, button.game_id, None)
            except RematchOpenError as already:
                await send_ephemeral(interaction, presenters.rematch_open_text(already.challenge))
                return
            await interaction.followup.send(presenters.rematch_posted_text(levels), ephemeral=True)

    async def on_rematch_level(
        self, interaction: Interaction, game_id: int, level: int | None
    ) -> None:
        """The Rematch level menu: open the rematch with every bot seat at ``level`` (``None``:
        the levels they had).

        A menu opens one rematch: its message becomes what happened (no menu left to choose
        from), and a second choice arriving before that (a double click) is told the first
        one counts. A choice while a rematch of the game is open (from another menu, or
        another player's Rematch) turns the menu into a pointer at it. Refusals (not a
        player, the game gone, the channel busy) are an ephemeral sentence and leave the menu
        as it was, to choose again.
        """
        menu = interaction.message.id if interaction.message is not None else None
        if menu is not None and menu in self._chosen_menus:
            await send_ephemeral(interaction, presenters.REMATCH_ALREADY_CHOSEN)
            return
        self._remember_menu(menu)
        await interaction.response.defer()
        done = False
        try:
            async with answer_errors(interaction, game_id=game_id):
                self.bot.remember_name(interaction.user)
                try:
                    levels = await self._open_rematch(interaction, game_id, level)
                except RematchOpenError as already:
                    done = True
                    await edit_post(interaction, presenters.rematch_open_text(already.challenge))
                    return
                done = True
                await edit_post(interaction, presenters.rematch_posted_text(levels))
        finally:
            if not done and menu is not None:
                self._chosen_menus.pop(menu, None)  # refused: the menu may be used again

    def _remember_menu(self, menu: int | None) -> None:
        """Note that a choice was made in the menu of message ``menu`` (the last few only:
        a used menu's message loses its select once answered)."""
        if menu is None:
            return
        self._chosen_menus[menu] = None
        while len(self._chosen_menus) > _CHOSEN_MENUS_KEPT:
            self._chosen_menus.popitem(last=False)

    async def _open_rematch(
        self, interaction: Interaction, game_id: int, level: int | None
    ) -> list[int]:
        """Open the rematch of ``game_id`` for the user of ``interaction`` with the bots at
        ``level`` (``None``: as they were), post its lobby and seat the bots; returns their
        levels. A game played in a thread that is archived by now gets its rematch in the
        thread's parent channel. Raises the service's errors."""
        channel = interaction.channel
        archived = isinstance(channel, discord.Thread) and (channel.archived or channel.locked)
        info = await self.bot.service.rematch(
            game_id, interaction.user.id, in_parent=archived, bot_level=level
        )
        challenges = self.bot.get_cog(CHALLENGES_COG)
        if challenges is None:  # withdrawn, and answered with the apology
            await self.bot.service.cancel_challenge(info.challenge_id, info.challenger_id)
            raise RuntimeError(f"rematch of game {game_id}: the challenges cog is not loaded")
        lobby = cast("ChallengesCog", challenges)
        levels = [seat for u in info.seating or () if (seat := bot_level(u)) is not None]
        message = await lobby._post_challenge(info, buttons=not levels)
        if levels:  # the bot takes its seats again
            await lobby._seat_bots(interaction, info, message, levels)
        return levels


async def setup(bot: BotHost) -> None:
    await bot.add_cog(SocialCog(bot))
