"""Message text for snapshots, turns, challenges and errors.

No rules live here: the engine says what happened (its events' ``text``) and how the game
ended; presenters only add names, mentions and Discord markdown. Every function is pure, so
tests check the text without a Discord connection. Moves are shown as inline code, because
notation such as ``c3*d4`` would otherwise turn into markdown.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

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
from bot.service.models import PrivateView
from engines.base import Event, GameInfo

__all__ = [
    "APOLOGY",
    "DRAW_OFFER_CLOSED",
    "MESSAGE_LIMIT",
    "abort_text",
    "board_caption",
    "challenge_closed_text",
    "challenge_text",
    "decision_text",
    "draw_answer_text",
    "draw_offer_text",
    "error_text",
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
    if snapshot.is_active:
        players = [snapshot.players[s] for s in snapshot.to_move]
        lines.append("To move: " + _join([_player(p) for p in players]))
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
