"""A whole game on PostgreSQL, through Discord: the bot process runs on a PostgreSQL database
(tests/pg's server, migrated by the bot at start) while a person plays a level-1 bot to the
end, with a restart by SIGKILL midway: every confirmed move is still there afterwards."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.e2e.test_bots_e2e import Room, challenge_the_bot, play_to_the_end, room
from tests.pg.fixtures import pg_server, pg_url

__all__ = ["pg_server", "pg_url", "room"]

pytestmark = pytest.mark.e2e


async def test_a_game_against_the_bot_on_postgresql_survives_a_kill(
    room: Room, pg_url: str
) -> None:
    fake = room.fake
    process = await room.start(GAMEROOM_DB_URL=pg_url)
    channel = room.channel("on-postgres")
    await challenge_the_bot(room, channel, "generatorb")
    rng = random.Random(8)
    for _ in range(4):  # a few moves each, then a crash
        choices = await fake.autocomplete(room.alice, channel, "move", focused="text", text="")
        if choices:
            mark = fake.checkpoint()
            await fake.slash(room.alice, channel, "move", text=rng.choice(choices).value)
            await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    await process.stop(kill=True)
    await room.start(GAMEROOM_DB_URL=pg_url)
    info: Any = await fake.slash(room.alice, channel, "game info")
    assert info.ephemeral
    final = await play_to_the_end(room, channel, rng)
    assert final is not None
