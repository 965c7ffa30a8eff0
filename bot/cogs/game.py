"""``/game info|rules|moves|abort|export|replay``: facts about this channel's game, stopping
it, its record, and its board at any ply or an animated GIF of a range of plies
(``/game replay format:gif``, public views only; the command defers first, as drawing a long
game takes seconds)."""

from __future__ import annotations

import io
import logging

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import MISSING

from bot import presenters
from bot.service import NoGameHereError, ServiceError
from bot.service.bot_seats import is_bot
from bot.service.models import ReplayAnimation
from bot.service.records import BoardAtPly, GameRecord
from bot.service.spectators import Spectators
from bot.ui.board import direct_messages, post_board, render_file, retire_offers
from bot.ui.host import BotHost, Interaction
from bot.ui.menus import GAME_CHOICES
from bot.ui.replies import (
    answer_errors,
    channel_id_of,
    post_in_channel,
    require_visible_game,
)
from engines import ENGINES
from render import PERSPECTIVE_GAMES

log = logging.getLogger(__name__)


class GameCog(
    commands.GroupCog,
    name="Game",
    group_name="game",
    group_description="A game's players, rules, moves, replays and record; or abort it",
):
    """The ``/game`` group (its description is what Discord shows; without one discord.py
    would show this docstring)."""

    def __init__(self, bot: BotHost) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="info", description="Players, options and state of this game")
    async def info(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            snapshot = await self.bot.service.game_info(channel_id_of(interaction))
            # A position too long for the text (Generation Zero's) comes as a file.
            attached = MISSING
            name = presenters.position_file_name(snapshot)
            if name is not None:
                attached = discord.File(io.BytesIO(snapshot.position.encode()), name)
            await interaction.followup.send(
                presenters.game_info_text(snapshot),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
                file=attached,
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
                    names = [engine.info.name for engine in ENGINES.values()]
                    text = presenters.no_game_rules_text(names)
                    await interaction.followup.send(text, ephemeral=True)
                    return
            rules = presenters.rules_text(ENGINES[game].info, turns=game in PERSPECTIVE_GAMES)
            for chunk in presenters.split_message(rules):
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
            await retire_offers(self.bot, snapshot, presenters.DRAW_OFFER_ENDED)
            ack = "Game aborted." if posted else "Game aborted, but I could not post here."
            await interaction.followup.send(ack, ephemeral=True)

    # ---- a channel or thread deleted ----------------------------------------------------------

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._channel_gone(channel.guild.id, channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._channel_gone(payload.guild_id, payload.thread_id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Catch up on deletions no process heard of: Discord does not replay the events of a
        gap (no process connected, or a new session after a lost one), so each channel or
        thread with an active game or an open challenge that this process's cache lacks is
        fetched, and one Discord calls unknown (404) is treated as deleted (:meth:`_channel_gone`).
        Any other failure (no access, an outage) leaves it alone: only Discord's word that a
        channel is gone ends its games. Archived threads are never cached, so theirs are
        fetched, one request each; discord.py spaces them under the rate limits."""
        try:
            places = await self.bot.service.places_in_use()
        except Exception:
            log.exception("could not read the channels in use to check for deletions")
            return
        for guild in self.bot.guilds:
            if guild.unavailable:
                continue  # its channels are unknown until Discord sends the guild again
            for channel_id in sorted(places.get(guild.id, ())):
                if guild.get_channel_or_thread(channel_id) is not None:
                    continue
                try:
                    await self.bot.fetch_channel(channel_id)
                except discord.NotFound:
                    log.warning(
                        "channel %d of guild %d was deleted while no bot process heard of it",
                        channel_id,
                        guild.id,
                    )
                    await self._channel_gone(guild.id, channel_id)
                except Exception as error:  # no access, an outage, a network error: not gone
                    log.info("channel %d: not checked for deletion (%r)", channel_id, error)

    async def _channel_gone(self, guild_id: int, channel_id: int) -> None:
        """Discord deleted a channel or thread: its games (and those in its threads) are
        aborted (:meth:`~bot.service.service.GameService.abort_in_deleted_channel`), each
        person who played in one, and each of its watchers, is told by direct message, the
        only place left to say it,
        and its open challenges are cancelled. Each step's failure is logged at ERROR and
        leaves the others to run; a game not aborted then stays active, and nothing in
        Discord can end it (``/game abort`` needs its channel)."""
        try:
            games = await self.bot.service.abort_in_deleted_channel(guild_id, channel_id)
        except Exception:
            log.exception("channel %d was deleted: could not abort its games", channel_id)
            games = []
        self.bot.decision_posts.pop(channel_id, None)
        for snapshot in games:
            self.bot.decision_posts.pop(snapshot.channel_id, None)  # its threads' games too
            await self.bot.draw_offers.forget(snapshot.game_id)
            await self.bot.takebacks.forget(snapshot.game_id)
            await self.bot.claim_notices.forget(snapshot.game_id)
            people = [u for u in snapshot.user_ids if not is_bot(u)]
            try:
                # Its watchers too: they were promised its end, and it ends here.
                people += await Spectators(self.bot.service).to_notify(snapshot)
            except Exception:
                log.exception("game %d: could not read its watchers", snapshot.game_id)
            await direct_messages(self.bot, people, presenters.channel_deleted_text(snapshot))
        try:
            challenges = await self.bot.service.cancel_in_deleted_channel(channel_id)
        except Exception:
            log.exception("channel %d was deleted: could not cancel its challenges", channel_id)
            return
        if challenges:
            log.info("channel %d was deleted: %d challenges cancelled", channel_id, len(challenges))

    @app_commands.command(
        name="export", description="The record of a game: a JSON file and a move list"
    )
    @app_commands.describe(game_id="Any game of this server (default: the one in this channel)")
    async def export(
        self, interaction: Interaction, game_id: app_commands.Range[int, 1] | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction, game_id=game_id):
            await require_visible_game(interaction, self.bot.service, game_id)
            record = await self.bot.service.export_record(
                channel_id_of(interaction), guild_id=interaction.guild_id, game_id=game_id
            )
            record = record.with_display_names(await self._display_names(record))
            stem = record.file_stem
            files = [
                discord.File(io.BytesIO(record.to_json().encode()), filename=f"{stem}.json"),
                discord.File(io.BytesIO(record.to_text().encode()), filename=f"{stem}.txt"),
            ]
            summary = f"{record.summary()} Replay: `python -m engines --record {stem}.json`"
            await interaction.followup.send(
                summary,
                ephemeral=True,
                files=files,
                allowed_mentions=discord.AllowedMentions.none(),
            )

    async def _display_names(self, record: GameRecord) -> dict[int, str]:
        """The players' display names; a user Discord will not describe is left out."""
        names: dict[int, str] = {}
        for seat in record.seats:
            if seat.user_id in names:
                continue
            try:
                names[seat.user_id] = await self.bot.display_name(seat.user_id)
            except discord.HTTPException:
                log.warning("game %d: no display name for user %d", record.game_id, seat.user_id)
        return names

    @app_commands.command(
        name="replay", description="The board of a game at any ply, or an animated GIF"
    )
    @app_commands.describe(
        ply="How many moves in: 0 is the start position (default: the last ply)",
        public="Show it to everyone (default: only you)",
        game_id="Any game of this server (default: the one in this channel)",
        format="png: one board; gif: an animation of the plies (default: gif when from_ply, "
        "to_ply or speed is given, else png)",
        from_ply="GIF: the first ply shown (default: 0, the start position)",
        to_ply="GIF: the last ply shown (default: the last ply)",
        speed="GIF: real (frame times follow the real move times, default) or fast (0.5 s)",
    )
    @app_commands.choices(
        format=[
            app_commands.Choice(name="png", value="png"),
            app_commands.Choice(name="gif", value="gif"),
        ],
        speed=[
            app_commands.Choice(name="real", value="real"),
            app_commands.Choice(name="fast", value="fast"),
        ],
    )
    async def replay(
        self,
        interaction: Interaction,
        ply: app_commands.Range[int, 0] | None = None,
        public: bool = False,
        game_id: app_commands.Range[int, 1] | None = None,
        format: str | None = None,
        from_ply: app_commands.Range[int, 0] | None = None,
        to_ply: app_commands.Range[int, 0] | None = None,
        speed: str | None = None,
    ) -> None:
        # Defer first: a long game's GIF takes seconds to draw, so the user sees "thinking".
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction, game_id=game_id):
            drawn = replay_format(format, ply=ply, from_ply=from_ply, to_ply=to_ply, speed=speed)
            await require_visible_game(interaction, self.bot.service, game_id)
            if drawn == "gif":
                await self._replay_gif(
                    interaction, game_id, from_ply, to_ply, speed or "real", public
                )
                return
            board = await self.bot.service.board_at(
                channel_id_of(interaction), guild_id=interaction.guild_id, ply=ply, game_id=game_id
            )
            # Always the spectator's view: board.snapshot never holds a seat's view.
            file = await render_file(self.bot, board.snapshot)
            caption = replay_caption(board)
            if public:
                extra: dict[str, discord.File] = {} if file is None else {"file": file}
                posted = await post_in_channel(
                    self.bot,
                    channel_id_of(interaction),
                    caption,
                    guild_id=interaction.guild_id,
                    mention_ids=(),
                    **extra,
                )
                ack = "Board posted." if posted else "I could not post in this channel."
                await interaction.followup.send(ack, ephemeral=True)
                return
            await interaction.followup.send(
                caption,
                ephemeral=True,
                file=MISSING if file is None else file,
                allowed_mentions=discord.AllowedMentions.none(),
            )

    async def _replay_gif(
        self,
        interaction: Interaction,
        game_id: int | None,
        from_ply: int | None,
        to_ply: int | None,
        speed: str,
        public: bool,
    ) -> None:
        """``/game replay format:gif``: the animated public replay, to the caller or posted."""
        channel_id = channel_id_of(interaction)
        if game_id is None:
            snapshot = await self.bot.service.snapshot(channel_id)
        else:
            snapshot = await self.bot.service.game_snapshot(game_id)
        labels = await self.bot.seat_labels(snapshot)
        animation = await self.bot.service.animation(
            channel_id,
            guild_id=interaction.guild_id,
            game_id=game_id,
            from_ply=from_ply,
            to_ply=to_ply,
            speed=speed,
            seat_labels=labels,
        )
        file = discord.File(
            io.BytesIO(animation.gif),
            filename=animation.filename,
            description=f"{animation.game_name} replay, plies {animation.from_ply} to "
            f"{animation.to_ply}",
        )
        caption = replay_gif_caption(animation)
        if public:
            posted = await post_in_channel(
                self.bot,
                channel_id,
                caption,
                guild_id=interaction.guild_id,
                mention_ids=(),
                file=file,
            )
            ack = "Replay posted." if posted else "I could not post in this channel."
            await interaction.followup.send(ack, ephemeral=True)
            return
        await interaction.followup.send(
            caption,
            ephemeral=True,
            file=file,
            allowed_mentions=discord.AllowedMentions.none(),
        )


def replay_format(
    format: str | None,
    *,
    ply: int | None,
    from_ply: int | None,
    to_ply: int | None,
    speed: str | None,
) -> str:
    """What ``/game replay`` draws, ``"png"`` (one board) or ``"gif"`` (an animation): the
    ``format`` asked for; without one, a GIF when an option only a GIF uses (``from_ply``,
    ``to_ply``, ``speed``) is given, else a PNG (a decision of ours: such an option says what
    the user wants, and ignoring it answered a different question).

    Raises :class:`ServiceError` (one sentence) for options of both kinds, or of the other
    kind than ``format``: ``ply`` picks one board, the others shape a GIF."""
    gif_options = [
        f"`{name}`"
        for name, value in (("from_ply", from_ply), ("to_ply", to_ply), ("speed", speed))
        if value is not None
    ]
    wanted = format or ("gif" if gif_options else "png")
    if wanted == "gif" and ply is not None:
        raise ServiceError(
            "`ply` picks one board (`format:png`); a GIF runs from `from_ply` to `to_ply`."
        )
    if wanted == "png" and gif_options:
        verb = "shape" if len(gif_options) > 1 else "shapes"
        raise ServiceError(
            f"{' and '.join(gif_options)} {verb} a GIF (`format:gif`); "
            "`ply` picks the one board a PNG shows."
        )
    return wanted


def replay_gif_caption(animation: ReplayAnimation) -> str:
    """The GIF's caption, e.g. "**Orbs** · game 7 · plies 0 to 40 of 40, real move times,
    32 s"."""
    pace = "real move times" if animation.speed == "real" else "fast"
    return (
        f"**{animation.game_name}** · game {animation.game_id} · plies {animation.from_ply} "
        f"to {animation.to_ply} of {animation.plies}, {pace}, {animation.seconds:.0f} s"
    )


def replay_caption(board: BoardAtPly) -> str:
    """``/game replay``'s caption, e.g. "**Arbos** · game 7 · Ply 3 of 40, last move: White
    `K10`" or "… Ply 0 of 40: the start position"; at the last ply of a game that is over it
    adds how the game ended (mentions in it never ping: the callers allow none)."""
    snapshot = board.snapshot
    head = f"**{snapshot.game_name}** · game {snapshot.game_id} · Ply {board.ply} of {board.plies}"
    move = board.last_move
    if move is None:
        text = f"{head}: the start position"
    else:
        who = (
            "chance"
            if move.seat is None
            else presenters.seat_label(snapshot.players[move.seat].seat_name)
        )
        text = f"{head}, last move: {who} `{move.text}`"
    if board.ply == board.plies and not snapshot.is_active:
        text = f"{text} · {presenters.outcome_text(snapshot)}"
    return text


async def setup(bot: BotHost) -> None:
    await bot.add_cog(GameCog(bot))
