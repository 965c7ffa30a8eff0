"""Games from a custom start position (``/challenge position:``), and the seats that left a
game that goes on (``/game info``).

A custom position is checked like ``python -m engines --position`` checks it; the game starts
from it with its own seed, its record says where it started, and replays (the consistency
check, ``/game replay``, the CLI) start there too. A rematch starts from it again.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import GameService, GameSnapshot
from bot.service.errors import ChallengeSetupError, LobbyError
from bot.service.records import position_start
from engines import get_engine
from engines.__main__ import run

from .conftest import ALICE, BOB, CAROL, GAMES, GUILD

#: Generatorb after ``a1-a3 h8-h6``: South to move.
GENERATORB = "S:a1,a2,a3,b1,b2,d4=3 N:e5=3,g7,g8,h6,h7,h8 supply:16/16 turn:S ply:2 passes:0"
#: Generator for three, Green about to roll (a chance node right at the start).
GENERATOR = "G:gM,R:rM,Y:yM G545,R545,Y545 G=? 0"


async def _challenge(service: GameService, game: str, position: str, **kw: Any) -> Any:
    return await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        game=game,
        start_position=position,
        **{"opponent_ids": [BOB], **kw},
    )


async def _play_first_legal(service: GameService, snapshot: GameSnapshot, plies: int) -> None:
    """Play the first legal move of whoever is to move, ``plies`` times."""
    for _ in range(plies):
        snapshot = await service.snapshot(GAMES)
        (seat,) = snapshot.to_move
        user = snapshot.players[seat].user_id
        moves = await service.legal_moves(GAMES, user)
        await service.play(GAMES, user, moves[0])


async def test_a_game_starts_from_a_custom_position_and_replays_from_it(
    service: GameService,
) -> None:
    challenge = await _challenge(service, "generatorb", f"  {GENERATORB} ")
    assert challenge.start_position == GENERATORB
    started = (await service.accept_challenge(challenge.challenge_id, BOB)).game
    assert started is not None
    assert started.position == GENERATORB
    row = await service.database.games.get(started.game_id)
    assert row is not None
    assert row.start_position == GENERATORB
    # Never rated, so stored casual, as the lobby says (rated=True was asked by default).
    assert (challenge.rated, started.rated, row.rated) == (False, False, False)

    await _play_first_legal(service, started, 3)

    report = await service.replay(started.game_id)
    assert report.plies == 3
    assert report.matches
    board = await service.board_at(GAMES, guild_id=GUILD, ply=0)
    assert board.snapshot.position == GENERATORB
    record = await service.export_record(GAMES, guild_id=GUILD)
    assert record.start_position == GENERATORB
    assert f'[StartPosition "{GENERATORB}"]' in record.to_text()
    code, out = run(record.replay_argv()[3:])
    assert code == 0
    assert out["position"] == record.position

    # A rematch starts from the same position.
    await service.resign(GAMES, ALICE)
    rematch = await service.rematch(started.game_id, BOB)
    assert rematch.start_position == GENERATORB
    again = (await service.accept_challenge(rematch.challenge_id, ALICE)).game
    assert again is not None
    assert again.position == GENERATORB


async def test_the_player_count_comes_from_the_position_and_the_game_has_its_seed(
    service: GameService,
) -> None:
    challenge = await _challenge(service, "generator", GENERATOR)
    assert challenge.players == 3
    assert challenge.open_seats == 1
    assert not challenge.can_start_early
    with pytest.raises(LobbyError, match="position for 3 players"):
        await service.start_challenge(challenge.challenge_id, ALICE)
    await service.accept_challenge(challenge.challenge_id, BOB)
    started = (await service.join_challenge(challenge.challenge_id, CAROL)).game
    assert started is not None
    assert started.ply == 1
    row = await service.database.games.get(started.game_id)
    assert row is not None
    engine = get_engine("generator")
    assert engine.rng_state(engine.loads(row.state_json)) == (row.seed, 1)

    await _play_first_legal(service, started, 2)
    report = await service.replay(started.game_id)
    assert report.matches
    assert report.plies >= 3


@pytest.mark.parametrize(
    ("game", "position", "players", "message"),
    [
        ("generatorb", "S:a1 nonsense", None, "Generatorb cannot start from that position: "),
        ("generator", GENERATOR, 4, "That Generator position is for 3 players, not 4."),
        ("generatorb", "   ", None, "The position is empty"),
    ],
)
async def test_a_bad_position_is_refused_with_one_sentence(
    service: GameService, game: str, position: str, players: int | None, message: str
) -> None:
    with pytest.raises(ChallengeSetupError) as caught:
        await _challenge(service, game, position, players=players)
    assert str(caught.value).startswith(message)
    assert str(caught.value).endswith(".")


def test_games_with_chance_take_the_seed_and_others_are_read_as_written() -> None:
    generator = get_engine("generator")
    options = generator.resolve_options({})
    state = position_start(generator, GENERATOR, options, 3, 12345)
    assert generator.rng_state(state) == (12345, 0)
    assert generator.position(state) == GENERATOR
    generatorb = get_engine("generatorb")
    plain = position_start(generatorb, GENERATORB, generatorb.resolve_options({}), 2, 7)
    assert generatorb.position(plain) == GENERATORB


async def test_game_info_knows_who_resigned_from_a_game_that_goes_on(
    service: GameService,
) -> None:
    challenge = await _challenge(service, "generator", GENERATOR, opponent_ids=[BOB, CAROL])
    await service.accept_challenge(challenge.challenge_id, BOB)
    started = (await service.accept_challenge(challenge.challenge_id, CAROL)).game
    assert started is not None
    assert (await service.game_info(GAMES)).left_seats == ()
    (carol_seat,) = [p.seat for p in started.players if p.user_id == CAROL]
    after = await service.resign(GAMES, CAROL)
    assert after.is_active
    info = await service.game_info(GAMES)
    assert info.left_seats == ((carol_seat, "resigned"),)
    assert (await service.snapshot(GAMES)).left_seats == ()  # only /game info reads the log
