"""Records and replay: ``/game export``, ``/game replay`` (the board at any ply, or an
animated GIF of a range of plies) and the consistency check that rebuilds a game from its log.

The record format and the one loop that replays a move log are :mod:`bot.service.records`
(pure); this module reads the rows and runs that work in a worker thread.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from bot.service import _codec, records
from bot.service.core import GameCore
from bot.service.errors import (
    NoGameHereError,
    ServiceError,
)
from bot.service.models import (
    ReplayAnimation,
    ReplayReport,
)
from bot.service.records import BoardAtPly, GameRecord
from db import (
    GameRow,
    MoveRow,
)
from engines.base import CHANCE, Outcome
from render.animate import Frame, ReplayTooLargeError, Timing, frame_durations, render_gif

log = logging.getLogger(__name__)

__all__ = ["REPLAY_SPEEDS", "Replays", "animation_frames"]

#: ``/game replay speed:``: frame times from the real move times, or half a second a frame.
REPLAY_SPEEDS: dict[str, Timing] = {"real": Timing(), "fast": Timing(fixed_ms=500)}


def animation_frames(
    engine: Any,
    start: Any,
    moves: Sequence[MoveRow],
    started_at: datetime,
    from_ply: int,
    to_ply: int,
    outcome: Outcome | None = None,
) -> tuple[list[Frame], list[int]]:
    """The public frames of plies ``from_ply`` to ``to_ply``: the spectator's view
    (``engine.view(state, None)``) at ``from_ply`` first, then after each later ply, each
    with the seconds between its move and the one before (the game's start for ply 1), as
    the move log's ``created_at`` says. A ply after which a chance outcome is drawn at once
    (Generator's next roll, Arbos' random setup) gets no frame of its own: its position is
    the next frame's, which shows the roll too, and its seconds go to that frame (before,
    half of a Generator GIF's frames read "rolling…"). The range's first and last plies
    always get theirs. ``outcome`` is the ended game's stored result: the
    frame of its last ply shows it, as the final board does
    (:func:`~bot.service.records.public_view`). Returns the frames and the ply each shows.
    Raises :class:`~bot.service.records.ReplayError` for a log that does not replay."""
    frames: list[Frame] = []
    plies: list[int] = []
    if from_ply == 0:
        frames.append(Frame(engine.view(start, None)))
        plies.append(0)
    previous = started_at
    held = 0.0  # seconds of plies left without a frame, for the next one
    last_ply = min(to_ply, len(moves))
    for step, move in zip(records.replay_log(engine, start, moves[:to_ply]), moves, strict=False):
        seconds = max(0.0, (move.created_at - previous).total_seconds())
        previous = move.created_at
        if step.ply == from_ply:
            frames.append(Frame(engine.view(step.after, None)))
            plies.append(step.ply)
        elif step.ply > from_ply:
            if step.ply < last_ply and engine.to_move(step.after) == (CHANCE,):
                held += seconds
                continue
            frames.append(Frame(engine.view(step.after, None), seconds + held))
            plies.append(step.ply)
            held = 0.0
    if outcome is not None and frames and to_ply == len(moves):
        last = frames[-1]
        frames[-1] = replace(last, view=engine.ended_view(last.view, outcome))
    return frames, plies


#: The share of Discord's limit a suggested range aims at: frames differ in what changes.
_FIT_MARGIN = 0.85


def _too_big_text(error: ReplayTooLargeError, framed: Sequence[int], last: int, plies: int) -> str:
    """One sentence for a GIF over Discord's limit whose frames show the plies ``framed``
    (ascending, to ``last``; of a game of ``plies``), with the ``from_ply`` whose range to
    ``last`` should fit when at least two frames would (and ``to_ply``, when ``last`` is not
    the game's last ply): a range's first frame costs a whole picture
    (``error.first_size``), each later frame what this GIF's later frames cost on average.
    Counted in frames back from ``last``, since plies and frames differ where a roll follows
    a ply at once (:func:`animation_frames`)."""
    mib = error.limit // 2**20
    limit = f"{mib} MiB" if mib else f"{error.limit:,} bytes"
    head = f"That replay is too big for Discord ({limit} at most)"
    per_frame = (error.size - error.first_size) / max(1, error.frames - 1)
    room = error.limit * _FIT_MARGIN - error.first_size
    fit = int(room / per_frame) if per_frame > 0 and room > 0 else 0
    start = len(framed) - 1 - fit
    if fit < 1 or start <= 0:
        return f"{head}: ask for fewer plies with `from_ply` and `to_ply`."
    begin = framed[start]
    to = "" if last == plies else f" `to_ply:{last}`"
    return f"{head}: about its last {last - begin} plies fit, so try `from_ply:{begin}`{to}."


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
        going on (its record's position holds the hidden cards).
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
        snapshot, meta = self.core.snapshot(loaded), loaded.meta
        try:
            return await asyncio.to_thread(
                lambda: records.board_at_ply(snapshot, records.start_state(meta), log_rows, ply)
            )
        except ServiceError as error:
            error.game_id = row.id
            raise

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
        """``/game replay format:gif``: the animated GIF of the game chosen as
        :meth:`export_record` chooses it, from ply ``from_ply`` (default 0, the start
        position) to ``to_ply`` (default the last), public views only.

        Each frame is the spectator's view after a ply, shown as long as
        :data:`REPLAY_SPEEDS` ``[speed]`` says for the time between that move and the one
        before. The log is replayed and the GIF drawn in one worker thread
        (:func:`render.animate.render_gif`; seconds for a few hundred plies). Raises
        :class:`NoGameHereError` as :meth:`export_record` does, and :class:`ServiceError`
        for an unknown speed, a range the game does not have, or a GIF over Discord's
        10 MiB upload limit (one sentence that asks for fewer plies).
        """
        if speed not in REPLAY_SPEEDS:
            raise ServiceError(f"The speed is one of {', '.join(REPLAY_SPEEDS)}, not {speed!r}.")
        row = await self.record_row(channel_id, guild_id, game_id)
        meta = await self.core.game_meta(row)
        name = meta.engine.info.name
        log_rows = await self.core.database.games.moves(row.id)
        plies = len(log_rows)
        first = 0 if from_ply is None else from_ply
        last = plies if to_ply is None else to_ply
        if not 0 <= first <= last <= plies:
            # Name only what the user asked for: plies the game does not have, else the order.
            missing = sorted(
                {v for v in (from_ply, to_ply) if v is not None and not 0 <= v <= plies}
            )
            if len(missing) == 1:
                wrong = f"there is no ply {missing[0]}"
            elif missing:
                wrong = f"there are no plies {missing[0]} and {missing[1]}"
            else:
                wrong = f"from_ply {first} comes after to_ply {last}"
            error = ServiceError(
                f"{name} game {row.id} has plies 0 to {plies} (0 is the start position); {wrong}."
            )
            error.game_id = row.id
            raise error
        timing = REPLAY_SPEEDS[speed]
        labels = None if seat_labels is None else tuple(seat_labels)

        framed: list[int] = []  # the ply each frame shows, for a too-big answer

        def draw() -> tuple[bytes, int, float]:
            ended = None if row.is_active else _codec.load_outcome(row.outcome_json)
            frames, framed[:] = animation_frames(
                meta.engine, records.start_state(meta), log_rows, row.created_at, first, last, ended
            )
            seconds = sum(frame_durations(frames, timing)) / 1000
            return (
                render_gif(row.game, frames, seat_labels=labels, timing=timing),
                len(frames),
                seconds,
            )

        try:
            gif, count, seconds = await asyncio.to_thread(draw)
        except records.ReplayError as error:
            error.add_note(f"game {row.id}")
            raise
        except ReplayTooLargeError as error:
            too_big = ServiceError(_too_big_text(error, framed, last, plies))
            too_big.game_id = row.id
            raise too_big from error
        log.info(
            "game %d: replay GIF of plies %d-%d, %d frames, %d bytes",
            row.id, first, last, count, len(gif),
        )  # fmt: skip
        return ReplayAnimation(
            game_id=row.id,
            game=row.game,
            game_name=name,
            from_ply=first,
            to_ply=last,
            plies=plies,
            speed=speed,
            frames=count,
            seconds=seconds,
            gif=gif,
        )

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
