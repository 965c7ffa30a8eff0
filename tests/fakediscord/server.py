"""FakeDiscord: a Discord API v10 stand-in on 127.0.0.1 that tests drive like users.

A test builds a world (guilds, channels, users), points a bot at :attr:`FakeDiscord.api_base`
and :attr:`FakeDiscord.gateway_url`, waits for it to connect and sync its commands, then acts
as users (``slash``, ``autocomplete``, ``press``, ``select``, ``post``) and looks at what users
see (``messages``, ``threads``, the returned :class:`InteractionResult`). See README.md.
"""

# Waiting helpers take ``timeout=`` on purpose: every wait has a default so no test can hang,
# and tests read better with ``await fake.wait_ready(timeout=5)`` than with a wrapper.
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from aiohttp import web

from .commands import Command, OptionType, build_options
from .errors import ActionRefused, BotNotConnected, InteractionFailed
from .gateway import Intents
from .interactions import Choice, InteractionKind, InteractionResult, PendingInteraction
from .messages import Message
from .models import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    Channel,
    ChannelType,
    Guild,
    Member,
    PermissionsLike,
    Role,
    User,
    permission_value,
)
from .rest import build_app
from .state import DiscordState

__all__ = ["FakeDiscord"]

_log = logging.getLogger("fakediscord")

MessageRef = Message | int
"""A message snapshot or a message id."""
After = int | Message | InteractionResult | None
"""A point in time: a snowflake (e.g. from ``checkpoint()``), a message, or a result."""


class FakeDiscord:
    """A fake Discord (REST + gateway) for one bot application, on 127.0.0.1.

    Parameters (all keyword-only):

    - ``bot_name``: the bot user's name (default ``"Gameroom"``).
    - ``ack_timeout``: seconds the bot has to answer an interaction callback (Discord: 3).
    - ``answer_timeout``: default seconds a test waits for a deferred interaction's follow-up.
    - ``heartbeat_interval``: seconds announced in HELLO (Discord: 41.25).
    - ``privileged_intents``: privileged intent bits the application may use (default none;
      an IDENTIFY asking for others is closed with 4014, as Discord does).
    - ``max_upload_bytes``: the per-file upload limit (Discord's default: 10 MiB).
    - ``rate_limits``: enforce Discord's REST rate limits (``ratelimits.py``: 50 requests/s
      globally, 5 messages per 5 s per channel, interaction responses exempt) with 429s that
      discord.py honours. Off by default, so end-to-end tests never wait; the load bench
      turns it on.
    """

    def __init__(
        self,
        *,
        bot_name: str = "Gameroom",
        ack_timeout: float = 3.0,
        answer_timeout: float = 10.0,
        heartbeat_interval: float = 41.25,
        privileged_intents: int = 0,
        max_upload_bytes: int = 10 * 1024 * 1024,
        rate_limits: bool = False,
    ) -> None:
        self.state = DiscordState(
            bot_name=bot_name,
            ack_timeout=ack_timeout,
            heartbeat_interval=heartbeat_interval,
            privileged_intents=privileged_intents,
            max_upload_bytes=max_upload_bytes,
            rate_limits=rate_limits,
        )
        """Everything the fake knows; REST and gateway handlers work on it."""
        self.answer_timeout = answer_timeout
        self.bot_token = self.state.bot_token
        """The only token the fake accepts (REST ``Authorization: Bot …`` and IDENTIFY)."""
        self.bot_user = self.state.bot_user
        self.application_id = self.state.application_id
        """The application id; equal to the bot user's id, as for every modern Discord app."""
        self.owner_user = self.state.owner_user
        """Owner of every guild the fake creates (has all permissions)."""
        self.commands = self.state.commands
        self.gateway = self.state.gateway
        self.unknown_routes = self.state.unknown_routes
        """``"METHOD /path"`` of every request the fake had no handler for (answered 404)."""
        self.requests = self.state.requests
        """``"METHOD /path -> status"`` of every REST request the bot made, in order."""
        self.rejections = self.state.rejections
        self.rate_limited = self.state.rate_limited
        """Every request answered 429 (only with ``rate_limits=True``), as
        ``"METHOD /path -> 429 global|route"``."""
        """Every 4xx the fake answered the bot with, as ``"METHOD /path -> status message"``."""
        self._bot_roles: dict[int, Role] = {}
        self._member_roles: dict[tuple[int, int], Role] = {}
        self._runner: web.AppRunner | None = None
        self._port: int | None = None

    @property
    def ack_timeout(self) -> float:
        """Seconds the bot has to answer an interaction callback (Discord: 3)."""
        return self.state.ack_timeout

    @ack_timeout.setter
    def ack_timeout(self, seconds: float) -> None:
        self.state.ack_timeout = seconds

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Listen on a free port of 127.0.0.1."""
        if self._runner is not None:
            raise RuntimeError("FakeDiscord is already started")
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self._port = int(sock.getsockname()[1])
        self.state.base_url = self.base_url
        runner = web.AppRunner(
            build_app(self.state), handle_signals=False, access_log=None, shutdown_timeout=1.0
        )
        await runner.setup()
        await web.SockSite(runner, sock).start()
        self._runner = runner
        _log.info("fakediscord listening on %s", self.base_url)

    async def stop(self) -> None:
        """Close every gateway connection and stop listening. Safe to call twice."""
        if self._runner is None:
            return
        await self.gateway.close_all()
        await self._runner.cleanup()
        self._runner = None
        self.state.notify()

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def port(self) -> int:
        """The TCP port on 127.0.0.1 (after :meth:`start`)."""
        if self._port is None:
            raise RuntimeError("FakeDiscord is not started")
        return self._port

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """The REST base for ``discord.http.Route.BASE``: ``http://127.0.0.1:PORT/api/v10``."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """The gateway for ``DiscordWebSocket.DEFAULT_GATEWAY``: ``ws://127.0.0.1:PORT/gateway``."""
        return self.state.gateway_url

    # ------------------------------------------------------------------ building the world

    def add_user(self, name: str, *, global_name: str | None = None, bot: bool = False) -> User:
        """A new Discord account (not yet in any guild)."""
        user = User(id=self.state.snowflakes.next(), name=name, global_name=global_name, bot=bot)
        self.state.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str,
        *,
        everyone_permissions: PermissionsLike = DEFAULT_EVERYONE_PERMISSIONS,
        bot_permissions: PermissionsLike = DEFAULT_BOT_PERMISSIONS,
    ) -> Guild:
        """A guild the bot is in, with @everyone and a role for the bot.

        If the bot is connected it receives GUILD_CREATE, as when it is invited.
        """
        guild_id = self.state.snowflakes.next()
        guild = Guild(id=guild_id, name=name, owner=self.owner_user)
        guild.roles[guild_id] = Role(
            guild_id, guild_id, "@everyone", permission_value(everyone_permissions)
        )
        bot_role = Role(
            self.state.snowflakes.next(),
            guild_id,
            self.bot_user.name,
            permission_value(bot_permissions),
            1,
        )
        guild.roles[bot_role.id] = bot_role
        self._bot_roles[guild_id] = bot_role
        guild.members[self.owner_user.id] = Member(self.owner_user, guild)
        guild.members[self.bot_user.id] = Member(self.bot_user, guild, roles=[bot_role])
        self.state.guilds[guild_id] = guild
        for session in self.gateway.sessions.values():
            if session.intents & Intents.GUILDS and session.covers(guild_id):
                session.push("GUILD_CREATE", self.state.guild_create_payload(guild, session))
        return guild

    def add_text_channel(self, guild: Guild, name: str, *, topic: str | None = None) -> Channel:
        """A text channel; a connected bot receives CHANNEL_CREATE."""
        position = sum(1 for c in guild.channels.values() if not c.is_thread)
        channel = Channel(
            id=self.state.snowflakes.next(),
            type=ChannelType.GUILD_TEXT,
            name=name,
            guild=guild,
            position=position,
            topic=topic,
        )
        self.state.add_channel(channel)
        self.state.dispatch(
            "CHANNEL_CREATE", channel.to_payload(), guild_id=guild.id, intent=Intents.GUILDS
        )
        return channel

    def add_member(
        self,
        guild: Guild,
        user: User,
        *,
        permissions: PermissionsLike | None = None,
        nick: str | None = None,
    ) -> Member:
        """Make ``user`` a member of ``guild``.

        ``permissions`` are granted through a role of their own on top of @everyone, so both
        ``interaction.permissions`` and ``member.guild_permissions`` show them. A connected bot
        with the GUILD_MEMBERS intent receives GUILD_MEMBER_ADD.
        """
        if user.id in guild.members:
            raise ValueError(f"{user.name} is already a member of {guild.name}")
        member = Member(user, guild, nick=nick)
        guild.members[user.id] = member
        if permissions is not None:
            self._set_member_role(guild, member, permission_value(permissions))
        self.state.dispatch(
            "GUILD_MEMBER_ADD",
            {**member.to_payload(), "guild_id": str(guild.id)},
            guild_id=guild.id,
            intent=Intents.GUILD_MEMBERS,
        )
        return member

    def set_permissions(self, guild: Guild, user: User, permissions: PermissionsLike) -> None:
        """Change a member's extra permissions (their own role); dispatches GUILD_ROLE_UPDATE."""
        member = guild.members.get(user.id)
        if member is None:
            raise ValueError(f"{user.name} is not a member of {guild.name}")
        self._set_member_role(guild, member, permission_value(permissions))

    def set_bot_permissions(self, guild: Guild, permissions: PermissionsLike) -> None:
        """Change what the bot may do in ``guild`` (its role); dispatches GUILD_ROLE_UPDATE."""
        role = self._bot_roles[guild.id]
        role.permissions = permission_value(permissions)
        self._dispatch_role_update(guild, role)

    def _set_member_role(self, guild: Guild, member: Member, value: int) -> None:
        role = self._member_roles.get((guild.id, member.user.id))
        if role is None:
            role = Role(
                self.state.snowflakes.next(), guild.id, f"{member.user.name} permissions", value
            )
            guild.roles[role.id] = role
            member.roles.append(role)
            self._member_roles[(guild.id, member.user.id)] = role
            self.state.dispatch(
                "GUILD_ROLE_CREATE",
                {"guild_id": str(guild.id), "role": role.to_payload()},
                guild_id=guild.id,
                intent=Intents.GUILDS,
            )
            self.state.dispatch(
                "GUILD_MEMBER_UPDATE",
                {**member.to_payload(), "guild_id": str(guild.id)},
                guild_id=guild.id,
                intent=Intents.GUILD_MEMBERS,
            )
        else:
            role.permissions = value
            self._dispatch_role_update(guild, role)

    def _dispatch_role_update(self, guild: Guild, role: Role) -> None:
        self.state.dispatch(
            "GUILD_ROLE_UPDATE",
            {"guild_id": str(guild.id), "role": role.to_payload()},
            guild_id=guild.id,
            intent=Intents.GUILDS,
        )

    # ------------------------------------------------------------------ looking at the world

    def user(self, user_id: int) -> User | None:
        """The user with this id, if the fake knows them."""
        return self.state.users.get(user_id)

    def channel(self, channel_id: int) -> Channel | None:
        """The channel, thread or DM with this id."""
        return self.state.channels.get(channel_id)

    def message(self, message: MessageRef) -> Message:
        """The current version of a message (edits applied). Raises ``KeyError`` if unknown."""
        message_id = message.id if isinstance(message, Message) else int(message)
        return self.state.messages[message_id]

    def messages(self, channel: Channel, *, visible_to: User | None = None) -> list[Message]:
        """Messages in ``channel``, oldest first, as currently shown.

        Public messages only, unless ``visible_to`` is given: then that user's ephemeral
        messages are included too. Deleted messages and deferred responses still "thinking"
        are left out.
        """
        return self.state.visible_messages(channel, visible_to=visible_to)

    def threads(self, channel: Channel) -> list[Channel]:
        """Threads (not deleted) whose parent is ``channel``, oldest first."""
        return [
            c
            for c in self.state.channels.values()
            if c.is_thread and c.parent_id == channel.id and not c.deleted
        ]

    def dm_channel(self, user: User) -> Channel | None:
        """The DM channel the bot opened with ``user``, if any."""
        return self.state.dm_channel(user)

    def checkpoint(self) -> int:
        """A marker for "now": pass it as ``after=`` to see only what happens later."""
        return self.state.snowflakes.next()

    @property
    def bot_connected(self) -> bool:
        """Whether some bot session has an open gateway connection."""
        return bool(self.gateway.live_sessions)

    def command_list(self, guild: Guild | None = None) -> list[Command]:
        """Commands registered globally (``guild=None``) or in ``guild``."""
        return self.commands.in_scope(guild.id if guild is not None else None)

    # ------------------------------------------------------------------ waiting

    async def wait_ready(self, timeout: float = 10.0, *, identifies: int = 1) -> None:
        """Wait until a bot is connected and ``identifies`` IDENTIFYs have succeeded in total.

        READY and the GUILD_CREATEs have been sent by then. After restarting a bot process,
        wait with ``identifies=fake.identify_count + 1`` (taken before the restart) so the old
        process's connection cannot satisfy the wait.
        """

        def check() -> bool | None:
            done = self.gateway.identify_count >= identifies and self.gateway.live_sessions
            return True if done else None

        await self.state.wait_for(check, timeout, f"IDENTIFY #{identifies} of the bot")

    def on_message(self, listener: Callable[[Message], None]) -> None:
        """Call ``listener(message)`` with every new public message, as it is stored.

        For load benchmarks, where hundreds of concurrent :meth:`wait_for_message` calls would
        each re-scan their channel on every change of the fake.
        """
        self.state.message_listeners.append(listener)

    def on_edit(self, listener: Callable[[Message, Message], None]) -> None:
        """Call ``listener(before, after)`` with every edit of a public message, as it is
        stored: a PATCH of a channel message, a follow-up or ``@original`` edit filling in a
        deferred response ("thinking…"), an UPDATE_MESSAGE callback. With :meth:`on_message`,
        a benchmark sees every public message whichever way the bot sends it."""
        self.state.edit_listeners.append(listener)

    async def wait_until(
        self, check: Callable[[], object], *, timeout: float = 10.0, what: str = "a condition"
    ) -> None:
        """Wait until ``check()`` is truthy; it is re-checked whenever the fake's state changes.

        For conditions on the fake (``lambda: fake.resume_count == 1``); bot-side state does
        not wake this wait.
        """
        await self.state.wait_for(lambda: True if check() else None, timeout, what)

    @property
    def resume_count(self) -> int:
        """How many RESUMEs the gateway accepted."""
        return self.gateway.resume_count

    @property
    def identify_count(self) -> int:
        """How many times a bot has IDENTIFYed (each bot process start adds one)."""
        return self.gateway.identify_count

    async def wait_disconnected(self, timeout: float = 10.0, *, remaining: int = 0) -> None:
        """Wait until at most ``remaining`` bot connections are open (e.g. after stopping one
        of several bot processes; by default none)."""
        await self.state.wait_for(
            lambda: None if len(self.gateway.live_sessions) > remaining else True,
            timeout,
            "the bot to disconnect"
            if not remaining
            else f"all but {remaining} bot connections to close",
        )

    async def wait_commands(
        self,
        guild: Guild | None = None,
        *,
        names: Sequence[str] = (),
        timeout: float = 10.0,
    ) -> list[Command]:
        """Wait until commands are registered globally (or in ``guild``); returns them.

        With ``names``, wait until all those command names are registered.
        """
        scope = guild.id if guild is not None else None

        def check() -> list[Command] | None:
            commands = self.commands.in_scope(scope)
            present = {c.name for c in commands}
            return commands if commands and set(names) <= present else None

        where = f"guild {guild.name}" if guild is not None else "global scope"
        return await self.state.wait_for(check, timeout, f"commands {list(names)} in {where}")

    async def wait_for_message(
        self,
        channel: Channel,
        predicate: Callable[[Message], bool] | None = None,
        *,
        after: After = None,
        visible_to: User | None = None,
        timeout: float | None = None,
    ) -> Message:
        """The first message in ``channel`` (newer than ``after``) matching ``predicate``.

        Messages already there count, so call order does not race with the bot; use ``after``
        (``fake.checkpoint()``, a message or an interaction result) to skip older ones.
        Raises ``TimeoutError`` listing the channel's messages when none matches in time.
        """
        floor = _after_id(after)

        def check() -> Message | None:
            for message in self.messages(channel, visible_to=visible_to):
                if message.id > floor and (predicate is None or predicate(message)):
                    return message
            return None

        try:
            return await self.state.wait_for(
                check, timeout or self.answer_timeout, f"a message in #{channel.name}"
            )
        except TimeoutError as exc:
            seen = [
                (m.author.name, m.content[:80], len(m.attachments)) for m in self.messages(channel)
            ]
            raise TimeoutError(f"{exc}; messages there: {seen}") from None

    async def wait_for_thread(
        self,
        channel: Channel,
        name: str | None = None,
        *,
        timeout: float | None = None,
    ) -> Channel:
        """The first thread of ``channel`` (named ``name``, if given), waiting for it to appear."""

        def check() -> Channel | None:
            return next((t for t in self.threads(channel) if name in (None, t.name)), None)

        what = f"thread {name!r} in #{channel.name}" if name else f"a thread in #{channel.name}"
        return await self.state.wait_for(check, timeout or self.answer_timeout, what)

    # ------------------------------------------------------------------ acting as users

    async def slash(
        self,
        user: User,
        channel: Channel,
        command: str | Sequence[str],
        /,
        *,
        options: Mapping[str, object] | None = None,
        timeout: float | None = None,
        **values: object,
    ) -> InteractionResult:
        """``user`` runs a slash command in ``channel`` and sees the bot's answer.

        ``command`` is ``"move"``, ``"game info"`` or ``("game", "info")``. Option values come
        as keyword arguments (or ``options=`` for names that clash): ``str``, ``int``, ``float``,
        ``bool``, a :class:`User`/:class:`Member` (user options, resolved with member data), a
        :class:`Channel`, a :class:`Role`, or ``(filename, bytes)`` for attachment options.

        Raises :class:`ActionRefused` if Discord would not let the user send this,
        :class:`BotNotConnected`, or :class:`InteractionFailed` if the bot does not respond.
        """
        path = _command_path(command)
        all_values = {**(options or {}), **values}
        found, _ = self._visible_command(user, channel, path)
        resolved: dict[str, dict[str, Any]] = {}
        built = build_options(
            found,
            path,
            all_values,
            resolve_entity=lambda kind, value: self._resolve_option(kind, value, channel, resolved),
        )
        data: dict[str, Any] = {
            "id": str(found.id),
            "name": found.name,
            "type": 1,
            "options": built,
        }
        if resolved:
            data["resolved"] = resolved
        if found.guild_id is not None:
            data["guild_id"] = str(found.guild_id)
        pending = self._open_interaction(
            InteractionKind.APPLICATION_COMMAND, user, channel, data, f"/{' '.join(path)}"
        )
        _log.info("%s runs %s in #%s %s", user.name, pending.description, channel.name, all_values)
        return await self._await_answer(pending, timeout)

    async def autocomplete(
        self,
        user: User,
        channel: Channel,
        command: str | Sequence[str],
        /,
        *,
        focused: str,
        options: Mapping[str, object] | None = None,
        timeout: float | None = None,
        **values: object,
    ) -> list[Choice]:
        """``user`` types into option ``focused`` of a command; returns the suggestions shown.

        ``values[focused]`` is the text typed so far (default ""); other values are the
        options filled in already.
        """
        path = _command_path(command)
        all_values = {**(options or {}), **values}
        found, _ = self._visible_command(user, channel, path)
        built = build_options(
            found,
            path,
            all_values,
            focused=focused,
            resolve_entity=lambda kind, value: self._resolve_option(kind, value, channel, {}),
        )
        data: dict[str, Any] = {
            "id": str(found.id),
            "name": found.name,
            "type": 1,
            "options": built,
        }
        if found.guild_id is not None:
            data["guild_id"] = str(found.guild_id)
        pending = self._open_interaction(
            InteractionKind.AUTOCOMPLETE, user, channel, data, f"autocomplete /{' '.join(path)}"
        )
        await self._await_answer(pending, timeout)
        return list(pending.choices or [])

    async def press(
        self,
        user: User,
        message: MessageRef,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        timeout: float | None = None,
    ) -> InteractionResult:
        """``user`` clicks a button (found by ``custom_id`` or ``label``) on a message.

        The message is looked up in its current version. Raises :class:`ActionRefused` when the
        button is missing, disabled, a link, or on someone else's ephemeral message.
        """
        if (custom_id is None) == (label is None):
            raise TypeError("press() needs exactly one of custom_id or label")
        current, channel = self._message_for_user(user, message)
        try:
            component = current.component(custom_id, label=label)
        except LookupError as exc:
            raise ActionRefused(str(exc)) from None
        if component.get("type") != 2:
            raise ActionRefused(f"{component.get('custom_id')!r} is not a button; use select()")
        if component.get("disabled"):
            raise ActionRefused(f"button {component.get('label')!r} is disabled")
        if component.get("style") in (5, 6):
            raise ActionRefused(f"button {component.get('label')!r} is a link, not an interaction")
        data = {"custom_id": component["custom_id"], "component_type": 2}
        pending = self._open_interaction(
            InteractionKind.MESSAGE_COMPONENT,
            user,
            channel,
            data,
            f"button {component.get('label') or component['custom_id']!r}",
            source=current,
        )
        _log.info("%s presses %s on message %s", user.name, pending.description, current.id)
        return await self._await_answer(pending, timeout)

    async def select(
        self,
        user: User,
        message: MessageRef,
        custom_id: str,
        values: Sequence[str],
        *,
        timeout: float | None = None,
    ) -> InteractionResult:
        """``user`` picks ``values`` in a string select menu on a message."""
        current, channel = self._message_for_user(user, message)
        try:
            component = current.component(custom_id)
        except LookupError as exc:
            raise ActionRefused(str(exc)) from None
        if component.get("type") != 3:
            raise ActionRefused(f"{custom_id!r} is not a string select (the fake supports those)")
        if component.get("disabled"):
            raise ActionRefused(f"select {custom_id!r} is disabled")
        offered = [str(o["value"]) for o in component.get("options", [])]
        picked = list(values)
        if any(v not in offered for v in picked):
            raise ActionRefused(f"select {custom_id!r} offers {offered}, not {picked}")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(picked) <= high:
            raise ActionRefused(f"select {custom_id!r} takes {low}..{high} values, got {picked}")
        data = {"custom_id": custom_id, "component_type": 3, "values": picked}
        pending = self._open_interaction(
            InteractionKind.MESSAGE_COMPONENT,
            user,
            channel,
            data,
            f"select {custom_id!r}",
            source=current,
        )
        return await self._await_answer(pending, timeout)

    async def post(self, user: User, channel: Channel, content: str) -> Message:
        """``user`` writes ``content`` in ``channel``; the bot gets MESSAGE_CREATE.

        Without the MESSAGE_CONTENT intent the bot sees empty content unless it is mentioned,
        as on Discord.
        """
        self._require_member(user, channel)
        return self.state.create_message(channel, user, {"content": content}, {})

    def create_thread(self, user: User, channel: Channel, name: str) -> Channel:
        """``user`` opens a public thread (without a starter message) in ``channel``."""
        self._require_member(user, channel)
        return self.state.open_thread(
            channel, owner=user, name=name, thread_id=self.state.snowflakes.next()
        )

    def archive_thread(self, thread: Channel, *, locked: bool = False) -> None:
        """Archive (and optionally lock) a thread; the bot gets THREAD_UPDATE."""
        thread.archived = True
        thread.locked = locked
        self.state.dispatch(
            "THREAD_UPDATE", thread.to_payload(), guild_id=thread.guild_id, intent=Intents.GUILDS
        )
        self.state.notify()

    def delete_channel(self, channel: Channel) -> None:
        """Delete a channel or thread; the bot gets CHANNEL_DELETE or THREAD_DELETE."""
        self.state.delete_channel(channel)

    async def drop_connection(self, *, resumable: bool = True) -> None:
        """Cut the bot's gateway connections as a network failure would.

        discord.py reconnects and RESUMEs (``resumable=True``) or, when the session was ended,
        IDENTIFYs again. Events dispatched meanwhile are replayed on RESUME.
        """
        await self.gateway.drop(resumable=resumable)

    def request_reconnect(self) -> None:
        """Ask connected bots to reconnect (gateway op 7 RECONNECT)."""
        self.gateway.request_reconnect()

    # ------------------------------------------------------------------ interactions (internal)

    def _visible_command(
        self, user: User, channel: Channel, path: tuple[str, ...]
    ) -> tuple[Command, Guild | None]:
        guild = channel.guild
        self._require_member(user, channel)
        found = self.commands.find(path[0], guild.id if guild is not None else None)
        if found is None:
            known = [c.name for c in self.commands.in_scope(None)]
            if guild is not None:
                known += [c.name for c in self.commands.in_scope(guild.id)]
            raise ActionRefused(f"/{path[0]} is not a registered command; registered: {known}")
        if guild is not None:
            required = found.default_member_permissions
            have = guild.permissions_of(user)
            if required is not None and have & required != required:
                raise ActionRefused(
                    f"{user.name} lacks {required:#x} (default_member_permissions of /{found.name})"
                )
            if found.contexts is not None and 0 not in found.contexts:
                raise ActionRefused(f"/{found.name} is not available in guilds (contexts)")
        elif found.contexts is not None and 1 not in found.contexts:
            raise ActionRefused(f"/{found.name} is not available in DMs with the bot (contexts)")
        return found, guild

    def _require_member(self, user: User, channel: Channel) -> None:
        if channel.deleted:
            raise ActionRefused(f"#{channel.name} was deleted")
        if channel.guild is not None and user.id not in channel.guild.members:
            raise ActionRefused(f"{user.name} is not a member of {channel.guild.name}")

    def _message_for_user(self, user: User, message: MessageRef) -> tuple[Message, Channel]:
        message_id = message.id if isinstance(message, Message) else int(message)
        current = self.state.messages.get(message_id)
        if current is None or current.deleted:
            raise ActionRefused(f"message {message_id} does not exist (deleted?)")
        if current.visible_to is not None and current.visible_to != user.id:
            raise ActionRefused(f"{user.name} cannot see message {message_id} (ephemeral)")
        channel = self.state.channels[current.channel_id]
        self._require_member(user, channel)
        return current, channel

    def _resolve_option(
        self, kind: OptionType, value: object, channel: Channel, resolved: dict[str, dict[str, Any]]
    ) -> str:
        guild = channel.guild
        if isinstance(value, Member):
            value = value.user
        if kind in (OptionType.USER, OptionType.MENTIONABLE) and isinstance(value, User):
            resolved.setdefault("users", {})[str(value.id)] = value.to_payload()
            member = guild.member(value) if guild is not None else None
            if member is not None:
                resolved.setdefault("members", {})[str(value.id)] = member.to_payload(
                    with_user=False, with_permissions=True
                )
            return str(value.id)
        if kind in (OptionType.ROLE, OptionType.MENTIONABLE) and isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.to_payload()
            return str(value.id)
        if kind is OptionType.CHANNEL and isinstance(value, Channel):
            payload = value.to_payload()
            if guild is not None:
                payload["permissions"] = str(guild.permissions_of(self.bot_user))
            resolved.setdefault("channels", {})[str(value.id)] = payload
            return str(value.id)
        if kind is OptionType.ATTACHMENT and isinstance(value, tuple) and len(value) == 2:
            filename, data = value
            attachment = self.state.new_attachment(channel.id, str(filename), bytes(data))
            resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.to_payload()
            return str(attachment.id)
        raise TypeError(f"cannot use {value!r} for a {kind.name.lower()} option")

    def _open_interaction(
        self,
        kind: InteractionKind,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        description: str,
        *,
        source: Message | None = None,
    ) -> PendingInteraction:
        if not self.gateway.live_sessions:
            raise BotNotConnected(f"{user.name} tried {description} but no bot is connected")
        loop = asyncio.get_running_loop()
        pending = PendingInteraction(
            id=self.state.snowflakes.next(),
            token=f"aW50ZXJhY3Rpb24.{secrets.token_urlsafe(32)}",
            kind=kind,
            user=user,
            channel=channel,
            guild=channel.guild,
            description=f"{description} by {user.name}",
            deadline=loop.time() + self.ack_timeout,
            source_message_id=source.id if source is not None else None,
        )
        self.state.interactions[pending.id] = pending
        self.state.interactions_by_token[pending.token] = pending
        payload = self._interaction_payload(pending, data, source)
        self.state.dispatch("INTERACTION_CREATE", payload, guild_id=channel.guild_id, intent=None)
        return pending

    def _interaction_payload(
        self, pending: PendingInteraction, data: dict[str, Any], source: Message | None
    ) -> dict[str, Any]:
        channel, guild, user = pending.channel, pending.guild, pending.user
        channel_payload = channel.to_payload()
        payload: dict[str, Any] = {
            "id": str(pending.id),
            "application_id": str(self.application_id),
            "type": int(pending.kind),
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel_payload,
            "token": pending.token,
            "version": 1,
            "locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": self.state.max_upload_bytes,
        }
        if guild is not None:
            member = guild.members[user.id]
            channel_payload["permissions"] = str(guild.permissions_of(user))
            payload.update(
                {
                    "guild_id": str(guild.id),
                    "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
                    "guild_locale": "en-US",
                    "member": member.to_payload(with_permissions=True),
                    "app_permissions": str(guild.permissions_of(self.bot_user)),
                    "authorizing_integration_owners": {"0": str(guild.id)},
                    "context": 0,
                }
            )
        else:
            payload.update(
                {
                    "user": user.to_payload(),
                    "app_permissions": str(DEFAULT_BOT_PERMISSIONS),
                    "authorizing_integration_owners": {"0": str(user.id)},
                    "context": 1,
                }
            )
        if source is not None:
            payload["message"] = self.state.message_payload(source)
        return payload

    async def _await_answer(
        self, pending: PendingInteraction, timeout: float | None
    ) -> InteractionResult:
        loop = asyncio.get_running_loop()
        started = loop.time()
        # asyncio.timeout, unlike wait_for on 3.11, never swallows a cancellation of the test.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.ack_timeout):
                await pending.acknowledged.wait()
        if not pending.acknowledged.is_set():
            raise InteractionFailed(
                f"{pending.description}: the bot sent no interaction callback within "
                f"{self.ack_timeout:g}s (Discord shows 'The application did not respond')"
            )
        budget = timeout if timeout is not None else self.answer_timeout
        remaining = max(0.0, budget - (loop.time() - started))
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(remaining):
                await pending.answered.wait()
        if not pending.answered.is_set():
            assert pending.callback is not None
            raise InteractionFailed(
                f"{pending.description}: the bot acknowledged with {pending.callback.name} but "
                f"sent no follow-up and did not edit the original response within {budget:g}s"
            )
        assert pending.callback is not None
        message = (
            self.state.messages.get(pending.answer_message_id)
            if pending.answer_message_id is not None
            else None
        )
        _log.info(
            "%s answered: %s",
            pending.description,
            message.content[:80] if message else pending.callback.name,
        )
        return InteractionResult(
            interaction_id=pending.id,
            response_type=pending.callback,
            message=message,
            updated=pending.updated_message,
            modal=pending.modal,
            followups=lambda: self._followups(pending),
            wait_followups=lambda count, t: self._wait_followups(pending, count, t),
        )

    def _followups(self, pending: PendingInteraction) -> list[Message]:
        return [
            self.state.messages[i]
            for i in pending.followup_ids
            if not self.state.messages[i].deleted
        ]

    async def _wait_followups(
        self, pending: PendingInteraction, count: int, timeout: float | None
    ) -> list[Message]:
        return await self.state.wait_for(
            lambda: self._followups(pending) if len(self._followups(pending)) >= count else None,
            timeout if timeout is not None else self.answer_timeout,
            f"{count} follow-up(s) to {pending.description}",
        )


def _command_path(command: str | Sequence[str]) -> tuple[str, ...]:
    parts = tuple(command.lstrip("/").split()) if isinstance(command, str) else tuple(command)
    if not parts or not all(isinstance(p, str) and p for p in parts):
        raise TypeError(f"not a command path: {command!r}")
    return parts


def _after_id(after: After) -> int:
    if after is None:
        return 0
    if isinstance(after, Message):
        return after.id
    if isinstance(after, InteractionResult):
        return after.interaction_id
    return int(after)
