"""Who the bot is when it holds a seat: reserved user ids, one identity per level.

A seat the bot plays is stored like any other, with a *bot user id* in place of a Discord
user id. Discord user ids are positive snowflakes, so a negative id can never belong to a
person; the bot uses ``-(level * 100 + k)`` (``k`` = 0, 1, … for several bots of one level
in one game, so each has its own place in a lobby). Everything that needs the level reads it
back from the id: the board's "Gameroom (level 3)", the search budget, and the rating
identity (one per level, :func:`bot_identity`), so bots are rated like players and anchor
the scale.

Pure: no database access, no Discord, no search (the levels themselves are
:mod:`ai.levels`). :func:`is_anonymous`, the database's rule for the ids ``/forget-me`` gives
(:mod:`db.ratings`), is re-exported here beside :func:`is_bot`, so the presenters tell every
kind of seat apart without importing the database package.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from ai.levels import LEVELS
from db.ratings import is_anonymous

__all__ = [
    "BOT_ID_LIMIT",
    "BOT_NAME",
    "DEFAULT_BOT_LEVEL",
    "bot_identity",
    "bot_level",
    "bot_name",
    "bot_user_id",
    "is_anonymous",
    "is_bot",
    "is_practice",
    "people",
]

#: Bot user ids lie strictly between ``-BOT_ID_LIMIT`` and ``-99`` (Discord's are positive).
BOT_ID_LIMIT: Final = 1000
#: How the bot is called in seat lists and pictures.
BOT_NAME: Final = "Gameroom"
#: The level of a bot challenged without one: "casual", beatable while one learns a game.
DEFAULT_BOT_LEVEL: Final = 2
_PER_LEVEL: Final = 100


def bot_user_id(level: int, instance: int = 0) -> int:
    """The user id of the ``instance``-th bot of ``level`` (1–5) in one game or lobby.

    Raises :class:`ValueError` for a level outside 1–5 or an instance outside 0–99.
    """
    if not 1 <= level <= len(LEVELS):
        raise ValueError(f"bot levels are 1 to {len(LEVELS)}, not {level}")
    if not 0 <= instance < _PER_LEVEL:
        raise ValueError(f"a game has at most {_PER_LEVEL} bots of one level")
    return -(level * _PER_LEVEL + instance)


def is_bot(user_id: int) -> bool:
    """Whether ``user_id`` is one of the bot's seats rather than a person."""
    return -BOT_ID_LIMIT < user_id <= -_PER_LEVEL


def people(user_ids: Iterable[int]) -> tuple[int, ...]:
    """The ``user_ids`` that are people (not the bot's seats), in order, without repeats."""
    return tuple(dict.fromkeys(u for u in user_ids if not is_bot(u)))


def is_practice(user_ids: Iterable[int], *, rated: bool) -> bool:
    """Whether a game of these players (user ids, one per seat) is practice: casual, and one
    person against bots only. ``/hint`` is given there alone (a decision of ours,
    docs/bots.md "Hints"; :meth:`bot.service.bots.Bots.hint`), and its first post says so."""
    return not rated and len({u for u in user_ids if not is_bot(u)}) == 1


def bot_level(user_id: int) -> int | None:
    """The level (1–5) of a bot user id; ``None`` for a person."""
    return -user_id // _PER_LEVEL if is_bot(user_id) else None


def bot_identity(user_id: int) -> int:
    """The id ratings use: every bot of one level is one player (``-level * 100``); a
    person is themselves."""
    level = bot_level(user_id)
    return user_id if level is None else -level * _PER_LEVEL


def bot_name(user_id: int) -> str:
    """``"Gameroom (level 3)"`` for a bot user id. Raises :class:`ValueError` for a person."""
    level = bot_level(user_id)
    if level is None:
        raise ValueError(f"user {user_id} is not a bot seat")
    return f"{BOT_NAME} (level {level})"
