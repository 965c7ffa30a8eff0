"""A check of the searched move against short forced losses: the strongest level's blunder check.

MCTS spreads its visits over every plausible move, so a loss that takes the opponent two
moves to force (a capture that sets up an unstoppable landing on the core, spec generatorb
G24) is proven only when the search happens to expand every answer to it: about one visit
per answer under the one refuting reply, for each move that allows it. At level 5's budget
it often is not, and in one game level 5 lost in 10 plies that way (docs/ai.md, "The
blunder check"). So, after the search, the move a level picked is checked by a small exact
search (after the MCTS-minimax hybrids of Baier & Winands 2013, here only at the root and
only for the moves about to be played):

* the move *loses in three plies* when the opponent has a reply after which every answer of
  ours (at least one) leaves them a move that wins at once, or a reply that wins at once;
* "wins at once" is looked for only among the moves the game's profile names as likely
  decisive (:attr:`ai.evaluation.GameProfile.decisive`) and confirmed by ``engine.outcome``,
  so every loss claimed is real; a loss through a win the profile does not name is missed;
* a line through a chance node, another seat's turn, or a game end other than the
  opponent's win alone (a draw by the move limit, say) proves nothing.

If the picked move loses so, the next move by visits is checked, and so on; the first that
does not is played. If every candidate (the moves the search expanded and may play) loses
so, or :data:`CHECK_SECONDS` run out, the search's own pick stands: it knows best which of
them makes the loss hardest to find.

It applies to two-player games of perfect information whose profile names decisive moves
(Generatorb today); :func:`applies` says so. For a move that is safe it costs, per reply of
the opponent, two move applications and two move generations (about 15 ms a move in
Generatorb on one core); more for a refuted one.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from ai.evaluation import GameProfile
from ai.search import stepper
from engines.base import Engine, Outcome

__all__ = ["CHECK_SECONDS", "applies", "loses_in_three", "safe_choice", "unrefuted"]

#: The most the checks of one decision may take after the search, in seconds: the candidates
#: still unchecked then are taken as they are. Read at each call, so a test may change it.
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
    step = stepper(engine)
    opponent = 1 - seat

    def wins_at_once(position: Any) -> bool:
        """The opponent, to move in ``position``, wins at once with a likely decisive move."""
        moves = engine.legal_moves(position, opponent)
        return any(
            _won_alone(engine.outcome(step(position, opponent, moves[index])), opponent)
            for index in decisive(position, opponent, moves)
        )

    child = step(state, seat, move)
    if engine.outcome(child) is not None or engine.to_move(child) != (opponent,):
        return None
    for reply in engine.legal_moves(child, opponent):
        after = step(child, opponent, reply)
        outcome = engine.outcome(after)
        if outcome is not None:
            if _won_alone(outcome, opponent):
                return reply
            continue
        answers = engine.legal_moves(after, seat) if engine.to_move(after) == (seat,) else ()
        if answers and all(
            engine.outcome(answered) is None
            and engine.to_move(answered) == (opponent,)
            and wins_at_once(answered)
            for answered in (step(after, seat, answer) for answer in answers)
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
) -> tuple[int, bool]:
    """``(index, safe)``: the first index of ``order`` (indices into ``moves``, best first;
    the first is the search's pick) whose move does not lose in three plies
    (:func:`loses_in_three`) and ``True``; or the first of ``order`` and ``False``, when
    every one checked loses so or :data:`CHECK_SECONDS` pass before a safe one is found
    (the first is always checked, so ``False`` means that it loses so). Raises
    :class:`ValueError` for an empty ``order``.
    """
    if not order:
        raise ValueError("no move to check")
    safe = unrefuted(engine, profile, state, seat, moves, order, 1)
    return (safe[0], True) if safe else (order[0], False)


def unrefuted(
    engine: Engine[Any, Any],
    profile: GameProfile,
    state: Any,
    seat: int,
    moves: Sequence[Any],
    order: Sequence[int],
    count: int,
) -> list[int]:
    """The first ``count`` indices of ``order`` whose moves do not lose in three plies, in
    their order. The first is always checked; the checks stop once :data:`CHECK_SECONDS`
    have passed, and the moves not checked by then are left out. For level 5's pick
    (:func:`safe_choice`) and ``/hint``'s other moves (:func:`ai.levels.suggest`)."""
    deadline = time.perf_counter() + CHECK_SECONDS
    kept: list[int] = []
    for index in order:
        if len(kept) >= count:
            break
        if loses_in_three(engine, profile, state, seat, moves[index]) is None:
            kept.append(index)
        if time.perf_counter() >= deadline:
            break
    return kept
