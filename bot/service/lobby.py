"""Challenges and lobbies: open a challenge, take and give up seats, start the game.

Every lobby press is: read the open challenge, decide (a pure function at the end of this
module that raises the user's mistake), write with a compare-and-set on the lobby's version.
If another press landed in between, read again and decide again, so two presses for
different seats both land, and of two presses for the last seat exactly one does. The press
that fills the last seat (or Start) creates the game in the same transaction: a game starts
exactly once, from exactly the lobby its players saw.

Randomness: each game has a seed drawn when it starts; seat assignment (the spec's coin flip)
comes from a stream derived from it (:mod:`bot.service.randomness`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from ai.levels import LEVELS
from bot.service import _codec
from bot.service.bot_seats import is_bot
from bot.service.clock_plans import (
    merge_changes,
    plan_board_post,
    plan_bot_turns,
    plan_reminders,
    plan_start,
    start_timers,
)
from bot.service.clocks import (
    ClockSpec,
)
from bot.service.core import GameCore
from bot.service.errors import (
    ChallengeClosedError,
    ChallengeNotFoundError,
    ChallengeSetupError,
    ChannelBusyError,
    LobbyError,
    NotChallengedError,
    StaleActionError,
    TooManySeatsError,
    sentence,
)
from bot.service.lobby_rules import (
    LEFT,
    Press,
    accept_press,
    bot_press,
    decline_press,
    fewest_players,
    join_press,
    leave_press,
    remove_bot_press,
    seated_after,
    start_press,
)
from bot.service.models import (
    ChallengeInfo,
    ChallengePlayer,
    GameSnapshot,
    LobbyUpdate,
)
from bot.service.options import format_options, resolve_challenge_options, sides_of
from bot.service.randomness import random_seed, seat_order
from bot.service.records import position_start
from db import ChallengeChangedError as DbChallengeChangedError
from db import ChallengeClosedError as DbChallengeClosedError
from db import (
    ChallengeEntry,
    ChallengePlayerRole,
    ChallengeRow,
    GameRow,
)
from db import ChallengeFullError as DbChallengeFullError
from db import ChannelBusyError as DbChannelBusyError
from db.clocks import VacationChangedError
from db.rows import ClockChanges
from engines import get_engine
from engines.base import (
    Engine,
    OptionValue,
    UsageError,
)

log = logging.getLogger(__name__)

__all__ = ["BOTS_TO_SIT_WITHIN", "DEFAULT_CHALLENGE_TTL", "LOBBY_ATTEMPTS", "Lobby"]

DEFAULT_CHALLENGE_TTL = timedelta(hours=24)
#: How long a lobby opened for the bot (``/challenge bot_level:``, an exhibition, a rematch
#: with bots) lives until its bots sit (:meth:`Lobby.add_bots` right after, which then gives
#: it the usual time). Posted without buttons meanwhile, it would otherwise stay open for a
#: day if the process stopped in between, and a rematch's would block the next one.
BOTS_TO_SIT_WITHIN = timedelta(minutes=2)
#: How often a lobby press reads and decides again when other presses keep landing first.
LOBBY_ATTEMPTS = 5


class Lobby:
    """Challenges (lobbies) in channels, and the games they start.

    ``seed_source`` returns a new game's seed; ``challenge_ttl`` is how long a challenge
    stays open; ``default_clock`` is the clock text of a challenge that names none (``none``:
    casual). Raises :class:`ValueError` for a ``default_clock`` that is not a clock.
    """

    def __init__(
        self,
        core: GameCore,
        *,
        seed_source: Callable[[], int] = random_seed,
        challenge_ttl: timedelta = DEFAULT_CHALLENGE_TTL,
        default_clock: str = "none",
    ) -> None:
        self.core = core
        self._seed_source = seed_source
        self.challenge_ttl = challenge_ttl
        self.default_clock = str(ClockSpec.parse(default_clock))

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
        """Open a challenge (a lobby) to play ``game`` in ``channel_id``.

        ``opponent_ids`` are the users invited, in order: a seat is reserved for each until
        they Accept or Decline. ``players`` is the number of seats; by default the
        challenger plus the opponents named, or the game's ``default_players`` when nobody
        was named. Seats left over are open: anyone may Join. ``options_text`` is ``key=value
        …`` text and ``preset`` a preset id of the game. Everything is validated now,
        options together with the player count (a new game is set up and thrown away), so
        a challenge that could never start is never posted.

        ``clock`` is the clock text (:meth:`bot.service.clocks.ClockSpec.parse`: ``none``,
        ``correspondence``, ``hard:3d+1d/5d`` …; the service's ``default_clock`` when not
        given), stored canonical. ``seating``
        fixes the seat order (user ids, challenger and every opponent once each, one per
        seat, and the bot's seats by their ids, added with :meth:`add_bots`; a rematch)
        instead of drawing it when the game starts; ``rematch_of`` names the game a rematch
        comes from.

        ``bot_seats`` is how many seats the caller will give the bot with :meth:`add_bots`
        right after (``/challenge bot_level:`` or a mention of the bot): they count like the
        opponents named, for the default number of seats and for the room check. With bot
        seats, or ``bots_follow`` (bots of a fixed ``seating``, an exhibition's), the lobby
        expires after :data:`BOTS_TO_SIT_WITHIN` until :meth:`add_bots` seats them.

        ``start_position`` is a custom start in the game's position notation (``/challenge
        position:``), read as ``python -m engines --position`` reads it; without ``players``
        the position's own count (if its notation carries one) sets the number of seats. The
        game then starts from it (:func:`bot.service.records.position_start`) and is casual.

        Raises :class:`ChallengeSetupError` (unknown game, a player count the game does not
        allow, a bad option, preset, clock or position — the message lists what is allowed
        or what is wrong —, a challenge to oneself, an opponent named twice, more opponents
        than seats — :class:`TooManySeatsError` when bot seats were asked for —, or a
        ``seating`` that does not seat exactly the challenger and the opponents).
        """
        invited = list(opponent_ids)
        if challenger_id in invited:
            raise ChallengeSetupError("You cannot challenge yourself.")
        if len(set(invited)) != len(invited):
            raise ChallengeSetupError("You named the same opponent twice.")
        try:
            engine = get_engine(game)
            options = resolve_challenge_options(engine, options_text, preset)
            seats = _challenge_seats(
                engine,
                options,
                players=players,
                start_position=start_position,
                people=len(invited),
                bot_seats=bot_seats,
            )
        except UsageError as exc:
            raise ChallengeSetupError(sentence(str(exc))) from exc
        if start_position is not None:
            start_position = _checked_position(engine, start_position, options, seats)
        if 1 + len(invited) > seats:
            raise ChallengeSetupError(
                f"You named {len(invited)} opponents, but a game for {seats} players has "
                f"room for only {seats - 1}."
            )
        try:
            clock_spec = ClockSpec.parse(clock or self.default_clock)
        except ValueError as exc:
            raise ChallengeSetupError(sentence(str(exc))) from exc
        people = sorted(u for u in seating or () if not is_bot(u))
        if seating is not None and (
            len(seating) != seats or people != sorted([challenger_id, *invited])
        ):
            raise ChallengeSetupError("A fixed seating must seat every player once.")
        now = self.core.now()
        row = await self.core.database.challenges.create(
            guild_id=guild_id,
            channel_id=channel_id,
            challenger_id=challenger_id,
            invited_ids=invited,
            players=seats,
            game=engine.info.id,
            options_json=_codec.dump_options(options),
            now=now,
            expires_at=now + self._first_ttl(bot_seats > 0 or bots_follow),
            clock=str(clock_spec),
            seating=seating,
            rematch_of=rematch_of,
            start_position=start_position,
            # The game copies it when it starts (db/games.py, _rated); a custom start is never
            # rated, so it is stored casual, as the lobby and the result say.
            rated=rated and start_position is None,
        )
        log.info(
            "challenge %d: %s for %d by %d, invited %s, in channel %d",
            row.id,
            row.game,
            seats,
            challenger_id,
            invited or "nobody",
            channel_id,
        )
        return self.challenge_info(row)

    def _first_ttl(self, bots_follow: bool) -> timedelta:
        """A new lobby's time to live: the usual one, or, for a lobby whose bots sit right
        after it is posted, :data:`BOTS_TO_SIT_WITHIN` until they do (never longer)."""
        return min(BOTS_TO_SIT_WITHIN, self.challenge_ttl) if bots_follow else self.challenge_ttl

    async def get_challenge(self, challenge_id: int) -> ChallengeInfo:
        """The challenge as stored; raises :class:`ChallengeNotFoundError`."""
        row = await self.core.database.challenges.get(challenge_id)
        if row is None:
            raise ChallengeNotFoundError()
        return self.challenge_info(row)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the message that shows the challenge, to edit it when it closes."""
        await self.core.database.challenges.set_message(challenge_id, message_id)

    # Every lobby press below is: read the open challenge, decide (a pure function that
    # raises the user's mistake), write with a compare-and-set on the lobby's version. If
    # another press landed in between, read again and decide again, so two presses for
    # different seats both land, and of two presses for the last seat exactly one does.
    # The press that fills the last seat (or Start) creates the game in the same
    # transaction: a game starts exactly once, from exactly the lobby its players saw.

    async def accept_challenge(
        self,
        challenge_id: int,
        user_id: int,
        *,
        channel_id: int | None = None,
        parent_channel_id: int | None = None,
    ) -> LobbyUpdate:
        """An invited user takes the seat reserved for them (Accept).

        If that fills the last seat the game starts, atomically, in ``channel_id`` (default:
        the challenge's channel; pass a thread and its ``parent_channel_id`` when the
        channel is busy), seats drawn at random from the new game's seed. Raises
        :class:`ChallengeNotFoundError`, :class:`ChallengeClosedError` (answered, cancelled
        or expired: a double click lands here), :class:`NotChallengedError` (the challenger,
        or a user not invited), :class:`LobbyError` (already seated, or gave the seat up),
        :class:`ChallengeSetupError` (the options no longer fit the player count) and
        :class:`ChannelBusyError` when the game would start in a channel that already has
        one (nothing is written; the caller may press again in a thread).
        """
        return await self._lobby_press(
            challenge_id,
            user_id,
            accept_press,
            channel_id=channel_id,
            parent_channel_id=parent_channel_id,
        )

    async def join_challenge(
        self,
        challenge_id: int,
        user_id: int,
        *,
        channel_id: int | None = None,
        parent_channel_id: int | None = None,
    ) -> LobbyUpdate:
        """Anyone not in the lobby takes an open seat (Join); an invited user who presses
        Join accepts. Starts the game when it fills the last seat, as
        :meth:`accept_challenge` does, with the same errors (:class:`LobbyError` when every
        seat is taken or reserved, or the user already has one)."""
        return await self._lobby_press(
            challenge_id,
            user_id,
            join_press,
            channel_id=channel_id,
            parent_channel_id=parent_channel_id,
        )

    async def decline_challenge(self, challenge_id: int, user_id: int) -> LobbyUpdate:
        """An invited user turns the invitation down (Decline).

        In a two-seat challenge that closes it (status ``declined``); with more seats it
        only frees the user's seat for anyone to Join. Raises :class:`NotChallengedError`
        for a user with no pending invitation, and the errors of :meth:`accept_challenge`
        for a missing or closed challenge.
        """
        return await self._lobby_press(challenge_id, user_id, decline_press)

    async def leave_challenge(self, challenge_id: int, user_id: int) -> LobbyUpdate:
        """A seated user (not the challenger, who cancels instead) gives up their seat before
        the game starts (Leave). Raises :class:`NotChallengedError` for anyone without a
        seat, and the errors of :meth:`accept_challenge` for a missing or closed challenge."""
        return await self._lobby_press(challenge_id, user_id, leave_press)

    async def start_challenge(
        self,
        challenge_id: int,
        user_id: int,
        *,
        channel_id: int | None = None,
        parent_channel_id: int | None = None,
    ) -> LobbyUpdate:
        """The challenger starts the game with the players seated now (Start).

        Only for games that allow fewer players than the challenge has seats, once at least
        the game's ``min_players`` are seated; invitations not yet answered lapse. Raises
        :class:`NotChallengedError` (not the challenger), :class:`LobbyError` (the game needs
        every seat, or too few are seated) and the errors of :meth:`accept_challenge`.
        """
        return await self._lobby_press(
            challenge_id,
            user_id,
            start_press,
            channel_id=channel_id,
            parent_channel_id=parent_channel_id,
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
        """A bot-only exhibition game for spectators: ``user_id`` opens a casual challenge of
        ``players`` seats (``None``: those the options name, else the game's usual number,
        as :meth:`create_challenge` counts them) and gives up their own seat at once, so
        every seat is left for the bot (the caller seats the bots with :meth:`add_bots`,
        which starts the game when the last one sits; ``players`` of the returned lobby is
        how many). Raises what :meth:`create_challenge` raises."""
        info = await self.create_challenge(
            guild_id=guild_id,
            channel_id=channel_id,
            challenger_id=user_id,
            game=game,
            players=players,
            options_text=options_text,
            preset=preset,
            clock=clock,
            rated=False,
            bots_follow=True,
        )
        now = self.core.now()
        row = await self._open_challenge(info.challenge_id, now)
        leave = ChallengeEntry(user_id, ChallengePlayerRole.CHALLENGER, LEFT)
        updated = await self.core.database.challenges.enter(
            info.challenge_id, row.version, leave, now=now
        )
        log.info("challenge %d: an exhibition of bots, opened by %d", updated.id, user_id)
        return self.challenge_info(updated)

    async def add_bots(
        self,
        challenge_id: int,
        user_id: int,
        levels: Sequence[int],
        *,
        channel_id: int | None = None,
        parent_channel_id: int | None = None,
    ) -> LobbyUpdate:
        """The challenger gives open seats to the bot, one per level in ``levels`` (1–5): the
        **Add bot** button, and ``/challenge opponent:@Gameroom`` or ``bot_level:``. A lobby
        opened for these bots (its short first expiry, :data:`BOTS_TO_SIT_WITHIN`) that is
        still open once they sit gets the usual time from its creation; any other lobby's
        expiry is that already.

        Each bot takes its seat at once (a bot never needs to accept); when that fills the
        last seat the game starts, as :meth:`accept_challenge` does (same ``channel_id`` and
        ``parent_channel_id``). Returns the lobby after the last bot. Raises
        :class:`NotChallengedError` (not the challenger), :class:`LobbyError` (no open seat
        left, or a level outside 1–5) and the errors of :meth:`accept_challenge`.
        """
        if not levels:
            raise LobbyError("Choose a level for the bot.")
        update: LobbyUpdate | None = None
        for level in levels:
            if not 1 <= level <= len(LEVELS):
                raise LobbyError(f"Bot levels are 1 to {len(LEVELS)}.")
            update = await self._lobby_press(
                challenge_id,
                user_id,
                partial(bot_press, level=level),
                channel_id=channel_id,
                parent_channel_id=parent_channel_id,
            )
            if update.game is not None:
                break
        assert update is not None  # levels is not empty
        info = update.challenge
        usual = info.created_at + self.challenge_ttl
        if update.game is None and info.is_open and info.expires_at < usual:
            row = await self.core.database.challenges.set_expiry(
                challenge_id, usual, now=self.core.now()
            )
            if row is not None:
                update = replace(update, challenge=self.challenge_info(row))
        return update

    async def remove_bot(self, challenge_id: int, user_id: int, bot_id: int) -> ChallengeInfo:
        """The challenger takes bot ``bot_id``'s seat back before the start (the lobby's
        "Remove a bot…" menu); the seat is open again. Returns the lobby after the change.
        Raises :class:`NotChallengedError` (not the challenger), :class:`LobbyError` (that
        bot holds no seat here), :class:`ChallengeNotFoundError` and
        :class:`ChallengeClosedError` (the challenge is no longer open)."""
        update = await self._lobby_press(
            challenge_id, user_id, partial(remove_bot_press, bot_id=bot_id)
        )
        return update.challenge

    async def cancel_challenge(self, challenge_id: int, user_id: int) -> ChallengeInfo:
        """The challenger withdraws. Raises :class:`NotChallengedError` for anyone else."""
        now = self.core.now()
        challenge = await self._open_challenge(challenge_id, now)
        if user_id != challenge.challenger_id:
            raise NotChallengedError("Only the challenger can cancel this challenge.")
        row = await self.core.database.challenges.resolve(
            challenge_id, new_status="cancelled", now=now
        )
        if row is None:
            raise await self._closed(challenge_id)
        log.info("challenge %d cancelled", challenge_id)
        return self.challenge_info(row)

    async def cancel_in_deleted_channel(self, channel_id: int) -> list[ChallengeInfo]:
        """Cancel the open challenges posted in channel or thread ``channel_id``, which
        Discord has deleted: nobody can press their buttons any more, and they would hold
        their players' seats until they expire. Returns those this call closed (each once)."""
        closed: list[ChallengeInfo] = []
        now = self.core.now()
        for open_row in await self.core.database.challenges.list_open(channel_id=channel_id):
            row = await self.core.database.challenges.resolve(
                open_row.id, new_status="cancelled", now=now
            )
            if row is not None:
                log.warning(
                    "challenge %d: cancelled, its channel %d was deleted", row.id, channel_id
                )
                closed.append(self.challenge_info(row))
        return closed

    async def expire_challenges(self) -> list[ChallengeInfo]:
        """Mark every challenge past its expiry as expired; returns those this call closed
        (each exactly once, even with several processes), so their messages can be edited."""
        rows = await self.core.database.challenges.expire_due(self.core.now())
        for row in rows:
            log.info("challenge %d expired", row.id)
        return [self.challenge_info(row) for row in rows]

    async def _lobby_press(
        self,
        challenge_id: int,
        user_id: int,
        decide: Callable[[ChallengeRow, int], Press],
        *,
        channel_id: int | None = None,
        parent_channel_id: int | None = None,
    ) -> LobbyUpdate:
        """Apply one press to the lobby, deciding again if another press landed first."""
        for _ in range(LOBBY_ATTEMPTS):
            now = self.core.now()
            row = await self._open_challenge(challenge_id, now)
            press = decide(row, user_id)
            try:
                if press.starts:
                    game = await self._start_game(
                        row, press.entry, now, channel_id, parent_channel_id
                    )
                    return LobbyUpdate(await self.get_challenge(challenge_id), game)
                if press.closes_as is not None:
                    resolved = await self.core.database.challenges.resolve(
                        challenge_id, new_status=press.closes_as, now=now, entry=press.entry
                    )
                    if resolved is None:
                        continue  # answered or expired meanwhile: the next read says which
                    log.info("challenge %d %s by %d", challenge_id, press.closes_as, user_id)
                    return LobbyUpdate(self.challenge_info(resolved))
                if press.entry is None:  # pragma: no cover - every decision sets one of the three
                    raise RuntimeError(f"lobby press on challenge {challenge_id} changes nothing")
                updated = await self.core.database.challenges.enter(
                    challenge_id, row.version, press.entry, now=now
                )
            except (DbChallengeChangedError, DbChallengeClosedError, DbChallengeFullError):
                continue
            log.info(
                "challenge %d: %d is %s (pressed by %d)",
                challenge_id,
                press.entry.user_id,
                press.entry.status.value,
                user_id,
            )
            return LobbyUpdate(self.challenge_info(updated))
        raise StaleActionError("The lobby kept changing while you pressed; please press again.")

    async def _start_game(
        self,
        challenge: ChallengeRow,
        entry: ChallengeEntry | None,
        now: datetime,
        channel_id: int | None,
        parent_channel_id: int | None,
    ) -> GameSnapshot:
        """Create the game of ``challenge`` with the users seated once ``entry`` is applied,
        accepting the challenge in the same transaction (compare-and-set on its version).

        The same transaction gives every seat its clock (if the challenge has one), starts the
        clocks of the seats to move (paused while their player is on vacation) and plans
        their deadline and reminder timers, and the first board's ``board_post`` timer (the
        settling commit's, for a game that opens at a chance node)."""
        engine = get_engine(challenge.game)
        options = engine.resolve_options(_codec.load_options(challenge.options_json))
        seed = self._seed_source()
        seated = seated_after(challenge, entry)
        if challenge.seating is not None and sorted(challenge.seating) == sorted(seated):
            user_ids = list(challenge.seating)  # a rematch: seats as the challenge fixed them
        else:
            user_ids = seat_order(seed, seated)
        try:
            if challenge.start_position is None:
                state = engine.new_game(len(user_ids), options, seed)
            else:  # a custom start (/challenge position:); the game is casual
                start = challenge.start_position
                state = position_start(engine, start, options, len(user_ids), seed)
        except (UsageError, ValueError) as exc:
            raise ChallengeSetupError(sentence(str(exc))) from exc
        target = challenge.channel_id if channel_id is None else channel_id
        to_move = engine.to_move(state)
        first = {seat: user_ids[seat] for seat in to_move if seat >= 0}
        paused, due, seen = await self.core.turn_start(challenge.guild_id, first, now)
        clock_spec = ClockSpec.parse(challenge.clock)
        new_clocks = plan_start(clock_spec, len(user_ids), first, now, paused_until=paused)
        # The first clocks start (or not) by the vacations read: the write checks them.
        checks = ClockChanges(vacations_seen=seen) if new_clocks and seen else None

        def first_timers(game_id: int) -> ClockChanges | None:
            reminders = plan_reminders(game_id, before=(), due=due, version=1, ply=0)
            delay = self.core.bot_turn_delay(user_ids, clocked=bool(new_clocks))
            bot_turns = plan_bot_turns(game_id, first, now + delay, 0)
            starts = start_timers(game_id, new_clocks)
            # The first board is posted like a move's: if this process stops first, the
            # board_post timer posts it (a crash between the start and its post). A game that
            # opens at a chance node (Arbos' setup) is settled at once below, and that
            # commit's timer (one per game) replaces this one.
            board = plan_board_post(game_id, 1, now)
            return merge_changes(checks, starts, reminders, bot_turns, board)

        options_json = _codec.dump_options(options)
        try:
            row = await self.core.database.games.create(
                guild_id=challenge.guild_id,
                channel_id=target,
                parent_channel_id=parent_channel_id,
                game=engine.info.id,
                options_json=options_json,
                rules_version=engine.info.rules_version,
                seed=seed,
                state_json=engine.dumps(state),
                ply=0,
                to_move=to_move,
                user_ids=user_ids,
                teams=_seat_teams(engine.info.id, options_json, len(user_ids)),
                now=now,
                challenge_id=challenge.id,
                challenge_version=challenge.version,
                challenge_entry=entry,
                clock=challenge.clock,
                clocks=new_clocks,
                clock_changes=first_timers,
                start_position=challenge.start_position,
            )
        except DbChannelBusyError as exc:
            raise ChannelBusyError() from exc
        except VacationChangedError as exc:  # a first player's vacation changed meanwhile
            raise StaleActionError(
                "A player's vacation changed at that moment; please press again."
            ) from exc
        log.info(
            "game %d: %s started in channel %d from challenge %d, seats %s",
            row.id,
            row.game,
            target,
            challenge.id,
            user_ids,
        )
        async with self.core.game_lock(row.id):
            return await self._settled(row)

    async def settle_start(self, game_id: int) -> GameSnapshot | None:
        """Play the opening chance steps of game ``game_id`` if it still waits at them (the
        process that started it stopped before :meth:`_start_game` settled it), planning
        the settled board's post like the start does; the game as it is then, or ``None``
        when it is gone or over. Also wakes the bot if it now has the move."""
        async with self.core.game_lock(game_id):
            row = await self.core.database.games.get(game_id)
            if row is None or not row.is_active:
                return None
            return await self._settled(row)

    async def _settled(self, row: GameRow) -> GameSnapshot:
        """Game ``row`` (its lock held) after its opening chance steps, if it waits at any,
        with the settled board's ``board_post`` planned; the bot woken if it has the move."""
        loaded = await self.core.settle(await self.core.load_row(row), board_post=True)
        self.core.tell_bot_turn(loaded)
        return self.core.snapshot(loaded)

    async def _open_challenge(self, challenge_id: int, now: datetime) -> ChallengeRow:
        row = await self.core.database.challenges.get(challenge_id)
        if row is None:
            raise ChallengeNotFoundError()
        if not row.is_open:
            raise ChallengeClosedError(str(row.status))
        if row.expires_at <= now:
            raise ChallengeClosedError("expired")
        return row

    async def _closed(self, challenge_id: int) -> ChallengeClosedError:
        """The error for a challenge a compare-and-set found no longer open."""
        row = await self.core.database.challenges.get(challenge_id)
        return ChallengeClosedError("expired" if row is None or row.is_open else str(row.status))

    def challenge_info(self, row: ChallengeRow) -> ChallengeInfo:
        engine = get_engine(row.game)
        options = _codec.load_options(row.options_json)
        return ChallengeInfo(
            challenge_id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            message_id=row.message_id,
            challenger_id=row.challenger_id,
            game=row.game,
            game_name=engine.info.name,
            players=row.players,
            min_players=fewest_players(row.game, row.options_json, row.players),
            lobby=tuple(
                ChallengePlayer(p.user_id, p.role.value, p.status.value) for p in row.lobby
            ),
            options=options,
            options_text=format_options(engine.info, options),
            status=str(row.status),
            game_id=row.game_id,
            created_at=row.created_at,
            expires_at=row.expires_at,
            clock=row.clock,
            clock_text=ClockSpec.parse(row.clock).describe(),
            seating=row.seating,
            rematch_of=row.rematch_of,
            start_position=row.start_position,
            rated=row.rated,
        )


def _checked_position(
    engine: Engine[Any, Any], text: str, options: Mapping[str, OptionValue], players: int
) -> str:
    """``text`` (stripped) once it is a position a game of ``players`` seats can start from:
    what ``python -m engines --players N --position TEXT`` accepts, and not already over.
    Raises :class:`ChallengeSetupError` with one sentence saying what is wrong."""
    text = text.strip()
    name = engine.info.name
    if not text:
        raise ChallengeSetupError(
            f"The position is empty: write a {name} position, or leave it out."
        )
    found = engine.position_players(text)
    if found is not None and found != players:
        raise ChallengeSetupError(f"That {name} position is for {found} players, not {players}.")
    try:
        state = position_start(engine, text, options, players, 0)
    except (UsageError, ValueError) as exc:
        raise ChallengeSetupError(
            sentence(f"{name} cannot start from that position: {exc}")
        ) from exc
    if engine.outcome(state) is not None:
        raise ChallengeSetupError(f"That {name} position is already over: nobody could move.")
    return text


def _seat_teams(game: str, options_json: str, players: int) -> list[int | None] | None:
    """``seats.team`` of a new game: each seat's side by index when the options group seats
    into sides (Orbs ``teams``; :func:`~bot.service.options.sides_of`), else ``None`` (every
    seat alone: no teams to store)."""
    sides = sides_of(game, options_json, players)
    if all(len(side) == 1 for side in sides):
        return None
    team_of: list[int | None] = [None] * players
    for index, side in enumerate(sides):
        for seat in side:
            team_of[seat] = index
    return team_of


def _challenge_seats(
    engine: Engine[Any, Any],
    options: Mapping[str, OptionValue],
    *,
    players: int | None,
    start_position: str | None,
    people: int,
    bot_seats: int,
) -> int:
    """The number of seats of a new challenge, checked by setting up a game and throwing it
    away: ``players`` if typed, else the start position's own count (if its notation has
    one), else :func:`_seats_for` (the options' count, or the challenger, the ``people``
    named and the ``bot_seats``, or the game's usual count).

    Raises :class:`TooManySeatsError` when the bot seats do not fit; its ``limit`` says
    what set the seats: ``"players"`` (typed, or the position's), ``"options"`` or
    ``"game"`` (its maximum). Raises :class:`UsageError` for a count the game does not
    allow or options that do not fit it.
    """
    seats = players
    if seats is None and start_position is not None:
        seats = engine.position_players(start_position.strip())
    by_options = seats is None and engine.options_players(options) is not None
    limit = "options" if by_options else "players" if seats is not None else "game"
    if seats is None:
        named = people > 0 or bot_seats > 0
        seats = _seats_for(engine, options, 1 + people + bot_seats, named=named)
    most = engine.info.max_players
    if bot_seats and limit == "game" and seats > most:
        raise TooManySeatsError(
            engine.info.name, people=people, bots=bot_seats, seats=most, limit=limit
        )
    if bot_seats and 1 + people + bot_seats > seats:
        raise TooManySeatsError(
            engine.info.name, people=people, bots=bot_seats, seats=seats, limit=limit
        )
    engine.check_players(seats)
    engine.new_game(seats, options, 0)
    return seats


def _seats_for(
    engine: Engine[Any, Any], options: Mapping[str, OptionValue], least: int, *, named: bool
) -> int:
    """The seats of a challenge that gives no ``players``: the count the options name, if
    they name one (:meth:`~engines.base.Engine.options_players`: ``preset:teams6``, Orbs'
    ``teams=024-135``, names six); else the challenger and the ``least - 1`` opponents
    named (``named``), else the game's usual count."""
    return engine.options_players(options) or (least if named else engine.info.default_players)
