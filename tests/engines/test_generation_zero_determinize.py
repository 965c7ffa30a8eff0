"""Generation Zero's determinization hook (``Engine.determinize``) for the AI.

A determinization is a full state built from one seat's view (R14) with the cards that seat
cannot know dealt at random: it must be playable, show that seat exactly the view it came from,
and depend on nothing but the view and the seed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from engines import ENGINES, get_engine
from engines.generation_zero import GenerationZeroEngine, GenerationZeroState
from engines.rng import Rng

ENGINE = GenerationZeroEngine()


def playout_states(
    players: int, preset: str, seed: int, every: int = 1
) -> Iterator[GenerationZeroState]:
    """Every ``every``-th state of a seeded uniformly random game, the final one included."""
    state = ENGINE.new_game(players, ENGINE.resolve_options({}, preset=preset), seed)
    rng = Rng(seed + 77)
    ply = 0
    while True:
        if ply % every == 0 or not ENGINE.to_move(state):
            yield state
        seats = ENGINE.to_move(state)
        if not seats:
            return
        moves = ENGINE.legal_moves(state, seats[0])
        state = ENGINE.apply(state, seats[0], moves[rng.below(len(moves))]).state
        ply += 1


def with_position(state: GenerationZeroState, doc: dict[str, object]) -> GenerationZeroState:
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    return GenerationZeroState(state.rules, text, state.last, state.log)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", ["standard", "draft"])
def test_determinization_shows_the_same_view_and_plays(players: int, preset: str) -> None:
    checked = 0
    for game in range(3):
        for state in playout_states(players, preset, game, every=3):
            decider = ENGINE.to_move(state)
            for seat in range(players):
                view = ENGINE.view(state, seat)
                det = ENGINE.determinize(view, seat, seed=checked)
                assert ENGINE.view(det, seat) == view
                assert ENGINE.determinize(view, seat, seed=checked) == det
                assert ENGINE.to_move(det) == decider
                assert (ENGINE.outcome(det) is None) == (ENGINE.outcome(state) is None)
                # The position is a valid one: reading it back gives it again.
                options = dict(state.rules.options)
                assert ENGINE.position(ENGINE.from_position(ENGINE.position(det), options)) == (
                    ENGINE.position(det)
                )
                if decider:
                    moves = ENGINE.legal_moves(det, decider[0])
                    assert moves
                    if decider[0] == seat:
                        # The seat to move decides from what it knows only.
                        assert moves == ENGINE.legal_moves(state, seat)
                    after = ENGINE.apply(det, decider[0], moves[checked % len(moves)]).state
                    ENGINE.to_move(after)
                checked += 1
    assert checked > 50


def test_determinizations_play_to_the_end() -> None:
    for state in playout_states(3, "standard", 5, every=17):
        for seat in range(3):
            det = ENGINE.determinize(ENGINE.view(state, seat), seat, seed=seat)
            rng = Rng(seat)
            for _ in range(2000):
                seats = ENGINE.to_move(det)
                if not seats:
                    break
                moves = ENGINE.legal_moves(det, seats[0])
                det = ENGINE.apply(det, seats[0], moves[rng.below(len(moves))]).state
            assert ENGINE.outcome(det) is not None


def test_hidden_cards_are_dealt_from_the_cards_not_accounted_for() -> None:
    state = ENGINE.new_game(2, ENGINE.resolve_options({}), 3)
    content = state.rules.content
    pools = content.presets[2].canon_pools
    view = ENGINE.view(state, 0)
    own = view.data["seats"][0]["brought"]
    assert own
    assert all(c["card"] == "" for c in view.data["canons"].values())
    seen_hidden: set[str] = set()
    for seed in range(40):
        det = ENGINE.determinize(view, 0, seed)
        cards = [c["card"] for c in det.doc["canons"].values()]
        assert len(set(cards)) == len(cards)
        assert set(own) <= set(cards)  # the seat's own Canons are in play
        assert all(content.canons[c].pool in pools for c in cards)
        others = det.doc["seats"][1]["brought"]
        assert sorted(set(cards) - set(own)) == others
        for monster in det.doc["monsters"].values():
            card = content.monster(monster["card"])
            assert monster["hp"] == card.health
            place = content.locations[monster["at"]]
            assert place.hosts_bree_monster if card.bree else card.type in place.monster_types
        seen_hidden.update(set(cards) - set(own))
        assert det.doc["seed"] == 0
    # Different seeds deal differently.
    assert len(seen_hidden) > 3


def test_known_cards_are_kept() -> None:
    for state in playout_states(2, "standard", 8):
        view = ENGINE.view(state, 1)
        det = ENGINE.determinize(view, 1, 0)
        for token, canon in view.data["canons"].items():
            if canon["card"]:
                assert det.doc["canons"][token]["card"] == canon["card"]
                assert state.doc["canons"][token]["card"] == canon["card"]
        for token, monster in view.data["monsters"].items():
            if monster["card"]:
                assert det.doc["monsters"][token] == state.doc["monsters"][token]


def test_states_differing_only_in_hidden_cards_determinize_alike() -> None:
    """Swap the identities of two Canons and two Monsters seat 0 cannot see, and deal seat 1's
    ``brought`` differently: seat 0's view and determinizations do not change."""
    state = ENGINE.new_game(2, ENGINE.resolve_options({}), 21)
    doc = json.loads(ENGINE.position(state))
    canons = sorted(t for t, c in doc["canons"].items() if not c["public"] and 0 not in c["known"])
    monsters = sorted(t for t, m in doc["monsters"].items() if m["at"] and not m["public"])
    assert len(canons) >= 2
    a, b = canons[:2]
    doc["canons"][a]["card"], doc["canons"][b]["card"] = (
        doc["canons"][b]["card"],
        doc["canons"][a]["card"],
    )
    if len(monsters) >= 2:
        m, n = monsters[:2]
        doc["monsters"][m]["card"], doc["monsters"][n]["card"] = (
            doc["monsters"][n]["card"],
            doc["monsters"][m]["card"],
        )
        for token in (m, n):
            card = state.rules.content.monster(doc["monsters"][token]["card"])
            doc["monsters"][token]["hp"] = card.health
    doc["seats"][1]["brought"] = list(reversed(doc["seats"][1]["brought"]))
    other = with_position(state, doc)
    assert ENGINE.position(other) != ENGINE.position(state)
    assert ENGINE.view(other, 0) == ENGINE.view(state, 0)
    assert ENGINE.view(other, 1) != ENGINE.view(state, 1)
    for seed in range(5):
        assert ENGINE.determinize(ENGINE.view(other, 0), 0, seed) == ENGINE.determinize(
            ENGINE.view(state, 0), 0, seed
        )


def test_draft_seed_is_dealt() -> None:
    state = ENGINE.new_game(2, ENGINE.resolve_options({"deal": "draft"}), 1234)
    view = ENGINE.view(state, 0)
    assert view.data["seed"] == 0
    det = ENGINE.determinize(view, 0, 9)
    assert det.doc["part"] == "draft"
    assert det.doc["seed"] != 0
    assert ENGINE.view(det, 0) == view
    assert ENGINE.determinize(view, 0, 10).doc["seed"] != det.doc["seed"]


def test_determinize_needs_the_seats_own_view() -> None:
    state = ENGINE.new_game(2, ENGINE.resolve_options({}), 0)
    with pytest.raises(ValueError):
        ENGINE.determinize(ENGINE.view(state, 1), 0, 0)
    with pytest.raises(ValueError):
        ENGINE.determinize(ENGINE.view(state, None), 0, 0)


@pytest.mark.parametrize("game", sorted(set(ENGINES) - {"generation_zero"}))
def test_perfect_information_engines_do_not_determinize(game: str) -> None:
    engine = get_engine(game)
    assert not engine.info.has_hidden_information
    state = engine.new_game(2, engine.resolve_options({}), 0)
    with pytest.raises(NotImplementedError):
        engine.determinize(engine.view(state, 0), 0, 0)
