"""A game's record: ``/game info``, the move list of ``/game moves`` and ``/game rules``."""

from __future__ import annotations

from collections.abc import Sequence

from bot.presenters.clocks import clock_line, time_left_text
from bot.presenters.common import _code, _join, _player, _seated, seat_label
from bot.presenters.turns import outcome_text
from bot.service import GameSnapshot, MoveRecord, Player
from bot.service.logbook import is_resignation, played_for_the_seat, played_on_time_out
from engines.base import GameInfo

__all__ = [
    "POSITION_INLINE_MAX",
    "TURNED_BOARDS",
    "game_info_text",
    "move_list_text",
    "no_game_rules_text",
    "position_file_name",
    "rules_text",
]

#: The longest position ``/game info`` shows in its text; a longer one (Generation Zero's JSON,
#: about 2,500 characters, over Discord's 2,000 a message) comes as an attached file.
POSITION_INLINE_MAX = 1000


def position_file_name(snapshot: GameSnapshot) -> str | None:
    """``generation_zero-12-position.txt``, the file ``/game info`` attaches the position as
    when it is over :data:`POSITION_INLINE_MAX` characters; ``None`` when the text holds it."""
    if len(snapshot.position) <= POSITION_INLINE_MAX:
        return None
    return f"{snapshot.game}-{snapshot.game_id}-position.txt"


def game_info_text(snapshot: GameSnapshot) -> str:
    """``/game info``: players, options, ply, last moves and whose turn (or the result), and
    the position: inline, or, over :data:`POSITION_INLINE_MAX` characters, named as the file
    the cog attaches (:func:`position_file_name`)."""
    lines = [
        f"**{snapshot.game_name}** · game {snapshot.game_id} · ply {snapshot.ply}",
        "Players: " + _join([_info_seat(snapshot, p) for p in snapshot.players]),
        f"Options: {_code(snapshot.options_text) if snapshot.options_text else 'standard'}",
    ]
    if snapshot.clocks:
        lines.append(clock_line(snapshot.clock_text))
    if snapshot.is_active:
        players = [snapshot.players[s] for s in snapshot.to_move if s >= 0]  # not chance (-1)
        lines.append("To move: " + _join([_player(p) for p in players]))
        # The banks of the seats still in: one that left (resigned, knocked out, claimed on
        # time) has a clock that will never run again.
        gone = {seat for seat, _ in snapshot.left_seats}
        banks = [
            f"{seat_label(snapshot.players[info.seat].seat_name)} {time_left_text(info)}"
            for info in snapshot.clocks
            if info.seat not in gone
        ]
        if banks:
            lines.append("Time left: " + " · ".join(banks))
    else:
        lines.append("Result: " + outcome_text(snapshot))
    if snapshot.draw_offer_seat is not None:
        offerer = snapshot.players[snapshot.draw_offer_seat]
        agreed = [snapshot.players[s] for s in snapshot.draw_agreed]
        others = [p for p in agreed if p.user_id != offerer.user_id]
        accepted = f"; accepted by {_join([_player(p) for p in others])}" if others else ""
        lines.append(f"Draw offered by {_player(offerer)}{accepted}.")
    if snapshot.last_moves:
        recent = " ".join(_recent_move(snapshot, m) for m in snapshot.last_moves)
        lines.append(f"Last moves: {recent}")
    attached = position_file_name(snapshot)
    if attached is not None:
        lines.append(f"Position: attached, `{attached}`.")
    elif snapshot.position:
        lines.append(f"Position: {_code(snapshot.position)}")
    else:
        lines.append("Position: secret until the game ends (it holds the players' hidden cards).")
    return "\n".join(lines)


def _info_seat(snapshot: GameSnapshot, player: Player) -> str:
    """A seat of ``/game info``: ``🟢 Green — <@1>``, with ``(resigned)`` or
    ``(eliminated)`` for a seat that left a game that went on
    (:attr:`GameSnapshot.left_seats`)."""
    how = dict(snapshot.left_seats).get(player.seat)
    return _seated(player) if how is None else f"{_seated(player)} ({how})"


def move_list_text(snapshot: GameSnapshot, moves: Sequence[MoveRecord]) -> str:
    """``/game moves``: the whole log, numbered.

    Two players alternating read as rounds (``1. a1-a3 h8-h6``); any other log (chance,
    more seats) lists one ply per line with its seat. Plain text, no markdown, so it can
    also be sent as a file.
    """
    if not moves:
        when = "yet" if snapshot.is_active else "were played"
        return f"{snapshot.game_name}, game {snapshot.game_id}: no moves {when}."
    plies = "1 ply" if len(moves) == 1 else f"{len(moves)} plies"
    head = f"{snapshot.game_name}, game {snapshot.game_id}: {plies}"
    if len(snapshot.players) == 2 and all(m.seat == i % 2 for i, m in enumerate(moves)):
        rounds = [
            f"{n + 1}. {' '.join(_move_words(m) for m in moves[2 * n : 2 * n + 2])}"
            for n in range((len(moves) + 1) // 2)
        ]
        return "\n".join([head, *rounds])
    lines = []
    for move in moves:
        who = "chance" if move.seat is None else snapshot.players[move.seat].seat_name
        lines.append(f"{move.ply}. {who}: {_move_words(move)}")
    return "\n".join([head, *lines])


def _recent_move(snapshot: GameSnapshot, move: MoveRecord) -> str:
    """``12.\u00a0`a1-a3``` for ``/game info``'s last moves; a resignation as ``12. Red
    resigns``; either marked `` (time-out)`` when played on a time-out, and a forced pass
    `` (forced)``, as ``/game moves`` marks them (:func:`_move_words`)."""
    if move.seat is not None and is_resignation(move):
        return f"{move.ply}.\u00a0{snapshot.players[move.seat].seat_name} {_move_words(move)}"
    return f"{move.ply}.\u00a0{_code(move.text)}{_how_played(move)}"


def _move_words(move: MoveRecord) -> str:
    """A logged move as a list shows it: its notation, except a resignation, which the log
    keeps in engine syntax with a 0-based seat (``[1]resign``): ``resigns``; either marked
    ``(time-out)`` when the bot played it for the seat on a time-out (its ``timeout`` event,
    :data:`~bot.service.logbook.TIMEOUT_EVENT`), ``(forced)`` when it was the only legal
    move and the bot played it for the seat (Generator's and Orbs' forced pass)."""
    words = "resigns" if is_resignation(move) else move.text
    return words + _how_played(move)


def _how_played(move: MoveRecord) -> str:
    """`` (time-out)``, `` (forced)`` or ``""``: a move the seat did not choose itself."""
    if played_on_time_out(move):
        return " (time-out)"
    return " (forced)" if played_for_the_seat(move) else ""


#: Added to ``/game rules`` of a game whose pictures turn to a seat (``render.PERSPECTIVE_GAMES``):
#: the notation help describes the fixed picture.
TURNED_BOARDS = (
    "The notation above reads the fixed picture (replays, spectators). The board posted in "
    "the channel is turned to the player to move, and your own `/board` to your side "
    "(`/settings board perspective:fixed` keeps it fixed); names stay with their cells, so "
    "read them off the board."
)


def rules_text(info: GameInfo, *, turns: bool = False) -> str:
    """``/game rules``: the game's name in bold, then the engine's rules summary and notation
    help, so every game's answer opens the same way (``**Arbos** — White and Black grow…``);
    a summary that already opens with the bold name (Generatorb's, Generator's) is not given
    it twice. ``turns``: the game's boards turn to a seat (:data:`TURNED_BOARDS` follows). May
    pass one message: send it through :func:`split_message`."""
    title = f"**{info.name}**"
    summary = info.rules_summary
    if not summary.startswith(title):
        summary = f"{title} — {summary}"
    text = f"{summary}\n\n**Notation**\n{info.notation_help}"
    return f"{text}\n{TURNED_BOARDS}" if turns else text


def no_game_rules_text(names: Sequence[str]) -> str:
    """``/game rules`` with neither a game in the channel nor ``game:``: one sentence naming
    the games ``names`` (the order of the ``game:`` menu) and saying to pick one."""
    listed = f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else "".join(names)
    return f"There is no game in this channel: pick one with `game:` ({listed})."
