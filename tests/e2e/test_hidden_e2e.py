"""Hidden information through Discord: "My view", ``/hand`` and a turn of two decisions.

The real bot runs in its own process with the test game Secret cards
(``tests/service/hidden_engine.py``) registered before the bot's modules are imported, and
with ``GAMEROOM_GAME_SEED`` set, so the test mirrors the game exactly (the deal, the opening
whisper, the seating). Its renderer writes the card names a picture shows into the PNG, so
the test reads back exactly what each picture holds: the public board shows no secret card,
each player's My view shows exactly their own facts, and a spectator gets one sentence.
"""

from __future__ import annotations

import asyncio
import io
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.service.randomness import seat_order
from tests.e2e.botproc import BotProcess
from tests.fakediscord import FakeDiscord
from tests.service.hidden_engine import SecretCards, SecretCardsState, image_facts

pytestmark = pytest.mark.e2e

ENGINE = SecretCards()
SEED = 77_001
COMMANDS = ["challenge", "move", "board", "hand", "resign", "draw", "game"]
REPO = Path(__file__).resolve().parents[2]

#: Registers Secret cards and its renderer, then runs the bot as ``python -m bot run`` does.
LAUNCH = """
import engines, render
from tests.service.hidden_engine import SecretCards, render_secret_cards
engines.ENGINES["secretcards"] = SecretCards()
render.RENDERERS["secretcards"] = render_secret_cards
from bot.__main__ import main
raise SystemExit(main(["run"]))
"""


class SecretCardsBot(BotProcess):
    """The bot process, with Secret cards among its games."""

    async def start(self, *, timeout: float = 30.0) -> None:  # noqa: ASYNC109
        identifies = self.fake.identify_count
        log = self.log_path.open("ab")
        env = {**self.env, "PYTHONPATH": str(REPO), "GAMEROOM_GAME_SEED": str(SEED)}
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", LAUNCH, env=env, cwd=REPO, stdout=log, stderr=log
        )
        log.close()
        await self.fake.wait_ready(timeout=timeout, identifies=identifies + 1)


def png_facts(message: Any) -> set[str]:
    """The card names the one PNG of ``message`` shows."""
    (attachment,) = [a for a in message.attachments if a.filename.endswith(".png")]
    image = Image.open(io.BytesIO(attachment.data))
    assert image.format == "PNG"
    return image_facts(attachment.data)


def labels(message: Any) -> list[str]:
    return [str(b.get("label")) for row in message.components for b in row.get("components", [])]


def mirror() -> SecretCardsState:
    """The game as the bot starts it: dealt from SEED, then the opening whisper."""
    state = ENGINE.new_game(2, ENGINE.resolve_options({}), SEED)
    return ENGINE.apply_chance(state, ENGINE.sample_chance(state)).state


def own_facts(state: SecretCardsState, seat: int | None) -> set[str]:
    return {name for hand in ENGINE.view(state, seat).hands for name in hand if name}


@pytest.fixture
async def bot(fake_discord: FakeDiscord, tmp_path: Path) -> Any:
    guild = fake_discord.add_guild("Secrets")
    process = SecretCardsBot(fake_discord, tmp_path / "gameroom.db", tmp_path / "bot.log", guild.id)
    await process.start()
    await fake_discord.wait_commands(guild, names=COMMANDS)
    try:
        yield guild
    finally:
        await process.stop()
        print(f"--- bot log ---\n{process.log()[-4000:]}")


async def test_private_views_and_a_two_decision_turn(fake_discord: FakeDiscord, bot: Any) -> None:
    fake = fake_discord
    channel = fake.add_text_channel(bot, "secrets")
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    for user in (alice, bob, carol):
        fake.add_member(bot, user)

    await fake.slash(alice, channel, "challenge", options={"game": "secretcards", "opponent": bob})
    challenge = await fake.wait_for_message(channel, lambda m: "Accept" in str(m.components))
    await fake.press(bob, challenge, label="Accept")
    board = await fake.wait_for_message(channel, lambda m: bool(m.attachments))
    state = mirror()
    players = seat_order(SEED, [alice, bob])
    seat = {user.id: s for s, user in enumerate(players)}
    first, second = players

    # -- the public board: no secret in the picture, and a My view button ------------------
    assert png_facts(board) == own_facts(state, None) == set()
    assert labels(board) == ["My view", "Watch"]
    assert {u.id for u in board.mentions} == {alice.id, bob.id}  # the game begins

    # -- My view and /hand: each player sees exactly their own facts, alone -----------------
    for user in (alice, bob):
        pressed = await fake.press(user, board, label="My view")
        assert pressed.ephemeral
        assert png_facts(pressed.message) == own_facts(state, seat[user.id])
        assert "your private view as" in pressed.content
    spectator = await fake.press(carol, board, label="My view")
    assert spectator.ephemeral
    assert spectator.content.startswith("Only the players have a private view")
    assert not spectator.files
    hand = await fake.slash(second, channel, "hand")
    assert hand.ephemeral
    assert png_facts(hand.message) == own_facts(state, seat[second.id])
    assert "Not your decision now." in hand.content

    # -- a first decision: told privately to the mover, one un-pinged public line ----------
    mine = seat[first.id]
    other = 1 - mine
    slot = next(i for i in range(3) if (other, i) not in state.known[mine])
    name = state.hands[other][slot]
    assert await fake.autocomplete(second, channel, "move", focused="text", text="") == []
    offered = await fake.autocomplete(first, channel, "move", focused="text", text="pe")
    assert f"peek {other + 1}.{slot + 1}" in [c.value for c in offered]
    before = fake.checkpoint()
    peek = await fake.slash(first, channel, "move", text=f"peek {other + 1}.{slot + 1}")
    assert peek.ephemeral
    assert name in peek.content
    assert "Still your turn: Second decision" in peek.content
    line = await fake.wait_for_message(
        channel, lambda m: "decides again" in m.content, after=before
    )
    assert not line.attachments
    assert line.mentions == ()
    assert name not in line.content

    # -- the second decision passes the turn: a new board, the other player pinged ---------
    before = fake.checkpoint()
    done = await fake.slash(first, channel, "move", text="done")
    assert done.ephemeral
    next_board = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=before)
    assert [u.id for u in next_board.mentions] == [second.id]
    assert png_facts(next_board) == set()
    assert all(name not in m.content for m in fake.messages(channel))

    # An old board's button shows the current view, which now holds the peeked card.
    pressed = await fake.press(first, board, label="My view")
    assert name in png_facts(pressed.message)
    assert f"Card {slot + 1} of" in pressed.content
    assert name in pressed.content
