"""Does the bot still answer while it thinks? ``/board`` latency during a level-5 search.

Starts ``tests/fakediscord`` and the real bot (``python -m bot run``, one search worker), has a
person challenge the bot at level 5 in Generatorb, and times ``/board`` (from sending the
command to the bot's answer) in two phases of the same run:

* **idle**: the person's turn, nothing being searched (the floor);
* **thinking**: right after the person's move, while the bot searches its reply in its worker
  process (level 5 thinks up to about 2 s), ``/board`` sent every 50 ms until the bot's move.

Prints count, median and p99 per phase and their ratio. Issue 14's target: under a running
search the bot still answers ``/board`` within 100 ms. Not a test: timings depend on the
machine (``python bench/bot_responsiveness.py --rounds 5``).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.e2e.botproc import BotProcess  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402

COMMANDS = ["challenge", "move", "board"]


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank quantile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


async def timed_board(fake: FakeDiscord, user: object, channel: object) -> float:
    start = time.perf_counter()
    answer = await fake.slash(user, channel, "board")  # type: ignore[arg-type]
    assert answer.ephemeral
    return (time.perf_counter() - start) * 1000


def bot_moved(message: object) -> bool:
    content = getattr(message, "content", "")
    return bool(getattr(message, "attachments", None)) and content.startswith("**Gameroom")


async def run(rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            guild = fake.add_guild("bench")
            channel = fake.add_text_channel(guild, "think")
            alice = fake.add_user("alice")
            fake.add_member(guild, alice)
            process = BotProcess(
                fake,
                Path(tmp) / "gameroom.db",
                Path(tmp) / "bot.log",
                guild.id,
                extra_env={"GAMEROOM_GAME_SEED": "3", "GAMEROOM_LOG_LEVEL": "WARNING"},
            )
            await process.start()
            await fake.wait_commands(guild, names=COMMANDS)
            try:
                await fake.slash(
                    alice,
                    channel,
                    "challenge",
                    options={"game": "generatorb", "opponent": fake.bot_user, "bot_level": 5},
                )
                idle: list[float] = []
                thinking: list[float] = []
                for _ in range(rounds):
                    for _ in range(200):  # wait for the person's turn
                        choices = await fake.autocomplete(
                            alice, channel, "move", focused="text", text=""
                        )
                        if choices:
                            break
                        await asyncio.sleep(0.05)
                    for _ in range(5):
                        idle.append(await timed_board(fake, alice, channel))
                    mark = fake.checkpoint()
                    await fake.slash(alice, channel, "move", text=choices[0].value)
                    while not [m for m in fake.messages(channel) if m.id > mark and bot_moved(m)]:
                        thinking.append(await timed_board(fake, alice, channel))
                        await asyncio.sleep(0.05)
            finally:
                await process.stop()
    print(f"/board latency over {rounds} bot moves at level 5 (one search worker)")
    print(f"{'phase':<10} {'count':>6} {'p50 ms':>8} {'p99 ms':>8}")
    for name, values in (("idle", idle), ("thinking", thinking)):
        p50, p99 = statistics.median(values), percentile(values, 0.99)
        print(f"{name:<10} {len(values):>6} {p50:>8.1f} {p99:>8.1f}")
    ratio = statistics.median(thinking) / statistics.median(idle)
    worst = percentile(thinking, 0.99)
    verdict = "met" if worst <= 100 else "MISSED"
    print(f"thinking/idle p50 ratio {ratio:.2f}; target p99 <= 100 ms while thinking: {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="bot moves to think through")
    asyncio.run(run(parser.parse_args().rounds))


if __name__ == "__main__":
    main()
