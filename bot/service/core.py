"""The core every use case shares: a game loaded under its lock, users mapped to seats,
moves committed with the compare-and-set, and the snapshot the bot is shown.

Every write follows the same pattern: take the game's in-process lock (:meth:`GameCore.
game_lock`, so two commands in this process queue instead of racing), load the game row
(:meth:`GameCore.reload`), let the engine decide, then write with a compare-and-set on
``games.version`` (:meth:`GameCore.commit`, :meth:`GameCore.finish`, :meth:`GameCore.restamp`
after a flag changed) so two *processes* cannot both land a change made against the same
position. A change is committed before the caller hears of it.

Every write that changes whose turn it is carries, in its transaction, the seats' clocks after
it and the timers of the next turn (:meth:`GameCore.plan_turn_change`: deadlines, their
final warnings, reminders).

The use cases (:mod:`bot.service.lobby`, :mod:`~bot.service.play`, :mod:`~bot.service.endings`,
:mod:`~bot.service.timeouts`, :mod:`~bot.service.vacations`, :mod:`~bot.service.views`,
:mod:`~bot.service.replays`, :mod:`~bot.service.takebacks`, :mod:`~bot.service.rematches`)
each hold one :class:`GameCore`; nothing here knows about any of them.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Collection, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from bot.service import _codec
from bot.service import clocks as clock_rules
from bot.service._cache import GameMeta, Lru, PositionEntry
from bot.service.automatic import automatic_steps
from bot.service.bot_seats import is_bot
from bot.service.clock_plans import (
    merge_changes,
    plan_board_post,
    plan_bot_turns,
    plan_reminders,
    plan_turn,
)
from bot.service.clocks import ClockSpec, SeatClock, reminder_delay
from bot.service.errors import (
    NoGameHereError,
    NotAPlayerError,
    NotYourTurnError,
    ServiceError,
    StaleActionError,
)
from bot.service.locks import KeyedLock
from bot.service.logbook import (
    RECENT_MOVES,
    left_seats,
    move_record,
    public_position,
    resign_move_text,
)
from bot.service.models import (
    FEW_MOVES,
    GameSnapshot,
    Player,
    RatingChange,
    SeatClockInfo,
)
from bot.service.options import format_options
from bot.service.records import public_view
from db import Database, GameRow, GameStatus, NewMove
from db import GameNotActiveError as DbGameNotActiveError
from db import StaleVersionError as DbStaleVersionError
from db.clocks import ClockChangedError, VacationChangedError
from db.rows import ClockChanges, ClockRow, RatingChangeRow, RatingHook, TimerCancel
from engines import get_engine
from engines.base import Outcome

__all__ = ["DEFAULT_REMINDER_QUIET", "Clock", "GameCore", "Loaded", "RatingPlug", "utc_now"]

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]

#: How long a turn stays quiet before its player is reminded, unless the guild or the user
#: chose another quiet time.
DEFAULT_REMINDER_QUIET = timedelta(hours=24)


#: What a compare-and-set write raises when another change landed first (the game's version,
#: a clock, or a vacation a clock was planned with): the user is told to look and try again.
CHANGED_MEANWHILE = (
    DbStaleVersionError,
    DbGameNotActiveError,
    ClockChangedError,
    VacationChangedError,
)


def utc_now() -> datetime:
    """The current time as an aware UTC datetime (the default clock)."""
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class Loaded:
    """A game row read under its lock, with its metadata, position and (for a game with a
    clock) its seat clocks in seat order, read with the row."""

    row: GameRow
    meta: GameMeta
    position: PositionEntry
    clocks: tuple[ClockRow, ...] = ()
    #: What the game's end did to its players' ratings (a finished rated game only).
    ratings: tuple[RatingChange, ...] = ()
    #: Set on the write that ended a game with fewer plies played by seats than players
    #: (chance outcomes and a logged ``[k]resign`` not counted): why a rated game was not.
    ended_too_soon: bool = False


class RatingPlug(Protocol):
    """How the core reaches :class:`bot.service.ratings.Ratings` (which sits above it and
    plugs itself in as :attr:`GameCore.ratings`): the rating update of a write that ends a
    game, and the shown changes of stored history rows."""

    def hook(
        self, loaded: Loaded, status: str, outcome: Outcome | None, ply: int, now: datetime
    ) -> RatingHook | None: ...

    def changes(
        self, rows: Sequence[RatingChangeRow], players: Sequence[Player]
    ) -> tuple[RatingChange, ...]: ...


class GameCore:
    """What every use case shares for the games in ``database``: the clock, the per-game
    locks and the caches of game metadata and positions (``cache_size`` games each).

    ``clock`` returns aware UTC datetimes (inject a fake in tests); ``reminder_quiet`` is how
    long a turn stays quiet before its player is reminded when neither the user nor the
    guild chose; ``exhibition_pace`` the least time between moves of a game of bots only
    without a clock (:meth:`bot_turn_delay`). One core per process; several processes may
    share the database.
    """

    def __init__(
        self,
        database: Database,
        *,
        clock: Clock = utc_now,
        cache_size: int = 512,
        reminder_quiet: timedelta = DEFAULT_REMINDER_QUIET,
        exhibition_pace: timedelta = timedelta(0),
    ) -> None:
        self.database = database
        self._clock = clock
        self.reminder_quiet = reminder_quiet
        self.exhibition_pace = exhibition_pace
        self._locks: KeyedLock[int] = KeyedLock()
        self._meta: Lru[int, GameMeta] = Lru(cache_size)
        self._positions: Lru[int, PositionEntry] = Lru(cache_size)
        #: :meth:`seats_gone` by ``(game id, version)``, carried to the next version by
        #: each write of this process (:meth:`_carry_gone`).
        self._gone: Lru[tuple[int, int], frozenset[int]] = Lru(cache_size)
        #: Called with a game's id after this process committed a change that gives one of
        #: the bot's seats the move (the bots' loop wakes at once instead of at its next poll).
        self.bot_turn_listeners: list[Callable[[int], None]] = []
        #: The ratings use case, once it plugged itself in: every write that ends a rated
        #: game carries its rating update (:class:`RatingPlug`).
        self.ratings: RatingPlug | None = None

    def now(self) -> datetime:
        """The service clock's time. Raises :class:`ValueError` if the clock is naive."""
        now = self._clock()
        if now.tzinfo is None:
            raise ValueError("the service clock must return aware datetimes")
        return now

    @asynccontextmanager
    async def game_lock(self, game_id: int) -> AsyncIterator[None]:
        """Hold game ``game_id``'s lock; an error leaving the block names the game.

        A :class:`ServiceError` gets its ``game_id`` set (the bot logs it next to the user's
        sentence); any other exception gets a note ``game <id>`` shown in its traceback.
        """
        async with self._locks(game_id):
            try:
                yield
            except ServiceError as error:
                if error.game_id is None:
                    error.game_id = game_id
                raise
            except Exception as error:
                error.add_note(f"game {game_id}")
                raise

    def bot_turn_delay(self, user_ids: Iterable[int], *, clocked: bool) -> timedelta:
        """How long after the change that gives it the move a bot seat's turn is due: the
        :attr:`exhibition_pace` in a game whose players still in (``user_ids``) are all bots
        and that has no clock (``clocked``), so spectators can follow its boards; else at
        once. A game with a clock keeps its bots' time for their moves (a pace would spend
        it), and with a person playing nobody should wait longer than the search."""
        if clocked or not all(is_bot(user_id) for user_id in user_ids):
            return timedelta(0)
        return self.exhibition_pace

    async def seats_gone(self, row: GameRow) -> frozenset[int]:
        """The seats that have left ``row``'s game while it went on: resigned from a game
        of three or more players, or, in Orbs, lost their last orb
        (:func:`~bot.service.logbook.left_seats`).

        Who has left changes only with a logged move, and every write that logs one bumps
        the version, so the answer is kept per ``(game id, version)``: the move log is read
        once, and each write of this process carries it to the next version (a commit with
        the seats its moves remove, a draw offer or takeback request as it is), so play goes
        on without reading it again; a change by another process, or an entry the cache
        dropped, reads it again. A log read whose last ply is not ``row``'s (another process
        moved, or took back, meanwhile) is answered but not kept.
        """
        key = (row.id, row.version)
        known = self._gone.get(key)
        if known is not None:
            return known
        logged = await self.database.games.moves(row.id)
        gone = frozenset(seat for seat, _ in left_seats(logged))
        if (logged[-1].ply if logged else 0) == row.ply:
            self._gone.put(key, gone)
        return gone

    async def _bot_pace(
        self,
        row: GameRow,
        meta: GameMeta,
        users: Mapping[int, int],
        *,
        clocked: bool,
        new_moves: Sequence[NewMove],
    ) -> timedelta:
        """:meth:`bot_turn_delay` for the players still in ``row``'s game once ``new_moves``
        are logged, when a bot seat is among ``users`` (seat → user id, the seats to move
        next; else no bot turn is planned and the delay is 0).

        A person who resigns from a game of three or more players that goes on (or, in
        Orbs, loses their last orb) leaves it to the bots, and it becomes an exhibition:
        its boards come at the pace, not at search speed. Only in such a game, without a
        clock and with a pace, are the seats gone asked for (:meth:`seats_gone`, with those
        ``new_moves`` remove). A takeback's rewind plans with no new moves, and never asks:
        takebacks are for two players only.
        """
        players = meta.players
        bot_next = any(is_bot(user_id) for user_id in users.values())
        if not bot_next or clocked or self.exhibition_pace <= timedelta(0):
            return timedelta(0)
        if len(players) < 3 or all(is_bot(p.user_id) for p in players):
            return self.bot_turn_delay((p.user_id for p in players), clocked=clocked)
        gone = await self.seats_gone(row) | {seat for seat, _ in left_seats(new_moves)}
        still_in = (p.user_id for p in players if p.seat not in gone)
        return self.bot_turn_delay(still_in, clocked=clocked)

    def tell_bot_turn(self, loaded: Loaded) -> None:
        """Call the :attr:`bot_turn_listeners` if a seat to move in ``loaded`` is the bot's."""
        players = loaded.meta.players
        if loaded.row.is_active and any(
            0 <= seat < len(players) and is_bot(players[seat].user_id)
            for seat in loaded.row.to_move
        ):
            for listener in list(self.bot_turn_listeners):
                listener(loaded.row.id)

    def forget(self, game_id: int) -> None:
        """Drop the cached position of ``game_id`` (after a write that may not have landed)."""
        self._positions.pop(game_id)

    # ---- loading -------------------------------------------------------------------------

    async def active_row(self, channel_id: int) -> GameRow:
        """The game in progress in ``channel_id`` (a channel or thread); raises
        :class:`NoGameHereError` when there is none."""
        row = await self.database.games.active_in_channel(channel_id)
        if row is None:
            raise NoGameHereError()
        return row

    async def shown_row(self, channel_id: int) -> GameRow:
        """The game ``/board`` and ``/game info`` show in ``channel_id``: the one in progress,
        else the last one played there (finished or aborted); raises
        :class:`NoGameHereError` when the channel never had a game."""
        row = await self.database.games.latest_in_channel(channel_id)
        if row is None:
            raise NoGameHereError()
        return row

    async def reload(self, row: GameRow) -> Loaded:
        """Under the game's lock: ``row`` refreshed if this process changed it meanwhile."""
        cached = self._positions.get(row.id)
        if cached is not None and cached.version > row.version:
            fresh = await self.database.games.get(row.id)
            if fresh is None:
                raise NoGameHereError()
            if not fresh.is_active:
                # It was active when the caller looked: a resignation, draw or last move
                # of someone else won the race for the lock.
                raise NoGameHereError("This game has already ended.")
            row = fresh
        return await self.load_row(row)

    async def load_row(self, row: GameRow) -> Loaded:
        """``row`` with its meta (engine, options, seats), its position (the cache's entry,
        read again only when ``row.version`` moved on), its clocks and, for a finished rated
        game, its rating changes. Reads only; takes no lock."""
        meta = await self.game_meta(row)
        position = await self.position(row, meta)
        loaded = Loaded(row, meta, position, await self.read_clocks(row))
        if row.rated and not row.is_active and self.ratings is not None:
            changes = await self.database.ratings.changes_of_game(row.id)
            loaded = replace(loaded, ratings=self.ratings.changes(changes, meta.players))
        return loaded

    async def _rating_hook(
        self,
        loaded: Loaded,
        status: str,
        outcome: Outcome | None,
        new_moves: Sequence[NewMove],
        now: datetime,
    ) -> tuple[RatingHook | None, bool]:
        """The rating update to write with the change that ends ``loaded``'s game (after
        ``new_moves``), or ``None``; and whether the game ends with fewer plies played by
        seats than it has players (:attr:`Loaded.ended_too_soon`). Reads the move log once,
        at the end of a game only: the plies seats played decide "fewer plies than
        players" (a resignation logged as ``[k]resign`` is no move played: Generatorb and
        Arbos log none, and one move then a resignation must be unrated in every game;
        ``db.ratings`` counts the same way)."""
        if status != "finished" or self.ratings is None:
            return None, False
        logged = await self.database.games.moves(loaded.row.id)
        plies = [(m.seat, m.text) for m in logged] + [(m.seat, m.text) for m in new_moves]
        # An agreed draw the engine plays (Orbs' `draw`) is no move played either.
        decided = loaded.meta.engine.bot_decided_moves
        seat_plies = sum(
            1
            for seat, text in plies
            if seat is not None and text != resign_move_text(seat) and text not in decided
        )
        too_soon = seat_plies < len(loaded.meta.players)
        return self.ratings.hook(loaded, status, outcome, seat_plies, now), too_soon

    def _with_ratings(self, loaded: Loaded, rated: tuple[RatingHook | None, bool]) -> Loaded:
        """``loaded`` after the write that ended it: its rating changes, if ``rated``'s hook
        wrote any, and whether it ended too soon to be rated."""
        hook, too_soon = rated
        if too_soon:
            loaded = replace(loaded, ended_too_soon=True)
        if hook is None or not hook.written or self.ratings is None:
            return loaded
        return replace(loaded, ratings=self.ratings.changes(hook.written, loaded.meta.players))

    async def game_meta(self, row: GameRow) -> GameMeta:
        """The game's :class:`GameMeta`: cached while it is active, read afresh once it is
        over. Its seats never change during play, but ``/forget-me`` (refused while the user
        plays) rewrites them in finished games, in any process (docs/ratings.md), and an
        ended game is shown too rarely for its cache entry to pay."""
        active = row.status == GameStatus.ACTIVE
        meta = self._meta.get(row.id) if active else None
        if meta is not None:
            return meta
        engine = get_engine(row.game)
        seat_rows = await self.database.games.seats(row.id)
        options = _codec.load_options(row.options_json)
        names = engine.seat_names(len(seat_rows), options)
        players = tuple(
            Player(s.seat, s.user_id, names[s.seat] if s.seat < len(names) else f"Seat {s.seat}")
            for s in seat_rows
        )
        meta = GameMeta(
            engine=engine,
            players=players,
            options=options,
            options_text=format_options(engine.info, options),
            seed=row.seed,
            start_position=row.start_position,
        )
        if active:
            self._meta.put(row.id, meta)
        else:
            self._meta.pop(row.id)
        return meta

    async def position(self, row: GameRow, meta: GameMeta) -> PositionEntry:
        """The cache's entry for ``row``: its state (``engine.loads``, not the position
        notation) and its last :data:`RECENT_MOVES` log rows, read from the database only
        when the cached entry is of another version."""
        cached = self._positions.get(row.id)
        if cached is not None and cached.version == row.version:
            return cached
        state = meta.engine.loads(row.state_json)
        log_rows = await self.database.games.moves(row.id, since_ply=max(0, row.ply - RECENT_MOVES))
        position = PositionEntry(
            row.version, state, tuple(move_record(m, m.created_at) for m in log_rows)
        )
        # Never replace a newer entry with an older one read concurrently.
        latest = self._positions.get(row.id)
        if latest is None or latest.version < row.version:
            self._positions.put(row.id, position)
        return position

    def only_moves(self, loaded: Loaded) -> tuple[str, ...]:
        """:attr:`GameSnapshot.only_moves`: the seat to move's legal moves if few, else ``()``."""
        row, meta = loaded.row, loaded.meta
        if not row.is_active or meta.engine.info.has_hidden_information:
            return ()
        if len(row.to_move) != 1 or row.to_move[0] < 0:
            return ()
        moves = meta.engine.few_legal_moves(loaded.position.state, row.to_move[0], FEW_MOVES)
        return moves or ()

    @staticmethod
    def prompt(loaded: Loaded) -> str | None:
        """:attr:`GameSnapshot.prompt`: the engine's word on the one seat to move's decision."""
        row = loaded.row
        if not row.is_active or len(row.to_move) != 1 or row.to_move[0] < 0:
            return None
        return loaded.meta.engine.prompt(loaded.position.state, row.to_move[0])

    def snapshot(self, loaded: Loaded) -> GameSnapshot:
        """The record the bot layer is given of ``loaded`` (:class:`GameSnapshot`): public
        fields only (the public view and position); private views are asked for apart."""
        row, meta, position = loaded.row, loaded.meta, loaded.position
        engine = meta.engine
        outcome = _codec.load_outcome(row.outcome_json)
        return GameSnapshot(
            game_id=row.id,
            game=row.game,
            game_name=engine.info.name,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            status=str(row.status),
            version=row.version,
            ply=row.ply,
            players=meta.players,
            to_move=row.to_move,
            only_moves=self.only_moves(loaded),
            prompt=self.prompt(loaded),
            options=meta.options,
            options_text=meta.options_text,
            outcome=outcome,
            draw_offer_seat=row.draw_offer_seat,
            draw_agreed=row.draw_agreed,
            position=public_position(engine, position.state, active=row.is_active),
            view=public_view(engine, position.state, outcome),
            last_moves=position.recent,
            board_message_id=row.board_message_id,
            watchers=row.watchers,
            created_at=row.created_at,
            updated_at=row.updated_at,
            hidden_information=engine.info.has_hidden_information,
            parent_channel_id=row.parent_channel_id,
            takeback_seat=row.takeback_seat,
            clock=row.clock,
            finished_at=row.finished_at,
            rated=row.rated,
            clock_text=ClockSpec.parse(row.clock).describe(),
            clocks=self.seat_clocks(loaded),
            rating_changes=loaded.ratings,
            ended_too_soon=loaded.ended_too_soon,
        )

    # ---- seats ---------------------------------------------------------------------------

    def acting_seat(self, loaded: Loaded, user_id: int) -> int:
        """The seat ``user_id`` acts for now (the first of theirs among the seats to move);
        raises :class:`NotAPlayerError` for someone with no seat, :class:`NotYourTurnError`
        (naming who the game waits for) when none of theirs is to move."""
        seats = loaded.meta.seats_of(user_id)
        if not seats:
            raise NotAPlayerError()
        for seat in seats:
            if seat in loaded.row.to_move:
                return seat
        raise NotYourTurnError(self.waiting_for(loaded))

    async def moving_seat(self, loaded: Loaded, user_id: int) -> int:
        """:meth:`acting_seat`, except that a player whose every seat has left the game
        (:meth:`seats_gone`: resigned from a game of three or more, or out of orbs) hears so,
        a :class:`NotAPlayerError`, instead of "not your turn" as if their turn would come.
        The move log is read only on that refusal."""
        try:
            return self.acting_seat(loaded, user_id)
        except NotYourTurnError:
            gone = await self.seats_gone(loaded.row)
            if all(seat in gone for seat in loaded.meta.seats_of(user_id)):
                raise NotAPlayerError(
                    "You have left this game, so you have no more moves in it.", seated=True
                ) from None
            raise

    @staticmethod
    def waiting_for(loaded: Loaded) -> tuple[int, ...]:
        """The user ids of the seats to move, each once, in seat order (chance: none)."""
        players = loaded.meta.players
        return tuple(dict.fromkeys(players[s].user_id for s in loaded.row.to_move if s >= 0))

    # ---- writes --------------------------------------------------------------------------

    async def settle(
        self, loaded: Loaded, *, now: datetime | None = None, board_post: bool = False
    ) -> Loaded:
        """Play the automatic steps (chance, forced moves) the stored game waits at, before
        anyone acts.

        A game that starts at a chance node (an opening roll) gets here right after it is
        created (with ``board_post``: the caller posts the first board, as :meth:`commit`
        says); any other game only if a process stopped between writes.
        """
        state, moves, _ = automatic_steps(loaded.meta, loaded.position.state, loaded.row.ply + 1)
        if not moves:
            return loaded
        return await self.commit(loaded, state, moves, now=now, board_post=board_post)

    async def commit(
        self,
        loaded: Loaded,
        state: Any,
        moves: Sequence[NewMove],
        *,
        movers: Sequence[int] = (),
        timed_out: Collection[int] = (),
        now: datetime | None = None,
        board_post: bool = False,
    ) -> Loaded:
        """Commit ``moves`` leading to ``state`` (compare-and-set) and refresh the caches.

        The same transaction writes the turn change's clocks and timers
        (:meth:`_plan_turn_change`): ``movers`` are the seats that chose a move (they get
        their increment), ``timed_out`` the seats whose time-out these moves are; ``now``
        (default: the service's clock) is when it all happened. With ``board_post`` (a
        change whose caller posts the board after it) the change also gets a ``board_post``
        timer (:func:`~bot.service.clock_plans.plan_board_post`), so its board is posted even
        if this process stops before it does.
        """
        engine = loaded.meta.engine
        outcome = engine.outcome(state)
        now = self.now() if now is None else now
        clock_changes = await self.plan_turn_change(
            loaded.row,
            to_move_after=engine.to_move(state),
            movers=movers,
            now=now,
            timed_out=timed_out,
            clocks=loaded.clocks,
            ply_after=moves[-1].ply,
            new_moves=moves,
        )
        if board_post:
            announce = plan_board_post(loaded.row.id, loaded.row.version + 1, now)
            clock_changes = merge_changes(clock_changes, announce)
        status = "active" if outcome is None else "finished"
        rating = await self._rating_hook(loaded, status, outcome, moves, now)
        try:
            row = await self.database.games.commit_moves(
                loaded.row.id,
                loaded.row.version,
                moves=moves,
                state_json=engine.dumps(state),
                ply=moves[-1].ply,
                to_move=engine.to_move(state),
                status=status,
                outcome_json=_codec.dump_outcome(outcome),
                termination=None if outcome is None else outcome.termination,
                now=now,
                clock_changes=clock_changes,
                rating=rating[0],
            )
        except CHANGED_MEANWHILE as exc:
            self._positions.pop(loaded.row.id)
            raise StaleActionError(
                "Someone changed this game at the same moment; look at the board and try again."
            ) from exc
        if outcome is not None:
            log.info("game %d: ended by %s", row.id, outcome.termination)
        records = tuple(move_record(m, row.updated_at) for m in moves)
        recent = (*loaded.position.recent, *records)[-RECENT_MOVES:]
        position = PositionEntry(row.version, state, recent)
        self._positions.put(row.id, position)
        self._carry_gone(loaded.row, row, moves)
        committed = Loaded(row, loaded.meta, position, await self.read_clocks(row))
        committed = self._with_ratings(committed, rating)
        self.tell_bot_turn(committed)
        return committed

    async def finish(
        self,
        loaded: Loaded,
        status: str,
        outcome: Outcome | None,
        *,
        timed_out: Collection[int] = (),
        now: datetime | None = None,
        board_post: bool = False,
    ) -> Loaded:
        """End the game without a move (``status`` ``finished`` or ``aborted``), stopping
        every clock and cancelling the game's timers in the same transaction; ``timed_out``
        seats are left with the bank a time-out leaves (zero plus the increment). With
        ``board_post`` (a caller that posts the final board next: ``/resign``) the end also
        gets a ``board_post`` timer, scheduled after the cancellations, as :meth:`commit`
        does, so the result is posted even if this process stops first."""
        termination = outcome.termination if outcome is not None else status
        now = self.now() if now is None else now
        clock_changes = await self.plan_turn_change(
            loaded.row,
            to_move_after=(),
            movers=(),
            now=now,
            timed_out=timed_out,
            clocks=loaded.clocks,
        )
        if board_post:
            announce = plan_board_post(loaded.row.id, loaded.row.version + 1, now)
            clock_changes = merge_changes(clock_changes, announce)
        rating = await self._rating_hook(loaded, status, outcome, (), now)
        try:
            row = await self.database.games.finish(
                loaded.row.id,
                loaded.row.version,
                status=status,
                outcome_json=_codec.dump_outcome(outcome),
                termination=termination,
                now=now,
                clock_changes=clock_changes,
                rating=rating[0],
            )
        except CHANGED_MEANWHILE as exc:
            self._positions.pop(loaded.row.id)
            raise StaleActionError() from exc
        restamped = self.restamp(loaded, row)
        return self._with_ratings(replace(restamped, clocks=await self.read_clocks(row)), rating)

    def restamp(self, loaded: Loaded, row: GameRow) -> Loaded:
        """The same position under the new version a non-move change produced."""
        old = loaded.position
        position = PositionEntry(row.version, old.state, old.recent, old.legal)
        self._positions.put(row.id, position)
        self._carry_gone(loaded.row, row, ())
        return Loaded(row, loaded.meta, position, loaded.clocks)

    def _carry_gone(self, before: GameRow, after: GameRow, moves: Sequence[NewMove]) -> None:
        """Keep :meth:`seats_gone` for ``after``, the row this process's write of ``moves``
        (none for a draw offer or a takeback request) made of ``before``, when it is known
        for ``before`` and the write was the next version: the seats ``moves`` remove join
        it, so the move log need not be read again."""
        gone = self._gone.get((before.id, before.version))
        if gone is not None and after.version == before.version + 1:
            leaving = frozenset(seat for seat, _ in left_seats(moves))
            self._gone.put((after.id, after.version), gone | leaving)

    # ---- the turn change's clocks and timers ----------------------------------------------

    async def plan_turn_change(
        self,
        row: GameRow,
        *,
        to_move_after: tuple[int, ...],
        movers: Sequence[int],
        now: datetime,
        timed_out: Collection[int] = (),
        clocks: Sequence[ClockRow] | None = None,
        ply_after: int | None = None,
        new_moves: Sequence[NewMove] = (),
    ) -> ClockChanges | None:
        """The clock writes and timers of a change that leaves ``to_move_after`` to act in
        game ``row`` (as read before the change, whose write bumps its version by one).

        ``movers`` chose a move (each gets its increment, :meth:`SeatClock.after_move`;
        raises :class:`~bot.service.clocks.OutOfTimeError` for a hard clock that ran out),
        ``timed_out`` had its time-out applied; the seats to move next start their clocks
        (paused until their player's vacation ends) and get their deadline timers, every
        other clock stops (:func:`~bot.service.clocks.plan_turn`). Every seat to move next
        whose player wants reminders gets a ``reminder`` timer after its quiet time, with
        the game's version after the change; the reminders of seats no longer to move are
        cancelled (:func:`~bot.service.clocks.plan_reminders`). Once nobody is to move (the
        game is over) every clock stops and every timer of the game is cancelled.

        ``clocks`` are the game's clock rows if the caller read them with ``row`` (else they
        are read here); ``ply_after`` is the game's ply after the change, stored in the
        reminders' payload beside the version when given; ``new_moves`` are the moves the
        change logs. A seat the bot plays gets a ``bot_turn`` timer instead of reminders,
        due now, or after the exhibition pace once only bots are still in (:meth:`_bot_pace`,
        :func:`~bot.service.clock_plans.plan_bot_turns`). Returns ``None`` only when there
        is nothing to write.
        """
        rows = list(clocks) if clocks is not None else await self.read_clocks(row)
        following = tuple(seat for seat in to_move_after if seat >= 0)
        if not following:
            stop = plan_turn(rows, movers, (), now, timed_out=timed_out)
            return merge_changes(stop, ClockChanges(cancel=(TimerCancel(row.id),)))
        meta = await self.game_meta(row)
        users = {seat: meta.players[seat].user_id for seat in following}
        paused, due, seen = await self.turn_start(row.guild_id, users, now)
        turn = plan_turn(rows, movers, following, now, paused_until=paused, timed_out=timed_out)
        reminders = plan_reminders(
            row.id, before=row.to_move, due=due, version=row.version + 1, ply=ply_after
        )
        # Clocks start (or not) by the vacations read: the write checks they did not change.
        checks = ClockChanges(vacations_seen=seen) if rows and seen else None
        delay = await self._bot_pace(row, meta, users, clocked=bool(rows), new_moves=new_moves)
        bot_turns = plan_bot_turns(row.id, users, now + delay, ply_after)
        return merge_changes(checks, turn, reminders, bot_turns)

    async def turn_start(
        self, guild_id: int | None, users: Mapping[int, int], now: datetime
    ) -> tuple[dict[int, datetime], dict[int, datetime], tuple[tuple[int, int | None], ...]]:
        """For the seats in ``users`` (seat → user id) whose turn starts at ``now``, in one
        read (:meth:`db.clocks.ClocksRepo.turn_context`): when each seat's turn really
        starts, for those whose player is on vacation (seat → end of the vacation), when
        each seat's reminder is due, for those whose player wants reminders (the quiet time
        of :func:`~bot.service.clocks.reminder_delay` after the turn starts), and the
        ``(user id, vacation row version or None)`` read, for the write to check
        (:attr:`db.rows.ClockChanges.vacations_seen`)."""
        users = {seat: user_id for seat, user_id in users.items() if not is_bot(user_id)}
        if not users:  # the bot takes no vacation and needs no reminder
            return {}, {}, ()
        context = await self.database.clocks.turn_context(users.values(), guild_id)
        paused: dict[int, datetime] = {}
        due: dict[int, datetime] = {}
        seen = tuple(
            (user_id, None if (row := context.vacations.get(user_id)) is None else row.version)
            for user_id in sorted(set(users.values()))
        )
        for seat, user_id in users.items():
            away = context.vacations.get(user_id)
            if away is not None and away.until is not None and away.until > now:
                paused[seat] = away.until
            delay = reminder_delay(context.users[user_id], context.guild, self.reminder_quiet)
            if delay is not None:
                due[seat] = max(now, paused.get(seat, now)) + delay
        return paused, due, seen

    async def read_clocks(self, row: GameRow) -> tuple[ClockRow, ...]:
        """The seat clocks of game ``row`` (none for a game without a clock: no read)."""
        if row.clock == "none":
            return ()
        return tuple(await self.database.clocks.for_game(row.id))

    def seat_clocks(self, loaded: Loaded) -> tuple[SeatClockInfo, ...]:
        """:attr:`GameSnapshot.clocks` as of now."""
        if not loaded.clocks:
            return ()
        now = self.now()
        infos = []
        for clock_row in loaded.clocks:
            clock = SeatClock.from_row(clock_row)
            infos.append(
                SeatClockInfo(
                    seat=clock_row.seat,
                    time_left_ms=clock_rules.to_ms(clock.time_left(now)),
                    running=clock.running,
                    paused_until=clock.running_since if clock.paused(now) else None,
                    flagged=clock.out_of_time(now),
                    deadline=clock.deadline,
                    mode=ClockSpec.parse(clock_row.spec).mode.value,
                    as_of=now,
                )
            )
        return tuple(infos)
