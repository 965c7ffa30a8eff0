"""Contract tests over the whole engine registry (architecture.md, "Tests").

Every registered engine gets the same checks, so a new game is covered the day it is added:
metadata is coherent, options validate, canonical strings round-trip, positions and stored
states round-trip, ``apply`` never mutates, and finished games accept no move.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engines import ENGINES, get_engine
from engines.__main__ import run
from engines.base import (
    CHANCE,
    Engine,
    GameOverError,
    MoveError,
    NotationError,
    OptionSpec,
    UsageError,
)
from engines.rng import Rng

GAMES = sorted(ENGINES)
#: A seed whose digits cannot appear in a view by accident.
SECRET_SEED = 7_346_912_580_331


def random_game(engine: Engine[Any, Any], seed: int, plies: int) -> list[Any]:
    """States of a seeded random game (chance nodes sampled as the service would)."""
    state = engine.new_game(engine.info.default_players, engine.resolve_options({}), seed)
    states = [state]
    rng = Rng(seed)
    for _ in range(plies):
        seats = engine.to_move(state)
        if not seats:
            break
        if seats == (CHANCE,):
            state = engine.apply_chance(state, engine.sample_chance(state)).state
        else:
            seat = seats[rng.below(len(seats))]
            moves = engine.legal_moves(state, seat)
            state = engine.apply(state, seat, moves[rng.below(len(moves))]).state
        states.append(state)
    return states


@pytest.mark.parametrize("game", GAMES)
def test_info_is_coherent(game: str) -> None:
    info = get_engine(game).info
    assert info.id == game
    assert 1 <= info.min_players <= info.default_players <= info.max_players
    assert len(info.seat_names) >= info.max_players
    assert info.rules_summary
    assert info.notation_help
    assert info.rules_version
    names = [o.name for o in info.options]
    assert len(set(names)) == len(names)
    engine = get_engine(game)
    defaults = engine.resolve_options({})
    assert list(defaults) == names
    for preset in info.presets:
        engine.resolve_options({}, preset=preset.id)


def test_an_int_option_without_its_maximum_is_refused_when_declared() -> None:
    # The field's default maximum, 0, would silently allow 0 alone.
    with pytest.raises(ValueError, match="give its maximum"):
        OptionSpec("limit", "int", 0, "a count")
    assert OptionSpec("limit", "int", 0, "a count", maximum=None).parse("12345") == 12345


@pytest.mark.parametrize("game", GAMES)
def test_bad_options_are_usage_errors(game: str) -> None:
    engine = get_engine(game)
    with pytest.raises(UsageError, match="unknown option"):
        engine.resolve_options({"no_such_option": "1"})
    for option in engine.info.options:
        with pytest.raises(UsageError, match=option.name):
            engine.resolve_options({option.name: "not-a-value"})
    with pytest.raises(UsageError):
        engine.check_players(engine.info.max_players + 1)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", range(5))
def test_round_trips_along_a_game(game: str, seed: int) -> None:
    engine = get_engine(game)
    options = engine.resolve_options({})
    for state in random_game(engine, seed, 120):
        position = engine.position(state)
        assert engine.position(engine.from_position(position, options)) == position
        assert engine.loads(engine.dumps(state)) == state
        json.loads(engine.dumps(state))
        for seat in engine.to_move(state):
            if seat == CHANCE:
                continue
            texts = engine.legal_move_texts(state, seat)
            assert texts == sorted(set(texts))
            for text in texts:
                move = engine.parse_move(state, seat, text)
                assert engine.format_move(state, move) == text
                frozen = copy.deepcopy(state)
                engine.apply(state, seat, move)
                assert state == frozen


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", range(3))
def test_child_reaches_the_positions_apply_does(game: str, seed: int) -> None:
    """``child`` (the AI's step; a quicker override in three games) is ``apply``'s state."""
    engine = get_engine(game)
    for state in random_game(engine, seed, 80):
        for seat in engine.to_move(state):
            if seat == CHANCE:
                continue
            for move in engine.legal_moves(state, seat):
                after = engine.child(state, seat, move)
                assert engine.position(after) == engine.position(
                    engine.apply(state, seat, move).state
                )
                assert engine.outcome(after) == engine.outcome(
                    engine.apply(state, seat, move).state
                )


@pytest.mark.parametrize("game", [g for g in GAMES if get_engine(g).info.has_chance])
def test_chance_nodes_are_explicit_and_seeded(game: str) -> None:
    """Chance games list each chance node's outcomes and draw them from the state's seed."""
    engine = get_engine(game)
    seen = 0
    for seed in range(3):
        for state in random_game(engine, seed, 150):
            outcomes = engine.chance_outcomes(state)
            if engine.to_move(state) != (CHANCE,):
                assert outcomes == ()
                continue
            seen += 1
            # Chance acts through its outcomes only: it has no legal moves, so a caller that
            # treats it as a seat finds nothing to play (not moves it could misapply).
            assert engine.legal_moves(state, CHANCE) == []
            assert not engine.few_legal_moves(state, CHANCE, 8)
            assert not engine.suggest_moves(state, CHANCE, "", 8)
            assert not engine.timeout_moves(state, CHANCE, Rng(1))
            assert engine.prompt(state, CHANCE) is None
            texts = [o.text for o in outcomes]
            assert len(set(texts)) == len(texts)
            assert abs(sum(o.probability for o in outcomes) - 1) < 1e-9
            sampled = engine.sample_chance(state)
            assert sampled in texts
            assert engine.sample_chance(copy.deepcopy(state)) == sampled  # a function of state
            after = engine.apply_chance(state, sampled).state
            assert engine.rng_state(after) != engine.rng_state(state)  # the draw is used up
    if not seen:
        pytest.skip(f"the default {game} game reaches no chance node")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    "text", ["[\u00b2]pass", "[\u0663]pass", "[" + "9" * 5000 + "]pass", "[\u00b2]resign"]
)
def test_an_odd_seat_prefix_is_a_move_error(game: str, text: str) -> None:
    """A prefix of digits Python reads but notation does not (superscript, Arabic-Indic, more
    than int() takes) is refused like any bad token, never with a bare ValueError: a player can
    type it in /move."""
    engine = get_engine(game)
    state = engine.new_game(2, engine.resolve_options({}), 1)
    while engine.to_move(state) == (CHANCE,):
        state = engine.apply_chance(state, engine.sample_chance(state)).state
    with pytest.raises(MoveError):
        engine.parse_move(state, engine.to_move(state)[0], text)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("text", ["\u212a5", "\u212a5-\u212a6", "pass\u00e9", "\uff10"])
def test_text_that_is_not_ascii_is_a_notation_error(game: str, text: str) -> None:
    """Every game's notation is ASCII; ``str.lower`` would turn the Kelvin sign (U+212A) into
    ``k``, a cell letter in Arbos and Orbs. Refused before parsing, in play and in the CLI."""
    engine = get_engine(game)
    state = engine.new_game(2, engine.resolve_options({}), 1)
    while engine.to_move(state) == (CHANCE,):
        state = engine.apply_chance(state, engine.sample_chance(state)).state
    with pytest.raises(NotationError, match="ASCII"):
        engine.play(state, engine.to_move(state)[0], text)
    status, out = run([game, text])
    assert (status, out["error"]["kind"]) == (1, "notation")


@pytest.mark.parametrize(
    ("args", "canonical"),
    [
        (["generatorb", "a1\u2003-a3"], "a1-a3"),  # spec section 6: all whitespace removed
        (["orbs", "--option", "first_player=seat0", "B2\u00a0-\u00a0C2"], "B2-C2"),
        (["arbos", "--option", "setup_mode=manual", "seed\u00a0K5"], "seed K5"),
    ],
)
def test_whitespace_of_any_script_counts_as_whitespace(args: list[str], canonical: str) -> None:
    """The ASCII check lets whitespace through (a phone's no-break space, an em space): the
    specs remove or split on whitespace, whatever kind it is."""
    status, out = run(args)
    assert (status, out["error"]) == (0, None)
    assert out["applied"][0] == canonical


@pytest.mark.parametrize("game", GAMES)
def test_finished_games_take_no_moves(game: str) -> None:
    engine = get_engine(game)
    for seed in range(20):
        rng_seed = SECRET_SEED + seed
        final = random_game(engine, rng_seed, 100_000)[-1]
        assert engine.to_move(final) == ()
        assert engine.outcome(final) is not None
        with pytest.raises(GameOverError):
            engine.parse_move(final, 0, "pass")
        # The generator's seed would let a player predict every future roll or draw.
        view = engine.view(final, None)
        assert str(rng_seed) not in repr(view)
        assert not {"seed", "rng", "rng_state"} & set(getattr(view, "__dataclass_fields__", {}))


def test_cli_lists_every_game() -> None:
    status, output = run(["--list"])
    assert status == 0
    assert [g["id"] for g in output["games"]] == list(ENGINES)


@pytest.mark.parametrize("game", GAMES)
def test_cli_usage_errors(game: str) -> None:
    assert run([game, "--option", "nonsense"])[0] == 2
    assert run([game, "--position", "@/nonexistent/file"])[0] == 2
    status, output = run(["no_such_game"])
    assert status == 2
    assert output["error"]["kind"] == "usage"
    assert output["error"]["message"].startswith("unknown game 'no_such_game'; games are: ")
    assert set(output) == {"error"}
