"""Ending a game without a move: resignation, draws by agreement, aborts.

A resignation the engine knows (Generator GEN-15) is logged as ``[k]resign`` and play goes on;
otherwise the game ends at once for every other seat. A draw offer is a flag on the game row
with the seats agreeing so far (any move clears both); once every player still in has
accepted, the game ends ``agreement`` (through the engine where the rules know that ending,
Orbs D-ORB-11). An abort ends a game without a result.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta
from typing import Any, Final

from bot.service import _codec
from bot.service.automatic import automatic_steps
from bot.service.bot_seats import is_bot
from bot.service.clocks import CLOCK_TIMER, ClockMode, ClockSpec, SeatClock
from bot.service.core import GameCore, Loaded
from bot.service.errors import (
    AbortNotAllowedError,
    DrawOfferError,
    InvalidMoveError,
    NotAPlayerError,
    StaleActionError,
    sentence,
)
from bot.service.logbook import (
    TIMEOUT_EVENT,
    is_automatic,
    resign_move_text,
)
from bot.service.models import (
    DrawOffer,
    GameSnapshot,
)
from db import GameNotActiveError as DbGameNotActiveError
from db import (
    NewMove,
)
from db import StaleVersionError as DbStaleVersionError
from db.rows import NewTimer
from engines.base import (
    IllegalMoveError,
    Outcome,
)

log = logging.getLogger(__name__)

__all__ = ["REFLAG_AFTER", "Endings", "agreed_draw"]

#: How long after a resignation a seat still out of time on its soft clock gets its notice
#: again (:meth:`Endings._flag_again`): after the resignation's own posts, which retire the
#: old notice, so the fresh one is not retired with it.
REFLAG_AFTER: Final = timedelta(seconds=60)


class Endings:
    """Resignations, draw offers and their answers, and aborts."""

    def __init__(self, core: GameCore) -> None:
        self.core = core

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
        row = await self.core.active_row(channel_id)
        async with self.core.game_lock(row.id):
            loaded = await self.core.settle(await self.core.reload(row))
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
                    ended = await self._end_by_resignation(loaded, seats, board_post=True)
                    return self.core.snapshot(ended)
                state = transition.state
                ply = loaded.row.ply + len(moves) + 1
                events = _codec.dump_events(transition.events)
                moves.append(NewMove(ply, seat, resign_move_text(seat), events))
            if not moves:
                logged = await self.core.database.games.moves(row.id)
                if refusal is not None and not any(
                    m.text == resign_move_text(m.seat or 0) and m.seat in seats for m in logged
                ):
                    # e.g. Generation Zero during its draft (D-30): say what the rules say.
                    raise InvalidMoveError(sentence(refusal.message), kind="illegal", text="resign")
                raise NotAPlayerError("You have already resigned from this game.")
            state, automatic_moves, _ = automatic_steps(loaded.meta, state, moves[-1].ply + 1)
            updated = await self.core.commit(
                loaded, state, [*moves, *automatic_moves], board_post=True
            )
            log.info("game %d: %d resigned (seats %s)", row.id, user_id, list(seats))
            await self._flag_again(updated)
            return self.core.snapshot(updated)

    async def _flag_again(self, loaded: Loaded) -> None:
        """After a resignation in a game that goes on: a seat to move already out of time on
        its soft clock gets its clock timer again, due :data:`REFLAG_AFTER` later. Its
        notice, retired with the resignation's posts, named who could claim then and what a
        claim did; the timer posts a fresh one, or lets the bot claim when only bots could
        now (:meth:`~bot.service.timeouts.Timeouts.clock_timer_fired`). Best effort, after
        the commit: a crash in between leaves the old way, ``/claim``."""
        now = self.core.now()
        for clock_row in loaded.clocks:
            soft = ClockSpec.parse(clock_row.spec).mode is ClockMode.SOFT
            if soft and SeatClock.from_row(clock_row).out_of_time(now):
                payload = json.dumps({"clock_version": clock_row.version}, separators=(",", ":"))
                again = NewTimer(
                    CLOCK_TIMER, now + REFLAG_AFTER, loaded.row.id, clock_row.seat, payload
                )
                await self.core.database.timers.schedule(again, now=now)

    async def _end_by_resignation(
        self, loaded: Loaded, seats: Sequence[int], *, board_post: bool = False
    ) -> Loaded:
        """End the game because ``seats`` resigned: every other seat wins (``board_post``:
        as :meth:`~bot.service.core.GameCore.finish`)."""
        players = len(loaded.meta.players)
        others = tuple(s for s in range(players) if s not in seats)
        resigned = tuple(seats)
        outcome = Outcome("resignation", others, (others, resigned) if others else (resigned,))
        log.info("game %d: seats %s resigned", loaded.row.id, list(seats))
        return await self.core.finish(loaded, "finished", outcome, board_post=board_post)

    async def seats_in(self, loaded: Loaded) -> tuple[int, ...]:
        """The seats still in the game: every seat but those that resigned or, in Orbs, lost
        their last orb (:meth:`~bot.service.core.GameCore.seats_gone`, kept per version of
        the game: a draw offer and each answer to it, a bot's among them, share one read of
        the move log)."""
        gone = await self.core.seats_gone(loaded.row)
        return tuple(seat for seat in range(len(loaded.meta.players)) if seat not in gone)

    async def offer_draw(self, channel_id: int, user_id: int) -> DrawOffer:
        """The caller offers a draw to the other players still in the game.

        It needs every one of them to accept (spec orbs D-ORB-11; the same rule in every game
        of three or more players); the offerer's seats agree from the start. The offer stands
        until declined, every player has accepted, or the next move. Raises
        :class:`NoGameHereError`, :class:`NotAPlayerError`, :class:`DrawOfferError` (the
        caller has left the game, nobody else is still in, an offer or a takeback request is
        already pending, or,
        with three or more players still in, a bot is to move while people would still have
        to answer: its move would end the offer) and :class:`StaleActionError`.
        """
        row = await self.core.active_row(channel_id)
        async with self.core.game_lock(row.id):
            loaded = await self.core.reload(row)
            seats = loaded.meta.seats_of(user_id)
            if not seats:
                raise NotAPlayerError()
            seats_in = await self.seats_in(loaded)
            own = tuple(seat for seat in seats if seat in seats_in)
            if not own:
                raise DrawOfferError("You have left this game, so you cannot offer a draw.")
            pending = loaded.row.draw_offer_seat
            if pending is not None:
                if pending in seats:
                    raise DrawOfferError("You have already offered a draw.")
                raise DrawOfferError(
                    "A draw has already been offered in this game: answer it with its buttons."
                )
            if loaded.row.takeback_seat is not None:
                # The mirror of the takeback's rule: an offer over an open request would
                # leave the request unanswerable (its buttons carry the version the offer
                # changes) yet still open.
                raise DrawOfferError(
                    "A takeback request is open: it must be answered before a draw is offered."
                )
            users = [loaded.meta.players[s].user_id for s in seats_in if s not in own]
            opponents = tuple(dict.fromkeys(u for u in users if u != user_id))
            if not opponents:
                raise DrawOfferError("Nobody else is still in this game to agree to a draw.")
            people = [u for u in opponents if not is_bot(u)]
            bot_to_move = any(is_bot(loaded.meta.players[s].user_id) for s in loaded.row.to_move)
            if people and bot_to_move and len(seats_in) > 2:
                # A bot answers at once but then plays on, and its move would end the offer
                # before the people have answered (a decision of ours: docs/bots.md).
                raise DrawOfferError(
                    "A bot is to move and would play on before everyone has answered: "
                    "offer the draw on a person's turn."
                )
            seat = own[0]
            updated = await self._set_draw_offer(loaded, seat, agreed=own)
            log.info("game %d: seat %d offers a draw (seats in: %s)", row.id, seat, seats_in)
            return DrawOffer(
                game_id=row.id,
                version=updated.row.version,
                seat=seat,
                user_id=user_id,
                opponent_user_ids=opponents,
            )

    async def offers_awaiting_bots(self) -> list[DrawOffer]:
        """The open draw offers a bot still has to answer, as :meth:`offer_draw` returned
        them (``opponent_user_ids``: the players still in who have not answered yet). Bots
        answer an offer at once, in the process that took it; one that stopped before they
        did leaves these, for the next process to answer (``PlayCog.on_ready``) rather
        than leave the offer hanging."""
        offers: list[DrawOffer] = []
        for row in await self.core.database.games.active_with_draw_offer():
            offered_by = row.draw_offer_seat
            if offered_by is None:  # pragma: no cover - the query asked for it
                continue
            loaded = await self.core.load_row(row)
            players = loaded.meta.players
            agreed = {offered_by, *row.draw_agreed}
            offerer = players[offered_by].user_id
            waiting = [
                players[seat].user_id
                for seat in await self.seats_in(loaded)
                if seat not in agreed and players[seat].user_id != offerer
            ]
            opponents = tuple(dict.fromkeys(waiting))
            if any(is_bot(user_id) for user_id in opponents):
                offers.append(DrawOffer(row.id, row.version, offered_by, offerer, opponents))
        return offers

    async def answer_draw(
        self, game_id: int, user_id: int, *, accept: bool, version: int
    ) -> GameSnapshot:
        """Answer the draw offer shown at ``version`` of game ``game_id``.

        Declining clears the offer (the one who offered may withdraw it this way too).
        Accepting adds the caller's seats still in to those agreeing; once every player
        still in has (at once in a two-player game), the game ends drawn by ``agreement``
        (spec orbs D-ORB-11: the remaining sides draw; elsewhere the seats still in share
        first place, ahead of those who left). An acceptance that leaves others to answer
        returns the snapshot with :attr:`~bot.service.models.GameSnapshot.draw_waiting` set;
        the offer's version stays, so its buttons still work. Raises
        :class:`StaleActionError` (the offer is gone or the game moved on),
        :class:`NotAPlayerError` and :class:`DrawOfferError` (accepting one's own offer, or
        having left the game).
        """
        async with self.core.game_lock(game_id):
            row = await self.core.database.games.get(game_id)
            if row is None or not row.is_active or row.version != version:
                raise StaleActionError("This draw offer is no longer open.")
            loaded = await self.core.load_row(row)
            offered_by = row.draw_offer_seat
            if offered_by is None:
                raise StaleActionError("This draw offer is no longer open.")
            seats = loaded.meta.seats_of(user_id)
            if not seats:
                raise NotAPlayerError()
            if accept and offered_by in seats:
                raise DrawOfferError("You cannot accept your own draw offer.")
            seats_in = await self.seats_in(loaded)
            own = tuple(seat for seat in seats if seat in seats_in)
            if not own and offered_by not in seats:
                raise DrawOfferError("You have left this game, so the draw is not yours to answer.")
            if not accept:
                log.info("game %d: draw offer declined by %d", game_id, user_id)
                return self.core.snapshot(await self._set_draw_offer(loaded, None))
            # The offerer's seat counts too: an offer an older process stored has no agreeing
            # seats (draw_agreed NULL, migration 0011).
            agreed = await self.core.database.games.agree_to_draw(
                game_id, version, (*own, offered_by), self.core.now()
            )
            if agreed is None:
                raise StaleActionError("This draw offer is no longer open.")
            loaded = self.core.restamp(loaded, agreed)
            waiting = tuple(seat for seat in seats_in if seat not in agreed.draw_agreed)
            if waiting:
                log.info("game %d: seats %s agree to a draw; waiting for %s", game_id, own, waiting)
                return replace(self.core.snapshot(loaded), draw_waiting=waiting)
            return self.core.snapshot(await self._drawn_by_agreement(loaded, seats_in))

    async def draw_offer_now(self, game_id: int, version: int) -> GameSnapshot:
        """Game ``game_id`` as the post of its draw offer made at ``version`` should show it
        now: with :attr:`~bot.service.models.GameSnapshot.draw_waiting` set while that offer
        is still open and waits for someone, else with it empty (the offer was declined, a
        move or an end came first, or the last acceptance drew the game). A plain read,
        without the game's lock: it only decides a post's text (see
        ``bot.cogs.play.PlayCog._keep_progress_true``). Raises :class:`StaleActionError` when
        the game no longer exists."""
        row = await self.core.database.games.get(game_id)
        if row is None:
            raise StaleActionError("This game no longer exists.")
        loaded = await self.core.load_row(row)
        snapshot = self.core.snapshot(loaded)
        offered_by = row.draw_offer_seat
        if not row.is_active or row.version != version or offered_by is None:
            return snapshot
        agreed = {offered_by, *row.draw_agreed}
        waiting = tuple(seat for seat in await self.seats_in(loaded) if seat not in agreed)
        return replace(snapshot, draw_waiting=waiting)

    async def _drawn_by_agreement(self, loaded: Loaded, seats_in: Sequence[int]) -> Loaded:
        """End the game ``agreement`` as :func:`agreed_draw` says: through the engine where
        the rules know that ending (Orbs D-ORB-11: log ``draw``, so the stored position and a
        replay say it too), else by the outcome it builds."""
        log.info("game %d: drawn by agreement", loaded.row.id)
        outcome, engine_draw = agreed_draw(loaded, seats_in)
        # The final board is posted by the caller; planned like a move's, in case it is not.
        if engine_draw is None:
            return await self.core.finish(loaded, "finished", outcome, board_post=True)
        state, move = engine_draw
        return await self.core.commit(loaded, state, [move], board_post=True)

    async def abort(
        self, channel_id: int, user_id: int, *, moderator: bool = False
    ) -> GameSnapshot:
        """Stop the active game here without a result.

        A player may abort until every seat has made a move; the one who opened an
        exhibition (a game of bots only, ``/challenge exhibition:true``) may stop it at any
        time, since nobody's result is at stake (a decision of ours); ``moderator=True`` (the
        caller checked the member's permissions) allows it at any time. Raises
        :class:`NoGameHereError`, :class:`AbortNotAllowedError`, :class:`StaleActionError`.
        """
        row = await self.core.active_row(channel_id)
        async with self.core.game_lock(row.id):
            loaded = await self.core.reload(row)
            if not moderator and not await self._opened_exhibition(loaded, user_id):
                if not loaded.meta.seats_of(user_id):
                    raise AbortNotAllowedError(
                        "Only the players (before each has moved), the one who started an "
                        "exhibition, or a moderator can abort."
                    )
                logged = await self.core.database.games.moves(row.id)
                left = {m.seat for m in logged if m.text == resign_move_text(m.seat or 0)}
                if set(loaded.meta.seats_of(user_id)) <= left:
                    raise AbortNotAllowedError("You have left this game, so you cannot abort it.")
                # Only moves players chose count: not resignations, not the bot's forced moves.
                moved = {
                    m.seat
                    for m in logged
                    if m.seat not in left
                    and not is_automatic(m)
                    and f'"{TIMEOUT_EVENT}"' not in m.events_json
                }
                if all(p.seat in moved for p in loaded.meta.players if p.seat not in left):
                    raise AbortNotAllowedError(
                        "Every player has moved, so the game can no longer be aborted; "
                        "resign or offer a draw instead."
                    )
            log.info("game %d: aborted by %d (moderator=%s)", row.id, user_id, moderator)
            ended = await self.core.finish(loaded, "aborted", None, board_post=True)
            return self.core.snapshot(ended)

    async def _opened_exhibition(self, loaded: Loaded, user_id: int) -> bool:
        """Whether game ``loaded`` is played by bots only and ``user_id`` opened the challenge
        that started it (an exhibition's opener watches it from no seat)."""
        if not all(is_bot(p.user_id) for p in loaded.meta.players):
            return False
        challenge = await self.core.database.challenges.challenge_of_game(loaded.row.id)
        return challenge is not None and challenge.challenger_id == user_id

    async def abort_in_deleted_channel(self, guild_id: int, channel_id: int) -> list[GameSnapshot]:
        """Abort every active game played in channel or thread ``channel_id`` of guild
        ``guild_id``, or in a thread of it, which Discord has deleted; returns the games this
        call ended (none twice, also when several processes hear of the deletion).

        Nobody could play or end such a game any more, and it would keep its players from
        ``/forget-me`` and in ``/games`` forever. Aborted, like a moderator's abort: no result,
        no rating; its moves stay in the database. A decision of ours (docs/slow-play.md).
        """
        ended: list[GameSnapshot] = []
        for row in await self.core.database.games.active_in_or_under(guild_id, channel_id):
            try:
                async with self.core.game_lock(row.id):
                    finished = await self._abort_latest(row.id)
            except StaleActionError:
                log.error(
                    "game %d: its channel %d was deleted, but it could not be aborted "
                    "(it kept changing)",
                    row.id,
                    channel_id,
                )
                continue
            if finished is None:
                continue  # it ended meanwhile (its last move, another process)
            log.warning(
                "game %d: aborted, its channel %d was deleted (channel %d)",
                row.id,
                channel_id,
                row.channel_id,
            )
            ended.append(self.core.snapshot(finished))
        return ended

    async def places_in_use(self) -> dict[int, set[int]]:
        """Per guild id, the ids of the channels and threads that hold an active game or an
        open challenge: what a bot process checks on connecting for deletions it did not
        hear of (``bot.cogs.game``; then :meth:`abort_in_deleted_channel`). Games and
        challenges outside a guild are left out."""
        places: dict[int, set[int]] = {}
        database = self.core.database
        for guild_id, channel_id in (
            *await database.games.active_places(),
            *await database.challenges.open_places(),
        ):
            places.setdefault(guild_id, set()).add(channel_id)
        return places

    async def _abort_latest(self, game_id: int, attempts: int = 3) -> Loaded | None:
        """Under the game's lock: abort game ``game_id`` as the database has it now, read again
        when a commit of another process (a move, a bot turn, a time-out) comes first, up to
        ``attempts`` times; ``None`` once it is over. Raises :class:`StaleActionError` when
        every attempt lost such a race."""
        for attempt in range(attempts):
            row = await self.core.database.games.get(game_id)
            if row is None or not row.is_active:
                return None
            try:
                return await self.core.finish(await self.core.load_row(row), "aborted", None)
            except StaleActionError:
                if attempt == attempts - 1:
                    raise
        return None

    async def _set_draw_offer(
        self, loaded: Loaded, seat: int | None, *, agreed: Sequence[int] = ()
    ) -> Loaded:
        try:
            row = await self.core.database.games.set_draw_offer(
                loaded.row.id, loaded.row.version, seat, self.core.now(), agreed=agreed
            )
        except (DbStaleVersionError, DbGameNotActiveError) as exc:
            self.core.forget(loaded.row.id)
            raise StaleActionError() from exc
        return self.core.restamp(loaded, row)


def agreed_draw(
    loaded: Loaded, seats_in: Sequence[int]
) -> tuple[Outcome, tuple[Any, NewMove] | None]:
    """How a draw by agreement would end the game of ``loaded``: its outcome, and where the
    engine plays that ending (``draw`` among its ``bot_decided_moves``, Orbs D-ORB-11: the
    remaining sides draw, whole teams included) the state after ``draw`` with the move to
    log; else ``None``, and the seats still in (``seats_in``) share first place, ahead of
    those who left. Pure: nothing is committed (the bots weigh an offer with it)."""
    row = loaded.row
    engine = loaded.meta.engine
    if "draw" in engine.bot_decided_moves and len(row.to_move) == 1:
        seat = row.to_move[0]
        state, text, events = engine.play(loaded.position.state, seat, "draw")
        outcome = engine.outcome(state)
        if outcome is not None:
            return outcome, (state, NewMove(row.ply + 1, seat, text, _codec.dump_events(events)))
    players = len(loaded.meta.players)
    gone = tuple(seat for seat in range(players) if seat not in seats_in)
    if not gone:
        return Outcome.draw("agreement", players), None
    return Outcome("agreement", (), (tuple(seats_in), gone)), None
