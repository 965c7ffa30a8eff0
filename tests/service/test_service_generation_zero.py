"""Generation Zero through the service: random games checked for leaks (spec R14).

The generic harness (:func:`~tests.service.hidden_engine.play_checking_secrets`) plays random
2-, 3- and 4-player games of the real engine and fails at the first private fact that reaches
a public text, an autocomplete of a player who may not act, or the wrong player's "My view".
The private facts come from :func:`private_facts`: the identities (card id and display name)
of the Canons and Monsters a view shows, and the seat's ``brought`` Canons; a fact is private
to a seat when its view shows it and the spectator's does not.

The harness cannot read the Generation Zero picture back from the PNG, so
:class:`PictureCheckingService` extends the check: every image the service draws is drawn
again with :func:`render.generation_zero.render_recording_texts`, which must give the same
bytes, and the strings it drew are searched for names the viewer may not know.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

import engines
from bot import presenters
from bot.service import GameService, GameSnapshot
from bot.service.models import PrivateView
from db import Database
from engines import get_engine
from engines.generation_zero import GenerationZeroEngine, GenerationZeroState, GenerationZeroView
from render.generation_zero import render_recording_texts

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    DAN,
    ERIN,
    GAMES,
    GUILD,
    FakeClock,
    StartGame,
    seeds,
    to_move_user,
)
from .hidden_engine import LeakError, mentioned, play_checking_secrets

GAME = "generation_zero"
ENGINE = get_engine(GAME)
#: The ellipsis the renderer puts at the end of a name it shortened to fit.
ELLIPSIS = "…"


def private_facts(view: Any) -> set[str]:
    """The hidden-information facts ``view`` shows (spec R14): for every Canon and Monster
    whose ``card`` the view fills in, its card id and its display name, and the same for each
    card of the viewer's ``brought`` list. Whole names only, so that a common word inside a
    name ("Troll", "Pack") is never taken for the name itself."""
    assert isinstance(view, GenerationZeroView)
    content = view.content
    data = view.data
    found: set[str] = set()
    for canon in data["canons"].values():
        if canon["card"]:
            found |= {canon["card"], content.canons[canon["card"]].name}
    for monster in data["monsters"].values():
        if monster["card"]:
            found |= {monster["card"], content.monster(monster["card"]).name}
    for seat in data["seats"]:
        for card in seat["brought"]:
            found |= {card, content.canons[card].name}
    return found


def drawn_leaks(texts: Sequence[str], hidden: Iterable[str]) -> list[str]:
    """The ``hidden`` names a picture's drawn ``texts`` show: whole names in the text as a
    whole (a long name may be wrapped over two strings), and names the renderer shortened
    to fit (``"Cave Troll With…"``)."""
    hidden = set(hidden)
    leaks = set(mentioned(" ".join(texts), hidden))
    for text in texts:
        stem = text.removesuffix(ELLIPSIS).strip()
        if text.endswith(ELLIPSIS) and len(stem) >= 4:
            leaks |= {name for name in hidden if name.lower().startswith(stem.lower())}
    return sorted(leaks)


class PictureCheckingService(GameService):
    """A :class:`GameService` that checks each Generation Zero picture it draws: the public
    board names no Canon or Monster only some seat knows, and a player's "My view" names
    nothing another seat alone knows but shows the seat's own ``brought`` Canons."""

    public_pictures = 0
    private_pictures = 0

    async def _private_by_seat(self, game_id: int) -> tuple[set[str], dict[int, set[str]]]:
        row = await self.database.games.get(game_id)
        assert row is not None
        state = ENGINE.loads(row.state_json)
        public = private_facts(ENGINE.view(state, None))
        players = int(json.loads(ENGINE.position(state))["players"])
        seats = {s: private_facts(ENGINE.view(state, s)) - public for s in range(players)}
        return public, seats

    async def render(
        self,
        snapshot: GameSnapshot,
        viewer: int | None = None,
        *,
        seat_labels: Sequence[str] | None = None,
        perspective: int | None = None,
    ) -> bytes:
        # Generation Zero draws one picture for every perspective: the recorded one below.
        png = await super().render(
            snapshot, viewer, seat_labels=seat_labels, perspective=perspective
        )
        if snapshot.game == GAME and viewer is None:
            _, seats = await self._private_by_seat(snapshot.game_id)
            secrets = set().union(*seats.values())
            drawn_png, texts = render_recording_texts(snapshot.view, seat_labels=seat_labels)
            if drawn_png != png:
                raise LeakError(f"ply {snapshot.ply}: the board is not the recorded picture")
            leaked = drawn_leaks(texts, secrets)
            if leaked:
                raise LeakError(f"ply {snapshot.ply}: the public board draws {leaked}")
            self.public_pictures += 1
        return png

    async def render_private(
        self,
        private: PrivateView,
        *,
        seat_labels: Sequence[str] | None = None,
        perspective: int | None = None,
    ) -> bytes:
        png = await super().render_private(
            private, seat_labels=seat_labels, perspective=perspective
        )
        if private.game == GAME:
            _, seats = await self._private_by_seat(private.game_id)
            others = set().union(*(f for s, f in seats.items() if s != private.seat))
            hidden = others - seats[private.seat]
            drawn_png, texts = render_recording_texts(private.view, seat_labels=seat_labels)
            if drawn_png != png:
                raise LeakError(f"ply {private.ply}: My view is not the recorded picture")
            leaked = drawn_leaks(texts, hidden)
            if leaked:
                raise LeakError(f"ply {private.ply}: seat {private.seat}'s view draws {leaked}")
            content = private.view.content
            own = private.view.data["seats"][private.seat]["brought"]
            brought = [content.canons[card].name for card in own]
            missing = [name for name in brought if not mentioned(" ".join(texts), [name])]
            if missing:
                raise LeakError(f"seat {private.seat}'s view does not show its Canons {missing}")
            self.private_pictures += 1
        return png


@pytest.fixture
def checked_service(database: Database, clock: FakeClock) -> PictureCheckingService:
    return PictureCheckingService(database, clock=clock, rng_seed_source=seeds(40))


# ---- the facts function ------------------------------------------------------------------------


def test_private_facts_are_whole_names_of_identities_the_view_shows() -> None:
    state = ENGINE.new_game(2, ENGINE.resolve_options({}), 5)
    spectator = private_facts(ENGINE.view(state, None))
    seat = ENGINE.view(state, 0)
    mine = private_facts(seat) - spectator
    brought = seat.data["seats"][0]["brought"]
    assert brought, "each seat brings Canons (3.4)"
    for card in brought:
        assert {card, seat.content.canons[card].name} <= mine
    other = private_facts(ENGINE.view(state, 1)) - spectator
    assert not set(brought) & other  # the other seat has not seen them yet
    # The spectator sees no brought list and no hidden Canon.
    assert all(not s["brought"] for s in ENGINE.view(state, None).data["seats"])
    assert not set(brought) & spectator


def test_drawn_leaks_match_whole_and_shortened_names_only() -> None:
    hidden = {"Cave Troll With A Head Cold", "Merrie", "cave_troll"}
    assert drawn_leaks(["Cave Troll With A", "Head Cold"], hidden) == [
        "Cave Troll With A Head Cold"
    ]
    assert drawn_leaks(["Cave Troll W…"], hidden) == ["Cave Troll With A Head Cold"]
    assert drawn_leaks(["Troll", "merriest", "M3", "?"], hidden) == []
    assert drawn_leaks(["C4 Merrie"], hidden) == ["Merrie"]


# ---- the leak harness over random games --------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rounds", "seed", "resign_after"),
    [(2, 2, 1, None), (2, 2, 2, 7), (3, 2, 3, None), (3, 2, 4, 12), (4, 1, 5, None), (4, 1, 6, 9)],
)
async def test_random_games_show_nothing_private_in_public(
    checked_service: PictureCheckingService,
    players: int,
    rounds: int,
    seed: int,
    resign_after: int | None,
) -> None:
    users = [ALICE, BOB, DAN, ERIN][:players]
    report = await play_checking_secrets(
        checked_service,
        GAME,
        users=users,
        spectator=CAROL,
        channel_id=GAMES,
        guild_id=GUILD,
        options=f"max_rounds={rounds}",
        seed=seed,
        max_decisions=120,
        resign_after=resign_after,
        facts=private_facts,
    )
    assert report.outcome is not None  # played to the end
    assert report.resigned is (resign_after is not None)
    assert report.private_views >= players * report.decisions
    assert report.autocompletes > 0
    assert checked_service.public_pictures == report.public_images > 0
    assert checked_service.private_pictures == report.private_views
    if resign_after is None:
        assert report.continued_turns > 0
        assert report.private_events > 0  # chapters and ensnare checks told the mover


class LeakyPrompt(GenerationZeroEngine):
    """Its public prompt names the deciding seat's first brought Canon."""

    def prompt(self, state: GenerationZeroState, seat: int) -> str | None:
        said = super().prompt(state, seat)
        if said is None:
            return None
        (card, *_) = state.doc["seats"][seat]["brought"]
        return f"{said} (you brought {state.rules.content.canons[card].name})"


async def test_the_facts_catch_a_prompt_that_names_a_brought_canon(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(engines.ENGINES, GAME, LeakyPrompt())
    with pytest.raises(LeakError, match="mentions private"):
        await play_checking_secrets(
            service,
            GAME,
            users=[ALICE, BOB],
            spectator=CAROL,
            channel_id=GAMES,
            options="max_rounds=1",
            seed=3,
            facts=private_facts,
        )


async def test_the_last_draft_pick_sends_the_other_player_to_their_hand(
    service: GameService, start_game: StartGame
) -> None:
    """The last pick deals every seat its Canons (private ``dealt`` events): the picker reads
    theirs in the acknowledgement; the post pings the other player to ``/hand``."""
    snapshot = await start_game(game=GAME, options="deal=draft")
    for _ in range(40):
        user = to_move_user(snapshot)
        result = await service.play(GAMES, user, (await service.legal_moves(GAMES, user))[0])
        snapshot = result.snapshot
        if result.private_events:
            break
    else:
        raise AssertionError("the draft never dealt")
    assert [e.kind for e in result.private_events] == ["dealt"]
    other = ({ALICE, BOB} - {user}).pop()
    assert result.told_privately == (other,)
    assert other in presenters.turn_mention_ids(result)
    assert f"<@{other}>: this move showed you something only you may see" in (
        presenters.turn_text(result)
    )
