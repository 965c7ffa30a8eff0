"""Playing: ``/move``, ``/board``, ``/hand``, ``/hint``, ``/resign``, ``/draw``, the draw-offer
buttons and the "My view" button.

Each handler is defer → service → present, but ``/move``: it plays first and answers with the
board itself (see :meth:`PlayCog.move`). Commands defer ephemerally (errors go to the caller
only); what everyone should see — the board after a move, a resignation, a draw offer — is
posted in the channel once the change is committed. In games with hidden
information, public posts hold only the spectator's view and public events; what a player
alone may see (their private view, the private events of their move) is only ever sent to
them ephemerally.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AsyncExitStack

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import MISSING

from bot import presenters
from bot.service import NoGameHereError, NotAPlayerError, ServiceError, StaleActionError
from bot.service.bot_seats import is_bot
from bot.service.clock_plans import BOARD_POST_TIMER
from bot.service.models import DrawOffer, GameSnapshot, PrivateView, TurnResult
from bot.service.timers import Handler
from bot.service.views import public_perspective
from bot.ui.board import (
    board_view,
    post_board,
    post_turn,
    private_file,
    render_file,
    retire_offers,
    turn_in_order,
)
from bot.ui.buttons import PLAY_COG, draw_offer_view
from bot.ui.custom_ids import GameAction, GameButtonId
from bot.ui.host import BotHost, Interaction
from bot.ui.replies import (
    answer_errors,
    answered_in_time,
    channel_id_of,
    close_post,
    edit_post,
    edit_post_text,
    post_in_channel,
    send_ephemeral,
)
from db.rows import TimerRow
from engines.base import CHANCE

log = logging.getLogger(__name__)

#: How many times the post of a draw offer is read again after this process showed who has
#: accepted (:meth:`PlayCog._keep_progress_true`).
PROGRESS_CHECKS = 3


class PlayCog(commands.Cog, name=PLAY_COG):
    """Moves, boards and the ways a game ends by agreement or surrender."""

    def __init__(self, bot: BotHost) -> None:
        self.bot = bot
        self._letting_go: set[asyncio.Task[None]] = set()

    def timer_handlers(self) -> Mapping[str, Handler]:
        """This cog runs the ``board_post`` timers (:mod:`bot.cogs.timers`)."""
        return {BOARD_POST_TIMER: self.on_board_post}

    async def on_board_post(self, timer: TimerRow) -> None:
        """A board was not posted within :data:`~bot.service.clock_plans.BOARD_POST_GRACE`
        after the change that planned it (a move, the start, a resignation, a time-out, an
        agreed draw, an abort): the process that committed it stopped, or Discord refused
        the post. Post it now, mentioning who is to move (or everyone, after the last move),
        unless the game changed since: a later change posts its own board and has its own
        timer; after the end, the offers' posts lose their buttons too. A post Discord
        refuses again is logged and not retried (the game stands; ``/board`` shows it)."""
        if timer.game_id is None:
            return
        version = json.loads(timer.payload_json).get("version")
        try:
            found = await self.bot.service.game_snapshot(timer.game_id)
        except NoGameHereError:
            return
        # Read again once the channel's turn order is held: a move posting its own (newer)
        # board meanwhile must not be followed by this older one.
        async with turn_in_order(self.bot, found.channel_id):
            snapshot = await self.bot.service.game_snapshot(timer.game_id)
            if snapshot.version != version:
                return
            if CHANCE in snapshot.to_move:
                # Started, but its opening chance steps (Arbos' setup, a first roll) were never
                # played: play them, then post that board (its own timer is called off so).
                settled = await self.bot.service.settle_start(timer.game_id)
                if settled is None:
                    return
                snapshot = settled
            log.warning("game %d: the board of version %s was never posted; posting it now",
                        snapshot.game_id, version)  # fmt: skip
            # Everyone after the end and on a first board (as the first post pings, which
            # also adds them to a game's thread); else whoever is to move.
            first = presenters.late_board_is_first(snapshot)
            everyone = first or not snapshot.is_active
            people = snapshot.user_ids if everyone else snapshot.to_move_user_ids
            await post_board(
                self.bot,
                snapshot,
                presenters.late_board_text(snapshot),
                mention_ids=[u for u in people if not is_bot(u)],
            )
            if not snapshot.is_active:
                # Whatever ended it (an agreed draw, a resignation…) closed every offer; the
                # process that stopped did not retire their posts.
                agreed = (
                    snapshot.outcome is not None and snapshot.outcome.termination == "agreement"
                )
                closed = presenters.DRAW_OFFER_CLOSED if agreed else presenters.DRAW_OFFER_ENDED
                await retire_offers(self.bot, snapshot, closed)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Answer the draw offers the bots were to answer when the last process stopped
        (:meth:`~bot.service.endings.Endings.offers_awaiting_bots`): they answer at once in
        the process that took the offer, so a crash in between left the offer unanswered.
        Each is answered on its stored post, under its channel's turn order, as ``/draw``
        does; one without a stored post is left to a move or its Decline. Two processes
        starting at once answer once: the answer is a compare-and-set on the offer's
        version. Failures are logged."""
        try:
            offers = await self.bot.service.offers_awaiting_bots()
        except Exception:
            log.exception("could not read the draw offers awaiting the bots")
            return
        for offer in offers:
            post = await self.bot.draw_offers.post_of(offer.game_id)
            if post is None:
                continue
            log.info("game %d: the bots answer a draw offer left open", offer.game_id)
            try:
                async with turn_in_order(self.bot, post.channel.id):
                    await self._bot_answers(offer, post)
            except Exception:
                log.exception("game %d: the bots could not answer its draw offer", offer.game_id)

    def _let_go(self, order: AsyncExitStack) -> None:
        """Release a move's turn order from a callback (a task, kept until it is done)."""
        task = asyncio.ensure_future(order.aclose())
        self._letting_go.add(task)
        task.add_done_callback(self._letting_go.discard)

    @app_commands.command(name="move", description="Play a move in this channel's game")
    @app_commands.describe(text="Your move, e.g. a1-a3 (/game rules explains the notation)")
    async def move(self, interaction: Interaction, text: app_commands.Range[str, 1, 100]) -> None:
        """Play the move, then answer with the board for everyone — one request.

        The move is validated and committed *before* the interaction is answered, so a
        refusal stays private (an ephemeral sentence) and a played move's answer is the public
        board itself, the interaction's own response (exempt from Discord's message rate
        limits). A move that takes longer than :data:`~bot.ui.replies.ANSWER_WITHIN_S` (then
        deferred), and every move in a game with hidden information (whose ``/move`` text
        must not show under a public answer, and whose mover gets private events), is
        answered privately first and the board follows as a public follow-up. From before the
        commit until the board is posted the channel's turn order is held
        (:func:`~bot.ui.board.turn_in_order`), so boards come in the order of the moves.
        """
        async with answer_errors(interaction), AsyncExitStack() as in_order:
            self.bot.remember_name(interaction.user)
            channel_id = channel_id_of(interaction)

            async def play_in_order() -> tuple[TurnResult, discord.File | None]:
                # Waiting for the previous move's post counts toward deferring the answer.
                await in_order.enter_async_context(turn_in_order(self.bot, channel_id))
                return await self._play_and_draw(channel_id, interaction.user.id, text)

            playing = asyncio.ensure_future(play_in_order())
            try:
                result, drawn = await answered_in_time(interaction, playing)
            except (NoGameHereError, NotAPlayerError) as refused:
                if isinstance(refused, NotAPlayerError) and refused.seated:
                    raise  # about this very game ("You have left this game, …")
                await in_order.aclose()  # the channel's next board need not wait for this
                pointed = await self._played_elsewhere(channel_id, interaction.user.id, refused)
                raise pointed from None
            finally:
                if not playing.done():
                    # Given up before the move ended (cancelled, or the defer failed): what it
                    # holds, or takes later, is let go when it ends, not kept for good.
                    playing.add_done_callback(lambda _: self._let_go(in_order))
            if interaction.response.is_done() or result.snapshot.hidden_information:
                await self._answer_privately_first(interaction, result, drawn)
                return
            posted = await post_turn(self.bot, result, interaction=interaction, drawn=drawn)
            await in_order.aclose()  # the board is out: the next move may post
            if posted is None or result.private_events or result.turn_goes_on:
                ack = presenters.move_ack_text(result, posted=posted is not None)
                for chunk in presenters.split_message(ack):
                    await send_ephemeral(interaction, chunk)

    async def _played_elsewhere(
        self, channel_id: int, user_id: int, refused: ServiceError
    ) -> ServiceError:
        """A ``/move`` refused because the channel's game is not the caller's (or there is
        none): when the caller plays in a thread of this channel, the refusal points there
        instead ("Your **Orbs** game (game 4) is in <#…>: play it there."); otherwise
        ``refused`` as it was."""
        try:
            elsewhere = await self.bot.service.games_in_threads_of(channel_id, user_id)
        except Exception:
            log.exception("could not look for %d's games in threads of %d", user_id, channel_id)
            return refused
        if not elsewhere:
            return refused
        return NotAPlayerError(presenters.play_it_there_text(elsewhere))

    async def _play_and_draw(
        self, channel_id: int, user_id: int, text: str
    ) -> tuple[TurnResult, discord.File | None]:
        """Play ``text`` (:meth:`GameService.play <bot.service.service.GameService.play>`,
        whose errors propagate) and draw the board the move leads to (``None`` while the
        same seat decides again, or if drawing failed: logged, the move stands)."""
        result = await self.bot.service.play(channel_id, user_id, text)
        if result.turn_goes_on:
            return result, None
        snapshot = result.snapshot
        return result, await render_file(
            self.bot, snapshot, perspective=public_perspective(snapshot)
        )

    async def _answer_privately_first(
        self, interaction: Interaction, result: TurnResult, drawn: discord.File | None
    ) -> None:
        """The move's private answer (ephemeral: the interaction's response, or in place of
        "thinking…" when it was deferred), then the board as a public follow-up of the same
        interaction."""
        view = board_view(result.snapshot, for_player=True)
        chunks = presenters.split_message(presenters.move_ack_text(result, posted=True))
        if interaction.response.is_done():
            await interaction.edit_original_response(
                content=chunks[0], view=MISSING if view is None else view
            )
        else:
            await interaction.response.send_message(
                chunks[0], ephemeral=True, view=MISSING if view is None else view
            )
        for chunk in chunks[1:]:
            await interaction.followup.send(chunk, ephemeral=True)
        posted = await post_turn(self.bot, result, interaction=interaction, drawn=drawn)
        if posted is None:
            failed = presenters.move_ack_text(result, posted=False)
            await interaction.edit_original_response(content=presenters.split_message(failed)[0])

    @move.autocomplete("text")
    async def move_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None:
            return []
        choices = await self.bot.service.autocomplete_move_choices(
            interaction.channel_id, interaction.user.id, current
        )
        return [app_commands.Choice(name=label, value=move) for move, label in choices]

    @app_commands.command(name="board", description="Show the board of this channel's game")
    @app_commands.describe(public="Show it to everyone (default: only you)")
    async def board(self, interaction: Interaction, public: bool = False) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            snapshot = await self.bot.service.snapshot(channel_id_of(interaction))
            caption = presenters.board_caption(snapshot)
            if public:
                # Showing the board again tells watchers nothing new.
                posted = await post_board(
                    self.bot, snapshot, caption, mention_ids=(), notify_watchers=False
                )
                ack = "Board posted." if posted else "I could not post in this channel."
                await interaction.followup.send(ack, ephemeral=True)
                return
            perspective = await self.bot.service.perspective_of(
                interaction.user.id, snapshot.game, snapshot.players
            )
            file = await render_file(self.bot, snapshot, perspective=perspective)
            view = board_view(snapshot)
            await interaction.followup.send(
                caption,
                ephemeral=True,
                file=MISSING if file is None else file,
                view=MISSING if view is None else view,
            )

    @app_commands.command(
        name="hand", description="Your private view of this channel's game (only you see it)"
    )
    async def hand(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            self.bot.remember_name(interaction.user)
            private = await self.bot.service.private_view(
                channel_id_of(interaction), interaction.user.id
            )
            await self._send_private_view(interaction, private)

    async def _send_private_view(self, interaction: Interaction, private: PrivateView) -> None:
        """Answer a deferred interaction with the caller's private picture and text, ephemerally
        (never anywhere else: the view holds what only this player may know)."""
        perspective = await self.bot.service.perspective_of(
            private.user_id, private.game, private.players, seat=private.seat
        )
        file = await private_file(self.bot, private, perspective=perspective)
        chunks = presenters.split_message(presenters.private_view_text(private))
        for number, chunk in enumerate(chunks):
            await interaction.followup.send(
                chunk,
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
                file=file if file is not None and number == 0 else MISSING,
            )

    @app_commands.command(name="resign", description="Resign this channel's game")
    async def resign(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            user_id = interaction.user.id
            snapshot = await self.bot.service.resign(channel_id_of(interaction), user_id)
            # The resignation was committed like a move, which ends an open draw offer (and
            # takeback request, and a claim notice). Retired before the board is posted: a
            # seat still out of time gets a fresh notice a minute later (REFLAG_AFTER),
            # which this retire must come before.
            lapsed = (
                presenters.DRAW_OFFER_RESIGNED
                if snapshot.is_active
                else presenters.DRAW_OFFER_ENDED
            )
            await retire_offers(self.bot, snapshot, lapsed)
            text = presenters.resign_text(snapshot, user_id)
            await post_board(self.bot, snapshot, text, mention_ids=snapshot.user_ids)
            await interaction.followup.send(presenters.resigned_ack(snapshot), ephemeral=True)

    @app_commands.command(
        name="draw", description="Offer a draw (every other player still in must accept)"
    )
    async def draw(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            offer = await self.bot.service.offer_draw(
                channel_id_of(interaction), interaction.user.id
            )
            posted = await post_in_channel(
                self.bot,
                channel_id_of(interaction),
                presenters.draw_offer_text(offer),
                guild_id=interaction.guild_id,
                mention_ids=offer.opponent_user_ids,
                view=draw_offer_view(offer.game_id, offer.version),
            )
            if posted is None:
                await interaction.followup.send(
                    "Draw offered, but I could not post it here; the others can see it "
                    "in `/game info`.",
                    ephemeral=True,
                )
                return
            await self.bot.draw_offers.remember(offer.game_id, posted)
            if any(is_bot(user_id) for user_id in offer.opponent_user_ids):
                # Held like a move's posts, so a person's answer lands after the bots'.
                async with turn_in_order(self.bot, channel_id_of(interaction)):
                    await self._bot_answers(offer, posted)
                bots = "the bot" if len(offer.opponent_user_ids) == 1 else "the others"
                await interaction.followup.send(f"Draw offered to {bots}.", ephemeral=True)
                return
            await interaction.followup.send("Draw offered.", ephemeral=True)

    @app_commands.command(
        name="hint", description="What the strongest bot would play in your place (practice games)"
    )
    async def hint(self, interaction: Interaction) -> None:
        """Only for the caller: the moves the strongest level would consider for their move,
        in a casual game against bots only (:meth:`~bot.service.bots.Bots.hint`). The search
        takes a few seconds in a worker, so the answer is deferred."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            hint = await self.bot.service.hint(channel_id_of(interaction), interaction.user.id)
            await interaction.followup.send(presenters.hint_text(hint), ephemeral=True)

    async def _bot_answers(
        self, offer: DrawOffer, post: discord.Message | discord.PartialMessage
    ) -> None:
        """The bots among those a draw is offered to answer at once (:meth:`Bots.answer_draw
        <bot.service.bots.Bots.answer_draw>`). When people are still to answer, the post says
        who has accepted and keeps its buttons; otherwise it says how the offer ended,
        without buttons, and an accepted draw posts the final board."""
        answered = await self.bot.service.bots.answer_draw(offer)
        if answered is None:
            return
        snapshot, bot_id = answered
        if snapshot.is_active and snapshot.draw_waiting:  # people still to answer
            try:
                await post.edit(content=presenters.draw_progress_text(snapshot))
            except discord.HTTPException:
                log.warning("game %d: could not show the bots' answers to a draw", offer.game_id)
                return

            async def read_post() -> tuple[str, bool]:
                current = await post.fetch()
                return current.content, bool(current.components)

            async def edit(text: str, keep_buttons: bool) -> None:
                await post.edit(content=text, view=MISSING if keep_buttons else None)

            await self._keep_progress_true(snapshot, offer.version, read_post, edit)
            return
        await self.bot.draw_offers.forget(offer.game_id)
        accepted = not snapshot.is_active
        if accepted:  # drawn: a takeback request or claim notice beside it ends with the game
            await self.bot.takebacks.retire(offer.game_id, presenters.TAKEBACK_REQUEST_ENDED)
            await self.bot.claim_notices.retire(offer.game_id, presenters.CLAIM_CLOSED)
        text = presenters.draw_answer_text(accepted=accepted, by_user_id=bot_id)
        try:
            await post.edit(content=text, view=None)
        except discord.HTTPException:
            log.warning("game %d: could not show the bot's answer to a draw", offer.game_id)
        if accepted:
            await post_board(
                self.bot, snapshot, presenters.outcome_text(snapshot), mention_ids=snapshot.user_ids
            )

    async def _keep_progress_true(
        self,
        shown: GameSnapshot,
        version: int,
        read_post: Callable[[], Awaitable[tuple[str, bool]]],
        edit: Callable[[str, bool], Awaitable[None]],
    ) -> None:
        """Put a draw offer's post right after this process showed ``shown``'s acceptances
        on it (three or more players, people still to answer).

        Another process may have taken a later answer to the same offer meanwhile, and its
        edit of the post may have landed before ours. Ours changes the text only (the
        buttons are as the other edit left them), so the post then shows a stale "still to
        answer", under live buttons for a later acceptance or under none for the answer that
        closed the offer. So the offer made at ``version`` is read again
        (:meth:`~bot.service.service.GameService.draw_offer_now`): still open with other
        acceptances, the post shows them (``edit(text, True)``, buttons kept), and is checked
        again, up to :data:`PROGRESS_CHECKS` times; closed, the post is settled
        (:func:`~bot.presenters.draw_offer_settled_text`, buttons removed) when it still
        shows our text, or any open offer's text (another process's progress whose own
        check never ran), or still has buttons (``read_post()``: its text, and whether it
        has buttons), and left alone when it shows other words: the closing answer's, which
        landed after ours. Best effort: any failure is logged, never answered as an error
        (the acceptance stands), and a press on a stale button is still answered as stale.
        """
        ours = presenters.draw_progress_text(shown)
        try:
            for _ in range(PROGRESS_CHECKS):
                now = await self.bot.service.draw_offer_now(shown.game_id, version)
                if not now.draw_waiting:
                    text, buttons = await read_post()
                    if buttons or text == ours or text.endswith(presenters.OFFER_OPEN_TAIL):
                        log.info("game %d: the draw offer closed meanwhile", shown.game_id)
                        await edit(presenters.draw_offer_settled_text(now), False)
                    return
                if (now.draw_agreed, now.draw_waiting) == (shown.draw_agreed, shown.draw_waiting):
                    return
                shown, ours = now, presenters.draw_progress_text(now)
                await edit(ours, True)
        except Exception:
            log.exception("game %d: could not check the draw offer's post", shown.game_id)

    async def on_game_button(self, interaction: Interaction, button: GameButtonId) -> None:
        """A game button was pressed: "My view", or a draw offer's Accept or Decline."""
        if button.action is GameAction.MY_VIEW:
            await self._on_my_view(interaction, button)
            return
        await interaction.response.defer()
        async with (
            answer_errors(interaction, game_id=button.game_id),
            # Held from the answer to its posts: a second press (a double click) then finds
            # the post answered and leaves it so (close_post), and the final board of an
            # accepted draw keeps its place among the channel's moves.
            turn_in_order(self.bot, channel_id_of(interaction)),
        ):
            accept = button.action is GameAction.DRAW_ACCEPT
            # Decline pressed by the one who offered is a withdrawal (one read, on Decline).
            withdrawn = not accept and await self._offered_by(button.game_id, interaction.user.id)
            try:
                snapshot = await self.bot.service.answer_draw(
                    button.game_id, interaction.user.id, accept=accept, version=button.version
                )
            except StaleActionError:
                await close_post(interaction, presenters.DRAW_OFFER_CLOSED)
                raise
            if snapshot.is_active and snapshot.draw_waiting:  # others still to answer
                await edit_post_text(interaction, presenters.draw_progress_text(snapshot))

                async def read_post() -> tuple[str, bool]:
                    current = await interaction.original_response()
                    return current.content, bool(current.components)

                async def edit(text: str, keep_buttons: bool) -> None:
                    await (edit_post_text if keep_buttons else edit_post)(interaction, text)

                await self._keep_progress_true(snapshot, button.version, read_post, edit)
                return
            text = presenters.draw_answer_text(
                accepted=accept, by_user_id=interaction.user.id, withdrawn=withdrawn
            )
            await self.bot.draw_offers.forget(button.game_id)
            await edit_post(interaction, text)
            if not snapshot.is_active:
                await self.bot.takebacks.retire(button.game_id, presenters.TAKEBACK_REQUEST_ENDED)
                await self.bot.claim_notices.retire(button.game_id, presenters.CLAIM_CLOSED)
                await post_board(
                    self.bot,
                    snapshot,
                    presenters.outcome_text(snapshot),
                    mention_ids=snapshot.user_ids,
                )

    async def _offered_by(self, game_id: int, user_id: int) -> bool:
        """Whether ``user_id`` made game ``game_id``'s open draw offer (``False`` when there
        is none or the game cannot be read: the answer then says "declined", as before)."""
        try:
            snapshot = await self.bot.service.game_snapshot(game_id)
        except ServiceError:
            return False
        seat = snapshot.draw_offer_seat
        return seat is not None and snapshot.players[seat].user_id == user_id

    async def _on_my_view(self, interaction: Interaction, button: GameButtonId) -> None:
        """ "My view": the presser's current private view, whichever board it was pressed on."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction, game_id=button.game_id):
            self.bot.remember_name(interaction.user)
            log.debug(
                "game %d: My view pressed on the board of version %d",
                button.game_id,
                button.version,
            )
            private = await self.bot.service.game_private_view(button.game_id, interaction.user.id)
            await self._send_private_view(interaction, private)


async def setup(bot: BotHost) -> None:
    await bot.add_cog(PlayCog(bot))
