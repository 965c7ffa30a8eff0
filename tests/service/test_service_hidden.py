"""Hidden information through the service: private views, private events, many decisions per
turn, and random games checked for leaks by the generic harness (``hidden_engine.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

import engines
import render
from bot import presenters
from bot.service import GameService, GameSnapshot, NotAPlayerError, ServiceError
from bot.service.models import PRIVATE_EVENTS
from db import Database
from engines.base import Event, Transition

from .conftest import ALICE, BOB, CAROL, DAN, ERIN, GAMES, GUILD, FakeClock, StartGame, seeds
from .hidden_engine import (
    LeakError,
    SecretCards,
    SecretCardsState,
    image_facts,
    play_checking_secrets,
    render_secret_cards,
)


def register(monkeypatch: pytest.MonkeyPatch, engine: SecretCards) -> None:
    monkeypatch.setitem(engines.ENGINES, engine.info.id, engine)
    monkeypatch.setitem(render.RENDERERS, engine.info.id, render_secret_cards)


@pytest.fixture
def secret_cards(monkeypatch: pytest.MonkeyPatch) -> SecretCards:
    """Register :class:`SecretCards` and its test renderer for one test."""
    engine = SecretCards()
    register(monkeypatch, engine)
    return engine


async def state_of(service: GameService, snapshot: GameSnapshot) -> SecretCardsState:
    row = await service.database.games.get(snapshot.game_id)
    assert row is not None
    state = SecretCards().loads(row.state_json)
    assert isinstance(state, SecretCardsState)
    return state


def seat_of(snapshot: GameSnapshot, user_id: int) -> int:
    (seat,) = [p.seat for p in snapshot.players if p.user_id == user_id]
    return seat


def user_of(snapshot: GameSnapshot, seat: int) -> int:
    return snapshot.players[seat].user_id


def mover(snapshot: GameSnapshot) -> int:
    (user,) = snapshot.to_move_user_ids
    return user


# ---- the leak harness over random games -----------------------------------------------------


@pytest.mark.usefixtures("secret_cards")
@pytest.mark.parametrize(
    ("players", "seed", "resign_after"),
    [(2, 1, None), (2, 2, 5), (3, 3, None), (3, 4, 9), (4, 5, None), (4, 6, 3)],
)
async def test_random_games_show_nothing_private_in_public(
    service: GameService, players: int, seed: int, resign_after: int | None
) -> None:
    users = [ALICE, BOB, DAN, ERIN][:players]
    report = await play_checking_secrets(
        service,
        "secretcards",
        users=users,
        spectator=CAROL,
        channel_id=GAMES,
        guild_id=GUILD,
        options="rounds=3",
        seed=seed,
        resign_after=resign_after,
        image_facts=image_facts,
    )
    assert report.outcome is not None  # played to the end
    assert report.resigned is (resign_after is not None)
    assert report.decisions >= min(resign_after or 99, 2 * players)
    assert report.private_views >= players * report.decisions
    assert report.autocompletes > 0
    assert report.public_images > 0
    if resign_after is None:
        assert report.continued_turns > 0
        assert report.private_events > 0


class LeakyPrompt(SecretCards):
    """Its prompt names the mover's first card: a public turn post would show it."""

    def prompt(self, state: SecretCardsState, seat: int) -> str | None:
        return f"You hold {state.hands[seat][0]}." if self.to_move(state) == (seat,) else None


class LeakyEvent(SecretCards):
    """A peek also announces the card publicly."""

    def apply(self, state: SecretCardsState, seat: int, move: str) -> Transition[SecretCardsState]:
        transition = super().apply(state, seat, move)
        private = [e for e in transition.events if e.visible_to is not None]
        public = [Event(e.kind, e.seat, e.text) for e in private]
        return Transition(transition.state, (*transition.events, *public))


class LeakySuggestions(SecretCards):
    """Autocomplete offers the mover another seat's card name."""

    def suggest_moves(
        self, state: SecretCardsState, seat: int, typed: str, limit: int
    ) -> list[str] | None:
        other = (seat + 1) % len(state.hands)
        unknown = [i for i in range(3) if (other, i) not in state.known[seat] | state.public]
        return [f"peek {state.hands[other][unknown[0]]}"] if unknown else None


@pytest.mark.parametrize("leaky", [LeakyPrompt, LeakyEvent, LeakySuggestions])
async def test_the_harness_catches_a_leaking_engine(
    service: GameService, monkeypatch: pytest.MonkeyPatch, leaky: type[SecretCards]
) -> None:
    register(monkeypatch, leaky())
    with pytest.raises(LeakError):
        await play_checking_secrets(
            service,
            "secretcards",
            users=[ALICE, BOB],
            spectator=CAROL,
            channel_id=GAMES,
            seed=7,
            image_facts=image_facts,
        )


# ---- private views ----------------------------------------------------------------------------


@pytest.mark.usefixtures("secret_cards")
async def test_my_view_is_the_players_own_view_and_a_spectator_is_turned_away(
    service: GameService, start_game: StartGame
) -> None:
    snapshot = await start_game(game="secretcards")
    state = await state_of(service, snapshot)
    for player in snapshot.players:
        private = await service.private_view(GAMES, player.user_id)
        assert private.seat == player.seat
        assert private.view == SecretCards().view(state, player.seat)
        assert set(private.view.hands[player.seat]) == set(state.hands[player.seat])
        assert private.to_move is (player.seat in snapshot.to_move)
        assert (private.prompt is not None) is private.to_move
        assert private.players == snapshot.players
    with pytest.raises(NotAPlayerError, match="Only the players"):
        await service.private_view(GAMES, CAROL)
    png = await service.render_private(await service.private_view(GAMES, ALICE))
    assert image_facts(png) >= set(state.hands[seat_of(snapshot, ALICE)])


async def test_a_game_without_hidden_information_has_no_private_view(
    service: GameService, start_game: StartGame
) -> None:
    snapshot = await start_game(game="generatorb")
    assert snapshot.hidden_information is False
    assert snapshot.position  # nothing to hide
    with pytest.raises(ServiceError, match="Generatorb has no hidden cards"):
        await service.private_view(GAMES, ALICE)
    with pytest.raises(ServiceError, match="no hidden cards"):
        await service.game_private_view(snapshot.game_id, ALICE)


@pytest.mark.usefixtures("secret_cards")
async def test_the_position_stays_secret_until_the_game_ends(
    service: GameService, start_game: StartGame
) -> None:
    snapshot = await start_game(game="secretcards", options="rounds=1")
    assert snapshot.hidden_information
    assert snapshot.position == ""
    assert "secret until the game ends" in presenters.game_info_text(snapshot)
    while snapshot.is_active:
        snapshot = (await service.play(GAMES, mover(snapshot), "done")).snapshot
    assert snapshot.position.startswith('{"draws":')
    assert snapshot.position in presenters.game_info_text(snapshot)


@pytest.mark.usefixtures("secret_cards")
async def test_a_peek_is_told_to_the_mover_alone_and_the_turn_goes_on(
    service: GameService, start_game: StartGame
) -> None:
    snapshot = await start_game(game="secretcards")
    state = await state_of(service, snapshot)
    user = mover(snapshot)
    seat, other = seat_of(snapshot, user), 1 - seat_of(snapshot, user)
    card = next(i for i in range(3) if (other, i) not in state.known[seat])
    result = await service.play(GAMES, user, f"peek {other + 1}.{card + 1}")
    name = state.hands[other][card]
    assert result.turn_goes_on
    assert result.snapshot.to_move == (seat,)
    assert [e.kind for e in result.private_events] == ["seen"]
    assert name in result.private_events[0].text
    assert all(e.visible_to is None for e in result.events)
    ack = presenters.move_ack_text(result, posted=True)
    assert name in ack
    assert "Still your turn: Second decision" in ack
    public = presenters.decision_text(result)
    assert name not in public
    assert public.endswith("decides again.")
    assert f"<@{user}>" in public
    # The second decision ends the turn: the board goes to the other player.
    result = await service.play(GAMES, user, "done")
    assert not result.turn_goes_on
    assert result.snapshot.to_move == (other,)
    assert result.private_events == ()
    mine = await service.private_view(GAMES, user)
    assert name in mine.view.hands[other]
    assert [(e.ply, e.event.kind) for e in mine.events][-1] == (snapshot.ply + 1, "seen")
    theirs = await service.private_view(GAMES, user_of(snapshot, other))
    assert all(name not in e.event.text for e in theirs.events)


@pytest.mark.usefixtures("secret_cards")
async def test_a_card_told_to_another_seat_reaches_it_through_my_view_only(
    service: GameService, start_game: StartGame
) -> None:
    snapshot = await start_game(game="secretcards")
    state = await state_of(service, snapshot)
    user = mover(snapshot)
    seat = seat_of(snapshot, user)
    other = 1 - seat
    slot = next(i for i in range(3) if (seat, i) not in state.known[other])
    result = await service.play(GAMES, user, f"tell {other + 1} {slot + 1}")
    name = state.hands[seat][slot]
    assert result.private_events == ()  # Bob's event is not Alice's to carry
    assert name not in presenters.move_ack_text(result, posted=True)
    assert name not in presenters.decision_text(result)
    # The post sends the other player to /hand (and pings them), saying who, never what.
    assert result.told_privately == (user_of(snapshot, other),)
    assert presenters.decision_text(result).endswith(
        f"\n<@{user_of(snapshot, other)}>: this move showed you something only you may see; "
        "`/hand` has it."
    )
    told = await service.private_view(GAMES, user_of(snapshot, other))
    assert told.events[-1].event.kind == "shown"
    assert name in told.events[-1].event.text
    assert told.events[-1].ply == snapshot.ply + 1
    assert name in presenters.private_view_text(told)
    moves = await service.move_list(GAMES)
    assert name not in presenters.move_list_text(snapshot, moves)


@pytest.mark.usefixtures("secret_cards")
async def test_my_view_lists_the_latest_private_events_oldest_first(
    service: GameService, start_game: StartGame
) -> None:
    snapshot = await start_game(game="secretcards", options="rounds=9")
    alice = seat_of(snapshot, ALICE)
    told: list[int] = []  # the plies at which Bob showed Alice a card
    while len(told) < PRIVATE_EVENTS + 2:
        user = mover(snapshot)
        move = "done" if user == ALICE else f"tell {alice + 1} {len(told) % 3 + 1}"
        result = await service.play(GAMES, user, move)
        if user == BOB:
            told.append(snapshot.ply + 1)
        snapshot = result.snapshot
    private = await service.private_view(GAMES, ALICE)
    plies = [e.ply for e in private.events]
    assert len(plies) == PRIVATE_EVENTS
    assert plies == sorted(plies)
    assert plies[-4:] == told[-4:]  # the newest last, the oldest dropped
    assert told[0] not in plies
    text = presenters.private_view_text(private)
    assert text.count("\n• ply ") == PRIVATE_EVENTS
    bob = snapshot.players[seat_of(snapshot, BOB)].seat_name
    assert f"• ply {told[-1]}: {bob} showed you card" in text


@pytest.mark.usefixtures("secret_cards")
async def test_my_view_survives_a_restart(
    database: Database, clock: FakeClock, start_game: StartGame
) -> None:
    first = GameService(database, clock=clock, rng_seed_source=seeds())
    snapshot = await start_game(game="secretcards", on=first)
    user = mover(snapshot)
    peek = next(m for m in await first.legal_moves(GAMES, user) if m.startswith("peek"))
    await first.play(GAMES, user, peek)
    before = await first.game_private_view(snapshot.game_id, ALICE)
    again = GameService(database, clock=clock)
    after = await again.game_private_view(snapshot.game_id, ALICE)
    assert after == before


async def test_a_game_with_one_decision_per_turn_never_goes_on(
    service: GameService, start_game: StartGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    class OneDecision(SecretCards):
        many_decisions_per_turn = False

    register(monkeypatch, OneDecision())
    snapshot = await start_game(game="secretcards")
    user = mover(snapshot)
    result = await service.play(GAMES, user, "show 1")
    assert result.snapshot.to_move == snapshot.to_move  # the engine's turn goes on …
    assert result.turn_goes_on is False  # … but the bot posts a board as for any move


@pytest.mark.usefixtures("secret_cards")
async def test_only_the_mover_is_offered_moves_and_errors_stay_with_the_caller(
    service: GameService, start_game: StartGame
) -> None:
    snapshot = await start_game(game="secretcards")
    user = mover(snapshot)
    waiting = next(u for u in snapshot.user_ids if u != user)
    assert await service.autocomplete_moves(GAMES, waiting, "") == []
    assert await service.autocomplete_moves(GAMES, CAROL, "peek") == []
    offered = await service.autocomplete_moves(GAMES, user, "pe")
    assert offered
    assert all(m.startswith("peek ") for m in offered)
    with pytest.raises(ServiceError) as refused:
        await service.play(GAMES, user, "peek 9.9")
    assert "not allowed" in presenters.error_text(refused.value)


def test_the_test_renderer_writes_what_the_view_shows() -> None:
    engine = SecretCards()
    state = engine.new_game(2, engine.resolve_options({}), 3)
    shown = replace(state, public=frozenset({(1, 2)}))
    facts: Any = image_facts(render_secret_cards(engine.view(shown, None)))
    assert facts == {state.hands[1][2]}
    own: Sequence[str] = state.hands[0]
    assert image_facts(render_secret_cards(engine.view(shown, 0))) == {*own, state.hands[1][2]}
    assert render_secret_cards(engine.view(shown, 0)) == render_secret_cards(engine.view(shown, 0))
