"""Ratings through Discord: a rated game against the bot ends and its final post shows both
rating changes; ``/rating`` posts a profile card and ``/leaderboard`` a table, as PNGs.

The pictures are written to ``$GAMEROOM_E2E_PICTURES`` when it is set (to look at them).
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tests.e2e.botproc import BotProcess
from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.e2e

COMMANDS = ["challenge", "move", "resign", "rating", "leaderboard"]
CHANGE = re.compile(r"Ratings: .*\d+\?? → \d+\?? \([+−]\d+\)")
PNG = b"\x89PNG\r\n\x1a\n"


def keep(name: str, data: bytes) -> None:
    folder = os.environ.get("GAMEROOM_E2E_PICTURES")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / name).write_bytes(data)


async def test_a_rated_game_shows_changes_and_the_pictures_are_posted(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    guild = fake.add_guild("Ratings")
    alice = fake.add_user("alice")
    fake.add_member(guild, alice)
    channel = fake.add_text_channel(guild, "rated")
    process = BotProcess(
        fake, tmp_path / "gameroom.db", tmp_path / "bot.log", guild.id,
        extra_env={"GAMEROOM_GAME_SEED": "5"},
    )  # fmt: skip
    await process.start()
    try:
        await fake.wait_commands(guild, names=COMMANDS)
        start = fake.checkpoint()
        answer = await fake.slash(
            alice, channel, "challenge",
            options={"game": "generatorb", "opponent": fake.bot_user, "bot_level": 1},
        )  # fmt: skip
        assert answer.ephemeral, answer.content
        await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=start)

        def over() -> bool:
            return any("Ratings:" in m.content for m in fake.messages(channel) if m.id > start)

        rng = random.Random(1)
        played = 0
        for _ in range(200):
            if played == 2 or over():  # the bot may win first: its final board then counts
                break
            choices = await fake.autocomplete(alice, channel, "move", focused="text", text="")
            if not choices:
                await asyncio.sleep(0.2)
                continue
            result = await fake.slash(alice, channel, "move", text=rng.choice(choices).value)
            if "not your turn" not in result.content.lower():
                played += 1
                await asyncio.sleep(0.5)
        if not over():
            resigned = await fake.slash(alice, channel, "resign")
            assert resigned is not None
        final = await fake.wait_for_message(
            channel, lambda m: "Ratings:" in m.content, after=start, timeout=30
        )
        assert CHANGE.search(final.content), final.content
        assert "Gameroom (level 1)" in final.content

        card = await fake.slash(alice, channel, "rating")
        assert "Generatorb" in card.content, card.content
        ((name, data),) = card.files
        assert data.startswith(PNG)
        keep(name, data)

        board = await fake.slash(
            alice, channel, "leaderboard", options={"game": "generatorb", "scope": "global"}
        )
        ((name, data),) = board.files
        assert data.startswith(PNG)
        assert "rated games" in board.content or "provisional" in board.content, board.content
        assert board.content.startswith(f"<@{alice.id}>: "), board.content  # whose "you"
        keep(name, data)
    finally:
        await process.stop()
        print(process.log()[-4000:])


async def test_a_failure_behind_a_public_picture_is_told_to_the_user_alone(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """``/rating`` and ``/leaderboard`` think in public (their pictures are for everyone);
    when they fail, the apology must not replace that public "thinking…" message."""
    fake = fake_discord
    guild = fake.add_guild("Broken ratings")
    alice = fake.add_user("alice")
    fake.add_member(guild, alice)
    channel = fake.add_text_channel(guild, "rated")
    database = tmp_path / "gameroom.db"
    process = BotProcess(fake, database, tmp_path / "bot.log", guild.id)
    await process.start()
    try:
        await fake.wait_commands(guild, names=COMMANDS)
        with closing(sqlite3.connect(database)) as conn:  # the service's reads now fail
            conn.execute("ALTER TABLE ratings RENAME TO ratings_gone")
            conn.commit()
        for command, options in (("rating", {}), ("leaderboard", {"game": "generatorb"})):
            answer = await fake.slash(alice, channel, command, options=options)
            assert answer.ephemeral, (command, answer.content)
            assert answer.content.startswith("Sorry, something went wrong on my side")
        assert fake.messages(channel) == []  # nothing public: no apology, no thinking left
    finally:
        await process.stop()
