"""Generatorb beyond the spec's scenarios: notation edge cases, a cross-check against an
independent reference move generator, and seeded random playouts with invariants."""

from __future__ import annotations

import pytest

from engines.base import (
    IllegalMoveError,
    MoveError,
    NotationError,
    NotYourTurnError,
    UsageError,
)
from engines.generatorb import (
    CORES,
    FRONT_LINE,
    GRID,
    GeneratorbEngine,
    GeneratorbState,
)
from engines.rng import Rng
from tests.engines import generatorb_reference as reference

ENGINE = GeneratorbEngine()
DEFAULTS = ENGINE.resolve_options({})


def at(position: str, **options: str) -> GeneratorbState:
    return ENGINE.from_position(position, ENGINE.resolve_options(options))


START = ENGINE.new_game(2, DEFAULTS, 0)
SPLIT_SPOT = "S:c3=2,d4,e5=2 N:h8 supply:0/0 turn:S ply:0 passes:0"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("e2e4", NotationError),  # no separator
        ("c1-c9", NotationError),  # off the board
        ("a1-a3=4", NotationError),
        ("a1-a3~a5", NotationError),  # ~ only first
        ("a1xa3-a5", NotationError),  # claim before the last hop
        ("a1-a3*a5", NotationError),  # * in a whole-piece move
        ("a1-a3#a5", NotationError),
        ("a1a3", NotationError),
        ("[x]a1-a3", NotationError),
        ("a1-a3@", NotationError),
        ("a1-a3@b9", NotationError),
        ("passx", NotationError),
        ("", NotationError),
        ("a1 - a3 !", NotationError),
        ("[1]a1-a3", NotYourTurnError),
        ("a1-a2", IllegalMoveError),  # an orb never steps
        ("e5-e3", IllegalMoveError),  # not South's piece
        ("a1-a3=2", IllegalMoveError),  # merge claimed on an empty landing
        ("a1-a3@a1", None),  # the default refill cell named: accepted and dropped
        ("A1 - A3", None),
        ("[0] a1:a3", None),
        ("[0000]a1-a3", None),  # "[" digits "]": leading zeros are digits too
        ("[0001]a1-a3", NotYourTurnError),
    ],
)
def test_notation_at_start(text: str, kind: type[MoveError] | None) -> None:
    if kind is None:
        move = ENGINE.parse_move(START, 0, text)
        assert ENGINE.format_move(START, move) == "a1-a3"
    else:
        with pytest.raises(kind):
            ENGINE.parse_move(START, 0, text)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("a1 a3", "write a1-a3, with a hyphen between the cells (~ for a split)"),
        ("a1 to a3", "write a1-a3, with a hyphen between the cells (~ for a split)"),
        ("A1 TO A3", "write a1-a3, with a hyphen between the cells (~ for a split)"),
        ("a1-a3 a5", "write a1-a3-a5, with a hyphen between the cells (~ for a split)"),
        # The whole move written out, suffixes kept, only when it reads (review 3).
        ("a1 a3 a5", "write a1-a3-a5, with a hyphen between the cells (~ for a split)"),
        ("a1 to a3@b1", "write a1-a3@b1, with a hyphen between the cells (~ for a split)"),
        ("a1 a3=2", "write a1-a3=2, with a hyphen between the cells (~ for a split)"),
        ("e2e4", "write e2-e4, with a hyphen between the cells (~ for a split)"),
        # Else what was typed up to the gap, else an example (review 4).
        ("c3 d4x", "write c3-d4, with a hyphen between the cells (~ for a split)"),
        ("a1xa3 a5", "write the cells with a hyphen between them, e.g. a1-a3 (~ for a split)"),
        ("a1?a3", "'?' is not a separator; write the cells with a hyphen between them, e.g."),
    ],
)
def test_cells_without_a_separator_are_refused_with_the_move_written_out(
    text: str, why: str
) -> None:
    """Section 6 removes spaces first, so "a1 a3" and "a1 to a3" have no separator (a
    notation error like ``e2e4``): the refusal writes the move with a hyphen instead of
    calling the next cell's letter ("'t' is not a separator", exploratory pass 10)."""
    with pytest.raises(NotationError) as refused:
        ENGINE.parse_move(START, 0, text)
    assert refused.value.message.startswith(f"{text!r} is not a Generatorb move: {why}")


def test_the_notation_help_shows_the_refill_cell_as_a_suffix() -> None:
    """``@b1`` alone is no move (exploratory pass 10): the help shows it after a move."""
    help_text = ENGINE.info.notation_help
    assert "`a1-a3@b1`" in help_text
    assert "`@b1` chooses" not in help_text


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("c3~e5=3", "c3~e5=3"),
        ("c3/e5=3", "c3~e5=3"),
        ("c3#e5=3", "c3~e5=3"),
        ("c3#e5", "c3~e5=3"),
        ("c3~e5#", None),  # trailing garbage
        ("c3-c4", "c3-c4"),
        ("c3/c4", "c3~c4"),
        ("c3+d4", "c3-d4=3"),
        ("c3~d4=2", "c3~d4=2"),
    ],
)
def test_split_and_merge_forms(text: str, canonical: str | None) -> None:
    state = at(SPLIT_SPOT)
    if canonical is None:
        with pytest.raises(NotationError):
            ENGINE.parse_move(state, 0, text)
    else:
        assert ENGINE.format_move(state, ENGINE.parse_move(state, 0, text)) == canonical


def test_highlight_route_depends_only_on_the_canonical_move() -> None:
    state = at("S:c1,c2 N:c4,c5 supply:0/0 turn:S ply:0 passes:0")
    after = ENGINE.apply(state, 0, ENGINE.parse_move(state, 0, "c1-c3-c5")).state
    assert after.last is not None
    assert after.last.path == (GRID.index_of["c3"],)
    plain = ENGINE.apply(state, 0, ENGINE.parse_move(state, 0, "c1xc5")).state
    assert ENGINE.position(after) == ENGINE.position(plain)
    assert after == plain  # so replaying the canonical log reproduces the stored state


@pytest.mark.parametrize(
    "bad_path",
    [
        "c1-c2-c5",  # a step in a path
        "c1-e3-c5",  # nothing jumped on d2
        "c1-c3-c1-c5",  # lands on the origin
    ],
)
def test_bad_paths_are_illegal(bad_path: str) -> None:
    state = at("S:c1,c2 N:c4,c5 supply:0/0 turn:S ply:0 passes:0")
    with pytest.raises((IllegalMoveError, NotationError)):
        ENGINE.parse_move(state, 0, bad_path)


@pytest.mark.parametrize("text", ["[00", "[11", "[0a1-a3"])
def test_an_unclosed_seat_prefix_is_named_as_such(text: str) -> None:
    # "[00" was read as seat 0, then refused as not starting with a cell.
    with pytest.raises(NotationError, match=r"seat prefix is written like \[0\]"):
        ENGINE.parse_move(START, 0, text)


@pytest.mark.parametrize("text", ["c3xd4=2", "c3*d4=2"])
def test_a_height_claimed_on_a_capture_says_nothing_is_merged(text: str) -> None:
    # It said "this merge makes height 0, not 2": a capture is no merge of height 0.
    state = at("S:a1,a2,b1,b2,c3=2 N:h8,h7,g8,g7,d4 supply:17/17 turn:S ply:0 passes:0")
    with pytest.raises(IllegalMoveError, match="merge of height 2, but nothing is merged on d4"):
        ENGINE.parse_move(state, 0, text)


def test_enemy_globe_cannot_be_jumped() -> None:
    state = at("S:c3 N:d4=3,h8 supply:0/0 turn:S ply:0 passes:0")
    assert ENGINE.legal_move_texts(state, 0) == ["pass"]
    with pytest.raises(IllegalMoveError, match="globe"):
        ENGINE.parse_move(state, 0, "c3-e5")


def test_reasons_name_the_rule() -> None:
    with pytest.raises(IllegalMoveError, match="G15"):
        ENGINE.parse_move(START, 0, "b2-c3")
    with pytest.raises(IllegalMoveError, match="G17"):
        ENGINE.parse_move(START, 0, "b2-d4")


def test_resolve_options_preset_and_overrides() -> None:
    assert ENGINE.resolve_options({"preset": "abstractplay"})["start_supply"] == 20
    assert ENGINE.resolve_options({"preset": "abstractplay"})["refill"] == "all"
    both = ENGINE.resolve_options({"refill": "one", "preset": "abstractplay"})
    assert both["refill"] == "one"
    assert ENGINE.resolve_options({"start_globes": "FALSE"})["start_supply"] == 20
    assert ENGINE.resolve_options({}, preset="no_globes")["start_globes"] is False
    assert list(DEFAULTS) == [
        "preset", "start_globes", "start_supply", "refill", "move_limit", "repetition_draw",
    ]  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Cross-check against the reference generator on random positions
# ---------------------------------------------------------------------------------------------


def random_position(rng: Rng) -> GeneratorbState:
    """A random position: stacks anywhere, globes obeying G21, nobody already winning."""
    while True:
        board = [0] * 64
        for cell in range(64):
            roll = rng.below(100)
            if roll < 45:
                continue
            height = 1 + (roll % 3 if roll % 7 else 2)
            board[cell] = height if rng.below(2) else -height
        # Globes: drop the ones that break G21, so positions stay reachable-looking.
        for cell in range(64):
            if abs(board[cell]) == 3 and (
                cell in CORES or any(abs(board[n]) == 3 for n in GRID.orthogonal[cell])
            ):
                board[cell] = 2 if board[cell] > 0 else -2
        turn = rng.below(2)
        text = _position_of(board, turn, rng.below(4), rng.below(4))
        try:
            state = at(text)
        except UsageError:  # the mover already meets a win condition (D-G25)
            continue
        if state.outcome is None:  # else the other side already won: not a position to move in
            return state


def _position_of(board: list[int], turn: int, south_supply: int, north_supply: int) -> str:
    def pieces(sign: int) -> str:
        parts = []
        for cell in range(64):
            h = board[cell] * sign
            if h > 0:
                parts.append(GRID.names[cell] + ("" if h == 1 else f"={h}"))
        return ",".join(parts) or "-"

    return (
        f"S:{pieces(1)} N:{pieces(-1)} supply:{south_supply}/{north_supply} "
        f"turn:{'SN'[turn]} ply:0 passes:0"
    )


@pytest.mark.parametrize("seed", range(300))
def test_legal_moves_match_reference(seed: int) -> None:
    state = random_position(Rng(seed))
    board = {GRID.xy(cell): (0 if v > 0 else 1, abs(v)) for cell, v in enumerate(state.board) if v}
    expected = reference.moves(board, state.turn)
    got = {
        (m.origin, m.destination, m.split, m.capture, m.merged)
        for m in ENGINE.legal_moves(state, state.turn)
        if not m.is_pass
    }
    assert got == expected, ENGINE.position(state)


# ---------------------------------------------------------------------------------------------
# Random playouts with invariants
# ---------------------------------------------------------------------------------------------


def check_invariants(state: GeneratorbState, captured: list[int], total: int) -> None:
    for seat, sign in ((0, 1), (1, -1)):
        on_board = sum(v * sign for v in state.board if v * sign > 0)
        assert on_board + state.supply[seat] + captured[seat] == total  # every orb accounted for
    for cell, v in enumerate(state.board):
        assert -3 <= v <= 3
        if abs(v) == 3:
            assert cell not in CORES
            assert all(abs(state.board[n]) != 3 for n in GRID.orthogonal[cell])
    assert 0 <= state.passes <= 2


@pytest.mark.parametrize("options", [{}, {"preset": "abstractplay"}, {"start_globes": "false"}])
def test_random_playouts_keep_invariants(options: dict[str, str]) -> None:
    opts = ENGINE.resolve_options(options)
    total = int(opts["start_supply"]) + (7 if opts["start_globes"] else 4)
    rng = Rng(2024)
    endings: set[str] = set()
    for _game in range(70):
        state = ENGINE.new_game(2, opts, 0)
        captured = [0, 0]
        while ENGINE.to_move(state):
            seat = state.turn
            moves = ENGINE.legal_moves(state, seat)
            texts = [ENGINE.format_move(state, m) for m in moves]
            assert len(set(texts)) == len(texts)  # one canonical string per move
            move = moves[rng.below(len(moves))]
            text = ENGINE.format_move(state, move)
            assert ENGINE.parse_move(state, seat, text) == move  # format∘parse is the identity
            before = (state.board, state.supply, state.ply, state.seen)
            if move.capture:
                captured[1 - seat] += abs(state.board[move.destination])
            after = ENGINE.apply(state, seat, move).state
            assert (state.board, state.supply, state.ply, state.seen) == before  # not mutated
            check_invariants(after, captured, total)
            again = ENGINE.from_position(ENGINE.position(after), opts)
            assert ENGINE.position(again) == ENGINE.position(after)
            assert (again.outcome is None) == (after.outcome is None) or (
                after.outcome is not None and after.outcome.termination == "repetition"
            )
            state = after
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        endings.add(outcome.termination)
        if outcome.winners:
            winner = outcome.winners[0]
            sign = 1 if winner == 0 else -1
            held = sum(1 for c in FRONT_LINE if state.board[c] * sign > 0)
            assert state.board[CORES[1 - winner]] * sign > 0 or held >= 5
    assert endings & {"core", "front_line"}


@pytest.mark.parametrize(
    "text",
    [
        "S:a1=1 N:h8 supply:0/0 turn:S ply:0 passes:0",  # an orb is written as its bare cell
        "S:a1=4 N:h8 supply:0/0 turn:S ply:0 passes:0",
        "S:a1  N:h8 supply:0/0 turn:S ply:0 passes:0",  # two spaces
        "S:a1\tN:h8 supply:0/0 turn:S ply:0 passes:0",  # a tab
        "S:a1 N:h8 supply:017/17 turn:S ply:0 passes:0",  # numbers without leading zeros
        "S:a1 N:h8 supply:0/00 turn:S ply:0 passes:0",
        "S:a1 N:h8 supply:0/0 turn:S ply:007 passes:0",
    ],
)
def test_a_position_off_the_grammar_is_malformed(text: str) -> None:
    """Spec generatorb section 7: single spaces between fields; `cell=2` and `cell=3` only;
    numbers as printed (only case and the order of a player's pieces may differ)."""
    with pytest.raises(UsageError, match="malformed position"):
        ENGINE.from_position(text, ENGINE.resolve_options({}))


def test_a_position_line_may_end_in_whitespace() -> None:
    text = "S:a1,b2=2 N:h8=3 supply:0/0 turn:S ply:0 passes:0"
    state = ENGINE.from_position(f" {text}\n", ENGINE.resolve_options({}))
    assert ENGINE.position(state) == text


def test_dump_and_load_round_trip_mid_game() -> None:
    rng = Rng(7)
    state = START
    for _ in range(60):
        if not ENGINE.to_move(state):
            break
        moves = ENGINE.legal_moves(state, state.turn)
        state = ENGINE.apply(state, state.turn, moves[rng.below(len(moves))]).state
    loaded = ENGINE.loads(ENGINE.dumps(state))
    assert loaded == state


def test_several_refilled_cells_are_named_as_a_list_with_and() -> None:
    """G23's refill event: "2 orbs enter h7 and h8 from the supply" (a position reached in
    random play with the abstractplay preset)."""
    position = (
        "S:a1,a2,a4,b1=3,b2,c1=2,c2=2,d2=3,d7=3,d8,e1=3,e2,f1,f2,h4 "
        "N:c8=3,e6,e8=3,f4,f6=3,g5,g6,g7,g8,h3,h8 supply:2/8 turn:N ply:101 passes:0"
    )
    state = ENGINE.from_position(position, ENGINE.resolve_options({"preset": "abstractplay"}))
    _, _, events = ENGINE.play(state, 1, "h8-h6")
    assert [e.text for e in events if e.kind == "refilled"] == [
        "2 orbs enter h7 and h8 from the supply"
    ]
