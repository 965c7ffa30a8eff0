"""Arbos beyond the spec's scenarios: a naive reference move generator, seeded playouts with
invariants, scoring, setup, pruning, notation, autocomplete and the CLI's chance handling.

The reference (:func:`reference_moves`) is deliberately literal: it tries every move the
notation can express, builds the board it would leave and counts trees with its own flood
fill, so it shares no move logic with ``engines/arbos.py``.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from engines import arbos
from engines.__main__ import run
from engines.arbos import (
    BLACK,
    EMPTY,
    SEED,
    WHITE,
    ArbosEngine,
    ArbosState,
    _has_action,  # the A19 b check itself
    cell_name,
    random_spore,
)
from engines.base import CHANCE, IllegalMoveError, NotationError, UsageError
from engines.rng import Rng

ENGINE = ArbosEngine()
ROWS = "ABCDEFGHIJKLMNOPQRST"
EMPTY_BOARD = "/".join(["20"] * 20)


def pos(board: str = EMPTY_BOARD, **fields: str) -> str:
    values = {
        "phase": "play",
        "turn": "W",
        "setup": "0/0",
        "hands": "0/0",
        "supply": "80/80",
        "passes": "0",
        "prune": "0",
    }
    values.update(fields)
    return board + "".join(f" {k}:{v}" for k, v in values.items())


def board_with(**cells: str) -> str:
    """A board string with the given cells set, e.g. ``board_with(K5="w", A1="g")``."""
    grid = [["."] * 20 for _ in range(20)]
    for name, token in cells.items():
        grid[ROWS.index(name[0])][int(name[1:]) - 1] = token
    rows = []
    for row in grid:
        out, run = "", 0
        for token in row:
            if token == ".":
                run += 1
                continue
            out += (str(run) if run else "") + token
            run = 0
        rows.append(out + (str(run) if run else ""))
    return "/".join(rows)


def load(text: str, **options: str) -> ArbosState:
    return ENGINE.from_position(text, ENGINE.resolve_options(options))


# --------------------------------------------------------------------------------------------
# The naive reference
# --------------------------------------------------------------------------------------------


def neighbours(cell: int, sides_only: bool = False) -> list[int]:
    r, c = divmod(cell, 20)
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            inside = 0 <= r + dr < 20 and 0 <= c + dc < 20
            if (dr or dc) and not (sides_only and dr and dc) and inside:
                out.append((r + dr) * 20 + c + dc)
    return out


def count_trees(board: list[int] | tuple[int, ...], colour: int) -> int:
    seen: set[int] = set()
    trees = 0
    for start in range(400):
        if board[start] != colour or start in seen:
            continue
        trees += 1
        todo = [start]
        seen.add(start)
        while todo:
            for n in neighbours(todo.pop()):
                if board[n] == colour and n not in seen:
                    seen.add(n)
                    todo.append(n)
    return trees


def tree_cells(board: tuple[int, ...], colour: int) -> list[list[int]]:
    seen: set[int] = set()
    out = []
    for start in range(400):
        if board[start] != colour or start in seen:
            continue
        group, todo = [start], [start]
        seen.add(start)
        while todo:
            for n in neighbours(todo.pop()):
                if board[n] == colour and n not in seen:
                    seen.add(n)
                    group.append(n)
                    todo.append(n)
        out.append(sorted(group))
    return out


def spore_allowed(board: tuple[int, ...], cell: int, opponent: int) -> bool:
    if board[cell] != EMPTY:
        return False
    by_seed = any(board[n] == SEED for n in neighbours(cell))
    free = all(board[n] != opponent for n in neighbours(cell, sides_only=True))
    return by_seed or free


def reference_moves(state: ArbosState, *, doubles: bool) -> set[str]:
    """Every legal move text of the player to move, by brute force (play phases only)."""
    board, seat = state.board, state.turn
    own, opp = (WHITE, BLACK) if seat == 0 else (BLACK, WHITE)
    if state.prune:
        trees = tree_cells(board, own)
        return {
            "prune " + " ".join(cell_name(t[0]) for t in combo)
            for combo in combinations(trees, state.prune)
        }
    moves: set[str] = set()
    hand, supply = state.hands[seat], state.supply[seat]

    def fits(after: list[int]) -> bool:
        return count_trees(after, own) <= 3

    for cell in range(400):
        if supply >= 1 and spore_allowed(board, cell, opp):
            after = list(board)
            after[cell] = own
            if fits(after):
                moves.add(cell_name(cell))
        if state.phase == "opening" or hand < 1:
            continue
        if board[cell] == EMPTY:
            moves.add(f"seed {cell_name(cell)}")
        if board[cell] in (WHITE, BLACK):
            after = list(board)
            after[cell] = SEED
            if fits(after):
                moves.add(f"replace {cell_name(cell)}")
    if doubles and hand >= 1 and supply >= 2:
        cells = [c for c in range(400) if spore_allowed(board, c, opp)]
        for a, b in combinations(cells, 2):
            after = list(board)
            after[a] = after[b] = own
            if fits(after):
                moves.add(f"double {cell_name(a)} {cell_name(b)}")
    if state.phase != "opening":
        moves.add("pass")
    return moves


def random_play_state(rng: Rng) -> ArbosState:
    """A play-phase position from a random playout, with hands and supplies shuffled."""
    state = ENGINE.new_game(
        2, ENGINE.resolve_options({"seeds_per_player": "7"}), rng.below(1 << 30)
    )
    while ENGINE.to_move(state) == (CHANCE,):
        state = ENGINE.apply_chance(state, ENGINE.sample_chance(state)).state
    for _ in range(rng.below(120)):
        to_move = ENGINE.to_move(state)
        if not to_move:
            break
        moves = [m for m in ENGINE.legal_moves(state, to_move[0]) if m.kind != "pass"]
        if not moves:
            break
        state = ENGINE.child(state, to_move[0], rng.choice(moves))
    return state


@pytest.mark.parametrize("seed", range(40))
def test_legal_moves_match_the_reference_without_doubles(seed: int) -> None:
    rng = Rng(seed, 7)
    state = random_play_state(rng)
    if ENGINE.to_move(state) in ((), (CHANCE,)) or state.phase == "setup":
        pytest.skip("the playout ended early")
    seat = state.turn
    ours = {m for m in ENGINE.legal_move_texts(state, seat) if not m.startswith("double")}
    assert ours == reference_moves(state, doubles=False)


@pytest.mark.parametrize("seed", range(12))
def test_random_spore_draws_only_legal_spores_and_all_of_them(seed: int) -> None:
    """The playouts' quick draw (``random_spore``): every spore it returns is in the
    reference's legal moves, and over many draws it reaches every legal spore cell (it draws
    uniformly among them); it answers ``None`` for the seat not to move."""
    rng = Rng(seed, 9)
    state = random_play_state(rng)
    if ENGINE.to_move(state) in ((), (CHANCE,)) or state.phase == "setup" or state.prune:
        pytest.skip("no plain turn at the end of the playout")
    seat = state.turn
    legal = {m for m in reference_moves(state, doubles=False) if m[0].isalpha() and " " not in m}
    legal.discard("pass")
    draws = random.Random(seed)
    drawn = [random_spore(state, seat, draws.random, tries=400) for _ in range(40 * len(legal))]
    cells = {cell_name(move.cells[0]) for move in drawn if move is not None}
    assert all(move is None or move.kind == "spore" for move in drawn)
    assert cells == legal
    assert random_spore(state, 1 - seat, draws.random) is None


@pytest.mark.parametrize("seed", range(30))
def test_the_end_check_agrees_with_the_legal_moves(seed: int) -> None:
    """A19 b's check (``_has_action``), which looks only around the seat's own spores once
    it has three trees, agrees with the brute-force legal moves for either seat."""
    rng = Rng(seed, 13)
    state = random_play_state(rng)
    if state.phase != "play" or state.prune or state.ending is not None:
        pytest.skip("no plain play-phase turn at the end of the playout")
    for seat in (0, 1):
        turn = state._replace(turn=seat)
        acts = reference_moves(turn, doubles=False) - {"pass"}
        assert _has_action(state, seat) == bool(acts), (seat, sorted(acts)[:5])


@pytest.mark.parametrize("seed", range(4))
def test_doubles_match_the_reference_on_crowded_boards(seed: int) -> None:
    """Full double enumeration is quadratic, so the reference runs on boards where few cells
    qualify: a late-game board with a hand given back to the player to move."""
    rng = Rng(seed, 11)
    state = random_play_state(rng)
    for _ in range(400):
        to_move = ENGINE.to_move(state)
        if not to_move or state.prune:
            break
        moves = [m for m in ENGINE.legal_moves(state, to_move[0]) if m.kind == "spore"]
        if len(moves) < 40:
            break
        state = ENGINE.child(state, to_move[0], rng.choice(moves))
    if not ENGINE.to_move(state) or state.prune:
        pytest.skip("the playout ended early")
    seat = state.turn
    hands = (1, state.hands[1]) if seat == 0 else (state.hands[0], 1)
    text = ENGINE.position(state._replace(hands=hands))
    try:
        state = load(text)
    except UsageError:
        pytest.skip("too many seeds for a hand")
    if not ENGINE.to_move(state):
        pytest.skip("the game is over")
    assert set(ENGINE.legal_move_texts(state, seat)) == reference_moves(state, doubles=True)


def test_double_may_pass_through_four_trees() -> None:
    """A17: only the state after the whole action counts. White has 3 trees; E10 alone would
    be a fourth, but with E11 (joining the tree on E12) the pair leaves 3."""
    board = board_with(A1="w", J1="w", E12="w", T20="b")
    state = load(pos(board, hands="1/0", supply="77/79"))
    legal = set(ENGINE.legal_move_texts(state, 0))
    assert "E10" not in legal
    assert "double E10 E11" in legal
    assert "double C5 E10" not in legal  # two new trees


# --------------------------------------------------------------------------------------------
# Scoring (A20, A21)
# --------------------------------------------------------------------------------------------


def test_score_counts_each_seed_once_across_the_pair() -> None:
    # White trees: A1-A2 and A4; the seed B3 touches both; seed A3 too. Black: nothing.
    board = board_with(A1="w", A2="w", A4="w", A3="g", B3="g", T20="g")
    state = load(pos(board, passes="1", supply="77/80"))
    after = ENGINE.play(state, 0, "pass")[0]
    outcome = ENGINE.outcome(after)
    assert outcome is not None
    assert outcome.scores == {0: 2, 1: 0}
    assert outcome.winners == (0,)
    view = ENGINE.view(after, None)
    assert view.linked_seeds[0] == (2, 22)  # A3, B3
    assert sorted(view.best_pair[0]) == [0, 1]


def test_best_pair_beats_a_better_single_tree_plus_a_poor_one() -> None:
    # Three White trees: T1 touches seeds {1,2}, T2 touches {2,3}, T3 touches {4}.
    # Best pair is T1+T2 = {1,2,3} (3), better than T1+T3 = 3? equal -> first kept.
    board = board_with(
        C3="w",
        C4="g",
        C2="g",  # tree 1 at C3: seeds C2, C4
        C5="w",  # tree 2 at C5 touches C4 and C6
        C6="g",
        K10="w",
        K11="g",  # tree 3 touches K11
    )
    state = load(pos(board, passes="1", supply="77/80"))
    after = ENGINE.play(state, 0, "pass")[0]
    outcome = ENGINE.outcome(after)
    assert outcome is not None
    assert outcome.scores is not None
    assert outcome.scores[0] == 3


def test_the_pass_label_fits_a_discord_choice_with_two_digit_tied_scores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Discord cuts a choice's label at 100 characters: the tie's rule must fit."""
    monkeypatch.setattr(arbos, "_scores", lambda _state: (88, 88))
    label = ENGINE.suggestion_label(load(pos(EMPTY_BOARD, passes="0")), 0, "pass")
    assert label.endswith("(now White 88, Black 88, Black wins ties)")
    assert len(label) <= 100


def test_a_first_pass_says_the_next_pass_ends_the_game_with_the_score_as_it_stands() -> None:
    """A19 a, A20: the passer's own event says it (``pass_pending``), not only the next
    mover's prompt (exploratory pass 10: a person passed, the bot passed and won)."""
    board = board_with(A1="w", A2="w", A4="w", A3="g", B3="g", T20="g")
    after, _, events = ENGINE.play(load(pos(board, passes="0", supply="77/80")), 0, "pass")
    said = "Black may end the game by passing too (as it stands: White 2, Black 0)"
    assert [(e.kind, e.seat, e.text) for e in events] == [
        ("pass", 0, "passes"),
        ("pass_pending", 1, said),
    ]
    assert ENGINE.prompt(after, 1) == f"{said}; any other move plays on."
    tie = ENGINE.play(load(pos(EMPTY_BOARD, passes="0")), 0, "pass")[2][-1]
    assert tie.text.endswith("(as it stands: White 0, Black 0, a tie going to Black)")
    # The second pass ends the game: no pending pass is said then.
    assert [e.kind for e in ENGINE.play(after, 1, "pass")[2]] == ["pass", "ended"]
    # Said before the pass too, where the player picks it (the autocomplete's label).
    before = load(pos(board, passes="0", supply="77/80"))
    assert ENGINE.suggestion_label(before, 0, "pass") == (
        "pass — Black may then pass to end the game (now White 2, Black 0)"
    )
    assert (
        ENGINE.suggestion_label(after, 1, "pass") == "pass — ends the game (now White 2, Black 0)"
    )
    # Within Discord's 100 characters for a choice, a tie's rule and two-digit scores too.
    tied = load(pos(EMPTY_BOARD, passes="0"))
    assert ENGINE.suggestion_label(tied, 0, "pass") == (
        "pass — Black may then pass to end the game (now White 0, Black 0, Black wins ties)"
    )
    # A seat with nothing left to place can only pass, and is told what that does.
    empty = load(pos(board, turn="B", passes="1", supply="5/0"))
    assert ENGINE.prompt(empty, 1) == (
        "Black can only pass, which ends the game (as it stands: White 2, Black 0)."
    )


def test_tie_goes_to_black_and_nobody_scores_zero_zero() -> None:
    state = load(pos(EMPTY_BOARD, passes="1"))
    after = ENGINE.play(state, 0, "pass")[0]
    outcome = ENGINE.outcome(after)
    assert outcome is not None
    assert (outcome.winners, outcome.scores) == ((1,), {0: 0, 1: 0})
    assert outcome.termination == "passes"


# --------------------------------------------------------------------------------------------
# Setup (A6–A9)
# --------------------------------------------------------------------------------------------


def test_random_setup_is_reproducible_from_the_seed_and_spaced() -> None:
    def setup(seed: int) -> ArbosState:
        state = ENGINE.new_game(2, ENGINE.resolve_options({}), seed)
        while ENGINE.to_move(state) == (CHANCE,):
            state = ENGINE.apply_chance(state, ENGINE.sample_chance(state)).state
        return state

    first, again, other = setup(5), setup(5), setup(6)
    assert first.board == again.board
    assert first.board != other.board
    seeds = [c for c in range(400) if first.board[c] == SEED]
    assert len(seeds) == 20
    for a, b in combinations(seeds, 2):
        (ra, ca), (rb, cb) = divmod(a, 20), divmod(b, 20)
        assert max(abs(ra - rb), abs(ca - cb)) >= 3
    assert (first.phase, first.turn, ENGINE.to_move(first)) == ("opening", 0, (0,))


def test_setup_dead_end_sends_unplaced_seeds_to_hand() -> None:
    """A9 early end: 16 seeds 5 apart cover the board with their 5×5 squares, so after the
    16th placement nobody has a legal cell; the 2 seeds each has left go to the hands."""
    lattice = [f"{r}{c}" for r in "CHMR" for c in (3, 8, 13, 18)]
    state = ENGINE.new_game(2, ENGINE.resolve_options({"setup_mode": "manual"}), 0)
    for cell in lattice:
        state = ENGINE.play(state, state.turn, f"seed {cell}")[0]
    assert ENGINE.position(state).endswith(
        "phase:opening turn:W setup:0/0 hands:2/2 supply:80/80 passes:0 prune:0"
    )
    # The same dead end in a random setup: the draws stop too.
    tokens = [f"setup:{cell}" for cell in lattice]
    status, out = run(["arbos", *tokens])
    assert status == 0
    assert out["applied"] == tokens
    assert out["position"].endswith("hands:2/2 supply:80/80 passes:0 prune:0")


def test_manual_setup_alternates_and_bare_cell_places_a_seed() -> None:
    state = ENGINE.new_game(2, ENGINE.resolve_options({"setup_mode": "manual"}), 0)
    state, text, _ = ENGINE.play(state, 0, "k10")
    assert text == "seed K10"
    assert ENGINE.to_move(state) == (1,)
    with pytest.raises(IllegalMoveError, match="A7"):
        ENGINE.play(state, 1, "seed M12")
    with pytest.raises(IllegalMoveError, match="only move"):
        ENGINE.play(state, 1, "pass")


# --------------------------------------------------------------------------------------------
# Pruning (A17) and the end (A19)
# --------------------------------------------------------------------------------------------


def test_prune_names_trees_by_any_cell_and_canonicalises() -> None:
    text = pos(
        board_with(A1="b", C3="w", K5="b", K6="b", K7="b", T20="b"),
        hands="1/0",
        supply="79/75",
    )
    state = ENGINE.play(load(text), 0, "replace K6")[0]
    assert state.prune == 1
    assert ENGINE.to_move(state) == (1,)
    prompt = ENGINE.prompt(state, 1)
    assert prompt is not None
    assert "prune 1 tree" in prompt
    after, canonical, _ = ENGINE.play(state, 1, "prune t20")
    assert canonical == "prune T20"
    assert after.prune == 0
    assert ENGINE.to_move(after) == (1,)
    assert after.supply == (79, 77)  # K6 came back, then T20
    with pytest.raises(IllegalMoveError, match="no prune is due"):
        ENGINE.play(after, 1, "prune A1")


def test_replace_cutting_a_tree_in_three_makes_a_prune_of_two() -> None:
    """K6 joins three arms that do not touch each other (J5, J7, L6): replacing it leaves
    Black with 5 trees, so Black must prune 2, and every pair of trees is a legal prune."""
    star = {"K6": "b", "J5": "b", "I4": "b", "J7": "b", "I8": "b", "L6": "b", "M6": "b"}
    board = board_with(A1="b", T20="b", C3="w", **star)
    state = load(pos(board, hands="1/0", supply="79/71"))
    state = ENGINE.play(state, 0, "replace K6")[0]
    assert state.prune == 2
    assert state.supply == (79, 72)
    legal = set(ENGINE.legal_move_texts(state, 1))
    assert legal == reference_moves(state, doubles=False)
    assert len(legal) == 10
    assert "prune A1 T20" in legal
    with pytest.raises(IllegalMoveError, match="same tree"):
        ENGINE.play(state, 1, "prune I4 J5")
    with pytest.raises(IllegalMoveError, match="exactly 2"):
        ENGINE.play(state, 1, "prune A1")
    with pytest.raises(IllegalMoveError, match="must first prune"):
        ENGINE.play(state, 1, "K10")


def test_prune_texts_cite_the_rule_only_at_their_end() -> None:
    """The refusal of another move while a prune is due, and the prompt, say what to do in
    words and keep the rule id (A17) in a parenthesis at the very end, which the bot leaves
    out: "(A17): `prune CELL`…" in mid-sentence read as a cell to players."""
    star = {"K6": "b", "J5": "b", "I4": "b", "J7": "b", "I8": "b", "L6": "b", "M6": "b"}
    board = board_with(A1="b", T20="b", C3="w", **star)
    state = ENGINE.play(load(pos(board, hands="1/0", supply="79/71")), 0, "replace K6")[0]
    with pytest.raises(IllegalMoveError) as refused:
        ENGINE.play(state, 1, "K10")
    assert refused.value.message == (
        "Black must first prune 2 trees: `prune CELL …` names a cell of each tree to remove (A17)"
    )
    assert ENGINE.prompt(state, 1) == (
        "Black has 5 trees and must prune 2 trees first: `prune CELL` names one cell of each "
        "tree to remove; then Black plays (A17)."
    )
    after = ENGINE.play(state, 1, "prune A1 T20")[0]
    with pytest.raises(IllegalMoveError) as none_due:
        ENGINE.play(after, 1, "prune K6")
    assert none_due.value.message == "no prune is due: Black has at most 3 trees (A17)"


def test_the_setup_prompt_cites_the_spacing_rule_at_its_end() -> None:
    state = ENGINE.new_game(2, ENGINE.resolve_options({"setup_mode": "manual"}), 0)
    assert ENGINE.prompt(state, 0) == (
        "White places a setup seed: `seed CELL`. Seeds left to place: White 10, Black 10. "
        "A setup seed needs two empty cells between it and every other seed (A7)."
    )


def test_the_player_not_to_move_may_not_have_four_trees() -> None:
    with pytest.raises(UsageError, match="more than 3 trees"):
        load(pos(board_with(A1="b", A10="b", T20="b", K5="b", C3="w"), supply="79/76"))


def test_end_check_runs_after_a_prune() -> None:
    """A19 b after a prune: nobody can place anything -> no_moves, scores computed."""
    board = board_with(A1="b", C3="w", K5="b", K6="b", K7="b", T20="b", K8="g")
    state = load(pos(board, hands="1/0", supply="0/0"))
    state = ENGINE.play(state, 0, "replace K6")[0]
    assert ENGINE.to_move(state) == (1,)
    assert state.prune == 1
    after = ENGINE.play(state, 1, "prune A1")[0]
    # Black got its pruned spore back: it can still place, so the game goes on.
    assert ENGINE.outcome(after) is None
    assert after.supply == (0, 2)


# --------------------------------------------------------------------------------------------
# Notation and the CLI
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["K05", "K0", "U5", "K21", "pass K5", "double K5", "", "prune"])
def test_notation_errors(text: str) -> None:
    state = load(pos(board_with(A1="w"), supply="79/80", turn="B"))
    with pytest.raises(NotationError):
        ENGINE.parse_move(state, 1, text)


@pytest.mark.parametrize("text", ["10K", "Pass10", "SPORES K10"])
def test_an_unknown_word_is_quoted_as_typed(text: str) -> None:
    """The word is echoed in the case it was typed ('10K', not '10k'): the player must
    recognise what they sent."""
    state = load(pos(board_with(A1="w"), supply="79/80", turn="B"))
    with pytest.raises(NotationError) as refused:
        ENGINE.parse_move(state, 1, text)
    assert refused.value.message.startswith(f"unknown word {text.split()[0]!r}; ")


def test_a_suggestion_that_is_only_a_beginning_says_what_is_still_to_type() -> None:
    """Autocomplete offers action words and a double's first cell to type on from; sent as
    they are they would be refused, so their labels say what follows. Whole moves are
    shown as they are."""
    state = ENGINE.new_game(2, ENGINE.resolve_options({"seeds_per_player": "7"}), 3)
    rng = random.Random(1)
    while not any(t.startswith("double") for t in ENGINE.suggest_moves(state, 0, "", 25) or ()):
        (seat,) = ENGINE.to_move(state)
        if seat < 0:
            state = ENGINE.apply_chance(state, ENGINE.sample_chance(state)).state
        else:
            state = ENGINE.play(state, seat, rng.choice(ENGINE.legal_move_texts(state, seat)))[0]
    (seat,) = ENGINE.to_move(state)
    label = ENGINE.suggestion_label
    assert label(state, seat, "double") == "double … (then two cells)"
    assert label(state, seat, "double A1") == "double A1 … (then one more cell)"
    assert label(state, seat, "seed") == "seed … (then a cell)"
    assert label(state, seat, "A1") == "A1"
    assert label(state, seat, "double A1 A2") == "double A1 A2"
    assert label(state, seat, "pass") == "pass"


@pytest.mark.parametrize(("options", "double"), [({}, False), ({"seeds_per_player": "7"}, True)])
def test_the_opening_prompt_offers_a_double_only_with_a_seed_in_hand(
    options: dict[str, str], double: bool
) -> None:
    state = ENGINE.new_game(2, ENGINE.resolve_options(options), 3)
    while state.phase != "opening":
        state = ENGINE.apply_chance(state, ENGINE.sample_chance(state)).state
    (seat,) = ENGINE.to_move(state)
    prompt = ENGINE.prompt(state, seat)
    assert prompt is not None
    assert prompt.startswith("White's first turn must place a spore")
    assert ("or a double" in prompt) is double
    assert any(t.startswith("double") for t in ENGINE.legal_move_texts(state, seat)) is double


def test_a_word_too_many_is_counted_before_it_is_read_as_a_cell() -> None:
    state = load(pos(board_with(A1="w"), supply="79/80", turn="B"))
    for text, said in (("pass pass", "`pass` takes no cell"), ("replace K5 x", "one cell")):
        with pytest.raises(NotationError, match=said):
            ENGINE.parse_move(state, 1, text)


def test_seat_prefix_on_a_chance_token_is_a_notation_error_and_draws_nothing() -> None:
    status, out = run(["arbos", "[0]setup:K5"])
    assert status == 1
    assert out["error"]["kind"] == "notation"
    assert out["applied"] == []
    assert out["to_move"] == []
    assert out["outcome"] is None
    status, out = run(["arbos", "--legal", "bogus"])
    assert out["error"]["kind"] == "notation"
    assert len(out["legal_moves"]) == 400
    assert out["legal_moves"][0].startswith("setup:")


def test_chance_tokens_accept_any_case_and_print_canonically() -> None:
    status, out = run(["arbos", "setup:k10"])
    assert status == 0
    assert out["applied"][0] == "setup:K10"
    assert len(out["applied"]) == 20


@pytest.mark.parametrize("token", ["SETUP:K5,", ",setup:k5", " setup:k5 "])
def test_applied_prints_a_forced_draw_canonically_whatever_its_separators(token: str) -> None:
    """engine-cli.md: ``applied`` holds the canonical notation, chance outcomes included;
    section 6 lets words be separated by spaces and commas."""
    status, out = run(["arbos", token])
    assert status == 0
    assert out["applied"][0] == "setup:K5"
    assert len(out["applied"]) == 20


def test_a_letter_that_lowers_to_a_cell_name_is_a_notation_error() -> None:
    """The Kelvin sign (U+212A) lowers to ``k``: ``\u212a5`` is not the cell K5 (section 6)."""
    state = load(pos(board_with(A1="w"), supply="79/80", turn="B"))
    with pytest.raises(NotationError, match="U\\+212A"):
        ENGINE.play(state, 1, "\u212a5")
    status, out = run(
        ["arbos", "--position", pos(board_with(A1="w"), supply="79/80", turn="B"), "\u212a5"]
    )
    assert (status, out["error"]["kind"], out["applied"]) == (1, "notation", [])


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        # White places first, so it never has more left than Black (section 7: the turn
        # alternation); with 3/0 Black would place with none left, the count going to -1.
        ({"setup": "3/0", "turn": "B"}, "more setup seeds left"),
        ({"setup": "10/9", "turn": "B"}, "more setup seeds left"),
        # Setup keeps the supplies, and an opening with White supply 0 is malformed.
        ({"setup": "0/1", "turn": "B", "supply": "0/80"}, "White supply 0"),
        ({"setup": "5/5", "turn": "W", "supply": "0/0"}, "White supply 0"),
    ],
)
def test_setup_positions_that_alternation_cannot_reach_are_malformed(
    fields: dict[str, str], why: str
) -> None:
    text = pos(phase="setup", **fields)
    with pytest.raises(UsageError, match=why):
        load(text, setup_mode="manual")
    status, out = run(["arbos", "--option", "setup_mode=manual", "--position", text, "seed A1"])
    assert status == 2
    assert out["error"]["kind"] == "usage"


def test_black_two_seeds_ahead_in_setup_still_reads_and_places_until_even() -> None:
    """The turn rule of section 7 holds for 5/7 (``B`` when the counts differ); Black places
    until they are even, and no count goes below 0."""
    state = load(pos(phase="setup", setup="5/7", turn="B"), setup_mode="manual")
    state = ENGINE.play(state, 1, "seed A1")[0]
    assert (state.setup_left, state.turn) == ((5, 6), 1)
    state = ENGINE.play(state, 1, "seed A10")[0]
    assert (state.setup_left, state.turn) == ((5, 5), 0)


def test_a_newline_inside_a_row_is_a_bad_character() -> None:
    text = pos().replace("20/", "2\n0/", 1)
    with pytest.raises(UsageError, match="bad character"):
        load(text)


def test_a_setup_token_for_a_spaced_out_cell_is_judged_before_any_draw() -> None:
    """Section 8: `setup:CELL` forces the next placement, so a spacing violation (A7) is
    rejected as it stands; the other pending placements are not drawn around it."""
    for second in ("setup:A2", "setup:a1"):
        status, out = run(["arbos", "--legal", "setup:A1", second])
        assert status == 1
        assert out["error"]["kind"] == "illegal"
        assert out["error"]["index"] == 1
        assert out["applied"] == ["setup:A1"]
        assert out["position"].endswith(
            "phase:setup turn:B setup:9/10 hands:0/0 supply:80/80 passes:0 prune:0"
        )
        assert out["to_move"] == []
        assert "setup:A2" not in out["legal_moves"]
        assert "setup:K10" in out["legal_moves"]


def test_illegal_move_after_draws_keeps_the_draws() -> None:
    status, out = run(["arbos", "pass"])
    assert status == 1
    assert out["error"]["kind"] == "illegal"
    assert len(out["applied"]) == 20  # the setup was drawn, then White's pass was judged


# --------------------------------------------------------------------------------------------
# Chat helpers
# --------------------------------------------------------------------------------------------


def test_suggest_completes_cells_from_what_was_typed() -> None:
    state = load(pos(board_with(T20="b"), supply="80/79"))
    assert ENGINE.suggest_moves(state, 0, "K1", 25) == ["K1", *[f"K{n}" for n in range(10, 20)]]
    assert ENGINE.suggest_moves(state, 0, "T1", 25)[:2] == ["T1", "T10"]
    assert "T19" not in ENGINE.suggest_moves(state, 0, "T1", 25)  # beside a Black spore
    assert ENGINE.suggest_moves(state, 1, "K1", 25) == []  # not Black's turn
    assert ENGINE.suggest_moves(state, 0, "seed K", 25) == []  # no seed in hand


def test_suggest_offers_action_words_and_double_partners() -> None:
    state = load(pos(board_with(T20="b", D4="g"), hands="1/0", supply="80/79"))
    first = ENGINE.suggest_moves(state, 0, "", 25)
    assert first[:4] == ["pass", "seed", "replace", "double"]
    partners = ENGINE.suggest_moves(state, 0, "double E5 F", 25)
    assert partners[0] == "double E5 F1"
    for text in partners:
        ENGINE.parse_move(state, 0, text)
    assert ENGINE.suggest_moves(state, 0, "replace ", 25) == ["replace T20"]
    # A whole action word, as the list offered it, goes on to its cells without a space.
    assert ENGINE.suggest_moves(state, 0, "replace", 25) == ["replace T20"]
    assert ENGINE.suggest_moves(state, 0, "DOUBLE", 25) == ENGINE.suggest_moves(
        state, 0, "double ", 25
    )
    assert ENGINE.suggest_moves(state, 0, "seed", 25)[0].startswith("seed ")


def test_suggest_in_setup_completes_seed_without_a_space() -> None:
    state = ENGINE.new_game(2, ENGINE.resolve_options({"setup_mode": "manual"}), 1)
    seat = ENGINE.to_move(state)[0]
    spaced = ENGINE.suggest_moves(state, seat, "seed ", 25)
    assert spaced[0].startswith("seed ")
    assert ENGINE.suggest_moves(state, seat, "seed", 25) == spaced
    for text in spaced:
        ENGINE.parse_move(state, seat, text)


def test_every_complete_suggestion_is_legal_in_playouts() -> None:
    rng = Rng(3, 3)
    for _ in range(5):
        state = random_play_state(rng)
        to_move = ENGINE.to_move(state)
        if not to_move or to_move == (CHANCE,):
            continue
        seat = to_move[0]
        for typed in ("", "a", "k1", "seed ", "replace ", "prune ", "double ", "s"):
            for text in ENGINE.suggest_moves(state, seat, typed, 25):
                words = text.split()
                if words[0] in ("seed", "replace", "prune") and len(words) == 1:
                    continue
                if words[0] == "double" and len(words) < 3:
                    continue
                ENGINE.parse_move(state, seat, text)


# --------------------------------------------------------------------------------------------
# Playouts with invariants
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "options"),
    [(s, {}) for s in range(6)]
    + [(s, {"seeds_per_player": "7"}) for s in range(6)]
    + [(s, {"setup_mode": "manual", "seeds_per_player": "8"}) for s in range(4)],
)
def test_random_playouts_keep_the_invariants(seed: int, options: dict[str, str]) -> None:
    rng = Rng(seed, 1)
    state = ENGINE.new_game(2, ENGINE.resolve_options(options), seed)
    discarded = 0
    for _ply in range(3000):
        to_move = ENGINE.to_move(state)
        if not to_move:
            break
        if to_move == (CHANCE,):
            state = ENGINE.apply_chance(state, ENGINE.sample_chance(state)).state
            continue
        seat = to_move[0]
        moves = ENGINE.legal_moves(state, seat)
        assert moves, "a player to move always has a legal move (at least pass)"
        active = [m for m in moves if m.kind != "pass"]
        move = rng.choice(active) if active and rng.below(12) else rng.choice(moves)
        text = ENGINE.format_move(state, move)
        assert ENGINE.parse_move(state, seat, text) == move
        before = state
        state = ENGINE.apply(state, seat, move).state
        assert before == ENGINE.load_state(ENGINE.dump_state(before)) or before.phase == "setup"
        discarded += move.kind == "double"
        board = state.board
        for colour, supply in ((WHITE, state.supply[0]), (BLACK, state.supply[1])):
            assert board.count(colour) + supply == 80
        assert board.count(SEED) + sum(state.hands) + sum(state.setup_left) + discarded == 20
        mover, other = state.turn, 1 - state.turn
        assert count_trees(board, (WHITE, BLACK)[other]) <= 3
        assert state.prune == max(0, count_trees(board, (WHITE, BLACK)[mover]) - 3)
        text = ENGINE.position(state)
        if ENGINE.to_move(state) != (CHANCE,):
            again = load(text, **options)
            assert ENGINE.position(again) == text
            assert again.ending == state.ending
        assert ENGINE.load_state(ENGINE.dump_state(state)) == state
    assert ENGINE.outcome(state) is not None, "random games end well within 3000 plies"


def test_seed_seeds_the_draws_after_a_position_too() -> None:
    """engine-cli.md / section 5: `--seed` seeds the random setup draws, also after
    `--position` (a position carries no seed): the same seed gives the same draws, and
    seeds differ."""
    position = (
        "20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20 "
        "phase:setup turn:W setup:1/1 hands:9/9 supply:80/80 passes:0 prune:0"
    )

    def draws(seed: int) -> list[str]:
        status, out = run(["arbos", "--seed", str(seed), "--position", position])
        assert status == 0
        return list(out["applied"])

    assert draws(7) == draws(7)
    assert len({tuple(draws(seed)) for seed in range(4)}) > 1
