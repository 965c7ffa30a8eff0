"""Challenges: the lobby post, edited after every press, and the same post once the game
started or the challenge was declined, cancelled or expired.
"""

from __future__ import annotations

from collections import Counter

from bot.presenters.clocks import clock_line
from bot.presenters.common import _code, _join, _mentions, _seated, _timestamp, mention
from bot.service import ChallengeInfo, GameSnapshot

__all__ = ["challenge_closed_text", "challenge_text"]


def _challenge_head(info: ChallengeInfo, verb: str) -> str:
    """The first line of a lobby post: who ``verb`` whom (the invited, the bots seated,
    ``**Gameroom (level 3)** ×2`` for several of one level, and ``anyone`` for open seats)
    to which game, the number of seats beyond two, and the options that are not the
    default. While the lobby is open (:attr:`ChallengeInfo.is_open`) the invited who declined are
    left out, their seats being open to anyone (the post lists them under "Declined:");
    once it is closed, the heading tells whom the challenge named."""
    bots = Counter(mention(p.user_id) for p in info.lobby if p.role == "bot" and p.holds_seat)
    seated_bots = [name if count == 1 else f"{name} ×{count}" for name, count in bots.items()]
    size = f" ({info.players} players)" if info.players > 2 else ""
    options = f" with {_code(info.options_text)}" if info.options_text else ""
    if _is_exhibition(info):
        opened = "opens" if verb == "challenges" else "opened"
        between = f" between {_join(seated_bots)}" if seated_bots else ""
        return (
            f"{mention(info.challenger_id)} {opened} an exhibition game of "
            f"**{info.game_name}**{size}{options}{between}"
        )
    named = info.invited_ids
    if info.is_open:
        named = tuple(u for u in named if u not in info.declined_ids)
    whom = [mention(u) for u in named] + seated_bots
    if info.players > 1 + len(named) + bots.total():
        whom.append("anyone")
    return (
        f"{mention(info.challenger_id)} {verb} {_join(whom)} to **{info.game_name}**{size}{options}"
    )


def _is_exhibition(info: ChallengeInfo) -> bool:
    """An exhibition (``/challenge exhibition:true``): its challenger gave their own seat up
    at once (``Lobby.open_exhibition``), which an ordinary challenger cannot do (they press
    Cancel), so every seat goes to the bot."""
    return any(p.user_id == info.challenger_id and p.status == "left" for p in info.lobby)


_LOBBY_NOTES = {
    ("challenger", "seated"): "challenger",
    ("invited", "seated"): "accepted",
    ("invited", "invited"): "invited",
    ("joined", "seated"): "joined",
}


def challenge_text(info: ChallengeInfo, *, expiry: bool = True) -> str:
    """The lobby post (buttons are added by the caller), edited after every press.
    ``expiry=False`` leaves out when it expires: the post of a lobby whose bots are about to
    sit, whose short first expiry is not the one it will have (``lobby.BOTS_TO_SIT_WITHIN``).

    The heading, then one numbered line per seat: who holds it and how (``challenger``,
    ``invited``, ``accepted``, ``joined``) or ``open``; then who declined, the clock, a
    custom start position, who may answer (:func:`_answer_note`), how the game starts and
    when the challenge expires::

        <@1> challenges <@2> and anyone to **Generator** (3 players).
        1. <@1> (challenger)
        2. <@2> (invited)
        3. open
        Only <@2> may accept or decline. Anyone may join: press **Join** to take an open
        seat. The game starts when every seat is filled, or when <@1> presses **Start**
        with at least 2 players. The challenge expires <t:…:R>.
    """
    lines = [f"{_challenge_head(info, 'challenges')}."]
    holders = [p for p in info.lobby if p.holds_seat]
    for number, player in enumerate(holders, start=1):
        note = _LOBBY_NOTES.get((player.role, player.status), player.status)
        lines.append(f"{number}. {mention(player.user_id)} ({note})")
    for number in range(len(holders) + 1, info.players + 1):
        lines.append(f"{number}. open")
    if info.declined_ids:
        lines.append(f"Declined: {_mentions(info.declined_ids)}.")
    if info.clock != "none":
        lines.append(f"{clock_line(info.clock_text)}.")
    if info.start_position is not None:
        lines.append("Starts from a custom position, so the game is casual (not rated).")
    elif not info.rated:
        lines.append("A casual game (not rated).")
    notes = _answer_note(info)
    if info.min_players < info.players and info.start_position is None:
        notes.append(
            f"The game starts when every seat is filled, or when {mention(info.challenger_id)} "
            f"presses **Start** with at least {info.min_players} players."
        )
    elif info.players > 2:
        notes.append("The game starts when every seat is filled.")
    if expiry:
        notes.append(f"The challenge expires {_timestamp(info.expires_at)}.")
    lines.append(" ".join(notes))
    return "\n".join(lines)


def _answer_note(info: ChallengeInfo) -> list[str]:
    """Who may answer an open challenge, as sentences: ``Only <@2> may accept or decline.``
    for pending invitations, ``Anyone may join: press **Join** to take an open seat.`` for
    open seats (an exhibition's are the bot's), both when there are both, nothing when every
    seat is held."""
    notes = []
    if info.pending_ids:
        notes.append(f"Only {_mentions(info.pending_ids)} may accept or decline.")
    if info.open_seats and _is_exhibition(info):
        notes.append("Its seats are the bot's: it starts once they are all seated.")
    elif info.open_seats:
        notes.append("Anyone may join: press **Join** to take an open seat.")
    return notes


def challenge_closed_text(info: ChallengeInfo, *, game: GameSnapshot | None = None) -> str:
    """The lobby post once the game started, or the challenge was declined, cancelled or
    expired (buttons removed). A started game says where it is played ("below" in the
    lobby's channel, else the thread's link) and lists its seats: ``🟢 Green — <@1>``, and one
    started early says how many of the seats were filled, and who was invited and had not
    answered (their reserved seats went with the early start)."""
    head = _challenge_head(info, "challenged")
    if info.status == "accepted":
        if game is None:
            return f"{head}: the game has started."
        seats = "\n".join(_seated(p) for p in game.players)
        # Started early (Start): the heading's seat count is the challenge's, not the game's.
        early = (
            f", started with {len(game.players)} of the {info.players} seats filled"
            if len(game.players) < info.players
            else ""
        )
        playing = set(game.user_ids)
        unanswered = [u for u in info.pending_ids if u not in playing]
        if unanswered:
            early += f" (without {_mentions(unanswered)}, who had not answered)"
        # A game in the lobby's own channel follows the lobby: naming that channel read as
        # if it were elsewhere (exploratory pass 10); a thread is named.
        where = "below" if game.channel_id == info.channel_id else f"in <#{game.channel_id}>"
        return f"{head}: the game is on {where}{early}.\n{seats}"
    if info.status == "declined":
        by = f" by {_mentions(info.declined_ids)}" if info.declined_ids else ""
        return f"{head}: declined{by}."
    if info.status == "cancelled":
        return f"{head}: cancelled."
    if info.status == "expired":
        if len(info.seated_ids) < 2:
            return f"{head}: nobody answered in time, so the challenge expired."
        return f"{head}: the seats were not filled in time, so the challenge expired."
    return f"{head}."
