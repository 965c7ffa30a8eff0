"""Spectators and threads, without a word of Discord: who follows which game, who hears of
each board post, the ``/games`` listing, and the end of a game's thread.

*Watching.* A user who does not play a game may follow it (``/watch``, the Watch button): a
row of ``watchers`` says whether they hear of it only at its end or after every move
(``every_move``). :meth:`Spectators.to_notify` names, for one board post, the watchers who
hear of it; the bot mentions them in the post when the game lives in a thread and sends the
others a direct message (:func:`bot.ui.board.post_board`). Players cannot watch their own
game: they are pinged anyway.

*Threads.* A guild's :class:`~db.schema.ThreadPolicy` says where its games start
(:meth:`Spectators.thread_policy`; the challenges cog applies it). When a game played in a
thread ends, :meth:`Spectators.schedule_thread_archive` schedules one game-wide
``thread_archive`` timer; its handler asks :meth:`Spectators.thread_to_archive` which thread
to archive, if any is still to be archived when it fires.

*Listing.* :meth:`Spectators.games` lists the active games of a channel (and the threads off
it), of a server, or of one user (played or watched), with whose turn it is and the time left
on their clock.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Final

from bot.service.core import Clock, utc_now
from bot.service.errors import NoGameHereError, ServiceError
from bot.service.models import GameSnapshot
from bot.service.service import GameService
from db.rows import GameRow, NewTimer, TimerRow
from db.schema import ThreadPolicy
from engines import get_engine

__all__ = [
    "DEFAULT_THREAD_ARCHIVE_AFTER",
    "MAX_LISTED",
    "THREAD_ARCHIVE_TIMER",
    "GameListing",
    "GamesList",
    "GamesScope",
    "Spectators",
    "WatchChange",
    "WatchError",
    "WatchResult",
    "listing_of",
]

log = logging.getLogger(__name__)

#: The kind of the timer that archives a game's thread some time after the game ended.
THREAD_ARCHIVE_TIMER: Final = "thread_archive"
#: How long after its game ended a thread is archived, unless the bot's settings say otherwise.
DEFAULT_THREAD_ARCHIVE_AFTER: Final = timedelta(hours=1)
#: The most games ``/games`` lists (one message's worth; Discord shows 25 of most things).
MAX_LISTED: Final = 25


class WatchError(ServiceError):
    """A watch request that cannot be granted: a player of the game, a game that is over,
    or ``/unwatch`` of a game the user does not watch."""


class WatchChange(StrEnum):
    """What a watch request changed."""

    STARTED = "started"
    """The user follows the game now."""
    CHANGED = "changed"
    """The user already followed it; ``every_move`` changed."""
    STOPPED = "stopped"
    """The user no longer follows it."""


@dataclass(frozen=True, slots=True)
class WatchResult:
    """The answer to a watch request: game ``game_id`` (``game_name``, played in
    ``channel_id``, a thread when ``in_thread``), what changed, and ``every_move``: after the
    change, whether the user hears of every move (``False``: only of the end); for a stop,
    how they heard of it. ``by_turn``: the game's player makes many decisions per turn
    (Generation Zero), and a watcher hears of each board post, once a turn."""

    game_id: int
    game_name: str
    channel_id: int
    in_thread: bool
    change: WatchChange
    every_move: bool
    by_turn: bool = False

    @property
    def watching(self) -> bool:
        """True unless the request stopped the watch."""
        return self.change is not WatchChange.STOPPED


class GamesScope(StrEnum):
    """Which games ``/games`` lists."""

    CHANNEL = "channel"
    """This channel's game and the games in threads off it (in a thread: that thread's)."""
    SERVER = "server"
    """Every active game of this server."""
    MINE = "mine"
    """The caller's active games, played or watched, in any server or direct message."""


@dataclass(frozen=True, slots=True)
class GameListing:
    """One line of ``/games``.

    ``last_move_at`` is when the last move was logged (the start, before any move).
    ``time_left`` is what is left on the clock of the first seat to move, ``None`` for a
    game without a clock; ``clock_paused`` is true while that seat's player is on vacation.
    ``your_turn`` and ``watching`` are about the user who asked (``watching``: they follow
    the game rather than play it).
    """

    snapshot: GameSnapshot
    last_move_at: datetime
    time_left: timedelta | None
    clock_paused: bool
    your_turn: bool
    watching: bool


@dataclass(frozen=True, slots=True)
class GamesList:
    """What ``/games`` shows: at most :data:`MAX_LISTED` games of ``total`` in ``scope``.

    Order: games waiting for the caller first, then the most recently active (a move, a
    draw offer…) first. Scope ``mine`` considers every game before the cut; ``channel`` and
    ``server`` keep the :data:`MAX_LISTED` most recently active, then order those.
    ``channel_id`` is the channel asked about (scope ``channel``).
    """

    scope: GamesScope
    channel_id: int
    games: tuple[GameListing, ...]
    total: int


class Spectators:
    """Watchers, thread endings and listings of ``service``'s games.

    Holds no state of its own besides ``service`` and ``clock`` (aware UTC datetimes;
    tests pass a fake), so it is cheap to build wherever it is needed.
    """

    def __init__(self, service: GameService, *, clock: Clock = utc_now) -> None:
        self.service = service
        self.database = service.database
        self._clock = clock

    # ---- watching -----------------------------------------------------------------------

    async def watch(
        self,
        channel_id: int,
        user_id: int,
        *,
        guild_id: int | None,
        game_id: int | None = None,
        every_move: bool = False,
    ) -> WatchResult:
        """``/watch``: follow the channel's game (its active one, else the last one), or game
        ``game_id`` of this guild, at its end or, with ``every_move``, after every move.

        Asking again with the same ``every_move`` stops following (``STOPPED``); with the
        other one changes it (``CHANGED``). Raises :class:`NoGameHereError` (no game here, or
        an unknown game or one of another guild — indistinguishable on purpose) and
        :class:`WatchError` for a player of the game or a game that is over.
        """
        snapshot = await self._game(channel_id, guild_id, game_id)
        self._refuse_players(snapshot, user_id)
        current = await self.database.watchers.get(snapshot.game_id, user_id)
        if current is not None and (current.every_move == every_move or not snapshot.is_active):
            return await self._stop(snapshot, user_id, current.every_move)
        return await self._start(snapshot, user_id, every_move, changed=current is not None)

    async def toggle(self, game_id: int, user_id: int) -> WatchResult:
        """The Watch button under a board of game ``game_id``: follow it after every move,
        or stop following it. Raises :class:`NoGameHereError` for an unknown game and
        :class:`WatchError` as :meth:`watch` does."""
        snapshot = await self.service.game_snapshot(game_id)
        self._refuse_players(snapshot, user_id)
        current = await self.database.watchers.get(game_id, user_id)
        if current is not None:
            return await self._stop(snapshot, user_id, current.every_move)
        return await self._start(snapshot, user_id, True, changed=False)

    async def unwatch(
        self, channel_id: int, user_id: int, *, guild_id: int | None, game_id: int | None = None
    ) -> WatchResult:
        """``/unwatch``: stop following the game :meth:`watch` would pick. Raises
        :class:`NoGameHereError` as :meth:`watch` does and :class:`WatchError` when the user
        does not follow it."""
        snapshot = await self._game(channel_id, guild_id, game_id)
        current = await self.database.watchers.get(snapshot.game_id, user_id)
        if current is None:
            raise WatchError(f"You are not watching game {snapshot.game_id}.")
        return await self._stop(snapshot, user_id, current.every_move)

    async def to_notify(self, snapshot: GameSnapshot) -> tuple[int, ...]:
        """The watchers who hear of a board post of ``snapshot``, earliest watch first.

        While the game goes on: those who asked for every move; once it is over: all of
        them. Players are never among them (they are pinged by the post itself). A game
        nobody watches (:attr:`GameSnapshot.watchers`, read with the game) costs no read.
        """
        if snapshot.watchers == 0:  # the common case: no read at all
            return ()
        watchers = await self.database.watchers.for_game(snapshot.game_id)
        players = set(snapshot.user_ids)
        return tuple(
            w.user_id
            for w in watchers
            if w.user_id not in players and (w.every_move or not snapshot.is_active)
        )

    async def _game(
        self, channel_id: int, guild_id: int | None, game_id: int | None
    ) -> GameSnapshot:
        """The game a ``/watch`` in ``channel_id`` of ``guild_id`` is about (see :meth:`watch`).

        Outside a guild only this conversation's own games can be named, so a game's
        existence is never given away to someone who cannot see its channel.
        """
        if game_id is None:
            return await self.service.snapshot(channel_id)
        try:
            snapshot = await self.service.game_snapshot(game_id)
        except NoGameHereError:
            snapshot = None
        if guild_id is None:
            if snapshot is None or snapshot.guild_id is not None or not _in(snapshot, channel_id):
                raise NoGameHereError(f"There is no game {game_id} in this conversation.")
        elif snapshot is None or snapshot.guild_id != guild_id:
            raise NoGameHereError(f"There is no game {game_id} on this server.")
        return snapshot

    @staticmethod
    def _refuse_players(snapshot: GameSnapshot, user_id: int) -> None:
        if user_id in snapshot.user_ids:
            raise WatchError(
                "You play in this game, so you hear of every move anyway; "
                "only people who do not play can watch it."
            )

    async def _start(
        self, snapshot: GameSnapshot, user_id: int, every_move: bool, *, changed: bool
    ) -> WatchResult:
        if not snapshot.is_active:
            raise WatchError(f"Game {snapshot.game_id} is over; there is nothing left to watch.")
        await self.database.watchers.watch(
            snapshot.game_id, user_id, every_move=every_move, now=self._now()
        )
        change = WatchChange.CHANGED if changed else WatchChange.STARTED
        log.info(
            "game %d: user %d watches (%s, every_move=%s)",
            snapshot.game_id,
            user_id,
            change.value,
            every_move,
        )
        return _result(snapshot, change, every_move)

    async def _stop(self, snapshot: GameSnapshot, user_id: int, every_move: bool) -> WatchResult:
        await self.database.watchers.unwatch(snapshot.game_id, user_id)
        log.info("game %d: user %d stopped watching", snapshot.game_id, user_id)
        return _result(snapshot, WatchChange.STOPPED, every_move)

    # ---- threads ------------------------------------------------------------------------

    async def thread_policy(self, guild_id: int | None) -> ThreadPolicy:
        """Where guild ``guild_id`` starts its games (``guild_settings.threads``); outside a
        guild (a direct message has no threads) :attr:`ThreadPolicy.WHEN_BUSY`, which there
        means: in the conversation itself."""
        if guild_id is None:
            return ThreadPolicy.WHEN_BUSY
        return (await self.database.settings.guild(guild_id)).threads

    async def schedule_thread_archive(
        self, snapshot: GameSnapshot, *, after: timedelta
    ) -> TimerRow | None:
        """Schedule the archiving of the thread of ``snapshot``'s game ``after`` from now,
        once the game is over; ``None`` (nothing scheduled) while it goes on or when it is
        not played in a thread.

        One game-wide ``thread_archive`` timer per game: scheduling again (the final board
        posted again) replaces the pending one, so the thread is archived ``after`` the
        last post. Raises :class:`ValueError` for a negative ``after``.
        """
        if after < timedelta(0):
            raise ValueError(f"a thread cannot be archived before its game ends: {after}")
        if snapshot.is_active or snapshot.parent_channel_id is None:
            return None
        now = self._now()
        timer = NewTimer(
            kind=THREAD_ARCHIVE_TIMER, due_at=now + after, game_id=snapshot.game_id, seat=None
        )
        row = await self.database.timers.schedule(timer, now=now, replace=True)
        log.info(
            "game %d: thread %d to be archived at %s",
            snapshot.game_id,
            snapshot.channel_id,
            row.due_at.isoformat(),
        )
        return row

    async def thread_to_archive(self, timer: TimerRow) -> int | None:
        """The id of the thread a claimed ``thread_archive`` ``timer`` should archive now,
        or ``None`` when there is nothing to do: the game is gone, was not played in a
        thread, or a new game (a rematch) is being played in that thread meanwhile."""
        if timer.game_id is None:
            return None
        row = await self.database.games.get(timer.game_id)
        if row is None or row.parent_channel_id is None or row.is_active:
            return None
        if await self.database.games.active_in_channel(row.channel_id) is not None:
            log.info("thread %d has a new game: not archived", row.channel_id)
            return None
        return row.channel_id

    # ---- /games -------------------------------------------------------------------------

    async def games(
        self,
        scope: GamesScope,
        *,
        user_id: int,
        guild_id: int | None,
        channel_id: int,
    ) -> GamesList:
        """``/games``: the active games of ``scope`` as seen by ``user_id`` asking in
        ``channel_id`` of ``guild_id`` (see :class:`GamesScope`, :class:`GamesList`).

        One listing query per scope (two for ``mine``: played, watched), then a snapshot of
        each game listed. Raises :class:`ServiceError` for scope ``server``
        outside a server.
        """
        watched: set[int] = set()
        if scope is GamesScope.MINE:
            # A user's own games are few: every one is read, so those waiting for the user
            # come first whatever their age.
            played = {row.id for row in await self.database.games.list_active(user_id=user_id)}
            watched = set(await self.database.watchers.active_games_of(user_id)) - played
            ids = sorted(played | watched)
            chosen = ids
        else:
            # A server may have many: the cut to the most recently active comes before the
            # snapshots are read, so a busy server costs at most MAX_LISTED of them.
            rows = await self._rows_of(scope, guild_id, channel_id)
            rows.sort(key=lambda row: (row.updated_at, row.id), reverse=True)
            ids = [row.id for row in rows]
            chosen = ids[:MAX_LISTED]
        listings = list(
            await asyncio.gather(
                *(
                    self._listing(game_id, user_id, watching=game_id in watched)
                    for game_id in chosen
                )
            )
        )
        listings.sort(
            key=lambda item: (item.your_turn, item.snapshot.updated_at, item.snapshot.game_id),
            reverse=True,
        )
        return GamesList(scope, channel_id, tuple(listings[:MAX_LISTED]), len(ids))

    async def _rows_of(
        self, scope: GamesScope, guild_id: int | None, channel_id: int
    ) -> list[GameRow]:
        if scope is GamesScope.SERVER:
            if guild_id is None:
                raise ServiceError("There is no server here; try `/games scope:mine`.")
            return await self.database.games.list_active(guild_id=guild_id)
        if guild_id is None:
            return await self.database.games.list_active(channel_id=channel_id)
        # A channel's games include those in threads off it, which only the guild's
        # listing can find: filter it here rather than add a query per thread.
        rows = await self.database.games.list_active(guild_id=guild_id)
        return [row for row in rows if channel_id in (row.channel_id, row.parent_channel_id)]

    async def _listing(self, game_id: int, user_id: int, *, watching: bool) -> GameListing:
        snapshot = await self.service.game_snapshot(game_id)
        return listing_of(snapshot, user_id, watching=watching)

    def _now(self) -> datetime:
        now = self._clock()
        if now.tzinfo is None:
            raise ValueError("the spectators' clock must return aware datetimes")
        return now


def listing_of(snapshot: GameSnapshot, user_id: int, *, watching: bool = False) -> GameListing:
    """``snapshot`` as a line of ``/games`` asked for by ``user_id`` (see :class:`GameListing`):
    the time left is read from the snapshot's clock of the first seat to move."""
    last = snapshot.last_moves[-1].at if snapshot.last_moves else snapshot.created_at
    clock = snapshot.clock_of(snapshot.to_move[0]) if snapshot.to_move else None
    return GameListing(
        snapshot=snapshot,
        last_move_at=last,
        time_left=None if clock is None else clock.time_left,
        clock_paused=clock is not None and clock.paused_until is not None,
        your_turn=user_id in snapshot.to_move_user_ids,
        watching=watching,
    )


def _in(snapshot: GameSnapshot, channel_id: int) -> bool:
    return channel_id in (snapshot.channel_id, snapshot.parent_channel_id)


def _result(snapshot: GameSnapshot, change: WatchChange, every_move: bool) -> WatchResult:
    return WatchResult(
        game_id=snapshot.game_id,
        game_name=snapshot.game_name,
        channel_id=snapshot.channel_id,
        in_thread=snapshot.parent_channel_id is not None,
        change=change,
        every_move=every_move,
        by_turn=get_engine(snapshot.game).many_decisions_per_turn,
    )
