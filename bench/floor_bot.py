"""The floor for ``bench/load.py``: a discord.py bot that does nothing but answer ``/move``.

It connects like Gameroom (``DISCORD_TOKEN``, ``GAMEROOM_DISCORD_API_BASE``,
``GAMEROOM_DISCORD_GATEWAY``, ``GAMEROOM_DEV_GUILD`` for the command sync), registers one
``/move text:<str>`` command, and answers each call the cheapest way Discord allows a board:
defer (public, "thinking"), then one follow-up carrying a fixed 50 KB PNG made once at start.
No database, no engine, no rendering: what is left is discord.py, the gateway and HTTP, which
is what no bot can go below. Run by ``bench/load.py``; ``python bench/floor_bot.py`` by hand.

``FLOOR_BOARD`` chooses how the board is sent, to check that ``bench/load.py`` sees it every
way a bot may send one: ``followup`` (the default, above), ``response`` (the interaction's
response itself, no defer), ``edit`` (a public defer, then the original response edited),
``channel`` (an ephemeral defer and answer, then a channel message: rate-limited).
"""

from __future__ import annotations

import io
import os
import random
import sys
import zlib

import discord
import yarl
from discord import app_commands

PNG_BYTES = 50 * 1024


def fixed_png(size: int = PNG_BYTES) -> bytes:
    """A valid grey-scale PNG of about ``size`` bytes (seeded noise, so it does not compress)."""
    import struct

    side = int(size**0.5)
    rng = random.Random(0)
    raw = b"".join(b"\x00" + rng.randbytes(side) for _ in range(side))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 1))
        + chunk(b"IEND", b"")
    )


def main() -> int:
    api_base = os.environ.get("GAMEROOM_DISCORD_API_BASE")
    gateway = os.environ.get("GAMEROOM_DISCORD_GATEWAY")
    if api_base:
        discord.http.Route.BASE = api_base
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    guild_id = os.environ.get("GAMEROOM_DEV_GUILD")
    png = fixed_png()

    client = discord.Client(intents=discord.Intents.default())
    tree = app_commands.CommandTree(client)

    how = os.environ.get("FLOOR_BOARD", "followup")
    if how not in ("followup", "response", "edit", "channel"):
        raise SystemExit(f"FLOOR_BOARD={how!r}: followup, response, edit or channel")
    none = discord.AllowedMentions.none()

    @tree.command(name="move", description="Play a move")
    async def move(interaction: discord.Interaction, text: str) -> None:
        content = f"{interaction.user.mention} played {text}"
        board = discord.File(io.BytesIO(png), "board.png")
        if how == "response":
            await interaction.response.send_message(content, file=board, allowed_mentions=none)
        elif how == "edit":
            await interaction.response.defer(thinking=True)
            await interaction.edit_original_response(
                content=content, attachments=[board], allowed_mentions=none
            )
        elif how == "channel":
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.edit_original_response(content=f"Played {text}.")
            assert isinstance(interaction.channel, discord.abc.Messageable)
            await interaction.channel.send(content, file=board, allowed_mentions=none)
        else:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send(content, file=board, allowed_mentions=none)

    @client.event
    async def setup_hook() -> None:
        if guild_id:
            guild = discord.Object(id=int(guild_id))
            tree.copy_global_to(guild=guild)
            await tree.sync(guild=guild)
        else:
            await tree.sync()

    client.run(os.environ["DISCORD_TOKEN"], log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
