"""The Discord-free game service: challenge → seats → moves → end.

The bot's cogs call :class:`GameService` with ints and strings and get back the small frozen
records of :mod:`bot.service.models`; user mistakes come back as
:class:`~bot.service.errors.ServiceError` subclasses carrying one friendly sentence. This
package never imports discord (import-linter enforces it), so it is tested on its own against
real SQLite files.
"""

from __future__ import annotations

from bot.service.errors import (
    AbortNotAllowedError,
    ChallengeClosedError,
    ChallengeNotFoundError,
    ChallengeSetupError,
    ChannelBusyError,
    DrawOfferError,
    HintError,
    InvalidMoveError,
    LobbyError,
    NoGameHereError,
    NotAPlayerError,
    NotChallengedError,
    NotYourTurnError,
    ServiceError,
    StaleActionError,
    TooManySeatsError,
)
from bot.service.models import (
    ChallengeInfo,
    ChallengePlayer,
    DrawOffer,
    GameSnapshot,
    Hint,
    HintMove,
    LobbyUpdate,
    MoveRecord,
    Player,
    ReplayReport,
    TurnResult,
)
from bot.service.service import DEFAULT_CHALLENGE_TTL, GameService

__all__ = [
    "DEFAULT_CHALLENGE_TTL",
    "AbortNotAllowedError",
    "ChallengeClosedError",
    "ChallengeInfo",
    "ChallengeNotFoundError",
    "ChallengePlayer",
    "ChallengeSetupError",
    "ChannelBusyError",
    "DrawOffer",
    "DrawOfferError",
    "GameService",
    "GameSnapshot",
    "Hint",
    "HintError",
    "HintMove",
    "InvalidMoveError",
    "LobbyError",
    "LobbyUpdate",
    "MoveRecord",
    "NoGameHereError",
    "NotAPlayerError",
    "NotChallengedError",
    "NotYourTurnError",
    "Player",
    "ReplayReport",
    "ServiceError",
    "StaleActionError",
    "TooManySeatsError",
    "TurnResult",
]
