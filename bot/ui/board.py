"""Posting a board picture in a game's channel (or to one user, ephemerally)."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord

from bot.service import GameSnapshot
from bot.ui.replies import post_in_channel

if TYPE_CHECKING:
    from bot.client import GameroomBot

__all__ = ["board_file", "post_board", "render_file"]

log = logging.getLogger(__name__)


def board_file(snapshot: GameSnapshot, png: bytes) -> discord.File:
    """The picture as an attachment named after the game and ply (``generatorb-12-34.png``)."""
    return discord.File(
        fp=io.BytesIO(png),
        filename=f"{snapshot.game}-{snapshot.game_id}-{snapshot.ply}.png",
        description=f"{snapshot.game_name} board, ply {snapshot.ply}",
    )


async def render_file(bot: GameroomBot, snapshot: GameSnapshot) -> discord.File | None:
    """The public board of ``snapshot`` as a file, or ``None`` (logged) if drawing failed.

    Drawing runs in a worker thread (the service does that), never on the event loop.
    """
    try:
        labels = await bot.seat_labels(snapshot)
        png = await bot.service.render(snapshot, seat_labels=labels)
    except Exception:
        log.exception("could not draw the board of game %d", snapshot.game_id)
        return None
    return board_file(snapshot, png)


async def post_board(
    bot: GameroomBot, snapshot: GameSnapshot, content: str, *, mention_ids: Iterable[int]
) -> discord.Message | None:
    """Post ``content`` and the board in the game's channel, pinging only ``mention_ids``.

    Called after the change is committed, so a failure here (channel deleted, permissions
    removed) is logged and ``None`` returned: the move stands and ``/board`` shows it.
    """
    file = await render_file(bot, snapshot)
    extra = {} if file is None else {"file": file}
    message = await post_in_channel(
        bot,
        snapshot.channel_id,
        content,
        guild_id=snapshot.guild_id,
        mention_ids=mention_ids,
        **extra,
    )
    if message is None:
        log.warning("game %d: the board was not posted", snapshot.game_id)
        return None
    try:
        await bot.service.set_board_message(snapshot.game_id, message.id)
    except Exception:
        log.exception("game %d: could not remember board message %d", snapshot.game_id, message.id)
    return message
