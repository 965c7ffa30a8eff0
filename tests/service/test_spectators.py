"""Spectators: watching a game, who hears of a board post, ``/games``, thread endings.

Real SQLite files and a fake clock, as the other service tests; no Discord.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from bot import presenters
from bot.service import GameService, GameSnapshot, NoGameHereError, ServiceError
from bot.service.bot_seats import bot_user_id
from bot.service.models import Player, SeatClockInfo
from bot.service.spectators import (
    THREAD_ARCHIVE_TIMER,
    GameListing,
    GamesList,
    GamesScope,
    Spectators,
    WatchChange,
    WatchError,
    listing_of,
)
from db import Database
from db.schema import ThreadPolicy
from tests.bot.test_bot_presenters import snapshot as presenter_snapshot

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    DAN,
    ERIN,
    GAMES,
    GUILD,
    OTHER,
    FakeClock,
    StartGame,
    to_move_user,
    waiting_user,
)

THREAD = 700  # a thread off GAMES
ELSEWHERE = 77  # another guild
FAR = 800  # a channel of that guild


@pytest.fixture
def spectators(service: GameService, clock: FakeClock) -> Spectators:
    return Spectators(service, clock=clock)


async def start_in_thread(
    service: GameService, *, challenger: int = ALICE, opponent: int = BOB, thread: int = THREAD
) -> GameSnapshot:
    """A game challenged for in GAMES and started in a thread off it."""
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=challenger,
        opponent_ids=[opponent],
        game="generatorb",
    )
    update = await service.accept_challenge(
        challenge.challenge_id, opponent, channel_id=thread, parent_channel_id=GAMES
    )
    assert update.game is not None
    return update.game


async def test_a_players_games_in_threads_of_a_channel(service: GameService) -> None:
    """Where a /move typed in the channel should have gone (bot/cogs/play.py)."""
    in_thread = await start_in_thread(service)
    assert [g.game_id for g in await service.games_in_threads_of(GAMES, ALICE)] == [
        in_thread.game_id
    ]
    assert await service.games_in_threads_of(GAMES, CAROL) == []
    assert await service.games_in_threads_of(THREAD, ALICE) == []  # the thread's own game
    await service.resign(THREAD, ALICE)  # two players: the game ends, and is not listed
    assert await service.games_in_threads_of(GAMES, ALICE) == []
    # Three players: ALICE resigns and the game goes on without her; it is not hers to
    # play any more, so a move typed in the channel is not sent there.
    three = await service.create_challenge(
        guild_id=GUILD,
        channel_id=GAMES,
        challenger_id=ALICE,
        opponent_ids=[BOB, CAROL],
        game="generator",
        players=3,
    )
    await service.accept_challenge(three.challenge_id, BOB)
    update = await service.accept_challenge(
        three.challenge_id, CAROL, channel_id=THREAD + 1, parent_channel_id=GAMES
    )
    assert update.game is not None
    assert [g.game_id for g in await service.games_in_threads_of(GAMES, ALICE)] == [
        update.game.game_id
    ]
    assert (await service.resign(THREAD + 1, ALICE)).is_active
    assert await service.games_in_threads_of(GAMES, ALICE) == []
    assert await service.games_in_threads_of(GAMES, BOB) != []


# ---- watching ------------------------------------------------------------------------------


async def test_watch_again_with_the_same_settings_stops_and_other_settings_change(
    spectators: Spectators, start_game: StartGame, database: Database
) -> None:
    game = await start_game()
    started = await spectators.watch(GAMES, CAROL, guild_id=GUILD)
    assert (started.change, started.every_move, started.watching) == (
        WatchChange.STARTED,
        False,
        True,
    )
    assert (started.game_id, started.channel_id, started.in_thread) == (game.game_id, GAMES, False)
    changed = await spectators.watch(GAMES, CAROL, guild_id=GUILD, every_move=True)
    assert (changed.change, changed.every_move) == (WatchChange.CHANGED, True)
    assert [w.every_move for w in await database.watchers.for_game(game.game_id)] == [True]
    stopped = await spectators.watch(GAMES, CAROL, guild_id=GUILD, every_move=True)
    assert (stopped.change, stopped.watching) == (WatchChange.STOPPED, False)
    assert await database.watchers.for_game(game.game_id) == []
    with pytest.raises(WatchError, match="not watching"):
        await spectators.unwatch(GAMES, CAROL, guild_id=GUILD)
    await spectators.watch(GAMES, CAROL, guild_id=GUILD)
    assert (await spectators.unwatch(GAMES, CAROL, guild_id=GUILD)).change is WatchChange.STOPPED


async def test_the_watch_button_follows_every_move_and_a_second_press_stops(
    spectators: Spectators, start_game: StartGame, database: Database
) -> None:
    game = await start_game()
    first = await spectators.toggle(game.game_id, DAN)
    assert (first.change, first.every_move) == (WatchChange.STARTED, True)
    second = await spectators.toggle(game.game_id, DAN)
    assert second.change is WatchChange.STOPPED
    assert await database.watchers.get(game.game_id, DAN) is None


async def test_players_cannot_watch_their_own_game(
    spectators: Spectators, start_game: StartGame, database: Database
) -> None:
    game = await start_game()
    with pytest.raises(WatchError, match="You play in this game"):
        await spectators.watch(GAMES, ALICE, guild_id=GUILD)
    with pytest.raises(WatchError, match="You play in this game"):
        await spectators.toggle(game.game_id, BOB)
    assert await database.watchers.for_game(game.game_id) == []


async def test_a_game_is_named_by_id_only_within_its_guild(
    spectators: Spectators, service: GameService, start_game: StartGame
) -> None:
    game = await start_game()
    far = await service.create_challenge(
        guild_id=ELSEWHERE,
        channel_id=FAR,
        challenger_id=DAN,
        opponent_ids=[ERIN],
        game="generatorb",
    )
    far_game = (await service.accept_challenge(far.challenge_id, ERIN)).game
    assert far_game is not None
    # From another channel of the same guild: fine.
    watched = await spectators.watch(OTHER, CAROL, guild_id=GUILD, game_id=game.game_id)
    assert watched.game_id == game.game_id
    with pytest.raises(NoGameHereError, match=f"no game {far_game.game_id} on this server"):
        await spectators.watch(OTHER, CAROL, guild_id=GUILD, game_id=far_game.game_id)
    with pytest.raises(NoGameHereError, match="no game 999 on this server"):
        await spectators.watch(OTHER, CAROL, guild_id=GUILD, game_id=999)
    with pytest.raises(NoGameHereError, match="in this conversation"):
        await spectators.watch(OTHER, CAROL, guild_id=None, game_id=game.game_id)
    with pytest.raises(NoGameHereError):
        await spectators.watch(OTHER, CAROL, guild_id=GUILD)  # no game in that channel


async def test_a_game_that_is_over_cannot_be_watched_but_a_watch_can_be_dropped(
    spectators: Spectators, service: GameService, start_game: StartGame
) -> None:
    game = await start_game()
    await spectators.watch(GAMES, CAROL, guild_id=GUILD)
    await service.resign(GAMES, ALICE)
    with pytest.raises(WatchError, match=f"Game {game.game_id} is over"):
        await spectators.watch(GAMES, DAN, guild_id=GUILD)  # the last game of the channel
    with pytest.raises(WatchError, match="is over"):
        await spectators.toggle(game.game_id, DAN)
    # A watcher of the ended game may still stop, with either setting.
    dropped = await spectators.watch(GAMES, CAROL, guild_id=GUILD, every_move=True)
    assert dropped.change is WatchChange.STOPPED


# ---- who hears of a post -------------------------------------------------------------------


async def test_every_move_watchers_hear_of_each_post_and_everyone_of_the_end(
    spectators: Spectators, service: GameService, start_game: StartGame, clock: FakeClock
) -> None:
    game = await start_game()
    await spectators.watch(GAMES, CAROL, guild_id=GUILD)  # only the end
    clock.advance(timedelta(seconds=1))
    await spectators.toggle(game.game_id, DAN)  # every move
    clock.advance(timedelta(seconds=1))
    await spectators.watch(GAMES, ERIN, guild_id=GUILD, every_move=True)
    assert await spectators.to_notify(game) == ()  # this snapshot was read before they came
    now = await service.game_snapshot(game.game_id)
    assert now.watchers == 3
    assert await spectators.to_notify(now) == (DAN, ERIN)
    ended = await service.resign(GAMES, waiting_user(game))
    assert await spectators.to_notify(ended) == (CAROL, DAN, ERIN)


async def test_a_watcher_who_became_a_player_is_not_told_twice(
    spectators: Spectators,
    service: GameService,
    start_game: StartGame,
    database: Database,
    clock: FakeClock,
) -> None:
    game = await start_game()
    # Written behind the service's back: a watch row for a player is never told anything,
    # while a watcher beside it is (so the rows are read, and the player filtered out).
    await database.watchers.watch(game.game_id, ALICE, every_move=True, now=clock())
    await database.watchers.watch(game.game_id, DAN, every_move=True, now=clock())
    now = await service.game_snapshot(game.game_id)
    assert now.watchers == 2
    assert await spectators.to_notify(now) == (DAN,)
    ended = await service.resign(GAMES, waiting_user(game))
    assert await spectators.to_notify(ended) == (DAN,)


# ---- threads -------------------------------------------------------------------------------


async def test_the_thread_policy_is_the_guild_setting_and_when_busy_by_default(
    spectators: Spectators, database: Database, clock: FakeClock
) -> None:
    assert await spectators.thread_policy(GUILD) is ThreadPolicy.WHEN_BUSY
    assert await spectators.thread_policy(None) is ThreadPolicy.WHEN_BUSY
    await database.settings.set_guild(GUILD, threads=ThreadPolicy.ALWAYS, now=clock())
    assert await spectators.thread_policy(GUILD) is ThreadPolicy.ALWAYS
    assert await spectators.thread_policy(ELSEWHERE) is ThreadPolicy.WHEN_BUSY


async def test_the_end_of_a_thread_game_schedules_one_archive_timer(
    spectators: Spectators,
    service: GameService,
    start_game: StartGame,
    database: Database,
    clock: FakeClock,
) -> None:
    game = await start_in_thread(service)
    assert game.parent_channel_id == GAMES
    assert await spectators.schedule_thread_archive(game, after=timedelta(hours=1)) is None
    ended = await service.resign(THREAD, ALICE)
    first = await spectators.schedule_thread_archive(ended, after=timedelta(hours=1))
    assert first is not None
    assert (first.kind, first.game_id, first.seat) == (THREAD_ARCHIVE_TIMER, game.game_id, None)
    assert first.due_at == clock() + timedelta(hours=1)
    # The final board posted again: still one timer, due an hour after the last post.
    clock.advance(timedelta(minutes=10))
    again = await spectators.schedule_thread_archive(ended, after=timedelta(hours=1))
    assert again is not None
    pending = await database.timers.pending(kinds=[THREAD_ARCHIVE_TIMER])
    assert [(t.id, t.due_at) for t in pending] == [(again.id, clock() + timedelta(hours=1))]
    # A game in a channel has no thread to archive.
    channel_game = await start_game()
    channel_end = await service.resign(GAMES, ALICE)
    assert channel_end.game_id == channel_game.game_id
    assert await spectators.schedule_thread_archive(channel_end, after=timedelta(0)) is None
    with pytest.raises(ValueError, match="before its game ends"):
        await spectators.schedule_thread_archive(ended, after=timedelta(seconds=-1))


async def test_the_archive_timer_archives_the_thread_unless_a_new_game_plays_there(
    spectators: Spectators, service: GameService, database: Database, clock: FakeClock
) -> None:
    await start_in_thread(service)
    ended = await service.resign(THREAD, ALICE)
    timer = await spectators.schedule_thread_archive(ended, after=timedelta(0))
    assert timer is not None
    assert await spectators.thread_to_archive(timer) == THREAD
    # A rematch started in the same thread: that thread stays open.
    await start_in_thread(service, challenger=BOB, opponent=ALICE)
    assert await spectators.thread_to_archive(timer) is None


# ---- /games --------------------------------------------------------------------------------


async def test_games_lists_each_scope_with_whose_turn_most_recent_first(
    spectators: Spectators, service: GameService, start_game: StartGame, clock: FakeClock
) -> None:
    in_channel = await start_game()  # ALICE v BOB in GAMES
    clock.advance(timedelta(minutes=1))
    in_thread = await start_in_thread(service, challenger=CAROL, opponent=DAN)
    clock.advance(timedelta(minutes=1))
    elsewhere = await start_game(channel_id=OTHER, challenger=ERIN, opponent=ALICE)
    clock.advance(timedelta(minutes=1))
    far = await service.create_challenge(
        guild_id=ELSEWHERE, channel_id=FAR, challenger_id=BOB, opponent_ids=[DAN], game="orbs"
    )
    far_game = (await service.accept_challenge(far.challenge_id, DAN)).game
    assert far_game is not None
    clock.advance(timedelta(minutes=1))
    # A move in the oldest game makes it the most recently active one.
    mover = to_move_user(in_channel)
    moved = await service.play(GAMES, mover, (await service.legal_moves(GAMES, mover))[0])

    def ids(listing: object) -> list[int]:
        return [item.snapshot.game_id for item in listing.games]  # type: ignore[attr-defined]

    channel = await spectators.games(
        GamesScope.CHANNEL, user_id=ERIN, guild_id=GUILD, channel_id=GAMES
    )
    assert ids(channel) == [in_channel.game_id, in_thread.game_id]
    assert channel.total == 2
    first = channel.games[0]
    assert first.snapshot.to_move_user_ids == moved.snapshot.to_move_user_ids
    assert first.last_move_at == clock()
    assert (first.your_turn, first.watching, first.time_left) == (False, False, None)
    assert channel.games[1].last_move_at == in_thread.created_at  # no move yet

    inside = await spectators.games(
        GamesScope.CHANNEL, user_id=ERIN, guild_id=GUILD, channel_id=THREAD
    )
    assert ids(inside) == [in_thread.game_id]

    server = await spectators.games(
        GamesScope.SERVER, user_id=ERIN, guild_id=GUILD, channel_id=GAMES
    )
    # ERIN's turn comes first if she has one, then the most recently active.
    erin_to_move = to_move_user(elsewhere) == ERIN
    rest = [in_channel.game_id, elsewhere.game_id, in_thread.game_id]
    if erin_to_move:
        rest.remove(elsewhere.game_id)
        rest.insert(0, elsewhere.game_id)
    assert ids(server) == rest
    assert server.games[0].your_turn is erin_to_move

    await Spectators(service, clock=clock).toggle(in_thread.game_id, ALICE)
    mine = await spectators.games(GamesScope.MINE, user_id=ALICE, guild_id=None, channel_id=1)
    assert sorted(ids(mine)) == sorted([in_channel.game_id, in_thread.game_id, elsewhere.game_id])
    assert {item.snapshot.game_id for item in mine.games if item.watching} == {in_thread.game_id}
    waiting_on_alice = [item.your_turn for item in mine.games]
    assert waiting_on_alice == sorted(waiting_on_alice, reverse=True)  # her turn first
    theirs = await spectators.games(GamesScope.MINE, user_id=DAN, guild_id=GUILD, channel_id=1)
    assert sorted(ids(theirs)) == sorted([in_thread.game_id, far_game.game_id])  # any guild


async def test_games_cuts_the_list_and_refuses_a_server_outside_one(
    spectators: Spectators, service: GameService, start_game: StartGame, clock: FakeClock
) -> None:
    started = []
    for channel in range(1000, 1027):
        started.append(await start_game(channel_id=channel))
        clock.advance(timedelta(seconds=1))
    server = await spectators.games(
        GamesScope.SERVER, user_id=CAROL, guild_id=GUILD, channel_id=GAMES
    )
    assert server.total == 27
    assert [item.snapshot.game_id for item in server.games] == [
        game.game_id for game in reversed(started[2:])
    ]
    with pytest.raises(ServiceError, match="no server here"):
        await spectators.games(GamesScope.SERVER, user_id=CAROL, guild_id=None, channel_id=5)
    empty = await spectators.games(GamesScope.MINE, user_id=CAROL, guild_id=None, channel_id=5)
    assert (empty.games, empty.total) == ((), 0)


async def test_a_listing_shows_the_clock_of_the_seat_to_move(start_game: StartGame) -> None:
    game = await start_game()
    seat = game.to_move[0]
    info = SeatClockInfo(
        seat=seat,
        time_left_ms=90_000_000,
        running=True,
        paused_until=None,
        flagged=False,
        deadline=game.created_at + timedelta(milliseconds=90_000_000),
        mode="soft",
        as_of=game.created_at,
    )
    clocked = replace(game, clock="soft:2d", clocks=(info,))
    listing = listing_of(clocked, to_move_user(game))
    assert (listing.time_left, listing.clock_paused, listing.your_turn) == (
        timedelta(hours=25),
        False,
        True,
    )
    on_vacation = replace(clocked, clocks=(replace(info, paused_until=game.created_at),))
    assert listing_of(on_vacation, CAROL).clock_paused
    assert listing_of(game, CAROL).time_left is None


# ---- texts (bot.presenters, pure functions of the records above) ------------------------------


def test_watchers_are_mentioned_under_a_post_within_discords_limits() -> None:
    text, fitted = presenters.with_watchers("Ann played `a1-a3`.", [CAROL, DAN, CAROL])
    assert text == f"Ann played `a1-a3`.\n👀 Watching: <@{CAROL}> <@{DAN}>"
    assert fitted == (CAROL, DAN)
    # At most 100 pinged users per message, counting those the post pings already.
    many = list(range(1, 200))
    _, fitted = presenters.with_watchers("x", many, pinged=3)
    assert fitted == tuple(range(1, 98))
    # At most 2000 characters: the watchers who do not fit are left for a direct message.
    long = "y" * 1950
    text, fitted = presenters.with_watchers(long, [10**17 + n for n in range(5)])
    assert len(text) <= presenters.MESSAGE_LIMIT
    assert len(fitted) == 1
    assert presenters.with_watchers("y" * 1990, [CAROL]) == ("y" * 1990, ())


async def test_a_watchers_direct_message_has_one_public_line_and_the_link(
    service: GameService, start_game: StartGame
) -> None:
    game = await start_game()
    post = f"<@{ALICE}> (South) played `a1-a3`: an orb moves.\n<@{BOB}>, your move (North)."
    text = presenters.watcher_dm_text(game, post, "https://discord.com/channels/9/500/42")
    assert text == (
        f"**Generatorb** in <#{GAMES}>: <@{ALICE}> (South) played `a1-a3`: an orb moves. "
        "https://discord.com/channels/9/500/42"
    )
    ended = await service.resign(GAMES, ALICE)
    winner = next(p for p in ended.players if p.user_id != ALICE)
    text = presenters.watcher_dm_text(ended, f"<@{ALICE}> resigns.", None)
    assert text == (
        f"**Generatorb** in <#{GAMES}>: <@{winner.user_id}> ({winner.seat_name}) wins by "
        f"resignation! Good game, <@{ALICE}>. Not rated: too few moves had been played."
    )
    assert len(presenters.watcher_dm_text(game, "z" * 5000, None)) == presenters.MESSAGE_LIMIT
    # The move that ended a game: its line, then the result (the deciding turn is told).
    last = f"<@{ALICE}> (South) played `c3-d4`: the orb lands on the core."
    told = presenters.watcher_dm_text(ended, last, None, move=True)
    assert told.startswith(f"**Generatorb** in <#{GAMES}>: {last} <@{winner.user_id}> (")


async def test_the_games_list_reads_one_line_per_game(
    spectators: Spectators, start_game: StartGame, clock: FakeClock
) -> None:
    game = await start_game()
    listing = await spectators.games(
        GamesScope.CHANNEL, user_id=to_move_user(game), guild_id=GUILD, channel_id=GAMES
    )
    names = {ALICE: "ann", BOB: "b*b"}
    shown = {ALICE: "ann", BOB: "b\\*b"}  # markdown escaped
    text = presenters.games_list_text(listing, names)
    players = " vs ".join(shown[u] for u in game.user_ids)  # in seat order
    started = int(game.created_at.timestamp())
    assert text == (
        f"**Games in progress in <#{GAMES}> and its threads** (1)\n"
        f"• **Generatorb** · {players} · your move · <#{GAMES}> · started <t:{started}:R>"
    )
    other = await spectators.games(
        GamesScope.CHANNEL, user_id=waiting_user(game), guild_id=GUILD, channel_id=GAMES
    )
    assert f" · {shown[to_move_user(game)]} to move · " in presenters.games_list_text(other, names)
    empty = await spectators.games(GamesScope.MINE, user_id=CAROL, guild_id=None, channel_id=5)
    assert presenters.games_list_text(empty, {}) == (
        "No games in progress of yours (played or watched)."
    )


def test_an_exhibition_in_the_games_list_says_so_and_names_the_bot_to_move_by_seat() -> None:
    bots = tuple(Player(s, bot_user_id(2, s), f"Seat {s + 1}") for s in range(3))
    shown = replace(presenter_snapshot(), players=bots, to_move=(1,))
    item = GameListing(shown, shown.created_at, None, False, False, False)
    listing = GamesList(GamesScope.SERVER, GAMES, (item,), 1)
    names = {p.user_id: "Gameroom (level 2)" for p in bots}
    line = presenters.games_list_text(listing, names).splitlines()[1]
    assert " · exhibition: Gameroom (level 2) ×3 · Gameroom (level 2) (Seat 2) to move · " in line


# ---- a deleted channel ---------------------------------------------------------------------


async def test_a_deleted_channel_takes_the_games_of_its_threads_and_its_challenges(
    service: GameService, start_game: StartGame
) -> None:
    """Deleting GAMES aborts the game played there, the one in a thread off it, and cancels
    the open challenge posted there; a game elsewhere goes on. Twice is harmless."""
    in_channel = await start_game()
    in_thread = await start_in_thread(service, challenger=CAROL, opponent=DAN, thread=THREAD)
    elsewhere = await start_game(channel_id=OTHER, challenger=ERIN, opponent=ALICE)
    open_one = await service.create_challenge(
        guild_id=GUILD, channel_id=GAMES, challenger_id=BOB, opponent_ids=[ERIN], game="orbs"
    )
    games = await service.abort_in_deleted_channel(GUILD, GAMES)
    challenges = await service.cancel_in_deleted_channel(GAMES)
    assert sorted(g.game_id for g in games) == sorted([in_channel.game_id, in_thread.game_id])
    assert all(g.status == "aborted" and g.outcome is None for g in games)
    assert [c.challenge_id for c in challenges] == [open_one.challenge_id]
    assert (await service.game_snapshot(elsewhere.game_id)).is_active
    assert not (await service.game_snapshot(in_thread.game_id)).is_active
    assert await service.abort_in_deleted_channel(GUILD, GAMES) == []
    assert await service.cancel_in_deleted_channel(GAMES) == []
    assert await service.abort_in_deleted_channel(ELSEWHERE, OTHER) == []  # another guild
    # A thread deleted alone takes only its own game.
    again = await start_in_thread(service, challenger=CAROL, opponent=DAN, thread=THREAD + 1)
    games = await service.abort_in_deleted_channel(GUILD, THREAD + 1)
    assert [g.game_id for g in games] == [again.game_id]
