"""A whole game of Generatorb played through Discord, as users would play it.

The real bot runs as its own process (``python -m bot run``) against ``tests/fakediscord`` on
127.0.0.1, with a SQLite file in the test's temp dir. The test plays both humans: it challenges,
presses the Accept button, asks autocomplete for moves, plays them with ``/move``, and decodes
every board the bot posts. Midway the bot process is stopped and a new one continues the game.
A local copy of the engine only chooses the moves (a greedy policy that takes a win when it sees
one); every move is checked and applied by the bot.
"""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engines.generatorb import GeneratorbEngine, GeneratorbMove, GeneratorbState
from engines.rng import Rng
from tests.e2e.botproc import BotProcess
from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.e2e

ENGINE = GeneratorbEngine()
#: No draw by repetition or ply cap, so the greedy game always ends in a win.
OPTIONS = "move_limit=0 repetition_draw=false"
COMMANDS = ["challenge", "move", "board", "resign", "draw", "game"]


def board_png(message: Any) -> Image.Image:
    """The one PNG attached to a board message, decoded (fails the test if it is not one)."""
    (attachment,) = [a for a in message.attachments if a.filename.endswith(".png")]
    image = Image.open(io.BytesIO(attachment.data))
    image.load()
    assert image.format == "PNG"
    assert 600 <= image.width <= 1200
    return image


def choose(state: GeneratorbState, rng: Rng) -> GeneratorbMove:
    """A winning move if there is one, else a capture half the time, else any legal move."""
    moves = ENGINE.legal_moves(state, state.turn)
    for move in moves:
        outcome = ENGINE.child(state, state.turn, move).outcome
        if outcome is not None and outcome.winners:
            return move
    captures = [m for m in moves if m.capture]
    if captures and rng.below(2):
        return captures[rng.below(len(captures))]
    return moves[rng.below(len(moves))]


class Table:
    """The world of one test: a guild, a channel, two players, a stranger and the bot."""

    def __init__(self, fake: FakeDiscord, tmp_path: Path) -> None:
        self.fake = fake
        self.guild = fake.add_guild("Gameroom Test")
        self.channel = fake.add_text_channel(self.guild, "games")
        self.alice = fake.add_user("alice")
        self.bob = fake.add_user("bob")
        self.carol = fake.add_user("carol")
        for user in (self.alice, self.bob, self.carol):
            fake.add_member(self.guild, user)
        self.db_path = tmp_path / "gameroom.db"
        self.tmp_path = tmp_path
        self.bots: list[BotProcess] = []

    async def start_bot(self) -> BotProcess:
        bot = BotProcess(
            self.fake, self.db_path, self.tmp_path / f"bot{len(self.bots)}.log", self.guild.id
        )
        self.bots.append(bot)
        await bot.start()
        await self.fake.wait_commands(self.guild, names=COMMANDS)
        return bot

    async def stop_all(self) -> None:
        for bot in self.bots:
            await bot.stop()


async def wait_retired(fake: FakeDiscord, offer: Any) -> None:
    """Wait until the draw offer's post has no Accept draw button left."""
    await fake.wait_until(
        lambda: "Accept draw" not in str(fake.message(offer).components),
        what="the draw offer's buttons retired",
    )


@pytest.fixture
async def table(fake_discord: FakeDiscord, tmp_path: Path) -> Any:
    world = Table(fake_discord, tmp_path)
    try:
        yield world
    finally:
        await world.stop_all()
        for bot in world.bots:
            print(f"--- {bot.log_path.name} ---\n{bot.log()[-4000:]}")


async def test_challenge_to_win_with_restart(table: Table) -> None:
    fake = table.fake
    channel, alice, bob, carol = table.channel, table.alice, table.bob, table.carol
    bot = await table.start_bot()

    # -- the challenge: only bob may accept; a stranger's press is refused privately ----------
    posted = await fake.slash(
        alice,
        channel,
        "challenge",
        options={"game": "generatorb", "opponent": bob, "options": OPTIONS},
    )
    assert posted.ephemeral
    challenge = await fake.wait_for_message(channel, lambda m: "Accept" in str(m.components))
    assert bob.id in [u.id for u in challenge.mentions]
    refused = await fake.press(carol, challenge, label="Accept")
    assert refused.ephemeral
    before_accept = fake.checkpoint()
    accepted = await fake.press(bob, challenge, label="Accept")
    first_board = await fake.wait_for_message(
        channel, lambda m: bool(m.attachments), after=before_accept
    )
    assert accepted is not None
    board_png(first_board)

    # Who is South? The bot's coin flip is announced ("<@id> plays South").
    started = " ".join(m.content for m in fake.messages(channel))
    south_id = int(re.search(r"<@(\d+)> plays South", started).group(1))  # type: ignore[union-attr]
    seats = {0: alice if south_id == alice.id else bob}
    seats[1] = bob if seats[0] is alice else alice
    pinged = {u.id for u in first_board.mentions}
    assert seats[0].id in pinged  # the player to move
    assert pinged <= {alice.id, bob.id}  # and nobody but the players

    # -- errors are private and change nothing ---------------------------------------------
    bad = await fake.slash(seats[0], channel, "move", text="a1-a2")
    assert bad.ephemeral
    assert "never steps" in bad.content or "G15" in bad.content
    garbled = await fake.slash(seats[0], channel, "move", text="e2e4")
    assert garbled.ephemeral
    early = await fake.slash(seats[1], channel, "move", text="h8-h6")
    assert early.ephemeral
    stranger = await fake.slash(carol, channel, "move", text="a1-a3")
    assert stranger.ephemeral
    assert not [m for m in fake.messages(channel) if m.attachments and m.id != first_board.id]

    # -- play the game; a draw offer at ply 4, then a restart of the bot process ---------
    state = ENGINE.from_position(
        ENGINE.position(ENGINE.new_game(2, ENGINE.resolve_options({}), 0)),
        ENGINE.resolve_options({"move_limit": "0", "repetition_draw": "false"}),
    )
    rng = Rng(11)
    boards = 1
    offer = None
    played_texts: list[str] = []
    while state.outcome is None:
        if state.ply == 4:
            # The player waiting offers a draw, then the bot restarts: a new process continues
            # from the database, and the reply (a move) declines the offer, whose post the new
            # process retires although the old one posted it (migration 0010).
            mark = fake.checkpoint()
            offered_draw = await fake.slash(seats[1 - state.turn], channel, "draw")
            assert offered_draw.ephemeral
            offer = await fake.wait_for_message(
                channel, lambda m: "Accept draw" in str(m.components), after=mark
            )
            await bot.stop()
            bot = await table.start_bot()
        player = seats[state.turn]
        move = choose(state, rng)
        text = ENGINE.format_move(state, move)
        typed = text[:2]
        choices = await fake.autocomplete(player, channel, "move", focused="text", text=typed)
        offered = [c.value for c in choices]
        assert len(offered) <= 25
        legal = ENGINE.legal_move_texts(state, state.turn)
        assert set(offered) <= set(legal)  # only the caller's legal moves
        matching = [t for t in legal if t.startswith(typed)]
        assert sorted(offered[: len(matching)]) == matching[:25]  # prefix matches first
        mark = fake.checkpoint()
        played = await fake.slash(player, channel, "move", text=text)
        played_texts.append(text)
        assert not played.ephemeral, played.content  # the answer: the board
        assert played.files
        state = ENGINE.apply(state, state.turn, move).state
        board = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
        board_png(board)
        boards += 1
        if state.ply == 5:  # the move after the offer declined it: no Accept draw left
            assert offer is not None
            await wait_retired(fake, offer)
            assert "lapsed" in fake.message(offer).content
        assert text in board.content
        if state.outcome is None:
            assert [u.id for u in board.mentions] == [seats[state.turn].id]
        else:
            winner = seats[state.outcome.winners[0]]
            assert winner.id in [u.id for u in board.mentions]
            assert "won" in board.content.lower() or "wins" in board.content.lower()

    # -- after the end: the record and the board are still there ----------------------------
    assert boards == state.ply + 1  # one board per move, plus the first
    record = await fake.slash(carol, channel, "game moves")  # a spectator may look
    assert record.ephemeral
    assert played_texts[0] in record.content or record.files
    mark = fake.checkpoint()
    shown = await fake.slash(carol, channel, "board", public=True)
    assert shown.ephemeral  # the acknowledgement; the board itself is public
    final = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    board_png(final)
    assert len(table.bots) == 2


async def test_a_double_click_on_accept_draw_keeps_the_answer_on_the_post(table: Table) -> None:
    """The second press finds the offer gone (StaleActionError); it tells its presser so, and
    leaves the first press's words on the post instead of "no longer open"."""
    fake, channel, alice, bob = table.fake, table.channel, table.alice, table.bob
    await table.start_bot()
    await fake.slash(alice, channel, "challenge", options={"game": "generatorb", "opponent": bob})
    lobby = await fake.wait_for_message(channel, lambda m: "Accept" in str(m.components))
    await fake.press(bob, lobby, label="Accept")
    await fake.wait_for_message(channel, lambda m: "begins" in m.content, timeout=30)
    mark = fake.checkpoint()
    await fake.slash(alice, channel, "draw")
    offer = await fake.wait_for_message(
        channel, lambda m: "Accept draw" in str(m.components), after=mark
    )
    first, second = await asyncio.gather(
        fake.press(bob, offer, label="Accept draw"), fake.press(bob, offer, label="Accept draw")
    )
    told = sorted([first.content, second.content], key=len)
    assert any("accepted the draw offer" in text for text in told), told
    await fake.wait_for_message(channel, lambda m: "is drawn" in m.content, after=mark)
    await asyncio.sleep(1.0)  # a late edit by the second press would have landed by now
    post = fake.message(offer).content
    assert f"<@{bob.id}> accepted the draw offer" in post, post
    assert "no longer open" not in post
