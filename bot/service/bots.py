"""The bot in its own seats: durable bot turns, the search off the event loop, its answers.

A bot turn is a timer row like a clock deadline (:data:`BOT_TURN_TIMER`, due at once), planned
in the same transaction as the change that gives a bot seat the move
(:func:`~bot.service.clock_plans.plan_bot_turns`), so a restart or a crash mid-search resumes
it: the claim of a dead process is released after the timer loop's ``stale_after`` and the
turn runs again. :meth:`Bots.turn_due` reads the game and says what to search — the state of a
perfect-information game, or **only the seat's view** of a game with hidden information (the
search never sees another seat's cards); :meth:`Bots.think` runs :func:`ai.levels.choose_move`
in a worker process (:class:`concurrent.futures.ProcessPoolExecutor`, ``workers`` of them), so
the bot answers every command while a search runs; :meth:`Bots.play` commits the move with the
usual compare-and-set on the version the search started from, so it lands exactly once even if
two processes race, and never on a position that changed meanwhile.

Draw offers and takebacks to a bot always get an answer (:meth:`Bots.answer_draw`,
:meth:`Bots.answer_takeback`): a draw is accepted when the bot's own assessment of its seat
(:func:`ai.levels.assess`) is at most :data:`ACCEPT_DRAW_AT_MOST` (in a two-player game; with
more players, at least ½ − :data:`ACCEPT_DRAW_AT_MOST` = 0.05 below what the draw would give
the seat); a takeback is allowed by the practice levels (1–2, :data:`ALLOW_TAKEBACKS_UP_TO`)
and refused above, like a club player would.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Final

from ai.levels import LEVELS, assess, choose_move, levels_for, suggest
from ai.rewards import rewards_from_outcome
from ai.search import Budget
from ai.workers import exit_with_parent, timed
from bot.service._cache import Lru
from bot.service.bot_seats import bot_level, is_bot, is_practice
from bot.service.clock_plans import BOT_TURN_TIMER
from bot.service.core import GameCore, Loaded
from bot.service.endings import Endings, agreed_draw
from bot.service.errors import HintError, NotAPlayerError, StaleActionError
from bot.service.logbook import (
    is_resignation,
    move_record,
    played_for_the_seat,
    played_on_time_out,
)
from bot.service.models import (
    DrawOffer,
    GameSnapshot,
    Hint,
    HintMove,
    MoveRecord,
    TakebackAnswer,
    TakebackRequest,
    TurnResult,
)
from bot.service.play import Play
from bot.service.takebacks import Takebacks
from db.rows import NewTimer, TimerRow
from engines.base import OptionValue

__all__ = [
    "ACCEPT_DRAW_AT_MOST",
    "ALLOW_TAKEBACKS_UP_TO",
    "BOT_BUSY",
    "BOT_TURN_TIMER",
    "HINT_MOVES",
    "BotTurn",
    "Bots",
    "search_seed",
    "search_subject",
]

log = logging.getLogger(__name__)

#: A bot accepts a draw when its assessment of its own seat is at most this (½ = even).
ACCEPT_DRAW_AT_MOST: Final = 0.45
#: Levels up to this allow a takeback (practice partners); stronger levels refuse.
ALLOW_TAKEBACKS_UP_TO: Final = 2
#: Budget of the assessment behind a draw answer (iterations, seconds).
ASSESS_BUDGET: Final = Budget(800, 0.5)
#: Seconds beyond a level's own time limit before a search is given up (the worker is busy
#: or stuck); the turn then fails and its timer retries.
THINK_GRACE_S: Final = 20.0
#: How many moves ``/hint`` shows at most (the best and two others).
HINT_MOVES: Final = 3
#: Hints kept per process, by game, version and seat (:meth:`Bots.hint`).
HINT_CACHE: Final = 256
#: The one sentence of a hint refused while the bot is busy.
BOT_BUSY: Final = "The bot is busy thinking right now; ask for a hint again in a moment."


@dataclass(frozen=True, slots=True)
class BotTurn:
    """What one bot decision needs, all picklable for a worker process.

    ``subject`` is the state's JSON text (perfect information) or the seat's view (hidden
    information); ``version`` is the game version the search starts from, which the commit
    requires; ``seed`` is derived from the game's seed and ply so a replay is exact;
    ``channel_id`` is where the game is played (its posts keep the order of its moves);
    ``people`` is true when a person is still in the game (someone may be waiting for the
    bot's move, so the channel shows that it is thinking); false in an exhibition and in a
    game every person has left (:meth:`~bot.service.core.GameCore.seats_gone`).
    """

    game_id: int
    channel_id: int
    version: int
    ply: int
    seat: int
    level: int
    game: str
    options: dict[str, OptionValue]
    subject: Any
    seed: int
    people: bool = False


class Bots:
    """The bot's seats in the games of ``core``: turns, moves and answers.

    ``workers`` is the number of search processes (``GAMEROOM_AI_WORKERS``); the pool starts
    on the first search and :meth:`close` stops it. ``executor`` replaces the pool (tests pass
    a thread pool or an inline executor). Raises :class:`ValueError` for ``workers`` < 1.
    """

    def __init__(
        self,
        core: GameCore,
        moves: Play,
        endings: Endings,
        takebacks: Takebacks,
        *,
        workers: int = 1,
        executor: Executor | None = None,
    ) -> None:
        if workers < 1:
            raise ValueError("the bot needs at least one search worker")
        self.core = core
        self.moves = moves
        self.endings = endings
        self.takebacks = takebacks
        self.workers = workers
        self._executor = executor
        self._owns_executor = executor is None
        #: Users whose ``/hint`` is being searched now (:meth:`hint`).
        self._hinting: set[int] = set()
        #: The last hints given, by ``(game id, version, seat)``: asked again, given again.
        self._hints: Lru[tuple[int, int, int], Hint] = Lru(HINT_CACHE)

    def _pool(self) -> Executor:
        if self._executor is None:
            # spawn, not fork: a worker must not inherit the event loop's threads and sockets.
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                # A worker ends with this process, also when it is killed (ai/workers.py).
                initializer=exit_with_parent,
                initargs=(os.getpid(),),
            )
        return self._executor

    def close(self) -> None:
        """Stop the search processes this object started (running searches are abandoned)."""
        if self._executor is not None and self._owns_executor:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def _replace_pool(self, why: BaseException) -> None:
        """After a search that broke its pool (a worker died) or never answered (a worker is
        stuck), stop those processes so the next search starts on fresh ones; otherwise every
        later search would fail or wait behind the stuck one."""
        log.warning("the bot's search processes are restarted: %r", why)
        executor = self._executor
        if executor is None or not self._owns_executor:
            return
        self._executor = None
        executor.shutdown(wait=False, cancel_futures=True)
        # ProcessPoolExecutor has no public way to stop a running task: end its processes.
        for process in list(getattr(executor, "_processes", {}).values()):
            process.terminate()

    async def _run(self, limit: float, function: Any, *args: Any) -> Any:
        """``function(*args)`` in a search process, given up after ``limit`` seconds (and the
        pool replaced when it broke or got stuck). Raises :class:`TimeoutError`,
        :class:`~concurrent.futures.process.BrokenProcessPool` and what ``function`` raises."""
        loop = asyncio.get_running_loop()
        try:
            return await asyncio.wait_for(
                loop.run_in_executor(self._pool(), function, *args), limit
            )
        except (TimeoutError, BrokenProcessPool) as exc:
            self._replace_pool(exc)
            raise

    # ---- turns ------------------------------------------------------------------------------

    async def turn_due(self, timer: TimerRow) -> BotTurn | None:
        """The decision a ``bot_turn`` timer stands for, or ``None`` when it is stale: the game
        is over, the seat is not a bot's or not to move, or the game moved past the ply the
        timer was planned at."""
        if timer.game_id is None or timer.seat is None:
            log.warning("bot turn timer %d names no game seat; ignored", timer.id)
            return None
        row = await self.core.database.games.get(timer.game_id)
        if row is None or not row.is_active or timer.seat not in row.to_move:
            return None
        try:
            planned = json.loads(timer.payload_json).get("ply")
        except (ValueError, AttributeError):
            planned = None
        if planned is not None and planned != row.ply:
            return None
        loaded = await self.core.load_row(row)
        user_id = loaded.meta.players[timer.seat].user_id
        level = bot_level(user_id)
        if level is None:
            return None
        subject = search_subject(loaded, timer.seat)
        people = [p.seat for p in loaded.meta.players if not is_bot(p.user_id)]
        if people and len(loaded.meta.players) >= 3:  # a person may have left, the game on
            gone = await self.core.seats_gone(row)
            people = [seat for seat in people if seat not in gone]
        return BotTurn(
            game_id=row.id,
            channel_id=row.channel_id,
            version=row.version,
            ply=row.ply,
            seat=timer.seat,
            level=level,
            game=row.game,
            options=dict(loaded.meta.options),
            subject=subject,
            seed=search_seed(loaded.meta.seed, "turn", row.ply, timer.seat),
            people=bool(people),
        )

    async def think(self, turn: BotTurn) -> str:
        """The move the bot chooses for ``turn`` (canonical text), searched in a worker
        process within the level's time limit. Raises :class:`TimeoutError` when the worker
        does not answer within the limit plus :data:`THINK_GRACE_S`, and what
        :func:`ai.levels.choose_move` raises."""
        limit = levels_for(turn.game)[turn.level - 1].budget.seconds + THINK_GRACE_S
        text: str = await self._run(
            limit,
            choose_move,
            turn.game,
            turn.options,
            turn.seat,
            turn.subject,
            turn.level,
            turn.seed,
        )
        return text

    async def play(self, turn: BotTurn, text: str) -> TurnResult:
        """Commit the bot's move ``text`` for ``turn`` (compare-and-set on ``turn.version``).

        Raises :class:`StaleActionError` when the game changed since the search started (the
        caller plans the turn again if it is still the bot's) and what
        :meth:`Play.play_seat <bot.service.play.Play.play_seat>` raises.
        """
        result = await self.moves.play_seat(turn.game_id, turn.seat, text, version=turn.version)
        log.info(
            "game %d: bot (level %d) played %s at ply %d",
            turn.game_id,
            turn.level,
            text,
            turn.ply + 1,
        )
        return result

    def again(self, turn: BotTurn) -> NewTimer:
        """The bot turn of ``turn``'s seat planned again at once, after its commit found the
        game changed (no ply check: the game moved on without changing whose turn it is)."""
        return NewTimer(BOT_TURN_TIMER, self.core.now(), turn.game_id, turn.seat, "{}")

    async def still_to_move(self, turn: BotTurn) -> bool:
        """Whether ``turn``'s seat is still to move in its active game (after a stale commit,
        the bot tries again)."""
        row = await self.core.database.games.get(turn.game_id)
        return row is not None and row.is_active and turn.seat in row.to_move

    # ---- hints ------------------------------------------------------------------------------

    async def hint(self, channel_id: int, user_id: int) -> Hint:
        """``/hint``: the moves the strongest level would consider in the caller's place, best
        first (:func:`ai.levels.suggest`, up to :data:`HINT_MOVES`), searched in a worker
        with that level's budget, from the caller's own view in a game with hidden cards (so
        a hint never tells what the caller could not know).

        Only for practice: the game must be casual and every other player a bot (a decision
        of ours, docs/bots.md: in a rated game, or against a person, a hint would be help
        from outside the game). Hints share the search workers with the bots' turns, so at
        most one runs per user and at most ``workers`` per process, and a hint over those
        limits is refused at once ("busy"), so hints can hold up the bots' turns by one
        search each at most. A hint waits for a worker like a bot turn, within its budget
        plus :data:`THINK_GRACE_S`; past that a worker is stuck, the workers are restarted
        as for a turn, and the hint is refused as "busy". A hint asked again before the game
        changes (the same version) is the one given before, at once and without a search,
        from a cache of the last :data:`HINT_CACHE` in this process: asking again cannot
        change the advice or take a worker, so repeated /hint costs nothing. The hint says
        how long its search took in the worker (:attr:`Hint.seconds`; at most the level's
        1.9 s, or less once the root is proven, plus Generatorb's checks or Orbs' second
        search; a repeat from the cache, the time of the search it repeats). Raises
        :class:`NoGameHereError`, :class:`NotAPlayerError`, :class:`NotYourTurnError` and
        :class:`HintError` (rated, another person plays, or the bot is busy).
        """
        row = await self.core.active_row(channel_id)
        loaded = await self.core.load_row(row)
        players = loaded.meta.players
        if not loaded.meta.seats_of(user_id):
            raise NotAPlayerError()
        if row.rated:
            raise HintError(
                "Hints are for casual games, and this one is rated: challenge the bot with "
                "`rated:false` to practise with hints."
            )
        if not is_practice((p.user_id for p in players), rated=False):  # others are people
            raise HintError(
                "Hints are for practice against the bot: every other player in this game "
                "must be a bot."
            )
        seat = self.core.acting_seat(loaded, user_id)
        key = (row.id, row.version, seat)
        given = self._hints.get(key)
        if given is not None:
            log.info("game %d: the hint for seat %d again, from the cache", row.id, seat)
            return given
        if user_id in self._hinting or len(self._hinting) >= self.workers:
            raise HintError(BOT_BUSY)
        strongest = levels_for(row.game)[-1]
        self._hinting.add(user_id)
        try:
            suggestions, seconds = await self._run(
                strongest.budget.seconds + THINK_GRACE_S,
                timed,
                suggest,
                row.game,
                seat,
                search_subject(loaded, seat),
                search_seed(loaded.meta.seed, "hint", row.ply, seat),
                strongest.budget,
                HINT_MOVES,
            )
        except (TimeoutError, BrokenProcessPool) as exc:  # the workers were restarted
            log.warning("game %d: a hint's search failed: %r", row.id, exc)
            raise HintError(BOT_BUSY) from None
        finally:
            self._hinting.discard(user_id)
        log.info("game %d: a hint for seat %d (%d moves)", row.id, seat, len(suggestions))
        hint = Hint(
            game_id=row.id,
            game_name=loaded.meta.engine.info.name,
            seat=seat,
            moves=tuple(HintMove(s.move, s.value, s.forced, s.share > 0) for s in suggestions),
            seconds=max(round(seconds, 1), 0.1),
            level_name=strongest.name,
            players=len(players),
        )
        self._hints.put(key, hint)
        return hint

    # ---- answers ----------------------------------------------------------------------------

    async def answer_draw(self, offer: DrawOffer) -> tuple[GameSnapshot, int] | None:
        """Answer a draw offer for every bot among the players it waits for: the bot seats
        still in are assessed in turn (:func:`ai.levels.assess`) until one would decline, and
        a bot accepts when each of its seats is worth at most what the draw would give it
        (:func:`~bot.service.endings.agreed_draw`), less ``½ - ACCEPT_DRAW_AT_MOST`` (so at
        most 0.45 in a two-player game, where a draw is worth ½; more where resigned seats
        would rank below the draw, as whole sides do in an Orbs team game). The first bot that
        would decline declines for all; else each bot accepts in turn, and the last
        acceptance ends the game when no person is left to answer.

        Returns the snapshot after the last answer and the bot user who gave it, or ``None``
        when no bot is asked or the offer is already gone. A failed assessment declines
        (never silence)."""
        bots = list(dict.fromkeys(uid for uid in offer.opponent_user_ids if is_bot(uid)))
        if not bots:
            return None
        row = await self.core.database.games.get(offer.game_id)
        if row is None or not row.is_active or row.version != offer.version:
            return None
        loaded = await self.core.load_row(row)
        decliner = await self._first_to_decline(loaded, bots)
        try:
            if decliner is not None:
                declined = await self.endings.answer_draw(
                    offer.game_id, decliner, accept=False, version=offer.version
                )
                return declined, decliner
            answered: GameSnapshot | None = None
            for bot_id in bots:
                answered = await self.endings.answer_draw(
                    offer.game_id, bot_id, accept=True, version=offer.version
                )
                if not answered.is_active:
                    break
            assert answered is not None  # bots is not empty
            return answered, bot_id
        except StaleActionError:
            return None

    async def _first_to_decline(self, loaded: Loaded, bots: list[int]) -> int | None:
        """The first of ``bots`` with a seat still in that stands better than the draw would
        leave it (see :meth:`answer_draw`), or ``None`` when every one would accept; the
        assessments stop at the first decline. Before any player has chosen a move (chance
        only, as Arbos' setup, or nothing) in a game from the standard start, the first bot
        declines without assessing: the game has not begun, and the assessment of a fresh
        deal swings from 0.36 to 0.64 in Generation Zero, so a level-1 bot accepted a draw
        offered at ply 0 (exploratory pass 10); ``/game abort`` ends such a game without a
        result. A game from a custom position is assessed from its first ply."""
        row = loaded.row
        if row.start_position is None and not await self._begun(loaded):
            log.info("game %d: no move chosen yet; the bot declines the draw", row.id)
            return bots[0]
        seats_in = await self.endings.seats_in(loaded)
        outcome, _ = agreed_draw(loaded, seats_in)
        drawn = rewards_from_outcome(outcome, len(loaded.meta.players))
        margin = 0.5 - ACCEPT_DRAW_AT_MOST
        for bot_id in bots:
            for seat in (s for s in loaded.meta.seats_of(bot_id) if s in seats_in):
                value = await self._assess_for_draw(loaded, seat)
                accept = value <= drawn[seat] - margin
                log.info(
                    "game %d: bot seat %d assesses itself at %.2f (a draw: %.2f) and %s it",
                    loaded.row.id, seat, value, drawn[seat], "accepts" if accept else "declines",
                )  # fmt: skip
                if not accept:
                    return bot_id
        return None

    async def _begun(self, loaded: Loaded) -> bool:
        """Whether a player has chosen a move in the game (:func:`_chosen`): from the
        position's last moves, and from the log only when they show none and do not reach
        back to the first ply (Arbos' setup)."""
        recent = loaded.position.recent
        if any(map(_chosen, recent)):
            return True
        if loaded.row.ply <= len(recent):
            return False
        rows = await self.core.database.games.moves(loaded.row.id)
        return any(_chosen(move_record(row, row.created_at)) for row in rows)

    async def _assess_for_draw(self, loaded: Loaded, seat: int) -> float:
        """Bot seat ``seat``'s expected reward (0–1) for a draw answer; 1.0 (so a decline)
        when the assessment fails."""
        row = loaded.row
        try:
            value: float = await self._run(
                ASSESS_BUDGET.seconds + THINK_GRACE_S,
                assess,
                row.game,
                dict(loaded.meta.options),
                seat,
                search_subject(loaded, seat),
                search_seed(loaded.meta.seed, "assess", row.version, seat),
                ASSESS_BUDGET,
            )
        except Exception:  # never silence: a bot that cannot assess declines
            log.exception("game %d: the bot could not assess a draw offer; it declines", row.id)
            return 1.0
        return value

    async def answer_takeback(self, request: TakebackRequest) -> TakebackAnswer | None:
        """Answer a takeback asked of a bot: allowed at levels up to
        :data:`ALLOW_TAKEBACKS_UP_TO`, refused above. Asked of several bots (a person
        against bots only), the strongest of them answers for all: one refusing level
        refuses. ``None`` when nobody asked is a bot or the request is already gone."""
        bots = [uid for uid in request.opponent_user_ids if is_bot(uid)]
        if not bots:
            return None
        answering = max(bots, key=lambda uid: bot_level(uid) or len(LEVELS))
        allow = (bot_level(answering) or len(LEVELS)) <= ALLOW_TAKEBACKS_UP_TO
        try:
            return await self.takebacks.answer_takeback(
                request.game_id, answering, accept=allow, version=request.version
            )
        except StaleActionError:
            return None


def search_subject(loaded: Loaded, seat: int) -> Any:
    """What a search for ``seat`` is given: the state's JSON for a game of perfect
    information, and **only the seat's view** for a game with hidden information (the one
    place this is decided, so no path can hand a search the full state)."""
    engine = loaded.meta.engine
    state = loaded.position.state
    if engine.info.has_hidden_information:
        return engine.view(state, seat)
    return engine.dumps(state)


def _chosen(move: MoveRecord) -> bool:
    """Whether a player chose logged ``move``: not a chance outcome, nor what the bot played
    for a seat (a forced pass, a time-out's move), nor a resignation, which begins nothing
    (a draw offered after only a resignation is declined as before any move)."""
    return (
        move.seat is not None
        and move.seat >= 0
        and not played_for_the_seat(move)
        and not played_on_time_out(move)
        and not is_resignation(move)
    )


def search_seed(game_seed: int, purpose: str, ply: int, seat: int) -> int:
    """The seed a search for ``seat`` at ``ply`` gets: deterministic (a replay of the bot's
    decision is exact) but one-way. The game's seed deals the hidden cards, and SplitMix64
    can be run backwards, so a seed derived with it would let a search rebuild the whole
    deal; a BLAKE2b digest cannot be."""
    digest = hashlib.blake2b(
        f"gameroom-bot:{game_seed}:{purpose}:{ply}:{seat}".encode(), digest_size=8
    ).digest()
    return int.from_bytes(digest, "big") >> 1
