"""The text the bot posts: names and mentions around the engine's own words."""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import replace
from datetime import UTC, datetime

from bot import presenters
from bot.service import (
    ChallengeInfo,
    ChallengePlayer,
    DrawOffer,
    GameSnapshot,
    InvalidMoveError,
    MoveRecord,
    NotYourTurnError,
    Player,
    StaleActionError,
    TurnResult,
)
from bot.service.bot_seats import bot_user_id
from bot.service.logbook import turn_so_far
from bot.service.models import (
    Hint,
    HintMove,
    RatingChange,
    SeatClockInfo,
    TakebackAnswer,
)
from bot.service.rating_models import GameRating, Leaderboard, LeaderboardEntry, RatingProfile
from bot.service.spectators import WatchChange, WatchResult
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
        unannounced=(),
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


def test_a_forced_pass_played_for_a_seat_reads_once_with_its_seat() -> None:
    """Generator: the bot passes for North after the roll; the line says so once, and no bare
    "passed" after it suggests that South (the mover) passed."""
    events = (
        Event("moved", 0, "moved S from R to Y"),
        Event("rolled", 1, "North rolled red (R)"),
        Event("automatic", 1, "North has no legal move and passes"),
        Event("passed", 1, "passed"),
        Event("rolled", 0, "South rolled blue (B)"),
    )
    line = presenters.turn_text(turn(events=events))
    assert line.startswith(
        "<@11> (South) played `a1-a3`: moved S from R to Y; North rolled red (R); North has "
        "no legal move and passes; South rolled blue (B).\n"
    )
    # The mover's own pass event stays beside another move …
    mine = presenters.turn_text(turn(events=(Event("passed", 0, "passed"),)))
    assert mine.startswith("<@11> (South) played `a1-a3`: passed.")
    # … and goes beside `pass`, which says it ("played `pass`: passed"), unless it says more.
    bare = presenters.turn_text(turn(move="pass", events=(Event("passed", 0, "passed"),)))
    assert bare.startswith("<@11> (South) played `pass`.\n")
    why = Event("passed", 0, "passes (no legal move)")
    assert presenters.turn_text(turn(move="pass", events=(why,))).startswith(
        "<@11> (South) played `pass`: passes (no legal move).\n"
    )


def test_a_change_of_turn_is_said_once_by_the_ping() -> None:
    """Generation Zero's "round 2: Seat 2 to play" event is not repeated before the line
    that pings Seat 2 (its prompt gives the round)."""
    events = (
        Event("held", 0, "A2 held"),
        Event("turn", 1, "round 2: Seat 2 to play"),
    )
    prompt = "Seat 2 orders its 'Sues (round 2/10), or `end`."
    line = presenters.turn_text(turn(events=events, snapshot=snapshot(prompt=prompt)))
    assert line == f"<@11> (South) played `a1-a3`: A2 held.\n<@22>, your move (North). {prompt}"


def test_the_roll_of_the_seat_to_move_is_said_once_by_its_prompt() -> None:
    """Generator: "North rolled red (R)" is not said before "You rolled **red**: …" under
    North's ping; a roll before a forced pass stays, and so does the roll when the prompt is
    not shown (the bot is to move, or the game is over)."""
    prompt = "You rolled **red**: move a unit to a red node or pass."
    rolled = Event("rolled", 1, "North rolled red (R)")
    line = presenters.turn_text(turn(events=(MOVED, rolled), snapshot=snapshot(prompt=prompt)))
    assert line == (
        "<@11> (South) played `a1-a3`: the orb on a1 moves to a3.\n"
        f"<@22>, your move (North). {prompt}"
    )
    # North's forced pass after a first roll, then North to move again after South's.
    events = (
        rolled,
        Event("automatic", 1, "North has no legal move and passes"),
        Event("passed", 1, "passed"),
        Event("rolled", 0, "South rolled blue (B)"),
        Event("moved", 0, "moved S from R to B"),
        Event("rolled", 1, "North rolled red (R)"),
    )
    again = presenters.turn_text(turn(events=events, snapshot=snapshot(prompt=prompt)))
    assert again.startswith(
        "<@11> (South) played `a1-a3`: North rolled red (R); North has no legal move and "
        "passes; South rolled blue (B); moved S from R to B.\n"
    )
    # South's roll is not North's prompt: it stays.
    other = Event("rolled", 0, "South rolled blue (B)")
    kept = presenters.turn_text(turn(events=(MOVED, other), snapshot=snapshot(prompt=prompt)))
    assert "; South rolled blue (B).\n" in kept
    # The bot to move: no prompt below, so the roll is said.
    bots = (Player(0, SOUTH, "South"), Player(1, bot_user_id(1), "North"))
    told = presenters.turn_text(
        turn(events=(MOVED, rolled), snapshot=snapshot(prompt=prompt, players=bots))
    )
    assert "; North rolled red (R).\n" in told


def test_a_watchers_line_keeps_what_the_prompt_says() -> None:
    """A watcher's direct message has no prompt below it, so its line keeps the next roll
    and the due prune that the board post leaves to the prompt under the ping."""
    prompt = "You rolled **red**: move a unit to a red node or pass."
    rolled = Event("rolled", 1, "North rolled red (R)")
    result = turn(events=(MOVED, rolled), snapshot=snapshot(prompt=prompt))
    line = presenters.watcher_turn_line(result)
    assert line == "<@11> (South) played `a1-a3`: the orb on a1 moves to a3; North rolled red (R)."
    assert presenters.turn_text(result).split("\n")[0] != line
    dm = presenters.watcher_dm_text(result.snapshot, line, None)
    assert dm.endswith(": " + line)
    due = Event("prune_due", 1, "Black has 4 trees and must prune 1 tree")
    pruning = turn(events=(due,), snapshot=snapshot(prompt=f"{due.text} first (A17): …"))
    assert presenters.watcher_turn_line(pruning).endswith(f": {due.text}.")


def test_a_watchers_line_tells_the_whole_turn_of_many_decisions() -> None:
    """Generation Zero: the watcher hears once per turn, so the line tells every decision of
    the turn the move ended and what each did, with the chance rows' events among them;
    "…" first when the turn began before the rows the service looked at."""
    at = datetime(2026, 11, 28, tzinfo=UTC)
    earlier = (
        MoveRecord(11, 0, "move S4 L14", (Event("moved", 0, "S4 moved to L14"),), at),
        MoveRecord(12, None, "monster:M3", (Event("fight", 0, "S4 fights M3"),), at),
        MoveRecord(13, 0, "flee L11", (Event("fled", 0, "S4 fled to L11"),), at),
    )
    rested = Event("rested", 0, "A8 rested")
    last = turn(move="rest A8", events=(rested,), turn_before=earlier)
    expected = (
        "<@11> (South) played `move S4 L14`, `flee L11` and `rest A8`: S4 moved to L14; "
        "S4 fights M3; S4 fled to L11; A8 rested."
    )
    assert presenters.watcher_turn_line(last) == expected
    assert presenters.turn_text(last).startswith("<@11> (South) played `rest A8`: A8 rested.")
    cut = presenters.watcher_turn_line(replace(last, turn_cut=True))
    assert cut.startswith("<@11> (South) played … `move S4 L14`, ")


def test_a_turn_so_far_is_the_seats_rows_since_another_seat_moved() -> None:
    at = datetime(2026, 11, 28, tzinfo=UTC)

    def rows(*seats: int | None, first: int = 1) -> list[MoveRecord]:
        return [MoveRecord(first + i, s, f"m{first + i}", (), at) for i, s in enumerate(seats)]

    log = rows(None, 1, 1, None, 0, None, 0, 0)  # ply 8 is the move that ends seat 0's turn
    turn, whole = turn_so_far(log, 0, 8)
    assert [m.ply for m in turn] == [5, 6, 7]
    assert whole
    # The deal before the first decision is not the turn's; another seat's resignation is
    # passed over and left out.
    resigned = [*rows(1, None, 0), MoveRecord(4, 1, "[1]resign", (), at), *rows(0, 0, first=5)]
    turn, whole = turn_so_far(resigned, 0, 6)
    assert [m.ply for m in turn] == [3, 5]
    assert whole
    assert turn_so_far(rows(None, 0, 0), 0, 3) == (tuple(rows(None, 0, 0)[1:2]), True)
    # Rows that do not reach the turn's beginning say so.
    turn, whole = turn_so_far(rows(0, 0, 0, first=20), 0, 23)
    assert len(turn) == 3
    assert not whole


def test_an_event_the_prompt_repeats_is_left_to_the_prompt() -> None:
    """Arbos: a due prune is told once, by the prompt under the ping (A17)."""
    due = "Black has 4 trees and must prune 1 tree"
    prompt = f"{due} first: `prune CELL` names one cell of each tree to remove (A17)."
    events = (Event("placed", 0, "a spore on K10"), Event("prune_due", 1, due))
    line = presenters.turn_text(turn(events=events, snapshot=snapshot(prompt=prompt)))
    # The prompt is shown without the rule id it cites (players read `/game rules`).
    shown = prompt.replace(" (A17)", "")
    assert (
        line == f"<@11> (South) played `a1-a3`: a spore on K10.\n<@22>, your move (North). {shown}"
    )
    # Without that prompt below (the game is over, or another prompt), the event stays.
    other = presenters.turn_text(turn(events=events, snapshot=snapshot(prompt="Pass pending.")))
    assert due in other


def test_the_bot_to_move_is_named_not_addressed() -> None:
    """A post does not tell the bot "your move" nor show it the prompt and its legal moves."""
    players = (Player(0, SOUTH, "South"), Player(1, bot_user_id(1), "North"))
    bots_turn = snapshot(
        players=players, prompt="You rolled **blue**: move a unit.", only_moves=("pass", "x")
    )
    assert presenters.turn_text(turn(snapshot=bots_turn)).endswith(
        "\n**Gameroom (level 1)** (North) to move."
    )
    # Nothing the hidden prompt would have said is dropped from the line above it.
    due = Event("prune_due", 1, "You rolled **blue**")
    turned = Event("turn", 1, "round 2: North to play")
    told = presenters.turn_text(turn(snapshot=bots_turn, events=(MOVED, due, turned)))
    assert "; You rolled **blue**; round 2: North to play.\n" in told
    # The person's turn keeps the prompt and the moves.
    yours = replace(bots_turn, to_move=(0,))
    assert presenters.turn_text(turn(snapshot=yours)).endswith(
        "<@11>, your move (South). You rolled **blue**: move a unit. "
        "Your only legal moves are `pass` and `x`."
    )


def test_turn_text_of_a_winning_move_uses_the_engines_words() -> None:
    ended = Event("ended", None, "South wins by reaching the enemy core")
    final = snapshot(status="finished", to_move=(), outcome=Outcome.win("core", 0, 2))
    text = presenters.turn_text(turn(snapshot=final, move="f6xh8", events=(MOVED, ended)))
    assert text == (
        "<@11> (South) played `f6xh8`: the orb on a1 moves to a3.\n"
        "South wins by reaching the enemy core. <@11> (South) wins! Good game, <@22>."
    )


def test_bots_of_one_level_are_told_apart_by_their_seats_when_the_game_ends() -> None:
    bots = [bot_user_id(1, i) for i in range(3)]
    players = tuple(Player(s, u, f"Seat {s + 1}") for s, u in enumerate(bots))
    show = snapshot(players=players, status="finished", to_move=())
    won = replace(show, outcome=Outcome.win("round_limit", 1, 3))
    assert presenters.outcome_text(won).endswith(
        "**Gameroom (level 1)** (Seat 2) wins by round limit! Good game, "
        "**Gameroom (level 1)** (Seat 1) "
        "and **Gameroom (level 1)** (Seat 3)."
    )
    drawn = replace(show, outcome=Outcome.draw("round_limit", 3))
    assert "between **Gameroom (level 1)** (Seat 1), **Gameroom (level 1)** (Seat 2) and" in (
        presenters.outcome_text(drawn)
    )
    # A name nobody else in the game has stays as it is (a winner's seat is always named).
    mixed = (Player(0, SOUTH, "South"), Player(1, bot_user_id(3), "North"))
    ended = snapshot(players=mixed, status="finished", to_move=(), outcome=Outcome.win("x", 1, 2))
    assert presenters.outcome_text(ended).endswith(
        "**Gameroom (level 3)** (North) wins by x! Good game, <@11>."
    )
    assert "<@11> (South)" not in presenters.outcome_text(ended)
    # Once some players need their seats, every player has them: an Orbs team draw with a
    # level-1 bot on each team says who was on which team.
    teams = (
        Player(0, 22, "North-east, team A"),
        Player(1, SOUTH, "South-east, team B"),
        Player(2, bot_user_id(1), "South-west, team A"),
        Player(3, bot_user_id(1, 1), "North-west, team B"),
    )
    draw = snapshot(players=teams, status="finished", to_move=(), outcome=Outcome.draw("x", 4))
    assert presenters.outcome_text(draw).startswith(
        "The game between <@22> (North-east, team A); <@11> (South-east, team B); "
        "**Gameroom (level 1)** (South-west, team A); and **Gameroom (level 1)** "
        "(North-west, team B) is drawn"
    )


def test_a_draw_after_a_resignation_names_who_drew_and_who_had_left() -> None:
    """Generator with three: Red resigned, the other two drew at the turn limit; the engine
    ranks Red below the draw."""
    three = (Player(0, 11, "Green"), Player(1, 22, "Red"), Player(2, 33, "Yellow"))
    drawn = Outcome("turn_limit", (), ((0, 2), (1,)))
    ended = snapshot(players=three, status="finished", to_move=(), outcome=drawn)
    assert presenters.outcome_text(ended).endswith(
        "The game between <@11> and <@33> is drawn by turn limit. <@22> had left it."
    )


def test_a_resignation_reads_as_words_in_move_lists_and_the_resigner_hears_the_game() -> None:
    three = (Player(0, 11, "Green"), Player(1, 22, "Red"), Player(2, 33, "Yellow"))
    moves = (
        MoveRecord(ply=1, seat=0, text="M:G-GR", events=(), at=T),
        MoveRecord(ply=2, seat=1, text="[1]resign", events=(), at=T),
    )
    going = snapshot(players=three, last_moves=moves)
    listed = presenters.move_list_text(going, moves)
    assert listed.endswith("1. Green: M:G-GR\n2. Red: resigns")
    assert "Last moves: 1.\u00a0`M:G-GR` 2.\u00a0Red resigns" in presenters.game_info_text(going)
    timed_out = (moves[0], replace(moves[1], events=(Event("timeout", 1, "Red is out of time"),)))
    late = replace(going, last_moves=timed_out)
    assert "2.\u00a0Red resigns (time-out)" in presenters.game_info_text(late)
    assert "[1]resign" not in listed + presenters.game_info_text(going)
    assert presenters.resigned_ack(going) == "You resigned from **Generatorb** (game 5)."
    ended = replace(going, status="finished", outcome=Outcome.win("resignation", 0, 2))
    assert presenters.resigned_ack(replace(ended, rated=True, ended_too_soon=True)).endswith(
        " It is not rated: too few moves had been played."
    )
    # Unrated for another reason (a custom start): no reason guessed; nor from the ply
    # count, which counts an Arbos setup's chance plies (20) and Generator's rolls.
    assert presenters.resigned_ack(replace(ended, rated=True, ply=1)).endswith(
        "(game 5). It is not rated."
    )
    rating = RatingChange(11, 0, 1500, 1520, provisional=True, provisional_before=True)
    rated = replace(ended, rated=True, ply=40, rating_changes=(rating,))
    assert presenters.resigned_ack(rated) == "You resigned from **Generatorb** (game 5)."


def test_a_seat_knocked_out_is_named_with_its_player() -> None:
    three = (
        Player(0, 11, "North, team A"),
        Player(1, 22, "South-east, team B"),
        Player(2, 33, "South-west, team A"),
    )
    out = Event("eliminated", 1, "South-east has no orbs left and is out (ORB-5)")
    rolled = Event("rolled", 1, "South-east rolled red (R)")  # other events: seat alone
    shown = presenters.turn_text(turn(snapshot=snapshot(players=three), events=(out, rolled)))
    assert shown.startswith(
        "<@11> (North, team A) played `a1-a3`: South-east (<@22>) has no orbs left and is out; "
        "South-east rolled red (R)."
    )


def test_the_post_that_knocks_a_player_out_pings_them() -> None:
    """The players to move, then whoever the move knocks out (named in its first line); the
    mover is not pinged for knocking themself out, and at the end every player is."""
    three = (Player(0, 11, "North"), Player(1, 22, "South-east"), Player(2, 33, "South-west"))
    out = Event("eliminated", 1, "South-east has no orbs left and is out (ORB-5)")
    going = snapshot(players=three, to_move=(2,))
    assert presenters.turn_mention_ids(turn(snapshot=going, events=(out,))) == (33, 22)
    assert presenters.turn_mention_ids(turn(snapshot=going, events=(MOVED,))) == (33,)
    own = Event("eliminated", 0, "North has no orbs left and is out (ORB-5)")
    assert presenters.turn_mention_ids(turn(snapshot=going, events=(own,))) == (33,)
    over = replace(going, status="finished", to_move=(), outcome=Outcome.win("last_standing", 0, 3))
    assert presenters.turn_mention_ids(turn(snapshot=over, events=(out,))) == (11, 22, 33)


def test_refusals_and_posts_leave_out_the_rule_ids_the_engines_cite() -> None:
    """Players read the rules by ``/game rules``, which cites no ids: "(A17)", "(GEN-6,
    GEN-7)", "(R6.2)" and "(D-G25)" are left out; a colour letter "(R)" stays."""
    cases = {
        "no prune is due: you have at most 3 trees (A17).": (
            "no prune is due: you have at most 3 trees."
        ),
        "Black must first prune K10: `prune CELL` names a cell (A17).": (
            "Black must first prune K10: `prune CELL` names a cell."
        ),
        # Only at a sentence's end, where the engines cite: mid-sentence (a player's own
        # "(A5)" echoed back) it stays (review 3).
        "Unknown word '(A5)'; a move is a cell such as `K10`.": (
            "Unknown word '(A5)'; a move is a cell such as `K10`."
        ),
        "The Canon (A1) is gone (R7.2)! Pick another (R7.3)?": (
            "The Canon (A1) is gone! Pick another?"
        ),
        "You may not move that pyramid (GEN-6, GEN-7, GEN-12).": ("You may not move that pyramid."),
        "That card is exhausted (R6.2). Pick another.": "That card is exhausted. Pick another.",
        "The side to move already won (D-G25).": "The side to move already won.",
        "North rolled red (R).": "North rolled red (R).",
        # Ranges, the Generator, Orbs and Generation Zero appendix families, clause letters
        # (exploratory pass 10: "(A13–A15)" read as Arbos cells A13 to A15).
        "Black has no seed in hand for `seed` (A13–A15).": (
            "Black has no seed in hand for `seed`."
        ),
        "No step or jump sequence leads there (G11-G13).": "No step or jump sequence leads there.",
        "You move only your own pyramids (D-GEN-6).": "You move only your own pyramids.",
        "The sides draw (D-ORB-11; ORB-9).": "The sides draw.",
        "S1 must first decide: ensnare (8.1).": "S1 must first decide: ensnare.",
        "Not in a fight (R13.2, 6.3).": "Not in a fight.",
        "That refill is not allowed (G28 c).": "That refill is not allowed.",
        "Blue has 2 in the stash, not 5 (check 4).": "Blue has 2 in the stash, not 5.",
        "A Large may not stand on level 2 (GEN-8, check 2).": "A Large may not stand on level 2.",
        "The orb on a1 moves to a3 (a1-a3).": "The orb on a1 moves to a3 (a1-a3).",
        "Score 3 (1.5 a kill) so far.": "Score 3 (1.5 a kill) so far.",
    }
    for engine_text, shown in cases.items():
        refusal = InvalidMoveError(engine_text, kind="illegal", text="x")
        assert presenters.error_text(refusal) == shown
    ended = Event("ended", None, "only one side has orbs left and wins (ORB-8)")
    over = replace(
        snapshot(status="finished", to_move=()),
        outcome=Outcome.win("last_standing", 1, 2),
        last_moves=(MoveRecord(ply=9, seat=0, text="a1-a3", events=(ended,), at=T),),
    )
    assert "(ORB-8)" not in presenters.outcome_text(over)
    assert presenters.outcome_text(over).startswith("Only one side has orbs left and wins. ")


def test_a_resignation_played_on_a_time_out_ends_the_game_on_time() -> None:
    """Orbs with three: the late seat resigns on time (``[k]resign`` with a ``timeout``
    event) and the engine ends the game (one side left). The result says "on time", as the
    time-out's post did, not "by resignation"."""
    ended = Event("ended", None, "only one side has orbs left and wins (ORB-8)")
    notice = Event("timeout", 1, "North is out of time and resigns")
    for events, how in (((notice, ended), "on time"), ((ended,), "by resignation")):
        over = replace(
            snapshot(status="finished", to_move=()),
            outcome=Outcome.win("last_standing", 0, 2),
            last_moves=(MoveRecord(9, 1, "[1]resign", events, T),),
        )
        assert presenters.outcome_text(over).startswith(f"<@11> (South) wins {how}!")


def test_chance_outcomes_are_listed() -> None:
    assert "Then: `d:6`." in presenters.turn_text(turn(unannounced=("d:6",)))


def test_outcomes_the_bot_decides() -> None:
    resigned = snapshot(status="finished", to_move=(), outcome=Outcome.win("resignation", 1, 2))
    # An engine that ends the game on a resignation (Orbs: "only one side has orbs left")
    # is not quoted: the resignation is what ended it.
    orbs_end = Event("ended", None, "only one side has orbs left and wins (ORB-8)")
    by_engine = replace(
        resigned,
        outcome=Outcome.win("last_standing", 1, 2),
        last_moves=(MoveRecord(ply=9, seat=0, text="[0]resign", events=(orbs_end,), at=T),),
    )
    assert presenters.resign_text(by_engine, SOUTH) == (
        "<@11> resigns. <@22> (North) wins by resignation! Good game, <@11>."
    )
    # /game info, a watcher's DM and the board's caption read the ending from the log: the
    # same words there.
    assert presenters.outcome_text(by_engine) == (
        "<@22> (North) wins by resignation! Good game, <@11>."
    )
    # A decisive result mentions every player, the loser too (d).
    assert presenters.resign_text(resigned, SOUTH) == (
        "<@11> resigns. <@22> (North) wins by resignation! Good game, <@11>."
    )
    agreed = snapshot(status="finished", to_move=(), outcome=Outcome.draw("agreement", 2))
    assert presenters.outcome_text(agreed) == (
        "The game between <@11> and <@22> is drawn by agreement."
    )
    # The answered offer says only that; the board under it gives the result (once).
    assert presenters.draw_answer_text(accepted=True, by_user_id=NORTH) == (
        "<@22> accepted the draw offer: the game is drawn."
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
    assert "Players: South — <@11> and North — <@22>" in info
    assert "Options: standard" in info
    assert "To move: <@22> (North)" in info
    assert "Draw offered by <@11> (South)." in info
    assert "Last moves: 1.\u00a0`a1-a3`" in info
    assert "Position: `S:a1 N:h8" in info
    three = (Player(0, SOUTH, "Green"), Player(1, NORTH, "Red"), Player(2, 33, "Yellow"))
    pending = snapshot(players=three, draw_offer_seat=2, draw_agreed=(0, 2))
    assert "Draw offered by <@33> (🟡 Yellow); accepted by <@11> (🟢 Green)." in (
        presenters.game_info_text(pending)
    )


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
    finished = snapshot(status="finished", to_move=())
    assert presenters.move_list_text(finished, []).endswith("no moves were played.")
    assert presenters.move_list_text(snapshot(), moves[:1]) == (
        "Generatorb, game 5: 1 ply\n1. a1-a3"
    )
    # A move the bot played for a seat on a time-out is marked so.
    timed_out = Event("timeout", 1, "North is out of time: pass played on time-out")
    late = [*moves[:1], MoveRecord(2, 1, "pass", (timed_out,), T)]
    assert presenters.move_list_text(snapshot(), late).endswith("\n1. a1-a3 pass (time-out)")
    # And a forced pass the bot played for a seat (Generator, Orbs): not the seat's choice.
    only = Event("automatic", 1, "North has no legal move and passes")
    forced = [*moves[:1], MoveRecord(2, 1, "pass", (only,), T)]
    assert presenters.move_list_text(snapshot(), forced).endswith("\n1. a1-a3 pass (forced)")
    assert "2.\u00a0`pass` (forced)" in presenters.game_info_text(snapshot(last_moves=forced))


def challenge(**changes: object) -> ChallengeInfo:
    """An open two-seat Generatorb challenge by SOUTH to anyone."""
    base = ChallengeInfo(
        challenge_id=1,
        guild_id=1,
        channel_id=2,
        message_id=None,
        challenger_id=SOUTH,
        game="generatorb",
        game_name="Generatorb",
        players=2,
        min_players=2,
        lobby=(ChallengePlayer(SOUTH, "challenger", "seated"),),
        options={},
        options_text="refill=all",
        status="open",
        game_id=None,
        created_at=T,
        expires_at=T,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


EXPIRES = f"The challenge expires <t:{int(T.timestamp())}:R>."
ANN, BOB, CAT, DAN = 1, 2, 3, 4


def test_two_seat_challenge_texts() -> None:
    assert presenters.challenge_text(challenge()) == (
        "<@11> challenges anyone to **Generatorb** with `refill=all`.\n"
        "1. <@11> (challenger)\n"
        "2. open\n"
        f"Anyone may join: press **Join** to take an open seat. {EXPIRES}"
    )
    named = challenge(
        options_text="",
        lobby=(
            ChallengePlayer(SOUTH, "challenger", "seated"),
            ChallengePlayer(NORTH, "invited", "invited"),
        ),
    )
    assert presenters.challenge_text(named) == (
        f"<@11> challenges <@22> to **Generatorb**.\n1. <@11> (challenger)\n2. <@22> (invited)\n"
        f"Only <@22> may accept or decline. {EXPIRES}"
    )
    started = snapshot(channel_id=9)
    accepted = replace(named, status="accepted", game_id=5)
    assert presenters.challenge_closed_text(accepted, game=started) == (
        "<@11> challenged <@22> to **Generatorb**: the game is on in <#9>.\n"
        "South — <@11>\nNorth — <@22>"
    )
    assert presenters.challenge_closed_text(accepted) == (
        "<@11> challenged <@22> to **Generatorb**: the game has started."
    )
    here = replace(started, channel_id=accepted.channel_id)  # not in a thread
    assert presenters.challenge_closed_text(accepted, game=here).startswith(
        "<@11> challenged <@22> to **Generatorb**: the game is on below.\n"
    )
    # Started early: two of four seats (the heading keeps the challenge's count).
    early = replace(accepted, players=4)
    assert presenters.challenge_closed_text(early, game=started) == (
        "<@11> challenged <@22> and anyone to **Generatorb** (4 players): the game is on in "
        "<#9>, started with 2 of the 4 seats filled.\nSouth — <@11>\nNorth — <@22>"
    )
    # Started early while an invited player had not answered: their seat went, say so.
    waiting = replace(early, lobby=(*early.lobby, ChallengePlayer(33, "invited", "invited")))
    assert "4 seats filled (without <@33>, who had not answered).\n" in (
        presenters.challenge_closed_text(waiting, game=started)
    )
    declined = replace(
        named,
        status="declined",
        lobby=(named.lobby[0], ChallengePlayer(NORTH, "invited", "declined")),
    )
    assert presenters.challenge_closed_text(declined) == (
        "<@11> challenged <@22> to **Generatorb**: declined by <@22>."
    )
    assert presenters.challenge_closed_text(replace(named, status="cancelled")).endswith(
        "**Generatorb**: cancelled."
    )
    assert presenters.challenge_closed_text(replace(named, status="expired")).endswith(
        "nobody answered in time, so the challenge expired."
    )


def test_a_lobby_lists_every_seat_and_how_to_take_part() -> None:
    lobby = challenge(
        challenger_id=ANN,
        game="generator",
        game_name="Generator",
        players=4,
        options_text="",
        lobby=(
            ChallengePlayer(ANN, "challenger", "seated"),
            ChallengePlayer(BOB, "invited", "seated"),
            ChallengePlayer(CAT, "invited", "declined"),
            ChallengePlayer(DAN, "joined", "seated"),
            ChallengePlayer(5, "joined", "left"),
        ),
    )
    # While the lobby is open, one who declined is no longer among those challenged (their
    # seat is open to anyone); the heading of the closed post still names them.
    assert presenters.challenge_text(lobby) == (
        "<@1> challenges <@2> and anyone to **Generator** (4 players).\n"
        "1. <@1> (challenger)\n"
        "2. <@2> (accepted)\n"
        "3. <@4> (joined)\n"
        "4. open\n"
        "Declined: <@3>.\n"
        "Anyone may join: press **Join** to take an open seat. The game starts when every "
        f"seat is filled, or when <@1> presses **Start** with at least 2 players. {EXPIRES}"
    )
    full = replace(
        lobby,
        players=3,
        min_players=3,
        lobby=(*lobby.lobby[:2], ChallengePlayer(CAT, "invited", "invited")),
    )
    assert presenters.challenge_text(full) == (
        "<@1> challenges <@2> and <@3> to **Generator** (3 players).\n"
        "1. <@1> (challenger)\n2. <@2> (accepted)\n3. <@3> (invited)\n"
        f"Only <@3> may accept or decline. The game starts when every seat is filled. {EXPIRES}"
    )
    expired = replace(lobby, status="expired")
    assert presenters.challenge_closed_text(expired) == (
        "<@1> challenged <@2>, <@3> and anyone to **Generator** (4 players): "
        "the seats were not filled in time, so the challenge expired."
    )


def test_an_open_challenge_says_who_may_answer() -> None:
    both = challenge(
        challenger_id=ANN,
        game_name="Generator",
        players=3,
        options_text="",
        lobby=(
            ChallengePlayer(ANN, "challenger", "seated"),
            ChallengePlayer(BOB, "invited", "invited"),
        ),
    )
    text = presenters.challenge_text(both)
    assert (
        "Only <@2> may accept or decline. Anyone may join: press **Join** to take an open seat."
    ) in text
    assert "presses **Start**" in text
    custom = replace(both, start_position="G:gM,R:rM,Y:yM G545,R545,Y545 G=? 0")
    text = presenters.challenge_text(custom)
    assert "Starts from a custom position, so the game is casual (not rated)." in text
    assert "**Start**" not in text  # a position fixes the player count: no early start


def test_game_info_marks_seats_that_left() -> None:
    three = snapshot(
        game="generator",
        game_name="Generator",
        players=(Player(0, BOB, "Green"), Player(1, ANN, "Red"), Player(2, DAN, "Yellow")),
        to_move=(0,),
        left_seats=((2, "resigned"), (1, "eliminated")),
    )
    assert (
        "Players: 🟢 Green — <@2>, 🔴 Red — <@1> (eliminated) and 🟡 Yellow — <@4> (resigned)"
    ) in presenters.game_info_text(three)
    # Only the banks of the seats still in: the others' clocks never run again.
    clocks = tuple(
        SeatClockInfo(seat, 60_000, seat == 0, None, False, None, "soft", T) for seat in range(3)
    )
    timed = replace(three, clock="soft:1m", clock_text="soft clock: 1m", clocks=clocks)
    assert "Time left: 🟢 Green 1m\n" in presenters.game_info_text(timed)


def test_seats_that_are_colours_get_a_disc() -> None:
    assert presenters.seat_label("Green") == "🟢 Green"
    assert presenters.seat_label("blue") == "🔵 blue"
    assert presenters.seat_label("South") == "South"
    three = snapshot(
        game="generator",
        game_name="Generator",
        ply=0,
        to_move=(0,),
        last_moves=(),
        players=(Player(0, BOB, "Green"), Player(1, ANN, "Red"), Player(2, DAN, "Yellow")),
    )
    assert presenters.game_started_text(three).startswith(
        "**Generator** begins: <@2> plays 🟢 Green, <@1> plays 🔴 Red and <@4> plays 🟡 Yellow."
    )
    assert "Players: 🟢 Green — <@2>, 🔴 Red — <@1> and 🟡 Yellow — <@4>" in (
        presenters.game_info_text(three)
    )
    lobby = challenge(challenger_id=ANN, game_name="Generator", players=3, status="accepted")
    assert presenters.challenge_closed_text(lobby, game=three).endswith(
        "\n🟢 Green — <@2>\n🔴 Red — <@1>\n🟡 Yellow — <@4>"
    )


def test_a_resignation_the_game_survives_says_who_left_and_who_moves() -> None:
    going_on = snapshot(
        players=(Player(0, BOB, "Green"), Player(1, ANN, "Red"), Player(2, DAN, "Yellow")),
        to_move=(2,),
    )
    assert presenters.resign_text(going_on, ANN) == (
        "<@1> (🔴 Red) resigns and leaves the game; play goes on without them.\n"
        "<@4>, your move (🟡 Yellow)."
    )


def test_draw_offer_text() -> None:
    offer = DrawOffer(game_id=5, version=4, seat=0, user_id=SOUTH, opponent_user_ids=(NORTH,))
    assert presenters.draw_offer_text(offer) == (
        "<@11> offers a draw. <@22>, do you accept? (A move declines it.)"
    )


def test_a_draw_offer_to_several_says_who_has_accepted_and_who_is_to_answer() -> None:
    offer = DrawOffer(game_id=5, version=4, seat=1, user_id=ANN, opponent_user_ids=(BOB, CAT))
    assert presenters.draw_offer_text(offer) == (
        "<@1> offers a draw. Every player still in must accept. <@2> and <@3>, do you accept? "
        "(A move declines it.)"
    )
    four = (
        Player(0, BOB, "Green"),
        Player(1, ANN, "Red"),
        Player(2, CAT, "Yellow"),
        Player(3, bot_user_id(3), "Blue"),
    )
    waiting = snapshot(players=four, draw_offer_seat=1, draw_agreed=(0, 1, 3), draw_waiting=(2,))
    assert presenters.draw_progress_text(waiting) == (
        "<@1> offers a draw. Accepted by <@2> and **Gameroom (level 3)**; still to answer: "
        "<@3>. (A move declines it.)"
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
    assert presenters.error_text(NotYourTurnError((NORTH,), just_played="a1-a3")) == (
        "It is not your turn: your move `a1-a3` is played; waiting for <@22>."
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


def test_the_package_re_exports_every_public_name_of_its_modules() -> None:
    for info in pkgutil.iter_modules(presenters.__path__):
        module = importlib.import_module(f"{presenters.__name__}.{info.name}")
        for name in module.__all__:
            assert name in presenters.__all__, (info.name, name)
            assert getattr(presenters, name) is getattr(module, name)


def test_a_takeback_names_the_bots_reply_and_the_forced_moves_it_takes_with_it() -> None:
    """Against the bot, its reply goes with the person's move: the post calls it the bot's
    reply, not a forced move (which only a pass played for a seat is)."""
    back = replace(snapshot(), to_move=(0,))

    def done(removed: tuple[str, ...], replies: tuple[str, ...], forced: tuple[str, ...]) -> str:
        answer = TakebackAnswer(back, 0, SOUTH, NORTH, True, removed, replies, forced)
        return presenters.takeback_done_text(answer).split("\n")[0]

    assert done(("a1-a3",), (), ()) == "<@11> (South) took back `a1-a3`."
    assert done(("a1-a3", "h8-h6"), ("h8-h6",), ()) == (
        "<@11> (South) took back `a1-a3` and the bot's reply `h8-h6` after it."
    )
    assert done(("a1-a3", "pass"), (), ("pass",)) == (
        "<@11> (South) took back `a1-a3` and the forced `pass` after it."
    )
    assert done(("a1-a3", "h8-h6", "pass"), ("h8-h6",), ("pass",)) == (
        "<@11> (South) took back `a1-a3` and the bot's reply `h8-h6` and the forced `pass` "
        "after it."
    )
    # The request's post, answered by the bot, says the same (it left the reply out: pass 10).
    answered = TakebackAnswer(back, 0, SOUTH, NORTH, True, ("a1-a3", "h8-h6"), ("h8-h6",), ())
    assert presenters.takeback_answer_text(answered) == (
        "<@22> allowed it: <@11> took back `a1-a3` and the bot's reply `h8-h6` after it."
    )


def test_a_list_of_seats_with_commas_in_their_names_is_set_apart_by_semicolons() -> None:
    """Orbs team seats ("North-east, team A") would run into each other in a comma list."""
    players = tuple(
        Player(seat, 100 + seat, name)
        for seat, name in enumerate(("North-east, team A", "South-east, team B", "South, team A"))
    )
    started = presenters.game_started_text(replace(snapshot(), players=players, to_move=(0,)))
    assert started.startswith(
        "**Generatorb** begins: <@100> plays North-east, team A; <@101> plays South-east, "
        "team B; and <@102> plays South, team A.\n"
    )
    plain = presenters.game_started_text(snapshot())
    assert plain.startswith("**Generatorb** begins: <@11> plays South and <@22> plays North.")
    # Two team seats: no "; and" between them (a team of two winning read "@ann (…); and @cat").
    won = Outcome("last_standing", (0, 2), ((0, 2), (1,)))
    team_win = replace(snapshot(), players=players, status="finished", to_move=(), outcome=won)
    assert presenters.outcome_text(team_win).startswith(
        "<@100> (North-east, team A) and <@102> (South, team A) win"
    )


def test_a_hint_lists_its_moves_best_first_with_what_each_is_worth() -> None:
    hint = Hint(
        game_id=5,
        game_name="Generatorb",
        seat=0,
        moves=(
            HintMove("g7-h8", 1.0, "win"),
            HintMove("a2-a4", 0.583),
            HintMove("b1-b3", 0.5, "other"),
        ),
        seconds=1.9,
        level_name="strongest",
    )
    assert presenters.hint_text(hint) == (
        "Hint for your move in **Generatorb** (the strongest level's search, 1.9 s):\n"
        "1. `g7-h8`: wins by force\n"
        "2. `a2-a4`: 58% for you\n"
        "3. `b1-b3`: draws by force\n"
        "A percentage is how well the bot expects the move to turn out for you "
        "(100% a sure win, 50% even). Only you see this."
    )
    whole = presenters.hint_text(replace(hint, seconds=2.0))
    assert "(the strongest level's search, 2.0 s):" in whole  # not "2 s": one decimal always
    lost = replace(hint, moves=(HintMove("a1-a3", 0.0, "loss"),))
    assert "1. `a1-a3`: loses by force" in presenters.hint_text(lost)
    untried = replace(hint, moves=(HintMove("a1-a3", 0.0, None, searched=False),))
    assert "1. `a1-a3`: not searched: every move the bot searched loses by force" in (
        presenters.hint_text(untried)
    )
    three = presenters.hint_text(replace(hint, players=3))
    assert "3. `b1-b3`: a forced result, 50% for you" in three
    assert "(100% first place, 0% last)" in three
    assert presenters.HINT_ORDER_NOTE not in presenters.hint_text(hint)


def test_a_hint_whose_later_move_reads_higher_says_why_the_first_comes_first() -> None:
    """The order is the search's (the first is level 5's move, the rest by visits), so a
    move looked at less can read a point higher: the hint says so then, and only then."""
    hint = Hint(
        game_id=5,
        game_name="Generatorb",
        seat=0,
        moves=(HintMove("a2-a4", 0.561), HintMove("b1-b3", 0.574), HintMove("c1-c3", 0.5)),
        seconds=1.9,
        level_name="strongest",
    )
    text = presenters.hint_text(hint)
    assert (
        "1. `a2-a4`: 56% for you\n2. `b1-b3`: 57% for you\n3. `c1-c3`: 50% for you\n"
        f"{presenters.HINT_ORDER_NOTE}\nA percentage is"
    ) in text
    higher = HintMove("b1-b3", 0.574)
    quiet = (
        (HintMove("a2-a4", 0.561), HintMove("b1-b3", 0.564)),  # the same percentage shown
        (HintMove("a2-a4", 0.4), HintMove("b1-b3", 0.5, "other")),  # a proven draw
        (HintMove("a2-a4", 0.0, "loss"), higher),  # the first proven: no estimate to compare
        (HintMove("a2-a4", 0.0, None, searched=False), higher),
    )
    for moves in quiet:
        assert presenters.HINT_ORDER_NOTE not in presenters.hint_text(replace(hint, moves=moves))


def test_a_practice_game_against_the_bot_starts_by_pointing_to_hints() -> None:
    line = "A practice game: `/hint` shows what the strongest bot would play for you."
    against_bot = (Player(0, SOUTH, "South"), Player(1, bot_user_id(2), "North"))
    casual = snapshot(players=against_bot, rated=False)
    assert presenters.game_started_text(casual).endswith("\n" + line)
    rated = presenters.game_started_text(replace(casual, rated=True))
    assert line not in rated
    # Rated (the default against the bot): how to get hints, before the first /hint.
    assert rated.endswith("\nA rated game: for `/hint`, challenge the bot with `rated:false`.")
    assert line not in presenters.game_started_text(snapshot(rated=False))  # two people
    assert "/hint" not in presenters.game_started_text(snapshot(rated=True))


def test_a_leaderboard_caption_names_whom_its_you_means() -> None:
    # The picture is posted in the channel: "You have no rated game" alone would read as
    # said to everyone there.
    when = datetime(2026, 11, 28, tzinfo=UTC)
    unrated = Leaderboard("orbs", "Orbs", "server", (), None, "You have no rated game.", when)
    assert presenters.leaderboard_caption(unrated, 42) == "<@42>: You have no rated game."
    listed = replace(unrated, caller=LeaderboardEntry(3, 42, 1520, 9, 12), caller_note="")
    assert (
        presenters.leaderboard_caption(listed, 42) == "<@42>: Your rating: **1520**, place **3**."
    )
    # A provisional rating keeps its mark, as /rating shows it.
    unsettled = LeaderboardEntry(7, 42, 1547, 1, 47, provisional=True)
    note = "You need 5 rated games to be listed (you have 1)."
    early = replace(unrated, caller=unsettled, caller_note=note)
    assert presenters.leaderboard_caption(early, 42) == f"<@42>: Your rating: **1547?**. {note}"


def rated(game: str, name: str, games: int, rating: int = 1500) -> GameRating:
    return GameRating(
        game, name, rating, True, games, games, 0, 0, datetime(2026, 11, 28, tzinfo=UTC)
    )


def test_a_profile_names_a_game_never_rated_as_such_and_counts_one_game_as_one() -> None:
    profile = RatingProfile(42, (rated("arbos", "Arbos", 0), rated("orbs", "Orbs", 1, 1596)))
    assert presenters.profile_caption(profile) == (
        "Ratings of <@42> (`?`: provisional):\n"
        "• Arbos: no rated game yet\n"
        "• Orbs: **1596?** (1 rated game, 1 won, 0 drawn, 0 lost)"
    )
    assert [presenters.profile_rating_text(g) for g in profile.ratings] == ["–", "1596?"]


def test_the_bots_rating_is_told_per_level() -> None:
    levels = [
        RatingProfile(bot_user_id(n), (rated("orbs", "Orbs", 3, 1596),) if n == 1 else ())
        for n in range(1, 6)
    ]
    # A game asked for but never played by a level is left out of its line.
    levels[1] = RatingProfile(bot_user_id(2), (rated("arbos", "Arbos", 0),))
    lines = presenters.bot_levels_caption(levels).split("\n")
    assert lines[0].startswith("**Gameroom** plays at 5 levels, each rated as a player")
    assert (
        lines[1] == "• Level 1 · beginner: Orbs: **1596?** (3 rated games, 3 won, 0 drawn, 0 lost)"
    )
    assert lines[2] == "• Level 2 · casual: no rated game yet"
    assert len(lines) == 6
    # With a game: that game alone on each level's line.
    levels[0] = RatingProfile(
        bot_user_id(1), (rated("orbs", "Orbs", 3, 1596), rated("arbos", "Arbos", 2, 1490))
    )
    orbs_only = presenters.bot_levels_caption(levels, "orbs").split("\n")
    assert orbs_only[1] == lines[1]
    assert "Arbos" not in presenters.bot_levels_caption(levels, "orbs")


def test_a_lobby_names_the_bots_seated_and_not_anyone_for_their_seats() -> None:
    against_the_bot = challenge(
        challenger_id=ANN,
        lobby=(
            ChallengePlayer(ANN, "challenger", "seated"),
            ChallengePlayer(bot_user_id(1), "bot", "seated"),
        ),
        status="accepted",
    )
    assert presenters.challenge_closed_text(against_the_bot) == (
        "<@1> challenged **Gameroom (level 1)** to **Generatorb** with `refill=all`: the game "
        "has started."
    )
    orbs = challenge(
        challenger_id=ANN,
        game="orbs",
        game_name="Orbs",
        players=4,
        options_text="",
        lobby=(
            ChallengePlayer(ANN, "challenger", "seated"),
            ChallengePlayer(bot_user_id(3, 1), "bot", "seated"),
            ChallengePlayer(bot_user_id(3, 2), "bot", "seated"),
        ),
    )
    assert presenters.challenge_text(orbs).startswith(
        "<@1> challenges **Gameroom (level 3)** ×2 and anyone to **Orbs** (4 players).\n"
    )


def test_a_late_board_names_the_move_a_seat_chose_and_who_is_to_move() -> None:
    # South moved; the board was lost; North is to move.
    late = presenters.late_board_text(snapshot())
    assert late == (
        "<@11> (South) played `a1-a3`; its board could not be posted at the time.\n"
        "<@22>, your move (North)."
    )
    # A forced pass played for North after South's move, and a chance outcome, are not
    # what the late board names: South's move is.
    forced = MoveRecord(2, 1, "pass", (Event("automatic", 1, "North passes"),), T)
    roll = MoveRecord(3, None, "roll:G", (), T)
    after = snapshot(last_moves=(*snapshot().last_moves, forced, roll), to_move=(0,), ply=3)
    assert presenters.late_board_text(after).startswith("<@11> (South) played `a1-a3`;")
    assert presenters.late_board_text(after).endswith("<@11>, your move (South).")
    # A resignation that ended the game on its row logged no move: the result says it.
    resigned = snapshot(status="finished", to_move=(), outcome=Outcome.win("resignation", 1, 2))
    assert presenters.late_board_text(resigned).startswith(
        "The final board could not be posted at the time.\n"
    )
    assert "played `a1-a3`" not in presenters.late_board_text(resigned)
    # One logged as the seat's move (Generator, Orbs): named as a resignation.
    quit_row = MoveRecord(2, 1, "[1]resign", (), T)
    left = snapshot(last_moves=(*snapshot().last_moves, quit_row), to_move=(0,), ply=2)
    assert presenters.late_board_text(left).startswith(
        "<@22> (North) resigned; the board could not be posted at the time."
    )

    # Time-outs plan their boards too: the rule's move played for the seat, its resignation,
    # or a game ended on time on its row.
    timed_out = Event("timeout", 1, "North is out of time: pass played on time-out")
    for text, said in (("pass", "had `pass` played for them"), ("[1]resign", "resigned")):
        played = MoveRecord(2, 1, text, (timed_out,), T)
        gone = snapshot(last_moves=(*snapshot().last_moves, played), to_move=(0,), ply=2)
        assert presenters.late_board_text(gone).startswith(
            f"⏰ <@22> (North) ran out of time and {said}; the board could not be posted then.\n"
        )
    # The start's board (no seat has moved; chance steps at most): the game's first post.
    start = snapshot(last_moves=(MoveRecord(1, None, "setup:K10", (), T),), ply=1)
    assert presenters.late_board_is_first(start)
    assert presenters.late_board_text(start) == (
        "The first board could not be posted at the time.\n" + presenters.game_started_text(start)
    )
    # Mid-game, eight recent rows of forced passes and rolls are no start (Generator).
    forced_pass = MoveRecord(31, 1, "pass", (Event("automatic", 1, "Red passes"),), T)
    rolls = tuple(MoveRecord(32 + k, None, "roll:G", (), T) for k in range(7))
    busy = snapshot(last_moves=(forced_pass, *rolls), ply=40, version=30)
    assert not presenters.late_board_is_first(busy)
    assert presenters.late_board_text(busy).startswith("The board after ply 40 could not")
    # A draw agreed right after a resignation logged as a move: the draw ended it.
    quit_first = MoveRecord(2, 1, "[1]resign", (), T)
    drawn = snapshot(
        status="finished",
        to_move=(),
        outcome=Outcome.draw("agreement", 2),
        last_moves=(*snapshot().last_moves, quit_first),
    )
    assert presenters.late_board_text(drawn).startswith("The final board could not be posted")
    for ended in (
        snapshot(status="finished", to_move=(), outcome=Outcome.draw("agreement", 2)),
        snapshot(status="aborted", to_move=(), outcome=None),
    ):  # an agreed draw and an abort end the game on its row too
        assert presenters.late_board_text(ended) == (
            f"The final board could not be posted at the time.\n{presenters.outcome_text(ended)}"
        )
    on_time = snapshot(status="finished", to_move=(), outcome=Outcome.win("time", 0, 2))
    assert presenters.late_board_text(on_time).startswith(
        "The final board could not be posted at the time.\n<@11> (South) wins on time!"
    )


def test_a_lobby_posted_for_its_bots_does_not_say_when_it_expires() -> None:
    """Its first expiry is short until its bots sit (``lobby.BOTS_TO_SIT_WITHIN``): the
    first post, which pings the invited, leaves it out; the edit after the bots shows it."""
    shown = challenge(players=3)
    assert "The challenge expires" in presenters.challenge_text(shown)
    assert "expires" not in presenters.challenge_text(shown, expiry=False)


def test_an_exhibition_is_headed_as_one_not_as_a_challenge_to_the_bots() -> None:
    bots = tuple(ChallengePlayer(bot_user_id(1, k), "bot", "seated") for k in range(3))
    shown = challenge(
        players=3,
        options_text="",
        lobby=(ChallengePlayer(SOUTH, "challenger", "left"), *bots),
        status="accepted",
        game_id=5,
    )
    assert presenters.challenge_closed_text(shown).startswith(
        "<@11> opened an exhibition game of **Generatorb** (3 players) between "
        "**Gameroom (level 1)** ×3: the game has started."
    )


def test_the_places_below_the_winner_are_said_when_the_outcome_ranks_them() -> None:
    """Generation Zero ranks by score, then kills and Health; the ratings follow the places,
    so the post says them (two seats tied on score got +51 and −2 without a word)."""
    four = tuple(Player(s, 100 + s, f"Seat {s + 1}") for s in range(4))
    ranked = Outcome("rounds", (2,), ((2,), (0,), (3,), (1,)))
    ended = snapshot(players=four, status="finished", to_move=(), outcome=ranked)
    assert presenters.outcome_text(ended).startswith(
        "<@102> (Seat 3) wins by rounds! Places: 2nd <@100> (Seat 1); 3rd <@103> (Seat 4); "
        "4th <@101> (Seat 2). Good game, "
    )
    tied = replace(ended, outcome=Outcome("rounds", (0,), ((0,), (1, 2), (3,))))
    assert "Places: 2nd <@101> (Seat 2) and <@102> (Seat 3); 4th <@103> (Seat 4)." in (
        presenters.outcome_text(tied)
    )
    # Winners and the rest only (as Orbs ranks any game): nothing to add.
    two = replace(ended, outcome=Outcome("rounds", (2,), ((2,), (0, 1, 3))))
    assert "Places" not in presenters.outcome_text(two)


def test_a_rated_game_that_ended_too_soon_says_it_is_not_rated() -> None:
    won = Outcome("time", (0,), ((0,), (1,)))
    ended = snapshot(status="finished", to_move=(), outcome=won, rated=True)
    assert presenters.outcome_text(replace(ended, ended_too_soon=True)).endswith(
        "Good game, <@22>. Not rated: too few moves had been played."
    )
    assert presenters.outcome_text(ended).endswith("Good game, <@22>.")


def test_a_watch_answer_says_when_the_watcher_hears() -> None:
    """Watchers hear of each board post: after every move, or after every turn in a game
    whose turn is many decisions (Generation Zero: four DMs for eighteen decisions read as
    if most moves were skipped)."""
    watched = WatchResult(7, "Orbs", 5, False, WatchChange.STARTED, every_move=True)
    assert "you hear of it after every move, by direct message" in presenters.watch_text(
        watched, button=False
    )
    gz = replace(watched, game_name="Generation Zero", by_turn=True)
    assert "I will write here after every turn." in presenters.watch_confirmation_text(gz)
    ending = replace(watched, every_move=False)
    assert "at its end" in presenters.watch_text(ending, button=True)


def test_every_player_first_share_the_win() -> None:
    """Generation Zero's full tie (R12.3): every seat first, a shared win, which "<@11>
    (South) and <@22> (North) win!" told as if nobody had been beaten (exploratory pass 10)."""
    tie = Outcome("round_limit", (0, 1), ((0, 1),))
    over = replace(snapshot(status="finished", to_move=()), outcome=tie, last_moves=())
    shared = "<@11> (South) and <@22> (North) share the win by round limit!"
    assert presenters.outcome_text(over) == shared
    one = replace(over, outcome=Outcome.win("round_limit", 1, 2))
    assert presenters.outcome_text(one) == "<@22> (North) wins by round limit! Good game, <@11>."
