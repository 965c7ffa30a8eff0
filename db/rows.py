"""The small frozen records the repositories take and return (never SQLAlchemy rows).

All timestamps are timezone-aware UTC datetimes. JSON fields (``*_json``) are text the
database stores without parsing: the service and the engines own their shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from db.schema import ChallengePlayerRole, ChallengePlayerStatus, ChallengeStatus, GameStatus

__all__ = [
    "ChallengeEntry",
    "ChallengePlayerRow",
    "ChallengeRow",
    "GameRow",
    "MoveRow",
    "NewMove",
    "SeatRow",
    "decode_seats",
    "encode_seats",
    "require_aware",
]


def require_aware(name: str, value: datetime) -> None:
    """Raise :class:`ValueError` unless ``value`` is a timezone-aware datetime.

    Repositories call it on every timestamp they are given, so a naive datetime fails at
    the call with a clear message rather than deep inside SQLAlchemy.
    """
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{name}={value!r} is naive: pass an aware datetime (UTC)")


def encode_seats(seats: Sequence[int]) -> str:
    """``(0, 2) -> "0,2"``, ``() -> ""``: the ``games.to_move`` column format.

    Raises :class:`TypeError` for a string (a common slip: ``"0"`` is not a seat list).
    """
    if isinstance(seats, str):
        raise TypeError(f"to_move must be a sequence of seat numbers, not the string {seats!r}")
    return ",".join(str(int(seat)) for seat in seats)


def decode_seats(text: str) -> tuple[int, ...]:
    """``"0,2" -> (0, 2)``, ``"" -> ()``: the inverse of :func:`encode_seats`."""
    return tuple(int(part) for part in text.split(",")) if text else ()


@dataclass(frozen=True, slots=True)
class GameRow:
    """One row of ``games``: a game in a channel or thread, and where it stands.

    ``version`` is the compare-and-set token every write must quote (1 at creation, +1 on
    every committed change). ``to_move`` holds the seats that may act now, empty once the
    game is over. ``guild_id`` is ``None`` in a direct message.
    """

    id: int
    guild_id: int | None
    channel_id: int
    parent_channel_id: int | None
    game: str
    options_json: str
    rules_version: str
    seed: int
    status: GameStatus
    version: int
    ply: int
    to_move: tuple[int, ...]
    state_json: str
    outcome_json: str | None
    termination: str | None
    draw_offer_seat: int | None
    board_message_id: int | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None

    @property
    def is_active(self) -> bool:
        """True while the game accepts moves."""
        return self.status is GameStatus.ACTIVE


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One row of ``seats``: which Discord user plays seat ``seat`` (0-based) of a game."""

    game_id: int
    seat: int
    user_id: int
    team: int | None


@dataclass(frozen=True, slots=True)
class NewMove:
    """A move to append to the log with :meth:`db.GamesRepo.commit_moves`.

    ``ply`` counts from 1 (the first move of a game is ply 1) and is unique per game.
    ``seat`` is ``None`` for a chance node (an outcome the service sampled). ``text`` is the
    engine's canonical move string; ``events_json`` the engine's events as JSON text.
    """

    ply: int
    seat: int | None
    text: str
    events_json: str

    def __post_init__(self) -> None:
        if self.ply < 1:
            raise ValueError(f"plies count from 1, got ply {self.ply}")


@dataclass(frozen=True, slots=True)
class MoveRow:
    """One row of the append-only move log (``moves``)."""

    game_id: int
    ply: int
    seat: int | None
    text: str
    events_json: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class ChallengePlayerRow:
    """One user listed in a challenge's lobby (a row of ``challenge_players``).

    ``role`` says how they came (challenger, invited, joined), ``status`` where they stand
    (invited, seated, declined, left); ``updated_at`` is when the status last changed.
    """

    user_id: int
    role: ChallengePlayerRole
    status: ChallengePlayerStatus
    created_at: datetime
    updated_at: datetime

    @property
    def holds_seat(self) -> bool:
        """True while the user is invited (seat reserved) or seated."""
        return self.status.holds_seat


@dataclass(frozen=True, slots=True)
class ChallengeEntry:
    """A user's new place in a lobby, for :meth:`db.ChallengesRepo.enter` and
    :meth:`db.GamesRepo.create`: stored as given, on a new row or over the user's old one."""

    user_id: int
    role: ChallengePlayerRole
    status: ChallengePlayerStatus


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    """One row of ``challenges`` with its lobby.

    ``players`` is the number of seats; ``lobby`` lists every user who was ever in it, in
    listing order (challenger first, then invited players in the order named, then those who
    joined). ``version`` is the lobby's compare-and-set token. ``message_id`` is the message
    showing the challenge (once posted); ``game_id`` the game it became once accepted.
    """

    id: int
    guild_id: int | None
    channel_id: int
    message_id: int | None
    challenger_id: int
    game: str
    options_json: str
    players: int
    status: ChallengeStatus
    version: int
    game_id: int | None
    created_at: datetime
    expires_at: datetime
    resolved_at: datetime | None
    lobby: tuple[ChallengePlayerRow, ...]

    @property
    def is_open(self) -> bool:
        """True while the challenge waits for its seats to fill (it may still be past
        ``expires_at`` until :meth:`db.ChallengesRepo.expire_due` marks it)."""
        return self.status is ChallengeStatus.OPEN

    def entry_of(self, user_id: int) -> ChallengePlayerRow | None:
        """The lobby row of ``user_id``, or ``None`` if they were never in this lobby."""
        for player in self.lobby:
            if player.user_id == user_id:
                return player
        return None

    @property
    def seated_ids(self) -> tuple[int, ...]:
        """Users who hold a seat, in listing order (the challenger first)."""
        return tuple(p.user_id for p in self.lobby if p.status is ChallengePlayerStatus.SEATED)

    @property
    def open_seats(self) -> int:
        """Seats neither held nor reserved for an invited player."""
        return self.players - sum(1 for p in self.lobby if p.holds_seat)
