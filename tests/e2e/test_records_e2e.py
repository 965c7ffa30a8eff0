"""Records through Discord: ``/game export`` and ``/game replay`` on a game of Generatorb.

The real bot runs as its own process against ``tests/fakediscord``; the test plays both
players with ``/move`` (a local engine picks the moves and mirrors the game), exports the game
while it goes on and once it is over, and replays each exported JSON with
``python -m engines --record`` in a subprocess, which must reach the mirrored position.
``/game replay`` shows the board at a ply ephemerally or, with ``public:true``, in the channel,
and a GIF of a range of plies.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engines.generatorb import GeneratorbEngine
from engines.rng import Rng
from tests.e2e.botproc import seeded_bot
from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.e2e

ENGINE = GeneratorbEngine()
SEED = 271_828
PLIES = 6
COMMANDS = ["challenge", "move", "board", "resign", "game"]
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
async def guild(fake_discord: FakeDiscord, tmp_path: Path) -> Any:
    async with seeded_bot(fake_discord, tmp_path, "Records Test", SEED, COMMANDS) as made:
        yield made


def png_of(files: list[tuple[str, bytes]]) -> Image.Image:
    """The one PNG among ``files``, decoded (fails the test if there is not exactly one)."""
    (data,) = [data for name, data in files if name.endswith(".png")]
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


async def replay_with_cli(path: Path) -> dict[str, Any]:
    """``python -m engines --record PATH`` in a subprocess; its JSON answer (exit status 0)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "engines",
        "--record",
        str(path),
        cwd=REPO,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    stdout, stderr = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, stderr.decode()
    answer: dict[str, Any] = json.loads(stdout)
    return answer


async def export(fake: FakeDiscord, user: Any, channel: Any, tmp_path: Path, **values: Any) -> Any:
    """``/game export``: an ephemeral one-line summary with the JSON and the text attached.
    Returns the decoded JSON, after saving it where the CLI can read it."""
    result = await fake.slash(user, channel, "game export", **values)
    assert result.ephemeral
    assert "\n" not in result.content
    files = dict(result.files)
    (stem,) = {name.rsplit(".", 1)[0] for name in files}
    assert sorted(files) == [f"{stem}.json", f"{stem}.txt"]
    assert f"python -m engines --record {stem}.json" in result.content
    data = json.loads(files[f"{stem}.json"])
    assert stem == f"generatorb-{data['game_id']}"
    text = files[f"{stem}.txt"].decode()
    assert text.startswith('[Game "Generatorb"]\n')
    for move in data["moves"]:
        assert move["text"] in text
    (tmp_path / f"{stem}.json").write_bytes(files[f"{stem}.json"])
    data["_path"] = tmp_path / f"{stem}.json"
    data["_summary"] = result.content
    return data


async def test_export_and_replay_a_game(
    fake_discord: FakeDiscord, guild: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    channel = fake.add_text_channel(guild, "records")
    lounge = fake.add_text_channel(guild, "lounge")
    alice, bob, carol = (fake.add_user(name) for name in ("alice", "bob", "carol"))
    for user in (alice, bob, carol):
        fake.add_member(guild, user)

    # -- a game of Generatorb, mirrored by a local engine -----------------------------------
    await fake.slash(alice, channel, "challenge", options={"game": "generatorb", "opponent": bob})
    challenge = await fake.wait_for_message(channel, lambda m: "Accept" in str(m.components))
    mark = fake.checkpoint()
    await fake.press(bob, challenge, label="Accept")
    await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    started = " ".join(m.content for m in fake.messages(channel))
    south = int(re.search(r"<@(\d+)> plays South", started).group(1))  # type: ignore[union-attr]
    seats = [alice, bob] if south == alice.id else [bob, alice]

    state = ENGINE.new_game(2, ENGINE.resolve_options({}), SEED)
    rng = Rng(SEED)
    played = []
    for _ in range(PLIES):
        legal = ENGINE.legal_move_texts(state, state.turn)
        text = legal[rng.below(len(legal))]
        mark = fake.checkpoint()
        reply = await fake.slash(seats[state.turn], channel, "move", text=text)
        assert not reply.ephemeral, reply.content  # the answer: the board
        assert reply.files
        await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
        state = ENGINE.play(state, state.turn, text)[0]
        played.append(text)

    # -- export while the game goes on: no seed; the CLI replays it to the same position ----
    active = await export(fake, carol, channel, tmp_path)  # a spectator may export
    assert active["format"] == "gameroom-record/1"
    assert active["status"] == "active"
    assert active["seed"] is None
    assert [m["text"] for m in active["moves"]] == played
    assert {s["display_name"] for s in active["seats"]} == {"alice", "bob"}
    assert "the game goes on" in active["_summary"]
    replayed = await replay_with_cli(active["_path"])
    assert replayed["applied"] == played
    assert replayed["position"] == active["position"] == ENGINE.position(state)
    assert replayed["outcome"] is None

    # -- the board at ply 3, only for the caller; out of range; ply 0 for everyone ----------
    boards = len([m for m in fake.messages(channel) if m.attachments])
    third = await fake.slash(carol, channel, "game replay", ply=3)
    assert third.ephemeral
    assert f"Ply 3 of {PLIES}, last move: South `{played[2]}`" in third.content
    png_of(third.files)
    assert len([m for m in fake.messages(channel) if m.attachments]) == boards  # nothing public
    beyond = await fake.slash(carol, channel, "game replay", ply=PLIES + 1)
    assert beyond.ephemeral
    assert not beyond.files
    assert f"has plies 0 to {PLIES}" in beyond.content
    mark = fake.checkpoint()
    shown = await fake.slash(carol, channel, "game replay", ply=0, public=True)
    assert shown.ephemeral
    assert shown.content == "Board posted."
    posted = await fake.wait_for_message(channel, lambda m: bool(m.attachments), after=mark)
    assert not posted.ephemeral
    assert f"Ply 0 of {PLIES}: the start position" in posted.content
    assert posted.mentions == ()
    png_of([(a.filename, a.data) for a in posted.attachments])

    # -- the game ends; from another channel, by id: now with the seed ---------------------
    await fake.slash(seats[state.turn], channel, "resign")
    over = await export(fake, carol, lounge, tmp_path, game_id=active["game_id"])
    assert over["status"] == "finished"
    assert over["seed"] == SEED
    assert over["result"]["termination"] == "resignation"
    assert over["result"]["winners"] == [1 - state.turn]
    replayed = await replay_with_cli(over["_path"])
    assert replayed["position"] == ENGINE.position(state)
    assert replayed["outcome"] is None  # a resignation is not a move: the record says it
    last = await fake.slash(carol, lounge, "game replay", game_id=active["game_id"])
    assert f"Ply {PLIES} of {PLIES}" in last.content
    assert "resignation" in last.content.lower()
    png_of(last.files)

    # -- a GIF: from_ply and to_ply ask for one without format:gif; a mix is one sentence -----
    game = {"game_id": active["game_id"]}
    clip = await fake.slash(carol, lounge, "game replay", from_ply=1, to_ply=3, **game)
    assert clip.ephemeral
    assert f"plies 1 to 3 of {PLIES}" in clip.content, clip.content
    ((name, data),) = clip.files
    assert name.endswith(".gif")
    with Image.open(io.BytesIO(data)) as gif:
        assert (gif.format, getattr(gif, "n_frames", 1)) == ("GIF", 3)
    mixed = await fake.slash(carol, lounge, "game replay", ply=2, format="gif", **game)
    assert mixed.ephemeral
    assert not mixed.files
    assert mixed.content.startswith("`ply` picks one board"), mixed.content
    beyond = await fake.slash(carol, lounge, "game replay", from_ply=PLIES + 4, **game)
    assert beyond.content.endswith(f"there is no ply {PLIES + 4}."), beyond.content
    unknown = await fake.slash(carol, lounge, "game replay", game_id=active["game_id"] + 99)
    assert unknown.content == f"There is no game {active['game_id'] + 99} here."
