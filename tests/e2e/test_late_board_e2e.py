"""A move whose board was never posted (its process stopped between the commit and the post)
is posted late by the ``board_post`` timer, by whichever process runs timers, and a board
that was posted calls its timer off (bot/service/clock_plans.py, ``plan_board_post``).

The crashed process is played by this test: it commits a move through its own
:class:`GameService` on the bot's database file and posts nothing. Its timer is then made due
at once instead of after the 60 s grace.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.service import GameService
from bot.service.clock_plans import BOARD_POST_TIMER, board_post_payload
from db import Database
from db.rows import NewTimer
from tests.e2e.botproc import BotProcess
from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.e2e

COMMANDS = ["challenge", "move"]
LATE = "could not be posted at the time"


@pytest.fixture
async def room(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[tuple[BotProcess, Any]]:
    """The bot (a one-second timer loop) and its guild."""
    guild = fake_discord.add_guild("Late Boards")
    process = BotProcess(
        fake_discord,
        tmp_path / "gameroom.db",
        tmp_path / "bot.log",
        guild.id,
        extra_env={"GAMEROOM_TIMER_INTERVAL": "1s"},
    )
    await process.start()
    await fake_discord.wait_commands(guild, names=COMMANDS)
    try:
        yield process, guild
    finally:
        await process.stop()
        print(f"--- bot log ---\n{process.log()[-4000:]}")


async def challenged(fake: FakeDiscord, guild: Any) -> tuple[Any, Any, Any, Any]:
    """#games with alice and bob, alice's Generatorb challenge to bob posted: the channel,
    alice, bob and the lobby post."""
    channel = fake.add_text_channel(guild, "games")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    for user in (alice, bob):
        fake.add_member(guild, user)
    await fake.slash(alice, channel, "challenge", options={"game": "generatorb", "opponent": bob})
    lobby = await fake.wait_for_message(channel, lambda m: "Accept" in str(m.components))
    return channel, alice, bob, lobby


async def test_a_board_lost_to_a_crash_is_posted_late_and_a_posted_one_is_not_repeated(
    fake_discord: FakeDiscord, room: tuple[BotProcess, Any], tmp_path: Path
) -> None:
    fake, (bot, guild) = fake_discord, room
    channel, alice, bob, lobby = await challenged(fake, guild)
    await fake.press(bob, lobby, label="Accept")
    first = await fake.wait_for_message(channel, lambda m: bool(m.attachments))
    south_id = int(re.search(r"<@(\d+)> plays South", first.content).group(1))  # type: ignore[union-attr]
    south, north = (alice, bob) if south_id == alice.id else (bob, alice)

    # Another process commits South's move and stops before posting its board.
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'gameroom.db'}")
    try:
        crashed = GameService(database)
        result = await crashed.play(channel.id, south.id, "a1-a3")
        version = result.snapshot.version
        (timer,) = await database.timers.pending(kinds=[BOARD_POST_TIMER])
        now = datetime.now(UTC)
        due_now = NewTimer(BOARD_POST_TIMER, now, timer.game_id, None, board_post_payload(version))
        await database.timers.schedule(due_now, now=now)

        late = await fake.wait_for_message(
            channel, lambda m: LATE in m.content, after=first, timeout=20
        )
        assert late.attachments
        assert f"<@{south.id}> (South) played `a1-a3`; its board {LATE}." in late.content
        assert f"<@{north.id}>, your move (North)." in late.content
        assert [u.id for u in late.mentions] == [north.id]

        # North's move is posted as usual, and its own timer is called off by that post.
        await fake.slash(north, channel, "move", text="h8-h6")
        await fake.wait_for_message(
            channel, lambda m: bool(m.attachments) and "h8-h6" in m.content, after=late
        )
        for _ in range(50):
            if not await database.timers.pending(kinds=[BOARD_POST_TIMER]):
                break
            await asyncio.sleep(0.1)
        assert not await database.timers.pending(kinds=[BOARD_POST_TIMER])
        assert sum(LATE in m.content for m in fake.messages(channel)) == 1
    finally:
        await database.close()
    assert "Traceback" not in bot.log()


async def test_a_start_whose_first_board_was_lost_is_posted_late(
    fake_discord: FakeDiscord, room: tuple[BotProcess, Any], tmp_path: Path
) -> None:
    """A process accepts a challenge (the game starts) and stops before posting the first
    board: the start's ``board_post`` timer posts it, as the game's first post."""
    fake, (bot, guild) = fake_discord, room
    channel, _, bob, lobby = await challenged(fake, guild)

    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'gameroom.db'}")
    try:
        crashed = GameService(database)
        (challenge,) = await database.challenges.list_open(channel_id=channel.id)
        started = (await crashed.accept_challenge(challenge.id, bob.id)).game
        assert started is not None
        (timer,) = await database.timers.pending(kinds=[BOARD_POST_TIMER])
        assert timer.payload_json == board_post_payload(started.version)
        now = datetime.now(UTC)
        due_now = NewTimer(
            BOARD_POST_TIMER, now, started.game_id, None, board_post_payload(started.version)
        )
        await database.timers.schedule(due_now, now=now)

        late = await fake.wait_for_message(
            channel, lambda m: "first board" in m.content, after=lobby, timeout=20
        )
        assert late.attachments
        assert late.content.startswith(
            "The first board could not be posted at the time.\n**Generatorb** begins: "
        )
        mover = started.to_move_user_ids[0]
        assert f"<@{mover}>, your move" in late.content
        for _ in range(50):  # the timer is done with once its handler has returned
            if not await database.timers.pending(kinds=[BOARD_POST_TIMER]):
                break
            await asyncio.sleep(0.1)
        assert not await database.timers.pending(kinds=[BOARD_POST_TIMER])
    finally:
        await database.close()
    assert "Traceback" not in bot.log()
