"""A whole game of Arbos played through Discord, from the challenge to the final score.

The real bot runs as its own process against ``tests/fakediscord``. The random setup is drawn
by the bot from the game's secret seed; the test reads the drawn seeds back from ``/game
moves`` (each draw is logged as ``setup:CELL``) and mirrors the game with a local engine that
only chooses moves. With 7 seeds each on the board, both players hold 3 seeds in hand, so the
game exercises spores, seeds from hand, replace and double before two passes end it.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engines.arbos import ArbosEngine, ArbosMove, ArbosState
from engines.rng import Rng
from tests.e2e.botproc import BotProcess
from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.e2e

ENGINE = ArbosEngine()
COMMANDS = ["challenge", "move", "board", "resign", "draw", "game"]
#: The action kinds the scripted game plays, in this order, before both players pass.
SCRIPT = ("spore", "seed", "replace", "double", "spore", "spore", "replace", "seed", "spore")


def board_png(message: Any) -> Image.Image:
    (attachment,) = [a for a in message.attachments if a.filename.endswith(".png")]
    image = Image.open(io.BytesIO(attachment.data))
    image.load()
    assert image.format == "PNG"
    assert len(attachment.data) <= 200_000
    return image


def pick(state: ArbosState, kind: str, rng: Rng) -> ArbosMove:
    moves = [m for m in ENGINE.legal_moves(state, state.turn) if m.kind == kind]
    assert moves, f"no legal {kind} in {ENGINE.position(state)}"
    return moves[rng.below(len(moves))]


@pytest.fixture
async def bot(fake_discord: FakeDiscord, tmp_path: Path) -> Any:
    guild = fake_discord.add_guild("Arbos Test")
    process = BotProcess(fake_discord, tmp_path / "gameroom.db", tmp_path / "bot.log", guild.id)
    await process.start()
    await fake_discord.wait_commands(guild, names=COMMANDS)
    try:
        yield guild, process
    finally:
        await process.stop()
        print(f"--- bot log ---\n{process.log()[-4000:]}")


async def test_arbos_from_challenge_to_final_score(fake_discord: FakeDiscord, bot: Any) -> None:
    fake = fake_discord
    guild, _process = bot
    channel = fake.add_text_channel(guild, "arbos")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    for user in (alice, bob):
        fake.add_member(guild, user)

    await fake.slash(
        alice, channel, "challenge", options={"game": "arbos", "opponent": bob, "preset": "hands"}
    )
    challenge = await fake.wait_for_message(channel, lambda m: "Accept" in str(m.components))
    mark = fake.checkpoint()
    await fake.press(bob, challenge, label="Accept")
    first = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    board_png(first)
    started = " ".join(m.content for m in fake.messages(channel))
    white_id = int(re.search(r"<@(\d+)> plays White", started).group(1))  # type: ignore[union-attr]
    seats = (alice, bob) if white_id == alice.id else (bob, alice)
    assert "White's first turn must place a spore" in first.content

    # -- mirror the random setup from the move log --------------------------------------------
    record = await fake.slash(bob, channel, "game moves")
    log_text = record.content + "".join(data.decode() for _, data in record.files)
    draws = re.findall(r"setup:[A-T]\d+", log_text)
    assert len(draws) == 14
    state = ENGINE.new_game(2, ENGINE.resolve_options({"seeds_per_player": "7"}), 0)
    for token in draws:
        state = ENGINE.apply_chance(state, token).state
    assert state.phase == "opening"

    # -- errors are private: White may not pass in the opening (A16) ---------------------------
    refused = await fake.slash(seats[0], channel, "move", text="pass")
    assert refused.ephemeral
    assert refused.content == "White's first turn must place a spore."  # no rule id cited
    garbled = await fake.slash(seats[0], channel, "move", text="K05")
    assert garbled.ephemeral

    # -- autocomplete completes cells from what was typed ------------------------------------
    choices = await fake.autocomplete(seats[0], channel, "move", focused="text", text="K1")
    assert all(isinstance(c.value, str) for c in choices)  # move texts
    offered = [str(c.value) for c in choices]
    legal = set(ENGINE.legal_move_texts(state, 0))
    assert offered
    assert all(v in legal for v in offered)
    assert offered == sorted(offered, key=lambda v: (v != "K1", int(v[1:])))

    # -- the scripted game: spores, hand seeds, replaces and a double, then two passes --------
    rng = Rng(5)
    for kind in (*SCRIPT, "pass", "pass"):
        move = pick(state, kind, rng)
        text = ENGINE.format_move(state, move)
        player = seats[state.turn]
        mark = fake.checkpoint()
        played = await fake.slash(player, channel, "move", text=text.lower())
        assert not played.ephemeral, played.content  # the answer: the board
        assert played.files
        state = ENGINE.apply(state, state.turn, move).state
        if state.prune:  # a replace cut the opponent's tree: it must prune first
            board = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
            assert "must prune" in board.content
            prune = ENGINE.legal_moves(state, state.turn)[0]
            prune_text = ENGINE.format_move(state, prune)
            mark = fake.checkpoint()
            await fake.slash(seats[state.turn], channel, "move", text=prune_text)
            state = ENGINE.apply(state, state.turn, prune).state
        board = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
        board_png(board)
        assert text in board.content
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.scores is not None
    winner = seats[outcome.winners[0]]
    white, black = int(outcome.scores[0]), int(outcome.scores[1])
    assert f"wins {max(white, black)}–{min(white, black)}" in board.content
    assert winner.id in [u.id for u in board.mentions]

    # -- the bot's position is the mirror's ----------------------------------------------------
    info = await fake.slash(bob, channel, "game info")
    assert ENGINE.position(state).split(" ")[0] in info.content + "".join(
        data.decode() for _, data in info.files
    )
