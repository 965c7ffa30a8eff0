"""Typed settings read once from the environment and an optional ``.env`` file.

Every knob of the running bot lives here, so a newcomer can see them all in one screen:

===================================  ==========================================================
``DISCORD_TOKEN``                    the bot token (required)
``GAMEROOM_DB_URL``                  SQLAlchemy URL; default
                                     ``sqlite+aiosqlite:///data/gameroom.db``
``GAMEROOM_DEV_GUILD``               guild id to sync slash commands to instantly (else
                                     global sync)
``GAMEROOM_DISCORD_API_BASE``        REST base including the version, e.g.
                                     ``http://127.0.0.1:8080/api/v10`` (tests point it at a fake)
``GAMEROOM_DISCORD_GATEWAY``         gateway URL, e.g. ``ws://127.0.0.1:8080/gateway``
``GAMEROOM_LOG_LEVEL``               ``DEBUG``, ``INFO`` (default), ``WARNING``, ``ERROR``,
                                     ``CRITICAL``
``GAMEROOM_CHALLENGE_TTL``           how long a challenge stays open (a duration, see
                                     below); default 24h
``GAMEROOM_GAME_SEED``               for tests and bug reports only: every new game gets this
                                     seed (0 … 2**63-1), so its seats, dice and draws repeat;
                                     unset (the default) draws a secret seed per game
``GAMEROOM_DEFAULT_CLOCK``           the clock of a challenge that names none: ``none`` (the
                                     default: casual), ``correspondence`` or a clock like
                                     ``hard:3d+1d/7d`` (syntax: :mod:`bot.service.clocks`)
``GAMEROOM_REMINDER_QUIET``          how long a player may take to move before the first
                                     reminder, where neither the user nor the server chose
                                     (``/settings``); default 24h
``GAMEROOM_REMINDER_INTERVAL``       time between later reminders of the same turn; default 24h
``GAMEROOM_VACATION_DAYS``           vacation days each user may take per calendar year (UTC),
                                     0 … 366; default 30 (0: no vacations)
``GAMEROOM_THREAD_ARCHIVE_AFTER``    how long after its end a game's thread is archived;
                                     default 1h
``GAMEROOM_TIMER_INTERVAL``          how often the timer loop looks for due timers (clocks,
                                     reminders, archiving); default 30s, at least 1s
``GAMEROOM_TIMER_STALE_AFTER``       a timer claimed this long ago by a process that never
                                     finished it (it died) is run again; default 5m, at
                                     least 2s
``GAMEROOM_AI_WORKERS``              processes the bot searches its own moves in (1 … 64);
                                     default 1
``GAMEROOM_EXHIBITION_PACE``         the least time between moves in a game of bots only
                                     without a clock (an exhibition, or a game every person
                                     has left), so spectators can follow it; default 5s, 0
                                     for as fast as the bots play
``GAMEROOM_SHARD_COUNT``             how many Discord shards the bot has in all, when it runs as
                                     several processes (default: what Discord recommends)
``GAMEROOM_SHARD_IDS``               the shards this process runs, e.g. ``0,1`` (needs
                                     ``GAMEROOM_SHARD_COUNT``; default: all of them)
===================================  ==========================================================

Every duration takes a number with units, largest first (``3d 12h``, ``90m``, ``45s``) or a
bare number of seconds (``3600``), and is at most 365 days. Values already in the environment
win over the ``.env`` file.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from datetime import timedelta
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

from dotenv import dotenv_values

from bot.service.clocks import ClockSpec, parse_duration
from bot.service.core import DEFAULT_REMINDER_QUIET
from bot.service.lobby import DEFAULT_CHALLENGE_TTL
from bot.service.vacations import DEFAULT_VACATION_ALLOWANCE
from db.engine import DEFAULT_URL, shown_url, url_problem

__all__ = [
    "DEFAULT_AI_WORKERS",
    "DEFAULT_CHALLENGE_TTL",
    "DEFAULT_DB_URL",
    "DEFAULT_EXHIBITION_PACE",
    "DEFAULT_REMINDER_INTERVAL",
    "DEFAULT_REMINDER_QUIET",
    "DEFAULT_THREAD_ARCHIVE_AFTER",
    "DEFAULT_TIMER_INTERVAL",
    "DEFAULT_TIMER_STALE_AFTER",
    "DEFAULT_VACATION_DAYS",
    "MIN_TIMER_STALE_AFTER",
    "Settings",
    "SettingsError",
]

# One value per default: the service's and the database's own, under the names this module
# has always exported.
DEFAULT_DB_URL: Final = DEFAULT_URL
DEFAULT_REMINDER_INTERVAL: Final = timedelta(hours=24)
DEFAULT_VACATION_DAYS: Final = DEFAULT_VACATION_ALLOWANCE.days
DEFAULT_THREAD_ARCHIVE_AFTER: Final = timedelta(hours=1)
DEFAULT_TIMER_INTERVAL: Final = timedelta(seconds=30)
DEFAULT_TIMER_STALE_AFTER: Final = timedelta(minutes=5)
#: The least GAMEROOM_TIMER_STALE_AFTER: a timer's handler gets half of it, and a bot's turn
#: must fit in that half: the slowest level searches 1.9 s (ai/levels.py), then the move is
#: committed and its board drawn and posted. With less, level 5 timed out on every attempt
#: and never moved (tests/bot/test_bot_settings.py checks the margin against the levels).
MIN_TIMER_STALE_AFTER: Final = timedelta(seconds=10)
#: Search processes for the bot's own moves (GAMEROOM_AI_WORKERS).
DEFAULT_AI_WORKERS: Final = 1
MAX_AI_WORKERS: Final = 64
#: The least time between moves of an exhibition (GAMEROOM_EXHIBITION_PACE): a board every 5 s
#: is as fast as a spectator reads a move and the channel's rate limit (5 posts in 5 s) stays
#: free for other games; a 120-ply Generator game then takes ten minutes.
DEFAULT_EXHIBITION_PACE: Final = timedelta(seconds=5)
#: The most shards the settings accept (Discord's large bots use thousands; this is a sanity bound).
MAX_SHARDS: Final = 4096
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

#: The longest duration any setting accepts.
_MAX_DURATION: Final = timedelta(days=365)
#: Vacation days a year at most (a leap year).
_MAX_VACATION_DAYS: Final = 366


class SettingsError(ValueError):
    """A setting is missing or malformed; the message is one line naming the variable."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The bot's configuration. Build it with :meth:`from_env`."""

    discord_token: str
    db_url: str = DEFAULT_DB_URL
    dev_guild_id: int | None = None
    discord_api_base: str | None = None
    discord_gateway: str | None = None
    log_level: str = "INFO"
    challenge_ttl: timedelta = DEFAULT_CHALLENGE_TTL
    game_seed: int | None = None
    default_clock: str = "none"
    """The canonical text of the default clock (``str(ClockSpec)``; ``none``: casual)."""
    reminder_quiet: timedelta = DEFAULT_REMINDER_QUIET
    reminder_interval: timedelta = DEFAULT_REMINDER_INTERVAL
    vacation_days: int = DEFAULT_VACATION_DAYS
    thread_archive_after: timedelta = DEFAULT_THREAD_ARCHIVE_AFTER
    timer_interval: timedelta = DEFAULT_TIMER_INTERVAL
    timer_stale_after: timedelta = DEFAULT_TIMER_STALE_AFTER
    ai_workers: int = DEFAULT_AI_WORKERS
    exhibition_pace: timedelta = DEFAULT_EXHIBITION_PACE
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None

    def __repr__(self) -> str:
        # Every field but the token, which must never reach a log line.
        shown = (f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))
        return f"Settings({', '.join(s for s in shown if not s.startswith('discord_token='))})"

    @property
    def vacation_allowance(self) -> timedelta:
        """:attr:`vacation_days` as a duration: the yearly vacation allowance of each user."""
        return timedelta(days=self.vacation_days)

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, *, env_file: Path | None = Path(".env")
    ) -> Settings:
        """Read the settings from ``environ`` (default ``os.environ``) over ``env_file``.

        A missing ``env_file`` is fine. Raises :class:`SettingsError` for a missing token or a
        malformed value.
        """
        values: dict[str, str] = {}
        if env_file is not None and env_file.is_file():
            values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
        values.update(os.environ if environ is None else environ)
        return cls.from_mapping(values)

    @classmethod
    def from_mapping(cls, values: Mapping[str, str]) -> Settings:
        """Parse already-merged variables; see :meth:`from_env`."""

        def get(name: str) -> str | None:
            value = values.get(name, "").strip()
            return value or None

        token = get("DISCORD_TOKEN")
        if token is None:
            raise SettingsError("DISCORD_TOKEN is not set; put the bot token in it or in .env")
        return cls(
            discord_token=token,
            db_url=_parse_db_url(get("GAMEROOM_DB_URL")),
            dev_guild_id=_parse_snowflake("GAMEROOM_DEV_GUILD", get("GAMEROOM_DEV_GUILD")),
            discord_api_base=_parse_url(
                "GAMEROOM_DISCORD_API_BASE", get("GAMEROOM_DISCORD_API_BASE"), ("http", "https")
            ),
            discord_gateway=_parse_url(
                "GAMEROOM_DISCORD_GATEWAY", get("GAMEROOM_DISCORD_GATEWAY"), ("ws", "wss")
            ),
            log_level=_parse_log_level(get("GAMEROOM_LOG_LEVEL")),
            challenge_ttl=_parse_duration(
                "GAMEROOM_CHALLENGE_TTL", get("GAMEROOM_CHALLENGE_TTL"), DEFAULT_CHALLENGE_TTL
            ),
            game_seed=_parse_seed(get("GAMEROOM_GAME_SEED")),
            default_clock=_parse_clock(get("GAMEROOM_DEFAULT_CLOCK")),
            reminder_quiet=_parse_duration(
                "GAMEROOM_REMINDER_QUIET", get("GAMEROOM_REMINDER_QUIET"), DEFAULT_REMINDER_QUIET
            ),
            reminder_interval=_parse_duration(
                "GAMEROOM_REMINDER_INTERVAL",
                get("GAMEROOM_REMINDER_INTERVAL"),
                DEFAULT_REMINDER_INTERVAL,
            ),
            vacation_days=_parse_vacation_days(get("GAMEROOM_VACATION_DAYS")),
            thread_archive_after=_parse_duration(
                "GAMEROOM_THREAD_ARCHIVE_AFTER",
                get("GAMEROOM_THREAD_ARCHIVE_AFTER"),
                DEFAULT_THREAD_ARCHIVE_AFTER,
            ),
            timer_interval=_parse_duration(
                "GAMEROOM_TIMER_INTERVAL",
                get("GAMEROOM_TIMER_INTERVAL"),
                DEFAULT_TIMER_INTERVAL,
                minimum=timedelta(seconds=1),
            ),
            timer_stale_after=_parse_duration(
                "GAMEROOM_TIMER_STALE_AFTER",
                get("GAMEROOM_TIMER_STALE_AFTER"),
                DEFAULT_TIMER_STALE_AFTER,
                minimum=MIN_TIMER_STALE_AFTER,
            ),
            ai_workers=_parse_ai_workers(get("GAMEROOM_AI_WORKERS")),
            exhibition_pace=_parse_duration(
                "GAMEROOM_EXHIBITION_PACE",
                get("GAMEROOM_EXHIBITION_PACE"),
                DEFAULT_EXHIBITION_PACE,
                minimum=timedelta(0),
            ),
            **_parse_shards(get("GAMEROOM_SHARD_COUNT"), get("GAMEROOM_SHARD_IDS")),
        )

    @property
    def log_level_number(self) -> int:
        """The :mod:`logging` level number of :attr:`log_level`."""
        return logging.getLevelNamesMapping()[self.log_level]


def _parse_snowflake(name: str, text: str | None) -> int | None:
    if text is None:
        return None
    if not (text.isascii() and text.isdigit()) or int(text) == 0:
        raise SettingsError(f"{name} must be a Discord id (digits only), not {text!r}")
    return int(text)


def _parse_url(name: str, text: str | None, schemes: tuple[str, ...]) -> str | None:
    if text is None:
        return None
    parts = urlsplit(text)
    if parts.scheme not in schemes or not parts.netloc:
        allowed = " or ".join(f"{s}://" for s in schemes)
        raise SettingsError(f"{name} must be an absolute {allowed} URL, not {text!r}")
    return text.rstrip("/")


def _parse_shards(count_text: str | None, ids_text: str | None) -> dict[str, Any]:
    """``shard_count`` and ``shard_ids`` for :class:`Settings` (both ``None`` when unset).

    Raises :class:`SettingsError` for a count that is not a whole number from 1 to
    :data:`MAX_SHARDS`, ids without a count, or ids that are not distinct numbers below it."""
    if count_text is None:
        if ids_text is not None:
            raise SettingsError("GAMEROOM_SHARD_IDS needs GAMEROOM_SHARD_COUNT (the shards in all)")
        return {"shard_count": None, "shard_ids": None}
    if (
        not (count_text.isascii() and count_text.isdigit())
        or not 1 <= int(count_text) <= MAX_SHARDS
    ):
        raise SettingsError(
            f"GAMEROOM_SHARD_COUNT must be a whole number from 1 to {MAX_SHARDS}, "
            f"not {count_text!r}"
        )
    count = int(count_text)
    if ids_text is None:
        return {"shard_count": count, "shard_ids": None}
    parts = [part.strip() for part in ids_text.split(",")]
    if not all(p.isascii() and p.isdigit() and int(p) < count for p in parts) or len(
        set(parts)
    ) != len(parts):
        raise SettingsError(
            f"GAMEROOM_SHARD_IDS must be distinct shard numbers below {count}, like 0,1; "
            f"not {ids_text!r}"
        )
    return {"shard_count": count, "shard_ids": tuple(sorted(int(p) for p in parts))}


def _parse_ai_workers(text: str | None) -> int:
    if text is None:
        return DEFAULT_AI_WORKERS
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_AI_WORKERS:
        raise SettingsError(
            f"GAMEROOM_AI_WORKERS must be a whole number from 1 to {MAX_AI_WORKERS}, not {text!r}"
        )
    return int(text)


def _parse_seed(text: str | None) -> int | None:
    if text is None:
        return None
    if not text.isdigit() or int(text) >= 1 << 63:
        raise SettingsError("GAMEROOM_GAME_SEED must be a whole number from 0 to 2**63-1")
    return int(text)


def _parse_log_level(text: str | None) -> str:
    if text is None:
        return "INFO"
    level = text.upper()
    if level not in LOG_LEVELS:
        raise SettingsError(f"GAMEROOM_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
    return level


def _parse_db_url(text: str | None) -> str:
    """``GAMEROOM_DB_URL``: a SQLAlchemy URL of a driver the bot runs on
    (:data:`db.engine.SUPPORTED_DRIVERS`), else the default SQLite file. Checked before the
    bot logs in, so a typo is one line naming the setting, not a traceback after login."""
    if not text:
        return DEFAULT_DB_URL
    problem = url_problem(text)
    if problem is not None:
        raise SettingsError(f"GAMEROOM_DB_URL {problem} ({shown_url(text)})")
    return text


def _parse_duration(
    name: str,
    text: str | None,
    default: timedelta,
    *,
    minimum: timedelta = timedelta(seconds=1),
) -> timedelta:
    """``text`` read by :func:`bot.service.clocks.parse_duration` (a bare number is seconds),
    from ``minimum`` to 365 days; ``default`` when unset."""
    if text is None:
        return default
    try:
        duration = parse_duration(text, bare_unit="s")
    except (ValueError, OverflowError):
        duration = None
    if duration is None or duration < minimum:
        kind = "a duration" if minimum <= timedelta(0) else "a positive duration"
        raise SettingsError(
            f"{name} must be {kind} like 3600, 90s, 30m, 24h, 7d or 3d 12h, "
            f"not {text!r}"
            + (f" (at least {int(minimum.total_seconds())}s)" if duration is not None else "")
        )
    if duration > _MAX_DURATION:
        raise SettingsError(f"{name} must be at most 365d, not {text!r}")
    return duration


def _parse_clock(text: str | None) -> str:
    if text is None:
        return str(ClockSpec.NONE)
    try:
        return str(ClockSpec.parse(text))
    except (ValueError, OverflowError) as exc:
        raise SettingsError(
            f"GAMEROOM_DEFAULT_CLOCK must be none, correspondence or a clock like "
            f"hard:3d+1d/7d, not {text!r}: {exc}"
        ) from None


def _parse_vacation_days(text: str | None) -> int:
    if text is None:
        return DEFAULT_VACATION_DAYS
    if not (text.isascii() and text.isdigit()) or int(text) > _MAX_VACATION_DAYS:
        raise SettingsError(
            f"GAMEROOM_VACATION_DAYS must be a whole number of days from 0 to "
            f"{_MAX_VACATION_DAYS}, not {text!r}"
        )
    return int(text)
