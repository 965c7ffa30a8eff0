"""Lobby decisions: what one press on a challenge changes, or the user's mistake.

Pure functions of the challenge as read (no database, no clock): each press — Accept, Join,
Decline, Leave, Start, and the challenger's Add bot and Remove bot — returns a
:class:`Press` (the presser's new place in the lobby, and whether the game starts or the
challenge closes) or raises the :class:`~bot.service.errors.ServiceError` the user sees.
:class:`~bot.service.lobby.Lobby` reads, decides with these, and writes with a
compare-and-set, deciding again when another press landed first.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache

from bot.service import _codec
from bot.service.bot_seats import bot_user_id
from bot.service.errors import LobbyError, NotChallengedError
from bot.service.options import format_options
from db import ChallengeEntry, ChallengePlayerRole, ChallengePlayerStatus, ChallengeRow
from engines import get_engine
from engines.base import UsageError

log = logging.getLogger(__name__)

__all__ = [
    "DECLINED",
    "INVITED",
    "LEFT",
    "SEATED",
    "Press",
    "accept_press",
    "bot_press",
    "decline_press",
    "fewest_players",
    "join_press",
    "leave_press",
    "remove_bot_press",
    "seated_after",
    "start_press",
    "take_seat",
]

SEATED = ChallengePlayerStatus.SEATED
INVITED = ChallengePlayerStatus.INVITED
DECLINED = ChallengePlayerStatus.DECLINED
LEFT = ChallengePlayerStatus.LEFT


@dataclass(frozen=True, slots=True)
class Press:
    """What one lobby press does: write ``entry`` (the presser's new place), and either
    start the game (``starts``) or close the challenge with ``closes_as`` — or neither."""

    entry: ChallengeEntry | None
    starts: bool = False
    closes_as: str | None = None


def seated_after(challenge: ChallengeRow, entry: ChallengeEntry | None) -> list[int]:
    """The users seated once ``entry`` is written, in listing order (a newcomer last)."""
    seated = []
    for player in challenge.lobby:
        changes = entry is not None and entry.user_id == player.user_id
        status = entry.status if entry is not None and changes else player.status
        if status is SEATED:
            seated.append(player.user_id)
    if entry is not None and entry.status is SEATED and challenge.entry_of(entry.user_id) is None:
        seated.append(entry.user_id)
    return seated


def take_seat(challenge: ChallengeRow, entry: ChallengeEntry) -> Press:
    """Seat ``entry``'s user; the game starts if that fills the last seat."""
    return Press(entry, starts=len(seated_after(challenge, entry)) == challenge.players)


def bot_press(challenge: ChallengeRow, user_id: int, *, level: int) -> Press:
    """Add bot: the challenger seats a bot of ``level`` in an open seat (the first bot user id
    of that level not yet in the lobby)."""
    if user_id != challenge.challenger_id:
        raise NotChallengedError("Only the challenger can add bots to this challenge.")
    if challenge.open_seats < 1:
        raise LobbyError("Every seat is taken or reserved, so there is no room for a bot.")
    # A bot removed earlier gets its lobby row back, so the ids stay few however often the
    # challenger adds and removes bots (a lobby holds at most ``players`` bots at once).
    taken = {p.user_id for p in challenge.lobby if p.status is SEATED}
    instance = next(k for k in range(challenge.players + 1) if bot_user_id(level, k) not in taken)
    entry = ChallengeEntry(bot_user_id(level, instance), ChallengePlayerRole.BOT, SEATED)
    return take_seat(challenge, entry)


def remove_bot_press(challenge: ChallengeRow, user_id: int, *, bot_id: int) -> Press:
    """Remove bot: the challenger takes back the seat of bot ``bot_id`` (a bot user id,
    :mod:`bot.service.bot_seats`) seated in this lobby; the seat is open again. Raises
    :class:`NotChallengedError` for anyone else and :class:`LobbyError` when that bot holds
    no seat here (removed meanwhile: a double click, or a stale menu)."""
    if user_id != challenge.challenger_id:
        raise NotChallengedError("Only the challenger can remove bots from this challenge.")
    entry = challenge.entry_of(bot_id)
    if entry is None or entry.role is not ChallengePlayerRole.BOT or entry.status is not SEATED:
        raise LobbyError("That bot no longer has a seat in this challenge.")
    return Press(ChallengeEntry(bot_id, ChallengePlayerRole.BOT, LEFT))


def accept_press(challenge: ChallengeRow, user_id: int) -> Press:
    """Accept: only for a pending invitation (the seat reserved for the user)."""
    mine = challenge.entry_of(user_id)
    if user_id == challenge.challenger_id:
        raise NotChallengedError("You cannot accept your own challenge.")
    if mine is not None and mine.status is SEATED:
        raise LobbyError("You already have a seat in this challenge.")
    if mine is not None and mine.role is ChallengePlayerRole.INVITED and mine.status is not INVITED:
        raise LobbyError("You gave your seat up; press Join if one is still open.")
    if mine is None or mine.status is not INVITED:
        invited = any(e.role is ChallengePlayerRole.INVITED for e in challenge.lobby)
        if mine is None and not invited and challenge.open_seats:
            # An open challenge posted before the lobby existed shows Accept, not Join.
            return join_press(challenge, user_id)
        if challenge.open_seats:
            raise NotChallengedError(
                "That invitation is for someone else; press Join to take an open seat."
            )
        raise NotChallengedError("This challenge is for someone else.")
    return take_seat(challenge, ChallengeEntry(user_id, mine.role, SEATED))


def join_press(challenge: ChallengeRow, user_id: int) -> Press:
    """Join: an open seat for anyone not seated; an invited user's Join is an Accept."""
    mine = challenge.entry_of(user_id)
    if user_id == challenge.challenger_id:
        raise LobbyError("You made this challenge, so you already have a seat.")
    if mine is not None and mine.status is SEATED:
        raise LobbyError("You already have a seat in this challenge.")
    if mine is not None and mine.status is INVITED:
        return take_seat(challenge, ChallengeEntry(user_id, mine.role, SEATED))
    if challenge.open_seats < 1:
        raise LobbyError("Every seat is taken or reserved for an invited player.")
    role = mine.role if mine is not None else ChallengePlayerRole.JOINED
    return take_seat(challenge, ChallengeEntry(user_id, role, SEATED))


def decline_press(challenge: ChallengeRow, user_id: int) -> Press:
    """Decline: a pending invitation only. A two-seat challenge closes as declined (its
    only invitation is refused); with more seats the user's seat opens for anyone."""
    mine = challenge.entry_of(user_id)
    if mine is None or mine.status is not INVITED:
        if user_id == challenge.challenger_id:
            raise NotChallengedError("You made this challenge: press Cancel to call it off.")
        if mine is not None and mine.status is SEATED:
            raise NotChallengedError("You have already accepted; press Leave to give up your seat.")
        raise NotChallengedError("Only an invited player can decline this challenge.")
    entry = ChallengeEntry(user_id, mine.role, DECLINED)
    return Press(entry, closes_as="declined" if challenge.players == 2 else None)


def leave_press(challenge: ChallengeRow, user_id: int) -> Press:
    """Leave: a seated user other than the challenger gives the seat up."""
    mine = challenge.entry_of(user_id)
    if user_id == challenge.challenger_id:
        raise NotChallengedError("You made this challenge: press Cancel to call it off.")
    if mine is None or mine.status is not SEATED:
        if mine is not None and mine.status is INVITED:
            raise NotChallengedError(
                "You have not accepted yet; press Decline to turn the invitation down."
            )
        raise NotChallengedError("You do not have a seat in this challenge.")
    return Press(ChallengeEntry(user_id, mine.role, LEFT))


@lru_cache(maxsize=256)
def fewest_players(game: str, options_json: str, players: int) -> int:
    """The fewest players a challenge of ``players`` seats of ``game`` with these options
    (as stored, JSON) can start with: the game's ``min_players``, raised while the options
    do not fit fewer seats (Orbs' ``teams=02-13`` names all four, and spec orbs makes
    "teams that do not name every seat exactly once" a usage error), and ``players`` when
    only a full table fits. Asks the engine for a start position of each smaller count
    (cached: a lobby is drawn after every press)."""
    engine = get_engine(game)
    try:
        options = engine.resolve_options(_codec.load_options(options_json))
    except (UsageError, ValueError):
        return players  # refused at the start, with the engine's own sentence
    for count in range(engine.info.min_players, players):
        try:
            engine.new_game(count, options, 0)
        except (UsageError, ValueError):
            continue
        except Exception:
            # An engine that fails otherwise at a smaller count does not fit it either; the
            # lobby must still be drawn (this runs for every lobby, in the expiry loop too).
            log.exception("%s: no start for %d players with %s", game, count, options_json)
            continue
        return count
    return players


def start_press(challenge: ChallengeRow, user_id: int) -> Press:
    """Start: the challenger, for a game that allows fewer players than seats (with the
    challenge's options: :func:`fewest_players`), once at least that many are seated."""
    if user_id != challenge.challenger_id:
        raise NotChallengedError("Only the challenger can start the game.")
    engine = get_engine(challenge.game)
    info = engine.info
    fewest = fewest_players(challenge.game, challenge.options_json, challenge.players)
    if info.min_players >= challenge.players:
        raise LobbyError(
            f"{info.name} needs all {challenge.players} seats filled; "
            "the game starts by itself once they are."
        )
    if fewest >= challenge.players:
        options = format_options(info, _codec.load_options(challenge.options_json))
        raise LobbyError(
            f"With `{options}`, {info.name} needs all {challenge.players} seats filled; "
            "the game starts by itself once they are."
        )
    if challenge.start_position is not None:
        raise LobbyError(
            f"This game starts from a position for {challenge.players} players, so it starts "
            "by itself once every seat is filled."
        )
    seated = len(challenge.seated_ids)
    if seated < fewest:
        raise LobbyError(
            f"{info.name} needs at least {fewest} players to start; "
            f"{seated} {'has' if seated == 1 else 'have'} a seat so far."
        )
    return Press(None, starts=True)
