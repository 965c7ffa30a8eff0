"""Run the real Gameroom bot as a separate process pointed at a :class:`FakeDiscord`.

End-to-end tests start it exactly as an operator would (``python -m bot run``) with only the
documented settings, so what they prove is what ships. ``stop()`` ends the process the way a
restart would (SIGTERM, then SIGKILL if it hangs); a new :class:`BotProcess` on the same
database continues every game.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import bot_environment


class BotProcess:
    """One ``python -m bot run`` process; its output goes to ``log_path``."""

    def __init__(
        self,
        fake: FakeDiscord,
        db_path: Path,
        log_path: Path,
        dev_guild: int | None,
        extra_env: dict[str, str] | None = None,
    ) -> None:
        self.fake = fake
        self.env = {
            **os.environ,
            **bot_environment(fake),
            "GAMEROOM_DB_URL": f"sqlite+aiosqlite:///{db_path}",
            "GAMEROOM_LOG_LEVEL": "INFO",
            **(extra_env or {}),
        }
        if dev_guild is not None:  # else the commands are global, as in production
            self.env["GAMEROOM_DEV_GUILD"] = str(dev_guild)
        self.log_path = log_path
        self.process: asyncio.subprocess.Process | None = None

    async def start(self, *, timeout: float = 30.0) -> None:  # noqa: ASYNC109
        """Start the bot and wait until it has identified and synced its commands."""
        identifies = self.fake.identify_count
        log = self.log_path.open("ab")
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", env=self.env, stdout=log, stderr=log
        )
        log.close()
        await self.fake.wait_ready(timeout=timeout, identifies=identifies + 1)

    async def stop(self, *, kill: bool = False, others: int = 0) -> None:
        """End the process (SIGTERM, or SIGKILL for a crash) and wait until it is gone and its
        gateway connection closed (``others``: how many other bot processes stay connected)."""
        if self.process is None or self.process.returncode is not None:
            return
        self.process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        try:
            await asyncio.wait_for(self.process.wait(), 15)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        await self.fake.wait_disconnected(timeout=15, remaining=others)

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")


@asynccontextmanager
async def seeded_bot(
    fake: FakeDiscord, tmp_path: Path, guild_name: str, seed: int, commands: Sequence[str]
) -> AsyncIterator[Any]:
    """A guild served by a bot process whose every new game gets ``seed``
    (``GAMEROOM_GAME_SEED``), so a test can mirror the game with a local engine. Yields the
    guild once ``commands`` are registered; prints the end of the bot's log when done."""
    guild = fake.add_guild(guild_name)
    process = BotProcess(
        fake,
        tmp_path / "gameroom.db",
        tmp_path / "bot.log",
        guild.id,
        extra_env={"GAMEROOM_GAME_SEED": str(seed)},
    )
    await process.start()
    await fake.wait_commands(guild, names=list(commands))
    try:
        yield guild
    finally:
        await process.stop()
        print(f"--- bot log ---\n{process.log()[-4000:]}")


async def eventually(check: Callable[[], object], seconds: float = 5.0) -> None:
    """Poll bot-side state (which the fake cannot observe) until ``check()`` is truthy."""
    for _ in range(int(seconds / 0.01)):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"still false after {seconds}s: {check}")
