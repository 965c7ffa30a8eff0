"""Games that end without a rule: resignation, draws by agreement, aborts."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from bot.service import (
    AbortNotAllowedError,
    DrawOfferError,
    GameService,
    GameSnapshot,
    NoGameHereError,
    NotAPlayerError,
    StaleActionError,
)
from db.engine import create_engine
from db.schema import games
from engines.base import Outcome

from .conftest import ALICE, BOB, CAROL, GAMES, GUILD, StartGame, to_move_user, waiting_user


async def test_resignation_gives_the_opponent_the_win(
    service: GameService, start_game: StartGame
) -> None:
    snapshot = await start_game()
    with pytest.raises(NotAPlayerError):
        await service.resign(GAMES, CAROL)
    resigner = waiting_user(snapshot)  # resigning is allowed out of turn
    ended = await service.resign(GAMES, resigner)
    (resigner_seat,) = [p.seat for p in ended.players if p.user_id == resigner]
    winner = 1 - resigner_seat
    assert ended.outcome == Outcome.win("resignation", winner, 2)
    assert ended.status == "finished"
    assert ended.to_move == ()
    assert not ended.is_active
    shown = await service.snapshot(GAMES)  # /board still shows the game that just ended
    assert shown.game_id == ended.game_id
    assert shown.outcome == ended.outcome
    assert [m.text for m in await service.move_list(GAMES)] == []
    finished = await service.game_snapshot(ended.game_id)
    assert finished.outcome == ended.outcome
    # The picture's view knows the result, though the engine (Generatorb leaves resigning
    # to the bot) never heard of it: no "South to move" above "wins by resignation".
    for shown_view in (ended.view, shown.view, finished.view):
        assert (shown_view.outcome, shown_view.to_move) == (ended.outcome, None)
    last = await service.board_at(GAMES, guild_id=GUILD)
    assert last.snapshot.view.outcome == ended.outcome


async def test_a_draw_offer_accepted_ends_the_game_by_agreement(
    service: GameService, start_game: StartGame
) -> None:
    snapshot = await start_game()
    offerer, opponent = to_move_user(snapshot), waiting_user(snapshot)
    offer = await service.offer_draw(GAMES, offerer)
    assert offer.user_id == offerer
    assert offer.opponent_user_ids == (opponent,)
    assert offer.version == snapshot.version + 1
    assert (await service.snapshot(GAMES)).draw_offer_seat == offer.seat
    with pytest.raises(DrawOfferError, match="already offered"):
        await service.offer_draw(GAMES, offerer)
    with pytest.raises(DrawOfferError, match="has already been offered"):
        await service.offer_draw(GAMES, opponent)
    with pytest.raises(DrawOfferError, match="your own"):
        await service.answer_draw(offer.game_id, offerer, accept=True, version=offer.version)
    with pytest.raises(NotAPlayerError):
        await service.answer_draw(offer.game_id, CAROL, accept=True, version=offer.version)
    ended = await service.answer_draw(offer.game_id, opponent, accept=True, version=offer.version)
    assert ended.outcome == Outcome.draw("agreement", 2)
    assert ended.status == "finished"
    assert (ended.view.outcome, ended.view.to_move) == (ended.outcome, None)
    # The second press of the same button finds the offer gone.
    with pytest.raises(StaleActionError):
        await service.answer_draw(offer.game_id, opponent, accept=True, version=offer.version)


async def test_a_draw_offer_can_be_declined_or_withdrawn(
    service: GameService, start_game: StartGame
) -> None:
    snapshot = await start_game()
    offerer, opponent = to_move_user(snapshot), waiting_user(snapshot)
    offer = await service.offer_draw(GAMES, offerer)
    declined = await service.answer_draw(
        offer.game_id, opponent, accept=False, version=offer.version
    )
    assert declined.is_active
    assert declined.draw_offer_seat is None
    again = await service.offer_draw(GAMES, offerer)
    withdrawn = await service.answer_draw(
        again.game_id, offerer, accept=False, version=again.version
    )
    assert withdrawn.draw_offer_seat is None
    assert withdrawn.is_active


async def test_a_move_declines_a_pending_draw_offer(
    service: GameService, start_game: StartGame
) -> None:
    snapshot = await start_game()
    mover, opponent = to_move_user(snapshot), waiting_user(snapshot)
    offer = await service.offer_draw(GAMES, opponent)
    result = await service.play(GAMES, mover, "a1-a3")
    assert result.declined_draw_offer
    assert result.snapshot.draw_offer_seat is None
    with pytest.raises(StaleActionError, match="no longer open"):
        await service.answer_draw(offer.game_id, mover, accept=True, version=offer.version)
    after = await service.play(GAMES, opponent, "h8-h6")
    assert not after.declined_draw_offer


async def test_players_may_abort_only_until_each_has_moved(
    service: GameService, start_game: StartGame
) -> None:
    snapshot = await start_game()
    first, second = to_move_user(snapshot), waiting_user(snapshot)
    with pytest.raises(AbortNotAllowedError):
        await service.abort(GAMES, CAROL)
    await service.play(GAMES, first, "a1-a3")
    # One player has moved, the other not yet: still abortable, but let the game go on.
    await service.play(GAMES, second, "h8-h6")
    with pytest.raises(AbortNotAllowedError, match="Every player has moved"):
        await service.abort(GAMES, first)
    aborted = await service.abort(GAMES, CAROL, moderator=True)
    assert aborted.status == "aborted"
    assert aborted.outcome is None
    with pytest.raises(NoGameHereError):
        await service.play(GAMES, first, "a2-a4")


async def test_a_player_aborts_before_both_have_moved(
    service: GameService, start_game: StartGame
) -> None:
    snapshot = await start_game()
    first, second = to_move_user(snapshot), waiting_user(snapshot)
    await service.play(GAMES, first, "a1-a3")
    aborted = await service.abort(GAMES, second)
    assert aborted.status == "aborted"
    # The channel is free again.
    fresh = await start_game()
    assert fresh.game_id != aborted.game_id
    assert fresh.is_active


async def _three_player(service: GameService, game: str) -> GameSnapshot:
    """ALICE, BOB and CAROL at a three-player ``game`` (seats as the lobby deals them)."""
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        game=game,
        opponent_ids=[BOB, CAROL],
        players=3,
    )
    await service.accept_challenge(challenge.challenge_id, BOB)
    started = (await service.accept_challenge(challenge.challenge_id, CAROL)).game
    assert started is not None
    return started


def _seat(snapshot: GameSnapshot, user_id: int) -> int:
    (seat,) = [p.seat for p in snapshot.players if p.user_id == user_id]
    return seat


@pytest.mark.parametrize("game", ["orbs", "generator"])
async def test_a_draw_with_three_players_needs_everyone_still_in(
    service: GameService, game: str
) -> None:
    """Spec orbs D-ORB-11: an agreed draw needs every player still in; the offer's buttons
    keep working while some are still to answer, and Orbs ends it through the engine."""
    started = await _three_player(service, game)
    offer = await service.offer_draw(GAMES, ALICE)
    assert set(offer.opponent_user_ids) == {BOB, CAROL}
    partial = await service.answer_draw(offer.game_id, BOB, accept=True, version=offer.version)
    assert partial.is_active
    assert partial.version == offer.version  # the same offer: its buttons still work
    assert partial.draw_agreed == tuple(sorted((_seat(started, ALICE), _seat(started, BOB))))
    assert partial.draw_waiting == (_seat(started, CAROL),)
    again = await service.answer_draw(offer.game_id, BOB, accept=True, version=offer.version)
    assert again.draw_waiting == (_seat(started, CAROL),)  # a double click changes nothing
    ended = await service.answer_draw(offer.game_id, CAROL, accept=True, version=offer.version)
    assert ended.outcome is not None
    assert ended.outcome.termination == "agreement"
    assert ended.outcome.winners == ()
    assert ended.outcome.ranking == ((0, 1, 2),)
    if game == "orbs":
        assert ended.position.endswith(" agreement 0")  # the engine's `draw` (D-ORB-11)


async def test_the_offer_as_its_post_should_show_it_now(service: GameService) -> None:
    """``draw_offer_now`` (what a post that showed an acceptance checks afterwards): who is
    still to answer while the offer is open, nobody once it closed, whoever closed it."""
    started = await _three_player(service, "generator")
    offer = await service.offer_draw(GAMES, ALICE)
    opened = await service.draw_offer_now(offer.game_id, offer.version)
    assert opened.draw_waiting == tuple(sorted((_seat(started, BOB), _seat(started, CAROL))))
    await service.answer_draw(offer.game_id, BOB, accept=True, version=offer.version)
    partial = await service.draw_offer_now(offer.game_id, offer.version)
    assert partial.draw_waiting == (_seat(started, CAROL),)
    assert partial.draw_agreed == tuple(sorted((_seat(started, ALICE), _seat(started, BOB))))
    assert (await service.draw_offer_now(offer.game_id, offer.version - 1)).draw_waiting == ()
    ended = await service.answer_draw(offer.game_id, CAROL, accept=True, version=offer.version)
    after = await service.draw_offer_now(offer.game_id, offer.version)
    assert (after.is_active, after.draw_waiting, after.outcome) == (False, (), ended.outcome)
    with pytest.raises(StaleActionError):
        await service.draw_offer_now(offer.game_id + 100, offer.version)


async def test_one_decline_ends_a_three_player_offer_and_a_move_does_too(
    service: GameService,
) -> None:
    await _three_player(service, "generator")
    offer = await service.offer_draw(GAMES, BOB)
    await service.answer_draw(offer.game_id, ALICE, accept=True, version=offer.version)
    declined = await service.answer_draw(offer.game_id, CAROL, accept=False, version=offer.version)
    assert declined.is_active
    assert (declined.draw_offer_seat, declined.draw_agreed) == (None, ())
    with pytest.raises(StaleActionError):
        await service.answer_draw(offer.game_id, ALICE, accept=True, version=offer.version)
    second = await service.offer_draw(GAMES, CAROL)
    stored = await service.snapshot(GAMES)
    assert stored.draw_agreed == (second.seat,)  # the first offer's acceptances are gone


async def test_those_who_resigned_are_neither_asked_nor_ranked_with_the_draw(
    service: GameService,
) -> None:
    started = await _three_player(service, "generator")
    after = await service.resign(GAMES, CAROL)
    assert after.is_active  # Generator GEN-15: play goes on without the resigner
    with pytest.raises(DrawOfferError, match="left this game"):
        await service.offer_draw(GAMES, CAROL)
    # A move from the resigner is not "not your turn", as if theirs would come.
    with pytest.raises(NotAPlayerError, match="You have left this game"):
        await service.play(GAMES, CAROL, "pass")
    offer = await service.offer_draw(GAMES, ALICE)
    assert offer.opponent_user_ids == (BOB,)
    with pytest.raises(DrawOfferError, match="left this game"):
        await service.answer_draw(offer.game_id, CAROL, accept=True, version=offer.version)
    ended = await service.answer_draw(offer.game_id, BOB, accept=True, version=offer.version)
    assert ended.outcome is not None
    in_play = tuple(sorted((_seat(started, ALICE), _seat(started, BOB))))
    assert ended.outcome.ranking == (in_play, (_seat(started, CAROL),))
    assert ended.outcome.winners == ()


async def test_an_offer_stored_without_its_agreeing_seats_still_ends_in_a_draw(
    service: GameService, start_game: StartGame
) -> None:
    """A process on the code before migration 0011 stores the offer's seat alone
    (``draw_agreed`` NULL); the offerer still counts as agreeing."""
    snapshot = await start_game()
    offerer, opponent = to_move_user(snapshot), waiting_user(snapshot)
    offer = await service.offer_draw(GAMES, offerer)
    engine = create_engine(service.database.url)
    try:
        async with engine.begin() as conn:
            await conn.execute(update(games).values(draw_agreed=None))
    finally:
        await engine.dispose()
    ended = await service.answer_draw(offer.game_id, opponent, accept=True, version=offer.version)
    assert ended.outcome == Outcome.draw("agreement", 2)
