"""Playing through the service: whole games, the move log, restarts and replays."""

from __future__ import annotations

import random

import pytest

from bot.service import (
    GameService,
    InvalidMoveError,
    NoGameHereError,
    NotAPlayerError,
    NotYourTurnError,
    StaleActionError,
)
from db import Database
from engines import get_engine

from .conftest import BOB, CAROL, GAMES, OTHER, FakeClock, StartGame, to_move_user, waiting_user

START = "S:a1,a2,b1,b2,d4=3 N:e5=3,g7,g8,h7,h8 supply:17/17 turn:S ply:0 passes:0"


def pick_move(engine_state: object, seat: int, moves: list[str], rng: random.Random) -> str:
    """A winning move if there is one, else a random one (so games end in a win)."""
    engine = get_engine("generatorb")
    for text in moves:
        after, _, _ = engine.play(engine_state, seat, text)
        if (outcome := engine.outcome(after)) is not None and outcome.winners:
            return text
    return rng.choice(moves)


async def test_a_full_game_to_a_win_mirrors_the_engine(
    service: GameService, start_game: StartGame
) -> None:
    engine = get_engine("generatorb")
    snapshot = await start_game(options="move_limit=0 repetition_draw=false")
    assert snapshot.position == START
    assert snapshot.ply == 0
    assert snapshot.only_moves == ()  # 24 legal moves: too many to list in the prompt
    assert snapshot.is_active
    assert sorted(snapshot.user_ids) == sorted([101, BOB])
    mirror = engine.new_game(2, snapshot.options, 0)
    rng = random.Random(7)
    while snapshot.is_active:
        user = to_move_user(snapshot)
        (seat,) = snapshot.to_move
        moves = await service.legal_moves(GAMES, user)
        assert moves == engine.legal_move_texts(mirror, seat)
        text = pick_move(mirror, seat, moves, rng)
        result = await service.play(GAMES, user, text)
        mirror, canonical, events = engine.play(mirror, seat, text)
        assert result.move == canonical
        assert result.seat == seat
        assert result.user_id == user
        assert result.events == tuple(e for e in events if e.visible_to is None)
        assert result.snapshot.position == engine.position(mirror)
        assert result.snapshot.version == snapshot.version + 1
        assert result.snapshot.last_moves[-1].text == canonical
        snapshot = result.snapshot
    outcome = snapshot.outcome
    assert outcome is not None
    assert outcome.winners
    assert outcome == engine.outcome(mirror)
    assert snapshot.status == "finished"
    assert snapshot.to_move == ()
    assert result.next_user_ids == ()
    # The game left the channel: it takes no more moves, and the log is complete.
    with pytest.raises(NoGameHereError):
        await service.play(GAMES, BOB, "pass")
    assert (await service.replay(snapshot.game_id)).plies == snapshot.ply


async def test_replay_reproduces_the_stored_position(
    service: GameService, start_game: StartGame
) -> None:
    snapshot = await start_game()
    rng = random.Random(3)
    for _ in range(40):
        user = to_move_user(snapshot)
        moves = await service.legal_moves(GAMES, user)
        snapshot = (await service.play(GAMES, user, rng.choice(moves))).snapshot
    report = await service.replay(snapshot.game_id)
    assert report.matches
    assert report.plies == 40
    assert report.position == report.stored_position == snapshot.position


async def test_a_new_service_on_the_same_database_continues_the_game(
    database: Database, db_url: str, clock: FakeClock, start_game: StartGame
) -> None:
    snapshot = await start_game()
    first = GameService(database, clock=clock)
    after_one = (await first.play(GAMES, to_move_user(snapshot), "a1-a3")).snapshot
    # A restart: a new process with its own connection pool and empty caches.
    restarted_db = Database(db_url)
    try:
        restarted = GameService(restarted_db, clock=clock)
        again = await restarted.snapshot(GAMES)
        assert again.position == after_one.position
        assert again.version == after_one.version
        assert [m.text for m in again.last_moves] == ["a1-a3"]
        result = await restarted.play(GAMES, to_move_user(again), "h8-h6")
        assert result.snapshot.ply == 2
        assert [m.text for m in await restarted.move_list(GAMES)] == ["a1-a3", "h8-h6"]
    finally:
        await restarted_db.close()
    # The first service notices the change made elsewhere (its cache is keyed by version).
    seen = await first.snapshot(GAMES)
    assert seen.ply == 2
    assert seen.position == result.snapshot.position


async def test_move_errors_each_have_their_type(
    service: GameService, start_game: StartGame
) -> None:
    with pytest.raises(NoGameHereError):
        await service.play(GAMES, BOB, "a1-a3")
    snapshot = await start_game()
    mover, waiter = to_move_user(snapshot), waiting_user(snapshot)
    with pytest.raises(NoGameHereError) as nowhere:
        await service.play(OTHER, mover, "a1-a3")
    assert nowhere.value.game_id is None
    with pytest.raises(NotAPlayerError) as stranger:
        await service.play(GAMES, CAROL, "a1-a3")
    assert stranger.value.game_id == snapshot.game_id  # for the log line
    with pytest.raises(NotYourTurnError) as not_yours:
        await service.play(GAMES, waiter, "h8-h6")
    assert not_yours.value.waiting_for == (mover,)
    assert not_yours.value.just_played is None  # nobody has moved yet
    with pytest.raises(InvalidMoveError) as notation:
        await service.play(GAMES, mover, "e2e4")
    assert notation.value.kind == "notation"
    assert notation.value.message.endswith(".")
    # Only spaces (Discord lets them through): said so, not quoted back as ''.
    with pytest.raises(InvalidMoveError, match=r"^That move is empty\.$") as empty:
        await service.play(GAMES, mover, "   ")
    assert empty.value.kind == "notation"
    with pytest.raises(InvalidMoveError) as illegal:
        await service.play(GAMES, mover, "b2-c3")
    assert illegal.value.kind == "illegal"
    assert illegal.value.message == "An orb never steps; it moves only by jumping (G15)."
    with pytest.raises(StaleActionError):
        await service.play(GAMES, mover, "a1-a3", seen_version=snapshot.version - 1)
    # The player to move names the other seat: not "waiting for" themselves.
    with pytest.raises(InvalidMoveError) as other_seat:
        await service.play(GAMES, mover, "[1]a1-a3")
    assert other_seat.value.message == (
        "The seat prefix (`[k]` before the move) names a seat that is not to move: you play "
        f"{snapshot.players[0].seat_name} now. Leave the prefix out."
    )
    # Nothing above changed the game.
    assert (await service.snapshot(GAMES)).version == snapshot.version
    result = await service.play(GAMES, mover, " A1 - A3 ", seen_version=snapshot.version)
    assert result.move == "a1-a3"
    # The same move sent again (a double submit): it is said to be played.
    with pytest.raises(NotYourTurnError) as again:
        await service.play(GAMES, mover, "a1-a3")
    assert again.value.waiting_for == (waiter,)
    assert again.value.just_played == "a1-a3"


async def test_autocomplete_offers_the_callers_legal_moves(
    service: GameService, start_game: StartGame
) -> None:
    snapshot = await start_game()
    mover, waiter = to_move_user(snapshot), waiting_user(snapshot)
    everything = await service.autocomplete_moves(GAMES, mover, "")
    assert len(everything) == 24
    assert everything == sorted(everything)
    assert await service.autocomplete_moves(GAMES, mover, "d4-") == [
        m for m in everything if m.startswith("d4-")
    ]
    # Separators may be left out; spaces and case do not matter.
    assert (await service.autocomplete_moves(GAMES, mover, "A1 a3"))[0] == "a1-a3"
    assert await service.autocomplete_moves(GAMES, mover, "h8") == []
    assert await service.autocomplete_moves(GAMES, waiter, "") == []
    assert await service.autocomplete_moves(GAMES, CAROL, "") == []
    assert await service.autocomplete_moves(OTHER, mover, "") == []


async def test_render_draws_a_png_of_the_public_view(
    service: GameService, start_game: StartGame
) -> None:
    snapshot = await start_game()
    png = await service.render(snapshot, seat_labels=("alice", "bob"))
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
