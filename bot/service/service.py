"""``GameService``: the one object the cogs hold, a thin facade over the use cases.

The service is built from rooms a newcomer can find (``docs/development.md`` has the map):

* :mod:`bot.service.core` — what every use case shares: a game loaded under its lock, users
  mapped to seats, moves committed with the compare-and-set, the snapshot;
* one module per use case, each depending only on the core (and, where a use case is built on
  another, on that one, handed in here): :mod:`~bot.service.lobby`,
  :mod:`~bot.service.play`, :mod:`~bot.service.endings`, :mod:`~bot.service.timeouts`,
  :mod:`~bot.service.vacations`, :mod:`~bot.service.views`, :mod:`~bot.service.replays`,
  :mod:`~bot.service.takebacks`, :mod:`~bot.service.rematches`, and the bot's own seats,
  :mod:`~bot.service.bots` (built on play, endings and takebacks).

Why a facade: the cogs, the timer handlers and the tests speak to "the service" by method
name (``service.play(...)``, ``service.resign(...)``), and a cog often needs several use
cases in one command. The facade keeps that one name for each operation and wires the use
cases together once, here; it holds no logic. Each public method delegates in one line to
the use case its docstring names (same signature), so reading a method means opening that
module. A new use case adds its module, one constructor line and its methods here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from datetime import timedelta

from bot.service.bots import Bots
from bot.service.core import DEFAULT_REMINDER_QUIET, Clock, GameCore, utc_now
from bot.service.endings import Endings
from bot.service.lobby import DEFAULT_CHALLENGE_TTL, Lobby
from bot.service.models import (
    ChallengeInfo,
    ClockEvent,
    DrawOffer,
    FinalWarning,
    GameSnapshot,
    Hint,
    LobbyUpdate,
    MoveRecord,
    Player,
    PrivateView,
    ReplayAnimation,
    ReplayReport,
    TakebackAnswer,
    TakebackRequest,
    TurnResult,
    VacationInfo,
)
from bot.service.play import Play
from bot.service.randomness import random_seed
from bot.service.rating_models import Leaderboard, RatingProfile
from bot.service.ratings import Ratings, RebuildReport
from bot.service.records import BoardAtPly, GameRecord
from bot.service.rematches import Rematches
from bot.service.replays import Replays
from bot.service.takebacks import Takebacks
from bot.service.timeouts import ClockListener, Timeouts
from bot.service.vacations import DEFAULT_VACATION_ALLOWANCE, Vacations
from bot.service.views import Views
from db import Database
from db.rows import TimerRow

__all__ = ["DEFAULT_CHALLENGE_TTL", "GameService"]


class GameService:
    """Sessions of every game in every channel, persisted in ``database``.

    ``clock`` returns aware UTC datetimes (inject a fake in tests); ``rng_seed_source``
    returns a new game's seed; ``challenge_ttl`` is how long a challenge stays open.
    ``default_clock`` is the clock text of a challenge that names none (``none``: casual);
    ``reminder_quiet`` how long a turn stays quiet before its player is reminded when
    neither the user nor the guild chose; ``vacation_allowance`` the vacation each user may
    take per calendar year. ``cache_size`` is how many games' metadata and positions stay
    cached. ``ai_workers`` is the number of processes the bot searches its moves in
    (``ai_executor`` replaces that pool, for tests). ``exhibition_pace`` is the least time
    between moves of a game of bots only without a clock (:meth:`GameCore.bot_turn_delay
    <bot.service.core.GameCore.bot_turn_delay>`; 0: as fast as they play). One service per
    process; several processes may share the database.

    Raises :class:`ValueError` for a ``default_clock`` that is not a clock, or a quiet time,
    allowance or pace that is negative.
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
        ai_workers: int = 1,
        ai_executor: Executor | None = None,
        exhibition_pace: timedelta = timedelta(0),
    ) -> None:
        if min(reminder_quiet, vacation_allowance, exhibition_pace) < timedelta(0):
            raise ValueError(
                "the reminder quiet time, vacation allowance and exhibition pace cannot be negative"
            )
        self.database = database
        self.core = GameCore(
            database,
            clock=clock,
            cache_size=cache_size,
            reminder_quiet=reminder_quiet,
            exhibition_pace=exhibition_pace,
        )
        core = self.core
        self.lobby = Lobby(
            core,
            seed_source=rng_seed_source,
            challenge_ttl=challenge_ttl,
            default_clock=default_clock,
        )
        self.timeouts = Timeouts(core)
        self.moves = Play(core, self.timeouts)
        self.endings = Endings(core)
        self.vacations = Vacations(core, allowance=vacation_allowance)
        self.views = Views(core)
        self.replays = Replays(core)
        self.takebacks = Takebacks(core)
        self.rematches = Rematches(core, self.lobby)
        self.ratings = Ratings(core)  # plugs the rating update into the core's final writes
        self.bots = Bots(
            core,
            self.moves,
            self.endings,
            self.takebacks,
            workers=ai_workers,
            executor=ai_executor,
        )
        self.challenge_ttl = challenge_ttl
        self.reminder_quiet = reminder_quiet
        self.vacation_allowance = vacation_allowance

    # ---- Challenges and lobbies (bot/service/lobby.py) -------------------------------------------
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
        start_position: str | None = None,
        rated: bool = True,
        bot_seats: int = 0,
        bots_follow: bool = False,
    ) -> ChallengeInfo:
        """See :meth:`~bot.service.lobby.Lobby.create_challenge`."""
        return await self.lobby.create_challenge(
            guild_id=guild_id,
            channel_id=channel_id,
            challenger_id=challenger_id,
            game=game,
            opponent_ids=opponent_ids,
            players=players,
            options_text=options_text,
            preset=preset,
            clock=clock,
            seating=seating,
            rematch_of=rematch_of,
            start_position=start_position,
            rated=rated,
            bot_seats=bot_seats,
            bots_follow=bots_follow,
        )

    async def settle_start(self, game_id: int) -> GameSnapshot | None:
        """See :meth:`~bot.service.lobby.Lobby.settle_start`."""
        return await self.lobby.settle_start(game_id)

    async def get_challenge(self, challenge_id: int) -> ChallengeInfo:
        """See :meth:`~bot.service.lobby.Lobby.get_challenge`."""
        return await self.lobby.get_challenge(challenge_id)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """See :meth:`~bot.service.lobby.Lobby.set_challenge_message`."""
        return await self.lobby.set_challenge_message(challenge_id, message_id)

    async def accept_challenge(
        self,
        challenge_id: int,
        user_id: int,
        *,
        channel_id: int | None = None,
        parent_channel_id: int | None = None,
    ) -> LobbyUpdate:
        """See :meth:`~bot.service.lobby.Lobby.accept_challenge`."""
        return await self.lobby.accept_challenge(
            challenge_id, user_id, channel_id=channel_id, parent_channel_id=parent_channel_id
        )

    async def join_challenge(
        self,
        challenge_id: int,
        user_id: int,
        *,
        channel_id: int | None = None,
        parent_channel_id: int | None = None,
    ) -> LobbyUpdate:
        """See :meth:`~bot.service.lobby.Lobby.join_challenge`."""
        return await self.lobby.join_challenge(
            challenge_id, user_id, channel_id=channel_id, parent_channel_id=parent_channel_id
        )

    async def decline_challenge(self, challenge_id: int, user_id: int) -> LobbyUpdate:
        """See :meth:`~bot.service.lobby.Lobby.decline_challenge`."""
        return await self.lobby.decline_challenge(challenge_id, user_id)

    async def leave_challenge(self, challenge_id: int, user_id: int) -> LobbyUpdate:
        """See :meth:`~bot.service.lobby.Lobby.leave_challenge`."""
        return await self.lobby.leave_challenge(challenge_id, user_id)

    async def start_challenge(
        self,
        challenge_id: int,
        user_id: int,
        *,
        channel_id: int | None = None,
        parent_channel_id: int | None = None,
    ) -> LobbyUpdate:
        """See :meth:`~bot.service.lobby.Lobby.start_challenge`."""
        return await self.lobby.start_challenge(
            challenge_id, user_id, channel_id=channel_id, parent_channel_id=parent_channel_id
        )

    async def open_exhibition(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        game: str,
        players: int | None,
        options_text: str | None = None,
        preset: str | None = None,
        clock: str | None = None,
    ) -> ChallengeInfo:
        """See :meth:`~bot.service.lobby.Lobby.open_exhibition`."""
        return await self.lobby.open_exhibition(
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            game=game,
            players=players,
            options_text=options_text,
            preset=preset,
            clock=clock,
        )

    async def add_bots(
        self,
        challenge_id: int,
        user_id: int,
        levels: Sequence[int],
        *,
        channel_id: int | None = None,
        parent_channel_id: int | None = None,
    ) -> LobbyUpdate:
        """See :meth:`~bot.service.lobby.Lobby.add_bots`."""
        return await self.lobby.add_bots(
            challenge_id,
            user_id,
            levels,
            channel_id=channel_id,
            parent_channel_id=parent_channel_id,
        )

    async def remove_bot(self, challenge_id: int, user_id: int, bot_id: int) -> ChallengeInfo:
        """See :meth:`~bot.service.lobby.Lobby.remove_bot`."""
        return await self.lobby.remove_bot(challenge_id, user_id, bot_id)

    async def cancel_challenge(self, challenge_id: int, user_id: int) -> ChallengeInfo:
        """See :meth:`~bot.service.lobby.Lobby.cancel_challenge`."""
        return await self.lobby.cancel_challenge(challenge_id, user_id)

    async def expire_challenges(self) -> list[ChallengeInfo]:
        """See :meth:`~bot.service.lobby.Lobby.expire_challenges`."""
        return await self.lobby.expire_challenges()

    # ---- Moves (bot/service/play.py) -------------------------------------------------------------
    async def play(
        self, channel_id: int, user_id: int, text: str, seen_version: int | None = None
    ) -> TurnResult:
        """See :meth:`~bot.service.play.Play.play`."""
        return await self.moves.play(channel_id, user_id, text, seen_version)

    async def autocomplete_moves(self, channel_id: int, user_id: int, typed: str) -> list[str]:
        """See :meth:`~bot.service.play.Play.autocomplete_moves`."""
        return await self.moves.autocomplete_moves(channel_id, user_id, typed)

    async def autocomplete_move_choices(
        self, channel_id: int, user_id: int, typed: str
    ) -> list[tuple[str, str]]:
        """See :meth:`~bot.service.play.Play.autocomplete_move_choices`."""
        return await self.moves.autocomplete_move_choices(channel_id, user_id, typed)

    async def legal_moves(self, channel_id: int, user_id: int) -> list[str]:
        """See :meth:`~bot.service.play.Play.legal_moves`."""
        return await self.moves.legal_moves(channel_id, user_id)

    # ---- Endings without a move (bot/service/endings.py) -----------------------------------------
    async def resign(self, channel_id: int, user_id: int) -> GameSnapshot:
        """See :meth:`~bot.service.endings.Endings.resign`."""
        return await self.endings.resign(channel_id, user_id)

    async def offer_draw(self, channel_id: int, user_id: int) -> DrawOffer:
        """See :meth:`~bot.service.endings.Endings.offer_draw`."""
        return await self.endings.offer_draw(channel_id, user_id)

    async def hint(self, channel_id: int, user_id: int) -> Hint:
        """See :meth:`~bot.service.bots.Bots.hint`."""
        return await self.bots.hint(channel_id, user_id)

    async def offers_awaiting_bots(self) -> list[DrawOffer]:
        """See :meth:`~bot.service.endings.Endings.offers_awaiting_bots`."""
        return await self.endings.offers_awaiting_bots()

    async def draw_offer_now(self, game_id: int, version: int) -> GameSnapshot:
        """See :meth:`~bot.service.endings.Endings.draw_offer_now`."""
        return await self.endings.draw_offer_now(game_id, version)

    async def answer_draw(
        self, game_id: int, user_id: int, *, accept: bool, version: int
    ) -> GameSnapshot:
        """See :meth:`~bot.service.endings.Endings.answer_draw`."""
        return await self.endings.answer_draw(game_id, user_id, accept=accept, version=version)

    async def abort(
        self, channel_id: int, user_id: int, *, moderator: bool = False
    ) -> GameSnapshot:
        """See :meth:`~bot.service.endings.Endings.abort`."""
        return await self.endings.abort(channel_id, user_id, moderator=moderator)

    async def abort_in_deleted_channel(self, guild_id: int, channel_id: int) -> list[GameSnapshot]:
        """See :meth:`~bot.service.endings.Endings.abort_in_deleted_channel`."""
        return await self.endings.abort_in_deleted_channel(guild_id, channel_id)

    async def cancel_in_deleted_channel(self, channel_id: int) -> list[ChallengeInfo]:
        """See :meth:`~bot.service.lobby.Lobby.cancel_in_deleted_channel`."""
        return await self.lobby.cancel_in_deleted_channel(channel_id)

    async def places_in_use(self) -> dict[int, set[int]]:
        """See :meth:`~bot.service.endings.Endings.places_in_use`."""
        return await self.endings.places_in_use()

    # ---- Clocks and time-outs (bot/service/timeouts.py) ------------------------------------------
    def add_clock_listener(self, listener: ClockListener) -> None:
        """See :meth:`~bot.service.timeouts.Timeouts.add_clock_listener`."""
        return self.timeouts.add_clock_listener(listener)

    def remove_clock_listener(self, listener: ClockListener) -> None:
        """See :meth:`~bot.service.timeouts.Timeouts.remove_clock_listener`."""
        return self.timeouts.remove_clock_listener(listener)

    async def clock_timer_fired(self, timer: TimerRow) -> ClockEvent | None:
        """See :meth:`~bot.service.timeouts.Timeouts.clock_timer_fired`."""
        return await self.timeouts.clock_timer_fired(timer)

    async def claim_on_time(
        self, channel_id: int, user_id: int, *, game_id: int | None = None
    ) -> ClockEvent:
        """See :meth:`~bot.service.timeouts.Timeouts.claim_on_time`."""
        return await self.timeouts.claim_on_time(channel_id, user_id, game_id=game_id)

    async def final_warning_due(self, timer: TimerRow) -> FinalWarning | None:
        """See :meth:`~bot.service.timeouts.Timeouts.final_warning_due`."""
        return await self.timeouts.final_warning_due(timer)

    # ---- Vacations (bot/service/vacations.py) ----------------------------------------------------
    async def start_vacation(self, user_id: int, duration: timedelta) -> VacationInfo:
        """See :meth:`~bot.service.vacations.Vacations.start`."""
        return await self.vacations.start(user_id, duration)

    async def end_vacation(self, user_id: int) -> VacationInfo:
        """See :meth:`~bot.service.vacations.Vacations.end`."""
        return await self.vacations.end(user_id)

    async def vacation(self, user_id: int) -> VacationInfo:
        """See :meth:`~bot.service.vacations.Vacations.status`."""
        return await self.vacations.status(user_id)

    # ---- Reading and pictures (bot/service/views.py) ---------------------------------------------
    async def snapshot(self, channel_id: int) -> GameSnapshot:
        """See :meth:`~bot.service.views.Views.snapshot`."""
        return await self.views.snapshot(channel_id)

    async def game_info(self, channel_id: int) -> GameSnapshot:
        """See :meth:`~bot.service.views.Views.game_info`."""
        return await self.views.game_info(channel_id)

    async def games_in_threads_of(self, channel_id: int, user_id: int) -> list[GameSnapshot]:
        """See :meth:`~bot.service.views.Views.games_in_threads_of`."""
        return await self.views.games_in_threads_of(channel_id, user_id)

    async def game_snapshot(self, game_id: int) -> GameSnapshot:
        """See :meth:`~bot.service.views.Views.game_snapshot`."""
        return await self.views.game_snapshot(game_id)

    async def move_list(self, channel_id: int) -> list[MoveRecord]:
        """See :meth:`~bot.service.views.Views.move_list`."""
        return await self.views.move_list(channel_id)

    async def private_view(self, channel_id: int, user_id: int) -> PrivateView:
        """See :meth:`~bot.service.views.Views.private_view`."""
        return await self.views.private_view(channel_id, user_id)

    async def game_private_view(self, game_id: int, user_id: int) -> PrivateView:
        """See :meth:`~bot.service.views.Views.game_private_view`."""
        return await self.views.game_private_view(game_id, user_id)

    async def render(
        self,
        snapshot: GameSnapshot,
        viewer: int | None = None,
        *,
        seat_labels: Sequence[str] | None = None,
        perspective: int | None = None,
    ) -> bytes:
        """See :meth:`~bot.service.views.Views.render`."""
        return await self.views.render(
            snapshot, viewer, seat_labels=seat_labels, perspective=perspective
        )

    async def render_private(
        self,
        private: PrivateView,
        *,
        seat_labels: Sequence[str] | None = None,
        perspective: int | None = None,
    ) -> bytes:
        """See :meth:`~bot.service.views.Views.render_private`."""
        return await self.views.render_private(
            private, seat_labels=seat_labels, perspective=perspective
        )

    async def set_board_message(
        self, game_id: int, message_id: int | None, version: int | None = None
    ) -> None:
        """See :meth:`~bot.service.views.Views.set_board_message`."""
        return await self.views.set_board_message(game_id, message_id, version)

    # ---- Records and replay (bot/service/replays.py) ---------------------------------------------
    async def export_record(
        self, channel_id: int, *, guild_id: int | None, game_id: int | None = None
    ) -> GameRecord:
        """See :meth:`~bot.service.replays.Replays.export_record`."""
        return await self.replays.export_record(channel_id, guild_id=guild_id, game_id=game_id)

    async def board_at(
        self,
        channel_id: int,
        *,
        guild_id: int | None,
        ply: int | None = None,
        game_id: int | None = None,
    ) -> BoardAtPly:
        """See :meth:`~bot.service.replays.Replays.board_at`."""
        return await self.replays.board_at(channel_id, guild_id=guild_id, ply=ply, game_id=game_id)

    async def replay(self, game_id: int) -> ReplayReport:
        """See :meth:`~bot.service.replays.Replays.replay`."""
        return await self.replays.replay(game_id)

    # ---- Takebacks (bot/service/takebacks.py) ----------------------------------------------------
    async def request_takeback(self, channel_id: int, user_id: int) -> TakebackRequest:
        """See :meth:`~bot.service.takebacks.Takebacks.request_takeback`."""
        return await self.takebacks.request_takeback(channel_id, user_id)

    async def answer_takeback(
        self, game_id: int, user_id: int, *, accept: bool, version: int
    ) -> TakebackAnswer:
        """See :meth:`~bot.service.takebacks.Takebacks.answer_takeback`."""
        return await self.takebacks.answer_takeback(
            game_id, user_id, accept=accept, version=version
        )

    # ---- Rematches (bot/service/rematches.py) ----------------------------------------------------
    async def rematch(
        self, game_id: int, user_id: int, *, in_parent: bool = False, bot_level: int | None = None
    ) -> ChallengeInfo:
        """See :meth:`~bot.service.rematches.Rematches.rematch`."""
        return await self.rematches.rematch(
            game_id, user_id, in_parent=in_parent, bot_level=bot_level
        )

    # ---- Animated replays and perspective (issue 17) -------------------------------------------
    async def animation(
        self,
        channel_id: int,
        *,
        guild_id: int | None,
        game_id: int | None = None,
        from_ply: int | None = None,
        to_ply: int | None = None,
        speed: str = "real",
        seat_labels: Sequence[str] | None = None,
    ) -> ReplayAnimation:
        """See :meth:`~bot.service.replays.Replays.animation`."""
        return await self.replays.animation(
            channel_id, guild_id=guild_id, game_id=game_id, from_ply=from_ply, to_ply=to_ply,
            speed=speed, seat_labels=seat_labels,
        )  # fmt: skip

    async def perspective_of(
        self, user_id: int, game: str, players: Sequence[Player], *, seat: int | None = None
    ) -> int | None:
        """See :meth:`~bot.service.views.Views.perspective_of`."""
        return await self.views.perspective_of(user_id, game, players, seat=seat)

    # ---- Ratings (bot/service/ratings.py) -------------------------------------------------------

    async def rating_profile(self, user_id: int, game: str | None = None) -> RatingProfile:
        """See :meth:`~bot.service.ratings.Ratings.profile`."""
        return await self.ratings.profile(user_id, game)

    async def leaderboard(
        self,
        game: str,
        *,
        scope: str = "server",
        guild_id: int | None = None,
        caller_id: int | None = None,
        limit: int = 15,
    ) -> Leaderboard:
        """See :meth:`~bot.service.ratings.Ratings.leaderboard`."""
        return await self.ratings.leaderboard(
            game, scope=scope, guild_id=guild_id, caller_id=caller_id, limit=limit
        )

    async def rebuild_ratings(self) -> RebuildReport:
        """See :meth:`~bot.service.ratings.Ratings.rebuild`."""
        return await self.ratings.rebuild()

    async def set_leaderboard_hidden(self, user_id: int, hidden: bool) -> None:
        """See :meth:`~bot.service.ratings.Ratings.set_hidden`."""
        await self.ratings.set_hidden(user_id, hidden)

    async def leaderboard_hidden(self, user_id: int) -> bool:
        """See :meth:`~bot.service.ratings.Ratings.is_hidden`."""
        return await self.ratings.is_hidden(user_id)

    async def forget_me(self, user_id: int) -> int:
        """See :meth:`~bot.service.ratings.Ratings.forget_me`."""
        return await self.ratings.forget_me(user_id)
