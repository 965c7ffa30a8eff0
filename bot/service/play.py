"""Playing a move: parse, apply, the automatic steps after it, commit.

:meth:`Play.play` is ``/move``: under the game's lock it maps the user
to a seat, lets the engine parse and apply the move, plays the chance outcomes and forced
passes that follow (:func:`~bot.service.automatic.automatic_steps`) and commits it all in one
transaction with the compare-and-set (:meth:`~bot.service.core.GameCore.commit`). A move made
too late on a hard clock becomes that seat's time-out (:class:`~bot.service.timeouts.Timeouts`).
``/move``'s autocomplete reads the caller's legal moves from the cached position.
"""

from __future__ import annotations

import logging
from datetime import datetime

from bot.service import _codec
from bot.service._cache import GameMeta, PositionEntry
from bot.service.automatic import automatic_steps
from bot.service.bot_seats import people
from bot.service.clocks import (
    OutOfTimeError,
)
from bot.service.core import GameCore, Loaded
from bot.service.errors import (
    InvalidMoveError,
    NotYourTurnError,
    StaleActionError,
    sentence,
)
from bot.service.logbook import (
    TURN_LOOKBACK,
    last_chosen,
    move_record,
    played_on_time_out,
    private_events_of,
    public_events,
    seats_told_privately,
    turn_so_far,
)
from bot.service.matching import filter_moves
from bot.service.models import (
    MoveRecord,
    TurnResult,
)
from bot.service.options import MAX_CHOICE_LENGTH
from bot.service.timeouts import Timeouts, late_move_sentence
from db import (
    NewMove,
)
from engines.base import (
    AmbiguousMoveError,
    GameOverError,
    MoveError,
)
from engines.base import NotYourTurnError as EngineNotYourTurnError

log = logging.getLogger(__name__)

__all__ = ["MAX_AUTOCOMPLETE", "Play"]

#: Most autocomplete choices Discord shows.
MAX_AUTOCOMPLETE = 25


class Play:
    """Moves in the active game of a channel; time-outs go through ``timeouts``."""

    def __init__(self, core: GameCore, timeouts: Timeouts) -> None:
        self.core = core
        self.timeouts = timeouts

    async def play(
        self, channel_id: int, user_id: int, text: str, seen_version: int | None = None
    ) -> TurnResult:
        """Play ``text`` for ``user_id`` in the active game of ``channel_id``.

        The move (and any chance outcomes it leads to) is committed with the new state in
        one transaction before this returns, with the seats' clocks (the mover's increment,
        the next seat's clock started) and the timers of the new turn (deadlines,
        reminders). ``seen_version``, when given, must be the game's current version (the
        design's compare-and-set for a move made from an old board; ``/move`` passes none,
        as no button plays a move, so today only the tests do). A pending draw offer is
        declined by the move.

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
        row = await self.core.active_row(channel_id)
        async with self.core.game_lock(row.id):
            now = self.core.now()
            loaded = await self.core.settle(await self.core.reload(row), now=now)
            if seen_version is not None and seen_version != loaded.row.version:
                raise StaleActionError()
            try:
                seat = await self.core.moving_seat(loaded, user_id)
            except NotYourTurnError as exc:
                # The caller chose the last move (a move sent twice, or typed again): the
                # refusal names it. Not a move the time-out rule played for them.
                last = last_chosen(loaded.position.recent)
                mine = last is not None and last.seat in loaded.meta.seats_of(user_id)
                if last is None or not mine or played_on_time_out(last):
                    raise
                raise NotYourTurnError(exc.waiting_for, just_played=last.text) from None
            if not self.timeouts.out_of_time(loaded, seat, now, hard_only=True):
                late = self.timeouts.out_of_time(loaded, seat, now)  # a soft clock ran out
                return await self._play_move(loaded, seat, user_id, text, now, late=late)
            event = await self.timeouts.apply_timeout(loaded, seat, now)
        await self.timeouts.announce(event)
        raise OutOfTimeError(late_move_sentence(event), event=event)

    async def play_seat(self, game_id: int, seat: int, text: str, *, version: int) -> TurnResult:
        """Play ``text`` for seat ``seat`` of game ``game_id`` as it stood at ``version``: how
        the bot's own seats move (:mod:`bot.service.bots`), by game and seat rather than by
        channel and user.

        Commits as :meth:`play` does (automatic steps, clocks, timers, compare-and-set); a
        hard clock that ran out meanwhile is applied as the seat's time-out instead and
        :class:`~bot.service.clocks.OutOfTimeError` raised. Raises :class:`StaleActionError`
        when the game ended or changed since ``version`` (a draw offer, another process's
        move), :class:`NotYourTurnError` when the seat is not to move and
        :class:`InvalidMoveError` for a move the engine refuses.
        """
        async with self.core.game_lock(game_id):
            row = await self.core.database.games.get(game_id)
            if row is None or not row.is_active or row.version != version:
                raise StaleActionError("The game changed while the bot was thinking.")
            now = self.core.now()
            loaded = await self.core.load_row(row)
            if seat not in loaded.row.to_move:
                raise NotYourTurnError(self.core.waiting_for(loaded))
            user_id = loaded.meta.players[seat].user_id
            if not self.timeouts.out_of_time(loaded, seat, now, hard_only=True):
                late = self.timeouts.out_of_time(loaded, seat, now)  # a soft clock ran out
                return await self._play_move(loaded, seat, user_id, text, now, late=late)
            event = await self.timeouts.apply_timeout(loaded, seat, now)
        await self.timeouts.announce(event)
        raise OutOfTimeError(late_move_sentence(event), event=event)

    async def _play_move(
        self, loaded: Loaded, seat: int, user_id: int, text: str, now: datetime, *, late: bool
    ) -> TurnResult:
        """:meth:`play` once the mover's seat is known and has time: parse, apply, commit.
        ``late``: the seat's soft clock had run out (its claim notice lapses with the turn)."""
        engine = loaded.meta.engine
        if not text.strip():
            # The engines would quote it back as '' (Discord lets a move of spaces through).
            raise InvalidMoveError("That move is empty.", kind="notation", text=text)
        try:
            state, canonical, events = engine.play(loaded.position.state, seat, text)
        except EngineNotYourTurnError as exc:
            if seat in loaded.row.to_move:
                # The seat is to move, so the text's `[k]` prefix named another seat.
                mine = loaded.meta.players[seat].seat_name
                raise InvalidMoveError(
                    f"The seat prefix (`[k]` before the move) names a seat that is not "
                    f"to move: you play {mine} now. Leave the prefix out.",
                    kind="not_your_turn",
                    text=text,
                ) from exc
            raise NotYourTurnError(self.core.waiting_for(loaded)) from exc
        except GameOverError as exc:
            raise StaleActionError("This game has already ended.") from exc
        except MoveError as exc:
            candidates = exc.candidates if isinstance(exc, AmbiguousMoveError) else ()
            raise InvalidMoveError(
                sentence(exc.message), kind=exc.kind, text=text, candidates=candidates
            ) from exc
        if canonical in engine.bot_decided_moves:
            how = (
                f"use /{canonical} to offer it to your opponent"
                if len(loaded.meta.players) == 2
                else f"use /{canonical} to offer it to the other players"
            )
            raise InvalidMoveError(
                f"`{canonical}` is not a move you can make alone: {how}.",
                kind="illegal",
                text=text,
            )
        ply = loaded.row.ply + 1
        new_moves = [NewMove(ply, seat, canonical, _codec.dump_events(events))]
        state, automatic_moves, automatic_events = automatic_steps(loaded.meta, state, ply + 1)
        # One of many decisions of the seat's turn gets a quiet line, not the board.
        turn_goes_on = (
            engine.many_decisions_per_turn
            and engine.outcome(state) is None
            and tuple(engine.to_move(state)) == (seat,)
        )
        updated = await self.core.commit(
            loaded,
            state,
            [*new_moves, *automatic_moves],
            movers=(seat,),
            now=now,
            board_post=not turn_goes_on,
        )
        all_events = (*events, *automatic_events)
        turn_before: tuple[MoveRecord, ...] = ()
        turn_cut = False
        players = loaded.meta.players
        seats_told = seats_told_privately(all_events, besides=loaded.meta.seats_of(user_id))
        told = people(players[s].user_id for s in seats_told)
        if engine.many_decisions_per_turn and not turn_goes_on:
            turn_before, turn_cut = await self._turn_before(updated, seat, ply)
        log.debug(
            "game %d: ply %d %s by seat %d%s",
            loaded.row.id,
            ply,
            canonical,
            seat,
            " (the seat decides again)" if turn_goes_on else "",
        )
        return TurnResult(
            snapshot=self.core.snapshot(updated),
            seat=seat,
            user_id=user_id,
            move=canonical,
            events=public_events(all_events),
            unannounced=tuple(
                m.text for m in automatic_moves if not _codec.load_events(m.events_json)
            ),
            declined_draw_offer=loaded.row.draw_offer_seat is not None,
            refused_takeback=loaded.row.takeback_seat is not None,
            private_events=private_events_of(all_events, loaded.meta.seats_of(user_id)),
            turn_goes_on=turn_goes_on,
            ended_claim=late and not turn_goes_on,
            turn_before=turn_before,
            turn_cut=turn_cut,
            told_privately=told,
        )

    async def _turn_before(
        self, loaded: Loaded, seat: int, ply: int
    ) -> tuple[tuple[MoveRecord, ...], bool]:
        """``(turn_before, turn_cut)`` of :class:`TurnResult` for ``seat``'s move at ``ply``
        that ended its turn of many decisions: from the position's last moves, read from
        the log (up to :data:`TURN_LOOKBACK` plies back) only when the turn began before
        them."""
        turn, whole = turn_so_far(loaded.position.recent, seat, ply)
        if whole:
            return turn, False
        try:
            rows = await self.core.database.games.moves(
                loaded.row.id, since_ply=max(0, ply - 1 - TURN_LOOKBACK)
            )
        except Exception:  # the move is committed: a failed read only shortens the line
            log.exception("game %d: could not read the turn back for its line", loaded.row.id)
            return turn, True
        turn, whole = turn_so_far([move_record(r, r.created_at) for r in rows], seat, ply)
        return turn, not whole

    async def autocomplete_moves(self, channel_id: int, user_id: int, typed: str) -> list[str]:
        """The moves of :meth:`autocomplete_move_choices` without their labels (for tests
        and scripts; ``/move``'s autocomplete uses the pairs)."""
        choices = await self.autocomplete_move_choices(channel_id, user_id, typed)
        return [move for move, _ in choices]

    async def autocomplete_move_choices(
        self, channel_id: int, user_id: int, typed: str
    ) -> list[tuple[str, str]]:
        """Up to 25 of the caller's legal moves (canonical) matching what they typed, as
        ``(move, label)`` pairs for ``/move``'s autocomplete.

        Moves that start with the typed text come first, then moves that start with it once
        separators are ignored (``a1a3`` finds ``a1-a3``), then moves that contain it. Empty
        when there is no game here or it is not the caller's turn: only the seats that may
        act now are answered, and only with their own moves (the engine's
        :meth:`~engines.base.Engine.suggest_moves` or legal moves for that seat), so in a
        game with hidden information nobody is offered what another seat knows. Legal moves
        are cached per game version, so each keystroke costs one indexed read. The label is
        what the chat shows for the move (:meth:`~engines.base.Engine.suggestion_label`:
        Generation Zero adds the names of the cards a move names by id), cut to Discord's
        100 characters, the move what is sent."""
        row = await self.core.database.games.active_in_channel(channel_id)
        if row is None:
            return []
        meta = await self.core.game_meta(row)
        seats = [s for s in meta.seats_of(user_id) if s in row.to_move]
        if not seats:
            return []
        position = await self.core.position(row, meta)
        choices: list[tuple[str, str]] = []
        for seat in seats:
            suggested = meta.engine.suggest_moves(position.state, seat, typed, MAX_AUTOCOMPLETE)
            if suggested is None:
                legal = self._legal_texts(meta, position, seat)
                suggested = filter_moves(legal, typed, limit=MAX_AUTOCOMPLETE)
            for move in suggested:
                label = meta.engine.suggestion_label(position.state, seat, move)
                if len(label) > MAX_CHOICE_LENGTH:
                    label = label[: MAX_CHOICE_LENGTH - 1] + "…"
                choices.append((move, label))
        return choices[:MAX_AUTOCOMPLETE]

    async def legal_moves(self, channel_id: int, user_id: int) -> list[str]:
        """Every legal move of the caller, canonical and sorted; empty if not their turn."""
        row = await self.core.active_row(channel_id)
        meta = await self.core.game_meta(row)
        position = await self.core.position(row, meta)
        moves: list[str] = []
        for seat in meta.seats_of(user_id):
            if seat in row.to_move:
                moves.extend(self._legal_texts(meta, position, seat))
        return sorted(set(moves))

    @staticmethod
    def _legal_texts(meta: GameMeta, position: PositionEntry, seat: int) -> tuple[str, ...]:
        texts = position.legal.get(seat)
        if texts is None:
            texts = tuple(meta.engine.legal_move_texts(position.state, seat))
            position.legal[seat] = texts
        return texts
