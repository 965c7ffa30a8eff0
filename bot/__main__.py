"""Command line: ``gameroom run`` (or ``python -m bot run``) starts the bot.

Exit status: 0 after a clean shutdown (Ctrl-C or SIGTERM), 1 if Discord refused the login or
the bot crashed, 2 for a usage or settings error (one line on stderr, e.g. no token).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from collections.abc import Sequence

import discord

from bot.client import GameroomBot, point_at_discord
from bot.settings import Settings, SettingsError

__all__ = ["main"]

log = logging.getLogger("bot")

LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gameroom", description="Gameroom: board games in Discord channels."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser(
        "run",
        help="connect to Discord and serve games",
        description="Start the bot. Settings come from the environment and ./.env "
        "(DISCORD_TOKEN, GAMEROOM_DB_URL, GAMEROOM_DEV_GUILD, GAMEROOM_LOG_LEVEL, ...).",
    )
    ratings = commands.add_parser(
        "ratings", help="ratings maintenance", description="Ratings maintenance (docs/ratings.md)."
    )
    ratings_commands = ratings.add_subparsers(dest="ratings_command", required=True)
    rebuild = ratings_commands.add_parser(
        "rebuild",
        help="recompute every rating from the finished games",
        description="Recompute every rating and its history from the games table, in order, "
        "and replace the stored ones (one transaction). Run it with the bot stopped: a game "
        "rated meanwhile would lose its update (docs/ratings.md).",
    )
    rebuild.add_argument(
        "--db-url", help="SQLAlchemy URL (default: GAMEROOM_DB_URL, else the default file)"
    )
    return parser


async def rebuild_ratings(db_url: str) -> int:
    """``gameroom ratings rebuild``: migrate, recompute, report; exit status 0."""
    from bot.service import GameService
    from db import Database

    async with Database(db_url) as database:
        await database.migrate()
        report = await GameService(database).rebuild_ratings()
    print(
        f"rebuilt {report.ratings} ratings from {report.games} rated games "
        f"({report.changes} rating changes)"
    )
    return 0


def configure_logging(level: int) -> None:
    """Log to stderr once, for our code and discord.py alike."""
    logging.basicConfig(level=level, format=LOG_FORMAT, stream=sys.stderr, force=True)
    # discord.py's gateway chatter is noise below WARNING unless we are debugging.
    logging.getLogger("discord").setLevel(max(level, logging.INFO))
    logging.getLogger("discord.gateway").setLevel(max(level, logging.WARNING))


async def run_bot(settings: Settings) -> int:
    """Run until SIGINT/SIGTERM or a fatal error; returns the process exit status."""
    point_at_discord(settings)
    bot = GameroomBot(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        # Close the gateway and the database cleanly instead of dying mid-write.
        loop.add_signal_handler(signum, stop.set)
    async with bot:
        running = asyncio.create_task(bot.start(settings.discord_token))
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if stopping.done():
            log.info("shutting down")
            await bot.close()
        stopping.cancel()
        try:
            await running
        except discord.LoginFailure:
            log.error("Discord refused the token in DISCORD_TOKEN")
            return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``gameroom`` console script."""
    arguments = _parser().parse_args(argv)
    if arguments.command == "ratings":
        # No Discord here: the token is not needed, only the database URL.
        environ = {**os.environ, "DISCORD_TOKEN": os.environ.get("DISCORD_TOKEN") or "-"}
        try:
            url = arguments.db_url or Settings.from_env(environ).db_url
        except SettingsError as error:
            print(f"gameroom: {error}", file=sys.stderr)
            return 2
        configure_logging(logging.INFO)
        return asyncio.run(rebuild_ratings(url))
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(f"gameroom: {error}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level_number)
    log.info("starting with %r", settings)
    try:
        return asyncio.run(run_bot(settings))
    except KeyboardInterrupt:
        return 0
    except Exception:
        log.exception("the bot crashed")
        return 1


if __name__ == "__main__":
    sys.exit(main())
