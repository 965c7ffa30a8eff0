"""Load benchmark: N concurrent Generatorb games through the fake Discord against the real bot.

Starts ``tests/fakediscord`` **with Discord's rate limits** (50 requests/s globally, 5 messages
per 5 s per channel, interaction responses exempt; see ``tests/fakediscord/ratelimits.py``),
the real bot as its own process (``python -m bot run``, as ``tests/e2e/botproc.py`` does), and
plays ``--games`` games at once, one per channel, ``--turns`` moves each: every game sends
``/move`` as the player to act, waits for the board to appear in the channel, and goes on at
once. A local engine picks random legal moves that do not end the game (so games last). Then
the same against the **floor**: ``bench/floor_bot.py``, a discord.py bot that defers each
``/move`` and answers with a fixed 50 KB PNG. Then one game alone on each.

``--processes 2`` runs Gameroom as two bot processes on one PostgreSQL database, each owning
one of two gateway shards (``GAMEROOM_SHARD_COUNT=2``, ``GAMEROOM_SHARD_IDS``, as
``tests/e2e/test_two_processes_e2e.py`` does); the games are spread over two guilds, one on
each shard (the fake, like Discord, sends a guild's events to shard
``(guild_id >> 22) % shard_count``). ``--processes 1,2`` runs both, one after the other, each
on a fresh database, and prints the ratio.

Printed per run: turns/s, CPU ms per turn of the bot process(es) (``psutil``: user + system,
summed over the bot processes), of PostgreSQL (its server processes) and of this bench process
(the fake Discord and the players), move→board latency p50/p95/p99 (from sending ``/move`` to
a public message with a new picture appearing in the game's channel, whether it is the
interaction's response, a follow-up or a channel message), move→answer p50 (until the
interaction's answer), the 429s the fake sent, and the ratios. After each Gameroom run the
bench reads every game's move log from the database: each ply once, in order, exactly the moves
the players saw confirmed; anything else is counted as a failure. Issue 16's targets: ≥ 200
turns/s per process with 100 concurrent games; one game alone ≤ 2× the floor's latency.

    python bench/load.py                        # 100 games x 10 turns, then alone (20 turns)
    python bench/load.py --games 20 --turns 5   # quicker
    python bench/load.py --db postgresql        # the bot on PostgreSQL (tests/pg's server)
    python bench/load.py --processes 1,2        # one bot process, then two (PostgreSQL)
    python bench/load.py --profile /tmp/load    # py-spy of the bot under load (.svg + .txt)

This is not a test; the bench process (fake Discord and players) and PostgreSQL share the
machine's cores with the bot, so figures are comparative, not absolute.
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
from typing import Any

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
SHARDS = 2  # with --processes 2: two shards, one per process


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
    processes: int = 1
    load_average: float = float("nan")
    turns: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    cpu_split: list[float] = field(default_factory=list)  # per bot process
    db_cpu_seconds: float | None = None
    bench_cpu_seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    acks: list[float] = field(default_factory=list)
    failures: collections.Counter[str] = field(default_factory=collections.Counter)
    throttled: int = 0
    requests: int = 0
    logs_checked: tuple[int, int] | None = None  # (games, plies) read back from the database

    @property
    def turns_per_s(self) -> float:
        return self.turns / self.seconds if self.seconds else float("nan")

    def per_turn_ms(self, seconds: float | None) -> float:
        if seconds is None or not self.turns:
            return float("nan")
        return 1000 * seconds / self.turns

    @property
    def cpu_ms_per_turn(self) -> float:
        return self.per_turn_ms(self.cpu_seconds)

    def p(self, fraction: float) -> float:
        return 1000 * percentile(self.latencies, fraction)


class Boards:
    """Resolves a channel's future when a public message in it shows a picture it did not
    show before: a new message with an attachment (a channel message, a follow-up, an
    interaction response), or an edit that fills in a deferred response ("thinking…") or
    otherwise adds an attachment. So a board is seen whichever way the bot sends it.

    New messages come from ``fake.on_message``, edits from ``fake.on_edit`` (a PATCH of a
    channel message, a follow-up replacing a deferred response, an ``@original`` edit, an
    UPDATE_MESSAGE callback).
    """

    def __init__(self, fake: FakeDiscord) -> None:
        self._waiting: dict[int, asyncio.Future[float]] = {}
        fake.on_message(self._created)
        fake.on_edit(self._edited)

    def _edited(self, before: Message, after: Message) -> None:
        shown = set() if before.loading else {a.id for a in before.attachments}
        if any(a.id not in shown for a in after.attachments):
            self._appeared(after)

    def expect(self, channel: Channel) -> asyncio.Future[float]:
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._waiting[channel.id] = future
        return future

    def _created(self, message: Message) -> None:
        if message.attachments:
            self._appeared(message)

    def _appeared(self, message: Message) -> None:
        if message.visible_to is not None or message.loading or message.deleted:
            return
        future = self._waiting.get(message.channel_id)
        if future is not None and not future.done():
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
    confirmed: list[str] = field(default_factory=list)
    """Moves whose board the players saw, in order."""
    unconfirmed: str | None = None
    """The move sent when the game's turn failed (it may or may not have been committed)."""


def shard_of(guild_id: int, shards: int) -> int:
    return (guild_id >> 22) % shards


def build_world(fake: FakeDiscord, games: int, shards: int) -> tuple[list[Any], list[Table]]:
    """One guild per shard (guilds are made until every shard has one; the fake, like
    Discord, puts a guild on shard ``(id >> 22) % shards``) and ``games`` channels dealt
    round-robin over them, two players each."""
    by_shard: dict[int, Any] = {}
    while len(by_shard) < shards:
        guild = fake.add_guild(f"Load {len(by_shard)}")
        by_shard.setdefault(shard_of(guild.id, shards), guild)
    guilds = [by_shard[shard] for shard in sorted(by_shard)]
    tables = []
    for index in range(games):
        guild = guilds[index % len(guilds)]
        channel = fake.add_text_channel(guild, f"game-{index}")
        a, b = fake.add_user(f"a{index}"), fake.add_user(f"b{index}")
        fake.add_member(guild, a)
        fake.add_member(guild, b)
        tables.append(Table(channel, (a, b)))
    return guilds, tables


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
    table: Table,
    turns: int,
    seed: int,
    result: Result,
    *,
    floor: bool,
) -> None:
    """``turns`` moves in ``table``'s channel, each waiting for its board. A failed turn is
    counted by kind and ends this game's moves (the mirror would no longer match)."""
    rng = random.Random(seed)
    state = new_mirror()
    for _ in range(turns):
        player = table.players[0] if floor else table.seats[state.turn]
        text, after = pick(state, rng)
        board = boards.expect(table.channel)
        start = time.perf_counter()
        answer = None
        try:
            answer = await fake.slash(player, table.channel, "move", text=text, timeout=120)
            answered = time.perf_counter()
            # The board is the first new picture in the channel, however the bot sends it.
            shown = await asyncio.wait_for(board, 120)
        except TimeoutError:
            table.unconfirmed = text
            result.failures["no board in 120 s" if answer else "no answer in 120 s"] += 1
            if answer is not None:
                print(
                    f"{table.channel.name}: no board for {text} within 120 s; the answer "
                    f"({'ephemeral' if answer.ephemeral else 'public'}, "
                    f"{len(answer.files)} files): {answer.content[:80]!r}",
                    file=sys.stderr,
                )
            return
        except Exception as exc:
            table.unconfirmed = text
            result.failures[type(exc).__name__] += 1
            return
        result.latencies.append(shown - start)
        result.acks.append(answered - start)
        result.turns += 1
        table.confirmed.append(text)
        state = after


async def check_move_logs(db_url: str, tables: Sequence[Table], result: Result) -> None:
    """Read every game's move log back: plies 1..n each once, ``games.ply`` = n, and the
    texts exactly the moves whose board was seen (plus, at most, the one move whose turn
    failed). Every difference is a failure of its own kind; nothing is hidden."""
    from db import Database

    games = plies = 0
    async with Database(db_url) as database:
        for table in tables:
            row = await database.games.latest_in_channel(table.channel.id)
            if row is None:
                if table.confirmed:
                    result.failures["move log: no game in the database"] += 1
                continue
            moves = await database.games.moves(row.id)
            games, plies = games + 1, plies + len(moves)
            numbers = [m.ply for m in moves]
            if numbers != list(range(1, len(moves) + 1)) or row.ply != len(moves):
                result.failures["move log: plies not 1..n once each"] += 1
            texts = [m.text for m in moves]
            seen = table.confirmed
            if texts == seen:
                continue
            if table.unconfirmed is not None and texts == [*seen, table.unconfirmed]:
                result.failures["move log: committed, board never seen"] += 1
            elif texts[: len(seen)] == seen and len(texts) > len(seen):
                result.failures["move log: more moves than sent (duplicate?)"] += 1
            elif len(texts) < len(seen) and seen[: len(texts)] == texts:
                result.failures["move log: a confirmed move is missing"] += 1
            else:
                result.failures["move log: differs from the moves sent"] += 1
                print(f"{table.channel.name}: sent {seen}, logged {texts}", file=sys.stderr)
    result.logs_checked = (games, plies)


class Bot:
    """The bot under test against ``fake``: Gameroom as ``processes`` processes (one shard
    each when several), or the floor."""

    def __init__(
        self,
        kind: str,
        fake: FakeDiscord,
        guild_id: int,
        tmp: Path,
        db_url: str | None,
        processes: int,
        args: argparse.Namespace,
    ) -> None:
        self.kind, self.fake, self.tmp = kind, fake, tmp
        self.gameroom: list[BotProcess] = []
        self.floor: asyncio.subprocess.Process | None = None
        self.guild_id, self.db_url, self.processes = guild_id, db_url, processes
        self.log_level = args.bot_log_level

    async def start(self) -> list[int]:
        if self.kind == "gameroom":
            extra = {"GAMEROOM_GAME_SEED": "7", "GAMEROOM_LOG_LEVEL": self.log_level}
            if self.db_url:
                extra["GAMEROOM_DB_URL"] = self.db_url
            if self.processes == 1:
                self.gameroom = [
                    BotProcess(
                        self.fake,
                        self.tmp / "gameroom.db",
                        self.tmp / "gameroom.log",
                        self.guild_id,
                        extra,
                    )
                ]
            else:  # global commands (GAMEROOM_DEV_GUILD names one guild), one shard each
                self.gameroom = [
                    BotProcess(
                        self.fake,
                        self.tmp / "unused.db",
                        self.tmp / f"gameroom-shard{shard}.log",
                        None,
                        {
                            **extra,
                            "GAMEROOM_SHARD_COUNT": str(self.processes),
                            "GAMEROOM_SHARD_IDS": str(shard),
                        },
                    )
                    for shard in range(self.processes)
                ]
            pids = []
            for process in self.gameroom:
                await process.start(timeout=60)
                assert process.process is not None
                pids.append(process.process.pid)
            shards = sorted(tuple(s.shard) for s in self.fake.gateway.live_sessions)
            expected = [(shard, self.processes) for shard in range(self.processes)]
            if self.processes > 1 and shards != expected:
                raise RuntimeError(f"gateway sessions on shards {shards}, not {expected}")
            return pids
        env = {**os.environ, **bot_environment(self.fake), "GAMEROOM_DEV_GUILD": str(self.guild_id)}
        log = (self.tmp / "floor.log").open("ab")
        self.floor = await asyncio.create_subprocess_exec(
            sys.executable, str(ROOT / "bench" / "floor_bot.py"), env=env, stdout=log, stderr=log
        )
        log.close()
        await self.fake.wait_ready(timeout=60)
        return [self.floor.pid]

    async def stop(self) -> None:
        for number, process in enumerate(self.gameroom):
            await process.stop(others=len(self.gameroom) - 1 - number)
        if self.floor is not None and self.floor.returncode is None:
            self.floor.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.floor.wait(), 15)
            except TimeoutError:
                self.floor.kill()
                await self.floor.wait()


def cpu_seconds(pid: int) -> float:
    times = psutil.Process(pid).cpu_times()
    return float(times.user + times.system)


class PostgresCpu:
    """CPU seconds of the PostgreSQL server behind ``db_url``, when it is a local server whose
    data directory the URL's socket names (tests/pg's pgserver); else unknown (``None``).

    A sample is the whole server's CPU so far: the postmaster's own, what its children that
    ended used (the kernel adds a reaped child's time to its parent's ``children_*``: the
    connections the bots' pools open and close), and its live children's (backends, writers).
    """

    def __init__(self, db_url: str) -> None:
        from sqlalchemy.engine import make_url

        self.postmaster: psutil.Process | None = None
        host = make_url(db_url).query.get("host")
        if isinstance(host, str):
            try:
                pid = int((Path(host) / "postmaster.pid").read_text().split()[0])
                self.postmaster = psutil.Process(pid)
            except (OSError, ValueError, IndexError, psutil.Error):
                self.postmaster = None

    def sample(self) -> float | None:
        if self.postmaster is None:
            return None
        try:
            own = self.postmaster.cpu_times()
            children = self.postmaster.children(recursive=True)
        except psutil.Error:
            return None
        total = float(own.user + own.system + own.children_user + own.children_system)
        for child in children:
            try:
                cpu = child.cpu_times()
            except psutil.Error:  # ended meanwhile: counted in the next sample's children_*
                continue
            total += float(cpu.user + cpu.system)
        return total


def start_profiles(pids: Sequence[int], prefix: str) -> list[subprocess.Popen[bytes]]:
    """py-spy on each bot process: ``prefix.svg``/``.txt``, or ``prefix-shardN.*`` for
    several processes."""
    py_spy = shutil.which("py-spy", path=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    if py_spy is None:
        print("py-spy not found (pip install py-spy): no profile", file=sys.stderr)
        return []
    spies = []
    for number, pid in enumerate(pids):
        out = prefix if len(pids) == 1 else f"{prefix}-shard{number}"
        for extra in ([out + ".svg"], [out + ".txt", "-f", "raw"]):
            spies.append(
                subprocess.Popen(
                    [py_spy, "record", "--pid", str(pid), "-o", *extra, "--nonblocking"],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
    return spies


async def phase(
    kind: str,
    games: int,
    turns: int,
    tmp: Path,
    args: argparse.Namespace,
    *,
    processes: int = 1,
    profile: str | None,
) -> Result:
    floor = kind == "floor"
    label = "floor" if floor else "gameroom" if processes == 1 else f"gameroom {processes}p"
    result = Result(f"{label} x{games}", games, processes, os.getloadavg()[0])
    workdir = tmp / f"{label}_x{games}".replace(" ", "_")
    workdir.mkdir()
    db_url = None
    pg = None
    if not floor and args.db == "postgresql":
        from tests.pg.server import PostgresForTests

        pg = PostgresForTests.shared()
        db_url = pg.create_database(migrated=True)
    elif not floor:
        db_url = f"sqlite+aiosqlite:///{workdir / 'gameroom.db'}"
    pg_cpu = PostgresCpu(db_url) if pg is not None and db_url else None
    try:
        async with FakeDiscord(rate_limits=not args.no_rate_limits, answer_timeout=120) as fake:
            guilds, tables = build_world(fake, games, processes)
            bot = Bot(kind, fake, guilds[0].id, workdir, db_url if pg else None, processes, args)
            try:
                await measure(fake, bot, guilds, tables, turns, result, args, pg_cpu, profile)
            finally:
                await bot.stop()
            if not floor and db_url is not None:
                await check_move_logs(db_url, tables, result)
    finally:
        if pg is not None and db_url is not None:
            pg.drop_database(db_url)
        if args.keep_logs:
            for log in workdir.glob("*.log"):
                shutil.copy(log, Path(args.keep_logs) / f"{workdir.name}-{log.name}")
    return result


async def measure(
    fake: FakeDiscord,
    bot: Bot,
    guilds: Sequence[Any],
    tables: Sequence[Table],
    turns: int,
    result: Result,
    args: argparse.Namespace,
    pg_cpu: PostgresCpu | None,
    profile: str | None,
) -> None:
    """Start the bot, start every game (Gameroom), then time the moves of all at once."""
    floor = bot.kind == "floor"
    pids = await bot.start()
    await fake.wait_commands(
        guilds[0] if bot.processes == 1 else None,
        names=["move"] if floor else ["move", "challenge"],
        timeout=60,
    )
    boards = Boards(fake)
    if not floor:
        gate = asyncio.Semaphore(args.setup_concurrency)

        async def setup(table: Table) -> None:
            async with gate:
                try:
                    await start_game(fake, boards, table)
                except Exception as exc:  # counted; this game plays no moves
                    result.failures[f"game start: {type(exc).__name__}"] += 1
                    seen = [
                        (m.author.name, m.content[:60], len(m.attachments))
                        for m in fake.messages(table.channel)
                    ]
                    print(
                        f"{table.channel.name}: the game did not start ({exc!r}); "
                        f"public messages there: {seen}",
                        file=sys.stderr,
                    )

        await asyncio.gather(*(setup(t) for t in tables))
    spies = start_profiles(pids, profile) if profile and not floor else []
    if spies:
        await asyncio.sleep(1)
    requests_before, throttled_before = len(fake.requests), len(fake.rate_limited)
    cpu_before = [cpu_seconds(pid) for pid in pids]
    bench_before = cpu_seconds(os.getpid())
    db_before = pg_cpu.sample() if pg_cpu else None
    start = time.perf_counter()
    await asyncio.gather(
        *(
            play(fake, boards, t, turns, args.seed + i, result, floor=floor)
            for i, t in enumerate(tables)
            if floor or t.seats
        )
    )
    result.seconds = time.perf_counter() - start
    result.cpu_split = [cpu_seconds(pid) - t for pid, t in zip(pids, cpu_before, strict=True)]
    result.cpu_seconds = sum(result.cpu_split)
    result.bench_cpu_seconds = cpu_seconds(os.getpid()) - bench_before
    if pg_cpu:
        db_after = pg_cpu.sample()
        if db_before is not None and db_after is not None:
            result.db_cpu_seconds = db_after - db_before
    result.requests = len(fake.requests) - requests_before
    result.throttled = len(fake.rate_limited) - throttled_before
    for spy in spies:
        spy.send_signal(signal.SIGINT)
    for spy in spies:
        spy.wait(30)


def report(results: dict[str, Result]) -> None:
    header = (
        f"{'run':<19}{'load1':>6}{'turns':>7}{'turns/s':>9}{'CPU ms/turn':>13}{'PG ms/t':>9}"
        f"{'bench ms/t':>12}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'ack p50':>9}{'429s':>7}"
        f"{'REST/turn':>11}  failures"
    )
    print(header)
    print("-" * len(header))
    for r in results.values():
        per_turn = r.requests / r.turns if r.turns else float("nan")
        db = f"{r.per_turn_ms(r.db_cpu_seconds):.1f}" if r.db_cpu_seconds is not None else "-"
        print(
            f"{r.name:<19}{r.load_average:>6.2f}{r.turns:>7}{r.turns_per_s:>9.1f}"
            f"{r.cpu_ms_per_turn:>13.1f}{db:>9}{r.per_turn_ms(r.bench_cpu_seconds):>12.1f}"
            f"{r.p(0.5):>9.1f}{r.p(0.95):>9.1f}{r.p(0.99):>9.1f}"
            f"{1000 * percentile(r.acks, 0.5):>9.1f}{r.throttled:>7}{per_turn:>11.2f}"
            f"  {dict(r.failures) or '-'}"
        )
    print()
    for r in results.values():
        if r.logs_checked is not None:
            games, plies = r.logs_checked
            bad = sum(n for kind, n in r.failures.items() if kind.startswith("move log"))
            verdict = "every ply once, as sent" if not bad else f"{bad} games differ (above)"
            print(f"{r.name}: move logs of {games} games read back, {plies} plies: {verdict}")
    floor = results.get("floor")
    for key in ("gameroom", "gameroom 2p"):
        load = results.get(key)
        if load and floor and load.turns and floor.turns:
            print(
                f"{load.name} under load: turns/s {load.turns_per_s / floor.turns_per_s:.2f}x "
                f"the floor, CPU/turn {load.cpu_ms_per_turn / floor.cpu_ms_per_turn:.1f}x, "
                f"p50 {load.p(0.5) / floor.p(0.5):.1f}x, p95 {load.p(0.95) / floor.p(0.95):.1f}x, "
                f"p99 {load.p(0.99) / floor.p(0.99):.1f}x"
            )
    one, two = results.get("gameroom"), results.get("gameroom 2p")
    if one and two and one.turns and two.turns:
        print(
            f"two processes vs one: turns/s {two.turns_per_s / one.turns_per_s:.2f}x "
            f"({two.turns_per_s:.1f} vs {one.turns_per_s:.1f}), "
            f"CPU/turn {two.cpu_ms_per_turn / one.cpu_ms_per_turn:.2f}x, "
            f"p50 {two.p(0.5) / one.p(0.5):.2f}x, p99 {two.p(0.99) / one.p(0.99):.2f}x"
        )
    if two and two.cpu_seconds:
        split = " / ".join(f"{100 * t / two.cpu_seconds:.0f}%" for t in two.cpu_split)
        print(f"  {two.name}: bot CPU per process (shard 0 / 1) {split}")
    for load in (one, two):
        if load and load.turns:
            print(
                f"  target ≥ 200 turns/s per process with {load.games} games: "
                f"{load.turns_per_s / load.processes:.1f} turns/s per process ({load.name})"
            )
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
            for processes in args.processes:
                key = "gameroom" if processes == 1 else f"gameroom {processes}p"
                profile = args.profile
                if profile and len(args.processes) > 1:
                    profile = f"{profile}-{processes}p"
                results[key] = await phase(
                    "gameroom",
                    args.games,
                    args.turns,
                    tmp,
                    args,
                    processes=processes,
                    profile=profile,
                )
            results["floor"] = await phase("floor", args.games, args.turns, tmp, args, profile=None)
        if args.alone_turns > 0:
            alone = min(args.processes)
            result = await phase(
                "gameroom", 1, args.alone_turns, tmp, args, processes=alone, profile=None
            )
            result.name = "gameroom alone" if alone == 1 else f"gameroom {alone}p alone"
            results["gameroom alone"] = result
            results["floor alone"] = await phase(
                "floor", 1, args.alone_turns, tmp, args, profile=None
            )
            results["floor alone"].name = "floor alone"
    limits = "off" if args.no_rate_limits else "on (50/s global, 5 per 5 s per channel)"
    print(f"rate limits {limits}; database {args.db}; {os.cpu_count()} CPUs")
    report(results)
    return 0


def process_counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not 1, 2 or 1,2: {text!r}") from None
    if not counts or any(n not in (1, 2) for n in counts) or len(set(counts)) != len(counts):
        raise argparse.ArgumentTypeError(f"not 1, 2 or 1,2: {text!r}")
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="concurrent games (default 100)")
    parser.add_argument("--turns", type=int, default=10, help="moves per game (default 10)")
    parser.add_argument(
        "--alone-turns", type=int, default=20, help="moves of the lone game (0: skip)"
    )
    parser.add_argument(
        "--db",
        choices=("sqlite", "postgresql"),
        help="the bot's database (default sqlite; postgresql, tests/pg's server, is implied "
        "by --processes with 2, and every Gameroom run of the invocation then uses it)",
    )
    parser.add_argument(
        "--processes",
        type=process_counts,
        default=[1],
        metavar="N[,N]",
        help="Gameroom bot processes: 1 (default), 2 (two processes, one shard each, on one "
        "PostgreSQL database; needs --db postgresql, which it implies), or 1,2 (both, one "
        "after the other, each on a fresh database, and their ratio). The floor and the lone "
        "game run once (the lone game on the smaller count)",
    )
    parser.add_argument("--no-rate-limits", action="store_true", help="the fake sends no 429s")
    parser.add_argument("--setup-concurrency", type=int, default=20, help="games started at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--profile", metavar="PREFIX", help="py-spy the bot under load: PREFIX.svg/.txt"
    )
    parser.add_argument("--keep-logs", metavar="DIR", help="copy the bots' logs to DIR")
    parser.add_argument(
        "--bot-log-level",
        default="WARNING",
        choices=("DEBUG", "INFO", "WARNING", "ERROR"),
        help="GAMEROOM_LOG_LEVEL of the Gameroom processes (default WARNING)",
    )
    args = parser.parse_args(argv)
    if max(args.processes) > 1:
        if args.db == "sqlite":
            parser.error("--processes 2 shares one database between processes: --db postgresql")
        args.db = "postgresql"
    args.db = args.db or "sqlite"
    if args.keep_logs:
        Path(args.keep_logs).mkdir(parents=True, exist_ok=True)
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
