"""A three-player game of Generator through Discord, with the dice known in advance.

The bot runs with ``GAMEROOM_GAME_SEED`` set, so the game's seed is known to the test: a local
engine started from the same seed draws the same first player and the same rolls the bot
draws (the generator lives in the game state; ``engines/rng.py``). The test therefore mirrors
the game exactly, including the rolls the bot logs as ``roll:X`` and the passes it plays for a
player who has no other legal move (GEN-12), and checks each turn message against the mirror:
the move, the roll it announces, what that roll allows, who is pinged. A ``max_turns`` limit
ends the game in a draw, which every player is told.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engines.base import CHANCE
from engines.generator import GeneratorEngine, GeneratorState
from engines.rng import Rng
from tests.e2e.botproc import seeded_bot
from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.e2e

ENGINE = GeneratorEngine()
SEED = 424_242
TURNS = 24
COMMANDS = ["challenge", "move", "board", "resign", "draw", "game"]


def labels(message: Any) -> list[str]:
    return [str(b.get("label")) for row in message.components for b in row.get("components", [])]


def board_png(message: Any) -> None:
    (attachment,) = [a for a in message.attachments if a.filename.endswith(".png")]
    assert len(attachment.data) <= 250_000
    image = Image.open(io.BytesIO(attachment.data))
    image.load()
    assert image.format == "PNG"


def settle(state: GeneratorState) -> tuple[GeneratorState, list[str]]:
    """What the bot does after every move: roll, and pass for a player with nothing else.
    Returns the state after it and how the post tells each step (the roll's event text, the
    forced pass's notice)."""
    told: list[str] = []
    while True:
        to_move = ENGINE.to_move(state)
        if to_move == (CHANCE,):
            transition = ENGINE.apply_chance(state, ENGINE.sample_chance(state))
            state = transition.state
            told.extend(e.text for e in transition.events if e.visible_to is None)
        elif to_move and ENGINE.legal_move_texts(state, to_move[0]) == ["pass"]:
            state = ENGINE.play(state, to_move[0], "pass")[0]
            told.append(f"{ENGINE.info.seat_names[to_move[0]]} has no legal move and passes")
        else:
            return state, told


@pytest.fixture
async def bot(fake_discord: FakeDiscord, tmp_path: Path) -> Any:
    async with seeded_bot(fake_discord, tmp_path, "Generator Test", SEED, COMMANDS) as guild:
        yield guild


async def test_three_players_play_to_the_turn_limit(fake_discord: FakeDiscord, bot: Any) -> None:
    fake = fake_discord
    channel = fake.add_text_channel(bot, "pyramids")
    ann, bob, cat = (fake.add_user(name) for name in ("ann", "bob", "cat"))
    for user in (ann, bob, cat):
        fake.add_member(bot, user)

    # -- the lobby: ann invites bob, cat joins the open seat --------------------------------
    await fake.slash(
        ann,
        channel,
        "challenge",
        options={
            "game": "generator",
            "opponent": bob,
            "players": 3,
            "options": f"max_turns={TURNS}",
        },
    )
    lobby = await fake.wait_for_message(channel, lambda m: "Join" in labels(m))
    await fake.press(cat, lobby, label="Join")
    mark = fake.checkpoint()
    await fake.press(bob, lobby, label="Accept")
    started = await fake.wait_for_message(channel, lambda m: "begins" in m.content, after=mark)
    first = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    board_png(first)
    colours = dict(re.findall(r"<@(\d+)> plays \S+ (Green|Red|Yellow)", started.content))
    by_colour = {c: next(u for u in (ann, bob, cat) if str(u.id) == i) for i, c in colours.items()}
    seats = [by_colour["Green"], by_colour["Red"], by_colour["Yellow"]]

    # -- the mirror: same seed, same options, so the same first player and rolls ------------
    options = ENGINE.resolve_options({"max_turns": str(TURNS)})
    state, _ = settle(ENGINE.new_game(3, options, SEED))
    opening = ENGINE.prompt(state, state.turn)
    assert opening is not None
    assert opening in first.content or opening in started.content

    rng = Rng(SEED, 7)
    played = 0
    while ENGINE.outcome(state) is None:
        seat = state.turn
        player = seats[seat]
        legal = ENGINE.legal_move_texts(state, seat)
        choices = await fake.autocomplete(player, channel, "move", focused="text", text="")
        assert sorted(c.value for c in choices) == sorted(legal)[:25]  # exactly this roll's moves
        others = [m for m in legal if m != "pass"]
        text = others[rng.below(len(others))] if others else "pass"
        mark = fake.checkpoint()
        reply = await fake.slash(player, channel, "move", text=text)
        assert not reply.ephemeral, reply.content  # the answer: the board
        assert reply.files
        state = ENGINE.play(state, seat, text)[0]
        state, told = settle(state)
        played += 1
        board = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
        board_png(board)
        assert f"`{text}`" in board.content
        going_on = ENGINE.outcome(state) is None
        # The rolls and automatic passes are told in words, once: the roll of the player now
        # to move (the last step) by their prompt ("You rolled **green**: …"), not the line.
        line_steps = told[:-1] if going_on else told
        for step in line_steps:
            assert step in board.content
        if going_on:
            assert told[-1] not in board.content
        assert "Then:" not in board.content
        if going_on:
            assert [u.id for u in board.mentions] == [seats[state.turn].id]
            prompt = ENGINE.prompt(state, state.turn)
            assert prompt is not None
            assert prompt in board.content

    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.termination == "turn_limit"
    assert "drawn" in board.content
    assert {u.id for u in board.mentions} == {ann.id, bob.id, cat.id}
    record = await fake.slash(ann, channel, "game moves")
    text = record.content + "".join(data.decode() for _, data in record.files)
    assert len(re.findall(r"roll:[GRYB]", text)) >= TURNS
    assert TURNS // 3 <= played <= TURNS  # some turns were passes the bot played
