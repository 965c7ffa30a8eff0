"""Interactions in flight and the results a test receives.

Discord's flow, which the fake enforces: a user acts, the bot receives INTERACTION_CREATE and
must answer the callback (``POST /interactions/{id}/{token}/callback``) within the
acknowledgement deadline (3 s), exactly once. Then it may send follow-ups
(``POST /webhooks/{application_id}/{token}``) and edit the original response
(``PATCH /webhooks/{application_id}/{token}/messages/@original``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from .messages import Message
from .models import Channel, Guild, User

__all__ = [
    "CallbackType",
    "Choice",
    "InteractionKind",
    "InteractionResult",
    "PendingInteraction",
]


class InteractionKind(IntEnum):
    """Interaction types of API v10 that users can cause."""

    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class CallbackType(IntEnum):
    """Interaction callback (response) types of API v10."""

    PONG = 1
    CHANNEL_MESSAGE = 4
    DEFERRED_CHANNEL_MESSAGE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9


ALLOWED_CALLBACKS: dict[InteractionKind, frozenset[CallbackType]] = {
    InteractionKind.APPLICATION_COMMAND: frozenset(
        {CallbackType.CHANNEL_MESSAGE, CallbackType.DEFERRED_CHANNEL_MESSAGE, CallbackType.MODAL}
    ),
    InteractionKind.MESSAGE_COMPONENT: frozenset(
        {
            CallbackType.CHANNEL_MESSAGE,
            CallbackType.DEFERRED_CHANNEL_MESSAGE,
            CallbackType.DEFERRED_UPDATE_MESSAGE,
            CallbackType.UPDATE_MESSAGE,
            CallbackType.MODAL,
        }
    ),
    InteractionKind.AUTOCOMPLETE: frozenset({CallbackType.AUTOCOMPLETE_RESULT}),
    InteractionKind.MODAL_SUBMIT: frozenset(
        {
            CallbackType.CHANNEL_MESSAGE,
            CallbackType.DEFERRED_CHANNEL_MESSAGE,
            CallbackType.DEFERRED_UPDATE_MESSAGE,
            CallbackType.UPDATE_MESSAGE,
        }
    ),
}
"""Which callbacks Discord accepts for which interaction (others get 400)."""


@dataclass(frozen=True)
class Choice:
    """One autocomplete suggestion: what the user sees (``name``) and what is sent (``value``)."""

    name: str
    value: str | int | float


@dataclass(eq=False)
class PendingInteraction:
    """An interaction the fake sent to the bot, and everything the bot did about it."""

    id: int
    token: str
    kind: InteractionKind
    user: User
    channel: Channel
    guild: Guild | None
    description: str
    deadline: float
    """Event-loop time by which the callback must arrive."""
    source_message_id: int | None = None
    callback: CallbackType | None = None
    original_message_id: int | None = None
    """The response message (callbacks 4 and 5) or the component's message (6 and 7)."""
    followup_ids: list[int] = field(default_factory=list)
    answer_message_id: int | None = None
    updated_message: bool = False
    choices: list[Choice] | None = None
    modal: dict[str, Any] | None = None
    acknowledged: asyncio.Event = field(default_factory=asyncio.Event)
    answered: asyncio.Event = field(default_factory=asyncio.Event)

    def answer_with(self, message_id: int | None, *, updated: bool = False) -> None:
        """Record the message that finally answers the user, if none did before."""
        if not self.answered.is_set():
            self.answer_message_id = message_id
            self.updated_message = updated
            self.answered.set()


class InteractionResult:
    """What the user saw in answer to a slash command, button press or select.

    ``message`` is the answer: the response message, the first follow-up after a defer, or
    (``updated`` is True) the message the bot edited in place, as it looked when the answer
    arrived. The shortcuts ``content``, ``files``, ``embeds``, ``components`` and ``ephemeral``
    read from it. ``followups`` lists every follow-up message sent so far, live.
    """

    def __init__(
        self,
        *,
        interaction_id: int,
        response_type: CallbackType,
        message: Message | None,
        updated: bool,
        modal: dict[str, Any] | None,
        followups: Callable[[], list[Message]],
        wait_followups: Callable[[int, float | None], Any],
    ) -> None:
        self.interaction_id = interaction_id
        self.response_type = response_type
        self.message = message
        self.updated = updated
        self.modal = modal
        self._followups = followups
        self._wait_followups = wait_followups

    @property
    def deferred(self) -> bool:
        """Whether the bot first deferred (callback 5 or 6) and answered later."""
        return self.response_type in (
            CallbackType.DEFERRED_CHANNEL_MESSAGE,
            CallbackType.DEFERRED_UPDATE_MESSAGE,
        )

    @property
    def ephemeral(self) -> bool:
        """Whether the answer is visible to the acting user only."""
        return self.message is not None and self.message.ephemeral

    @property
    def content(self) -> str:
        """The answer's text ("" when there is none)."""
        return self.message.content if self.message is not None else ""

    @property
    def files(self) -> list[tuple[str, bytes]]:
        """The answer's attachments as ``(filename, bytes)``."""
        return self.message.files if self.message is not None else []

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """The answer's embeds as Discord embed objects."""
        return list(self.message.embeds) if self.message is not None else []

    @property
    def components(self) -> list[dict[str, Any]]:
        """The answer's top-level components (action rows) as sent by the bot."""
        return list(self.message.components) if self.message is not None else []

    @property
    def custom_ids(self) -> list[str]:
        """Custom ids of the answer's buttons and selects."""
        return self.message.custom_ids if self.message is not None else []

    @property
    def followups(self) -> list[Message]:
        """Follow-up messages sent so far (current versions), oldest first."""
        return self._followups()

    async def wait_followups(
        self,
        count: int,
        timeout: float | None = None,  # noqa: ASYNC109 - a default keeps tests from hanging
    ) -> list[Message]:
        """Wait until at least ``count`` follow-ups exist; returns them all.

        Raises ``TimeoutError`` after ``timeout`` seconds (default: the fake's answer timeout).
        """
        result: list[Message] = await self._wait_followups(count, timeout)
        return result

    def __repr__(self) -> str:
        shown = f"{self.content[:60]!r}" if self.message is not None else "no message"
        flags = " ephemeral" if self.ephemeral else ""
        return (
            f"<InteractionResult {self.response_type.name}{flags} {shown} files={len(self.files)}>"
        )
