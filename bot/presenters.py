"""Message text for snapshots, turns, challenges and errors.

No rules live here: the engine says what happened (its events' ``text``) and how the game
ended; presenters only add names, mentions and Discord markdown. Every function is pure, so
tests check the text without a Discord connection. Moves are shown as inline code, because
notation such as ``c3*d4`` would otherwise turn into markdown.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta

from bot.service import (
    ChallengeInfo,
    DrawOffer,
    GameSnapshot,
    InvalidMoveError,
    MoveRecord,
    NotYourTurnError,
    Player,
    ServiceError,
    TurnResult,
)
from bot.service.clocks import format_duration
from bot.service.models import (
    ClockEvent,
    ClockEventKind,
    FinalWarning,
    PrivateView,
    SeatClockInfo,
    TakebackAnswer,
    TakebackRequest,
)
from bot.service.spectators import GameListing, GamesList, GamesScope, WatchResult
from engines.base import Event, GameInfo

__all__ = [
    "APOLOGY",
    "CLAIM_CLOSED",
    "DRAW_OFFER_CLOSED",
    "MESSAGE_LIMIT",
    "abort_text",
    "board_caption",
    "challenge_closed_text",
    "challenge_text",
    "claimed_text",
    "clock_event_text",
    "clock_line",
    "decision_text",
    "draw_answer_text",
    "draw_offer_text",
    "error_text",
    "final_warning_text",
    "game_info_text",
    "game_started_text",
    "mention",
    "move_ack_text",
    "move_list_text",
    "outcome_text",
    "private_view_text",
    "resign_text",
    "rules_text",
    "seat_label",
    "split_message",
    "time_left_text",
    "turn_text",
]

#: Discord's limit on a message's content, in characters.
MESSAGE_LIMIT = 2000
#: What a user sees when something unexpected broke (the details go to the log).
APOLOGY = "Sorry, something went wrong on my side. Nothing was changed; please try again."

#: A draw offer post whose offer was answered, withdrawn or overtaken by a move.
DRAW_OFFER_CLOSED = "This draw offer is no longer open: it was answered, or a move came first."

#: How the bot's own endings read; engine endings come from the engine's ``ended`` event.
_BOT_TERMINATIONS = {
    "resignation": "by resignation",
    "agreement": "by agreement",
    "aborted": "aborted",
    "time": "on time",
}


def mention(user_id: int) -> str:
    """``<@123>``: a user mention (it only pings if the message's allowed mentions say so)."""
    return f"<@{user_id}>"


def _mentions(user_ids: Iterable[int]) -> str:
    return _join([mention(u) for u in user_ids])


def _join(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _player(player: Player) -> str:
    return f"{mention(player.user_id)} ({player.seat_name})"


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


def _event_phrase(events: Iterable[Event]) -> str:
    return "; ".join(e.text for e in events if e.kind != "ended")


def _ending_phrase(snapshot: GameSnapshot, events: Iterable[Event] = ()) -> str:
    """``South wins by reaching the enemy core``: the engine's words when it ended the game."""
    for event in events:
        if event.kind == "ended":
            return _capitalised(event.text)
    for move in reversed(snapshot.last_moves):
        for event in move.events:
            if event.kind == "ended":
                return _capitalised(event.text)
    outcome = snapshot.outcome
    if outcome is None:
        return ""
    how = _BOT_TERMINATIONS.get(outcome.termination, f"by {outcome.termination.replace('_', ' ')}")
    return f"{'Drawn' if outcome.is_draw else 'Won'} {how}"


def outcome_text(snapshot: GameSnapshot, events: Iterable[Event] = ()) -> str:
    """One line on how the game ended, mentioning the winners (of a draw: every player);
    empty while it goes on."""
    if snapshot.status == "aborted":
        return "The game was aborted; it has no result."
    outcome = snapshot.outcome
    if outcome is None:
        return ""
    phrase = _ending_phrase(snapshot, events)
    if outcome.is_draw:
        return f"{phrase}. The game between {_mentions(snapshot.user_ids)} is drawn."
    winners = [snapshot.players[s].user_id for s in outcome.winners]
    verb = "wins" if len(winners) == 1 else "win"
    return f"{phrase}. {_mentions(winners)} {verb}!"


def _to_move_text(snapshot: GameSnapshot) -> str:
    """``<@2>, your move (North).``, plus the moves themselves when there are only a few."""
    players = [snapshot.players[s] for s in snapshot.to_move]
    names = _join([p.seat_name for p in players])
    text = f"{_mentions(dict.fromkeys(p.user_id for p in players))}, your move ({names})."
    clocks = _to_move_clocks(snapshot)
    if clocks:
        text = f"{text} {clocks}"
    if snapshot.prompt:
        text = f"{text} {snapshot.prompt}"
    only = snapshot.only_moves
    if len(only) == 1:
        return f"{text} Your only legal move is {_code(only[0])}: play {_code('/move ' + only[0])}."
    if only:
        return f"{text} Your only legal moves are {_join([_code(m) for m in only])}."
    return text


def turn_text(result: TurnResult) -> str:
    """The public post after a move: who played what, what happened, who is next.

    ``<@1> (South) played `a1-a3`: the orb on a1 moves to a3; an orb enters a1 from the
    supply.`` then either ``<@2>, your move (North).`` or the result.
    """
    snapshot = result.snapshot
    mover = snapshot.players[result.seat]
    phrase = _event_phrase(result.events)
    line = f"{_player(mover)} played {_code(result.move)}" + (f": {phrase}." if phrase else ".")
    if result.automatic:
        line += f" Then: {', '.join(_code(c) for c in result.automatic)}."
    if result.declined_draw_offer:
        line += " The draw offer is off."
    if snapshot.is_active:
        return f"{line}\n{_to_move_text(snapshot)}"
    return f"{line}\n{outcome_text(snapshot, result.events)}"


def decision_text(result: TurnResult) -> str:
    """The public line after a decision that leaves the same seat to decide again
    (:attr:`TurnResult.turn_goes_on`): no board, no ping, only what everyone may know.

    ``<@1> (Green) played `peek 1.2`: looks at a card of Red. Green decides again.``
    """
    mover = result.snapshot.players[result.seat]
    phrase = _event_phrase(result.events)
    line = f"{_player(mover)} played {_code(result.move)}" + (f": {phrase}." if phrase else ".")
    if result.automatic:
        line += f" Then: {', '.join(_code(c) for c in result.automatic)}."
    return f"{line} {seat_label(mover.seat_name)} decides again."


def _private_lines(events: Iterable[Event]) -> list[str]:
    return [f"• {_capitalised(e.text)}" for e in events]


def move_ack_text(result: TurnResult, *, posted: bool) -> str:
    """The mover's private confirmation.

    Says so when the public post could not be made; lists what only the mover's seat may
    see of this move (:attr:`TurnResult.private_events`); and when the mover decides again
    (:attr:`TurnResult.turn_goes_on`), what is pending — the engine's prompt.
    """
    what = "board" if not result.turn_goes_on else "move"
    if posted:
        lines = [f"Played {_code(result.move)}."]
    else:
        lines = [
            f"Played {_code(result.move)}, but I could not post the {what} in this channel; "
            "`/board` shows it."
        ]
    if result.private_events:
        lines.append("Only you see:")
        lines.extend(_private_lines(result.private_events))
    if result.turn_goes_on:
        prompt = result.snapshot.prompt
        lines.append(f"Still your turn: {prompt}" if prompt else "Still your turn.")
    return "\n".join(lines)


def private_view_text(private: PrivateView) -> str:
    """The text beside a player's private picture ("My view", ``/hand``), ephemeral.

    Which game and seat, what the seat must decide now (the engine's prompt) or that it is
    waiting, and its latest private events with their plies, oldest first.
    """
    head = (
        f"**{private.game_name}** · game {private.game_id} · ply {private.ply} · "
        f"your private view as {seat_label(private.seat_name)}"
    )
    lines = [head]
    if not private.is_active:
        lines.append("The game is over.")
    elif private.to_move:
        lines.append(
            f"Your decision: {private.prompt}" if private.prompt else "It is your decision."
        )
    else:
        lines.append("Not your decision now.")
    if private.events:
        lines.append("Only you saw:")
        lines.extend(
            f"• ply {item.ply}: {_capitalised(item.event.text)}" for item in private.events
        )
    return "\n".join(lines)


def game_started_text(snapshot: GameSnapshot) -> str:
    """The first post of a game: players and seats, options, who moves first."""
    seats = _join(
        [f"{mention(p.user_id)} plays {seat_label(p.seat_name)}" for p in snapshot.players]
    )
    lines = [f"**{snapshot.game_name}** begins: {seats}."]
    if snapshot.options_text:
        lines.append(f"Options: {_code(snapshot.options_text)}.")
    if snapshot.clocks:
        lines.append(f"{clock_line(snapshot.clock_text)}.")
    lines.append(_to_move_text(snapshot) if snapshot.is_active else outcome_text(snapshot))
    return "\n".join(lines)


def board_caption(snapshot: GameSnapshot) -> str:
    """A short caption under a board picture (``/board``)."""
    head = f"**{snapshot.game_name}** · game {snapshot.game_id} · ply {snapshot.ply}"
    if snapshot.is_active:
        players = [snapshot.players[s] for s in snapshot.to_move]
        return f"{head} · {_join([_player(p) for p in players])} to move"
    return f"{head} · {outcome_text(snapshot)}"


def _challenge_head(info: ChallengeInfo, verb: str) -> str:
    """The first line of a lobby post: who ``verb`` whom (``anyone`` for open seats) to
    which game, the number of seats beyond two, and the options that are not the default."""
    whom = [mention(u) for u in info.invited_ids]
    if info.players > 1 + len(whom):
        whom.append("anyone")
    size = f" ({info.players} players)" if info.players > 2 else ""
    options = f" with {_code(info.options_text)}" if info.options_text else ""
    return (
        f"{mention(info.challenger_id)} {verb} {_join(whom)} to **{info.game_name}**{size}{options}"
    )


_LOBBY_NOTES = {
    ("challenger", "seated"): "challenger",
    ("invited", "seated"): "accepted",
    ("invited", "invited"): "invited",
    ("joined", "seated"): "joined",
}


def challenge_text(info: ChallengeInfo) -> str:
    """The lobby post (buttons are added by the caller), edited after every press.

    The heading, then one numbered line per seat: who holds it and how (``challenger``,
    ``invited``, ``accepted``, ``joined``) or ``open``; then who declined, how to take part
    and when the challenge expires::

        <@1> challenges <@2> and anyone to **Generator** (3 players).
        1. <@1> (challenger)
        2. <@2> (invited)
        3. open
        Press **Join** to take an open seat. The game starts when every seat is filled, or
        when <@1> presses **Start** with at least 2 players. The challenge expires <t:…:R>.
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
    notes = []
    if info.open_seats:
        notes.append("Press **Join** to take an open seat.")
    if info.min_players < info.players:
        notes.append(
            f"The game starts when every seat is filled, or when {mention(info.challenger_id)} "
            f"presses **Start** with at least {info.min_players} players."
        )
    elif info.players > 2:
        notes.append("The game starts when every seat is filled.")
    notes.append(f"The challenge expires {_timestamp(info.expires_at)}.")
    lines.append(" ".join(notes))
    return "\n".join(lines)


def challenge_closed_text(info: ChallengeInfo, *, game: GameSnapshot | None = None) -> str:
    """The lobby post once the game started, or the challenge was declined, cancelled or
    expired (buttons removed). A started game lists its seats: ``🟢 Green — <@1>``."""
    head = _challenge_head(info, "challenged")
    if info.status == "accepted":
        if game is None:
            return f"{head}: the game has started."
        seats = "\n".join(_seated(p) for p in game.players)
        return f"{head}: the game is on in <#{game.channel_id}>.\n{seats}"
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


def draw_offer_text(offer: DrawOffer) -> str:
    """The public draw offer (answer buttons are added by the caller)."""
    return (
        f"{mention(offer.user_id)} offers a draw. "
        f"{_mentions(offer.opponent_user_ids)}, do you accept? (A move declines it.)"
    )


def draw_answer_text(snapshot: GameSnapshot, *, accepted: bool, by_user_id: int) -> str:
    """The draw offer post once answered."""
    if accepted:
        return f"{mention(by_user_id)} accepted the draw offer. {outcome_text(snapshot)}"
    return f"The draw offer was declined by {mention(by_user_id)}; the game goes on."


def resign_text(snapshot: GameSnapshot, user_id: int) -> str:
    """The public post when a player resigns: the result, or, when the game goes on without
    them (three or more players), who left and who is to move."""
    if not snapshot.is_active:
        return f"{mention(user_id)} resigns. {outcome_text(snapshot)}"
    seats = _join([seat_label(p.seat_name) for p in snapshot.players if p.user_id == user_id])
    return (
        f"{mention(user_id)} ({seats}) resigns and leaves the game; play goes on without them."
        f"\n{_to_move_text(snapshot)}"
    )


def abort_text(snapshot: GameSnapshot, user_id: int) -> str:
    """The public post when a game is aborted: who stopped it, and who was playing."""
    return (
        f"{mention(user_id)} aborted the game of **{snapshot.game_name}** between "
        f"{_mentions(snapshot.user_ids)}; it has no result."
    )


def game_info_text(snapshot: GameSnapshot) -> str:
    """``/game info``: players, options, ply, last moves and whose turn (or the result)."""
    lines = [
        f"**{snapshot.game_name}** · game {snapshot.game_id} · ply {snapshot.ply}",
        "Players: " + _join([_seated(p) for p in snapshot.players]),
        f"Options: {_code(snapshot.options_text) if snapshot.options_text else 'standard'}",
    ]
    if snapshot.clocks:
        lines.append(clock_line(snapshot.clock_text))
    if snapshot.is_active:
        players = [snapshot.players[s] for s in snapshot.to_move]
        lines.append("To move: " + _join([_player(p) for p in players]))
        if snapshot.clocks:
            banks = [
                f"{seat_label(snapshot.players[info.seat].seat_name)} {time_left_text(info)}"
                for info in snapshot.clocks
            ]
            lines.append("Time left: " + " · ".join(banks))
    else:
        lines.append("Result: " + outcome_text(snapshot))
    if snapshot.draw_offer_seat is not None:
        offerer = snapshot.players[snapshot.draw_offer_seat]
        lines.append(f"Draw offered by {_player(offerer)}.")
    if snapshot.last_moves:
        recent = " ".join(f"{m.ply}.\u00a0{_code(m.text)}" for m in snapshot.last_moves)
        lines.append(f"Last moves: {recent}")
    if snapshot.position:
        lines.append(f"Position: {_code(snapshot.position)}")
    else:
        lines.append("Position: secret until the game ends (it holds the players' hidden cards).")
    return "\n".join(lines)


def move_list_text(snapshot: GameSnapshot, moves: Sequence[MoveRecord]) -> str:
    """``/game moves``: the whole log, numbered.

    Two players alternating read as rounds (``1. a1-a3 h8-h6``); any other log (chance,
    more seats) lists one ply per line with its seat. Plain text, no markdown, so it can
    also be sent as a file.
    """
    if not moves:
        return f"{snapshot.game_name}, game {snapshot.game_id}: no moves yet."
    head = f"{snapshot.game_name}, game {snapshot.game_id}: {len(moves)} plies"
    if len(snapshot.players) == 2 and all(m.seat == i % 2 for i, m in enumerate(moves)):
        rounds = [
            f"{n + 1}. {' '.join(m.text for m in moves[2 * n : 2 * n + 2])}"
            for n in range((len(moves) + 1) // 2)
        ]
        return "\n".join([head, *rounds])
    lines = []
    for move in moves:
        who = "chance" if move.seat is None else snapshot.players[move.seat].seat_name
        lines.append(f"{move.ply}. {who}: {move.text}")
    return "\n".join([head, *lines])


def rules_text(info: GameInfo) -> str:
    """``/game rules``: the engine's rules summary and notation help."""
    return f"{info.rules_summary}\n\n**Notation**\n{info.notation_help}"


# ---- clocks --------------------------------------------------------------------------------


def clock_line(clock_text: str) -> str:
    """``⏱️ Clock: soft clock: 2d to start, +1d per move, at most 4d`` (``ClockSpec.describe``)."""
    return f"⏱️ Clock: {clock_text}"


def _short(delta: timedelta) -> str:
    """A duration in its two largest units: ``1d 2h``, ``3h 12m``, ``45s``, ``0s``."""
    units = _UNIT.findall(format_duration(max(delta, timedelta(0))))
    return " ".join(units[:2])


#: One ``<number><unit>`` of a :func:`~bot.service.clocks.format_duration` text.
_UNIT = re.compile(r"\d+[dhms]")


def time_left_text(info: SeatClockInfo) -> str:
    """One seat's clock in a few words, for ``/game info`` and the turn text.

    ``1d 2h`` (stopped), ``1d 2h, runs out <t:…:R>`` (running), ``out of time`` (soft,
    unclaimed), ``1d 2h, on vacation until <t:…:f>`` (paused).
    """
    if info.flagged:
        return "out of time"
    left = _short(info.time_left)
    if info.paused_until is not None:
        return f"{left}, on vacation until {_timestamp(info.paused_until, 'f')}"
    if info.running and info.deadline is not None:
        return f"{left}, runs out {_timestamp(info.deadline)}"
    return left


def _to_move_clocks(snapshot: GameSnapshot) -> str:
    """What the seats to move should know of their clocks: ``⏱️ 1d 2h left, until
    <t:…:R>.``, or that their player is on vacation, or out of time."""
    notes = []
    several = len(snapshot.to_move) > 1
    for seat in snapshot.to_move:
        info = snapshot.clock_of(seat)
        if info is None:
            continue
        who = f"{seat_label(snapshot.players[seat].seat_name)}: " if several else ""
        if info.flagged:
            notes.append(f"{who}out of time, so the opponents may `/claim`")
        elif info.paused_until is not None:
            notes.append(
                f"{who}on vacation until {_timestamp(info.paused_until, 'f')}; the clock "
                f"({_short(info.time_left)} left) waits"
            )
        elif info.deadline is not None:
            notes.append(f"{who}{_short(info.time_left)} left, until {_timestamp(info.deadline)}")
    return f"⏱️ {'; '.join(notes)}." if notes else ""


def clock_event_text(event: ClockEvent) -> str:
    """The public post when a seat ran out of time (:class:`ClockEvent`).

    A soft clock that ran out invites the opponents to claim; a time-out says what the bot
    played (the game's rule) or that the seat lost or left, then who moves next or how the
    game ended.
    """
    snapshot = event.snapshot
    player = _player(snapshot.players[event.seat])
    if event.kind is ClockEventKind.FLAGGED_SOFT:
        return (
            f"⏰ {player} is out of time. {_mentions(event.opponent_user_ids)}: you may claim "
            f"the game with **Claim on time** or `/claim`; until someone does, "
            f"{mention(event.user_id)} may still move."
        )
    claimed = f" ({mention(event.claimed_by)} claimed)" if event.claimed_by is not None else ""
    if event.kind is ClockEventKind.TIMED_OUT:
        played = ", then ".join(_code(m) for m in event.moves)
        phrase = _event_phrase(e for e in event.events if e.kind not in ("automatic", "timeout"))
        line = f"⏰ {player} ran out of time{claimed}, so the game's time-out rule plays {played}"
        line += f": {phrase}." if phrase else "."
    elif event.kind is ClockEventKind.RESIGNED_ON_TIME:
        line = f"⏰ {player} ran out of time{claimed} and leaves the game"
        line += "; play goes on without them." if snapshot.is_active else "."
    else:
        line = f"⏰ {player} ran out of time{claimed}."
    if snapshot.is_active:
        return f"{line}\n{_to_move_text(snapshot)}"
    return f"{line}\n{outcome_text(snapshot, event.events)}"


#: A soft clock's notice whose claim can no longer be made: the game has ended.
CLAIM_CLOSED = "This claim is no longer open: the game has ended."


def claimed_text(event: ClockEvent) -> str:
    """A soft clock's notice once claimed (its button removed): who was out, who claimed."""
    player = _player(event.snapshot.players[event.seat])
    by = mention(event.claimed_by) if event.claimed_by is not None else "an opponent"
    return f"⏰ {player} was out of time; {by} claimed."


def final_warning_text(warning: FinalWarning) -> str:
    """The last warning before a hard clock runs out, mentioning its player (whatever their
    reminder settings): ``⏰ <@1> (White), your hard clock in **Orbs** (game 7) runs out
    <t:…:R> (<t:…:t>): move before then.`` with a link to the last board when it is known."""
    where = f"**{warning.game_name}** (game {warning.game_id})"
    text = (
        f"⏰ {mention(warning.user_id)} ({seat_label(warning.seat_name)}), your hard clock in "
        f"{where} runs out {_timestamp(warning.deadline)} ({_timestamp(warning.deadline, 't')}): "
        "move before then."
    )
    if warning.board_message_id is not None:
        guild = "@me" if warning.guild_id is None else str(warning.guild_id)
        place = f"{guild}/{warning.channel_id}/{warning.board_message_id}"
        text += f" The board: https://discord.com/channels/{place}"
    return text


def error_text(error: ServiceError) -> str:
    """The ephemeral sentence for a user error, with the details that help fix it."""
    if isinstance(error, InvalidMoveError):
        if error.kind == "ambiguous" and error.candidates:
            options = _join([_code(c) for c in error.candidates])
            return f"{error.message} Did you mean {options}?"
        if error.kind == "notation":
            return f"{error.message} `/game rules` explains the notation."
    if isinstance(error, NotYourTurnError) and error.waiting_for:
        return f"It is not your turn: waiting for {_mentions(error.waiting_for)}."
    return error.message


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


# ---- spectators ----
# /watch and the Watch button, watchers told of a board post, /games.

#: Discord pings at most this many users listed in one message's allowed mentions.
MAX_MENTIONS = 100
#: The first words of the line that mentions a thread game's watchers under a board post.
WATCHERS_LINE = "👀 Watching:"


def _hear_when(every_move: bool) -> str:
    return "after every move" if every_move else "at its end"


def watch_text(result: WatchResult, *, button: bool) -> str:
    """The ephemeral answer to ``/watch``, ``/unwatch`` or the Watch button.

    ``You are watching **Orbs** (game 7) in <#5>: you hear of it after every move, by a
    mention in its thread. Press **Watch** again to stop.``
    """
    game = f"**{result.game_name}** (game {result.game_id}) in <#{result.channel_id}>"
    if not result.watching:
        return f"You no longer watch {game}."
    how = "by a mention in its thread" if result.in_thread else "by direct message"
    if not button:
        stop = "`/unwatch` stops it."
    elif result.every_move:
        stop = "Press **Watch** again to stop, or use `/watch` to hear only of its end."
    else:
        stop = "Press **Watch** again to stop."
    return f"You are watching {game}: you hear of it {_hear_when(result.every_move)}, {how}. {stop}"


def with_watchers(
    content: str, watcher_ids: Sequence[int], *, pinged: int = 0
) -> tuple[str, tuple[int, ...]]:
    """``content`` with a last line mentioning watchers of a game played in a thread
    (``👀 Watching: <@5> <@6>``), and the watchers it mentions.

    As many of ``watcher_ids`` as fit are mentioned, in order: the message stays within
    :data:`MESSAGE_LIMIT` characters and, with the ``pinged`` users the post mentions
    already, within :data:`MAX_MENTIONS` pinged users. The others must hear of it another
    way (a direct message). No watcher fits: ``content`` unchanged, ``()``.
    """
    room = MESSAGE_LIMIT - len(content) - len(f"\n{WATCHERS_LINE}")
    fitted: list[int] = []
    for user_id in dict.fromkeys(watcher_ids):
        piece = f" {mention(user_id)}"
        if pinged + len(fitted) >= MAX_MENTIONS or len(piece) > room:
            break
        fitted.append(user_id)
        room -= len(piece)
    if not fitted:
        return content, ()
    line = WATCHERS_LINE + "".join(f" {mention(u)}" for u in fitted)
    return f"{content}\n{line}", tuple(fitted)


def watcher_dm_text(snapshot: GameSnapshot, content: str, jump_url: str | None) -> str:
    """The direct message a watcher gets for a board post of ``snapshot`` whose text was
    ``content``: ``**Orbs** in <#5>: <what happened> <link>``.

    What happened is the result once the game is over, else the post's first line: public
    text only, never a picture (in games with hidden information the post holds only what
    everyone may know, and so does this).
    """
    what = outcome_text(snapshot) if not snapshot.is_active else ""
    if not what:
        what = next((line for line in content.split("\n") if line.strip()), "")
    head = f"**{snapshot.game_name}** in <#{snapshot.channel_id}>: "
    tail = f" {jump_url}" if jump_url else ""
    room = MESSAGE_LIMIT - len(head) - len(tail)
    if len(what) > room:
        what = what[: room - 1] + "…"
    return f"{head}{what}{tail}"


_MARKDOWN = str.maketrans({c: f"\\{c}" for c in "\\*_~`|>"})


def _plain(name: str) -> str:
    """A display name with Discord's markdown characters escaped."""
    return name.translate(_MARKDOWN)


def _listing_line(item: GameListing, names: Mapping[int, str]) -> str:
    """``• **Orbs** · ann vs bob · bob to move (1d2h left) · <#5> · last move <t:…:R>``."""
    snapshot = item.snapshot
    players = " vs ".join(_plain(names.get(u, str(u))) for u in snapshot.user_ids)
    movers = _join([_plain(names.get(u, str(u))) for u in snapshot.to_move_user_ids])
    turn = "your move" if item.your_turn else f"{movers} to move"
    if item.clock_paused:
        turn += " (clock paused: on vacation)"
    elif item.time_left is not None:
        left = format_duration(max(item.time_left, timedelta(0)))
        turn += f" ({left} left)" if item.time_left > timedelta(0) else " (out of time)"
    since = "last move" if snapshot.last_moves else "started"
    parts = [
        f"**{snapshot.game_name}**",
        players,
        turn,
        f"<#{snapshot.channel_id}>",
        f"{since} {_timestamp(item.last_move_at)}",
    ]
    if item.watching:
        parts.append("watching")
    return "• " + " · ".join(parts)


def games_list_text(listing: GamesList, names: Mapping[int, str]) -> str:
    """``/games``: a heading, then one line per game (:func:`_listing_line`); ``names``
    maps user ids to display names (a missing one shows as the id)."""
    where = {
        GamesScope.CHANNEL: f"in <#{listing.channel_id}> and its threads",
        GamesScope.SERVER: "on this server",
        GamesScope.MINE: "of yours (played or watched)",
    }[listing.scope]
    if not listing.games:
        return f"No games in progress {where}."
    shown = len(listing.games)
    count = str(shown) if listing.total == shown else f"the {shown} most recent of {listing.total}"
    lines = [f"**Games in progress {where}** ({count})"]
    lines.extend(_listing_line(item, names) for item in listing.games)
    return "\n".join(lines)


# ---- takebacks and rematches ----
# /takeback and its Allow / Refuse buttons, the Rematch button (bot/cogs/social.py).

__all__ += [
    "TAKEBACK_REQUEST_CLOSED",
    "rematch_open_text",
    "takeback_answer_text",
    "takeback_done_text",
    "takeback_request_text",
]

#: A takeback request post whose request was answered, withdrawn or overtaken by a move.
TAKEBACK_REQUEST_CLOSED = (
    "This takeback request is no longer open: it was answered, or a move came first."
)


def takeback_request_text(request: TakebackRequest) -> str:
    """The public request (Allow / Refuse buttons are added by the caller), pinging the
    opponent: ``<@1> asks to take back `a1-a3`. <@2>, do you allow it? (A move refuses
    it.)``"""
    return (
        f"{mention(request.user_id)} asks to take back {_code(request.move)}. "
        f"{_mentions(request.opponent_user_ids)}, do you allow it? (A move refuses it.)"
    )


def takeback_answer_text(answer: TakebackAnswer) -> str:
    """The request post once answered: allowed, refused or withdrawn."""
    if answer.accepted:
        return (
            f"{mention(answer.by_user_id)} allowed it: {mention(answer.user_id)} took back "
            f"{_code(answer.move)}."
        )
    if answer.withdrawn:
        return f"{mention(answer.user_id)} withdrew the takeback request; the game goes on."
    return (
        f"{mention(answer.by_user_id)} refused to let {mention(answer.user_id)} take the move "
        "back; the game goes on."
    )


def takeback_done_text(answer: TakebackAnswer) -> str:
    """The board post after an allowed takeback: who took back what (and the forced moves
    the bot had played after it), then whose move it is now.

    ``<@1> (South) took back `a1-a3`.`` then ``<@1>, your move (South).``
    """
    snapshot = answer.snapshot
    line = f"{_player(snapshot.players[answer.seat])} took back {_code(answer.move)}"
    forced = answer.removed[1:]
    if forced:
        line += f" and the forced {_join([_code(m) for m in forced])} after it"
    return f"{line}.\n{_to_move_text(snapshot)}"


def _message_link(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """The link that opens a message in Discord."""
    guild = "@me" if guild_id is None else str(guild_id)
    return f"https://discord.com/channels/{guild}/{channel_id}/{message_id}"


def rematch_open_text(challenge: ChallengeInfo) -> str:
    """The ephemeral answer to a second Rematch press while the first one's challenge is
    open: where it is, so the presser can answer it."""
    if challenge.message_id is None:
        where = f"in <#{challenge.channel_id}>"
    else:
        where = _message_link(challenge.guild_id, challenge.channel_id, challenge.message_id)
    return f"A rematch of this game is already open: {where}"
