"""Per-game knowledge the search needs: player count, cut-off depth, a heuristic evaluation.

Random playouts to the end are too long or too slow in several games (an Arbos game is ~175
plies at ~2 ms each; Generator without a turn limit and Orbs with four players go on for
thousands of plies), so MCTS stops each playout after :attr:`GameProfile.playout_plies` plies
and asks :attr:`GameProfile.evaluate` for a reward vector (``ai.rewards``), the usual
"truncated playout + static evaluation" of e.g. Lorentz 2008 (Amazons) and Winands et al. 2010.

Each evaluation turns a few features named in the game's spec (material, cells held, progress
toward the win condition) into a value per seat, then :func:`ai.rewards.rewards_from_values`
turns values into rewards in ``[0, 1]``. Evaluations read the full state; for a game with
hidden information they only ever see a determinized state built from the bot seat's view.

Add a game by registering a :class:`GameProfile` in :data:`PROFILES`; a game without one
gets :data:`DEFAULT_PROFILE` (playouts to the end, every seat ½ when cut off).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ai.rewards import Rewards, rewards_from_values
from engines import arbos, generator_board, generatorb, orbs

__all__ = ["DEFAULT_PROFILE", "PROFILES", "GameProfile", "profile_for"]

Evaluator = Callable[[Any], Rewards]


@dataclass(frozen=True, slots=True)
class GameProfile:
    """What the search knows about one game beyond the engine contract.

    * ``players(state)``: the number of seats of the game ``state`` belongs to.
    * ``evaluate(state)``: a reward vector for an unfinished state, or ``None`` to give every
      seat ½ at a cut-off.
    * ``playout_plies``: plies a playout may run before it is cut off and evaluated
      (0 = evaluate the new leaf at once; chance draws count as plies).
    """

    players: Callable[[Any], int]
    evaluate: Evaluator | None = None
    playout_plies: int = 10_000


# ---------------------------------------------------------------------------------------------
# Generatorb: material, the front line (G25) and the way to the enemy core (G24)
# ---------------------------------------------------------------------------------------------

_GB_XY = tuple((cell // 8, cell % 8) for cell in range(64))
_GB_FRONT = frozenset(generatorb.FRONT_LINE)


def _generatorb_values(state: generatorb.GeneratorbState) -> tuple[float, float]:
    """Per seat: orbs on board and in supply, + 1 per front-line cell held, + up to 2.1 for a
    piece close to the enemy core (7 − Chebyshev distance, × 0.3)."""
    board = state.board
    material = [float(state.supply[0]), float(state.supply[1])]
    front = [0, 0]
    near = [8, 8]
    (cx0, cy0), (cx1, cy1) = _GB_XY[generatorb.CORES[0]], _GB_XY[generatorb.CORES[1]]
    for cell, value in enumerate(board):
        if not value:
            continue
        seat = 0 if value > 0 else 1
        material[seat] += abs(value)
        if cell in _GB_FRONT:
            front[seat] += 1
        x, y = _GB_XY[cell]
        tx, ty = (cx1, cy1) if seat == 0 else (cx0, cy0)
        distance = max(abs(x - tx), abs(y - ty))
        if distance < near[seat]:
            near[seat] = distance
    return (
        material[0] + front[0] + 0.3 * max(0, 7 - near[0]),
        material[1] + front[1] + 0.3 * max(0, 7 - near[1]),
    )


def _generatorb_evaluate(state: generatorb.GeneratorbState) -> Rewards:
    return rewards_from_values(_generatorb_values(state), 3.0)


# ---------------------------------------------------------------------------------------------
# Arbos: the score of A20 (seeds touching the best two trees), ties to Black (A21)
# ---------------------------------------------------------------------------------------------


def _arbos_evaluate(state: arbos.ArbosState) -> Rewards:
    """Per seat: its A20 score now, + 0.02 per own spore (room to grow), + 0.25 to Black for
    the A21 tie rule. Spread 2 seeds."""
    board = state.board
    white = arbos.score_of(board, arbos.trees_of(board, arbos.WHITE))[0]
    black = arbos.score_of(board, arbos.trees_of(board, arbos.BLACK))[0]
    spores_white = board.count(arbos.WHITE)
    spores_black = board.count(arbos.BLACK)
    return rewards_from_values(
        (white + 0.02 * spores_white, black + 0.25 + 0.02 * spores_black), 2.0
    )


# ---------------------------------------------------------------------------------------------
# Generator: progress toward a power coupling (GEN-13), pyramids in play
# ---------------------------------------------------------------------------------------------


def _generator_evaluate(state: Any) -> Rewards:
    """Per seat: 2 for each of Small on level 4 / Medium on level 3 / Large on level 2 of its
    colour (the parts of a power coupling, branches ignored), + 0.2 per own stack on the
    board; a resigned seat −10. Spread 2."""
    board = state.board
    values = []
    for seat, stash in enumerate(state.stashes):
        if stash is None:
            values.append(-10.0)
            continue
        qualifying = generator_board.QUALIFYING[state.rules.colours[seat]]
        small = medium = large = 0
        nodes = state.occupied[seat]
        for node in nodes:
            level = qualifying[node]
            if level == 4:
                small = 1
            elif level == 3 and board[node] & generator_board.MEDIUM:
                medium = 1
            elif level == 2 and board[node] & generator_board.LARGE:
                large = 1
        values.append(2.0 * (small + medium + large) + 0.2 * len(nodes))
    return rewards_from_values(values, 2.0)


# ---------------------------------------------------------------------------------------------
# Orbs: orbs left per side (the last side with orbs wins, ORB-8)
# ---------------------------------------------------------------------------------------------


def _orbs_players(state: orbs.OrbsState) -> int:
    return state.rules.players


def _orbs_evaluate(state: orbs.OrbsState) -> Rewards:
    """Per seat: the orbs its side (team) has left, a Void counting 1.5 (it destroys
    whatever it meets). Teammates get the same value, so they tie. Spread 1.5 orbs."""
    rules = state.rules
    per_seat = [0.0] * rules.players
    for value in state.board:
        if value >= 0:
            per_seat[value // 5] += 1.5 if value % 5 == orbs.VOID else 1.0
    per_side: dict[int, float] = {}
    for seat, count in enumerate(per_seat):
        per_side[rules.side[seat]] = per_side.get(rules.side[seat], 0.0) + count
    return rewards_from_values([per_side[rules.side[s]] for s in range(rules.players)], 1.5)


# ---------------------------------------------------------------------------------------------
# Generation Zero: the score of R12.1, then kills and Health (the R12.3 tie-breaks)
# ---------------------------------------------------------------------------------------------


def _gz_players(state: Any) -> int:
    return int(state.doc["players"])


def _gz_evaluate(state: Any) -> Rewards:
    """Per seat: its R12.1 score + 0.1 per kill + 0.05 per Health of its living characters;
    a resigned seat −10. Spread 1.5 points."""
    game = state.game()
    scores = game.scores()
    seats = game.d["seats"]
    health = [0] * len(seats)
    for _, char in game.living():
        health[char["seat"]] += char["hp"]
    values = [
        -10.0 if seat["out"] else scores[s] + 0.1 * seat["kills"] + 0.05 * health[s]
        for s, seat in enumerate(seats)
    ]
    return rewards_from_values(values, 1.5)


def _two(_state: Any) -> int:
    return 2


def _generator_players(state: Any) -> int:
    return len(state.rules.colours)


#: Playout plies before the cut-off were tuned with ``bench/ai.py`` (iterations per second
#: against strength in ``bench/ai_strength.py``).
PROFILES: dict[str, GameProfile] = {
    "generatorb": GameProfile(_two, _generatorb_evaluate, playout_plies=4),
    "arbos": GameProfile(_two, _arbos_evaluate, playout_plies=2),
    "generator": GameProfile(_generator_players, _generator_evaluate, playout_plies=40),
    "orbs": GameProfile(_orbs_players, _orbs_evaluate, playout_plies=30),
    "generation_zero": GameProfile(_gz_players, _gz_evaluate, playout_plies=12),
}

#: For a game without a registered profile: two players, playouts to the end.
DEFAULT_PROFILE = GameProfile(_two)


def profile_for(engine_id: str) -> GameProfile:
    """The registered profile of ``engine_id``, else :data:`DEFAULT_PROFILE`."""
    return PROFILES.get(engine_id, DEFAULT_PROFILE)
