"""A fake Discord (REST API v10 + gateway) on 127.0.0.1 for end-to-end tests of the bot.

Typical use (see README.md beside this file for the whole API)::

    async with FakeDiscord() as fake:
        guild = fake.add_guild("Test Guild")
        games = fake.add_text_channel(guild, "games")
        alice = fake.add_user("alice")
        fake.add_member(guild, alice)
        # start the bot with GAMEROOM_DISCORD_API_BASE=fake.api_base,
        # GAMEROOM_DISCORD_GATEWAY=fake.gateway_url and DISCORD_TOKEN=fake.bot_token
        await fake.wait_ready()
        await fake.wait_commands(names=["move"])
        result = await fake.slash(alice, games, "move", text="a1-a3")
        assert not result.ephemeral and result.files
"""

from __future__ import annotations

from .commands import Command, OptionType
from .errors import (
    ActionRefused,
    BotNotConnected,
    DiscordHTTPError,
    FakeDiscordError,
    InteractionFailed,
)
from .gateway import Intents
from .interactions import CallbackType, Choice, InteractionResult
from .messages import Attachment, Message, MessageFlags
from .models import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    Channel,
    ChannelType,
    Guild,
    Member,
    Role,
    User,
)
from .server import FakeDiscord

__all__ = [
    "DEFAULT_BOT_PERMISSIONS",
    "DEFAULT_EVERYONE_PERMISSIONS",
    "ActionRefused",
    "Attachment",
    "BotNotConnected",
    "CallbackType",
    "Channel",
    "ChannelType",
    "Choice",
    "Command",
    "DiscordHTTPError",
    "FakeDiscord",
    "FakeDiscordError",
    "Guild",
    "Intents",
    "InteractionFailed",
    "InteractionResult",
    "Member",
    "Message",
    "MessageFlags",
    "OptionType",
    "Role",
    "User",
]
