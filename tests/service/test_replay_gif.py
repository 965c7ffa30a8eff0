"""``/game replay format:gif``: :meth:`GameService.animation` (bot/service/replays.py)."""

from __future__ import annotations

import io
from datetime import timedelta
from typing import Any

import pytest
from PIL import Image

from bot.service import GameService
from bot.service.errors import ServiceError
from engines.generator import GeneratorView
from engines.rng import Rng
from render import animate

from .conftest import GAMES, GUILD, FakeClock, StartGame, to_move_user
from .test_records import play_random


def _durations(gif: bytes) -> list[int]:
    image = Image.open(io.BytesIO(gif))
    durations = []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        durations.append(image.info["duration"])
    return durations


async def test_a_gif_of_real_move_times_and_a_fast_one(
    service: GameService, start_game: StartGame, clock: FakeClock
) -> None:
    snapshot = await start_game(game="generatorb")
    channel = snapshot.channel_id
    waits = [timedelta(seconds=1), timedelta(hours=1), timedelta(days=2), timedelta(minutes=1)]
    for wait in waits:
        clock.advance(wait)
        moves = await service.legal_moves(channel, to_move_user(snapshot))
        snapshot = (await service.play(channel, to_move_user(snapshot), moves[0])).snapshot
    assert snapshot.ply == 4
    real = await service.animation(GAMES, guild_id=GUILD, seat_labels=("Ann", "Bob"))
    assert real.gif.startswith(b"GIF89a")
    assert (real.from_ply, real.to_ply, real.plies, real.frames) == (0, 4, 4, 5)
    timing = animate.Timing()
    expected = [timing.unknown_ms] + [timing.frame_ms(w.total_seconds()) for w in waits[:-1]]
    expected.append(timing.last_ms)
    assert _durations(real.gif) == expected
    assert real.seconds == pytest.approx(sum(expected) / 1000)

    fast = await service.animation(GAMES, guild_id=GUILD, from_ply=1, to_ply=3, speed="fast")
    assert (fast.from_ply, fast.to_ply, fast.frames) == (1, 3, 3)
    assert _durations(fast.gif) == [500, 500, timing.last_ms]
    assert fast.filename == f"generatorb-{snapshot.game_id}-1-3.gif"


async def test_a_ply_the_next_roll_follows_gets_no_frame_of_its_own(
    service: GameService, start_game: StartGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Generator rolls right after every move: the frame after a move would read
    "rolling…", so only the first and last plies of a range may show a pending roll."""
    snapshot = await start_game(game="generator")
    await play_random(service, snapshot, Rng(7), plies=12)
    drawn: list[list[animate.Frame]] = []
    real_render = animate.render_gif

    def spy(game: str, frames: list[animate.Frame], **kwargs: Any) -> bytes:
        drawn.append(list(frames))
        return real_render(game, frames, **kwargs)

    monkeypatch.setattr("bot.service.replays.render_gif", spy)
    whole = await service.animation(GAMES, guild_id=GUILD, speed="fast")
    (frames,) = drawn
    assert whole.frames == len(frames) < whole.plies + 1
    views = [frame.view for frame in frames]
    assert all(isinstance(view, GeneratorView) for view in views)
    pending = [
        i
        for i, view in enumerate(views)
        if isinstance(view, GeneratorView) and view.to_move is not None and view.roll is None
    ]
    assert set(pending) <= {0, len(frames) - 1}
    assert len(_durations(whole.gif)) == len(frames)


async def test_bad_ranges_and_speeds_are_one_sentence(
    service: GameService, start_game: StartGame
) -> None:
    snapshot = await start_game(game="generator")
    snapshot = await play_random(service, snapshot, Rng(3), plies=4)
    head = f"Generator game {snapshot.game_id} has plies 0 to {snapshot.ply} (0 is the start "
    with pytest.raises(ServiceError) as reversed_range:
        await service.animation(GAMES, guild_id=GUILD, from_ply=3, to_ply=2)
    assert str(reversed_range.value) == f"{head}position); from_ply 3 comes after to_ply 2."
    # Only the plies the user named, never a default they did not type.
    beyond = snapshot.ply + 1
    for first, last in ((None, beyond), (beyond, None), (beyond, 1)):
        with pytest.raises(ServiceError) as missing:
            await service.animation(GAMES, guild_id=GUILD, from_ply=first, to_ply=last)
        assert str(missing.value) == f"{head}position); there is no ply {beyond}."
    with pytest.raises(ServiceError, match=f"there are no plies {beyond} and {beyond + 1}"):
        await service.animation(GAMES, guild_id=GUILD, from_ply=beyond + 1, to_ply=beyond)
    with pytest.raises(ServiceError, match="speed"):
        await service.animation(GAMES, guild_id=GUILD, speed="slow")


async def test_a_gif_over_discords_limit_is_refused(
    service: GameService, start_game: StartGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    snapshot = await start_game(game="orbs")
    await play_random(service, snapshot, Rng(5), plies=3)
    monkeypatch.setattr(animate, "MAX_BYTES", 1000)
    with pytest.raises(ServiceError, match=r"too big for Discord.*fewer plies") as refused:
        await service.animation(GAMES, guild_id=GUILD)
    assert str(refused.value).count(".") == 1  # one sentence


async def test_a_gif_over_the_limit_suggests_a_from_ply_whose_range_fits(
    service: GameService, start_game: StartGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    snapshot = await start_game(game="generator")
    await play_random(service, snapshot, Rng(7), plies=30)
    whole = await service.animation(GAMES, guild_id=GUILD)
    last = whole.to_ply
    assert last >= 30  # the die's rolls are plies too
    monkeypatch.setattr(animate, "MAX_BYTES", len(whole.gif) * 6 // 10)
    with pytest.raises(ServiceError, match=r"too big for Discord .*try `from_ply:\d+`") as refused:
        await service.animation(GAMES, guild_id=GUILD)
    assert str(refused.value).count(".") == 1  # one sentence
    suggested = int(str(refused.value).rsplit("from_ply:", 1)[1].split("`")[0])
    assert 0 < suggested < last
    fitting = await service.animation(GAMES, guild_id=GUILD, from_ply=suggested)
    assert len(fitting.gif) <= animate.MAX_BYTES
    assert (fitting.from_ply, fitting.to_ply) == (suggested, last)
    # A range that stops short of the end keeps its end in the suggestion.
    with pytest.raises(ServiceError, match=rf"try `from_ply:\d+` `to_ply:{last - 1}`\."):
        await service.animation(GAMES, guild_id=GUILD, to_ply=last - 1)


@pytest.mark.parametrize(
    ("game", "options", "plies", "seed"),
    [("arbos", None, 44, 1), ("arbos", "setup_mode=manual", 60, 2), ("generator", None, 40, 7)],
)
@pytest.mark.parametrize("share", [0.5, 0.8])
async def test_the_suggested_range_fits_where_plies_and_frames_differ(
    service: GameService,
    start_game: StartGame,
    monkeypatch: pytest.MonkeyPatch,
    game: str,
    options: str | None,
    plies: int,
    seed: int,
    share: float,
) -> None:
    """Arbos' random setup (its first 20 plies draw the seeds: no frames) and Generator (a
    frame every two plies) have fewer frames than plies: the suggestion counts frames back
    from the end, so its range fits (reckoned by plies, Arbos' suggestion did not)."""
    snapshot = await start_game(game=game, options=options)
    await play_random(service, snapshot, Rng(seed), plies=plies)
    whole = await service.animation(GAMES, guild_id=GUILD)
    monkeypatch.setattr(animate, "MAX_BYTES", int(len(whole.gif) * share))
    with pytest.raises(ServiceError, match=r"try `from_ply:\d+`") as refused:
        await service.animation(GAMES, guild_id=GUILD)
    suggested = int(str(refused.value).rsplit("from_ply:", 1)[1].split("`")[0])
    fitting = await service.animation(GAMES, guild_id=GUILD, from_ply=suggested)
    assert len(fitting.gif) <= animate.MAX_BYTES


async def test_the_last_frame_of_a_game_ended_on_its_row_shows_the_result(
    service: GameService, start_game: StartGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Generatorb leaves resigning to the bot: its last frame, like its final board, gets
    the stored result and nobody to move (``Engine.ended_view``); earlier frames do not."""
    snapshot = await start_game(game="generatorb")
    snapshot = await play_random(service, snapshot, Rng(5), plies=2)
    ended = await service.resign(GAMES, to_move_user(snapshot))
    drawn: list[list[animate.Frame]] = []
    real_render = animate.render_gif

    def capture(game: str, frames: list[animate.Frame], **kwargs: object) -> bytes:
        drawn.append(frames)
        return real_render(game, frames, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("bot.service.replays.render_gif", capture)
    await service.animation(GAMES, guild_id=GUILD)
    [frames] = drawn
    last: Any = frames[-1].view
    before: Any = frames[-2].view
    assert (last.outcome, last.to_move) == (ended.outcome, None)
    assert before.outcome is None
    drawn.clear()
    await service.animation(GAMES, guild_id=GUILD, to_ply=1)  # not the last ply: as it was
    first: Any = drawn[0][-1].view
    assert first.outcome is None
