"""The small frozen records the repositories take and return (never SQLAlchemy rows).

All timestamps are timezone-aware UTC datetimes. JSON fields (``*_json``) are text the
database stores without parsing: the service and the engines own their shape.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from db.schema import (
    BoardPerspective,
    ChallengePlayerRole,
    ChallengePlayerStatus,
    ChallengeStatus,
    GameStatus,
    ReminderDelivery,
    ThreadPolicy,
    TimerStatus,
)

__all__ = [
    "ChallengeEntry",
    "ChallengePlayerRow",
    "ChallengeRow",
    "GameRow",
    "MoveRow",
    "NewMove",
    "SeatRow",
    "decode_mask",
    "decode_seats",
    "encode_mask",
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


def encode_mask(seats: Iterable[int]) -> int:
    """``{0, 2} -> 0b101``: a set of seats as the bit mask ``games.draw_agreed`` stores."""
    mask = 0
    for seat in seats:
        if seat < 0:
            raise ValueError(f"a seat is 0 or more, not {seat}")
        mask |= 1 << seat
    return mask


def decode_mask(mask: int | None) -> tuple[int, ...]:
    """``0b101 -> (0, 2)``, ``None -> ()``: the inverse of :func:`encode_mask`, in seat order."""
    if not mask:
        return ()
    return tuple(seat for seat in range(mask.bit_length()) if mask >> seat & 1)


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
    takeback_seat: int | None
    clock: str
    board_message_id: int | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    #: The custom position the game started from (position notation), ``None``: the standard one.
    start_position: str | None = None
    #: Whether the game counts for ratings (the challenge's ``rated`` option).
    rated: bool = False
    #: How many users watch the game: 0 means nobody does; never too low, and after two
    #: watches of one user raced, possibly too high (``WatchersRepo`` keeps it).
    watchers: int = 0
    #: The seats that have agreed to the open draw offer (``draw_offer_seat``'s among them),
    #: in seat order; empty while no offer is open (migration 0011).
    draw_agreed: tuple[int, ...] = ()

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
    ``clock`` is the clock's canonical text (``none``); ``seating`` the user ids in seat
    order when fixed (a rematch), else ``None`` (drawn at the start); ``rematch_of`` the game
    this challenge is a rematch of.
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
    clock: str = "none"
    seating: tuple[int, ...] | None = None
    rematch_of: int | None = None
    #: The custom start position (the game's position notation), ``None``: the standard one.
    start_position: str | None = None
    #: Whether the game it starts counts for ratings (``/challenge rated:``; migration 0006).
    rated: bool = True

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


# ------------------------------------------------------------------------------------------
# Clocks and durable timers
# ------------------------------------------------------------------------------------------

__all__ += ["ClockRow", "ClockWrite", "NewClock", "NewTimer", "TimerRow", "VacationRow"]


@dataclass(frozen=True, slots=True)
class NewTimer:
    """A timer to schedule with :meth:`db.timers.TimersRepo.schedule` (or in a caller's
    transaction with :func:`db.timers.schedule_timer`).

    ``kind`` names the handler that will run it (at most 32 characters); ``game_id`` and
    ``seat`` say what it concerns (``seat`` needs ``game_id``); ``payload_json`` is JSON text
    for the handler. Raises :class:`ValueError` for a naive ``due_at``, an empty or too long
    ``kind``, or a seat without a game.
    """

    kind: str
    due_at: datetime
    game_id: int | None = None
    seat: int | None = None
    payload_json: str = "{}"

    def __post_init__(self) -> None:
        require_aware("due_at", self.due_at)
        if not 0 < len(self.kind) <= 32:
            raise ValueError(f"a timer kind has 1 to 32 characters, not {self.kind!r}")
        if self.seat is not None and self.game_id is None:
            raise ValueError("a timer for a seat needs its game_id")


@dataclass(frozen=True, slots=True)
class TimerRow:
    """One row of ``timers``.

    ``status`` is ``"pending"`` (waiting, or claimed and running when ``claimed_by`` is set),
    ``"fired"`` or ``"failed"``. ``attempts`` counts the claims so far; together with
    ``claimed_by`` it identifies one claim, so a worker whose claim was released as stale
    cannot mark the timer fired afterwards.
    """

    id: int
    kind: str
    game_id: int | None
    seat: int | None
    due_at: datetime
    payload_json: str
    status: TimerStatus
    attempts: int
    last_error: str | None
    claimed_by: str | None
    claimed_at: datetime | None
    fired_at: datetime | None
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class NewClock:
    """The time bank of one seat when a game with a clock starts.

    ``spec`` is the clock's canonical text (``"soft:48h+24h/96h"``, see
    :mod:`bot.service.clocks`); ``remaining_ms`` the bank in milliseconds;
    ``running_since`` when the seat's clock starts running (``None``: stopped; in the future:
    paused until then).
    """

    seat: int
    spec: str
    remaining_ms: int
    running_since: datetime | None

    def __post_init__(self) -> None:
        if self.running_since is not None:
            require_aware("running_since", self.running_since)


@dataclass(frozen=True, slots=True)
class ClockWrite:
    """A new value for an existing seat clock, written only if the row is still at
    ``expected_version`` (compare-and-set; see :func:`db.clocks.write_clocks`)."""

    game_id: int
    seat: int
    expected_version: int
    remaining_ms: int
    running_since: datetime | None

    def __post_init__(self) -> None:
        if self.running_since is not None:
            require_aware("running_since", self.running_since)


@dataclass(frozen=True, slots=True)
class ClockRow:
    """One row of ``clocks``: a seat's time bank.

    The bank is ``remaining_ms`` milliseconds at ``running_since``. ``running_since`` is
    ``None`` while the clock is stopped (not the seat's turn) and in the future while it is
    paused for a vacation. ``version`` is the row's compare-and-set token.
    """

    game_id: int
    seat: int
    spec: str
    remaining_ms: int
    running_since: datetime | None
    version: int
    updated_at: datetime

    @property
    def remaining(self) -> timedelta:
        """``remaining_ms`` as a :class:`~datetime.timedelta`."""
        return timedelta(milliseconds=self.remaining_ms)


@dataclass(frozen=True, slots=True)
class VacationRow:
    """One row of ``vacations``: what a user booked and until when.

    ``used_ms`` is the vacation (milliseconds) booked in UTC calendar year ``year``;
    ``started_at``/``until`` bound the current or last vacation (``None`` before the first).
    ``version`` is the row's compare-and-set token.
    """

    user_id: int
    year: int
    used_ms: int
    started_at: datetime | None
    until: datetime | None
    version: int
    updated_at: datetime

    @property
    def used(self) -> timedelta:
        """``used_ms`` as a :class:`~datetime.timedelta`."""
        return timedelta(milliseconds=self.used_ms)


@dataclass(frozen=True, slots=True)
class TimerCancel:
    """Which pending timers of a game to delete: every seat's and the game-wide ones when
    ``seat`` is ``None``, every kind when ``kinds`` is ``None``."""

    game_id: int
    seat: int | None = None
    kinds: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class ClockChanges:
    """Clock writes and timer changes that belong together (a move, a vacation), applied in
    one transaction by :func:`db.clocks.apply_clock_changes`: cancellations first, then the
    clock writes (compare-and-set each), then the new timers."""

    writes: tuple[ClockWrite, ...] = ()
    schedule: tuple[NewTimer, ...] = ()
    cancel: tuple[TimerCancel, ...] = ()
    #: ``(user_id, version)`` of each vacation row the plan was made with (``None``: the user
    #: had none): checked first, so a clock started for a player is never left running by a
    #: vacation booked at the same moment (raises :class:`db.clocks.VacationChangedError`).
    vacations_seen: tuple[tuple[int, int | None], ...] = ()
    #: ``(game_id, seat, version)`` of each clock a vacation's plan read and leaves as it is
    #: (one already out of time is not paused): the vacation's write accepts it running,
    #: at that version, beside the clocks it writes.
    kept: tuple[tuple[int, int, int], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.writes or self.schedule or self.cancel or self.vacations_seen)


__all__ += ["ClockChanges", "TimerCancel"]


# ------------------------------------------------------------------------------------------
# Settings and spectators (migration 0004)
# ------------------------------------------------------------------------------------------

__all__ += ["GuildSettingsRow", "UserSettingsRow", "WatcherRow"]


@dataclass(frozen=True, slots=True)
class GuildSettingsRow:
    """A guild's settings (``guild_settings``), or the defaults when it has no row
    (``updated_at`` ``None``). ``reminder_quiet_s`` ``None``: the bot's default quiet time."""

    guild_id: int
    threads: ThreadPolicy = ThreadPolicy.WHEN_BUSY
    reminder_quiet_s: int | None = None
    updated_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class UserSettingsRow:
    """A user's settings (``user_settings``), or the defaults when they have no row
    (``updated_at`` ``None``). ``reminder_quiet_s`` ``None``: the guild's quiet time."""

    user_id: int
    reminders: ReminderDelivery = ReminderDelivery.CHANNEL
    reminder_quiet_s: int | None = None
    updated_at: datetime | None = None
    #: Whose side the user's own pictures are drawn from; ``None``: the default (``mine``).
    board_perspective: BoardPerspective | None = None
    #: Left out of global leaderboards (``/settings privacy``).
    leaderboard_hidden: bool = False


@dataclass(frozen=True, slots=True)
class WatcherRow:
    """One row of ``watchers``: ``user_id`` follows game ``game_id`` (at its end, and after
    every move when ``every_move``)."""

    game_id: int
    user_id: int
    every_move: bool
    created_at: datetime


# ------------------------------------------------------------------------------------------
# Ratings (migration 0006)
# ------------------------------------------------------------------------------------------

__all__ += ["RatedGame", "RatingChangeRow", "RatingHook", "RatingRow", "RatingUpdate"]


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One row of ``ratings``: rating identity ``user_id``'s rating in ``game``."""

    user_id: int
    game: str
    mu: float
    sigma: float
    rating: float
    games: int
    wins: int
    draws: int
    losses: int
    last_game_id: int
    last_played_at: datetime


@dataclass(frozen=True, slots=True)
class RatingChangeRow:
    """One row of ``rating_changes``: what rated game ``game_id`` did to ``user_id``."""

    game_id: int
    user_id: int
    game: str
    guild_id: int | None
    seat: int
    place: int
    result: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    rating_before: float
    rating_after: float
    at: datetime


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A finished rated game as the rating rebuild reads it: the row and its seats' user
    ids (seat order) and teams."""

    row: GameRow
    user_ids: tuple[int, ...]
    #: Log rows a seat played (chance outcomes not counted).
    seat_plies: int = 0


#: A rating update: given the current ``ratings`` rows of the identities it names (absent:
#: never rated), the rows to write and one history row per identity.
RatingUpdate = Callable[
    [Mapping[int, RatingRow]], tuple[Sequence[RatingRow], Sequence[RatingChangeRow]]
]


@dataclass(slots=True)
class RatingHook:
    """Passed to :meth:`db.GamesRepo.commit_moves` / :meth:`~db.GamesRepo.finish` for a
    write that ends a rated game: inside the write transaction, after the compare-and-set,
    the ``ratings`` rows of ``user_ids`` in ``game`` are read (locked), ``update`` computes
    the new rows, and both are written. ``written`` holds the history rows once it ran."""

    game: str
    user_ids: tuple[int, ...]
    update: RatingUpdate
    written: tuple[RatingChangeRow, ...] = ()
