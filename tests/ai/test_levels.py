"""Per-game level tables (``ai.levels.GAME_LEVELS``, ``level_for``)."""

from __future__ import annotations

import itertools

import pytest

from ai import GAME_LEVELS, LEVELS, Budget, Level, Mcts, MctsBot, choose_move, level_for
from engines import ENGINES, get_engine
from tests.ai.helpers import new_state


@pytest.mark.parametrize("game", sorted(GAME_LEVELS))
def test_a_game_table_keeps_the_numbers_and_names(game: str) -> None:
    assert game in ENGINES
    table = GAME_LEVELS[game]
    assert [(lv.number, lv.name) for lv in table] == [(lv.number, lv.name) for lv in LEVELS]
    for lower, higher in itertools.pairwise(table):
        assert lower.budget.iterations <= higher.budget.iterations
        assert lower.budget.seconds <= higher.budget.seconds
    assert table[-1].temperature == 0.0  # the top level plays its best move
    assert all(lv.budget.seconds <= 2.0 for lv in table)  # issue 14: level 5 <= 2 s
    assert table[0].budget.seconds <= 0.2  # and level 1 <= 0.2 s


def test_level_for_picks_the_game_table(monkeypatch: pytest.MonkeyPatch) -> None:
    one = Level(1, "beginner", Budget(1, 0.1), temperature=0.0, candidates=1)
    table = (one, *LEVELS[1:])
    monkeypatch.setitem(GAME_LEVELS, "orbs", table)
    assert level_for("orbs", 1) is one
    assert level_for("orbs", "beginner") is one
    assert level_for("orbs", 2) is LEVELS[1]
    assert level_for("generatorb", 1) == GAME_LEVELS.get("generatorb", LEVELS)[0]
    assert level_for("orbs", LEVELS[0]) is LEVELS[0]  # a Level is played as it is
    with pytest.raises(ValueError, match="unknown bot level"):
        level_for("orbs", 6)


def test_choose_move_and_bots_play_the_game_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table whose level 1 searches one iteration is what choose_move and MctsBot run."""
    searched: list[int] = []
    original = Mcts.search

    def spy(self, state, seat, budget, seed, **kw):  # type: ignore[no-untyped-def]
        searched.append(budget.iterations)
        return original(self, state, seat, budget, seed, **kw)

    monkeypatch.setattr(Mcts, "search", spy)
    one = Level(1, "beginner", Budget(7, 1.0), temperature=0.0, candidates=1)
    monkeypatch.setitem(GAME_LEVELS, "orbs", (one, *LEVELS[1:]))
    state, resolved = new_state("orbs", 2, 3)
    engine = get_engine("orbs")
    choose_move("orbs", resolved, engine.to_move(state)[0], state, 1, 5)
    MctsBot(1).choose(engine, resolved, engine.to_move(state)[0], state, 5)
    assert searched == [7, 7]
