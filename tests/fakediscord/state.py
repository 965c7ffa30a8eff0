"""The fake Discord's state and the operations its REST API, gateway and test API share.

:class:`DiscordState` holds every user, guild, channel, message, attachment and interaction,
the application commands and the gateway sessions. Creating, editing and deleting messages goes
through it so that validation, mention rules and gateway events are the same whether the bot
posts through a channel, an interaction callback or a webhook, or a test user posts.
"""

# ``wait_for`` takes ``timeout=`` on purpose: every wait has a bound so no test can hang.
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from .commands import CommandRegistry
from .errors import DiscordHTTPError
from .gateway import Gateway, GatewaySession, Intents
from .interactions import PendingInteraction
from .messages import (
    Attachment,
    Message,
    MessageFlags,
    UploadedFile,
    build_attachments,
    png_size,
    resolve_mentions,
    validate_message_fields,
)
from .models import Channel, ChannelType, Guild, Snowflakes, User, iso_timestamp
from .ratelimits import RateLimiter

__all__ = ["Changes", "DiscordState"]

T = TypeVar("T")


class Changes:
    """Wakes every waiter when the fake's state changes; waiters re-check their condition."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self) -> None:
        """Wake every waiter."""
        self._event.set()
        self._event = asyncio.Event()

    async def wait_for(self, check: Callable[[], T | None], timeout: float, what: str) -> T:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = check()
            if result is not None:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"fakediscord: timed out after {timeout:g}s waiting for {what}")
            event = self._event
            # asyncio.timeout, unlike wait_for on 3.11, never swallows the caller's cancellation
            # when the event is set at the same moment.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(remaining):
                    await event.wait()


class DiscordState:
    """Everything the fake Discord knows about its one bot application and its world.

    ``base_url`` is set by :class:`~tests.fakediscord.FakeDiscord` once it listens.
    """

    def __init__(
        self,
        *,
        bot_name: str,
        ack_timeout: float,
        heartbeat_interval: float,
        privileged_intents: int,
        max_upload_bytes: int,
        rate_limits: bool = False,
    ) -> None:
        self.snowflakes = Snowflakes()
        self.ack_timeout = ack_timeout
        self.privileged_intents = privileged_intents
        self.max_upload_bytes = max_upload_bytes
        self.base_url = ""
        self.bot_token = f"fake-bot-token.{secrets.token_urlsafe(24)}"
        self.bot_user = User(id=self.snowflakes.next(), name=bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.owner_user = User(id=self.snowflakes.next(), name="fakediscord-owner")
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        """Current version of every message (ephemeral and deleted ones included)."""
        self.channel_messages: dict[int, list[int]] = {}
        """Message ids per channel id, oldest first."""
        self.attachments: dict[int, Attachment] = {}
        self.interactions: dict[int, PendingInteraction] = {}
        self.interactions_by_token: dict[str, PendingInteraction] = {}
        self.commands = CommandRegistry(self.application_id, self.snowflakes)
        self.gateway = Gateway(self, heartbeat_interval=heartbeat_interval)
        self.unknown_routes: list[str] = []
        self.requests: list[str] = []
        self.rejections: list[str] = []
        self.changes = Changes()
        self.rate_limiter: RateLimiter | None = RateLimiter() if rate_limits else None
        """Discord's REST rate limits (``ratelimits.py``), or ``None``: no 429s (the default)."""
        self.rate_limited: list[str] = []
        """``"METHOD /path -> 429 global|route"`` of every request answered 429."""
        self.message_listeners: list[Callable[[Message], None]] = []
        """Called with every new public message (``FakeDiscord.on_message``)."""
        self.edit_listeners: list[Callable[[Message, Message], None]] = []
        self.send_delay = 0.0
        """Seconds ``POST /channels/{id}/messages`` and ``PATCH …/messages/{id}`` wait before
        they create or change the message (0: at once), as a slow Discord would: it widens the
        gap between a bot's commit and its post."""

    @property
    def gateway_url(self) -> str:
        """``ws://127.0.0.1:PORT/gateway``."""
        return self.base_url.replace("http://", "ws://", 1) + "/gateway"

    def add_channel(self, channel: Channel) -> None:
        """Register a channel, thread or DM (and file it under its guild)."""
        self.channels[channel.id] = channel
        self.channel_messages[channel.id] = []
        if channel.guild is not None:
            channel.guild.channels[channel.id] = channel

    def dm_channel(self, user: User) -> Channel | None:
        """The DM channel between the bot and ``user``, if it was opened."""
        return next(
            (
                c
                for c in self.channels.values()
                if c.type is ChannelType.DM and c.recipients and c.recipients[0].id == user.id
            ),
            None,
        )

    def delete_channel(self, channel: Channel) -> None:
        """Delete a channel or thread and dispatch CHANNEL_DELETE or THREAD_DELETE."""
        channel.deleted = True
        event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
        if channel.guild is not None:
            channel.guild.channels.pop(channel.id, None)
        self.dispatch(event, channel.to_payload(), guild_id=channel.guild_id, intent=Intents.GUILDS)
        self.notify()

    def visible_messages(
        self, channel: Channel, *, visible_to: User | None = None
    ) -> list[Message]:
        """Messages in ``channel``, oldest first, as currently shown.

        Public messages only, unless ``visible_to`` is given: then that user's ephemeral
        messages are included too. Deleted messages and deferred responses still "thinking"
        are left out.
        """
        result = []
        for message_id in self.channel_messages.get(channel.id, []):
            message = self.messages[message_id]
            if message.deleted or message.loading:
                continue
            if message.visible_to is not None and (
                visible_to is None or message.visible_to != visible_to.id
            ):
                continue
            result.append(message)
        return result

    def new_attachment(self, channel_id: int, filename: str, data: bytes) -> Attachment:
        """Store uploaded bytes as an attachment served at its ``url``."""
        attachment_id = self.snowflakes.next()
        size = png_size(data)
        attachment = Attachment(
            id=attachment_id,
            filename=filename,
            data=data,
            url=self.attachment_url(channel_id, attachment_id, filename),
            content_type="image/png" if size else "application/octet-stream",
            width=size[0] if size else None,
            height=size[1] if size else None,
        )
        self.attachments[attachment.id] = attachment
        return attachment

    # ------------------------------------------------------------------ messages

    def attachment_url(self, channel_id: int, attachment_id: int, filename: str) -> str:
        """Where the fake serves an attachment (``/attachments/...``)."""
        return f"{self.base_url}/attachments/{channel_id}/{attachment_id}/{filename}"

    def create_message(
        self,
        channel: Channel,
        author: User,
        fields: Mapping[str, Any],
        files: Mapping[int, UploadedFile],
        *,
        message_type: int = 0,
        flags: int = 0,
        pending: PendingInteraction | None = None,
        allow_empty: bool = False,
    ) -> Message:
        """Validate and store a new message, then dispatch MESSAGE_CREATE unless ephemeral.

        Raises :class:`DiscordHTTPError` for what Discord refuses (see
        :func:`validate_message_fields`; an empty message is 400 code 50006).
        """
        validate_message_fields(fields)
        self.check_upload_sizes(files)
        message_id = self.snowflakes.next()
        attachments = build_attachments(
            fields,
            files,
            existing=(),
            new_id=self.snowflakes.next,
            url_for=lambda attachment_id, name: self.attachment_url(
                channel.id, attachment_id, name
            ),
        )
        content = fields.get("content") or ""
        if not (
            allow_empty
            or content
            or fields.get("embeds")
            or attachments
            or fields.get("components")
        ):
            raise DiscordHTTPError(400, 50006, "Cannot send an empty message")
        allowed_mentions = fields.get("allowed_mentions")
        users, roles, everyone = resolve_mentions(
            content, allowed_mentions, lookup_user=self.users.get
        )
        interaction_metadata = None
        visible_to = None
        if pending is not None:
            interaction_metadata = {
                "id": str(pending.id),
                "type": int(pending.kind),
                "user": pending.user.to_payload(),
                "authorizing_integration_owners": {
                    "0": str(pending.guild.id if pending.guild else pending.user.id)
                },
            }
            if pending.source_message_id is not None:
                interaction_metadata["interacted_message_id"] = str(pending.source_message_id)
            if flags & MessageFlags.EPHEMERAL:
                visible_to = pending.user.id
        message = Message(
            id=message_id,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            timestamp=iso_timestamp(),
            content=content,
            embeds=tuple(fields.get("embeds") or ()),
            components=tuple(fields.get("components") or ()),
            attachments=attachments,
            flags=flags,
            type=message_type,
            allowed_mentions=allowed_mentions,
            mentions=users,
            mention_roles=roles,
            mention_everyone=everyone,
            tts=bool(fields.get("tts", False)),
            webhook_id=self.application_id if pending is not None else None,
            application_id=self.application_id if pending is not None else None,
            interaction_metadata=interaction_metadata,
            interaction_id=pending.id if pending is not None else None,
            visible_to=visible_to,
        )
        self.messages[message.id] = message
        self.attachments.update((a.id, a) for a in attachments)
        self.channel_messages.setdefault(channel.id, []).append(message.id)
        if visible_to is None:
            channel.last_message_id = message.id
            if channel.is_thread:
                channel.message_count += 1
            self.dispatch_message("MESSAGE_CREATE", message, channel)
            for listener in self.message_listeners:
                listener(message)
        self.notify()
        return message

    def edit_message(
        self,
        message: Message,
        fields: Mapping[str, Any],
        files: Mapping[int, UploadedFile],
        *,
        clear_loading: bool = False,
    ) -> Message:
        """Apply an edit (content, embeds, components, attachments, allowed mentions, flags)."""
        validate_message_fields({**fields, "flags": fields.get("flags", message.flags)})
        self.check_upload_sizes(files)
        changes: dict[str, Any] = {"edited_timestamp": iso_timestamp()}
        if "content" in fields:
            changes["content"] = fields["content"] or ""
        if "embeds" in fields:
            changes["embeds"] = tuple(fields["embeds"] or ())
        if "components" in fields:
            changes["components"] = tuple(fields["components"] or ())
        if "attachments" in fields or files:
            changes["attachments"] = build_attachments(
                fields,
                files,
                existing=message.attachments,
                new_id=self.snowflakes.next,
                url_for=lambda a, name: self.attachment_url(message.channel_id, a, name),
            )
        flags = message.flags
        if "flags" in fields and fields["flags"] is not None:
            keep = MessageFlags.EPHEMERAL | MessageFlags.HAS_THREAD
            flags = (flags & keep) | (int(fields["flags"]) & MessageFlags.SETTABLE)
        if clear_loading:
            flags &= ~MessageFlags.LOADING
        changes["flags"] = flags
        if "allowed_mentions" in fields:
            changes["allowed_mentions"] = fields["allowed_mentions"]
        content = changes.get("content", message.content)
        allowed = changes.get("allowed_mentions", message.allowed_mentions)
        users, roles, everyone = resolve_mentions(content, allowed, lookup_user=self.users.get)
        changes.update(mentions=users, mention_roles=roles, mention_everyone=everyone)
        edited = message.evolve(**changes)
        self.messages[edited.id] = edited
        self.attachments.update((a.id, a) for a in edited.attachments)
        if edited.visible_to is None:
            self.dispatch_message("MESSAGE_UPDATE", edited, self.channels[edited.channel_id])
            for listener in self.edit_listeners:
                listener(message, edited)
        self.notify()
        return edited

    def delete_message(self, message: Message) -> None:
        """Mark a message deleted; dispatch MESSAGE_DELETE unless it was ephemeral."""
        deleted = message.evolve(deleted=True)
        self.messages[message.id] = deleted
        if message.visible_to is None:
            data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
            self.dispatch(
                "MESSAGE_DELETE", data, guild_id=message.guild_id, intent=_message_intent(message)
            )
        self.notify()

    def check_upload_sizes(self, files: Mapping[int, UploadedFile]) -> None:
        """Raise 413 (code 40005) for a file over ``max_upload_bytes``."""
        for uploaded in files.values():
            if len(uploaded.data) > self.max_upload_bytes:
                raise DiscordHTTPError(
                    413,
                    40005,
                    f"Request entity too large: {uploaded.filename} is {len(uploaded.data)} bytes, "
                    f"the limit is {self.max_upload_bytes}",
                )

    def message_payload(self, message: Message) -> dict[str, object]:
        """The API payload of a message, with its thread if one was started from it."""
        thread = self.channels.get(message.thread_id) if message.thread_id is not None else None
        return message.to_payload(thread=thread.to_payload() if thread is not None else None)

    def dispatch_message(self, event: str, message: Message, channel: Channel) -> None:
        """Dispatch MESSAGE_CREATE/UPDATE, redacting content for bots without the intent."""
        payload = self.message_payload(message)
        guild = channel.guild
        if guild is not None:
            member = guild.members.get(message.author.id)
            if member is not None:
                payload["member"] = member.to_payload(with_user=False)
        bot_mentioned = self.bot_user in message.mentions
        exempt = message.author.id == self.bot_user.id or bot_mentioned

        def redact(data: dict[str, Any]) -> dict[str, Any]:
            if exempt:
                return data
            return {**data, "content": "", "embeds": [], "attachments": [], "components": []}

        self.dispatch(
            event,
            payload,
            guild_id=channel.guild_id,
            intent=_message_intent(message),
            redact=redact,
        )

    # ------------------------------------------------------------------ threads

    def open_thread(
        self,
        parent: Channel,
        *,
        owner: User,
        name: str,
        thread_id: int,
        auto_archive_duration: int = 1440,
        private: bool = False,
    ) -> Channel:
        """Create a thread under ``parent`` and dispatch THREAD_CREATE; 400 if not allowed."""
        if parent.is_thread or parent.guild is None:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        if not 1 <= len(name) <= 100:
            raise DiscordHTTPError.invalid_form("name", "must be between 1 and 100 in length")
        thread = Channel(
            id=thread_id,
            type=ChannelType.PRIVATE_THREAD if private else ChannelType.PUBLIC_THREAD,
            name=name,
            guild=parent.guild,
            parent_id=parent.id,
            owner_id=owner.id,
            auto_archive_duration=auto_archive_duration,
            thread_member_ids={owner.id},
        )
        self.add_channel(thread)
        payload = thread.to_payload()
        payload["newly_created"] = True
        if owner.id == self.bot_user.id:
            payload["member"] = {
                "id": str(thread.id),
                "user_id": str(owner.id),
                "join_timestamp": thread.created_at,
                "flags": 0,
            }
        self.dispatch("THREAD_CREATE", payload, guild_id=parent.guild_id, intent=Intents.GUILDS)
        self.notify()
        return thread

    # ------------------------------------------------------------------ gateway payloads

    def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        guild_id: int | None,
        intent: int | None,
        redact: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    ) -> None:
        """Send a gateway event to every session that wants it (see ``Gateway.broadcast``)."""
        self.gateway.broadcast(event, data, guild_id=guild_id, intent=intent, redact=redact)

    def notify(self) -> None:
        """Wake every test waiting on the state (call after any change users could see)."""
        self.changes.notify()

    async def wait_for(self, check: Callable[[], T | None], timeout: float, what: str) -> T:
        """Wait until ``check()`` returns non-None (re-checked on each change); return it.

        Raises ``TimeoutError`` naming ``what`` after ``timeout`` seconds.
        """
        return await self.changes.wait_for(check, timeout, what)

    def ready_payload(self, session: GatewaySession) -> dict[str, Any]:
        """The READY event for a new session: the bot user, guilds as unavailable, app."""
        bot = self.bot_user.to_payload()
        bot.update({"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"})
        return {
            "v": 10,
            "user": bot,
            "guilds": [
                {"id": str(g.id), "unavailable": True}
                for g in self.guilds.values()
                if session.covers(g.id)
            ],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "shard": list(session.shard),
            "application": {"id": str(self.application_id), "flags": 1 << 23},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": [],
            "guild_join_requests": [],
            "_trace": ["fakediscord"],
        }

    def guild_create_payload(self, guild: Guild, session: GatewaySession) -> dict[str, Any]:
        """GUILD_CREATE: channels, active threads, roles, and members the intents allow."""
        if session.intents & Intents.GUILD_MEMBERS:
            members = list(guild.members.values())
        else:
            # Without the privileged intent Discord sends only the bot's own member.
            members = [guild.members[self.bot_user.id]]
        payload = guild.to_payload()
        payload.update(
            {
                "joined_at": guild.members[self.bot_user.id].joined_at,
                "large": False,
                "unavailable": False,
                "member_count": len(guild.members),
                "voice_states": [],
                "members": [m.to_payload() for m in members],
                "channels": [c.to_payload() for c in guild.channels.values() if not c.is_thread],
                "threads": [
                    c.to_payload()
                    for c in guild.channels.values()
                    if c.is_thread and not c.archived and not c.deleted
                ],
                "presences": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
                "soundboard_sounds": [],
                "embedded_activities": [],
            }
        )
        return payload


def _message_intent(message: Message) -> int:
    return Intents.GUILD_MESSAGES if message.guild_id is not None else Intents.DIRECT_MESSAGES
