"""Clocks on Discord: ``/claim``, the "Claim on time" button, and the clock timers' posts.

The service keeps the clocks (:mod:`bot.service.clocks`); this cog only says what happened.
The timer loop (:mod:`bot.cogs.timers`) runs this cog's :meth:`ClocksCog.timer_handlers`:

* ``clock`` — a seat's deadline. On a hard clock the service applies the time-out and the
  board is posted with what the game's rule played, or the result; on a soft clock one line
  tells the opponents they may claim, with a "Claim on time" button.
* ``final_warning`` — shortly before a clock runs out, its player is mentioned in the
  game's channel (whatever their reminder settings); on a soft clock the post says that an
  opponent may claim after the deadline (or that the bot claims at once).

A time-out the service applies while answering a move made too late reaches this cog as a
clock listener (:meth:`bot.service.GameService.add_clock_listener`) and is posted the same way.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping

import discord
from discord import app_commands
from discord.ext import commands

from bot import presenters
from bot.service import StaleActionError
from bot.service.clocks import CLOCK_TIMER, FINAL_WARNING_TIMER
from bot.service.models import ClockEvent, ClockEventKind
from bot.service.timers import Handler
from bot.ui.board import post_board, retire_offers, turn_in_order
from bot.ui.buttons import CLOCKS_COG, GameButton
from bot.ui.custom_ids import GameAction, GameButtonId
from bot.ui.host import BotHost, Interaction
from bot.ui.replies import (
    answer_errors,
    channel_id_of,
    close_post,
    edit_post,
    post_in_channel,
)
from db.rows import NewTimer, TimerRow

__all__ = ["ClocksCog", "claim_view"]

log = logging.getLogger(__name__)


def claim_view(game_id: int, version: int) -> discord.ui.View:
    """The "Claim on time" button under a soft clock's time-out notice (drawn at ``version``
    of game ``game_id``; the claim itself checks the clock as it is when pressed)."""
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton(GameButtonId(game_id, GameAction.CLAIM_TIME, version)))
    return view


class ClocksCog(commands.Cog, name=CLOCKS_COG):
    """Claims on time, and the posts of clock deadlines and final warnings."""

    def __init__(self, bot: BotHost) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        # setup_hook builds the service before it loads the cogs; a bot loaded without one
        # (a test of the command tree) has no time-outs to hear of.
        service = getattr(self.bot, "service", None)
        if service is not None:
            service.add_clock_listener(self.announce)

    async def cog_unload(self) -> None:
        service = getattr(self.bot, "service", None)
        if service is not None:
            service.remove_clock_listener(self.announce)

    # ---- timers -------------------------------------------------------------------------

    def timer_handlers(self) -> Mapping[str, Handler]:
        """The timer kinds this cog runs (collected by the timer loop on every tick)."""
        return {CLOCK_TIMER: self.on_clock_timer, FINAL_WARNING_TIMER: self.on_final_warning}

    async def on_clock_timer(self, timer: TimerRow) -> NewTimer | None:
        """A seat's deadline: apply it (service) and say what happened; stale ones say
        nothing. Never schedules a follow-up (the service plans the next deadlines).

        The time-out and its post hold the game channel's turn order
        (:func:`~bot.ui.board.turn_in_order`): a time-out that plays a default decision can
        hand a bot the move, and the bot's board must not come above it."""
        row = await self.bot.database.games.get(timer.game_id) if timer.game_id else None
        async with contextlib.AsyncExitStack() as order:
            if row is not None:
                await order.enter_async_context(turn_in_order(self.bot, row.channel_id))
            event = await self.bot.service.clock_timer_fired(timer)
            if event is not None:
                await self.announce(event)
        return None

    async def on_final_warning(self, timer: TimerRow) -> NewTimer | None:
        """A clock runs out soon: mention its player in the game's channel."""
        warning = await self.bot.service.final_warning_due(timer)
        if warning is None:
            return None
        await post_in_channel(
            self.bot,
            warning.channel_id,
            presenters.final_warning_text(warning),
            guild_id=warning.guild_id,
            mention_ids=(warning.user_id,),
        )
        return None

    async def announce(self, event: ClockEvent) -> None:
        """Post ``event`` in its game's channel: a soft clock's notice with the claim button
        (pinging the opponents), else the board after the time-out (pinging the players to
        move next, the one out of time and those its moves sent to ``/hand``, or everyone
        once the game is over). A failed post
        is logged: the time-out stands and ``/board`` shows it."""
        snapshot = event.snapshot
        text = presenters.clock_event_text(event)
        if event.kind is ClockEventKind.FLAGGED_SOFT:
            # A notice still stored (one a resignation's retire never reached: a crash) is
            # stale once a new one is due: it would keep a live button for good.
            await self.bot.claim_notices.retire(snapshot.game_id, presenters.CLAIM_LAPSED)
            notice = await post_in_channel(
                self.bot,
                snapshot.channel_id,
                text,
                guild_id=snapshot.guild_id,
                mention_ids=presenters.claimers_named(event),
                view=claim_view(snapshot.game_id, snapshot.version),
            )
            if notice is not None:
                # Kept, so the late move, a claim or the game's end retires its button.
                await self.bot.claim_notices.remember(snapshot.game_id, notice, ply=snapshot.ply)
            return
        if event.claimed_by is not None:
            # A /claim: the notice (if still live) says who claimed, like its button would.
            await self.bot.claim_notices.retire(snapshot.game_id, presenters.claimed_text(event))
        if snapshot.is_active:
            mentions = (*snapshot.to_move_user_ids, event.user_id, *event.told_privately)
        else:
            mentions = snapshot.user_ids
        await post_board(self.bot, snapshot, text, mention_ids=mentions)
        # The time-out's moves (or resignation) were committed like a move, which ends an
        # open draw offer, also when the game goes on.
        if not snapshot.is_active:
            lapsed = presenters.DRAW_OFFER_ENDED
        elif event.kind is ClockEventKind.RESIGNED_ON_TIME:
            lapsed = presenters.DRAW_OFFER_RESIGNED
        else:
            lapsed = presenters.DRAW_OFFER_LAPSED
        await retire_offers(self.bot, snapshot, lapsed)

    # ---- claims -------------------------------------------------------------------------

    @app_commands.command(
        name="claim", description="Claim the time-out of a player whose soft clock ran out"
    )
    async def claim(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            self.bot.remember_name(interaction.user)
            async with turn_in_order(self.bot, channel_id_of(interaction)):
                event = await self.bot.service.claim_on_time(
                    channel_id_of(interaction), interaction.user.id
                )
                await self.announce(event)
            await interaction.followup.send("Claimed on time.", ephemeral=True)

    async def on_game_button(self, interaction: Interaction, button: GameButtonId) -> None:
        """ "Claim on time" under a soft clock's notice: claim, close the notice, post."""
        await interaction.response.defer()
        async with (
            answer_errors(interaction, game_id=button.game_id),
            # Held from the claim to its posts, as for a draw's answer: a double click's
            # second press finds the notice answered and leaves it so (close_post).
            turn_in_order(self.bot, channel_id_of(interaction)),
        ):
            self.bot.remember_name(interaction.user)
            try:
                event = await self.bot.service.claim_on_time(
                    channel_id_of(interaction), interaction.user.id, game_id=button.game_id
                )
            except StaleActionError:
                await close_post(interaction, presenters.CLAIM_CLOSED)
                raise
            await self.bot.claim_notices.forget(button.game_id)  # this post, answered here
            await edit_post(interaction, presenters.claimed_text(event))
            await self.announce(event)


async def setup(bot: BotHost) -> None:
    await bot.add_cog(ClocksCog(bot))
