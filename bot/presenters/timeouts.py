"""Clocks running out: the post when a seat ran out of time (a soft clock's invitation to
claim, a time-out, a seat that left), the notice once claimed, and the last warning before a
clock runs out.
"""

from __future__ import annotations

from bot.presenters.common import _code, _mentions, _player, _timestamp, mention, seat_label
from bot.presenters.turns import (
    _event_phrase,
    _shown_prompt,
    _to_move_text,
    _without_bare_pass,
    outcome_text,
    told_privately_line,
)
from bot.service.bot_seats import is_bot
from bot.service.logbook import TIMEOUT_EVENT
from bot.service.models import ClockEvent, ClockEventKind, FinalWarning

__all__ = [
    "CLAIM_CLOSED",
    "CLAIM_LAPSED",
    "claimed_text",
    "claimers_named",
    "clock_event_text",
    "final_warning_text",
]


#: What a soft clock's notice offers to claim, by :attr:`ClockEvent.on_claim`.
_CLAIMS = {
    "win": "the game",
    "leave": "their seat (they leave the game)",
    "rule": "a time-out (the game's time-out rule plays for them)",
}


def clock_event_text(event: ClockEvent) -> str:
    """The public post when a seat ran out of time (:class:`ClockEvent`).

    A soft clock that ran out invites the opponents to claim; a time-out says what the bot
    played (the game's rule) or that the seat lost or left, and whom its moves showed
    something privately (:func:`~bot.presenters.turns.told_privately_line`), then who moves
    next or how the game ended.
    """
    snapshot = event.snapshot
    player = _player(snapshot.players[event.seat])
    if event.kind is ClockEventKind.FLAGGED_SOFT:
        what = _CLAIMS.get(event.on_claim or "", "a time-out")
        return (
            f"⏰ {player} is out of time. {_mentions(claimers_named(event))}: you may claim "
            f"{what} with **Claim on time** or `/claim`; until someone does, "
            f"{mention(event.user_id)} may still move."
        )
    claimed = f" ({mention(event.claimed_by)} claimed)" if event.claimed_by is not None else ""
    if event.kind is ClockEventKind.TIMED_OUT:
        played = ", then ".join(_code(m) for m in event.moves)
        # The line already says the rule played these moves: their notices go. A forced pass
        # the bot then played for the next seat keeps its own ("… has no legal move and passes").
        told = (e for e in event.events if e.kind != TIMEOUT_EVENT)
        phrase = _event_phrase(
            _without_bare_pass(told, event.seat, event.moves),
            _shown_prompt(snapshot),
            snapshot.to_move,
        )
        line = f"⏰ {player} ran out of time{claimed}, so the game's time-out rule plays {played}"
        line += f": {phrase}." if phrase else "."
    elif event.kind is ClockEventKind.RESIGNED_ON_TIME:
        line = f"⏰ {player} ran out of time{claimed} and leaves the game"
        line += "; play goes on without them." if snapshot.is_active else "."
    else:
        line = f"⏰ {player} ran out of time{claimed}."
    line += told_privately_line(event.told_privately)
    if snapshot.is_active:
        return f"{line}\n{_to_move_text(snapshot)}"
    on_time = event.kind is ClockEventKind.RESIGNED_ON_TIME
    return f"{line}\n{outcome_text(snapshot, event.events, on_time=on_time)}"


def claimers_named(event: ClockEvent) -> tuple[int, ...]:
    """Whom a soft clock's notice names (and pings) as those who may claim: the people among
    :attr:`ClockEvent.opponent_user_ids` (the bots leave a claim to them), or the bots when
    no person may (a late bot seat, whose lateness is the platform's: nobody claims)."""
    people = tuple(u for u in event.opponent_user_ids if not is_bot(u))
    return people or event.opponent_user_ids


#: A soft clock's notice whose claim can no longer be made: the game has ended.
CLAIM_CLOSED = "This claim is no longer open: the game has ended."
#: A soft clock's notice once the game moved on before anyone claimed: the late player moved
#: (or, with three or more players, someone resigned and the turn passed on).
CLAIM_LAPSED = "This claim is no longer open: the game has moved on."


def claimed_text(event: ClockEvent) -> str:
    """A soft clock's notice once claimed (its button removed): who was out, who claimed."""
    player = _player(event.snapshot.players[event.seat])
    by = mention(event.claimed_by) if event.claimed_by is not None else "an opponent"
    return f"⏰ {player} was out of time; {by} claimed."


#: What a soft clock's final warning adds after "move before then", by
#: :attr:`FinalWarning.at_deadline`.
_AFTER_SOFT_DEADLINE = {
    "claim": "; after that an opponent may claim on time.",
    "bot_claims": "; after that the bot claims on time at once.",
}


def final_warning_text(warning: FinalWarning) -> str:
    """The last warning before a clock runs out, mentioning its player (whatever their
    reminder settings): ``⏰ <@1> (White), your hard clock in **Orbs** (game 7) runs out
    <t:…:R> (<t:…:t>): move before then.`` with a link to the last board when it is known.
    A soft clock's says what its deadline brings (:attr:`FinalWarning.at_deadline`):
    ``… your soft clock in … (<t:…:t>): move before then; after that an opponent may claim
    on time.``, or ``…; after that the bot claims on time at once.`` when only bots could
    claim."""
    where = f"**{warning.game_name}** (game {warning.game_id})"
    soft = _AFTER_SOFT_DEADLINE.get(warning.at_deadline)
    mode, then = ("hard", ".") if soft is None else ("soft", soft)
    text = (
        f"⏰ {mention(warning.user_id)} ({seat_label(warning.seat_name)}), your {mode} clock in "
        f"{where} runs out {_timestamp(warning.deadline)} ({_timestamp(warning.deadline, 't')}): "
        f"move before then{then}"
    )
    if warning.board_message_id is not None:
        guild = "@me" if warning.guild_id is None else str(warning.guild_id)
        place = f"{guild}/{warning.channel_id}/{warning.board_message_id}"
        text += f" The board: https://discord.com/channels/{place}"
    return text
