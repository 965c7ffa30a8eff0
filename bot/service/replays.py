"""Records and replay: ``/game export``, ``/game replay`` (the board at any ply) and the
consistency check that rebuilds a game from its log.

The record format and the one loop that replays a move log are :mod:`bot.service.records`
(pure); this module reads the rows and runs that work in a worker thread.
"""

from __future__ import annotations

import asyncio
import logging

from bot.service import records
from bot.service.core import GameCore
from bot.service.errors import (
    NoGameHereError,
    ServiceError,
)
from bot.service.models import (
    ReplayReport,
)
from bot.service.records import BoardAtPly, GameRecord
from db import (
    GameRow,
)

log = logging.getLogger(__name__)

__all__ = ["Replays"]


class Replays:
    """Records, boards at a ply and replays of the games in ``core``."""

    def __init__(self, core: GameCore) -> None:
        self.core = core

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
        row = await self.core.database.games.get(game_id)
        if row is None:
            raise NoGameHereError("That game does not exist.")
        meta = await self.core.game_meta(row)
        engine = meta.engine
        log_rows = await self.core.database.games.moves(game_id)
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
        row = await self.record_row(channel_id, guild_id, game_id)
        meta = await self.core.game_meta(row)
        log_rows = await self.core.database.games.moves(row.id)
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
        row = await self.record_row(channel_id, guild_id, game_id)
        loaded = await self.core.load_row(row)
        log_rows = await self.core.database.games.moves(row.id)
        try:
            return await asyncio.to_thread(
                records.board_at_ply, self.core.snapshot(loaded), loaded.meta.seed, log_rows, ply
            )
        except ServiceError as error:
            error.game_id = row.id
            raise

    async def record_row(
        self, channel_id: int, guild_id: int | None, game_id: int | None
    ) -> GameRow:
        """The game :meth:`snapshot` shows in ``channel_id``, or game ``game_id`` if it belongs
        to guild ``guild_id`` (outside a guild: if it is this very channel's game). Any other
        game reads as unknown, so its existence is not given away."""
        if game_id is None:
            return await self.core.shown_row(channel_id)
        row = await self.core.database.games.get(game_id)
        if guild_id is None:
            if row is None or row.guild_id is not None or row.channel_id != channel_id:
                raise NoGameHereError(f"There is no game {game_id} in this conversation.")
        elif row is None or row.guild_id != guild_id:
            raise NoGameHereError(f"There is no game {game_id} on this server.")
        return row
