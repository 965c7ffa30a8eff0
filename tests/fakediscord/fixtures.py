"""Shared pytest fixtures and helpers for end-to-end tests against :class:`FakeDiscord`.

Use from a ``conftest.py`` with ``from tests.fakediscord.fixtures import fake_discord``
(re-exporting a fixture makes it available to the tests below that conftest), or import the
helpers directly.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator

import discord
import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .server import FakeDiscord

__all__ = ["bot_environment", "discord_py_pointed_at", "fake_discord", "running_client"]

_log = logging.getLogger("fakediscord")


@contextlib.contextmanager
def discord_py_pointed_at(fake: FakeDiscord) -> Iterator[None]:
    """Point discord.py in *this* process at ``fake``; restore the real URLs afterwards.

    Patches ``discord.http.Route.BASE`` (REST, which webhooks and interaction follow-ups also
    use) and ``DiscordWebSocket.DEFAULT_GATEWAY``. A bot in another process applies the same
    two settings from ``GAMEROOM_DISCORD_API_BASE`` and ``GAMEROOM_DISCORD_GATEWAY``.
    """
    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = fake.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        yield
    finally:
        Route.BASE = old_base
        DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


def bot_environment(fake: FakeDiscord) -> dict[str, str]:
    """The environment variables that point a Gameroom bot process at ``fake``.

    Merge into ``os.environ`` (plus the bot's other settings) when starting the bot as a
    subprocess: ``DISCORD_TOKEN``, ``GAMEROOM_DISCORD_API_BASE``, ``GAMEROOM_DISCORD_GATEWAY``.
    """
    return {
        "DISCORD_TOKEN": fake.bot_token,
        "GAMEROOM_DISCORD_API_BASE": fake.api_base,
        "GAMEROOM_DISCORD_GATEWAY": fake.gateway_url,
    }


@contextlib.asynccontextmanager
async def running_client(
    client: discord.Client,
    fake: FakeDiscord,
    *,
    timeout: float = 10.0,  # noqa: ASYNC109 - bounds both start-up and shutdown
) -> AsyncIterator[discord.Client]:
    """Run a discord.py client in this event loop against ``fake`` until the block ends.

    Waits until the client has IDENTIFYed; on exit closes it and waits for its connection to
    end. Raises what the client raised if it died during start-up (e.g. ``LoginFailure``).
    """
    with discord_py_pointed_at(fake):
        task = asyncio.create_task(client.start(fake.bot_token), name="fakediscord-client")
        ready = asyncio.create_task(fake.wait_ready(timeout=timeout))
        try:
            done, _ = await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
            if task in done:
                ready.cancel()
                task.result()  # re-raise the client's error
                raise RuntimeError("the discord.py client stopped during start-up")
            ready.result()
            yield client
        finally:
            ready.cancel()
            await client.close()
            await asyncio.wait({task}, timeout=timeout)
            if not task.done():
                task.cancel()
            elif not task.cancelled() and task.exception() is not None:
                _log.info("the discord.py client ended with %r", task.exception())
            await fake.wait_disconnected(timeout=timeout)


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started :class:`FakeDiscord`; stopped after the test.

    Fails the test at teardown if the bot called routes the fake does not implement, so gaps
    in the fake are never silent.
    """
    fake = FakeDiscord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()
    if fake.rejections:
        _log.warning("fakediscord rejected requests: %s", fake.rejections)
    assert not fake.unknown_routes, f"the bot used routes fakediscord lacks: {fake.unknown_routes}"
