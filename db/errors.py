"""Errors the repositories raise. Every one of them means the write was rolled back."""

from __future__ import annotations

__all__ = [
    "ChallengeChangedError",
    "ChallengeClosedError",
    "ChallengeFullError",
    "ChallengeNotFoundError",
    "ChannelBusyError",
    "GameNotActiveError",
    "GameNotFoundError",
    "PersistenceError",
    "RematchAlreadyOpenError",
    "RematchAlreadyStartedError",
    "StaleVersionError",
]


class PersistenceError(Exception):
    """Base of the errors below; nothing was written when one is raised."""


class ChannelBusyError(PersistenceError):
    """The channel or thread already has an active game.

    Raised when the partial unique index ``uq_games_channel_id_active`` refuses a second
    active game in ``channel_id``.
    """

    def __init__(self, channel_id: int) -> None:
        super().__init__(f"channel {channel_id} already has an active game")
        self.channel_id = channel_id


class GameNotFoundError(PersistenceError, LookupError):
    """No game has id ``game_id``."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game with id {game_id}")
        self.game_id = game_id


class StaleVersionError(PersistenceError):
    """Compare-and-set on ``games.version`` failed: someone committed a change first.

    ``expected_version`` is the version the caller quoted, ``actual_version`` the one the
    database holds now. The caller should reload the game and tell the player it moved on.
    """

    def __init__(self, game_id: int, expected_version: int, actual_version: int) -> None:
        super().__init__(f"game {game_id} is at version {actual_version}, not {expected_version}")
        self.game_id = game_id
        self.expected_version = expected_version
        self.actual_version = actual_version


class GameNotActiveError(PersistenceError):
    """The game is finished or aborted, so it takes no moves, draw offers or results."""

    def __init__(self, game_id: int, status: str) -> None:
        super().__init__(f"game {game_id} is {status}, not active")
        self.game_id = game_id
        self.status = status


class ChallengeClosedError(PersistenceError):
    """The challenge is no longer open (answered, cancelled or expired) or does not exist.

    Raised by :meth:`db.GamesRepo.create` when asked to accept a challenge atomically with
    the game's creation, and by :meth:`db.ChallengesRepo.enter`: another answer won the
    race, or the challenge ran out.
    """

    def __init__(self, challenge_id: int) -> None:
        super().__init__(f"challenge {challenge_id} is no longer open")
        self.challenge_id = challenge_id


class ChallengeNotFoundError(PersistenceError, LookupError):
    """No challenge has id ``challenge_id``."""

    def __init__(self, challenge_id: int) -> None:
        super().__init__(f"no challenge with id {challenge_id}")
        self.challenge_id = challenge_id


class ChallengeChangedError(PersistenceError):
    """Compare-and-set on ``challenges.version`` failed: the lobby changed first.

    Someone joined, accepted, declined or left between the caller's read (at
    ``expected_version``) and its write; the challenge is still open. Reload and decide again.
    """

    def __init__(self, challenge_id: int, expected_version: int, actual_version: int) -> None:
        super().__init__(
            f"challenge {challenge_id} is at version {actual_version}, not {expected_version}"
        )
        self.challenge_id = challenge_id
        self.expected_version = expected_version
        self.actual_version = actual_version


class ChallengeFullError(PersistenceError):
    """The change would have more users holding seats than the challenge has seats."""

    def __init__(self, challenge_id: int, players: int) -> None:
        super().__init__(f"challenge {challenge_id} has only {players} seats")
        self.challenge_id = challenge_id
        self.players = players


class RematchAlreadyOpenError(PersistenceError):
    """A rematch of game ``game_id`` is already open: the partial unique index
    ``uq_challenges_rematch_of_open`` allows one open rematch challenge per game, so two
    presses of Rematch at the same instant (even in two processes) open one challenge."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"a rematch of game {game_id} is already open")
        self.game_id = game_id


class RematchAlreadyStartedError(PersistenceError):
    """A rematch of game ``game_id`` has already started: its challenge was accepted and
    its game, ``rematch_game_id``, was not aborted. A game gets one rematch that starts."""

    def __init__(self, game_id: int, rematch_game_id: int) -> None:
        super().__init__(
            f"the rematch of game {game_id} has already started (game {rematch_game_id})"
        )
        self.game_id = game_id
        self.rematch_game_id = rematch_game_id
