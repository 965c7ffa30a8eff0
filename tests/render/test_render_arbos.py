"""Tests of the Arbos board image (``render/arbos.py``, spec ``arbos.md`` sections 2 and 10).

Golden images: each view in :data:`GOLDEN_VIEWS` is rendered and its decoded pixels (mode,
size and RGB values) are compared with ``tests/render/golden/arbos/<name>.png``. After a
deliberate change to the look, regenerate them with

    GAMEROOM_UPDATE_GOLDEN=1 .venv/bin/pytest tests/render/test_render_arbos.py -q

then open every changed PNG and look at it before committing. The goldens depend on Pillow's
bundled font and FreeType, so a Pillow upgrade may also require regenerating them. On a
mismatch the rendered image is written next to pytest's temporary files for comparison.

Views are built by hand from position-notation rows (spec section 7), with trees, best pairs,
linked seeds and scores worked out here by a plain flood fill and an exhaustive search over
pairs (A4, A20), so these tests depend neither on the engine's move logic nor on its scoring.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import render.arbos as ar
from engines.arbos import BLACK, EMPTY, SEED, SIZE, WHITE, ArbosAction, ArbosView
from engines.base import Outcome
from render import kit
from tests.render.golden import GOLDEN_ROOT, check_golden, decode, rgb

GOLDEN_DIR = GOLDEN_ROOT / "arbos"
ROW_LETTERS = "ABCDEFGHIJKLMNOPQRST"
TOKENS = {"w": WHITE, "b": BLACK, "g": SEED}

# ---- building views by hand ---------------------------------------------------------------------


def c(name: str) -> int:
    """The cell number of a name like ``"K10"`` (A2): row letter, then column 1–20."""
    return ROW_LETTERS.index(name[0].upper()) * SIZE + int(name[1:]) - 1


def cells(names: str) -> tuple[int, ...]:
    """``cells("K5 K6")`` → the cell numbers, in the order given."""
    return tuple(c(name) for name in names.split())


def board(**rows: str) -> tuple[int, ...]:
    """A board from position-notation rows by letter (spec section 7), other rows empty:
    ``board(E="4wgb13")`` has a White spore on E5, a seed on E6 and a Black spore on E7."""
    values = [EMPTY] * (SIZE * SIZE)
    for letter, row in rows.items():
        column = 0
        for run, token in re.findall(r"(\d+)|([wbg])", row):
            if run:
                column += int(run)
            else:
                values[ROW_LETTERS.index(letter) * SIZE + column] = TOKENS[token]
                column += 1
        assert column == SIZE, f"row {letter} covers {column} cells, not 20"
    return tuple(values)


def neighbours(cell: int) -> list[int]:
    """The up to 8 cells around ``cell`` (A3)."""
    row, column = divmod(cell, SIZE)
    return [
        (row + dr) * SIZE + column + dc
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= row + dr < SIZE and 0 <= column + dc < SIZE
    ]


def trees_of(values: tuple[int, ...], colour: int) -> tuple[tuple[int, ...], ...]:
    """A4: the maximal groups of ``colour`` spores joined through neighbours, each sorted,
    ordered by first cell."""
    seen: set[int] = set()
    trees = []
    for start, value in enumerate(values):
        if value != colour or start in seen:
            continue
        seen.add(start)
        tree, stack = [start], [start]
        while stack:
            for n in neighbours(stack.pop()):
                if values[n] == colour and n not in seen:
                    seen.add(n)
                    tree.append(n)
                    stack.append(n)
        trees.append(tuple(sorted(tree)))
    return tuple(trees)


def linked(values: tuple[int, ...], tree: tuple[int, ...]) -> set[int]:
    """The seeds linked to ``tree``: seeds next to at least one of its spores."""
    return {n for cell in tree for n in neighbours(cell) if values[n] == SEED}


def best_pair(
    values: tuple[int, ...], trees: tuple[tuple[int, ...], ...]
) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """A20 by exhaustive search: (score, the first best pair of tree indices, its seeds)."""
    pairs: list[tuple[int, ...]] = list(combinations(range(len(trees)), 2)) or [
        (i,) for i in range(len(trees))
    ]
    best: tuple[int, tuple[int, ...], tuple[int, ...]] = (0, (), ())
    for pair in pairs:
        seeds = set().union(*(linked(values, trees[i]) for i in pair))
        if len(seeds) > best[0] or not best[1]:
            best = (len(seeds), pair, tuple(sorted(seeds)))
    return best


def make_view(
    values: tuple[int, ...],
    *,
    phase: str = "play",
    to_move: int | None = 0,
    setup_left: tuple[int, int] = (0, 0),
    hands: tuple[int, int] = (0, 0),
    supply: tuple[int, int] | None = None,
    passes: int = 0,
    termination: str | None = None,
    last: tuple[ArbosAction, ...] = (),
) -> ArbosView:
    """An :class:`ArbosView` of ``values`` with everything derived worked out here: trees,
    scores, best pairs, linked seeds, the due prune, (unless given) supplies of 80 minus the
    spores on the board, and with a ``termination`` the outcome of spec section 8."""
    trees = (trees_of(values, WHITE), trees_of(values, BLACK))
    scored = [best_pair(values, trees[seat]) for seat in (0, 1)]
    if supply is None:
        supply = (80 - values.count(WHITE), 80 - values.count(BLACK))
    prune = max(0, len(trees[to_move]) - 3) if to_move is not None else 0
    scores = (scored[0][0], scored[1][0])
    outcome = None
    if termination is not None:
        winner = 1 if scores[1] >= scores[0] else 0
        outcome = Outcome(
            termination, (winner,), ((winner,), (1 - winner,)), dict(enumerate(scores))
        )
    return ArbosView(
        board=values,
        phase=phase,
        to_move=to_move,
        setup_left=setup_left,
        hands=hands,
        supply=supply,
        passes=passes,
        prune=prune,
        trees=trees,
        scores=scores,
        best_pair=(scored[0][1], scored[1][1]),
        linked_seeds=(scored[0][2], scored[1][2]),
        outcome=outcome,
        last=last,
        viewer=None,
    )


# ---- the views ----------------------------------------------------------------------------------

#: Twenty seeds as a random setup spreads them (every two at Chebyshev distance ≥ 3, A7).
SEEDS = {
    "A": "4g15", "C": "10g8g", "E": "7g12", "F": "19g", "G": "1g11g6", "I": "10g9",
    "K": "g5g13", "L": "3g16", "N": "8g8g2", "O": "13g6", "R": "6g5g4g2", "S": "3g5g10",
    "T": "g19",
}  # fmt: skip

EMPTY_SETUP = make_view(board(), phase="setup", setup_left=(10, 10))
#: After a random setup: every seed was drawn, White opens.
OPENING = make_view(
    board(**SEEDS),
    phase="opening",
    last=tuple(
        ArbosAction(None, "setup", placed=(cell,))
        for cell, value in enumerate(board(**SEEDS))
        if value == SEED
    ),
)
#: Mid-game on 17 of those seeds: three trees each, each best pair linked to four seeds, a
#: White and a Black tree touching at F10/G11, seeds in both hands. Black just passed.
MIDGAME_ROWS = {
    **SEEDS,
    "A": "20", "T": "20", "C": "10g9",
    "D": "8ww10", "E": "7gw11", "F": "8ww9g", "G": "1g8b2gw5", "H": "9bb4ww3",
    "I": "10gb8", "J": "9bb9", "K": "g3wwg13", "L": "3gw15", "N": "8gb7g2", "O": "9bbbbg6",
    "R": "6g3bbg4g2", "S": "3g5gb9",
}  # fmt: skip
MIDGAME = make_view(
    board(**MIDGAME_ROWS),
    hands=(1, 2),
    passes=1,
    last=(ArbosAction(1, "pass"),),
)
#: White replaced the Black spore on O11 with a seed from hand, cutting Black's O-row tree in
#: two: Black now has 4 trees and must prune one before acting.
PRUNE = make_view(
    board(**{**MIDGAME_ROWS, "O": "9bgbbg6"}),
    to_move=1,
    hands=(0, 2),
    last=(ArbosAction(0, "replace", placed=cells("O11"), replaced=BLACK),),
)
#: Black pruned N10+O10, then doubled on P13 and S12 (discarding a seed from hand).
DOUBLE = make_view(
    board(**{**MIDGAME_ROWS, "N": "8g8g2", "O": "10gbbg6", "P": "12b7", "S": "3g5gbb8"}),
    hands=(0, 1),
    last=(
        ArbosAction(1, "prune", removed=cells("N10 O10")),
        ArbosAction(1, "double", placed=cells("S12 P13")),
    ),
)
#: Game over by two passes, 3-3: Black wins the tie (A21). Each best pair is outlined.
FINISHED = make_view(
    board(**{**MIDGAME_ROWS, "D": "8w11", "R": "6g4bg4g2", "S": "3g5g10"}),
    to_move=None,
    passes=2,
    termination="passes",
    last=(ArbosAction(1, "pass"),),
)

LABELS = ("Zoë Ångström 🌱", "北の王")

GOLDEN_VIEWS: dict[str, tuple[ArbosView, tuple[str, str] | None]] = {
    "empty_setup": (EMPTY_SETUP, None),
    "opening": (OPENING, ("alice", "bob")),
    "midgame_pass": (MIDGAME, LABELS),
    "prune_after_replace": (PRUNE, ("alice", "a very long display name indeed")),
    "double_after_prune": (DOUBLE, ("alice", "bob")),
    "finished": (FINISHED, ("alice", "bob")),
}


# ---- golden images ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GOLDEN_VIEWS))
def test_matches_golden_image(name: str, tmp_path: Path) -> None:
    board_view, labels = GOLDEN_VIEWS[name]
    data = ar.render(board_view, seat_labels=labels)
    check_golden(data, GOLDEN_DIR / f"{name}.png", tmp_path)


def test_golden_views_are_what_their_names_say() -> None:
    """The hand-built views really show the situations the goldens are meant to pin."""
    assert EMPTY_SETUP.board.count(EMPTY) == 400
    assert OPENING.board.count(SEED) == 20
    seeds = [divmod(cell, SIZE) for cell, value in enumerate(OPENING.board) if value == SEED]
    assert all(max(abs(a - c), abs(b - d)) >= 3 for (a, b), (c, d) in combinations(seeds, 2))
    assert len(OPENING.last) == 20
    assert [len(trees) for trees in MIDGAME.trees] == [3, 3]
    assert MIDGAME.passes == 1
    assert (PRUNE.to_move, PRUNE.prune, len(PRUNE.trees[1])) == (1, 1, 4)
    assert [len(trees) for trees in DOUBLE.trees] == [3, 3]
    assert DOUBLE.prune == 0
    assert FINISHED.scores == (3, 3)
    assert FINISHED.outcome is not None
    assert FINISHED.outcome.winners == (1,)
    assert all(len(pair) == 2 for pair in FINISHED.best_pair)


# ---- what the picture shows ---------------------------------------------------------------------


def pixel(image: Image.Image, xy: tuple[float, float]) -> tuple[int, int, int]:
    value = image.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(value, tuple)
    return (value[0], value[1], value[2])


def count(image: Image.Image, colour: tuple[int, int, int], box: tuple[int, int, int, int]) -> int:
    """How many pixels of ``colour`` lie in ``box`` (left, top, right, bottom)."""
    return sum(1 for value in image.crop(box).get_flattened_data() if value == colour)


def around(cell: int, reach: int = ar.CELL // 2 + 2) -> tuple[int, int, int, int]:
    x, y = ar.cell_centre(cell)
    return (x - reach, y - reach, x + reach, y + reach)


def test_picture_size_and_format() -> None:
    image = decode(ar.render(MIDGAME))
    assert image.format == "PNG"
    assert image.mode == "P"
    assert image.size == (ar.WIDTH, ar.HEIGHT) == (1000, 776)
    assert 36 <= ar.CELL <= 40


def test_grid_follows_the_notation() -> None:
    """A2/D-A1: A1 top left, A20 top right, T1 bottom left, each cell ``CELL`` px apart."""
    a1, a20, t1 = (ar.cell_centre(c(name)) for name in ("A1", "A20", "T1"))
    assert a1[1] == a20[1] < t1[1]
    assert a1[0] == t1[0] < a20[0]
    assert ar.cell_centre(c("B2")) == (a1[0] + ar.CELL, a1[1] + ar.CELL)
    assert a20[0] + ar.CELL // 2 == ar.BOARD_RIGHT < ar.PANEL_LEFT


def test_tokens_are_drawn_on_their_cells() -> None:
    image = rgb(ar.render(MIDGAME))
    for cell, value in enumerate(MIDGAME.board):
        x, y = ar.cell_centre(cell)
        if value == WHITE:
            assert pixel(image, (x, y)) == ar.WHITE_FILL, cell
        elif value == BLACK:
            assert pixel(image, (x, y)) == ar.BLACK_FILL, cell
        elif value == SEED:
            # The leaf runs from lower left to upper right; the lower right shows the seed.
            assert pixel(image, (x + 5, y + 5)) == ar.SEED_FILL, cell
            assert pixel(image, (x, y)) != ar.SEED_FILL, cell  # the leaf
        else:
            assert pixel(image, (x, y)) in (ar.BOARD, *ar.TREE_TINT), cell


def midpoint(first: str, second: str) -> tuple[float, float]:
    """The pixel halfway between the centres of two cells."""
    (x0, y0), (x1, y1) = ar.cell_centre(c(first)), ar.cell_centre(c(second))
    return ((x0 + x1) / 2, (y0 + y1) / 2)


def test_trees_are_tinted_and_joined() -> None:
    """Between two neighbouring spores of one tree lie its tint and a connector."""
    image = rgb(ar.render(MIDGAME))
    x, y = midpoint("D9", "D10")  # White, side by side
    assert pixel(image, (x, y)) == ar.CONNECTOR[0]
    assert pixel(image, (x, y - 8)) == ar.TREE_TINT[0]
    x, y = midpoint("H11", "I12")  # Black, corner to corner
    assert pixel(image, (x, y)) == ar.CONNECTOR[1]
    assert pixel(image, (x + 6, y - 6)) == ar.TREE_TINT[1]
    # Nothing joins spores of different colours, even when they touch (F10 White, G11 Black).
    assert pixel(image, midpoint("F10", "G11")) not in ar.CONNECTOR


def test_seeds_linked_to_a_best_pair_are_ringed_in_that_players_colour() -> None:
    image = rgb(ar.render(MIDGAME))
    for cell in MIDGAME.linked_seeds[0]:  # White's ring: white with dark edges
        assert count(image, ar.WHITE_FILL, around(cell)) > 40, cell
    for cell in MIDGAME.linked_seeds[1]:  # Black's ring: black
        assert count(image, kit.INK, around(cell)) > 100, cell
    for name in ("G2", "K1", "F20"):  # linked to nobody's best pair
        assert count(image, kit.INK, around(c(name))) == 0, name
        assert count(image, ar.WHITE_FILL, around(c(name))) == 0, name


def test_a_seed_linked_to_both_best_pairs_wears_both_rings() -> None:
    both = make_view(board(E="4wgb13", F="3w3b12"))  # E6 touches a White and a Black tree
    white = make_view(board(E="4wg14", F="3w16"))  # only the White tree
    assert both.linked_seeds == ((c("E6"),), (c("E6"),))
    assert white.linked_seeds == ((c("E6"),), ())
    image, white_only = rgb(ar.render(both)), rgb(ar.render(white))
    seed = around(c("E6"), 16)
    assert count(image, ar.WHITE_FILL, seed) == count(white_only, ar.WHITE_FILL, seed) > 40
    assert count(image, kit.INK, seed) > count(white_only, kit.INK, seed) + 100  # Black's ring


def test_last_turn_frames_placed_cells_and_crosses_pruned_ones() -> None:
    image = rgb(ar.render(DOUBLE))
    for name in ("P13", "S12"):  # the double
        x, y = ar.cell_centre(c(name))
        assert pixel(image, (x, y + ar.CELL // 2 - 2)) == ar.LAST, name
    for name in ("N10", "O10"):  # the prune
        assert pixel(image, ar.cell_centre(c(name))) == ar.PRUNED, name
    assert count(image, ar.LAST, around(c("O12"), 16)) == 0
    assert count(image, ar.PRUNED, around(c("O12"), 16)) == 0
    quiet = rgb(ar.render(MIDGAME))  # a pass marks no cell
    board_box = (ar.BOARD_LEFT, ar.BOARD_TOP, ar.BOARD_RIGHT, ar.BOARD_BOTTOM)
    assert count(quiet, ar.LAST, board_box) == count(quiet, ar.PRUNED, board_box) == 0


def test_replace_is_marked_with_the_colour_sent_back() -> None:
    x, y = ar.cell_centre(c("O11"))
    badge = (x + 5, y - 20, x + 20, y - 5)  # the top-right corner, clear of the spore on O12
    for colour, shown, other in ((BLACK, ar.BLACK_FILL, ar.WHITE_FILL),
                                 (WHITE, ar.WHITE_FILL, ar.BLACK_FILL)):  # fmt: skip
        last = (replace(PRUNE.last[0], replaced=colour),)
        image = rgb(ar.render(replace(PRUNE, last=last)))
        assert count(image, ar.PRUNED, badge) > 40, colour
        assert count(image, shown, badge) > 30, colour
        assert count(image, other, badge) < 10, colour  # anti-aliasing may brush it


def test_best_pairs_are_outlined_only_at_the_end() -> None:
    over, playing = rgb(ar.render(FINISHED)), rgb(ar.render(replace(FINISHED, outcome=None)))
    for seat, trees in enumerate(FINISHED.trees):
        for index, tree in enumerate(trees):
            x, y = ar.cell_centre(tree[0])
            band = (x - 21, y - 21, x + 21, y + 21)
            mark = ar.MARK[seat]
            outlined = count(over, mark, band) - count(playing, mark, band)
            if index in FINISHED.best_pair[seat]:
                assert outlined > 20, (seat, index)
            else:
                assert outlined == 0, (seat, index)


def panel_colours(view: ArbosView) -> set[tuple[int, int, int]]:
    """The colours in the panel above the key."""
    panel = rgb(ar.render(view)).crop((ar.PANEL_LEFT, 0, ar.WIDTH, ar.KEY_TOP - 12))
    data = panel.tobytes()
    return {(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)}


def test_prune_banner_and_pass_note_appear_only_when_due() -> None:
    assert ar.BANNER_TINT in panel_colours(PRUNE)
    assert ar.NOTE_TINT in panel_colours(MIDGAME)
    for quiet in (OPENING, DOUBLE, FINISHED):
        assert not {ar.BANNER_TINT, ar.NOTE_TINT} & panel_colours(quiet)


def test_player_to_move_or_winner_is_boxed() -> None:
    assert ar.ACTIVE_TINT in panel_colours(MIDGAME)
    assert ar.ACTIVE_TINT in panel_colours(FINISHED)  # the winner
    drawing = make_view(board(**SEEDS), phase="setup", to_move=None, setup_left=(3, 4))
    assert ar.ACTIVE_TINT not in panel_colours(drawing)


def texts(view: ArbosView) -> list[str]:
    return [text for text, _, _ in ar._status_lines(view)]


def test_status_tells_the_phase_turn_and_result() -> None:
    assert texts(EMPTY_SETUP) == ["Setup", "White places a seed", "20 seeds left to place"]
    drawing = make_view(board(**SEEDS), phase="setup", to_move=None, setup_left=(3, 4))
    assert texts(drawing) == ["Setup", "Drawing random seeds", "7 seeds left to place"]
    assert texts(OPENING) == ["Opening", "White to move", "and must place a spore"]
    assert texts(PRUNE) == ["Play", "Black to move"]
    assert texts(FINISHED) == ["Black wins 3-3", "(ties go to Black)", "Two passes in a row"]
    white_wins = replace(FINISHED, outcome=Outcome("no_moves", (0,), ((0,), (1,)), {0: 5, 1: 2}))
    assert texts(white_wins) == ["White wins 5-2", "Neither player can act"]
    resigned = replace(FINISHED, outcome=Outcome.win("resignation", 0, 2))
    assert texts(resigned) == ["White wins", "Black resigned"]
    agreed = replace(FINISHED, outcome=Outcome.draw("agreement", 2))  # the bot's /draw
    assert texts(agreed) == ["Draw", "Agreed by both players"]


def test_status_texts_fit_the_panel() -> None:
    width = ar.TEXT_RIGHT - ar.TEXT_LEFT
    drawing = make_view(board(**SEEDS), phase="setup", to_move=None, setup_left=(10, 10))
    endings = [
        replace(FINISHED, outcome=Outcome(name, (0,), ((0,), (1,)), {0: 20, 1: 19}))
        for name in ("passes", "no_moves")
    ]
    endings.append(replace(FINISHED, outcome=Outcome.win("resignation", 1, 2)))
    for view in (EMPTY_SETUP, drawing, OPENING, MIDGAME, PRUNE, *endings):
        for text, size, bold in ar._status_lines(view):
            assert kit.bundled_font(size).getlength(text) <= width - 2 * bold, text
    # An unforeseen termination name is drawn smaller rather than cut off.
    assert ar._fitting_size("a termination nobody foresaw at all", 18, False) < 18


@pytest.mark.parametrize(
    ("last", "lines"),
    [
        ((ArbosAction(0, "spore", placed=cells("K5")),), ["White: spore K5"]),
        ((ArbosAction(1, "seed", placed=cells("A1")),), ["Black: seed A1"]),
        ((ArbosAction(0, "setup", placed=cells("T20")),), ["White: seed T20"]),
        ((ArbosAction(None, "setup", placed=cells("J9")),), ["Seed drawn at J9"]),
        (OPENING.last, ["Setup drew 20 seeds"]),
        ((ArbosAction(1, "replace", placed=cells("K6"), replaced=WHITE),), ["Black: replace K6"]),
        ((ArbosAction(0, "double", placed=cells("F9 E5")),), ["White: double E5 F9"]),
        ((ArbosAction(1, "pass"),), ["Black: pass"]),
        (DOUBLE.last, ["Black: prune N10", "Black: double P13 S12"]),
        (
            (ArbosAction(1, "prune", removed=cells("T20 J5 J6 A1 B2 K7")),),
            ["Black: prune A1 J5 T20"],
        ),
    ],
)
def test_describe_turn_uses_the_notation(last: tuple[ArbosAction, ...], lines: list[str]) -> None:
    """Section 6: cells in reading order; a prune names each tree by its first cell."""
    assert ar.describe_turn(last) == lines


# ---- robustness -------------------------------------------------------------------------------


def busy_view() -> ArbosView:
    """All 400 cells taken by a tangle of spores and seeds, every mark in use: about the
    largest PNG the renderer makes."""
    values = tuple((WHITE, BLACK, SEED, WHITE, BLACK)[(r * 7 + k * 3 + r * k) % 5]
                   for r in range(SIZE) for k in range(SIZE))  # fmt: skip
    last = (
        ArbosAction(0, "prune", removed=cells("A1 A2 C5")),
        ArbosAction(0, "double", placed=cells("K10 T20")),
        ArbosAction(1, "replace", placed=cells("B7"), replaced=WHITE),
    )
    return make_view(values, to_move=None, supply=(0, 0), termination="no_moves", last=last)


def test_busy_full_board_stays_small() -> None:
    view = busy_view()
    assert len(view.trees[0]) > 3
    assert view.board.count(EMPTY) == 0
    data = ar.render(view, seat_labels=("W" * 60, "M" * 60))
    assert len(data) <= 200_000
    assert decode(data).size == (ar.WIDTH, ar.HEIGHT)


def test_same_view_gives_same_bytes() -> None:
    first = ar.render(FINISHED, seat_labels=LABELS)
    assert ar.render(FINISHED, seat_labels=LABELS) == first
    # Rebuilding the cached layer, sprites and text from scratch changes nothing either.
    for cached in (ar._base_layer, ar._spore_sprite, ar._shape_mask, ar._text_mask,
                   kit.palette_image):  # fmt: skip
        cached.cache_clear()
    assert ar.render(FINISHED, seat_labels=LABELS) == first


def test_perspective_is_ignored() -> None:
    assert ar.render(MIDGAME, perspective=1) == ar.render(MIDGAME)


@pytest.mark.parametrize(
    "labels",
    [
        ("Zoë Ångström 🌱", "北の王"),
        ("🌳🌳🌳", "\u202eevil\u202c"),
        ("a\tb\nc\x00d", "e\u0301\u0301\u0301"),
        ("مرحبا", "Ｆｕｌｌｗｉｄｔｈ"),
        ("", " "),
        ("W" * 200, "x" * 200),
    ],
)
def test_any_display_names_render(labels: tuple[str, str]) -> None:
    assert decode(ar.render(MIDGAME, seat_labels=labels)).size == (ar.WIDTH, ar.HEIGHT)


def test_renders_from_several_threads_alike() -> None:
    """The bot renders in worker threads; shared fonts and cached sprites must not interfere."""
    views = [MIDGAME, PRUNE, DOUBLE, FINISHED]
    expected = [ar.render(view) for view in views]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(ar.render, views * 3))
    assert results == expected * 3


def test_palette_keeps_every_meaningful_colour_exact() -> None:
    """Mapping onto the fixed palette must not shift the colours that carry meaning."""
    colours = ar._BASE_COLOURS
    image = Image.new("RGB", (len(colours), 1))
    for x, colour in enumerate(colours):
        image.putpixel((x, 0), colour)
    mapped = image.quantize(palette=kit.palette_image(ar.PALETTE), dither=Image.Dither.NONE)
    assert mapped.convert("RGB").tobytes() == image.tobytes()
    assert len(ar.PALETTE) <= 256


def test_rejects_what_is_not_a_view_or_two_labels() -> None:
    with pytest.raises(TypeError, match="ArbosView"):
        ar.render(object())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="one string"):
        ar.render(MIDGAME, seat_labels="ab")
    with pytest.raises(ValueError, match="2 names"):
        ar.render(MIDGAME, seat_labels=("only one",))
    with pytest.raises(ValueError, match="2 names"):
        ar.render(MIDGAME, seat_labels=("a", "b", "c"))


def action(**changes: Any) -> tuple[ArbosAction, ...]:
    return (replace(ArbosAction(0, "spore", placed=cells("K5")), **changes),)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"board": MIDGAME.board[:-1]}, "400 values"),
        ({"board": (*MIDGAME.board[:-1], 7)}, "400 values"),
        ({"phase": "endgame"}, "phase"),
        ({"to_move": 2}, "seats"),
        ({"hands": (1, -1)}, "hands"),
        ({"supply": (1,)}, "supply"),
        ({"passes": 3}, "passes"),
        ({"prune": 1, "to_move": None}, "prune"),
        ({"trees": (MIDGAME.trees[0][:2], MIDGAME.trees[1])}, "White's trees"),
        ({"trees": (MIDGAME.trees[0], (*MIDGAME.trees[1], (c("A1"),)))}, "Black's trees"),
        ({"trees": (MIDGAME.trees[1], MIDGAME.trees[0])}, "trees"),
        ({"best_pair": ((0, 3), (0, 1))}, "best pair"),
        ({"best_pair": ((1, 1), (0, 1))}, "best pair"),
        ({"linked_seeds": ((c("D9"),), ())}, "linked seeds"),
        ({"outcome": Outcome.win("passes", 2, 3)}, "seats"),
        ({"last": action(kind="plant")}, "action"),
        ({"last": action(seat=2)}, "action"),
        ({"last": action(seat=None)}, "setup seed"),
        ({"last": action(placed=(400,))}, "off the board"),
        ({"last": action(removed=(-1,))}, "off the board"),
        ({"last": action(replaced=SEED)}, "WHITE or BLACK"),
    ],
)
def test_rejects_a_malformed_view(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ar.render(replace(MIDGAME, **changes))  # type: ignore[arg-type]
