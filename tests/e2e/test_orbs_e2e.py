"""A four-player team game of Orbs through Discord, played to its end.

Teams ``02-13``: the seats at NE and SW play against SE and NW. The bot runs with
``GAMEROOM_GAME_SEED``, so a local engine started from the same seed and options mirrors the
game exactly (Orbs draws only the first player). Each player in turn asks autocomplete for
their moves and plays a greedy one from the mirror (a capture if there is one, else a step
towards the nearest enemy orb). Midway, one player resigns: their orbs leave and the three
others play on (D-ORB-18). Every turn message is checked against the mirror: the move, who is
pinged, a decodable board picture. A small ``no_progress_limit`` guarantees the game ends; the
final message names the result and pings all four players.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engines.geometry.hexstar import AXIAL, INDEX
from engines.orbs import OrbsEngine, OrbsState, clash
from engines.rng import Rng
from tests.e2e.botproc import seeded_bot
from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.e2e

ENGINE = OrbsEngine()
SEED = 31_337
OPTIONS = "teams=02-13 opening=FAW....... no_progress_limit=8"
COMMANDS = ["challenge", "move", "board", "resign", "draw", "game"]
POINTS = (
    "North-east, team A",
    "South-east, team B",
    "South-west, team A",
    "North-west, team B",
)


def labels(message: Any) -> list[str]:
    return [str(b.get("label")) for row in message.components for b in row.get("components", [])]


def board_png(message: Any) -> None:
    (attachment,) = [a for a in message.attachments if a.filename.endswith(".png")]
    assert len(attachment.data) <= 200_000
    image = Image.open(io.BytesIO(attachment.data))
    image.load()
    assert image.format == "PNG"


def distance(a: str, b: str) -> int:
    (q1, r1), (q2, r2) = AXIAL[INDEX[a]], AXIAL[INDEX[b]]
    return max(abs(q1 - q2), abs(r1 - r2), abs(q1 + r1 - q2 - r2))


def greedy(state: OrbsState, rng: Rng) -> str:
    """A capture if one exists, else a step that comes closest to an enemy orb."""
    seat = state.turn
    legal = ENGINE.legal_move_texts(state, seat)
    if legal == ["pass"]:
        return "pass"
    side = state.rules.side
    enemies = [
        cell
        for cell, value in enumerate(state.board)
        if value >= 0 and side[value // 5] != side[seat]
    ]

    def score(text: str) -> tuple[int, int]:
        origin, target = (INDEX[n] for n in text.split("-"))
        victim = state.board[target]
        if victim >= 0 and clash(state.board[origin], victim) == "win":
            return (0, 0)
        names = [ENGINE.format_move(state, (target, e)).split("-")[1] for e in enemies]
        near = min(distance(text.split("-")[1], n) for n in names) if names else 0
        return (1, near)

    best = min(score(t) for t in legal)
    choices = [t for t in legal if score(t) == best]
    return choices[rng.below(len(choices))]


@pytest.fixture
async def bot(fake_discord: FakeDiscord, tmp_path: Path) -> Any:
    async with seeded_bot(fake_discord, tmp_path, "Orbs Test", SEED, COMMANDS) as guild:
        yield guild


async def test_four_players_in_two_teams_play_to_the_end(
    fake_discord: FakeDiscord, bot: Any
) -> None:
    fake = fake_discord
    channel = fake.add_text_channel(bot, "orbs")
    ann, bob, cat, dan = (fake.add_user(name) for name in ("ann", "bob", "cat", "dan"))
    for user in (ann, bob, cat, dan):
        fake.add_member(bot, user)

    # -- the lobby: ann invites three players, who all accept -------------------------------
    await fake.slash(
        ann,
        channel,
        "challenge",
        options={
            "game": "orbs",
            "opponent": bob,
            "opponent2": cat,
            "opponent3": dan,
            "players": 4,
            "options": OPTIONS,
        },
    )
    lobby = await fake.wait_for_message(channel, lambda m: "Accept" in labels(m))
    await fake.press(bob, lobby, label="Accept")
    await fake.press(cat, lobby, label="Accept")
    mark = fake.checkpoint()
    await fake.press(dan, lobby, label="Accept")
    started = await fake.wait_for_message(channel, lambda m: "begins" in m.content, after=mark)
    first = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    board_png(first)
    points = dict(re.findall(r"<@(\d+)> plays ([A-Za-z-]+, team [AB])", started.content))
    by_point = {
        p: next(u for u in (ann, bob, cat, dan) if str(u.id) == i) for i, p in points.items()
    }
    seats = [by_point[p] for p in POINTS]
    assert len(points) == 4

    # -- the mirror --------------------------------------------------------------------------
    state = ENGINE.new_game(
        4, ENGINE.resolve_options(dict(o.split("=") for o in OPTIONS.split())), SEED
    )
    assert f"<@{seats[state.turn].id}>" in first.content + started.content
    rng = Rng(SEED, 3)
    resigned = False
    plies = 0
    while ENGINE.outcome(state) is None:
        plies += 1
        if plies == 6 and not resigned:
            # Someone who is not to move resigns; the three others play on.
            seat = next(
                s
                for s in range(4)
                if s != state.turn and any(v // 5 == s for v in state.board if v >= 0)
            )
            mark = fake.checkpoint()
            reply = await fake.slash(seats[seat], channel, "resign")
            assert reply.ephemeral
            state = ENGINE.resign(state, seat).state
            post = await fake.wait_for_message(channel, lambda m: "resign" in m.content, after=mark)
            resigned = True
            if ENGINE.outcome(state) is not None:
                break
            continue
        seat = state.turn
        player = seats[seat]
        legal = ENGINE.legal_move_texts(state, seat)
        choices = await fake.autocomplete(player, channel, "move", focused="text", text="")
        assert sorted(c.value for c in choices) == legal[:25]
        text = greedy(state, rng)
        mark = fake.checkpoint()
        reply = await fake.slash(player, channel, "move", text=text)
        assert not reply.ephemeral, reply.content  # the answer: the board
        assert reply.files
        state = ENGINE.play(state, seat, text)[0]
        while ENGINE.outcome(state) is None and ENGINE.legal_moves(state, state.turn) == [(-1, -1)]:
            state = ENGINE.play(state, state.turn, "pass")[0]  # the bot passes for them (ORB-4)
        post = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
        board_png(post)
        assert f"`{text}`" in post.content
        if ENGINE.outcome(state) is None:
            assert [u.id for u in post.mentions] == [seats[state.turn].id]
        assert plies < 400

    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert {u.id for u in post.mentions} >= {ann.id, bob.id, cat.id, dan.id} - {
        seats[s].id for s in range(4) if s not in sum(outcome.ranking, ())
    }
    record = await fake.slash(ann, channel, "game moves")
    moves = record.content + "".join(data.decode() for _, data in record.files)
    assert "resign" in moves
    info = await fake.slash(dan, channel, "board")
    assert info.ephemeral


async def three_playing(fake: FakeDiscord, guild: Any, name: str) -> tuple[Any, list[Any]]:
    """A new channel ``name`` where three new members have started a game of Orbs; returns
    the channel and the users (the challenger first)."""
    channel = fake.add_text_channel(guild, name)
    users = [fake.add_user(f"{person}-{name}") for person in ("ann", "bob", "cat")]
    for user in users:
        fake.add_member(guild, user)
    ann, bob, cat = users
    options = {"game": "orbs", "opponent": bob, "opponent2": cat, "players": 3}
    await fake.slash(ann, channel, "challenge", options=options)
    lobby = await fake.wait_for_message(channel, lambda m: "Accept" in labels(m))
    await fake.press(bob, lobby, label="Accept")
    mark = fake.checkpoint()
    await fake.press(cat, lobby, label="Accept")
    await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    return channel, users


async def test_a_three_player_draw_waits_for_everyone_still_in(
    fake_discord: FakeDiscord, bot: Any
) -> None:
    """Spec orbs D-ORB-11 through Discord: ann's offer is answered by bob, and the post says
    so, keeping its buttons for cat (a second press of bob's changes nothing); cat's
    acceptance ends the game drawn, the engine's `agreement`."""
    fake = fake_discord
    channel, (ann, bob, cat) = await three_playing(fake, bot, "orbs-three")
    mark = fake.checkpoint()
    offered = await fake.slash(ann, channel, "draw")
    assert offered.ephemeral
    offer = await fake.wait_for_message(channel, lambda m: "Accept draw" in labels(m), after=mark)
    assert "Every player still in must accept" in offer.content
    assert {u.id for u in offer.mentions} == {bob.id, cat.id}
    refused = await fake.press(ann, offer, label="Accept draw")
    assert refused.content == "You cannot accept your own draw offer."
    for _ in range(2):  # the second press: a double click
        await fake.press(bob, offer, label="Accept draw")
        shown = fake.message(offer)
        assert shown.content == (
            f"<@{ann.id}> offers a draw. Accepted by <@{bob.id}>; still to answer: "
            f"<@{cat.id}>. (A move declines it.)"
        )
        assert "Accept draw" in labels(shown)
    mark = fake.checkpoint()
    await fake.press(cat, offer, label="Accept draw")
    assert fake.message(offer).content == (
        f"<@{cat.id}> accepted the draw offer: the game is drawn."
    )
    assert labels(fake.message(offer)) == []
    final = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    assert "draw" in final.content.lower()
    assert {u.id for u in final.mentions} == {ann.id, bob.id, cat.id}


async def test_a_resignation_ends_a_three_player_draw_offer(
    fake_discord: FakeDiscord, bot: Any
) -> None:
    """Who is still in changed, so the offer ends as a move would end it; its post says why
    and loses its buttons, while the game goes on between the other two."""
    fake = fake_discord
    channel, (ann, bob, cat) = await three_playing(fake, bot, "orbs-resign")
    mark = fake.checkpoint()
    await fake.slash(ann, channel, "draw")
    offer = await fake.wait_for_message(channel, lambda m: "Accept draw" in labels(m), after=mark)
    await fake.press(bob, offer, label="Accept draw")
    resigned = await fake.slash(cat, channel, "resign")
    assert re.fullmatch(r"You resigned from \*\*Orbs\*\* \(game \d+\)\.", resigned.content)
    await fake.wait_until(
        lambda: labels(fake.message(offer)) == [], what="the offer's buttons retired"
    )
    assert fake.message(offer).content == "This draw offer lapsed: a player resigned."
    again = await fake.slash(bob, channel, "draw")
    assert again.ephemeral
    assert again.content == "Draw offered."
