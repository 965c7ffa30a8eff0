"""Load benchmark: N concurrent Generatorb games through the fake Discord against the real bot.

Starts ``tests/fakediscord`` **with Discord's rate limits** (50 requests/s globally, 5 messages
per 5 s per channel, interaction responses exempt; see ``tests/fakediscord/ratelimits.py``),
the real bot as its own process (``python -m bot run``, as ``tests/e2e/botproc.py`` does), and
plays ``--games`` games at once, one per channel, ``--turns`` moves each: every game sends
``/move`` as the player to act, waits for the board the bot posts, and goes on at once. A local
engine picks random legal moves that do not end the game (so games last). Then the same against
the **floor**: ``bench/floor_bot.py``, a discord.py bot that defers each ``/move`` and answers
with a fixed 50 KB PNG. Then one game alone on each.

Printed per bot: turns/s, CPU ms per turn of the bot process (``psutil``: user + system),
move→board latency p50/p95/p99 (from sending ``/move`` to the board message appearing), the
429s the fake sent, and the ratios Gameroom/floor. Issue 16's targets: ≥ 200 turns/s per
process with 100 concurrent games; one game alone ≤ 2× the floor's latency.

    python bench/load.py                        # 100 games x 10 turns, then alone (20 turns)
    python bench/load.py --games 20 --turns 5   # quicker
    python bench/load.py --db postgresql        # the bot on PostgreSQL (tests/pg's server)
    python bench/load.py --profile /tmp/load    # py-spy of the bot under load (.svg + .txt)

This is not a test; the bench process (fake Discord and players) shares the machine's cores
with the bot, so figures are comparative, not absolute.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402

from engines.generatorb import GeneratorbEngine, GeneratorbState  # noqa: E402
from tests.e2e.botproc import BotProcess  # noqa: E402
from tests.fakediscord import Channel, FakeDiscord, Message, User  # noqa: E402
from tests.fakediscord.fixtures import bot_environment  # noqa: E402

ENGINE = GeneratorbEngine()
OPTIONS = "move_limit=0 repetition_draw=false"
SOUTH = re.compile(r"<@(\d+)> plays South")


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank quantile (NaN for no values)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


@dataclass
class Result:
    name: str
    games: int
    turns: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    acks: list[float] = field(default_factory=list)
    failures: collections.Counter[str] = field(default_factory=collections.Counter)
    throttled: int = 0
    requests: int = 0

    @property
    def turns_per_s(self) -> float:
        return self.turns / self.seconds if self.seconds else float("nan")

    @property
    def cpu_ms_per_turn(self) -> float:
        return 1000 * self.cpu_seconds / self.turns if self.turns else float("nan")

    def p(self, fraction: float) -> float:
        return 1000 * percentile(self.latencies, fraction)


class Boards:
    """Resolves a future when a message with an attachment appears in a watched channel."""

    def __init__(self, fake: FakeDiscord) -> None:
        self._waiting: dict[int, asyncio.Future[float]] = {}
        fake.on_message(self._seen)

    def expect(self, channel: Channel) -> asyncio.Future[float]:
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._waiting[channel.id] = future
        return future

    def _seen(self, message: Message) -> None:
        future = self._waiting.get(message.channel_id)
        if future is not None and message.attachments and not future.done():
            future.set_result(time.perf_counter())
            del self._waiting[message.channel_id]


def new_mirror() -> GeneratorbState:
    options = ENGINE.resolve_options({"move_limit": "0", "repetition_draw": "false"})
    return ENGINE.from_position(ENGINE.position(ENGINE.new_game(2, options, 0)), options)


def pick(state: GeneratorbState, rng: random.Random) -> tuple[str, GeneratorbState]:
    """A random legal move that does not end the game, if there is one."""
    moves = ENGINE.legal_moves(state, state.turn)
    rng.shuffle(moves)
    for move in moves:
        after = ENGINE.apply(state, state.turn, move).state
        if after.outcome is None:
            return ENGINE.format_move(state, move), after
    move = moves[0]
    return ENGINE.format_move(state, move), ENGINE.apply(state, state.turn, move).state


@dataclass
class Table:
    channel: Channel
    players: tuple[User, User]
    seats: dict[int, User] = field(default_factory=dict)


def build_world(fake: FakeDiscord, games: int) -> tuple[object, list[Table]]:
    guild = fake.add_guild("Load")
    tables = []
    for index in range(games):
        channel = fake.add_text_channel(guild, f"game-{index}")
        a, b = fake.add_user(f"a{index}"), fake.add_user(f"b{index}")
        fake.add_member(guild, a)
        fake.add_member(guild, b)
        tables.append(Table(channel, (a, b)))
    return guild, tables


async def start_game(fake: FakeDiscord, boards: Boards, table: Table) -> None:
    a, b = table.players
    first_board = boards.expect(table.channel)
    await fake.slash(
        a,
        table.channel,
        "challenge",
        options={"game": "generatorb", "opponent": b, "options": OPTIONS},
    )
    challenge = await fake.wait_for_message(
        table.channel, lambda m: "Accept" in str(m.components), timeout=120
    )
    await fake.press(b, challenge, label="Accept", timeout=120)
    await asyncio.wait_for(first_board, 120)
    text = " ".join(m.content for m in fake.messages(table.channel))
    found = SOUTH.search(text)
    if found is None:
        raise RuntimeError(f"no 'plays South' in {table.channel.name}: {text[:300]}")
    south = a if int(found.group(1)) == a.id else b
    table.seats = {0: south, 1: b if south is a else a}


async def play(
    fake: FakeDiscord,
    boards: Boards,
    table: Table | tuple[Channel, User],
    turns: int,
    seed: int,
    result: Result,
    *,
    floor: bool,
) -> None:
    rng = random.Random(seed)
    state = new_mirror()
    for _ in range(turns):
        if isinstance(table, Table):
            channel, player = table.channel, table.seats[state.turn]
        else:
            channel, player = table
        text, after = pick(state, rng)
        board = boards.expect(channel)
        start = time.perf_counter()
        try:
            answer = await fake.slash(player, channel, "move", text=text, timeout=120)
            if floor:  # the board is the answer itself (the deferred response, filled in)
                shown = time.perf_counter()
                if not answer.files:
                    raise RuntimeError("the floor answered without a board")
            else:  # an ephemeral acknowledgement; the board is a channel message
                if not answer.ephemeral:
                    result.failures["public answer"] += 1
                shown = await asyncio.wait_for(board, 120)
        except Exception as exc:  # a failed turn is counted, and the game stops
            result.failures[type(exc).__name__] += 1
            return
        result.latencies.append(shown - start)
        result.acks.append(time.perf_counter() - start)
        result.turns += 1
        state = after


class Bot:
    """A bot process (Gameroom or the floor) against ``fake``."""

    def __init__(self, kind: str, fake: FakeDiscord, guild_id: int, tmp: Path, db_url: str | None):
        self.kind, self.fake, self.tmp = kind, fake, tmp
        self.gameroom: BotProcess | None = None
        self.floor: asyncio.subprocess.Process | None = None
        self.guild_id, self.db_url = guild_id, db_url

    async def start(self) -> int:
        if self.kind == "gameroom":
            extra = {"GAMEROOM_GAME_SEED": "7", "GAMEROOM_LOG_LEVEL": "WARNING"}
            if self.db_url:
                extra["GAMEROOM_DB_URL"] = self.db_url
            self.gameroom = BotProcess(
                self.fake, self.tmp / "gameroom.db", self.tmp / "gameroom.log", self.guild_id, extra
            )
            await self.gameroom.start(timeout=60)
            assert self.gameroom.process is not None
            return self.gameroom.process.pid
        env = {**os.environ, **bot_environment(self.fake), "GAMEROOM_DEV_GUILD": str(self.guild_id)}
        log = (self.tmp / "floor.log").open("ab")
        self.floor = await asyncio.create_subprocess_exec(
            sys.executable, str(ROOT / "bench" / "floor_bot.py"), env=env, stdout=log, stderr=log
        )
        log.close()
        await self.fake.wait_ready(timeout=60)
        return self.floor.pid

    async def stop(self) -> None:
        if self.gameroom is not None:
            await self.gameroom.stop()
        if self.floor is not None and self.floor.returncode is None:
            self.floor.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.floor.wait(), 15)
            except TimeoutError:
                self.floor.kill()
                await self.floor.wait()


def cpu_seconds(pid: int) -> float:
    times = psutil.Process(pid).cpu_times()
    return times.user + times.system


async def phase(
    kind: str, games: int, turns: int, tmp: Path, args: argparse.Namespace, *, profile: str | None
) -> Result:
    floor = kind == "floor"
    name = f"{'floor' if floor else 'gameroom'} x{games}"
    result = Result(name, games)
    workdir = tmp / name.replace(" ", "_")
    workdir.mkdir()
    db_url = None
    pg = None
    if not floor and args.db == "postgresql":
        from tests.pg.server import PostgresForTests

        pg = PostgresForTests.shared()
        db_url = pg.create_database(migrated=True)
    async with FakeDiscord(rate_limits=not args.no_rate_limits, answer_timeout=120) as fake:
        guild, tables = build_world(fake, games)
        bot = Bot(kind, fake, guild.id, workdir, db_url)  # type: ignore[attr-defined]
        pid = await bot.start()
        try:
            await fake.wait_commands(
                guild, names=["move"] if floor else ["move", "challenge"], timeout=60
            )  # type: ignore[arg-type]
            boards = Boards(fake)
            if not floor:
                gate = asyncio.Semaphore(args.setup_concurrency)

                async def setup(table: Table) -> None:
                    async with gate:
                        await start_game(fake, boards, table)

                await asyncio.gather(*(setup(t) for t in tables))
            spy = None
            py_spy = shutil.which(
                "py-spy", path=f"{Path(sys.executable).parent}:{os.environ['PATH']}"
            )
            if profile and not floor and py_spy is None:
                print("py-spy not found (pip install py-spy): no profile", file=sys.stderr)
            elif profile and not floor:
                spy = subprocess.Popen(  # noqa: ASYNC220 - py-spy runs beside us
                    [py_spy, "record", "--pid", str(pid), "-o", profile + ".svg", "--nonblocking"],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                raw = subprocess.Popen(  # noqa: ASYNC220
                    [
                        py_spy,
                        "record",
                        "--pid",
                        str(pid),
                        "-o",
                        profile + ".txt",
                        "-f",
                        "raw",
                        "--nonblocking",
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                await asyncio.sleep(1)
            requests_before, throttled_before = len(fake.requests), len(fake.rate_limited)
            cpu_before = cpu_seconds(pid)
            start = time.perf_counter()
            await asyncio.gather(
                *(
                    play(
                        fake,
                        boards,
                        t if not floor else (t.channel, t.players[0]),
                        turns,
                        args.seed + i,
                        result,
                        floor=floor,
                    )
                    for i, t in enumerate(tables)
                )
            )
            result.seconds = time.perf_counter() - start
            result.cpu_seconds = cpu_seconds(pid) - cpu_before
            result.requests = len(fake.requests) - requests_before
            result.throttled = len(fake.rate_limited) - throttled_before
            if spy is not None:
                for proc in (spy, raw):
                    proc.send_signal(signal.SIGINT)
                for proc in (spy, raw):
                    proc.wait(30)
        finally:
            await bot.stop()
            if pg is not None and db_url is not None:
                pg.drop_database(db_url)
            if args.keep_logs:
                for log in workdir.glob("*.log"):
                    shutil.copy(log, Path(args.keep_logs) / f"{workdir.name}-{log.name}")
    return result


def report(results: dict[str, Result]) -> None:
    header = (
        f"{'run':<16}{'turns':>7}{'turns/s':>9}{'CPU ms/turn':>13}"
        f"{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'ack p50':>9}{'429s':>7}{'REST/turn':>11}"
        "  failures"
    )
    print(header)
    print("-" * len(header))
    for r in results.values():
        per_turn = r.requests / r.turns if r.turns else float("nan")
        print(
            f"{r.name:<16}{r.turns:>7}{r.turns_per_s:>9.1f}{r.cpu_ms_per_turn:>13.1f}"
            f"{r.p(0.5):>9.1f}{r.p(0.95):>9.1f}{r.p(0.99):>9.1f}"
            f"{1000 * percentile(r.acks, 0.5):>9.1f}{r.throttled:>7}{per_turn:>11.2f}"
            f"  {dict(r.failures) or '-'}"
        )
    print()
    load, floor = results.get("gameroom"), results.get("floor")
    if load and floor and load.turns and floor.turns:
        print(
            f"under load: turns/s {load.turns_per_s / floor.turns_per_s:.2f}x the floor, "
            f"CPU/turn {load.cpu_ms_per_turn / floor.cpu_ms_per_turn:.1f}x, "
            f"p50 {load.p(0.5) / floor.p(0.5):.1f}x, p95 {load.p(0.95) / floor.p(0.95):.1f}x, "
            f"p99 {load.p(0.99) / floor.p(0.99):.1f}x"
        )
        print(f"  target ≥ 200 turns/s with {load.games} games: {load.turns_per_s:.1f} turns/s")
    alone, floor_alone = results.get("gameroom alone"), results.get("floor alone")
    if alone and floor_alone and alone.turns and floor_alone.turns:
        ratio = alone.p(0.5) / floor_alone.p(0.5)
        print(
            f"one game alone: p50 {alone.p(0.5):.1f} ms vs floor {floor_alone.p(0.5):.1f} ms = "
            f"{ratio:.1f}x (target ≤ 2x); CPU/turn {alone.cpu_ms_per_turn:.1f} vs "
            f"{floor_alone.cpu_ms_per_turn:.1f} ms"
        )


async def run(args: argparse.Namespace) -> int:
    results: dict[str, Result] = {}
    with tempfile.TemporaryDirectory(prefix="gameroom-load-") as directory:
        tmp = Path(directory)
        if args.games > 0:
            results["gameroom"] = await phase(
                "gameroom", args.games, args.turns, tmp, args, profile=args.profile
            )
            results["floor"] = await phase("floor", args.games, args.turns, tmp, args, profile=None)
        if args.alone_turns > 0:
            results["gameroom alone"] = await phase(
                "gameroom", 1, args.alone_turns, tmp, args, profile=None
            )
            results["gameroom alone"].name = "gameroom alone"
            results["floor alone"] = await phase(
                "floor", 1, args.alone_turns, tmp, args, profile=None
            )
            results["floor alone"].name = "floor alone"
    limits = "off" if args.no_rate_limits else "on (50/s global, 5 per 5 s per channel)"
    print(f"rate limits {limits}; database {args.db}")
    report(results)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="concurrent games (default 100)")
    parser.add_argument("--turns", type=int, default=10, help="moves per game (default 10)")
    parser.add_argument(
        "--alone-turns", type=int, default=20, help="moves of the lone game (0: skip)"
    )
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--no-rate-limits", action="store_true", help="the fake sends no 429s")
    parser.add_argument("--setup-concurrency", type=int, default=20, help="games started at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--profile", metavar="PREFIX", help="py-spy the bot under load: PREFIX.svg/.txt"
    )
    parser.add_argument("--keep-logs", metavar="DIR", help="copy the bots' logs to DIR")
    args = parser.parse_args(argv)
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
