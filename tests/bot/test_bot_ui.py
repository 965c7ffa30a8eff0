"""Custom ids, persistent buttons and the bot's wiring, without a Discord connection."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime

import discord
import pytest

from bot.client import EXTENSIONS, GameroomBot, intents, point_at_discord
from bot.service import ChallengeInfo, ChallengePlayer
from bot.service.bot_seats import bot_user_id
from bot.settings import Settings
from bot.ui.bot_menu import BotLevelMenu, BotRemovalMenu
from bot.ui.buttons import ChallengeButton, GameButton, challenge_view, draw_offer_view
from bot.ui.custom_ids import (
    BOT_REMOVAL_TEMPLATE,
    CHALLENGE_TEMPLATE,
    GAME_TEMPLATE,
    BotMenuId,
    BotRemovalMenuId,
    ChallengeAction,
    ChallengeButtonId,
    GameAction,
    GameButtonId,
)
from engines import ENGINES

T = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)
ALICE, BOB, CAROL = 1, 2, 3
CHALLENGER = ChallengePlayer(ALICE, "challenger", "seated")


@pytest.mark.parametrize("action", list(GameAction))
def test_game_button_ids_round_trip(action: GameAction) -> None:
    button_id = GameButtonId(game_id=123456, action=action, version=78)
    text = str(button_id)
    assert text == f"gr:123456:{action.value}:78"
    assert re.fullmatch(GAME_TEMPLATE, text)
    assert GameButtonId.parse(text) == button_id
    assert ChallengeButtonId.parse(text) is None


@pytest.mark.parametrize("action", list(ChallengeAction))
def test_challenge_button_ids_round_trip(action: ChallengeAction) -> None:
    button_id = ChallengeButtonId(challenge_id=42, action=action)
    text = str(button_id)
    assert text == f"gr:c42:{action.value}"
    assert re.fullmatch(CHALLENGE_TEMPLATE, text)
    assert ChallengeButtonId.parse(text) == button_id
    assert GameButtonId.parse(text) is None


@pytest.mark.parametrize(
    "text",
    ["gr:1:resign:2", "gr:x:draw_accept:1", "gr:c:accept", "gr:c1:accept:9", "xgr:c1:cancel"],
)
def test_foreign_custom_ids_are_not_ours(text: str) -> None:
    assert GameButtonId.parse(text) is None
    assert ChallengeButtonId.parse(text) is None


def lobby(**changes: object) -> ChallengeInfo:
    """A lobby of Generator for three: ALICE seated, BOB invited, one seat open."""
    base = ChallengeInfo(
        challenge_id=7,
        guild_id=1,
        channel_id=2,
        message_id=None,
        challenger_id=ALICE,
        game="generator",
        game_name="Generator",
        players=3,
        min_players=2,
        lobby=(CHALLENGER, ChallengePlayer(BOB, "invited", "invited")),
        options={},
        options_text="",
        status="open",
        game_id=None,
        created_at=T,
        expires_at=T,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def labels(view: discord.ui.View) -> list[str]:
    return [item.item.label or "" for item in view.children if isinstance(item, ChallengeButton)]


@pytest.mark.parametrize(
    ("players", "entries", "expected"),
    [
        # Two seats, a named opponent: as before the lobby existed.
        (2, [(BOB, "invited", "invited")], ["Accept", "Decline", "Cancel"]),
        # Two seats, open to anyone.
        (2, [], ["Join", "Cancel"]),
        # Three seats: an invitation pending and a seat open; nobody to leave, too few to start.
        (3, [(BOB, "invited", "invited")], ["Accept", "Decline", "Join", "Cancel"]),
        # BOB accepted: he may leave, and the challenger may start with two.
        (3, [(BOB, "invited", "seated")], ["Join", "Leave", "Start", "Cancel"]),
        # Every seat held, one still to answer.
        (
            3,
            [(BOB, "invited", "invited"), (CAROL, "joined", "seated")],
            ["Accept", "Decline", "Leave", "Start", "Cancel"],
        ),
        # Four seats: six buttons do not fit one row; discord.py wraps them.
        (
            4,
            [(BOB, "invited", "invited"), (CAROL, "joined", "seated")],
            ["Accept", "Decline", "Join", "Leave", "Start", "Cancel"],
        ),
    ],
)
def test_a_lobby_shows_the_buttons_that_fit_it(
    players: int, entries: list[tuple[int, str, str]], expected: list[str]
) -> None:
    players_in = (CHALLENGER, *(ChallengePlayer(*entry) for entry in entries))
    view = challenge_view(lobby(players=players, lobby=players_in))
    assert labels(view) == expected
    assert all(item.custom_id.startswith("gr:c7:") for item in view.children)  # type: ignore[attr-defined]


def test_a_game_that_needs_every_seat_never_shows_start() -> None:
    full_only = lobby(min_players=3, lobby=(CHALLENGER, ChallengePlayer(BOB, "joined", "seated")))
    assert labels(challenge_view(full_only)) == ["Join", "Leave", "Cancel"]


async def test_dynamic_items_rebuild_themselves_from_custom_ids() -> None:
    every_button = lobby(
        players=4,
        lobby=(
            CHALLENGER,
            ChallengePlayer(BOB, "invited", "invited"),
            ChallengePlayer(CAROL, "joined", "seated"),
        ),
    )
    view = challenge_view(every_button)
    buttons = [item for item in view.children if isinstance(item, ChallengeButton)]
    assert {item.button_id.action for item in buttons} == set(ChallengeAction)
    for item in [*buttons, *draw_offer_view(5, 9).children]:
        assert isinstance(item, ChallengeButton | GameButton)
        match = item.template.fullmatch(item.custom_id)
        assert match is not None
        rebuilt = await type(item).from_custom_id(None, item.item, match)  # type: ignore[arg-type]
        assert rebuilt.button_id == item.button_id
        assert rebuilt.custom_id == item.custom_id
    # The open seat also carries the challenger's "Add a bot…" menu, rebuilt the same way.
    [menu] = [item for item in view.children if isinstance(item, BotLevelMenu)]
    match = menu.template.fullmatch(menu.custom_id)
    assert match is not None
    again = await BotLevelMenu.from_custom_id(None, menu.item, match)  # type: ignore[arg-type]
    assert again.menu_id == menu.menu_id == BotMenuId(every_button.challenge_id)
    assert [o.value for o in again.item.options] == ["1", "2", "3", "4", "5"]


async def test_the_remove_a_bot_menu_lists_the_seated_bots_by_their_lobby_line() -> None:
    def bot(level: int, k: int, status: str = "seated") -> ChallengePlayer:
        return ChallengePlayer(bot_user_id(level, k), "bot", status)

    assert not [i for i in challenge_view(lobby()).children if isinstance(i, BotRemovalMenu)]
    # Every seat held (BOB has not answered): no "Add a bot…", but the bots can be removed.
    # A bot removed before (status "left") is not listed, nor numbered.
    full = lobby(
        players=4,
        lobby=(
            CHALLENGER,
            bot(3, 0, "left"),
            bot(3, 1),
            ChallengePlayer(BOB, "invited", "invited"),
            bot(1, 0),
        ),
    )
    view = challenge_view(full)
    assert not [i for i in view.children if isinstance(i, BotLevelMenu)]
    [menu] = [i for i in view.children if isinstance(i, BotRemovalMenu)]
    assert [(o.label, o.value) for o in menu.item.options] == [
        ("2. Gameroom (level 3)", "-301"),
        ("4. Gameroom (level 1)", "-100"),
    ]
    assert menu.custom_id == str(BotRemovalMenuId(7)) == "gr:c7:unbot"
    match = menu.template.fullmatch(menu.custom_id)
    assert match is not None
    again = await BotRemovalMenu.from_custom_id(None, menu.item, match)  # type: ignore[arg-type]
    assert again.menu_id == menu.menu_id
    assert re.fullmatch(BOT_REMOVAL_TEMPLATE, "gr:c7:unbot")
    assert BotMenuId.parse("gr:c7:unbot") is None
    assert ChallengeButtonId.parse("gr:c7:unbot") is None


def test_only_the_guilds_intent() -> None:
    wanted = intents()
    assert not wanted.members
    assert not wanted.presences
    assert not wanted.message_content
    assert not wanted.messages  # no MESSAGE_CREATE for every message, the bot's own included
    assert not wanted.typing
    assert not wanted.reactions
    assert wanted.guilds
    assert wanted == discord.Intents(guilds=True)


@pytest.fixture
def restore_endpoints() -> Iterator[None]:
    base = discord.http.Route.BASE
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    yield
    discord.http.Route.BASE = base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway


@pytest.mark.usefixtures("restore_endpoints")
def test_point_at_discord_moves_rest_webhooks_and_gateway() -> None:
    point_at_discord(
        Settings(
            discord_token="t",
            discord_api_base="http://127.0.0.1:9/api/v10",
            discord_gateway="ws://127.0.0.1:9/gateway",
        )
    )
    route = discord.http.Route(
        "POST", "/webhooks/{webhook_id}/{webhook_token}", webhook_id=1, webhook_token="tok"
    )
    assert route.url == "http://127.0.0.1:9/api/v10/webhooks/1/tok"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:9/gateway"


async def test_every_extension_loads_and_registers_its_commands() -> None:
    # As a context manager the (sharded) client sets itself up without logging in, and closes.
    async with GameroomBot(Settings(discord_token="t")) as bot:
        try:
            for extension in EXTENSIONS:
                await bot.load_extension(extension)
            names = sorted(c.name for c in bot.tree.get_commands())
            assert names == [
                "board",
                "challenge",
                "claim",
                "draw",
                "forget-me",
                "game",
                "games",
                "hand",
                "hint",
                "leaderboard",
                "move",
                "rating",
                "resign",
                "settings",
                "takeback",
                "unwatch",
                "vacation",
                "watch",
            ]
            game = bot.tree.get_command("game")
            assert isinstance(game, discord.app_commands.Group)
            # Every description Discord shows is written for players: plain words, no
            # docstring markup, within Discord's 100 characters.
            for command in bot.tree.walk_commands():
                text = command.description
                assert text, command.qualified_name
                assert "``" not in text, (command.qualified_name, text)
                assert len(text) <= 100, (command.qualified_name, text)
            assert sorted(c.name for c in game.commands) == [
                "abort",
                "export",
                "info",
                "moves",
                "replay",
                "rules",
            ]
            challenge = bot.tree.get_command("challenge")
            assert isinstance(challenge, discord.app_commands.Command)
            game_param = challenge.get_parameter("game")
            assert game_param is not None
            assert [c.value for c in game_param.choices] == list(ENGINES)
            players_param = challenge.get_parameter("players")
            assert players_param is not None
            assert (players_param.min_value, players_param.max_value) == (
                2,
                max(e.info.max_players for e in ENGINES.values()),
            )
            assert [p.name for p in challenge.parameters] == [
                "game",
                "opponent",
                "opponent2",
                "opponent3",
                "players",
                "options",
                "preset",
                "clock",
                "bot_level",
                "position",
                "rated",
                "exhibition",
            ]
        finally:
            for extension in EXTENSIONS:
                await bot.unload_extension(extension)
