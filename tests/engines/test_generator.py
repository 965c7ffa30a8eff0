"""Generator beyond the spec's scenarios: one group of tests per rule, notation and position
round trips, a cross-check against a naive reference move generator, and seeded random
playouts for 2, 3 and 4 players with invariants after every ply."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from engines.__main__ import run
from engines.base import (
    CHANCE,
    AmbiguousMoveError,
    GameOverError,
    IllegalMoveError,
    MoveError,
    NotationError,
    NotYourTurnError,
    UsageError,
)
from engines.generator import (
    PASS,
    GeneratorEngine,
    GeneratorMove,
    GeneratorState,
    format_move,
    has_coupling,
)
from engines.generator_board import STACK_TEXT
from engines.geometry.gryb import COLOURS, NAMES, index
from engines.rng import Rng
from tests.engines import generator_reference as reference

ENGINE = GeneratorEngine()
DEFAULTS = ENGINE.resolve_options({})


def at(position: str, **options: str) -> GeneratorState:
    return ENGINE.from_position(position, ENGINE.resolve_options(options))


def texts(state: GeneratorState) -> set[str]:
    return set(ENGINE.legal_move_texts(state, state.turn))


def play(state: GeneratorState, *tokens: str) -> GeneratorState:
    """Apply tokens like the CLI: ``roll:X`` at a chance node, else a move of the seat to act."""
    for token in tokens:
        if ENGINE.to_move(state) == (CHANCE,):
            state = ENGINE.apply_chance(state, token).state
        else:
            state = ENGINE.play(state, state.turn, token)[0]
    return state


def position_of(
    stacks: dict[str, tuple[str, str]],
    colours: str,
    turn: str,
    count: int = 0,
    resigned: str = "",
) -> str:
    """Build a position: ``stacks`` maps node -> (owner colour letter, sizes); stashes follow."""
    board = ",".join(
        f"{node}:{owner.lower()}{sizes}"
        for node, (owner, sizes) in sorted(stacks.items(), key=lambda item: index(item[0]))
    )
    stashes = []
    for colour in colours:
        if colour in resigned:
            stashes.append(colour + "x")
            continue
        used = "".join(sizes for owner, sizes in stacks.values() if owner == colour)
        stashes.append(colour + "".join(str(5 - used.count(size)) for size in "SML"))
    return f"{board or '-'} {','.join(stashes)} {turn} {count}"


# ---------------------------------------------------------------------------------------------
# Options, setup and chance
# ---------------------------------------------------------------------------------------------


def test_options_defaults_and_normalisation() -> None:
    assert DEFAULTS == {
        "colours": "",
        "first_player": "random",
        "horizontal": "any",
        "max_turns": 0,
    }
    assert ENGINE.resolve_options({"colours": "by"})["colours"] == "YB"
    assert ENGINE.resolve_options({"colours": " bRy "})["colours"] == "RYB"
    assert ENGINE.resolve_options({"first_player": "SEAT0"})["first_player"] == "seat0"
    assert ENGINE.resolve_options({}, preset="chat")["max_turns"] == 200
    for bad in ("G", "GG", "GX", "GRYBG", "R-B", "12"):
        with pytest.raises(UsageError, match="colours"):
            ENGINE.resolve_options({"colours": bad})
    with pytest.raises(UsageError, match="colours"):
        ENGINE.new_game(3, ENGINE.resolve_options({"colours": "RB"}), 0)


def test_cli_prints_option_types() -> None:
    status, out = run(["generator", "--option", "colours=yg", "--option", "max_turns=7"])
    assert status == 0
    assert out["options"] == {
        "colours": "GY",
        "first_player": "random",
        "horizontal": "any",
        "max_turns": 7,
    }
    assert out["position"].startswith("G:gM,Y:yM G545,Y545 ")


def test_seat_names_follow_the_colours() -> None:
    assert ENGINE.seat_names(2, DEFAULTS) == ("Green", "Red")
    assert ENGINE.seat_names(4, DEFAULTS) == ("Green", "Red", "Yellow", "Blue")
    assert ENGINE.seat_names(2, ENGINE.resolve_options({"colours": "BR"})) == ("Red", "Blue")
    with pytest.raises(UsageError):
        ENGINE.seat_names(3, ENGINE.resolve_options({"colours": "RB"}))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup(players: int) -> None:
    state = ENGINE.new_game(players, ENGINE.resolve_options({"first_player": "seat0"}), 5)
    letters = COLOURS[:players]
    board = ",".join(f"{c}:{c.lower()}M" for c in letters)
    stashes = ",".join(f"{c}545" for c in letters)
    assert ENGINE.position(state) == f"{board} {stashes} G=? 0"
    assert ENGINE.to_move(state) == (CHANCE,)
    assert ENGINE.legal_moves(state, 0) == []
    assert ENGINE.rng_state(state) == (5, 0)


def test_random_first_seat_is_drawn_from_the_seed() -> None:
    firsts = set()
    for seed in range(40):
        state = ENGINE.new_game(4, DEFAULTS, seed)
        assert state.turn == Rng(seed, 0).below(4)
        assert ENGINE.rng_state(state) == (seed, 1)
        firsts.add(state.turn)
    assert firsts == {0, 1, 2, 3}


def test_chance_node_and_draw_counter() -> None:
    state = ENGINE.new_game(2, DEFAULTS, 3)
    outcomes = ENGINE.chance_outcomes(state)
    assert [(o.text, o.probability) for o in outcomes] == [
        ("roll:G", 0.25), ("roll:R", 0.25), ("roll:Y", 0.25), ("roll:B", 0.25),
    ]  # fmt: skip
    sampled = ENGINE.sample_chance(state)
    assert sampled in {o.text for o in outcomes}
    seed, draws = ENGINE.rng_state(state)
    forced = ENGINE.apply_chance(state, " roll:y ")
    assert forced.state.roll == COLOURS.index("Y")
    assert ENGINE.rng_state(forced.state) == (seed, draws + 1)  # forced rolls draw too
    assert [e.kind for e in forced.events] == ["rolled"]
    after_sample = ENGINE.apply_chance(state, sampled).state
    assert ENGINE.rng_state(after_sample) == (seed, draws + 1)
    assert ENGINE.chance_outcomes(forced.state) == ()
    assert ENGINE.to_move(forced.state) == (state.turn,)
    with pytest.raises(IllegalMoveError):
        ENGINE.apply_chance(forced.state, "roll:G")
    for bad in ("roll:Q", "[0]roll:G", "roll: G", "rollG", "pass"):
        with pytest.raises(NotationError):
            ENGINE.apply_chance(state, bad)


def test_rolls_vary_with_the_counter() -> None:
    state = ENGINE.new_game(2, ENGINE.resolve_options({"first_player": "seat0"}), 11)
    rolls = []
    for _ in range(40):
        text = ENGINE.sample_chance(state)
        rolls.append(text)
        state = ENGINE.apply_chance(state, text).state
        state = ENGINE.apply(state, state.turn, PASS).state
    assert set(rolls) == {"roll:G", "roll:R", "roll:Y", "roll:B"}


# ---------------------------------------------------------------------------------------------
# GEN-7 moves and GEN-8 level limits
# ---------------------------------------------------------------------------------------------


def test_neighbours_follow_the_roll() -> None:
    # S on GYB (level 3, blue): roll Y -> sideways GYY, down GYBY, up GY (yellow parent).
    state = at(position_of({"GYB": ("R", "S")}, "RB", "R=Y"), colours="RB")
    assert texts(state) == {"pass", "S:GYB-GY", "S:GYB-GYY", "S:GYB-GYBY"}
    # roll G: the sibling GYG and the child GYBG; the parent GY is not green.
    state = at(position_of({"GYB": ("R", "S")}, "RB", "R=G"), colours="RB")
    assert texts(state) == {"pass", "S:GYB-GYG", "S:GYB-GYBG"}
    leaf = at(position_of({"GYBR": ("R", "S")}, "RB", "R=B"), colours="RB")
    assert texts(leaf) == {"pass", "S:GYBR-GYBB", "S:GYBR-GYB"}  # level 4: no children


def test_horizontal_adjacent_drops_the_diagonal() -> None:
    spot = position_of({"YG": ("R", "S")}, "RB", "R=B")
    assert texts(at(spot, colours="RB")) == {"pass", "S:YG-YB", "S:YG-YGB"}
    assert texts(at(spot, colours="RB", horizontal="adjacent")) == {"pass", "S:YG-YB", "S:YG-YGB"}
    spot = position_of({"YG": ("R", "S")}, "RB", "R=Y")
    assert texts(at(spot, colours="RB")) == {"pass", "S:YG-YY", "S:YG-YGY", "S:YG-Y"}
    adjacent = at(spot, colours="RB", horizontal="adjacent")
    assert texts(adjacent) == {"pass", "S:YG-YGY", "S:YG-Y"}
    with pytest.raises(IllegalMoveError, match="diagonal"):
        ENGINE.parse_move(adjacent, 0, "YG-YY")


@pytest.mark.parametrize(
    ("stack", "origin", "roll", "expected"),
    [
        ("L", "RG", "B", {"L:RG-RB"}),  # not RGB on level 3
        ("LM", "RG", "B", {"LM:RG-RB", "M:RG-RB", "M:RG-RGB"}),
        ("M", "GRY", "B", {"M:GRY-GRB"}),  # not GRYB on level 4
        ("MS", "GRY", "B", {"MS:GRY-GRB", "S:GRY-GRB", "S:GRY-GRYB"}),
        ("S", "GRY", "B", {"S:GRY-GRB", "S:GRY-GRYB"}),
    ],
)
def test_level_limits(stack: str, origin: str, roll: str, expected: set[str]) -> None:
    state = at(position_of({origin: ("R", stack)}, "RB", f"R={roll}"), colours="RB")
    assert texts(state) == {"pass"} | expected


@pytest.mark.parametrize(
    ("stack", "origin", "token", "reason"),
    [
        ("L", "RG", "RG-RGB", "a Large may not go below level 2, and RGB is on level 3 (GEN-8)"),
        (
            "M",
            "GRY",
            "GRY-GRYB",
            "a Medium may not go below level 3, and GRYB is on level 4 (GEN-8)",
        ),
        ("LM", "RG", "RG-RGB", "a Large may not go below level 2"),
    ],
)
def test_level_limit_messages(stack: str, origin: str, token: str, reason: str) -> None:
    state = at(position_of({origin: ("R", stack)}, "RB", "R=B"), colours="RB")
    with pytest.raises(IllegalMoveError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        ENGINE.parse_move(state, 0, token)


@pytest.mark.parametrize(
    ("roll", "token", "reason"),
    [
        ("Y", "GRYB", "no legal move goes to GRYB: you rolled yellow, and GRYB is blue; "),
        ("B", "GRYB", "no legal move goes to GRYB: none of your units is next to GRYB; "),
        ("B", "M:G-GRYB", "GRYB is not a neighbour of G: a unit goes to the blue node of its "),
        ("B", "GRYB-GRY", "there is no pyramid on GRYB; "),
    ],
)
def test_a_refused_move_naming_gryb_from_afar_says_it_is_not_the_centre(
    roll: str, token: str, reason: str
) -> None:
    """The board labels its centre, the head node, ``GRYB`` (spec "What the board image must
    show"), but typed GRYB is the level-4 node; a player who meant the centre is told so
    (exploratory pass 10), before the rule ids, which stay at the end."""
    state = at(position_of({"G": ("G", "M")}, "GR", f"G={roll}"))
    with pytest.raises(IllegalMoveError) as refused:
        ENGINE.parse_move(state, 0, token)
    message = refused.value.message
    assert message.startswith(reason)
    note = "GRYB here is the small blue node around GRY, not the centre labelled GRYB, which no "
    assert f"{note}pyramid can enter" in message
    assert message.endswith(("enter", "enter (GEN-7)"))


def test_a_move_to_gryb_from_its_quadrangle_is_refused_without_the_centre_note() -> None:
    state = at(position_of({"GRY": ("G", "M")}, "GR", "G=B"))
    with pytest.raises(IllegalMoveError) as refused:
        ENGINE.parse_move(state, 0, "M:GRY-GRYB")
    assert "centre" not in refused.value.message


def test_a_node_name_too_long_is_refused_in_one_sentence() -> None:
    state = at(position_of({"G": ("G", "M")}, "GR", "G=R"))
    with pytest.raises(NotationError) as refused:
        ENGINE.parse_move(state, 0, "RRRRR")
    assert refused.value.message == (
        "'RRRRR' is not a Generator move: RRRRR is not a node, since a node name has 1 to 4 letters"
    )


def test_illegal_move_reasons() -> None:
    state = at(position_of({"G": ("R", "M"), "B": ("B", "M")}, "RB", "R=Y"), colours="RB")
    cases = {
        "G-R": "you rolled yellow",  # wrong colour
        "G-GGY": "not a neighbour",
        "Y-YY": "no pyramid on Y",
        "B-BY": "Blue's",  # D-GEN-6
        "S:G-Y": "has no Small",
        "LM:G-Y": "not a unit",
    }
    for token, reason in cases.items():
        with pytest.raises(IllegalMoveError, match=reason):
            ENGINE.parse_move(state, 0, token)


# ---------------------------------------------------------------------------------------------
# GEN-9 landing, towers and units
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("unit", "target", "allowed"),
    [
        ("S", "M", True),
        ("S", "L", True),
        ("S", "LM", True),
        ("M", "L", True),
        ("MS", "L", True),
        ("S", "S", False),
        ("M", "M", False),
        ("M", "MS", False),
        ("S", "MS", False),
        ("L", "L", False),
        ("LS", "M", False),
    ],
)
def test_stacking_on_own_stacks(unit: str, target: str, allowed: bool) -> None:
    state = at(position_of({"G": ("R", unit), "Y": ("R", target)}, "RB", "R=Y"), colours="RB")
    token = f"{unit}:G-Y"
    if allowed:
        after = ENGINE.apply(state, 0, ENGINE.parse_move(state, 0, token)).state
        order = "LMS"
        merged = "".join(sorted(target + unit, key=order.index))
        assert f"Y:r{merged}" in ENGINE.position(after)
        assert "G:" not in ENGINE.position(after)
        assert after.turn == 1  # not a capture: the turn passes
    else:
        with pytest.raises(IllegalMoveError, match="GEN-9"):
            ENGINE.parse_move(state, 0, token)


def test_units_and_shortcuts() -> None:
    state = at(position_of({"G": ("R", "LMS")}, "RB", "R=R"), colours="RB")
    assert texts(state) >= {"LMS:G-R", "MS:G-R", "S:G-R"}
    for token, canonical in [
        ("G-R", "LMS:G-R"),
        ("L:G-R", "LMS:G-R"),
        ("m g r", "MS:G-R"),
        ("M:G-R", "MS:G-R"),
        ("ms:g-r", "MS:G-R"),
        ("s:g > r", "S:G-R"),
    ]:
        assert format_move(ENGINE.parse_move(state, 0, token)) == canonical
    for token in ("LM:G-R", "LS:G-R"):  # a multi-letter unit must be exactly a unit
        with pytest.raises(IllegalMoveError, match="not a unit"):
            ENGINE.parse_move(state, 0, token)
    after = ENGINE.apply(state, 0, ENGINE.parse_move(state, 0, "M:G-R")).state
    assert ENGINE.position(after).startswith("G:rL,R:rMS ")
    assert after.last is not None
    assert (after.last.kind, after.last.unit, after.last.origin, after.last.destination) == (
        "move", "MS", index("G"), index("R"),
    )  # fmt: skip


# ---------------------------------------------------------------------------------------------
# GEN-10 captures (the whole table) and GEN-6 entries
# ---------------------------------------------------------------------------------------------

#: The spec's GEN-10 table: which unit (by base) may capture which target stack.
CAPTURE_TABLE = {
    "S": {"S": True, "MS": False, "LS": False, "LMS": False, "M": True, "LM": True, "L": True},
    "M": {"S": False, "MS": False, "LS": False, "LMS": False, "M": False, "LM": False, "L": True},
    "MS": {"S": False, "MS": False, "LS": False, "LMS": False, "M": False, "LM": False, "L": True},
    "L": dict.fromkeys(["S", "MS", "LS", "LMS", "M", "LM", "L"], False),
    "LM": dict.fromkeys(["S", "MS", "LS", "LMS", "M", "LM", "L"], False),
    "LS": dict.fromkeys(["S", "MS", "LS", "LMS", "M", "LM", "L"], False),
    "LMS": dict.fromkeys(["S", "MS", "LS", "LMS", "M", "LM", "L"], False),
}


@pytest.mark.parametrize(
    ("unit", "target"), [(u, t) for u in CAPTURE_TABLE for t in CAPTURE_TABLE[u]]
)
def test_capture_table(unit: str, target: str) -> None:
    spot = position_of({"G": ("R", unit), "Y": ("B", target)}, "RB", "R=Y")
    state = at(spot, colours="RB")
    token = f"{unit}:G-Y"
    if CAPTURE_TABLE[unit][target]:
        assert token in texts(state)
        transition = ENGINE.apply(state, 0, ENGINE.parse_move(state, 0, token))
        after = transition.state
        assert ENGINE.position(after) == f"Y:r{unit} {spot.split()[1][:4]},B555 R=? 1"
        assert after.turn == 0
        assert after.extra
        assert after.last is not None
        assert after.last.captured == (1, target)
        assert [e.kind for e in transition.events] == ["moved", "captured", "extra_turn"]
        assert transition.events[1].text == f"captured Blue's {target} on Y"
    else:
        assert token not in texts(state)
        with pytest.raises(IllegalMoveError, match="GEN-10"):
            ENGINE.parse_move(state, 0, token)


def test_capture_reasons_name_the_rule() -> None:
    immune = at(position_of({"G": ("R", "S"), "Y": ("B", "MS")}, "RB", "R=Y"), colours="RB")
    with pytest.raises(IllegalMoveError, match="a tower topped by a Small cannot be captured"):
        ENGINE.parse_move(immune, 0, "G-Y")
    lone = at(position_of({"G": ("R", "M"), "Y": ("B", "S")}, "RB", "R=Y"), colours="RB")
    with pytest.raises(IllegalMoveError, match="a lone Small can only be captured by a lone"):
        ENGINE.parse_move(lone, 0, "G-Y")


@pytest.mark.parametrize("target", ["S", "MS", "LS", "LMS", "M", "LM", "L"])
def test_entries_capture_like_lone_pyramids(target: str) -> None:
    state = at(position_of({"R": ("B", target)}, "RB", "R=R"), colours="RB")
    expected = {f"+{size}" for size in "SML" if CAPTURE_TABLE[size][target]}
    assert texts(state) == {"pass"} | expected
    for entry in expected:
        size = entry[1]
        after = ENGINE.apply(state, 0, ENGINE.parse_move(state, 0, f"enter {size}")).state
        assert after.extra
        assert after.turn == 0
        assert ENGINE.position(after).startswith(f"R:r{size} ")


def test_entries() -> None:
    empty = at(position_of({}, "RB", "R=R"), colours="RB")
    assert texts(empty) == {"pass", "+S", "+M", "+L"}
    wrong_roll = at(position_of({}, "RB", "R=G"), colours="RB")
    assert texts(wrong_roll) == {"pass"}
    with pytest.raises(IllegalMoveError, match="own colour, red"):
        ENGINE.parse_move(wrong_roll, 0, "+S")
    own = at(position_of({"R": ("R", "L")}, "RB", "R=R"), colours="RB")
    assert "+S" not in texts(own)  # GEN-6: no entry onto your own stack
    with pytest.raises(IllegalMoveError, match="your own stack"):
        ENGINE.parse_move(own, 0, "+S")
    no_large = at(
        "GG:rL,GR:rL,RG:rL,RR:rL,YG:rL R550,B555 R=R 0", colours="RB"
    )  # every Large on the board
    assert texts(no_large) >= {"+S", "+M"}
    assert "+L" not in texts(no_large)
    with pytest.raises(IllegalMoveError, match="no Large left"):
        ENGINE.parse_move(no_large, 0, "+L")
    transition = ENGINE.apply(empty, 0, ENGINE.parse_move(empty, 0, "+ m"))
    assert ENGINE.position(transition.state) == "R:rM R545,B555 B=? 1"
    assert transition.events[0].text == "entered a Medium on R"
    assert transition.state.last is not None
    assert transition.state.last.kind == "entry"
    assert transition.state.last.origin is None


# ---------------------------------------------------------------------------------------------
# GEN-11 extra turns, GEN-12 pass, GEN-4 order
# ---------------------------------------------------------------------------------------------


def test_extra_turns_chain_and_end() -> None:
    spot = position_of(
        {"G": ("R", "S"), "Y": ("B", "L"), "YG": ("B", "L"), "B": ("B", "M")}, "RB", "R=Y"
    )
    state = at(spot, colours="RB")
    state = play(state, "G-Y")
    assert (state.turn, state.roll, state.extra) == (0, -1, True)
    view = ENGINE.view(state, None)
    assert view.extra_turn
    assert view.roll is None
    assert view.reachable == ()
    state = play(state, "roll:G", "Y-YG")  # second capture, another turn
    assert (state.turn, state.extra) == (0, True)
    state = play(state, "roll:B")
    assert ENGINE.prompt(state, 0) == (
        "You rolled **blue** (extra turn after your capture): move a unit to a blue node or pass."
    )
    state = play(state, "pass")
    assert (state.turn, state.extra, state.count) == (1, False, 3)


def test_turn_order_skips_resigned_seats() -> None:
    state = at("G:gM,R:rM,B:bM G545,R545,Yx,B545 R=G 0")
    state = play(state, "pass")
    assert state.turn == 3  # Y resigned: R -> B
    state = play(state, "roll:G", "pass")
    assert state.turn == 0  # B -> G wraps around


def test_pass_is_always_legal_after_the_roll() -> None:
    state = at(position_of({"R": ("R", "M")}, "RB", "R=R"), colours="RB")
    assert ENGINE.parse_move(state, 0, " PASS ") == PASS
    assert ENGINE.parse_move(state, 0, "[0] pass") == PASS
    after = ENGINE.apply(state, 0, PASS)
    assert [e.text for e in after.events] == ["passed"]
    assert after.state.last is not None
    assert after.state.last.kind == "pass"


# ---------------------------------------------------------------------------------------------
# GEN-13 power coupling, GEN-14 when it is checked
# ---------------------------------------------------------------------------------------------

RED_COUPLING = {"GYBR": ("R", "S"), "YBR": ("R", "M"), "BR": ("R", "L")}


@pytest.mark.parametrize(
    ("stacks", "wins"),
    [
        (RED_COUPLING, True),
        ({**RED_COUPLING, "YBR": ("R", "MS"), "BR": ("R", "LMS")}, True),  # own pieces on top
        ({**RED_COUPLING, "BR": ("R", "LS")}, True),
        ({"GYBR": ("R", "S"), "YBR": ("R", "M"), "BR": ("R", "L"), "RR": ("R", "L")}, True),
        # An M in an L+M tower on level 2 is not a qualifying M (and no M on level 3).
        ({"GYBR": ("R", "S"), "YR": ("R", "LM"), "BR": ("R", "L")}, False),
        ({"GYBR": ("R", "S"), "RYR": ("R", "M"), "BR": ("R", "L")}, False),  # home branch
        ({"GYBR": ("R", "S"), "GBR": ("R", "M"), "BR": ("R", "L")}, False),  # branch G twice
        ({"GYBR": ("R", "S"), "YBY": ("R", "M"), "BR": ("R", "L")}, False),  # YBY is yellow
        ({"GYR": ("R", "S"), "YBR": ("R", "M"), "BR": ("R", "L")}, False),  # S not on level 4
        ({"GYBR": ("R", "S"), "YBR": ("R", "M"), "BG": ("R", "L")}, False),
        ({"GYBR": ("B", "S"), "YBR": ("R", "M"), "BR": ("R", "L")}, False),  # not Red's S
    ],
)
def test_power_coupling(stacks: dict[str, tuple[str, str]], wins: bool) -> None:
    turn = "coupling" if wins else "B=?"
    state = at(position_of(stacks, "RB", turn), colours="RB")
    assert has_coupling(state, 0) == wins
    assert reference.coupling(stacks, "R") == wins
    if wins:
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        assert outcome.winners == (0,)
        assert outcome.ranking == ((0,), (1,))


def test_coupling_wins_at_once_even_on_the_last_turn() -> None:
    spot = position_of(
        {"GYBR": ("R", "S"), "YBR": ("R", "M"), "BG": ("R", "L"), "B": ("B", "M")},
        "RB",
        "R=R",
        count=9,
    )
    state = at(spot, colours="RB", max_turns="10")
    transition = ENGINE.apply(state, 0, ENGINE.parse_move(state, 0, "BG-BR"))
    outcome = ENGINE.outcome(transition.state)
    assert outcome is not None
    assert outcome.termination == "coupling"
    assert outcome.winners == (0,)
    kinds = [e.kind for e in transition.events]
    assert kinds == ["moved", "coupling", "ended"]
    assert transition.events[1].cells == ("GYBR", "YBR", "BR")
    assert transition.events[2].text == "Red wins with a power coupling"
    assert ENGINE.to_move(transition.state) == ()


def test_a_position_with_a_coupling_is_over() -> None:
    # Blue holds a coupling while Red is to act: impossible in play (GEN-14), so rejected.
    blue = {"GYRB": ("B", "S"), "YRB": ("B", "M"), "RB": ("B", "L")}
    with pytest.raises(UsageError, match="check 7"):
        at(position_of(blue, "RB", "R=G"), colours="RB")
    assert at(position_of(blue, "RB", "coupling"), colours="RB").outcome is not None


# ---------------------------------------------------------------------------------------------
# GEN-15 resignation and the turn limit
# ---------------------------------------------------------------------------------------------


def test_resign_out_of_turn_keeps_the_roll() -> None:
    state = at("G:gM,R:rM,Y:yM,YG:rS G545,R445,Y545 G=B 4")
    transition = ENGINE.resign(state, 1)
    after = transition.state
    assert ENGINE.position(after) == "G:gM,Y:yM G545,Rx,Y545 G=B 4"
    assert (after.turn, after.roll, after.count) == (0, COLOURS.index("B"), 4)
    assert after.occupied[1] == ()
    assert [e.kind for e in transition.events] == ["resigned"]
    assert set(transition.events[0].cells) == {"R", "YG"}
    assert after.last is not None
    assert after.last.kind == "resign"
    assert after.last.roll is None
    with pytest.raises(IllegalMoveError, match="already left"):
        ENGINE.resign(after, 1)
    assert ENGINE.view(after, None).stashes[1] is None


def test_resign_by_the_seat_to_act_discards_its_roll() -> None:
    state = at("G:gM,R:rM,Y:yM G545,R545,Y545 R=Y 7")
    after = ENGINE.resign(state, 1).state
    assert ENGINE.position(after) == "G:gM,Y:yM G545,Rx,Y545 Y=? 7"
    assert ENGINE.to_move(after) == (CHANCE,)
    assert after.last is not None
    assert after.last.roll == COLOURS.index("Y")


def test_resign_until_one_is_left() -> None:
    state = at("G:gM,R:rM,Y:yM,B:bM G545,R545,Y545,B545 Y=G 3")
    state = ENGINE.resign(state, 0).state
    state = ENGINE.resign(state, 2).state
    transition = ENGINE.resign(state, 3)
    outcome = ENGINE.outcome(transition.state)
    assert outcome is not None
    assert (outcome.termination, outcome.winners, outcome.ranking) == (
        "resignation", (1,), ((1,), (0, 2, 3)),
    )  # fmt: skip
    assert ENGINE.position(transition.state) == "R:rM Gx,R545,Yx,Bx resignation 3"
    assert transition.events[-1].text == "Red wins: every other player has resigned"
    with pytest.raises(GameOverError):
        ENGINE.resign(transition.state, 1)


def test_resign_in_the_cli() -> None:
    spot = "G:gM,R:rM,Y:yM G545,R545,Y545 G=B 4"
    status, out = run(["generator", "--players", "3", "--position", spot, "resign", "roll:Y"])
    assert status == 0
    assert out["applied"] == ["[0]resign", "roll:Y"]
    assert out["position"] == "R:rM,Y:yM Gx,R545,Y545 R=Y 4"
    status, out = run(["generator", "--players", "3", "--position", spot, "[1]resign", "[1]RESIGN"])
    assert (status, out["error"]["kind"], out["error"]["index"]) == (1, "illegal", 1)
    status, out = run(["generator", "--players", "3", "--position", spot, "[3]resign"])
    assert (status, out["error"]["kind"]) == (1, "notation")
    # Generatorb leaves resignations to the bot: the token is not in its notation.
    status, out = run(["generatorb", "resign"])
    assert (status, out["error"]["kind"]) == (1, "notation")


def test_resign_is_not_a_move() -> None:
    state = at("R:rM,B:bM R545,B545 R=G 0", colours="RB")
    with pytest.raises(IllegalMoveError, match="resign"):
        ENGINE.parse_move(state, 0, "resign")
    assert "resign" not in " ".join(texts(state))


def test_turn_limit() -> None:
    state = at("G:gM,R:rM G545,R545,Yx R=G 4", max_turns="6")
    state = play(state, "pass", "roll:B")
    assert ENGINE.outcome(state) is None
    assert state.count == 5
    transition = ENGINE.apply(state, 0, PASS)
    outcome = ENGINE.outcome(transition.state)
    assert outcome is not None
    assert (outcome.termination, outcome.winners, outcome.ranking) == (
        "turn_limit", (), ((0, 1), (2,)),
    )  # fmt: skip
    assert transition.events[-1].text == "draw: the limit of 6 turns was reached"
    assert ENGINE.position(transition.state) == "G:gM,R:rM G545,R545,Yx turn_limit 6"


def test_coupling_outcome_ranks_the_resigned_last() -> None:
    spot = "Y:yM,BG:rL,YBR:rM,GYBR:rS G555,R444,Y545,Bx R=R 2"
    state = at(spot, colours="GRYB")
    after = ENGINE.apply(state, 1, ENGINE.parse_move(state, 1, "BG-BR")).state
    outcome = ENGINE.outcome(after)
    assert outcome is not None
    assert outcome.ranking == ((1,), (0, 2), (3,))


def test_game_over_refuses_everything() -> None:
    state = at("R:rM R545,Bx resignation 3", colours="RB")
    assert ENGINE.to_move(state) == ()
    assert ENGINE.legal_moves(state, 0) == []
    assert ENGINE.chance_outcomes(state) == ()
    for token in ("pass", "xyz", "roll:G"):
        with pytest.raises(GameOverError):
            ENGINE.parse_move(state, 0, token)
    with pytest.raises(GameOverError):
        ENGINE.apply_chance(state, "roll:G")
    view = ENGINE.view(state, 0)
    assert view.to_move is None
    assert view.roll is None
    assert view.reachable == ()
    assert ENGINE.prompt(state, 0) is None


# ---------------------------------------------------------------------------------------------
# Notation
# ---------------------------------------------------------------------------------------------

NOTATION_SPOT = position_of({"GG": ("R", "M"), "Y": ("R", "MS"), "B": ("B", "M")}, "RB", "R=R")


@pytest.mark.parametrize(
    ("token", "canonical"),
    [
        ("M:GG-GR", "M:GG-GR"),
        ("m:gg-gr", "M:GG-GR"),
        ("M GG-GR", "M:GG-GR"),
        ("M:GG - GR", "M:GG-GR"),  # SEP2 may have a space on each side
        ("GG-GR", "M:GG-GR"),
        ("gg>gr", "M:GG-GR"),
        ("GG > GR", "M:GG-GR"),
        ("GG GR", "M:GG-GR"),
        ("g.g to g.r", "M:GG-GR"),
        ("  gg   to  GR ", "M:GG-GR"),
        ("gr", "M:GG-GR"),
        ("G.R", "M:GG-GR"),
        ("[0]gr", "M:GG-GR"),
        ("[0] M:GG-GR", "M:GG-GR"),
        ("gg-ggr", "M:GG-GGR"),
        ("Y-R", "MS:Y-R"),
        ("m:y-r", "MS:Y-R"),
        ("s y r", "S:Y-R"),
        ("+s", "+S"),
        ("+ M", "+M"),
        ("enter L", "+L"),
        ("enter:s", "+S"),
        ("ENTER  m", "+M"),
        ("pass", "pass"),
    ],
)
def test_notation_forms(token: str, canonical: str) -> None:
    state = at(NOTATION_SPOT, colours="RB")
    move = ENGINE.parse_move(state, 0, token)
    assert ENGINE.format_move(state, move) == canonical
    assert ENGINE.parse_move(state, 0, canonical) == move


@pytest.mark.parametrize(
    ("token", "kind"),
    [
        ("", NotationError),
        ("xyz", NotationError),
        ("SM:Y-R", NotationError),  # not one of the seven units
        ("MM:Y-R", NotationError),
        ("M:RRRRR-R", NotationError),  # more than 4 letters
        ("RRRRR", NotationError),
        ("r..r", NotationError),
        ("roll:Q", NotationError),
        ("roll: R", NotationError),
        ("[0]roll:R", NotationError),
        ("[2]pass", NotationError),  # seat number >= players
        ("[x]pass", NotationError),
        ("+X", NotationError),
        ("+SM", NotationError),
        ("R--RR", NotationError),
        ("R-RR-RRR", NotationError),
        ("M:R-", NotationError),
        ("M : Y - R", NotationError),  # SEP1 is `:` or a space, never both
        ("M: Y-R", NotationError),
        ("enter: s", NotationError),
        ("enter :s", NotationError),
        ("passs", NotationError),
        ("[1]pass", NotYourTurnError),
        ("roll:R", IllegalMoveError),  # already rolled
        ("RY", IllegalMoveError),  # destination-only: nothing goes there
        ("R", AmbiguousMoveError),  # MS:Y-R and S:Y-R; entries are not considered
        ("YR", AmbiguousMoveError),  # MS:Y-YR and S:Y-YR
        ("Y-YY", IllegalMoveError),
    ],
)
def test_notation_errors(token: str, kind: type[MoveError]) -> None:
    state = at(NOTATION_SPOT, colours="RB")
    with pytest.raises(kind) as caught:
        ENGINE.parse_move(state, 0, token)
    assert type(caught.value) is kind
    if isinstance(caught.value, AmbiguousMoveError):
        assert caught.value.candidates == (f"MS:Y-{token}", f"S:Y-{token}")


def test_destination_only_ignores_entries() -> None:
    state = at(position_of({}, "RB", "R=R"), colours="RB")
    with pytest.raises(IllegalMoveError, match="no legal move goes to R"):
        ENGINE.parse_move(state, 0, "R")
    blocked = at(position_of({"G": ("R", "M"), "Y": ("B", "S")}, "RB", "R=Y"), colours="RB")
    with pytest.raises(IllegalMoveError, match="lone Small"):
        ENGINE.parse_move(blocked, 0, "Y")


def test_not_your_turn_and_pending_roll() -> None:
    state = at("R:rM,B:bM R545,B545 R=G 0", colours="RB")
    with pytest.raises(NotYourTurnError):
        ENGINE.parse_move(state, 1, "pass")
    pending = at("R:rM,B:bM R545,B545 R=? 0", colours="RB")
    with pytest.raises(IllegalMoveError, match="not been rolled"):
        ENGINE.parse_move(pending, 0, "pass")
    assert ENGINE.legal_moves(pending, 0) == []


def test_events_and_prompts() -> None:
    state = at(position_of({"G": ("R", "S"), "Y": ("R", "M")}, "RB", "R=Y"), colours="RB")
    transition = ENGINE.apply(state, 0, ENGINE.parse_move(state, 0, "G-Y"))
    assert [(e.kind, e.text, e.cells) for e in transition.events] == [
        ("stacked", "moved S from G onto their M on Y", ("G", "Y"))
    ]
    moved = ENGINE.apply(state, 0, ENGINE.parse_move(state, 0, "Y-YY")).events
    assert [(e.kind, e.text) for e in moved] == [("moved", "moved M from Y to YY")]
    assert ENGINE.prompt(state, 0) == "You rolled **yellow**: move a unit to a yellow node or pass."
    assert ENGINE.prompt(state, 1) is None
    red = at(position_of({"G": ("R", "S")}, "RB", "R=R"), colours="RB")
    assert ENGINE.prompt(red, 0) == (
        "You rolled **red**: move a unit to a red node, enter onto your start node R, or pass."
    )
    stuck = at(position_of({"RG": ("R", "L")}, "RB", "R=G"), colours="RB")
    assert ENGINE.prompt(stuck, 0) == "You rolled **green**: no legal move, so pass."
    rolled = ENGINE.apply_chance(at("R:rM,B:bM R545,B545 R=? 0", colours="RB"), "roll:y")
    assert rolled.events[0].text == "Red rolled yellow (Y)"  # the roller is named


def test_view() -> None:
    state = at(position_of({"G": ("R", "S"), "Y": ("B", "L"), "R": ("R", "M")}, "RB", "R=R"),
               colours="RB")  # fmt: skip
    view = ENGINE.view(state, 1)
    assert view.colours == (1, 3)
    assert view.stacks == ((index("G"), 0, "S"), (index("R"), 0, "M"), (index("Y"), 1, "L"))
    assert view.stashes == ((4, 4, 5), (5, 5, 4))
    assert (view.to_move, view.roll, view.extra_turn, view.count) == (0, 1, False, 0)
    # Moves to R (S:G-R), RR (M:R-RR) and GR (S:G-GR); no entry onto the own Medium.
    assert view.reachable == (index("R"), index("GR"), index("RR"))
    assert view.viewer == 1
    assert view.outcome is None
    assert view.last is None
    assert "seed" not in repr(view)


# ---------------------------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "options"),
    [
        ("G:gM,R:rM G545,R545 G=? 0", {}),
        ("G:gM,R:rM,Y:yM,B:bM G545,R545,Y545,B545 B=R 12", {}),
        ("- R555,B555 B=Y 3", {"colours": "RB"}),
        ("Y:rMS,GRY:bM,GYBR:rS R345,B545 B=? 120", {"colours": "RB"}),
        ("R:rM,B:bM R545,B545 turn_limit 10", {"colours": "RB", "max_turns": "10"}),
        ("G:gM G545,Rx,Yx resignation 4", {}),
        ("BR:rL,YBR:rM,GYBR:rS R444,B555 coupling 1", {"colours": "RB"}),
    ],
)
def test_position_round_trips(text: str, options: dict[str, str]) -> None:
    state = at(text, **options)
    assert ENGINE.position(state) == text
    assert ENGINE.rng_state(state) == (0, 0)
    assert ENGINE.loads(ENGINE.dumps(state)) == state


@pytest.mark.parametrize(
    ("text", "options"),
    [
        ("G:gM,R:rM G545,R545 G=? 0 extra", {}),  # fields
        ("G:gM,R:rM  G545,R545 G=? 0", {}),
        ("G:gM,R:rM G545,R545 G=?", {}),
        ("R:rM,G:gM G545,R545 G=? 0", {}),  # 1: node order
        ("g:gM,R:rM G545,R545 G=? 0", {}),  # 1: case
        ("G:gM,R:rM G545,R545 g=? 0", {}),
        ("G:gM,R:rM G545,R545 G=? 00", {}),  # 1: leading zero
        ("G:GM,R:rM G545,R545 G=? 0", {}),
        ("G:gM,R:rM R545,G545 G=? 0", {}),  # stash order
        ("G:gM,RG:rL,R:rM G545,R544 G=? 0", {}),
        ("G:gSM,R:rM G445,R545 G=? 0", {}),  # not a stack
        ("GGG:gL,R:rM G544,R545 G=? 0", {}),  # 2: L on level 3
        ("GGGG:gM,R:rM G545,R545 G=? 0", {}),  # 2: M on level 4
        ("G:gM,R:rM G545,R545 G=? 0", {"colours": "RB"}),  # 3: stash colours
        ("G:gM,R:rM G545,R555 G=? 0", {}),  # 4: totals
        ("G:gM,R:rM G545,R545,Y555 G=? 0", {"colours": "GR"}),
        ("G:gM,R:rM G545,Rx G=? 0", {}),  # 5: a resigned colour on the board
        ("G:gM,Y:yM G545,Rx,Y545 R=? 0", {}),  # 6: TURN colour resigned
        ("R:rM,B:bM R545,B545 G=? 0", {"colours": "RB"}),  # 6: not in use
        ("R:rM,B:bM R545,B545 coupling 0", {"colours": "RB"}),  # 7
        ("R:rM,B:bM R545,B545 resignation 0", {"colours": "RB"}),
        ("R:rM,B:bM R545,B545 turn_limit 9", {"colours": "RB", "max_turns": "10"}),
        ("R:rM,B:bM R545,B545 R=G 10", {"colours": "RB", "max_turns": "10"}),
        ("G:gM G545,Rx R=G 4", {}),
        ("- Gx,Rx resignation 4", {}),
        ("BR:rL,YBR:rM,GYBR:rS R444,B555 R=R 1", {"colours": "RB"}),
        ("RB:bL,BR:rL,YRB:bM,YBR:rM,GYRB:bS,GYBR:rS R444,B444 coupling 1", {"colours": "RB"}),
        ("Q:gM,R:rM G545,R545 G=? 0", {}),
        ("G:gM,R:rM G545,R54 G=? 0", {}),
        ("G:gM,R:rM G545,R546 G=? 0", {}),
    ],
)
def test_malformed_positions(text: str, options: dict[str, str]) -> None:
    with pytest.raises(UsageError, match="malformed position"):
        at(text, **options)


def test_position_with_three_players_under_default_colours() -> None:
    # The engine contract passes no player count to from_position: the stashes give it.
    state = at("G:gM,R:rM,Y:yM G545,R545,Y545 G=? 0")
    assert state.players == 3


# ---------------------------------------------------------------------------------------------
# Cross-check against the naive reference on random positions
# ---------------------------------------------------------------------------------------------


def random_position(rng: Rng) -> tuple[str, dict[str, str]]:
    """A random position text and its options (may hold a coupling: the caller checks)."""
    players = 2 + rng.below(3)
    colours = "".join(sorted(rng.shuffled(COLOURS)[:players], key=COLOURS.index))
    resigned = ""
    if players >= 3 and rng.below(3) == 0:
        resigned = colours[rng.below(players)]
    in_game = [c for c in colours if c not in resigned]
    stacks: dict[str, tuple[str, str]] = {}
    used = dict.fromkeys(colours, "")
    for _ in range(rng.below(30)):
        name = NAMES[rng.below(len(NAMES))]
        owner = in_game[rng.below(len(in_game))]
        sizes = STACK_TEXT[1 + rng.below(7)]
        if name in stacks or len(name) > {"L": 2, "M": 3, "S": 4}[sizes[0]]:
            continue
        if any((used[owner] + sizes).count(size) > 5 for size in "SML"):
            continue
        stacks[name] = (owner, sizes)
        used[owner] += sizes
    turn = f"{in_game[rng.below(len(in_game))]}={COLOURS[rng.below(4)]}"
    options = {"colours": colours}
    if rng.below(2):
        options["horizontal"] = "adjacent"
    return position_of(stacks, colours, turn, rng.below(50), resigned), options


@pytest.mark.parametrize("seed", range(400))
def test_legal_moves_match_reference(seed: int) -> None:
    text, options = random_position(Rng(seed))
    board_text = text.split()[0]
    stacks = {
        entry.split(":")[0]: (entry.split(":")[1][0].upper(), entry.split(":")[1][1:])
        for entry in board_text.split(",")
        if entry != "-"
    }
    if any(reference.coupling(stacks, colour) for colour in options["colours"]):
        with pytest.raises(UsageError, match="check 7"):  # the game would already be over
            at(text, **options)
        return
    state = at(text, **options)
    seat = state.turn
    colour = COLOURS[state.rules.colours[seat]]
    board = {
        NAMES[node]: (COLOURS[state.rules.colours[code >> 3]], STACK_TEXT[code & 7])
        for node, code in enumerate(state.board)
        if code
    }
    stash = state.stashes[seat]
    assert stash is not None
    expected = reference.moves(
        board,
        colour,
        dict(zip("SML", stash, strict=True)),
        COLOURS[state.roll],
        options.get("horizontal") == "adjacent",
    )
    assert texts(state) == expected, text
    for other in range(state.players):
        assert has_coupling(state, other) == reference.coupling(
            board, COLOURS[state.rules.colours[other]]
        )


# ---------------------------------------------------------------------------------------------
# Seeded random playouts with invariants after every ply
# ---------------------------------------------------------------------------------------------


def check_invariants(state: GeneratorState) -> None:
    players = state.players
    counts = [[0, 0, 0] for _ in range(players)]
    for node, code in enumerate(state.board):
        if not code:
            continue
        owner, stack = code >> 3, code & 7
        assert owner < players
        assert state.stashes[owner] is not None
        assert node in state.occupied[owner]
        sizes = STACK_TEXT[stack]
        assert sizes in ("L", "M", "S", "LM", "LS", "MS", "LMS")  # strictly shrinking upwards
        assert len(NAMES[node]) <= {"L": 2, "M": 3, "S": 4}[sizes[0]]  # GEN-8
        for slot, size in enumerate("SML"):
            counts[owner][slot] += size in sizes
    for seat in range(players):
        assert list(state.occupied[seat]) == sorted(set(state.occupied[seat]))
        assert all(state.board[n] >> 3 == seat and state.board[n] for n in state.occupied[seat])
        stash = state.stashes[seat]
        if stash is None:
            assert state.occupied[seat] == ()
        else:  # 15 pyramids per player accounted for
            assert [counts[seat][k] + stash[k] for k in range(3)] == [5, 5, 5]
    if state.outcome is None:
        assert state.stashes[state.turn] is not None


def same_position_fields(a: GeneratorState, b: GeneratorState) -> bool:
    """Equality in every field the position notation holds."""
    running = a.outcome is None
    return (
        a.board == b.board
        and a.occupied == b.occupied
        and a.stashes == b.stashes
        and a.count == b.count
        and a.rules.colours == b.rules.colours
        and a.outcome == b.outcome
        and (not running or (a.turn, a.roll) == (b.turn, b.roll))
    )


PLAYOUT_OPTIONS = [
    {"max_turns": "250"},
    {"max_turns": "250", "horizontal": "adjacent"},
    {"max_turns": "250", "first_player": "seat0"},
]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_keep_invariants(players: int) -> None:
    endings: Counter[str] = Counter()
    actions = resignations = 0
    for number, options in enumerate(PLAYOUT_OPTIONS):
        opts = ENGINE.resolve_options(options)
        rng = Rng(players * 100 + number)
        for game in range(3):
            state = ENGINE.new_game(players, opts, number * 10 + game)
            while ENGINE.to_move(state):
                if rng.below(500) == 0:  # now and then a seat resigns, in turn or not
                    seat = rng.below(players)
                    if state.stashes[seat] is not None:
                        state = ENGINE.resign(state, seat).state
                        check_invariants(state)
                        resignations += 1
                        continue
                if ENGINE.to_move(state) == (CHANCE,):
                    state = ENGINE.apply_chance(state, ENGINE.sample_chance(state)).state
                    continue
                seat = state.turn
                moves = ENGINE.legal_moves(state, seat)
                move_texts = [ENGINE.format_move(state, m) for m in moves]
                assert len(set(move_texts)) == len(move_texts)  # one canonical string each
                for move, text in zip(moves, move_texts, strict=True):
                    assert ENGINE.parse_move(state, seat, text) == move  # format∘parse = id
                move = moves[rng.below(len(moves))]
                frozen = copy.deepcopy(state)
                after = ENGINE.apply(state, seat, move).state
                assert state == frozen  # apply never mutates its input
                assert after.count == state.count + 1
                check_invariants(after)
                again = ENGINE.from_position(ENGINE.position(after), opts)
                assert same_position_fields(again, after), ENGINE.position(after)
                assert ENGINE.loads(ENGINE.dumps(after)) == after
                state = after
                actions += 1
            outcome = ENGINE.outcome(state)
            assert outcome is not None
            endings[outcome.termination] += 1
            if outcome.termination == "coupling":
                assert has_coupling(state, outcome.winners[0])
    assert set(endings) <= {"coupling", "resignation", "turn_limit"}
    assert endings["turn_limit"] > 0
    assert actions > 900
    assert resignations > 0


def test_two_player_playouts_end_in_couplings() -> None:
    rng = Rng(77)
    for game in range(6):
        state = ENGINE.new_game(2, DEFAULTS, game)
        while ENGINE.to_move(state):
            if ENGINE.to_move(state) == (CHANCE,):
                state = ENGINE.apply_chance(state, ENGINE.sample_chance(state)).state
            else:
                moves = ENGINE.legal_moves(state, state.turn)
                state = ENGINE.child(state, state.turn, moves[rng.below(len(moves))])
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        assert outcome.termination == "coupling"
        assert has_coupling(state, outcome.winners[0])
        assert not has_coupling(state, 1 - outcome.winners[0])
        check_invariants(state)


def test_dump_and_load_keep_what_a_position_does_not() -> None:
    state = at(position_of({"G": ("R", "S"), "Y": ("B", "L")}, "RB", "R=Y"), colours="RB")
    state = play(state, "G-Y")  # capture: extra turn, last action with a capture
    assert state.extra
    assert state.last is not None
    assert state.last.captured == (1, "L")
    assert ENGINE.loads(ENGINE.dumps(state)) == state
    again = ENGINE.from_position(ENGINE.position(state), dict(state.rules.options))
    assert not again.extra
    assert again.last is None


def test_moves_are_small_immutable_values() -> None:
    move = GeneratorMove(index("R"), index("RR"), 2)
    assert format_move(move) == "M:R-RR"
    assert format_move(GeneratorMove(-1, index("R"), 4)) == "+L"
    assert PASS.is_pass
    assert not PASS.is_entry
    assert hash(at("R:rM,B:bM R545,B545 R=G 0", colours="RB")) is not None


def test_an_empty_option_value_is_a_usage_error_and_max_turns_has_no_upper_bound() -> None:
    """Spec generator, Options: `colours` of the wrong length (0 letters too) is a usage
    error; `max_turns` is an "integer ≥ 0"."""
    status, out = run(["generator", "--players", "3", "--option", "colours="])
    assert status == 2
    assert "colours" in out["error"]["message"]
    status, out = run(
        ["generator", "--option", "max_turns=100001", "--option", "first_player=seat0"]
    )
    assert status == 0
    assert out["options"]["max_turns"] == 100001
    status, out = run(["generator", "--option", "max_turns=-1"])
    assert status == 2
    assert "an integer ≥ 0" in out["error"]["message"]


def test_seed_seeds_the_rolls_after_a_position_too() -> None:
    """engine-cli.md: `--seed` seeds the die after `--position` too (D-GEN-17: a position
    holds no generator)."""
    flags = ["--option", "colours=RB", "--position", "R:rM,B:bM R545,B545 R=R 0", "pass"]

    def rolls(seed: int) -> tuple[str, ...]:
        status, out = run(["generator", "--seed", str(seed), *flags])
        assert status == 0
        return tuple(out["applied"])

    assert rolls(3) == rolls(3)
    assert len({rolls(seed) for seed in range(8)}) > 1


def test_the_view_of_a_game_won_by_a_coupling_names_its_nodes() -> None:
    """Spec gen-G19: Red's L:BG-BR completes the coupling; the view names its (S, M, L)
    nodes for the final picture, and no other view does."""
    before = at("BG:rL,YBR:rM,GYBR:rS R444,B555 R=R 0", colours="RB")
    assert ENGINE.view(before, None).coupling == ()
    after = play(before, "BG-BR")
    assert ENGINE.outcome(after) is not None
    assert ENGINE.view(after, None).coupling == (index("GYBR"), index("YBR"), index("BR"))
