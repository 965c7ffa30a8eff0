"""Games in threads and the people who watch them, through Discord as users would see it.

The real bot runs as its own process against ``tests/fakediscord``. One guild plays every
game in a thread (``threads: always``, written to the bot's database before it starts): a
challenge opens a thread named after the game and its players, a third user presses Watch
and is mentioned under the next board, and the thread is archived a second after the end.
In a guild with the default policy, a user who ran ``/watch`` on a channel game hears of its
end by direct message, and of nothing before. Refusals lose nothing: a busy channel where
threads are off, and a thread Discord will not open, leave the lobby as it was.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import AsyncIterator
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import pytest

from db import Database
from db.schema import ThreadPolicy
from tests.e2e.botproc import BotProcess, eventually
from tests.fakediscord import FakeDiscord
from tests.fakediscord.models import DEFAULT_BOT_PERMISSIONS, DEFAULT_EVERYONE_PERMISSIONS

pytestmark = pytest.mark.e2e

COMMANDS = ["challenge", "move", "resign", "watch", "unwatch", "games"]
#: Archive a thread a second after its game ends, and look for due timers every second.
FAST_TIMERS = {"GAMEROOM_THREAD_ARCHIVE_AFTER": "1s", "GAMEROOM_TIMER_INTERVAL": "1s"}


def labels(message: Any) -> list[str]:
    """The labels of a message's buttons, row after row."""
    return [
        str(button.get("label"))
        for row in message.components
        for button in row.get("components", [])
    ]


def mentioned(message: Any) -> set[int]:
    """The ids of the users a message pinged."""
    return {user.id for user in message.mentions}


def to_move(message: Any) -> int:
    """The user a board post asks to move (``<@1>, your move``)."""
    found = re.search(r"<@(\d+)>, your move", message.content)
    assert found is not None, message.content
    return int(found.group(1))


class Guild:
    """A guild with a #games channel, four members and a bot process of its own."""

    def __init__(
        self, fake: FakeDiscord, tmp_path: Path, name: str, *, everyone_threads: bool = True
    ) -> None:
        self.fake = fake
        everyone = DEFAULT_EVERYONE_PERMISSIONS
        if not everyone_threads:  # then the bot's role alone decides whether it may open one
            # (and post in it: people's slash commands need neither permission)
            threads = discord.Permissions(create_public_threads=True, send_messages_in_threads=True)
            everyone &= ~threads.value
        self.guild = fake.add_guild(name, everyone_permissions=everyone)
        self.channel = fake.add_text_channel(self.guild, "games")
        self.ann, self.bob, self.cat, self.dan = (
            fake.add_user(user) for user in ("ann", "bob", "cat", "dan")
        )
        for user in (self.ann, self.bob, self.cat, self.dan):
            fake.add_member(self.guild, user)
        self.db_path = tmp_path / "gameroom.db"
        self.bot = BotProcess(
            fake, self.db_path, tmp_path / "bot.log", self.guild.id, extra_env=FAST_TIMERS
        )

    async def set_threads(self, policy: ThreadPolicy) -> None:
        """Write the guild's thread policy to the bot's database (which the bot reads at
        every press that may start a game, so this works while it runs too)."""
        database = Database(f"sqlite+aiosqlite:///{self.db_path}")
        try:
            await database.migrate()
            await database.settings.set_guild(self.guild.id, threads=policy, now=datetime.now(UTC))
        finally:
            await database.close()

    async def start(self) -> None:
        await self.bot.start()
        await self.fake.wait_commands(self.guild, names=COMMANDS)

    async def ann_challenges_bob(self, game: str) -> Any:
        """ann challenges bob to ``game`` in #games and bob accepts; returns the lobby post
        (the game starts where the thread policy says)."""
        await self.fake.slash(
            self.ann, self.channel, "challenge", options={"game": game, "opponent": self.bob}
        )
        lobby = await self.fake.wait_for_message(self.channel, lambda m: "Accept" in labels(m))
        await self.fake.press(self.bob, lobby, label="Accept")
        return lobby

    async def started_in_channel(self, game: str) -> Any:
        """:meth:`ann_challenges_bob`, with the game starting in #games itself; returns its
        first post."""
        mark = self.fake.checkpoint()
        await self.ann_challenges_bob(game)
        return await self.fake.wait_for_message(
            self.channel, lambda m: "begins" in m.content, after=mark, timeout=30
        )

    async def play_one_move(self, channel: Any, board: Any) -> Any:
        """The player ``board`` asks to move plays their first legal move; returns the next
        board posted in ``channel``."""
        user = self.fake.user(to_move(board))
        assert user is not None
        (choice, *_) = await self.fake.autocomplete(user, channel, "move", focused="text", text="")
        mark = self.fake.checkpoint()
        played = await self.fake.slash(user, channel, "move", text=choice.value)
        assert not played.ephemeral, played.content  # the answer: the board
        assert played.files
        return await self.fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)


async def direct_messages_to(fake: FakeDiscord, *users: Any) -> list[str]:
    """The first direct message each of ``users`` got, once all have one."""
    await fake.wait_until(
        lambda: None not in [fake.dm_channel(user) for user in users], what="the DMs"
    )
    texts = []
    for user in users:
        dm_channel = fake.dm_channel(user)
        assert dm_channel is not None
        texts.append((await fake.wait_for_message(dm_channel)).content)
    return texts


@pytest.fixture
async def always(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Guild]:
    world = Guild(fake_discord, tmp_path, "Threads Always")
    await world.set_threads(ThreadPolicy.ALWAYS)
    await world.start()
    try:
        yield world
    finally:
        await world.bot.stop()
        print(f"--- bot log ---\n{world.bot.log()[-6000:]}")


@pytest.fixture
async def default(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Guild]:
    """A guild with the default thread policy, where only the bot's role lets it open
    threads and post in them."""
    world = Guild(fake_discord, tmp_path, "Threads When Busy", everyone_threads=False)
    await world.start()
    try:
        yield world
    finally:
        await world.bot.stop()
        print(f"--- bot log ---\n{world.bot.log()[-6000:]}")


async def test_a_game_in_a_thread_mentions_its_watcher_and_is_archived_after_the_end(
    always: Guild,
) -> None:
    fake, channel = always.fake, always.channel
    ann, bob, cat = always.ann, always.bob, always.cat

    await fake.slash(ann, channel, "challenge", options={"game": "generatorb", "opponent": bob})
    lobby = await fake.wait_for_message(channel, lambda m: "Accept" in labels(m))
    await fake.press(bob, lobby, label="Accept")

    # -- the game starts in a thread off the challenge, named after the game and players -------
    thread = await fake.wait_for_thread(channel, "Generatorb: ann vs bob")
    assert thread.id == lobby.id  # Discord gives a message's thread the message's id
    started = await fake.wait_for_message(thread, lambda m: "begins" in m.content)
    assert mentioned(started) == {ann.id, bob.id}  # the mention adds them to the thread
    assert labels(started) == ["Watch"]
    assert f"the game is on in <#{thread.id}>" in fake.message(lobby).content
    assert not [m for m in fake.messages(channel) if m.attachments]  # no board in #games

    # -- players cannot watch; a third user follows every move with the button ---------------
    refused = await fake.press(ann, started, label="Watch")
    assert refused.ephemeral
    assert refused.content.startswith("You play in this game")
    watching = await fake.press(cat, started, label="Watch")
    assert watching.ephemeral
    assert watching.content.startswith(
        f"You are watching **Generatorb** (game 1) in <#{thread.id}>: you hear of it after "
        "every move, by a mention in its thread. Press **Watch** again to stop"
    )

    # -- the next board mentions the watcher, under the players' line -------------------------
    board = await always.play_one_move(thread, started)
    assert cat.id in mentioned(board)
    assert board.content.endswith(f"\n👀 Watching: <@{cat.id}>")
    listed = await fake.slash(cat, channel, "games")
    assert listed.ephemeral
    next_name = fake.user(to_move(board)).name  # type: ignore[union-attr]
    line = rf"\*\*Generatorb\*\* · (ann vs bob|bob vs ann) · {next_name} to move"
    assert re.search(line, listed.content), listed.content
    assert f"<#{thread.id}>" in listed.content

    # -- the end: everyone is told, the final board offers a rematch, the thread is archived ---
    mark = fake.checkpoint()
    await fake.slash(fake.user(to_move(board)), thread, "resign")  # type: ignore[arg-type]
    final = await fake.wait_for_message(thread, lambda m: "resigns" in m.content, after=mark)
    assert cat.id in mentioned(final)
    assert labels(final) == ["Rematch"]
    await fake.wait_until(
        lambda: fake.channel(thread.id).archived,  # type: ignore[union-attr]
        timeout=20,
        what="the game's thread to be archived",
    )


async def test_a_watcher_of_a_channel_game_hears_of_its_end_by_direct_message(
    default: Guild,
) -> None:
    fake, channel = default.fake, default.channel
    ann, bob, dan = default.ann, default.bob, default.dan

    started = await default.started_in_channel("generatorb")
    assert fake.threads(channel) == []  # when_busy: a free channel plays in place

    watching = await fake.slash(dan, channel, "watch")
    assert watching.ephemeral
    assert watching.content == (
        f"You are watching **Generatorb** (game 1) in <#{channel.id}>: you hear of it at its "
        "end, by direct message. `/unwatch` stops it."
    )
    # The watch is confirmed by direct message (so a watcher who takes none is told now).
    dm_channel = fake.dm_channel(dan)
    assert dm_channel is not None
    (confirmation,) = fake.messages(dm_channel)
    assert confirmation.content == (
        f"👀 You are watching **Generatorb** (game 1) in <#{channel.id}>: I will write here at "
        "its end."
    )

    # -- a move: an end-only watcher hears nothing ----------------------------------------------
    board = await default.play_one_move(channel, started)
    assert dan.id not in mentioned(board)
    assert "Watching" not in board.content
    assert fake.messages(dm_channel) == [confirmation]

    # -- the end: one direct message with the result and a link to the final board ----------
    mark = fake.checkpoint()
    loser = to_move(board)
    await fake.slash(fake.user(loser), channel, "resign")  # type: ignore[arg-type]
    final = await fake.wait_for_message(channel, lambda m: "resigns" in m.content, after=mark)
    assert dan.id not in mentioned(final)
    dm = await fake.wait_for_message(dm_channel, after=confirmation)
    winner = ann.id if loser == bob.id else bob.id
    assert dm.content.startswith(f"**Generatorb** in <#{channel.id}>: ")
    assert re.search(rf"<@{winner}> \((South|North)\) wins by resignation!", dm.content)
    assert dm.content.endswith(
        f"https://discord.com/channels/{default.guild.id}/{channel.id}/{final.id}"
    )
    assert not dm.attachments
    assert fake.threads(channel) == []  # nothing to archive


async def test_a_watcher_who_takes_no_direct_messages_is_told_at_once(default: Guild) -> None:
    """A game in a channel tells its end-only watchers by direct message: one whose privacy
    settings refuse them is told so by ``/watch``, rather than never hearing of the end."""
    fake, channel, dan = default.fake, default.channel, default.dan
    await default.started_in_channel("generatorb")
    dan.dms_closed = True
    watching = await fake.slash(dan, channel, "watch")
    assert watching.ephemeral
    assert watching.content.startswith("You are watching **Generatorb** (game 1)")
    assert watching.content.endswith(
        "I cannot send you direct messages, so you would not hear of it: allow direct messages "
        "from this server's members (Privacy Settings), then use `/watch` again."
    )
    again = await fake.slash(dan, channel, "watch", every_move=True)  # a change: no new DM
    assert "I cannot send you direct messages" not in again.content


async def test_a_generator_watcher_hears_the_next_roll_by_direct_message(
    default: Guild,
) -> None:
    """The board post leaves the next roll to the prompt under the ping ("You rolled …");
    a watcher's direct message has no prompt, so its line says the roll."""
    fake, channel = default.fake, default.channel
    dan = default.dan

    started = await default.started_in_channel("generator")
    watching = await fake.slash(dan, channel, "watch", options={"every_move": True})
    assert "every move, by direct message" in watching.content

    board = await default.play_one_move(channel, started)
    first_line = board.content.split("\n")[0]
    assert "You rolled" in board.content
    dm_channel = fake.dm_channel(dan)
    assert dm_channel is not None
    confirmation = fake.messages(dm_channel)[0]  # of /watch, before the move
    assert confirmation.content.startswith("👀 You are watching **Generator**")
    dm = await fake.wait_for_message(dm_channel, after=confirmation)
    assert dm.content.startswith(f"**Generator** in <#{channel.id}>: ")
    said = dm.content.removeprefix(f"**Generator** in <#{channel.id}>: ")
    # The post's line, then the roll it left to the prompt, then the link to the post.
    assert said.startswith(first_line.removesuffix("."))
    assert re.search(r"(Red|Green|Yellow|Blue) rolled \w+ \([RGYB]\)\. https://", said), said
    assert not dm.attachments


async def test_refusals_leave_the_lobby_as_it_was(default: Guild) -> None:
    fake, channel = default.fake, default.channel
    ann, bob, cat, dan = default.ann, default.bob, default.cat, default.dan

    await fake.slash(ann, channel, "challenge", options={"game": "generatorb", "opponent": bob})
    first = await fake.wait_for_message(channel, lambda m: "Accept" in labels(m))
    await fake.press(bob, first, label="Accept")
    await fake.wait_for_message(channel, lambda m: "begins" in m.content)
    await fake.slash(cat, channel, "challenge", options={"game": "generatorb", "opponent": dan})
    second = await fake.wait_for_message(
        channel, lambda m: "Accept" in labels(m) and f"<@{cat.id}> challenges" in m.content
    )

    # -- threads: never — the busy channel refuses, nothing changes ---------------------------
    await default.set_threads(ThreadPolicy.NEVER)
    refused = await fake.press(dan, second, label="Accept")
    assert refused.ephemeral
    assert refused.content.startswith(
        "This channel already has a game in progress, and this server plays its games in "
        "channels, not threads"
    )
    assert labels(fake.message(second)) == ["Accept", "Decline", "Cancel"]
    assert fake.threads(channel) == []

    # -- threads: always, but the bot may not open threads — refused, nothing changes ---------
    await default.set_threads(ThreadPolicy.ALWAYS)
    no_threads = discord.Permissions(create_public_threads=True).value
    fake.set_bot_permissions(default.guild, DEFAULT_BOT_PERMISSIONS & ~no_threads)
    no_thread = await fake.press(dan, second, label="Accept")
    assert no_thread.content.startswith("I could not open a thread for this game")
    assert labels(fake.message(second)) == ["Accept", "Decline", "Cancel"]
    assert fake.threads(channel) == []

    # -- threads when busy, the same: the refusal names the thread, not only the busy channel --
    await default.set_threads(ThreadPolicy.WHEN_BUSY)
    busy = await fake.press(dan, second, label="Accept")
    assert busy.content.startswith(
        "This channel already has a game in progress, and I could not open a thread for this "
        "one, so it has not started; check that I may create public threads"
    )
    assert fake.threads(channel) == []

    # -- a thread the bot could open but not post in is not opened (no board would come) -------
    no_posts = discord.Permissions(send_messages_in_threads=True).value
    fake.set_bot_permissions(default.guild, DEFAULT_BOT_PERMISSIONS & ~no_posts)
    mute = await fake.press(dan, second, label="Accept")
    assert "send messages in threads" in mute.content
    assert labels(fake.message(second)) == ["Accept", "Decline", "Cancel"]
    assert fake.threads(channel) == []
    await default.set_threads(ThreadPolicy.ALWAYS)

    # -- allowed again: the same press starts the game in its thread --------------------------
    fake.set_bot_permissions(default.guild, DEFAULT_BOT_PERMISSIONS)
    await fake.press(dan, second, label="Accept")
    thread = await fake.wait_for_thread(channel, "Generatorb: cat vs dan")
    started = await fake.wait_for_message(thread, lambda m: "begins" in m.content)
    assert mentioned(started) == {cat.id, dan.id}


def archived(fake: FakeDiscord, thread_id: int) -> bool:
    thread = fake.channel(thread_id)
    return thread is not None and thread.archived


async def test_a_rematch_against_the_bot_from_an_archived_thread_opens_a_new_thread(
    always: Guild,
) -> None:
    """The rematch's lobby goes to the parent channel, and so does its game: a new thread off
    the lobby post, while the old thread stays archived under its old name."""
    fake, channel, ann = always.fake, always.channel, always.ann
    await fake.slash(
        ann, channel, "challenge", options={"game": "generatorb", "opponent": fake.bot_user}
    )
    old = await fake.wait_for_thread(channel)
    await fake.wait_for_message(old, lambda m: "begins" in m.content, timeout=30)
    mark = fake.checkpoint()
    await fake.slash(ann, old, "resign")
    final = await fake.wait_for_message(
        old, lambda m: "Rematch" in labels(m), after=mark, timeout=30
    )
    await fake.wait_until(lambda: archived(fake, old.id), timeout=20, what="archiving")

    pressed = await fake.press(ann, final, label="Rematch")
    [menu_id] = pressed.custom_ids
    assert pressed.message is not None
    mark = fake.checkpoint()
    chosen = await fake.select(ann, pressed.message, menu_id, ["2"])
    assert chosen.content == "Rematch challenge posted, against Gameroom at level 2."
    await fake.wait_until(lambda: len(fake.threads(channel)) == 2, timeout=30, what="a thread")
    [new] = [t for t in fake.threads(channel) if t.id != old.id]
    board = await fake.wait_for_message(new, lambda m: "begins" in m.content, timeout=30)
    assert "Gameroom (level 2)" in board.content
    assert archived(fake, old.id)
    assert not [m for m in fake.messages(old) if m.id > mark]  # the old thread stays quiet
    lobby = [m for m in fake.messages(channel) if m.id > mark]
    assert lobby
    assert f"<#{new.id}>" in lobby[-1].content


async def test_a_deleted_channel_aborts_its_games_and_tells_their_players(
    default: Guild,
) -> None:
    """A game whose channel is deleted could never be played or ended again, and would keep
    its players from /forget-me: it is aborted (no result, not rated), its players and its
    watchers hear of it by direct message, and an open challenge posted there is cancelled."""
    fake, channel = default.fake, default.channel
    ann, bob, cat, dan = default.ann, default.bob, default.cat, default.dan
    await default.started_in_channel("generatorb")
    await fake.slash(cat, channel, "challenge", options={"game": "orbs", "opponent": dan})
    await fake.wait_for_message(channel, lambda m: f"<@{dan.id}>" in m.content)
    watching = await fake.slash(dan, channel, "watch", options={"game_id": 1})
    assert watching.content.startswith("You are watching **Generatorb** (game 1)")

    fake.delete_channel(channel)
    said = (
        "**Generatorb** (game 1) was aborted: its channel was deleted. It has no result "
        "and is not rated."
    )
    assert await direct_messages_to(fake, ann, bob) == [said] * 2
    # Its watcher was promised its end: told too (after the watch's confirmation).
    watcher_dms = fake.dm_channel(dan)
    assert watcher_dms is not None
    told = await fake.wait_for_message(watcher_dms, lambda m: "aborted" in m.content)
    assert told.content == said
    elsewhere = fake.add_text_channel(default.guild, "elsewhere")
    listed = await fake.slash(ann, elsewhere, "games", options={"scope": "mine"})
    assert "Generatorb" not in listed.content, listed.content

    def read(query: str) -> list[Any]:
        with closing(sqlite3.connect(default.db_path)) as conn:
            return conn.execute(query).fetchall()

    # The challenges are cancelled after the players' direct messages are sent.
    cancelled = [("generatorb", "accepted"), ("orbs", "cancelled")]
    await eventually(
        lambda: read("SELECT game, status FROM challenges ORDER BY id") == cancelled, 20
    )
    assert read("SELECT status, termination FROM games") == [("aborted", "aborted")]
    assert "game 1: aborted, its channel" in default.bot.log()


async def test_a_challenge_to_the_bot_inside_a_thread_is_played_in_that_thread(
    always: Guild,
) -> None:
    """Discord has no threads in threads: a lobby in a thread starts its game there, also
    when the bot takes the other seat at once, whatever the server's thread policy."""
    fake, channel, ann = always.fake, always.channel, always.ann
    thread = fake.create_thread(ann, channel, "ann's corner")
    mark = fake.checkpoint()
    answer = await fake.slash(
        ann, thread, "challenge", options={"game": "generatorb", "opponent": fake.bot_user}
    )
    assert answer.ephemeral
    assert "thread" not in answer.content.lower(), answer.content
    board = await fake.wait_for_message(thread, lambda m: "begins" in m.content, after=mark)
    assert "Gameroom (level" in board.content
    assert [t.id for t in fake.threads(channel)] == [thread.id]  # no thread in a thread
    await fake.slash(ann, thread, "resign")
    # Its game is known to be in a thread: it is archived after its end, like any other.
    await fake.wait_until(lambda: archived(fake, thread.id), timeout=20, what="archiving")


async def test_a_deleted_thread_aborts_its_game(always: Guild) -> None:
    fake, channel, ann, bob = always.fake, always.channel, always.ann, always.bob
    await always.ann_challenges_bob("generatorb")
    thread = await fake.wait_for_thread(channel)
    await fake.wait_for_message(thread, lambda m: "begins" in m.content, timeout=30)
    fake.delete_channel(thread)
    await fake.wait_until(lambda: fake.dm_channel(ann) is not None, what="a DM to ann")
    dm_channel = fake.dm_channel(ann)
    assert dm_channel is not None
    dm = await fake.wait_for_message(dm_channel)
    assert dm.content.startswith("**Generatorb** (game 1) was aborted: its channel was deleted.")
    again = await fake.slash(ann, channel, "challenge", options={"game": "orbs", "opponent": bob})
    assert again.ephemeral  # the channel itself lives on, and so does play in it


async def test_deleting_a_channel_cancels_the_challenges_in_its_threads(default: Guild) -> None:
    """Discord sends one CHANNEL_DELETE for a channel and nothing for its threads; discord.py
    announces each thread it holds as deleted too, so a challenge posted in a thread of the
    deleted channel is cancelled with it, not left to hold its seats until it expires."""
    fake, channel, cat, dan = default.fake, default.channel, default.cat, default.dan
    thread = fake.create_thread(cat, channel, "cat's corner")
    await fake.slash(cat, thread, "challenge", options={"game": "orbs", "opponent": dan})
    await fake.wait_for_message(thread, lambda m: f"<@{dan.id}>" in m.content)

    fake.delete_channel(channel)

    def statuses() -> list[tuple[str, str]]:
        with closing(sqlite3.connect(default.db_path)) as conn:
            return conn.execute("SELECT game, status FROM challenges ORDER BY id").fetchall()

    await fake.wait_until(lambda: statuses() == [("orbs", "cancelled")], what="cancelled")
    assert f"its channel {thread.id} was deleted" in default.bot.log()


async def test_a_channel_deleted_while_no_bot_ran_is_caught_up_on_connecting(
    always: Guild,
) -> None:
    """Discord does not replay a deletion made while no bot process was connected: on
    connecting, the bot fetches each place with an active game or an open challenge that its
    cache lacks, and one Discord calls unknown ends as a deleted one would. A game in a live
    thread elsewhere is left alone."""
    fake, channel, ann, bob, cat, dan = (
        always.fake, always.channel, always.ann, always.bob, always.cat, always.dan,
    )  # fmt: skip
    await always.ann_challenges_bob("generatorb")
    doomed = await fake.wait_for_thread(channel)
    await fake.wait_for_message(doomed, lambda m: "begins" in m.content, timeout=30)
    other = fake.add_text_channel(always.guild, "other")
    await fake.slash(cat, other, "challenge", options={"game": "generatorb", "opponent": dan})
    lobby = await fake.wait_for_message(other, lambda m: "Accept" in labels(m))
    await fake.press(dan, lobby, label="Accept")
    kept = await fake.wait_for_thread(other)
    await fake.wait_for_message(kept, lambda m: "begins" in m.content, timeout=30)
    await fake.slash(ann, channel, "challenge", options={"game": "orbs", "opponent": cat})
    await fake.wait_for_message(channel, lambda m: f"<@{cat.id}>" in m.content)

    await always.bot.stop()
    fake.delete_channel(doomed)
    fake.delete_channel(channel)
    await always.start()

    def rows() -> tuple[list[tuple[str, str]], list[tuple[int, str]]]:
        with closing(sqlite3.connect(always.db_path)) as conn:
            challenges = conn.execute("SELECT game, status FROM challenges ORDER BY id")
            games = conn.execute("SELECT channel_id, status FROM games ORDER BY id")
            return challenges.fetchall(), games.fetchall()

    await fake.wait_until(lambda: rows()[1][0][1] == "aborted", timeout=20, what="the abort")
    await fake.wait_until(lambda: rows()[0][-1] == ("orbs", "cancelled"), what="cancelled")
    assert rows()[1] == [(doomed.id, "aborted"), (kept.id, "active")]
    for text in await direct_messages_to(fake, ann, bob):
        assert text.startswith("**Generatorb** (game 1) was aborted: its channel was deleted.")
    assert fake.dm_channel(cat) is None
    assert fake.dm_channel(dan) is None
    assert "was deleted while no bot process heard of it" in always.bot.log()
