"""``GameService``: challenge → seats → moves → end, without a word of Discord.

Every write follows the same pattern: take the game's in-process lock (so two commands in this
process queue instead of racing), load the game row, let the engine decide, then write with a
compare-and-set on ``games.version`` (so two *processes* cannot both land a change made against
the same position). A change is committed before the caller hears of it; errors a user caused
are :class:`~bot.service.errors.ServiceError` subclasses with one friendly sentence.

Randomness: each game has a seed drawn when it starts. Seat assignment (the spec's coin flip)
comes from a stream derived from it (:mod:`bot.service.randomness`); chance outcomes (dice)
come from the engine's own seeded generator (:meth:`~engines.base.Engine.sample_chance`, the
one ``python -m engines`` uses too) and are logged, so a replay of the move log is exact.

Clocks (:mod:`bot.service.clocks`, ``docs/clocks.md``): every write that changes whose turn it
is carries, in its transaction, the seats' clocks after it and the timers of the next turn
(:meth:`GameService._plan_turn_change`: deadlines, a hard clock's final warning, reminders).
A seat's time-out (:meth:`GameService.clock_timer_fired`, :meth:`GameService.claim_on_time`, a
move made too late) plays the game's own time-out moves, else loses (two players) or resigns.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.service import _codec
from bot.service import clocks as clock_rules
from bot.service._cache import GameMeta, Lru, PositionEntry
from bot.service.clocks import (
    CLOCK_TIMER,
    ClaimError,
    ClockMode,
    ClockSpec,
    OutOfTimeError,
    SeatClock,
    VacationBook,
    VacationError,
    format_duration,
    merge_changes,
    plan_reminders,
    plan_start,
    plan_turn,
    reminder_delay,
    start_timers,
    timeout_rng,
)
from bot.service.errors import (
    AbortNotAllowedError,
    ChallengeClosedError,
    ChallengeNotFoundError,
    ChallengeSetupError,
    ChannelBusyError,
    DrawOfferError,
    InvalidMoveError,
    LobbyError,
    NoGameHereError,
    NotAPlayerError,
    NotChallengedError,
    NotYourTurnError,
    ServiceError,
    StaleActionError,
)
from bot.service.locks import KeyedLock
from bot.service.matching import filter_moves
from bot.service.models import (
    FEW_MOVES,
    PRIVATE_EVENTS,
    ChallengeInfo,
    ChallengePlayer,
    ClockEvent,
    ClockEventKind,
    DrawOffer,
    FinalWarning,
    GameSnapshot,
    LobbyUpdate,
    MoveRecord,
    Player,
    PrivateEvent,
    PrivateView,
    ReplayReport,
    SeatClockInfo,
    TakebackAnswer,
    TakebackRequest,
    TurnResult,
    VacationGame,
    VacationInfo,
)
from bot.service.options import format_options, resolve_challenge_options
from bot.service.randomness import random_seed, seat_order
from db import ChallengeChangedError as DbChallengeChangedError
from db import ChallengeClosedError as DbChallengeClosedError
from db import (
    ChallengeEntry,
    ChallengePlayerRole,
    ChallengePlayerStatus,
    ChallengeRow,
    Database,
    GameRow,
    MoveRow,
    NewMove,
)
from db import ChallengeFullError as DbChallengeFullError
from db import ChannelBusyError as DbChannelBusyError
from db import GameNotActiveError as DbGameNotActiveError
from db import StaleVersionError as DbStaleVersionError
from db.clocks import ClockChangedError, VacationChangedError
from db.rows import ClockChanges, ClockRow, NewTimer, TimerCancel, TimerRow
from engines import get_engine
from engines.base import (
    CHANCE,
    AmbiguousMoveError,
    Engine,
    Event,
    GameOverError,
    IllegalMoveError,
    MoveError,
    Outcome,
    UsageError,
)
from engines.base import NotYourTurnError as EngineNotYourTurnError
from render import render_png

if TYPE_CHECKING:  # records builds on this module, which imports it where it is used
    from bot.service.records import BoardAtPly, GameRecord

__all__ = [
    "DEFAULT_CHALLENGE_TTL",
    "GameService",
    "private_events_of",
    "public_events",
    "resign_move_text",
    "utc_now",
]

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
#: Called with every time-out the service applied while answering something else (a move
#: made too late on a hard clock), so the bot can announce it.
ClockListener = Callable[[ClockEvent], Awaitable[None]]

DEFAULT_CHALLENGE_TTL = timedelta(hours=24)
#: How long a turn stays quiet before its player is reminded, unless the guild or the user
#: chose another quiet time.
DEFAULT_REMINDER_QUIET = timedelta(hours=24)
#: Vacation each user may take per calendar year.
DEFAULT_VACATION_ALLOWANCE = timedelta(days=30)
#: How many of the last moves a snapshot carries (``/game info``).
RECENT_MOVES = 8
#: Event kind of the notice logged with every move the bot plays because a seat's time ran
#: out. Unlike a forced pass's ``automatic`` notice it is the timed-out seat's turn: the
#: opponent's last move cannot be taken back across it.
TIMEOUT_EVENT = "timeout"
#: Most autocomplete choices Discord shows.
MAX_AUTOCOMPLETE = 25
#: A chance node that leads to another chance node more often than this is an engine bug.
MAX_CHANCE_CHAIN = 64
#: Forced moves the bot plays in a row before it leaves the players to pass themselves.
MAX_AUTOMATIC_STEPS = 32
#: How often a lobby press reads and decides again when other presses keep landing first.
LOBBY_ATTEMPTS = 5


def utc_now() -> datetime:
    """The current time as an aware UTC datetime (the default clock)."""
    return datetime.now(UTC)


def _sentence(text: str) -> str:
    """An engine message (``"an orb never steps (G15)"``) as a sentence."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."


@dataclass(frozen=True, slots=True)
class _Loaded:
    """A game row read under its lock, with its metadata, position and (for a game with a
    clock) its seat clocks in seat order, read with the row."""

    row: GameRow
    meta: GameMeta
    position: PositionEntry
    clocks: tuple[ClockRow, ...] = ()


class GameService:
    """Sessions of every game in every channel, persisted in ``database``.

    ``clock`` returns aware UTC datetimes (inject a fake in tests); ``rng_seed_source``
    returns a new game's seed; ``challenge_ttl`` is how long a challenge stays open.
    ``default_clock`` is the clock text of a challenge that names none (``none``: casual);
    ``reminder_quiet`` how long a turn stays quiet before its player is reminded when
    neither the user nor the guild chose; ``vacation_allowance`` the vacation each user may
    take per calendar year. One service per process; several processes may share the
    database.

    Raises :class:`ValueError` for a ``default_clock`` that is not a clock, or a quiet time
    or allowance that is negative.
    """

    def __init__(
        self,
        database: Database,
        *,
        clock: Clock = utc_now,
        rng_seed_source: Callable[[], int] = random_seed,
        challenge_ttl: timedelta = DEFAULT_CHALLENGE_TTL,
        cache_size: int = 512,
        default_clock: str = "none",
        reminder_quiet: timedelta = DEFAULT_REMINDER_QUIET,
        vacation_allowance: timedelta = DEFAULT_VACATION_ALLOWANCE,
    ) -> None:
        if min(reminder_quiet, vacation_allowance) < timedelta(0):
            raise ValueError("the reminder quiet time and vacation allowance cannot be negative")
        self.database = database
        self._clock = clock
        self._seed_source = rng_seed_source
        self.challenge_ttl = challenge_ttl
        self.default_clock = str(ClockSpec.parse(default_clock))
        self.reminder_quiet = reminder_quiet
        self.vacation_allowance = vacation_allowance
        self._clock_listeners: list[ClockListener] = []
        self._locks: KeyedLock[int] = KeyedLock()
        self._meta: Lru[int, GameMeta] = Lru(cache_size)
        self._positions: Lru[int, PositionEntry] = Lru(cache_size)

    def _now(self) -> datetime:
        now = self._clock()
        if now.tzinfo is None:
            raise ValueError("the service clock must return aware datetimes")
        return now

    @asynccontextmanager
    async def _game_lock(self, game_id: int) -> AsyncIterator[None]:
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

    # ========================================================================================
    # Challenges
    # ========================================================================================

    async def create_challenge(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        challenger_id: int,
        game: str,
        opponent_ids: Sequence[int] = (),
        players: int | None = None,
        options_text: str | None = None,
        preset: str | None = None,
        clock: str | None = None,
        seating: Sequence[int] | None = None,
        rematch_of: int | None = None,
    ) -> ChallengeInfo:
        """Open a challenge (a lobby) to play ``game`` in ``channel_id``.

        ``opponent_ids`` are the users invited, in order: a seat is reserved for each until
        they Accept or Decline. ``players`` is the number of seats; by default the
        challenger plus the opponents named, or the game's ``default_players`` when nobody
        was named. Seats left over are open: anyone may Join. ``options_text`` is ``key=value
        …`` text and ``preset`` a preset id of the game. Everything is validated now,
        options together with the player count (a new game is set up and thrown away), so
        a challenge that could never start is never posted.

        ``clock`` is the clock text (:meth:`bot.service.clocks.ClockSpec.parse`: ``none``,
        ``correspondence``, ``hard:3d+1d/5d`` …; the service's ``default_clock`` when not
        given), stored canonical. ``seating``
        fixes the seat order (user ids, challenger and every opponent once each, one per
        seat; a rematch) instead of drawing it when the game starts; ``rematch_of`` names the
        game a rematch comes from.

        Raises :class:`ChallengeSetupError` (unknown game, a player count the game does not
        allow, a bad option, preset or clock — the message lists what is allowed —, a
        challenge to oneself, an opponent named twice, more opponents than seats, or a
        ``seating`` that does not seat exactly the challenger and the opponents).
        """
        invited = list(opponent_ids)
        if challenger_id in invited:
            raise ChallengeSetupError("You cannot challenge yourself.")
        if len(set(invited)) != len(invited):
            raise ChallengeSetupError("You named the same opponent twice.")
        try:
            engine = get_engine(game)
            seats = players
            if seats is None:
                seats = 1 + len(invited) if invited else engine.info.default_players
            engine.check_players(seats)
            options = resolve_challenge_options(engine, options_text, preset)
            engine.new_game(seats, options, 0)
        except UsageError as exc:
            raise ChallengeSetupError(_sentence(str(exc))) from exc
        if 1 + len(invited) > seats:
            raise ChallengeSetupError(
                f"You named {len(invited)} opponents, but a game for {seats} players has "
                f"room for only {seats - 1}."
            )
        try:
            clock_spec = ClockSpec.parse(clock or self.default_clock)
        except ValueError as exc:
            raise ChallengeSetupError(_sentence(str(exc))) from exc
        if seating is not None and (
            len(seating) != seats or sorted(seating) != sorted([challenger_id, *invited])
        ):
            raise ChallengeSetupError("A fixed seating must seat every player once.")
        now = self._now()
        row = await self.database.challenges.create(
            guild_id=guild_id,
            channel_id=channel_id,
            challenger_id=challenger_id,
            invited_ids=invited,
            players=seats,
            game=engine.info.id,
            options_json=_codec.dump_options(options),
            now=now,
            expires_at=now + self.challenge_ttl,
            clock=str(clock_spec),
            seating=seating,
            rematch_of=rematch_of,
        )
        log.info(
            "challenge %d: %s for %d by %d, invited %s, in channel %d",
            row.id,
            row.game,
            seats,
            challenger_id,
            invited or "nobody",
            channel_id,
        )
        return self._challenge_info(row)

    async def get_challenge(self, challenge_id: int) -> ChallengeInfo:
        """The challenge as stored; raises :class:`ChallengeNotFoundError`."""
        row = await self.database.challenges.get(challenge_id)
        if row is None:
            raise ChallengeNotFoundError()
        return self._challenge_info(row)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the message that shows the challenge, to edit it when it closes."""
        await self.database.challenges.set_message(challenge_id, message_id)

    # Every lobby press below is: read the open challenge, decide (a pure function that
    # raises the user's mistake), write with a compare-and-set on the lobby's version. If
    # another press landed in between, read again and decide again, so two presses for
    # different seats both land, and of two presses for the last seat exactly one does.
    # The press that fills the last seat (or Start) creates the game in the same
    # transaction: a game starts exactly once, from exactly the lobby its players saw.

    async def accept_challenge(
        self,
        challenge_id: int,
        user_id: int,
        *,
        channel_id: int | None = None,
        parent_channel_id: int | None = None,
    ) -> LobbyUpdate:
        """An invited user takes the seat reserved for them (Accept).

        If that fills the last seat the game starts, atomically, in ``channel_id`` (default:
        the challenge's channel; pass a thread and its ``parent_channel_id`` when the
        channel is busy), seats drawn at random from the new game's seed. Raises
        :class:`ChallengeNotFoundError`, :class:`ChallengeClosedError` (answered, cancelled
        or expired: a double click lands here), :class:`NotChallengedError` (the challenger,
        or a user not invited), :class:`LobbyError` (already seated, or gave the seat up),
        :class:`ChallengeSetupError` (the options no longer fit the player count) and
        :class:`ChannelBusyError` when the game would start in a channel that already has
        one (nothing is written; the caller may press again in a thread).
        """
        return await self._lobby_press(
            challenge_id,
            user_id,
            _accept_press,
            channel_id=channel_id,
            parent_channel_id=parent_channel_id,
        )

    async def join_challenge(
        self,
        challenge_id: int,
        user_id: int,
        *,
        channel_id: int | None = None,
        parent_channel_id: int | None = None,
    ) -> LobbyUpdate:
        """Anyone not in the lobby takes an open seat (Join); an invited user who presses
        Join accepts. Starts the game when it fills the last seat, as
        :meth:`accept_challenge` does, with the same errors (:class:`LobbyError` when every
        seat is taken or reserved, or the user already has one)."""
        return await self._lobby_press(
            challenge_id,
            user_id,
            _join_press,
            channel_id=channel_id,
            parent_channel_id=parent_channel_id,
        )

    async def decline_challenge(self, challenge_id: int, user_id: int) -> LobbyUpdate:
        """An invited user turns the invitation down (Decline).

        In a two-seat challenge that closes it (status ``declined``); with more seats it
        only frees the user's seat for anyone to Join. Raises :class:`NotChallengedError`
        for a user with no pending invitation, and the errors of :meth:`accept_challenge`
        for a missing or closed challenge.
        """
        return await self._lobby_press(challenge_id, user_id, _decline_press)

    async def leave_challenge(self, challenge_id: int, user_id: int) -> LobbyUpdate:
        """A seated user (not the challenger, who cancels instead) gives up their seat before
        the game starts (Leave). Raises :class:`NotChallengedError` for anyone without a
        seat, and the errors of :meth:`accept_challenge` for a missing or closed challenge."""
        return await self._lobby_press(challenge_id, user_id, _leave_press)

    async def start_challenge(
        self,
        challenge_id: int,
        user_id: int,
        *,
        channel_id: int | None = None,
        parent_channel_id: int | None = None,
    ) -> LobbyUpdate:
        """The challenger starts the game with the players seated now (Start).

        Only for games that allow fewer players than the challenge has seats, once at least
        the game's ``min_players`` are seated; invitations not yet answered lapse. Raises
        :class:`NotChallengedError` (not the challenger), :class:`LobbyError` (the game needs
        every seat, or too few are seated) and the errors of :meth:`accept_challenge`.
        """
        return await self._lobby_press(
            challenge_id,
            user_id,
            _start_press,
            channel_id=channel_id,
            parent_channel_id=parent_channel_id,
        )

    async def cancel_challenge(self, challenge_id: int, user_id: int) -> ChallengeInfo:
        """The challenger withdraws. Raises :class:`NotChallengedError` for anyone else."""
        now = self._now()
        challenge = await self._open_challenge(challenge_id, now)
        if user_id != challenge.challenger_id:
            raise NotChallengedError("Only the challenger can cancel this challenge.")
        row = await self.database.challenges.resolve(challenge_id, new_status="cancelled", now=now)
        if row is None:
            raise await self._closed(challenge_id)
        log.info("challenge %d cancelled", challenge_id)
        return self._challenge_info(row)

    async def expire_challenges(self) -> list[ChallengeInfo]:
        """Mark every challenge past its expiry as expired; returns those this call closed
        (each exactly once, even with several processes), so their messages can be edited."""
        rows = await self.database.challenges.expire_due(self._now())
        for row in rows:
            log.info("challenge %d expired", row.id)
        return [self._challenge_info(row) for row in rows]

    async def _lobby_press(
        self,
        challenge_id: int,
        user_id: int,
        decide: Callable[[ChallengeRow, int], _Press],
        *,
        channel_id: int | None = None,
        parent_channel_id: int | None = None,
    ) -> LobbyUpdate:
        """Apply one press to the lobby, deciding again if another press landed first."""
        for _ in range(LOBBY_ATTEMPTS):
            now = self._now()
            row = await self._open_challenge(challenge_id, now)
            press = decide(row, user_id)
            try:
                if press.starts:
                    game = await self._start_game(
                        row, press.entry, now, channel_id, parent_channel_id
                    )
                    return LobbyUpdate(await self.get_challenge(challenge_id), game)
                if press.closes_as is not None:
                    resolved = await self.database.challenges.resolve(
                        challenge_id, new_status=press.closes_as, now=now, entry=press.entry
                    )
                    if resolved is None:
                        continue  # answered or expired meanwhile: the next read says which
                    log.info("challenge %d %s by %d", challenge_id, press.closes_as, user_id)
                    return LobbyUpdate(self._challenge_info(resolved))
                if press.entry is None:  # pragma: no cover - every decision sets one of the three
                    raise RuntimeError(f"lobby press on challenge {challenge_id} changes nothing")
                updated = await self.database.challenges.enter(
                    challenge_id, row.version, press.entry, now=now
                )
            except (DbChallengeChangedError, DbChallengeClosedError, DbChallengeFullError):
                continue
            log.info("challenge %d: %d is %s", challenge_id, user_id, press.entry.status.value)
            return LobbyUpdate(self._challenge_info(updated))
        raise StaleActionError("The lobby kept changing while you pressed; please press again.")

    async def _start_game(
        self,
        challenge: ChallengeRow,
        entry: ChallengeEntry | None,
        now: datetime,
        channel_id: int | None,
        parent_channel_id: int | None,
    ) -> GameSnapshot:
        """Create the game of ``challenge`` with the users seated once ``entry`` is applied,
        accepting the challenge in the same transaction (compare-and-set on its version).

        The same transaction gives every seat its clock (if the challenge has one), starts the
        clocks of the seats to move (paused while their player is on vacation) and plans
        their deadline and reminder timers."""
        engine = get_engine(challenge.game)
        options = engine.resolve_options(_codec.load_options(challenge.options_json))
        seed = self._seed_source()
        seated = _seated_after(challenge, entry)
        if challenge.seating is not None and sorted(challenge.seating) == sorted(seated):
            user_ids = list(challenge.seating)  # a rematch: seats as the challenge fixed them
        else:
            user_ids = seat_order(seed, seated)
        try:
            state = engine.new_game(len(user_ids), options, seed)
        except UsageError as exc:
            raise ChallengeSetupError(_sentence(str(exc))) from exc
        target = challenge.channel_id if channel_id is None else channel_id
        to_move = engine.to_move(state)
        first = {seat: user_ids[seat] for seat in to_move if seat >= 0}
        paused, due = await self._turn_start(challenge.guild_id, first, now)
        new_clocks = plan_start(
            ClockSpec.parse(challenge.clock), len(user_ids), first, now, paused_until=paused
        )

        def first_timers(game_id: int) -> ClockChanges | None:
            reminders = plan_reminders(game_id, before=(), due=due, version=1, ply=0)
            return merge_changes(start_timers(game_id, new_clocks), reminders)

        try:
            row = await self.database.games.create(
                guild_id=challenge.guild_id,
                channel_id=target,
                parent_channel_id=parent_channel_id,
                game=engine.info.id,
                options_json=_codec.dump_options(options),
                rules_version=engine.info.rules_version,
                seed=seed,
                state_json=engine.dumps(state),
                ply=0,
                to_move=to_move,
                user_ids=user_ids,
                now=now,
                challenge_id=challenge.id,
                challenge_version=challenge.version,
                challenge_entry=entry,
                clock=challenge.clock,
                clocks=new_clocks,
                clock_changes=first_timers,
            )
        except DbChannelBusyError as exc:
            raise ChannelBusyError() from exc
        log.info(
            "game %d: %s started in channel %d from challenge %d, seats %s",
            row.id,
            row.game,
            target,
            challenge.id,
            user_ids,
        )
        async with self._game_lock(row.id):
            loaded = await self._load_row(row)
            return self._snapshot(await self._settle(loaded))

    async def _open_challenge(self, challenge_id: int, now: datetime) -> ChallengeRow:
        row = await self.database.challenges.get(challenge_id)
        if row is None:
            raise ChallengeNotFoundError()
        if not row.is_open:
            raise ChallengeClosedError(str(row.status))
        if row.expires_at <= now:
            raise ChallengeClosedError("expired")
        return row

    async def _closed(self, challenge_id: int) -> ChallengeClosedError:
        """The error for a challenge a compare-and-set found no longer open."""
        row = await self.database.challenges.get(challenge_id)
        return ChallengeClosedError("expired" if row is None or row.is_open else str(row.status))

    def _challenge_info(self, row: ChallengeRow) -> ChallengeInfo:
        engine = get_engine(row.game)
        options = _codec.load_options(row.options_json)
        return ChallengeInfo(
            challenge_id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            message_id=row.message_id,
            challenger_id=row.challenger_id,
            game=row.game,
            game_name=engine.info.name,
            players=row.players,
            min_players=engine.info.min_players,
            lobby=tuple(
                ChallengePlayer(p.user_id, p.role.value, p.status.value) for p in row.lobby
            ),
            options=options,
            options_text=format_options(engine.info, options),
            status=str(row.status),
            game_id=row.game_id,
            created_at=row.created_at,
            expires_at=row.expires_at,
            clock=row.clock,
            clock_text=ClockSpec.parse(row.clock).describe(),
            seating=row.seating,
            rematch_of=row.rematch_of,
        )

    # ========================================================================================
    # Moves
    # ========================================================================================

    async def play(
        self, channel_id: int, user_id: int, text: str, seen_version: int | None = None
    ) -> TurnResult:
        """Play ``text`` for ``user_id`` in the active game of ``channel_id``.

        The move (and any chance outcomes it leads to) is committed with the new state in
        one transaction before this returns, with the seats' clocks (the mover's increment,
        the next seat's clock started) and the timers of the new turn (deadlines,
        reminders). ``seen_version``, when given, must be the game's current version (a
        button pressed on an old board is refused). A pending draw offer is declined by the
        move.

        The result carries the public events for everyone and, apart, the private events
        the mover's seats may see (:attr:`TurnResult.private_events`); it says whether the
        mover decides again next (:attr:`TurnResult.turn_goes_on`, for engines with
        :attr:`~engines.base.Engine.many_decisions_per_turn`).

        On a hard clock a move made after the mover's time ran out (before the deadline's
        timer fired) is not played: the time-out is applied instead, as the timer would
        have (:meth:`clock_timer_fired`), the clock listeners hear of it, and
        :class:`~bot.service.clocks.OutOfTimeError` is raised with the
        :class:`~bot.service.models.ClockEvent` and a sentence saying what happened.

        Raises :class:`NoGameHereError`, :class:`NotAPlayerError`, :class:`NotYourTurnError`,
        :class:`InvalidMoveError` (notation, illegal with the engine's reason, or ambiguous
        with candidates), :class:`StaleActionError` (``seen_version`` is old, or another
        process committed a change to this game at the same moment) and
        :class:`~bot.service.clocks.OutOfTimeError`.
        """
        row = await self._active_row(channel_id)
        async with self._game_lock(row.id):
            now = self._now()
            loaded = await self._settle(await self._reload(row), now=now)
            if seen_version is not None and seen_version != loaded.row.version:
                raise StaleActionError()
            seat = self._acting_seat(loaded, user_id)
            if not self._out_of_time(loaded, seat, now, hard_only=True):
                return await self._play_move(loaded, seat, user_id, text, now)
            event = await self._apply_timeout(loaded, seat, now)
        await self._announce(event)
        raise OutOfTimeError(_late_move_sentence(event), event=event)

    async def _play_move(
        self, loaded: _Loaded, seat: int, user_id: int, text: str, now: datetime
    ) -> TurnResult:
        """:meth:`play` once the mover's seat is known and has time: parse, apply, commit."""
        engine = loaded.meta.engine
        try:
            state, canonical, events = engine.play(loaded.position.state, seat, text)
        except EngineNotYourTurnError as exc:
            raise NotYourTurnError(self._waiting_for(loaded)) from exc
        except GameOverError as exc:
            raise StaleActionError("This game has already ended.") from exc
        except MoveError as exc:
            candidates = exc.candidates if isinstance(exc, AmbiguousMoveError) else ()
            raise InvalidMoveError(
                _sentence(exc.message), kind=exc.kind, text=text, candidates=candidates
            ) from exc
        if canonical in engine.bot_decided_moves:
            how = (
                f"use /{canonical} to offer it to your opponent"
                if len(loaded.meta.players) == 2
                else "the bot offers draws by agreement only in two-player games so far"
            )
            raise InvalidMoveError(
                f"`{canonical}` is not a move you can make alone: {how}.",
                kind="illegal",
                text=text,
            )
        ply = loaded.row.ply + 1
        new_moves = [NewMove(ply, seat, canonical, _codec.dump_events(events))]
        state, automatic_moves, automatic_events = self._automatic_steps(
            loaded.meta, state, ply + 1
        )
        updated = await self._commit(
            loaded, state, [*new_moves, *automatic_moves], movers=(seat,), now=now
        )
        all_events = (*events, *automatic_events)
        turn_goes_on = (
            engine.many_decisions_per_turn
            and updated.row.is_active
            and updated.row.to_move == (seat,)
        )
        log.debug(
            "game %d: ply %d %s by seat %d%s",
            loaded.row.id,
            ply,
            canonical,
            seat,
            " (the seat decides again)" if turn_goes_on else "",
        )
        return TurnResult(
            snapshot=self._snapshot(updated),
            seat=seat,
            user_id=user_id,
            move=canonical,
            events=public_events(all_events),
            automatic=tuple(m.text for m in automatic_moves),
            declined_draw_offer=loaded.row.draw_offer_seat is not None,
            private_events=private_events_of(all_events, loaded.meta.seats_of(user_id)),
            turn_goes_on=turn_goes_on,
        )

    async def autocomplete_moves(self, channel_id: int, user_id: int, typed: str) -> list[str]:
        """Up to 25 of the caller's legal moves (canonical) matching what they typed.

        Moves that start with the typed text come first, then moves that start with it once
        separators are ignored (``a1a3`` finds ``a1-a3``), then moves that contain it. Empty
        when there is no game here or it is not the caller's turn: only the seats that may
        act now are answered, and only with their own moves (the engine's
        :meth:`~engines.base.Engine.suggest_moves` or legal moves for that seat), so in a
        game with hidden information nobody is offered what another seat knows. Legal moves
        are cached per game version, so each keystroke costs one indexed read.
        """
        row = await self.database.games.active_in_channel(channel_id)
        if row is None:
            return []
        meta = await self._game_meta(row)
        seats = [s for s in meta.seats_of(user_id) if s in row.to_move]
        if not seats:
            return []
        position = await self._position(row, meta)
        moves: list[str] = []
        for seat in seats:
            suggested = meta.engine.suggest_moves(position.state, seat, typed, MAX_AUTOCOMPLETE)
            if suggested is not None:
                moves.extend(suggested)  # the game completes moves itself (Arbos)
            else:
                legal = self._legal_texts(meta, position, seat)
                moves.extend(filter_moves(legal, typed, limit=MAX_AUTOCOMPLETE))
        return moves[:MAX_AUTOCOMPLETE]

    async def legal_moves(self, channel_id: int, user_id: int) -> list[str]:
        """Every legal move of the caller, canonical and sorted; empty if not their turn."""
        row = await self._active_row(channel_id)
        meta = await self._game_meta(row)
        position = await self._position(row, meta)
        moves: list[str] = []
        for seat in meta.seats_of(user_id):
            if seat in row.to_move:
                moves.extend(self._legal_texts(meta, position, seat))
        return sorted(set(moves))

    def _acting_seat(self, loaded: _Loaded, user_id: int) -> int:
        seats = loaded.meta.seats_of(user_id)
        if not seats:
            raise NotAPlayerError()
        for seat in seats:
            if seat in loaded.row.to_move:
                return seat
        raise NotYourTurnError(self._waiting_for(loaded))

    @staticmethod
    def _waiting_for(loaded: _Loaded) -> tuple[int, ...]:
        players = loaded.meta.players
        return tuple(dict.fromkeys(players[s].user_id for s in loaded.row.to_move if s >= 0))

    @staticmethod
    def _legal_texts(meta: GameMeta, position: PositionEntry, seat: int) -> tuple[str, ...]:
        texts = position.legal.get(seat)
        if texts is None:
            texts = tuple(meta.engine.legal_move_texts(position.state, seat))
            position.legal[seat] = texts
        return texts

    # ---- chance ------------------------------------------------------------------------

    def _automatic_steps(
        self, meta: GameMeta, state: Any, first_ply: int
    ) -> tuple[Any, list[NewMove], list[Event]]:
        """Play the steps nobody decides, from ``state`` on: chance outcomes and forced moves.

        Each chance outcome is drawn by the engine's own generator (seed and draw counter live
        in the state), so another process, or ``python -m engines`` with the same seed and
        moves, draws the same one; it is logged with seat ``None``. For engines with
        :attr:`~engines.base.Engine.plays_forced_moves` (Generator GEN-12), a seat whose only
        legal move is ``pass`` has it played and logged under its seat, with an ``automatic``
        event saying so. After :data:`MAX_AUTOMATIC_STEPS` forced moves in a row the players
        are left to pass themselves, so a position where nobody can ever move cannot spin.
        Returns the state after the last step, the log rows starting at ``first_ply``, and
        their events.
        """
        engine = meta.engine
        moves: list[NewMove] = []
        events: list[Event] = []
        forced = 0
        while True:
            to_move = engine.to_move(state)
            seat: int | None = None
            if to_move == (CHANCE,):
                if len(moves) >= MAX_CHANCE_CHAIN + MAX_AUTOMATIC_STEPS:
                    raise RuntimeError(f"{engine.info.id}: chance nodes without end")
                text = engine.sample_chance(state)
                transition = engine.apply_chance(state, text)
                state, step_events = transition.state, transition.events
            elif engine.plays_forced_moves and len(to_move) == 1 and forced < MAX_AUTOMATIC_STEPS:
                seat = to_move[0]
                only = engine.few_legal_moves(state, seat, 1)
                # Only a forced pass is played for a player (GEN-12, ORB-4): a single real move
                # is still the player's to make, or to resign instead.
                if only != ("pass",):
                    break
                forced += 1
                state, text, played = engine.play(state, seat, only[0])
                who = meta.players[seat].seat_name
                notice = Event("automatic", seat, f"{who} has no other legal move: {text}")
                step_events = (notice, *played)
            else:
                break
            ply = first_ply + len(moves)
            moves.append(NewMove(ply, seat, text, _codec.dump_events(step_events)))
            events.extend(step_events)
        return state, moves, events

    async def _settle(self, loaded: _Loaded, *, now: datetime | None = None) -> _Loaded:
        """Play the automatic steps (chance, forced moves) the stored game waits at, before
        anyone acts.

        A game that starts at a chance node (an opening roll) gets here right after it is
        created; any other game only if a process stopped between writes.
        """
        state, moves, _ = self._automatic_steps(
            loaded.meta, loaded.position.state, loaded.row.ply + 1
        )
        if not moves:
            return loaded
        return await self._commit(loaded, state, moves, now=now)

    async def _commit(
        self,
        loaded: _Loaded,
        state: Any,
        moves: Sequence[NewMove],
        *,
        movers: Sequence[int] = (),
        timed_out: Collection[int] = (),
        now: datetime | None = None,
    ) -> _Loaded:
        """Commit ``moves`` leading to ``state`` (compare-and-set) and refresh the caches.

        The same transaction writes the turn change's clocks and timers
        (:meth:`_plan_turn_change`): ``movers`` are the seats that chose a move (they get
        their increment), ``timed_out`` the seats whose time-out these moves are; ``now``
        (default: the service's clock) is when it all happened.
        """
        engine = loaded.meta.engine
        outcome = engine.outcome(state)
        now = self._now() if now is None else now
        clock_changes = await self._plan_turn_change(
            loaded.row,
            to_move_after=engine.to_move(state),
            movers=movers,
            now=now,
            timed_out=timed_out,
            clocks=loaded.clocks,
            ply_after=moves[-1].ply,
        )
        try:
            row = await self.database.games.commit_moves(
                loaded.row.id,
                loaded.row.version,
                moves=moves,
                state_json=engine.dumps(state),
                ply=moves[-1].ply,
                to_move=engine.to_move(state),
                status="active" if outcome is None else "finished",
                outcome_json=_codec.dump_outcome(outcome),
                termination=None if outcome is None else outcome.termination,
                now=now,
                clock_changes=clock_changes,
            )
        except (DbStaleVersionError, DbGameNotActiveError, ClockChangedError) as exc:
            self._positions.pop(loaded.row.id)
            raise StaleActionError(
                "Someone changed this game at the same moment; look at the board and try again."
            ) from exc
        if outcome is not None:
            log.info("game %d: ended by %s", row.id, outcome.termination)
        records = tuple(_record(m, row.updated_at) for m in moves)
        recent = (*loaded.position.recent, *records)[-RECENT_MOVES:]
        position = PositionEntry(row.version, state, recent)
        self._positions.put(row.id, position)
        return _Loaded(row, loaded.meta, position, await self._read_clocks(row))

    # ========================================================================================
    # Ending a game without a move
    # ========================================================================================

    async def resign(self, channel_id: int, user_id: int) -> GameSnapshot:
        """The caller resigns the active game here (allowed out of turn).

        When the engine says what resigning does (:meth:`~engines.base.Engine.resign`;
        Generator GEN-15: the resigner's pyramids leave and play goes on without them), the
        resignation is committed as a logged move of the resigner's seat ``k`` with the text
        ``[k]resign`` (see :func:`resign_move_text`), followed by any chance outcomes it
        leads to, as after :meth:`play`; the game ends only when the engine's outcome says
        so. Otherwise (the engine returns ``None``) the game ends at once and every other
        seat wins (termination ``resignation``). Returns the game after it.

        Raises :class:`NoGameHereError`, :class:`NotAPlayerError` (also for a player who has
        already resigned from a game that goes on) and :class:`StaleActionError`.
        """
        row = await self._active_row(channel_id)
        async with self._game_lock(row.id):
            loaded = await self._settle(await self._reload(row))
            seats = loaded.meta.seats_of(user_id)
            if not seats:
                raise NotAPlayerError()
            engine = loaded.meta.engine
            state = loaded.position.state
            moves: list[NewMove] = []
            refusal: IllegalMoveError | None = None
            for seat in seats:
                if engine.outcome(state) is not None:
                    break
                try:
                    transition = engine.resign(state, seat)
                except IllegalMoveError as exc:
                    refusal = exc  # the seat has left already, or the rules say "not now"
                    continue
                if transition is None:
                    return self._snapshot(await self._end_by_resignation(loaded, seats))
                state = transition.state
                ply = loaded.row.ply + len(moves) + 1
                events = _codec.dump_events(transition.events)
                moves.append(NewMove(ply, seat, resign_move_text(seat), events))
            if not moves:
                logged = await self.database.games.moves(row.id)
                if refusal is not None and not any(
                    m.text == resign_move_text(m.seat or 0) and m.seat in seats for m in logged
                ):
                    # e.g. Generation Zero during its draft (D-30): say what the rules say.
                    raise InvalidMoveError(
                        _sentence(refusal.message), kind="illegal", text="resign"
                    )
                raise NotAPlayerError("You have already resigned from this game.")
            state, automatic_moves, _ = self._automatic_steps(loaded.meta, state, moves[-1].ply + 1)
            updated = await self._commit(loaded, state, [*moves, *automatic_moves])
            log.info("game %d: %d resigned (seats %s)", row.id, user_id, list(seats))
            return self._snapshot(updated)

    async def _end_by_resignation(self, loaded: _Loaded, seats: Sequence[int]) -> _Loaded:
        """End the game because ``seats`` resigned: every other seat wins."""
        players = len(loaded.meta.players)
        others = tuple(s for s in range(players) if s not in seats)
        resigned = tuple(seats)
        outcome = Outcome("resignation", others, (others, resigned) if others else (resigned,))
        log.info("game %d: seats %s resigned", loaded.row.id, list(seats))
        return await self._finish(loaded, "finished", outcome)

    async def offer_draw(self, channel_id: int, user_id: int) -> DrawOffer:
        """The caller offers a draw to the opponent of a two-player game.

        The offer stands until answered or until the next move. Raises
        :class:`NoGameHereError`, :class:`NotAPlayerError`, :class:`DrawOfferError` (not a
        two-player game, or an offer is already pending) and :class:`StaleActionError`.
        """
        row = await self._active_row(channel_id)
        async with self._game_lock(row.id):
            loaded = await self._reload(row)
            seats = loaded.meta.seats_of(user_id)
            if not seats:
                raise NotAPlayerError()
            if len(loaded.meta.players) != 2:
                raise DrawOfferError("Draws by agreement are only for two-player games.")
            pending = loaded.row.draw_offer_seat
            if pending is not None:
                if pending in seats:
                    raise DrawOfferError("You have already offered a draw.")
                raise DrawOfferError(
                    "Your opponent has already offered a draw: answer it with its buttons."
                )
            seat = seats[0]
            updated = await self._set_draw_offer(loaded, seat)
            log.info("game %d: seat %d offers a draw", row.id, seat)
            return DrawOffer(
                game_id=row.id,
                version=updated.row.version,
                seat=seat,
                user_id=user_id,
                opponent_user_ids=tuple(
                    p.user_id for p in loaded.meta.players if p.user_id != user_id
                ),
            )

    async def answer_draw(
        self, game_id: int, user_id: int, *, accept: bool, version: int
    ) -> GameSnapshot:
        """Answer the draw offer shown at ``version`` of game ``game_id``.

        Accepting ends the game drawn by ``agreement``; declining clears the offer (the one
        who offered may withdraw it this way too). Raises :class:`StaleActionError` (the
        offer is gone or the game moved on), :class:`NotAPlayerError` and
        :class:`DrawOfferError` (accepting one's own offer).
        """
        async with self._game_lock(game_id):
            row = await self.database.games.get(game_id)
            if row is None or not row.is_active or row.version != version:
                raise StaleActionError("This draw offer is no longer open.")
            loaded = await self._load_row(row)
            offered_by = row.draw_offer_seat
            if offered_by is None:
                raise StaleActionError("This draw offer is no longer open.")
            seats = loaded.meta.seats_of(user_id)
            if not seats:
                raise NotAPlayerError()
            if accept and offered_by in seats:
                raise DrawOfferError("You cannot accept your own draw offer.")
            if not accept:
                log.info("game %d: draw offer declined", game_id)
                return self._snapshot(await self._set_draw_offer(loaded, None))
            log.info("game %d: drawn by agreement", game_id)
            engine = loaded.meta.engine
            if "draw" in engine.bot_decided_moves and len(row.to_move) == 1:
                # The rules know this ending (Orbs D-ORB-11): log `draw` and let the engine
                # end the game, so the stored position and a replay say `agreement` too.
                seat = row.to_move[0]
                state, text, events = engine.play(loaded.position.state, seat, "draw")
                move = NewMove(row.ply + 1, seat, text, _codec.dump_events(events))
                return self._snapshot(await self._commit(loaded, state, [move]))
            outcome = Outcome.draw("agreement", len(loaded.meta.players))
            return self._snapshot(await self._finish(loaded, "finished", outcome))

    async def abort(
        self, channel_id: int, user_id: int, *, moderator: bool = False
    ) -> GameSnapshot:
        """Stop the active game here without a result.

        A player may abort until every seat has made a move; ``moderator=True`` (the caller
        checked the member's permissions) allows it at any time. Raises
        :class:`NoGameHereError`, :class:`AbortNotAllowedError`, :class:`StaleActionError`.
        """
        row = await self._active_row(channel_id)
        async with self._game_lock(row.id):
            loaded = await self._reload(row)
            if not moderator:
                if not loaded.meta.seats_of(user_id):
                    raise AbortNotAllowedError(
                        "Only the players (before each has moved) or a moderator can abort."
                    )
                logged = await self.database.games.moves(row.id)
                left = {m.seat for m in logged if m.text == resign_move_text(m.seat or 0)}
                if set(loaded.meta.seats_of(user_id)) <= left:
                    raise AbortNotAllowedError("You have left this game, so you cannot abort it.")
                # Only moves players chose count: not resignations, not the bot's forced moves.
                moved = {
                    m.seat
                    for m in logged
                    if m.seat not in left
                    and '"automatic"' not in m.events_json
                    and f'"{TIMEOUT_EVENT}"' not in m.events_json
                }
                if all(p.seat in moved for p in loaded.meta.players if p.seat not in left):
                    raise AbortNotAllowedError(
                        "Every player has moved, so the game can no longer be aborted; "
                        "resign or offer a draw instead."
                    )
            log.info("game %d: aborted by %d (moderator=%s)", row.id, user_id, moderator)
            return self._snapshot(await self._finish(loaded, "aborted", None))

    async def _finish(
        self,
        loaded: _Loaded,
        status: str,
        outcome: Outcome | None,
        *,
        timed_out: Collection[int] = (),
        now: datetime | None = None,
    ) -> _Loaded:
        """End the game without a move (``status`` ``finished`` or ``aborted``), stopping
        every clock and cancelling the game's timers in the same transaction; ``timed_out``
        seats are left with the bank a time-out leaves (zero plus the increment)."""
        termination = outcome.termination if outcome is not None else status
        now = self._now() if now is None else now
        clock_changes = await self._plan_turn_change(
            loaded.row,
            to_move_after=(),
            movers=(),
            now=now,
            timed_out=timed_out,
            clocks=loaded.clocks,
        )
        try:
            row = await self.database.games.finish(
                loaded.row.id,
                loaded.row.version,
                status=status,
                outcome_json=_codec.dump_outcome(outcome),
                termination=termination,
                now=now,
                clock_changes=clock_changes,
            )
        except (DbStaleVersionError, DbGameNotActiveError, ClockChangedError) as exc:
            self._positions.pop(loaded.row.id)
            raise StaleActionError() from exc
        restamped = self._restamp(loaded, row)
        return replace(restamped, clocks=await self._read_clocks(row))

    async def _set_draw_offer(self, loaded: _Loaded, seat: int | None) -> _Loaded:
        try:
            row = await self.database.games.set_draw_offer(
                loaded.row.id, loaded.row.version, seat, self._now()
            )
        except (DbStaleVersionError, DbGameNotActiveError) as exc:
            self._positions.pop(loaded.row.id)
            raise StaleActionError() from exc
        return self._restamp(loaded, row)

    def _restamp(self, loaded: _Loaded, row: GameRow) -> _Loaded:
        """The same position under the new version a non-move change produced."""
        old = loaded.position
        position = PositionEntry(row.version, old.state, old.recent, old.legal)
        self._positions.put(row.id, position)
        return _Loaded(row, loaded.meta, position, loaded.clocks)

    # ========================================================================================
    # Clocks, time-outs and vacations
    # ========================================================================================

    def add_clock_listener(self, listener: ClockListener) -> None:
        """Call ``listener`` with every time-out the service applies while answering
        something else (a move made too late on a hard clock, :meth:`play`), after it is
        committed. A listener that raises is logged; the others still run."""
        self._clock_listeners.append(listener)

    def remove_clock_listener(self, listener: ClockListener) -> None:
        """Stop calling ``listener`` (no error if it was never added)."""
        if listener in self._clock_listeners:
            self._clock_listeners.remove(listener)

    async def _announce(self, event: ClockEvent) -> None:
        for listener in list(self._clock_listeners):
            try:
                await listener(event)
            except Exception:
                log.exception("game %d: a clock listener failed", event.snapshot.game_id)

    async def clock_timer_fired(self, timer: TimerRow) -> ClockEvent | None:
        """Handle a ``"clock"`` timer: seat ``timer.seat``'s deadline in game ``timer.game_id``.

        A hard clock's seat times out at once (:class:`~bot.service.models.ClockEventKind`
        ``timed_out``, ``lost_on_time`` or ``resigned_on_time``: the game's time-out rule,
        or the platform's). On a soft clock nothing changes: the event (``flagged_soft``)
        tells the opponents they may now claim (:meth:`claim_on_time`).

        Returns ``None`` for a stale timer, with nothing to announce: the game is over, the
        clock moved on since the timer was planned (its payload's ``clock_version``), or
        the seat's clock is not running. A timer that fires before the deadline (clocks of
        two processes that disagree) is planned again at the deadline, also ``None``.
        """
        if timer.game_id is None or timer.seat is None:
            log.warning("clock timer %d names no game seat; ignored", timer.id)
            return None
        planned = _payload_int(timer, "clock_version")
        async with self._game_lock(timer.game_id):
            row = await self.database.games.get(timer.game_id)
            if row is None or not row.is_active:
                return None
            now = self._now()
            loaded = await self._settle(await self._load_row(row), now=now)
            clock_row = _clock_of(loaded.clocks, timer.seat)
            if clock_row is None or clock_row.version != planned:
                return None
            clock = SeatClock.from_row(clock_row)
            deadline = clock.deadline
            if deadline is None or timer.seat not in loaded.row.to_move:
                return None
            if not clock.flagged(now):
                log.warning(
                    "game %d: the clock timer of seat %d fired before its deadline %s",
                    row.id,
                    timer.seat,
                    deadline.isoformat(),
                )
                again = NewTimer(CLOCK_TIMER, deadline, row.id, timer.seat, timer.payload_json)
                await self.database.timers.schedule(again, now=now)
                return None
            player = loaded.meta.players[timer.seat]
            if ClockSpec.parse(clock_row.spec).mode is ClockMode.SOFT:
                log.info("game %d: seat %d is out of time (soft clock)", row.id, timer.seat)
                return ClockEvent(
                    self._snapshot(loaded), timer.seat, player.user_id, ClockEventKind.FLAGGED_SOFT
                )
            return await self._apply_timeout(loaded, timer.seat, now)

    async def claim_on_time(
        self, channel_id: int, user_id: int, *, game_id: int | None = None
    ) -> ClockEvent:
        """``/claim`` (or "Claim on time"): ``user_id`` claims against a seat of another
        player whose time is out, in the active game of ``channel_id`` (or game ``game_id``,
        for the button). The seat times out as on a hard clock (:meth:`clock_timer_fired`):
        the game's time-out rule, else it loses (two players) or resigns (more).

        Raises :class:`NoGameHereError`, :class:`StaleActionError` (the game has ended),
        :class:`NotAPlayerError` and :class:`~bot.service.clocks.ClaimError` (the game has
        no clock, nobody is out of time yet, or only the claimer is).
        """
        if game_id is None:
            row = await self._active_row(channel_id)
        else:
            found = await self.database.games.get(game_id)
            if found is None:
                raise NoGameHereError("That game does not exist.")
            if not found.is_active:
                raise StaleActionError("This game has already ended.")
            row = found
        async with self._game_lock(row.id):
            now = self._now()
            loaded = await self._settle(await self._reload(row), now=now)
            seats = loaded.meta.seats_of(user_id)
            if not seats:
                raise NotAPlayerError()
            if not loaded.clocks:
                raise ClaimError("This game has no clock, so nobody can run out of time.")
            out = [s for s in loaded.row.to_move if self._out_of_time(loaded, s, now)]
            claimable = [s for s in out if s not in seats]
            if not claimable:
                if out:
                    raise ClaimError(
                        "You are the one out of time: you may still move until someone claims."
                    )
                raise ClaimError(f"Nobody is out of time yet: {self._time_left_text(loaded, now)}.")
            event = await self._apply_timeout(loaded, claimable[0], now, claimed_by=user_id)
        log.info("game %d: %d claimed on time against seat %d", row.id, user_id, event.seat)
        return event

    async def final_warning_due(self, timer: TimerRow) -> FinalWarning | None:
        """Handle a ``"final_warning"`` timer: what to tell seat ``timer.seat``'s player, whose
        hard clock runs out soon, or ``None`` when the timer is stale (the game is over, the
        clock moved on since it was planned, or the time is already out)."""
        if timer.game_id is None or timer.seat is None:
            return None
        row = await self.database.games.get(timer.game_id)
        if row is None or not row.is_active or timer.seat not in row.to_move:
            return None
        loaded = await self._load_row(row)
        clock_row = _clock_of(loaded.clocks, timer.seat)
        if clock_row is None or clock_row.version != _payload_int(timer, "clock_version"):
            return None
        clock = SeatClock.from_row(clock_row)
        if clock.deadline is None or clock.flagged(self._now()):
            return None
        player = loaded.meta.players[timer.seat]
        return FinalWarning(
            game_id=row.id,
            game_name=loaded.meta.engine.info.name,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            seat=timer.seat,
            seat_name=player.seat_name,
            user_id=player.user_id,
            deadline=clock.deadline,
            board_message_id=row.board_message_id,
        )

    def _out_of_time(
        self, loaded: _Loaded, seat: int, now: datetime, *, hard_only: bool = False
    ) -> bool:
        """Whether ``seat``'s clock is running and its time is out (on a hard clock only,
        with ``hard_only``)."""
        clock_row = _clock_of(loaded.clocks, seat)
        if clock_row is None:
            return False
        if hard_only and ClockSpec.parse(clock_row.spec).mode is not ClockMode.HARD:
            return False
        clock = SeatClock.from_row(clock_row)
        return clock.running and clock.flagged(now)

    def _time_left_text(self, loaded: _Loaded, now: datetime) -> str:
        """``White has 3h12m left``: the time left of the seats to move, for a refused claim."""
        parts = []
        for seat in loaded.row.to_move:
            clock_row = _clock_of(loaded.clocks, seat)
            if clock_row is not None:
                left = SeatClock.from_row(clock_row).time_left(now)
                name = loaded.meta.players[seat].seat_name
                parts.append(f"{name} has {format_duration(left)} left")
        return ", ".join(parts) or "no clock is running"

    async def _apply_timeout(
        self, loaded: _Loaded, seat: int, now: datetime, *, claimed_by: int | None = None
    ) -> ClockEvent:
        """Apply ``seat``'s time-out (under the game's lock) and commit it with the clocks.

        The game's spec decides first (:meth:`~engines.base.Engine.timeout_moves`, drawn from
        :func:`~bot.service.clocks.timeout_rng` of the seed and ply): its moves are played and
        logged for the seat, each with a ``timeout`` event (:data:`TIMEOUT_EVENT`) saying it
        was played on time-out (a takeback never reaches across it), then the automatic
        steps after them. Otherwise a two-player game ends, the seat losing on ``time``; in
        a larger game the seat resigns (logged ``[k]resign`` as :meth:`resign` does, or the
        game ends on ``time`` for every other seat when the engine has no resignation). The
        seat's bank becomes zero plus its increment.
        """
        meta, row = loaded.meta, loaded.row
        engine = meta.engine
        player = meta.players[seat]
        state = loaded.position.state
        texts = engine.timeout_moves(state, seat, timeout_rng(meta.seed, row.ply))
        moves: list[NewMove] = []
        events: list[Event] = []
        if texts is not None:
            kind = ClockEventKind.TIMED_OUT
            for text in texts:
                try:
                    state, canonical, played = engine.play(state, seat, text)
                except MoveError as exc:
                    raise RuntimeError(
                        f"{engine.info.id}: time-out move {text!r} is not legal: {exc.message}"
                    ) from exc
                who = player.seat_name
                notice = Event(
                    TIMEOUT_EVENT, seat, f"{who} is out of time: {canonical} played on time-out"
                )
                step_events = (notice, *played)
                ply = row.ply + len(moves) + 1
                moves.append(NewMove(ply, seat, canonical, _codec.dump_events(step_events)))
                events.extend(step_events)
            if not moves:
                raise RuntimeError(f"{engine.info.id}: no time-out move for seat {seat} to move")
        elif len(meta.players) == 2:
            outcome = Outcome.win("time", 1 - seat, 2)
            log.info("game %d: seat %d lost on time", row.id, seat)
            ended = await self._finish(loaded, "finished", outcome, timed_out=(seat,), now=now)
            return ClockEvent(
                self._snapshot(ended),
                seat,
                player.user_id,
                ClockEventKind.LOST_ON_TIME,
                claimed_by=claimed_by,
            )
        else:
            kind = ClockEventKind.RESIGNED_ON_TIME
            try:
                transition = engine.resign(state, seat)
            except IllegalMoveError:
                transition = None
            if transition is None:
                others = tuple(s for s in range(len(meta.players)) if s != seat)
                outcome = Outcome("time", others, (others, (seat,)))
                ended = await self._finish(loaded, "finished", outcome, timed_out=(seat,), now=now)
                return ClockEvent(
                    self._snapshot(ended), seat, player.user_id, kind, claimed_by=claimed_by
                )
            notice = Event(TIMEOUT_EVENT, seat, f"{player.seat_name} is out of time and resigns")
            state = transition.state
            step_events = (notice, *transition.events)
            resigned = NewMove(
                row.ply + 1, seat, resign_move_text(seat), _codec.dump_events(step_events)
            )
            moves.append(resigned)
            events.extend(step_events)
        state, automatic_moves, automatic_events = self._automatic_steps(
            meta, state, moves[-1].ply + 1
        )
        updated = await self._commit(
            loaded, state, [*moves, *automatic_moves], timed_out=(seat,), now=now
        )
        log.info(
            "game %d: seat %d timed out (%s): %s",
            row.id,
            seat,
            kind.value,
            " ".join(m.text for m in moves),
        )
        return ClockEvent(
            self._snapshot(updated),
            seat,
            player.user_id,
            kind,
            moves=tuple(m.text for m in (*moves, *automatic_moves)),
            events=public_events((*events, *automatic_events)),
            claimed_by=claimed_by,
        )

    async def _plan_turn_change(
        self,
        row: GameRow,
        *,
        to_move_after: tuple[int, ...],
        movers: Sequence[int],
        now: datetime,
        timed_out: Collection[int] = (),
        clocks: Sequence[ClockRow] | None = None,
        ply_after: int | None = None,
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
        reminders' payload beside the version when given. Returns ``None`` only when there
        is nothing to write.
        """
        rows = list(clocks) if clocks is not None else await self._read_clocks(row)
        following = tuple(seat for seat in to_move_after if seat >= 0)
        if not following:
            stop = plan_turn(rows, movers, (), now, timed_out=timed_out)
            return merge_changes(stop, ClockChanges(cancel=(TimerCancel(row.id),)))
        meta = await self._game_meta(row)
        users = {seat: meta.players[seat].user_id for seat in following}
        paused, due = await self._turn_start(row.guild_id, users, now)
        turn = plan_turn(rows, movers, following, now, paused_until=paused, timed_out=timed_out)
        reminders = plan_reminders(
            row.id, before=row.to_move, due=due, version=row.version + 1, ply=ply_after
        )
        return merge_changes(turn, reminders)

    async def _turn_start(
        self, guild_id: int | None, users: Mapping[int, int], now: datetime
    ) -> tuple[dict[int, datetime], dict[int, datetime]]:
        """For the seats in ``users`` (seat → user id) whose turn starts at ``now``, in one
        read (:meth:`db.clocks.ClocksRepo.turn_context`): when each seat's turn really
        starts, for those whose player is on vacation (seat → end of the vacation), and when
        each seat's reminder is due, for those whose player wants reminders (the quiet time
        of :func:`~bot.service.clocks.reminder_delay` after the turn starts)."""
        if not users:
            return {}, {}
        context = await self.database.clocks.turn_context(users.values(), guild_id)
        paused: dict[int, datetime] = {}
        due: dict[int, datetime] = {}
        for seat, user_id in users.items():
            away = context.vacations.get(user_id)
            if away is not None and away.until is not None and away.until > now:
                paused[seat] = away.until
            delay = reminder_delay(context.users[user_id], context.guild, self.reminder_quiet)
            if delay is not None:
                due[seat] = max(now, paused.get(seat, now)) + delay
        return paused, due

    async def _read_clocks(self, row: GameRow) -> tuple[ClockRow, ...]:
        """The seat clocks of game ``row`` (none for a game without a clock: no read)."""
        if row.clock == "none":
            return ()
        return tuple(await self.database.clocks.for_game(row.id))

    def _seat_clocks(self, loaded: _Loaded) -> tuple[SeatClockInfo, ...]:
        """:attr:`GameSnapshot.clocks` as of now."""
        if not loaded.clocks:
            return ()
        now = self._now()
        infos = []
        for clock_row in loaded.clocks:
            clock = SeatClock.from_row(clock_row)
            infos.append(
                SeatClockInfo(
                    seat=clock_row.seat,
                    time_left_ms=clock_rules.to_ms(clock.time_left(now)),
                    running=clock.running,
                    paused_until=clock.running_since if clock.paused(now) else None,
                    flagged=clock.running and clock.flagged(now),
                    deadline=clock.deadline,
                    mode=ClockSpec.parse(clock_row.spec).mode.value,
                    as_of=now,
                )
            )
        return tuple(infos)

    # ---- vacations ---------------------------------------------------------------------

    async def start_vacation(self, user_id: int, duration: timedelta) -> VacationInfo:
        """``/vacation start``: ``user_id`` goes on vacation for ``duration`` (or what is left
        of this year's allowance, if less; a vacation under way is extended). Their running
        clocks in every active game pause until it ends, and those clocks' timers move with
        them, atomically; a turn that reaches them meanwhile starts paused too.

        Raises :class:`~bot.service.clocks.VacationError` (a duration that is not positive, or
        nothing left this year) and :class:`StaleActionError` if moves kept landing while
        the vacation was written.
        """
        now = self._now()
        try:
            await clock_rules.start_vacation(
                self.database, user_id, duration, allowance=self.vacation_allowance, now=now
            )
        except ValueError as exc:
            raise VacationError(str(exc)) from exc
        except (ClockChangedError, VacationChangedError) as exc:
            raise StaleActionError("Your games kept changing; please try again.") from exc
        log.info("user %d is on vacation for up to %s", user_id, format_duration(duration))
        return await self.vacation(user_id)

    async def end_vacation(self, user_id: int) -> VacationInfo:
        """``/vacation end``: end ``user_id``'s vacation now. Their paused clocks run again
        from now and the unused part goes back to this year's allowance.

        Raises :class:`~bot.service.clocks.VacationError` ("You are not on vacation.") and
        :class:`StaleActionError` as :meth:`start_vacation` does.
        """
        now = self._now()
        try:
            await clock_rules.end_vacation(self.database, user_id, now=now)
        except ValueError as exc:
            raise VacationError(str(exc)) from exc
        except (ClockChangedError, VacationChangedError) as exc:
            raise StaleActionError("Your games kept changing; please try again.") from exc
        log.info("user %d ended their vacation", user_id)
        return await self.vacation(user_id)

    async def vacation(self, user_id: int) -> VacationInfo:
        """``/vacation status``: until when ``user_id`` is on vacation, how much of this
        year's allowance is used and left, and their active games with a clock."""
        now = self._now()
        book = VacationBook.from_row(await self.database.vacations.get(user_id), now)
        games = []
        for row in await self.database.games.list_active(user_id=user_id):
            if row.clock != "none":
                name = get_engine(row.game).info.name
                games.append(VacationGame(row.id, name, row.guild_id, row.channel_id))
        return VacationInfo(
            user_id=user_id,
            until=book.until if book.on_vacation(now) else None,
            used=book.used_in(now.year),
            left=book.left(now, self.vacation_allowance),
            allowance=self.vacation_allowance,
            games=tuple(games),
            as_of=now,
        )

    # ========================================================================================
    # Reading
    # ========================================================================================

    async def snapshot(self, channel_id: int) -> GameSnapshot:
        """The game of ``channel_id`` (``/board``, ``/game info``): the active one, else the
        one that ended last, so its final board and result can still be looked at.

        Raises :class:`NoGameHereError` when the channel never had a game.
        """
        row = await self._shown_row(channel_id)
        return self._snapshot(await self._load_row(row))

    async def game_snapshot(self, game_id: int) -> GameSnapshot:
        """Any game by id, active or ended. Raises :class:`NoGameHereError` if unknown."""
        row = await self.database.games.get(game_id)
        if row is None:
            raise NoGameHereError("That game does not exist.")
        return self._snapshot(await self._load_row(row))

    async def move_list(self, channel_id: int) -> list[MoveRecord]:
        """The move log of the game :meth:`snapshot` shows, oldest first (public events only)."""
        row = await self._shown_row(channel_id)
        return [_record(m, m.created_at) for m in await self.database.games.moves(row.id)]

    async def private_view(self, channel_id: int, user_id: int) -> PrivateView:
        """``/hand``: the caller's private view of the game :meth:`snapshot` shows here.

        Raises :class:`NoGameHereError`, :class:`NotAPlayerError` (a spectator: one
        sentence pointing at ``/board``) and :class:`ServiceError` for a game without hidden
        information (everything is on the board).
        """
        return await self._private_view_of(await self._shown_row(channel_id), user_id)

    async def game_private_view(self, game_id: int, user_id: int) -> PrivateView:
        """ "My view": the caller's private view of game ``game_id`` as it is *now* (a press
        on an old board still shows the current view). Raises what :meth:`private_view`
        raises, and :class:`NoGameHereError` for an unknown game."""
        row = await self.database.games.get(game_id)
        if row is None:
            raise NoGameHereError("That game does not exist.")
        return await self._private_view_of(row, user_id)

    async def _private_view_of(self, row: GameRow, user_id: int) -> PrivateView:
        meta = await self._game_meta(row)
        engine = meta.engine
        if not engine.info.has_hidden_information:
            raise ServiceError(
                f"{engine.info.name} has no hidden cards: everything is on the board (`/board`)."
            )
        seats = meta.seats_of(user_id)
        if not seats:
            raise NotAPlayerError(
                "Only the players have a private view of this game; `/board` shows what "
                "everyone may see."
            )
        position = await self._position(row, meta)
        acting = [s for s in seats if row.is_active and s in row.to_move]
        seat = acting[0] if acting else seats[0]
        prompt = engine.prompt(position.state, seat) if acting else None
        log_rows = await self.database.games.moves(row.id)
        events = [
            PrivateEvent(move.ply, event)
            for move in log_rows
            if move.ply <= row.ply and _HAS_PRIVATE_EVENTS in move.events_json  # as of ``row``
            for event in private_events_of(_codec.load_events(move.events_json), (seat,))
        ]
        log.info("game %d: private view of seat %d for user %d", row.id, seat, user_id)
        return PrivateView(
            game_id=row.id,
            game=row.game,
            game_name=engine.info.name,
            status=str(row.status),
            version=row.version,
            ply=row.ply,
            seat=seat,
            seat_name=meta.players[seat].seat_name,
            user_id=user_id,
            players=meta.players,
            to_move=bool(acting),
            prompt=prompt,
            view=engine.view(position.state, seat),
            events=tuple(events[-PRIVATE_EVENTS:]),
        )

    async def render_private(
        self, private: PrivateView, *, seat_labels: Sequence[str] | None = None
    ) -> bytes:
        """The PNG of a :class:`PrivateView` (drawn from its seat's view, in a worker thread)."""
        labels = None if seat_labels is None else tuple(seat_labels)
        return await asyncio.to_thread(render_png, private.game, private.view, seat_labels=labels)

    async def set_board_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the last board message posted for a game."""
        await self.database.games.set_board_message(game_id, message_id)

    async def replay(self, game_id: int) -> ReplayReport:
        """Rebuild game ``game_id`` from its seed, options and move log.

        The log is replayed by :func:`bot.service.records.replay_log`: chance rows are
        re-applied as logged; a ``[k]resign`` row of seat ``k`` goes through
        :meth:`~engines.base.Engine.resign`; other player rows are re-parsed for their seat.
        The report says whether the rebuilt position and state match what is stored.
        Raises :class:`NoGameHereError` for an unknown game and
        :class:`~bot.service.records.ReplayError` (a ``RuntimeError``, noted with the game)
        when a logged move does not replay as logged (a corrupt log).
        """
        from bot.service import records

        row = await self.database.games.get(game_id)
        if row is None:
            raise NoGameHereError("That game does not exist.")
        meta = await self._game_meta(row)
        engine = meta.engine
        log_rows = await self.database.games.moves(game_id)
        try:
            state = await asyncio.to_thread(records.rebuild_game, meta, log_rows)
        except records.ReplayError as error:
            error.add_note(f"game {game_id}")
            raise
        stored = engine.loads(row.state_json)
        return ReplayReport(
            game_id=game_id,
            plies=len(log_rows),
            position=engine.position(state),
            stored_position=engine.position(stored),
            state_matches=engine.dumps(state) == row.state_json,
        )

    async def render(
        self,
        snapshot: GameSnapshot,
        viewer: int | None = None,
        *,
        seat_labels: Sequence[str] | None = None,
        flip: bool = False,
    ) -> bytes:
        """The PNG of ``snapshot`` as ``viewer`` (a seat, or ``None`` for everyone) sees it.

        Drawn in a worker thread, never on the event loop. ``seat_labels`` are the players'
        display names in seat order.
        """
        view = snapshot.view
        engine = get_engine(snapshot.game)
        if viewer is not None and engine.info.has_hidden_information:
            view = await self._seat_view(snapshot, viewer)
        labels = None if seat_labels is None else tuple(seat_labels)
        return await asyncio.to_thread(
            render_png, snapshot.game, view, seat_labels=labels, flip=flip
        )

    async def _seat_view(self, snapshot: GameSnapshot, viewer: int) -> Any:
        row = await self.database.games.get(snapshot.game_id)
        if row is None:
            raise NoGameHereError("That game does not exist.")
        loaded = await self._load_row(row)
        return loaded.meta.engine.view(loaded.position.state, viewer)

    # ========================================================================================
    # Loading and caches
    # ========================================================================================

    async def _active_row(self, channel_id: int) -> GameRow:
        row = await self.database.games.active_in_channel(channel_id)
        if row is None:
            raise NoGameHereError()
        return row

    async def _shown_row(self, channel_id: int) -> GameRow:
        row = await self.database.games.latest_in_channel(channel_id)
        if row is None:
            raise NoGameHereError()
        return row

    async def _reload(self, row: GameRow) -> _Loaded:
        """Under the game's lock: ``row`` refreshed if this process changed it meanwhile."""
        cached = self._positions.get(row.id)
        if cached is not None and cached.version > row.version:
            fresh = await self.database.games.get(row.id)
            if fresh is None or not fresh.is_active:
                raise NoGameHereError()
            row = fresh
        return await self._load_row(row)

    async def _load_row(self, row: GameRow) -> _Loaded:
        meta = await self._game_meta(row)
        position = await self._position(row, meta)
        return _Loaded(row, meta, position, await self._read_clocks(row))

    async def _game_meta(self, row: GameRow) -> GameMeta:
        meta = self._meta.get(row.id)
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
        )
        self._meta.put(row.id, meta)
        return meta

    async def _position(self, row: GameRow, meta: GameMeta) -> PositionEntry:
        cached = self._positions.get(row.id)
        if cached is not None and cached.version == row.version:
            return cached
        state = meta.engine.loads(row.state_json)
        log_rows = await self.database.games.moves(row.id, since_ply=max(0, row.ply - RECENT_MOVES))
        position = PositionEntry(
            row.version, state, tuple(_record(m, m.created_at) for m in log_rows)
        )
        # Never replace a newer entry with an older one read concurrently.
        latest = self._positions.get(row.id)
        if latest is None or latest.version < row.version:
            self._positions.put(row.id, position)
        return position

    def _only_moves(self, loaded: _Loaded) -> tuple[str, ...]:
        """:attr:`GameSnapshot.only_moves`: the seat to move's legal moves if few, else ``()``."""
        row, meta = loaded.row, loaded.meta
        if not row.is_active or meta.engine.info.has_hidden_information:
            return ()
        if len(row.to_move) != 1 or row.to_move[0] < 0:
            return ()
        moves = meta.engine.few_legal_moves(loaded.position.state, row.to_move[0], FEW_MOVES)
        return moves or ()

    @staticmethod
    def _prompt(loaded: _Loaded) -> str | None:
        """:attr:`GameSnapshot.prompt`: the engine's word on the one seat to move's decision."""
        row = loaded.row
        if not row.is_active or len(row.to_move) != 1 or row.to_move[0] < 0:
            return None
        return loaded.meta.engine.prompt(loaded.position.state, row.to_move[0])

    def _snapshot(self, loaded: _Loaded) -> GameSnapshot:
        row, meta, position = loaded.row, loaded.meta, loaded.position
        engine = meta.engine
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
            only_moves=self._only_moves(loaded),
            prompt=self._prompt(loaded),
            options=meta.options,
            options_text=meta.options_text,
            outcome=_codec.load_outcome(row.outcome_json),
            draw_offer_seat=row.draw_offer_seat,
            position=_public_position(engine, position.state, active=row.is_active),
            view=engine.view(position.state, None),
            last_moves=position.recent,
            board_message_id=row.board_message_id,
            created_at=row.created_at,
            updated_at=row.updated_at,
            hidden_information=engine.info.has_hidden_information,
            parent_channel_id=row.parent_channel_id,
            takeback_seat=row.takeback_seat,
            clock=row.clock,
            finished_at=row.finished_at,
            clock_text=ClockSpec.parse(row.clock).describe(),
            clocks=self._seat_clocks(loaded),
        )

    # ---- records (bot/service/records.py) ----

    async def export_record(
        self, channel_id: int, *, guild_id: int | None, game_id: int | None = None
    ) -> GameRecord:
        """``/game export``: the :class:`~bot.service.records.GameRecord` of the game
        :meth:`snapshot` shows in ``channel_id`` (the active one, else the last ended one), or
        of game ``game_id`` when given, which must belong to the caller's guild ``guild_id``.

        The seed is left out while the game goes on; seat display names are left for the
        caller to fill in (:meth:`~bot.service.records.GameRecord.with_display_names`).
        Raises :class:`NoGameHereError` (no game here; an unknown game or one of another
        guild) and :class:`ServiceError` for a game with hidden information that is still
        going on (its move list holds the players' secrets).
        """
        from bot.service import records

        row = await self._record_row(channel_id, guild_id, game_id)
        meta = await self._game_meta(row)
        log_rows = await self.database.games.moves(row.id)
        try:
            record = await asyncio.to_thread(records.build_record, row, meta, log_rows)
        except ServiceError as error:
            error.game_id = row.id
            raise
        log.info("game %d: exported at ply %d", row.id, row.ply)
        return record

    async def board_at(
        self,
        channel_id: int,
        *,
        guild_id: int | None,
        ply: int | None = None,
        game_id: int | None = None,
    ) -> BoardAtPly:
        """``/game replay``: the public board of a game after ``ply`` moves (``0``: the start
        position; ``None``: the last ply), for the game chosen as :meth:`export_record`
        chooses it.

        The state is rebuilt from the move log in a worker thread and only its spectator view
        is kept (for games with hidden information too); nothing is cached. Raises
        :class:`NoGameHereError` as :meth:`export_record` does and :class:`ServiceError`
        naming the range for a ply the game does not have.
        """
        from bot.service import records

        row = await self._record_row(channel_id, guild_id, game_id)
        loaded = await self._load_row(row)
        log_rows = await self.database.games.moves(row.id)
        try:
            return await asyncio.to_thread(
                records.board_at_ply, self._snapshot(loaded), loaded.meta.seed, log_rows, ply
            )
        except ServiceError as error:
            error.game_id = row.id
            raise

    async def _record_row(
        self, channel_id: int, guild_id: int | None, game_id: int | None
    ) -> GameRow:
        """The game :meth:`snapshot` shows in ``channel_id``, or game ``game_id`` if it belongs
        to guild ``guild_id`` (outside a guild: if it is this very channel's game). Any other
        game reads as unknown, so its existence is not given away."""
        if game_id is None:
            return await self._shown_row(channel_id)
        row = await self.database.games.get(game_id)
        if guild_id is None:
            if row is None or row.guild_id is not None or row.channel_id != channel_id:
                raise NoGameHereError(f"There is no game {game_id} in this conversation.")
        elif row is None or row.guild_id != guild_id:
            raise NoGameHereError(f"There is no game {game_id} on this server.")
        return row

    # ---- takebacks and rematches ----
    # The decisions are pure functions in bot/service/social.py (which imports this module,
    # so it is imported where it is used, as records is).

    async def request_takeback(self, channel_id: int, user_id: int) -> TakebackRequest:
        """``/takeback``: the caller asks the opponent to let them take back their last move.

        Only in an active two-player game with no takeback request and no draw offer
        pending, when the last move a player chose is the caller's and taking it back
        crosses no chance outcome, resignation or reveal of hidden information
        (:func:`bot.service.social.plan_takeback`). The request is stored (the game's
        version goes up; any move clears it) and returned for the bot to post with Allow /
        Refuse buttons quoting :attr:`TakebackRequest.version`.

        Raises :class:`NoGameHereError`, :class:`NotAPlayerError`,
        :class:`~bot.service.social.TakebackError` (with the reason) and
        :class:`StaleActionError`.
        """
        from bot.service import social

        row = await self._active_row(channel_id)
        async with self._game_lock(row.id):
            loaded = await self._reload(row)
            meta = loaded.meta
            seats = meta.seats_of(user_id)
            if not seats:
                raise NotAPlayerError()
            if len(meta.players) != 2:
                raise social.TakebackError(
                    "Takebacks are only for two-player games: with more players every other "
                    "player would have to agree, which the bot cannot ask yet."
                )
            opponents = tuple(dict.fromkeys(p.user_id for p in meta.players if p.seat not in seats))
            if not opponents:
                raise social.TakebackError(
                    "You hold every seat of this game, so there is nobody to ask."
                )
            pending = loaded.row.takeback_seat
            if pending is not None:
                if pending in seats:
                    raise social.TakebackError("You have already asked to take your move back.")
                raise social.TakebackError(
                    "Your opponent has already asked for a takeback: answer it with its buttons."
                )
            if loaded.row.draw_offer_seat is not None:
                raise social.TakebackError(
                    "A draw offer is pending: it must be answered before a takeback is asked."
                )
            plan = social.plan_takeback(
                await self.database.games.moves(row.id),
                seats,
                game=meta.engine.info.id,
                hidden_information=meta.engine.info.has_hidden_information,
            )
            updated = await self._set_takeback(loaded, plan.seat)
            log.info("game %d: seat %d asks to take back ply %d", row.id, plan.seat, plan.ply)
            return TakebackRequest(
                game_id=row.id,
                version=updated.row.version,
                seat=plan.seat,
                user_id=user_id,
                opponent_user_ids=opponents,
                move=plan.move,
                ply=plan.ply,
            )

    async def answer_takeback(
        self, game_id: int, user_id: int, *, accept: bool, version: int
    ) -> TakebackAnswer:
        """Answer the takeback request shown at ``version`` of game ``game_id``.

        Refusing clears the request (the requester withdraws it this way too). Allowing it
        rebuilds the position before the requester's move from the move log
        (:func:`bot.service.records.rebuild_game`) and stores it, the move and the forced
        moves after it deleted from the log, in one transaction with the clock changes
        (:meth:`db.GamesRepo.rewind`): no time is given back; the turn passes back to the
        requester, whose clock runs again while the opponent's stops.

        Raises :class:`StaleActionError` ("no longer open": answered, withdrawn, or a move
        came first), :class:`NotAPlayerError` and
        :class:`~bot.service.social.TakebackError` (allowing one's own request).
        """
        from bot.service import records, social

        async with self._game_lock(game_id):
            row = await self.database.games.get(game_id)
            if (
                row is None
                or not row.is_active
                or row.version != version
                or row.takeback_seat is None
            ):
                raise StaleActionError(social.TAKEBACK_CLOSED)
            loaded = await self._load_row(row)
            meta = loaded.meta
            seats = meta.seats_of(user_id)
            if not seats:
                raise NotAPlayerError()
            requester = row.takeback_seat
            requester_id = meta.players[requester].user_id
            if accept and requester in seats:
                raise social.TakebackError("You cannot allow your own takeback request.")
            if not accept:
                updated = await self._set_takeback(loaded, None)
                log.info("game %d: takeback of seat %d refused by %d", game_id, requester, user_id)
                return TakebackAnswer(
                    self._snapshot(updated), requester, requester_id, user_id, accepted=False
                )
            engine = meta.engine
            log_rows = await self.database.games.moves(game_id)
            # The version did not change since the request, so neither did the log: this
            # finds the same move, and refuses only if the rules here changed meanwhile.
            plan = social.plan_takeback(
                log_rows,
                (requester,),
                game=engine.info.id,
                hidden_information=engine.info.has_hidden_information,
            )
            state = await asyncio.to_thread(records.rebuild_game, meta, log_rows, plies=plan.to_ply)
            to_move = engine.to_move(state)
            now = self._now()
            # Nobody moved: no increment, no refund; the clocks follow the turn back.
            clock_changes = await self._plan_turn_change(
                row, to_move_after=to_move, movers=(), now=now, clocks=loaded.clocks
            )
            try:
                rewound = await self.database.games.rewind(
                    game_id,
                    row.version,
                    to_ply=plan.to_ply,
                    state_json=engine.dumps(state),
                    to_move=to_move,
                    now=now,
                    clock_changes=clock_changes,
                )
            except (DbStaleVersionError, DbGameNotActiveError, ClockChangedError) as exc:
                raise StaleActionError(social.TAKEBACK_CLOSED) from exc
            finally:
                self._positions.pop(game_id)
            log.info(
                "game %d: seat %d took back ply %d (%s), allowed by %d",
                game_id,
                requester,
                plan.ply,
                " ".join(plan.removed),
                user_id,
            )
            snapshot = self._snapshot(await self._load_row(rewound))
            return TakebackAnswer(
                snapshot, requester, requester_id, user_id, accepted=True, removed=plan.removed
            )

    async def _set_takeback(self, loaded: _Loaded, seat: int | None) -> _Loaded:
        try:
            row = await self.database.games.set_takeback(
                loaded.row.id, loaded.row.version, seat, self._now()
            )
        except (DbStaleVersionError, DbGameNotActiveError) as exc:
            self._positions.pop(loaded.row.id)
            raise StaleActionError() from exc
        return self._restamp(loaded, row)

    async def rematch(
        self, game_id: int, user_id: int, *, in_parent: bool = False
    ) -> ChallengeInfo:
        """The Rematch button: a new challenge to play game ``game_id`` again.

        Same game, options and clock; ``user_id`` is the challenger, every other player is
        invited, and the seats are fixed, rotated by one
        (:func:`bot.service.social.rotated_seating`). The challenge goes in the game's
        channel, or in the parent channel of its thread when ``in_parent`` (the bot passes it
        when the thread is archived). Returns the challenge for the bot to post.

        Raises :class:`NoGameHereError` (unknown game), :class:`NotAPlayerError` ("Only the
        players can ask for a rematch"), :class:`~bot.service.social.RematchError` (the game
        goes on, was aborted, or a user held several seats) and
        :class:`~bot.service.social.RematchOpenError` while a rematch of this game is open
        (a second press).
        """
        from bot.service import social

        row = await self.database.games.get(game_id)
        if row is None:
            raise NoGameHereError("That game does not exist.")
        meta = await self._game_meta(row)
        plan = social.plan_rematch(str(row.status), [p.user_id for p in meta.players], user_id)
        channel_id = row.channel_id
        if in_parent and row.parent_channel_id is not None:
            channel_id = row.parent_channel_id
        # The lock makes a double press in this process wait, then find the first one's
        # challenge; two processes pressing at the same instant could both open one.
        async with self._game_lock(game_id):
            existing = await self.database.challenges.open_rematch(game_id)
            if existing is not None and existing.expires_at > self._now():
                raise social.RematchOpenError(self._challenge_info(existing))
            info = await self.create_challenge(
                guild_id=row.guild_id,
                channel_id=channel_id,
                challenger_id=user_id,
                game=row.game,
                opponent_ids=plan.invited_ids,
                players=len(meta.players),
                options_text=format_options(meta.engine.info, meta.options),
                clock=row.clock,
                seating=plan.seating,
                rematch_of=game_id,
            )
        log.info("game %d: rematch asked by %d (challenge %d)", game_id, user_id, info.challenge_id)
        return info


# ============================================================================================
# Pure helpers
# ============================================================================================


def _record(move: MoveRow | NewMove, at: datetime) -> MoveRecord:
    events = _codec.load_events(move.events_json)
    return MoveRecord(
        ply=move.ply,
        seat=move.seat,
        text=move.text,
        events=public_events(events),
        at=at,
    )


def _clock_of(clocks: Sequence[ClockRow], seat: int) -> ClockRow | None:
    """The clock row of ``seat`` among ``clocks``, or ``None``."""
    for clock_row in clocks:
        if clock_row.seat == seat:
            return clock_row
    return None


def _payload_int(timer: TimerRow, key: str) -> int | None:
    """The integer ``key`` of ``timer``'s JSON payload, or ``None`` (logged) if it is missing
    or the payload is not JSON: the timer is then treated as stale."""
    try:
        value = json.loads(timer.payload_json).get(key)
    except (ValueError, AttributeError):
        value = None
    if not isinstance(value, int):
        log.warning("timer %d (%s) has no %s in its payload", timer.id, timer.kind, key)
        return None
    return value


_LATE_MOVE = {
    ClockEventKind.LOST_ON_TIME: "so you lost on time",
    ClockEventKind.RESIGNED_ON_TIME: "so you resigned on time and play goes on without you",
    ClockEventKind.TIMED_OUT: "so the game's time-out rule played {moves} for you instead",
}


def _late_move_sentence(event: ClockEvent) -> str:
    """What a player who moved too late on a hard clock is told (:meth:`GameService.play`)."""
    moves = ", ".join(f"`{m}`" for m in event.moves) or "nothing"
    what = _LATE_MOVE.get(event.kind, "so your move was not played").format(moves=moves)
    return f"Your time ran out before this move, {what}."


def resign_move_text(seat: int) -> str:
    """``[k]resign``: how the move log records that seat ``k`` resigned from a game that the
    engine lets go on (the spec's meta move, e.g. Generator's ``[k]resign``)."""
    return f"[{seat}]resign"


def public_events(events: Sequence[Event]) -> tuple[Event, ...]:
    """The events everyone may see."""
    return tuple(e for e in events if e.visible_to is None)


def private_events_of(events: Sequence[Event], seats: Sequence[int]) -> tuple[Event, ...]:
    """The events only some seats may see (``visible_to`` set) that one of ``seats`` may see."""
    wanted = set(seats)
    return tuple(e for e in events if e.visible_to is not None and e.visible_to & wanted)


#: How a private event looks in the move log's JSON (``_codec.dump_events``): a quick test
#: before parsing a row, since most rows hold public events only.
_HAS_PRIVATE_EVENTS = '"visible_to":['


def _public_position(engine: Engine[Any, Any], state: Any, *, active: bool) -> str:
    """The position string, or ``""`` while a game with hidden information goes on: its
    position holds every secret (Generation Zero R14: never posted before the end)."""
    if active and engine.info.has_hidden_information:
        return ""
    return engine.position(state)


# ---- lobby decisions: what one press changes, or the user's mistake ---------------------

_SEATED = ChallengePlayerStatus.SEATED
_INVITED = ChallengePlayerStatus.INVITED
_DECLINED = ChallengePlayerStatus.DECLINED
_LEFT = ChallengePlayerStatus.LEFT


@dataclass(frozen=True, slots=True)
class _Press:
    """What one lobby press does: write ``entry`` (the presser's new place), and either
    start the game (``starts``) or close the challenge with ``closes_as`` — or neither."""

    entry: ChallengeEntry | None
    starts: bool = False
    closes_as: str | None = None


def _seated_after(challenge: ChallengeRow, entry: ChallengeEntry | None) -> list[int]:
    """The users seated once ``entry`` is written, in listing order (a newcomer last)."""
    seated = []
    for player in challenge.lobby:
        changes = entry is not None and entry.user_id == player.user_id
        status = entry.status if entry is not None and changes else player.status
        if status is _SEATED:
            seated.append(player.user_id)
    if entry is not None and entry.status is _SEATED and challenge.entry_of(entry.user_id) is None:
        seated.append(entry.user_id)
    return seated


def _take_seat(challenge: ChallengeRow, entry: ChallengeEntry) -> _Press:
    """Seat ``entry``'s user; the game starts if that fills the last seat."""
    return _Press(entry, starts=len(_seated_after(challenge, entry)) == challenge.players)


def _accept_press(challenge: ChallengeRow, user_id: int) -> _Press:
    """Accept: only for a pending invitation (the seat reserved for the user)."""
    mine = challenge.entry_of(user_id)
    if user_id == challenge.challenger_id:
        raise NotChallengedError("You cannot accept your own challenge.")
    if mine is not None and mine.status is _SEATED:
        raise LobbyError("You already have a seat in this challenge.")
    if (
        mine is not None
        and mine.role is ChallengePlayerRole.INVITED
        and mine.status is not _INVITED
    ):
        raise LobbyError("You gave your seat up; press Join if one is still open.")
    if mine is None or mine.status is not _INVITED:
        invited = any(e.role is ChallengePlayerRole.INVITED for e in challenge.lobby)
        if mine is None and not invited and challenge.open_seats:
            # An open challenge posted before the lobby existed shows Accept, not Join.
            return _join_press(challenge, user_id)
        if challenge.open_seats:
            raise NotChallengedError(
                "That invitation is for someone else; press Join to take an open seat."
            )
        raise NotChallengedError("This challenge is for someone else.")
    return _take_seat(challenge, ChallengeEntry(user_id, mine.role, _SEATED))


def _join_press(challenge: ChallengeRow, user_id: int) -> _Press:
    """Join: an open seat for anyone not seated; an invited user's Join is an Accept."""
    mine = challenge.entry_of(user_id)
    if user_id == challenge.challenger_id:
        raise LobbyError("You made this challenge, so you already have a seat.")
    if mine is not None and mine.status is _SEATED:
        raise LobbyError("You already have a seat in this challenge.")
    if mine is not None and mine.status is _INVITED:
        return _take_seat(challenge, ChallengeEntry(user_id, mine.role, _SEATED))
    if challenge.open_seats < 1:
        raise LobbyError("Every seat is taken or reserved for an invited player.")
    role = mine.role if mine is not None else ChallengePlayerRole.JOINED
    return _take_seat(challenge, ChallengeEntry(user_id, role, _SEATED))


def _decline_press(challenge: ChallengeRow, user_id: int) -> _Press:
    """Decline: a pending invitation only. A two-seat challenge closes as declined (its
    only invitation is refused); with more seats the user's seat opens for anyone."""
    mine = challenge.entry_of(user_id)
    if mine is None or mine.status is not _INVITED:
        if user_id == challenge.challenger_id:
            raise NotChallengedError("You made this challenge: press Cancel to call it off.")
        if mine is not None and mine.status is _SEATED:
            raise NotChallengedError("You have already accepted; press Leave to give up your seat.")
        raise NotChallengedError("Only an invited player can decline this challenge.")
    entry = ChallengeEntry(user_id, mine.role, _DECLINED)
    return _Press(entry, closes_as="declined" if challenge.players == 2 else None)


def _leave_press(challenge: ChallengeRow, user_id: int) -> _Press:
    """Leave: a seated user other than the challenger gives the seat up."""
    mine = challenge.entry_of(user_id)
    if user_id == challenge.challenger_id:
        raise NotChallengedError("You made this challenge: press Cancel to call it off.")
    if mine is None or mine.status is not _SEATED:
        if mine is not None and mine.status is _INVITED:
            raise NotChallengedError(
                "You have not accepted yet; press Decline to turn the invitation down."
            )
        raise NotChallengedError("You do not have a seat in this challenge.")
    return _Press(ChallengeEntry(user_id, mine.role, _LEFT))


def _start_press(challenge: ChallengeRow, user_id: int) -> _Press:
    """Start: the challenger, for a game that allows fewer players than seats, once at
    least its ``min_players`` are seated."""
    if user_id != challenge.challenger_id:
        raise NotChallengedError("Only the challenger can start the game.")
    info = get_engine(challenge.game).info
    if info.min_players >= challenge.players:
        raise LobbyError(
            f"{info.name} needs all {challenge.players} seats filled; "
            "the game starts by itself once they are."
        )
    seated = len(challenge.seated_ids)
    if seated < info.min_players:
        raise LobbyError(
            f"{info.name} needs at least {info.min_players} players to start; "
            f"{seated} {'has' if seated == 1 else 'have'} a seat so far."
        )
    return _Press(None, starts=True)
