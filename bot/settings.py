"""Typed settings read once from the environment and an optional ``.env`` file.

Every knob of the running bot lives here, so a newcomer can see them all in one screen:

==============================  ============================================================
``DISCORD_TOKEN``               the bot token (required)
``GAMEROOM_DB_URL``             SQLAlchemy URL; default ``sqlite+aiosqlite:///data/gameroom.db``
``GAMEROOM_DEV_GUILD``          guild id to sync slash commands to instantly (else global sync)
``GAMEROOM_DISCORD_API_BASE``   REST base including the version, e.g.
                                ``http://127.0.0.1:8080/api/v10`` (tests point it at a fake)
``GAMEROOM_DISCORD_GATEWAY``    gateway URL, e.g. ``ws://127.0.0.1:8080/gateway``
``GAMEROOM_LOG_LEVEL``          ``DEBUG``, ``INFO`` (default), ``WARNING``, ``ERROR``
``GAMEROOM_CHALLENGE_TTL``      how long a challenge stays open: seconds (``3600``) or a
                                number with a unit ``s``/``m``/``h``/``d`` (``30m``); default 24h
``GAMEROOM_GAME_SEED``          for tests and bug reports only: every new game gets this
                                seed (0 … 2**63-1), so its seats, dice and draws repeat;
                                unset (the default) draws a secret seed per game
==============================  ============================================================

Values already in the environment win over the ``.env`` file.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

from dotenv import dotenv_values

__all__ = ["DEFAULT_CHALLENGE_TTL", "DEFAULT_DB_URL", "Settings", "SettingsError"]

DEFAULT_DB_URL = "sqlite+aiosqlite:///data/gameroom.db"
DEFAULT_CHALLENGE_TTL = timedelta(hours=24)
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

_DURATION = re.compile(r"(?P<amount>\d+)\s*(?P<unit>[smhd]?)")
_UNIT_SECONDS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


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

    def __repr__(self) -> str:
        # The token must never reach a log line.
        return (
            f"Settings(db_url={self.db_url!r}, dev_guild_id={self.dev_guild_id!r}, "
            f"discord_api_base={self.discord_api_base!r}, "
            f"discord_gateway={self.discord_gateway!r}, log_level={self.log_level!r}, "
            f"challenge_ttl={self.challenge_ttl!r}, game_seed={self.game_seed!r})"
        )

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
            db_url=get("GAMEROOM_DB_URL") or DEFAULT_DB_URL,
            dev_guild_id=_parse_snowflake("GAMEROOM_DEV_GUILD", get("GAMEROOM_DEV_GUILD")),
            discord_api_base=_parse_url(
                "GAMEROOM_DISCORD_API_BASE", get("GAMEROOM_DISCORD_API_BASE"), ("http", "https")
            ),
            discord_gateway=_parse_url(
                "GAMEROOM_DISCORD_GATEWAY", get("GAMEROOM_DISCORD_GATEWAY"), ("ws", "wss")
            ),
            log_level=_parse_log_level(get("GAMEROOM_LOG_LEVEL")),
            challenge_ttl=_parse_duration("GAMEROOM_CHALLENGE_TTL", get("GAMEROOM_CHALLENGE_TTL")),
            game_seed=_parse_seed(get("GAMEROOM_GAME_SEED")),
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


def _parse_duration(name: str, text: str | None) -> timedelta:
    if text is None:
        return DEFAULT_CHALLENGE_TTL
    match = _DURATION.fullmatch(text.lower())
    if match is None or int(match["amount"]) == 0:
        raise SettingsError(
            f"{name} must be a positive duration like 3600, 90s, 30m, 24h or 7d, not {text!r}"
        )
    return timedelta(seconds=int(match["amount"]) * _UNIT_SECONDS[match["unit"]])
