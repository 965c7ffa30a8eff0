"""Two bot processes, one PostgreSQL database, one shard each (issue 16).

Each process runs one of two Discord shards (``GAMEROOM_SHARD_COUNT=2``,
``GAMEROOM_SHARD_IDS``); the fake Discord sends each guild's events to the shard that owns it,
as Discord does. A person plays the bot in a guild of each shard at the same time; one process
is killed with SIGKILL mid-game and started again. Both games reach their end, and no move is
committed twice (the moves table's key is the game and ply) nor posted twice, although both
processes' timer loops claim bot turns and clock timers from the same table.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.service.bot_seats import is_bot
from db import Database
from tests.e2e.botproc import BotProcess
from tests.e2e.test_bots_e2e import COMMANDS, SHORT, bot_moved, is_final
from tests.fakediscord import FakeDiscord
from tests.pg.fixtures import pg_server, pg_url

__all__ = ["pg_server", "pg_url"]

pytestmark = pytest.mark.e2e

SHARDS = 2
#: The move a turn post names: "… played `e3-a3`: …".
PLAYED = re.compile(r"played `([^`]+)`")


def shard_of(guild_id: int) -> int:
    return (guild_id >> 22) % SHARDS


async def play_a_little(fake: FakeDiscord, user: Any, channel: Any, rng: random.Random) -> bool:
    """One move of the person if it is their turn; whether the game is over."""
    if any(is_final(m) for m in fake.messages(channel)):
        return True
    choices = await fake.autocomplete(user, channel, "move", focused="text", text="")
    if choices:
        mark = fake.checkpoint()
        played = await fake.slash(user, channel, "move", text=rng.choice(choices).value)
        if not played.ephemeral or "Played" in played.content:  # the board, or a private "Played"
            await fake.wait_for_message(channel, lambda m: True, after=mark, timeout=30)
    else:
        await asyncio.sleep(0.2)
    return False


async def test_two_processes_share_the_database_and_survive_a_kill(
    fake_discord: FakeDiscord, tmp_path: Path, pg_url: str
) -> None:
    fake = fake_discord
    guilds: dict[int, Any] = {}
    while len(guilds) < SHARDS:  # one guild on each shard
        guild = fake.add_guild(f"guild {len(guilds)}")
        guilds.setdefault(shard_of(guild.id), guild)
    alice = fake.add_user("alice")
    channels = {}
    for shard, guild in guilds.items():
        fake.add_member(guild, alice)
        channels[shard] = fake.add_text_channel(guild, f"shard-{shard}")

    def process(shard: int, run: int) -> BotProcess:
        return BotProcess(
            fake,
            tmp_path / "unused.db",
            tmp_path / f"shard{shard}-{run}.log",
            None,
            extra_env={
                "GAMEROOM_DB_URL": pg_url,
                "GAMEROOM_SHARD_COUNT": str(SHARDS),
                "GAMEROOM_SHARD_IDS": str(shard),
                "GAMEROOM_TIMER_STALE_AFTER": "10s",  # the least allowed
                "GAMEROOM_GAME_SEED": "9",
            },
        )

    processes = {shard: process(shard, 0) for shard in guilds}
    try:
        for running in processes.values():
            await running.start()
        await fake.wait_commands(names=COMMANDS)  # global commands, as in production
        for channel in channels.values():
            answer = await fake.slash(
                alice,
                channel,
                "challenge",
                options={
                    "game": "generatorb",
                    "opponent": fake.bot_user,
                    "bot_level": 1,
                    "options": SHORT["generatorb"],
                },
            )
            assert answer.ephemeral, answer.content
        rngs = {shard: random.Random(shard) for shard in guilds}
        for _ in range(4):  # both games move, each served by its own process
            for shard, channel in channels.items():
                await play_a_little(fake, alice, channel, rngs[shard])
        await processes[1].stop(kill=True, others=1)  # a crash mid-game
        for _ in range(3):  # shard 0 goes on meanwhile
            await play_a_little(fake, alice, channels[0], rngs[0])
        processes[1] = process(1, 1)
        await processes[1].start()
        done = dict.fromkeys(guilds, False)
        for _ in range(600):
            for shard, channel in channels.items():
                if not done[shard]:
                    done[shard] = await play_a_little(fake, alice, channel, rngs[shard])
            if all(done.values()):
                break
        assert all(done.values()), "a game did not end"
    finally:
        for number, running in enumerate(processes.values()):
            await running.stop(others=len(processes) - 1 - number)
            print(f"--- {running.log_path.name} ---\n{running.log()[-3000:]}")
    async with Database(pg_url) as database:
        for channel in channels.values():
            row = await database.games.latest_in_channel(channel.id)
            assert row is not None
            assert row.status == "finished"
            moves = await database.games.moves(row.id)
            assert [m.ply for m in moves] == list(range(1, len(moves) + 1))
            # Each bot move is posted at most once. A post names the move but not its ply,
            # so the bot playing the same move twice (a globe going back and forth) posts
            # the same text twice: count texts against the bot's moves in the log.
            bot_seats = {s.seat for s in await database.games.seats(row.id) if is_bot(s.user_id)}
            logged = Counter(m.text for m in moves if m.seat in bot_seats)
            posted = Counter(
                found[1]
                for m in fake.messages(channel)
                if bot_moved(m) and (found := PLAYED.search(m.content)) is not None
            )
            assert posted, "no bot move was posted"
            assert not posted - logged, f"a bot move was posted twice: {posted - logged}"
