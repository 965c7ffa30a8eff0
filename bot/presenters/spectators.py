"""Spectators: ``/watch`` and the Watch button, watchers told of a board post, ``/games``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import timedelta

from bot.presenters.common import MESSAGE_LIMIT, _join, _timestamp, mention
from bot.presenters.turns import outcome_text
from bot.service import GameSnapshot
from bot.service.bot_seats import is_bot
from bot.service.clocks import short_duration
from bot.service.spectators import GameListing, GamesList, GamesScope, WatchResult

__all__ = [
    "MAX_MENTIONS",
    "WATCHERS_LINE",
    "WATCH_NO_DIRECT_MESSAGES",
    "games_list_text",
    "watch_confirmation_text",
    "watch_text",
    "watcher_dm_text",
    "with_watchers",
]


#: Discord pings at most this many users listed in one message's allowed mentions.
MAX_MENTIONS = 100

#: The first words of the line that mentions a thread game's watchers under a board post.
WATCHERS_LINE = "👀 Watching:"


def _hear_when(result: WatchResult) -> str:
    """When a watcher hears of the game: at its end, or with each board the bot posts,
    after every move (after every turn where a turn is many decisions: Generation Zero)."""
    if not result.every_move:
        return "at its end"
    return "after every turn" if result.by_turn else "after every move"


def watch_text(result: WatchResult, *, button: bool) -> str:
    """The ephemeral answer to ``/watch``, ``/unwatch`` or the Watch button.

    ``You are watching **Orbs** (game 7) in <#5>: you hear of it after every move, by a
    mention in its thread. Press **Watch** again to stop.``
    """
    game = f"**{result.game_name}** (game {result.game_id}) in <#{result.channel_id}>"
    if not result.watching:
        return f"You no longer watch {game}."
    how = "by a mention in its thread" if result.in_thread else "by direct message"
    if not button:
        stop = "`/unwatch` stops it."
    elif result.every_move:
        stop = "Press **Watch** again to stop, or use `/watch` to hear only of its end."
    else:
        stop = "Press **Watch** again to stop."
    return f"You are watching {game}: you hear of it {_hear_when(result)}, {how}. {stop}"


#: Added to ``/watch``'s answer when the confirming direct message could not be sent.
WATCH_NO_DIRECT_MESSAGES = (
    "I cannot send you direct messages, so you would not hear of it: allow direct messages "
    "from this server's members (Privacy Settings), then use `/watch` again."
)


def watch_confirmation_text(result: WatchResult) -> str:
    """The direct message that starts a watch of a game played in a channel (not a thread,
    where watchers are mentioned): it tells where the news will come, and by arriving shows
    that it can (:data:`WATCH_NO_DIRECT_MESSAGES` otherwise)."""
    game = f"**{result.game_name}** (game {result.game_id}) in <#{result.channel_id}>"
    return f"👀 You are watching {game}: I will write here {_hear_when(result)}."


def with_watchers(
    content: str, watcher_ids: Sequence[int], *, pinged: int = 0
) -> tuple[str, tuple[int, ...]]:
    """``content`` with a last line mentioning watchers of a game played in a thread
    (``👀 Watching: <@5> <@6>``), and the watchers it mentions.

    As many of ``watcher_ids`` as fit are mentioned, in order: the message stays within
    :data:`MESSAGE_LIMIT` characters and, with the ``pinged`` users the post mentions
    already, within :data:`MAX_MENTIONS` pinged users. The others must hear of it another
    way (a direct message). No watcher fits: ``content`` unchanged, ``()``.
    """
    room = MESSAGE_LIMIT - len(content) - len(f"\n{WATCHERS_LINE}")
    fitted: list[int] = []
    for user_id in dict.fromkeys(watcher_ids):
        piece = f" {mention(user_id)}"
        if pinged + len(fitted) >= MAX_MENTIONS or len(piece) > room:
            break
        fitted.append(user_id)
        room -= len(piece)
    if not fitted:
        return content, ()
    line = WATCHERS_LINE + "".join(f" {mention(u)}" for u in fitted)
    return f"{content}\n{line}", tuple(fitted)


def watcher_dm_text(
    snapshot: GameSnapshot, content: str, jump_url: str | None, *, move: bool = False
) -> str:
    """The direct message a watcher gets for a board post of ``snapshot`` whose text was
    ``content``: ``**Orbs** in <#5>: <what happened> <link>``.

    What happened is the post's first line while the game goes on; once it is over, the
    result, after that line when the post is of the ``move`` that ended it (the last turn,
    whole in Generation Zero: :func:`~bot.presenters.turns.watcher_turn_line`). Public
    text only, never a picture (in games with hidden information the post holds only what
    everyone may know, and so does this).
    """
    first = next((line for line in content.split("\n") if line.strip()), "")
    what = first
    if not snapshot.is_active:
        result = outcome_text(snapshot)
        what = f"{first} {result}" if move and first and result else result or first
    head = f"**{snapshot.game_name}** in <#{snapshot.channel_id}>: "
    tail = f" {jump_url}" if jump_url else ""
    room = MESSAGE_LIMIT - len(head) - len(tail)
    if len(what) > room:
        what = what[: room - 1] + "…"
    return f"{head}{what}{tail}"


_MARKDOWN = str.maketrans({c: f"\\{c}" for c in "\\*_~`|>"})


def _plain(name: str) -> str:
    """A display name with Discord's markdown characters escaped."""
    return name.translate(_MARKDOWN)


def _listing_line(item: GameListing, names: Mapping[int, str]) -> str:
    """``• **Orbs** · ann vs bob · bob to move (1d 2h left) · <#5> · last move <t:…:R>``."""
    snapshot = item.snapshot
    shown = [_plain(names.get(u, str(u))) for u in snapshot.user_ids]
    counts = Counter(shown)
    # Bots of one level share a name: "Gameroom (level 2) ×3", and the one to move by seat.
    players = " vs ".join(
        name if counts[name] == 1 else f"{name} ×{counts[name]}" for name in dict.fromkeys(shown)
    )
    if all(is_bot(u) for u in snapshot.user_ids):
        players = f"exhibition: {players}"
    movers = _join(
        [
            shown[s] if counts[shown[s]] == 1 else f"{shown[s]} ({snapshot.players[s].seat_name})"
            for s in snapshot.to_move
            if 0 <= s < len(shown)
        ]
    )
    turn = "your move" if item.your_turn else f"{movers} to move"
    if item.clock_paused:
        turn += " (clock paused: on vacation)"
    elif item.time_left is not None:
        left = short_duration(item.time_left)
        turn += f" ({left} left)" if item.time_left > timedelta(0) else " (out of time)"
    since = "last move" if snapshot.last_moves else "started"
    parts = [
        f"**{snapshot.game_name}**",
        players,
        turn,
        f"<#{snapshot.channel_id}>",
        f"{since} {_timestamp(item.last_move_at)}",
    ]
    if item.watching:
        parts.append("watching")
    return "• " + " · ".join(parts)


def games_list_text(
    listing: GamesList, names: Mapping[int, str], *, in_thread: bool = False
) -> str:
    """``/games``: a heading, then one line per game (:func:`_listing_line`); ``names``
    maps user ids to display names (a missing one shows as the id). ``in_thread``: asked
    in a thread, which has no threads of its own to mention."""
    threads = "" if in_thread else " and its threads"
    where = {
        GamesScope.CHANNEL: f"in <#{listing.channel_id}>{threads}",
        GamesScope.SERVER: "on this server",
        GamesScope.MINE: "of yours (played or watched)",
    }[listing.scope]
    if not listing.games:
        return f"No games in progress {where}."
    shown = len(listing.games)
    count = str(shown) if listing.total == shown else f"the {shown} most recent of {listing.total}"
    lines = [f"**Games in progress {where}** ({count})"]
    lines.extend(_listing_line(item, names) for item in listing.games)
    return "\n".join(lines)
