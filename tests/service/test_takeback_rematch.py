"""Takebacks and rematches through the service (issue 7, social flow), and their pure rules.

A takeback removes the requester's last move (and the forced moves the bot played after it)
once the opponent allows it; it is refused across a chance outcome, a resignation, a reveal
of hidden information, in games for more than two, while a draw offer or another request is
pending, and once the opponent has replied. A rematch opens a new challenge for the same
game, options and clock, the seats rotated by one.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from bot.service import (
    DrawOfferError,
    GameService,
    GameSnapshot,
    NoGameHereError,
    NotAPlayerError,
    StaleActionError,
    _codec,
)
from bot.service.clocks import CLOCK_TIMER
from bot.service.records import rebuild_game
from bot.service.social import (
    PUBLIC_REVEALS,
    RematchError,
    RematchOpenError,
    TakebackError,
    plan_rematch,
    plan_takeback,
    reveals,
    rotated_seating,
)
from db import Database, MoveRow, StaleVersionError
from db.clocks import ClockChangedError
from db.rows import ClockChanges, ClockWrite
from db.schema import ANONYMOUS_ID_BASE
from engines import get_engine
from engines.base import Event

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    DAN,
    GAMES,
    GUILD,
    OTHER,
    FakeClock,
    RoundRobin,
    StartGame,
    to_move_user,
    waiting_user,
)

T = datetime(2025, 1, 1, tzinfo=UTC)


# ============================================================================================
# The pure rules (bot/service/social.py)
# ============================================================================================


def row(ply: int, seat: int | None, text: str, *events: Event) -> MoveRow:
    return MoveRow(1, ply, seat, text, _codec.dump_events(events), T)


def forced_pass(ply: int, seat: int) -> MoveRow:
    notice = Event("automatic", seat, "North has no legal move and passes")
    return row(ply, seat, "pass", notice, Event("passed", seat, "passes"))


def test_the_plan_takes_the_last_move_and_the_forced_moves_after_it() -> None:
    log = [row(1, 0, "a1-a3"), row(2, 1, "h8-h6"), row(3, 0, "b1-b3"), forced_pass(4, 1)]
    plan = plan_takeback(log, (0,), game="orbs", hidden_information=False)
    assert (plan.seat, plan.ply, plan.move, plan.to_ply) == (0, 3, "b1-b3", 2)
    assert plan.removed == ("b1-b3", "pass")
    assert plan.forced == ("pass",)


def test_the_plan_tells_the_bots_replies_from_the_forced_moves() -> None:
    # The person (seat 0) moved, the bot (seat 1) replied, the person was then forced to pass.
    log = [row(1, 0, "a1-a3"), row(2, 1, "h8-h6"), forced_pass(3, 0)]
    plan = plan_takeback(log, (0,), game="orbs", hidden_information=False, replies_of=(1,))
    assert (plan.move, plan.removed) == ("a1-a3", ("a1-a3", "h8-h6", "pass"))
    assert (plan.replies, plan.forced) == (("h8-h6",), ("pass",))


def test_the_plan_refuses_when_the_opponent_moved_or_nobody_did() -> None:
    log = [row(1, 0, "a1-a3"), row(2, 1, "h8-h6")]
    with pytest.raises(TakebackError, match="opponent has moved since"):
        plan_takeback(log, (0,), game="generatorb", hidden_information=False)
    with pytest.raises(TakebackError, match="not moved yet"):
        plan_takeback(log[1:], (0,), game="generatorb", hidden_information=False)
    with pytest.raises(TakebackError, match="not moved yet"):
        plan_takeback([], (0,), game="generatorb", hidden_information=False)
    # A forced pass the bot played for a seat is not that seat's move.
    with pytest.raises(TakebackError, match="not moved yet"):
        plan_takeback(
            [row(1, 0, "x"), forced_pass(2, 1)], (1,), game="orbs", hidden_information=False
        )


def test_the_plan_stops_at_moves_the_bot_played_on_a_time_out() -> None:
    # White moved, then Black timed out and the bot pruned and passed for Black (Arbos
    # section 5): those are Black's turn, so White's move can no longer be taken back.
    notice = Event("timeout", 1, "Black is out of time: prune A1 played on time-out")
    log = [row(1, 0, "K10"), row(2, 1, "prune A1", notice), row(3, 1, "pass", notice)]
    with pytest.raises(TakebackError, match="opponent has moved since"):
        plan_takeback(log, (0,), game="arbos", hidden_information=False)


def test_the_plan_never_crosses_chance_or_a_resignation() -> None:
    rolled = [row(1, 0, "a1-a3"), row(2, None, "roll:G")]
    with pytest.raises(TakebackError, match="chance outcome \\(`roll:G`\\)"):
        plan_takeback(rolled, (0,), game="generator", hidden_information=False)
    # A roll with its event is told in words, as the chat told it.
    told = [row(1, 0, "a1-a3"), row(2, None, "roll:G", Event("rolled", 1, "Red rolled green (G)"))]
    with pytest.raises(TakebackError, match="chance outcome \\(Red rolled green \\(G\\)\\),"):
        plan_takeback(told, (0,), game="generator", hidden_information=False)
    resigned = [row(1, 0, "a1-a3"), row(2, 1, "[1]resign")]
    with pytest.raises(TakebackError, match="resignation cannot be taken back"):
        plan_takeback(resigned, (1,), game="generator", hidden_information=False)
    # Chance *before* the move is no obstacle.
    plan = plan_takeback(
        [row(1, None, "roll:G"), row(2, 0, "a1")], (0,), game="generator", hidden_information=False
    )
    assert plan.to_ply == 1


def test_reveals_private_events_and_listed_public_reveals_in_hidden_games_only() -> None:
    private = Event("chapter_seen", 0, "C4 is Merrie", visible_to=frozenset({0}))
    fight = Event("fight", 0, "A1 fights M3 (Troll)")
    moved = Event("moved", 0, "A1 moved")
    game = "generation_zero"
    assert "fight" in PUBLIC_REVEALS[game]
    assert reveals(row(1, 0, "x", moved, private), game=game, hidden_information=True)
    assert reveals(row(1, 0, "x", fight), game=game, hidden_information=True)
    assert not reveals(row(1, 0, "x", moved), game=game, hidden_information=True)
    assert not reveals(row(1, 0, "x", fight), game="orbs", hidden_information=False)
    # An unlisted game with hidden information: every row may have revealed something.
    assert reveals(row(1, 0, "x", moved), game="hidden_toy", hidden_information=True)
    with pytest.raises(TakebackError, match=r"^Your move started a Monster fight, which turns"):
        plan_takeback([row(1, 0, "x", fight)], (0,), game=game, hidden_information=True)
    # A battle is refused by its kind, and the sentence says what a battle may show; a
    # reveal in the bot's reply names the reply.
    battle = Event("battle", 0, "battle at L1, thrusts in this order: S1, A4")
    with pytest.raises(TakebackError, match="turns any ensnared Canons face up"):
        plan_takeback([row(1, 0, "end", battle)], (0,), game=game, hidden_information=True)
    # As the engine logs `fight L4`: "a battle starts" (kind fight), then the battle.
    starts = Event("fight", 0, "a battle starts")
    with pytest.raises(TakebackError, match=r"^Your move started a battle"):
        plan_takeback(
            [row(1, 0, "fight L1", starts, battle)], (0,), game=game, hidden_information=True
        )
    seen = Event("chapter_seen", 1, "C4 is Merrie", visible_to=frozenset({1}))
    with pytest.raises(TakebackError, match=r"^The bot's reply `y` after your move showed a hid"):
        plan_takeback(
            [row(1, 0, "x", moved), row(2, 1, "y", seen)],
            (0,),
            game=game,
            hidden_information=True,
            replies_of=(1,),
        )


def test_rotated_seating_moves_everyone_one_seat() -> None:
    assert rotated_seating([ALICE, BOB]) == (BOB, ALICE)
    assert rotated_seating([ALICE, BOB, CAROL]) == (BOB, CAROL, ALICE)


def test_plan_rematch_refusals() -> None:
    with pytest.raises(NotAPlayerError, match="Only the players can ask for a rematch"):
        plan_rematch("finished", [ALICE, BOB], CAROL)
    with pytest.raises(RematchError, match="still going on"):
        plan_rematch("active", [ALICE, BOB], ALICE)
    with pytest.raises(RematchError, match="aborted"):
        plan_rematch("aborted", [ALICE, BOB], ALICE)
    with pytest.raises(RematchError, match="several seats"):
        plan_rematch("finished", [ALICE, ALICE], ALICE)
    forgotten = -ANONYMOUS_ID_BASE - 1  # bob after /forget-me
    with pytest.raises(RematchError, match="left Gameroom's records"):
        plan_rematch("finished", [ALICE, forgotten], ALICE)
    plan = plan_rematch("finished", [ALICE, BOB, CAROL], BOB)
    assert (plan.challenger_id, plan.invited_ids, plan.seating) == (
        BOB,
        (ALICE, CAROL),
        (BOB, CAROL, ALICE),
    )


# ============================================================================================
# Takebacks through the service
# ============================================================================================


async def play_first_legal(service: GameService, snapshot: GameSnapshot, index: int = 0) -> str:
    """Let the player to move play their ``index``-th legal move; returns its text."""
    user = to_move_user(snapshot)
    moves = await service.legal_moves(snapshot.channel_id, user)
    await service.play(snapshot.channel_id, user, moves[index])
    return moves[index]


async def test_an_allowed_takeback_restores_the_position_and_the_log(
    service: GameService, database: Database, start_game: StartGame
) -> None:
    engine = get_engine("generatorb")
    start = await start_game()
    first = to_move_user(start)
    await play_first_legal(service, start, 3)
    after_first = await service.snapshot(GAMES)
    second = to_move_user(after_first)
    await play_first_legal(service, after_first, 5)
    mover_snapshot = await service.snapshot(GAMES)
    third = await play_first_legal(service, mover_snapshot, 1)
    assert to_move_user(await service.snapshot(GAMES)) == second

    request = await service.request_takeback(GAMES, first)
    assert (request.user_id, request.opponent_user_ids) == (first, (second,))
    assert (request.move, request.ply) == (third, 3)
    shown = await service.snapshot(GAMES)
    assert shown.takeback_seat == request.seat
    assert shown.version == request.version

    answer = await service.answer_takeback(
        request.game_id, second, accept=True, version=request.version
    )
    assert answer.accepted
    assert not answer.withdrawn
    assert (answer.move, answer.removed, answer.user_id) == (third, (third,), first)
    snapshot = answer.snapshot
    assert snapshot.ply == 2
    assert snapshot.version == request.version + 1
    assert snapshot.takeback_seat is None
    assert snapshot.to_move_user_ids == (first,)
    assert snapshot.position == mover_snapshot.position
    assert [m.ply for m in snapshot.last_moves] == [1, 2]

    # The stored state is exactly a fresh replay of the shortened log.
    game_row = await database.games.get(request.game_id)
    assert game_row is not None
    log = await database.games.moves(request.game_id)
    assert [m.ply for m in log] == [1, 2]
    meta = await service.core.game_meta(game_row)
    assert engine.dumps(rebuild_game(meta, log)) == game_row.state_json
    assert (await service.replay(request.game_id)).matches

    # Play goes on from there: the same player may choose another move.
    again = await play_first_legal(service, snapshot, 0)
    assert (await service.snapshot(GAMES)).last_moves[-1].text == again
    assert (await service.move_list(GAMES))[-1].ply == 3


async def test_takeback_of_the_first_move_goes_back_to_the_start(
    service: GameService, start_game: StartGame
) -> None:
    start = await start_game()
    first, second = to_move_user(start), waiting_user(start)
    await play_first_legal(service, start)
    request = await service.request_takeback(GAMES, first)
    answer = await service.answer_takeback(
        start.game_id, second, accept=True, version=request.version
    )
    assert answer.snapshot.ply == 0
    assert answer.snapshot.position == start.position
    assert answer.snapshot.last_moves == ()


async def test_refused_and_withdrawn_requests_change_nothing_but_the_request(
    service: GameService, start_game: StartGame
) -> None:
    start = await start_game()
    first, second = to_move_user(start), waiting_user(start)
    await play_first_legal(service, start)
    before = await service.snapshot(GAMES)

    request = await service.request_takeback(GAMES, first)
    with pytest.raises(TakebackError, match="cannot allow your own"):
        await service.answer_takeback(start.game_id, first, accept=True, version=request.version)
    with pytest.raises(NotAPlayerError):
        await service.answer_takeback(start.game_id, CAROL, accept=False, version=request.version)
    refused = await service.answer_takeback(
        start.game_id, second, accept=False, version=request.version
    )
    assert not refused.accepted
    assert not refused.withdrawn
    assert (refused.by_user_id, refused.user_id, refused.removed) == (second, first, ())
    assert refused.snapshot.takeback_seat is None
    assert (refused.snapshot.ply, refused.snapshot.position) == (before.ply, before.position)
    # The buttons of the answered request are stale now.
    with pytest.raises(StaleActionError, match="no longer open"):
        await service.answer_takeback(start.game_id, second, accept=True, version=request.version)

    again = await service.request_takeback(GAMES, first)
    withdrawn = await service.answer_takeback(
        start.game_id, first, accept=False, version=again.version
    )
    assert withdrawn.withdrawn
    assert withdrawn.snapshot.takeback_seat is None
    assert withdrawn.snapshot.ply == before.ply


async def test_a_move_closes_the_request(service: GameService, start_game: StartGame) -> None:
    start = await start_game()
    first, second = to_move_user(start), waiting_user(start)
    await play_first_legal(service, start)
    request = await service.request_takeback(GAMES, first)
    # The opponent replies instead of answering: the request is gone with the move.
    await play_first_legal(service, await service.snapshot(GAMES))
    assert (await service.snapshot(GAMES)).takeback_seat is None
    with pytest.raises(StaleActionError, match="This takeback request is no longer open"):
        await service.answer_takeback(start.game_id, second, accept=True, version=request.version)
    # And the requester's move is no longer the last one.
    with pytest.raises(TakebackError, match="opponent has moved since"):
        await service.request_takeback(GAMES, first)


async def test_takeback_refusals(service: GameService, start_game: StartGame) -> None:
    start = await start_game()
    first, second = to_move_user(start), waiting_user(start)
    with pytest.raises(NoGameHereError):
        await service.request_takeback(OTHER, first)
    with pytest.raises(TakebackError, match="not moved yet"):
        await service.request_takeback(GAMES, first)
    await play_first_legal(service, start)
    with pytest.raises(NotAPlayerError):
        await service.request_takeback(GAMES, CAROL)
    with pytest.raises(TakebackError, match="not moved yet"):
        await service.request_takeback(GAMES, second)

    # A pending draw offer must be answered first.
    offer = await service.offer_draw(GAMES, second)
    with pytest.raises(TakebackError, match="draw offer is pending"):
        await service.request_takeback(GAMES, first)
    await service.answer_draw(start.game_id, first, accept=False, version=offer.version)

    # One request at a time.
    await service.request_takeback(GAMES, first)
    with pytest.raises(TakebackError, match="already asked"):
        await service.request_takeback(GAMES, first)
    with pytest.raises(TakebackError, match="opponent has already asked"):
        await service.request_takeback(GAMES, second)
    # ... and no draw offer over it, from either side: the request would stay open with
    # buttons that no longer answer it.
    for user in (first, second):
        with pytest.raises(DrawOfferError, match="takeback request is open"):
            await service.offer_draw(GAMES, user)


async def test_no_takeback_across_a_die_roll(service: GameService, start_game: StartGame) -> None:
    start = await start_game(game="generator")
    mover = to_move_user(start)
    await play_first_legal(service, start)
    log = await service.move_list(GAMES)
    assert log[-1].seat is None  # the next player's roll came right after the move
    with pytest.raises(TakebackError, match="never undoes a die roll"):
        await service.request_takeback(GAMES, mover)
    assert (await service.snapshot(GAMES)).takeback_seat is None


async def test_takebacks_are_for_two_players_only(
    service: GameService, round_robin: RoundRobin
) -> None:
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        opponent_ids=[BOB, DAN],
        game="roundrobin",
    )
    await service.accept_challenge(challenge.challenge_id, BOB)
    started = (await service.accept_challenge(challenge.challenge_id, DAN)).game
    assert started is not None
    mover = to_move_user(started)
    await service.play(GAMES, mover, "tick")
    with pytest.raises(TakebackError, match="only for two-player games"):
        await service.request_takeback(GAMES, mover)


async def test_generation_zero_takes_back_only_moves_that_revealed_nothing(
    service: GameService, database: Database, start_game: StartGame
) -> None:
    engine = get_engine("generation_zero")
    kinds = PUBLIC_REVEALS["generation_zero"]
    start = await start_game(game="generation_zero", options="max_rounds=2")
    rng = random.Random(5)
    snapshot = start
    refused = allowed = 0
    for _ in range(150):
        if not snapshot.is_active or (refused and allowed):
            break
        user = to_move_user(snapshot)
        (seat,) = snapshot.to_move
        game_row = await database.games.get(snapshot.game_id)
        assert game_row is not None
        before = engine.loads(game_row.state_json)
        text = rng.choice(await service.legal_moves(GAMES, user))
        _, _, events = engine.play(before, seat, text)
        revealing = any(e.visible_to is not None or e.kind in kinds for e in events)
        result = await service.play(GAMES, user, text)
        if revealing and not refused:
            with pytest.raises(TakebackError, match=r"^Your move .*, so it cannot be taken back"):
                await service.request_takeback(GAMES, user)
            refused += 1
        elif not revealing and not allowed and result.snapshot.is_active:
            request = await service.request_takeback(GAMES, user)
            opponent = request.opponent_user_ids[0]
            answer = await service.answer_takeback(
                snapshot.game_id, opponent, accept=True, version=request.version
            )
            rewound = await database.games.get(snapshot.game_id)
            assert rewound is not None
            assert rewound.state_json == engine.dumps(before)
            assert answer.snapshot.ply == snapshot.ply
            allowed += 1
            await service.play(GAMES, user, text)  # on with the same game
        snapshot = await service.snapshot(GAMES)
    assert refused, "the random game showed no move that revealed something"
    assert allowed, "the random game showed no move that revealed nothing"


async def test_the_clock_turns_back_to_the_requester_without_a_refund(
    service: GameService, database: Database, clock: FakeClock
) -> None:
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        opponent_ids=[BOB],
        game="generatorb",
        clock="hard:2d+1d/3d",
    )
    start = (await service.accept_challenge(challenge.challenge_id, BOB)).game
    assert start is not None
    first, second = to_move_user(start), waiting_user(start)
    (first_seat,) = start.to_move
    second_seat = 1 - first_seat
    clock.advance(timedelta(hours=5))
    await play_first_legal(service, start)
    after_move = {c.seat: c for c in await database.clocks.for_game(start.game_id)}
    # The move used 5 hours of the 2 days and earned the 1-day increment (3 days at most).
    assert after_move[first_seat].remaining_ms == (3 * 24 - 5) * 3600_000
    assert after_move[first_seat].running_since is None
    assert after_move[second_seat].running_since == clock.now
    kept = {c.seat: c.remaining_ms for c in await database.clocks.for_game(start.game_id)}

    clock.advance(timedelta(hours=2))
    request = await service.request_takeback(GAMES, first)
    await service.answer_takeback(start.game_id, second, accept=True, version=request.version)

    clocks = {c.seat: c for c in await database.clocks.for_game(start.game_id)}
    assert clocks[first_seat].running_since == clock.now  # the requester's turn again
    assert clocks[first_seat].remaining_ms == kept[first_seat]  # nothing given back
    assert clocks[second_seat].running_since is None
    # The opponent's two hours of waiting were used from their bank.
    assert clocks[second_seat].remaining_ms == kept[second_seat] - 2 * 3600_000
    timers = await database.timers.pending(game_id=start.game_id, kinds=[CLOCK_TIMER])
    assert [(t.seat, t.due_at) for t in timers] == [
        (first_seat, clock.now + timedelta(milliseconds=kept[first_seat]))
    ]


# ============================================================================================
# Rematches
# ============================================================================================


async def finished_game(
    service: GameService, start_game: StartGame, **kwargs: object
) -> GameSnapshot:
    start = await start_game(**kwargs)
    await play_first_legal(service, start)
    return await service.resign(start.channel_id, waiting_user(start))


async def test_a_rematch_rotates_the_seats_and_keeps_options_and_clock(
    service: GameService, start_game: StartGame
) -> None:
    options = "move_limit=0 repetition_draw=false"
    over = await finished_game(service, start_game, options=options)
    # The clock is whatever the game had; here the game's row says none, a rematch copies it.
    old_seats = [p.user_id for p in over.players]
    info = await service.rematch(over.game_id, old_seats[0])
    assert info.is_open
    assert (info.challenger_id, info.invited_ids) == (old_seats[0], (old_seats[1],))
    assert info.seating == (old_seats[1], old_seats[0])
    assert info.rematch_of == over.game_id
    assert info.options == over.options
    assert info.options_text == options
    assert info.clock == over.clock
    assert (info.channel_id, info.guild_id, info.game) == (GAMES, GUILD, "generatorb")

    started = (await service.accept_challenge(info.challenge_id, old_seats[1])).game
    assert started is not None
    assert [p.user_id for p in started.players] == [old_seats[1], old_seats[0]]
    assert started.options == over.options


async def test_a_rematch_keeps_the_clock(service: GameService) -> None:
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        opponent_ids=[BOB],
        game="generatorb",
        clock="hard:3d+1d/5d",
    )
    started = (await service.accept_challenge(challenge.challenge_id, BOB)).game
    assert started is not None
    over = await service.resign(GAMES, ALICE)
    info = await service.rematch(over.game_id, BOB)
    assert info.clock == "hard:3d+1d/5d" == over.clock


async def test_rematch_refusals_and_the_second_press(
    service: GameService, start_game: StartGame, clock: FakeClock
) -> None:
    active = await start_game(channel_id=OTHER)
    with pytest.raises(RematchError, match="still going on"):
        await service.rematch(active.game_id, ALICE)
    aborted = await service.abort(OTHER, ALICE)
    with pytest.raises(RematchError, match="aborted"):
        await service.rematch(aborted.game_id, ALICE)
    with pytest.raises(NoGameHereError):
        await service.rematch(9999, ALICE)

    over = await finished_game(service, start_game)
    with pytest.raises(NotAPlayerError, match="Only the players can ask for a rematch"):
        await service.rematch(over.game_id, CAROL)
    first = await service.rematch(over.game_id, ALICE)
    for presser in (ALICE, BOB):
        with pytest.raises(RematchOpenError) as raised:
            await service.rematch(over.game_id, presser)
        assert raised.value.challenge.challenge_id == first.challenge_id

    # Once that challenge is declined, or has expired, the button works again.
    await service.decline_challenge(first.challenge_id, BOB)
    second = await service.rematch(over.game_id, BOB)
    assert second.challenge_id != first.challenge_id
    assert second.seating == first.seating  # rotated from the same game either way
    clock.advance(service.challenge_ttl + timedelta(seconds=1))
    third = await service.rematch(over.game_id, ALICE)
    assert third.challenge_id not in (first.challenge_id, second.challenge_id)


async def test_a_player_in_several_seats_gets_no_rematch(
    service: GameService, database: Database, clock: FakeClock
) -> None:
    engine = get_engine("generatorb")
    state = engine.new_game(2, engine.resolve_options({}), 1)
    game_row = await database.games.create(
        guild_id=GUILD,
        channel_id=GAMES,
        parent_channel_id=None,
        game="generatorb",
        options_json=_codec.dump_options(engine.resolve_options({})),
        rules_version=engine.info.rules_version,
        seed=1,
        state_json=engine.dumps(state),
        ply=0,
        to_move=engine.to_move(state),
        user_ids=[ALICE, ALICE],
        now=clock.now,
    )
    over = await service.resign(GAMES, ALICE)
    assert not over.is_active
    with pytest.raises(RematchError, match="several seats"):
        await service.rematch(game_row.id, ALICE)


async def test_a_rematch_of_three_players_moves_everyone_one_seat(
    service: GameService, round_robin: RoundRobin
) -> None:
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        opponent_ids=[BOB, DAN],
        game="roundrobin",
        options_text="colours=bygr",
    )
    await service.accept_challenge(challenge.challenge_id, BOB)
    started = (await service.accept_challenge(challenge.challenge_id, DAN)).game
    assert started is not None
    old = [p.user_id for p in started.players]
    for user in old[:2]:
        await service.resign(GAMES, user)
    info = await service.rematch(started.game_id, DAN)
    assert info.players == 3
    assert info.seating == (old[1], old[2], old[0])
    assert set(info.invited_ids) == set(old) - {DAN}
    assert info.options_text == "colours=bygr"
    await service.accept_challenge(info.challenge_id, info.invited_ids[0])
    again = (await service.accept_challenge(info.challenge_id, info.invited_ids[1])).game
    assert again is not None
    assert [p.user_id for p in again.players] == [old[1], old[2], old[0]]


async def test_a_rematch_of_a_game_in_a_thread(service: GameService) -> None:
    thread = 777
    challenge = await service.create_challenge(
        guild_id=GUILD, channel_id=GAMES, challenger_id=ALICE, opponent_ids=[BOB], game="orbs"
    )
    started = (
        await service.accept_challenge(
            challenge.challenge_id, BOB, channel_id=thread, parent_channel_id=GAMES
        )
    ).game
    assert started is not None
    over = await service.resign(thread, BOB)
    in_thread = await service.rematch(over.game_id, ALICE)
    assert in_thread.channel_id == thread
    await service.cancel_challenge(in_thread.challenge_id, ALICE)
    archived = await service.rematch(over.game_id, ALICE, in_parent=True)
    assert archived.channel_id == GAMES


# ============================================================================================
# The repository methods: GamesRepo.rewind and ChallengesRepo.open_rematch
# ============================================================================================


async def test_rewind_is_one_compare_and_set(
    service: GameService, database: Database, start_game: StartGame, clock: FakeClock
) -> None:
    start = await start_game()
    await play_first_legal(service, start)
    await play_first_legal(service, await service.snapshot(GAMES))
    game_row = await database.games.get(start.game_id)
    assert game_row is not None
    game_row = await database.games.set_draw_offer(game_row.id, game_row.version, 0, clock.now)
    assert game_row.ply == 2

    with pytest.raises(StaleVersionError):
        await database.games.rewind(
            game_row.id,
            game_row.version - 1,
            to_ply=1,
            state_json="{}",
            to_move=(1,),
            now=clock.now,
        )
    with pytest.raises(ValueError, match="cannot rewind"):
        await database.games.rewind(
            game_row.id, game_row.version, to_ply=-1, state_json="{}", to_move=(0,), now=clock.now
        )
    # A clock write that no longer applies rolls the whole rewind back.
    stale_clock = ClockChanges(writes=(ClockWrite(game_row.id, 0, 7, 1000, None),))
    with pytest.raises(ClockChangedError):
        await database.games.rewind(
            game_row.id,
            game_row.version,
            to_ply=1,
            state_json="{}",
            to_move=(1,),
            now=clock.now,
            clock_changes=stale_clock,
        )
    assert [m.ply for m in await database.games.moves(game_row.id)] == [1, 2]
    assert await database.games.get(game_row.id) == game_row

    rewound = await database.games.rewind(
        game_row.id, game_row.version, to_ply=1, state_json='{"x":1}', to_move=(1,), now=clock.now
    )
    assert (rewound.version, rewound.ply, rewound.to_move) == (game_row.version + 1, 1, (1,))
    assert (rewound.state_json, rewound.draw_offer_seat, rewound.takeback_seat) == (
        '{"x":1}',
        None,
        None,
    )
    assert rewound.is_active
    assert [m.ply for m in await database.games.moves(game_row.id)] == [1]


async def test_open_rematch_finds_only_the_open_rematch_of_that_game(
    service: GameService, database: Database, start_game: StartGame
) -> None:
    over = await finished_game(service, start_game)
    assert await database.challenges.open_rematch(over.game_id) is None
    unrelated = await service.create_challenge(
        guild_id=GUILD, channel_id=GAMES, challenger_id=ALICE, opponent_ids=[BOB], game="orbs"
    )
    info = await service.rematch(over.game_id, BOB)
    found = await database.challenges.open_rematch(over.game_id)
    assert found is not None
    assert found.id == info.challenge_id != unrelated.challenge_id
    assert found.rematch_of == over.game_id
    assert await database.challenges.open_rematch(over.game_id + 1) is None
    await service.cancel_challenge(info.challenge_id, BOB)
    assert await database.challenges.open_rematch(over.game_id) is None
