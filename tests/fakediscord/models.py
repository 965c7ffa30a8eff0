"""The fake's world: users, guilds, roles, members and channels, and their Discord payloads.

These objects are mutable state owned by :class:`~tests.fakediscord.FakeDiscord`; tests receive
them from ``add_user``/``add_guild``/... and pass them back to say who acts where. Each has a
``to_payload()`` giving the JSON object Discord API v10 would send for it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import IntEnum

import discord

__all__ = [
    "ALL_PERMISSIONS",
    "DEFAULT_BOT_PERMISSIONS",
    "DEFAULT_EVERYONE_PERMISSIONS",
    "Channel",
    "ChannelType",
    "Guild",
    "Member",
    "PermissionsLike",
    "Role",
    "Snowflakes",
    "User",
    "iso_timestamp",
    "permission_value",
]

PermissionsLike = int | discord.Permissions
"""Permissions as a raw bit field or a :class:`discord.Permissions`."""

DISCORD_EPOCH_MS = 1_420_070_400_000

ALL_PERMISSIONS = discord.Permissions.all().value

DEFAULT_EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    use_application_commands=True,
    use_external_emojis=True,
    change_nickname=True,
).value
"""What @everyone may do in a fresh test guild: chat, threads, files, slash commands."""

DEFAULT_BOT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    manage_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    use_application_commands=True,
).value
"""The bot's role in a test guild: what an invite link for a board-game bot would grant."""


def permission_value(permissions: PermissionsLike) -> int:
    """The integer bit field of ``permissions``."""
    if isinstance(permissions, discord.Permissions):
        return permissions.value
    return int(permissions)


def iso_timestamp(moment: datetime | None = None) -> str:
    """An ISO 8601 timestamp with timezone, as Discord writes them (default: now)."""
    return (moment or datetime.now(UTC)).isoformat()


class Snowflakes:
    """Issues Discord snowflakes: strictly increasing ids that encode their creation time.

    Ids are ``(milliseconds since 2015-01-01) << 22`` bumped by one when two are issued in the
    same millisecond, so ``discord.utils.snowflake_time`` works and sorting by id sorts by time.
    """

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        """A new id, larger than every id issued before."""
        now = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(now, self._last + 1)
        return self._last

    @property
    def last(self) -> int:
        """The most recent id issued (0 before the first)."""
        return self._last


class ChannelType(IntEnum):
    """The Discord channel types the fake supports."""

    GUILD_TEXT = 0
    DM = 1
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12


@dataclass(eq=False)
class User:
    """A Discord account: a person or the bot."""

    id: int
    name: str
    global_name: str | None = None
    bot: bool = False
    #: The user's privacy settings refuse direct messages from the bot: a message to their
    #: DM channel gets Discord's 403 "Cannot send messages to this user" (50007).
    dms_closed: bool = False

    @property
    def mention(self) -> str:
        """``<@id>``, the text that pings this user."""
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        """The global display name, else the username."""
        return self.global_name or self.name

    def to_payload(self) -> dict[str, object]:
        """The user object of API v10."""
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
        }

    def __repr__(self) -> str:
        return f"<User {self.name} id={self.id}>"


@dataclass(eq=False)
class Role:
    """A guild role. The role whose id equals the guild's id is @everyone."""

    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0

    def to_payload(self) -> dict[str, object]:
        """The role object of API v10."""
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class Member:
    """A user's membership of a guild: nickname, roles and join time."""

    user: User
    guild: Guild
    roles: list[Role] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_timestamp)

    @property
    def permissions(self) -> int:
        """The member's guild-wide permissions (owner and administrator get all)."""
        return self.guild.permissions_of(self.user)

    def to_payload(
        self, *, with_user: bool = True, with_permissions: bool = False
    ) -> dict[str, object]:
        """The guild member object; ``with_permissions`` adds the interaction-only field."""
        payload: dict[str, object] = {
            "roles": [str(role.id) for role in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            payload["user"] = self.user.to_payload()
        if with_permissions:
            payload["permissions"] = str(self.permissions)
        return payload


@dataclass(eq=False)
class Guild:
    """A guild (server) with its roles, members and channels (threads included)."""

    id: int
    name: str
    owner: User
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)

    @property
    def everyone(self) -> Role:
        """The @everyone role (same id as the guild)."""
        return self.roles[self.id]

    def member(self, user: User) -> Member | None:
        """The membership of ``user``, or None when they are not in this guild."""
        return self.members.get(user.id)

    def permissions_of(self, user: User) -> int:
        """Guild-wide permissions of ``user``: @everyone plus their roles; all for the owner.

        Channel overwrites are not modelled: a member has the same permissions everywhere.
        """
        if user.id == self.owner.id:
            return ALL_PERMISSIONS
        value = self.everyone.permissions
        member = self.members.get(user.id)
        if member is not None:
            for role in member.roles:
                value |= role.permissions
        if value & discord.Permissions(administrator=True).value:
            return ALL_PERMISSIONS
        return value

    def to_payload(self) -> dict[str, object]:
        """The guild object without the GUILD_CREATE-only fields (channels, members...)."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": [role.to_payload() for role in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
        }


@dataclass(eq=False)
class Channel:
    """A text channel, a thread (``parent_id`` set) or a DM (``recipients`` set)."""

    id: int
    type: ChannelType
    name: str
    guild: Guild | None
    position: int = 0
    topic: str | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    rate_limit_per_user: int = 0
    created_at: str = field(default_factory=iso_timestamp)
    recipients: list[User] = field(default_factory=list)
    thread_member_ids: set[int] = field(default_factory=set)
    message_count: int = 0
    last_message_id: int | None = None
    deleted: bool = False

    @property
    def is_thread(self) -> bool:
        """Whether this channel is a public or private thread."""
        return self.type in (ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD)

    @property
    def guild_id(self) -> int | None:
        """The guild's id, None for a DM."""
        return self.guild.id if self.guild is not None else None

    @property
    def mention(self) -> str:
        """``<#id>``."""
        return f"<#{self.id}>"

    def to_payload(self) -> dict[str, object]:
        """The channel object of API v10 (thread fields for threads, recipients for DMs)."""
        payload: dict[str, object] = {
            "id": str(self.id),
            "type": int(self.type),
            "last_message_id": str(self.last_message_id) if self.last_message_id else None,
            "flags": 0,
        }
        if self.type is ChannelType.DM:
            payload["recipients"] = [user.to_payload() for user in self.recipients]
            return payload
        payload.update(
            {
                "guild_id": str(self.guild_id),
                "name": self.name,
                "parent_id": str(self.parent_id) if self.parent_id else None,
                "rate_limit_per_user": self.rate_limit_per_user,
                "nsfw": False,
            }
        )
        if self.is_thread:
            payload.update(
                {
                    "owner_id": str(self.owner_id),
                    "message_count": self.message_count,
                    "total_message_sent": self.message_count,
                    "member_count": len(self.thread_member_ids),
                    "thread_metadata": {
                        "archived": self.archived,
                        "locked": self.locked,
                        "auto_archive_duration": self.auto_archive_duration,
                        "archive_timestamp": self.created_at,
                        "create_timestamp": self.created_at,
                        "invitable": True,
                    },
                }
            )
        else:
            payload.update(
                {
                    "position": self.position,
                    "permission_overwrites": [],
                    "topic": self.topic,
                    "default_auto_archive_duration": 1440,
                    "default_thread_rate_limit_per_user": 0,
                }
            )
        return payload

    def __repr__(self) -> str:
        return f"<Channel {self.type.name} #{self.name} id={self.id}>"
