"""A keyed :class:`asyncio.Lock`: one lock per key, dropped again when nobody holds it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from typing import Generic, TypeVar

__all__ = ["KeyedLock"]

K = TypeVar("K", bound=Hashable)


class KeyedLock(Generic[K]):
    """Serialises work per key (a game id, a channel id) within one process.

    ``async with locks(key) as held: ...`` waits for earlier holders of the same key only, at
    most ``wait`` seconds when that is given (``None``: as long as it takes). ``held`` says
    whether the lock was taken: after the wait the body runs all the same, unserialised, so a
    holder that hangs delays the others but never stops them. Entries are reference-counted
    and removed when the last user leaves, so the table does not grow with every game ever
    played. Across processes the database's compare-and-set protects instead.
    """

    def __init__(self) -> None:
        self._locks: dict[K, tuple[asyncio.Lock, int]] = {}

    def __len__(self) -> int:
        return len(self._locks)

    @asynccontextmanager
    async def __call__(self, key: K, *, wait: float | None = None) -> AsyncIterator[bool]:
        lock, users = self._locks.get(key, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[key] = (lock, users + 1)
        try:
            try:
                held: bool = await asyncio.wait_for(lock.acquire(), wait)
            except TimeoutError:
                held = False
            try:
                yield held
            finally:
                if held:
                    lock.release()
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)
