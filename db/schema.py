"""The tables, declared once with SQLAlchemy Core; Alembic migrations must match them.

``tests/db`` compares this :data:`metadata` with the database the migrations build
(``alembic.autogenerate.compare_metadata``), so a column added here without a migration fails
the tests. Everything here is portable between SQLite and PostgreSQL: Discord ids (snowflakes,
64-bit) are ``BigInteger``, timestamps are timezone-aware UTC, and the one partial index carries
both ``sqlite_where`` and ``postgresql_where``.

Engine data (options, state, events, outcome) is JSON *text* the database never parses.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.expression import false, true
from sqlalchemy.types import TypeDecorator

__all__ = [
    "ACTIVE_GAME_PER_CHANNEL_INDEX",
    "OPEN_REMATCH_INDEX",
    "ChallengePlayerRole",
    "ChallengePlayerStatus",
    "ChallengeStatus",
    "GameStatus",
    "UTCDateTime",
    "challenge_players",
    "challenges",
    "games",
    "metadata",
    "moves",
    "seats",
]


class GameStatus(StrEnum):
    """Lifecycle of a row in ``games``. Only ``ACTIVE`` games accept moves."""

    ACTIVE = "active"
    """Being played; at most one per channel or thread."""
    FINISHED = "finished"
    """Ended by the rules, a resignation or an agreed draw; ``outcome`` says how."""
    ABORTED = "aborted"
    """Stopped without a result (abandoned, cancelled by a moderator)."""


class ChallengeStatus(StrEnum):
    """Lifecycle of a row in ``challenges``. Every status but ``OPEN`` is final."""

    OPEN = "open"
    """The lobby: waiting for invited players to answer and for open seats to fill."""
    ACCEPTED = "accepted"
    """Its game started (every seat filled, or the challenger pressed Start); ``game_id``
    names the game it became."""
    DECLINED = "declined"
    """Refused by the invited player of a two-seat challenge (with more seats, a refusal only
    frees that player's seat)."""
    CANCELLED = "cancelled"
    """Withdrawn by the challenger."""
    EXPIRED = "expired"
    """Nobody answered before ``expires_at``."""


class ChallengePlayerRole(StrEnum):
    """How a user came to be listed in a challenge's lobby (``challenge_players.role``)."""

    CHALLENGER = "challenger"
    """Made the challenge; holds a seat from the start and can only cancel, not leave."""
    INVITED = "invited"
    """Named by the challenger; a seat was reserved for them."""
    JOINED = "joined"
    """Took an open seat."""
    BOT = "bot"
    """A seat the challenger gave the bot (its user id is a reserved bot id, see
    ``bot/service/bot_seats.py``); seated at once."""


class ChallengePlayerStatus(StrEnum):
    """Where a listed user stands in a lobby (``challenge_players.status``).

    ``INVITED`` and ``SEATED`` hold one of the challenge's seats; ``DECLINED`` and ``LEFT``
    hold none (their seat is open again).
    """

    INVITED = "invited"
    """Invited and not answered yet: the seat is reserved."""
    SEATED = "seated"
    """Holds a seat: the challenger, an invited player who accepted, or one who joined."""
    DECLINED = "declined"
    """Invited, said no."""
    LEFT = "left"
    """Held a seat and gave it up before the game started."""

    @property
    def holds_seat(self) -> bool:
        """True for ``INVITED`` and ``SEATED``: the user counts against the seats."""
        return self in (ChallengePlayerStatus.INVITED, ChallengePlayerStatus.SEATED)


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC timestamp on every backend.

    PostgreSQL stores ``timestamp with time zone``. SQLite has no such type: SQLAlchemy stores
    ISO text without an offset, so values are converted to UTC before they are written (which
    also keeps text comparisons such as ``expires_at <= now`` correct) and marked UTC again when
    read. Naive datetimes are refused with :class:`ValueError`: a timestamp without a zone is a
    bug in the caller.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"naive datetime {value!r}: pass an aware datetime (UTC)")
        value = value.astimezone(UTC)
        if dialect.name == "sqlite":
            return value.replace(tzinfo=None)
        return value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if not isinstance(value, datetime):  # pragma: no cover - drivers always give datetimes
            raise TypeError(f"expected a datetime from the database, got {value!r}")
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


#: Constraint names follow one convention so later migrations (and SQLite batch migrations,
#: which recreate tables) can refer to them by name.
metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

games = Table(
    "games",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    # Where the game lives. guild_id is NULL in a direct message; channel_id is the channel or
    # thread the game is played in; parent_channel_id the channel a thread hangs off.
    Column("guild_id", BigInteger, nullable=True),
    Column("channel_id", BigInteger, nullable=False),
    Column("parent_channel_id", BigInteger, nullable=True),
    # What is played: the engine id ("generatorb"), its options as JSON, the rules version the
    # state was made with and the seed of the game's random generator.
    Column("game", String(32), nullable=False),
    Column("options", Text, nullable=False),
    Column("rules_version", String(32), nullable=False),
    Column("seed", BigInteger, nullable=False),
    # Where it stands. version is the compare-and-set token: 1 at creation, +1 on every
    # committed change. to_move is the comma-separated seats that may act ("" once over).
    Column("status", String(16), nullable=False),
    Column("version", Integer, nullable=False),
    Column("ply", Integer, nullable=False),
    Column("to_move", String(64), nullable=False),
    Column("state", Text, nullable=False),
    Column("outcome", Text, nullable=True),
    Column("termination", String(32), nullable=True),
    Column("draw_offer_seat", Integer, nullable=True),
    # The seats that have agreed to the open draw offer, as a bit mask (bit k: seat k), the
    # offerer's included; set and cleared with ``draw_offer_seat`` (migration 0011).
    Column("draw_agreed", Integer, nullable=True),
    # The seat that asked to take its last move back, while the request is open (migration
    # 0004; like the draw offer, any committed move clears it).
    Column("takeback_seat", Integer, nullable=True),
    # The clock's canonical text (``none``, ``soft:48h+24h/96h``; bot/service/clocks.py), kept
    # here so listings need not read ``clocks``; the per-seat time banks are in ``clocks``.
    Column("clock", String(64), nullable=False, server_default="none"),
    Column("board_message_id", BigInteger, nullable=True),
    # How many users watch the game (rows of ``watchers``), kept by WatchersRepo in the same
    # transaction, so a board post skips reading the watchers when nobody watches (migration
    # 0008). Never too low; it may be too high after a race (then the read finds fewer).
    Column("watchers", Integer, nullable=False, server_default="0"),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    Column("finished_at", UTCDateTime, nullable=True),
    # The position the game started from in the game's position notation, or NULL for the
    # standard start (migration 0005; custom start positions).
    Column("start_position", Text, nullable=True),
    # Whether the game counts for ratings (migration 0006; the challenge's ``rated`` option).
    # Games from before ratings existed are casual.
    Column("rated", Boolean, nullable=False, server_default=false()),
    # The order in which the rating updates of rated games were applied (migration 0009): one
    # more than the largest ``ratings.seq`` of the game's identities when its ending wrote
    # them, so of two games that share an identity the one applied later has the larger
    # value. The rebuild replays in this order (NULL, games rated before 0009, first, then by
    # ``finished_at``). NULL for casual games.
    Column("rating_seq", BigInteger, nullable=True),
    # AUTOINCREMENT: SQLite never reuses the id of a deleted game, so a stale button
    # ("gr:<game_id>:...") can never reach a different game. PostgreSQL sequences never reuse.
    sqlite_autoincrement=True,
)

#: Name of the partial unique index that allows one active game per channel or thread.
ACTIVE_GAME_PER_CHANNEL_INDEX = "uq_games_channel_id_active"

Index(
    ACTIVE_GAME_PER_CHANNEL_INDEX,
    games.c.channel_id,
    unique=True,
    sqlite_where=games.c.status == GameStatus.ACTIVE.value,
    postgresql_where=games.c.status == GameStatus.ACTIVE.value,
)
Index(None, games.c.guild_id, games.c.status)

seats = Table(
    "seats",
    metadata,
    Column(
        "game_id",
        Integer,
        ForeignKey(games.c.id, ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("seat", Integer, primary_key=True),
    Column("user_id", BigInteger, nullable=False, index=True),
    # The seat's side by index when the options make teams (Orbs ``teams``), else NULL;
    # written when the game starts (bot.service.lobby._seat_teams; NULL before 2026-11-28).
    Column("team", Integer, nullable=True),
)

moves = Table(
    "moves",
    metadata,
    Column(
        "game_id",
        Integer,
        ForeignKey(games.c.id, ondelete="CASCADE"),
        primary_key=True,
    ),
    # Plies count from 1: the first logged move is ply 1.
    Column("ply", Integer, primary_key=True),
    # NULL at a chance node (a die roll, a shuffle sampled by the service).
    Column("seat", Integer, nullable=True),
    Column("text", String(255), nullable=False),
    Column("events", Text, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
)

challenges = Table(
    "challenges",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("guild_id", BigInteger, nullable=True),
    Column("channel_id", BigInteger, nullable=False),
    Column("message_id", BigInteger, nullable=True),
    Column("challenger_id", BigInteger, nullable=False),
    Column("game", String(32), nullable=False),
    Column("options", Text, nullable=False),
    # How many seats the game will have; who holds them is in challenge_players.
    Column("players", Integer, nullable=False),
    # The clock the game will be played with, canonical text (migration 0004).
    Column("clock", String(64), nullable=False, server_default="none"),
    # JSON list of user ids in seat order, or NULL to draw the seats at random when the game
    # starts. A rematch fixes it (seats rotated); migration 0004.
    Column("seating", Text, nullable=True),
    # The finished game this challenge is a rematch of (migration 0004). Not a foreign key:
    # SQLite cannot add one to an existing table without rebuilding it, and games are never
    # deleted while their challenges live.
    Column("rematch_of", Integer, nullable=True),
    Column("status", String(16), nullable=False),
    # Compare-and-set token of the lobby: 1 at creation, +1 on every change (a player joins,
    # accepts, declines or leaves; the challenge is answered or expires).
    Column("version", Integer, nullable=False),
    Column(
        "game_id",
        Integer,
        ForeignKey(games.c.id, ondelete="SET NULL"),
        nullable=True,
    ),
    Column("created_at", UTCDateTime, nullable=False),
    Column("expires_at", UTCDateTime, nullable=False),
    Column("resolved_at", UTCDateTime, nullable=True),
    # The position the game will start from (the game's position notation), or NULL for the
    # standard start (migration 0005).
    Column("start_position", Text, nullable=True),
    # Rated (the default) or casual; the game started from the challenge copies it
    # (migration 0006).
    Column("rated", Boolean, nullable=False, server_default=true()),
    sqlite_autoincrement=True,
)

#: Name of the partial unique index that allows one open rematch challenge per game (two
#: Rematch presses at the same instant, even in two processes, open one challenge).
OPEN_REMATCH_INDEX = "uq_challenges_rematch_of_open"

Index(
    OPEN_REMATCH_INDEX,
    challenges.c.rematch_of,
    unique=True,
    sqlite_where=challenges.c.status == ChallengeStatus.OPEN.value,
    postgresql_where=challenges.c.status == ChallengeStatus.OPEN.value,
)
Index(None, challenges.c.status, challenges.c.expires_at)
Index(None, challenges.c.channel_id)
# Finding the challenge that started a game (``challenge_of_game``; migration 0014).
Index(None, challenges.c.game_id)

#: Who is listed in a challenge's lobby, and how they stand. One row per user and challenge:
#: a user who leaves and joins again gets their row back.
challenge_players = Table(
    "challenge_players",
    metadata,
    Column(
        "challenge_id",
        Integer,
        ForeignKey(challenges.c.id, ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("user_id", BigInteger, primary_key=True),
    # ChallengePlayerRole and ChallengePlayerStatus values.
    Column("role", String(16), nullable=False),
    Column("status", String(16), nullable=False),
    # Order of the lobby listing: the challenger 0, invited players in the order named, then
    # players who joined, in the order they first joined.
    Column("ordinal", Integer, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
)

Index(None, challenge_players.c.user_id)


# ------------------------------------------------------------------------------------------
# Clocks and durable timers (migration 0003)
# ------------------------------------------------------------------------------------------

__all__ += [
    "LIVE_GAME_TIMER_INDEX",
    "LIVE_SEAT_TIMER_INDEX",
    "TimerStatus",
    "clocks",
    "timers",
    "vacations",
]


class TimerStatus(StrEnum):
    """Lifecycle of a row in ``timers``. A cancelled timer is deleted, not kept."""

    PENDING = "pending"
    """Waiting for ``due_at``, or claimed by a worker (``claimed_by`` set) and running."""
    FIRED = "fired"
    """Its handler ran and succeeded (``fired_at`` says when). Final."""
    FAILED = "failed"
    """Its handler failed on every allowed attempt; ``last_error`` says why. Final."""


#: A wake-up call stored in the database: due at ``due_at``, claimed by exactly one worker
#: (compare-and-set on ``claimed_by``), fired once. ``kind`` names the handler ("clock",
#: "reminder", "final_warning", "challenge_expiry", ...); ``payload`` is JSON text the
#: handler owns. ``attempts`` counts claims, so it is also the claim's token.
timers = Table(
    "timers",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(32), nullable=False),
    # The game and seat the timer concerns; both NULL for timers about no game.
    Column("game_id", Integer, ForeignKey(games.c.id, ondelete="CASCADE"), nullable=True),
    Column("seat", Integer, nullable=True),
    Column("due_at", UTCDateTime, nullable=False),
    Column("payload", Text, nullable=False),
    # TimerStatus values.
    Column("status", String(16), nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("last_error", Text, nullable=True),
    Column("claimed_by", String(128), nullable=True),
    Column("claimed_at", UTCDateTime, nullable=True),
    Column("fired_at", UTCDateTime, nullable=True),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    sqlite_autoincrement=True,
)

#: At most one pending timer per game, seat and kind (a seat's clock deadline, its reminder).
LIVE_SEAT_TIMER_INDEX = "uq_timers_game_id_seat_kind_pending"
#: At most one pending game-wide timer (``seat`` NULL) per game and kind. A separate index
#: because NULLs never collide in a unique index, on SQLite as on PostgreSQL.
LIVE_GAME_TIMER_INDEX = "uq_timers_game_id_kind_pending_game_wide"

Index(
    LIVE_SEAT_TIMER_INDEX,
    timers.c.game_id,
    timers.c.seat,
    timers.c.kind,
    unique=True,
    sqlite_where=timers.c.status == TimerStatus.PENDING.value,
    postgresql_where=timers.c.status == TimerStatus.PENDING.value,
)
Index(
    LIVE_GAME_TIMER_INDEX,
    timers.c.game_id,
    timers.c.kind,
    unique=True,
    sqlite_where=(timers.c.status == TimerStatus.PENDING.value) & timers.c.seat.is_(None),
    postgresql_where=(timers.c.status == TimerStatus.PENDING.value) & timers.c.seat.is_(None),
)
# The claim query: pending timers by due time.
Index(None, timers.c.status, timers.c.due_at)
Index(None, timers.c.game_id)

#: One time bank per seat of a game with a clock (games without a clock have no rows).
#: The bank is ``remaining_ms`` at ``running_since``; while the seat's clock runs, time left
#: is ``remaining_ms - (now - running_since)``. ``running_since`` NULL: stopped (not the
#: seat's turn). ``running_since`` in the future: paused until then (its player is on
#: vacation), after which it runs by itself. ``spec`` is the clock's canonical text
#: (``soft:48h+24h/96h``), per seat so that time odds stay possible.
clocks = Table(
    "clocks",
    metadata,
    Column("game_id", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("spec", String(64), nullable=False),
    Column("remaining_ms", BigInteger, nullable=False),
    Column("running_since", UTCDateTime, nullable=True),
    # Compare-and-set token: 1 at creation, +1 on every change.
    Column("version", Integer, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    ForeignKeyConstraint(
        ["game_id", "seat"],
        [seats.c.game_id, seats.c.seat],
        ondelete="CASCADE",
    ),
)

#: A user's vacation allowance and current vacation, one row per user. ``used_ms`` is the
#: vacation booked in the UTC calendar year ``year`` (a row from an earlier year means
#: nothing used this year); ``until`` is when the current or last vacation ends.
vacations = Table(
    "vacations",
    metadata,
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("year", Integer, nullable=False),
    Column("used_ms", BigInteger, nullable=False),
    Column("started_at", UTCDateTime, nullable=True),
    Column("until", UTCDateTime, nullable=True),
    # Compare-and-set token: 1 at creation, +1 on every change.
    Column("version", Integer, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
)


# ------------------------------------------------------------------------------------------
# Settings and spectators (migration 0004)
# ------------------------------------------------------------------------------------------

__all__ += [
    "BoardPerspective",
    "ReminderDelivery",
    "ThreadPolicy",
    "guild_settings",
    "user_settings",
    "watchers",
]


class ThreadPolicy(StrEnum):
    """Where a guild's new games are played (``guild_settings.threads``)."""

    ALWAYS = "always"
    """Every game gets its own thread off the challenge post."""
    WHEN_BUSY = "when_busy"
    """In the challenge's channel, or in a thread when that channel already has a game."""
    NEVER = "never"
    """Only in the challenge's channel; a busy channel refuses the start."""


class ReminderDelivery(StrEnum):
    """How a user wants to be reminded that it is their turn (``user_settings.reminders``)."""

    CHANNEL = "channel"
    """A mention in the game's channel or thread."""
    DM = "dm"
    """A direct message (falling back to the channel when DMs are closed)."""
    OFF = "off"
    """No reminders (a clock's final warning still comes, in the channel)."""


class BoardPerspective(StrEnum):
    """From whose side a user's own pictures are drawn (``user_settings.board_perspective``,
    migration 0005; NULL is :attr:`MINE`)."""

    MINE = "mine"
    """``/board``, My view and the ephemeral acknowledgements from the user's own seat."""
    FIXED = "fixed"
    """Always the game's one fixed orientation."""


#: Per-guild settings; a guild without a row uses the defaults (``when_busy``, the bot's
#: default quiet time). ``reminder_quiet_s``: seconds without a move before the player to move
#: is first reminded (NULL: the bot's setting ``GAMEROOM_REMINDER_QUIET``).
guild_settings = Table(
    "guild_settings",
    metadata,
    Column("guild_id", BigInteger, primary_key=True, autoincrement=False),
    Column("threads", String(16), nullable=False),
    Column("reminder_quiet_s", Integer, nullable=True),
    Column("updated_at", UTCDateTime, nullable=False),
)

#: Per-user settings; a user without a row gets reminders in the channel after the guild's
#: quiet time. ``reminder_quiet_s`` NULL: the guild's quiet time.
user_settings = Table(
    "user_settings",
    metadata,
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("reminders", String(16), nullable=False),
    Column("reminder_quiet_s", Integer, nullable=True),
    Column("updated_at", UTCDateTime, nullable=False),
    # Whose side a user's own pictures are drawn from: ``mine`` or ``fixed``
    # (:class:`BoardPerspective`); NULL: the default, ``mine`` (migration 0005).
    Column("board_perspective", String(8), nullable=True),
    # True: left out of global leaderboards (``/settings privacy``; migration 0006). NULL: shown.
    Column("leaderboard_hidden", Boolean, nullable=True),
)

#: Who follows which game (``/watch``, the Watch button). ``every_move``: notified after every
#: move, not only at the end.
watchers = Table(
    "watchers",
    metadata,
    Column(
        "game_id",
        Integer,
        ForeignKey(games.c.id, ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("every_move", Boolean, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
)

Index(None, watchers.c.user_id)


# ------------------------------------------------------------------------------------------
# Ratings (migration 0006; docs/ratings.md)
# ------------------------------------------------------------------------------------------

__all__ += ["ANONYMOUS_ID_BASE", "anonymous_ids", "rating_changes", "ratings"]

#: Forgotten users (``/forget-me``) get the user id ``-ANONYMOUS_ID_BASE - n`` for the ``n``
#: of their row in :data:`anonymous_ids`: negative (never a Discord id) and far below the
#: bot's seats (``bot/service/bot_seats.py``).
ANONYMOUS_ID_BASE = 10**12

#: One rating per rating identity and game: a person's user id, the bot's one id per level,
#: or a forgotten user's anonymous id. Derived data: ``python -m bot ratings rebuild``
#: recomputes every row from the finished rated games. ``rating`` is the number shown
#: (kept so that leaderboards are one indexed scan); ``last_played_at`` the end of the last
#: rated game (idle time makes sigma grow back at the next one); ``seq`` orders the updates
#: (a Lamport clock, see ``games.rating_seq``).
ratings = Table(
    "ratings",
    metadata,
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("game", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("rating", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("draws", Integer, nullable=False),
    Column("losses", Integer, nullable=False),
    Column("last_game_id", Integer, nullable=False),
    Column("last_played_at", UTCDateTime, nullable=False),
    # ``games.rating_seq`` of the last game that changed this rating (0: none since 0009).
    Column("seq", BigInteger, nullable=False, server_default="0"),
)

# Leaderboards: the best ratings of one game first. The gate's columns ride along (a
# covering index), so counting the players above someone reads the index alone.
Index(
    "ix_ratings_game_rating",
    ratings.c.game,
    ratings.c.rating,
    ratings.c.games,
    ratings.c.sigma,
    ratings.c.last_played_at,
    ratings.c.user_id,
)

#: What one rated game did to each rating identity in it, written in the transaction that
#: ended the game (one row per identity; ``seat`` is its first seat). ``place`` is 0 for the
#: first group of the final ranking, 1 for the next …; ``result`` ``win``/``draw``/``loss``.
rating_changes = Table(
    "rating_changes",
    metadata,
    Column(
        "game_id",
        Integer,
        ForeignKey(games.c.id, ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("game", String(32), nullable=False),
    Column("guild_id", BigInteger, nullable=True),
    Column("seat", Integer, nullable=False),
    Column("place", Integer, nullable=False),
    Column("result", String(8), nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("rating_before", Float, nullable=False),
    Column("rating_after", Float, nullable=False),
    Column("at", UTCDateTime, nullable=False),
)

# A player's history in one game, oldest first; a server's players of one game.
Index(None, rating_changes.c.user_id, rating_changes.c.game, rating_changes.c.at)
Index(None, rating_changes.c.guild_id, rating_changes.c.game, rating_changes.c.user_id)

#: One row per forgotten user, numbering their anonymous ids (see :data:`ANONYMOUS_ID_BASE`);
#: nothing here says who they were.
anonymous_ids = Table(
    "anonymous_ids",
    metadata,
    Column("n", Integer, primary_key=True, autoincrement=True),
    Column("created_at", UTCDateTime, nullable=False),
    sqlite_autoincrement=True,
)


# ------------------------------------------------------------------------------------------
# Draw offer posts (migration 0010)
# ------------------------------------------------------------------------------------------

__all__ += ["draw_offer_posts"]


#: The chat post of a game's open draw offer (its Accept / Decline buttons), so whichever
#: process closes the offer, also after a restart, can retire the buttons
#: (``db.offers.OfferPostsRepo``, ``bot/ui/offers.py``). At most one per game; deleted
#: when the offer is answered, lapses or its game ends, and with the game.
def _offer_posts(name: str) -> Table:
    """A table of the chat posts of one kind of open offer: one row per game (its channel and
    message ids), deleted with the game."""
    return Table(
        name,
        metadata,
        Column(
            "game_id",
            Integer,
            ForeignKey(games.c.id, ondelete="CASCADE"),
            primary_key=True,
        ),
        Column("channel_id", BigInteger, nullable=False),
        Column("message_id", BigInteger, nullable=False),
    )


draw_offer_posts = _offer_posts("draw_offer_posts")


# ------------------------------------------------------------------------------------------
# Takeback request posts (migration 0012)
# ------------------------------------------------------------------------------------------

__all__ += ["takeback_posts"]

#: The chat post of a game's open takeback request (its Allow / Refuse buttons), kept like
#: ``draw_offer_posts`` so that a move, a resignation, an abort or a time-out retires its
#: buttons in any process (``db.offers.OfferPostsRepo``, ``bot/ui/offers.py``). At most one
#: per game; deleted when the request is answered, lapses or its game ends, and with the game.
takeback_posts = _offer_posts("takeback_posts")

# ------------------------------------------------------------------------------------------
# Claim notices (migration 0013)
# ------------------------------------------------------------------------------------------

__all__ += ["claim_posts"]

#: The chat post of a soft clock's time-out notice (its "Claim on time" button), kept like
#: ``takeback_posts`` so that the late player's move, a claim, a resignation, an abort or
#: the game's end retires its button in any process. At most one per game (a notice is for
#: the seat to move, and a newer one replaces it); deleted when retired, and with the game.
claim_posts = _offer_posts("claim_posts")
