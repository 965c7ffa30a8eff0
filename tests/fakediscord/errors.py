"""Errors of the fake Discord: those a test sees, and those the bot sees as HTTP responses."""

from __future__ import annotations

from typing import Any

__all__ = [
    "ActionRefused",
    "BotNotConnected",
    "DiscordHTTPError",
    "FakeDiscordError",
    "InteractionFailed",
]


class FakeDiscordError(Exception):
    """Base class of every error the fake raises into a test."""


class BotNotConnected(FakeDiscordError):
    """A user acted (slash command, button) but no bot session is connected to the gateway."""


class ActionRefused(FakeDiscordError):
    """Discord's own client would not let the user do this.

    Examples: the command is not registered, a required option is missing, a value is not one of
    the option's choices, the button is disabled or not on the message, the user lacks the
    command's ``default_member_permissions``.
    """


class InteractionFailed(FakeDiscordError):
    """The bot did not answer an interaction the way Discord requires.

    Raised when the bot sends no callback within the acknowledgement deadline (Discord then shows
    "The application did not respond"), or when it deferred but never sent a follow-up or edited
    the original response before the test's timeout.
    """


class DiscordHTTPError(Exception):
    """Raised inside a REST handler; becomes Discord's JSON error body and status for the bot.

    ``code`` is Discord's JSON error code (e.g. 10062 Unknown interaction, 50035 Invalid Form
    Body), ``errors`` the optional nested field errors of a 50035.
    """

    def __init__(
        self, status: int, code: int, message: str, *, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {message} (code {code})")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        """The JSON body Discord would send: ``{"message", "code"[, "errors"]}``."""
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body

    @classmethod
    def invalid_form(cls, field: str, message: str) -> DiscordHTTPError:
        """A 400 "Invalid Form Body" (code 50035) naming the offending field."""
        return cls(
            400,
            50035,
            f"Invalid Form Body: {field}: {message}",
            errors={field: {"_errors": [{"code": "BASE_TYPE_INVALID", "message": message}]}},
        )

    @classmethod
    def not_found(cls, what: str, code: int) -> DiscordHTTPError:
        """A 404 such as "Unknown Channel" (10003) or "Unknown Message" (10008)."""
        return cls(404, code, f"Unknown {what}")

    @classmethod
    def cannot_message_user(cls) -> DiscordHTTPError:
        """A 403 "Cannot send messages to this user" (50007): their DMs are closed."""
        return cls(403, 50007, "Cannot send messages to this user")

    @classmethod
    def missing_permissions(cls, needed: str) -> DiscordHTTPError:
        """A 403 "Missing Permissions" (50013), naming the permission the bot lacks."""
        return cls(403, 50013, f"Missing Permissions ({needed})")
