"""A check of the searched move against short forced losses: the strongest level's blunder check.

MCTS spreads its visits over every plausible move, so a loss that takes the opponent two
moves to force (a capture that sets up an unstoppable landing on the core, spec generatorb
G24) is proven only when the search happens to expand every answer to it: about one visit
per answer under the one refuting reply, for each move that allows it. At level 5's budget
it often is not, and in one game level 5 lost in 10 plies that way (docs/ai.md, "The
blunder check"). So, after the search, the move a level picked is checked by a small exact
search (after the MCTS-minimax hybrids of Baier & Winands 2013, here only at the root and
only for the move about to be played):

* the move *loses in three plies* when the opponent has a reply after which every answer of
  ours leaves them a move that wins at once (or the reply wins at once itself);
* "wins at once" is tried only among the moves the game's profile names as likely decisive
  (:attr:`ai.evaluation.GameProfile.decisive`) and confirmed by ``engine.outcome``, so every
  loss claimed is real; a loss through a win the profile does not name is missed;
* a line through a chance node, another seat's turn or a game end other than the opponent's
  win proves nothing.

If the picked move loses so, the next move by visits is checked, and so on; the first that
does not is played. If every candidate loses (or the time allowed runs out), the search's
own pick stands: against best play the game is lost anyway, and the search knows best which
move makes it hardest.

It applies to two-player games of perfect information whose profile names decisive moves
(Generatorb today); :func:`applies` says so. The cost is one move generation per reply of
the opponent for a move that is safe (about 15 ms in Generatorb on one core), more for a
refuted one; :data:`CHECK_SECONDS` caps it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from ai.evaluation import GameProfile
from engines.base import Engine, Outcome

__all__ = ["CHECK_SECONDS", "applies", "loses_in_three", "safe_choice"]

#: The most a blunder check may take after the search, in seconds: the candidates still
#: unchecked then are taken as they are.
CHECK_SECONDS = 0.5


def applies(engine: Engine[Any, Any], profile: GameProfile, state: Any) -> bool:
    """Whether the check can prove anything in ``state``: a game of perfect information
    (``engine.info.has_hidden_information`` false) for two players whose profile names
    decisive moves."""
    return (
        not engine.info.has_hidden_information
        and profile.decisive is not None
        and profile.players(state) == 2
    )


def _wins_at_once(
    engine: Engine[Any, Any],
    decisive: Callable[[Any, int, Sequence[Any]], list[int]],
    state: Any,
    seat: int,
) -> bool:
    """Whether ``seat``, to move in ``state``, has a move that ends the game with it the only
    winner, among its likely decisive moves."""
    moves = engine.legal_moves(state, seat)
    return any(
        _won_alone(engine.outcome(engine.apply(state, seat, moves[index]).state), seat)
        for index in decisive(state, seat, moves)
    )


def _won_alone(outcome: Outcome | None, seat: int) -> bool:
    """Whether ``outcome`` is a finished game that ``seat`` won alone."""
    return outcome is not None and tuple(outcome.winners) == (seat,)


def loses_in_three(
    engine: Engine[Any, Any],
    profile: GameProfile,
    state: Any,
    seat: int,
    move: Any,
) -> Any | None:
    """The opponent's reply that wins by force within three plies if ``seat`` plays ``move``
    in ``state`` (a reply that wins at once, or one after which every answer of ``seat``
    leaves the opponent a move that wins at once), or ``None`` when there is none the check
    can prove (see the module docstring). ``state`` must be a two-player position of perfect
    information with ``seat`` to move (:func:`applies`) and ``move`` one of its legal moves;
    raises what the engine raises for an illegal move.
    """
    decisive = profile.decisive
    if decisive is None:
        return None
    child = engine.apply(state, seat, move).state
    opponent = 1 - seat
    if engine.outcome(child) is not None or engine.to_move(child) != (opponent,):
        return None
    for reply in engine.legal_moves(child, opponent):
        after = engine.apply(child, opponent, reply).state
        outcome = engine.outcome(after)
        if outcome is not None:
            if _won_alone(outcome, opponent):
                return reply
            continue
        if engine.to_move(after) != (seat,):
            continue
        if all(
            engine.outcome(answered) is None
            and engine.to_move(answered) == (opponent,)
            and _wins_at_once(engine, decisive, answered, opponent)
            for answered in (
                engine.apply(after, seat, answer).state
                for answer in engine.legal_moves(after, seat)
            )
        ):
            return reply
    return None


def safe_choice(
    engine: Engine[Any, Any],
    profile: GameProfile,
    state: Any,
    seat: int,
    moves: Sequence[Any],
    order: Sequence[int],
    *,
    seconds: float = CHECK_SECONDS,
) -> int:
    """The first index of ``order`` (indices into ``moves``, best first; the first is the
    search's pick) whose move does not lose in three plies (:func:`loses_in_three`); the
    first of ``order`` when each one checked does, or when ``seconds`` pass before one is
    found. Raises :class:`ValueError` for an empty ``order``.
    """
    if not order:
        raise ValueError("no move to check")
    deadline = time.perf_counter() + seconds
    for index in order:
        if loses_in_three(engine, profile, state, seat, moves[index]) is None:
            return index
        if time.perf_counter() >= deadline:
            break
    return order[0]
