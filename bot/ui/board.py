"""Posting a board picture in a game's channel (or to one user, ephemerally).

Public pictures are always drawn from the spectator's view (:attr:`GameSnapshot.view`); a
player's private picture ("My view", ``/hand``) comes from their :class:`PrivateView` and is
only ever sent ephemerally to them.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord

from bot.service import GameSnapshot
from bot.service.models import PrivateView
from bot.ui.buttons import my_view_view
from bot.ui.replies import post_in_channel

if TYPE_CHECKING:
    from bot.client import GameroomBot

__all__ = ["board_file", "board_view", "post_board", "private_file", "render_file"]

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


async def private_file(bot: GameroomBot, private: PrivateView) -> discord.File | None:
    """A player's private picture as a file (``<game>-<id>-<ply>-private.png``), or ``None``
    (logged) if drawing failed. Only ever send it ephemerally to ``private.user_id``."""
    labels: tuple[str, ...] | None
    try:
        labels = tuple([await bot.display_name(p.user_id) for p in private.players])
    except discord.HTTPException:
        log.warning("game %d: could not look up player names", private.game_id)
        labels = None
    try:
        png = await bot.service.render_private(private, seat_labels=labels)
    except Exception:
        log.exception("could not draw the private view of game %d", private.game_id)
        return None
    return discord.File(
        fp=io.BytesIO(png),
        filename=f"{private.game}-{private.game_id}-{private.ply}-private.png",
        description=f"{private.game_name}: your private view, ply {private.ply}",
    )


def board_view(snapshot: GameSnapshot) -> discord.ui.View | None:
    """The buttons under a board players can act from: "My view" while a game with hidden
    information goes on; ``None`` otherwise."""
    if snapshot.hidden_information and snapshot.is_active:
        return my_view_view(snapshot.game_id, snapshot.version)
    return None


async def post_board(
    bot: GameroomBot, snapshot: GameSnapshot, content: str, *, mention_ids: Iterable[int]
) -> discord.Message | None:
    """Post ``content`` and the board in the game's channel, pinging only ``mention_ids``.

    The picture is the public one; games with hidden information get the "My view" button
    (:func:`board_view`) while they go on. Called after the change is committed, so a
    failure here (channel deleted, permissions removed) is logged and ``None`` returned: the
    move stands and ``/board`` shows it.
    """
    file = await render_file(bot, snapshot)
    extra: dict[str, discord.File | discord.ui.View] = {} if file is None else {"file": file}
    view = board_view(snapshot)
    if view is not None:
        extra["view"] = view
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
