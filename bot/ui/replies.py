"""Answering interactions: ephemeral sentences, the error guard, and public posts.

Every command and button runs inside :func:`answer_errors`: a
:class:`~bot.service.ServiceError` becomes its one friendly sentence, ephemerally, and one
INFO log line (game, interaction, sentence); anything else is logged with its traceback, the
game and the interaction, and the user gets a short apology — never a traceback in chat.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Iterable
from contextlib import asynccontextmanager
from typing import Any, Final, TypeVar

import discord

from bot import presenters
from bot.service import GameService, GameSnapshot, NoGameHereError, ServiceError
from bot.service.bot_seats import is_bot
from bot.ui.host import BotHost

__all__ = [
    "ALREADY_ACKNOWLEDGED",
    "ANSWER_BY_AGE_S",
    "ANSWER_WITHIN_S",
    "allowed_users",
    "answer_errors",
    "answered_elsewhere",
    "answered_in_time",
    "channel_id_of",
    "close_post",
    "cog_unavailable",
    "describe",
    "edit_post",
    "log_answered_elsewhere",
    "post_in_channel",
    "post_public",
    "send_ephemeral",
    "tolerate_another_session",
]

log = logging.getLogger(__name__)

T = TypeVar("T")

#: How long (seconds) a command may work before its interaction is deferred. Discord drops an
#: interaction whose first answer has not arrived within 3 s; the rest is margin for the
#: answer's own request.
ANSWER_WITHIN_S: Final = 1.5

#: When (seconds after Discord created the interaction) a command still working is deferred
#: at the latest, so an interaction that reached the handler late (a busy event loop) is still
#: deferred inside Discord's 3 s.
ANSWER_BY_AGE_S: Final = 2.5


def allowed_users(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """Allowed mentions that ping exactly these users (never roles or everyone, and never
    the bot's own seats, which are not Discord users)."""
    people = [u for u in dict.fromkeys(user_ids) if not is_bot(u)]
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        replied_user=False,
        users=[discord.Object(id=u) for u in people],
    )


def describe(interaction: discord.Interaction[Any]) -> str:
    """The interaction in one log-friendly line: what, who, where."""
    if interaction.command is not None:
        what = f"/{interaction.command.qualified_name}"
    else:
        data: dict[str, Any] = dict(interaction.data or {})
        what = f"component {data.get('custom_id', '?')}"
    return (
        f"{what} by user {interaction.user.id} in channel {interaction.channel_id} "
        f"(guild {interaction.guild_id}, interaction {interaction.id})"
    )


def channel_id_of(interaction: discord.Interaction[Any]) -> int:
    """The channel (or thread) the interaction came from.

    Raises :class:`ServiceError` in the (theoretical) case Discord sent none.
    """
    if interaction.channel_id is None:
        raise ServiceError("This works only in a channel.")
    return interaction.channel_id


async def post_in_channel(
    bot: BotHost,
    channel_id: int,
    content: str,
    *,
    guild_id: int | None = None,
    mention_ids: Iterable[int] = (),
    **kwargs: Any,
) -> discord.Message | None:
    """Post ``content`` (plus ``file``/``view`` keywords) publicly, pinging only
    ``mention_ids``. Returns ``None`` (logged) if Discord refused: the channel is gone or
    the bot may not write there."""
    channel = bot.get_partial_messageable(channel_id, guild_id=guild_id)
    try:
        return await channel.send(content, allowed_mentions=allowed_users(mention_ids), **kwargs)
    except discord.HTTPException:
        log.warning("could not post in channel %d", channel_id, exc_info=True)
        return None


async def answered_in_time(
    interaction: discord.Interaction[Any], work: Awaitable[T], *, within: float = ANSWER_WITHIN_S
) -> T:
    """``work``'s result, deferring ``interaction`` (ephemerally, "thinking…") if ``work`` has
    not finished within ``within`` seconds, or by :data:`ANSWER_BY_AGE_S` after Discord
    created the interaction if that comes first, so Discord does not drop the interaction.
    (The interaction's age is read against this host's clock: a clock ahead of Discord's
    defers sooner, which is harmless; one behind it is bounded by ``within``.)

    What lets a quick command answer with its result in the interaction's own response (one
    request) while a slow one (a database busy with another process) still gets its answer
    as before. ``interaction.response.is_done()`` afterwards says which happened. ``work``'s
    exceptions propagate; it is never cancelled by the wait. A refused defer (the
    interaction expired meanwhile) is logged and the result still returned.
    """
    if interaction.response.is_done():
        return await work
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    within = min(within, max(0.0, ANSWER_BY_AGE_S - age))
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.wait_for(asyncio.shield(task), within)
    except TimeoutError:
        log.info("%s: still working after %.1f s, deferred", describe(interaction), within)
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
        except discord.HTTPException:
            log.warning("could not defer %s", describe(interaction), exc_info=True)
        return await task


async def post_public(
    bot: BotHost,
    interaction: discord.Interaction[Any] | None,
    channel_id: int,
    content: str,
    *,
    guild_id: int | None = None,
    mention_ids: Iterable[int] = (),
    **kwargs: Any,
) -> discord.Message | None:
    """Post ``content`` for everyone in the channel of ``interaction`` as the interaction's
    own public response if it has none yet, else as a public follow-up of it — interaction
    responses and follow-ups are exempt from Discord's global and per-channel message limits,
    which cap a bot's ``channel.send`` at 50 a second and 5 per channel in 5 s — or with
    :func:`post_in_channel` when there is no interaction, it belongs to another channel, or
    the answer fails. An answered interaction must have been answered with a message of its
    own already (its first follow-up would replace a deferred "thinking…", keeping the
    defer's visibility). Returns ``None`` (logged) when Discord refused both."""
    if interaction is not None and interaction.channel_id == channel_id:
        try:
            if not interaction.response.is_done():
                callback = await interaction.response.send_message(
                    content, ephemeral=False, allowed_mentions=allowed_users(mention_ids), **kwargs
                )
                if isinstance(callback.resource, discord.Message):
                    return callback.resource
                return await _original(interaction)
            return await interaction.followup.send(
                content,
                ephemeral=False,
                wait=True,
                allowed_mentions=allowed_users(mention_ids),
                **kwargs,
            )
        except discord.HTTPException:
            log.warning("could not answer in channel %d", channel_id, exc_info=True)
            attachment = kwargs.get("file")
            if isinstance(attachment, discord.File):
                attachment.reset()  # the failed request read it to the end
    return await post_in_channel(
        bot, channel_id, content, guild_id=guild_id, mention_ids=mention_ids, **kwargs
    )


async def _original(interaction: discord.Interaction[Any]) -> discord.Message | None:
    """The response message of an answered interaction, or ``None`` (logged) if Discord
    did not give it back with the answer and cannot be asked now."""
    try:
        return await interaction.original_response()
    except discord.HTTPException:
        log.warning("could not read the answer of %s", describe(interaction), exc_info=True)
        return None


async def edit_post(interaction: discord.Interaction[Any], content: str) -> None:
    """Replace the text of the message whose button was pressed, and remove its buttons.

    The interaction must have been deferred. A failure (message deleted, token expired) is
    logged and swallowed: whatever the button changed is already committed.
    """
    try:
        await interaction.edit_original_response(content=content, view=None)
    except discord.HTTPException:
        log.warning("could not edit the post of %s", describe(interaction), exc_info=True)


async def edit_post_text(interaction: discord.Interaction[Any], content: str) -> None:
    """Replace the text of the message whose button was pressed, keeping its buttons (a
    draw offer that others still have to answer). Deferred first; failures as in
    :func:`edit_post`."""
    try:
        await interaction.edit_original_response(content=content)
    except discord.HTTPException:
        log.warning("could not edit the post of %s", describe(interaction), exc_info=True)


async def close_post(interaction: discord.Interaction[Any], content: str) -> None:
    """Close the post of a button that no longer applies (the service raised
    :class:`~bot.service.errors.StaleActionError`): its text becomes ``content`` and its
    buttons go, unless it has no buttons left by now. Then a press a moment earlier (a double
    click) answered it, and its words ("… accepted the draw offer: the game is drawn.") stay.

    The interaction must have been deferred. Failures are logged and swallowed, as in
    :func:`edit_post`.
    """
    try:
        current = await interaction.original_response()
    except discord.HTTPException:
        log.warning("could not read the post of %s", describe(interaction), exc_info=True)
        return
    if not current.components:
        log.info("%s: its post was answered already; left as it is", describe(interaction))
        return
    await edit_post(interaction, content)


async def cog_unavailable(interaction: discord.Interaction[Any], cog: str) -> None:
    """Answer a component whose cog ``cog`` is not loaded: logged, and the user gets the
    apology (the buttons and the level menus share it)."""
    log.error("component used but cog %s is not loaded", cog)
    await send_ephemeral(interaction, presenters.APOLOGY)


async def send_ephemeral(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    """Answer only the user who acted, whether or not the interaction was deferred."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


#: Discord's error code for an answer to an interaction already answered: another session
#: of the same shard (two processes overlapping during a restart, docs/scale.md) was first.
ALREADY_ACKNOWLEDGED: Final = 40060


def answered_elsewhere(error: BaseException) -> bool:
    """Whether ``error`` (or what it wraps, ``original``) is Discord's 40060: the interaction
    was answered by another session first, so this process has nothing left to say."""
    cause = getattr(error, "original", error)
    return isinstance(cause, discord.HTTPException) and cause.code == ALREADY_ACKNOWLEDGED


def log_answered_elsewhere(interaction: discord.Interaction[Any]) -> None:
    """One warning line for an interaction another session answered first (40060)."""
    log.warning(
        "%s was answered by another process first (40060); do two processes run the same shard?",
        describe(interaction),
    )


@asynccontextmanager
async def tolerate_another_session(interaction: discord.Interaction[Any]) -> AsyncIterator[None]:
    """Run a component's handler; Discord's 40060 (:func:`answered_elsewhere`), raised by
    its first ``defer`` when another session took the press, ends it with one warning
    instead of discord.py's traceback."""
    try:
        yield
    except discord.HTTPException as error:
        if not answered_elsewhere(error):
            raise
        log_answered_elsewhere(interaction)


@asynccontextmanager
async def answer_errors(
    interaction: discord.Interaction[Any], *, game_id: int | None = None
) -> AsyncIterator[None]:
    """Run the block; turn its errors into ephemeral answers (see the module docstring).

    Nothing after the failing statement in the block runs, and the exception does not
    propagate, so the block should be the whole handler.
    """
    try:
        yield
    except ServiceError as error:
        log.info(
            "refused (game %s) %s: %s",
            error.game_id if error.game_id is not None else game_id,
            describe(interaction),
            error.message,
        )
        await _answer_safely(interaction, presenters.error_text(error))
    except Exception as error:
        if answered_elsewhere(error):  # another session answered first: nothing to say
            log_answered_elsewhere(interaction)
            return
        log.exception("unexpected error (game %s) handling %s", game_id, describe(interaction))
        await _answer_safely(interaction, presenters.APOLOGY)


async def _answer_safely(interaction: discord.Interaction[Any], text: str) -> None:
    """Send the one-sentence answer to a refused or failed action, cut to Discord's limit
    (a refusal that quotes what the user typed must still arrive)."""
    if len(text) > presenters.MESSAGE_LIMIT:
        text = text[: presenters.MESSAGE_LIMIT - 1] + "…"
    try:
        await _drop_public_thinking(interaction)
        await send_ephemeral(interaction, text)
    except discord.HTTPException:
        # The interaction token may have expired (15 min) or the channel gone; nothing to tell.
        log.warning("could not answer %s", describe(interaction), exc_info=True)


async def _drop_public_thinking(interaction: discord.Interaction[Any]) -> None:
    """Delete a command's public "thinking…" message (``defer(thinking=True)``, as ``/rating``
    and ``/leaderboard`` do for their public pictures) that nothing has replaced yet.

    Discord turns the first follow-up after such a defer into that message, public whatever
    its ``ephemeral`` flag, so a refusal sent then would be shown to the whole channel; once
    the message is gone, the follow-up is a message of its own, seen by the user alone."""
    if interaction.response.type is not discord.InteractionResponseType.deferred_channel_message:
        return
    try:
        original = await interaction.original_response()
        if original.flags.loading and not original.flags.ephemeral:
            await interaction.delete_original_response()
    except discord.HTTPException:  # then the answer goes where it can
        log.warning("could not clear the thinking of %s", describe(interaction), exc_info=True)


def may_view(interaction: discord.Interaction[Any], channel_id: int) -> bool:
    """Whether the user of ``interaction`` can see channel ``channel_id`` of its guild.

    Used before showing a game named by id (``game_id:`` options, ``/games scope:server``),
    so a game in a channel the member cannot read is never exported, replayed, watched or
    listed for them. A thread is judged by the channel it hangs off (pass that). Unknown
    channels and users outside a guild see nothing.
    """
    guild = interaction.guild
    member = interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return False
    channel = guild.get_channel_or_thread(channel_id)
    if channel is None:
        return False
    return channel.permissions_for(member).view_channel


def game_channel(snapshot: GameSnapshot) -> int:
    """The channel whose readers may see ``snapshot``'s game (a thread's parent channel)."""
    return snapshot.parent_channel_id or snapshot.channel_id


async def require_visible_game(
    interaction: discord.Interaction[Any], service: GameService, game_id: int | None
) -> None:
    """Refuse a game named by id that lives in a channel the caller cannot see.

    Games of this channel (or of a thread off it) always pass, and so do a server's games
    to their own players, who know them already (also once the game's channel is deleted
    and nobody can be shown it any more: its players were told "game 4 was aborted"). Raises
    :class:`~bot.service.NoGameHereError` with one sentence, "There is no game N here.", for
    an unknown game and a hidden one alike, so the existence of a hidden channel's game (or
    another server's) is not given away.
    """
    if game_id is None:
        return
    try:
        snapshot = await service.game_snapshot(game_id)
    except NoGameHereError:
        raise NoGameHereError(f"There is no game {game_id} here.") from None
    here = channel_id_of(interaction)
    if here in (snapshot.channel_id, snapshot.parent_channel_id):
        return
    if snapshot.guild_id == interaction.guild_id and interaction.user.id in snapshot.user_ids:
        return
    if snapshot.guild_id != interaction.guild_id or not may_view(
        interaction, game_channel(snapshot)
    ):
        log.info("%s: game %d is in a channel the user cannot see", describe(interaction), game_id)
        raise NoGameHereError(f"There is no game {game_id} here.")
