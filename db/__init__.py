"""Persistence: games, seats, the move log, challenges (lobbies), clocks, timers, ratings and
the rest, in SQLite or PostgreSQL.

SQLAlchemy 2 Core (async) behind small repositories, one per theme; Alembic migrations in
``db/migrations`` applied at start. ``db`` knows nothing of engines, pictures or Discord: engine
state, options, events and outcomes are JSON text it stores without parsing.

Usage::

    db = Database("sqlite+aiosqlite:///data/gameroom.db")   # the default URL
    await db.migrate()                                       # alembic upgrade head
    game = await db.games.create(guild_id=..., channel_id=..., ..., now=now)
    game = await db.games.commit_moves(game.id, game.version, moves=[...], ..., now=now)
    await db.close()

API (every method is one transaction; writes are all-or-nothing; ``now`` is always passed in
as an aware datetime, there is no hidden clock, and a naive one raises :class:`ValueError`;
timestamps come back in UTC; rows are the frozen dataclasses of :mod:`db.rows`):

``Database(url: str = DEFAULT_URL)``
    ``migrate() -> None``, ``close() -> None``, ``async with``; its repositories are the
    attributes ``games`` (:mod:`db.games`), ``challenges`` (:mod:`db.challenges`), ``timers``
    (:mod:`db.timers`), ``clocks`` and ``vacations`` (:mod:`db.clocks`), ``settings``
    (:mod:`db.settings`), ``watchers`` (:mod:`db.watchers`), ``ratings`` (:mod:`db.ratings`),
    and ``draw_offer_posts``, ``takeback_posts``, ``claim_posts`` (:mod:`db.offers`); the
    first two are described below, the others in their modules. ``engine`` is for tests and
    diagnostics. A ``postgresql+asyncpg://`` URL
    works unchanged (install the ``postgres`` extra).

``GamesRepo`` (``db.games``)
    ``create(*, guild_id, channel_id, parent_channel_id, game, options_json, rules_version,
    seed, state_json, ply, to_move: Sequence[int], user_ids: Sequence[int], now,
    teams=None, challenge_id=None, challenge_version=None, challenge_entry=None) ->
    GameRow``: version 1, seat ``i`` = ``user_ids[i]``; with ``challenge_id`` also accepts
    that challenge in the same transaction (at ``challenge_version`` if given, recording
    ``challenge_entry``, the answer that filled the last seat). Raises ``ChannelBusyError``,
    ``ChallengeClosedError``, ``ChallengeChangedError``, ``ChallengeFullError``.

    ``commit_moves(game_id, expected_version, *, moves: Sequence[NewMove], state_json, ply,
    to_move, status, outcome_json, termination, now) -> GameRow``: compare-and-set on
    ``version`` (+1), clears the draw offer, appends the moves. ``finish(game_id,
    expected_version, *, status, outcome_json, termination, now) -> GameRow``: resignation,
    agreed draw, timeout, abort. ``set_draw_offer(game_id, expected_version, seat, now) ->
    GameRow``. These three raise ``StaleVersionError``, ``GameNotActiveError``,
    ``GameNotFoundError``. ``set_board_message(game_id, message_id) -> None`` (no version
    bump); ``set_board_messages(message_ids, *, done_timers=None)`` for many games, deleting
    the game-wide timers the posts make needless in the same transaction.

    ``get(game_id) -> GameRow | None``, ``active_in_channel(channel_id) -> GameRow | None``,
    ``list_active(*, guild_id=None, channel_id=None, user_id=None) -> list[GameRow]``,
    ``seats(game_id) -> list[SeatRow]``, ``moves(game_id, *, since_ply=0) -> list[MoveRow]``
    (plies count from 1; returns ``ply > since_ply``).

``ChallengesRepo`` (``db.challenges``): a challenge is a lobby of ``players`` seats; its
    users (``ChallengeRow.lobby``, rows of ``challenge_players``) have a role (challenger,
    invited, joined) and a status (invited, seated, declined, left).
    ``create(*, guild_id, channel_id, challenger_id, invited_ids: Sequence[int], players,
    game, options_json, now, expires_at, rematch_of=None, ...) -> ChallengeRow`` (a rematch
    raises ``RematchAlreadyOpenError`` or ``RematchAlreadyStartedError``); ``get(challenge_id)``;
    ``list_open(*, channel_id=None, user_id=None)``; ``set_message(challenge_id,
    message_id)``; ``enter(challenge_id, expected_version, entry: ChallengeEntry, *, now) ->
    ChallengeRow`` (one user joins, accepts, declines or leaves: compare-and-set on the
    lobby's ``version``; raises ``ChallengeClosedError``, ``ChallengeChangedError``,
    ``ChallengeFullError``); ``resolve(challenge_id, *, new_status, now, game_id=None,
    entry=None) -> ChallengeRow | None`` (compare-and-set from open and unexpired: of two
    racing answers one gets the row, the other ``None``); ``expire_due(now) ->
    list[ChallengeRow]``.

Statuses are :class:`GameStatus` / :class:`ChallengeStatus` (``StrEnum``: plain strings work
too). All errors derive from :class:`PersistenceError`. See ``db/engine.py`` for the SQLite
set-up (WAL, ``busy_timeout``, ``foreign_keys``, ``BEGIN IMMEDIATE``).

A new migration: after changing :mod:`db.schema`, ``alembic revision --autogenerate`` with
the next ``--rev-id`` from the repository root (docs/development.md, "Database migrations").
"""

from __future__ import annotations

from db.challenges import ChallengesRepo
from db.database import MIGRATIONS_DIR, Database, alembic_config
from db.engine import DEFAULT_URL
from db.errors import (
    ChallengeChangedError,
    ChallengeClosedError,
    ChallengeFullError,
    ChallengeNotFoundError,
    ChannelBusyError,
    GameNotActiveError,
    GameNotFoundError,
    PersistenceError,
    RematchAlreadyOpenError,
    RematchAlreadyStartedError,
    StaleVersionError,
)
from db.games import GamesRepo
from db.rows import (
    ChallengeEntry,
    ChallengePlayerRow,
    ChallengeRow,
    GameRow,
    MoveRow,
    NewMove,
    SeatRow,
)
from db.schema import ChallengePlayerRole, ChallengePlayerStatus, ChallengeStatus, GameStatus

__all__ = [
    "DEFAULT_URL",
    "MIGRATIONS_DIR",
    "ChallengeChangedError",
    "ChallengeClosedError",
    "ChallengeEntry",
    "ChallengeFullError",
    "ChallengeNotFoundError",
    "ChallengePlayerRole",
    "ChallengePlayerRow",
    "ChallengePlayerStatus",
    "ChallengeRow",
    "ChallengeStatus",
    "ChallengesRepo",
    "ChannelBusyError",
    "Database",
    "GameNotActiveError",
    "GameNotFoundError",
    "GameRow",
    "GameStatus",
    "GamesRepo",
    "MoveRow",
    "NewMove",
    "PersistenceError",
    "RematchAlreadyOpenError",
    "RematchAlreadyStartedError",
    "SeatRow",
    "StaleVersionError",
    "alembic_config",
]
