"""Orbs (spec orbs): geometry, every rule, notation, positions and random playouts.

The spec's scenarios run verbatim in ``test_scenarios.py``; these tests pin what they do not:
the geometry tables against the spec's own tables, the element table in full, end checks in
their order, options errors, and invariants over seeded random playouts for 2–6 players with
teams, Void, holes and the torus, cross-checked against a naive move generator that works on
axial coordinates directly.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engines import get_engine
from engines.__main__ import run
from engines.base import (
    GameOverError,
    IllegalMoveError,
    NotationError,
    NotYourTurnError,
    UsageError,
)
from engines.geometry import hexstar
from engines.orbs import DRAW, PASS, OrbsEngine, OrbsState, clash

ENGINE = OrbsEngine()
STAR_ZONES = """\
N  A1 B1 B2 C1 C2 C3 D1 D2 D3 D4
NE E13 E12 F12 E11 F11 G11 E10 F10 G10 H10
SE M13 L12 M12 K11 L11 M11 J10 K10 L10 M10
S  Q1 P2 P1 O3 O2 O1 N4 N3 N2 N1
SW M1 M2 L1 M3 L2 K1 M4 L3 K2 J1
NW E1 F1 E2 G1 F2 E3 H1 G2 F3 E4"""
HEX_ZONES = """\
N  E6 E7 E8 F6 F7 G6
NE F9 G9 H9 G8 H8 H7
SE J9 K9 L9 J8 K8 J7
S  M8 M7 M6 L7 L6 K6
SW L4 K3 J2 K4 J3 J4
NW H2 G3 F4 H3 G4 H4"""


def names(cells: Any) -> list[str]:
    return sorted(hexstar.NAMES[c] for c in cells)


def state_of(position: str, players: int = 2, **options: str) -> OrbsState:
    return ENGINE.from_position(position, ENGINE.resolve_options(options))


def play(state: OrbsState, *texts: str) -> OrbsState:
    for text in texts:
        state, _, _ = ENGINE.play(state, state.turn, text)
    return state


# ---- geometry -----------------------------------------------------------------------------


def test_star_has_121_cells_in_board_order_and_the_row_table() -> None:
    assert hexstar.CELL_COUNT == 121
    assert len(hexstar.HEXAGON) == 61
    assert hexstar.NAMES[hexstar.INDEX["I5"]] == "I5"
    assert hexstar.AXIAL[hexstar.INDEX["I5"]] == (
        0,
        0,
    )
    rows = [(chr(65 + i), r, lo, hi) for i, (r, lo, hi) in enumerate(hexstar.ROWS)]
    assert rows[0] == ("A", -8, 4, 4)
    assert rows[4] == ("E", -4, -4, 8)
    assert rows[12] == ("M", 4, -8, 4)
    assert rows[16] == ("Q", 8, -4, -4)
    # Board order compares the index as a number: E2 < E10.
    assert hexstar.INDEX["E2"] < hexstar.INDEX["E10"] < hexstar.INDEX["F1"]


@pytest.mark.parametrize(("table", "zones"), [(STAR_ZONES, "POINTS"), (HEX_ZONES, "HEX_ZONES")])
def test_start_zones_match_the_spec_tables(table: str, zones: str) -> None:
    built = getattr(hexstar, zones)
    for line in table.splitlines():
        point, *cells = line.split()
        assert [hexstar.NAMES[c] for c in built[point]] == cells


@pytest.mark.parametrize(
    ("board", "wrap", "cell", "expected"),
    [
        ("star", "none", "I5", "H5 H6 I4 I6 J5 J6"),
        ("star", "none", "A1", "B1 B2"),
        ("star", "none", "D1", "C1 D2 E5 E6"),
        ("star", "none", "E5", "D1 E4 E6 F4 F5"),
        ("star", "none", "M13", "L12 M12"),
        ("hexagon", "none", "E5", "E6 F4 F5"),
        ("hexagon", "torus", "E7", "E6 E8 F6 F7 M6 M7"),
        ("hexagon", "torus", "E5", "E6 F4 F5 I9 J9 M5"),
        ("hexagon", "torus", "I1", "E9 F9 H2 I2 J2 M9"),
    ],
)
def test_adjacency_checks_of_the_spec(board: str, wrap: str, cell: str, expected: str) -> None:
    table = hexstar.neighbours(board, wrap)
    assert names(table[hexstar.INDEX[cell]]) == expected.split()


def test_adjacency_is_symmetric_and_the_torus_gives_six_distinct_neighbours() -> None:
    for board, wrap in (("star", "none"), ("hexagon", "none"), ("hexagon", "torus")):
        table = hexstar.neighbours(board, wrap)
        for cell, around in enumerate(table):
            assert all(cell in table[n] for n in around)
    torus = hexstar.neighbours("hexagon", "torus")
    assert all(len(set(torus[c])) == 6 for c in hexstar.HEXAGON)
    # Hexagon zones touch only across the seam, and there only opposite ones.
    plain = hexstar.neighbours("hexagon")
    zones = hexstar.HEX_ZONES
    for a in zones:
        for b in zones:
            if a != b:
                assert not any(n in zones[b] for c in zones[a] for n in plain[c])


def test_a_turn_maps_points_onto_each_other() -> None:
    for index, point in enumerate(hexstar.POINT_ORDER):
        after = hexstar.POINT_ORDER[(index + 1) % 6]
        assert [hexstar.turn(c) for c in hexstar.POINTS[point]] == list(hexstar.POINTS[after])


# ---- ORB-2: the element table in full ------------------------------------------------------

EXPECTED_CLASH = {
    # (mover, target): result; F=0 E=1 A=2 W=3 V=4
    ("F", "A"): "win", ("A", "W"): "win", ("W", "E"): "win", ("E", "F"): "win",
    ("A", "F"): "lose", ("W", "A"): "lose", ("E", "W"): "lose", ("F", "E"): "lose",
    ("F", "W"): "both", ("W", "F"): "both", ("E", "A"): "both", ("A", "E"): "both",
}  # fmt: skip


@pytest.mark.parametrize("mover", "FEAWV")
@pytest.mark.parametrize("target", "FEAWV")
def test_every_element_pair(mover: str, target: str) -> None:
    code = "FEAWV".index
    result = clash(5 + code(mover), code(target))  # seat 1 onto seat 0
    if "V" in (mover, target):
        assert result == "both"  # D-ORB-6, including Void onto an enemy Void
    elif mover == target:
        assert result == "same"
    else:
        assert result == EXPECTED_CLASH[(mover, target)]


def test_void_may_not_hit_a_teammate_or_own_void() -> None:
    state = state_of("I5:V,I6:V/H5:V/I4:V/Q1:A 0 0", players=4, teams="02-13")
    assert ENGINE.legal_move_texts(state, 0) == sorted(
        ["I5-H5", "I5-H6", "I5-J5", "I5-J6", "I6-H6", "I6-H7", "I6-I7", "I6-J6", "I6-J7"]
    )


# ---- end checks (ORB-8) in order -----------------------------------------------------------


def test_same_element_board_is_a_draw_between_the_remaining_sides() -> None:
    state = play(state_of("A1:F,I5:F/I6:A,Q1:F/- 0 0", players=3), "I5-I6")
    assert state.end == "same_element"
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.winners == ()
    assert outcome.ranking == ((0, 1), (2,))


def test_void_board_is_not_same_element() -> None:
    state = play(state_of("A1:V,I5:V/I6:A,Q1:V 0 0"), "I5-I6")
    assert not state.end
    assert ENGINE.position(state) == "A1:V/Q1:V 1 0"


def test_stalemate_needs_a_full_board_where_no_orb_can_hit_another() -> None:
    # Hexagon: seat 1's lone Fire on I5 is ringed by seat 0's Fire; seat 0's Earth fills the
    # rest. No empty cell, no hittable pair, two elements: ORB-8.4 stalemate (D-ORB-9).
    centre = hexstar.INDEX["I5"]
    ring = set(hexstar.neighbours("hexagon")[centre])
    own = ",".join(
        f"{hexstar.NAMES[c]}:{'F' if c in ring else 'E'}"
        for c in sorted(hexstar.HEXAGON)
        if c != centre
    )
    with pytest.raises(UsageError, match="stalemate"):
        state_of(f"{own}/I5:F 0 0", board="hexagon")
    state = state_of(f"{own}/I5:F stalemate 0", board="hexagon")
    assert ENGINE.to_move(state) == ()
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.termination == "stalemate"
    assert outcome.winners == ()
    assert outcome.ranking == ((0, 1),)


def test_annihilation_with_teams_names_every_seat_of_both_sides() -> None:
    state = play(state_of("I5:F/I6:W/-/- 0 0", players=4, teams="02-13"), "I5-I6")
    assert ENGINE.position(state) == "-/-/-/- annihilation:0123 0"
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.ranking == ((0, 1, 2, 3),)


def test_annihilation_draws_only_the_two_sides_that_had_orbs() -> None:
    state = state_of("I5:F/I6:W/-/- 0 0", players=4)
    state = play(state, "I5-I6")
    outcome = ENGINE.outcome(state)
    assert ENGINE.position(state) == "-/-/-/- annihilation:01 0"
    assert outcome is not None
    assert outcome.ranking == ((0, 1), (2, 3))


def test_no_progress_counts_players_still_in() -> None:
    # 3 seats, one already out: the limit is 50 × 2 = 100 turns.
    state = state_of("I5:E/-/Q1:F 0 99", players=3)
    assert play(state, "I5-I6").end == "no_progress"
    state = state_of("I5:E/-/Q1:F 0 98", players=3)
    assert not play(state, "I5-I6").end


def test_a_removal_resets_the_quiet_counter_and_a_losing_attack_counts() -> None:
    state = play(state_of("A1:W,I5:F/I6:E,Q1:A 0 40"), "I5-I6")
    assert state.quiet == 0
    assert ENGINE.position(state) == "A1:W/I6:E,Q1:A 1 0"


def test_the_seat_a_removal_puts_out_is_named_by_its_point() -> None:
    # 3 seats: North (I5 Fire) burns South-east's last orb (I6 Air); the chat line names the
    # seat that is out, not the mover.
    state = state_of("I5:F/I6:A/Q1:E 0 0", players=3)
    events = ENGINE.apply(state, 0, ENGINE.parse_move(state, 0, "I5-I6")).events
    out = [e for e in events if e.kind == "eliminated"]
    victim = ENGINE.seat_names(3, {})[1]
    assert [(e.seat, e.text) for e in out] == [(1, f"{victim} has no orbs left and is out (ORB-5)")]
    # Among several opponents the capture says whose orb it took; with one it need not.
    assert events[0].text == f"Fire burns {victim}'s Air on I6"
    duel = state_of("I5:F/I6:A 0 0")
    assert ENGINE.apply(duel, 0, ENGINE.parse_move(duel, 0, "I5-I6")).events[0].text == (
        "Fire burns Air on I6"
    )


# ---- resignation and draws -----------------------------------------------------------------


def test_resignation_out_of_turn_keeps_the_turn_and_resets_the_counter() -> None:
    state = state_of("I5:F/I9:W/Q1:E 0 7", players=3)
    after = ENGINE.resign(state, 1).state
    assert ENGINE.position(after) == "I5:F/-/Q1:E 0 0"


def test_resignation_of_the_mover_passes_the_turn() -> None:
    state = state_of("I5:F/I9:W/Q1:E 1 7", players=3)
    assert ENGINE.position(ENGINE.resign(state, 1).state) == "I5:F/-/Q1:E 2 0"


def test_resignation_leaving_a_team_ends_as_last_standing_with_the_team() -> None:
    state = state_of("I5:F/I9:W/-/Q1:E 0 0", players=4, teams="02-13")
    after = ENGINE.resign(ENGINE.resign(state, 1).state, 3).state
    outcome = ENGINE.outcome(after)
    assert outcome is not None
    assert outcome.termination == "last_standing"
    assert outcome.winners == (0, 2)
    assert outcome.ranking == ((0, 2), (1, 3))


def test_resigning_a_seat_without_orbs_or_after_the_end_is_refused() -> None:
    state = state_of("I5:F/-/Q1:E 0 0", players=3)
    with pytest.raises(IllegalMoveError):
        ENGINE.resign(state, 1)
    over = state_of("J5:E/- last_standing 0")
    with pytest.raises(GameOverError):
        ENGINE.resign(over, 0)


def test_draw_is_a_meta_move_never_listed() -> None:
    state = state_of("I5:F/I6:A,Q1:E 0 3")
    assert "draw" not in ENGINE.legal_move_texts(state, 0)
    assert ENGINE.parse_move(state, 0, "DRAW") == DRAW
    with pytest.raises(NotationError):
        ENGINE.parse_move(state, 0, "[0]draw")


# ---- notation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["I5-I6", "i5-i6", "I5 - I6", "I5>I6", "I5 > I6", "I5xI6", "i5 X i6", "I5 I6",
             "i5 to i6", "I5I6", "  I5   to   I6 ", "[0]I5-I6", "[0] i5i6"],
)  # fmt: skip
def test_accepted_move_forms(text: str) -> None:
    state = state_of("I5:F/Q1:A 0 0")
    assert ENGINE.format_move(state, ENGINE.parse_move(state, 0, text)) == "I5-I6"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("I5", NotationError),
        ("I5-I10", NotationError),
        ("I5-Z1", NotationError),
        ("I5--I6", NotationError),
        ("I5toI6", NotationError),
        ("[2]I5-I6", NotationError),
        ("[1]Q1-P1", NotYourTurnError),
        ("I5-I7", IllegalMoveError),
        ("Q1-P1", IllegalMoveError),
        ("pass", IllegalMoveError),
        ("resign", IllegalMoveError),
    ],
)
def test_rejected_moves(text: str, error: type[Exception]) -> None:
    state = state_of("I5:F/Q1:A 0 0")
    with pytest.raises(error):
        ENGINE.parse_move(state, 0, text)


def test_point_cells_are_notation_errors_on_the_hexagon_and_holes_are_illegal() -> None:
    state = state_of("E5:F/M9:A 0 0", board="hexagon")
    with pytest.raises(NotationError):
        ENGINE.parse_move(state, 0, "E5-D1")
    holed = state_of("I4:F/Q1:A 0 0", holes="center")
    with pytest.raises(IllegalMoveError, match="hole"):
        ENGINE.parse_move(holed, 0, "I4-I5")


def test_illegal_messages_name_the_reason() -> None:
    state = state_of("I4:W,I5:F,J5:E/I6:F,Q1:A/H5:E 0 0", players=3, teams="02-1")
    with pytest.raises(IllegalMoveError, match="own orb"):
        ENGINE.parse_move(state, 0, "I5-I4")
    with pytest.raises(IllegalMoveError, match="same elements"):
        ENGINE.parse_move(state, 0, "I5-I6")
    with pytest.raises(IllegalMoveError, match="teammate"):
        ENGINE.parse_move(state, 0, "I5-H5")
    with pytest.raises(IllegalMoveError, match="not neighbours"):
        ENGINE.parse_move(state, 0, "I5-I7")
    with pytest.raises(IllegalMoveError, match="no orb of yours"):
        ENGINE.parse_move(state, 0, "Q1-P1")


def test_game_over_rejects_every_token() -> None:
    state = state_of("J5:E/- last_standing 0")
    for text in ("J5-J6", "xyz", "[5]pass", "resign", "pass"):  # spec: any token after the end
        with pytest.raises(GameOverError):
            ENGINE.parse_move(state, 0, text)


def test_a_prefix_naming_another_seat_than_the_callers_is_not_their_turn() -> None:
    # Seat 1 is to move; seat 0 writing seat 1's move with its prefix must not play it.
    state = state_of("I5:F/Q1:A 1 0")
    with pytest.raises(NotYourTurnError, match=r"prefix \[1\]"):
        ENGINE.parse_move(state, 0, "[1]Q1-P1")
    assert ENGINE.parse_move(state, 1, "[1]Q1-P1") == ENGINE.parse_move(state, 1, "Q1-P1")
    for odd in ("[\u00b2]Q1-P1", "[\u0663]Q1-P1", "[" + "0" * 5000 + "1]Q1-P1"):
        with pytest.raises(NotationError):  # only ASCII digits, and at most three
            ENGINE.parse_move(state, 1, odd)


# ---- options -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {"opening": "rare_water", "board": "hexagon"}),
        (2, {"opening": "FWFWFW"}),
        (2, {"opening": ".........."}),
        (2, {"opening": "FWFWFWFWFX"}),
        (2, {"wrap": "torus"}),
        (4, {"board": "hexagon", "wrap": "torus"}),
        (4, {"teams": "01-2"}),
        (4, {"teams": "01-12-3"}),
        (2, {"teams": "01"}),
        (2, {"holes": "A1"}),
        (2, {"holes": "I5,i5"}),
        (2, {"holes": "Z9"}),
        (2, {"board": "hexagon", "holes": "D1"}),
        (2, {"holes": "E4,F4,G3,H2,I1,E3,F3,G2,H1"}),
        (2, {"holes": "B1,B2"}),
    ],
)
def test_usage_errors(players: int, options: dict[str, str]) -> None:
    with pytest.raises(UsageError):
        ENGINE.new_game(players, ENGINE.resolve_options(options), 0)


def test_options_print_canonically() -> None:
    opts = ENGINE.resolve_options(
        {"holes": "i5,g7", "teams": "531-420", "opening": "fw........", "board": "STAR"}
    )
    assert (opts["holes"], opts["teams"], opts["opening"], opts["board"]) == (
        "G7,I5",
        "024-135",
        "FW........",
        "star",
    )
    assert ENGINE.resolve_options({"teams": "1-0"})["teams"] == "none"
    assert ENGINE.resolve_options({"holes": "RING6"})["holes"] == "ring6"


def test_a_hole_in_an_unseated_zone_is_allowed() -> None:
    # 2 players sit N and S; the NE point is empty.
    state = ENGINE.new_game(2, ENGINE.resolve_options({"holes": "E10"}), 0)
    assert hexstar.INDEX["E10"] in state.rules.holes
    with pytest.raises(UsageError):
        ENGINE.new_game(4, ENGINE.resolve_options({"holes": "E10"}), 0)


def test_void_labels_replace_opening_orbs() -> None:
    state = ENGINE.new_game(2, ENGINE.resolve_options({"void": "3", "first_player": "seat0"}), 0)
    assert (
        ENGINE.position(state).split("/")[0] == "A1:V,B1:V,B2:F,C1:W,C2:V,C3:E,D1:F,D2:E,D3:W,D4:A"
    )
    hexagon = ENGINE.new_game(
        2, ENGINE.resolve_options({"void": "2", "board": "hexagon", "first_player": "seat0"}), 0
    )
    assert ENGINE.position(hexagon).split("/")[0] == "E6:V,E7:A,E8:V,F6:E,F7:W,G6:F"


def test_seat_names_are_the_points() -> None:
    assert ENGINE.seat_names(2, {}) == ("North", "South")
    assert ENGINE.seat_names(2, {"wrap": "torus"}) == ("North", "South-east")
    assert ENGINE.seat_names(4, {})[0] == "North-east"
    assert ENGINE.seat_names(4, {"teams": "13-02"}) == (
        "North-east, team A",
        "South-east, team B",
        "South-west, team A",
        "North-west, team B",
    )


# ---- positions -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "I5:F/Q1:A 0",  # two fields
        "I5:F/Q1:A  0 0",  # double space
        "Q1:A,I5:F/- 0 0",  # not board order
        "I5:f/Q1:A 0 0",  # lower-case element
        "I5:F/Q1:A 0 00",  # leading zero
        "I5:F/Q1:A 2 0",  # seat out of range
        "I5:F/I6:A last_standing 0",  # not over
        "-/- annihilation:0 0",  # one seat
        "-/- annihilation:0\u00b2 0",  # a digit notation does not use
        "I5:F/- annihilation:01 0",  # board not empty
        "I5:F/- 0 0",  # running but one side left
        "I5:F/I6:F 0 0",  # same element: over
        "I5:E/Q1:F 0 100",  # the no-progress limit reached
        "I5:E/Q1:F agreement 100",  # agreement needs no other ending
        "I5:E/Q1:F no_progress 99",
        "I5:F/Q1:A 0 0 ",
        "I5:F/Q1:A draw 0",
    ],
)
def test_malformed_positions(text: str) -> None:
    with pytest.raises(UsageError):
        state_of(text)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("garbage", "GROUPS TURN QUIET"),
        ("", "GROUPS TURN QUIET"),
        ("a b c", "one group per seat"),
    ],
)
def test_text_not_shaped_like_a_position_says_so_not_a_player_count(text: str, said: str) -> None:
    """It used to read as one group, one player: "Orbs is played by 2–6 players, not 1"."""
    assert ENGINE.position_players(text) is None
    with pytest.raises(UsageError, match=said):
        ENGINE.from_position(text, ENGINE.complete_options({}))


def test_finished_positions_round_trip() -> None:
    for text in ("J5:E/- last_standing 0", "-/- annihilation:01 0", "I5:E/Q1:F agreement 3",
                 "I5:E/Q1:F no_progress 100", "A1:F,I5:F/Q1:F same_element 2"):  # fmt: skip
        assert ENGINE.position(state_of(text)) == text


# ---- random playouts with invariants and a naive reference ---------------------------------

AXIAL_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def reference_moves(state: OrbsState, seat: int) -> set[str]:
    """Every step by brute force on axial coordinates, the ORB-2 table written out again."""
    rules = state.rules
    at = {hexstar.AXIAL[c]: c for c in rules.playable}
    beats = {"F": "A", "A": "W", "W": "E", "E": "F"}
    opposite = {"F": "W", "W": "F", "E": "A", "A": "E"}
    found: set[str] = set()
    for cell, value in enumerate(state.board):
        if value < 0 or value // 5 != seat:
            continue
        q, r = hexstar.AXIAL[cell]
        targets = set()
        for dq, dr in AXIAL_STEPS:
            spot = (q + dq, r + dr)
            if spot not in at and rules.wrap == "torus":
                for tq, tr in hexstar.TORUS_SHIFTS:
                    image = (spot[0] - tq, spot[1] - tr)
                    if image in at or (
                        max(abs(image[0]), abs(image[1]), abs(image[0] + image[1])) <= 4
                    ):
                        spot = image
                        break
            if spot in at:
                targets.add(at[spot])
        for target in targets:
            other = state.board[target]
            if other >= 0:
                if rules.side[other // 5] == rules.side[seat]:
                    continue
                x, y = "FEAWV"[value % 5], "FEAWV"[other % 5]
                if x == y and x != "V":
                    continue
                assert x == "V" or y == "V" or opposite[x] == y or beats[x] == y or beats[y] == x
            found.add(f"{hexstar.NAMES[cell]}-{hexstar.NAMES[target]}")
    return found or {"pass"}


PLAYOUTS = [
    (2, {}),
    (2, {"board": "hexagon", "wrap": "torus", "void": "1"}),
    (3, {"holes": "triad", "opening": "opposites"}),
    (3, {"board": "hexagon", "wrap": "torus", "opening": "opposites"}),
    (4, {"teams": "02-13", "void": "2"}),
    (4, {"holes": "ring6", "opening": "rare_water"}),
    (5, {"void": "1", "no_progress_limit": "5"}),
    (6, {"teams": "024-135"}),
    (6, {"teams": "03-14-25", "holes": "center", "void": "3"}),
    (6, {"board": "hexagon", "opening": "FW.EA."}),
]


@pytest.mark.parametrize(("players", "options"), PLAYOUTS, ids=[str(o) for _, o in PLAYOUTS])
def test_random_playouts_keep_the_invariants(players: int, options: dict[str, str]) -> None:
    rng = random.Random(f"orbs-{players}-{sorted(options.items())}")
    opts = ENGINE.resolve_options(options)
    for game in range(3):
        state = ENGINE.new_game(players, opts, seed=game)
        for _ply in range(600):
            if not ENGINE.to_move(state):
                break
            seat = state.turn
            assert any(v >= 0 and v // 5 == seat for v in state.board)  # the mover has orbs
            legal = ENGINE.legal_move_texts(state, seat)
            assert set(legal) == reference_moves(state, seat)
            if rng.random() < 0.004 and players > 2:
                still_in = {v // 5 for v in state.board if v >= 0}
                victim = rng.choice(sorted(still_in))
                state = ENGINE.resign(state, victim).state
                continue
            text = rng.choice(legal)
            move = ENGINE.parse_move(state, seat, text)
            assert ENGINE.format_move(state, move) == text
            before = state
            state = ENGINE.apply(state, seat, move).state
            check_ply(before, state, seat, text)
        outcome = ENGINE.outcome(state)
        if outcome is not None:
            seats = sorted(s for group in outcome.ranking for s in group)
            assert seats == list(range(players))


def check_ply(before: OrbsState, after: OrbsState, seat: int, text: str) -> None:
    """Orbs only disappear by the element rules; none stands on a hole; round trips hold."""
    holes = set(before.rules.holes)
    assert all(after.board[c] < 0 for c in holes)
    gone = Counter(v for v in before.board if v >= 0) - Counter(v for v in after.board if v >= 0)
    if text == "pass":
        assert after.board == before.board
    else:
        origin, target = (hexstar.INDEX[n] for n in text.split("-"))
        mover, victim = before.board[origin], before.board[target]
        removed = sum(gone.values())
        if victim < 0:
            assert removed == 0
            assert after.board[target] == mover
        else:
            result = clash(mover, victim)
            assert removed == {"win": 1, "lose": 1, "both": 2}[result]
            assert after.board[target] == {"win": mover, "lose": victim, "both": -1}[result]
        assert after.quiet == (0 if victim >= 0 else before.quiet + 1)
    text_position = ENGINE.position(after)
    options = dict(after.rules.options)
    assert ENGINE.position(ENGINE.from_position(text_position, options)) == text_position
    assert ENGINE.loads(ENGINE.dumps(after)) == after
    if not after.end:
        assert (
            after.turn != seat
            or sum(
                1
                for s in range(after.rules.players)
                if any(v // 5 == s for v in after.board if v >= 0)
            )
            == 1
        )


def test_new_game_random_first_player_is_seeded() -> None:
    firsts = {ENGINE.new_game(6, ENGINE.resolve_options({}), seed).turn for seed in range(40)}
    assert firsts == set(range(6))
    again = ENGINE.new_game(6, ENGINE.resolve_options({}), 7)
    assert again == ENGINE.new_game(6, ENGINE.resolve_options({}), 7)


def test_forced_pass_is_flagged_for_the_bot() -> None:
    state = state_of("A1:F/B1:F,B2:F,Q1:W 0 0")
    assert ENGINE.plays_forced_moves
    assert ENGINE.legal_moves(state, 0) == [PASS]
    assert ENGINE.few_legal_moves(state, 0, 4) == ("pass",)


def test_view_lists_orbs_sides_and_the_quiet_limit() -> None:
    state = play(state_of("I5:F/I6:A,Q1:E/H5:W/A1:E 0 3", players=4, teams="02-13"), "I5-I6")
    view = ENGINE.view(state, None)
    assert view.orbs == (("A1", 3, "E"), ("H5", 2, "W"), ("I6", 0, "F"), ("Q1", 1, "E"))
    assert view.sides == ((0, 2), (1, 3))
    assert view.to_move == 1
    assert view.quiet == 0
    assert view.quiet_limit == 200
    assert view.last is not None
    assert (view.last.kind, view.last.victim) == ("capture", "A")
    assert dict(view.options)["teams"] == "02-13"


def test_registry_has_orbs() -> None:
    assert isinstance(get_engine("orbs"), OrbsEngine)


@pytest.mark.parametrize(("players", "who"), [(2, "both players"), (3, "all players")])
def test_an_agreed_draw_says_who_agreed(players: int, who: str) -> None:
    state = ENGINE.new_game(players, ENGINE.complete_options({}), 1)
    _, _, events = ENGINE.play(state, ENGINE.to_move(state)[0], "draw")
    assert [(e.kind, e.text) for e in events] == [("ended", f"{who} agreed to a draw")]


def test_no_progress_limit_has_no_upper_bound() -> None:
    """Spec orbs, Options: `no_progress_limit` is an "integer ≥ 0"."""
    status, out = run(["orbs", "--option", "no_progress_limit=1000001"])
    assert status == 0
    assert out["options"]["no_progress_limit"] == 1000001


def test_a_team_option_names_the_seat_count() -> None:
    engine = get_engine("orbs")
    assert engine.options_players(engine.resolve_options({"teams": "024-135"})) == 6
    assert engine.options_players(engine.resolve_options({"teams": "02-13"})) == 4
    assert engine.options_players(engine.resolve_options({})) is None
    assert engine.options_players(engine.resolve_options({"holes": "A1"})) is None
