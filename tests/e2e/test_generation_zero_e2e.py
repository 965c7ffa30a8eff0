"""A two-player game of Generation Zero through Discord, mirrored move by move.

The bot runs with ``GAMEROOM_GAME_SEED`` set, so a local engine started from the same seed and
options holds exactly the bot's game (Generation Zero draws everything at setup, spec 8.2).
A deterministic policy (:func:`steer_to_battle`) writes a chapter in the first round, then
sends every Agent toward the nearest enemy 'Sue and attacks, so the game goes through battles
to its end (``max_rounds=2``). Each decision is checked against the mirror:

* the mover's reply is ephemeral and carries its own private events (a chapter's Canon);
* while the same seat decides again, one public line, no board, nobody pinged; when the
  decision passes, the board is posted and only the next player pinged; every public event of
  the decision (the battle's attacks among them) is in that public message;
* autocomplete offers the mover exactly the engine's suggestions, the waiting player nothing;
* no public message ever names a private fact (the facts of the leak test,
  :func:`tests.service.test_service_generation_zero.private_facts`), and every public board
  is the picture of the spectator's view, whose drawn strings name no private fact;
* "My view" and ``/hand`` answer a player ephemerally with the picture of their seat's view
  (which draws their brought Canons) and their private events; a spectator gets one sentence.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.service.randomness import seat_order
from engines.base import Event
from engines.generation_zero import GenerationZeroEngine, GenerationZeroState, default_decision
from render.generation_zero import render_recording_texts
from tests.e2e.botproc import seeded_bot
from tests.fakediscord import FakeDiscord
from tests.service.hidden_engine import mentioned
from tests.service.test_service_generation_zero import drawn_leaks, private_facts

pytestmark = pytest.mark.e2e

ENGINE = GenerationZeroEngine()
SEED = 25
OPTIONS = {"max_rounds": "2"}
COMMANDS = ["challenge", "move", "board", "hand", "resign", "draw", "game"]
#: Discord's limit on autocomplete choices.
CHOICES = 25


def steer_to_battle(state: GenerationZeroState, seat: int) -> str:
    """The policy: in round 1 a 'Sue writes a chapter (a private look at a Canon); an Agent
    moves to the landing nearest an enemy 'Sue (ties: the first move in order); everything
    else (thrusts, upgrades, steers, ensnares) is the bot's own timeout default (spec 8.4),
    which attacks."""
    game = state.game()
    d = game.d
    legal = sorted(ENGINE.legal_moves(state, seat))
    ordering = d["queue"] == [] and d["fight"] is None and d["battle"] is None
    if ordering and d["part"] == "sue" and d["round"] == 1:
        chapters = [m for m in legal if m.startswith("chapter ")]
        if chapters:
            return chapters[0]
    if ordering and d["part"] == "agent":
        enemy_sues = [c["at"] for cid, c in game.living() if game.is_sue(cid) and c["seat"] != seat]

        def distance(move: str) -> int:
            landing = game.loc_of_label(move.split()[-1])
            return min((game.distance(landing, at) for at in enemy_sues), default=99)

        moves = [m for m in legal if m.startswith("move A")]
        if moves:
            return min(moves, key=lambda m: (distance(m), m))
    return default_decision(ENGINE, state)


def secrets(state: GenerationZeroState) -> tuple[set[str], dict[int, set[str]]]:
    """The facts every seat's view shows beyond the spectator's: all of them, and each seat's."""
    public = private_facts(ENGINE.view(state, None))
    seats = {s: private_facts(ENGINE.view(state, s)) - public for s in range(2)}
    return seats[0] | seats[1], seats


def png_of(message: Any) -> bytes:
    (attachment,) = [a for a in message.attachments if a.filename.endswith(".png")]
    image = Image.open(io.BytesIO(attachment.data))
    image.load()
    assert image.format == "PNG"
    return bytes(attachment.data)


def labels(message: Any) -> list[str]:
    return [str(b.get("label")) for row in message.components for b in row.get("components", [])]


@pytest.fixture
async def bot(fake_discord: FakeDiscord, tmp_path: Path) -> Any:
    async with seeded_bot(fake_discord, tmp_path, "Generation Zero", SEED, COMMANDS) as guild:
        yield guild


class Table:
    """The test's side of the game: the fake Discord, the players and the mirror."""

    def __init__(self, fake: FakeDiscord, channel: Any, players: list[Any], spectator: Any):
        self.fake = fake
        self.channel = channel
        self.players = players  # in seat order
        self.spectator = spectator
        self.names = tuple(p.name for p in players)
        self.state = ENGINE.new_game(2, ENGINE.resolve_options(OPTIONS), SEED)
        self.checked = 0  # public messages checked so far

    def check_public(self) -> None:
        """No public message so far names a fact only some seat knows now."""
        hidden, _ = secrets(self.state)
        messages = self.fake.messages(self.channel)
        for message in messages[self.checked :]:
            assert not mentioned(message.content, hidden), message.content
        self.checked = len(messages)

    def check_board(self, message: Any) -> None:
        """The board is the picture of the spectator's view, and draws no private fact."""
        hidden, _ = secrets(self.state)
        png, texts = render_recording_texts(ENGINE.view(self.state, None), seat_labels=self.names)
        assert png_of(message) == png
        assert drawn_leaks(texts, hidden) == []

    def check_private(self, answer: Any, seat: int) -> None:
        """A My view or /hand answer: ephemeral, the picture of the seat's view with its
        brought Canons drawn, the seat's private events in the text, nothing of the other's."""
        _, seats = secrets(self.state)
        view = ENGINE.view(self.state, seat)
        assert answer.ephemeral
        assert "your private view as" in answer.content
        png, texts = render_recording_texts(view, seat_labels=self.names)
        assert png_of(answer.message) == png
        brought = [view.content.canons[c].name for c in view.data["seats"][seat]["brought"]]
        assert brought
        assert mentioned(" ".join(texts), brought) == sorted(brought)
        assert drawn_leaks(texts, seats[1 - seat] - seats[seat]) == []
        assert not mentioned(answer.content, seats[1 - seat] - seats[seat])


async def test_two_players_play_through_battles_to_the_end(
    fake_discord: FakeDiscord, bot: Any
) -> None:
    fake = fake_discord
    channel = fake.add_text_channel(bot, "fandom")
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    for user in (alice, bob, carol):
        fake.add_member(bot, user)

    await fake.slash(
        alice,
        channel,
        "challenge",
        options={"game": "generation_zero", "opponent": bob, "options": "max_rounds=2"},
    )
    challenge = await fake.wait_for_message(channel, lambda m: "Accept" in labels(m))
    await fake.press(bob, challenge, label="Accept")
    board = await fake.wait_for_message(channel, lambda m: bool(m.attachments))
    table = Table(fake, channel, seat_order(SEED, [alice, bob]), carol)
    players = table.players

    # -- the first board: public picture, a My view button, both players called -------------
    assert labels(board) == ["My view", "Watch"]
    assert {u.id for u in board.mentions} == {alice.id, bob.id}
    table.check_board(board)
    table.check_public()

    # -- My view and /hand: each player their own seat, a spectator one sentence ------------
    for seat, user in enumerate(players):
        table.check_private(await fake.press(user, board, label="My view"), seat)
    refused = await fake.press(carol, board, label="My view")
    assert refused.ephemeral
    assert refused.content.startswith("Only the players have a private view")
    assert refused.content.count(".") == 1
    assert not refused.files
    table.check_private(await fake.slash(players[1], channel, "hand"), 1)

    # -- the game, decision by decision -----------------------------------------------------
    told: dict[int, list[Event]] = {0: [], 1: []}  # private events each seat was told
    battles = attacks = continued = passed = ply = 0
    while ENGINE.outcome(table.state) is None:
        (seat,) = ENGINE.to_move(table.state)
        mover, waiting = players[seat], players[1 - seat]
        text = steer_to_battle(table.state, seat)
        verb = text.split()[0]
        for typed in ("", verb):
            offered = await fake.autocomplete(mover, channel, "move", focused="text", text=typed)
            expected = ENGINE.suggest_moves(table.state, seat, typed, CHOICES)
            assert [c.value for c in offered] == expected
            # Shown with the names of the cards the moves give by id (`dept A2 temp_…`).
            shown = [ENGINE.suggestion_label(table.state, seat, t) for t in expected or ()]
            assert [c.name for c in offered] == shown
            assert (
                await fake.autocomplete(waiting, channel, "move", focused="text", text=typed) == []
            )

        mark = fake.checkpoint()
        reply = await fake.slash(mover, channel, "move", text=text)
        ply += 1
        transition = ENGINE.apply(table.state, seat, text)
        table.state = transition.state
        public = [e for e in transition.events if e.visible_to is None]
        mine = [e for e in transition.events if e.visible_to and seat in e.visible_to]
        told[seat] += mine
        assert reply.ephemeral, reply.content
        assert f"`{text}`" in reply.content
        for event in mine:
            assert event.text[1:] in reply.content  # the mover alone hears it

        over = ENGINE.outcome(table.state) is not None
        if not over and ENGINE.to_move(table.state) == (seat,):
            continued += 1
            line = await fake.wait_for_message(
                channel, lambda m: "decides again" in m.content, after=mark
            )
            assert not line.attachments
            assert line.mentions == ()
            posted = line
        else:
            passed += 1
            posted = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
            table.check_board(posted)
            pinged = {u.id for u in posted.mentions}
            if over:
                assert pinged <= {alice.id, bob.id}  # the winners are named below
            else:
                assert pinged == {waiting.id}
        for event in public:
            if event.kind == "turn":  # said by the ping and the prompt's "(round r/n)"
                assert event.text not in posted.content
            elif event.kind != "ended":
                assert event.text in posted.content
        battles += sum(e.kind == "battle" for e in public)
        attacks += sum(e.kind == "attacked" for e in public)
        table.check_public()

        if mine:  # the seat's My view now lists what it was told, the other's does not
            private = await fake.slash(mover, channel, "hand")
            table.check_private(private, seat)
            assert f"• ply {ply}: {mine[-1].text}" in private.content
            other = await fake.press(waiting, board, label="My view")
            table.check_private(other, 1 - seat)
            assert f"• ply {ply}:" not in other.content

    # -- the end -----------------------------------------------------------------------------
    outcome = ENGINE.outcome(table.state)
    assert outcome is not None
    assert battles >= 1
    assert attacks >= 2
    assert continued > 0
    assert passed > 0
    assert told[0]
    assert told[1]
    final = fake.messages(channel)[-1]
    assert final.attachments
    assert labels(final) == ["Rematch"]  # no My view once over
    (winner,) = outcome.winners
    assert players[winner].id in {u.id for u in final.mentions}
    assert f"<@{players[winner].id}> (Seat {winner + 1}) wins!" in final.content
