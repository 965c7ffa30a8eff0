"""Takebacks: ask to take back one's last move; the opponent allows or refuses.

The decisions (which rows a takeback removes, when it is refused) are pure functions in
:mod:`bot.service.social`; this module reads the game under its lock, asks them, and writes:
the request as a flag on the game row, an allowed takeback as a rewind of the log
(:meth:`db.GamesRepo.rewind`) with the clock changes, in one transaction.
"""

from __future__ import annotations

import asyncio
import logging

from bot.service import records, social
from bot.service._cache import GameMeta
from bot.service.bot_seats import is_bot
from bot.service.core import CHANGED_MEANWHILE, GameCore, Loaded
from bot.service.errors import (
    NotAPlayerError,
    StaleActionError,
)
from bot.service.models import (
    TakebackAnswer,
    TakebackRequest,
)
from db import GameNotActiveError as DbGameNotActiveError
from db import StaleVersionError as DbStaleVersionError

log = logging.getLogger(__name__)

__all__ = ["Takebacks"]


class Takebacks:
    """``/takeback`` and its Allow / Refuse buttons, for the games in ``core``."""

    def __init__(self, core: GameCore) -> None:
        self.core = core

    async def request_takeback(self, channel_id: int, user_id: int) -> TakebackRequest:
        """``/takeback``: the caller asks the opponent to let them take back their last move.

        Only in an active game of two players, or of the caller and bots only (a practice
        game of Orbs against five bots), with no takeback request and no draw offer
        pending, when the last move a player chose is the caller's and taking it back
        crosses no chance outcome, resignation or reveal of hidden information
        (:func:`bot.service.social.plan_takeback`). The request is stored (the game's
        version goes up; any move clears it) and returned for the bot to post with Allow /
        Refuse buttons quoting :attr:`TakebackRequest.version`.

        Raises :class:`NoGameHereError`, :class:`NotAPlayerError`,
        :class:`~bot.service.social.TakebackError` (with the reason) and
        :class:`StaleActionError`.
        """
        row = await self.core.active_row(channel_id)
        async with self.core.game_lock(row.id):
            loaded = await self.core.reload(row)
            meta = loaded.meta
            seats = meta.seats_of(user_id)
            if not seats:
                raise NotAPlayerError()
            opponents = tuple(dict.fromkeys(p.user_id for p in meta.players if p.seat not in seats))
            if not opponents:
                raise social.TakebackError(
                    "You hold every seat of this game, so there is nobody to ask."
                )
            if len(meta.players) != 2 and not all(is_bot(u) for u in opponents):
                raise social.TakebackError(
                    "Takebacks are only for two-player games and games against the bot alone: "
                    "with more people every other player would have to agree, which the bot "
                    "cannot ask yet."
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
                await self.core.database.games.moves(row.id),
                seats,
                game=meta.engine.info.id,
                hidden_information=meta.engine.info.has_hidden_information,
                replies_of=bot_seats(meta),
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
        async with self.core.game_lock(game_id):
            row = await self.core.database.games.get(game_id)
            if (
                row is None
                or not row.is_active
                or row.version != version
                or row.takeback_seat is None
            ):
                raise StaleActionError(social.TAKEBACK_CLOSED)
            loaded = await self.core.load_row(row)
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
                    self.core.snapshot(updated), requester, requester_id, user_id, accepted=False
                )
            engine = meta.engine
            log_rows = await self.core.database.games.moves(game_id)
            # The version did not change since the request, so neither did the log: this
            # finds the same move, and refuses only if the rules here changed meanwhile.
            plan = social.plan_takeback(
                log_rows,
                (requester,),
                game=engine.info.id,
                hidden_information=engine.info.has_hidden_information,
                replies_of=bot_seats(meta),
            )
            state = await asyncio.to_thread(records.rebuild_game, meta, log_rows, plies=plan.to_ply)
            to_move = engine.to_move(state)
            now = self.core.now()
            # Nobody moved: no increment, no refund; the clocks follow the turn back.
            clock_changes = await self.core.plan_turn_change(
                row, to_move_after=to_move, movers=(), now=now, clocks=loaded.clocks
            )
            try:
                rewound = await self.core.database.games.rewind(
                    game_id,
                    row.version,
                    to_ply=plan.to_ply,
                    state_json=engine.dumps(state),
                    to_move=to_move,
                    now=now,
                    clock_changes=clock_changes,
                )
            except CHANGED_MEANWHILE as exc:
                raise StaleActionError(social.TAKEBACK_CLOSED) from exc
            finally:
                self.core.forget(game_id)
            log.info(
                "game %d: seat %d took back ply %d (%s), allowed by %d",
                game_id,
                requester,
                plan.ply,
                " ".join(plan.removed),
                user_id,
            )
            snapshot = self.core.snapshot(await self.core.load_row(rewound))
            return TakebackAnswer(
                snapshot,
                requester,
                requester_id,
                user_id,
                accepted=True,
                removed=plan.removed,
                replies=plan.replies,
                forced=plan.forced,
            )

    async def _set_takeback(self, loaded: Loaded, seat: int | None) -> Loaded:
        try:
            row = await self.core.database.games.set_takeback(
                loaded.row.id, loaded.row.version, seat, self.core.now()
            )
        except (DbStaleVersionError, DbGameNotActiveError) as exc:
            self.core.forget(loaded.row.id)
            raise StaleActionError() from exc
        return self.core.restamp(loaded, row)


def bot_seats(meta: GameMeta) -> tuple[int, ...]:
    """The seats the bot plays (its replies are taken back with a person's move)."""
    return tuple(p.seat for p in meta.players if is_bot(p.user_id))
