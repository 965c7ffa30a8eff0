"""Errors the service raises for things a user did: each carries one friendly sentence.

The cogs show :attr:`ServiceError.message` ephemerally and nothing else. Anything that is not a
:class:`ServiceError` is a bug: the cog logs it and apologises.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "AbortNotAllowedError",
    "ChallengeClosedError",
    "ChallengeNotFoundError",
    "ChallengeSetupError",
    "ChannelBusyError",
    "DrawOfferError",
    "HintError",
    "InvalidMoveError",
    "LobbyError",
    "NoGameHereError",
    "NotAPlayerError",
    "NotChallengedError",
    "NotYourTurnError",
    "ServiceError",
    "StaleActionError",
    "TooManySeatsError",
    "sentence",
]


class ServiceError(Exception):
    """A user-caused error; :attr:`message` is one sentence fit to show that user.

    :attr:`game_id` is the game the error concerns when the service knew it (for the log),
    else ``None``.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.game_id: int | None = None


class NoGameHereError(ServiceError):
    """The channel (or thread) has no active game. The default sentence says what to do
    instead (a newcomer whose game had ended read only "no game in progress": exploratory
    pass 10)."""

    def __init__(
        self,
        message: str = "There is no game in progress in this channel: `/challenge` starts one.",
    ) -> None:
        super().__init__(message)


class NotAPlayerError(ServiceError):
    """The user is not seated in the game they tried to act in; ``seated`` when they hold a
    seat in it but have left (resigned from a game that goes on), so the refusal is about
    this very game."""

    def __init__(
        self, message: str = "You are not playing in this game.", *, seated: bool = False
    ) -> None:
        super().__init__(message)
        self.seated = seated


class NotYourTurnError(ServiceError):
    """The user is a player, but none of their seats may act now.

    ``waiting_for`` holds the user ids of the players who may act, for the presenter;
    ``just_played`` the caller's own move when it is the last one a seat chose (a move sent
    twice, typed again after it was played, or any move tried before the others answered),
    so the answer can say it is played; never a move the time-out rule played.
    """

    def __init__(self, waiting_for: Sequence[int] = (), *, just_played: str | None = None) -> None:
        super().__init__("It is not your turn.")
        self.waiting_for = tuple(waiting_for)
        self.just_played = just_played


class InvalidMoveError(ServiceError):
    """The engine rejected the move text.

    ``kind`` is the engine error's kind (``notation``, ``illegal``, ``ambiguous``) and
    ``candidates`` the canonical moves an ambiguous text could mean.
    """

    def __init__(self, message: str, *, kind: str, text: str, candidates: Sequence[str] = ()):
        super().__init__(message)
        self.kind = kind
        self.text = text
        self.candidates = tuple(candidates)


class StaleActionError(ServiceError):
    """The action was made against a position, offer or challenge that has moved on."""

    def __init__(
        self, message: str = "That was for an earlier position; the game has moved on."
    ) -> None:
        super().__init__(message)


class ChallengeSetupError(ServiceError):
    """A challenge cannot be created: unknown game, bad option, bad preset, bad opponent."""


class TooManySeatsError(ChallengeSetupError):
    """The challenger, the ``people`` they named and the ``bots`` bot seats they asked for
    do not fit the ``seats`` of a game of ``game_name``. ``limit`` says where ``seats`` came
    from: ``"game"``, the game's most players (the seats were counted from what was named);
    ``"options"``, the seats the options or preset name (Orbs' ``preset:teams4``);
    ``"players"``, the ``players:`` typed or the position's count.
    :func:`bot.presenters.too_many_seats_text` words it."""

    def __init__(self, game_name: str, *, people: int, bots: int, seats: int, limit: str) -> None:
        super().__init__(f"{game_name} has room for {seats} players, not {1 + people + bots}.")
        self.game_name = game_name
        self.people = people
        self.bots = bots
        self.seats = seats
        self.limit = limit


class ChallengeNotFoundError(ServiceError):
    """No challenge has that id."""

    def __init__(self, message: str = "That challenge does not exist.") -> None:
        super().__init__(message)


class ChallengeClosedError(StaleActionError):
    """The challenge was already accepted, declined, cancelled or has expired."""

    def __init__(self, status: str) -> None:
        if status == "expired":
            super().__init__("This challenge has expired.")
        else:
            super().__init__(f"This challenge is no longer open: it was already {status}.")
        self.status = status


class ChannelBusyError(ServiceError):
    """The channel already has an active game; nothing was written (start it in a thread)."""

    def __init__(self, message: str = "This channel already has a game in progress.") -> None:
        super().__init__(message)


class NotChallengedError(ServiceError):
    """Someone pressed a challenge button that is not theirs to press (Accept for another
    user's invitation, Start or Cancel by anyone but the challenger, ...)."""


class LobbyError(ServiceError):
    """A lobby press the lobby cannot take now: every seat is taken, the user already has
    one, or too few players are seated to start."""


class DrawOfferError(ServiceError):
    """A draw offer cannot be made or answered now."""


class HintError(ServiceError):
    """A hint is not given now: the game is rated, another person plays, or the bot's
    search workers are busy."""


class AbortNotAllowedError(ServiceError):
    """The user may not abort the game now."""


def sentence(text: str) -> str:
    """An engine message (``"an orb never steps (G15)"``) as a sentence for a user:
    capitalised, with a full stop unless it ends in one already. A message that begins
    with a name written in lower case (a Generatorb cell ``b1``, a move ``a1-c1=2``: its
    first word holds a digit) keeps it as it is: "B1" would name no cell (exploratory
    pass 10)."""
    text = text.strip()
    if not text:
        return text
    first = text.split(maxsplit=1)[0]
    if not any(c.isdigit() for c in first):
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."
