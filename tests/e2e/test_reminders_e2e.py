"""Reminders through Discord: a mention in the game's channel, a DM for the player who chose
DMs, repeated at the interval, and nothing more for a player once they moved, or for anyone
once the game is over.

The real bot runs as its own process against ``tests/fakediscord``, with short real times:
quiet 2 s, interval 2 s, the timer loop every second. The coin flip decides who moves first,
so either player may be the one reminded by DM first; both deliveries are checked either way.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.botproc import BotProcess
from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.e2e

COMMANDS = ["challenge", "move", "resign", "settings", "vacation"]
QUIET_ENV = {
    "GAMEROOM_REMINDER_QUIET": "2s",
    "GAMEROOM_REMINDER_INTERVAL": "2s",
    "GAMEROOM_TIMER_INTERVAL": "1s",
    "GAMEROOM_GAME_SEED": "11",
}
#: Longer than an interval and a tick of the loop: a reminder that was due has come by then.
SETTLE = 3.5


class Room:
    """A guild with #games, alice and bob, and the bot (bob wants his reminders by DM)."""

    def __init__(self, fake: FakeDiscord, tmp_path: Path) -> None:
        self.fake = fake
        self.guild = fake.add_guild("Reminder Test")
        self.channel = fake.add_text_channel(self.guild, "games")
        self.alice, self.bob = fake.add_user("alice"), fake.add_user("bob")
        for user in (self.alice, self.bob):
            fake.add_member(self.guild, user)
        self.bot = BotProcess(
            fake,
            tmp_path / "gameroom.db",
            tmp_path / "bot.log",
            self.guild.id,
            extra_env=QUIET_ENV,
        )

    def reminders(self, user: Any, *, after: int = 0) -> list[Any]:
        """Reminders ``user`` received after checkpoint ``after``: mentions in #games and
        DMs, oldest first."""
        found = [
            m
            for m in self.fake.messages(self.channel)
            if m.content.startswith("⏰") and user.id in m.mentioned_ids
        ]
        dm = self.fake.dm_channel(user)
        if dm is not None:
            found += [m for m in self.fake.messages(dm) if m.content.startswith("⏰")]
        return sorted((m for m in found if m.id > after), key=lambda m: m.id)

    async def wait_reminders(self, user: Any, count: int, *, after: int = 0) -> list[Any]:
        await self.fake.wait_until(
            lambda: len(self.reminders(user, after=after)) >= count,
            timeout=15,
            what=f"{count} reminders for {user.name}",
        )
        return self.reminders(user, after=after)

    async def move(self, user: Any) -> None:
        """Play the first legal move autocomplete offers ``user``."""
        choices = await self.fake.autocomplete(user, self.channel, "move", focused="text", text="")
        assert choices, f"{user.name} has no legal move"
        result = await self.fake.slash(user, self.channel, "move", text=choices[0].value)
        assert not result.ephemeral, result.content  # the answer: the board
        assert result.files


@pytest.fixture
async def room(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Room]:
    world = Room(fake_discord, tmp_path)
    await world.bot.start()
    await fake_discord.wait_commands(world.guild, names=COMMANDS)
    try:
        yield world
    finally:
        await world.bot.stop()
        print(f"--- bot log ---\n{world.bot.log()[-4000:]}")


async def test_reminders_by_mention_and_by_dm_stop_after_the_move(room: Room) -> None:
    fake, channel, alice, bob = room.fake, room.channel, room.alice, room.bob

    chosen = await fake.slash(bob, channel, "settings reminders", delivery="dm")
    assert chosen.ephemeral
    assert "by direct message" in chosen.content

    await fake.slash(alice, channel, "challenge", options={"game": "generatorb", "opponent": bob})
    challenge = await fake.wait_for_message(channel, lambda m: "Accept" in str(m.components))
    await fake.press(bob, challenge, label="Accept")
    board = await fake.wait_for_message(channel, lambda m: bool(m.attachments))
    started = " ".join(m.content for m in fake.messages(channel))
    first_id = int(re.search(r"<@(\d+)> plays South", started).group(1))  # type: ignore[union-attr]
    first, second = (alice, bob) if first_id == alice.id else (bob, alice)

    # The player to move is reminded after the quiet time, where they chose, then again.
    [reminder, again] = (await room.wait_reminders(first, 2))[:2]
    assert again.id > reminder.id
    assert room.reminders(second) == []
    assert "**Generatorb**" in reminder.content
    assert f"<#{channel.id}>" in reminder.content
    assert re.search(r"your turn began <t:\d+:R>", reminder.content)
    assert f"/channels/{room.guild.id}/{channel.id}/{board.id})" in reminder.content
    if first is bob:
        assert reminder.channel_id == fake.dm_channel(bob).id  # type: ignore[union-attr]
        assert "<@" not in reminder.content
    else:
        assert reminder.channel_id == channel.id
        assert [u.id for u in reminder.mentions] == [alice.id]  # pinged, and only her

    # After the move: the other player's reminders begin, the mover's stop. Two of theirs
    # take a quiet time and an interval, in which any reminder of the mover still due came.
    await room.move(first)
    moved = fake.checkpoint()
    theirs = await room.wait_reminders(second, 2, after=moved)
    if second is bob:
        assert theirs[0].channel_id == fake.dm_channel(bob).id  # type: ignore[union-attr]
    else:
        assert [u.id for u in theirs[0].mentions] == [alice.id]
    assert room.reminders(first, after=moved) == []

    # Once the game is over, nobody is reminded any more.
    await fake.slash(second, channel, "resign")
    over = fake.checkpoint()
    await asyncio.sleep(SETTLE)
    assert room.reminders(alice, after=over) == []
    assert room.reminders(bob, after=over) == []
    assert "Traceback" not in room.bot.log()
