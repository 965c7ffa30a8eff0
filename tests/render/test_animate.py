"""Animated replays (render.animate): frames, times, one palette, changed boxes, public views."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import GifImagePlugin, Image

import render
from engines import get_engine
from engines.base import CHANCE
from engines.rng import Rng
from render.animate import MAX_BYTES, Frame, Timing, frame_durations, render_gif


def play(game_id: str, plies: int, seed: int = 1, viewer: int | None = None) -> list[Frame]:
    """A seeded random game: the start and up to ``plies`` plies, as frames of ``viewer``'s
    views, each move said to take ``10 * ply`` seconds."""
    engine: Any = get_engine(game_id)
    players = engine.info.min_players
    state = engine.new_game(players, engine.options_for(engine.resolve_options({}), players), seed)
    rng = Rng(seed)
    frames = [Frame(engine.view(state, viewer))]
    while len(frames) <= plies and engine.outcome(state) is None:
        seat = engine.to_move(state)[0]
        if seat == CHANCE:
            state = engine.apply_chance(state, engine.sample_chance(state)).state
            continue
        moves = engine.legal_moves(state, seat)
        state = engine.apply(state, seat, moves[rng.below(len(moves))]).state
        frames.append(Frame(engine.view(state, viewer), seconds=10.0 * len(frames)))
    return frames


def gif_blocks(data: bytes) -> tuple[bool, list[tuple[tuple[int, int, int, int], bool, int]]]:
    """Whether the GIF has a global colour table, and per image its box (left, top, width,
    height), whether it has a local colour table, and its delay in ms."""
    assert data[:6] == b"GIF89a"
    flags = data[10]
    pos = 13 + (3 * 2 ** ((flags & 7) + 1) if flags & 0x80 else 0)
    images: list[tuple[tuple[int, int, int, int], bool, int]] = []
    delay = 0
    while data[pos] != 0x3B:
        if data[pos] == 0x21:  # extension: label, then sub-blocks
            if data[pos + 1] == 0xF9:
                delay = int.from_bytes(data[pos + 4 : pos + 6], "little") * 10
            pos += 2
            while data[pos]:
                pos += data[pos] + 1
            pos += 1
        else:
            assert data[pos] == 0x2C
            box = tuple(int.from_bytes(data[pos + k : pos + k + 2], "little") for k in (1, 3, 5, 7))
            local = bool(data[pos + 9] & 0x80)
            pos += 10 + (3 * 2 ** ((data[pos + 9] & 7) + 1) if local else 0) + 1  # + LZW size
            while data[pos]:
                pos += data[pos] + 1
            pos += 1
            images.append(((box[0], box[1], box[2], box[3]), local, delay))
    return bool(flags & 0x80), images


@pytest.fixture(scope="module")
def generatorb_frames() -> list[Frame]:
    return play("generatorb", 12)


def test_one_frame_per_ply_with_the_scaled_times(generatorb_frames: list[Frame]) -> None:
    data = render_gif("generatorb", generatorb_frames, seat_labels=("Пётр", "北の王"))
    image = Image.open(io.BytesIO(data))
    assert isinstance(image, GifImagePlugin.GifImageFile)
    assert image.n_frames == len(generatorb_frames) == 13
    _, images = gif_blocks(data)
    assert [delay for _, _, delay in images] == frame_durations(generatorb_frames)
    assert images[-1][2] == 3000


def test_one_global_palette_and_only_changed_boxes(generatorb_frames: list[Frame]) -> None:
    data = render_gif("generatorb", generatorb_frames)
    has_global, images = gif_blocks(data)
    assert has_global
    assert not any(local for _, local, _ in images)
    assert images[0][0] == (0, 0, 800, 800)
    # Later frames store a box, and inside it unchanged pixels are transparent: each is far
    # smaller than the first, full frame.
    assert all(box != (0, 0, 800, 800) for box, _, _ in images[1:])
    assert len(data) < 40_000 + 15_000 * (len(images) - 1)


def test_frames_show_exactly_the_still_pictures(generatorb_frames: list[Frame]) -> None:
    data = render_gif("generatorb", generatorb_frames, perspective=1)
    image = Image.open(io.BytesIO(data))
    for index in (0, 5, len(generatorb_frames) - 1):
        image.seek(index)
        still = Image.open(
            io.BytesIO(
                render.render_png("generatorb", generatorb_frames[index].view, perspective=1)
            )
        )
        assert image.convert("RGB").tobytes() == still.convert("RGB").tobytes()


def test_same_frames_give_same_bytes(generatorb_frames: list[Frame]) -> None:
    assert render_gif("generatorb", generatorb_frames) == render_gif(
        "generatorb", generatorb_frames
    )


def test_timing_scales_move_times_between_floor_and_cap() -> None:
    timing = Timing()
    assert timing.frame_ms(0) == 500
    assert timing.frame_ms(86_400 * 30) == 3000
    assert 500 < timing.frame_ms(60) < timing.frame_ms(3600) < 3000
    assert timing.frame_ms(None) == 1000
    assert Timing(fixed_ms=250).frame_ms(5000) == 250
    frames = [Frame(object(), 1.0), Frame(object(), 2.0)]
    assert frame_durations(frames, Timing(fixed_ms=333, last_ms=4000)) == [330, 4000]
    with pytest.raises(ValueError, match="10 ms"):
        Timing(floor_ms=0)
    with pytest.raises(ValueError, match="exceeds"):
        Timing(floor_ms=4000)
    with pytest.raises(ValueError, match="move time"):
        timing.frame_ms(-1)


def test_no_frames_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one frame"):
        render_gif("generatorb", [])


def test_generation_zero_replays_show_public_views_only() -> None:
    public = play("generation_zero", 6)
    data = render_gif("generation_zero", public)
    image = Image.open(io.BytesIO(data))
    assert isinstance(image, GifImagePlugin.GifImageFile)
    assert image.n_frames >= 2
    # Every frame is the public still picture, which the renderer's own tests show holds no
    # hidden card.
    image.seek(image.n_frames - 1)
    still = Image.open(io.BytesIO(render.render_png("generation_zero", public[-1].view)))
    assert image.convert("RGB").tobytes() == still.convert("RGB").tobytes()
    private = play("generation_zero", 2, viewer=0)
    with pytest.raises(ValueError, match="public views only"):
        render_gif("generation_zero", private)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["generatorb", "arbos", "generator", "orbs", "generation_zero"])
def test_a_300_ply_replay_fits_discord(game_id: str) -> None:
    frames = play(game_id, 300)
    assert len(render_gif(game_id, frames)) < MAX_BYTES
