"""Per-game level tables (``ai.levels.GAME_LEVELS``): the same five numbers, names and time
limits everywhere, so the service's menus and think-time limits hold for every game; only
the iteration budgets and mistakes differ (Arbos, Generator and Orbs, docs/ai.md "Levels"),
and Orbs' level 5 searches with implicit minimax backups."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from ai import GAME_LEVELS, LEVELS, level, levels_for
from ai.bots import MctsBot
from ai.levels import Level, choose_move, suggest
from ai.search import Budget, Mcts
from engines import ENGINES, get_engine
from tests.ai.helpers import new_state


def test_every_game_has_five_levels_with_the_default_names_and_time_limits() -> None:
    for engine_id in ENGINES:
        table = levels_for(engine_id)
        assert [(lv.number, lv.name, lv.budget.seconds) for lv in table] == [
            (lv.number, lv.name, lv.budget.seconds) for lv in LEVELS
        ]
    assert set(GAME_LEVELS) <= set(ENGINES)


def test_arbos_levels_trade_mistakes_for_budget() -> None:
    """Arbos: levels 1–2 draw among their best three moves at 30 and 100 iterations, level 3
    between its best two at 300; levels 4–5 play their most visited move. Other games keep
    the default table."""
    arbos = levels_for("arbos")
    assert [lv.budget.iterations for lv in arbos] == [30, 100, 300, 4000, 20000]
    assert [lv.temperature for lv in arbos] == [0.5, 0.5, 0.3, 0.0, 0.0]
    assert [lv.candidates for lv in arbos] == [3, 3, 2, 1, 1]
    assert levels_for("generatorb") is LEVELS
    assert levels_for(None) is LEVELS
    assert level(2, "arbos") is arbos[1]
    assert level("club", "arbos") is arbos[2]
    assert level(2) is LEVELS[1]


def test_generator_levels_grow_their_budget_and_shed_their_mistakes() -> None:
    """Generator: each level searches 3–5 times the iterations of the one below, and the
    mistakes shrink from level 1 (weighted by visits among the best four) to none at level
    4. A bot's level names the same budget in its game's table."""
    generator = levels_for("generator")
    assert [lv.budget.iterations for lv in generator] == [100, 300, 1000, 4000, 20000]
    assert [(lv.temperature, lv.candidates) for lv in generator] == [
        (1.0, 4),
        (0.5, 3),
        (0.5, 2),
        (0.0, 1),
        (0.0, 1),
    ]
    assert level(3, "generator") is generator[2]
    assert level(MctsBot(2).which, "generator").budget.iterations == 300


def test_orbs_level_4_searches_as_much_as_level_3_without_its_mistakes() -> None:
    """Orbs: the default table, but level 4 at level 3's 1,500 iterations (a mistake costs
    more there than the budget gains), so level 5's 20,000 stand further above it, and
    level 5 alone searches with implicit minimax backups."""
    orbs = levels_for("orbs")
    assert [lv.budget.iterations for lv in orbs] == [100, 600, 1500, 1500, 20000]
    assert [(lv.temperature, lv.candidates) for lv in orbs] == [
        (lv.temperature, lv.candidates) for lv in LEVELS
    ]
    assert (orbs[2].temperature, orbs[3].temperature) == (0.15, 0.0)
    assert [lv.minimax for lv in orbs] == [0.0, 0.0, 0.0, 0.0, 0.4]
    assert replace(orbs[4], minimax=0.0) == LEVELS[4]


def test_only_orbs_level_5_searches_with_minimax_backups() -> None:
    """The backups were measured in Orbs only (docs/ai-runs.md): every other level plays
    plain UCT."""
    for game in ("generatorb", "arbos", "generator", "orbs", "generation_zero"):
        for lv in levels_for(game):
            assert lv.minimax == (0.4 if (game, lv.number) == ("orbs", 5) else 0.0)


def test_no_level_has_its_own_exploration_constant_yet() -> None:
    """``Level.exploration`` is for experiments (docs/ai-runs.md); until one is adopted every
    level searches with its game's constant."""
    for game in ("generatorb", "arbos", "generator", "orbs", "generation_zero"):
        assert all(lv.exploration is None for lv in levels_for(game))


def test_a_level_searches_with_its_own_minimax_weight(monkeypatch: pytest.MonkeyPatch) -> None:
    """:func:`decide` and the hint's :func:`suggest` build their search with the level's
    weight (the game's level 5 for a hint), and its exploration constant."""
    seen: list[float] = []
    constants: list[float | None] = []

    def spy(engine: Any, *args: Any, **kwargs: Any) -> Mcts:
        seen.append(kwargs.get("minimax", 0.0))
        constants.append(kwargs.get("exploration"))
        return Mcts(engine, *args, **kwargs)

    monkeypatch.setattr("ai.levels.Mcts", spy)
    state, _ = new_state("orbs", 2, 1)
    seat = min(get_engine("orbs").to_move(state))
    quick = Budget(50, 60.0)
    strongest = replace(level(5, "orbs"), budget=quick)
    choose_move("orbs", {}, seat, state, strongest, 1)
    choose_move("orbs", {}, seat, state, replace(level(4, "orbs"), budget=quick), 1)
    suggest("orbs", seat, state, 1, quick, value_budget=quick)
    assert seen[:3] == [0.4, 0.0, 0.4]
    explorer = replace(level(4, "orbs"), budget=quick, exploration=0.3)
    choose_move("orbs", {}, seat, state, explorer, 1)
    assert constants[:3] == [None, None, None]
    assert constants[-1] == 0.3


def test_a_bot_resolves_its_level_in_the_game_it_plays() -> None:
    """``MctsBot(2)`` is level 2 of whichever game it plays; a :class:`Level` given as it is
    stays that level everywhere."""
    bot = MctsBot(2)
    assert level(bot.which, "arbos").budget.iterations == 100
    assert level(bot.which, "generatorb") is LEVELS[1]
    custom = Level(9, "custom", LEVELS[0].budget, 0.0, 1)
    assert level(MctsBot(custom).which, "arbos") is custom
