"""Tests of the Generator board image (``render/generator.py``, spec ``generator.md``, "What the
board image must show").

Golden images: each view in :data:`GOLDEN_VIEWS` is rendered and its decoded pixels are compared
with ``tests/render/golden/generator/<name>.png``. After a deliberate change to the look,
regenerate them with

    GAMEROOM_UPDATE_GOLDEN=1 .venv/bin/pytest tests/render/test_render_generator.py -q

then open every changed PNG and look at it before committing. The goldens depend on Pillow's
bundled font and FreeType, so a Pillow upgrade may also require regenerating them.

Views are built by hand from ``GeneratorView``/``LastAction`` (the engine is not used), with
stacks written as in the spec's position notation (``"GY:gLS,R:rM"``).
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

import render
from engines.base import Outcome
from engines.generator import GeneratorView, LastAction
from engines.geometry.gryb import LEVEL, LEVEL_START, NAMES, NODE_COUNT, colour_of_letter, index
from render import generator as gen
from render import kit
from tests.render.golden import GOLDEN_ROOT, check_golden, decode, rgb

GOLDEN_DIR = GOLDEN_ROOT / "generator"

G, R, Y, B = range(4)


def nodes(*names: str) -> tuple[int, ...]:
    return tuple(sorted(index(name) for name in names))


def stacks(text: str, colours: tuple[int, ...]) -> tuple[tuple[int, int, str], ...]:
    """Stacks from position-notation entries: ``"GY:gLS"`` = green's L+S on node GY."""
    result = []
    for entry in filter(None, text.split(",")):
        node, _, pieces = entry.partition(":")
        result.append((index(node), colours.index(colour_of_letter(pieces[0])), pieces[1:]))
    return tuple(sorted(result))


def view(
    colours: tuple[int, ...],
    board: str,
    stashes: tuple[tuple[int, int, int] | None, ...],
    *,
    to_move: int | None = 0,
    roll: int | None = None,
    extra_turn: bool = False,
    count: int = 0,
    max_turns: int = 0,
    reachable: tuple[int, ...] = (),
    outcome: Outcome | None = None,
    last: LastAction | None = None,
    coupling: tuple[int, ...] = (),
) -> GeneratorView:
    return GeneratorView(
        colours=colours,
        stacks=stacks(board, colours),
        stashes=stashes,
        to_move=to_move,
        roll=roll,
        extra_turn=extra_turn,
        count=count,
        max_turns=max_turns,
        reachable=reachable,
        outcome=outcome,
        last=last,
        viewer=None,
        coupling=coupling,
    )


#: The initial 2-player position; Green rolled Y: its Medium may go to Y or GY.
START = view(
    (G, R), "G:gM,R:rM", ((5, 4, 5), (5, 4, 5)), to_move=0, roll=Y, reachable=nodes("Y", "GY")
)
#: Four players, towers of every kind. Red's Small just captured Blue's Small on GYBR, so Red
#: has an extra turn; it rolled Y, which reaches Y (its S captures Yellow's lone S), RY (the
#: L or the whole tower from R, or the L from RB), BY (up from BYR), BYY, BYRY and GYBY.
BUSY = view(
    (G, R, Y, B),
    "G:gM,GY:gLS,GRB:gM,YBRG:gS,R:rLMS,RB:rL,BYR:rMS,GYBR:rS,"
    "Y:yS,YB:yLM,YYY:yM,RGYY:yS,B:bM,BG:bL,YRG:bMS,BBBB:bS",
    ((3, 3, 4), (2, 3, 3), (3, 3, 4), (3, 3, 4)),
    to_move=1,
    roll=Y,
    extra_turn=True,
    count=37,
    max_turns=120,
    reachable=nodes("Y", "RY", "BY", "BYY", "BYRY", "GYBY"),
    last=LastAction(1, "move", "S", index("GYB"), index("GYBR"), (3, "S"), R),
)
#: Three players; Red resigned. Yellow just entered a Small on its start node, capturing
#: Green's Medium there, and waits for the roll of its extra turn.
RESIGNED = view(
    (G, R, Y),
    "G:gM,GB:gL,GGG:gM,GYBY:gS,Y:yS,YR:yLS,YGB:yM,BBY:yM",
    ((4, 3, 4), None, (3, 3, 4)),
    to_move=2,
    extra_turn=True,
    count=58,
    last=LastAction(2, "entry", "S", None, index("Y"), (0, "M"), Y),
)
#: colours=RB: Red moved its Large BG-BR and completed a power coupling (spec example:
#: S on GYBR, M on YBR, L on BR).
COUPLING = view(
    (R, B),
    "R:rM,BR:rL,YBR:rM,GYBR:rS,B:bLM,BB:bL,BBR:bMS,RBB:bM,YGBB:bS",
    ((4, 3, 4), (3, 2, 3)),
    to_move=None,
    count=96,
    max_turns=200,
    outcome=Outcome("coupling", (0,), ((0,), (1,))),
    last=LastAction(0, "move", "L", index("BG"), index("BR"), None, R),
    coupling=(index("GYBR"), index("YBR"), index("BR")),
)
#: Two players, Yellow and Blue: G and R are level-1 nodes but nobody's start. Blue's Medium
#: just came up from B to G (its tag goes above, clear of the arrow's head) and Yellow's tower
#: stands on R; both nodes are named by tags, as a stack on any other node is.
LEVEL1 = view(
    (Y, B),
    "G:bM,R:yLS,Y:yM,B:bL,BG:bS,YR:yL,RGY:yS",
    ((4, 4, 3), (4, 4, 4)),
    to_move=0,
    roll=G,
    count=23,
    reachable=nodes("RG", "YG", "YRG"),
    last=LastAction(1, "move", "M", index("B"), index("G"), None, G),
)

LABELS_4 = ("Zoë Ångström 🐉", "bob", "北の王", "a very long display name indeed")

GOLDEN_VIEWS: dict[str, tuple[GeneratorView, tuple[str, ...] | None]] = {
    "start_2p": (START, None),
    "busy_4p": (BUSY, LABELS_4),
    "resigned_3p_extra_turn": (RESIGNED, ("Søren", "quitter", "Ｙｏｋｏ")),
    "coupling_over": (COUPLING, ("alice", "bob")),
    "level1_tags_2p": (LEVEL1, ("yan", "bea")),
}


@pytest.mark.parametrize("name", sorted(GOLDEN_VIEWS))
def test_matches_golden_image(name: str, tmp_path: Path) -> None:
    board_view, labels = GOLDEN_VIEWS[name]
    data = gen.render(board_view, seat_labels=labels)
    check_golden(data, GOLDEN_DIR / f"{name}.png", tmp_path)


def test_same_view_gives_same_bytes() -> None:
    first = gen.render(BUSY, seat_labels=LABELS_4)
    assert gen.render(BUSY, seat_labels=LABELS_4) == first
    # Rebuilding the cached layer and sprites from scratch changes nothing either.
    for cached in (gen._board_layer, gen._layer, gen._stack_sprite, gen._tag_sprite,
                   kit.palette_image):  # fmt: skip
        cached.cache_clear()
    assert gen.render(BUSY, seat_labels=LABELS_4) == first


def test_renders_from_several_threads_alike() -> None:
    """The bot renders in worker threads; shared fonts and cached layers must not interfere."""
    views = [board_view for board_view, _ in GOLDEN_VIEWS.values()]
    expected = [gen.render(board_view) for board_view in views]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(gen.render, views * 3))
    assert results == expected * 3


def busiest_view() -> GeneratorView:
    """Every pyramid of four players on the board (an L+M+S tower on each of the 20 nodes of
    levels 1–2), every other node reachable, a capture and the longest labels: the largest
    PNG a view can make."""
    towers = [node for node in range(NODE_COUNT) if LEVEL[node] <= 2]
    board = tuple((node, k % 4, "LMS") for k, node in enumerate(towers))
    others = tuple(node for node in range(NODE_COUNT) if LEVEL[node] > 2)
    last = LastAction(0, "move", "LMS", index("GG"), index("G"), (1, "LMS"), G)
    return GeneratorView(
        (G, R, Y, B), board, ((0, 0, 0),) * 4, 0, G, True, 9999, 10000, others, None, last, None
    )


def test_png_is_a_small_palette_image_of_the_documented_size() -> None:
    for board_view in (START, BUSY, busiest_view()):
        data = gen.render(board_view, seat_labels=("W" * 40,) * len(board_view.colours))
        assert len(data) <= 250_000
        image = decode(data)
        assert (image.format, image.mode) == ("PNG", "P")
        assert image.size == (gen.WIDTH, gen.HEIGHT) == (1340, 1000)


def test_labels_fold_latin_accents_and_draw_other_scripts() -> None:
    """Latin accents fold to the Latin face; other scripts are drawn, not dropped."""
    labels = ("北の王", "bob")
    assert gen.render(START, seat_labels=labels) != gen.render(START, seat_labels=("", "bob"))
    folded = gen.render(START, seat_labels=("Zoë", "bob"))
    assert folded == gen.render(START, seat_labels=("Zoe", "bob"))
    assert folded != gen.render(START, seat_labels=("Zoe 🐉", "bob"))


Box = tuple[float, float, float, float]


def colour_count(image: Image.Image, colour: tuple[int, int, int], box: Box) -> int:
    """How many pixels of ``colour`` lie in ``box`` (left, top, right, bottom)."""
    region = image.crop((round(box[0]), round(box[1]), round(box[2]), round(box[3])))
    return sum(1 for value in region.get_flattened_data() if value == colour)


def around(node: int, r: float) -> Box:
    x, y = gen.node_centre(node)
    return (x - r, y - r, x + r, y + r)


def test_stacks_are_drawn_on_their_nodes_in_their_owners_hue() -> None:
    image = rgb(gen.render(BUSY))
    for node, owner, sizes in BUSY.stacks:
        hue = gen.HUE[BUSY.colours[owner]]
        # Left of the owner's letter, just above the bottom pyramid's base.
        x, y = gen.node_centre(node)
        point = (
            round(x - gen.PYRAMID[sizes[0]][1] / 2),
            round(y + gen._stack_height(sizes) / 2 - 4),
        )
        assert image.getpixel(point) == hue, NAMES[node]
    empty = index("GYY")
    assert all(colour_count(image, hue, around(empty, 10)) == 0 for hue in gen.HUE)


def ring_count(image: Image.Image, colour: tuple[int, int, int], node: int, r: float) -> int:
    """How many pixels of ``colour`` lie within ``r`` px of ``node``'s centre."""
    x, y = gen.node_centre(node)
    return sum(
        1
        for dx in range(-math.ceil(r), math.ceil(r) + 1)
        for dy in range(-math.ceil(r), math.ceil(r) + 1)
        if dx * dx + dy * dy <= r * r and image.getpixel((round(x) + dx, round(y) + dy)) == colour
    )


def test_reachable_nodes_are_ringed_and_others_are_not() -> None:
    image = rgb(gen.render(BUSY))
    for node in range(NODE_COUNT):
        radius = gen.DISC_RADIUS[LEVEL[node]]
        if node in BUSY.reachable:
            assert ring_count(image, gen.REACH, node, radius + 9) > 150, NAMES[node]
        else:
            # Rings of reachable neighbours come within a few pixels of a disc, never onto it.
            assert ring_count(image, gen.REACH, node, radius + 1) == 0, NAMES[node]


def test_last_move_is_framed_and_the_capture_shows_what_went_home() -> None:
    image = rgb(gen.render(BUSY))
    for name in ("GYB", "GYBR"):
        assert colour_count(image, gen.HIGHLIGHT, around(index(name), 26)) > 40, name
    assert colour_count(image, gen.HIGHLIGHT, around(index("RY"), 26)) == 0
    # The card with Blue's captured Small sits on the free diagonal above the leaf.
    x, y = gen._beside(index("GYBR"), 0, 1)
    card = (x - 24, y - 16, x + 24, y + 16)
    assert colour_count(image, gen.HUE[B], card) > 20
    assert BUSY.last is not None
    quiet = rgb(gen.render(replace(BUSY, last=replace(BUSY.last, captured=None))))
    assert colour_count(quiet, gen.HUE[B], card) == 0


def test_entry_is_marked_on_the_start_node() -> None:
    image = rgb(gen.render(RESIGNED))
    start = index("Y")
    x, y = gen._beside(start, gen._side_reach(start, "S") + 12, -1)
    assert colour_count(image, kit.WHITE, (x - 4, y - 4, x + 4, y + 4)) > 5  # the "+"
    assert colour_count(image, gen.HIGHLIGHT, (x - 10, y - 10, x + 10, y + 10)) > 100
    # Green's Medium went home: a green pyramid on the card right of the start node.
    cx, cy = gen._beside(start, gen._side_reach(start, "S") + 30, 1)
    card = (cx - 20, cy - 20, cx + 20, cy + 20)
    assert colour_count(image, gen.HUE[G], card) > 20
    assert RESIGNED.last is not None
    quiet = rgb(gen.render(replace(RESIGNED, last=replace(RESIGNED.last, captured=None))))
    assert colour_count(quiet, gen.HUE[G], card) == 0


def die_centre(players: int) -> tuple[int, int]:
    return (gen.PANEL_RIGHT - gen.DIE_HALF - 2, gen.turn_top(players) + gen.DIE_HALF + 44)


def test_die_shows_the_rolled_colour_or_waits_for_the_roll() -> None:
    x, y = die_centre(4)
    for roll in range(4):
        image = rgb(gen.render(replace(BUSY, roll=roll, reachable=())))
        assert colour_count(image, gen.HUE[roll], (x - 45, y - 45, x + 45, y + 45)) > 3000
    x, y = die_centre(3)
    pending = rgb(gen.render(RESIGNED))
    assert all(colour_count(pending, hue, (x - 45, y - 45, x + 45, y + 45)) == 0 for hue in gen.HUE)
    x, y = die_centre(2)
    over = rgb(gen.render(COUPLING))
    assert colour_count(over, gen.HUE[R], (x - 45, y - 45, x + 45, y + 45)) == 0


def test_extra_turn_badge_only_after_a_capture() -> None:
    top = gen.turn_top(4)
    box = (gen.PANEL_LEFT, top + 80, gen.PANEL_LEFT + 150, top + 112)
    with_badge = rgb(gen.render(BUSY))
    without = rgb(gen.render(replace(BUSY, extra_turn=False)))
    assert colour_count(with_badge, gen.HIGHLIGHT, box) > 2000
    assert colour_count(without, gen.HIGHLIGHT, box) == 0


@pytest.mark.parametrize(
    ("last", "text"),
    [
        (LastAction(0, "move", "MS", index("Y"), index("R"), None, R), "Green MS:Y-R"),
        (LastAction(1, "move", "S", index("GYB"), index("GYBR"), (0, "LS"), R),
         "Red S:GYB-GYBR took Green LS"),
        (LastAction(2, "entry", "L", None, index("Y"), None, Y), "Yellow +L"),
        (LastAction(2, "entry", "S", None, index("Y"), (1, "M"), Y), "Yellow +S took Red M"),
        (LastAction(3, "pass", "", None, None, None, G), "Blue passed"),
        (LastAction(1, "resign", "", None, None, None, None), "Red resigned"),
    ],
)  # fmt: skip
def test_describe_action_uses_canonical_notation(last: LastAction, text: str) -> None:
    assert gen.describe_action(last, (G, R, Y, B)) == text


def test_describe_action_names_the_seats_colours() -> None:
    last = LastAction(0, "move", "L", index("BG"), index("BR"), (1, "S"), R)
    assert gen.describe_action(last, (R, B)) == "Red L:BG-BR took Blue S"


def test_headline_and_count() -> None:
    assert gen.headline(START) == ("Green to act", "")
    assert gen.headline(BUSY) == ("Red to act", "")
    assert gen.headline(COUPLING) == ("Red wins", "Power coupling, ringed")
    assert gen.headline(replace(COUPLING, coupling=())) == ("Red wins", "Power coupling")
    draw = replace(COUPLING, outcome=Outcome("turn_limit", (), ((0, 1),)), count=200)
    assert gen.headline(draw) == ("Draw", "Turn limit reached")
    left = replace(RESIGNED, to_move=None, outcome=Outcome("resignation", (2,), ((2,), (0, 1))))
    assert gen.headline(left) == ("Yellow wins", "Last player left")
    assert gen.count_text(START) == "0 turns played"
    assert gen.count_text(replace(START, count=1)) == "1 turn played"
    assert gen.count_text(BUSY) == "37 of 120 turns played"


# ---- the layout --------------------------------------------------------------------------------


def test_layout_follows_the_spec_and_no_discs_overlap() -> None:
    """G top-left, R top-right, Y bottom-right, B bottom-left, the head at the centre; leaves
    on an even 16 x 16 grid; every disc clear of every other and of the board's edges."""
    (gx, gy), (rx, ry), (yx, yy), (bx, by) = (gen.node_centre(index(c)) for c in "GRYB")
    assert gx == bx < gen.CENTRE[0] < rx == yx
    assert gy == ry < gen.CENTRE[1] < yy == by
    leaves = [gen.node_centre(n) for n in range(NODE_COUNT) if LEVEL[n] == 4]
    assert len({x for x, _ in leaves}) == len({y for _, y in leaves}) == 16
    centres = [*(gen.node_centre(n) for n in range(NODE_COUNT)), gen.CENTRE]
    radii = [*(gen.DISC_RADIUS[LEVEL[n]] for n in range(NODE_COUNT)), gen.DISC_RADIUS[0]]
    for i, ((x1, y1), r1) in enumerate(zip(centres, radii, strict=True)):
        assert r1 <= x1 <= gen.BOARD_SIZE - r1
        assert r1 <= y1 <= gen.HEIGHT - r1
        for (x2, y2), r2 in zip(centres[i + 1 :], radii[i + 1 :], strict=True):
            assert math.hypot(x1 - x2, y1 - y2) > r1 + r2 + 4


def test_the_largest_stack_a_node_may_hold_covers_no_other_disc() -> None:
    """GEN-8's level limits keep every drawn stack clear of its neighbours' discs."""
    largest = {1: "LMS", 2: "LMS", 3: "MS", 4: "S"}
    for node in range(NODE_COUNT):
        sprite, ax, ay = gen._stack_sprite(0, largest[LEVEL[node]])
        x, y = gen.node_centre(node)
        left, top, right, bottom = sprite.getbbox() or (0, 0, 0, 0)
        box = (x - ax + left, y - ay + top, x - ax + right, y - ay + bottom)
        for other in range(NODE_COUNT):
            if other == node:
                continue
            ox, oy = gen.node_centre(other)
            nearest_x = min(max(ox, box[0]), box[2])
            nearest_y = min(max(oy, box[1]), box[3])
            gap = math.hypot(ox - nearest_x, oy - nearest_y)
            # The stack's bounding box may graze a disc's rim, never reach its letter.
            assert gap > gen.DISC_RADIUS[LEVEL[other]] * 0.6, (NAMES[node], NAMES[other])


def test_badge_spots_are_clear_of_other_nodes() -> None:
    for node in range(NODE_COUNT):
        reach = gen.DISC_RADIUS[LEVEL[node]] + 10
        for side in (-1, 1):
            sx, sy = gen._beside(node, reach, side)
            assert gen.BADGE_MARGIN <= sx <= gen.BOARD_SIZE - gen.BADGE_MARGIN
            assert gen.BADGE_MARGIN <= sy <= gen.HEIGHT - gen.BADGE_MARGIN
            for other in range(NODE_COUNT):
                if other != node:
                    ox, oy = gen.node_centre(other)
                    distance = math.hypot(sx - ox, sy - oy)
                    assert distance >= gen.DISC_RADIUS[LEVEL[other]] + 8, NAMES[node]


def test_palette_keeps_every_meaningful_colour_exact() -> None:
    colours = gen._BASE_COLOURS
    image = Image.new("RGB", (len(colours), 1))
    for x, colour in enumerate(colours):
        image.putpixel((x, 0), colour)
    mapped = image.quantize(palette=kit.palette_image(gen.PALETTE), dither=Image.Dither.NONE)
    assert mapped.convert("RGB").tobytes() == image.tobytes()
    assert len(gen.PALETTE) <= 256


# ---- bad input ---------------------------------------------------------------------------------


def test_rejects_a_wrong_view_type_or_labels() -> None:
    with pytest.raises(TypeError, match="GeneratorView"):
        gen.render(object())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="one string"):
        gen.render(START, seat_labels="ab")
    with pytest.raises(ValueError, match="2 names"):
        gen.render(START, seat_labels=("only one",))
    with pytest.raises(ValueError, match="4 names"):
        gen.render(BUSY, seat_labels=("a", "b", "c"))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"colours": (G,)}, "2–4 distinct colours"),
        ({"colours": (G, G)}, "2–4 distinct colours"),
        ({"colours": (G, 4)}, "2–4 distinct colours"),
        ({"stashes": ((5, 4, 5),)}, "2 stashes"),
        ({"stashes": ((5, 4, 6), (5, 4, 5))}, "three counts"),
        ({"stashes": ((5, 4), (5, 4, 5))}, "three counts"),
        ({"stacks": ((1, 1, "M"), (0, 0, "M"))}, "node order"),
        ({"stacks": ((0, 0, "M"), (0, 1, "M"))}, "node order"),
        ({"stacks": ((340, 0, "S"),)}, "node order"),
        ({"stacks": ((0, 2, "M"),)}, "no seat"),
        ({"stacks": ((0, 0, "SM"),)}, "is not one of"),
        ({"stacks": ((index("GGG"), 0, "L"),)}, "level 3"),
        ({"stacks": ((index("GGGG"), 0, "MS"),)}, "level 4"),
        ({"to_move": 2}, "seats"),
        ({"roll": 4}, "roll"),
        ({"reachable": (340,)}, "off the board"),
        ({"coupling": (340,)}, "off the board"),
        ({"coupling": (-1,)}, "off the board"),
        ({"count": -1}, "at least 0"),
        ({"outcome": Outcome("coupling", (5,), ((5,),))}, "seats"),
        ({"last": LastAction(0, "move", "M", 0, None, None, G)}, "kind 'move'"),
        ({"last": LastAction(0, "entry", "M", 0, 0, None, G)}, "kind 'entry'"),
        ({"last": LastAction(0, "pass", "", None, 1, None, G)}, "kind 'pass'"),
        ({"last": LastAction(0, "jump", "", None, None, None, G)}, "kind 'jump'"),
        ({"last": LastAction(0, "move", "SM", 0, 1, None, G)}, "moves one of"),
        ({"last": LastAction(0, "move", "M", 0, 1, (3, "S"), G)}, "captured"),
        ({"last": LastAction(0, "move", "M", 0, 999, None, G)}, "off the board"),
        ({"last": LastAction(0, "move", "M", 0, 1, None, 7)}, "roll"),
    ],
)
def test_rejects_a_malformed_view(change: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        gen.render(replace(START, **change))  # type: ignore[arg-type]


def test_rejects_pyramids_of_a_resigned_seat() -> None:
    with pytest.raises(ValueError, match="no seat still in"):
        gen.render(replace(RESIGNED, stacks=((index("R"), 1, "M"),)))


def test_render_png_dispatches_to_the_generator_renderer() -> None:
    """``render/__init__.py`` must list this renderer under the engine's id."""
    assert render.RENDERERS["generator"] is gen.render
    assert render.render_png("generator", START) == gen.render(START)


@pytest.mark.parametrize("turns", range(4))
def test_a_start_label_moves_above_its_node_rather_than_cover_a_node_tag(turns: int) -> None:
    """The seat names under the start nodes and the full-name tags of crowded quadrants met
    (Red's "R RED" over the tag of RGYY, seen from Green's side): where a label below would
    cover a tag it goes above the node, so no label covers a tag in the busy position on any
    turn of the board, and the rest stay below."""
    xy = gen.node_points(turns)
    stacks = {node: sizes for node, _, sizes in BUSY.stacks}
    tags = [gen._sprite_box(*tag) for tag in gen._tags(BUSY, stacks, turns)]
    labels = gen._start_labels(BUSY, xy, tags)
    above = 0
    for (sprite, x, y), colour in zip(labels, BUSY.colours, strict=True):
        assert gen._overlaps(gen._sprite_box(sprite, x, y), tags) == 0
        above += y < xy[LEVEL_START[1] + colour][1]
    assert above < len(labels)  # below stays the rule
    assert above == (1 if turns in (2, 3) else 0)  # from Red's and Green's sides: R RED


def tagged(board_view: GeneratorView, turns: int = 0) -> dict[str, tuple[float, float]]:
    """The node names :func:`gen._tags` tags, with where each tag goes."""
    stacks = {node: sizes for node, _, sizes in board_view.stacks}
    sprites = {id(gen._tag_sprite(name)): name for name in NAMES}
    return {sprites[id(sprite)]: (x, y) for sprite, x, y in gen._tags(board_view, stacks, turns)}


@pytest.mark.parametrize("board_view", [START, LEVEL1, RESIGNED, COUPLING, BUSY])
def test_every_occupied_node_shows_its_name(board_view: GeneratorView) -> None:
    """A stack hides its node's name (exploratory pass 10: Red's Medium on B showed only an
    "R"): a level-1 node that is no seat's start node gets a tag like a level-2 node, and a
    start node in play has its seat's label (``G  GREEN``), which starts with its name."""
    names = tagged(board_view)
    starts = {LEVEL_START[1] + colour for colour in board_view.colours}
    for node, _, _ in board_view.stacks:
        assert (NAMES[node] in names) != (node in starts), NAMES[node]


@pytest.mark.parametrize("turns", range(4))
def test_a_tag_goes_above_its_node_rather_than_hide_the_arrow_head(turns: int) -> None:
    """Blue's Medium came from B to G: seen with B below G, a tag under G would cover the
    arrow's head, so it goes above; seen from the side or from above, it stays below."""
    xy = gen.node_points(turns)
    g, b = index("G"), index("B")
    _, tag_y = tagged(LEVEL1, turns)["G"]
    assert (tag_y < xy[g][1]) == (xy[b][1] > xy[g][1] + 1), turns
    stacks = {node: sizes for node, _, sizes in LEVEL1.stacks}
    assert LEVEL1.last is not None
    head = gen._arrow_shapes(LEVEL1.last, stacks, xy)[1]
    tags = gen._tags(LEVEL1, stacks, turns)
    assert not any(gen._box_meets(gen._sprite_box(*tag), head) for tag in tags)
