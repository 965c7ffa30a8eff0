"""Discord's REST rate limits, modelled for load tests (``FakeDiscord(rate_limits=True)``).

What Discord documents (developers: "Rate Limits") and this module enforces:

- **Global**: 50 requests per second per bot token, over every authenticated route.
  Interaction endpoints (``POST /interactions/{id}/{token}/callback``) and the interaction
  webhook (``/webhooks/{application}/{token}...``: follow-ups, ``@original`` edits) are exempt,
  as Discord says of interaction responses.
- **Per route and major parameter** (channel): sending messages to one channel is limited to
  5 per 5 seconds (``POST /channels/{id}/messages``); editing and deleting messages in one
  channel have their own 5 per 5 seconds buckets (``PATCH``/``DELETE
  /channels/{id}/messages/{mid}``).

Windows are fixed, like Discord's buckets: the first request opens a window that resets
``per`` seconds later. Every answer on a limited route carries Discord's headers
(``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``, ``-Reset-After``, ``-Bucket``), so
discord.py waits pre-emptively when a bucket is spent, as it does against Discord. A request
over a limit gets ``429 {"message": "You are being rate limited.", "retry_after": s, "global":
bool}`` with ``Retry-After`` and ``X-RateLimit-Scope`` headers and a ``Via`` header
(discord.py treats a 429 without ``Via`` as a Cloudflare ban and gives up); discord.py then
sleeps ``retry_after`` and retries. Each 429 is recorded in ``FakeDiscord.rate_limited``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

__all__ = [
    "CHANNEL_LIMIT",
    "GLOBAL_LIMIT",
    "Decision",
    "RateLimiter",
    "Window",
]


@dataclass(frozen=True, slots=True)
class Limit:
    """``count`` requests per ``per`` seconds."""

    count: int
    per: float


#: Requests per second per bot over every non-interaction route.
GLOBAL_LIMIT: Final = Limit(50, 1.0)
#: Messages sent (or edited, or deleted) per channel.
CHANNEL_LIMIT: Final = Limit(5, 5.0)

_EXEMPT_PREFIXES: Final = ("/api/v10/interactions/", "/api/v10/webhooks/")


@dataclass(slots=True)
class Window:
    """A fixed window: ``used`` requests since ``opened`` (monotonic seconds)."""

    limit: Limit
    opened: float = -math.inf
    used: int = 0

    def reset_at(self) -> float:
        return self.opened + self.limit.per

    def take(self, now: float) -> float:
        """Count one request at ``now``; 0 if allowed, else the seconds until the reset."""
        if now >= self.reset_at():
            self.opened, self.used = now, 0
        if self.used >= self.limit.count:
            return self.reset_at() - now
        self.used += 1
        return 0.0


@dataclass(frozen=True, slots=True)
class Decision:
    """What the limiter says about one request."""

    retry_after: float
    """0: allowed; otherwise answer 429 and let the client retry after this many seconds."""
    is_global: bool = False
    headers: dict[str, str] = field(default_factory=dict)
    """Headers for the answer (the route bucket's, when the route has one)."""


class RateLimiter:
    """The global bucket of the bot and one bucket per (route, channel)."""

    def __init__(
        self,
        *,
        global_limit: Limit = GLOBAL_LIMIT,
        channel_limit: Limit = CHANNEL_LIMIT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.global_limit = global_limit
        self.channel_limit = channel_limit
        self._clock = clock
        self._global = Window(global_limit)
        self._buckets: dict[tuple[str, int], Window] = {}

    @staticmethod
    def bucket_of(method: str, path: str, channel_id: int | None) -> str | None:
        """The route bucket name of a request, or ``None`` for routes with only the global
        limit (``send`` / ``edit`` / ``delete`` of channel messages are modelled)."""
        if channel_id is None or "/messages" not in path:
            return None
        if method == "POST" and path.endswith("/messages"):
            return "send"
        if method == "PATCH" and "/messages/" in path:
            return "edit"
        if method == "DELETE" and "/messages/" in path:
            return "delete"
        return None

    @staticmethod
    def exempt(path: str) -> bool:
        """Interaction callbacks and the interaction webhook count against no limit."""
        return path.startswith(_EXEMPT_PREFIXES) or not path.startswith("/api/v10/")

    def check(self, method: str, path: str, channel_id: int | None) -> Decision:
        """Count the request (if allowed) and say whether to answer 429."""
        if self.exempt(path):
            return Decision(0.0)
        now = self._clock()
        bucket_name = self.bucket_of(method, path, channel_id)
        window = None
        if bucket_name is not None:
            assert channel_id is not None
            window = self._buckets.setdefault((bucket_name, channel_id), Window(self.channel_limit))
            if now >= window.reset_at():
                window.opened, window.used = now, 0
            if window.used >= window.limit.count:
                wait = window.reset_at() - now
                return Decision(wait, False, self._headers(bucket_name, window, now, wait))
        wait = self._global.take(now)
        if wait > 0:
            return Decision(wait, True, {"X-RateLimit-Global": "true"})
        if window is None or bucket_name is None:
            return Decision(0.0)
        window.used += 1
        return Decision(0.0, False, self._headers(bucket_name, window, now, 0.0))

    def _headers(self, bucket: str, window: Window, now: float, wait: float) -> dict[str, str]:
        reset_after = max(0.0, window.reset_at() - now)
        return {
            "X-RateLimit-Limit": str(window.limit.count),
            "X-RateLimit-Remaining": str(max(0, window.limit.count - window.used)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": f"fake-{bucket}",
        }
