"""Clocks through Discord: a hard clock that runs out ends the game by itself, a soft
clock's time-out is claimed with the "Claim on time" button, and a soft clock warns its
player two hours before it runs out.

The real bot runs as its own process against ``tests/fakediscord``; its clock is the real
one, so the clocks are a few seconds long and the timer loop runs every second
(``GAMEROOM_TIMER_INTERVAL=1s``). Nobody moves: the player to move runs out of time.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.botproc import BotProcess
from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.e2e

COMMANDS = ["challenge", "move", "claim", "game"]
#: A clock runs out after a few seconds, and the timer loop notices within one more.
WAIT = 10.0


class Room:
    """A guild with #games, alice and bob, and the bot with a one-second timer loop."""

    def __init__(self, fake: FakeDiscord, tmp_path: Path) -> None:
        self.fake = fake
        self.guild = fake.add_guild("Clock Test")
        self.channel = fake.add_text_channel(self.guild, "games")
        self.alice, self.bob = fake.add_user("alice"), fake.add_user("bob")
        for user in (self.alice, self.bob):
            fake.add_member(self.guild, user)
        self.bot = BotProcess(
            fake,
            tmp_path / "gameroom.db",
            tmp_path / "bot.log",
            self.guild.id,
            extra_env={"GAMEROOM_TIMER_INTERVAL": "1s"},
        )

    async def start_game(self, clock: str) -> tuple[Any, Any, Any]:
        """alice challenges bob to Generatorb with ``clock``; bob accepts. Returns the first
        board and the players in seat order (the one to move first, then the other)."""
        fake, channel, alice, bob = self.fake, self.channel, self.alice, self.bob
        asked = await fake.slash(
            alice,
            channel,
            "challenge",
            options={"game": "generatorb", "opponent": bob, "clock": clock},
        )
        assert asked.ephemeral
        challenge = await fake.wait_for_message(channel, lambda m: "Accept" in str(m.components))
        assert re.search(r"⏱️ (Hard|Soft) clock: (\d+[dhms])+ to start", challenge.content)
        await fake.press(bob, challenge, label="Accept")
        board = await fake.wait_for_message(channel, lambda m: bool(m.attachments))
        first_id = int(re.search(r"<@(\d+)> plays South", board.content).group(1))  # type: ignore[union-attr]
        return board, *((alice, bob) if first_id == alice.id else (bob, alice))


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


async def test_a_hard_clock_ends_the_game_when_the_player_to_move_runs_out(room: Room) -> None:
    fake, channel = room.fake, room.channel
    board, late, other = await room.start_game("hard:3s")
    assert "⏱️ Hard clock: 3s to start" in board.content
    assert re.search(r"⏱️ [23]s left, runs out <t:\d+:R>", board.content)

    ended = await fake.wait_for_message(
        channel, lambda m: "ran out of time" in m.content, after=board, timeout=WAIT
    )
    assert ended.attachments  # the final board
    assert f"<@{late.id}> (South) ran out of time." in ended.content
    assert f"<@{other.id}> (North) wins on time!" in ended.content
    assert {u.id for u in ended.mentions} == {late.id, other.id}

    info = await fake.slash(other, channel, "game info")
    assert f"Result: <@{other.id}> (North) wins on time!" in info.content
    too_late = await fake.slash(late, channel, "move", text="a1-a3")
    assert too_late.ephemeral
    assert "no game in progress" in too_late.content
    assert "Traceback" not in room.bot.log()


async def test_a_soft_clock_is_claimed_with_the_button(room: Room) -> None:
    fake, channel = room.fake, room.channel
    board, late, other = await room.start_game("soft:2s")

    notice = await fake.wait_for_message(
        channel, lambda m: "Claim on time" in str(m.components), after=board, timeout=WAIT
    )
    assert f"<@{late.id}> (South) is out of time." in notice.content
    assert [u.id for u in notice.mentions] == [other.id]  # the opponent may claim
    refused = await fake.press(late, notice, label="Claim on time")
    assert refused.ephemeral
    assert "You are the one out of time" in refused.content

    mark = fake.checkpoint()
    await fake.press(other, notice, label="Claim on time")
    ended = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    assert f"<@{late.id}> (South) ran out of time (<@{other.id}> claimed)." in ended.content
    assert f"<@{other.id}> (North) wins on time!" in ended.content
    closed = fake.message(notice)
    assert "Claim on time" not in str(closed.components)
    assert f"<@{other.id}> claimed." in closed.content
    assert "Traceback" not in room.bot.log()


async def test_a_soft_clock_warns_its_player_two_hours_before_it_runs_out(room: Room) -> None:
    """A soft clock of 2h5s warns five seconds into a turn. The first player moves at once,
    which calls their warning off; the other's turn then starts, and their warning comes
    (after the first player's would have)."""
    fake, channel = room.fake, room.channel
    board, first, second = await room.start_game("soft:2h5s")
    moved = await fake.slash(first, channel, "move", text="a1-a3")
    assert not moved.ephemeral, moved.content
    warning = await fake.wait_for_message(
        channel, lambda m: "your soft clock" in m.content, after=board, timeout=WAIT
    )
    assert re.fullmatch(
        rf"⏰ <@{second.id}> \(North\), your soft clock in \*\*Generatorb\*\* \(game \d+\) "
        r"runs out <t:\d+:R> \(<t:\d+:t>\): move before then; after that an opponent may "
        rf"claim on time\. The board: https://discord\.com/channels/{room.guild.id}/"
        rf"{channel.id}/\d+",
        warning.content,
    ), warning.content
    assert [u.id for u in warning.mentions] == [second.id]
    warned = [m for m in fake.messages(channel) if "your soft clock" in m.content]
    assert warned == [warning]  # none for the first player, who moved in time
    assert "Traceback" not in room.bot.log()


async def test_a_soft_clocks_notice_loses_its_button_when_the_late_player_moves(
    room: Room,
) -> None:
    """The late player moves before anyone claims: the notice says the game moved on and
    keeps no button. A later notice, claimed with ``/claim``, says who claimed."""
    fake, channel = room.fake, room.channel
    board, late, other = await room.start_game("soft:2s+1s/3s")
    notice = await fake.wait_for_message(
        channel, lambda m: "Claim on time" in str(m.components), after=board, timeout=WAIT
    )
    moved = await fake.slash(late, channel, "move", text="a1-a3")
    assert not moved.ephemeral, moved.content  # a soft clock lets the late player move
    # Retired after the move's board is out.
    await fake.wait_until(lambda: not fake.message(notice).components, what="the notice retired")
    lapsed = fake.message(notice)
    assert lapsed.content == "This claim is no longer open: the game has moved on."

    # Now the other player runs out; the first player claims by command.
    second = await fake.wait_for_message(
        channel,
        lambda m: "Claim on time" in str(m.components) and m.id != notice.id,
        after=board,
        timeout=WAIT,
    )
    assert f"<@{other.id}> (North) is out of time." in second.content
    claimed = await fake.slash(late, channel, "claim")
    assert claimed.ephemeral
    assert claimed.content == "Claimed on time."
    await fake.wait_until(lambda: not fake.message(second).components, what="the notice closed")
    closed = fake.message(second)
    assert f"<@{late.id}> claimed." in closed.content
    assert "Traceback" not in room.bot.log()


async def test_a_resignation_on_time_ends_a_draw_offer_of_a_game_that_goes_on(
    room: Room,
) -> None:
    """In a three-player game the seat that runs out of a hard clock resigns and play goes
    on; that ends an open draw offer as a move would, and its post says so."""
    fake, channel, alice, bob = room.fake, room.channel, room.alice, room.bob
    carol = fake.add_user("carol")
    fake.add_member(room.guild, carol)
    options = {"game": "orbs", "opponent": bob, "opponent2": carol, "players": 3}
    await fake.slash(alice, channel, "challenge", options={**options, "clock": "hard:4s"})
    lobby = await fake.wait_for_message(channel, lambda m: "Accept" in str(m.components))
    await fake.press(bob, lobby, label="Accept")
    await fake.press(carol, lobby, label="Accept")
    board = await fake.wait_for_message(channel, lambda m: bool(m.attachments))
    await fake.slash(alice, channel, "draw")
    offer = await fake.wait_for_message(
        channel, lambda m: "Accept draw" in str(m.components), after=board
    )
    await fake.wait_for_message(
        channel, lambda m: "ran out of time" in m.content, after=offer, timeout=WAIT
    )
    await fake.wait_until(
        lambda: not fake.message(offer).components, what="the offer's buttons retired"
    )
    assert fake.message(offer).content == "This draw offer lapsed: a player resigned."


async def test_an_agreed_draw_closes_a_soft_clocks_notice(room: Room) -> None:
    """The late player offers a draw and the other accepts: the notice's button goes with
    the game (it stayed live until someone pressed it)."""
    fake, channel = room.fake, room.channel
    board, late, other = await room.start_game("soft:2s")
    notice = await fake.wait_for_message(
        channel, lambda m: "Claim on time" in str(m.components), after=board, timeout=WAIT
    )
    await fake.slash(late, channel, "draw")
    offer = await fake.wait_for_message(
        channel, lambda m: "Accept draw" in str(m.components), after=notice, timeout=WAIT
    )
    await fake.press(other, offer, label="Accept draw")
    await fake.wait_until(lambda: not fake.message(notice).components, what="the notice closed")
    assert fake.message(notice).content == "This claim is no longer open: the game has ended."
    assert "Traceback" not in room.bot.log()


async def test_the_one_who_offered_a_draw_withdraws_it_with_decline(room: Room) -> None:
    """Decline pressed on one's own draw offer reads as a withdrawal, not "declined by"."""
    fake, channel = room.fake, room.channel
    board, mover, _ = await room.start_game("soft:45s")
    await fake.slash(mover, channel, "draw")
    offer = await fake.wait_for_message(
        channel, lambda m: "Accept draw" in str(m.components), after=board, timeout=WAIT
    )
    await fake.press(mover, offer, label="Decline")
    await fake.wait_until(lambda: not fake.message(offer).components, what="the offer answered")
    assert fake.message(offer).content == (
        f"<@{mover.id}> withdrew the draw offer; the game goes on."
    )
    assert "Traceback" not in room.bot.log()
