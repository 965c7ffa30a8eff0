"""The fake REST API (``/api/v10/...``): the routes discord.py calls for a slash-command bot.

Every request is logged at DEBUG. A request without a handler is answered 404 with Discord's
JSON error shape, logged at WARNING and recorded in ``DiscordState.unknown_routes``, so a missing
route shows up in the test output instead of as a hang. Errors a handler raises as
:class:`DiscordHTTPError` become Discord's JSON error bodies and are recorded in
``DiscordState.rejections``.

Authentication: routes under ``/webhooks/`` and ``/interactions/`` (interaction tokens), the
gateway and attachment downloads need none; all others need ``Authorization: Bot <token>`` with
the fake's :attr:`~DiscordState.bot_token`, else 401.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

import discord
from aiohttp import web

from .errors import DiscordHTTPError
from .gateway import Intents
from .interactions import (
    ALLOWED_CALLBACKS,
    CallbackType,
    Choice,
    InteractionKind,
    PendingInteraction,
)
from .messages import Message, MessageFlags, UploadedFile, read_body
from .models import Channel, ChannelType, Guild, User
from .ratelimits import Decision

if TYPE_CHECKING:
    from .state import DiscordState

__all__ = ["build_app"]

_log = logging.getLogger("fakediscord.rest")

API = "/api/v10"
_NO_AUTH_PREFIXES = (f"{API}/webhooks/", f"{API}/interactions/", f"{API}/gateway")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def json_response(data: Any, status: int = 200) -> web.Response:
    """A JSON response whose Content-Type is exactly ``application/json``.

    discord.py only decodes bodies whose header equals that string (no charset suffix).
    """
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def no_content() -> web.Response:
    """An empty 204 response."""
    return web.Response(status=204)


def build_app(state: DiscordState) -> web.Application:
    """The aiohttp application serving ``state``: REST, gateway, attachments, catch-all."""
    api = _RestApi(state)
    app = web.Application(middlewares=[api.middleware], client_max_size=64 * 1024 * 1024)
    api.add_routes(app.router)
    return app


class _RestApi:
    def __init__(self, state: DiscordState) -> None:
        self.state = state

    # ------------------------------------------------------------------ plumbing

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        state = self.state
        line = f"{request.method} {request.path}"
        needs_auth = request.path.startswith(f"{API}/") and not request.path.startswith(
            _NO_AUTH_PREFIXES
        )
        limit_headers: dict[str, str] = {}
        try:
            if needs_auth and request.headers.get("Authorization") != f"Bot {state.bot_token}":
                raise DiscordHTTPError(401, 0, "401: Unauthorized")
            if state.rate_limiter is not None:
                channel_id = request.match_info.get("channel_id")
                decision = state.rate_limiter.check(
                    request.method,
                    request.path,
                    int(channel_id) if channel_id and channel_id.isdigit() else None,
                )
                if decision.retry_after > 0:
                    return self._rate_limited(line, decision)
                limit_headers = decision.headers
            response = await handler(request)
        except DiscordHTTPError as exc:
            state.requests.append(f"{line} -> {exc.status}")
            state.rejections.append(f"{line} -> {exc.status} {exc.message}")
            _log.warning("fakediscord REST %s -> %s %s", line, exc.status, exc.message)
            state.notify()
            return json_response(exc.body(), exc.status)
        state.requests.append(f"{line} -> {response.status}")
        state.notify()
        _log.debug("fakediscord REST %s -> %s", line, response.status)
        if limit_headers:
            response.headers.update(limit_headers)
        return response

    def _rate_limited(self, line: str, decision: Decision) -> web.Response:
        """Discord's 429: JSON body with ``retry_after``, the headers discord.py reads."""
        state = self.state
        state.requests.append(f"{line} -> 429")
        state.rate_limited.append(f"{line} -> 429 {'global' if decision.is_global else 'route'}")
        _log.info("fakediscord REST %s -> 429 (retry after %.3fs)", line, decision.retry_after)
        body = {
            "message": "You are being rate limited.",
            "retry_after": round(decision.retry_after, 3),
            "global": decision.is_global,
        }
        headers = {
            "Content-Type": "application/json",
            "Retry-After": str(max(1, round(decision.retry_after))),
            "X-RateLimit-Scope": "global" if decision.is_global else "user",
            "Via": "1.1 google",
            **decision.headers,
        }
        return web.Response(body=json.dumps(body).encode(), status=429, headers=headers)

    async def unknown_route(self, request: web.Request) -> web.StreamResponse:
        line = f"{request.method} {request.path}"
        self.state.unknown_routes.append(line)
        _log.warning(
            "fakediscord: NO HANDLER for %s (answered 404) -- the fake lacks this route", line
        )
        return json_response({"message": "404: Not Found", "code": 0}, 404)

    def add_routes(self, router: web.UrlDispatcher) -> None:
        guild = f"{API}/guilds/{{guild_id}}"
        channel = f"{API}/channels/{{channel_id}}"
        message = f"{channel}/messages/{{message_id}}"
        webhook = f"{API}/webhooks/{{application_id}}/{{token}}"
        routes: list[tuple[str, str, Handler]] = [
            ("GET", "/", self.gateway_socket),
            ("GET", "/gateway", self.gateway_socket),
            ("GET", "/attachments/{channel_id}/{attachment_id}/{filename}", self.attachment),
            ("GET", f"{API}/gateway", self.get_gateway),
            ("GET", f"{API}/gateway/bot", self.get_gateway_bot),
            ("GET", f"{API}/users/@me", self.get_me),
            ("POST", f"{API}/users/@me/channels", self.create_dm),
            ("GET", f"{API}/users/{{user_id}}", self.get_user),
            ("GET", f"{API}/oauth2/applications/@me", self.get_application),
            ("GET", f"{API}/applications/@me", self.get_application),
            ("GET", guild, self.get_guild),
            ("GET", f"{guild}/channels", self.get_guild_channels),
            ("GET", f"{guild}/roles", self.get_guild_roles),
            ("GET", f"{guild}/members", self.list_members),
            ("GET", f"{guild}/members/{{user_id}}", self.get_member),
            ("GET", f"{guild}/threads/active", self.active_threads),
            ("GET", channel, self.get_channel),
            ("PATCH", channel, self.edit_channel),
            ("DELETE", channel, self.delete_channel),
            ("POST", f"{channel}/typing", self.typing),
            ("GET", f"{channel}/messages", self.history),
            ("POST", f"{channel}/messages", self.send_message),
            ("GET", message, self.get_message),
            ("PATCH", message, self.edit_message),
            ("DELETE", message, self.delete_message),
            ("POST", f"{message}/threads", self.thread_from_message),
            ("POST", f"{channel}/threads", self.thread_without_message),
            ("GET", f"{channel}/thread-members", self.thread_members),
            ("PUT", f"{channel}/thread-members/{{user_id}}", self.join_thread),
            ("DELETE", f"{channel}/thread-members/{{user_id}}", self.leave_thread),
            ("POST", f"{API}/interactions/{{interaction_id}}/{{token}}/callback", self.callback),
            ("POST", webhook, self.followup),
            ("GET", f"{webhook}/messages/{{message_id}}", self.get_webhook_message),
            ("PATCH", f"{webhook}/messages/{{message_id}}", self.edit_webhook_message),
            ("DELETE", f"{webhook}/messages/{{message_id}}", self.delete_webhook_message),
        ]
        for scope in ("", "/guilds/{guild_id}"):
            base = f"{API}/applications/{{application_id}}{scope}/commands"
            routes += [
                ("GET", base, self.list_commands),
                ("PUT", base, self.overwrite_commands),
                ("POST", base, self.create_command),
                ("GET", f"{base}/{{command_id}}", self.get_command),
                ("PATCH", f"{base}/{{command_id}}", self.edit_command),
                ("DELETE", f"{base}/{{command_id}}", self.delete_command),
            ]
        for method, path, handler in routes:
            router.add_route(method, path, handler)
        router.add_route("*", "/{tail:.*}", self.unknown_route)

    # ------------------------------------------------------------------ lookups

    def _channel(self, request: web.Request) -> Channel:
        channel = self.state.channels.get(_snowflake(request, "channel_id"))
        if channel is None or channel.deleted:
            raise DiscordHTTPError.not_found("Channel", 10003)
        return channel

    def _guild(self, request: web.Request) -> Guild:
        guild = self.state.guilds.get(_snowflake(request, "guild_id"))
        if guild is None:
            raise DiscordHTTPError.not_found("Guild", 10004)
        return guild

    def _message(self, channel: Channel, request: web.Request) -> Message:
        message_id = _snowflake(request, "message_id")
        message = self.state.messages.get(message_id)
        if message is None or message.deleted or message.channel_id != channel.id:
            raise DiscordHTTPError.not_found("Message", 10008)
        if message.visible_to is not None:
            # Ephemeral messages are reachable only through the interaction webhook.
            raise DiscordHTTPError.not_found("Message", 10008)
        return message

    def _require_bot_permission(self, channel: Channel, *names: str) -> None:
        """Raise 403 (50013) unless the bot has every named permission in ``channel``'s guild."""
        if channel.guild is None:
            return
        have = discord.Permissions(channel.guild.permissions_of(self.state.bot_user))
        for name in names:
            if not getattr(have, name):
                raise DiscordHTTPError.missing_permissions(name)

    def _check_scope(self, request: web.Request) -> int | None:
        if _snowflake(request, "application_id") != self.state.application_id:
            raise DiscordHTTPError(403, 50001, "Missing Access")
        if "guild_id" in request.match_info:
            return self._guild(request).id
        return None

    # ------------------------------------------------------------------ gateway, users, application

    async def gateway_socket(self, request: web.Request) -> web.StreamResponse:
        if request.headers.get("Upgrade", "").lower() != "websocket":
            return await self.unknown_route(request)
        return await self.state.gateway.handle(request)

    async def attachment(self, request: web.Request) -> web.StreamResponse:
        attachment = self.state.attachments.get(_snowflake(request, "attachment_id"))
        if attachment is None:
            raise DiscordHTTPError.not_found("Attachment", 10008)
        return web.Response(
            body=attachment.data, content_type=attachment.content_type or "application/octet-stream"
        )

    async def get_gateway(self, request: web.Request) -> web.StreamResponse:
        return json_response({"url": self.state.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.StreamResponse:
        if request.headers.get("Authorization") != f"Bot {self.state.bot_token}":
            raise DiscordHTTPError(401, 0, "401: Unauthorized")
        return json_response(
            {
                "url": self.state.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def get_me(self, request: web.Request) -> web.StreamResponse:
        payload = self.state.bot_user.to_payload()
        payload.update({"verified": True, "mfa_enabled": False, "locale": "en-US"})
        return json_response(payload)

    async def get_user(self, request: web.Request) -> web.StreamResponse:
        user = self.state.users.get(_snowflake(request, "user_id"))
        if user is None:
            raise DiscordHTTPError.not_found("User", 10013)
        return json_response(user.to_payload())

    async def create_dm(self, request: web.Request) -> web.StreamResponse:
        state = self.state
        body = (await read_body(request)).fields
        user = state.users.get(int(body.get("recipient_id", 0)))
        if user is None:
            raise DiscordHTTPError.not_found("User", 10013)
        channel = state.dm_channel(user)
        if channel is None:
            channel = Channel(
                id=state.snowflakes.next(),
                type=ChannelType.DM,
                name="",
                guild=None,
                recipients=[user],
            )
            state.add_channel(channel)
        return json_response(channel.to_payload())

    async def get_application(self, request: web.Request) -> web.StreamResponse:
        state = self.state
        return json_response(
            {
                "id": str(state.application_id),
                "name": state.bot_user.name,
                "icon": None,
                "description": "A bot running against fakediscord",
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": state.owner_user.to_payload(),
                "verify_key": "0" * 64,
                "team": None,
                "flags": 1 << 23,
                "bot": state.bot_user.to_payload(),
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "tags": [],
            }
        )

    # ------------------------------------------------------------------ guilds

    async def get_guild(self, request: web.Request) -> web.StreamResponse:
        guild = self._guild(request)
        payload = guild.to_payload()
        payload["approximate_member_count"] = len(guild.members)
        return json_response(payload)

    async def get_guild_channels(self, request: web.Request) -> web.StreamResponse:
        guild = self._guild(request)
        return json_response([c.to_payload() for c in guild.channels.values() if not c.is_thread])

    async def get_guild_roles(self, request: web.Request) -> web.StreamResponse:
        return json_response([r.to_payload() for r in self._guild(request).roles.values()])

    async def list_members(self, request: web.Request) -> web.StreamResponse:
        guild = self._guild(request)
        if not self.state.privileged_intents & Intents.GUILD_MEMBERS:
            raise DiscordHTTPError(
                403, 50001, "Missing Access (listing members needs GUILD_MEMBERS)"
            )
        limit = int(request.query.get("limit", "1"))
        after = int(request.query.get("after", "0"))
        members = sorted(
            (m for m in guild.members.values() if m.user.id > after), key=lambda m: m.user.id
        )
        return json_response([m.to_payload() for m in members[:limit]])

    async def get_member(self, request: web.Request) -> web.StreamResponse:
        guild = self._guild(request)
        member = guild.members.get(_snowflake(request, "user_id"))
        if member is None:
            raise DiscordHTTPError.not_found("Member", 10007)
        return json_response(member.to_payload())

    async def active_threads(self, request: web.Request) -> web.StreamResponse:
        guild = self._guild(request)
        threads = [c for c in guild.channels.values() if c.is_thread and not c.archived]
        return json_response({"threads": [t.to_payload() for t in threads], "members": []})

    # ------------------------------------------------------------------ channels and messages

    async def get_channel(self, request: web.Request) -> web.StreamResponse:
        return json_response(self._channel(request).to_payload())

    async def edit_channel(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        fields = (await read_body(request)).fields
        if channel.is_thread:
            is_owner = channel.owner_id == self.state.bot_user.id
            if ("locked" in fields or not is_owner) and channel.guild is not None:
                self._require_bot_permission(channel, "manage_threads")
            channel.archived = bool(fields.get("archived", channel.archived))
            channel.locked = bool(fields.get("locked", channel.locked))
            channel.auto_archive_duration = int(
                fields.get("auto_archive_duration", channel.auto_archive_duration)
            )
        else:
            self._require_bot_permission(channel, "manage_channels")
            channel.topic = fields.get("topic", channel.topic)
        channel.name = str(fields.get("name", channel.name))
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        self.state.dispatch(
            event, channel.to_payload(), guild_id=channel.guild_id, intent=Intents.GUILDS
        )
        self.state.notify()
        return json_response(channel.to_payload())

    async def delete_channel(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        self._require_bot_permission(
            channel, "manage_threads" if channel.is_thread else "manage_channels"
        )
        self.state.delete_channel(channel)
        return json_response(channel.to_payload())

    async def typing(self, request: web.Request) -> web.StreamResponse:
        self._channel(request)
        return no_content()

    async def history(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        self._require_bot_permission(channel, "view_channel", "read_message_history")
        limit = max(1, min(100, int(request.query.get("limit", "50"))))
        before = int(request.query.get("before", "0")) or None
        after = int(request.query.get("after", "0")) or None
        messages = self.state.visible_messages(channel)
        if before is not None:
            messages = [m for m in messages if m.id < before]
        if after is not None:
            messages = [m for m in messages if m.id > after][:limit]
        else:
            messages = messages[-limit:]
        messages.reverse()  # newest first, as Discord returns history
        return json_response([self.state.message_payload(m) for m in messages])

    async def send_message(self, request: web.Request) -> web.StreamResponse:
        state = self.state
        channel = self._channel(request)
        body = await read_body(request)
        if channel.is_thread:
            self._require_bot_permission(channel, "view_channel", "send_messages_in_threads")
            if channel.locked:
                self._require_bot_permission(channel, "manage_threads")
            channel.archived = False
        elif channel.type is ChannelType.DM:
            if any(user.dms_closed for user in channel.recipients):
                raise DiscordHTTPError.cannot_message_user()
        else:
            self._require_bot_permission(channel, "view_channel", "send_messages")
        if body.files:
            self._require_bot_permission(channel, "attach_files")
        if state.send_delay > 0:
            await asyncio.sleep(state.send_delay)
        flags = int(body.fields.get("flags") or 0) & MessageFlags.SETTABLE
        message = state.create_message(
            channel, state.bot_user, body.fields, body.files, flags=flags
        )
        return json_response(state.message_payload(message))

    async def get_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        self._require_bot_permission(channel, "view_channel", "read_message_history")
        return json_response(self.state.message_payload(self._message(channel, request)))

    async def edit_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        message = self._message(channel, request)
        body = await read_body(request)
        if message.author.id != self.state.bot_user.id:
            raise DiscordHTTPError(403, 50005, "Cannot edit a message authored by another user")
        if self.state.send_delay > 0:
            await asyncio.sleep(self.state.send_delay)
        edited = self.state.edit_message(message, body.fields, body.files)
        return json_response(self.state.message_payload(edited))

    async def delete_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        message = self._message(channel, request)
        if message.author.id != self.state.bot_user.id:
            self._require_bot_permission(channel, "manage_messages")
        self.state.delete_message(message)
        return no_content()

    async def thread_from_message(self, request: web.Request) -> web.StreamResponse:
        state = self.state
        channel = self._channel(request)
        message = self._message(channel, request)
        fields = (await read_body(request)).fields
        self._require_bot_permission(channel, "create_public_threads")
        if message.thread_id is not None:
            raise DiscordHTTPError(
                400, 160004, "A thread has already been created for this message"
            )
        thread = state.open_thread(
            channel,
            owner=state.bot_user,
            name=str(fields.get("name", "")),
            thread_id=message.id,  # Discord gives a message's thread the message's id.
            auto_archive_duration=int(fields.get("auto_archive_duration") or 1440),
        )
        updated = message.evolve(thread_id=thread.id, flags=message.flags | MessageFlags.HAS_THREAD)
        state.messages[message.id] = updated
        state.dispatch_message("MESSAGE_UPDATE", updated, channel)
        return json_response(thread.to_payload())

    async def thread_without_message(self, request: web.Request) -> web.StreamResponse:
        state = self.state
        channel = self._channel(request)
        fields = (await read_body(request)).fields
        private = (
            int(fields.get("type") or ChannelType.PRIVATE_THREAD) == ChannelType.PRIVATE_THREAD
        )
        self._require_bot_permission(
            channel, "create_private_threads" if private else "create_public_threads"
        )
        thread = state.open_thread(
            channel,
            owner=state.bot_user,
            name=str(fields.get("name", "")),
            thread_id=state.snowflakes.next(),
            auto_archive_duration=int(fields.get("auto_archive_duration") or 1440),
            private=private,
        )
        return json_response(thread.to_payload())

    async def thread_members(self, request: web.Request) -> web.StreamResponse:
        thread = self._channel(request)
        return json_response(
            [
                {
                    "id": str(thread.id),
                    "user_id": str(uid),
                    "join_timestamp": thread.created_at,
                    "flags": 0,
                }
                for uid in sorted(thread.thread_member_ids)
            ]
        )

    async def join_thread(self, request: web.Request) -> web.StreamResponse:
        thread = self._thread_and_user(request)
        thread[0].thread_member_ids.add(thread[1].id)
        self.state.notify()
        return no_content()

    async def leave_thread(self, request: web.Request) -> web.StreamResponse:
        thread = self._thread_and_user(request)
        thread[0].thread_member_ids.discard(thread[1].id)
        self.state.notify()
        return no_content()

    def _thread_and_user(self, request: web.Request) -> tuple[Channel, User]:
        thread = self._channel(request)
        if not thread.is_thread:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        raw = request.match_info["user_id"]
        user = self.state.bot_user if raw == "@me" else self.state.users.get(int(raw))
        if user is None:
            raise DiscordHTTPError.not_found("User", 10013)
        return thread, user

    # ------------------------------------------------------------------ application commands

    async def list_commands(self, request: web.Request) -> web.StreamResponse:
        scope = self._check_scope(request)
        return json_response([c.to_payload() for c in self.state.commands.in_scope(scope)])

    async def overwrite_commands(self, request: web.Request) -> web.StreamResponse:
        scope = self._check_scope(request)
        text = await request.text()
        payloads = json.loads(text) if text else []
        commands = self.state.commands.overwrite(scope, payloads)
        _log.info(
            "fakediscord: bot synced %d command(s) to %s: %s",
            len(commands),
            scope or "global",
            [c.name for c in commands],
        )
        self.state.notify()
        return json_response([c.to_payload() for c in commands])

    async def create_command(self, request: web.Request) -> web.StreamResponse:
        scope = self._check_scope(request)
        command = self.state.commands.upsert(scope, (await read_body(request)).fields)
        self.state.notify()
        return json_response(command.to_payload(), 201)

    async def get_command(self, request: web.Request) -> web.StreamResponse:
        scope = self._check_scope(request)
        command = self.state.commands.get(scope, _snowflake(request, "command_id"))
        if command is None:
            raise DiscordHTTPError.not_found("application command", 10063)
        return json_response(command.to_payload())

    async def edit_command(self, request: web.Request) -> web.StreamResponse:
        scope = self._check_scope(request)
        fields = (await read_body(request)).fields
        command = self.state.commands.edit(scope, _snowflake(request, "command_id"), fields)
        self.state.notify()
        return json_response(command.to_payload())

    async def delete_command(self, request: web.Request) -> web.StreamResponse:
        scope = self._check_scope(request)
        self.state.commands.delete(scope, _snowflake(request, "command_id"))
        self.state.notify()
        return no_content()

    # ------------------------------------------------------------------ interactions

    def _pending_by_id(self, request: web.Request) -> PendingInteraction:
        pending = self.state.interactions.get(_snowflake(request, "interaction_id"))
        if pending is None or pending.token != request.match_info["token"]:
            raise DiscordHTTPError.not_found("interaction", 10062)
        return pending

    def _pending_by_token(self, request: web.Request) -> PendingInteraction:
        pending = self.state.interactions_by_token.get(request.match_info["token"])
        if pending is None or _snowflake(request, "application_id") != self.state.application_id:
            raise DiscordHTTPError.not_found("Webhook", 10015)
        if pending.callback is None:
            # Discord creates the interaction webhook only once the interaction is answered.
            raise DiscordHTTPError.not_found("Webhook", 10015)
        return pending

    async def callback(self, request: web.Request) -> web.StreamResponse:
        state = self.state
        pending = self._pending_by_id(request)
        body = await read_body(request)
        # No await below this line until the callback is recorded: two callbacks cannot race.
        if pending.callback is not None:
            raise DiscordHTTPError(400, 40060, "Interaction has already been acknowledged.")
        if asyncio.get_running_loop().time() > pending.deadline:
            raise DiscordHTTPError(
                404,
                10062,
                f"Unknown interaction (the callback came after the {state.ack_timeout:g}s "
                "deadline)",
            )
        try:
            callback = CallbackType(int(body.fields.get("type", 0)))
        except ValueError:
            raise DiscordHTTPError.invalid_form(
                "type", f"invalid callback type {body.fields.get('type')!r}"
            ) from None
        if callback not in ALLOWED_CALLBACKS[pending.kind]:
            raise DiscordHTTPError(
                400,
                50035,
                f"Interaction response type {callback.name} is not valid for a "
                f"{pending.kind.name} interaction",
            )
        data = body.fields.get("data") or {}
        message: Message | None = None
        if callback is CallbackType.CHANNEL_MESSAGE:
            message = self._respond_with_message(pending, data, body.files, loading=False)
            pending.original_message_id = message.id
            pending.answer_with(message.id)
        elif callback is CallbackType.DEFERRED_CHANNEL_MESSAGE:
            message = self._respond_with_message(pending, data, {}, loading=True)
            pending.original_message_id = message.id
        elif callback is CallbackType.DEFERRED_UPDATE_MESSAGE:
            pending.original_message_id = pending.source_message_id
        elif callback is CallbackType.UPDATE_MESSAGE:
            assert pending.source_message_id is not None
            source = state.messages[pending.source_message_id]
            message = state.edit_message(source, data, body.files)
            pending.original_message_id = source.id
            pending.answer_with(source.id, updated=True)
        elif callback is CallbackType.AUTOCOMPLETE_RESULT:
            pending.choices = _parse_choices(data)
            pending.answer_with(None)
        elif callback is CallbackType.MODAL:
            pending.modal = dict(data)
            pending.answer_with(None)
        pending.callback = callback
        pending.acknowledged.set()
        state.notify()
        _log.info("fakediscord: %s -> callback %s", pending.description, callback.name)
        response: dict[str, Any] = {
            "interaction": {
                "id": str(pending.id),
                "type": int(pending.kind),
                "response_message_loading": callback is CallbackType.DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(message is not None and message.ephemeral),
            }
        }
        if message is not None:
            response["interaction"]["response_message_id"] = str(message.id)
            response["resource"] = {
                "type": int(callback),
                "message": state.message_payload(message),
            }
        else:
            response["resource"] = {"type": int(callback)}
        return json_response(response)

    def _respond_with_message(
        self,
        pending: PendingInteraction,
        data: dict[str, Any],
        files: Mapping[int, UploadedFile],
        *,
        loading: bool,
    ) -> Message:
        """The message a callback 4 creates, or the "thinking" placeholder of a callback 5."""
        state = self.state
        flags = int(data.get("flags") or 0)
        flags &= MessageFlags.SETTABLE | MessageFlags.EPHEMERAL
        if loading:
            flags |= MessageFlags.LOADING
            data = {}
        # Discord types responses to slash commands CHAT_INPUT_COMMAND (20), others DEFAULT (0).
        message_type = 20 if pending.kind is InteractionKind.APPLICATION_COMMAND else 0
        return state.create_message(
            pending.channel,
            state.bot_user,
            data,
            files,
            message_type=message_type,
            flags=flags,
            pending=pending,
            allow_empty=loading,
        )

    async def followup(self, request: web.Request) -> web.StreamResponse:
        state = self.state
        pending = self._pending_by_token(request)
        body = await read_body(request)
        original = state.messages.get(pending.original_message_id or 0)
        if (
            pending.callback is CallbackType.DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # Discord: the first follow-up after a "thinking" defer replaces the loading message;
            # its visibility stays what the defer chose.
            message = state.edit_message(original, body.fields, body.files, clear_loading=True)
            pending.answer_with(message.id)
        else:
            flags = int(body.fields.get("flags") or 0) & (
                MessageFlags.SETTABLE | MessageFlags.EPHEMERAL
            )
            message = state.create_message(
                pending.channel,
                state.bot_user,
                body.fields,
                body.files,
                flags=flags,
                pending=pending,
            )
            pending.followup_ids.append(message.id)
            pending.answer_with(message.id)
        state.notify()
        _log.info("fakediscord: follow-up to %s: %r", pending.description, message.content[:80])
        if request.query.get("wait", "").lower() in ("1", "true"):
            return json_response(state.message_payload(message))
        return no_content()

    def _webhook_message(self, pending: PendingInteraction, request: web.Request) -> Message:
        raw = request.match_info["message_id"]
        message_id = pending.original_message_id if raw == "@original" else int(raw)
        allowed = {pending.original_message_id, *pending.followup_ids}
        message = self.state.messages.get(message_id or 0)
        if message is None or message.deleted or message_id not in allowed:
            raise DiscordHTTPError.not_found("Message", 10008)
        return message

    async def get_webhook_message(self, request: web.Request) -> web.StreamResponse:
        pending = self._pending_by_token(request)
        return json_response(self.state.message_payload(self._webhook_message(pending, request)))

    async def edit_webhook_message(self, request: web.Request) -> web.StreamResponse:
        pending = self._pending_by_token(request)
        message = self._webhook_message(pending, request)
        body = await read_body(request)
        edited = self.state.edit_message(message, body.fields, body.files, clear_loading=True)
        if message.id == pending.original_message_id:
            pending.answer_with(
                edited.id, updated=pending.callback is CallbackType.DEFERRED_UPDATE_MESSAGE
            )
        return json_response(self.state.message_payload(edited))

    async def delete_webhook_message(self, request: web.Request) -> web.StreamResponse:
        pending = self._pending_by_token(request)
        self.state.delete_message(self._webhook_message(pending, request))
        return no_content()


def _snowflake(request: web.Request, name: str) -> int:
    raw = request.match_info[name]
    if not raw.isdigit():
        raise DiscordHTTPError.invalid_form(name, f"value {raw!r} is not snowflake")
    return int(raw)


def _parse_choices(data: dict[str, Any]) -> list[Choice]:
    raw = data.get("choices") or []
    if len(raw) > 25:
        raise DiscordHTTPError.invalid_form("data.choices", "must be 25 or fewer in length")
    choices = []
    for index, entry in enumerate(raw):
        name = entry.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise DiscordHTTPError.invalid_form(
                f"data.choices.{index}.name", "must be 1 to 100 characters"
            )
        value = entry.get("value")
        if isinstance(value, str) and len(value) > 100:
            raise DiscordHTTPError.invalid_form(
                f"data.choices.{index}.value", "must be 100 or fewer in length"
            )
        choices.append(Choice(name=name, value=value))
    return choices
