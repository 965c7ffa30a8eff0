"""Custom ids of Gameroom's persistent buttons, built and parsed in one place.

Buttons carry everything they need in their custom id, so they keep working after a restart
(discord.py routes them through :class:`discord.ui.DynamicItem` templates):

* game buttons: ``gr:<game_id>:<action>:<version>``, where ``version`` is the game version the
  button was drawn at, so a press on an old board or a withdrawn offer is recognised as stale
  (except "My view", which always shows the current private view and only notes it);
* challenge buttons: ``gr:c<challenge_id>:<action>``, the lobby's "Add a bot…" menu
  ``gr:c<challenge_id>:bots`` and its "Remove a bot…" menu ``gr:c<challenge_id>:unbot``; the
  service checks every press against
  the lobby as it is now (a challenge leaves ``open`` only once, and a press for a seat that
  was taken meanwhile is refused), so these ids need no version.

Custom ids are at most 100 characters; these stay under 40.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "BOT_MENU_TEMPLATE",
    "BOT_REMOVAL_TEMPLATE",
    "CHALLENGE_TEMPLATE",
    "GAME_TEMPLATE",
    "BotMenuId",
    "BotRemovalMenuId",
    "ChallengeAction",
    "ChallengeButtonId",
    "GameAction",
    "GameButtonId",
]


class GameAction(StrEnum):
    """What a game button does."""

    DRAW_ACCEPT = "draw_accept"
    """Accept the pending draw offer."""
    DRAW_DECLINE = "draw_decline"
    """Decline (or, for the one who offered, withdraw) the pending draw offer."""
    MY_VIEW = "my_view"
    """Show the presser their current private view (games with hidden information)."""
    WATCH = "watch"
    """Follow the game (or stop following it): notified at its end, or after every move."""
    REMATCH = "rematch"
    """After the end: challenge the same players again, seats rotated, same options."""
    TAKEBACK_ACCEPT = "takeback_accept"
    """Accept the pending takeback request (the requester's last move is undone)."""
    TAKEBACK_DECLINE = "takeback_decline"
    """Decline (or, for the requester, withdraw) the pending takeback request."""
    CLAIM_TIME = "claim_time"
    """Claim the win (or the game's timeout rule) against a seat out of time on a soft clock."""


class ChallengeAction(StrEnum):
    """What a challenge (lobby) button does."""

    ACCEPT = "accept"
    """An invited player takes the seat reserved for them."""
    DECLINE = "decline"
    """An invited player refuses (closes a two-seat challenge, else frees the seat)."""
    JOIN = "join"
    """Anyone takes an open seat."""
    LEAVE = "leave"
    """A seated player (not the challenger) gives the seat up before the start."""
    START = "start"
    """The challenger starts with the players present (games that allow fewer)."""
    CANCEL = "cancel"
    """The challenger withdraws the challenge."""


def _alternatives(actions: type[StrEnum]) -> str:
    return "|".join(re.escape(a.value) for a in actions)


#: Template of game buttons (a regular expression matched against the whole custom id).
GAME_TEMPLATE = rf"gr:(?P<game_id>\d+):(?P<action>{_alternatives(GameAction)}):(?P<version>\d+)"
#: Template of challenge buttons.
CHALLENGE_TEMPLATE = rf"gr:c(?P<challenge_id>\d+):(?P<action>{_alternatives(ChallengeAction)})"

_GAME = re.compile(GAME_TEMPLATE)
_CHALLENGE = re.compile(CHALLENGE_TEMPLATE)


@dataclass(frozen=True, slots=True)
class GameButtonId:
    """A game button's custom id: ``gr:<game_id>:<action>:<version>``."""

    game_id: int
    action: GameAction
    version: int

    def __str__(self) -> str:
        return f"gr:{self.game_id}:{self.action.value}:{self.version}"

    @classmethod
    def parse(cls, custom_id: str) -> GameButtonId | None:
        """The id ``custom_id`` encodes, or ``None`` if it is not a game button's."""
        match = _GAME.fullmatch(custom_id)
        return None if match is None else cls.from_match(match)

    @classmethod
    def from_match(cls, match: re.Match[str]) -> GameButtonId:
        """The id from a match of :data:`GAME_TEMPLATE` (what discord.py hands a DynamicItem)."""
        return cls(int(match["game_id"]), GameAction(match["action"]), int(match["version"]))


@dataclass(frozen=True, slots=True)
class ChallengeButtonId:
    """A challenge button's custom id: ``gr:c<challenge_id>:<action>``."""

    challenge_id: int
    action: ChallengeAction

    def __str__(self) -> str:
        return f"gr:c{self.challenge_id}:{self.action.value}"

    @classmethod
    def parse(cls, custom_id: str) -> ChallengeButtonId | None:
        """The id ``custom_id`` encodes, or ``None`` if it is not a challenge button's."""
        match = _CHALLENGE.fullmatch(custom_id)
        return None if match is None else cls.from_match(match)

    @classmethod
    def from_match(cls, match: re.Match[str]) -> ChallengeButtonId:
        """The id from a match of :data:`CHALLENGE_TEMPLATE`."""
        return cls(int(match["challenge_id"]), ChallengeAction(match["action"]))


#: Template of a lobby's "Add a bot…" menu: ``gr:c<challenge_id>:bots`` (the level is the
#: option the challenger picks, not part of the id).
BOT_MENU_TEMPLATE = r"gr:c(?P<challenge_id>\d+):bots"
_BOT_MENU = re.compile(BOT_MENU_TEMPLATE)


@dataclass(frozen=True, slots=True)
class BotMenuId:
    """A lobby's "Add a bot…" menu: ``gr:c<challenge_id>:bots``."""

    challenge_id: int

    def __str__(self) -> str:
        return f"gr:c{self.challenge_id}:bots"

    @classmethod
    def parse(cls, custom_id: str) -> BotMenuId | None:
        """The id ``custom_id`` encodes, or ``None`` if it is not a bot menu's."""
        match = _BOT_MENU.fullmatch(custom_id)
        return None if match is None else cls(int(match["challenge_id"]))


#: Template of a lobby's "Remove a bot…" menu: ``gr:c<challenge_id>:unbot`` (the bot is the
#: option the challenger picks: its bot user id).
BOT_REMOVAL_TEMPLATE = r"gr:c(?P<challenge_id>\d+):unbot"
_BOT_REMOVAL = re.compile(BOT_REMOVAL_TEMPLATE)


@dataclass(frozen=True, slots=True)
class BotRemovalMenuId:
    """A lobby's "Remove a bot…" menu: ``gr:c<challenge_id>:unbot``."""

    challenge_id: int

    def __str__(self) -> str:
        return f"gr:c{self.challenge_id}:unbot"

    @classmethod
    def parse(cls, custom_id: str) -> BotRemovalMenuId | None:
        """The id ``custom_id`` encodes, or ``None`` if it is not a bot removal menu's."""
        match = _BOT_REMOVAL.fullmatch(custom_id)
        return None if match is None else cls(int(match["challenge_id"]))
