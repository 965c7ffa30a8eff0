"""Small in-process caches the service keeps between calls.

Nothing here is authoritative: every entry is keyed or stamped with the database ``version``
it was built from, and a miss just means one more read.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from bot.service.models import MoveRecord, Player
from engines.base import Engine, OptionValue

__all__ = ["GameMeta", "Lru", "PositionEntry"]

K = TypeVar("K")
V = TypeVar("V")


class Lru(Generic[K, V]):
    """A bounded mapping that forgets the least recently used key first."""

    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self._capacity = capacity
        self._items: OrderedDict[K, V] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K) -> V | None:
        """The value for ``key`` (now the most recently used), or ``None``."""
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        """Store ``value``, evicting the least recently used entry when full."""
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self._capacity:
            self._items.popitem(last=False)

    def pop(self, key: K) -> None:
        """Forget ``key`` if present."""
        self._items.pop(key, None)


@dataclass(frozen=True, slots=True)
class GameMeta:
    """What never changes after a game starts: its engine, players, options and seed, and
    the custom position it started from (``None``: the game's usual start)."""

    engine: Engine[Any, Any]
    players: tuple[Player, ...]
    options: dict[str, OptionValue]
    options_text: str
    seed: int
    start_position: str | None = None

    def seats_of(self, user_id: int) -> tuple[int, ...]:
        """The seats ``user_id`` holds (usually one; empty for a non-player)."""
        return tuple(p.seat for p in self.players if p.user_id == user_id)


@dataclass(slots=True)
class PositionEntry:
    """The engine state of a game at one ``version``, with what we derived from it.

    ``recent`` holds the last few logged moves (oldest first); ``legal`` caches each seat's
    sorted canonical legal moves, filled on first use (autocomplete asks on every keystroke).
    """

    version: int
    state: Any
    recent: tuple[MoveRecord, ...]
    legal: dict[int, tuple[str, ...]] = field(default_factory=dict)
