"""Pieces every presenter uses: mentions, seat labels, inline code, Discord timestamps and
lists of words; the error sentence, the apology and message splitting.

The underscore names are the package's own helpers, imported by its modules and not
re-exported by :mod:`bot.presenters`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import datetime

from bot.service import (
    GameSnapshot,
    InvalidMoveError,
    NotYourTurnError,
    Player,
    ServiceError,
    TooManySeatsError,
)
from bot.service.bot_seats import bot_name, is_anonymous, is_bot

__all__ = [
    "APOLOGY",
    "MESSAGE_LIMIT",
    "error_text",
    "mention",
    "seat_label",
    "split_message",
    "too_many_seats_text",
]


#: Discord's limit on a message's content, in characters.
MESSAGE_LIMIT = 2000

#: What a user sees when something unexpected broke (the details go to the log).
APOLOGY = "Sorry, something went wrong on my side. Nothing was changed; please try again."


#: How a player who used ``/forget-me`` is named (docs/ratings.md): their seats hold an
#: anonymous id that is no Discord user, so a mention of it would show as raw text.
ANONYMOUS_NAME = "Anonymous"


def mention(user_id: int) -> str:
    """``<@123>``: a user mention (it only pings if the message's allowed mentions say so);
    the bot's own seats are named instead, ``**Gameroom (level 3)**``, so it never pings
    itself (:mod:`bot.service.bot_seats`), and a forgotten player's anonymous id reads
    ``*Anonymous*`` (:func:`~bot.service.bot_seats.is_anonymous`)."""
    if is_bot(user_id):
        return f"**{bot_name(user_id)}**"
    if is_anonymous(user_id):
        return f"*{ANONYMOUS_NAME}*"
    return f"<@{user_id}>"


def _mentions(user_ids: Iterable[int]) -> str:
    return _join([mention(u) for u in user_ids])


def _players_named(
    snapshot: GameSnapshot, user_ids: Iterable[int], *, with_seats: bool = False
) -> str:
    """The players ``user_ids`` of ``snapshot`` as :func:`_mentions` names them, each followed
    by the seats it plays (:func:`seat_label`) when ``with_seats`` (``<@2> (Seat 1)``: the
    winners, whom an engine's score line names by seat), and anyway when two of the game's
    players share a name (an exhibition of level-1 bots: ``**Gameroom (level 1)** (Seat 2)``);
    then every player is named with seats, so that a line naming some by seat (an Orbs team
    draw with a level-1 bot on each team) tells every side apart."""
    players = dict.fromkeys(snapshot.user_ids)
    shared = Counter(mention(u) for u in players)
    with_seats = with_seats or any(count > 1 for count in shared.values())
    parts = []
    for user_id in user_ids:
        name = mention(user_id)
        if with_seats:
            seats = [seat_label(p.seat_name) for p in snapshot.players if p.user_id == user_id]
            name = f"{name} ({_join(seats)})"
        parts.append(name)
    return _join(parts)


def _join(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``; three or more items that hold a comma themselves
    (an Orbs team seat, "North-east, team A") are set apart by semicolons: ``a, x; b, y;
    and c, z`` (two are ``a, x and b, y``: "; and" between two read as a stray)."""
    if len(items) <= 1:
        return "".join(items)
    if len(items) == 2:
        return f"{items[0]} and {items[1]}"
    if any(", " in item for item in items):
        return f"{'; '.join(items[:-1])}; and {items[-1]}"
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _player(player: Player) -> str:
    """``<@1> (🟢 Green)``: who, and which seat (with its disc, :func:`seat_label`)."""
    return f"{mention(player.user_id)} ({seat_label(player.seat_name)})"


#: A coloured disc for seat names that are colours of pieces (Generator's G R Y B), so a seat
#: reads at a glance. White and Black are left plain: everyone knows them already.
_COLOUR_DISCS = {
    "green": "🟢",
    "red": "🔴",
    "yellow": "🟡",
    "blue": "🔵",
    "orange": "🟠",
    "purple": "🟣",
    "brown": "🟤",
}


def seat_label(seat_name: str) -> str:
    """``"Green"`` → ``"🟢 Green"``; a seat name that is not a colour stays as it is."""
    disc = _COLOUR_DISCS.get(seat_name.strip().lower())
    return f"{disc} {seat_name}" if disc else seat_name


def _seated(player: Player) -> str:
    """``🟢 Green — <@1>``: a seat and who plays it."""
    return f"{seat_label(player.seat_name)} — {mention(player.user_id)}"


def _code(text: str) -> str:
    return f"`{text.replace('`', '')}`"


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def _timestamp(moment: datetime, style: str = "R") -> str:
    """A Discord timestamp every reader sees in their own time zone (``R`` = relative)."""
    return f"<t:{int(moment.timestamp())}:{style}>"


#: A spec rule id as the engines cite them at the end of a reason: Arbos ``A17``,
#: Generatorb ``G13`` and ``D-G25``, Generator ``GEN-6`` and ``D-GEN-6``, Orbs ``ORB-8`` and
#: ``D-ORB-11``, Generation Zero ``R6.2``, ``D-30`` and its appendices' sections ``8.1``,
#: the position notation's reading rules ``check 4`` (Generator); a clause letter may follow
#: (``G28 c``). Only these families, so a cell or slot in brackets is kept.
_RULE_ID = (
    r"(?:(?:D-(?:GEN-|ORB-|[AG])?|GEN-|ORB-|[AGR]|check )\d+(?:\.\d+)*|\d+(?:\.\d+)+)"
    r"(?: [a-z]\b)?"
)
#: One id or a range of them (``A13–A15``, ``R6.1-R6.3``).
_RULE_SPAN = rf"{_RULE_ID}(?:\s*[–-]\s*{_RULE_ID})?"
#: A parenthesis holding only cited ids and ranges, with the space before it, at the end of
#: a sentence (a full stop, ``!`` or ``?`` and a space follow it, or a line's end): where the
#: engines put them. So a player's own ``(A5)`` echoed in a refusal ("Unknown word
#: '(A5)'") stays, as does a name in brackets mid-sentence (review 3).
_CITED_RULES = re.compile(rf"\s*\({_RULE_SPAN}(?:[,;]\s*{_RULE_SPAN})*\)(?=[.!?](?:\s|$)|\n|$)")


def error_text(error: ServiceError) -> str:
    """The ephemeral sentence for a user error, with the details that help fix it. The
    rule ids the engines cite, "(A17)", are for the log and the command line: players read
    the rules by ``/game rules``, which has none, so they are left out here."""
    if isinstance(error, InvalidMoveError):
        if error.kind == "ambiguous" and error.candidates:
            options = _join([_code(c) for c in error.candidates])
            return f"{_uncited(error.message)} Did you mean {options}?"
        if error.kind == "notation":
            return f"{_uncited(error.message)} `/game rules` explains the notation."
    if isinstance(error, NotYourTurnError) and error.waiting_for:
        played = f"your move {_code(error.just_played)} is played; " if error.just_played else ""
        return f"It is not your turn: {played}waiting for {_mentions(error.waiting_for)}."
    if isinstance(error, TooManySeatsError):
        return too_many_seats_text(error)
    return _uncited(error.message)


def _uncited(text: str) -> str:
    """``text`` without the spec rule ids cited in it (``_CITED_RULES``)."""
    return _CITED_RULES.sub("", text)


def too_many_seats_text(error: TooManySeatsError) -> str:
    """The refusal of a challenge to the bot whose seats (the challenger, the people named,
    the bot seats) pass the seats of the game (:class:`~bot.service.TooManySeatsError`): who
    was counted, against what, and what to leave out (``bot_level`` or a mention of the bot
    seats the bot as an opponent)."""
    counted = ["you"]
    people, name, seats = error.people, error.game_name, error.seats
    if people:
        counted.append(f"the {people} {'person' if people == 1 else 'people'} you named")
    counted.append("the bot" if error.bots == 1 else f"{error.bots} bots")
    who = _join(counted)
    if error.limit == "options":
        return f"Those {name} options seat {seats} players: {who} are too many."
    if error.limit == "players":
        return f"A game of {name} for {seats} players has no room for {who}."
    advice = (
        "Leave out `bot_level` (or the bot) to challenge them, or name fewer people."
        if people
        else "Name the bot once, or give `players:` for a larger table where the game has one."
    )
    return f"{name} is played by at most {seats} players: {who} are too many. {advice}"


def split_message(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """``text`` cut into messages of at most ``limit`` characters, at line breaks if possible."""
    chunks: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            chunks.append(current)
            current = line
        else:
            current = candidate
    if current:
        chunks.append(current)
    return chunks
