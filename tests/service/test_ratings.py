"""Ratings (bot/service/ratings.py): openskill results, ties, teams, what is rated, the write
that ends a game (once, also under a race), rebuild = incremental, provisional marks,
leaderboard gates, privacy and /forget-me."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime, timedelta

import pytest

from bot import presenters
from bot.service import GameService, GameSnapshot, StaleActionError
from bot.service.bot_seats import bot_level, bot_user_id
from bot.service.models import RatingChange
from bot.service.options import sides_of
from bot.service.ratings import (
    MODEL,
    PROVISIONAL_SIGMA,
    SIGMA0,
    GameResult,
    StillPlayingServiceError,
    inflated_sigma,
    is_rated,
    shown_rating,
    update_ratings,
)
from db import Database
from db.rows import RatingRow
from engines.base import Outcome
from tests.db.test_ratings import rating_stamps

from .conftest import ALICE, BOB, CAROL, GAMES, GUILD, T0, FakeClock, StartGame, to_move_user
from .test_service_races import after_read


def result(
    user_ids: Sequence[int],
    outcome: Outcome,
    sides: tuple[tuple[int, ...], ...] | None = None,
    *,
    at: datetime = T0,
    game_id: int = 1,
) -> GameResult:
    n = len(user_ids)
    return GameResult(
        game_id=game_id,
        game="orbs",
        guild_id=GUILD,
        finished_at=at,
        user_ids=tuple(user_ids),
        sides=sides or tuple((s,) for s in range(n)),
        outcome=outcome,
    )


def by_user(rows: list[RatingRow]) -> dict[int, RatingRow]:
    return {r.user_id: r for r in rows}


# ---- the pure update: known openskill (Plackett–Luce) results -----------------------------------


def test_two_players_known_result() -> None:
    rows, changes = update_ratings(result([1, 2], Outcome.win("x", 0, 2)), {})
    got = by_user(rows)
    assert got[1].mu == pytest.approx(27.635389, abs=1e-5)
    assert got[2].mu == pytest.approx(22.364611, abs=1e-5)
    assert got[1].sigma == pytest.approx(8.065901, abs=1e-5) == got[2].sigma
    assert (got[1].wins, got[2].losses, got[1].games) == (1, 1, 1)
    assert [c.result for c in changes] == ["win", "loss"]
    assert round(changes[0].rating_before) == 1500
    assert round(changes[0].rating_after) == 1587


def test_three_players_known_result() -> None:
    outcome = Outcome("x", (2,), ((2,), (0,), (1,)))
    got = by_user(update_ratings(result([1, 2, 3], outcome), {})[0])
    assert got[3].mu == pytest.approx(27.869049, abs=1e-5)
    assert got[1].mu == pytest.approx(25.717262, abs=1e-5)
    assert got[2].mu == pytest.approx(21.413689, abs=1e-5)


def test_teams_match_openskill_directly() -> None:
    # Orbs 02-13: seats 0 and 2 against 1 and 3; the first side wins.
    outcome = Outcome("last_standing", (0, 2), ((0, 2), (1, 3)))
    sides = ((0, 2), (1, 3))
    got = by_user(update_ratings(result([1, 2, 3, 4], outcome, sides), {})[0])
    [[a, _c], [b, _d]] = MODEL.rate(
        [[MODEL.rating(), MODEL.rating()], [MODEL.rating(), MODEL.rating()]], ranks=[0, 1]
    )
    assert got[1].mu == pytest.approx(a.mu) == pytest.approx(got[3].mu)
    assert got[2].mu == pytest.approx(b.mu)
    assert got[1].mu > 25 > got[2].mu


def test_orbs_team_option_gives_the_sides() -> None:
    assert sides_of("orbs", '{"teams": "02-13"}', 4) in (((0, 2), (1, 3)),)
    assert sides_of("generatorb", '{"size": 8}', 2) == ((0,), (1,))


def test_a_draw_moves_nobody_and_a_tie_shares_a_place() -> None:
    rows, changes = update_ratings(result([1, 2], Outcome.draw("agreement", 2)), {})
    got = by_user(rows)
    assert got[1].mu == pytest.approx(25.0) == got[2].mu
    assert got[1].sigma < SIGMA0
    assert [c.result for c in changes] == ["draw", "draw"]
    # Three players, two tied second: the tied ones move alike.
    tied = by_user(update_ratings(result([1, 2, 3], Outcome("x", (0,), ((0,), (1, 2)))), {})[0])
    assert tied[2].mu == pytest.approx(tied[3].mu)
    assert tied[1].mu > 25 > tied[2].mu


def test_who_had_left_a_drawn_game_lost_it() -> None:
    # Orbs with three: seat 2 resigned, the other two played on to a draw. Seat 2's rating
    # falls, and its record says lost, not drawn (it said 0 / 7 / 0 after seven such games).
    outcome = Outcome("no_progress", (), ((0, 1), (2,)))
    rows, changes = update_ratings(result([1, 2, 3], outcome), {})
    assert [c.result for c in changes] == ["draw", "draw", "loss"]
    got = by_user(rows)
    assert (got[3].wins, got[3].draws, got[3].losses) == (0, 0, 1)
    assert (got[1].draws, got[2].draws) == (1, 1)
    assert got[3].mu < 25


def test_bots_of_one_level_are_one_player() -> None:
    bot = bot_user_id(3)
    rows, changes = update_ratings(
        result([ALICE, bot, bot_user_id(3, 1)], Outcome.win("x", 0, 3)), {}
    )
    assert sorted(r.user_id for r in rows) == [-300, ALICE]
    assert [c.seat for c in changes] == [0, 1]


def test_a_bot_level_on_both_teams_counts_on_both_and_is_rated_once() -> None:
    """Orbs 02-13 with BOB and a level-1 bot against ALICE and another level-1 bot: the
    second bot seat still counts in its team's strength (a stand-in with the level's
    rating), so a draw between two teams alike moves nobody's mu; the level is rated by its
    first seat, and its win or loss is that seat's."""
    bot, other = bot_user_id(1), bot_user_id(1, 1)
    users, sides = [BOB, ALICE, bot, other], ((0, 2), (1, 3))
    drawn = by_user(update_ratings(result(users, Outcome.draw("no_progress", 4), sides), {})[0])
    assert sorted(drawn) == [-100, ALICE, BOB]
    assert all(row.mu == pytest.approx(25.0) for row in drawn.values())
    won = Outcome("last_standing", (1, 3), ((1, 3), (0, 2)))
    rows, changes = update_ratings(result(users, won, sides), {})
    got = by_user(rows)
    [[b, _bot], [a, _other]] = MODEL.rate(
        [[MODEL.rating(), MODEL.rating()], [MODEL.rating(), MODEL.rating()]], ranks=[1, 0]
    )
    assert got[ALICE].mu == pytest.approx(a.mu)
    assert got[BOB].mu == pytest.approx(b.mu) == pytest.approx(got[-100].mu)
    assert (got[-100].wins, got[-100].losses) == (0, 1)
    assert [(c.seat, c.result) for c in changes] == [(0, "loss"), (1, "win"), (2, "loss")]
    # Bots of one level only: nobody to be rated against.
    assert update_ratings(result([bot, other], Outcome.win("x", 0, 2)), {}) == ([], [])


def test_a_person_beating_three_bots_of_one_level_beat_three() -> None:
    """Free-for-all: each bot seat is an opponent, though the level is rated once."""
    field = [ALICE, bot_user_id(2), bot_user_id(2, 1), bot_user_id(2, 2)]
    win = Outcome("last_standing", (0,), ((0,), (1,), (2,), (3,)))
    against_three = by_user(update_ratings(result(field, win), {})[0])
    against_one = by_user(update_ratings(result(field[:2], Outcome.win("x", 0, 2)), {})[0])
    assert against_three[ALICE].mu > against_one[ALICE].mu


def test_sigma_grows_back_when_idle() -> None:
    assert inflated_sigma(3.0, timedelta(0)) == 3.0
    assert 3.0 < inflated_sigma(3.0, timedelta(days=60)) < inflated_sigma(3.0, timedelta(days=180))
    assert inflated_sigma(3.0, timedelta(days=10_000)) == SIGMA0
    rested = RatingRow(1, "orbs", 30.0, 3.0, shown_rating(30, 3), 50, 30, 0, 20, 7, T0)
    outcome = Outcome.win("x", 0, 2)
    soon = by_user(
        update_ratings(result([1, 2], outcome, at=T0 + timedelta(days=1)), {1: rested})[0]
    )
    late = by_user(
        update_ratings(result([1, 2], outcome, at=T0 + timedelta(days=365)), {1: rested})[0]
    )
    assert late[1].mu - 30 > soon[1].mu - 30 > 0  # more uncertain: moves more


def rated_game(
    *,
    rated: bool = True,
    status: str = "finished",
    seat_plies: int = 10,
    start_position: str | None = None,
    user_ids: Sequence[int] = (ALICE, BOB),
) -> bool:
    """:func:`is_rated` of a finished rated game of two people, but for what is given."""
    return is_rated(
        rated=rated,
        status=status,
        seat_plies=seat_plies,
        start_position=start_position,
        user_ids=user_ids,
    )


def test_what_is_rated() -> None:
    assert rated_game()
    assert not rated_game(rated=False)
    assert not rated_game(status="aborted")
    assert not rated_game(seat_plies=1)
    assert not rated_game(start_position="x")
    assert not rated_game(user_ids=[bot_user_id(1), bot_user_id(5)])
    assert not rated_game(user_ids=[ALICE, ALICE])
    assert rated_game(user_ids=[ALICE, bot_user_id(2)])


def test_provisional_marks_in_the_outcome_text() -> None:
    change = RatingChange(ALICE, 0, 1500, 1588, provisional=True, provisional_before=True)
    assert presenters.rating_change_text(change) == "1500? → 1588? (+88)"
    settled = RatingChange(BOB, 1, 1512, 1490)
    assert presenters.rating_change_text(settled) == "1512 → 1490 (−22)"


# ---- through the service ---------------------------------------------------------------


async def play_and_resign(
    service: GameService, plies: int = 2, channel: int = GAMES
) -> GameSnapshot:
    for _ in range(plies):
        snapshot = await service.snapshot(channel)
        user = to_move_user(snapshot)
        move = (await service.legal_moves(channel, user))[0]
        await service.play(channel, user, move)
    snapshot = await service.snapshot(channel)
    return await service.resign(channel, to_move_user(snapshot))


async def test_a_rated_game_updates_ratings_once_and_shows_the_changes(
    service: GameService, database: Database, start_game: StartGame
) -> None:
    await start_game()
    final = await play_and_resign(service)
    assert len(final.rating_changes) == 2
    assert not final.ended_too_soon
    winner = final.players[final.outcome.winners[0]].user_id  # type: ignore[union-attr]
    shown = {c.user_id: c for c in final.rating_changes}
    assert shown[winner].delta > 0
    assert shown[winner].provisional
    text = presenters.outcome_text(final)
    assert "Ratings:" in text
    assert "1500? → 1587? (+87)" in text
    # Loaded again (another process, /board): the same changes.
    assert (await service.snapshot(GAMES)).rating_changes == final.rating_changes
    assert len(await database.ratings.changes_of_game(final.game_id)) == 2
    assert (await database.ratings.get(winner, "generatorb")).games == 1  # type: ignore[union-attr]


async def test_casual_short_and_aborted_games_are_unrated(
    service: GameService, database: Database
) -> None:
    casual = await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        opponent_ids=[BOB],
        game="generatorb",
        rated=False,
    )
    await service.accept_challenge(casual.challenge_id, BOB)
    assert (await play_and_resign(service)).rating_changes == ()
    rated = await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        opponent_ids=[BOB],
        game="generatorb",
    )
    await service.accept_challenge(rated.challenge_id, BOB)
    assert (await play_and_resign(service, plies=1)).rating_changes == ()  # 1 ply < 2 players
    assert await database.ratings.of_user(ALICE) == []


async def test_two_processes_ending_one_game_rate_it_once(
    database: Database,
    db_url: str,
    clock: FakeClock,
    start_game: StartGame,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    snapshot = await start_game()
    first = GameService(database, clock=clock)
    for _ in range(2):
        user = to_move_user(await first.snapshot(GAMES))
        await first.play(GAMES, user, (await first.legal_moves(GAMES, user))[0])
    other_db = Database(db_url)
    try:
        one = GameService(database, clock=clock)
        two = GameService(other_db, clock=clock)
        both_read = asyncio.Barrier(2)
        for db in (database, other_db):
            monkeypatch.setattr(db.games, "active_in_channel", after_read(db, both_read))
        results = await asyncio.gather(
            one.resign(GAMES, ALICE), two.resign(GAMES, BOB), return_exceptions=True
        )
        landed = [r for r in results if isinstance(r, GameSnapshot)]
        refused = [r for r in results if isinstance(r, BaseException)]
        assert len(landed) == 1
        assert isinstance(refused[0], StaleActionError)
        assert len(await database.ratings.changes_of_game(snapshot.game_id)) == 2
        for user in (ALICE, BOB):
            assert (await database.ratings.get(user, "generatorb")).games == 1  # type: ignore[union-attr]
    finally:
        await other_db.close()


async def test_rebuild_equals_incremental(
    service: GameService, database: Database, clock: FakeClock
) -> None:
    pairs = [(ALICE, BOB), (BOB, CAROL), (CAROL, ALICE), (ALICE, BOB), (ALICE, bot_user_id(2))]
    for index, (a, b) in enumerate(pairs):
        channel = GAMES + index
        await start_two(service, channel, a, b)
        snapshot = await service.snapshot(channel)
        if to_move_user(snapshot) < 0:
            continue
        await play_and_resign(service, plies=3 if index % 2 else 2, channel=channel)
        clock.advance(timedelta(days=3))
    incremental = {u: await database.ratings.of_user(u) for u in (ALICE, BOB, CAROL, -200)}
    history = {u: await database.ratings.history(u, "generatorb") for u in (ALICE, BOB, CAROL)}
    report = await service.rebuild_ratings()
    assert report.games >= 4
    for user, rows in incremental.items():
        assert await database.ratings.of_user(user) == rows
    for user, changes in history.items():
        assert await database.ratings.history(user, "generatorb") == changes


async def test_rebuild_replays_games_in_the_order_their_ratings_were_applied(
    service: GameService, database: Database, clock: FakeClock
) -> None:
    """Two games that share Alice end in the other order than their ``finished_at`` says:
    the later-stamped ending is applied first, as when two endings race for her rating's
    lock. The rebuild replays them as they were applied (``games.rating_seq``, migration
    0009), so every rating and history row comes back the same."""
    channels = (GAMES + 20, GAMES + 21)
    for channel, opponent in zip(channels, (BOB, CAROL), strict=True):
        await start_two(service, channel, ALICE, opponent)
    clock.advance(timedelta(days=2))
    second = await play_and_resign(service, plies=2, channel=channels[1])
    clock.advance(timedelta(days=-1))
    first = await play_and_resign(service, plies=3, channel=channels[0])
    stamps, _ = await rating_stamps(database, [first.game_id, second.game_id], ALICE, "generatorb")
    assert stamps == {second.game_id: 1, first.game_id: 2}  # applied: second, then first
    incremental = {u: await database.ratings.of_user(u) for u in (ALICE, BOB, CAROL)}
    history = {u: await database.ratings.history(u, "generatorb") for u in (ALICE, BOB, CAROL)}
    report = await service.rebuild_ratings()
    assert report.games == 2
    for user, rows in incremental.items():
        assert await database.ratings.of_user(user) == rows
    for user, changes in history.items():
        assert await database.ratings.history(user, "generatorb") == changes
    # The rebuilt ratings keep their clock: Alice's next game is stamped after both.
    _, seq = await rating_stamps(database, [], ALICE, "generatorb")
    assert seq == 2


async def start_two(service: GameService, channel: int, challenger: int, opponent: int) -> None:
    """A rated two-player Generatorb game in ``channel``: ``opponent`` joins, or, for a bot's
    user id (``bot_user_id(level)``), the challenger adds a bot of that level."""
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=channel,
        challenger_id=challenger,
        opponent_ids=[],
        players=2,
        game="generatorb",
    )
    level = bot_level(opponent)
    if level is not None:
        await service.add_bots(challenge.challenge_id, challenger, [level])
    else:
        await service.join_challenge(challenge.challenge_id, opponent)


async def test_leaderboard_gates_and_place(
    service: GameService, database: Database, clock: FakeClock
) -> None:
    now = clock()
    settled = {"games": 20, "wins": 10, "draws": 0, "losses": 10, "last_game_id": 1}
    rows = [
        RatingRow(1, "generatorb", 30, 3, shown_rating(30, 3), last_played_at=now, **settled),
        RatingRow(2, "generatorb", 28, 3, shown_rating(28, 3), last_played_at=now, **settled),
        # provisional: too uncertain
        RatingRow(
            3,
            "generatorb",
            40,
            PROVISIONAL_SIGMA + 1,
            shown_rating(40, 7.2),
            last_played_at=now,
            **settled,
        ),
        # inactive: last game 40 days ago
        RatingRow(
            4,
            "generatorb",
            35,
            3,
            shown_rating(35, 3),
            last_played_at=now - timedelta(days=40),
            **settled,
        ),
        # too few games
        RatingRow(
            5,
            "generatorb",
            36,
            3,
            shown_rating(36, 3),
            games=3,
            wins=3,
            draws=0,
            losses=0,
            last_game_id=1,
            last_played_at=now,
        ),
    ]
    await database.ratings.replace_all(rows, [])
    board = await service.leaderboard("generatorb", scope="global", caller_id=4)
    assert [e.user_id for e in board.entries] == [1, 2]
    assert board.caller is not None
    assert "30 days" in board.caller_note
    await service.set_leaderboard_hidden(1, True)
    assert [
        e.user_id for e in (await service.leaderboard("generatorb", scope="global")).entries
    ] == [2]
    mine = await service.leaderboard("generatorb", scope="global", caller_id=2)
    assert mine.caller is not None
    assert mine.caller.place == 1
    assert mine.caller_note == ""


async def test_forget_me_anonymises_and_keeps_ratings_derivable(
    service: GameService, database: Database, start_game: StartGame
) -> None:
    await start_game()
    with pytest.raises(StillPlayingServiceError):
        await service.forget_me(ALICE)
    final = await play_and_resign(service)
    anonymous = await service.forget_me(ALICE)
    assert anonymous <= -(10**12)
    seats = [s.user_id for s in await database.games.seats(final.game_id)]
    assert ALICE not in seats
    assert anonymous in seats
    assert await database.ratings.of_user(ALICE) == []
    kept = await database.ratings.of_user(anonymous)
    assert len(kept) == 1
    await service.rebuild_ratings()
    assert await database.ratings.of_user(anonymous) == kept
    assert await service.forget_me(BOB) == anonymous - 1


async def test_a_forgotten_player_leaves_the_finished_games_shown_at_once(
    service: GameService, start_game: StartGame
) -> None:
    """The game's players were cached while it ran (and when it was shown after the end);
    after /forget-me every view of the finished game names the anonymous id, in this
    process and in any other, without waiting for the cache to forget the game."""
    await start_game()
    final = await play_and_resign(service)
    assert ALICE in (await service.game_snapshot(final.game_id)).user_ids
    anonymous = await service.forget_me(ALICE)
    shown = await service.game_snapshot(final.game_id)
    assert ALICE not in shown.user_ids
    assert anonymous in shown.user_ids
    # Posts name the anonymous id in words: a mention of it would show as raw text.
    texts = presenters.outcome_text(shown) + presenters.game_info_text(shown)
    assert "*Anonymous*" in texts
    assert f"<@{anonymous}>" not in texts


async def test_a_casual_challenge_says_so_and_its_rematch_stays_casual(
    service: GameService,
) -> None:
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        opponent_ids=[BOB],
        game="generatorb",
        rated=False,
    )
    assert not challenge.rated
    assert "A casual game (not rated)." in presenters.challenge_text(challenge)
    started = (await service.accept_challenge(challenge.challenge_id, BOB)).game
    assert started is not None
    ended = await service.resign(GAMES, ALICE)
    rematch = await service.rematch(ended.game_id, BOB)
    assert not rematch.rated


async def test_a_game_ended_before_anyone_moved_is_unrated_although_chance_steps_were_logged(
    service: GameService,
) -> None:
    # Arbos logs its random setup as chance plies before either player moves: a resignation
    # then is no rated game ("fewer plies than players" counts the plies seats played).
    challenge = await service.create_challenge(
        guild_id=GUILD, channel_id=GAMES, challenger_id=ALICE, opponent_ids=[BOB], game="arbos"
    )
    started = (await service.accept_challenge(challenge.challenge_id, BOB)).game
    assert started is not None
    assert started.ply >= 2  # the setup's chance steps
    ended = await service.resign(GAMES, ALICE)
    assert ended.status == "finished"
    assert ended.ended_too_soon  # the resigner hears why (its ply counted the setup)
    assert await service.database.ratings.get(ALICE, "arbos") is None


@pytest.mark.parametrize("game", ["generatorb", "orbs", "generator"])
async def test_one_move_then_a_resignation_is_unrated_in_every_game(
    service: GameService, database: Database, start_game: StartGame, game: str
) -> None:
    """Orbs and Generator log a resignation as the seat's ``[k]resign`` ply, Generatorb logs
    none: either way the resigning seat never moved, so the game is unrated (it was rated
    in Orbs and Generator, so a player could shed rating by resigning at once). The rebuild
    counts the same way."""
    await start_game(game=game)
    final = await play_and_resign(service, plies=1)
    assert final.status == "finished"
    assert final.rating_changes == ()
    assert final.ended_too_soon
    assert await database.ratings.get(ALICE, game) is None
    await service.rebuild_ratings()
    assert await database.ratings.get(ALICE, game) is None


@pytest.mark.parametrize("game", ["generatorb", "orbs"])
async def test_one_move_then_an_agreed_draw_is_unrated_in_every_game(
    service: GameService, database: Database, start_game: StartGame, game: str
) -> None:
    """Orbs logs an agreed draw as the engine's ``draw`` ply (D-ORB-11), Generatorb logs none:
    either way only one seat moved, so the game is unrated (it was rated in Orbs only). The
    rebuild counts the same way."""
    snapshot = await start_game(game=game)
    mover = to_move_user(snapshot)
    await service.play(GAMES, mover, (await service.legal_moves(GAMES, mover))[0])
    offer = await service.offer_draw(GAMES, mover)
    other = offer.opponent_user_ids[0]
    ended = await service.answer_draw(offer.game_id, other, accept=True, version=offer.version)
    assert ended.status == "finished"
    assert ended.rating_changes == ()
    assert ended.ended_too_soon
    await service.rebuild_ratings()
    assert await database.ratings.get(ALICE, game) is None
