"""Text around ratings: the shown number, ``/rating`` and ``/leaderboard`` captions and
footers, the privacy setting and ``/forget-me``.

(The final board's rating changes, ``1512 → 1538 (+26)``, are part of the outcome text in
:mod:`bot.presenters.turns`.)
"""

from __future__ import annotations

from collections.abc import Sequence

from ai.levels import LEVELS
from bot.presenters.common import mention
from bot.service.bot_seats import BOT_NAME
from bot.service.rating_models import GameRating, Leaderboard, RatingProfile

__all__ = [
    "FORGET_ME_PHRASE",
    "bot_levels_caption",
    "forget_me_done_text",
    "forget_me_refused_text",
    "leaderboard_caption",
    "leaderboard_footer",
    "leaderboard_title",
    "privacy_text",
    "profile_caption",
    "profile_rating_text",
    "rating_value_text",
]

#: What ``/forget-me`` asks the user to type, exactly.
FORGET_ME_PHRASE = "forget me"


def rating_value_text(rating: int, provisional: bool) -> str:
    """``1540``, or ``1540?`` while provisional."""
    return f"{rating}{'?' if provisional else ''}"


def profile_rating_text(game: GameRating) -> str:
    """A profile's rating of one game: ``1540?``, or ``–`` for the game asked for that the
    player has no rated game of (a newcomer's 1500 is a prior, not a rating they earned)."""
    return rating_value_text(game.rating, game.provisional) if game.games else "–"


def _record(game: GameRating) -> str:
    games = "1 rated game" if game.games == 1 else f"{game.games} rated games"
    return f"{games}, {game.wins} won, {game.draws} drawn, {game.losses} lost"


def _game_line(game: GameRating) -> str:
    """``Orbs: **1540?** (3 rated games, …)``, or ``Arbos: no rated game yet``."""
    if not game.games:
        return f"{game.game_name}: no rated game yet"
    return f"{game.game_name}: **{profile_rating_text(game)}** ({_record(game)})"


def profile_caption(profile: RatingProfile) -> str:
    """One line per rated game, under the card (also its text alternative)."""
    if not profile.ratings:
        return f"{mention(profile.user_id)} has no rated games yet."
    lines = [f"Ratings of {mention(profile.user_id)} (`?`: provisional):"]
    lines += [f"• {_game_line(game)}" for game in profile.ratings]
    return "\n".join(lines)


def bot_levels_caption(profiles: Sequence[RatingProfile], game: str | None = None) -> str:
    """``/rating user:@Gameroom``: the bot is rated per level, each level a player of its own
    (:func:`~bot.service.bot_seats.bot_identity`), so the answer lists the levels, one line
    each, in ``profiles``' order (levels 1–5; each profile's ``user_id`` is a bot seat id),
    with only game ``game`` when one is given (may pass one message: send it through
    :func:`~bot.presenters.common.split_message`)::

        **Gameroom** plays at five levels, each rated as a player of its own (`?`: provisional):
        • Level 1 · beginner: Generatorb **1596?** (3 rated games, 0 won, 0 drawn, 3 lost)
        • Level 2 · casual: no rated game yet
    """
    lines = [
        f"**{BOT_NAME}** plays at {len(LEVELS)} levels, each rated as a player of its own "
        "(`?`: provisional):"
    ]
    for level, profile in zip(LEVELS, profiles, strict=True):
        played = [g for g in profile.ratings if g.games and game in (None, g.game)]
        games = "; ".join(_game_line(g) for g in played) or "no rated game yet"
        lines.append(f"• Level {level.number} · {level.name}: {games}")
    return "\n".join(lines)


def leaderboard_title(board: Leaderboard) -> str:
    where = "this server" if board.scope == "server" else "everyone"
    return f"{board.game_name} leaderboard · {where}"


def leaderboard_footer(board: Leaderboard) -> str:
    """The gate in words, printed under the table."""
    return (
        "Listed: 5+ rated games, a settled (non-provisional) rating, "
        "a rated game in the last 30 days."
    )


def leaderboard_caption(board: Leaderboard, caller_id: int) -> str:
    """The message with the picture: the caller's place, or why they are not listed. The
    picture is posted in the channel, so the caption names whom its "you" means
    (``<@1>: Your rating: **1520**, place **3**.``; the post pings nobody)."""
    if board.caller is None:
        text = board.caller_note or f"You have no rated {board.game_name} game yet."
    else:
        shown = rating_value_text(board.caller.rating, board.caller.provisional)
        line = f"Your rating: **{shown}**"
        text = (
            f"{line}. {board.caller_note}"
            if board.caller_note
            else f"{line}, place **{board.caller.place}**."
        )
    return f"{mention(caller_id)}: {text}"


def privacy_text(hidden: bool) -> str:
    if hidden:
        return "You are hidden from global leaderboards (server leaderboards still list you)."
    return "You are shown on global leaderboards. Hide with `/settings privacy hidden:True`."


def forget_me_refused_text() -> str:
    return (
        f"Nothing was changed. To be forgotten, run `/forget-me` again and type "
        f"`{FORGET_ME_PHRASE}` (in any case)."
    )


def forget_me_done_text() -> str:
    return (
        "Done: your seats in past games, your ratings and their history now belong to an "
        "anonymous player, and your settings are deleted. The games stay as records."
    )
