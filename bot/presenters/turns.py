"""Turns, moves and results: the post after a move, who is to move next, how a game ended,
the first post of a game and a board's caption; draw offers, resignations and aborts.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace

from bot.presenters.clocks import _to_move_clocks, clock_line
from bot.presenters.common import (
    _capitalised,
    _code,
    _join,
    _mentions,
    _player,
    _players_named,
    _uncited,
    mention,
    seat_label,
)
from bot.service import DrawOffer, GameSnapshot, Hint, HintMove, TurnResult
from bot.service.bot_seats import is_bot, is_practice
from bot.service.logbook import AUTOMATIC_EVENT, is_resignation, last_chosen, played_on_time_out
from bot.service.models import RatingChange
from engines.base import ELIMINATED_EVENT, ENDED_EVENT, ROLLED_EVENT, TURN_EVENT, Event

__all__ = [
    "DRAW_OFFER_CLOSED",
    "DRAW_OFFER_ENDED",
    "DRAW_OFFER_LAPSED",
    "HINT_ORDER_NOTE",
    "OFFER_OPEN_TAIL",
    "abort_text",
    "board_caption",
    "channel_deleted_text",
    "decision_text",
    "draw_answer_text",
    "draw_offer_settled_text",
    "draw_offer_text",
    "draw_progress_text",
    "game_started_text",
    "hint_text",
    "late_board_is_first",
    "late_board_text",
    "outcome_text",
    "play_it_there_text",
    "rating_change_text",
    "rating_changes_text",
    "resign_text",
    "resigned_ack",
    "told_privately_line",
    "turn_mention_ids",
    "turn_text",
    "watcher_turn_line",
]


#: A draw offer post whose offer was answered, withdrawn or overtaken by a move.
#: How the post of an open draw offer ends (the offer and its progress): a post that still
#: ends so after the offer closed shows a stale text (``PlayCog._keep_progress_true``).
OFFER_OPEN_TAIL = "(A move declines it.)"
DRAW_OFFER_CLOSED = "This draw offer is no longer open: it was answered, or a move came first."
#: The offer's post once a move declined it (the buttons are removed).
DRAW_OFFER_LAPSED = "This draw offer lapsed: a move was played instead."
#: The offer's post once the game ended another way (resignation, abort, time-out).
DRAW_OFFER_ENDED = "This draw offer lapsed: the game ended."
#: The offer's post once a player resigned from a game that goes on (three or more players):
#: who is still in changed, so the offer ends as a move would end it.
DRAW_OFFER_RESIGNED = "This draw offer lapsed: a player resigned."

#: How the bot's own endings read; engine endings come from the engine's ``ended`` event.
_BOT_TERMINATIONS = {
    "resignation": "by resignation",
    "agreement": "by agreement",
    "time": "on time",
}


def _event_phrase(
    events: Iterable[Event], prompt: str | None = None, prompted: Collection[int] = ()
) -> str:
    """The events' texts joined by "; ", without the ending (said apart, with the result)
    and without the engine's own "passed" after a forced pass the bot played for a seat:
    its notice ("Green has no legal move and passes") already says it, and a bare "passed"
    there reads as if the mover had passed.

    ``prompt`` is the prompt the post shows below (:func:`_shown_prompt`) to the seats
    ``prompted``; with one, what the prompt says is left to it: a change of turn
    (:data:`~engines.base.TURN_EVENT`, "round 2: Seat 2 to play"), an event the prompt
    begins with (Arbos: "Black has 4 trees and must prune 1 tree", then the prompt "Black
    has 4 trees and must prune 1 tree first (A17): …"), and the last event when it is a
    prompted seat's roll (:data:`~engines.base.ROLLED_EVENT`: "Red rolled yellow (Y)", then
    "You rolled **yellow**: …"). Earlier rolls stay (a forced pass after one)."""
    listed = list(events)
    texts: list[str] = []
    forced_seat: int | None = None
    for index, event in enumerate(listed):
        if event.kind == ENDED_EVENT or (event.kind == "passed" and event.seat == forced_seat):
            continue
        if prompt and (
            event.kind == TURN_EVENT
            or _uncited(prompt).startswith(_uncited(event.text))
            or (event.kind == ROLLED_EVENT and event.seat in prompted and index == len(listed) - 1)
        ):
            continue
        forced_seat = event.seat if event.kind == AUTOMATIC_EVENT else None
        texts.append(_uncited(event.text))
    return "; ".join(texts)


#: An engine's whole text for a pass (Generator, Arbos): nothing the move `pass` shown
#: beside it does not say ("played `pass`: passed").
_BARE_PASS = frozenset({"passed", "passes"})


def _without_bare_pass(events: Iterable[Event], seat: int, moves: Iterable[str]) -> list[Event]:
    """``events`` without ``seat``'s bare pass event when ``moves`` (the moves the post shows
    in notation) include ``pass``."""
    listed = list(events)
    if "pass" not in moves:
        return listed
    return [e for e in listed if not (e.seat == seat and e.text in _BARE_PASS)]


def _engine_ending(
    snapshot: GameSnapshot, events: Iterable[Event] = (), *, on_time: bool = False
) -> tuple[str, str | None]:
    """``("South wins by reaching the enemy core", None)``: the engine's words when it ended
    the game (from ``events``, else from the last moves' events), or ``""``; and, when the
    move that ended it is a resignation (``[k]resign``: Orbs, Generator, Generation Zero),
    whose ending the engine words by the board it leaves ("only one side has orbs left"),
    not by what ended it, how it came: ``"resignation"``, or ``"time"`` for one played on a
    time-out (its ``timeout`` event; ``on_time``: ``events`` are a seat's resignation on
    time)."""
    # A draw keeps the engine's words (Orbs: "every orb left is the same element"): nobody
    # drew on time or by resignation, the board left after it drew.
    won = snapshot.outcome is not None and not snapshot.outcome.is_draw
    for event in events:
        if event.kind == ENDED_EVENT:
            return _capitalised(_uncited(event.text)), "time" if on_time and won else None
    for move in reversed(snapshot.last_moves):
        for event in move.events:
            if event.kind == ENDED_EVENT:
                late = played_on_time_out(move)
                how = ("time" if late else "resignation") if is_resignation(move) else None
                return _capitalised(_uncited(event.text)), how if won else None
    return "", None


def outcome_text(
    snapshot: GameSnapshot, events: Iterable[Event] = (), *, on_time: bool = False
) -> str:
    """One line on how the game ended, mentioning every player: the winners, then the
    others ("good game"); of a draw, everyone. Winners are named with their seats. An ending
    the engine announced comes first in its words ("South wins by reaching the enemy core.
    <@2> (South) wins! …"); an ending the bot decided, or a resignation the engine played
    (:func:`_engine_ending`), is said once, with the result ("<@2> (North) wins by
    resignation! …", "The game between <@1> and <@2> is drawn by agreement."). Bots of the
    same level are told apart by their seats (:func:`~bot.presenters.common._players_named`).
    Empty while it goes on. ``on_time``: ``events`` are those of a seat's resignation on
    time, which ended the game ("… wins on time!", not the engine's "every other player has
    resigned"). (The callers allow every player's mention on a final board.)"""
    if snapshot.status == "aborted":
        return "The game was aborted; it has no result."
    outcome = snapshot.outcome
    if outcome is None:
        return ""
    ratings = rating_changes_text(snapshot)
    engine, ended_by = _engine_ending(snapshot, events, on_time=on_time)
    if ended_by is not None:
        engine, how = "", f" {_BOT_TERMINATIONS[ended_by]}"
    elif engine:
        how = ""
    else:
        termination = outcome.termination
        how = " " + _BOT_TERMINATIONS.get(termination, f"by {termination.replace('_', ' ')}")
    lead = f"{engine}. " if engine else ""
    if outcome.is_draw:
        # Those ranked below the draw left the game before it ended (a resignation, Orbs'
        # elimination in a game of three or more): they did not draw.
        first = outcome.ranking[0] if outcome.ranking else ()
        drew = list(dict.fromkeys(snapshot.players[s].user_id for s in first))
        if len(drew) < 2:
            drew = list(dict.fromkeys(snapshot.user_ids))
        gone = [u for u in dict.fromkeys(snapshot.user_ids) if u not in drew]
        text = f"{lead}The game between {_players_named(snapshot, drew)} is drawn{how}."
        if gone:
            text += f" {_players_named(snapshot, gone)} had left it."
        return f"{text}{ratings}"
    winners = list(dict.fromkeys(snapshot.players[s].user_id for s in outcome.winners))
    others = [u for u in dict.fromkeys(snapshot.user_ids) if u not in winners]
    # Every seat first (Generation Zero's full tie, R12.3): "A and B win!" read as a
    # mistake with nobody beaten (exploratory pass 10). Counted by seats: a bot holding a
    # winning and a losing seat is not among ``others``, yet someone was beaten.
    everyone = len(outcome.winners) == len(snapshot.players)
    verb = "wins" if len(winners) == 1 else "share the win" if everyone else "win"
    named = _players_named(snapshot, winners, with_seats=True)
    result = f"{lead}{named} {verb}{how}!{_places_text(snapshot)}"
    if not others:
        return f"{result}{ratings}"
    return f"{result} Good game, {_players_named(snapshot, others)}.{ratings}"


#: Why a rated game that ended with fewer plies played by seats than players is not rated.
_TOO_FEW_MOVES = "too few moves had been played"

_ORDINAL_ENDINGS = {1: "st", 2: "nd", 3: "rd"}


def _ordinal(place: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` … (places of up to six seats)."""
    return f"{place}{_ORDINAL_ENDINGS.get(place, 'th')}"


def _places_text(snapshot: GameSnapshot) -> str:
    """`` Places: 2nd <@1> (Seat 1); 3rd <@3> (Seat 4); 4th <@2> (Seat 2).`` (with its
    leading space): the places below the winners when the outcome ranks them in more than
    one group (Generation Zero's score, kills and Health; those who left a game of three
    or more, last), which the ratings follow; ``""`` otherwise. Tied seats share a place,
    and the next place skips as many (2nd, 2nd, 4th)."""
    outcome = snapshot.outcome
    if outcome is None or len(outcome.ranking) < 3:
        return ""
    places, place = [], 1
    for group in outcome.ranking:
        users = list(dict.fromkeys(snapshot.players[s].user_id for s in group))
        if place > 1:
            names = _players_named(snapshot, users, with_seats=True)
            places.append(f"{_ordinal(place)} {names}")
        place += len(group)
    return f" Places: {'; '.join(places)}."


def rating_change_text(change: RatingChange) -> str:
    """``1512 → 1538 (+26)``; a provisional rating carries a ``?`` (``1500? → 1588? (+88)``)."""
    before = f"{change.before}{'?' if change.provisional_before else ''}"
    after = f"{change.after}{'?' if change.provisional else ''}"
    delta = change.delta
    sign = "+" if delta >= 0 else "−"
    return f"{before} → {after} ({sign}{abs(delta)})"


def rating_changes_text(snapshot: GameSnapshot) -> str:
    """`` Ratings: <@1> 1512 → 1538 (+26), <@2> 1490 → 1464 (−26).`` (with its leading
    space); for a rated game that ended too soon to count (on the record of the change that
    ended it), `` Not rated: too few moves had been played.``; else ``""``."""
    if not snapshot.rating_changes:
        if snapshot.rated and snapshot.ended_too_soon and snapshot.status == "finished":
            return f" Not rated: {_TOO_FEW_MOVES}."
        return ""
    parts = [f"{mention(c.user_id)} {rating_change_text(c)}" for c in snapshot.rating_changes]
    return f" Ratings: {', '.join(parts)}."


def _only_bots_to_move(snapshot: GameSnapshot) -> bool:
    """True when every seat to move is the bot's (and some seat is)."""
    seats = snapshot.to_move
    return bool(seats) and all(is_bot(snapshot.players[s].user_id) for s in seats)


def _shown_prompt(snapshot: GameSnapshot) -> str | None:
    """The prompt a post shows under its ping (:func:`_to_move_text`): the engine's, while
    the game goes on and a person is to move, without the spec rule ids it cites (as
    :func:`~bot.presenters.error_text` leaves them out); ``None`` otherwise."""
    if not snapshot.is_active or _only_bots_to_move(snapshot) or snapshot.prompt is None:
        return None
    return _uncited(snapshot.prompt)


def _to_move_text(snapshot: GameSnapshot) -> str:
    """``<@2>, your move (North).``, plus the prompt (:func:`_shown_prompt`) and the moves
    themselves when there are only a few.

    When only the bot's seats are to move, nobody is addressed: ``**Gameroom (level 1)**
    (🔴 Red) to move.``, without the prompt and the legal moves, which speak to the player
    ("You rolled **blue**: …"); the bot posts its move in a moment.
    """
    players = [snapshot.players[s] for s in snapshot.to_move if s >= 0]  # not chance (-1)
    names = _join([seat_label(p.seat_name) for p in players])
    who = _mentions(dict.fromkeys(p.user_id for p in players))
    clocks = _to_move_clocks(snapshot)
    if _only_bots_to_move(snapshot):
        return " ".join(filter(None, (f"{who} ({names}) to move.", clocks)))
    text = f"{who}, your move ({names})."
    if clocks:
        text = f"{text} {clocks}"
    prompt = _shown_prompt(snapshot)
    if prompt:
        text = f"{text} {prompt}"
    only = snapshot.only_moves
    if len(only) == 1:
        return f"{text} Your only legal move is {_code(only[0])}: play {_code('/move ' + only[0])}."
    if only:
        return f"{text} Your only legal moves are {_join([_code(m) for m in only])}."
    return text


def _move_line(
    result: TurnResult, prompt: str | None, *, whole_turn: bool = False, then: bool = False
) -> str:
    """The first line of :func:`turn_text`: who played what and what happened, leaving out
    what ``prompt`` (shown below it to the seats to move, or ``None``) says
    (:func:`_event_phrase`). ``whole_turn``: with the mover's earlier decisions of a turn
    this move ended (:attr:`TurnResult.turn_before`, "…" first when the turn began before
    them), which the channel read as quiet lines and a watcher's message would miss.
    ``then``: "Then played …" instead of the mover's name (lines above name them)."""
    snapshot = result.snapshot
    earlier = result.turn_before if whole_turn else ()
    moves = [m.text for m in earlier if m.seat == result.seat] + [result.move]
    events = [e for m in earlier for e in m.events] + list(result.events)
    events = _without_bare_pass(events, result.seat, moves)
    phrase = _event_phrase(
        [_with_player(snapshot, event, result.seat) for event in events],
        prompt,
        snapshot.to_move,
    )
    mover = snapshot.players[result.seat]
    played = _join([_code(m) for m in moves])
    if whole_turn and result.turn_cut:
        played = f"… {played}"
    head = "Then played" if then else f"{_player(mover)} played"
    line = f"{head} {played}" + (f": {phrase}." if phrase else ".")
    if result.unannounced:
        line += f" Then: {', '.join(_code(c) for c in result.unannounced)}."
    if result.declined_draw_offer:
        line += " The draw offer is off."
    return line


def _knocked_out_name(snapshot: GameSnapshot, event: Event, mover: int) -> str | None:
    """The seat name an ``eliminated`` event of a seat other than ``mover`` begins with
    (Orbs' "South-east has no orbs left and is out"), or ``None`` for any other event."""
    if event.kind != ELIMINATED_EVENT or event.seat is None or event.seat == mover:
        return None
    if not 0 <= event.seat < len(snapshot.players):
        return None
    name = snapshot.players[event.seat].seat_name.split(",")[0]  # "South-east, team A"
    return name if event.text.startswith(f"{name} ") else None


def _with_player(snapshot: GameSnapshot, event: Event, mover: int) -> Event:
    """An ``eliminated`` event (a seat out of the game: Orbs' "South-east has no orbs left
    and is out") naming that seat's player when it is not the mover, whom the line names
    already: "South-east (<@22>) has no orbs …". Other events are returned as they are:
    rolls and passes of the next seat read well by seat alone."""
    name = _knocked_out_name(snapshot, event, mover)
    if name is None or event.seat is None:
        return event
    player = snapshot.players[event.seat]
    return replace(event, text=f"{name} ({mention(player.user_id)}){event.text[len(name) :]}")


def turn_mention_ids(result: TurnResult) -> tuple[int, ...]:
    """Who the board post after a move (:func:`turn_text`) pings: every player once the game
    is over; else the players to move and the players it knocks out, whom its first line
    names (:func:`_with_player`: "South-east (<@22>) has no orbs left and is out"), so a
    person learns of it then, not from the final post, and those the post sends to
    ``/hand`` (:attr:`TurnResult.told_privately`). Bots among them are never pinged
    (:func:`bot.ui.replies.allowed_users`)."""
    snapshot = result.snapshot
    if result.outcome is not None:
        return snapshot.user_ids
    knocked_out = [
        snapshot.players[event.seat].user_id
        for event in result.events
        if event.seat is not None and _knocked_out_name(snapshot, event, result.seat)
    ]
    return tuple(dict.fromkeys((*result.next_user_ids, *knocked_out, *result.told_privately)))


def watcher_turn_line(result: TurnResult) -> str:
    """The line a watcher's direct message quotes for a move (:func:`watcher_dm_text`): the
    board post's first line with every public event, since the watcher does not read the
    prompt under the post's ping. So a Generator watcher learns the next roll ("…; Red
    rolled yellow (Y).") and an Arbos watcher a pending prune. In Generation Zero it tells
    the whole turn the move ended, every decision and what it did ("<@1> (Seat 1) played
    `move S4 L14`, `attack A1` and `rest A8`: S4 moved to L14; …"): the watcher hears once
    per turn."""
    return _move_line(result, None, whole_turn=True)


def turn_text(result: TurnResult, earlier: Sequence[TurnResult] = ()) -> str:
    """The public post after a move: who played what, what happened, who is next.

    ``<@1> (South) played `a1-a3`: the orb on a1 moves to a3; an orb enters a1 from the
    supply.`` then either ``<@2>, your move (North).`` or the result.

    ``earlier`` are the mover's decisions of this turn whose post this one replaces (a
    bot's, :mod:`bot.ui.decisions`), oldest first: their lines as :func:`decision_text`
    wrote them come first, and this move's line starts "Then played".
    """
    snapshot = result.snapshot
    line = _move_line(result, _shown_prompt(snapshot), then=bool(earlier))
    line += told_privately_line(result.told_privately)
    if earlier:
        said = "\n".join(_decision_line(d, first=i == 0) for i, d in enumerate(earlier))
        line = f"{said}\n{line}"
    if snapshot.is_active:
        return f"{line}\n{_to_move_text(snapshot)}"
    return f"{line}\n{outcome_text(snapshot, result.events)}"


def decision_text(result: TurnResult, earlier: Sequence[TurnResult] = ()) -> str:
    """The public line after a decision that leaves the same seat to decide again
    (:attr:`TurnResult.turn_goes_on`): no board, no ping, only what everyone may know.

    ``<@1> (🟢 Green) played `peek 1.2`: looks at a card of Red. 🟢 Green decides again.``

    ``earlier`` are the same seat's decisions of this turn already in the post, oldest
    first (a bot's, which :func:`bot.ui.board.post_turn` gathers into one post): a line
    each, the first naming the mover, the next ones starting "Then played"; "decides
    again" is said once, after this decision's line::

        **Gameroom (level 2)** (🔴 Red) played `move A1 L3`: A1 moved to L3.
        Then played `hold A2`: A2 holds. 🔴 Red decides again.
    """
    mover = result.snapshot.players[result.seat]
    lines = [_decision_line(d, first=i == 0) for i, d in enumerate((*earlier, result))]
    told = told_privately_line(result.told_privately)
    said = "\n".join(lines)
    return f"{said} {seat_label(mover.seat_name)} decides again.{told}"


def _decision_line(result: TurnResult, *, first: bool) -> str:
    """One decision of :func:`decision_text`: who (``first``) or "Then", what it did."""
    phrase = _event_phrase(result.events)
    head = f"{_player(result.snapshot.players[result.seat])} played" if first else "Then played"
    line = f"{head} {_code(result.move)}" + (f": {phrase}." if phrase else ".")
    if result.unannounced:
        line += f" Then: {', '.join(_code(c) for c in result.unannounced)}."
    return line


def told_privately_line(user_ids: Sequence[int]) -> str:
    """``"\n<@2>: this move showed you something only you may see; `/hand` has it."`` for
    the people ``user_ids`` (:attr:`TurnResult.told_privately`,
    :attr:`~bot.service.models.ClockEvent.told_privately`), else ``""``: who, never what."""
    if not user_ids:
        return ""
    return (
        f"\n{_mentions(user_ids)}: this move showed you something only you may see; `/hand` has it."
    )


def game_started_text(snapshot: GameSnapshot) -> str:
    """The first post of a game: players and seats, options, who moves first; in a casual
    game of one person against bots, that ``/hint`` is there (:meth:`bot.service.bots.Bots.hint`
    gives hints in such games only), and in a rated one how to get a game with hints."""
    seats = _join(
        [f"{mention(p.user_id)} plays {seat_label(p.seat_name)}" for p in snapshot.players]
    )
    lines = [f"**{snapshot.game_name}** begins: {seats}."]
    if snapshot.options_text:
        lines.append(f"Options: {_code(snapshot.options_text)}.")
    if snapshot.clocks:
        lines.append(f"{clock_line(snapshot.clock_text)}.")
    lines.append(_to_move_text(snapshot) if snapshot.is_active else outcome_text(snapshot))
    if snapshot.is_active and is_practice(snapshot.user_ids, rated=snapshot.rated):
        lines.append("A practice game: `/hint` shows what the strongest bot would play for you.")
    elif snapshot.is_active and is_practice(snapshot.user_ids, rated=False):
        # Rated against the bot (the default): a newcomer's first /hint was refused mid-game
        # with no way left to make it casual (exploratory pass 10); said before it starts.
        lines.append("A rated game: for `/hint`, challenge the bot with `rated:false`.")
    return "\n".join(lines)


def late_board_is_first(snapshot: GameSnapshot) -> bool:
    """Whether a late board of ``snapshot`` is the game's first (no seat has chosen a move):
    the recent moves hold the whole log, or the game is at its start's version (1, or 2
    once its opening chance steps were settled, such as Arbos' twenty setup draws)."""
    if not snapshot.is_active or last_chosen(snapshot.last_moves) is not None:
        return False
    return snapshot.ply <= len(snapshot.last_moves) or snapshot.version <= 2


def late_board_text(snapshot: GameSnapshot) -> str:
    """The post of a board that was not posted after its move, resignation or time-out, or
    at the game's start (the bot stopped, or Discord refused the post, before it;
    ``board_post`` timers): the move, that its board comes late, then whose move it is now
    or the result (at the start: the game's first post, :func:`game_started_text`)::

        <@1> (South) played `a1-a3`; its board could not be posted at the time.
        <@2>, your move (North)."""
    last = last_chosen(snapshot.last_moves)
    termination = snapshot.outcome.termination if snapshot.outcome is not None else None
    ended_on_row = (
        snapshot.status == "aborted"
        or termination == "agreement"
        or (termination in ("resignation", "time") and (last is None or not is_resignation(last)))
    )
    if ended_on_row:
        # An agreed draw, an abort, or a resignation or time-out that ended the game on its
        # row logs no move of its own: the result says it ("… is drawn by agreement.", "The
        # game was aborted; it has no result.", "… wins on time!").
        head = "The final board could not be posted at the time."
    elif late_board_is_first(snapshot):
        return f"The first board could not be posted at the time.\n{game_started_text(snapshot)}"
    elif last is None or last.seat is None:
        head = f"The board after ply {snapshot.ply} could not be posted at the time."
    else:
        player = snapshot.players[last.seat]
        who = f"{mention(player.user_id)} ({seat_label(player.seat_name)})"
        resigned = is_resignation(last)
        if played_on_time_out(last):
            # Played for the seat on time-out (the game's rule), or its resignation.
            what = "resigned" if resigned else f"had {_code(last.text)} played for them"
            head = f"⏰ {who} ran out of time and {what}; the board could not be posted then."
        elif resigned:
            head = f"{who} resigned; the board could not be posted at the time."
        else:
            head = f"{who} played {_code(last.text)}; its board could not be posted at the time."
    if not snapshot.is_active:
        return f"{head}\n{outcome_text(snapshot)}"
    return f"{head}\n{_to_move_text(snapshot)}"


def board_caption(snapshot: GameSnapshot) -> str:
    """A short caption under a board picture (``/board``)."""
    head = f"**{snapshot.game_name}** · game {snapshot.game_id} · ply {snapshot.ply}"
    if snapshot.is_active:
        players = [snapshot.players[s] for s in snapshot.to_move if s >= 0]  # not chance (-1)
        return f"{head} · {_join([_player(p) for p in players])} to move"
    return f"{head} · {outcome_text(snapshot)}"


def draw_offer_text(offer: DrawOffer) -> str:
    """The public draw offer (answer buttons are added by the caller). With three or more
    players it says that every player still in must accept."""
    everyone = " Every player still in must accept." if len(offer.opponent_user_ids) > 1 else ""
    return (
        f"{mention(offer.user_id)} offers a draw.{everyone} "
        f"{_mentions(offer.opponent_user_ids)}, do you accept? {OFFER_OPEN_TAIL}"
    )


def draw_progress_text(snapshot: GameSnapshot) -> str:
    """The draw offer post after an acceptance that leaves others to answer
    (:attr:`GameSnapshot.draw_waiting`): who offered, who has accepted, who is still to
    answer. Its buttons stay."""
    users = {p.seat: p.user_id for p in snapshot.players}
    offerer = users[snapshot.draw_offer_seat] if snapshot.draw_offer_seat is not None else None
    agreed = [u for u in dict.fromkeys(users[s] for s in snapshot.draw_agreed) if u != offerer]
    waiting = list(dict.fromkeys(users[s] for s in snapshot.draw_waiting))
    head = "A draw is offered." if offerer is None else f"{mention(offerer)} offers a draw."
    return (
        f"{head} Accepted by {_mentions(agreed)}; still to answer: {_mentions(waiting)}. "
        f"{OFFER_OPEN_TAIL}"
    )


def hint_text(hint: Hint) -> str:
    """``/hint``'s private answer: the moves the strongest level would consider in the
    caller's place, best first, each with how it expects the move to go for them.

    ``Hint for your move in **Generatorb** (the strongest level's search, 2.1 s):``
    ``1. `g7-h8`: wins by force`` / ``2. `a2-a4`: 58% for you`` …"""
    head = (
        f"Hint for your move in **{hint.game_name}** "
        f"(the {hint.level_name} level's search, {hint.seconds:.1f} s):"
    )
    lines = [head]
    lines.extend(
        f"{number}. {_code(move.move)}: {_hint_value(move, hint.players)}"
        for number, move in enumerate(hint.moves, 1)
    )
    if _reads_above_the_first(hint.moves):
        lines.append(HINT_ORDER_NOTE)
    scale = "100% a sure win, 50% even" if hint.players == 2 else "100% first place, 0% last"
    lines.append(
        f"A percentage is how well the bot expects the move to turn out for you ({scale}). "
        "Only you see this."
    )
    return "\n".join(lines)


#: Said under a hint's moves when a later one reads a higher percentage than the first: the
#: order is the search's (the first is what level 5 plays, the rest by visits), and the
#: percentages are estimates (in Orbs from a second search; docs/bots.md, "Hints").
HINT_ORDER_NOTE = (
    "The moves are in the order the bot would choose them; the percentages are estimates, "
    "so a later move can read a little higher."
)


def _reads_above_the_first(moves: Sequence[HintMove]) -> bool:
    """Whether a later move of a hint shows a higher percentage than the first, both
    unproven (a proven result is exact, and sorted first where it is a win)."""
    if not moves or moves[0].forced is not None or not moves[0].searched:
        return False
    first = round(moves[0].value * 100)
    return any(m.forced is None and m.searched and round(m.value * 100) > first for m in moves[1:])


def _hint_value(move: HintMove, players: int) -> str:
    percent = f"{round(move.value * 100)}%"
    if not move.searched:
        return "not searched: every move the bot searched loses by force"
    if move.forced == "win":
        return "wins by force"
    if move.forced == "loss":
        return "loses by force"
    if move.forced is not None:
        return "draws by force" if players == 2 else f"a forced result, {percent} for you"
    return f"{percent} for you"


def draw_offer_settled_text(snapshot: GameSnapshot) -> str:
    """The draw offer post, put right when it still shows a stale "still to answer" after the
    offer closed elsewhere (another process's answer edited it first): the game is drawn,
    ended, or goes on without the offer. Nobody is named: who answered last is not stored."""
    if not snapshot.is_active:
        if snapshot.outcome is not None and snapshot.outcome.termination == "agreement":
            return "Every player still in accepted the draw offer: the game is drawn."
        return DRAW_OFFER_ENDED
    return DRAW_OFFER_CLOSED


def draw_answer_text(*, accepted: bool, by_user_id: int, withdrawn: bool = False) -> str:
    """The draw offer post once answered. An accepted offer says only that: the final board
    posted under it gives the result and the rating changes (:func:`outcome_text`).
    ``withdrawn``: the one who offered it pressed Decline."""
    if accepted:
        return f"{mention(by_user_id)} accepted the draw offer: the game is drawn."
    if withdrawn:
        return f"{mention(by_user_id)} withdrew the draw offer; the game goes on."
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


def play_it_there_text(games: Sequence[GameSnapshot]) -> str:
    """A ``/move`` typed in a channel whose game is not the caller's, who plays in threads of
    it: where to play instead. ``Your **Orbs** game (game 4) is in <#9>: play it there.``,
    or, for several, ``Your games are in threads of this channel: **Orbs** (game 4) in
    <#9> and **Arbos** (game 6) in <#11>.``"""
    if len(games) == 1:
        (game,) = games
        return (
            f"Your **{game.game_name}** game (game {game.game_id}) is in <#{game.channel_id}>: "
            "play it there."
        )
    where = [f"**{g.game_name}** (game {g.game_id}) in <#{g.channel_id}>" for g in games]
    return f"Your games are in threads of this channel: {_join(where)}."


def resigned_ack(snapshot: GameSnapshot) -> str:
    """The resigner's private answer, naming the game (a player may have games in a channel
    and in its threads): ``You resigned from **Arbos** (game 4).``; for a rated game that
    ended unrated, that it is not (and why, when it is too few plies played by seats:
    docs/ratings.md)."""
    text = f"You resigned from **{snapshot.game_name}** (game {snapshot.game_id})."
    if not snapshot.is_active and snapshot.rated and not snapshot.rating_changes:
        # Too few plies is said when it is why (an Arbos setup's 20 chance plies or
        # Generator's rolls are nobody's move); other reasons are said elsewhere.
        few = snapshot.ended_too_soon
        text += f" It is not rated: {_TOO_FEW_MOVES}." if few else " It is not rated."
    return text


def channel_deleted_text(snapshot: GameSnapshot) -> str:
    """The direct message to a player of a game whose channel (or thread) was deleted:
    ``**Orbs** (game 5) was aborted: its channel was deleted. It has no result and is not
    rated.``"""
    return (
        f"**{snapshot.game_name}** (game {snapshot.game_id}) was aborted: its channel was "
        "deleted. It has no result and is not rated."
    )


def abort_text(snapshot: GameSnapshot, user_id: int) -> str:
    """The public post when a game is aborted: who stopped it, and who was playing."""
    return (
        f"{mention(user_id)} aborted the game of **{snapshot.game_name}** between "
        f"{_players_named(snapshot, dict.fromkeys(snapshot.user_ids))}; it has no result."
    )
