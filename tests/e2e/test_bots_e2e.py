"""Playing the bot through Discord: a person against a level-1 bot in every game to its end,
a lobby filled with bots from its "Add a bot…" menu (and a bot taken out again), a draw
offer and a takeback answered by the bot, and a restart while the bot is thinking.

The real bot runs as its own process against ``tests/fakediscord``; the person's moves are
picked at random among what autocomplete offers them, so every move is checked by the bot.
"""

from __future__ import annotations

import asyncio
import random
import re
import sqlite3
import time
from contextlib import closing
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.botproc import BotProcess
from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.e2e

COMMANDS = ["challenge", "move", "board", "draw", "takeback", "game", "hint", "rating"]
#: The games' names as posts write them.
ENGINE_NAMES = {
    "generatorb": "Generatorb",
    "arbos": "Arbos",
    "generator": "Generator",
    "orbs": "Orbs",
    "generation_zero": "Generation Zero",
}
#: Options that keep each game short enough for the suite (the rules are unchanged).
SHORT = {
    "generatorb": "move_limit=40",
    "arbos": "",
    "generator": "max_turns=16",
    "orbs": "board=hexagon no_progress_limit=12",
    "generation_zero": "max_rounds=2",
}
#: GAMEROOM_TIMER_STALE_AFTER of the restart test: 12 s, so a handler may take 6 s.
STALE_AFTER = "12s"
#: How a final post says the result (presenters.outcome_text).
ENDED = re.compile(r" wins?!| is drawn\.")


class Room:
    """One guild with a channel per game, alice, and the bot process."""

    def __init__(self, fake: FakeDiscord, tmp_path: Path) -> None:
        self.fake = fake
        self.guild = fake.add_guild("Bots")
        self.alice = fake.add_user("alice")
        fake.add_member(self.guild, self.alice)
        self.tmp_path = tmp_path
        self.processes: list[BotProcess] = []

    def channel(self, name: str) -> Any:
        return self.fake.add_text_channel(self.guild, name)

    async def start(self, **env: str) -> BotProcess:
        process = BotProcess(
            self.fake,
            self.tmp_path / "gameroom.db",
            self.tmp_path / f"bot{len(self.processes)}.log",
            self.guild.id,
            extra_env={"GAMEROOM_GAME_SEED": "5", **env},
        )
        self.processes.append(process)
        await process.start()
        await self.fake.wait_commands(self.guild, names=COMMANDS)
        return process


@pytest.fixture
async def room(fake_discord: FakeDiscord, tmp_path: Path) -> Any:
    world = Room(fake_discord, tmp_path)
    try:
        yield world
    finally:
        for process in world.processes:
            await process.stop()
            print(f"--- {process.log_path.name} ---\n{process.log()[-4000:]}")


def logged_plies(database: Path) -> int:
    """How many moves the bot's database has logged (all games), read beside the bot."""
    with closing(sqlite3.connect(database)) as conn:
        return int(conn.execute("SELECT count(*) FROM moves").fetchone()[0])


def last_move_text(database: Path) -> str:
    """The text of the last logged move (the highest ply of the newest game)."""
    with closing(sqlite3.connect(database)) as conn:
        row = conn.execute("SELECT text FROM moves ORDER BY game_id DESC, ply DESC").fetchone()
        return str(row[0])


def bot_moved(message: Any) -> bool:
    """A board the bot posted for its own move ("**Gameroom (level N)** (North) played …")."""
    return bool(message.attachments) and message.content.startswith("**Gameroom (level")


def typing_in(fake: FakeDiscord, channel: Any) -> int:
    """How many typing indicators the bot started in ``channel``."""
    return sum(1 for line in fake.requests if f"/channels/{channel.id}/typing " in line)


def is_final(message: Any) -> bool:
    return bool(message.attachments) and ENDED.search(message.content) is not None


async def challenge_the_bot(room: Room, channel: Any, game: str, level: int = 1) -> Any:
    """``/challenge opponent:@Gameroom``; returns the first board."""
    fake = room.fake
    mark = fake.checkpoint()
    answer = await fake.slash(
        room.alice,
        channel,
        "challenge",
        options={
            "game": game,
            "opponent": fake.bot_user,
            "bot_level": level,
            "options": SHORT[game],
        },
    )
    assert answer.ephemeral, answer.content
    return await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)


async def play_to_the_end(room: Room, channel: Any, rng: random.Random, *, limit: int = 400) -> Any:
    """Alice plays random offered moves until a final post appears; returns it."""
    fake = room.fake
    for _ in range(limit):
        final = [m for m in fake.messages(channel) if is_final(m)]
        if final:
            return final[-1]
        choices = await fake.autocomplete(room.alice, channel, "move", focused="text", text="")
        if not choices:  # the bot's turn (or a chance step): wait for its post
            await asyncio.sleep(0.2)
            continue
        mark = fake.checkpoint()
        played = await fake.slash(room.alice, channel, "move", text=rng.choice(choices).value)
        refused = played.content.lower()
        if played.ephemeral and ("not your turn" in refused or "someone changed" in refused):
            continue
        await fake.wait_for_message(channel, lambda m: True, after=mark, timeout=30)
    pytest.fail("the game did not end")


async def test_a_person_plays_a_level_1_bot_to_the_end_in_every_game(room: Room) -> None:
    fake = room.fake
    await room.start()
    for game in SHORT:
        channel = room.channel(game.replace("_", "-"))
        first = await challenge_the_bot(room, channel, game)
        assert "Gameroom (level 1)" in " ".join(m.content for m in fake.messages(channel))
        assert fake.bot_user.id not in [u.id for u in first.mentions]  # it never pings itself
        final = await play_to_the_end(room, channel, random.Random(game))
        assert [u.id for u in final.mentions] in ([room.alice.id], [])
        bot_posts = [m for m in fake.messages(channel) if bot_moved(m)]
        assert bot_posts, f"{game}: the bot never moved"
        # "Gameroom is typing…" while it searched, for the person waiting.
        assert typing_in(fake, channel), f"{game}: no typing indicator"
    # Every game was rated (the default): the bot's answer to /rating lists its level 1,
    # which played them all, and no level that did not play.
    ratings = await fake.slash(room.alice, channel, "rating", user=fake.bot_user)
    lines = ratings.content.split("\n")
    assert lines[0].startswith("**Gameroom** plays at 5 levels"), ratings.content
    assert all(f"{ENGINE_NAMES[game]}: **" in lines[1] for game in SHORT), lines[1]
    assert lines[2:] == [
        f"• Level {n} · {name}: no rated game yet"
        for n, name in ((2, "casual"), (3, "club"), (4, "strong"), (5, "strongest"))
    ]


async def test_a_hint_in_a_practice_game_is_private_and_playable(room: Room) -> None:
    """/hint against the bot in a casual game: only alice sees it, and its first move is
    one she can play. In a rated game it says how to practise with hints instead."""
    fake = room.fake
    await room.start()
    channel = room.channel("practice")
    options = {"game": "generatorb", "opponent": fake.bot_user, "bot_level": 1, "rated": False}
    mark = fake.checkpoint()
    await fake.slash(room.alice, channel, "challenge", options=options)
    await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    for _ in range(100):  # until it is her turn (the bot may move first)
        if await fake.autocomplete(room.alice, channel, "move", focused="text", text=""):
            break
        await asyncio.sleep(0.1)
    hint = await fake.slash(room.alice, channel, "hint")
    assert hint.ephemeral, hint.content
    assert hint.content.startswith("Hint for your move in **Generatorb**"), hint.content
    best = re.search(r"1\. `([^`]+)`", hint.content)
    assert best is not None, hint.content
    played = await fake.slash(room.alice, channel, "move", text=best.group(1))
    assert "played" in played.content or not played.ephemeral, played.content
    rated = room.channel("rated")
    await fake.slash(room.alice, rated, "challenge", options={**options, "rated": True})
    await fake.wait_for_message(rated, lambda m: bool(m.attachments))
    refused = await fake.slash(room.alice, rated, "hint")
    assert refused.ephemeral
    assert "rated:false" in refused.content, refused.content


async def test_a_lobby_filled_with_bots_starts_and_the_bots_play(room: Room) -> None:
    fake = room.fake
    # Alice may lose her last orb, and a game left to the bots keeps the exhibition pace
    # (tests/service/test_bots.py): without one, the bots finish it at search speed.
    await room.start(GAMEROOM_EXHIBITION_PACE="0")
    channel = room.channel("orbs-lobby")
    mark = fake.checkpoint()
    await fake.slash(
        room.alice,
        channel,
        "challenge",
        options={"game": "orbs", "players": 4, "options": SHORT["orbs"]},
    )
    lobby = await fake.wait_for_message(channel, lambda m: "bots" in str(m.components), after=mark)
    menu = next(
        c["custom_id"] for row in lobby.components for c in row["components"] if c.get("type") == 3
    )
    stranger = fake.add_user("mallory")
    fake.add_member(room.guild, stranger)
    refused = await fake.select(stranger, lobby, menu, ["3"])
    assert refused.ephemeral  # only the challenger adds bots
    for level in ("1", "2"):
        await fake.select(room.alice, fake.message(lobby), menu, [level])
    start = fake.checkpoint()
    await fake.select(room.alice, fake.message(lobby), menu, ["1"])
    board = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=start)
    assert board is not None
    content = " ".join(m.content for m in fake.messages(channel))
    assert "Gameroom (level 2)" in content
    final = await play_to_the_end(room, channel, random.Random(4))
    assert final is not None
    # Every seat moves in the first round (no orb can be lost before its owner's turn), so
    # bots of both levels have posted moves.
    levels = {
        found.group(1)
        for m in fake.messages(channel)
        if bot_moved(m) and (found := re.match(r"\*\*Gameroom \(level (\d)\)\*\*", m.content))
    }
    assert levels == {"1", "2"}, levels


def select_ids(message: Any) -> list[str]:
    """The custom ids of a message's select menus, top to bottom."""
    return [
        c["custom_id"] for row in message.components for c in row["components"] if c["type"] == 3
    ]


async def test_the_challenger_removes_a_bot_from_the_lobby(room: Room) -> None:
    fake = room.fake
    await room.start()
    channel = room.channel("unbot")
    mark = fake.checkpoint()
    await fake.slash(room.alice, channel, "challenge", options={"game": "orbs", "players": 3})
    lobby = await fake.wait_for_message(channel, lambda m: "bots" in str(m.components), after=mark)
    [add] = select_ids(lobby)  # no bot yet: no "Remove a bot…"
    await fake.select(room.alice, fake.message(lobby), add, ["3"])
    add, remove = select_ids(fake.message(lobby))
    assert remove.endswith(":unbot")
    assert "2. **Gameroom (level 3)** (seated)" in fake.message(lobby).content
    stranger = fake.add_user("mallory")
    fake.add_member(room.guild, stranger)
    refused = await fake.select(stranger, fake.message(lobby), remove, ["-300"])
    assert refused.ephemeral
    assert refused.content == "Only the challenger can remove bots from this challenge."
    # A double click: one removal, and the other press is told the bot is gone.
    answers = await asyncio.gather(
        fake.select(room.alice, fake.message(lobby), remove, ["-300"]),
        fake.select(room.alice, fake.message(lobby), remove, ["-300"]),
    )
    told = [a.content for a in answers if a.ephemeral]
    assert told == ["That bot no longer has a seat in this challenge."], told
    after = fake.message(lobby)
    assert "Gameroom" not in after.content
    assert "2. open" in after.content
    assert "3. open" in after.content
    assert select_ids(after) == [add]
    # The seat is open again: two bots fill it and the game starts.
    start = fake.checkpoint()
    await fake.select(room.alice, fake.message(lobby), add, ["1"])
    await fake.select(room.alice, fake.message(lobby), add, ["1"])
    begins = await fake.wait_for_message(channel, lambda m: "begins" in m.content, after=start)
    assert "Gameroom (level 3)" not in begins.content
    assert begins.content.count("**Gameroom (level 1)** plays") == 2, begins.content


async def test_the_bot_answers_a_draw_offer_and_a_takeback(room: Room) -> None:
    fake = room.fake
    await room.start()
    channel = room.channel("answers")
    await challenge_the_bot(room, channel, "generatorb", level=1)
    rng = random.Random(2)
    for _ in range(50):  # until it is alice's move
        if await fake.autocomplete(room.alice, channel, "move", focused="text", text=""):
            break
        await asyncio.sleep(0.2)
    choices = await fake.autocomplete(room.alice, channel, "move", focused="text", text="")
    mark = fake.checkpoint()
    mine = rng.choice(choices).value
    await fake.slash(room.alice, channel, "move", text=mine)
    # The bot's reply to it, not its opening move, whose board may still be on its way.
    mine_at = await fake.wait_for_message(
        channel, lambda m: bool(m.attachments) and f"played `{mine}`" in m.content, after=mark
    )
    replied = await fake.wait_for_message(
        channel,
        lambda m: bot_moved(m) and board_ply(m) == board_ply(mine_at) + 1,
        after=mark,
        timeout=30,
    )
    reply = re.search(r"played `([^`]+)`", replied.content)
    assert reply is not None, replied.content
    mark = fake.checkpoint()
    asked = await fake.slash(room.alice, channel, "takeback")
    assert asked.ephemeral
    answered = await fake.wait_for_message(
        channel, lambda m: bool(m.attachments) and "took back" in m.content, after=mark, timeout=30
    )
    # Level 1 allows it: the move goes, and the bot's reply with it, called by its name.
    assert f"took back `{mine}` and the bot's reply `{reply[1]}` after it." in answered.content
    mark = fake.checkpoint()
    offered = await fake.slash(room.alice, channel, "draw")
    assert offered.ephemeral
    offer = await fake.wait_for_message(
        channel, lambda m: "draw" in m.content.lower(), after=mark, timeout=30
    )
    # The bot answers at once (never silence): the offer's post says how, with no buttons left.
    answered = fake.message(offer)
    assert "declined by **Gameroom (level 1)**" in answered.content or (
        "**Gameroom (level 1)** accepted" in answered.content
    )
    assert not answered.components


async def test_a_restart_while_the_bot_is_thinking_resumes_its_turn(room: Room) -> None:
    fake = room.fake
    # The claim of the killed process is released after STALE_AFTER; a handler may take half
    # of it. With 6 s (3 s per handler) a level-5 decision plus the AI worker's start took
    # longer than 3 s on a loaded machine, and the retry's 30 s backoff outlasted the wait.
    process = await room.start(GAMEROOM_TIMER_STALE_AFTER=STALE_AFTER)
    channel = room.channel("restart")
    await challenge_the_bot(room, channel, "generatorb", level=5)
    for _ in range(100):
        choices = await fake.autocomplete(room.alice, channel, "move", focused="text", text="")
        if choices:
            break
        await asyncio.sleep(0.2)
    # Count the plies in the database, not the posts: the board of the bot's opening move may
    # still be on its way (a channel message can wait for Discord's per-channel limit) when
    # the person's turn has already begun, and landed after the kill in one loaded run.
    database = room.tmp_path / "gameroom.db"
    before = logged_plies(database)
    await fake.slash(room.alice, channel, "move", text=choices[0].value)
    await asyncio.sleep(0.6)  # level 5 thinks for about 2 s: kill it mid-search
    await process.stop(kill=True)
    assert logged_plies(database) == before + 1  # the person's move, not the bot's reply
    await room.start(GAMEROOM_TIMER_STALE_AFTER=STALE_AFTER)
    for _ in range(400):  # the stale claim is released after STALE_AFTER, then it thinks
        if logged_plies(database) == before + 2:
            break
        await asyncio.sleep(0.1)
    assert logged_plies(database) == before + 2, "the restarted bot did not play its turn"
    reply = last_move_text(database)
    moved = await fake.wait_for_message(
        channel, lambda m: bot_moved(m) and f"played `{reply}`" in m.content, timeout=20
    )
    assert moved is not None


def board_ply(message: Any) -> int:
    """The ply of a board post, from its picture's name (``generatorb-<game>-<ply>.png``)."""
    return int(message.attachments[0].filename.rsplit(".", 1)[0].rsplit("-", 1)[1])


async def test_boards_come_in_the_order_of_the_moves_when_discord_is_slow(room: Room) -> None:
    """Alice moves the instant the bot's move is committed (autocomplete offers her moves),
    while the bot's post of that move still waits on a slow Discord: her board must not come
    before the bot's, which tells her it is her turn."""
    fake = room.fake
    await room.start()
    channel = room.channel("order")
    await challenge_the_bot(room, channel, "generatorb", level=1)
    fake.state.send_delay = 0.5  # every channel post of the bot (not an answer) is slow
    rng = random.Random(3)
    moved = 0
    for _ in range(400):
        choices = await fake.autocomplete(room.alice, channel, "move", focused="text", text="")
        if not choices:
            await asyncio.sleep(0.02)
            continue
        played = await fake.slash(room.alice, channel, "move", text=rng.choice(choices).value)
        # The board itself, or (deferred on a loaded machine) "Played …" and the board after.
        assert "played" in played.content.lower(), played.content
        moved += 1
        if moved == 4:
            break
    assert moved == 4
    await fake.wait_until(
        lambda: len([m for m in fake.messages(channel) if bot_moved(m)]) >= 4,
        timeout=30,
        what="the bot's fourth board",
    )
    plies = [board_ply(m) for m in fake.messages(channel) if m.attachments]
    assert plies == sorted(plies), f"boards out of the order of the moves: plies {plies}"
    assert len(set(plies)) == len(plies) >= 9


async def watch_exhibition(room: Room, channel: Any, boards: int) -> list[Any]:
    """Alice opens an exhibition of level-1 bots playing Generatorb in ``channel``; returns
    its board posts once there are at least ``boards`` (the start's among them)."""
    fake = room.fake
    options = {"game": "generatorb", "exhibition": True, "bot_level": 1}
    answer = await fake.slash(room.alice, channel, "challenge", options=options)
    assert answer.ephemeral, answer.content
    await fake.wait_until(
        lambda: len([m for m in fake.messages(channel) if m.attachments]) >= boards,
        timeout=30,
        what=f"the start and {boards - 1} bot moves",
    )
    return [m for m in fake.messages(channel) if m.attachments]


async def test_the_board_that_starts_a_game_comes_before_the_bots_first_move(room: Room) -> None:
    """An exhibition: a bot moves first, woken by the commit that starts the game, while the
    start's own board is still on its way through a slow Discord; it must still come first.
    (Without an exhibition pace: with one, the first move would wait for the start anyway.)"""
    fake = room.fake
    await room.start(GAMEROOM_EXHIBITION_PACE="0")

    # Warm up: the bot moves once against alice, so its search worker is running (a first
    # search starts it, which takes longer than the post), and then waits for her.
    warm_up = room.channel("warm-up")
    await challenge_the_bot(room, warm_up, "generatorb")
    choices = await fake.autocomplete(room.alice, warm_up, "move", focused="text", text="")
    if choices:
        await fake.slash(room.alice, warm_up, "move", text=choices[0].value)
    await fake.wait_for_message(warm_up, bot_moved, timeout=30)
    fake.state.send_delay = 0.5
    channel = room.channel("show")
    plies = [board_ply(m) for m in await watch_exhibition(room, channel, 3)]
    assert plies[0] == 0, f"the first board is not the start: plies {plies}"
    assert typing_in(fake, warm_up)
    assert not typing_in(fake, channel)  # bots only: nobody waits for the indicator
    assert plies == sorted(plies), f"boards out of the order of the moves: plies {plies}"


async def test_an_exhibition_keeps_its_pace(room: Room) -> None:
    """GAMEROOM_EXHIBITION_PACE: a game of bots only posts a board at most every pace, so
    spectators can follow it (the level-1 bots themselves move within milliseconds)."""
    fake = room.fake
    await room.start(GAMEROOM_EXHIBITION_PACE="1")
    channel = room.channel("paced")
    posted: list[float] = []
    fake.on_message(
        lambda m: (
            posted.append(time.monotonic())
            if m.channel_id == channel.id and m.attachments
            else None
        )
    )
    boards = await watch_exhibition(room, channel, 4)
    assert [board_ply(m) for m in boards[:4]] == [0, 1, 2, 3]
    gaps = [later - earlier for earlier, later in pairwise(posted[:4])]
    assert min(gaps) >= 0.9, gaps


#: Three seats of Orbs on the hexagon, North (seat 0) down to its last orb, seat 1 to move.
LOST_NORTH = "G6:F/J7:F,J8:E,K8:W,K9:A/J3:W,J4:F,K3:A,K4:E 1 0"


async def test_a_bot_answers_a_three_player_draw_and_the_post_waits_for_the_person(
    room: Room,
) -> None:
    """alice, bob and a level-1 bot play Orbs from a position where North (the bot's seat,
    as the seeded seating deals it) has one orb left; alice offers a draw. The bot, lost,
    accepts at once; the post keeps its buttons and names bob as the one still to answer,
    and bob's acceptance draws the game."""
    fake = room.fake
    await room.start()
    channel = room.channel("orbs-draw")
    bob = fake.add_user("bob")
    fake.add_member(room.guild, bob)
    mark = fake.checkpoint()
    options = {
        "game": "orbs",
        "players": 3,
        "opponent": bob,
        "options": SHORT["orbs"],
        "position": LOST_NORTH,
    }
    await fake.slash(room.alice, channel, "challenge", options=options)
    lobby = await fake.wait_for_message(channel, lambda m: "bots" in str(m.components), after=mark)
    await fake.press(bob, lobby, label="Accept")
    menu = next(
        c["custom_id"]
        for row in fake.message(lobby).components
        for c in row["components"]
        if c.get("type") == 3
    )
    start = fake.checkpoint()
    await fake.select(room.alice, fake.message(lobby), menu, ["1"])
    begins = await fake.wait_for_message(channel, lambda m: "begins" in m.content, after=start)
    assert "**Gameroom (level 1)** plays North" in begins.content, begins.content
    mark = fake.checkpoint()
    offered = await fake.slash(room.alice, channel, "draw")
    assert offered.content == "Draw offered to the others."
    offer = await fake.wait_for_message(  # the bot's answer may have edited it already
        channel, lambda m: "draw" in m.content.lower(), after=mark, timeout=30
    )
    waiting = (
        f"<@{room.alice.id}> offers a draw. Accepted by **Gameroom (level 1)**; still to "
        f"answer: <@{bob.id}>. (A move declines it.)"
    )
    await fake.wait_until(
        lambda: fake.message(offer).content == waiting, what="the bot's answer", timeout=30
    )
    assert fake.message(offer).components  # the buttons stay for bob
    mark = fake.checkpoint()
    await fake.press(bob, fake.message(offer), label="Accept draw")
    assert fake.message(offer).content == f"<@{bob.id}> accepted the draw offer: the game is drawn."
    final = await fake.wait_for_message(channel, is_final, after=mark, timeout=30)
    assert "drawn" in final.content


def is_bot_decision(message: Any) -> bool:
    """A line the bot posted for its own decision after which it decides again."""
    return (
        not message.attachments
        and message.content.startswith("**Gameroom (level")
        and "decides again." in message.content
    )


async def test_a_bots_decisions_of_one_turn_come_in_one_post(room: Room) -> None:
    """Generation Zero: the bot's decisions of a turn are added to one post (edited), not a
    post each, and the turn's board takes their lines and replaces it; a person's message in
    between makes the next decision a post of its own, and that post stays."""
    fake = room.fake
    await room.start()
    channel = room.channel("generation-zero")
    await challenge_the_bot(room, channel, "generation_zero")
    chatted: list[Any] = []
    gathered: list[str] = []
    late_edits: list[str] = []

    def chat_after_the_first(message: Any) -> None:
        # Once, right after the bot's first decision line of a turn: a person writes.
        if not chatted and is_bot_decision(message) and message.channel_id == channel.id:
            chatted.append(asyncio.ensure_future(fake.post(room.alice, channel, "hm")))

    def edited(_old: Any, new: Any) -> None:
        if new.channel_id != channel.id:
            return
        if is_bot_decision(new) and "\nThen played `" in new.content:
            gathered.append(new.content)
        chat = chatted[0] if chatted and chatted[0].done() else None
        if chat is not None and new.id < chat.result().id:
            late_edits.append(new.content)

    fake.on_message(chat_after_the_first)
    fake.on_edit(edited)
    await play_to_the_end(room, channel, random.Random("gathered"))
    assert gathered
    for content in gathered:  # "decides again" once, at the end
        assert content.count("decides again.") == 1
    posts = fake.messages(channel)
    boards = [m.content for m in posts if bot_moved(m)]
    # A board that took a post's lines: the mover named once, then "Then played" lines.
    joined = [c for c in boards if "\nThen played `" in c]
    assert joined, boards
    assert all(c.count("**Gameroom (level 1)** (Seat 1) played") == 1 for c in joined)
    # A decision line of the bot's stays only where something came after it in the turn.
    for before, after in pairwise(posts):
        assert not (is_bot_decision(before) and after.author.id == fake.bot_user.id), after.content
    # Nothing was added above the person's message once it was there.
    assert chatted
    assert chatted[0].done()
    assert late_edits == []
    assert any(is_bot_decision(m) for m in posts)  # the line the chat came after
