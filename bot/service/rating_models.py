"""What ``/rating`` and ``/leaderboard`` are given: a user's ratings per game and the leaderboard
of one game (frozen records, like :mod:`bot.service.models`, built by
:mod:`bot.service.ratings`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

__all__ = ["GameRating", "Leaderboard", "LeaderboardEntry", "RatingProfile"]


@dataclass(frozen=True, slots=True)
class GameRating:
    """A user's rating in one game, as shown, with their record in it and (for the profile
    card) its history: ``history`` is ``(when, rating)`` after each rated game, oldest first;
    ``best_win`` the strongest opponent beaten, ``(user id, their rating then, game id)``."""

    game: str
    game_name: str
    rating: int
    provisional: bool
    games: int
    wins: int
    draws: int
    losses: int
    last_played_at: datetime
    history: tuple[tuple[datetime, int], ...] = ()
    best_win: tuple[int, int, int] | None = None


@dataclass(frozen=True, slots=True)
class RatingProfile:
    """``/rating``: ``user_id``'s ratings, the asked-for (or most played) game first."""

    user_id: int
    ratings: tuple[GameRating, ...]


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """One line of a leaderboard: ``place`` (1-based), the rating shown, rated games, and
    ``trend``: the change over the entry's last rated games (``TREND_GAMES``)."""

    place: int
    user_id: int
    rating: int
    games: int
    trend: int
    provisional: bool = False
    """Whether the rating is still provisional (only the caller's own line can be: the
    board lists settled ratings)."""


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """``/leaderboard``: the best ``entries`` of ``game`` in ``scope`` (``server`` or
    ``global``) and the caller's own place (``None``: not on the board, ``caller_note`` says
    why)."""

    game: str
    game_name: str
    scope: str
    entries: tuple[LeaderboardEntry, ...]
    caller: LeaderboardEntry | None
    caller_note: str
    as_of: datetime
