"""Messages and attachments as the fake records them, and the rules that turn a bot's request
body into one.

A :class:`Message` is an immutable snapshot: an edit stores a new snapshot under the same id, so
what a test holds is exactly what users saw at that moment. Message bodies arrive as JSON or as
``multipart/form-data`` (``payload_json`` plus ``files[n]`` parts), the way discord.py uploads
files; :func:`read_body` accepts both.
"""

from __future__ import annotations

import dataclasses
import json
import re
import struct
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

from .errors import DiscordHTTPError
from .models import User

__all__ = [
    "Attachment",
    "Message",
    "MessageFlags",
    "RequestBody",
    "UploadedFile",
    "build_attachments",
    "iter_components",
    "png_size",
    "read_body",
    "resolve_mentions",
    "validate_message_fields",
]

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_CUSTOM_ID = 100
MAX_LABEL = 80

_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")
_INTERACTIVE_TYPES = {2, 3, 5, 6, 7, 8}
"""Component types a user can act on: button, and the five kinds of select menu."""


class MessageFlags:
    """Message flag bits used by the fake (see Discord's "Message Flags")."""

    SUPPRESS_EMBEDS = 1 << 2
    HAS_THREAD = 1 << 5
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    SUPPRESS_NOTIFICATIONS = 1 << 12
    COMPONENTS_V2 = 1 << 15

    SETTABLE = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | COMPONENTS_V2
    """Flags a bot may set on a channel message."""


@dataclass(frozen=True)
class Attachment:
    """A file attached to a message; ``data`` holds the uploaded bytes."""

    id: int
    filename: str
    data: bytes = field(repr=False)
    url: str
    content_type: str | None = None
    description: str | None = None
    width: int | None = None
    height: int | None = None

    @property
    def size(self) -> int:
        """Size in bytes."""
        return len(self.data)

    def to_payload(self) -> dict[str, object]:
        """The attachment object of API v10 (``url`` serves the bytes from the fake)."""
        payload: dict[str, object] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "flags": 0,
        }
        if self.description is not None:
            payload["description"] = self.description
        if self.width is not None:
            payload["width"] = self.width
            payload["height"] = self.height
        return payload


@dataclass(frozen=True)
class Message:
    """One version of a message as users see it.

    ``visible_to`` is the id of the only user who sees an ephemeral message. ``mentions`` are the
    users actually pinged, i.e. those mentioned in ``content`` *and* permitted by
    ``allowed_mentions`` (None when the bot sent no ``allowed_mentions``: Discord then pings
    everyone mentioned).
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    timestamp: str
    content: str = ""
    embeds: tuple[dict[str, Any], ...] = ()
    components: tuple[dict[str, Any], ...] = ()
    attachments: tuple[Attachment, ...] = ()
    flags: int = 0
    type: int = 0
    allowed_mentions: dict[str, Any] | None = None
    mentions: tuple[User, ...] = ()
    mention_roles: tuple[int, ...] = ()
    mention_everyone: bool = False
    tts: bool = False
    edited_timestamp: str | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    interaction_id: int | None = None
    visible_to: int | None = None
    thread_id: int | None = None
    deleted: bool = False

    @property
    def ephemeral(self) -> bool:
        """Whether only the interaction's user sees this message (flag 64)."""
        return bool(self.flags & MessageFlags.EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether this is a deferred response still showing "Bot is thinking..." (flag 128)."""
        return bool(self.flags & MessageFlags.LOADING)

    @property
    def edited(self) -> bool:
        """Whether the message was edited after it was posted."""
        return self.edited_timestamp is not None

    @property
    def files(self) -> list[tuple[str, bytes]]:
        """The attachments as ``(filename, bytes)`` pairs, in order."""
        return [(attachment.filename, attachment.data) for attachment in self.attachments]

    @property
    def mentioned_ids(self) -> list[int]:
        """Ids of the users this message pinged."""
        return [user.id for user in self.mentions]

    def interactive_components(self) -> list[dict[str, Any]]:
        """Buttons and select menus on this message, in display order, as sent by the bot."""
        return [c for c in iter_components(self.components) if c.get("type") in _INTERACTIVE_TYPES]

    @property
    def custom_ids(self) -> list[str]:
        """The ``custom_id`` of every button and select menu, in display order."""
        return [str(c["custom_id"]) for c in self.interactive_components() if "custom_id" in c]

    def component(
        self, custom_id: str | None = None, *, label: str | None = None
    ) -> dict[str, Any]:
        """The button or select with this ``custom_id`` (or this button ``label``).

        Raises ``LookupError`` naming what the message does have when nothing matches.
        """
        for candidate in self.interactive_components():
            if custom_id is not None and candidate.get("custom_id") == custom_id:
                return candidate
            if label is not None and candidate.get("label") == label:
                return candidate
        wanted = f"custom_id {custom_id!r}" if custom_id is not None else f"label {label!r}"
        present = [(c.get("label"), c.get("custom_id")) for c in self.interactive_components()]
        raise LookupError(f"message {self.id} has no component with {wanted}; it has {present}")

    def evolve(self, **changes: Any) -> Message:
        """A copy with ``changes`` applied (how edits produce the next version)."""
        return dataclasses.replace(self, **changes)

    def to_payload(self, *, thread: Mapping[str, object] | None = None) -> dict[str, object]:
        """The message object of API v10; ``thread`` is the thread started from it, if any."""
        payload: dict[str, object] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.to_payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": self.tts,
            "mention_everyone": self.mention_everyone,
            "mentions": [user.to_payload() for user in self.mentions],
            "mention_roles": [str(role_id) for role_id in self.mention_roles],
            "attachments": [attachment.to_payload() for attachment in self.attachments],
            "embeds": list(self.embeds),
            "components": list(self.components),
            "reactions": [],
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            payload["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            payload["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            payload["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            payload["interaction_metadata"] = self.interaction_metadata
        if thread is not None:
            payload["thread"] = dict(thread)
        return payload


def iter_components(components: Sequence[Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component in ``components``, depth first (rows, containers, sections' accessories)."""
    for component in components:
        yield dict(component)
        children = component.get("components")
        if isinstance(children, list):
            yield from iter_components(children)
        accessory = component.get("accessory")
        if isinstance(accessory, Mapping):
            yield from iter_components([accessory])


@dataclass(frozen=True)
class UploadedFile:
    """One ``files[n]`` part of a multipart request."""

    filename: str
    data: bytes = field(repr=False)
    content_type: str | None


@dataclass
class RequestBody:
    """A REST request body: the JSON fields and the uploaded files by index."""

    fields: dict[str, Any]
    files: dict[int, UploadedFile]


_FILE_PART = re.compile(r"files\[(\d+)\]")


async def read_body(request: web.Request) -> RequestBody:
    """Parse a JSON or ``multipart/form-data`` body (``payload_json`` + ``files[n]``).

    Raises :class:`DiscordHTTPError` 400 (code 50109, "The request body contains invalid JSON")
    for unparsable JSON.
    """
    if request.content_type.startswith("multipart/"):
        fields: dict[str, Any] = {}
        files: dict[int, UploadedFile] = {}
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue
            name = part.name or ""
            match = _FILE_PART.fullmatch(name)
            if match is not None:
                data = bytes(await part.read(decode=False))
                content_type = part.headers.get("Content-Type")
                files[int(match.group(1))] = UploadedFile(part.filename or name, data, content_type)
            elif name == "payload_json":
                fields = _parse_json(await part.text())
        return RequestBody(fields, files)
    text = await request.text()
    return RequestBody(_parse_json(text) if text.strip() else {}, {})


def _parse_json(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DiscordHTTPError(400, 50109, "The request body contains invalid JSON.") from exc
    if not isinstance(value, dict):
        raise DiscordHTTPError(400, 50109, "The request body contains invalid JSON.")
    return value


def png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG image from its IHDR chunk, or None if ``data`` is not a PNG."""
    if len(data) >= 24 and data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    return None


def build_attachments(
    fields: Mapping[str, Any],
    files: Mapping[int, UploadedFile],
    *,
    existing: Sequence[Attachment],
    new_id: Callable[[], int],
    url_for: Callable[[int, str], str],
) -> tuple[Attachment, ...]:
    """The attachment list after a create or edit request.

    With an ``attachments`` field, the result is exactly that list: entries naming an existing
    attachment id keep it, entries whose id is a file index take ``files[index]`` (with the
    entry's ``filename``/``description``). Without it, uploaded files are added after
    ``existing``. Uploaded files the list does not mention are added at the end, as Discord does.
    """
    by_id = {attachment.id: attachment for attachment in existing}
    used: set[int] = set()
    result: list[Attachment] = []

    def upload(index: int, filename: str | None, description: str | None) -> Attachment:
        uploaded = files[index]
        used.add(index)
        name = filename or uploaded.filename
        attachment_id = new_id()
        size = png_size(uploaded.data)
        return Attachment(
            id=attachment_id,
            filename=name,
            data=uploaded.data,
            url=url_for(attachment_id, name),
            content_type="image/png" if size is not None else uploaded.content_type,
            description=description,
            width=size[0] if size else None,
            height=size[1] if size else None,
        )

    listed = fields.get("attachments")
    if listed is None:
        result.extend(existing)
    else:
        if not isinstance(listed, list):
            raise DiscordHTTPError.invalid_form("attachments", "must be a list")
        for entry in listed:
            entry_id = int(entry.get("id", -1))
            if entry_id in by_id:
                result.append(by_id[entry_id])
            elif entry_id in files:
                result.append(upload(entry_id, entry.get("filename"), entry.get("description")))
            else:
                raise DiscordHTTPError.invalid_form(
                    "attachments", f"unknown attachment id or file index {entry_id}"
                )
    for index in sorted(files):
        if index not in used:
            result.append(upload(index, None, None))
    return tuple(result)


def validate_message_fields(fields: Mapping[str, Any]) -> None:
    """Refuse what Discord refuses: over-long content, too many embeds, malformed components.

    Raises :class:`DiscordHTTPError` 400 (50035 Invalid Form Body) naming the field.
    """
    content = fields.get("content")
    if content is not None:
        if not isinstance(content, str):
            raise DiscordHTTPError.invalid_form("content", "must be a string")
        if len(content) > MAX_CONTENT:
            raise DiscordHTTPError.invalid_form(
                "content", f"must be {MAX_CONTENT} or fewer in length (got {len(content)})"
            )
    embeds = fields.get("embeds")
    if embeds is not None and len(embeds) > MAX_EMBEDS:
        raise DiscordHTTPError.invalid_form("embeds", f"must be {MAX_EMBEDS} or fewer")
    components = fields.get("components")
    if components:
        components_v2 = bool(int(fields.get("flags") or 0) & MessageFlags.COMPONENTS_V2)
        _validate_components(components, components_v2=components_v2)


def _validate_components(components: Sequence[Mapping[str, Any]], *, components_v2: bool) -> None:
    if not components_v2:
        if len(components) > MAX_ROWS:
            raise DiscordHTTPError.invalid_form("components", f"must be {MAX_ROWS} or fewer rows")
        for index, row in enumerate(components):
            if row.get("type") != 1:
                raise DiscordHTTPError.invalid_form(
                    f"components.{index}.type", "top-level components must be action rows (1)"
                )
            children = row.get("components") or []
            buttons = [c for c in children if c.get("type") == 2]
            if not children or len(buttons) > MAX_ROW_BUTTONS:
                raise DiscordHTTPError.invalid_form(
                    f"components.{index}.components", "an action row holds 1 to 5 buttons"
                )
            if len(buttons) != len(children) and len(children) != 1:
                raise DiscordHTTPError.invalid_form(
                    f"components.{index}.components", "a select menu must be alone in its row"
                )
    seen: set[str] = set()
    for component in iter_components(components):
        if component.get("type") not in _INTERACTIVE_TYPES:
            continue
        label = component.get("label")
        if isinstance(label, str) and len(label) > MAX_LABEL:
            raise DiscordHTTPError.invalid_form("components.label", f"longer than {MAX_LABEL}")
        is_link = component.get("type") == 2 and component.get("style") in (5, 6)
        custom_id = component.get("custom_id")
        if is_link:
            continue
        if not isinstance(custom_id, str) or not custom_id:
            raise DiscordHTTPError.invalid_form("components.custom_id", "this field is required")
        if len(custom_id) > MAX_CUSTOM_ID:
            raise DiscordHTTPError.invalid_form(
                "components.custom_id",
                f"must be {MAX_CUSTOM_ID} or fewer in length (got {len(custom_id)}: {custom_id!r})",
            )
        if custom_id in seen:
            raise DiscordHTTPError.invalid_form(
                "components.custom_id", f"component custom id {custom_id!r} is duplicated"
            )
        seen.add(custom_id)


def resolve_mentions(
    content: str,
    allowed_mentions: Mapping[str, Any] | None,
    *,
    lookup_user: Callable[[int], User | None],
) -> tuple[tuple[User, ...], tuple[int, ...], bool]:
    """Who ``content`` pings under ``allowed_mentions``: ``(users, role ids, @everyone?)``.

    Follows Discord's "Allowed Mentions" rules: without the object every mention pings; with it,
    a user pings only if ``"users"`` is in ``parse`` or their id is in ``users`` (likewise for
    roles); ``@everyone``/``@here`` need ``"everyone"`` in ``parse``. Raises
    :class:`DiscordHTTPError` 400 when ``parse`` and an explicit list name the same kind, which
    Discord rejects.
    """
    parse: set[str] = {"users", "roles", "everyone"}
    allowed_users: set[int] = set()
    allowed_roles: set[int] = set()
    if allowed_mentions is not None:
        parse = set(allowed_mentions.get("parse") or [])
        allowed_users = {int(x) for x in allowed_mentions.get("users") or []}
        allowed_roles = {int(x) for x in allowed_mentions.get("roles") or []}
        for kind, explicit in (("users", allowed_users), ("roles", allowed_roles)):
            if kind in parse and explicit:
                raise DiscordHTTPError.invalid_form(
                    "allowed_mentions", f"parse:[{kind!r}] and {kind}: [ids] are mutually exclusive"
                )
    users: list[User] = []
    for match in _USER_MENTION.finditer(content):
        user_id = int(match.group(1))
        if "users" in parse or user_id in allowed_users:
            user = lookup_user(user_id)
            if user is not None and user not in users:
                users.append(user)
    roles: list[int] = []
    for match in _ROLE_MENTION.finditer(content):
        role_id = int(match.group(1))
        if ("roles" in parse or role_id in allowed_roles) and role_id not in roles:
            roles.append(role_id)
    everyone = "everyone" in parse and ("@everyone" in content or "@here" in content)
    return tuple(users), tuple(roles), everyone
