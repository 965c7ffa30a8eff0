"""Self-test of tests/fakediscord: a tiny discord.py bot, run in this process, against the fake.

Each flow the real bot relies on is exercised through discord.py itself: login, gateway
(IDENTIFY, RESUME, zlib-stream and plain text frames), command sync, slash commands with a
group, a user option and autocomplete, ephemeral and deferred answers, file follow-ups,
persistent DynamicItem buttons across a bot restart, message updates, threads, permissions.
"""

from __future__ import annotations

import asyncio
import io
import os
import re
import sys
import textwrap
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.gateway import DiscordWebSocket
from discord.http import Route
from PIL import Image

from tests.e2e.botproc import eventually
from tests.fakediscord import (
    ActionRefused,
    CallbackType,
    Channel,
    FakeDiscord,
    Guild,
    InteractionFailed,
    User,
)
from tests.fakediscord.fixtures import bot_environment, discord_py_pointed_at, running_client

pytestmark = pytest.mark.e2e

REAL_API_BASE = Route.BASE
REAL_GATEWAY = DiscordWebSocket.DEFAULT_GATEWAY


def board_png(width: int = 48, height: int = 32) -> bytes:
    """A small PNG, standing in for a rendered board."""
    buffer = io.BytesIO()
    Image.new("P", (width, height)).save(buffer, format="PNG")
    return buffer.getvalue()


class Seat(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"st:(?P<game>\d+):(?P<seat>\w+)"
):
    """A persistent "take seat" button whose state lives in its custom id."""

    def __init__(self, game: int, seat: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Sit {seat}",
                custom_id=f"st:{game}:{seat}",
                style=discord.ButtonStyle.primary,
            )
        )
        self.game = game
        self.seat = seat

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Seat:
        return cls(int(match["game"]), match["seat"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        assert isinstance(bot, SelfTestBot)
        who = interaction.user.mention
        await interaction.response.send_message(
            f"{who} sits {self.seat} in game {self.game} (bot #{bot.generation})",
            allowed_mentions=discord.AllowedMentions(users=[interaction.user]),
        )


class Refresh(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"rf:(?P<mode>update|defer)"
):
    """Updates its own message: in the callback (type 7) or after a silent defer (type 6)."""

    def __init__(self, mode: str) -> None:
        super().__init__(discord.ui.Button(label=f"Refresh ({mode})", custom_id=f"rf:{mode}"))
        self.mode = mode

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Refresh:
        return cls(match["mode"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.mode == "update":
            await interaction.response.edit_message(content="refreshed in place", view=None)
        else:
            await interaction.response.defer()
            await interaction.edit_original_response(content="refreshed after defer")


class VariantSelect(discord.ui.Select[discord.ui.View]):
    """A (non-persistent) string select menu."""

    def __init__(self) -> None:
        options = [discord.SelectOption(label=v, value=v) for v in ("classic", "blitz")]
        super().__init__(custom_id="variant", options=options)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"variant {self.values[0]}", ephemeral=True)


class SelfTestBot(discord.Client):
    """A miniature of the real bot: guild commands, a group, buttons, files, threads."""

    def __init__(self, guild_id: int, *, generation: int = 1) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.1)
        self.tree = app_commands.CommandTree(self)
        self.generation = generation
        self.guild_object = discord.Object(guild_id)
        self.seen_permissions: list[discord.Permissions] = []
        self.seen_messages: list[tuple[str, str]] = []
        self._define_commands()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # discord.py waits 5 s before re-IDENTIFYing (Discord's rate limit); the fake has none.
        return None

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Seat, Refresh)
        await self.tree.sync()
        await self.tree.sync(guild=self.guild_object)

    async def on_message(self, message: discord.Message) -> None:
        self.seen_messages.append((message.author.name, message.content))

    def _define_commands(self) -> None:
        tree, guild = self.tree, self.guild_object

        @tree.command(description="Is the bot alive?")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong", ephemeral=True)

        async def suggest_moves(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            moves = ["a1-a3", "a1-b2", "b2-c3", "h8-h6"]
            return [app_commands.Choice(name=m, value=m) for m in moves if m.startswith(current)]

        @tree.command(description="Make a move", guild=guild)
        @app_commands.describe(text="The move, e.g. a1-a3")
        @app_commands.autocomplete(text=suggest_moves)
        async def move(interaction: discord.Interaction, text: str) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(Seat(7, "north"))
            view.add_item(Refresh("update"))
            view.add_item(Refresh("defer"))
            await interaction.response.send_message(f"moved {text}", view=view)

        game = app_commands.Group(
            name="game", description="About the game here", guild_ids=[guild.id]
        )

        @game.command(name="info", description="Show the game")
        async def info(
            interaction: discord.Interaction, opponent: discord.Member, rated: bool = False
        ) -> None:
            assert isinstance(opponent, discord.Member), "user options must resolve to members"
            assert interaction.guild is not None
            assert interaction.channel is not None
            fetched = await interaction.guild.fetch_member(opponent.id)
            assert (await interaction.client.fetch_user(opponent.id)).name == fetched.name
            assert (await interaction.client.fetch_channel(interaction.channel.id)).id == (
                interaction.channel.id
            )
            await interaction.response.send_message(
                f"{interaction.user.mention} vs {opponent.mention} ({opponent.display_name}), "
                f"rated={rated} @everyone",
                allowed_mentions=discord.AllowedMentions(everyone=False, users=[opponent]),
            )

        admin = app_commands.Group(name="seat", description="Seat changes", parent=game)

        @admin.command(name="swap", description="Swap two players' seats")
        async def swap(
            interaction: discord.Interaction, first: discord.User, second: discord.User
        ) -> None:
            await interaction.response.send_message(f"swapped {first.name} and {second.name}")

        tree.add_command(game)

        @tree.command(description="Show the board", guild=guild)
        async def board(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await asyncio.sleep(0.05)  # rendering
            await interaction.followup.send(
                "the board", file=discord.File(io.BytesIO(board_png()), filename="board.png")
            )
            await interaction.followup.send("only you can see this hint", ephemeral=True)

        @tree.command(description="Show your private hand", guild=guild)
        async def hand(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            # Discord: the first follow-up replaces the "thinking" message and keeps it ephemeral.
            await interaction.followup.send(
                "your hand", file=discord.File(io.BytesIO(board_png()), "hand.png")
            )
            original = await interaction.original_response()
            await interaction.edit_original_response(content=f"{original.content} (3 cards)")

        @tree.command(description="Fails after deferring", guild=guild)
        @app_commands.describe(tidy="Delete the public 'thinking' message before answering")
        async def oops(interaction: discord.Interaction, tidy: bool) -> None:
            await interaction.response.defer()
            if tidy:
                await interaction.delete_original_response()
            await interaction.followup.send("that move is illegal", ephemeral=True)

        @tree.command(description="Open a thread for a game", guild=guild)
        async def table(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("opening a table", ephemeral=True)
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            starter = await channel.send("Game #7: alice vs bob")
            thread = await starter.create_thread(name="game-7")
            await starter.edit(content=f"{starter.content} (table open)")
            await thread.send(
                "first move, please", file=discord.File(io.BytesIO(board_png()), "b.png")
            )

        @tree.command(description="Tidy the channel (moderators)", guild=guild)
        @app_commands.default_permissions(manage_messages=True)
        async def tidy(interaction: discord.Interaction) -> None:
            self.seen_permissions.append(interaction.permissions)
            await interaction.response.send_message("tidied", ephemeral=True)

        @tree.command(description="Pick a variant", guild=guild)
        async def variant(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(VariantSelect())
            await interaction.response.send_message("choose a variant", view=view)

        @tree.command(description="Takes too long to answer", guild=guild)
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(1.0)
            await interaction.response.send_message("too late")


"""The fake, its guild, the #games channel, alice and bob (both members)."""


World = tuple[FakeDiscord, Guild, Channel, User, User]
"""The fake, its guild, the #games channel, alice and bob (both members)."""


@pytest.fixture
def world(fake_discord: FakeDiscord) -> World:
    fake = fake_discord
    guild = fake.add_guild("Test Guild")
    games = fake.add_text_channel(guild, "games")
    alice = fake.add_user("alice")
    bob = fake.add_user("bob", global_name="Bob B.")
    fake.add_member(guild, alice)
    fake.add_member(guild, bob)
    return fake, guild, games, alice, bob


@pytest.fixture
async def bot(world: World) -> AsyncIterator[SelfTestBot]:
    fake, guild, *_ = world
    client = SelfTestBot(guild.id)
    async with running_client(client, fake):
        await fake.wait_commands(guild, names=["move", "game", "board", "table", "tidy"])
        await fake.wait_commands(names=["ping"])
        yield client
    assert Route.BASE == REAL_API_BASE
    assert DiscordWebSocket.DEFAULT_GATEWAY == REAL_GATEWAY


async def test_commands_are_synced_with_ids_and_types(world: World, bot: SelfTestBot) -> None:
    fake, guild, *_ = world
    guild_commands = {c.name: c for c in fake.command_list(guild)}
    assert set(guild_commands) == {
        "move",
        "game",
        "board",
        "hand",
        "table",
        "tidy",
        "variant",
        "oops",
        "slow",
    }
    assert {c.name for c in fake.command_list()} == {"ping"}
    assert guild_commands["game"].paths == [("game", "info"), ("game", "seat", "swap")]
    info = guild_commands["game"].options[0]
    assert [(o["name"], o["type"]) for o in info["options"]] == [("opponent", 6), ("rated", 5)]
    assert (
        guild_commands["tidy"].default_member_permissions
        == discord.Permissions(manage_messages=True).value
    )


async def test_ephemeral_answer_is_seen_only_by_the_user(world: World, bot: SelfTestBot) -> None:
    fake, _, games, alice, _ = world
    result = await fake.slash(alice, games, "ping")
    assert result.response_type is CallbackType.CHANNEL_MESSAGE
    assert result.ephemeral
    assert result.content == "pong"
    assert fake.messages(games) == []
    assert [m.content for m in fake.messages(games, visible_to=alice)] == ["pong"]


async def test_autocomplete_returns_the_bots_suggestions(world: World, bot: SelfTestBot) -> None:
    fake, _, games, alice, _ = world
    choices = await fake.autocomplete(alice, games, "move", focused="text", text="a1")
    assert [c.value for c in choices] == ["a1-a3", "a1-b2"]


async def test_subcommand_with_user_option_and_limited_mentions(
    world: World, bot: SelfTestBot
) -> None:
    fake, _, games, alice, bob = world
    result = await fake.slash(alice, games, "game info", opponent=bob, rated=True)
    assert not result.ephemeral
    assert result.content == f"{alice.mention} vs {bob.mention} (Bob B.), rated=True @everyone"
    assert result.message is not None
    assert result.message.mentions == (bob,)  # alice is mentioned but not pinged
    assert not result.message.mention_everyone
    assert fake.messages(games) == [result.message]


async def test_subcommand_group(world: World, bot: SelfTestBot) -> None:
    fake, _, games, alice, bob = world
    result = await fake.slash(alice, games, ("game", "seat", "swap"), first=alice, second=bob)
    assert result.content == "swapped alice and bob"
    with pytest.raises(ActionRefused, match="no subcommand 'kick'"):
        await fake.slash(alice, games, "game seat kick")


async def test_deferred_command_answers_with_a_file_follow_up(
    world: World, bot: SelfTestBot
) -> None:
    fake, _, games, alice, _ = world
    result = await fake.slash(alice, games, "board")
    assert result.deferred
    assert not result.ephemeral
    assert result.content == "the board"
    assert result.files == [("board.png", board_png())]
    assert result.message is not None
    attachment = result.message.attachments[0]
    assert (attachment.width, attachment.height) == (48, 32)
    hints = await result.wait_followups(1)
    assert hints[0].ephemeral
    assert hints[0].content == "only you can see this hint"
    assert [m.content for m in fake.messages(games)] == ["the board"]
    async with aiohttp.ClientSession() as session, session.get(attachment.url) as response:
        assert await response.read() == board_png()


async def test_ephemeral_defer_keeps_the_answer_private(world: World, bot: SelfTestBot) -> None:
    fake, _, games, alice, bob = world
    result = await fake.slash(alice, games, "hand")
    assert result.deferred
    assert result.ephemeral
    assert result.files == [("hand.png", board_png())]
    assert result.followups == []  # the answer replaced the "thinking" message
    shown = await fake.wait_for_message(
        games, lambda m: m.content.endswith("(3 cards)"), visible_to=alice
    )
    assert result.message is not None
    assert shown.id == result.message.id
    assert fake.messages(games) == []
    assert fake.messages(games, visible_to=bob) == []
    with pytest.raises(ActionRefused, match="cannot see"):
        await fake.press(bob, shown, "anything")


async def test_first_follow_up_after_a_public_defer_is_public(
    world: World, bot: SelfTestBot
) -> None:
    fake, _, games, alice, _ = world
    # Discord keeps the defer's visibility for the follow-up that resolves "thinking"...
    leaked = await fake.slash(alice, games, "oops", tidy=False)
    assert not leaked.ephemeral
    assert [m.content for m in fake.messages(games)] == ["that move is illegal"]
    # ...so a private error after a public defer must delete the placeholder first.
    private = await fake.slash(alice, games, "oops", tidy=True)
    assert private.ephemeral
    assert private.followups == [private.message]
    assert len(fake.messages(games)) == 1


async def test_message_with_a_thread_created_from_it(world: World, bot: SelfTestBot) -> None:
    fake, _, games, alice, _ = world
    edits: list[tuple[str, str]] = []
    fake.on_edit(lambda before, after: edits.append((before.content, after.content)))
    result = await fake.slash(alice, games, "table")
    assert result.ephemeral
    starter = await fake.wait_for_message(games, lambda m: m.content.startswith("Game #7"))
    thread = await fake.wait_for_thread(games, "game-7")
    first = await fake.wait_for_message(thread, lambda m: m.content == "first move, please")
    assert thread.id == starter.id
    assert thread.name == "game-7"
    starter_now = fake.message(starter)
    assert starter_now.thread_id == thread.id
    assert starter_now.edited
    assert starter_now.content == "Game #7: alice vs bob (table open)"
    assert ("Game #7: alice vs bob", "Game #7: alice vs bob (table open)") in edits  # on_edit
    assert first.channel_id == thread.id
    in_thread = await fake.slash(alice, thread, "ping")
    assert in_thread.content == "pong"
    assert in_thread.message is not None
    assert in_thread.message.channel_id == thread.id
    assert first.files[0][0] == "b.png"


async def test_buttons_survive_a_bot_restart(world: World, bot: SelfTestBot) -> None:
    fake, guild, games, alice, bob = world
    posted = await fake.slash(alice, games, "move", text="a1-a3")
    assert posted.content == "moved a1-a3"
    assert posted.custom_ids == ["st:7:north", "rf:update", "rf:defer"]
    assert posted.message is not None

    pressed = await fake.press(bob, posted.message, "st:7:north")
    assert pressed.content == f"{bob.mention} sits north in game 7 (bot #1)"
    assert pressed.message is not None
    assert pressed.message.mentions == (bob,)

    await bot.close()
    await fake.wait_disconnected()
    with pytest.raises(Exception, match="no bot is connected"):
        await fake.press(bob, posted.message, label="Sit north")

    async with running_client(SelfTestBot(guild.id, generation=2), fake):
        await fake.wait_ready(identifies=2)
        again = await fake.press(bob, posted.message, label="Sit north")
        assert again.content.endswith("(bot #2)")
    assert fake.gateway.identify_count == 2


async def test_update_message_and_deferred_update(world: World, bot: SelfTestBot) -> None:
    fake, _, games, alice, _ = world
    posted = await fake.slash(alice, games, "move", text="b2-c3")
    assert posted.message is not None

    deferred = await fake.press(alice, posted.message, "rf:defer")
    assert deferred.response_type is CallbackType.DEFERRED_UPDATE_MESSAGE
    assert deferred.updated
    assert deferred.content == "refreshed after defer"

    updated = await fake.press(alice, posted.message, "rf:update")
    assert updated.response_type is CallbackType.UPDATE_MESSAGE
    assert updated.updated
    assert updated.content == "refreshed in place"
    assert updated.message is not None
    assert updated.message.id == posted.message.id
    assert fake.message(posted.message).components == ()
    with pytest.raises(ActionRefused, match="no component"):
        await fake.press(alice, posted.message, "rf:update")


async def test_member_permissions_gate_commands(world: World, bot: SelfTestBot) -> None:
    fake, guild, games, alice, _ = world
    with pytest.raises(ActionRefused, match="default_member_permissions"):
        await fake.slash(alice, games, "tidy")
    fake.set_permissions(guild, alice, discord.Permissions(manage_messages=True))
    result = await fake.slash(alice, games, "tidy")
    assert result.content == "tidied"
    assert bot.seen_permissions[-1].manage_messages


async def test_refusals_and_failures_are_explicit(world: World, bot: SelfTestBot) -> None:
    fake, _guild, games, alice, _bob = world
    with pytest.raises(ActionRefused, match="not a registered command"):
        await fake.slash(alice, games, "resign")
    with pytest.raises(ActionRefused, match="required option 'text' is missing"):
        await fake.slash(alice, games, "move")
    with pytest.raises(ActionRefused, match="needs a str"):
        await fake.slash(alice, games, "move", text=3)
    with pytest.raises(ActionRefused, match="not invocable by itself"):
        await fake.slash(alice, games, "game")
    stranger = fake.add_user("stranger")
    with pytest.raises(ActionRefused, match="not a member"):
        await fake.slash(stranger, games, "ping")

    fake.ack_timeout = 0.3
    with pytest.raises(InteractionFailed, match="did not respond"):
        await fake.slash(alice, games, "slow")
    # The bot's late callback is refused as Discord would (404 Unknown interaction).
    await fake.wait_until(
        lambda: any("callback -> 404 Unknown interaction" in r for r in fake.rejections),
        what="the late callback to be refused",
    )


async def test_gateway_resume_replays_missed_events(world: World, bot: SelfTestBot) -> None:
    fake, _, games, alice, _ = world
    await fake.drop_connection()
    await fake.wait_until(lambda: fake.resume_count == 1 and fake.bot_connected, what="RESUME")
    result = await fake.slash(alice, games, "ping")
    assert result.content == "pong"
    assert fake.identify_count == 1

    await fake.drop_connection(resumable=False)
    await fake.wait_ready(identifies=2)
    assert (await fake.slash(alice, games, "ping")).content == "pong"


@pytest.mark.parametrize("zlib_stream", [True, False], ids=["zlib-stream", "text-frames"])
async def test_both_frame_encodings(fake_discord: FakeDiscord, zlib_stream: bool) -> None:
    fake = fake_discord
    guild = fake.add_guild("G")
    channel = fake.add_text_channel(guild, "c")
    alice = fake.add_user("alice")
    fake.add_member(guild, alice)
    client = SelfTestBot(guild.id)
    if not zlib_stream:
        # Ask for no compression: discord.py then gets plain JSON text frames.
        original = DiscordWebSocket.from_client.__func__  # type: ignore[attr-defined]

        async def uncompressed(cls: type[DiscordWebSocket], *args: Any, **kwargs: Any) -> Any:
            return await original(cls, *args, **{**kwargs, "compress": False})

        DiscordWebSocket.from_client = classmethod(uncompressed)  # type: ignore[method-assign,assignment]
    try:
        async with running_client(client, fake):
            await fake.wait_commands(names=["ping"])
            assert (await fake.slash(alice, channel, "ping")).content == "pong"
    finally:
        if not zlib_stream:
            DiscordWebSocket.from_client = classmethod(original)  # type: ignore[method-assign,assignment]


async def test_privileged_intents_must_be_enabled(fake_discord: FakeDiscord) -> None:
    client = discord.Client(intents=discord.Intents.all())
    with pytest.raises(discord.PrivilegedIntentsRequired):
        async with running_client(client, fake_discord):
            pass
    assert fake_discord.identify_count == 0


async def test_wrong_token_and_unknown_routes(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    with discord_py_pointed_at(fake):
        client = discord.Client(intents=discord.Intents.default())
        with pytest.raises(discord.LoginFailure):
            await client.login("not-the-token")
        await client.close()
    headers = {"Authorization": f"Bot {fake.bot_token}"}
    url = f"{fake.api_base}/guilds/1/bans"
    async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as response:
        assert response.status == 404
        assert await response.json() == {"message": "404: Not Found", "code": 0}
    assert fake.unknown_routes == ["GET /api/v10/guilds/1/bans"]
    fake.unknown_routes.clear()  # seen; keep the fixture's teardown check for real gaps


async def test_auto_sharded_client_finds_the_gateway_through_rest(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    guild = fake.add_guild("Sharded")
    client = discord.AutoShardedClient(intents=discord.Intents.default(), guild_ready_timeout=0.1)
    async with running_client(client, fake):
        (session,) = fake.gateway.live_sessions
        assert session.shard == (0, 1)
        await asyncio.wait_for(client.wait_until_ready(), 5)
        assert client.get_guild(guild.id) is not None
    assert "GET /api/v10/gateway/bot -> 200" in fake.requests


async def test_string_select(world: World, bot: SelfTestBot) -> None:
    fake, _, games, alice, _ = world
    menu = await fake.slash(alice, games, "variant")
    assert menu.custom_ids == ["variant"]
    assert menu.message is not None
    picked = await fake.select(alice, menu.message, "variant", ["blitz"])
    assert picked.ephemeral
    assert picked.content == "variant blitz"
    with pytest.raises(ActionRefused, match="offers"):
        await fake.select(alice, menu.message, "variant", ["chess960"])


async def test_world_events_reach_the_bot(world: World, bot: SelfTestBot) -> None:
    fake, guild, games, alice, _ = world
    await fake.post(alice, games, "hello")
    await fake.post(alice, games, f"{fake.bot_user.mention} hello bot")
    lobby = fake.add_text_channel(guild, "lobby")
    thread = fake.create_thread(alice, games, "side chat")

    def guild_thread() -> discord.Thread | None:
        cached = bot.get_guild(guild.id)
        return cached.get_thread(thread.id) if cached is not None else None

    await eventually(lambda: len(bot.seen_messages) == 2)
    await eventually(lambda: bot.get_channel(lobby.id) is not None and guild_thread() is not None)
    # Without the MESSAGE_CONTENT intent the bot sees content only when it is mentioned.
    assert bot.seen_messages == [("alice", ""), ("alice", f"{fake.bot_user.mention} hello bot")]

    fake.archive_thread(thread)
    fake.delete_channel(lobby)

    await eventually(lambda: bot.get_channel(lobby.id) is None)
    await eventually(lambda: guild_thread() is None)  # discord.py uncaches archived threads


BOT_PROCESS = textwrap.dedent(
    """
    import os, discord, yarl
    from discord import app_commands

    discord.http.Route.BASE = os.environ["GAMEROOM_DISCORD_API_BASE"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
        os.environ["GAMEROOM_DISCORD_GATEWAY"]
    )

    class Bot(discord.Client):
        def __init__(self):
            super().__init__(intents=discord.Intents.default())
            self.tree = app_commands.CommandTree(self)

            @self.tree.command(description="Which process answers?")
            async def pid(interaction: discord.Interaction) -> None:
                await interaction.response.send_message(str(os.getpid()))

        async def setup_hook(self):
            await self.tree.sync()

    Bot().run(os.environ["DISCORD_TOKEN"], log_handler=None)
    """
)


async def test_a_killed_bot_process_is_replaced_by_a_new_one(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    guild = fake.add_guild("G")
    channel = fake.add_text_channel(guild, "c")
    alice = fake.add_user("alice")
    fake.add_member(guild, alice)
    env = {**os.environ, **bot_environment(fake)}

    answers = []
    for generation in (1, 2):
        process = await asyncio.create_subprocess_exec(sys.executable, "-c", BOT_PROCESS, env=env)
        try:
            await fake.wait_ready(timeout=20, identifies=generation)
            await fake.wait_commands(names=["pid"])
            answers.append((await fake.slash(alice, channel, "pid")).content)
            assert answers[-1] == str(process.pid)
        finally:
            process.kill()  # no clean close: the gateway sees the connection drop
            await process.wait()
        await fake.wait_disconnected()
    assert answers[0] != answers[1]
