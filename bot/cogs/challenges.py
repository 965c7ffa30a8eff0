"""``/challenge`` and its lobby buttons: invite people (or anyone), fill the seats, start.

A challenge post is a lobby: it lists the seats and carries the buttons that fit it now
(Accept / Decline for invited players, Join for open seats, Leave, Start, Cancel; see
:func:`bot.ui.buttons.challenge_view`). Every press is defer → service → edit the post. The
press that fills the last seat (or the challenger's Start) starts the game where the guild's
thread policy says (``/settings server threads:``): in a new thread off the post named after
the game and its players (``always``), in the challenge's channel unless it already has a game
(``when_busy``, the default: then in a thread), or only in the channel (``never``). A loop
marks challenges whose seats did not fill in time as expired and edits their posts.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

import discord
from discord import app_commands
from discord.ext import commands, tasks
from discord.utils import MISSING

from bot import presenters
from bot.service import (
    ChallengeClosedError,
    ChallengeInfo,
    ChannelBusyError,
    GameSnapshot,
    LobbyUpdate,
    ServiceError,
)
from bot.service.bot_seats import DEFAULT_BOT_LEVEL, bot_user_id
from bot.service.clocks import clock_choices
from bot.service.options import MAX_CHOICE_LENGTH, suggest_options
from bot.service.spectators import Spectators
from bot.ui.board import post_board, turn_in_order
from bot.ui.buttons import CHALLENGES_COG, challenge_view
from bot.ui.custom_ids import ChallengeAction, ChallengeButtonId
from bot.ui.host import BotHost, Interaction
from bot.ui.menus import GAME_CHOICES
from bot.ui.replies import (
    answer_errors,
    channel_id_of,
    describe,
    edit_post,
    post_in_channel,
    send_ephemeral,
)
from db.schema import ThreadPolicy
from engines import ENGINES

log = logging.getLogger(__name__)


#: Threads for games stay open for a week without activity (games are slow).
THREAD_ARCHIVE_MINUTES: Final = 10080
#: The largest seat count any registered game allows (the ``players`` option's maximum).
MAX_PLAYERS: Final = max((engine.info.max_players for engine in ENGINES.values()), default=2)
#: The longest thread name Discord allows.
THREAD_NAME_LIMIT: Final = 100
#: The refusal of ``/challenge`` where the bot may not attach files (its boards are PNGs).
NO_PICTURES_HERE: Final = (
    "I may not attach files in this channel, so its games would have no boards: ask a "
    "moderator to give me Attach Files here, or challenge in another channel."
)
#: Why a press that would start a game did not, when the channel is busy.
_BUSY = "This channel already has a game in progress; finish it or challenge elsewhere."
_BUSY_NO_THREADS = (
    "This channel already has a game in progress, and this server plays its games in "
    "channels, not threads; finish that game first or challenge in another channel."
)
#: Seconds within which the very same ``/challenge`` sent again is a double submit.
DOUBLE_SUBMIT_WITHIN_S: Final = 10.0
DOUBLE_SUBMIT = (
    "You sent this same challenge a moment ago; it is posted or on its way: look above (or in "
    "its game's thread)."
)
_NO_THREAD = (
    "I could not open a thread for this game, so it has not started; check that I may "
    "create public threads and send messages in threads here, then try again from the "
    "lobby (its Join, Start or Add a bot…)."
)
#: The same under the "when busy" policy: the thread was needed because of the other game.
_BUSY_NO_THREAD = (
    "This channel already has a game in progress, and I could not open a thread for this "
    "one, so it has not started; check that I may create public threads and send messages "
    "in threads here, then try again from the lobby."
)


def thread_name(game_name: str, player_names: Sequence[str]) -> str:
    """``"Orbs: ann vs bob"``: a game's thread, named after the game and its players, cut
    to Discord's :data:`THREAD_NAME_LIMIT` characters (with an ellipsis)."""
    name = f"{game_name}: {' vs '.join(player_names)}"
    if len(name) > THREAD_NAME_LIMIT:
        name = name[: THREAD_NAME_LIMIT - 1] + "…"
    return name


#: The lobby presses that may start the game.
_MAY_START = frozenset({ChallengeAction.ACCEPT, ChallengeAction.JOIN, ChallengeAction.START})


def _may_start(info: ChallengeInfo, action: ChallengeAction, user_id: int) -> bool:
    """Whether ``user_id`` pressing ``action`` on the lobby ``info`` would start the game.

    Only a forecast, to open the game's thread before the press (``threads: always``); the
    service decides, so a lobby that changed meanwhile may prove it wrong either way.
    """
    if action is ChallengeAction.START:
        return user_id == info.challenger_id and info.can_start_early
    if action not in _MAY_START:
        return False
    if user_id in info.seated_ids:
        return False
    invited = user_id in info.pending_ids
    if action is ChallengeAction.ACCEPT:
        may_sit = invited or (not info.invited_ids and info.open_seats > 0)
    else:
        may_sit = invited or info.open_seats > 0
    return may_sit and len(info.seated_ids) + 1 >= info.players


@dataclass(frozen=True, slots=True)
class _Press:
    """One press on a lobby by ``user_id``: a lobby button (``action``), or the challenger
    giving open seats to bots of ``levels`` (``action`` is ``None``)."""

    challenge_id: int
    user_id: int
    action: ChallengeAction | None
    levels: tuple[int, ...] = ()

    def may_start(self, info: ChallengeInfo) -> bool:
        """A forecast: whether this press would start the game (see :func:`_may_start`)."""
        if self.action is None:
            return (
                self.user_id == info.challenger_id
                and len(self.levels) <= info.open_seats
                and len(info.seated_ids) + len(self.levels) >= info.players
            )
        return _may_start(info, self.action, self.user_id)

    def could_start(self) -> bool:
        """Whether a press of this kind can ever start a game (Decline and Leave cannot)."""
        return self.action is None or self.action in _MAY_START

    def newcomers(self, info: ChallengeInfo) -> list[int]:
        """Who this press seats, for the thread's name (bots by their reserved ids)."""
        if self.action is None:
            taken = {p.user_id for p in info.lobby}
            ids: list[int] = []
            for level in self.levels:
                instance = 0
                while bot_user_id(level, instance) in taken or bot_user_id(level, instance) in ids:
                    instance += 1
                ids.append(bot_user_id(level, instance))
            return ids
        if self.action is ChallengeAction.START or self.user_id in info.seated_ids:
            return []
        return [self.user_id]


def _game_of(interaction: Interaction) -> str | None:
    """The game the user picked so far in this command, or ``None`` before they pick one
    (its options and presets are then not offered: another game's would mislead)."""
    picked = getattr(interaction.namespace, "game", None)
    return picked if isinstance(picked, str) and picked in ENGINES else None


class ChallengesCog(commands.Cog, name=CHALLENGES_COG):
    """Challenges: the road from "want to play?" to a game with seats."""

    def __init__(self, bot: BotHost) -> None:
        self.bot = bot
        # /challenge commands that posted (or are being handled), by every argument: when
        # they came (time.monotonic) and the challenge posted (None while being handled). A
        # double submit is refused (_first_submit).
        self._submitted: dict[tuple[object, ...], tuple[float, int | None]] = {}

    async def cog_load(self) -> None:
        # Check often enough that a short TTL (tests, events) expires on time, at most a minute.
        seconds = min(60.0, max(1.0, self.bot.settings.challenge_ttl.total_seconds() / 4))
        self.expire_challenges.change_interval(seconds=seconds)
        self.expire_challenges.start()

    async def cog_unload(self) -> None:
        self.expire_challenges.cancel()

    # ---- /challenge ---------------------------------------------------------------------

    @app_commands.command(name="challenge", description="Challenge people (or anyone) to a game")
    @app_commands.describe(
        game="The game to play",
        opponent="Who you challenge; leave empty to let anyone join",
        opponent2="A second opponent, for games of three or more",
        opponent3="A third opponent, for games of four or more",
        players="How many seats (default: you and those you name, else the game's usual number)",
        options="Game options as key=value pairs, e.g. refill=all",
        preset="A named set of options",
        clock="none, correspondence, or soft|hard:start+increment/max, e.g. hard:3d+1d/7d",
        bot_level="Play the bot at this level: 1 beginner … 5 strongest (naming me does too)",
        exhibition="Bots only, for spectators: every seat goes to a bot of bot_level",
        position="Start from this position, in the game's position notation (a casual game)",
        rated="Rated (default) or casual: whether the game counts for ratings",
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def challenge(
        self,
        interaction: Interaction,
        game: str,
        opponent: discord.User | None = None,
        opponent2: discord.User | None = None,
        opponent3: discord.User | None = None,
        players: app_commands.Range[int, 2, MAX_PLAYERS] | None = None,
        options: app_commands.Range[str, 0, 200] | None = None,
        preset: str | None = None,
        clock: app_commands.Range[str, 0, 40] | None = None,
        bot_level: app_commands.Range[int, 1, 5] | None = None,
        position: app_commands.Range[str, 1, 6000] | None = None,
        rated: bool = True,
        exhibition: bool = False,
    ) -> None:
        named = [user for user in (opponent, opponent2, opponent3) if user is not None]
        setup = (players, options, preset, clock, bot_level, position, rated, exhibition)
        # Every argument: only the very same command sent again is a double submit.
        caller = (interaction.user.id, channel_id_of(interaction))
        submit = (*caller, game, tuple(user.id for user in named), *setup)
        if not await self._first_submit(submit):
            await send_ephemeral(interaction, DOUBLE_SUBMIT)
            return
        posted: int | None = None
        try:
            posted = await self._challenge(interaction, game, named, *setup)
        finally:
            if posted is None:  # refused or failed: the same command may be sent again at once
                self._submitted.pop(submit, None)
            elif submit in self._submitted:
                self._submitted[submit] = (self._submitted[submit][0], posted)

    async def _first_submit(self, submit: tuple[object, ...]) -> bool:
        """Whether ``submit`` (a ``/challenge``'s caller, channel and every argument) is not
        the same as one sent within :data:`DOUBLE_SUBMIT_WITHIN_S` that is still being
        handled, or posted a challenge that is still open or whose game goes on: a double
        submit would open a second lobby, or start a second game against the bot. One whose
        challenge was declined, cancelled or expired, or whose game is over, may be sent
        again at once. Remembered per process, which is where both of a double submit
        arrive (the guild's shard); one that was refused or failed is forgotten at once."""
        now = time.monotonic()
        for key, (at, _) in list(self._submitted.items()):
            if now - at >= DOUBLE_SUBMIT_WITHIN_S:
                del self._submitted[key]
        earlier = self._submitted.get(submit)
        if earlier is not None:
            if earlier[1] is None:
                return False  # still being handled
            # Reserved while the earlier challenge is looked up: a third copy arriving
            # meanwhile finds one being handled.
            self._submitted[submit] = (earlier[0], None)
            if not await self._settled(earlier[1]):
                self._submitted[submit] = earlier
                return False
        self._submitted[submit] = (now, None)
        return True

    async def _settled(self, challenge_id: int | None) -> bool:
        """Whether the challenge a ``/challenge`` posted is done with: declined, cancelled or
        expired, or its game over (``None``: still being handled, not done)."""
        if challenge_id is None:
            return False
        try:
            info = await self.bot.service.get_challenge(challenge_id)
            if info.status == "open":
                return False
            if info.status != "accepted" or info.game_id is None:
                return True
            return not (await self.bot.service.game_snapshot(info.game_id)).is_active
        except ServiceError:
            return True  # gone
        except Exception:
            # Not this guard's to answer: the new challenge goes ahead, and its own path
            # reports a database that is down.
            log.exception("challenge %d: could not look it up for a double submit", challenge_id)
            return True

    async def _challenge(
        self,
        interaction: Interaction,
        game: str,
        named: list[discord.User],
        players: int | None,
        options: str | None,
        preset: str | None,
        clock: str | None,
        bot_level: int | None,
        position: str | None,
        rated: bool,
        exhibition: bool,
    ) -> int | None:
        """``/challenge`` once it is no double submit: the id of the challenge posted (a
        lobby, or an exhibition's), or ``None`` when nothing was."""
        if interaction.guild_id is not None and not interaction.app_permissions.attach_files:
            # Every board is a picture: a game here would post none (README, permissions).
            await send_ephemeral(interaction, NO_PICTURES_HERE)
            return None
        if exhibition:
            setup = (players, options, preset, clock)
            return await self._exhibition(interaction, game, named, bot_level, *setup)
        me = self.bot.user
        # Naming me (or giving a level) is a challenge to the bot: one bot seat per mention.
        bot_seats = sum(1 for user in named if me is not None and user.id == me.id)
        named = [user for user in named if me is None or user.id != me.id]
        if any(user.bot for user in named):
            await send_ephemeral(
                interaction, "You can only challenge people or me, not other bots."
            )
            return None
        levels = (bot_level or DEFAULT_BOT_LEVEL,) * max(bot_seats, 1 if bot_level else 0)
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            self.bot.remember_name(interaction.user)
            for user in named:
                self.bot.remember_name(user)
            info = await self.bot.service.create_challenge(
                guild_id=interaction.guild_id,
                channel_id=channel_id_of(interaction),
                challenger_id=interaction.user.id,
                opponent_ids=[user.id for user in named],
                players=players,
                game=game,
                options_text=options,
                preset=preset,
                clock=clock,
                start_position=position,
                rated=rated,
                bot_seats=len(levels),
            )
            message = await self._post_challenge(info, buttons=not levels)
            if levels:
                await self._seat_bots(interaction, info, message, levels)
            await interaction.followup.send("Challenge posted.", ephemeral=True)
            return info.challenge_id
        return None

    async def _exhibition(
        self,
        interaction: Interaction,
        game: str,
        named: Sequence[discord.User],
        bot_level: int | None,
        players: int | None,
        options: str | None,
        preset: str | None,
        clock: str | None,
    ) -> int | None:
        """``/challenge exhibition:true``: a casual game of bots only, for spectators; the
        caller opens it and watches. Every seat goes to a bot of ``bot_level``; the seats
        are ``players``, else those the options or preset name, else the game's usual
        number. The id of its challenge once it started, else ``None``."""
        if named or bot_level is None:
            await send_ephemeral(
                interaction,
                "An exhibition is played by bots only: give a `bot_level` and name nobody.",
            )
            return None
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            info = await self.bot.service.open_exhibition(
                guild_id=interaction.guild_id,
                channel_id=channel_id_of(interaction),
                user_id=interaction.user.id,
                game=game,
                players=players,
                options_text=options,
                preset=preset,
                clock=clock,
            )
            message = await self._post_challenge(info, buttons=False)
            await self._seat_bots(interaction, info, message, [bot_level] * info.players)
            await interaction.followup.send("Exhibition started.", ephemeral=True)
            return info.challenge_id
        return None

    async def _seat_bots(
        self,
        interaction: Interaction,
        info: ChallengeInfo,
        message: discord.Message,
        levels: Sequence[int],
    ) -> None:
        """Give seats of the new challenge ``info`` (posted as ``message``) to bots of
        ``levels``, then show the lobby as it is, or the game if that filled the last seat.
        A failure (the game could not start: a busy channel where no thread can be opened)
        withdraws the challenge, its post saying so, and is raised for the caller's answer.

        The game starts where the lobby is (``info.channel_id``), by the server's thread
        policy: a rematch pressed in an archived thread has its lobby in the parent channel,
        so its game starts there or in a new thread off the lobby, instead of waking the old
        thread. That channel is the interaction's, resolved by Discord (a thread is a
        :class:`discord.Thread`), when the lobby is where the button or command was used;
        else the lobby post's (sent through a partial messageable: not a thread, which the
        parent channel of an archived thread is not)."""
        press = _Press(info.challenge_id, info.challenger_id, None, tuple(levels))
        where: object = (
            interaction.channel if interaction.channel_id == info.channel_id else message.channel
        )
        # The new game's turn order is held until its first board is out (_keep_order).
        async with contextlib.AsyncExitStack() as order:
            try:
                # The interaction's permissions are the lobby channel's when it was used there.
                here = interaction.channel_id == info.channel_id
                update = await self._press_where_games_go(
                    where,
                    message,
                    interaction.guild_id,
                    press,
                    order,
                    interaction.app_permissions if here else None,
                )
            except Exception:
                # A challenge to the bot without its bot is not what was asked (left open, its
                # seats would go to anyone who Joins): withdraw it. Started or closed meanwhile
                # by another press, it is left as it is (cancel_challenge refuses).
                with contextlib.suppress(discord.HTTPException, ServiceError):
                    closed = await self.bot.service.cancel_challenge(
                        info.challenge_id, info.challenger_id
                    )
                    await message.edit(content=presenters.challenge_closed_text(closed), view=None)
                raise
            after, game = update.challenge, update.game
            try:
                if game is not None:
                    await message.edit(
                        content=presenters.challenge_closed_text(after, game=game), view=None
                    )
                else:
                    await message.edit(
                        content=presenters.challenge_text(after), view=challenge_view(after)
                    )
            except discord.HTTPException:
                log.warning("challenge %d: could not edit its post", info.challenge_id)
                if game is None:
                    # Its buttons never came: nobody could Join, Accept or Cancel it, and it
                    # would stay open for the whole TTL (a rematch's blocking the next one).
                    with contextlib.suppress(ServiceError):
                        await self.bot.service.cancel_challenge(
                            info.challenge_id, info.challenger_id
                        )
            if game is not None:
                await post_board(
                    self.bot, game, presenters.game_started_text(game), mention_ids=game.user_ids
                )

    async def _post_challenge(
        self, info: ChallengeInfo, *, buttons: bool = True
    ) -> discord.Message:
        """Post the lobby, pinging only the invited players; returns the post.

        ``buttons=False`` posts it without its buttons, for a lobby whose seats the bot is
        about to take (:meth:`_seat_bots` then shows the buttons that fit): nobody can Join
        a seat meant for the bot in between; nor does it say when it expires, which only
        the bots' seats settle."""
        message = await post_in_channel(
            self.bot,
            info.channel_id,
            presenters.challenge_text(info, expiry=buttons),
            guild_id=info.guild_id,
            mention_ids=info.pending_ids,
            view=challenge_view(info) if buttons else MISSING,
        )
        if message is None:
            # Nobody could answer a challenge nobody sees: withdraw it.
            await self.bot.service.cancel_challenge(info.challenge_id, info.challenger_id)
            raise ServiceError("I cannot post in this channel, so the challenge is off.")
        await self.bot.service.set_challenge_message(info.challenge_id, message.id)
        return message

    @challenge.autocomplete("options")
    async def options_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game = _game_of(interaction)
        if game is None:
            return []
        info = ENGINES[game].info
        return [app_commands.Choice(name=s, value=s) for s in suggest_options(info, current)]

    @challenge.autocomplete("clock")
    async def clock_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        choices = clock_choices(current)
        return [app_commands.Choice(name=label, value=value) for value, label in choices]

    @challenge.autocomplete("preset")
    async def preset_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game = _game_of(interaction)
        if game is None:
            return []
        info = ENGINES[game].info
        typed = current.lower()
        return [
            app_commands.Choice(
                name=f"{p.label} — {p.help}"[:MAX_CHOICE_LENGTH] if p.help else p.label,
                value=p.id,
            )
            for p in info.presets
            if typed in p.id or typed in p.label.lower()
        ][:25]

    # ---- lobby buttons ------------------------------------------------------------------

    async def on_challenge_button(
        self, interaction: Interaction, button: ChallengeButtonId
    ) -> None:
        """A lobby button was pressed: apply it, then show the lobby (or the game) as it is."""
        await interaction.response.defer()
        async with answer_errors(interaction):
            self.bot.remember_name(interaction.user)
            try:
                if button.action is ChallengeAction.CANCEL:
                    info = await self.bot.service.cancel_challenge(
                        button.challenge_id, interaction.user.id
                    )
                    await edit_post(interaction, presenters.challenge_closed_text(info))
                    return
                press = _Press(button.challenge_id, interaction.user.id, button.action)
                await self._press_and_show(interaction, press)
            except ChallengeClosedError as closed:
                # A double click, or a press the expiry loop has not caught up with:
                # make the post say so, then tell the presser.
                await self._show_closed(interaction, button.challenge_id, closed.status)
                raise

    async def _press_and_show(self, interaction: Interaction, press: _Press) -> None:
        """Apply ``press``, made on the lobby post under which ``interaction`` came (its
        channel, message and the bot's permissions there), and show the lobby or the game
        it started; the new game's turn order is held until its first board is out."""
        async with contextlib.AsyncExitStack() as order:
            update = await self._press_where_games_go(
                interaction.channel,
                interaction.message,
                interaction.guild_id,
                press,
                order,
                interaction.app_permissions,
            )
            await self._show(interaction, update)

    async def on_add_bot(self, interaction: Interaction, challenge_id: int, level: int) -> None:
        """The lobby's "Add a bot…" menu: the challenger seats a bot of ``level``."""
        await interaction.response.defer()
        async with answer_errors(interaction):
            try:
                press = _Press(challenge_id, interaction.user.id, None, (level,))
                await self._press_and_show(interaction, press)
            except ChallengeClosedError as closed:
                await self._show_closed(interaction, challenge_id, closed.status)
                raise

    async def on_remove_bot(self, interaction: Interaction, challenge_id: int, bot_id: int) -> None:
        """The lobby's "Remove a bot…" menu: the challenger takes bot ``bot_id``'s seat back
        (nothing starts: a seat opens)."""
        await interaction.response.defer()
        async with answer_errors(interaction):
            try:
                info = await self.bot.service.remove_bot(challenge_id, interaction.user.id, bot_id)
            except ChallengeClosedError as closed:
                await self._show_closed(interaction, challenge_id, closed.status)
                raise
            await _edit_lobby(interaction, info)

    async def _press_where_games_go(
        self,
        channel: object,
        message: discord.Message | None,
        guild_id: int | None,
        press: _Press,
        order: contextlib.AsyncExitStack,
        permissions: discord.Permissions | None = None,
    ) -> LobbyUpdate:
        """Apply ``press``; a press that starts the game starts it where the guild's thread
        policy says (see the module docstring). ``channel`` is where the lobby is and
        ``message`` its post (threads open off it). A press that may start the game holds the
        turn order of the channel it may start in until ``order`` closes (:meth:`_keep_order`).
        ``permissions`` are the bot's in ``channel`` when known (the interaction's
        ``app_permissions`` there): a thread the bot could open but not post in is not
        opened (its game would have no boards).

        A challenge posted in a thread starts its game in that thread (Discord has no
        threads in threads). Raises :class:`ChannelBusyError` with the sentence that fits
        the policy when the game cannot start in a busy channel, and :class:`ServiceError`
        when the thread it needs cannot be opened; either way the lobby is unchanged.
        """
        if isinstance(channel, discord.Thread):
            await self._keep_order(order, press, channel.id)
            try:
                return await self._press(
                    press, channel_id=channel.id, parent_channel_id=channel.parent_id
                )
            except ChannelBusyError as busy:
                raise ChannelBusyError(_BUSY) from busy
        policy = ThreadPolicy.WHEN_BUSY  # Decline and Leave never start a game
        if press.could_start():
            policy = await Spectators(self.bot.service).thread_policy(guild_id)
        if policy is ThreadPolicy.ALWAYS and message is not None:
            info = await self.bot.service.get_challenge(press.challenge_id)
            if press.may_start(info):
                return await self._press_in_thread(
                    message, press, info, _NO_THREAD, order, permissions
                )
        await self._keep_order(order, press, getattr(channel, "id", None))
        try:
            return await self._press(press)
        except ChannelBusyError as busy:
            if policy is ThreadPolicy.NEVER:
                raise ChannelBusyError(_BUSY_NO_THREADS) from busy
            if message is None:
                raise ChannelBusyError(_BUSY) from busy
            info = await self.bot.service.get_challenge(press.challenge_id)
            return await self._press_in_thread(
                message, press, info, _BUSY_NO_THREAD, order, permissions
            )

    async def _keep_order(
        self, order: contextlib.AsyncExitStack, press: _Press, channel_id: int | None
    ) -> None:
        """Hold channel ``channel_id``'s turn order (:func:`bot.ui.board.turn_in_order`) until
        ``order`` closes, after the press's answer and the new game's first board are posted,
        when ``press`` may start a game there: a bot that moves first (woken by the start's
        commit) must not post its move above the board that starts the game."""
        if channel_id is not None and press.could_start():
            await order.enter_async_context(turn_in_order(self.bot, channel_id))

    async def _press(
        self,
        press: _Press,
        *,
        channel_id: int | None = None,
        parent_channel_id: int | None = None,
    ) -> LobbyUpdate:
        """Ask the service to apply ``press`` (Cancel is handled apart).

        A press that starts the game starts it in ``channel_id`` (a thread off
        ``parent_channel_id``) when given, else in the challenge's channel.
        """
        service, challenge_id, user_id = self.bot.service, press.challenge_id, press.user_id
        where = {"channel_id": channel_id, "parent_channel_id": parent_channel_id}
        match press.action:
            case None:
                return await service.add_bots(challenge_id, user_id, press.levels, **where)
            case ChallengeAction.ACCEPT:
                return await service.accept_challenge(challenge_id, user_id, **where)
            case ChallengeAction.JOIN:
                return await service.join_challenge(challenge_id, user_id, **where)
            case ChallengeAction.START:
                return await service.start_challenge(challenge_id, user_id, **where)
            case ChallengeAction.DECLINE:
                return await service.decline_challenge(challenge_id, user_id)
            case ChallengeAction.LEAVE:
                return await service.leave_challenge(challenge_id, user_id)
        raise ValueError(f"no lobby press for {press.action}")

    async def _press_in_thread(
        self,
        message: discord.Message,
        press: _Press,
        info: ChallengeInfo,
        failure: str,
        order: contextlib.AsyncExitStack,
        permissions: discord.Permissions | None,
    ) -> LobbyUpdate:
        """Open a thread off the challenge post ``message``, named after the game and its
        players (those the press seats included), and apply ``press`` there.

        Nothing is lost when it fails: a thread Discord refuses, or one the bot may not
        post in (``permissions``, when known, lack Send Messages in Threads: its game would
        start without a board), raises :class:`ServiceError` with the sentence ``failure``
        before anything is pressed, and the thread is deleted again when the press fails or
        no longer starts the game (someone left meanwhile).
        """
        if permissions is not None and not (
            permissions.create_public_threads and permissions.send_messages_in_threads
        ):
            log.warning("challenge %d: may not open or post in a thread here", info.challenge_id)
            raise ServiceError(failure)
        user_ids = [*info.seated_ids, *press.newcomers(info)]
        names = [await self.bot.display_name(seated) for seated in user_ids]
        try:
            thread = await message.create_thread(
                name=thread_name(info.game_name, names),
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
        except discord.HTTPException as exc:
            log.warning("challenge %d: could not open a thread: %s", info.challenge_id, exc)
            raise ServiceError(failure) from exc
        await self._keep_order(order, press, thread.id)
        try:
            update = await self._press(
                press, channel_id=thread.id, parent_channel_id=info.channel_id
            )
        except BaseException:
            await _delete_quietly(thread)
            raise
        if update.game is None:
            # Someone left in the meantime, so this press no longer started the game.
            await _delete_quietly(thread)
        return update

    async def _show(self, interaction: Interaction, update: LobbyUpdate) -> None:
        """Edit the post to the lobby as it is now; announce the game if one started."""
        info, game = update.challenge, update.game
        if game is not None:
            await edit_post(interaction, presenters.challenge_closed_text(info, game=game))
            await post_board(
                self.bot,
                game,
                presenters.game_started_text(game),
                mention_ids=game.user_ids,
            )
        elif info.is_open:
            await _edit_lobby(interaction, info)
        else:
            await edit_post(interaction, presenters.challenge_closed_text(info))

    async def _show_closed(self, interaction: Interaction, challenge_id: int, status: str) -> None:
        info = await self.bot.service.get_challenge(challenge_id)
        if info.is_open:
            # Past its expiry, but the expiry loop has not marked it yet.
            info = replace(info, status=status)
        game: GameSnapshot | None = None
        if info.game_id is not None:
            game = await self.bot.service.game_snapshot(info.game_id)
        await edit_post(interaction, presenters.challenge_closed_text(info, game=game))

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


async def _edit_lobby(interaction: Interaction, info: ChallengeInfo) -> None:
    """Show the lobby's new state on the pressed post, with the buttons that fit it now.

    A failure is logged and swallowed: the press is committed, and the next press (or
    ``/challenge`` again) shows the lobby.
    """
    try:
        await interaction.edit_original_response(
            content=presenters.challenge_text(info), view=challenge_view(info)
        )
    except discord.HTTPException:
        log.warning("could not edit the lobby of %s", describe(interaction), exc_info=True)


async def _delete_quietly(thread: discord.Thread) -> None:
    try:
        await thread.delete()
    except discord.HTTPException:
        log.warning("could not delete unused thread %d", thread.id)


async def setup(bot: BotHost) -> None:
    await bot.add_cog(ChallengesCog(bot))
