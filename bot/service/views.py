"""What players and spectators look at: snapshots, the move list, private views, pictures.

Reading never takes a game's lock: a snapshot is built from the row as stored (and the cached
position of its version). Pictures are drawn from engine *views* only, in a worker thread
(:func:`asyncio.to_thread`), never on the event loop; a seat's private view (``/hand``, My
view) is built only for that seat's player.

Perspective (``docs/pictures.md``): in the games of :data:`render.PERSPECTIVE_GAMES` a picture
can be drawn from a seat's side. A picture shown to one player alone (``/board``, My view,
``/hand``) is drawn from that player's seat unless their ``/settings board`` says ``fixed``
(:meth:`Views.perspective_of`); the public board post follows the player to move
(:func:`public_perspective`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.service import _codec
from bot.service.bot_seats import is_bot
from bot.service.clock_plans import BOARD_POST_TIMER, board_post_payload
from bot.service.core import GameCore
from bot.service.errors import (
    NoGameHereError,
    NotAPlayerError,
    ServiceError,
)
from bot.service.logbook import (
    HAS_PRIVATE_EVENTS,
    left_seats,
    move_record,
    private_events_of,
)
from bot.service.models import (
    PRIVATE_EVENTS,
    GameSnapshot,
    MoveRecord,
    Player,
    PrivateEvent,
    PrivateView,
)
from db import (
    GameRow,
)
from db.schema import BoardPerspective
from engines import get_engine
from render import PERSPECTIVE_GAMES, render_png

log = logging.getLogger(__name__)

__all__ = ["Views", "public_perspective"]


def public_perspective(snapshot: GameSnapshot) -> int | None:
    """The side a public board of ``snapshot`` is drawn from: the one seat to move while the
    game goes on (``None``, the fixed picture, when several seats or nobody may act, when the
    game is over, and in games drawn the same for everybody).

    Nobody sits in a bot's seat, so its turn is not drawn from its side: with one person in
    the game the board stays on that person's side (it would otherwise turn away from them
    every other post), and with several people it is the fixed picture (docs/pictures.md)."""
    if snapshot.game not in PERSPECTIVE_GAMES or not snapshot.is_active:
        return None
    if len(snapshot.to_move) != 1:
        return None
    seat = snapshot.to_move[0]
    if not 0 <= seat < len(snapshot.players):
        return None  # a chance node (-1): nobody's side
    if not is_bot(snapshot.players[seat].user_id):
        return seat
    people = [p for p in snapshot.players if not is_bot(p.user_id)]
    return people[0].seat if len({p.user_id for p in people}) == 1 else None


class _BoardMessages:
    """The board message ids to store, written in groups (a group commit).

    Every board post stores its message id (reminders link to it), one write per move. While
    a group is being written, the ids posted meanwhile gather in the next group, written in
    one transaction as soon as the first is done: idle, an id is written at once, as before;
    under load, many games' ids share a write instead of queueing for the database one by
    one. A caller returns once its id is stored (or the write failed: the error is raised to
    every caller of that group).
    """

    def __init__(self, core: GameCore) -> None:
        self.core = core
        self._open: dict[int, int | None] | None = None
        #: ``(game, version)`` of each board stored, for the group's ``board_post`` timers:
        #: two boards of one game may share a group (``/board public:True`` and a move's).
        self._versions: set[tuple[int, int]] = set()
        self._written: asyncio.Future[None] | None = None
        self._one_at_a_time = asyncio.Lock()
        self._writers: set[asyncio.Task[None]] = set()

    async def store(self, game_id: int, message_id: int | None, version: int | None) -> None:
        if self._open is None or self._written is None:
            self._open, self._written = {}, asyncio.get_running_loop().create_future()
            self._versions = set()
            writer = asyncio.ensure_future(self._write(self._open, self._versions, self._written))
            self._writers.add(writer)
            writer.add_done_callback(self._writers.discard)
        self._open[game_id] = message_id
        if version is not None:
            self._versions.add((game_id, version))
        await asyncio.shield(self._written)

    async def _write(
        self,
        group: dict[int, int | None],
        versions: set[tuple[int, int]],
        written: asyncio.Future[None],
    ) -> None:
        async with self._one_at_a_time:
            if self._open is group:  # from now on, ids go to the next group
                self._open = self._written = None
            try:
                # The boards are posted: their versions' board_post timers are needless.
                done = [(game, board_post_payload(v)) for game, v in sorted(versions)]
                await self.core.database.games.set_board_messages(
                    group, done_timers=(BOARD_POST_TIMER, done)
                )
            except Exception as exc:
                written.set_exception(exc)
                return
            written.set_result(None)


class Views:
    """Snapshots, move lists, private views and board pictures of the games in ``core``."""

    def __init__(self, core: GameCore) -> None:
        self.core = core
        self._board_messages = _BoardMessages(core)

    async def snapshot(self, channel_id: int) -> GameSnapshot:
        """The game of ``channel_id`` (``/board``, ``/game info``): the active one, else the
        one that ended last, so its final board and result can still be looked at.

        Raises :class:`NoGameHereError` when the channel never had a game.
        """
        row = await self.core.shown_row(channel_id)
        return self.core.snapshot(await self.core.load_row(row))

    async def game_info(self, channel_id: int) -> GameSnapshot:
        """``/game info``: :meth:`snapshot` with :attr:`GameSnapshot.left_seats` filled in
        from the move log (games of three or more players only: in a two-player game a seat
        that leaves ends the game, and the result says how)."""
        row = await self.core.shown_row(channel_id)
        snapshot = self.core.snapshot(await self.core.load_row(row))
        if len(snapshot.players) < 3:
            return snapshot
        return replace(
            snapshot, left_seats=left_seats(await self.core.database.games.moves(row.id))
        )

    async def game_snapshot(self, game_id: int) -> GameSnapshot:
        """Any game by id, active or ended. Raises :class:`NoGameHereError` if unknown."""
        row = await self.core.database.games.get(game_id)
        if row is None:
            raise NoGameHereError("That game does not exist.")
        return self.core.snapshot(await self.core.load_row(row))

    async def games_in_threads_of(self, channel_id: int, user_id: int) -> list[GameSnapshot]:
        """``user_id``'s active games in threads of channel ``channel_id`` (oldest first),
        but not those they have left: where a command typed in the channel should have gone
        when the channel's own game is not theirs (docs/slow-play.md: a busy channel's new
        games start in threads)."""
        found = []
        for row in await self.core.database.games.list_active(user_id=user_id):
            if row.parent_channel_id != channel_id:
                continue
            loaded = await self.core.load_row(row)
            gone = await self.core.seats_gone(row)
            if all(seat in gone for seat in loaded.meta.seats_of(user_id)):
                continue  # they resigned from it: no move of theirs is wanted there
            found.append(self.core.snapshot(loaded))
        return found

    async def move_list(self, channel_id: int) -> list[MoveRecord]:
        """The move log of the game :meth:`snapshot` shows, oldest first (public events only)."""
        row = await self.core.shown_row(channel_id)
        return [move_record(m, m.created_at) for m in await self.core.database.games.moves(row.id)]

    async def private_view(self, channel_id: int, user_id: int) -> PrivateView:
        """``/hand``: the caller's private view of the game :meth:`snapshot` shows here.

        Raises :class:`NoGameHereError`, :class:`NotAPlayerError` (a spectator: one
        sentence pointing at ``/board``) and :class:`ServiceError` for a game without hidden
        information (everything is on the board).
        """
        return await self.private_view_of(await self.core.shown_row(channel_id), user_id)

    async def game_private_view(self, game_id: int, user_id: int) -> PrivateView:
        """ "My view": the caller's private view of game ``game_id`` as it is *now* (a press
        on an old board still shows the current view). Raises what :meth:`private_view`
        raises, and :class:`NoGameHereError` for an unknown game."""
        row = await self.core.database.games.get(game_id)
        if row is None:
            raise NoGameHereError("That game does not exist.")
        return await self.private_view_of(row, user_id)

    async def private_view_of(self, row: GameRow, user_id: int) -> PrivateView:
        meta = await self.core.game_meta(row)
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
        position = await self.core.position(row, meta)
        acting = [s for s in seats if row.is_active and s in row.to_move]
        seat = acting[0] if acting else seats[0]
        prompt = engine.prompt(position.state, seat) if acting else None
        log_rows = await self.core.database.games.moves(row.id)
        events = [
            PrivateEvent(move.ply, event)
            for move in log_rows
            if move.ply <= row.ply and HAS_PRIVATE_EVENTS in move.events_json  # as of ``row``
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
        self,
        private: PrivateView,
        *,
        seat_labels: Sequence[str] | None = None,
        perspective: int | None = None,
    ) -> bytes:
        """The PNG of a :class:`PrivateView` (drawn from its seat's view, in a worker thread),
        from ``perspective``'s side (a seat; ``None``: the fixed picture)."""
        labels = None if seat_labels is None else tuple(seat_labels)
        return await asyncio.to_thread(
            render_png, private.game, private.view, seat_labels=labels, perspective=perspective
        )

    async def perspective_of(
        self, user_id: int, game: str, players: Sequence[Player], *, seat: int | None = None
    ) -> int | None:
        """The seat whose side a picture shown to ``user_id`` alone is drawn from: ``seat`` (or
        the first seat the user holds among ``players``) unless the user chose
        ``/settings board perspective:fixed``; ``None`` (the fixed picture) for a spectator and
        in games drawn the same for everybody."""
        if game not in PERSPECTIVE_GAMES:
            return None
        if seat is None:
            seat = next((p.seat for p in players if p.user_id == user_id), None)
        if seat is None:
            return None
        settings = await self.core.database.settings.user(user_id)
        if settings.board_perspective is BoardPerspective.FIXED:
            return None
        return seat

    async def set_board_message(
        self, game_id: int, message_id: int | None, version: int | None = None
    ) -> None:
        """Remember the last board message posted for a game (reminders and final warnings
        link to it); stored when this returns, in a group commit with the other games' posts
        of the moment (:class:`_BoardMessages`). ``version`` is the game version the board
        shows: its ``board_post`` timer, if any, is deleted then
        (:func:`~bot.service.clock_plans.plan_board_post`). Raises the database's error if
        the write failed."""
        await self._board_messages.store(game_id, message_id, version)

    async def render(
        self,
        snapshot: GameSnapshot,
        viewer: int | None = None,
        *,
        seat_labels: Sequence[str] | None = None,
        perspective: int | None = None,
    ) -> bytes:
        """The PNG of ``snapshot`` as ``viewer`` (a seat, or ``None`` for everyone) sees it,
        drawn from seat ``perspective``'s side (``None``: the fixed picture; see
        :func:`render.render_png`).

        Drawn in a worker thread, never on the event loop. ``seat_labels`` are the players'
        display names in seat order.
        """
        view = snapshot.view
        engine = get_engine(snapshot.game)
        if viewer is not None and engine.info.has_hidden_information:
            view = await self.seat_view(snapshot, viewer)
        labels = None if seat_labels is None else tuple(seat_labels)
        return await asyncio.to_thread(
            render_png, snapshot.game, view, seat_labels=labels, perspective=perspective
        )

    async def seat_view(self, snapshot: GameSnapshot, viewer: int) -> Any:
        row = await self.core.database.games.get(snapshot.game_id)
        if row is None:
            raise NoGameHereError("That game does not exist.")
        loaded = await self.core.load_row(row)
        return loaded.meta.engine.view(loaded.position.state, viewer)
