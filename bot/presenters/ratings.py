"""Text around ratings: the shown number, ``/rating`` and ``/leaderboard`` captions and
footers, the privacy setting and ``/forget-me``.

(The final board's rating changes, ``1512 → 1538 (+26)``, are part of the outcome text in
:mod:`bot.presenters.turns`.)
"""

from __future__ import annotations

from bot.presenters.common import mention
from bot.service.rating_models import GameRating, Leaderboard, RatingProfile

__all__ = [
    "FORGET_ME_PHRASE",
    "forget_me_done_text",
    "forget_me_refused_text",
    "leaderboard_caption",
    "leaderboard_footer",
    "leaderboard_title",
    "privacy_text",
    "profile_caption",
    "rating_value_text",
]

#: What ``/forget-me`` asks the user to type, exactly.
FORGET_ME_PHRASE = "forget me"


def rating_value_text(rating: int, provisional: bool) -> str:
    """``1540``, or ``1540?`` while provisional."""
    return f"{rating}{'?' if provisional else ''}"


def _record(game: GameRating) -> str:
    return f"{game.games} rated games, {game.wins} won, {game.draws} drawn, {game.losses} lost"


def profile_caption(profile: RatingProfile) -> str:
    """One line per rated game, under the card (also its text alternative)."""
    if not profile.ratings:
        return f"{mention(profile.user_id)} has no rated games yet."
    lines = [f"Ratings of {mention(profile.user_id)} (`?`: provisional):"]
    for game in profile.ratings:
        shown = rating_value_text(game.rating, game.provisional)
        lines.append(f"• {game.game_name}: **{shown}** ({_record(game)})")
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
        text = board.caller_note or "You are not rated in this game yet."
    else:
        line = f"Your rating: **{board.caller.rating}**"
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
        f"`{FORGET_ME_PHRASE}` exactly."
    )


def forget_me_done_text() -> str:
    return (
        "Done: your seats in past games, your ratings and their history now belong to an "
        "anonymous player, and your settings are deleted. The games stay as records."
    )
