"""Posting a board picture in a game's channel (or to one user, ephemerally), and telling
the game's watchers.

Public pictures are always drawn from the spectator's view (:attr:`GameSnapshot.view`); a
player's private picture ("My view", ``/hand``) comes from their :class:`PrivateView` and is
only ever sent ephemerally to them.

Every public board goes through :func:`post_board`, so every way a position changes (a
move, a timeout, a resignation, an agreed draw) tells the game's watchers
(:meth:`bot.service.spectators.Spectators.to_notify`) once: in a game played in a thread they
are mentioned in the post itself; otherwise each gets a direct message with one public line
and a link, never a picture. The final board of a game played in a thread also schedules the
thread's archiving.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any, Final

import discord

from bot import presenters
from bot.service import GameSnapshot
from bot.service.bot_seats import is_bot
from bot.service.models import PrivateView, TurnResult
from bot.service.spectators import Spectators
from bot.service.views import public_perspective
from bot.ui.buttons import GameButton
from bot.ui.custom_ids import GameAction, GameButtonId
from bot.ui.decisions import DecisionPost, still_latest
from bot.ui.host import BotHost
from bot.ui.replies import post_public

__all__ = [
    "board_file",
    "board_view",
    "direct_message",
    "direct_messages",
    "jump_url",
    "post_board",
    "post_turn",
    "private_file",
    "render_file",
    "retire_offers",
    "turn_in_order",
]

log = logging.getLogger(__name__)

#: How long a move waits for the post of the move before it in the same channel, in seconds,
#: before it goes on unordered (a post that hangs must not stop the game).
TURN_ORDER_WAIT_S: Final = 10.0


@asynccontextmanager
async def turn_in_order(bot: BotHost, channel_id: int) -> AsyncIterator[None]:
    """Hold channel ``channel_id``'s turn order from before a move's commit until its post.

    Every move — a person's ``/move``, a bot's turn — commits and then posts, and a person
    learns it is their turn from the post. Without this, the next move could commit in the gap
    and its post come first: a level-1 bot's reply above the board of the move it answers, or
    a quick player's board above the bot's move that gave them the turn. Held around the commit
    and the post (never the bot's search), so posts in a channel come in the order the moves
    were committed. Per process (:attr:`BotHost.turn_order`): with several processes on one
    database (docs/scale.md), a bot turn may run in another process than the one that took
    the person's move, and those two posts are not ordered. Waits at most
    :data:`TURN_ORDER_WAIT_S`, then goes on (logged).
    """
    async with bot.turn_order(channel_id, wait=TURN_ORDER_WAIT_S) as held:
        if not held:
            log.warning(
                "channel %d: the previous move's post took over %.0f s; this move goes on "
                "without waiting for it",
                channel_id,
                TURN_ORDER_WAIT_S,
            )
        yield


def board_file(snapshot: GameSnapshot, png: bytes) -> discord.File:
    """The picture as an attachment named after the game and ply (``generatorb-12-34.png``)."""
    return discord.File(
        fp=io.BytesIO(png),
        filename=f"{snapshot.game}-{snapshot.game_id}-{snapshot.ply}.png",
        description=f"{snapshot.game_name} board, ply {snapshot.ply}",
    )


async def render_file(
    bot: BotHost, snapshot: GameSnapshot, *, perspective: int | None = None
) -> discord.File | None:
    """The public board of ``snapshot`` as a file, drawn from seat ``perspective``'s side
    (``None``: the fixed picture), or ``None`` (logged) if drawing failed.

    Drawing runs in a worker thread (the service does that), never on the event loop.
    """
    try:
        labels = await bot.seat_labels(snapshot)
        png = await bot.service.render(snapshot, seat_labels=labels, perspective=perspective)
    except Exception:
        log.exception("could not draw the board of game %d", snapshot.game_id)
        return None
    return board_file(snapshot, png)


async def private_file(
    bot: BotHost, private: PrivateView, *, perspective: int | None = None
) -> discord.File | None:
    """A player's private picture as a file (``<game>-<id>-<ply>-private.png``), drawn from
    seat ``perspective``'s side, or ``None`` (logged) if drawing failed. Only ever send it
    ephemerally to ``private.user_id``."""
    labels: tuple[str, ...] | None
    try:
        labels = tuple([await bot.display_name(p.user_id) for p in private.players])
    except discord.HTTPException:
        log.warning("game %d: could not look up player names", private.game_id)
        labels = None
    try:
        png = await bot.service.render_private(private, seat_labels=labels, perspective=perspective)
    except Exception:
        log.exception("could not draw the private view of game %d", private.game_id)
        return None
    return discord.File(
        fp=io.BytesIO(png),
        filename=f"{private.game}-{private.game_id}-{private.ply}-private.png",
        description=f"{private.game_name}: your private view, ply {private.ply}",
    )


def board_view(snapshot: GameSnapshot, *, for_player: bool = False) -> discord.ui.View | None:
    """The buttons under a board of ``snapshot``, or ``None`` when it has none.

    While the game goes on: "My view" in games with hidden information, and Watch (left
    out when ``for_player``: a board shown to one of its players alone, who cannot watch
    their own game). On the final board of a game that finished (not aborted): Rematch, if
    a person played in it (only players may ask for one: under a bots-only exhibition
    it would refuse everyone).
    The buttons quote ``snapshot.version``; they are persistent (no timeout).
    """
    actions: list[GameAction] = []
    if snapshot.is_active:
        if snapshot.hidden_information:
            actions.append(GameAction.MY_VIEW)
        if not for_player:
            actions.append(GameAction.WATCH)
    elif snapshot.status == "finished" and not all(map(is_bot, snapshot.user_ids)):
        actions.append(GameAction.REMATCH)
    if not actions:
        return None
    view = discord.ui.View(timeout=None)
    for action in actions:
        view.add_item(GameButton(GameButtonId(snapshot.game_id, action, snapshot.version)))
    return view


def jump_url(snapshot: GameSnapshot, message_id: int) -> str:
    """The link that opens message ``message_id`` of the game's channel in Discord."""
    guild = snapshot.guild_id if snapshot.guild_id is not None else "@me"
    return f"https://discord.com/channels/{guild}/{snapshot.channel_id}/{message_id}"


async def post_board(
    bot: BotHost,
    snapshot: GameSnapshot,
    content: str,
    *,
    mention_ids: Iterable[int],
    notify_watchers: bool = True,
    watcher_line: Callable[[], str] | None = None,
    interaction: discord.Interaction[Any] | None = None,
    drawn: discord.File | None = None,
    on_posted: Callable[[discord.Message], Awaitable[None]] | None = None,
) -> discord.Message | None:
    """Post ``content`` and the board in the game's channel, pinging only ``mention_ids``,
    then tell the game's watchers (see the module docstring). With an ``interaction`` of
    that channel (a ``/move``) the board is its public response, or its public follow-up
    once it was answered, which Discord's message rate limits do not count
    (:func:`bot.ui.replies.post_public`). ``drawn`` is the board already drawn by
    :func:`render_file` for this snapshot (else it is drawn here).

    The picture is the public one, drawn from the side of the player to move
    (:func:`bot.service.views.public_perspective`), with the buttons of :func:`board_view`.
    Called after the
    change is committed, so a failure here (channel deleted, permissions removed, watchers
    unreadable) is logged and ``None`` returned: the move stands and ``/board`` shows it.
    ``notify_watchers=False`` is for a board shown again (``/board public:True``): nothing
    new happened, so nobody is told. Watchers to be mentioned in a post that failed get a
    direct message instead; it quotes the line ``watcher_line()`` makes, when given (a
    move's line with what the prompt under the ping says,
    :func:`bot.presenters.watcher_turn_line`; made only when a direct message goes out),
    else the first line of ``content``. ``on_posted`` runs with the post as soon as it is
    out and stored (before the watchers are told): a bot's decisions post the board
    replaces is deleted so (:mod:`bot.ui.decisions`).
    """
    bot.decision_posts.pop(snapshot.channel_id, None)  # a board ends a bot's decisions post
    file = drawn
    if file is None:
        file = await render_file(bot, snapshot, perspective=public_perspective(snapshot))
    extra: dict[str, discord.File | discord.ui.View] = {} if file is None else {"file": file}
    view = board_view(snapshot)
    if view is not None:
        extra["view"] = view
    pinged = tuple(dict.fromkeys(mention_ids))
    watchers = await _watchers(bot, snapshot) if notify_watchers else ()
    text: str = content
    mentioned: tuple[int, ...] = ()
    if watchers and snapshot.parent_channel_id is not None:
        text, mentioned = presenters.with_watchers(content, watchers, pinged=len(pinged))
    message = await post_public(
        bot,
        interaction,
        snapshot.channel_id,
        text,
        guild_id=snapshot.guild_id,
        mention_ids=(*pinged, *mentioned),
        **extra,
    )
    if message is None:
        log.warning("game %d: the board was not posted", snapshot.game_id)
        mentioned = ()
    else:
        try:
            await bot.service.set_board_message(snapshot.game_id, message.id, snapshot.version)
        except Exception:
            log.exception(
                "game %d: could not remember board message %d", snapshot.game_id, message.id
            )
        if on_posted is not None:  # once stored: a slow delete cannot let the late board come
            await on_posted(message)
    if not snapshot.is_active and snapshot.parent_channel_id is not None:
        await _schedule_thread_archive(bot, snapshot)
    rest = [user_id for user_id in watchers if user_id not in mentioned]
    if rest:
        link = None if message is None else jump_url(snapshot, message.id)
        told = content if watcher_line is None else watcher_line()
        dm = presenters.watcher_dm_text(snapshot, told, link, move=watcher_line is not None)
        await direct_messages(bot, rest, dm)
    return message


async def post_turn(
    bot: BotHost,
    result: TurnResult,
    *,
    interaction: discord.Interaction[Any] | None = None,
    drawn: discord.File | None = None,
) -> discord.Message | None:
    """Post a committed move for everyone, whoever made it (``/move`` passes its
    ``interaction``, so the post is its public response or follow-up; the bot's own moves
    pass none): one quiet line while the same seat decides again (a bot's added to its post
    of the same turn when it may, :mod:`bot.ui.decisions`), else the board (``drawn``
    already, or drawn here) with the summary, mentioning who acts next and whom the move
    knocks out (every player once the game is over: :func:`bot.presenters.turn_mention_ids`);
    either mentions those the move showed something privately
    (:attr:`~bot.service.models.TurnResult.told_privately`), sent to ``/hand``.
    A draw offer the move declined, a takeback request it refused, or the claim notice of a
    late mover's turn, loses its buttons. Returns the post, or ``None`` when Discord
    refused it."""
    snapshot = result.snapshot
    if result.turn_goes_on:
        posted = await _post_decision(bot, result, interaction)
    else:
        replaced = _takes_lines(bot, result, interaction)
        if replaced is not None:
            # Drawn before the latest-message check, so the check is one request away from
            # the post, as for an edit (the upload of a drawn board is that request).
            if drawn is None:
                drawn = await render_file(bot, snapshot, perspective=public_perspective(snapshot))
            if not await still_latest(replaced.message):
                replaced = None
        posted = await post_board(
            bot,
            snapshot,
            presenters.turn_text(result, () if replaced is None else replaced.told),
            mention_ids=presenters.turn_mention_ids(result),
            watcher_line=lambda: presenters.watcher_turn_line(result),
            interaction=interaction,
            drawn=drawn,
            on_posted=None if replaced is None else _deleting(snapshot, replaced),
        )
    if result.declined_draw_offer:
        await bot.draw_offers.retire(snapshot.game_id, presenters.DRAW_OFFER_LAPSED)
    if result.refused_takeback:
        await bot.takebacks.retire(snapshot.game_id, presenters.TAKEBACK_REQUEST_LAPSED)
    if result.ended_claim:
        ended = presenters.CLAIM_LAPSED if snapshot.is_active else presenters.CLAIM_CLOSED
        await bot.claim_notices.retire(snapshot.game_id, ended)
    return posted


async def _post_decision(
    bot: BotHost, result: TurnResult, interaction: discord.Interaction[Any] | None
) -> discord.Message | None:
    """Post the line of a decision after which the same seat decides again; a bot's goes
    into its post of the same turn when it may (:mod:`bot.ui.decisions`). Returns the post,
    or ``None`` when Discord refused it."""
    snapshot = result.snapshot
    channel_id = snapshot.channel_id
    gathered = _the_bots(result, interaction) and not result.told_privately
    earlier = bot.decision_posts.pop(channel_id, None)
    if gathered and earlier is not None and earlier.follows(result):
        text = presenters.decision_text(result, earlier.told)
        if len(text) <= presenters.MESSAGE_LIMIT and await still_latest(earlier.message):
            try:
                await earlier.message.edit(
                    content=text, allowed_mentions=discord.AllowedMentions.none()
                )
            except Exception:  # committed: post the line apart rather than lose it
                log.warning(
                    "game %d: could not add a decision to post %d; posting it apart",
                    snapshot.game_id,
                    earlier.message.id,
                    exc_info=True,
                )
            else:
                earlier.version = snapshot.version
                earlier.told.append(result)
                bot.decision_posts[channel_id] = earlier
                return earlier.message
    posted = await post_public(
        bot,
        interaction,
        channel_id,
        presenters.decision_text(result),
        guild_id=snapshot.guild_id,
        mention_ids=result.told_privately,
    )
    if gathered and posted is not None:
        bot.decision_posts[channel_id] = DecisionPost(
            snapshot.game_id, result.seat, snapshot.version, posted, [result]
        )
    return posted


def _takes_lines(
    bot: BotHost, result: TurnResult, interaction: discord.Interaction[Any] | None
) -> DecisionPost | None:
    """The post of a bot's earlier decisions of the turn ``result`` ends, when the board may
    take its lines (:mod:`bot.ui.decisions`; whether it is still the channel's latest
    message is for the caller to read, last), else ``None``. The post is forgotten either
    way: a board ends it."""
    earlier = bot.decision_posts.pop(result.snapshot.channel_id, None)
    if (
        not _the_bots(result, interaction)
        or earlier is None
        or not earlier.follows(result)
        or len(presenters.turn_text(result, earlier.told)) > presenters.MESSAGE_LIMIT
    ):
        return None
    return earlier


def _the_bots(result: TurnResult, interaction: discord.Interaction[Any] | None) -> bool:
    """Whether ``result`` is a bot's own move (no interaction), whose decisions of a turn
    are gathered into one post (:mod:`bot.ui.decisions`)."""
    return interaction is None and is_bot(result.user_id)


def _deleting(
    snapshot: GameSnapshot, replaced: DecisionPost
) -> Callable[[discord.Message], Awaitable[None]]:
    """What the board's post does once it is out: delete the decisions post whose lines it
    took (before the watchers' messages go out); a failure leaves them told twice
    (logged)."""

    async def delete(_board: discord.Message) -> None:
        try:
            await replaced.message.delete()
        except Exception:  # the board is out: a failure only repeats the lines
            log.warning(
                "game %d: could not delete post %d, whose lines the board repeats",
                snapshot.game_id,
                replaced.message.id,
                exc_info=True,
            )

    return delete


async def retire_offers(bot: BotHost, snapshot: GameSnapshot, draw_text: str) -> None:
    """After a change that closes whatever offer was open without a move (a resignation, an
    abort, a time-out): the draw offer's post reads ``draw_text``, the takeback request's
    and a soft clock's time-out notice say the game ended or moved on, and all lose their
    buttons (nothing when none is open; :class:`~bot.ui.offers.OfferPosts`). A resignation
    in a game that goes on retires the notice too, though the late seat may still be
    claimed against with ``/claim``."""
    await bot.draw_offers.retire(snapshot.game_id, draw_text)
    takeback_text = (
        presenters.TAKEBACK_REQUEST_LAPSED
        if snapshot.is_active
        else presenters.TAKEBACK_REQUEST_ENDED
    )
    await bot.takebacks.retire(snapshot.game_id, takeback_text)
    claim_text = presenters.CLAIM_LAPSED if snapshot.is_active else presenters.CLAIM_CLOSED
    await bot.claim_notices.retire(snapshot.game_id, claim_text)


async def _watchers(bot: BotHost, snapshot: GameSnapshot) -> tuple[int, ...]:
    """The watchers to tell of this post; none (logged) if they cannot be read."""
    try:
        return await Spectators(bot.service).to_notify(snapshot)
    except Exception:
        log.exception("game %d: could not read its watchers", snapshot.game_id)
        return ()


async def _schedule_thread_archive(bot: BotHost, snapshot: GameSnapshot) -> None:
    try:
        await Spectators(bot.service).schedule_thread_archive(
            snapshot, after=bot.settings.thread_archive_after
        )
    except Exception:
        log.exception("game %d: could not schedule its thread's archiving", snapshot.game_id)


async def direct_messages(bot: BotHost, user_ids: Sequence[int], text: str) -> None:
    """Send ``text`` to each of ``user_ids`` at once, mentioning nobody (watchers of a game,
    players of a game whose channel was deleted); a refusal drops that user (logged)."""
    await asyncio.gather(*(direct_message(bot, user_id, text) for user_id in user_ids))


async def direct_message(bot: BotHost, user_id: int, text: str) -> bool | None:
    """Send ``text`` to ``user_id`` alone by direct message, mentioning nobody. Returns
    ``True`` when it arrived, ``False`` when the user takes no direct messages from the bot
    (Discord's 403: their privacy settings; ``/watch`` says so), ``None`` when Discord failed
    otherwise (logged)."""
    try:
        channel = await bot.create_dm(discord.Object(id=user_id))
        await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
    except discord.Forbidden:
        log.info("user %d does not take direct messages: not told", user_id)
        return False
    except discord.HTTPException:
        log.warning("could not send user %d a direct message", user_id, exc_info=True)
        return None
    return True
