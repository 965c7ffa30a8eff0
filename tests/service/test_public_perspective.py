"""The side a public board is drawn from (docs/pictures.md, ``public_perspective``)."""

from __future__ import annotations

from dataclasses import replace

from bot.service.bot_seats import bot_user_id
from bot.service.models import Player
from bot.service.views import public_perspective
from tests.bot.test_bot_presenters import snapshot

ANN, BOB = 11, 22


def test_the_seat_to_move_unless_a_bot_holds_it() -> None:
    people = snapshot(game="generatorb", players=(Player(0, ANN, "South"), Player(1, BOB, "North")))
    assert public_perspective(replace(people, to_move=(1,))) == 1
    assert public_perspective(replace(people, to_move=(0,))) == 0
    # Against the bot: the person's side on the bot's turn too, so it does not turn away.
    against_bot = replace(
        people, players=(Player(0, ANN, "South"), Player(1, bot_user_id(1), "North"))
    )
    assert public_perspective(replace(against_bot, to_move=(1,))) == 0
    assert public_perspective(replace(against_bot, to_move=(0,))) == 0
    # Two people and a bot (Orbs): the fixed picture on the bot's turn.
    three = (Player(0, ANN, "N"), Player(1, BOB, "SE"), Player(2, bot_user_id(2), "SW"))
    orbs = replace(people, game="orbs", players=three)
    assert public_perspective(replace(orbs, to_move=(2,))) is None
    assert public_perspective(replace(orbs, to_move=(1,))) == 1
    # A chance node, over, or a game drawn the same for everybody: the fixed picture.
    assert public_perspective(replace(people, to_move=(-1,))) is None
    assert public_perspective(replace(against_bot, to_move=(1,), status="finished")) is None
    assert public_perspective(replace(against_bot, game="arbos", to_move=(1,))) is None
