"""Rematches: the Rematch button opens a new challenge with the same game, options and
clock, seats rotated by one (:func:`bot.service.social.plan_rematch`); the bot's seats keep
their levels, or all take the level the player picks (:meth:`Rematches.rematch`'s
``bot_level``).

A rematch is a challenge, so it is opened through :class:`~bot.service.lobby.Lobby` (the one
use case this module depends on, handed in by the facade).
"""

from __future__ import annotations

import logging

from bot.service import social
from bot.service._cache import GameMeta
from bot.service.bot_seats import is_bot
from bot.service.core import GameCore
from bot.service.errors import (
    NoGameHereError,
    StaleActionError,
)
from bot.service.lobby import Lobby
from bot.service.models import (
    ChallengeInfo,
)
from bot.service.options import format_options
from db import ChallengeRow, GameRow, RematchAlreadyOpenError, RematchAlreadyStartedError

log = logging.getLogger(__name__)

__all__ = ["Rematches"]


class Rematches:
    """The Rematch button of a finished game in ``core``; challenges go through ``lobby``."""

    def __init__(self, core: GameCore, lobby: Lobby) -> None:
        self.core = core
        self.lobby = lobby

    async def plan(self, game_id: int, user_id: int) -> social.RematchPlan:
        """Whether ``user_id`` may ask for a rematch of game ``game_id`` now, without opening
        one: the plan :meth:`rematch` would follow with the bots at their levels. The Rematch
        button asks this first, to offer a level menu when the game had bot seats
        (:attr:`~bot.service.social.RematchPlan.has_bots`); nothing is written.

        Raises what :meth:`rematch` raises before it writes: :class:`NoGameHereError`,
        :class:`NotAPlayerError`, :class:`~bot.service.social.RematchError` and
        :class:`~bot.service.social.RematchOpenError` while a rematch of this game is open
        (:class:`~bot.service.social.RematchStartedError` once one has started).
        """
        _, _, plan = await self._plan(game_id, user_id, None)
        await self._refuse_live(game_id)
        return plan

    async def _refuse_live(self, game_id: int) -> ChallengeRow | None:
        """Raise :class:`~bot.service.social.RematchStartedError` when game ``game_id``'s
        rematch has started (one rematch per game: an old button or level menu would
        otherwise open a second game), :class:`~bot.service.social.RematchOpenError` while
        one is open; else return the open one that is past its expiry, if any."""
        challenges = self.core.database.challenges
        started = await challenges.started_rematch(game_id)
        if started is not None:
            raise social.RematchStartedError(self.lobby.challenge_info(started))
        existing = await challenges.open_rematch(game_id)
        if existing is not None and existing.expires_at > self.core.now():
            raise social.RematchOpenError(self.lobby.challenge_info(existing))
        return existing

    async def rematch(
        self,
        game_id: int,
        user_id: int,
        *,
        in_parent: bool = False,
        bot_level: int | None = None,
    ) -> ChallengeInfo:
        """The Rematch button: a new challenge to play game ``game_id`` again.

        Same game, options, clock and start position (a game from a custom position is
        played again from it); ``user_id`` is the challenger, every other player is
        invited, and the seats are fixed, rotated by one
        (:func:`bot.service.social.rotated_seating`). The bot's seats stay the bot's: at the
        level each had when ``bot_level`` is ``None``, else every one at ``bot_level`` (1–5;
        ignored for a game without bot seats). The challenge goes in the game's channel, or
        in the parent channel of its thread when ``in_parent`` (the bot passes it when the
        thread is archived). Returns the challenge for the bot to post; the challenger then
        seats the bots (:meth:`~bot.service.lobby.Lobby.add_bots`, the levels of
        :attr:`ChallengeInfo.seating`).

        Raises :class:`NoGameHereError` (unknown game), :class:`NotAPlayerError` ("Only the
        players can ask for a rematch"), :class:`~bot.service.social.RematchError` (a
        ``bot_level`` outside 1–5, the game goes on, was aborted, or a user held several
        seats), :class:`~bot.service.social.RematchOpenError` while a rematch of this game
        is open (a second press, or a second choice in the level menu) and its subclass
        :class:`~bot.service.social.RematchStartedError` once one has started (one rematch
        per game; a declined, cancelled or expired one, or one whose game was aborted, does not
        count).
        """
        row, meta, plan = await self._plan(game_id, user_id, bot_level)
        channel_id = row.channel_id
        if in_parent and row.parent_channel_id is not None:
            channel_id = row.parent_channel_id
        # The lock makes a double press in this process wait, then find the first one's
        # challenge; two processes pressing at the same instant are told apart by the
        # database, which checks again for an open or started rematch in the insert's
        # transaction (ChallengesRepo.create): between our checks and our write, another
        # process may have opened one, or accepted the open one.
        async with self.core.game_lock(game_id):
            existing = await self._refuse_live(game_id)
            if existing is not None:  # past its expiry: close it (only it) for a new one
                await self.core.database.challenges.expire_due(
                    self.core.now(), challenge_id=existing.id
                )
            try:
                info = await self._open(row, meta, plan, user_id, channel_id, game_id)
            except (RematchAlreadyOpenError, RematchAlreadyStartedError) as exc:
                log.info("game %d: rematch refused by the database: %s", game_id, exc)
                await self._refuse_live(game_id)  # raises the answer that names it
                raise StaleActionError() from exc  # answered in the meantime: press again
        log.info(
            "game %d: rematch asked by %d (challenge %d, bots at %s)",
            game_id,
            user_id,
            info.challenge_id,
            "their levels" if bot_level is None else f"level {bot_level}",
        )
        return info

    async def _plan(
        self, game_id: int, user_id: int, bot_level: int | None
    ) -> tuple[GameRow, GameMeta, social.RematchPlan]:
        """Game ``game_id``'s row and meta, and the rematch ``user_id`` may ask for."""
        row = await self.core.database.games.get(game_id)
        if row is None:
            raise NoGameHereError("That game does not exist.")
        meta = await self.core.game_meta(row)
        players = [p.user_id for p in meta.players]
        plan = social.plan_rematch(str(row.status), players, user_id, bot_level=bot_level)
        return row, meta, plan

    async def _open(
        self,
        row: GameRow,
        meta: GameMeta,
        plan: social.RematchPlan,
        user_id: int,
        channel_id: int,
        game_id: int,
    ) -> ChallengeInfo:
        """Open the rematch challenge of game ``row`` that ``plan`` describes."""
        return await self.lobby.create_challenge(
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
            start_position=row.start_position,
            rated=row.rated,  # a rematch of a casual game is casual too
            # Its bots sit right after (the cog's add_bots): a short expiry until they do.
            bots_follow=any(is_bot(u) for u in plan.seating or ()),
        )
