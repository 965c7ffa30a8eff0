"""Message text for snapshots, turns, challenges and errors.

No rules live here: the engine says what happened (its events' ``text``) and how the game
ended; presenters only add names, mentions and Discord markdown. Every function is pure, so
tests check the text without a Discord connection. Moves are shown as inline code, because
notation such as ``c3*d4`` would otherwise turn into markdown.

The functions live in modules by theme, all re-exported here, so callers write
``from bot import presenters`` and ``presenters.turn_text(...)``:

- :mod:`~bot.presenters.common`: mentions, seat labels, errors, the apology, message splitting
- :mod:`~bot.presenters.clocks`: clocks in words (clock line, time left)
- :mod:`~bot.presenters.turns`: turns, moves and results; draws, resignations, aborts
- :mod:`~bot.presenters.private`: what one player alone sees (hidden information)
- :mod:`~bot.presenters.lobby`: challenges
- :mod:`~bot.presenters.records`: ``/game info``, ``/game moves``, ``/game rules``
- :mod:`~bot.presenters.timeouts`: clocks running out, claims, the final warning
- :mod:`~bot.presenters.spectators`: watching and ``/games``
- :mod:`~bot.presenters.social`: takebacks and rematches
- :mod:`~bot.presenters.ratings`: ``/rating``, ``/leaderboard``, privacy, ``/forget-me``

Within the package, modules import only those above them in this list (:mod:`clocks` only
:mod:`common`, :mod:`records` :mod:`turns`, and so on), so it has no import cycle.
"""

from __future__ import annotations

from bot.presenters.clocks import clock_line, time_left_text
from bot.presenters.common import (
    APOLOGY,
    MESSAGE_LIMIT,
    error_text,
    mention,
    seat_label,
    split_message,
    too_many_seats_text,
)
from bot.presenters.lobby import challenge_closed_text, challenge_text
from bot.presenters.private import move_ack_text, private_view_text
from bot.presenters.ratings import (
    FORGET_ME_PHRASE,
    bot_levels_caption,
    forget_me_done_text,
    forget_me_refused_text,
    leaderboard_caption,
    leaderboard_footer,
    leaderboard_title,
    privacy_text,
    profile_caption,
    profile_rating_text,
    rating_value_text,
)
from bot.presenters.records import (
    POSITION_INLINE_MAX,
    TURNED_BOARDS,
    game_info_text,
    move_list_text,
    no_game_rules_text,
    position_file_name,
    rules_text,
)
from bot.presenters.social import (
    REMATCH_ALREADY_CHOSEN,
    TAKEBACK_REQUEST_CLOSED,
    TAKEBACK_REQUEST_ENDED,
    TAKEBACK_REQUEST_LAPSED,
    rematch_level_prompt,
    rematch_open_text,
    rematch_posted_text,
    takeback_answer_text,
    takeback_done_text,
    takeback_request_text,
)
from bot.presenters.spectators import (
    MAX_MENTIONS,
    WATCH_NO_DIRECT_MESSAGES,
    WATCHERS_LINE,
    games_list_text,
    watch_confirmation_text,
    watch_text,
    watcher_dm_text,
    with_watchers,
)
from bot.presenters.timeouts import (
    CLAIM_CLOSED,
    CLAIM_LAPSED,
    claimed_text,
    claimers_named,
    clock_event_text,
    final_warning_text,
)
from bot.presenters.turns import (
    DRAW_OFFER_CLOSED,
    DRAW_OFFER_ENDED,
    DRAW_OFFER_LAPSED,
    DRAW_OFFER_RESIGNED,
    HINT_ORDER_NOTE,
    OFFER_OPEN_TAIL,
    abort_text,
    board_caption,
    channel_deleted_text,
    decision_text,
    draw_answer_text,
    draw_offer_settled_text,
    draw_offer_text,
    draw_progress_text,
    game_started_text,
    hint_text,
    late_board_is_first,
    late_board_text,
    outcome_text,
    play_it_there_text,
    rating_change_text,
    rating_changes_text,
    resign_text,
    resigned_ack,
    told_privately_line,
    turn_mention_ids,
    turn_text,
    watcher_turn_line,
)

__all__ = [
    "APOLOGY",
    "CLAIM_CLOSED",
    "CLAIM_LAPSED",
    "DRAW_OFFER_CLOSED",
    "DRAW_OFFER_ENDED",
    "DRAW_OFFER_LAPSED",
    "DRAW_OFFER_RESIGNED",
    "FORGET_ME_PHRASE",
    "HINT_ORDER_NOTE",
    "MAX_MENTIONS",
    "MESSAGE_LIMIT",
    "OFFER_OPEN_TAIL",
    "POSITION_INLINE_MAX",
    "REMATCH_ALREADY_CHOSEN",
    "TAKEBACK_REQUEST_CLOSED",
    "TAKEBACK_REQUEST_ENDED",
    "TAKEBACK_REQUEST_LAPSED",
    "TURNED_BOARDS",
    "WATCHERS_LINE",
    "WATCH_NO_DIRECT_MESSAGES",
    "abort_text",
    "board_caption",
    "bot_levels_caption",
    "challenge_closed_text",
    "challenge_text",
    "channel_deleted_text",
    "claimed_text",
    "claimers_named",
    "clock_event_text",
    "clock_line",
    "decision_text",
    "draw_answer_text",
    "draw_offer_settled_text",
    "draw_offer_text",
    "draw_progress_text",
    "error_text",
    "final_warning_text",
    "forget_me_done_text",
    "forget_me_refused_text",
    "game_info_text",
    "game_started_text",
    "games_list_text",
    "hint_text",
    "late_board_is_first",
    "late_board_text",
    "leaderboard_caption",
    "leaderboard_footer",
    "leaderboard_title",
    "mention",
    "move_ack_text",
    "move_list_text",
    "no_game_rules_text",
    "outcome_text",
    "play_it_there_text",
    "position_file_name",
    "privacy_text",
    "private_view_text",
    "profile_caption",
    "profile_rating_text",
    "rating_change_text",
    "rating_changes_text",
    "rating_value_text",
    "rematch_level_prompt",
    "rematch_open_text",
    "rematch_posted_text",
    "resign_text",
    "resigned_ack",
    "rules_text",
    "seat_label",
    "split_message",
    "takeback_answer_text",
    "takeback_done_text",
    "takeback_request_text",
    "time_left_text",
    "told_privately_line",
    "too_many_seats_text",
    "turn_mention_ids",
    "turn_text",
    "watch_confirmation_text",
    "watch_text",
    "watcher_dm_text",
    "watcher_turn_line",
    "with_watchers",
]
