"""Challenges for several players, through Discord as users would make them.

The real bot runs as its own process (``python -m bot run``) against ``tests/fakediscord``.
The game is Generator (2–4 players). One test fills a three-seat lobby with Accept and Join
(with a refused Accept, a full lobby, a Leave and a Join again on the way), then plays on
after one of the three resigns. The other starts a four-seat lobby early with Start, after a
bot restart, so the lobby's buttons are shown to survive one.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from engines import ENGINES
from tests.e2e.botproc import BotProcess
from tests.fakediscord import FakeDiscord

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        "generator" not in ENGINES, reason="needs the Generator engine (2–4 players) registered"
    ),
]

COMMANDS = ["challenge", "move", "board", "resign", "draw", "game"]
DISCS = {"Green": "🟢", "Red": "🔴", "Yellow": "🟡", "Blue": "🔵"}


#: Discord's component type of a button (a select menu is 3).
BUTTON = 2


def labels(message: Any) -> list[str]:
    """The labels of a message's buttons, row after row (not its menus: a lobby with an
    open seat also carries the "Add a bot…" select, see test_bots_e2e)."""
    return [
        str(button.get("label"))
        for row in message.components
        for button in row.get("components", [])
        if button.get("type") == BUTTON
    ]


def seats_announced(text: str) -> dict[int, str]:
    """``<@1> plays 🟢 Green`` in a game-started message → ``{1: "Green"}``."""
    found = re.findall(r"<@(\d+)> plays \S+ (Green|Red|Yellow|Blue)", text)
    return {int(user_id): colour for user_id, colour in found}


class Room:
    """A guild with a #games channel, four members and the bot, which can be restarted."""

    def __init__(self, fake: FakeDiscord, tmp_path: Path) -> None:
        self.fake = fake
        self.tmp_path = tmp_path
        self.guild = fake.add_guild("Lobby Test")
        self.channel = fake.add_text_channel(self.guild, "games")
        self.ann, self.bob, self.cat, self.dan = (
            fake.add_user(name) for name in ("ann", "bob", "cat", "dan")
        )
        for user in (self.ann, self.bob, self.cat, self.dan):
            fake.add_member(self.guild, user)
        self.bots: list[BotProcess] = []

    async def start_bot(self) -> None:
        bot = BotProcess(
            self.fake,
            self.tmp_path / "gameroom.db",
            self.tmp_path / f"bot{len(self.bots)}.log",
            self.guild.id,
        )
        self.bots.append(bot)
        await bot.start()
        await self.fake.wait_commands(self.guild, names=COMMANDS)

    async def restart_bot(self) -> None:
        await self.bots[-1].stop()
        await self.start_bot()

    async def stop(self) -> None:
        for bot in self.bots:
            await bot.stop()


@pytest.fixture
async def room(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Room]:
    world = Room(fake_discord, tmp_path)
    await world.start_bot()
    try:
        yield world
    finally:
        await world.stop()
        for bot in world.bots:
            print(f"--- {bot.log_path.name} ---\n{bot.log()[-4000:]}")


async def test_three_seats_filled_by_accept_and_join_then_one_resigns(room: Room) -> None:
    fake, channel = room.fake, room.channel
    ann, bob, cat, dan = room.ann, room.bob, room.cat, room.dan

    posted = await fake.slash(
        ann, channel, "challenge", options={"game": "generator", "opponent": bob, "players": 3}
    )
    assert posted.ephemeral
    lobby = await fake.wait_for_message(channel, lambda m: "Join" in labels(m))
    assert [u.id for u in lobby.mentions] == [bob.id]  # only the invited player is pinged
    assert lobby.content.startswith(
        f"<@{ann.id}> challenges <@{bob.id}> and anyone to **Generator** (3 players).\n"
        f"1. <@{ann.id}> (challenger)\n2. <@{bob.id}> (invited)\n3. open\n"
    )
    assert labels(lobby) == ["Accept", "Decline", "Join", "Cancel"]

    # -- wrong people get one private sentence; the lobby does not change --------------------
    refused = await fake.press(cat, lobby, label="Accept")
    assert refused.ephemeral
    assert refused.content == (
        "That invitation is for someone else; press Join to take an open seat."
    )

    # -- cat joins, dan finds no seat, cat leaves and joins again ------------------------------
    joined = await fake.press(cat, lobby, label="Join")
    assert joined.updated
    assert f"3. <@{cat.id}> (joined)" in fake.message(lobby).content
    assert labels(fake.message(lobby)) == ["Accept", "Decline", "Leave", "Start", "Cancel"]
    full = await fake.press(dan, lobby, label="Accept")
    assert full.content == "This challenge is for someone else."
    not_yours = await fake.press(ann, lobby, label="Leave")
    assert not_yours.content == "You made this challenge: press Cancel to call it off."
    await fake.press(cat, lobby, label="Leave")
    assert "3. open" in fake.message(lobby).content
    await fake.press(cat, lobby, label="Join")

    # -- bob accepts: the last seat is filled and the game starts ------------------------------
    mark = fake.checkpoint()
    await fake.press(bob, lobby, label="Accept")
    started = await fake.wait_for_message(channel, lambda m: "begins" in m.content, after=mark)
    seats = seats_announced(started.content)
    assert sorted(seats) == sorted([ann.id, bob.id, cat.id])
    assert sorted(seats.values()) == ["Green", "Red", "Yellow"]
    assert {u.id for u in started.mentions} == {ann.id, bob.id, cat.id}  # everyone is pinged
    closed = fake.message(lobby)
    assert labels(closed) == []
    assert "the game is on below." in closed.content  # in the lobby's own channel
    for user_id, colour in seats.items():
        assert f"{DISCS[colour]} {colour} — <@{user_id}>" in closed.content

    info = await fake.slash(dan, channel, "game info")
    assert info.ephemeral
    assert all(f"{DISCS[c]} {c} — <@{u}>" in info.content for u, c in seats.items())

    # -- a player who is not to move resigns: the other two play on -------------------------
    to_move = int(re.search(r"<@(\d+)>, your move", started.content).group(1))  # type: ignore[union-attr]
    resigner = next(u for u in (ann, bob, cat) if u.id != to_move)
    mark = fake.checkpoint()
    resigned = await fake.slash(resigner, channel, "resign")
    assert resigned.ephemeral
    post = await fake.wait_for_message(channel, lambda m: "resigns" in m.content, after=mark)
    colour = seats[resigner.id]
    assert post.content.startswith(  # the engine may add what the player to move must decide
        f"<@{resigner.id}> ({DISCS[colour]} {colour}) resigns and leaves the game; "
        f"play goes on without them.\n<@{to_move}>, your move "
        f"({DISCS[seats[to_move]]} {seats[to_move]})."
    )
    assert to_move in {u.id for u in post.mentions}
    moves = await fake.slash(dan, channel, "game moves")
    assert f"{colour}: resigns" in moves.content  # the log's [k]resign, in words
    assert "]resign" not in moves.content
    again = await fake.slash(resigner, channel, "resign")
    assert again.content == "You have already resigned from this game."


async def test_the_challenger_starts_early_after_a_restart(room: Room) -> None:
    fake, channel = room.fake, room.channel
    ann, bob, cat = room.ann, room.bob, room.cat

    await fake.slash(ann, channel, "challenge", options={"game": "generator", "players": 4})
    lobby = await fake.wait_for_message(channel, lambda m: "Join" in labels(m))
    assert lobby.mentions == ()  # nobody invited, nobody pinged
    assert labels(lobby) == ["Join", "Cancel"]
    own_seat = await fake.press(ann, lobby, label="Join")
    assert own_seat.content == "You made this challenge, so you already have a seat."
    await fake.press(bob, lobby, label="Join")
    assert labels(fake.message(lobby)) == ["Join", "Leave", "Start", "Cancel"]

    # The buttons are persistent: a new bot process answers them.
    await room.restart_bot()
    not_yours = await fake.press(cat, lobby, label="Start")
    assert not_yours.content == "Only the challenger can start the game."
    mark = fake.checkpoint()
    await fake.press(ann, lobby, label="Start")
    started = await fake.wait_for_message(channel, lambda m: "begins" in m.content, after=mark)
    seats = seats_announced(started.content)
    assert sorted(seats) == sorted([ann.id, bob.id])
    assert sorted(seats.values()) == ["Green", "Red"]
    assert {u.id for u in started.mentions} == {ann.id, bob.id}
    assert labels(fake.message(lobby)) == []
    late = fake.messages(channel)
    assert not [m for m in late if "Join" in labels(m)]
