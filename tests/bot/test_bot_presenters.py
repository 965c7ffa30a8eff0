"""The text the bot posts: names and mentions around the engine's own words."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from bot import presenters
from bot.service import (
    ChallengeInfo,
    DrawOffer,
    GameSnapshot,
    InvalidMoveError,
    MoveRecord,
    NotYourTurnError,
    Player,
    StaleActionError,
    TurnResult,
)
from engines import get_engine
from engines.base import Event, Outcome

SOUTH, NORTH = 11, 22
T = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)
MOVED = Event("moved", 0, "the orb on a1 moves to a3", ("a1", "a3"))
REFILLED = Event("refilled", 0, "an orb enters a1 from the supply", ("a1",))


def snapshot(**changes: object) -> GameSnapshot:
    base = GameSnapshot(
        game_id=5,
        game="generatorb",
        game_name="Generatorb",
        guild_id=1,
        channel_id=2,
        status="active",
        version=3,
        ply=1,
        players=(Player(0, SOUTH, "South"), Player(1, NORTH, "North")),
        to_move=(1,),
        only_moves=(),
        prompt=None,
        options={},
        options_text="",
        outcome=None,
        draw_offer_seat=None,
        position="S:a1 N:h8 supply:0/0 turn:N ply:1 passes:0",
        view=None,
        last_moves=(MoveRecord(1, 0, "a1-a3", (MOVED, REFILLED), T),),
        board_message_id=None,
        created_at=T,
        updated_at=T,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def turn(**changes: object) -> TurnResult:
    base = TurnResult(
        snapshot=snapshot(),
        seat=0,
        user_id=SOUTH,
        move="a1-a3",
        events=(MOVED, REFILLED),
        chance=(),
        declined_draw_offer=False,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def test_turn_text_names_the_mover_the_events_and_the_next_player() -> None:
    assert presenters.turn_text(turn()) == (
        "<@11> (South) played `a1-a3`: the orb on a1 moves to a3; "
        "an orb enters a1 from the supply.\n<@22>, your move (North)."
    )
    declined = presenters.turn_text(turn(declined_draw_offer=True, events=()))
    assert declined.startswith("<@11> (South) played `a1-a3`. The draw offer is off.\n")


def test_turn_text_of_a_winning_move_uses_the_engines_words() -> None:
    ended = Event("ended", None, "South wins by reaching the enemy core")
    final = snapshot(status="finished", to_move=(), outcome=Outcome.win("core", 0, 2))
    text = presenters.turn_text(turn(snapshot=final, move="f6xh8", events=(MOVED, ended)))
    assert text == (
        "<@11> (South) played `f6xh8`: the orb on a1 moves to a3.\n"
        "South wins by reaching the enemy core. <@11> wins!"
    )


def test_chance_outcomes_are_listed() -> None:
    assert "Then: `d:6`." in presenters.turn_text(turn(chance=("d:6",)))


def test_outcomes_the_bot_decides() -> None:
    resigned = snapshot(status="finished", to_move=(), outcome=Outcome.win("resignation", 1, 2))
    assert (
        presenters.resign_text(resigned, SOUTH) == "<@11> resigns. Won by resignation. <@22> wins!"
    )
    agreed = snapshot(status="finished", to_move=(), outcome=Outcome.draw("agreement", 2))
    assert presenters.outcome_text(agreed) == (
        "Drawn by agreement. The game between <@11> and <@22> is drawn."
    )
    assert presenters.draw_answer_text(agreed, accepted=True, by_user_id=NORTH).startswith(
        "<@22> accepted the draw offer. Drawn by agreement."
    )
    aborted = snapshot(status="aborted", to_move=())
    assert presenters.outcome_text(aborted) == "The game was aborted; it has no result."
    assert presenters.abort_text(aborted, NORTH) == (
        "<@22> aborted the game of **Generatorb** between <@11> and <@22>; it has no result."
    )


def test_a_forced_move_is_spelled_out_in_the_turn_prompt() -> None:
    """G27: a player whose only legal move is ``pass`` is told how to play it."""
    forced = presenters.turn_text(turn(snapshot=snapshot(only_moves=("pass",))))
    assert forced.endswith(
        "<@22>, your move (North). Your only legal move is `pass`: play `/move pass`."
    )
    few = presenters.game_started_text(snapshot(only_moves=("pass", "pass@g8")))
    assert few.endswith("Your only legal moves are `pass` and `pass@g8`.")


def test_game_started_and_info() -> None:
    start = snapshot(ply=0, to_move=(0,), last_moves=(), options_text="refill=all")
    assert presenters.game_started_text(start) == (
        "**Generatorb** begins: <@11> plays South and <@22> plays North.\n"
        "Options: `refill=all`.\n<@11>, your move (South)."
    )
    info = presenters.game_info_text(snapshot(draw_offer_seat=0))
    assert "Players: <@11> (South) and <@22> (North)" in info
    assert "Options: standard" in info
    assert "To move: <@22> (North)" in info
    assert "Draw offered by <@11> (South)." in info
    assert "Last moves: 1.\u00a0`a1-a3`" in info
    assert "Position: `S:a1 N:h8" in info


def test_move_list_in_rounds_or_by_ply() -> None:
    moves = [
        MoveRecord(1, 0, "a1-a3", (), T),
        MoveRecord(2, 1, "h8-h6", (), T),
        MoveRecord(3, 0, "c3*d4", (), T),
    ]
    assert presenters.move_list_text(snapshot(), moves) == (
        "Generatorb, game 5: 3 plies\n1. a1-a3 h8-h6\n2. c3*d4"
    )
    with_chance = [MoveRecord(1, None, "first:1", (), T), MoveRecord(2, 1, "roll", (), T)]
    assert presenters.move_list_text(snapshot(), with_chance).endswith(
        "\n1. chance: first:1\n2. North: roll"
    )
    assert presenters.move_list_text(snapshot(), []).endswith("no moves yet.")


def test_challenge_texts() -> None:
    info = ChallengeInfo(
        challenge_id=1,
        guild_id=1,
        channel_id=2,
        message_id=None,
        challenger_id=SOUTH,
        opponent_id=None,
        game="generatorb",
        game_name="Generatorb",
        options={},
        options_text="refill=all",
        status="open",
        game_id=None,
        created_at=T,
        expires_at=T,
    )
    assert presenters.challenge_text(info) == (
        f"<@11> challenges anyone to **Generatorb** with `refill=all`. "
        f"The challenge expires <t:{int(T.timestamp())}:R>."
    )
    accepted = replace(info, status="accepted", opponent_id=NORTH)
    assert presenters.challenge_closed_text(accepted, by_user_id=NORTH, game_channel_id=9) == (
        "<@11> challenged <@22> to **Generatorb**: accepted by <@22>. The game is on in <#9>."
    )
    assert presenters.challenge_closed_text(replace(info, status="expired")).endswith("expired.")


def test_draw_offer_text() -> None:
    offer = DrawOffer(game_id=5, version=4, seat=0, user_id=SOUTH, opponent_user_ids=(NORTH,))
    assert presenters.draw_offer_text(offer) == (
        "<@11> offers a draw. <@22>, do you accept? (A move declines it.)"
    )


def test_error_texts_add_what_helps() -> None:
    ambiguous = InvalidMoveError(
        "'a' could mean several moves.", kind="ambiguous", text="a", candidates=("a1-a3", "a1-c3")
    )
    assert presenters.error_text(ambiguous).endswith("Did you mean `a1-a3` and `a1-c3`?")
    notation = InvalidMoveError("'zz' is not a move.", kind="notation", text="zz")
    assert "`/game rules`" in presenters.error_text(notation)
    assert presenters.error_text(NotYourTurnError((NORTH,))) == (
        "It is not your turn: waiting for <@22>."
    )
    assert presenters.error_text(StaleActionError()) == StaleActionError().message


def test_rules_text_is_the_engines_own() -> None:
    info = get_engine("generatorb").info
    text = presenters.rules_text(info)
    assert text.startswith(info.rules_summary)
    assert text.endswith(info.notation_help)
    assert all(len(chunk) <= presenters.MESSAGE_LIMIT for chunk in presenters.split_message(text))


def test_split_message_keeps_lines_whole() -> None:
    text = "\n".join(f"line {i:03}" for i in range(100))
    chunks = presenters.split_message(text, limit=100)
    assert all(len(c) <= 100 for c in chunks)
    assert "\n".join(chunks) == text
    assert presenters.split_message("x" * 250, limit=100) == ["x" * 100, "x" * 100, "x" * 50]
