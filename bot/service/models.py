"""The small frozen records the service hands to the bot: no engine state, no database rows.

A snapshot carries the *public* view of the position (what a spectator may see); the full
engine state never leaves the service.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, Literal

from engines.base import Event, OptionValue, Outcome

__all__ = [
    "FEW_MOVES",
    "ChallengeInfo",
    "ChallengePlayer",
    "ClockEvent",
    "ClockEventKind",
    "DrawOffer",
    "FinalWarning",
    "GameSnapshot",
    "LobbyUpdate",
    "MoveRecord",
    "Player",
    "PrivateEvent",
    "PrivateView",
    "ReplayReport",
    "SeatClockInfo",
    "TurnResult",
    "VacationGame",
    "VacationInfo",
    "claimer_ids",
]

#: The most legal moves a turn prompt lists (Generatorb: a forced pass with up to 4 refill cells).
FEW_MOVES = 4
#: How many of a seat's latest private events its private view ("My view", ``/hand``) lists.
PRIVATE_EVENTS = 10


@dataclass(frozen=True, slots=True)
class Player:
    """Who plays a seat: ``seat`` (0-based), the Discord ``user_id`` and the seat's name
    in the game's terms (``"South"``)."""

    seat: int
    user_id: int
    seat_name: str


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One entry of the move log: ``ply`` counts from 1, ``seat`` is ``None`` for a chance
    outcome, ``text`` is the canonical move and ``events`` its public events."""

    ply: int
    seat: int | None
    text: str
    events: tuple[Event, ...]
    at: datetime


@dataclass(frozen=True, slots=True)
class SeatClockInfo:
    """One seat's clock as of ``as_of`` (when the snapshot was taken).

    ``time_left_ms`` is the bank minus the time used so far, in milliseconds (zero or less
    once the time is out); ``running`` is true while it is the seat's turn; ``deadline`` is
    when the time runs out if nobody moves (``None`` while stopped); ``paused_until`` is
    the end of the player's vacation while the turn waits for it (the clock runs by itself
    from then on), else ``None``; ``flagged`` is true once the time is out. ``mode`` is
    ``soft`` or ``hard``.
    """

    seat: int
    time_left_ms: int
    running: bool
    paused_until: datetime | None
    flagged: bool
    deadline: datetime | None
    mode: str
    as_of: datetime

    @property
    def time_left(self) -> timedelta:
        """:attr:`time_left_ms` as a :class:`~datetime.timedelta`."""
        return timedelta(milliseconds=self.time_left_ms)


@dataclass(frozen=True, slots=True)
class GameSnapshot:
    """A game as of one ``version``, for boards, ``/game info`` and presenters.

    ``status`` is ``active``, ``finished`` or ``aborted``. ``ply`` counts logged moves
    (chance outcomes included). ``to_move`` are the seats that may act now (empty once over,
    ``(CHANCE,)`` never escapes: the service resolves chance before it answers).
    ``only_moves`` lists the canonical legal moves of the one seat to move when it has so
    few (at most :data:`FEW_MOVES`) that the turn prompt spells them out — Generatorb's
    forced ``pass`` (G27) is the case that matters; it is empty when there are more, when
    several seats act at once, in games with hidden information (the list would leak a
    hand) and once the game is over. ``prompt`` is the engine's sentence on what the seat to
    move must decide now (Arbos: a due prune; Generator: the roll), if any
    (:meth:`engines.base.Engine.prompt`). ``position`` is the game's position notation,
    except while a game with hidden information goes on: then it is ``""``, because the
    position holds every secret. ``view`` is the engine's spectator view (``viewer=None``),
    the only view a snapshot ever carries. ``last_moves`` holds up to the last few moves,
    oldest first (public events only). ``hidden_information`` repeats the game's
    :attr:`~engines.base.GameInfo.has_hidden_information`: its players each have a private
    view (:class:`PrivateView`).
    """

    game_id: int
    game: str
    game_name: str
    guild_id: int | None
    channel_id: int
    status: str
    version: int
    ply: int
    players: tuple[Player, ...]
    to_move: tuple[int, ...]
    only_moves: tuple[str, ...]
    prompt: str | None
    options: Mapping[str, OptionValue]
    options_text: str
    outcome: Outcome | None
    draw_offer_seat: int | None
    position: str
    view: Any
    last_moves: tuple[MoveRecord, ...]
    board_message_id: int | None
    created_at: datetime
    updated_at: datetime
    hidden_information: bool = False
    watchers: int = 0
    """How many users watch the game (0: nobody; possibly too high, never too low)."""
    parent_channel_id: int | None = None
    """The channel the game's thread hangs off, when the game is played in a thread."""
    takeback_seat: int | None = None
    """The seat whose request to take its last move back is open, if any."""
    clock: str = "none"
    """The clock's canonical text (``none``: no clock; bot/service/clocks.py)."""
    finished_at: datetime | None = None
    clock_text: str = "no clock"
    """The clock in words (``ClockSpec.describe``)."""
    clocks: tuple[SeatClockInfo, ...] = ()
    """Each seat's clock, in seat order; empty for a game without a clock."""
    left_seats: tuple[tuple[int, str], ...] = ()
    """``(seat, how)`` for each seat that left a game of three or more players while it went
    on, in the order they left: ``how`` is ``resigned`` (a ``[k]resign`` row, a time-out
    included) or ``eliminated`` (Orbs: no orbs left). Read from the whole move log, so only
    ``/game info`` fills it (:meth:`bot.service.views.Views.game_info`); empty elsewhere."""
    rating_changes: tuple[RatingChange, ...] = ()
    """What a finished rated game did to each player's rating, in seat order (one per rating
    identity); empty while it goes on and for an unrated game (bot/service/ratings.py)."""
    ended_too_soon: bool = False
    """Only on the record of the change that ended the game: fewer plies were played by
    seats than it has players (chance outcomes and a resignation not counted), the reason a
    rated game is not (docs/ratings.md)."""
    rated: bool = False
    """Whether the game counts for ratings (``/challenge rated:``)."""
    draw_agreed: tuple[int, ...] = ()
    """The seats that have agreed to the open draw offer (the offerer's among them), in seat
    order; empty while none is open."""
    draw_waiting: tuple[int, ...] = ()
    """After an acceptance that leaves the offer open (three or more players: every player
    still in must agree, spec orbs D-ORB-11), the seats still to answer; empty elsewhere.
    Only :meth:`bot.service.endings.Endings.answer_draw` fills it."""

    @property
    def is_active(self) -> bool:
        return self.status == "active"

    def clock_of(self, seat: int) -> SeatClockInfo | None:
        """The clock of ``seat``, or ``None`` in a game without a clock."""
        for info in self.clocks:
            if info.seat == seat:
                return info
        return None

    @property
    def to_move_user_ids(self) -> tuple[int, ...]:
        """User ids of the players who may act now, in seat order, without repeats."""
        return tuple(dict.fromkeys(self.players[s].user_id for s in self.to_move if s >= 0))

    @property
    def user_ids(self) -> tuple[int, ...]:
        """Every player's user id, in seat order, without repeats."""
        return tuple(dict.fromkeys(p.user_id for p in self.players))


@dataclass(frozen=True, slots=True)
class TurnResult:
    """What :meth:`GameService.play` committed.

    ``move`` is the player's move in canonical notation and ``events`` the public events of
    that move followed by those of the steps the bot played after it (chance outcomes such as
    ``roll:G``, and forced moves of engines that ask for them). ``unannounced`` is the notation
    of those steps that have no events at all, for the post to name them; a step its events
    already tell ("North rolled red (R)") is not repeated, and a step with only private
    events is not named in public (its notation may show what they hide). ``snapshot`` is the
    game after all of them. ``declined_draw_offer`` is true when the move declined a pending
    draw offer, ``refused_takeback`` when it refused a pending takeback request,
    ``ended_claim`` when the mover's soft clock had run out and their turn is over, so the
    time-out notice against them (its Claim on time) is stale.

    ``private_events`` are the events of the same steps that only some seats may see and
    the mover's seat is among them (a card it looked at): they go to the mover alone, in
    the ephemeral acknowledgement. Private events of other seats are never in a
    ``TurnResult``; those seats read them in their :class:`PrivateView`. ``turn_goes_on`` is
    true when the engine plays many decisions per turn
    (:attr:`~engines.base.Engine.many_decisions_per_turn`) and the next decision is the
    mover's again: the bot then tells the mover what is pending instead of posting a board.
    When such a move ends the turn, ``turn_before`` holds the seat's earlier decisions of
    that turn (with their public events, oldest first; chance outcomes among them too) for
    the watchers' direct message, which would otherwise tell only this last decision;
    ``turn_cut`` is true when the turn began before the rows looked at
    (:data:`~bot.service.logbook.TURN_LOOKBACK`). ``told_privately`` are the people other
    than the mover to whom these steps showed something only they may see (Generation
    Zero's last draft pick deals every seat its Canons), so the post can send them to
    ``/hand``; it names who, never what.
    """

    snapshot: GameSnapshot
    seat: int
    user_id: int
    move: str
    events: tuple[Event, ...]
    unannounced: tuple[str, ...]
    declined_draw_offer: bool
    private_events: tuple[Event, ...] = ()
    refused_takeback: bool = False
    turn_goes_on: bool = False
    ended_claim: bool = False
    turn_before: tuple[MoveRecord, ...] = ()
    turn_cut: bool = False
    told_privately: tuple[int, ...] = ()

    @property
    def outcome(self) -> Outcome | None:
        return self.snapshot.outcome

    @property
    def next_user_ids(self) -> tuple[int, ...]:
        return self.snapshot.to_move_user_ids


@dataclass(frozen=True, slots=True)
class PrivateEvent:
    """An event only some seats may see (``event.visible_to`` is set), with the ``ply`` of
    the move log entry that produced it."""

    ply: int
    event: Event


@dataclass(frozen=True, slots=True)
class PrivateView:
    """What one player may see of a game with hidden information ("My view", ``/hand``).

    ``seat`` is the player's seat (the one to move, if the player holds several) and
    ``view`` the engine's view for it (:meth:`engines.base.Engine.view` with ``viewer=seat``):
    never shown to anyone else. ``to_move`` is true when the decision is this seat's, and
    ``prompt`` is then the engine's sentence on what it must decide. ``events`` are the
    seat's latest private events from the move log (at most :data:`PRIVATE_EVENTS`,
    oldest first): how a player hears what other players' turns showed them. ``players``
    are every seat's player, for the picture's labels.
    """

    game_id: int
    game: str
    game_name: str
    status: str
    version: int
    ply: int
    seat: int
    seat_name: str
    user_id: int
    players: tuple[Player, ...]
    to_move: bool
    prompt: str | None
    view: Any
    events: tuple[PrivateEvent, ...]

    @property
    def is_active(self) -> bool:
        return self.status == "active"


@dataclass(frozen=True, slots=True)
class DrawOffer:
    """A pending draw offer: ``version`` is the game version the answer buttons quote;
    ``opponent_user_ids`` the other players still in, whose agreement it needs (each once)."""

    game_id: int
    version: int
    seat: int
    user_id: int
    opponent_user_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ChallengePlayer:
    """One user listed in a challenge's lobby.

    ``role`` is how they came: ``challenger``, ``invited`` (named by the challenger) or
    ``joined`` (took an open seat). ``status`` is where they stand: ``invited`` (seat
    reserved, no answer yet), ``seated``, ``declined`` or ``left`` (seat open again).
    """

    user_id: int
    role: str
    status: str

    @property
    def holds_seat(self) -> bool:
        """True while the user is seated or their seat is reserved for them."""
        return self.status in ("invited", "seated")


@dataclass(frozen=True, slots=True)
class ChallengeInfo:
    """A challenge as stored: a lobby of ``players`` seats.

    ``lobby`` lists the challenger first, then the invited users in the order named, then
    those who joined (including users who declined or left; see :class:`ChallengePlayer`).
    ``min_players`` is the fewest players it can start with (the game's minimum, or more
    when its options name every seat, :func:`~bot.service.lobby_rules.fewest_players`):
    when it is below ``players`` the challenger may start early once that many are seated.
    ``status`` is ``open``, ``accepted`` (``game_id`` names the game), ``declined``,
    ``cancelled`` or ``expired``.
    """

    challenge_id: int
    guild_id: int | None
    channel_id: int
    message_id: int | None
    challenger_id: int
    game: str
    game_name: str
    players: int
    min_players: int
    lobby: tuple[ChallengePlayer, ...]
    options: Mapping[str, OptionValue]
    options_text: str
    status: str
    game_id: int | None
    created_at: datetime
    expires_at: datetime
    clock: str = "none"
    """The clock's canonical text (``none``, ``soft:2d+1d/4d``; bot/service/clocks.py)."""
    clock_text: str = "no clock"
    """The clock in words, for the lobby post (``ClockSpec.describe``)."""
    seating: tuple[int, ...] | None = None
    """The user ids in seat order when fixed (a rematch), else ``None`` (drawn at start)."""
    rematch_of: int | None = None
    """The game this challenge is a rematch of."""
    start_position: str | None = None
    """The custom position the game will start from (``/challenge position:``), else ``None``.
    Its player count is fixed: such a challenge never starts early."""
    rated: bool = True
    """Whether the game will count for ratings (``/challenge rated:``); a custom start or a
    game of bots only is casual whatever this says (bot/service/ratings.py)."""

    @property
    def is_open(self) -> bool:
        return self.status == "open"

    @property
    def invited_ids(self) -> tuple[int, ...]:
        """Everyone the challenger named, whatever their answer, in the order named."""
        return tuple(p.user_id for p in self.lobby if p.role == "invited")

    @property
    def pending_ids(self) -> tuple[int, ...]:
        """Invited users who have not answered yet (their seats are reserved)."""
        return tuple(p.user_id for p in self.lobby if p.status == "invited")

    @property
    def seated_ids(self) -> tuple[int, ...]:
        """Users holding a seat now, in listing order (the challenger first)."""
        return tuple(p.user_id for p in self.lobby if p.status == "seated")

    @property
    def declined_ids(self) -> tuple[int, ...]:
        """Invited users who declined."""
        return tuple(p.user_id for p in self.lobby if p.status == "declined")

    @property
    def open_seats(self) -> int:
        """Seats anyone may take with Join: neither held nor reserved."""
        return self.players - sum(1 for p in self.lobby if p.holds_seat)

    @property
    def can_start_early(self) -> bool:
        """True when the challenger may press Start now: the game allows fewer players than
        seats, and at least ``min_players`` are seated (the lobby is open)."""
        return (
            self.is_open
            and self.start_position is None
            and self.min_players < self.players
            and len(self.seated_ids) >= self.min_players
        )


@dataclass(frozen=True, slots=True)
class LobbyUpdate:
    """What a press in a lobby (Accept, Join, Decline, Leave, Start) led to.

    ``challenge`` is the lobby after the change. ``game`` is the game it started when the
    change filled the last seat or was a Start (then ``challenge.status`` is
    ``accepted``), else ``None``.
    """

    challenge: ChallengeInfo
    game: GameSnapshot | None = None


@dataclass(frozen=True, slots=True)
class ReplayReport:
    """What :meth:`GameService.replay` found: the position rebuilt from the seed, options
    and ``plies`` logged moves, next to the stored one."""

    game_id: int
    plies: int
    position: str
    stored_position: str
    state_matches: bool

    @property
    def matches(self) -> bool:
        """True when the replay reproduces the stored position and state exactly."""
        return self.state_matches and self.position == self.stored_position


# ---- takebacks and rematches (bot/service/social.py) ----------------------------------------

__all__ += ["Hint", "HintMove"]


@dataclass(frozen=True, slots=True)
class HintMove:
    """One move of a :class:`Hint`: ``move`` in canonical notation, ``value`` how well the
    player is expected to do after it (0–1: 1 a sure win, or first place; 0 a loss, or
    last), ``forced`` what the search proved of it: ``"win"``, ``"loss"``, ``"other"`` (a
    settled result between them, a draw with two players) or ``None``
    (:class:`ai.levels.Suggestion`); ``searched`` false for a move the search never tried
    (offered only when every move it tried loses by force; its value then means nothing)."""

    move: str
    value: float
    forced: str | None = None
    searched: bool = True


@dataclass(frozen=True, slots=True)
class Hint:
    """``/hint``: what the strongest bot level would play in the caller's place, from the
    caller's own view (:meth:`bot.service.bots.Bots.hint`). ``moves`` best first (1–3);
    ``seconds`` how long its search took in the worker, in seconds to a tenth (≥ 0.1; the
    wait for a worker not included); ``level_name`` the level whose budget it had;
    ``players`` the game's seats (what a value means depends on it)."""

    game_id: int
    game_name: str
    seat: int
    moves: tuple[HintMove, ...]
    seconds: float
    level_name: str
    players: int = 2


__all__ += ["TakebackAnswer", "TakebackRequest"]


@dataclass(frozen=True, slots=True)
class TakebackRequest:
    """An open request of ``user_id`` (seat ``seat``) to take back its move ``move``,
    logged at ``ply``. ``version`` is the game version the Allow / Refuse buttons quote;
    ``opponent_user_ids`` are the players asked."""

    game_id: int
    version: int
    seat: int
    user_id: int
    opponent_user_ids: tuple[int, ...]
    move: str
    ply: int


@dataclass(frozen=True, slots=True)
class TakebackAnswer:
    """How a takeback request was answered, by ``by_user_id``.

    ``user_id`` (seat ``seat``) asked. ``accepted``: the move is gone, and ``removed`` lists
    the canonical texts of the log rows taken back, oldest first (the move, then the rows
    after it: the bot's replies, which ``replies`` repeats, and the forced moves the bot had
    played for a seat, which ``forced`` repeats); else ``removed`` is empty and the request
    was refused (or, when ``by_user_id`` is the requester, withdrawn). ``snapshot`` is the
    game after the answer.
    """

    snapshot: GameSnapshot
    seat: int
    user_id: int
    by_user_id: int
    accepted: bool
    removed: tuple[str, ...] = ()
    replies: tuple[str, ...] = ()
    forced: tuple[str, ...] = ()

    @property
    def withdrawn(self) -> bool:
        """True when the requester withdrew the request."""
        return not self.accepted and self.by_user_id == self.user_id

    @property
    def move(self) -> str:
        """The move taken back (empty unless accepted)."""
        return self.removed[0] if self.removed else ""


# ---- clocks and vacations -------------------------------------------------------------------


class ClockEventKind(StrEnum):
    """What a seat's running out of time led to (:class:`ClockEvent`)."""

    FLAGGED_SOFT = "flagged_soft"
    """A soft clock ran out: nothing changed; the opponents may now claim (``/claim``)."""
    TIMED_OUT = "timed_out"
    """The bot played the seat's time-out moves, as the game's spec says (Arbos, Generation
    Zero); the game goes on unless those moves ended it."""
    LOST_ON_TIME = "lost_on_time"
    """A two-player game without a time-out rule: the seat lost (termination ``time``)."""
    RESIGNED_ON_TIME = "resigned_on_time"
    """A seat of a larger game resigned on time (logged ``[k]resign``); play goes on unless
    one seat is left."""


@dataclass(frozen=True, slots=True)
class ClockEvent:
    """What happened when ``seat`` (played by ``user_id``) ran out of time.

    ``snapshot`` is the game after it. ``kind`` says what happened; ``moves`` are the moves
    logged for the seat (its time-out moves, or ``[k]resign``) and the automatic steps after
    them, canonical, and ``events`` their public events. ``claimed_by`` is the user whose
    claim applied the time-out (``None`` for a hard clock's deadline or a late move).
    ``on_claim`` (of ``FLAGGED_SOFT``) says what a claim would do: ``"rule"`` the game's
    time-out rule plays for the seat, ``"win"`` the game ends (two players, or no one left
    to play on), ``"leave"`` the seat leaves the game and play goes on. ``gone_seats`` (of
    ``FLAGGED_SOFT``) are the seats that had left the game (resigned, knocked out);
    ``teammates`` the other seats of the late seat's side (Orbs teams), who may not claim.
    ``told_privately`` are the people those moves showed something only they may see (the
    late player among them: Generation Zero's last draft pick on time-out deals every seat
    its Canons), whom the post sends to ``/hand``.
    """

    snapshot: GameSnapshot
    seat: int
    user_id: int
    kind: ClockEventKind
    moves: tuple[str, ...] = ()
    events: tuple[Event, ...] = ()
    claimed_by: int | None = None
    on_claim: Literal["rule", "win", "leave"] | None = None
    gone_seats: frozenset[int] = frozenset()
    teammates: frozenset[int] = frozenset()
    told_privately: tuple[int, ...] = ()

    @property
    def opponent_user_ids(self) -> tuple[int, ...]:
        """The players of the other sides still in the game (not of ``gone_seats``), in seat
        order, bots included: who may claim (soft), by :func:`claimer_ids`."""
        return claimer_ids(self.snapshot.players, self.user_id, self.gone_seats | self.teammates)


def claimer_ids(players: Sequence[Player], user_id: int, out: Collection[int]) -> tuple[int, ...]:
    """Who may claim on time against ``user_id``'s late seat on a soft clock: the user ids of
    ``players`` other than ``user_id`` whose seat is not in ``out``, once each, in seat
    order, bots included. ``out`` holds the seats that left the game (resigned, knocked
    out: nothing of theirs is at stake any more) and the late seat's teammates (a claim is
    the other side's); see :meth:`~bot.service.timeouts.Timeouts.claim_on_time`."""
    return tuple(
        dict.fromkeys(p.user_id for p in players if p.seat not in out and p.user_id != user_id)
    )


@dataclass(frozen=True, slots=True)
class FinalWarning:
    """A seat clock's last warning is due: ``user_id`` (seat ``seat``) has until ``deadline``
    to move in game ``game_id`` (in ``channel_id``).

    ``at_deadline`` says what happens once the deadline passes: ``"time_out"`` a hard
    clock's seat is timed out by the bot; ``"claim"`` on a soft clock an opponent may claim
    on time (until someone does, the player may still move); ``"bot_claims"`` on a soft
    clock where only bots could claim, the bot claims at once (as
    :meth:`~bot.service.timeouts.Timeouts.clock_timer_fired` decides).
    """

    game_id: int
    game_name: str
    guild_id: int | None
    channel_id: int
    seat: int
    seat_name: str
    user_id: int
    deadline: datetime
    board_message_id: int | None
    at_deadline: Literal["time_out", "claim", "bot_claims"] = "time_out"


@dataclass(frozen=True, slots=True)
class VacationGame:
    """An active game with a clock that a vacation pauses (or resumes); ``out_of_time``: the
    player's clock there had already run out, so a vacation does not pause it (on a soft
    clock the opponents may still claim)."""

    game_id: int
    game_name: str
    guild_id: int | None
    channel_id: int
    out_of_time: bool = False


@dataclass(frozen=True, slots=True)
class VacationInfo:
    """A user's vacation as of ``as_of``.

    ``until`` is the end of the current vacation (``None`` when not on vacation); ``used``
    is the vacation booked in the current UTC year, ``left`` what may still be booked of
    ``allowance``. ``games`` are the user's active games with a clock (the ones a vacation
    pauses), oldest first; ``unclocked`` the others (a vacation holds only their
    reminders). ``booked`` is what the ``/vacation start`` that returned it added (less than
    asked when the allowance ran short), ``None`` otherwise.
    """

    user_id: int
    until: datetime | None
    used: timedelta
    left: timedelta
    allowance: timedelta
    games: tuple[VacationGame, ...]
    as_of: datetime
    booked: timedelta | None = None
    unclocked: tuple[VacationGame, ...] = ()

    @property
    def on_vacation(self) -> bool:
        """True while the vacation lasts."""
        return self.until is not None and self.until > self.as_of


__all__ += ["ReplayAnimation"]


@dataclass(frozen=True, slots=True)
class ReplayAnimation:
    """``/game replay format:gif``: the animated public replay of plies ``from_ply`` to
    ``to_ply`` (of the game's ``plies``) as GIF bytes, with ``frames`` pictures lasting
    ``seconds`` in all (identical consecutive pictures are merged by the writer, so the GIF
    may hold fewer). ``speed`` is ``"real"`` (frame times follow the real move times) or
    ``"fast"`` (half a second a frame)."""

    game_id: int
    game: str
    game_name: str
    from_ply: int
    to_ply: int
    plies: int
    speed: str
    frames: int
    seconds: float
    gif: bytes

    @property
    def filename(self) -> str:
        """``<game>-<id>-<from>-<to>.gif``."""
        return f"{self.game}-{self.game_id}-{self.from_ply}-{self.to_ply}.gif"


__all__ += ["RatingChange"]


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One player's rating before and after a rated game, as shown (``1512 → 1538``).
    ``user_id`` is the seat's user (the bot's seat id for the bot); ``provisional``: the
    rating after is still provisional (shown with ``?``)."""

    user_id: int
    seat: int
    before: int
    after: int
    provisional: bool = False
    provisional_before: bool = False

    @property
    def delta(self) -> int:
        return self.after - self.before
