"""Takebacks and a rematch through Discord, as players would ask for them (issue 7).

The real bot runs as its own process against ``tests/fakediscord``. Two players start a game
of Generatorb; South takes a move back with North's leave, then North asks and South
refuses; the game is played to the end with a greedy policy (a local engine mirrors it); the
loser presses Rematch under the final board, a second press points at the open lobby, the
winner accepts, and the new game starts with the seats swapped.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from engines.generatorb import GeneratorbEngine, GeneratorbMove, GeneratorbState
from engines.rng import Rng
from tests.e2e.botproc import seeded_bot
from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.e2e

ENGINE = GeneratorbEngine()
SEED = 31_337
#: No draw by repetition or ply cap, so the greedy game always ends in a win.
OPTIONS = "move_limit=0 repetition_draw=false"
COMMANDS = ["challenge", "move", "takeback", "game"]


def labels(message: Any) -> list[str]:
    """The labels of a message's buttons, row after row."""
    return [str(b.get("label")) for row in message.components for b in row.get("components", [])]


def choose(state: GeneratorbState, rng: Rng) -> GeneratorbMove:
    """A winning move if there is one, else a capture half the time, else any legal move."""
    moves = ENGINE.legal_moves(state, state.turn)
    for move in moves:
        outcome = ENGINE.child(state, state.turn, move).outcome
        if outcome is not None and outcome.winners:
            return move
    captures = [m for m in moves if m.capture]
    if captures and rng.below(2):
        return captures[rng.below(len(captures))]
    return moves[rng.below(len(moves))]


class Game:
    """The players, the channel and a local mirror of the game the bot runs."""

    def __init__(self, fake: FakeDiscord, channel: Any, seats: dict[int, Any]) -> None:
        self.fake = fake
        self.channel = channel
        self.seats = seats
        options = dict(pair.split("=", 1) for pair in OPTIONS.split())
        self.state = ENGINE.new_game(2, ENGINE.resolve_options(options), 0)
        self.rng = Rng(SEED)

    async def move(self) -> tuple[str, Any]:
        """The player to move plays the greedy choice; returns it and the board posted."""
        move = choose(self.state, self.rng)
        text = ENGINE.format_move(self.state, move)
        mark = self.fake.checkpoint()
        played = await self.fake.slash(self.seats[self.state.turn], self.channel, "move", text=text)
        assert not played.ephemeral, played.content  # the answer: the board
        assert played.files
        assert f"played `{text}`" in played.content, played.content
        self.state = ENGINE.apply(self.state, self.state.turn, move).state
        board = await self.fake.wait_for_message(
            self.channel, lambda m: bool(m.attachments), after=mark
        )
        return text, board

    async def ask_takeback(self, seat: int, move: str) -> Any:
        """``seat`` asks to take ``move`` back; returns the request post."""
        mark = self.fake.checkpoint()
        asked = await self.fake.slash(self.seats[seat], self.channel, "takeback")
        assert asked.ephemeral
        assert "Takeback asked" in asked.content
        request = await self.fake.wait_for_message(
            self.channel, lambda m: "Allow takeback" in labels(m), after=mark
        )
        assert labels(request) == ["Allow takeback", "Refuse"]
        assert f"<@{self.seats[seat].id}> asks to take back `{move}`" in request.content
        assert [u.id for u in request.mentions] == [self.seats[1 - seat].id]
        return request


async def test_a_takeback_allowed_one_refused_then_a_rematch(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with seeded_bot(fake, tmp_path, "Social Test", SEED, COMMANDS) as guild:
        channel = fake.add_text_channel(guild, "games")
        alice, bob, carol = (fake.add_user(name) for name in ("alice", "bob", "carol"))
        for user in (alice, bob, carol):
            fake.add_member(guild, user)

        # -- the game: alice challenges, bob accepts ------------------------------------------
        await fake.slash(
            alice,
            channel,
            "challenge",
            options={"game": "generatorb", "opponent": bob, "options": OPTIONS},
        )
        lobby = await fake.wait_for_message(channel, lambda m: "Accept" in labels(m))
        mark = fake.checkpoint()
        await fake.press(bob, lobby, label="Accept")
        started = await fake.wait_for_message(channel, lambda m: "begins" in m.content, after=mark)
        south_id = int(re.search(r"<@(\d+)> plays South", started.content).group(1))  # type: ignore[union-attr]
        south = alice if south_id == alice.id else bob
        north = bob if south is alice else alice
        game = Game(fake, channel, {0: south, 1: north})

        # -- nothing to take back yet; then South moves and asks for it back -----------------
        early = await fake.slash(south, channel, "takeback")
        assert early.content == "You have not moved yet, so there is nothing to take back."
        start_position = game.state
        first, _ = await game.move()
        request = await game.ask_takeback(0, first)
        stranger = await fake.press(carol, request, label="Allow takeback")
        assert stranger.ephemeral
        assert stranger.content == "You are not playing in this game."
        own = await fake.press(south, request, label="Allow takeback")
        assert own.content == "You cannot allow your own takeback request."

        mark = fake.checkpoint()
        await fake.press(north, request, label="Allow takeback")
        board = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
        assert board.content.startswith(f"<@{south.id}> (South) took back `{first}`.\n")
        assert [u.id for u in board.mentions] == [south.id]  # South is to move again
        answered = fake.message(request)
        assert labels(answered) == []
        assert answered.content == f"<@{north.id}> allowed it: <@{south.id}> took back `{first}`."
        game.state = start_position
        info = await fake.slash(carol, channel, "game info")
        assert " · ply 0" in info.content
        assert "Last moves" not in info.content

        # -- South moves again, North replies and asks for it back: South refuses -----------
        await game.move()
        reply, _ = await game.move()
        request = await game.ask_takeback(1, reply)
        mark = fake.checkpoint()
        refused = await fake.press(south, request, label="Refuse")
        assert refused.updated
        assert fake.message(request).content == (
            f"<@{south.id}> refused to let <@{north.id}> take the move back; the game goes on."
        )
        assert labels(fake.message(request)) == []
        assert not [m for m in fake.messages(channel) if m.attachments and m.id > mark]
        info = await fake.slash(carol, channel, "game info")
        assert " · ply 2" in info.content

        # -- South moves and asks for it back; North moves instead: the request lapses --------
        third, _ = await game.move()
        request = await game.ask_takeback(0, third)
        await game.move()
        await fake.wait_until(
            lambda: labels(fake.message(request)) == [], what="the request's buttons retired"
        )
        assert fake.message(request).content == (
            "This takeback request lapsed: a move was played instead."
        )

        # -- played to the end; the loser presses Rematch -------------------------------------
        final = None
        while game.state.outcome is None:
            _, final = await game.move()
        assert final is not None
        assert "Rematch" in labels(final)
        (winner_seat,) = game.state.outcome.winners
        winner, loser = game.seats[winner_seat], game.seats[1 - winner_seat]
        refused_rematch = await fake.press(carol, final, label="Rematch")
        assert refused_rematch.content == "Only the players can ask for a rematch."

        mark = fake.checkpoint()
        pressed = await fake.press(loser, final, label="Rematch")
        assert pressed.ephemeral
        assert pressed.content == "Rematch challenge posted."
        rematch = await fake.wait_for_message(channel, lambda m: "Accept" in labels(m), after=mark)
        assert rematch.content.startswith(
            f"<@{loser.id}> challenges <@{winner.id}> to **Generatorb** with `{OPTIONS}`."
        )
        assert [u.id for u in rematch.mentions] == [winner.id]
        again = await fake.press(winner, final, label="Rematch")
        assert again.ephemeral
        assert again.content == (
            "A rematch of this game is already open: "
            f"https://discord.com/channels/{guild.id}/{channel.id}/{rematch.id}"
        )

        # -- the winner accepts: the new game starts with the seats swapped ------------------
        mark = fake.checkpoint()
        await fake.press(winner, rematch, label="Accept")
        begun = await fake.wait_for_message(channel, lambda m: "begins" in m.content, after=mark)
        assert f"<@{north.id}> plays South" in begun.content
        assert f"<@{south.id}> plays North" in begun.content
        assert {u.id for u in begun.mentions} == {alice.id, bob.id}
        assert f"Options: `{OPTIONS}`" in begun.content
