"""What the bot says about clocks: the lobby's and the game's clock, time left, vacations,
time-outs by kind, claims and a clock's final warning (hard or soft)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from bot import presenters
from bot.service import GameSnapshot
from bot.service.bot_seats import bot_user_id
from bot.service.models import ClockEvent, ClockEventKind, FinalWarning, Player, SeatClockInfo
from engines.base import Event, Outcome
from tests.bot.test_bot_presenters import NORTH, SOUTH, T, challenge, snapshot

CLOCK_TEXT = "hard clock: 1d to start, +1h per move, at most 2d"
DEADLINE = T + timedelta(hours=5)


def stamp(style: str = "R", at: datetime = DEADLINE) -> str:
    return f"<t:{int(at.timestamp())}:{style}>"


def clock(seat: int, left: timedelta, **changes: object) -> SeatClockInfo:
    base = SeatClockInfo(
        seat=seat,
        time_left_ms=int(left.total_seconds() * 1000),
        running=False,
        paused_until=None,
        flagged=False,
        deadline=None,
        mode="hard",
        as_of=T,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def clocked(**changes: object) -> GameSnapshot:
    """A snapshot of a hard-clock game, North (seat 1) to move with 5 h left."""
    fields: dict[str, object] = {
        "clock": "hard:1d+1h/2d",
        "clock_text": CLOCK_TEXT,
        "clocks": (
            clock(0, timedelta(days=1, hours=2, minutes=3, seconds=4)),
            clock(1, timedelta(hours=5), running=True, deadline=DEADLINE),
        ),
    }
    return snapshot(**{**fields, **changes})


def test_the_lobby_and_the_first_post_show_the_clock_in_words() -> None:
    lobby = presenters.challenge_text(challenge(clock="hard:1d+1h/2d", clock_text=CLOCK_TEXT))
    assert f"⏱️ Hard clock: {CLOCK_TEXT[len('hard clock: ') :]}." in lobby.splitlines()
    assert "⏱️" not in presenters.challenge_text(challenge())
    started = presenters.game_started_text(clocked())
    assert f"⏱️ Hard clock: {CLOCK_TEXT[len('hard clock: ') :]}." in started.splitlines()
    assert "⏱️" not in presenters.game_started_text(snapshot())


def test_the_turn_text_says_how_long_the_player_to_move_has() -> None:
    text = presenters.game_started_text(clocked())
    assert f"<@{NORTH}>, your move (North). ⏱️ 5h left, runs out {stamp()}." in text


def test_game_info_lists_every_seats_time_left() -> None:
    info = presenters.game_info_text(clocked())
    assert f"⏱️ Hard clock: {CLOCK_TEXT[len('hard clock: ') :]}" in info.splitlines()
    assert f"Time left: South 1d 2h · North 5h, runs out {stamp()}" in info.splitlines()


def test_a_player_on_vacation_and_a_player_out_of_time() -> None:
    until = T + timedelta(days=3)
    away = clocked(clocks=(clock(1, timedelta(hours=5), running=True, paused_until=until),))
    text = presenters.game_info_text(away)
    assert f"North 5h, on vacation until {stamp('f', until)}" in text
    turn = presenters.game_started_text(away)
    assert f"on vacation until {stamp('f', until)}; the clock (5h left) waits." in turn
    out = clocked(clocks=(clock(1, -timedelta(hours=1), running=True, flagged=True, mode="soft"),))
    assert "North out of time" in presenters.game_info_text(out)
    assert "out of time, so the opponents may `/claim`" in presenters.game_started_text(out)
    # A hard clock is not claimed: the bot plays the time-out rule for the seat.
    hard = clocked(clocks=(clock(1, timedelta(0), running=True, flagged=True),))
    started = presenters.game_started_text(hard)
    assert "⏱️ out of time: the bot applies the time-out now." in started
    assert "claim" not in started


def test_time_left_is_shown_in_its_two_largest_units() -> None:
    assert presenters.time_left_text(clock(0, timedelta(seconds=45))) == "45s"
    assert presenters.time_left_text(clock(0, timedelta(0))) == "0s"
    assert presenters.time_left_text(clock(0, timedelta(days=2, seconds=5))) == "2d 5s"


def event(kind: ClockEventKind, **changes: object) -> ClockEvent:
    return replace(ClockEvent(clocked(), 1, NORTH, kind), **changes)  # type: ignore[arg-type]


def test_a_soft_clock_running_out_invites_the_opponents_to_claim() -> None:
    text = presenters.clock_event_text(event(ClockEventKind.FLAGGED_SOFT, on_claim="win"))
    assert text == (
        f"⏰ <@{NORTH}> (North) is out of time. <@{SOUTH}>: you may claim the game with "
        f"**Claim on time** or `/claim`; until someone does, <@{NORTH}> may still move."
    )
    # A claim does what the game's rules say, and the notice says that, not "the game".
    ruled = presenters.clock_event_text(event(ClockEventKind.FLAGGED_SOFT, on_claim="rule"))
    assert "claim a time-out (the game's time-out rule plays for them) with" in ruled
    left = presenters.clock_event_text(event(ClockEventKind.FLAGGED_SOFT, on_claim="leave"))
    assert "claim their seat (they leave the game) with" in left


def test_time_outs_by_kind() -> None:
    lost = snapshot(status="finished", to_move=(), outcome=Outcome.win("time", 0, 2))
    text = presenters.clock_event_text(
        event(ClockEventKind.LOST_ON_TIME, snapshot=lost, claimed_by=SOUTH)
    )
    assert text == (
        f"⏰ <@{NORTH}> (North) ran out of time (<@{SOUTH}> claimed).\n"
        f"<@{SOUTH}> (South) wins on time! Good game, <@{NORTH}>."
    )
    notice = Event("timeout", 1, "North is out of time: pass played on time-out")
    passed = Event("passed", 1, "passes")
    played = presenters.clock_event_text(
        event(
            ClockEventKind.TIMED_OUT,
            snapshot=snapshot(to_move=(0,)),
            moves=("prune T20", "pass"),
            events=(notice, passed),
        )
    )
    assert played.splitlines() == [
        f"⏰ <@{NORTH}> (North) ran out of time, so the game's time-out rule plays "
        "`prune T20`, then `pass`.",  # no bare "passes" beside the `pass` it played
        f"<@{SOUTH}>, your move (South).",
    ]
    # A forced pass the bot plays for the next seat after the time-out is said once, with its
    # seat: no bare "passed" that would read as the timed-out seat's.
    forced = presenters.clock_event_text(
        event(
            ClockEventKind.TIMED_OUT,
            snapshot=snapshot(to_move=(1,)),
            moves=("prune T20",),
            events=(
                Event("timeout", 1, "North is out of time: prune T20 played on time-out"),
                Event("pruned", 1, "prunes 1 spore"),
                Event("automatic", 0, "South has no legal move and passes"),
                Event("passed", 0, "passed"),
            ),
        )
    )
    assert forced.splitlines()[0] == (
        f"⏰ <@{NORTH}> (North) ran out of time, so the game's time-out rule plays "
        "`prune T20`: prunes 1 spore; South has no legal move and passes."
    )
    left = presenters.clock_event_text(
        event(ClockEventKind.RESIGNED_ON_TIME, snapshot=snapshot(to_move=(0,)))
    )
    assert left.startswith(
        f"⏰ <@{NORTH}> (North) ran out of time and leaves the game; play goes on without them."
    )
    # The last other seat left on time: the game is won on time, not "every other player
    # has resigned … wins!" (the engine's words for the board a resignation leaves).
    won = Outcome("last_standing", (0,), ((0,), (1,)))
    ended = snapshot(status="finished", to_move=(), outcome=won)
    last = Event("ended", None, "South wins: every other player has resigned")
    over = presenters.clock_event_text(
        event(ClockEventKind.RESIGNED_ON_TIME, snapshot=ended, events=(last,))
    )
    assert over.splitlines()[1].startswith(f"<@{SOUTH}> (South) wins on time!")
    assert "resigned" not in over
    # A draw the board left after it keeps the engine's words: nobody drew "on time".
    same = Event("ended", None, "every orb left is the same element, so nothing can be removed")
    drawn = snapshot(status="finished", to_move=(), outcome=Outcome.draw("same_element", 2))
    text = presenters.clock_event_text(
        event(ClockEventKind.RESIGNED_ON_TIME, snapshot=drawn, events=(same,))
    )
    assert "Every orb left is the same element" in text
    assert "on time." not in text


def test_a_soft_clocks_notice_names_the_people_who_may_claim_not_the_bots() -> None:
    mixed = event(ClockEventKind.FLAGGED_SOFT, on_claim="leave")
    bot = bot_user_id(1)
    three = replace(
        mixed.snapshot,
        players=(*mixed.snapshot.players, Player(2, bot, "East")),
    )
    notice = replace(mixed, snapshot=three)
    assert presenters.claimers_named(notice) == (SOUTH,)
    assert "**Gameroom" not in presenters.clock_event_text(notice)
    # No person may claim (the one left is gone): the bots are named, as the only ones.
    only_bots = replace(notice, user_id=SOUTH, seat=0, gone_seats=frozenset({1}))
    assert presenters.claimers_named(only_bots) == (bot,)


def test_a_claimed_notice_and_the_final_warning() -> None:
    claimed = event(ClockEventKind.LOST_ON_TIME, claimed_by=SOUTH)
    assert presenters.claimed_text(claimed) == (
        f"⏰ <@{NORTH}> (North) was out of time; <@{SOUTH}> claimed."
    )
    warning = FinalWarning(7, "Orbs", 1, 2, 1, "North", NORTH, DEADLINE, board_message_id=99)
    text = presenters.final_warning_text(warning)
    assert text.startswith(
        f"⏰ <@{NORTH}> (North), your hard clock in **Orbs** (game 7) runs out {stamp()} "
        f"({stamp('t')}): move before then."
    )
    assert text.endswith("The board: https://discord.com/channels/1/2/99")


def test_a_soft_clocks_final_warning_says_what_its_deadline_brings() -> None:
    warning = FinalWarning(7, "Orbs", 1, 2, 1, "North", NORTH, DEADLINE, None, at_deadline="claim")
    assert presenters.final_warning_text(warning) == (
        f"⏰ <@{NORTH}> (North), your soft clock in **Orbs** (game 7) runs out {stamp()} "
        f"({stamp('t')}): move before then; after that an opponent may claim on time."
    )
    against_the_bot = replace(warning, at_deadline="bot_claims", board_message_id=99)
    assert presenters.final_warning_text(against_the_bot) == (
        f"⏰ <@{NORTH}> (North), your soft clock in **Orbs** (game 7) runs out {stamp()} "
        f"({stamp('t')}): move before then; after that the bot claims on time at once. "
        "The board: https://discord.com/channels/1/2/99"
    )
