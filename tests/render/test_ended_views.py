"""A game ended on the bot's record (a resignation the engine leaves to the bot, a draw by
agreement) is drawn with its result: ``Engine.ended_view`` gives every engine's view that
outcome and nobody to act, in the shapes its renderer takes."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from engines import ENGINES, get_engine
from engines.base import CHANCE, Outcome
from render import render_png
from tests.render import test_render_arbos as arbos_pictures

ENDINGS = [Outcome.draw("agreement", 2), Outcome.win("resignation", 1, 2)]


@pytest.mark.parametrize("outcome", ENDINGS, ids=lambda o: o.termination)
@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_engines_ended_view_is_drawn(game: str, outcome: Outcome) -> None:
    engine = get_engine(game)
    state = engine.new_game(2, engine.resolve_options({}), 7)
    view = engine.view(state, None)
    ended = engine.ended_view(view, outcome)
    assert ended.outcome == outcome
    assert not ended.to_move  # None or (): nobody acts
    image = Image.open(io.BytesIO(render_png(game, ended)))
    assert image.format == "PNG"
    # A view that knows its outcome is left as it is.
    assert engine.ended_view(ended, Outcome.draw("other", 2)) is ended


def test_an_arbos_game_ended_while_a_prune_is_due_is_drawn() -> None:
    """A prune is the player to act's (A17): the ended view has none left."""
    pruning = arbos_pictures.PRUNE
    assert pruning.prune > 0
    ended = get_engine("arbos").ended_view(pruning, Outcome.win("resignation", 0, 2))
    assert (ended.to_move, ended.prune) == (None, 0)
    assert render_png("arbos", ended).startswith(b"\x89PNG")


def test_a_generator_game_ended_after_a_roll_keeps_no_roll_or_reachable_nodes() -> None:
    engine = get_engine("generator")
    state = engine.new_game(2, engine.resolve_options({}), 7)
    while engine.to_move(state) == (CHANCE,):
        state = engine.apply_chance(state, engine.sample_chance(state)).state
    rolled: Any = engine.view(state, None)
    assert rolled.roll is not None
    assert rolled.reachable
    ended: Any = engine.ended_view(rolled, Outcome.draw("agreement", 2))
    assert (ended.roll, ended.reachable, ended.extra_turn, ended.to_move) == (None, (), False, None)
    assert render_png("generator", ended).startswith(b"\x89PNG")
