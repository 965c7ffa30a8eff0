"""The bot in its own seats (bot/service/bots.py): lobbies with bots, durable bot turns that
commit exactly once, games against the bot to their end, and its answers to draw offers and
takebacks. Searches run in a thread pool here (the bot uses worker processes)."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest

import ai.workers as workers_module
from ai.levels import Suggestion
from bot.service import GameService, GameSnapshot, StaleActionError
from bot.service import bots as bots_module
from bot.service.bot_seats import bot_level, bot_user_id, is_bot
from bot.service.bots import BOT_TURN_TIMER
from bot.service.errors import (
    AbortNotAllowedError,
    ChallengeClosedError,
    DrawOfferError,
    HintError,
    LobbyError,
    NotAPlayerError,
    NotChallengedError,
    NotYourTurnError,
)
from bot.service.logbook import AUTOMATIC_EVENT, TIMEOUT_EVENT, resign_move_text
from bot.service.models import MoveRecord
from bot.service.social import TakebackError
from db import Database
from db.rows import TimerRow
from engines import get_engine
from engines.base import Event
from tests.service.conftest import ALICE, BOB, CAROL, GAMES, GUILD, FakeClock, StartGame, seeds

#: Options that keep games against the bot short enough for the suite.
SHORT = {
    "generatorb": "move_limit=40",
    "arbos": None,
    "generator": "max_turns=16",
    "orbs": "board=hexagon no_progress_limit=12",
    "generation_zero": "max_rounds=2",
}


@pytest.fixture
async def bot_service(database: Database, clock: FakeClock) -> AsyncIterator[GameService]:
    with ThreadPoolExecutor(1) as pool:
        yield GameService(database, clock=clock, rng_seed_source=seeds(7), ai_executor=pool)


async def vs_bot(service: GameService, game: str, level: int = 1) -> GameSnapshot:
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        game=game,
        players=2,
        options_text=SHORT.get(game),
    )
    update = await service.add_bots(challenge.challenge_id, ALICE, [level])
    assert update.game is not None, "a two-seat challenge with a bot starts at once"
    return update.game


async def people_and_bots(
    service: GameService,
    game: str,
    players: int,
    levels: list[int],
    options_text: str | None = None,
) -> GameSnapshot:
    """ALICE challenges BOB to ``game`` for ``players`` seats, BOB accepts and ALICE fills
    the other seats with bots at ``levels``; returns the started game."""
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        game=game,
        opponent_ids=[BOB],
        players=players,
        options_text=options_text,
    )
    await service.accept_challenge(challenge.challenge_id, BOB)
    started = (await service.add_bots(challenge.challenge_id, ALICE, levels)).game
    assert started is not None
    return started


def count_log_reads(service: GameService, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on, the game id of every read of a whole move log (a position reads only
    its last few moves), appended to the list returned."""
    games = service.database.games
    reads: list[int] = []
    read_log = games.moves

    async def counted(game_id: int, **kwargs: Any) -> Any:
        if not kwargs:
            reads.append(game_id)
        return await read_log(game_id, **kwargs)

    monkeypatch.setattr(games, "moves", counted)
    return reads


async def due_bot_turns(service: GameService, clock: FakeClock) -> list[TimerRow]:
    return await service.database.timers.claim_due(clock(), "test", kinds=[BOT_TURN_TIMER])


async def to_a_persons_turn(service: GameService, clock: FakeClock) -> GameSnapshot:
    """Let the bots play (:func:`run_bot_turns`) until a person is to move."""
    for _ in range(50):
        snapshot = await service.snapshot(GAMES)
        if not any(is_bot(snapshot.players[s].user_id) for s in snapshot.to_move):
            return snapshot
        await run_bot_turns(service, clock)
    raise AssertionError("the bots kept the move")


async def past_the_start(service: GameService, clock: FakeClock) -> GameSnapshot:
    """A person to move after some player has chosen a move (a bot declines a draw offered
    before that: :meth:`bot.service.bots.Bots.answer_draw`)."""
    snapshot = await to_a_persons_turn(service, clock)
    if any(move.seat is not None for move in snapshot.last_moves):
        return snapshot
    mover = snapshot.players[snapshot.to_move[0]].user_id
    await service.play(GAMES, mover, (await service.legal_moves(GAMES, mover))[0])
    return await to_a_persons_turn(service, clock)


async def run_bot_turns(service: GameService, clock: FakeClock) -> int:
    """Run every due bot turn as the bots' loop would; returns how many moves landed."""
    played = 0
    for timer in await due_bot_turns(service, clock):
        turn = await service.bots.turn_due(timer)
        if turn is not None:
            await service.bots.play(turn, await service.bots.think(turn))
            played += 1
        await service.database.timers.mark_fired(timer, now=clock())
    return played


async def test_a_bot_takes_its_seat_at_once_and_the_game_starts(bot_service: GameService) -> None:
    snapshot = await vs_bot(bot_service, "generatorb", level=3)
    users = snapshot.user_ids
    assert ALICE in users
    bots = [u for u in users if is_bot(u)]
    assert len(bots) == 1
    assert bot_level(bots[0]) == 3


async def test_only_the_challenger_adds_bots_and_only_to_open_seats(
    bot_service: GameService,
) -> None:
    challenge = await bot_service.create_challenge(
        guild_id=GUILD, channel_id=GAMES, challenger_id=ALICE, game="orbs", players=4
    )
    with pytest.raises(NotChallengedError):
        await bot_service.add_bots(challenge.challenge_id, BOB, [1])
    update = await bot_service.add_bots(challenge.challenge_id, ALICE, [2, 2])
    assert update.game is None
    seated = [p.user_id for p in update.challenge.lobby if p.status == "seated"]
    assert bot_user_id(2, 0) in seated
    assert bot_user_id(2, 1) in seated
    with pytest.raises(LobbyError):
        await bot_service.add_bots(challenge.challenge_id, ALICE, [9])
    started = await bot_service.add_bots(challenge.challenge_id, ALICE, [1])
    assert started.game is not None
    assert len(started.game.user_ids) == 4


async def test_the_challenger_removes_a_bot_and_its_seat_opens_again(
    bot_service: GameService,
) -> None:
    challenge = await bot_service.create_challenge(
        guild_id=GUILD, channel_id=GAMES, challenger_id=ALICE, game="orbs", players=4
    )
    cid = challenge.challenge_id
    await bot_service.add_bots(cid, ALICE, [3, 3])
    with pytest.raises(NotChallengedError):
        await bot_service.remove_bot(cid, BOB, bot_user_id(3, 0))
    after = await bot_service.remove_bot(cid, ALICE, bot_user_id(3, 0))
    assert after.seated_ids == (ALICE, bot_user_id(3, 1))
    assert after.open_seats == 2
    # A double click, a stale menu, a person's id: that bot holds no seat here.
    for gone in (bot_user_id(3, 0), bot_user_id(4, 0), BOB, 0):
        with pytest.raises(LobbyError):
            await bot_service.remove_bot(cid, ALICE, gone)
    # Adding a bot of that level again gives the removed bot its row back: the ids stay few
    # however often bots come and go.
    for _ in range(6):
        await bot_service.add_bots(cid, ALICE, [3])
        await bot_service.remove_bot(cid, ALICE, bot_user_id(3, 0))
    again = await bot_service.add_bots(cid, ALICE, [3])
    assert set(again.challenge.seated_ids) == {ALICE, bot_user_id(3, 0), bot_user_id(3, 1)}
    started = await bot_service.add_bots(cid, ALICE, [1])
    assert started.game is not None
    assert sorted(started.game.user_ids) == sorted(
        [ALICE, bot_user_id(3, 0), bot_user_id(3, 1), bot_user_id(1, 0)]
    )
    with pytest.raises(ChallengeClosedError):
        await bot_service.remove_bot(cid, ALICE, bot_user_id(1, 0))


async def test_a_bot_turn_is_a_timer_planned_with_the_move(
    bot_service: GameService, clock: FakeClock
) -> None:
    snapshot = await vs_bot(bot_service, "generatorb")
    if not is_bot(snapshot.players[snapshot.to_move[0]].user_id):
        move = get_engine("generatorb").legal_move_texts(
            get_engine("generatorb").loads(
                (await bot_service.database.games.get(snapshot.game_id)).state_json  # type: ignore[union-attr]
            ),
            snapshot.to_move[0],
        )[0]
        await bot_service.play(GAMES, ALICE, move)
    timers = await due_bot_turns(bot_service, clock)
    assert len(timers) == 1
    row = await bot_service.database.games.get(snapshot.game_id)
    assert row is not None
    assert json.loads(timers[0].payload_json) == {"ply": row.ply}
    turn = await bot_service.bots.turn_due(timers[0])
    assert turn is not None
    assert isinstance(turn.subject, str)
    text = await bot_service.bots.think(turn)
    result = await bot_service.bots.play(turn, text)
    assert result.move == text
    assert result.snapshot.ply == row.ply + 1
    with pytest.raises(StaleActionError):  # a second process with the same turn: lands once
        await bot_service.bots.play(turn, text)


async def test_a_draw_offer_while_the_bot_thinks_makes_its_move_stale(
    bot_service: GameService, clock: FakeClock
) -> None:
    snapshot = await vs_bot(bot_service, "arbos")
    if not is_bot(snapshot.players[snapshot.to_move[0]].user_id):
        await bot_service.play(GAMES, ALICE, (await bot_service.legal_moves(GAMES, ALICE))[0])
    [timer] = await due_bot_turns(bot_service, clock)
    turn = await bot_service.bots.turn_due(timer)
    assert turn is not None
    text = await bot_service.bots.think(turn)
    await bot_service.offer_draw(GAMES, ALICE)
    with pytest.raises(StaleActionError):
        await bot_service.bots.play(turn, text)
    assert await bot_service.bots.still_to_move(turn)


async def test_the_bot_sees_only_its_own_view_in_generation_zero(
    bot_service: GameService, clock: FakeClock
) -> None:
    snapshot = await vs_bot(bot_service, "generation_zero")
    engine = get_engine("generation_zero")
    for _ in range(40):
        timers = await due_bot_turns(bot_service, clock)
        for timer in timers:
            turn = await bot_service.bots.turn_due(timer)
            if turn is None:
                continue
            assert not isinstance(turn.subject, str), "never the state of a hidden game"
            row = await bot_service.database.games.get(snapshot.game_id)
            assert row is not None
            assert turn.subject == engine.view(engine.loads(row.state_json), turn.seat)
            return
        await bot_service.play(GAMES, ALICE, (await bot_service.legal_moves(GAMES, ALICE))[0])
    pytest.fail("the bot never had a turn")


@pytest.mark.parametrize("game", sorted(SHORT))
async def test_a_game_against_a_level_1_bot_reaches_its_end(
    bot_service: GameService, clock: FakeClock, game: str
) -> None:
    snapshot = await vs_bot(bot_service, game)
    rng = random.Random(game)
    for _ in range(3000):
        snapshot = await bot_service.game_snapshot(snapshot.game_id)
        if snapshot.status != "active":
            break
        if await run_bot_turns(bot_service, clock):
            continue
        moves = await bot_service.legal_moves(GAMES, ALICE)
        assert moves, f"nobody can move in {game} at ply {snapshot.ply}"
        await bot_service.play(GAMES, ALICE, rng.choice(moves))
    assert snapshot.status == "finished", f"{game} did not end"
    assert snapshot.outcome is not None


async def test_the_bot_answers_a_draw_offer(bot_service: GameService) -> None:
    await vs_bot(bot_service, "generatorb", level=5)
    offer = await bot_service.offer_draw(GAMES, ALICE)
    result = await bot_service.bots.answer_draw(offer)
    assert result is not None, "never silence"
    answered, answered_by = result
    assert answered_by == offer.opponent_user_ids[0]
    assert answered.draw_offer_seat is None  # declined (an even opening is not lost) or drawn


async def test_an_offer_the_bot_never_answered_is_found_for_the_next_process(
    bot_service: GameService, start_game: StartGame
) -> None:
    """The process that took ``/draw`` stopped before the bot answered: the offer is listed
    as awaiting the bot, as ``offer_draw`` returned it, until the bot has answered. An offer
    between people is not listed."""
    await vs_bot(bot_service, "generatorb", level=5)
    offer = await bot_service.offer_draw(GAMES, ALICE)
    assert await bot_service.offers_awaiting_bots() == [offer]
    assert await bot_service.bots.answer_draw(offer) is not None
    assert await bot_service.offers_awaiting_bots() == []
    await start_game(channel_id=700, challenger=BOB, opponent=CAROL, on=bot_service)
    await bot_service.offer_draw(700, BOB)
    assert await bot_service.offers_awaiting_bots() == []


def _assessing(value: float | None) -> Callable[..., float]:
    """A stand-in for ``ai.levels.assess`` that rates the bot's seat ``value`` (``None``:
    fails)."""

    def assess(*_: object) -> float:
        if value is None:
            raise RuntimeError("the assessment failed")
        return value

    return assess


@pytest.mark.parametrize(
    ("value", "accepted"),
    [(0.2, True), (bots_module.ACCEPT_DRAW_AT_MOST, True), (0.8, False), (None, False)],
)
async def test_the_bot_accepts_a_draw_only_when_it_assesses_its_seat_as_lost_or_even(
    bot_service: GameService,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    value: float | None,
    accepted: bool,
) -> None:
    """Accept at most :data:`bot.service.bots.ACCEPT_DRAW_AT_MOST`, decline above it, and
    decline (never silence) when the assessment fails."""
    monkeypatch.setattr(bots_module, "assess", _assessing(value))
    await vs_bot(bot_service, "generatorb", level=5)
    await past_the_start(bot_service, clock)
    offer = await bot_service.offer_draw(GAMES, ALICE)
    result = await bot_service.bots.answer_draw(offer)
    assert result is not None, "never silence"
    answered, _ = result
    assert answered.draw_offer_seat is None
    if accepted:
        assert answered.outcome is not None
        assert answered.outcome.termination == "agreement"
        assert answered.outcome.winners == ()
    else:
        assert answered.is_active
        assert answered.outcome is None


@pytest.mark.parametrize(
    ("values", "answer"),
    [((0.2, 0.3), "waits for bob"), ((0.2, 0.8), "declined"), ((0.2, None), "declined")],
)
async def test_bots_answer_a_draw_with_more_players_each_for_its_own_seat(
    bot_service: GameService,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    values: tuple[float, float | None],
    answer: str,
) -> None:
    """In a four-player Orbs game of two people and two bots, every player still in must
    agree: the bots assess their own seats, one that would decline declines for all, and
    when both accept the offer waits for the person left."""
    by_seat: dict[int, float | None] = {}

    def assess(_game: str, _options: object, seat: int, *_: object) -> float:
        value = by_seat[seat]
        if value is None:
            raise RuntimeError("the assessment failed")
        return value

    monkeypatch.setattr(bots_module, "assess", assess)
    log_reads = count_log_reads(bot_service, monkeypatch)
    started = await people_and_bots(bot_service, "orbs", 4, [2, 4])
    bot_seats = [p.seat for p in started.players if is_bot(p.user_id)]
    by_seat.update(zip(bot_seats, values, strict=True))
    await past_the_start(bot_service, clock)  # a bot to move would end the offer
    offer = await bot_service.offer_draw(GAMES, ALICE)
    result = await bot_service.bots.answer_draw(offer)
    # Who is still in was read once, at the first bot turn, and carried from version to
    # version since: the offer, the assessments and every bot's answer read no log.
    assert log_reads == [offer.game_id]
    assert result is not None, "never silence"
    answered, by = result
    assert is_bot(by)
    if answer == "declined":
        assert answered.is_active
        assert answered.draw_offer_seat is None
        assert by == started.players[bot_seats[1]].user_id  # the one that would not agree
        return
    assert answered.is_active
    (bob_seat,) = [p.seat for p in started.players if p.user_id == BOB]
    assert answered.draw_waiting == (bob_seat,)
    ended = await bot_service.answer_draw(offer.game_id, BOB, accept=True, version=offer.version)
    assert ended.outcome is not None
    assert ended.outcome.termination == "agreement"


@pytest.mark.parametrize("game", ["generatorb", "arbos"])
async def test_the_bot_declines_a_draw_before_anyone_has_chosen_a_move(
    bot_service: GameService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    """Lost by its own assessment, a bot still declines a draw offered before any player has
    chosen a move (Arbos: after its random setup, chance rows only): the game has not begun
    (a level-1 bot accepted one at ply 0 in Generation Zero, exploratory pass 10). Once a
    move is played, it accepts."""
    monkeypatch.setattr(bots_module, "assess", _assessing(0.2))
    await vs_bot(bot_service, game, level=1)
    offer = await bot_service.offer_draw(GAMES, ALICE)  # whoever is to move: nobody moved
    result = await bot_service.bots.answer_draw(offer)
    assert result is not None
    declined, _ = result
    assert declined.is_active
    assert declined.draw_offer_seat is None
    await past_the_start(bot_service, clock)
    offer = await bot_service.offer_draw(GAMES, ALICE)
    result = await bot_service.bots.answer_draw(offer)
    assert result is not None
    assert result[0].outcome is not None


@pytest.mark.parametrize(("level", "allowed"), [(1, True), (4, False)])
async def test_the_bot_answers_a_takeback(
    bot_service: GameService, clock: FakeClock, level: int, allowed: bool
) -> None:
    snapshot = await vs_bot(bot_service, "generatorb", level=level)
    if is_bot(snapshot.players[snapshot.to_move[0]].user_id):
        await run_bot_turns(bot_service, clock)
    await bot_service.play(GAMES, ALICE, (await bot_service.legal_moves(GAMES, ALICE))[0])
    request = await bot_service.request_takeback(GAMES, ALICE)
    answer = await bot_service.bots.answer_takeback(request)
    assert answer is not None
    assert answer.accepted is allowed


@pytest.mark.parametrize(("levels", "allowed"), [([1, 2, 1], True), ([1, 4, 1], False)])
async def test_a_takeback_against_bots_only_takes_back_every_bot_reply(
    bot_service: GameService, clock: FakeClock, levels: list[int], allowed: bool
) -> None:
    """Orbs for four, ALICE against three bots: her move and the three replies go back
    together, allowed when every bot is a practice level; the strongest bot answers."""
    challenge = await bot_service.create_challenge(
        guild_id=GUILD, channel_id=GAMES, challenger_id=ALICE, game="orbs", players=4
    )
    started = (await bot_service.add_bots(challenge.challenge_id, ALICE, levels)).game
    assert started is not None
    (alice_seat,) = [p.seat for p in started.players if p.user_id == ALICE]
    before = await to_a_persons_turn(bot_service, clock)
    move = (await bot_service.legal_moves(GAMES, ALICE))[0]
    await bot_service.play(GAMES, ALICE, move)
    after = await to_a_persons_turn(bot_service, clock)
    request = await bot_service.request_takeback(GAMES, ALICE)
    assert set(request.opponent_user_ids) == {p.user_id for p in started.players} - {ALICE}
    answer = await bot_service.bots.answer_takeback(request)
    assert answer is not None
    assert answer.accepted is allowed
    assert bot_level(answer.by_user_id) == max(levels)
    if allowed:
        assert answer.move == move
        assert len(answer.replies) == after.ply - before.ply - 1 >= 3
        assert answer.snapshot.ply == before.ply
        assert answer.snapshot.to_move == (alice_seat,)
    else:
        assert answer.snapshot.ply == after.ply


async def test_a_takeback_with_another_person_and_bots_is_refused(
    bot_service: GameService, clock: FakeClock
) -> None:
    await people_and_bots(bot_service, "orbs", 4, [1, 1])
    snapshot = await to_a_persons_turn(bot_service, clock)
    (mover,) = snapshot.to_move_user_ids
    await bot_service.play(GAMES, mover, (await bot_service.legal_moves(GAMES, mover))[0])
    with pytest.raises(TakebackError, match="every other player would have to agree"):
        await bot_service.request_takeback(GAMES, mover)


async def test_a_draft_against_the_bot_sends_only_the_person_to_their_hand(
    bot_service: GameService, clock: FakeClock
) -> None:
    """Generation Zero with ``deal=draft`` against a level-1 bot: the last pick deals both
    seats their Canons; the post sends the person to ``/hand`` when the bot made it, and
    never names the bot (which reads no ``/hand``)."""
    challenge = await bot_service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        game="generation_zero",
        players=2,
        options_text="deal=draft",
    )
    started = (await bot_service.add_bots(challenge.challenge_id, ALICE, [1])).game
    assert started is not None
    robot = next(u for u in started.user_ids if is_bot(u))
    told: list[tuple[int, str, tuple[int, ...]]] = []
    real_play = bot_service.bots.play

    async def play(turn: Any, text: str) -> Any:
        result = await real_play(turn, text)
        told.append((result.user_id, result.move, result.told_privately))
        return result

    bot_service.bots.play = play  # type: ignore[method-assign]
    for _ in range(20):
        snapshot = await to_a_persons_turn(bot_service, clock)
        legal = await bot_service.legal_moves(GAMES, ALICE)
        if not legal[0].startswith("pick"):
            break  # the draft is over
        result = await bot_service.play(GAMES, ALICE, legal[0])
        told.append((ALICE, result.move, result.told_privately))
    picks = [(mover, ids) for mover, move, ids in told if move.startswith("pick")]
    last_picker, dealt_to = picks[-1]
    assert dealt_to == ((ALICE,) if last_picker == robot else ())
    assert all(ids == () for _, ids in picks[:-1])
    assert all(robot not in ids for _, _, ids in told)
    assert snapshot.is_active


async def exhibition(service: GameService, **options: str | None) -> tuple[Any, Any]:
    """ALICE opens an exhibition of two level-1 bots playing Generatorb in GAMES (with
    ``options_text`` or ``clock``); returns the challenge and the lobby update that started
    it."""
    info = await service.open_exhibition(
        guild_id=GUILD, channel_id=GAMES, user_id=ALICE, game="generatorb", players=2, **options
    )
    return info, await service.add_bots(info.challenge_id, ALICE, [1, 1])


async def test_an_exhibition_of_bots_plays_itself_to_the_end(
    bot_service: GameService, clock: FakeClock
) -> None:
    info, started = await exhibition(bot_service, options_text=SHORT["generatorb"])
    assert info.seated_ids == ()  # the one who opened it watches
    assert started.game is not None
    assert all(is_bot(user_id) for user_id in started.game.user_ids)
    for _ in range(200):
        if not await run_bot_turns(bot_service, clock):
            break
    final = await bot_service.game_snapshot(started.game.game_id)
    assert final.status == "finished"


async def test_the_one_who_opened_an_exhibition_may_abort_it_at_any_time(
    bot_service: GameService, clock: FakeClock
) -> None:
    _, started = await exhibition(bot_service)
    assert started.game is not None
    for _ in range(4):  # every bot has moved: a player could no longer abort now
        await run_bot_turns(bot_service, clock)
    assert (await bot_service.game_snapshot(started.game.game_id)).ply >= 2
    with pytest.raises(AbortNotAllowedError, match="the one who started an exhibition"):
        await bot_service.abort(GAMES, BOB)
    aborted = await bot_service.abort(GAMES, ALICE)
    assert aborted.status == "aborted"


async def test_a_game_left_to_bots_is_no_exhibition_to_abort(
    bot_service: GameService, clock: FakeClock
) -> None:
    """ALICE challenged two bots to Generator and resigned: the bots play on, but the game
    had a person in it, so she cannot stop it (a moderator can)."""
    challenge = await bot_service.create_challenge(
        guild_id=GUILD, channel_id=GAMES, challenger_id=ALICE, game="generator", players=3
    )
    started = (await bot_service.add_bots(challenge.challenge_id, ALICE, [1, 1])).game
    assert started is not None
    opened = await bot_service.database.challenges.challenge_of_game(started.game_id)
    assert opened is not None
    assert opened.challenger_id == ALICE
    await to_a_persons_turn(bot_service, clock)
    assert (await bot_service.resign(GAMES, ALICE)).status == "active"
    with pytest.raises(AbortNotAllowedError, match="You have left this game"):
        await bot_service.abort(GAMES, ALICE)
    assert await bot_service.database.challenges.challenge_of_game(started.game_id + 1) is None


@pytest.mark.parametrize("clock_text", [None, "hard:1h"])
async def test_an_exhibition_keeps_its_pace_unless_it_has_a_clock(
    database: Database, clock: FakeClock, clock_text: str | None
) -> None:
    """Each bot turn of a game of bots only is due the exhibition pace after the change
    that gave it the move, so spectators can follow; with a clock the bots keep their time
    and move at once, as they do against a person."""
    pace = timedelta(seconds=5)
    delay = pace if clock_text is None else timedelta(0)
    with ThreadPoolExecutor(1) as pool:
        service = GameService(
            database, clock=clock, rng_seed_source=seeds(7), ai_executor=pool, exhibition_pace=pace
        )
        await exhibition(service, clock=clock_text)
        for _ in range(3):  # the first turn, then two more after the bots' moves
            (timer,) = await service.database.timers.pending(kinds=[BOT_TURN_TIMER])
            assert timer.due_at == clock() + delay
            if delay:
                assert await due_bot_turns(service, clock) == []  # not yet
                clock.advance(delay)
            assert await run_bot_turns(service, clock) == 1
        # Against a person the bot moves at once, whatever the pace.
        challenge = await service.create_challenge(
            guild_id=GUILD, channel_id=GAMES + 1, challenger_id=ALICE, game="orbs", players=2
        )
        await service.add_bots(challenge.challenge_id, ALICE, [1])
        with_alice = await service.snapshot(GAMES + 1)
        if not is_bot(with_alice.players[with_alice.to_move[0]].user_id):  # alice first
            move = (await service.legal_moves(GAMES + 1, ALICE))[0]
            await service.play(GAMES + 1, ALICE, move)
        (turn,) = await service.database.timers.pending(
            game_id=with_alice.game_id, kinds=[BOT_TURN_TIMER]
        )
        assert turn.due_at == clock()


@pytest.mark.parametrize("game", ["orbs", "generator"])
@pytest.mark.parametrize("people", [1, 2])
async def test_a_game_left_to_bots_takes_the_exhibition_pace(
    database: Database, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, game: str, people: int
) -> None:
    """ALICE (and BOB) against two bots without a clock: the bots move at once while a
    person is in. Once ALICE resigns and the game goes on (GEN-15, Orbs likewise), a game
    left to the bots is paced like an exhibition, each turn due the pace after the change;
    with BOB still in, the bots still move at once. The move log is read once for who has
    left, not at every bot move."""
    pace = timedelta(seconds=5)
    with ThreadPoolExecutor(1) as pool:
        service = GameService(
            database, clock=clock, rng_seed_source=seeds(3), ai_executor=pool, exhibition_pace=pace
        )
        log_reads = count_log_reads(service, monkeypatch)
        if people == 1:
            challenge = await service.create_challenge(
                guild_id=GUILD, channel_id=GAMES, challenger_id=ALICE, game=game, players=3
            )
            assert (await service.add_bots(challenge.challenge_id, ALICE, [1, 1])).game
        else:
            await people_and_bots(service, game, 4, [1, 1])
        for _ in range(6):  # a few turns with the people in: the bots move at once
            snapshot = await to_a_persons_turn(service, clock)
            (person,) = [snapshot.players[s].user_id for s in snapshot.to_move]
            moved = await service.play(GAMES, person, (await service.legal_moves(GAMES, person))[0])
            after = moved.snapshot
            if any(is_bot(after.players[s].user_id) for s in after.to_move):
                (turn,) = await service.database.timers.pending(kinds=[BOT_TURN_TIMER])
                assert turn.due_at == clock(), "with a person in, a bot moves at once"
        assert len(log_reads) == 1, "who has left is read once, then carried by each commit"
        await to_a_persons_turn(service, clock)
        left = await service.resign(GAMES, ALICE)
        assert left.status == "active", "the game goes on without her"
        while not any(is_bot(left.players[s].user_id) for s in left.to_move):  # BOB's turn
            moved = await service.play(GAMES, BOB, (await service.legal_moves(GAMES, BOB))[0])
            left = moved.snapshot
        (turn,) = await service.database.timers.pending(kinds=[BOT_TURN_TIMER])
        if people == 2:
            assert turn.due_at == clock(), "BOB is still in: no pace"
            planned = await service.bots.turn_due(turn)
            assert planned is not None
            assert planned.people, "BOB may be waiting: the typing indicator shows"
            return
        assert turn.due_at == clock() + pace
        assert await due_bot_turns(service, clock) == []
        (waiting,) = await service.database.timers.pending(kinds=[BOT_TURN_TIMER])
        planned = await service.bots.turn_due(waiting)
        assert planned is not None
        assert not planned.people, "nobody waits: no typing indicator"
        clock.advance(pace)
        assert await run_bot_turns(service, clock) == 1
        (turn,) = await service.database.timers.pending(kinds=[BOT_TURN_TIMER])
        assert turn.due_at == clock() + pace, "and so on, for the rest of the game"


async def test_the_last_person_leaving_while_a_bot_searches_keeps_the_pace(
    database: Database, clock: FakeClock
) -> None:
    """ALICE resigns from a three-player Orbs game while a bot searches: the resignation
    plans the bot's turn at the exhibition pace and replaces the timer the search claimed,
    so the stale search's follow-up "again at once" is dropped and the pace holds."""
    pace = timedelta(seconds=5)
    with ThreadPoolExecutor(1) as pool:
        service = GameService(
            database, clock=clock, rng_seed_source=seeds(3), ai_executor=pool, exhibition_pace=pace
        )
        challenge = await service.create_challenge(
            guild_id=GUILD, channel_id=GAMES, challenger_id=ALICE, game="orbs", players=3
        )
        assert (await service.add_bots(challenge.challenge_id, ALICE, [1, 1])).game
        for _ in range(10):  # until a bot is to move, due at once (alice is in)
            timers = await due_bot_turns(service, clock)
            if timers:
                break
            await service.play(GAMES, ALICE, (await service.legal_moves(GAMES, ALICE))[0])
        (timer,) = timers
        turn = await service.bots.turn_due(timer)
        assert turn is not None
        text = await service.bots.think(turn)
        await service.resign(GAMES, ALICE)  # out of turn, while the bot searches
        with pytest.raises(StaleActionError):
            await service.bots.play(turn, text)
        assert await service.bots.still_to_move(turn)
        again = service.bots.again(turn)
        assert not await service.database.timers.mark_fired(timer, now=clock(), follow_up=again)
        (pending,) = await service.database.timers.pending(kinds=[BOT_TURN_TIMER])
        assert (pending.seat, pending.due_at) == (turn.seat, clock() + pace)


async def practice_game(
    service: GameService, clock: FakeClock, game: str = "generatorb", options: str | None = None
) -> GameSnapshot:
    """ALICE against a level-1 bot in a casual game (where /hint is given) in GAMES, once the
    bot has played up to her turn."""
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        game=game,
        options_text=options,
        rated=False,
    )
    await service.add_bots(challenge.challenge_id, ALICE, [1])
    return await to_a_persons_turn(service, clock)


async def test_a_hint_gives_legal_moves_in_a_practice_game_only(
    bot_service: GameService, clock: FakeClock
) -> None:
    """/hint: legal moves for the caller's seat in a casual game against the bot (that the
    first is the strongest level's choice: tests/ai/test_suggest.py); refused to a
    non-player and out of turn."""
    snapshot = await practice_game(bot_service, clock)
    (seat,) = [p.seat for p in snapshot.players if p.user_id == ALICE]
    with pytest.raises(NotAPlayerError):
        await bot_service.hint(GAMES, BOB)
    hint = await bot_service.hint(GAMES, ALICE)
    assert (hint.game_id, hint.seat, hint.level_name) == (snapshot.game_id, seat, "strongest")
    assert 1 <= len(hint.moves) <= bots_module.HINT_MOVES
    legal = set(await bot_service.legal_moves(GAMES, ALICE))
    assert {m.move for m in hint.moves} <= legal
    assert all(0.0 <= m.value <= 1.0 for m in hint.moves)
    played = await bot_service.play(GAMES, ALICE, hint.moves[0].move)
    if any(is_bot(played.snapshot.players[s].user_id) for s in played.snapshot.to_move):
        with pytest.raises(NotYourTurnError):
            await bot_service.hint(GAMES, ALICE)


async def test_a_hint_in_generation_zero_searches_the_callers_view_only(
    bot_service: GameService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    searched: list[Any] = []

    def fake_suggest(game: str, seat: int, subject: Any, *_: Any) -> tuple[Suggestion, ...]:
        searched.append((game, seat, subject))
        return (Suggestion("end", 0.5, 1.0),)

    monkeypatch.setattr(bots_module, "suggest", fake_suggest)
    snapshot = await practice_game(bot_service, clock, "generation_zero", SHORT["generation_zero"])
    hint = await bot_service.hint(GAMES, ALICE)
    ((game, seat, subject),) = searched
    assert (game, seat, hint.seat) == ("generation_zero", snapshot.to_move[0], seat)
    assert not isinstance(subject, str | bytes)  # never the state's text
    assert subject.viewer == seat  # the caller's own view


async def test_a_second_hint_while_one_is_searched_is_refused_not_queued(
    bot_service: GameService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hints share the search workers with the bots' turns: one at a time per user, and at
    most one per worker, so a burst of /hint cannot hold up the bots' moves."""
    started, release = threading.Event(), threading.Event()

    def slow_suggest(*_: Any) -> tuple[Suggestion, ...]:
        started.set()
        release.wait(10)
        return (Suggestion("a1-a3", 0.5, 1.0),)

    monkeypatch.setattr(bots_module, "suggest", slow_suggest)
    await practice_game(bot_service, clock)
    first = asyncio.create_task(bot_service.hint(GAMES, ALICE))
    await asyncio.get_running_loop().run_in_executor(None, started.wait, 10)
    with pytest.raises(HintError, match="busy"):
        await bot_service.hint(GAMES, ALICE)
    # One worker: while alice's hint is searched, bob's (in a game of his own) is refused
    # too.
    bobs = await bot_service.create_challenge(
        guild_id=GUILD, channel_id=GAMES + 1, challenger_id=BOB, game="orbs", rated=False
    )
    await bot_service.add_bots(bobs.challenge_id, BOB, [1])
    with pytest.raises(HintError, match="busy"):
        await bot_service.hint(GAMES + 1, BOB)
    release.set()
    assert (await first).moves[0].move == "a1-a3"
    assert (await bot_service.hint(GAMES + 1, BOB)).moves  # free again


async def test_a_hint_asked_again_is_the_same_and_searches_nothing(
    bot_service: GameService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/hint again before the game changes gives the same hint at once, without a search
    (so repeated asking neither changes the advice nor takes a worker); after a move the
    next hint is searched afresh."""
    searched: list[int] = []

    def counted(*args: Any) -> tuple[Suggestion, ...]:
        searched.append(args[3])  # the search seed: one per search
        return (Suggestion(moves_now[0], 0.5, 1.0),)

    monkeypatch.setattr(bots_module, "suggest", counted)
    await practice_game(bot_service, clock)
    moves_now = await bot_service.legal_moves(GAMES, ALICE)
    # The worker's clock, two readings per search; ai.workers' own name for the time module
    # only, so asyncio keeps the real clock.
    readings = iter([100.0, 102.44, 200.0, 200.01])
    monkeypatch.setattr(workers_module, "time", SimpleNamespace(monotonic=lambda: next(readings)))
    first = await bot_service.hint(GAMES, ALICE)
    assert first.seconds == 2.4  # how long the search took, not the level's 1.9 s budget
    assert await bot_service.hint(GAMES, ALICE) == first
    assert len(searched) == 1
    await bot_service.play(GAMES, ALICE, first.moves[0].move)
    await to_a_persons_turn(bot_service, clock)
    moves_now = await bot_service.legal_moves(GAMES, ALICE)
    assert (await bot_service.hint(GAMES, ALICE)).seconds == 0.1  # never reads "0 s"
    assert len(searched) == 2


async def test_a_hint_whose_search_never_answers_is_refused_as_busy(
    bot_service: GameService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()

    def stuck(*_: Any) -> tuple[Suggestion, ...]:
        release.wait(10)
        return (Suggestion("a1-a3", 0.5, 1.0),)

    monkeypatch.setattr(bots_module, "suggest", stuck)
    await practice_game(bot_service, clock)
    monkeypatch.setattr(bots_module, "THINK_GRACE_S", -1.8)  # 0.1 s in all
    try:
        with pytest.raises(HintError, match="busy"):
            await bot_service.hint(GAMES, ALICE)
    finally:
        release.set()


async def test_no_hint_in_a_rated_game_or_against_a_person(bot_service: GameService) -> None:
    await vs_bot(bot_service, "generatorb")  # rated, the default
    with pytest.raises(HintError, match="rated:false"):
        await bot_service.hint(GAMES, ALICE)
    challenge = await bot_service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES + 1,
        challenger_id=ALICE,
        game="generatorb",
        opponent_ids=[BOB],
        rated=False,
    )
    await bot_service.accept_challenge(challenge.challenge_id, BOB)
    with pytest.raises(HintError, match="every other player"):
        await bot_service.hint(GAMES + 1, ALICE)


async def test_bots_weigh_an_orbs_team_draw_as_the_engine_ends_it(
    bot_service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Orbs' draw ranks whole sides (D-ORB-11): after BOB resigns, his side still has orbs,
    so the draw is worth ½ to every seat, not the ⅔ of a ranking with BOB last. Bots that
    assess themselves at 0.6 stand better than the draw and decline it."""
    monkeypatch.setattr(bots_module, "assess", _assessing(0.6))
    await people_and_bots(bot_service, "orbs", 4, [2, 4], options_text="teams=02-13")
    after = await bot_service.resign(GAMES, BOB)
    assert after.is_active
    offer = await bot_service.offer_draw(GAMES, ALICE)
    assert all(is_bot(u) for u in offer.opponent_user_ids)
    result = await bot_service.bots.answer_draw(offer)
    assert result is not None
    answered, _ = result
    assert answered.is_active
    assert answered.draw_offer_seat is None  # declined


async def test_a_draw_is_not_offered_to_people_while_a_bot_is_to_move(
    bot_service: GameService,
) -> None:
    """With three or more players still in, a bot to move would play on at once and end
    the offer before the people had answered; a person's turn is the time to offer."""
    started = await people_and_bots(bot_service, "generator", 3, [1])
    (bot_seat,) = [p.seat for p in started.players if is_bot(p.user_id)]
    snapshot, rng = started, random.Random(5)
    while bot_seat not in snapshot.to_move:  # people play until the bot is to move
        offer = await bot_service.offer_draw(GAMES, ALICE)  # a person's turn: allowed
        assert set(offer.opponent_user_ids) == {BOB, started.players[bot_seat].user_id}
        await bot_service.answer_draw(offer.game_id, ALICE, accept=False, version=offer.version)
        mover = snapshot.players[snapshot.to_move[0]].user_id
        moves = await bot_service.legal_moves(GAMES, mover)
        snapshot = (await bot_service.play(GAMES, mover, rng.choice(moves))).snapshot
    with pytest.raises(DrawOfferError, match="bot is to move"):
        await bot_service.offer_draw(GAMES, ALICE)


def test_a_move_the_bot_played_for_a_seat_or_a_resignation_begins_no_game() -> None:
    """What counts as begun for a draw (:func:`bot.service.bots._chosen`): a move a player
    chose; not a chance outcome, a forced pass or a time-out's move played for the seat, nor
    a resignation (review 3: Orbs for three, a resignation before any move let the bot
    accept a draw of a game nobody had played)."""
    at = datetime(2026, 11, 28, tzinfo=UTC)
    forced = Event(AUTOMATIC_EVENT, 1, "Green has no legal move and passes")
    late = Event(TIMEOUT_EVENT, 1, "North is out of time")
    assert bots_module._chosen(MoveRecord(1, 0, "a1-a3", (), at))
    assert not bots_module._chosen(MoveRecord(1, None, "roll:G", (), at))
    assert not bots_module._chosen(MoveRecord(1, 1, "pass", (forced,), at))
    assert not bots_module._chosen(MoveRecord(1, 1, "pass", (late,), at))
    assert not bots_module._chosen(MoveRecord(1, 2, resign_move_text(2), (), at))
