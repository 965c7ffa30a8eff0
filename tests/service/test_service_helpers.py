"""The service's small pure helpers: option text, move filtering, JSON codecs, keyed locks."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import pytest

from bot.service import _codec
from bot.service.errors import sentence
from bot.service.locks import KeyedLock
from bot.service.matching import filter_moves
from bot.service.options import (
    format_options,
    parse_options_text,
    resolve_challenge_options,
    suggest_options,
)
from engines import ENGINES, get_engine
from engines.base import Event, OptionValue, Outcome, UsageError

INFO = get_engine("generatorb").info


def test_parse_options_text() -> None:
    assert parse_options_text("") == {}
    assert parse_options_text(" Refill = all,start_supply=20; ") == {
        "refill": "all",
        "start_supply": "20",
    }
    with pytest.raises(UsageError, match="key=value"):
        parse_options_text("refill all")
    with pytest.raises(UsageError, match="given twice"):
        parse_options_text("refill=all REFILL=one")


def test_a_list_value_keeps_its_commas() -> None:
    """Orbs' ``holes`` is a comma list of cells, as its help says: typed in /challenge it must
    reach the engine whole, not be cut into pairs at its commas."""
    assert parse_options_text("holes=G7,I5 board=star") == {"holes": "G7,I5", "board": "star"}
    assert parse_options_text("holes=G7, I5,teams=01-23") == {"holes": "G7,I5", "teams": "01-23"}
    with pytest.raises(UsageError, match="not 'I5'"):
        parse_options_text("holes=G7 I5")  # a space, not a comma: a token of its own
    orbs = get_engine("orbs")
    resolved = resolve_challenge_options(orbs, "holes=G7,I5", None)
    assert resolved["holes"] == "G7,I5"


def test_an_unknown_option_lists_only_what_a_challenge_may_set() -> None:
    with pytest.raises(UsageError, match="unknown option 'colour'") as refused:
        resolve_challenge_options(get_engine("generation_zero"), "colour=red", None)
    assert "max_rounds" in str(refused.value)
    assert "content" not in str(refused.value)  # command line only (python -m engines)


def test_an_unbounded_limit_is_capped_in_chat_only() -> None:
    """Generator's `max_turns` has no upper bound (spec: "integer ≥ 0"), but a challenge in
    chat may set at most 100,000, so the posts that show the options fit Discord."""
    generator = get_engine("generator")
    assert resolve_challenge_options(generator, "max_turns=100000", None)["max_turns"] == 100000
    with pytest.raises(UsageError, match="too large for a game in chat; use 0–100000"):
        resolve_challenge_options(generator, "max_turns=" + "9" * 3000, None)
    assert generator.resolve_options({"max_turns": "100001"})["max_turns"] == 100001


def test_format_options_lists_what_differs_from_the_defaults() -> None:
    engine = get_engine("generatorb")
    assert format_options(INFO, engine.resolve_options({})) == ""
    options = engine.resolve_options({"refill": "all", "repetition_draw": "false"})
    assert format_options(INFO, options) == "refill=all repetition_draw=false"


def test_suggest_options_completes_keys_then_values() -> None:
    assert suggest_options(INFO, "") == [f"{o.name}=" for o in INFO.options]
    assert suggest_options(INFO, "re") == ["refill=", "repetition_draw="]
    assert suggest_options(INFO, "refill=") == ["refill=one", "refill=all"]
    assert suggest_options(INFO, "refill=a") == ["refill=all"]
    assert suggest_options(INFO, "refill=all ") == [
        f"refill=all {o.name}=" for o in INFO.options if o.name != "refill"
    ]
    assert suggest_options(INFO, "refill=all start_g") == ["refill=all start_globes="]
    assert suggest_options(INFO, "start_globes=") == ["start_globes=true", "start_globes=false"]
    assert suggest_options(INFO, "move_limit=") == [
        "move_limit=0",
        "move_limit=400",
        "move_limit=100000",
    ]
    assert suggest_options(INFO, "nonsense=") == []
    # A key given already is not completed again (it would be refused as given twice).
    assert suggest_options(INFO, "refill=all refill=") == []


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_text_options_examples_are_values_its_game_accepts(game: str) -> None:
    """Text options (Generator's colours, Orbs' teams and holes) offer examples, each one
    accepted for some player count of the game (spec options tables)."""
    engine = ENGINES[game]
    info = engine.info
    for spec in info.options:
        if spec.type != "text" or spec.cli_only:
            continue
        assert spec.examples, spec.name
        assert suggest_options(info, f"{spec.name}=") == [f"{spec.name}={v}" for v in spec.examples]
        for value in spec.examples:
            options = engine.resolve_options({spec.name: value})
            counts = range(info.min_players, info.max_players + 1)
            assert any(_sets_up(engine, n, options) for n in counts), (spec.name, value)


@pytest.mark.parametrize(
    ("message", "shown"),
    [
        ("an orb never steps (G15)", "An orb never steps (G15)."),
        ("b1 is not an empty cell of your generator", "b1 is not an empty cell of your generator."),
        ("a1-c1=2 marks a merge", "a1-c1=2 marks a merge."),
        ("K10 is taken!", "K10 is taken!"),
        ("  ", ""),
    ],
)
def test_an_engine_message_becomes_a_sentence_keeping_lower_case_names(
    message: str, shown: str
) -> None:
    """Capitalised with a full stop, but a first word with a digit is a name (a Generatorb
    cell, a move) and keeps its case: "B1" names no cell (exploratory pass 10)."""
    assert sentence(message) == shown


def test_filter_moves_ranks_prefixes_first() -> None:
    moves = ["a1-a3", "a1-c3", "b1-b3", "c3~e5", "c3*d4", "d4-a1", "pass"]
    assert filter_moves(moves, "", limit=3) == ["a1-a3", "a1-c3", "b1-b3"]
    assert filter_moves(moves, "a1", limit=25) == ["a1-a3", "a1-c3", "d4-a1"]
    assert filter_moves(moves, "c3e5", limit=25) == ["c3~e5"]
    assert filter_moves(moves, "C3 *", limit=25) == ["c3*d4", "c3~e5"]
    assert filter_moves(moves, "b3", limit=25) == ["b1-b3"]
    assert filter_moves(moves, "zz", limit=25) == []


def test_filter_moves_matches_whatever_the_case_of_the_notation() -> None:
    """Moves keep their canonical capitals (Generator ``M:G-GR``, Orbs cells); what is typed
    is matched against them in lower case, as the engines read it."""
    generator = ["M:G-GR", "M:G-R", "+S", "pass"]
    assert filter_moves(generator, "M:", limit=25) == ["M:G-GR", "M:G-R"]
    assert filter_moves(generator, "m:g-gr", limit=25) == ["M:G-GR"]
    assert filter_moves(generator, "+s", limit=25) == ["+S"]
    assert filter_moves(generator, "mggr", limit=25) == ["M:G-GR"]  # separators ignored
    orbs = ["G3-G4", "H1-H2", "B1-G3"]
    assert filter_moves(orbs, "g3", limit=25) == ["G3-G4", "B1-G3"]
    assert filter_moves(orbs, " H 1", limit=25) == ["H1-H2"]


def test_codecs_round_trip() -> None:
    events = (
        Event("moved", 0, "the orb on a1 moves to a3", ("a1", "a3")),
        Event("secret", 1, "draws a card", (), frozenset({1})),
    )
    assert _codec.load_events(_codec.dump_events(events)) == events
    outcome = Outcome.win("core", 1, 2)
    assert _codec.load_outcome(_codec.dump_outcome(outcome)) == outcome
    assert _codec.dump_outcome(None) is None
    assert _codec.load_outcome(None) is None
    options: dict[str, OptionValue] = {"refill": "all", "move_limit": 400, "start_globes": True}
    assert _codec.load_options(_codec.dump_options(options)) == options
    with pytest.raises(ValueError, match="not a JSON object"):
        _codec.load_options("[1]")


async def test_keyed_lock_serialises_per_key_and_forgets_idle_keys() -> None:
    locks: KeyedLock[int] = KeyedLock()
    order: list[str] = []

    async def work(key: int, name: str, pause: float) -> None:
        async with locks(key):
            order.append(f"{name} in")
            await asyncio.sleep(pause)
            order.append(f"{name} out")

    await asyncio.gather(work(1, "a", 0.02), work(1, "b", 0), work(2, "c", 0))
    assert order.index("a out") < order.index("b in")
    assert order.index("c in") < order.index("a out")
    assert len(locks) == 0


async def test_keyed_lock_waits_at_most_its_wait_then_goes_on_unheld() -> None:
    locks: KeyedLock[int] = KeyedLock()
    release = asyncio.Event()

    async def hang() -> None:
        async with locks(1) as held:
            assert held
            await release.wait()

    hanging = asyncio.create_task(hang())
    await asyncio.sleep(0)
    async with locks(1, wait=0.01) as held:
        assert not held  # the body runs all the same
    release.set()
    await hanging
    async with locks(1, wait=0.01) as held:
        assert held
    assert len(locks) == 0


def test_cli_only_options_are_refused_in_chat_and_not_suggested() -> None:
    engine = get_engine("generation_zero")
    with pytest.raises(UsageError, match="command line"):
        resolve_challenge_options(engine, "content=/etc/passwd", None)
    assert resolve_challenge_options(engine, "max_rounds=3", None)["content"] == "default"
    assert not any(s.startswith("content") for s in suggest_options(engine.info, "c"))


def _sets_up(engine: Any, players: int, options: Mapping[str, Any]) -> bool:
    """Whether ``engine`` sets up a game of ``players`` with ``options``."""
    try:
        engine.new_game(players, options, 0)
    except UsageError:
        return False
    return True
