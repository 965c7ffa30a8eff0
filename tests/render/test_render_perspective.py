"""Generator and Orbs drawn from a seat's side (``render_png(..., perspective=seat)``).

Generator turns its GRYB board by quarter turns so the seat's start corner is at the bottom
left; Orbs turns its star (or hexagon) by sixths so the seat's start point is at the bottom.
Golden images under ``tests/render/golden/perspective/`` pin the turned pictures;
``perspective=None`` stays the fixed picture (the games' own goldens).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import render
from engines.geometry.gryb import LEVEL_START
from engines.geometry.hexstar import POINT_ORDER
from render import generator as gen
from render import orbs as ob
from tests.render import test_render_arbos as arbos_tests
from tests.render import test_render_generator as generator_tests
from tests.render import test_render_orbs as orbs_tests
from tests.render.golden import GOLDEN_ROOT, check_golden

GOLDEN_DIR = GOLDEN_ROOT / "perspective"

#: name: (game, view, labels, seat)
GOLDEN: dict[str, tuple[str, object, tuple[str, ...] | None, int]] = {
    # Four colours: Green (seat 0) three quarter turns, Red (seat 1) half a turn.
    "generator_busy_4p_green": ("generator", generator_tests.BUSY, generator_tests.LABELS_4, 0),
    "generator_busy_4p_red": ("generator", generator_tests.BUSY, generator_tests.LABELS_4, 1),
    # Yellow (seat 2) a quarter turn, with the entry badge and a capture card.
    "generator_resigned_3p_yellow": (
        "generator",
        generator_tests.RESIGNED,
        ("Søren", "quitter", "Ｙｏｋｏ"),
        2,
    ),
    # Orbs: six seats with holes and a clash (seat 0 at N: half a turn; seat 4 at SW: a sixth
    # back); the torus from seat 1 (SE: a sixth), arrows across the seam and ghosts turned.
    "orbs_busy_6p_seat0": ("orbs", orbs_tests.BUSY_6P, orbs_tests.LABELS_6, 0),
    "orbs_busy_6p_seat4": ("orbs", orbs_tests.BUSY_6P, orbs_tests.LABELS_6, 4),
    "orbs_torus_seat1": ("orbs", orbs_tests.TORUS_2P, ("Ann", "Ben"), 1),
    "orbs_teams_4p_seat1": ("orbs", orbs_tests.TEAMS_4P, orbs_tests.LABELS_4, 1),
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_turned_pictures_match_golden(name: str, tmp_path: Path) -> None:
    game_id, view, labels, seat = GOLDEN[name]
    data = render.render_png(game_id, view, seat_labels=labels, perspective=seat)
    check_golden(data, GOLDEN_DIR / f"{name}.png", tmp_path)


def test_generator_and_orbs_are_perspective_games() -> None:
    assert {"generatorb", "generator", "orbs"} <= render.PERSPECTIVE_GAMES
    assert not {"arbos", "generation_zero"} & render.PERSPECTIVE_GAMES


@pytest.mark.parametrize(
    ("game_id", "view"),
    [("generator", generator_tests.BUSY), ("orbs", orbs_tests.BUSY_6P)],
)
def test_none_is_the_fixed_picture(game_id: str, view: object) -> None:
    fixed = render.RENDERERS[game_id](view)
    assert render.render_png(game_id, view) == fixed
    assert render.render_png(game_id, view, perspective=None) == fixed


def test_the_seat_already_at_the_bottom_sees_the_fixed_picture() -> None:
    # Blue's corner is bottom left in the fixed picture; seat 3 of BUSY is Blue.
    busy = generator_tests.BUSY
    assert render.render_png("generator", busy, perspective=3) == gen.render(busy)
    # Seat 3 of six sits at S.
    six = orbs_tests.BUSY_6P
    assert six.points[3] == "S"
    assert render.render_png("orbs", six, perspective=3) == ob.render(six)
    assert render.render_png("orbs", six, perspective=0) != ob.render(six)


@pytest.mark.parametrize("seat", range(4))
def test_generator_seat_start_corner_is_bottom_left(seat: int) -> None:
    view = generator_tests.BUSY
    turns = gen.turns_for(view.colours, seat)
    x, y = gen.node_centre(LEVEL_START[1] + view.colours[seat], turns)
    assert x < gen.BOARD_SIZE / 2 < y
    # Every node stays on the board, and the nodes are a permutation of the fixed spots.
    spots = {(round(px, 6), round(py, 6)) for px, py in gen.node_points(turns)}
    assert spots == {(round(px, 6), round(py, 6)) for px, py in gen.NODE_XY}


@pytest.mark.parametrize("seat", range(6))
def test_orbs_seat_point_is_at_the_bottom(seat: int) -> None:
    view = orbs_tests.BUSY_6P
    turns = ob.turns_for(view.points, seat)
    assert POINT_ORDER[(POINT_ORDER.index(view.points[seat]) + turns) % 6] == "S"
    assert ob.turns_for(view.points, None) == 0
    # The zone's cells lie below the board's centre after turning.
    for name in view.zones[seat]:
        assert ob.cell_centre(view.board, view.wrap, name, turns)[1] > ob.BOARD_CENTRE[1]


@pytest.mark.parametrize(("game_id", "view", "bad"), [
    ("generator", generator_tests.START, 2),
    ("orbs", orbs_tests.START_2P, 2),
    ("generator", generator_tests.START, -1),
])  # fmt: skip
def test_a_seat_the_view_lacks_is_refused(game_id: str, view: object, bad: int) -> None:
    with pytest.raises(ValueError, match=r"seats|perspective"):
        render.render_png(game_id, view, perspective=bad)


def test_games_without_sides_still_ignore_perspective() -> None:
    view = arbos_tests.MIDGAME
    assert render.render_png("arbos", view, perspective=1) == render.render_png("arbos", view)
