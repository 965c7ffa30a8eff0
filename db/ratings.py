"""``RatingsRepo``: ratings, their history, leaderboards, the rebuild and forgetting a user.

Ratings are derived data (docs/ratings.md): the service computes them, this module stores
them. A game that ends rated writes its rating update in the transaction that ends it
(:func:`apply_rating_hook`, called by :meth:`db.GamesRepo.commit_moves` and
:meth:`~db.GamesRepo.finish` after their compare-and-set on ``games.version``, so the update
lands exactly once even when two processes race to end the game). The rows it reads are
locked (``SELECT ... FOR UPDATE`` on PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` already makes
the write transaction exclusive), so two games ending at once that share a player never
lose one of the two updates.
"""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator, Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import Row, and_, delete, exists, func, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from db.engine import Transactions, dialect_insert
from db.errors import PersistenceError
from db.rows import (
    RatedGame,
    RatingChangeRow,
    RatingHook,
    RatingRow,
    require_aware,
)
from db.schema import (
    ANONYMOUS_ID_BASE,
    ChallengeStatus,
    GameStatus,
    anonymous_ids,
    challenge_players,
    challenges,
    games,
    rating_changes,
    ratings,
    seats,
    user_settings,
    vacations,
    watchers,
)
from db.schema import moves as move_log
from db.watchers import ONE_WATCHER_FEWER

__all__ = ["RatingsRepo", "StillPlayingError", "apply_rating_hook", "is_anonymous"]

_BATCH = 2000


class StillPlayingError(PersistenceError):
    """The user to forget still holds a seat in an active game or an open challenge."""


def is_anonymous(user_id: int) -> bool:
    """Whether ``user_id`` is a forgotten user's anonymous id."""
    return user_id <= -ANONYMOUS_ID_BASE


async def apply_rating_hook(conn: AsyncConnection, hook: RatingHook, game_id: int) -> None:
    """Inside the write transaction that ends game ``game_id``: read (locked) the ``ratings``
    rows of ``hook.user_ids`` in ``hook.game``, let ``hook.update`` compute the new rows,
    write them and the history rows, and keep the history rows in ``hook.written``.

    The game is stamped with ``games.rating_seq`` = one more than the largest ``seq`` of
    those rows (0 for a newcomer), and the rows get that ``seq``: a Lamport clock that
    orders every two games sharing an identity as they were applied, which the rebuild
    replays (:meth:`RatingsRepo.rated_games`)."""
    query = select(ratings).where(ratings.c.game == hook.game, ratings.c.user_id.in_(hook.user_ids))
    if conn.dialect.name == "postgresql":
        # FOR UPDATE locks only rows that exist: two endings that both rate a newcomer would
        # both insert. A transaction-scoped advisory lock per (game, user), taken in one order
        # (no deadlock), makes the second ending wait and then read the first one's row.
        # SQLite needs neither: BEGIN IMMEDIATE already serialises writers.
        for key in sorted(_rating_lock_key(hook.game, user_id) for user_id in hook.user_ids):
            await conn.execute(select(func.pg_advisory_xact_lock(key)))
        query = query.with_for_update()
    found = list(await conn.execute(query))
    current = {row.user_id: _rating_row(row) for row in found}
    seq = 1 + max((int(row.seq) for row in found), default=0)
    new_rows, changes = hook.update(current)
    for rating in new_rows:
        values = {**_rating_values(rating), "seq": seq}
        if rating.user_id in current:
            await conn.execute(
                update(ratings)
                .where(ratings.c.user_id == rating.user_id, ratings.c.game == rating.game)
                .values(values)
            )
        else:
            await conn.execute(insert(ratings).values(values))
    if changes:
        await conn.execute(insert(rating_changes), [_change_values(c) for c in changes])
    if new_rows:
        await conn.execute(update(games).where(games.c.id == game_id).values(rating_seq=seq))
    hook.written = tuple(changes)


def _rating_lock_key(game: str, user_id: int) -> int:
    """A signed 64-bit advisory-lock key for the rating of ``user_id`` in ``game``."""
    digest = hashlib.blake2b(f"rating:{game}:{user_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class RatingsRepo:
    """Reads and writes ``ratings`` and ``rating_changes``. Obtain it as ``Database.ratings``."""

    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    # ---- reads -----------------------------------------------------------------------------

    async def get(self, user_id: int, game: str) -> RatingRow | None:
        async with self._tx.read() as conn:
            row = (
                await conn.execute(
                    select(ratings).where(ratings.c.user_id == user_id, ratings.c.game == game)
                )
            ).one_or_none()
        return None if row is None else _rating_row(row)

    async def of_user(self, user_id: int) -> list[RatingRow]:
        """Every rating of ``user_id``, most games first."""
        async with self._tx.read() as conn:
            result = await conn.execute(
                select(ratings)
                .where(ratings.c.user_id == user_id)
                .order_by(ratings.c.games.desc(), ratings.c.game)
            )
            return [_rating_row(r) for r in result]

    async def changes_of_game(self, game_id: int) -> list[RatingChangeRow]:
        """What game ``game_id`` did to its players' ratings, in seat order (empty: unrated)."""
        async with self._tx.read() as conn:
            result = await conn.execute(
                select(rating_changes)
                .where(rating_changes.c.game_id == game_id)
                .order_by(rating_changes.c.seat)
            )
            return [_change_row(r) for r in result]

    async def history(self, user_id: int, game: str, *, limit: int = 200) -> list[RatingChangeRow]:
        """``user_id``'s last ``limit`` rating changes in ``game``, oldest first."""
        async with self._tx.read() as conn:
            result = await conn.execute(
                select(rating_changes)
                .where(rating_changes.c.user_id == user_id, rating_changes.c.game == game)
                .order_by(rating_changes.c.at.desc(), rating_changes.c.game_id.desc())
                .limit(limit)
            )
            rows = [_change_row(r) for r in result]
        rows.reverse()
        return rows

    async def best_win(self, user_id: int, game: str) -> RatingChangeRow | None:
        """The history row of the best-rated opponent ``user_id`` finished ahead of in a
        rated game of ``game`` they won (its ``rating_before`` is that opponent's rating then),
        or ``None``."""
        mine = rating_changes.alias("mine")
        theirs = rating_changes.alias("theirs")
        query = (
            select(theirs)
            .join(mine, mine.c.game_id == theirs.c.game_id)
            .where(
                mine.c.user_id == user_id,
                mine.c.game == game,
                mine.c.result == "win",
                theirs.c.place > mine.c.place,
            )
            .order_by(theirs.c.rating_before.desc(), theirs.c.game_id)
            .limit(1)
        )
        async with self._tx.read() as conn:
            row = (await conn.execute(query)).one_or_none()
        return None if row is None else _change_row(row)

    async def leaderboard(
        self,
        game: str,
        *,
        min_games: int,
        max_sigma: float,
        active_since: datetime,
        guild_id: int | None = None,
        hide_private: bool = False,
        limit: int = 25,
    ) -> list[RatingRow]:
        """The ``limit`` best ratings in ``game`` that pass the gate (at least ``min_games``
        rated games, ``sigma <= max_sigma``, a rated game since ``active_since``), best
        first; anonymous ids never appear. ``guild_id``: only identities with a rated game
        of ``game`` in that server; ``hide_private``: without users who hid themselves from
        global leaderboards. One scan of the ``(game, rating)`` index, best first."""
        query = self._gated(game, min_games, max_sigma, active_since, guild_id, hide_private)
        query = query.order_by(ratings.c.rating.desc(), ratings.c.user_id).limit(limit)
        async with self._tx.read() as conn:
            return [_rating_row(r) for r in await conn.execute(query)]

    async def place(
        self,
        rating: RatingRow,
        *,
        min_games: int,
        max_sigma: float,
        active_since: datetime,
        guild_id: int | None = None,
        hide_private: bool = False,
    ) -> int:
        """The 1-based place ``rating`` holds (or would hold) on the same leaderboard (one
        count over the index range above it; an exact tie shares the place)."""
        query = self._gated(
            rating.game, min_games, max_sigma, active_since, guild_id, hide_private
        ).where(ratings.c.rating > rating.rating)  # a range of the (game, rating) index
        counted = query.with_only_columns(func.count(), maintain_column_froms=True)
        async with self._tx.read() as conn:
            ahead = int((await conn.execute(counted)).scalar_one())
        return ahead + 1

    @staticmethod
    def _gated(
        game: str,
        min_games: int,
        max_sigma: float,
        active_since: datetime,
        guild_id: int | None,
        hide_private: bool,
    ) -> Any:
        query = select(ratings).where(
            ratings.c.game == game,
            ratings.c.games >= min_games,
            ratings.c.sigma <= max_sigma,
            ratings.c.last_played_at >= active_since,
            ratings.c.user_id > -ANONYMOUS_ID_BASE,
        )
        if guild_id is not None:
            query = query.where(
                exists().where(
                    rating_changes.c.guild_id == guild_id,
                    rating_changes.c.game == game,
                    rating_changes.c.user_id == ratings.c.user_id,
                )
            )
        if hide_private:
            query = query.where(
                ~exists().where(
                    user_settings.c.user_id == ratings.c.user_id,
                    user_settings.c.leaderboard_hidden.is_(True),
                )
            )
        return query

    async def rated_games(self) -> AsyncIterator[RatedGame]:
        """Every finished rated game with its seats, in the order their rating updates were
        applied: by ``games.rating_seq`` (NULL, a game rated before migration 0009, first),
        then ``finished_at``, then id. Two games that share a rating identity come in the
        order they were applied (see :func:`apply_rating_hook`), so a replay gives every
        rating the history it had: what :func:`~bot.service.ratings.rebuild` does."""
        from db.games import _game_row  # the one row mapper of games

        order = func.coalesce(games.c.rating_seq, 0)
        last: tuple[int, datetime, int] | None = None
        while True:
            query = select(games).where(
                games.c.status == GameStatus.FINISHED.value, games.c.rated.is_(True)
            )
            if last is not None:
                last_seq, last_at, last_id = last
                query = query.where(
                    or_(
                        order > last_seq,
                        and_(order == last_seq, games.c.finished_at > last_at),
                        and_(
                            order == last_seq,
                            games.c.finished_at == last_at,
                            games.c.id > last_id,
                        ),
                    )
                )
            query = query.order_by(order, games.c.finished_at, games.c.id).limit(_BATCH)
            async with self._tx.read() as conn:
                raw = list(await conn.execute(query))
                rows = [_game_row(r) for r in raw]
                if not rows:
                    return
                seat_rows = await conn.execute(
                    select(seats.c.game_id, seats.c.seat, seats.c.user_id)
                    .where(seats.c.game_id.in_([r.id for r in rows]))
                    .order_by(seats.c.game_id, seats.c.seat)
                )
                users: dict[int, list[int]] = {}
                for seat in seat_rows:
                    users.setdefault(seat.game_id, []).append(seat.user_id)
                # Plies a seat played (chance rows have no seat): what "fewer plies than
                # players" counts, so an Arbos setup or a die roll is no player's move, nor
                # a resignation logged as `[k]resign` (bot.service.logbook.resign_move_text),
                # nor an agreed draw the engine plays (Orbs' `draw`, D-ORB-11: the only
                # bot-decided move; the service counts the same way, GameCore._rating_hook).
                counted = await conn.execute(
                    select(move_log.c.game_id, func.count())
                    .where(
                        move_log.c.game_id.in_([r.id for r in rows]),
                        move_log.c.seat.is_not(None),
                        move_log.c.text.not_like("[%]resign"),
                        move_log.c.text != "draw",
                    )
                    .group_by(move_log.c.game_id)
                )
                played = {game_id: int(count) for game_id, count in counted}
            for row in rows:
                yield RatedGame(row, tuple(users.get(row.id, ())), played.get(row.id, 0))
            final = raw[-1]
            last = (final.rating_seq or 0, final.finished_at, final.id)

    # ---- writes ----------------------------------------------------------------------------

    async def replace_all(
        self, rows: Iterable[RatingRow], changes: Iterable[RatingChangeRow]
    ) -> None:
        """Replace every rating and every history row (the rebuild), in one transaction."""
        async with self._tx.write() as conn:
            await conn.execute(delete(rating_changes))
            await conn.execute(delete(ratings))
            for batch in _batches(_rating_values(r) for r in rows):
                await conn.execute(insert(ratings), batch)
            for batch in _batches(_change_values(c) for c in changes):
                await conn.execute(insert(rating_changes), batch)
            # Each rating's clock: the stamp of the last game that changed it, so that live
            # updates after the rebuild stay after every game it replayed.
            last = (
                select(func.max(games.c.rating_seq))
                .select_from(rating_changes.join(games, games.c.id == rating_changes.c.game_id))
                .where(
                    rating_changes.c.user_id == ratings.c.user_id,
                    rating_changes.c.game == ratings.c.game,
                )
                .scalar_subquery()
            )
            await conn.execute(update(ratings).values(seq=func.coalesce(last, 0)))

    async def forget_user(self, user_id: int, *, now: datetime) -> int:
        """Anonymise ``user_id`` (``/forget-me``); returns their new anonymous id.

        One transaction: a new anonymous id ``-ANONYMOUS_ID_BASE - n`` (``n`` numbered by
        ``anonymous_ids``, so two at once never share one) replaces ``user_id`` in every
        seat, rating, rating history row and ended challenge; their settings, vacation and
        watches are deleted. The games stay as records; ratings stay derivable (the
        anonymous id keeps the rating, and leaderboards never show it).

        Raises :class:`StillPlayingError` while they hold a seat in an active game or are
        listed in an open challenge (nothing is written), :class:`ValueError` for an id
        that is not a person's or a naive ``now``.
        """
        require_aware("now", now)
        if user_id <= 0:
            raise ValueError(f"user {user_id} is not a person")
        async with self._tx.write() as conn:
            playing = await conn.execute(
                select(games.c.id)
                .join(seats, seats.c.game_id == games.c.id)
                .where(seats.c.user_id == user_id, games.c.status == GameStatus.ACTIVE.value)
                .limit(1)
            )
            lobby = await conn.execute(
                select(challenges.c.id)
                .outerjoin(challenge_players, challenge_players.c.challenge_id == challenges.c.id)
                .where(
                    challenges.c.status == ChallengeStatus.OPEN.value,
                    or_(
                        challenges.c.challenger_id == user_id,
                        challenge_players.c.user_id == user_id,
                    ),
                )
                .limit(1)
            )
            if playing.first() is not None or lobby.first() is not None:
                raise StillPlayingError(f"user {user_id} still plays")
            result = await conn.execute(
                insert(anonymous_ids).values(created_at=now).returning(anonymous_ids.c.n)
            )
            anonymous = -ANONYMOUS_ID_BASE - int(result.scalar_one())
            for table in (seats, ratings, rating_changes, challenge_players):
                await conn.execute(
                    update(table).where(table.c.user_id == user_id).values(user_id=anonymous)
                )
            await conn.execute(
                update(challenges)
                .where(challenges.c.challenger_id == user_id)
                .values(challenger_id=anonymous)
            )
            watched = select(watchers.c.game_id).where(watchers.c.user_id == user_id)
            await conn.execute(
                update(games)
                .where(games.c.id.in_(watched.scalar_subquery()))
                .values(watchers=ONE_WATCHER_FEWER)
            )
            for table in (user_settings, vacations, watchers):
                await conn.execute(delete(table).where(table.c.user_id == user_id))
        return anonymous

    async def set_hidden(self, user_id: int, hidden: bool, *, now: datetime) -> None:
        """Hide ``user_id`` from global leaderboards (``False``: show them again)."""
        require_aware("now", now)
        async with self._tx.write() as conn:
            statement = dialect_insert(conn, user_settings).values(
                user_id=user_id, reminders="channel", updated_at=now, leaderboard_hidden=hidden
            )
            await conn.execute(
                statement.on_conflict_do_update(
                    index_elements=[user_settings.c.user_id],
                    set_={"leaderboard_hidden": hidden, "updated_at": now},
                )
            )

    async def is_hidden(self, user_id: int) -> bool:
        async with self._tx.read() as conn:
            value = (
                await conn.execute(
                    select(user_settings.c.leaderboard_hidden).where(
                        user_settings.c.user_id == user_id
                    )
                )
            ).scalar_one_or_none()
        return bool(value)


def _batches(values: Iterable[dict[str, Any]]) -> Iterable[list[dict[str, Any]]]:
    batch: list[dict[str, Any]] = []
    for value in values:
        batch.append(value)
        if len(batch) >= _BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _rating_values(row: RatingRow) -> dict[str, Any]:
    return {
        "user_id": row.user_id,
        "game": row.game,
        "mu": row.mu,
        "sigma": row.sigma,
        "rating": row.rating,
        "games": row.games,
        "wins": row.wins,
        "draws": row.draws,
        "losses": row.losses,
        "last_game_id": row.last_game_id,
        "last_played_at": row.last_played_at,
    }


def _change_values(row: RatingChangeRow) -> dict[str, Any]:
    return {
        "game_id": row.game_id,
        "user_id": row.user_id,
        "game": row.game,
        "guild_id": row.guild_id,
        "seat": row.seat,
        "place": row.place,
        "result": row.result,
        "mu_before": row.mu_before,
        "sigma_before": row.sigma_before,
        "mu_after": row.mu_after,
        "sigma_after": row.sigma_after,
        "rating_before": row.rating_before,
        "rating_after": row.rating_after,
        "at": row.at,
    }


def _rating_row(row: Row[Any]) -> RatingRow:
    return RatingRow(
        user_id=row.user_id,
        game=row.game,
        mu=row.mu,
        sigma=row.sigma,
        rating=row.rating,
        games=row.games,
        wins=row.wins,
        draws=row.draws,
        losses=row.losses,
        last_game_id=row.last_game_id,
        last_played_at=row.last_played_at,
    )


def _change_row(row: Row[Any]) -> RatingChangeRow:
    return RatingChangeRow(
        game_id=row.game_id,
        user_id=row.user_id,
        game=row.game,
        guild_id=row.guild_id,
        seat=row.seat,
        place=row.place,
        result=row.result,
        mu_before=row.mu_before,
        sigma_before=row.sigma_before,
        mu_after=row.mu_after,
        sigma_after=row.sigma_after,
        rating_before=row.rating_before,
        rating_after=row.rating_after,
        at=row.at,
    )
