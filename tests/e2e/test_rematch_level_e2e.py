"""A rematch against the bot at another level, through Discord (issue 14).

The real bot runs as its own process against ``tests/fakediscord``. Alice resigns a game of
Generatorb against the level-1 bot; Rematch under the final board answers her alone with a
level menu (a stranger's press is refused, and he cannot see her menu); the bot restarts, and
her choice in the menu it posted before still opens the rematch, with the bot at level 3. A
double click in the next rematch's menu opens one rematch, not two.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.botproc import BotProcess
from tests.fakediscord import ActionRefused, FakeDiscord

pytestmark = pytest.mark.e2e

COMMANDS = ["challenge", "move", "resign", "game"]
MENU_ID = re.compile(r"gr:\d+:rematch_level")


def labels(message: Any) -> list[str]:
    """The labels of a message's buttons, row after row."""
    return [str(b.get("label")) for row in message.components for b in row.get("components", [])]


def started(message: Any) -> bool:
    """A game's first post (presenters.game_started_text)."""
    return bool(message.attachments) and " begins: " in message.content


class Room:
    """A guild with one channel, alice, mallory, and the bot process (restartable)."""

    def __init__(self, fake: FakeDiscord, tmp_path: Path) -> None:
        self.fake = fake
        self.guild = fake.add_guild("Rematches")
        self.alice = fake.add_user("alice")
        self.mallory = fake.add_user("mallory")
        for user in (self.alice, self.mallory):
            fake.add_member(self.guild, user)
        self.channel = fake.add_text_channel(self.guild, "games")
        self.tmp_path = tmp_path
        self.process: BotProcess | None = None
        self.logs: list[BotProcess] = []

    async def start(self) -> None:
        self.process = BotProcess(
            self.fake,
            self.tmp_path / "gameroom.db",
            self.tmp_path / f"bot{len(self.logs)}.log",
            self.guild.id,
            extra_env={"GAMEROOM_GAME_SEED": "5"},
        )
        self.logs.append(self.process)
        await self.process.start()
        await self.fake.wait_commands(self.guild, names=COMMANDS)

    async def stop(self) -> None:
        if self.process is not None:
            await self.process.stop()
            self.process = None

    async def resign(self) -> Any:
        """Alice resigns the game in the channel; returns its final board (with Rematch)."""
        mark = self.fake.checkpoint()
        answer = await self.fake.slash(self.alice, self.channel, "resign")
        assert answer.ephemeral, answer.content
        return await self.fake.wait_for_message(
            self.channel, lambda m: "Rematch" in labels(m), after=mark, timeout=30
        )

    async def rematch_menu(self, final: Any) -> tuple[Any, str]:
        """Alice presses Rematch under ``final``; returns the menu's message and custom id."""
        pressed = await self.fake.press(self.alice, final, label="Rematch")
        assert pressed.ephemeral
        assert pressed.content.startswith("Rematch: at which level should Gameroom play?")
        [menu_id] = pressed.custom_ids
        assert MENU_ID.fullmatch(menu_id)
        return pressed.message, menu_id


@pytest.fixture
async def room(fake_discord: FakeDiscord, tmp_path: Path) -> Any:
    world = Room(fake_discord, tmp_path)
    try:
        yield world
    finally:
        await world.stop()
        for process in world.logs:
            print(f"--- {process.log_path.name} ---\n{process.log()[-4000:]}")


async def test_a_rematch_against_the_bot_at_the_level_picked_in_the_menu(room: Room) -> None:
    fake, alice, channel = room.fake, room.alice, room.channel
    await room.start()

    # -- alice against the level-1 bot, resigned ------------------------------------------
    mark = fake.checkpoint()
    challenged = await fake.slash(
        alice,
        channel,
        "challenge",
        options={"game": "generatorb", "opponent": fake.bot_user, "bot_level": 1},
    )
    assert challenged.ephemeral, challenged.content
    first = await fake.wait_for_message(channel, started, after=mark)
    assert "Gameroom (level 1)" in first.content
    final = await room.resign()

    # -- a stranger's Rematch is refused; alice's answers her alone with the menu ----------
    refused = await fake.press(room.mallory, final, label="Rematch")
    assert refused.ephemeral
    assert refused.content == "Only the players can ask for a rematch."
    menu, menu_id = await room.rematch_menu(final)
    assert menu.content == (
        "Rematch: at which level should Gameroom play? It played at level 1 this game."
    )
    with pytest.raises(ActionRefused):  # an ephemeral menu is hers only
        await fake.select(room.mallory, menu, menu_id, ["3"])
    assert not [m for m in fake.messages(channel) if started(m) and m.id > first.id]

    # -- the bot restarts; her choice in the menu posted before still works ----------------
    await room.stop()
    await room.start()
    mark = fake.checkpoint()
    chosen = await fake.select(alice, menu, menu_id, ["3"])
    assert chosen.ephemeral
    assert chosen.content == "Rematch challenge posted, against Gameroom at level 3."
    assert chosen.custom_ids == []  # the menu is gone: nothing to choose twice
    rematch = await fake.wait_for_message(channel, started, after=mark, timeout=30)
    assert "Gameroom (level 3)" in rematch.content
    assert "Gameroom (level 1)" not in rematch.content

    # -- the next rematch: a double click in its menu opens one ------------------------------
    final = await room.resign()
    menu, menu_id = await room.rematch_menu(final)
    assert "It played at level 3 this game." in menu.content
    mark = fake.checkpoint()
    answers = await asyncio.gather(
        fake.select(alice, menu, menu_id, ["2"]), fake.select(alice, menu, menu_id, ["2"])
    )
    assert sorted(a.content for a in answers) == [
        "Rematch challenge posted, against Gameroom at level 2.",
        "You already chose in this menu; the rematch is on its way.",
    ]
    third = await fake.wait_for_message(channel, started, after=mark, timeout=30)
    assert "Gameroom (level 2)" in third.content
    await asyncio.sleep(1.0)  # a second rematch, if any, would be posted by now
    games = [m for m in fake.messages(channel) if started(m) and m.id > mark]
    assert games == [third]
    lobbies = [m for m in fake.messages(channel) if "challenged" in m.content and m.id > mark]
    assert len(lobbies) == 1
