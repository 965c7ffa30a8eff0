"""``/settings`` and ``/vacation`` with a stand-in bot over a real database and service:
what is stored, what the caller reads, who may change the server, what the channels see."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import pytest

from bot.cogs.settings import (
    SettingsCog,
    allowance_text,
    perspective_text,
    settings_text,
    vacation_back_line,
    vacation_late_line,
    vacation_line,
    vacation_text,
    welcome_back_text,
)
from bot.service import GameService
from bot.service.models import VacationGame, VacationInfo
from bot.service.reminders import EffectiveSettings, QuietSource
from bot.settings import Settings
from db import Database
from db.schema import BoardPerspective, ReminderDelivery, ThreadPolicy

from .test_bot_replies import fake_interaction

USER, OTHER, GUILD, CHANNEL = 7, 8, 1, 2
NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
async def database(tmp_path: Path) -> AsyncIterator[Database]:
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'settings.db'}")
    await db.migrate()
    try:
        yield db
    finally:
        await db.close()


@pytest.fixture
def cog(database: Database) -> SettingsCog:
    bot = MagicMock()
    bot.settings = Settings(discord_token="t", reminder_quiet=timedelta(hours=24))
    bot.database = database
    bot.service = GameService(database, clock=lambda: NOW, rng_seed_source=lambda: 5)
    return SettingsCog(bot)


@pytest.fixture
def posts(monkeypatch: pytest.MonkeyPatch) -> AsyncMock:
    post = AsyncMock(return_value=MagicMock())
    monkeypatch.setattr("bot.cogs.settings.post_in_channel", post)
    return post


def caller(*, guild_id: int | None = GUILD, manage_guild: bool = False) -> Any:
    interaction = fake_interaction(done=True)
    interaction.response.defer = AsyncMock()
    interaction.user = SimpleNamespace(id=USER)
    interaction.guild_id = guild_id
    interaction.permissions = SimpleNamespace(manage_guild=manage_guild)
    return interaction


def answer(interaction: Any) -> str:
    """The one ephemeral answer the command sent."""
    interaction.followup.send.assert_awaited_once()
    args, kwargs = interaction.followup.send.await_args
    assert kwargs.get("ephemeral") is True
    return str(args[0])


async def run(command: Any, cog: SettingsCog, interaction: Any, **options: Any) -> str:
    await command.callback(cog, interaction, **options)
    interaction.response.defer.assert_awaited_once_with(ephemeral=True, thinking=True)
    return answer(interaction)


# ----------------------------------------------------------------------------------------------
# /settings
# ----------------------------------------------------------------------------------------------


async def test_settings_reminders_stores_delivery_and_quiet(
    cog: SettingsCog, database: Database
) -> None:
    text = await run(SettingsCog.reminders, cog, caller(), delivery="dm", quiet="12h")
    stored = await database.settings.user(USER)
    assert (stored.reminders, stored.reminder_quiet_s) == (ReminderDelivery.DM, 12 * 3600)
    assert "**Your reminders:** by direct message" in text
    assert "after 12h without a move (your own quiet time), then every 1d" in text
    assert "Saved" in text

    text = await run(SettingsCog.reminders, cog, caller(), quiet="default")
    stored = await database.settings.user(USER)
    assert (stored.reminders, stored.reminder_quiet_s) == (ReminderDelivery.DM, None)
    assert "after 1d without a move (the default quiet time)" in text


async def test_settings_reminders_off(cog: SettingsCog, database: Database) -> None:
    text = await run(SettingsCog.reminders, cog, caller(), delivery="off")
    assert (await database.settings.user(USER)).reminders is ReminderDelivery.OFF
    assert text.startswith("**Your reminders:** off.")


async def test_a_bad_quiet_time_is_refused_with_a_sentence_and_nothing_stored(
    cog: SettingsCog, database: Database
) -> None:
    text = await run(SettingsCog.reminders, cog, caller(), delivery="dm", quiet="forever")
    assert text == "'forever' is not a duration; write it like 3d, 12h, 90m, 45s or 1d12h."
    assert (await database.settings.user(USER)).updated_at is None


async def test_settings_reminders_without_options_only_shows(
    cog: SettingsCog, database: Database
) -> None:
    text = await run(SettingsCog.reminders, cog, caller())
    assert "in the game's channel, after 1d without a move" in text
    assert "Change them with" in text
    assert (await database.settings.user(USER)).updated_at is None


async def test_settings_server_needs_manage_server(cog: SettingsCog, database: Database) -> None:
    text = await run(SettingsCog.server, cog, caller(), threads="always")
    assert text == "Only members who may Manage Server can change the server's settings."
    assert (await database.settings.guild(GUILD)).updated_at is None

    text = await run(
        SettingsCog.server, cog, caller(manage_guild=True), threads="always", quiet="2d"
    )
    stored = await database.settings.guild(GUILD)
    assert (stored.threads, stored.reminder_quiet_s) == (ThreadPolicy.ALWAYS, 2 * 86400)
    assert "**This server:** games are played always in a thread of their own" in text
    assert "quiet time before a reminder: 2d" in text
    assert "Your reminders" not in text


async def test_anyone_may_read_the_server_settings(cog: SettingsCog) -> None:
    text = await run(SettingsCog.server, cog, caller())
    assert "in the channel, or in a thread when it already has a game" in text
    assert "quiet time before a reminder: the default" in text


async def test_settings_show_lists_the_caller_and_the_server(
    cog: SettingsCog, database: Database
) -> None:
    await database.settings.set_guild(GUILD, reminder_quiet_s=3600, now=NOW)
    text = await run(SettingsCog.show, cog, caller())
    assert text.splitlines() == [
        "**Your reminders:** in the game's channel, after 1h without a move (this server's "
        "quiet time), then every 1d until you move.",
        "**This server:** games are played in the channel, or in a thread when it already "
        "has a game; quiet time before a reminder: 1h.",
        perspective_text(None),
    ]
    in_dm = await run(SettingsCog.show, cog, caller(guild_id=None))
    assert in_dm.splitlines() == [
        "**Your reminders:** in the game's channel, after 1d without a move (the default "
        "quiet time), then every 1d until you move.",
        perspective_text(None),
    ]


async def test_settings_board_saves_the_perspective_and_shows_it(
    cog: SettingsCog, database: Database
) -> None:
    shown = await run(SettingsCog.board, cog, caller())
    assert "drawn from your side (the default)" in shown
    assert "follows the player to move" in shown
    saved = await run(SettingsCog.board, cog, caller(), perspective="fixed")
    assert saved.splitlines() == [perspective_text(BoardPerspective.FIXED), "Saved."]
    user = await database.settings.user(caller().user.id)
    assert user.board_perspective is BoardPerspective.FIXED
    back = await run(SettingsCog.board, cog, caller(), perspective="mine")
    assert "drawn from your side in" in back
    assert (await database.settings.user(caller().user.id)).board_perspective is (
        BoardPerspective.MINE
    )


def test_settings_text_for_every_policy() -> None:
    for policy in ThreadPolicy:
        effective = EffectiveSettings(
            ReminderDelivery.CHANNEL, timedelta(hours=1), QuietSource.DEFAULT, None, None, policy
        )
        assert "games are played" in settings_text(effective, timedelta(hours=6), user=False)


# ----------------------------------------------------------------------------------------------
# /vacation
# ----------------------------------------------------------------------------------------------


async def start_clock_game(service: GameService, channel_id: int, clock: str) -> int:
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=channel_id,
        challenger_id=USER,
        opponent_ids=[OTHER],
        game="generatorb",
        clock=clock,
    )
    game = (await service.accept_challenge(challenge.challenge_id, OTHER)).game
    assert game is not None
    return game.game_id


async def test_a_vacation_is_announced_in_each_game_its_clock_paused_where_it_has_one(
    cog: SettingsCog, posts: AsyncMock
) -> None:
    await start_clock_game(cog.bot.service, 100, "correspondence")
    await start_clock_game(cog.bot.service, 200, "hard:3d")
    await start_clock_game(cog.bot.service, 300, "none")
    text = await run(SettingsCog.vacation_start, cog, caller(), days=3)
    until = NOW + timedelta(days=3)
    # The game without a clock is told too: its reminders wait, and its opponent learns why.
    assert [call.args[1:] for call in posts.await_args_list] == [
        (100, vacation_line(USER, until)),
        (200, vacation_line(USER, until)),
        (300, vacation_line(USER, until, clock=False)),
    ]
    assert vacation_line(USER, until, clock=False) == (
        f"<@{USER}> is on vacation until <t:{int(until.timestamp())}:f>."
    )
    assert all(call.kwargs == {"guild_id": GUILD} for call in posts.await_args_list)
    stamp = int(until.timestamp())
    assert text.splitlines() == [
        f"You are on vacation until <t:{stamp}:f> (<t:{stamp}:R>): your clocks are paused "
        "in 2 games. `/vacation end` to come back early.",
        "This year you have used 3d of 30d; 27d left.",
    ]
    assert vacation_line(USER, until) == (
        f"<@{USER}> is on vacation until <t:{stamp}:f>; their clock is paused."
    )


async def test_a_vacation_says_where_the_time_was_already_out(
    cog: SettingsCog, posts: AsyncMock
) -> None:
    """A clock already out of time is not paused: the answer and that game's line say so."""
    until = NOW + timedelta(days=1)
    games = (
        VacationGame(4, "Orbs", GUILD, 100, out_of_time=True),
        VacationGame(5, "Arbos", GUILD, 200),
    )
    info = VacationInfo(
        USER, until, timedelta(days=1), timedelta(days=29), timedelta(days=30), games, NOW
    )
    first = vacation_text(info).splitlines()[0]
    assert first.endswith(
        "your clocks are paused in 1 game (your time was already out in game 4: that clock is "
        "not paused, and the time-out stands). `/vacation end` to come back early."
    )
    only_late = replace(info, games=games[:1])
    assert "no clock of yours is paused (your time was already out in game 4" in (
        vacation_text(only_late)
    )
    late = vacation_late_line(USER, until)
    assert late.endswith(
        "but was already out of time here: their clock is not paused, and the time-out stands."
    )
    await cog._announce(info, vacation_line(USER, until), late)
    assert [call.args[1:] for call in posts.await_args_list] == [
        (100, late),
        (200, vacation_line(USER, until)),
    ]


async def test_a_vacation_for_a_duration(cog: SettingsCog, posts: AsyncMock) -> None:
    text = await run(SettingsCog.vacation_start, cog, caller(), for_="1d12h")
    assert "none of your games has a clock" in text
    assert "used 1d 12h of 30d; 28d 12h left" in text
    posts.assert_not_awaited()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({}, "Say how long: `days:3` or `for:36h`."),
        ({"days": 2, "for_": "2d"}, "Give `days:` or `for:`, not both."),
        ({"for_": "0s"}, "A vacation lasts from 1s to 366d, like 36h or 3d."),
        ({"for_": "400d"}, "A vacation lasts from 1s to 366d, like 36h or 3d."),
        ({"for_": "9999999999d"}, "A vacation lasts from 1s to 366d, like 36h or 3d."),
        ({"for_": "a week"}, "'a week' is not a duration"),
    ],
)
async def test_a_vacation_needs_one_length(
    cog: SettingsCog, posts: AsyncMock, options: dict[str, Any], message: str
) -> None:
    text = await run(SettingsCog.vacation_start, cog, caller(), **options)
    assert text.startswith(message)
    assert not (await cog.bot.service.vacation(USER)).on_vacation


async def test_ending_a_vacation_early_is_announced_and_refunds_the_rest(
    cog: SettingsCog, posts: AsyncMock
) -> None:
    await start_clock_game(cog.bot.service, 100, "correspondence")
    await start_clock_game(cog.bot.service, 300, "none")
    await cog.bot.service.start_vacation(USER, timedelta(days=5))
    text = await run(SettingsCog.vacation_end, cog, caller())
    assert [call.args[1:] for call in posts.await_args_list] == [
        (100, vacation_back_line(USER)),
        (300, f"<@{USER}> is back from vacation."),
    ]
    assert text.splitlines() == [
        "Welcome back: your clocks run again (1 game with a clock).",
        "This year you have used 0s of 30d; 30d left.",
    ]
    # Without a game with a clock there is no clock to run again.
    await cog.bot.service.start_vacation(USER, timedelta(hours=5, seconds=3))
    await cog.bot.service.end_vacation(USER)  # the game's clock is running again
    assert welcome_back_text(replace(await cog.bot.service.vacation(USER), games=())) == (
        "Welcome back.\nThis year you have used 0s of 30d; 30d left."
    )


async def test_a_vacation_the_allowance_cuts_short_says_so(
    cog: SettingsCog, posts: AsyncMock
) -> None:
    await cog.bot.service.start_vacation(USER, timedelta(days=27, hours=12, minutes=1))
    text = await run(SettingsCog.vacation_start, cog, caller(), days=6)
    assert text.splitlines()[0] == (
        "You asked for 6d, but only 2d 11h of this year's vacation were left, "
        "so that is what you have."
    )
    assert text.splitlines()[-1] == "This year you have used 30d of 30d; nothing left."
    # A few seconds used: what is left reads to the nearest hour, so the two add up.
    info = await cog.bot.service.vacation(USER)
    odd = replace(info, used=timedelta(seconds=1), left=timedelta(days=30) - timedelta(seconds=1))
    assert allowance_text(odd) == "This year you have used 1s of 30d; 30d left."
    # Asked for no more than is left: nothing to say about it.
    await run(SettingsCog.vacation_end, cog, caller())
    text = await run(SettingsCog.vacation_start, cog, caller(), days=1)
    assert text.startswith("You are on vacation until")


async def test_ending_no_vacation_is_refused_with_a_sentence(
    cog: SettingsCog, posts: AsyncMock
) -> None:
    text = await run(SettingsCog.vacation_end, cog, caller())
    assert text == "You are not on vacation."
    posts.assert_not_awaited()


async def test_vacation_status(cog: SettingsCog) -> None:
    assert await run(SettingsCog.vacation_status, cog, caller()) == (
        "You are not on vacation.\nThis year you have used 0s of 30d; 30d left."
    )


def test_vacation_text_counts_games() -> None:
    info = VacationInfo(
        user_id=USER,
        until=NOW + timedelta(hours=36),
        used=timedelta(hours=36),
        left=timedelta(days=28, hours=12),
        allowance=timedelta(days=30),
        games=(VacationGame(1, "Orbs", GUILD, 100),),
        as_of=NOW,
    )
    assert "your clocks are paused in 1 game." in vacation_text(info)
