"""``/settings`` (reminders, board perspective, the server's slow-play settings) and
``/vacation``.

Every answer is ephemeral. ``/settings reminders`` changes how the caller is reminded that a
game waits for them (:mod:`bot.service.reminders`); ``/settings server`` changes the
server's thread policy and default quiet time (members with Manage Server only: Discord
cannot hide a subcommand by permission, so the command checks it); ``/settings show`` lists
what applies to the caller here. ``/settings board perspective:mine|fixed`` says whether the
pictures shown to the caller alone (``/board``, My view, ``/hand``) are drawn from their own
side (``mine``, the default) or always the fixed way (``docs/pictures.md``).
``/vacation start|end|status`` pauses the caller's clocks in every game (the service's
vacation: a yearly allowance, ``GAMEROOM_VACATION_DAYS``); starting or ending one is announced
in each game's channel, without pinging anyone.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.presenters.ratings import privacy_text
from bot.service.clocks import (
    DurationTooLongError,
    format_duration,
    parse_duration,
    short_duration,
)
from bot.service.models import VacationInfo
from bot.service.reminders import EffectiveSettings, QuietSource, effective_settings, parse_quiet
from bot.ui.host import BotHost, Interaction
from bot.ui.replies import answer_errors, post_in_channel
from db.schema import BoardPerspective, ReminderDelivery, ThreadPolicy
from db.settings import KEEP

__all__ = [
    "SETTINGS_COG",
    "SettingsCog",
    "perspective_text",
    "settings_text",
    "vacation_back_line",
    "vacation_line",
    "vacation_text",
]

log = logging.getLogger(__name__)

#: The cog's name (``bot.get_cog(SETTINGS_COG)``).
SETTINGS_COG: Final = "Settings"
#: The longest vacation one command asks for (the allowance caps it anyway).
MAX_VACATION_DAYS: Final = 366

DELIVERY_WORDS: Final = {
    ReminderDelivery.CHANNEL: "in the game's channel",
    ReminderDelivery.DM: "by direct message (in the game's channel if I cannot DM you)",
    ReminderDelivery.OFF: "off",
}
THREAD_WORDS: Final = {
    ThreadPolicy.ALWAYS: "always in a thread of their own",
    ThreadPolicy.WHEN_BUSY: "in the channel, or in a thread when it already has a game",
    ThreadPolicy.NEVER: "only in the channel (a busy channel cannot start another)",
}
SOURCE_WORDS: Final = {
    QuietSource.USER: "your own",
    QuietSource.SERVER: "this server's",
    QuietSource.DEFAULT: "the default",
}


class SettingsCog(commands.Cog, name=SETTINGS_COG):
    """Per-user and per-server settings of slow play, and vacations."""

    settings_group = app_commands.Group(
        name="settings", description="Your reminders and this server's slow-play settings"
    )
    vacation_group = app_commands.Group(
        name="vacation", description="Pause your clocks in all your games for a while"
    )

    def __init__(self, bot: BotHost) -> None:
        self.bot = bot

    def _now(self) -> datetime:
        return discord.utils.utcnow()

    @property
    def _interval(self) -> timedelta:
        return self.bot.settings.reminder_interval

    async def _effective(self, interaction: Interaction) -> EffectiveSettings:
        return await effective_settings(
            self.bot.database,
            interaction.user.id,
            interaction.guild_id,
            default_quiet=self.bot.settings.reminder_quiet,
        )

    # ---- /settings ------------------------------------------------------------------------

    @settings_group.command(
        name="reminders", description="How and when you are reminded that it is your turn"
    )
    @app_commands.describe(
        delivery="Where reminders reach you",
        quiet="How long a turn may wait before the first reminder, e.g. 12h or 2d "
        "(default: the server's)",
    )
    @app_commands.choices(
        delivery=[
            app_commands.Choice(name="in the game's channel", value=ReminderDelivery.CHANNEL.value),
            app_commands.Choice(name="by direct message", value=ReminderDelivery.DM.value),
            app_commands.Choice(name="off", value=ReminderDelivery.OFF.value),
        ]
    )
    async def reminders(
        self,
        interaction: Interaction,
        delivery: str | None = None,
        quiet: app_commands.Range[str, 1, 32] | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            try:
                quiet_s = KEEP if quiet is None else _as_seconds(parse_quiet(quiet))
            except ValueError as error:
                await interaction.followup.send(str(error), ephemeral=True)
                return
            if delivery is not None or quiet is not None:
                await self.bot.database.settings.set_user(
                    interaction.user.id,
                    reminders=KEEP if delivery is None else ReminderDelivery(delivery),
                    reminder_quiet_s=quiet_s,
                    now=self._now(),
                )
                note = "Saved; a new quiet time counts from your next turn."
            else:
                note = "Change them with `delivery:` or `quiet:`."
            text = settings_text(await self._effective(interaction), self._interval, server=False)
            await interaction.followup.send(f"{text}\n{note}", ephemeral=True)

    @settings_group.command(
        name="server", description="This server's threads and reminder quiet time (Manage Server)"
    )
    @app_commands.describe(
        threads="Where new games are played",
        quiet="Quiet time before the first reminder for members who chose none, e.g. 1d "
        "(default: the bot's)",
    )
    @app_commands.choices(
        threads=[
            app_commands.Choice(name="always in a thread", value=ThreadPolicy.ALWAYS.value),
            app_commands.Choice(name="when busy", value=ThreadPolicy.WHEN_BUSY.value),
            app_commands.Choice(name="never", value=ThreadPolicy.NEVER.value),
        ]
    )
    @app_commands.guild_only()
    async def server(
        self,
        interaction: Interaction,
        threads: str | None = None,
        quiet: app_commands.Range[str, 1, 32] | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            guild_id = interaction.guild_id
            if guild_id is None:  # guild_only: Discord never sends it elsewhere
                await interaction.followup.send("This works only in a server.", ephemeral=True)
                return
            if (threads is not None or quiet is not None) and not (
                interaction.permissions.manage_guild
            ):
                await interaction.followup.send(
                    "Only members who may Manage Server can change the server's settings.",
                    ephemeral=True,
                )
                return
            try:
                quiet_s = KEEP if quiet is None else _as_seconds(parse_quiet(quiet))
            except ValueError as error:
                await interaction.followup.send(str(error), ephemeral=True)
                return
            if threads is not None or quiet is not None:
                await self.bot.database.settings.set_guild(
                    guild_id,
                    threads=KEEP if threads is None else ThreadPolicy(threads),
                    reminder_quiet_s=quiet_s,
                    now=self._now(),
                )
                log.info(
                    "guild %d settings changed by %d: threads=%s quiet=%s",
                    guild_id,
                    interaction.user.id,
                    threads,
                    quiet,
                )
                note = "Saved; it applies to games and turns from now on."
            else:
                note = "Change them with `threads:` or `quiet:`."
            text = settings_text(await self._effective(interaction), self._interval, user=False)
            await interaction.followup.send(f"{text}\n{note}", ephemeral=True)

    @settings_group.command(
        name="board", description="Whether the boards shown to you alone are drawn from your side"
    )
    @app_commands.describe(
        perspective="mine: your side at the bottom (default); fixed: always the same way"
    )
    @app_commands.choices(
        perspective=[
            app_commands.Choice(name="mine (your side at the bottom)", value="mine"),
            app_commands.Choice(name="fixed", value="fixed"),
        ]
    )
    async def board(self, interaction: Interaction, perspective: str | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            settings = self.bot.database.settings
            if perspective is None:
                chosen = (await settings.user(interaction.user.id)).board_perspective
                note = "Change it with `perspective:`."
            else:
                row = await settings.set_user(
                    interaction.user.id,
                    board_perspective=BoardPerspective(perspective),
                    now=self._now(),
                )
                chosen, note = row.board_perspective, "Saved."
            await interaction.followup.send(f"{perspective_text(chosen)}\n{note}", ephemeral=True)

    @settings_group.command(
        name="privacy", description="Whether global leaderboards list you (docs/ratings.md)"
    )
    @app_commands.describe(hidden="True: leave me out of global leaderboards")
    async def privacy(self, interaction: Interaction, hidden: bool | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            service = self.bot.service
            if hidden is not None:
                await service.set_leaderboard_hidden(interaction.user.id, hidden)
            now_hidden = await service.leaderboard_hidden(interaction.user.id)
            note = "Saved." if hidden is not None else "Change it with `hidden:`."
            await interaction.followup.send(f"{privacy_text(now_hidden)}\n{note}", ephemeral=True)

    @settings_group.command(name="show", description="Your settings and this server's")
    async def show(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            text = settings_text(await self._effective(interaction), self._interval)
            chosen = (await self.bot.database.settings.user(interaction.user.id)).board_perspective
            await interaction.followup.send(f"{text}\n{perspective_text(chosen)}", ephemeral=True)

    # ---- /vacation ------------------------------------------------------------------------

    @vacation_group.command(name="start", description="Pause your clocks in all your games")
    @app_commands.describe(
        days="How many days (at most what is left of your yearly allowance)",
        for_="Or how long, like 36h or 2d12h",
    )
    @app_commands.rename(for_="for")
    async def vacation_start(
        self,
        interaction: Interaction,
        days: app_commands.Range[int, 1, MAX_VACATION_DAYS] | None = None,
        for_: app_commands.Range[str, 1, 32] | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            try:
                duration = _vacation_length(days, for_)
            except ValueError as error:
                await interaction.followup.send(str(error), ephemeral=True)
                return
            user_id = interaction.user.id
            info = await self.bot.service.start_vacation(user_id, duration)
            if info.until is not None:
                late = vacation_late_line(user_id, info.until)
                away = vacation_line(user_id, info.until, clock=False)
                await self._announce(info, vacation_line(user_id, info.until), late, away)
            text = vacation_text(info)
            if info.booked is not None and info.booked < duration:
                text = f"{shortened_text(duration, info.booked)}\n{text}"
            await interaction.followup.send(text, ephemeral=True)

    @vacation_group.command(name="end", description="Come back early: your clocks run again")
    async def vacation_end(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            user_id = interaction.user.id
            info = await self.bot.service.end_vacation(user_id)
            back = vacation_back_line(user_id, clock=False)
            await self._announce(info, vacation_back_line(user_id), unclocked=back)
            await interaction.followup.send(welcome_back_text(info), ephemeral=True)

    @vacation_group.command(name="status", description="Your vacation and what is left this year")
    async def vacation_status(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with answer_errors(interaction):
            info = await self.bot.service.vacation(interaction.user.id)
            await interaction.followup.send(vacation_text(info), ephemeral=True)

    async def _announce(
        self,
        info: VacationInfo,
        line: str,
        late: str | None = None,
        unclocked: str | None = None,
    ) -> None:
        """Post ``line`` once in the channel of each game with a clock ``info`` lists,
        pinging nobody (``late`` instead, when given, where the player's time was already
        out), and ``unclocked``, when given, in those of its games without a clock (their
        opponents learn why no move comes; a channel with both gets the clock's line)."""
        channels: dict[tuple[int, int | None], str] = {}
        for game in info.games:
            said = late if late is not None and game.out_of_time else line
            channels.setdefault((game.channel_id, game.guild_id), said)
        if unclocked is not None:
            for game in info.unclocked:
                channels.setdefault((game.channel_id, game.guild_id), unclocked)
        for (channel_id, guild_id), said in sorted(channels.items(), key=lambda kv: kv[0][0]):
            await post_in_channel(self.bot, channel_id, said, guild_id=guild_id)


# ------------------------------------------------------------------------------------------
# Parsing and texts
# ------------------------------------------------------------------------------------------


def _as_seconds(quiet: timedelta | None) -> int | None:
    return None if quiet is None else int(quiet.total_seconds())


def _vacation_length(days: int | None, text: str | None) -> timedelta:
    """The vacation asked for: ``days`` or a duration ``text``, exactly one of them.

    Raises :class:`ValueError` with one friendly sentence otherwise."""
    if days is not None and text is not None:
        raise ValueError("Give `days:` or `for:`, not both.")
    if days is not None:
        return timedelta(days=days)
    if text is None:
        raise ValueError("Say how long: `days:3` or `for:36h`.")
    try:
        duration = parse_duration(text)
    except DurationTooLongError:
        duration = timedelta(days=MAX_VACATION_DAYS + 1)
    if not timedelta(0) < duration <= timedelta(days=MAX_VACATION_DAYS):
        raise ValueError(f"A vacation lasts from 1s to {MAX_VACATION_DAYS}d, like 36h or 3d.")
    return duration


def _stamp(moment: datetime, style: str) -> str:
    return f"<t:{int(moment.timestamp())}:{style}>"


def settings_text(
    effective: EffectiveSettings, interval: timedelta, *, user: bool = True, server: bool = True
) -> str:
    """The caller's reminder settings (``user``) and the server's (``server``; nothing in a
    DM), one line each, with where the quiet time comes from; ``interval`` is the time
    between later reminders (``GAMEROOM_REMINDER_INTERVAL``)."""
    lines: list[str] = []
    if user:
        if effective.delivery is ReminderDelivery.OFF:
            lines.append("**Your reminders:** off.")
        else:
            lines.append(
                f"**Your reminders:** {DELIVERY_WORDS[effective.delivery]}, after "
                f"{format_duration(effective.quiet)} without a move "
                f"({SOURCE_WORDS[effective.quiet_source]} quiet time), then every "
                f"{format_duration(interval)} until you move."
            )
    if server and effective.threads is not None:
        quiet = (
            "the default"
            if effective.server_quiet is None
            else format_duration(effective.server_quiet)
        )
        lines.append(
            f"**This server:** games are played {THREAD_WORDS[effective.threads]}; "
            f"quiet time before a reminder: {quiet}."
        )
    return "\n".join(lines)


def perspective_text(chosen: BoardPerspective | None) -> str:
    """The caller's board perspective in one line (``None``: the default, ``mine``)."""
    if chosen is BoardPerspective.FIXED:
        return (
            "**Your boards:** always drawn the fixed way (the public board follows the player "
            "to move)."
        )
    default = " (the default)" if chosen is None else ""
    return (
        f"**Your boards:** drawn from your side{default} in `/board`, My view and `/hand` "
        "(Generatorb, Generator, Orbs); the public board follows the player to move."
    )


def vacation_line(user_id: int, until: datetime, *, clock: bool = True) -> str:
    """The public line in a game's channel when a player goes on vacation (``clock``: the
    game has one, which the vacation pauses)."""
    paused = "; their clock is paused" if clock else ""
    return f"<@{user_id}> is on vacation until {_stamp(until, 'f')}{paused}."


def vacation_late_line(user_id: int, until: datetime) -> str:
    """The public line in a game's channel where a player going on vacation was already out
    of time: the vacation does not pause that clock."""
    return (
        f"<@{user_id}> is on vacation until {_stamp(until, 'f')}, but was already out of time "
        "here: their clock is not paused, and the time-out stands."
    )


def vacation_back_line(user_id: int, *, clock: bool = True) -> str:
    """The public line in a game's channel when a player ends their vacation early."""
    runs = "; their clock runs again" if clock else ""
    return f"<@{user_id}> is back from vacation{runs}."


def vacation_text(info: VacationInfo) -> str:
    """The caller's vacation: until when (if on one), the games it pauses, and the
    allowance used and left this year."""
    lines: list[str] = []
    if info.on_vacation and info.until is not None:
        games = sum(1 for game in info.games if not game.out_of_time)
        if games:
            paused = f"your clocks are paused in {games} game{'s' if games != 1 else ''}"
        elif info.games:
            paused = "no clock of yours is paused"
        else:
            paused = "none of your games has a clock"
        late = [game.game_id for game in info.games if game.out_of_time]
        if late:
            where = ", ".join(f"game {game_id}" for game_id in late)
            paused += (
                f" (your time was already out in {where}: that clock is not paused, and the "
                "time-out stands)"
            )
        lines.append(
            f"You are on vacation until {_stamp(info.until, 'f')} "
            f"({_stamp(info.until, 'R')}): {paused}. `/vacation end` to come back early."
        )
    else:
        lines.append("You are not on vacation.")
    lines.append(allowance_text(info))
    return "\n".join(lines)


def allowance_text(info: VacationInfo) -> str:
    """``This year you have used 3d 4h of 30d; 26d 20h left.`` (two units each, as clocks
    are shown; ``nothing left`` once it is all used). What is left is rounded to the
    nearest of its smaller unit, so a few seconds used read "1s of 30d; 30d left" rather
    than "0s of 30d; 29d 23h left", which did not add up."""
    shown = short_duration(info.left, nearest=True)
    left = f"{shown} left" if info.left > timedelta(0) else "nothing left"
    return (
        f"This year you have used {short_duration(info.used)} of "
        f"{short_duration(info.allowance)}; {left}."
    )


def welcome_back_text(info: VacationInfo) -> str:
    """``/vacation end``: the clocks that run again (none: just the welcome), then the
    allowance."""
    games = len(info.games)
    if games:
        plural = "s" if games != 1 else ""
        back = f"Welcome back: your clocks run again ({games} game{plural} with a clock)."
    else:
        back = "Welcome back."
    return f"{back}\n{allowance_text(info)}"


def shortened_text(asked: timedelta, booked: timedelta) -> str:
    """The first line of a ``/vacation start`` the allowance cut short."""
    return (
        f"You asked for {short_duration(asked)}, but only {short_duration(booked)} "
        "of this year's vacation were left, so that is what you have."
    )


async def setup(bot: BotHost) -> None:
    await bot.add_cog(SettingsCog(bot))
