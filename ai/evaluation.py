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

Add a game by registering a :class:`GameProfile` in :data:`PROFILES`; a two-player game
without one gets :data:`DEFAULT_PROFILE` (playouts to the end, every seat ½ when cut off),
and the search refuses an engine that may seat more without one (``ai.search.Mcts``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

from ai.rewards import Rewards, rewards_from_values
from engines import arbos, generator_board, generatorb, orbs
from engines.generation_zero.rules import Game
from engines.geometry import gryb

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
    * ``assess_evaluate``: the evaluation :func:`ai.levels.assess` uses instead of
      ``evaluate``, for a game whose ``evaluate`` is deliberately one-sided (Orbs); ``None``
      = ``evaluate``. An assessment must give ½ to an even position.
    * ``exploration``: the UCB1 constant for this game, or ``None`` for
      :data:`ai.search.EXPLORATION`. A game whose evaluated rewards differ little between
      moves needs a smaller one, or the search spreads its visits almost evenly.
    * ``decisive(state, seat, moves)``: indices into ``moves`` (the seat's legal moves) of
      those that may win at once, which the search expands first so that its solver proves
      a win, or refutes a move that allows one, on the first visit, and which a playout
      plays when there is one; ``None`` = none. A wrong guess costs time and bends playouts
      toward it, but never makes a proof: only the move's real outcome does.
    * ``captures(state, seat, moves)``: indices into ``moves`` of those that capture, and
      ``capture_rate``: the probability that a playout ply with a capture plays one of them
      (drawn uniformly) instead of a uniformly random move. Random playouts leave pieces en
      prise and cut off mid-exchange, so the evaluation at the cut-off scores positions
      that no player would allow; preferring captures settles exchanges first (a cheap
      quiescence). ``None`` / 0 = uniform playouts.
    * ``sides(state)``: the seats grouped by side (teams), for a game with teams; ``None`` =
      every seat its own side. A team's win is worth less than 1 to each teammate
      (:func:`ai.rewards.win_rewards`), and the solver needs to know it to prove one. The
      game's outcomes must rank a side's seats in one group (Orbs does, also for a teammate
      out of orbs), or a seat could score more than a "win" and the solver would stop at a
      move that is not its best.
    * ``playout_move(state, seat, draw)``: a quick draw of a legal move for a playout ply
      (``draw()`` gives floats in [0, 1)), or ``None`` to list the legal moves and draw
      among them as usual. For a game whose legal-move list costs far more than checking a
      few moves (Arbos: 400 cells). It replaces the list, so it cannot be combined with
      ``decisive`` or ``captures`` (:class:`ValueError`).
    """

    players: Callable[[Any], int]
    evaluate: Evaluator | None = None
    playout_plies: int = 10_000
    assess_evaluate: Evaluator | None = None
    exploration: float | None = None
    decisive: Callable[[Any, int, Sequence[Any]], list[int]] | None = None
    captures: Callable[[Any, int, Sequence[Any]], list[int]] | None = None
    capture_rate: float = 0.0
    playout_move: Callable[[Any, int, Callable[[], float]], Any] | None = None
    sides: Callable[[Any], Sequence[Sequence[int]]] | None = None

    def __post_init__(self) -> None:
        if self.playout_move is not None and (
            self.decisive is not None or self.captures is not None
        ):
            raise ValueError("playout_move lists no moves, so decisive or captures cannot see any")


# ---------------------------------------------------------------------------------------------
# Generatorb: material, the front line (G25) and the way to the enemy core (G24)
# ---------------------------------------------------------------------------------------------

_GB_XY = tuple((cell // 8, cell % 8) for cell in range(64))
_GB_FRONT = frozenset(generatorb.FRONT_LINE)


#: What a piece on the board is worth by its height (G3): an orb 1, a spheroid 2.5, a globe 3.5.
#: A spheroid or globe is worth more than the orbs it holds, since it takes more pieces and
#: stands against more captures (G16); an orb in supply is worth 1. Weighed against the plain
#: orb count (1, 2, 3) at an equal 1,000-iteration search, these values won 142 / 232 games
#: (61%, 54.8%-67.2%; docs/ai-runs.md, Generatorb, "Two candidate evaluations").
_GB_HEIGHT_VALUE = (0.0, 1.0, 2.5, 3.5)


def _generatorb_values(state: generatorb.GeneratorbState) -> tuple[float, float]:
    """Per seat: orbs in supply (1 each) and pieces on board by :data:`_GB_HEIGHT_VALUE`,
    + 1 per front-line cell held, + up to 2.1 for a piece close to the enemy core
    (7 − Chebyshev distance, × 0.3)."""
    board = state.board
    material = [float(state.supply[0]), float(state.supply[1])]
    front = [0, 0]
    near = [8, 8]
    (cx0, cy0), (cx1, cy1) = _GB_XY[generatorb.CORES[0]], _GB_XY[generatorb.CORES[1]]
    for cell, value in enumerate(board):
        if not value:
            continue
        seat = 0 if value > 0 else 1
        material[seat] += _GB_HEIGHT_VALUE[abs(value)]
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


def _generatorb_decisive(
    state: generatorb.GeneratorbState, seat: int, moves: Sequence[generatorb.GeneratorbMove]
) -> list[int]:
    """Moves that land on the enemy core (G24), first; then, for a seat already holding 4
    front-line cells, moves that take a fifth (G25): onto a front-line cell it does not hold,
    from off the line or leaving an orb behind (a split)."""
    core = generatorb.CORES[1 - seat]
    sign = generatorb.SIGN[seat]
    board = state.board
    first = [index for index, move in enumerate(moves) if move.destination == core]
    if sum(1 for cell in _GB_FRONT if board[cell] * sign > 0) >= 4:
        first.extend(
            index
            for index, move in enumerate(moves)
            if move.destination in _GB_FRONT
            and board[move.destination] * sign <= 0
            and (move.origin not in _GB_FRONT or move.split)
        )
    return first


def _generatorb_captures(
    state: generatorb.GeneratorbState, seat: int, moves: Sequence[generatorb.GeneratorbMove]
) -> list[int]:
    """The moves that take an enemy orb or spheroid (G16)."""
    return [index for index, move in enumerate(moves) if move.capture]


# ---------------------------------------------------------------------------------------------
# Arbos: the score of A20 (seeds touching the best two trees) and the seeds about to touch
# them, ties to Black (A21)
# ---------------------------------------------------------------------------------------------

#: Credit of a seed by its Chebyshev distance from a tree (A3): 1 linked (it scores, A20);
#: 2–5 one to four spores away. Without the far credits every move that links no seed looks
#: alike to the search, and its trees wander instead of growing toward seeds. Until
#: 2026-11-27 the reach stopped at two spores (1, ½, ⅕): a side whose trees had linked the
#: seeds within it then saw no move gain anything and spent dozens of spores anywhere (a
#: level-4 game replayed, docs/ai-runs.md); with four spores of reach, level 3 beat its
#: own old self 30 / 40 (75%, 60%–86%).
_ARBOS_REACH = (1.0, 0.5, 0.2, 0.1, 0.05)


def _arbos_rings() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``[cell][d - 1]``: the cells at Chebyshev distance exactly ``d`` (1 to the length of
    :data:`_ARBOS_REACH`) from ``cell``."""
    size = arbos.SIZE
    rings = []
    for cell in arbos.CELLS:
        row, column = divmod(cell, size)
        by_distance: list[list[int]] = [[] for _ in _ARBOS_REACH]
        reach = len(_ARBOS_REACH)
        for r in range(max(0, row - reach), min(size, row + reach + 1)):
            for c in range(max(0, column - reach), min(size, column + reach + 1)):
                distance = max(abs(r - row), abs(c - column))
                if distance:
                    by_distance[distance - 1].append(r * size + c)
        rings.append(tuple(tuple(cells) for cells in by_distance))
    return tuple(rings)


_ARBOS_RINGS = _arbos_rings()


def _arbos_value(seeds: Sequence[int], trees: arbos.Trees) -> float:
    """A20 with reach: for each tree, every seed within distance 5 with its best credit
    (:data:`_ARBOS_REACH`); the value of a pair of trees is the sum of each seed's best
    credit in either tree, and the seat's value the best pair's (a lone tree's own sum, 0
    with no tree). Linked seeds alone give the A20 score exactly."""
    count = trees.total
    if not count:
        return 0.0
    label = trees.label
    credits: list[dict[int, float]] = [{} for _ in range(count)]
    for seed in seeds:
        for credit, ring in zip(_ARBOS_REACH, _ARBOS_RINGS[seed], strict=True):
            for cell in ring:
                tree = label[cell]
                if tree >= 0 and credits[tree].get(seed, 0.0) < credit:
                    credits[tree][seed] = credit
    if count == 1:
        return sum(credits[0].values())
    best = 0.0
    for first, second in combinations(credits, 2):
        total = sum(first.values())
        for seed, credit in second.items():
            total += max(0.0, credit - first.get(seed, 0.0))
        best = max(best, total)
    return best


def _arbos_evaluate(state: arbos.ArbosState) -> Rewards:
    """Per seat: :func:`_arbos_value` (its A20 score, + ½, ⅕, 1/10 and 1/20 of a seed for the
    seeds one to four spores from its best trees), + 0.02 per own spore (room to grow),
    + 0.25 to Black for the A21 tie rule. Spread 2 seeds."""
    board = state.board
    seeds = [cell for cell in arbos.CELLS if board[cell] == arbos.SEED]
    white = _arbos_value(seeds, arbos.trees_of(board, arbos.WHITE))
    black = _arbos_value(seeds, arbos.trees_of(board, arbos.BLACK))
    spores_white = board.count(arbos.WHITE)
    spores_black = board.count(arbos.BLACK)
    return rewards_from_values(
        (white + 0.02 * spores_white, black + 0.25 + 0.02 * spores_black), 2.0
    )


# ---------------------------------------------------------------------------------------------
# Generator: progress toward a power coupling (GEN-13), pyramids in play
# ---------------------------------------------------------------------------------------------


#: Credit of a coupling part by the moves it still needs (GEN-13): 0 (in place), 1, 2, 3.
_GEN_CREDIT = (1.0, 0.75, 0.55, 0.4)
#: Level each part must stand on (GEN-13): Small 4, Medium 3, Large 2.
_GEN_TARGET = (4, 3, 2)


def _generator_credit_table() -> tuple[tuple[tuple[float, ...], ...], ...]:
    """``[colour][part][node]``: the credit (:data:`_GEN_CREDIT`) of that part of a seat of
    ``colour`` (0 Small, 1 Medium, 2 Large) standing on ``node``; 0 in the home branch.

    A part on its level needs one sideways move onto the node of its colour unless it is
    there already; a part higher up needs one move down per level, the last onto a node of
    its colour (a child of each colour exists, GEN-7). Both cost exactly one roll of the
    seat's colour, so a part on its level on a node of the wrong colour is no further than
    one a level above it. GEN-8 keeps every part at or above its level.
    """
    level_of, colour_of, branch_of = gryb.LEVEL, gryb.COLOUR, gryb.BRANCH
    table = []
    for colour in range(4):
        parts = []
        for target in _GEN_TARGET:
            row = []
            for node in range(gryb.NODE_COUNT):
                level = level_of[node]
                if branch_of[node] == colour or level > target:
                    row.append(0.0)
                    continue
                steps = target - level if level < target else int(colour_of[node] != colour)
                row.append(_GEN_CREDIT[steps])
            parts.append(tuple(row))
        table.append(tuple(parts))
    return tuple(table)


_GEN_CREDITS = _generator_credit_table()


def _generator_progress(board: tuple[int, ...], nodes: tuple[int, ...], colour: int) -> float:
    """How far a seat of ``colour`` is toward a power coupling (GEN-13), 0–3.

    Each part (Small on level 4, Medium on level 3, Large on level 2, on nodes of the seat's
    colour, outside the home branch) earns the credit of :func:`_generator_credit_table`: 1 in
    place, less the more moves it still needs. The three parts take the best assignment to
    three different branches.
    """
    best = [[0.0] * 4 for _ in range(3)]
    small_row, medium_row, large_row = _GEN_CREDITS[colour]
    branch_of = gryb.BRANCH
    for node in nodes:
        mask = board[node] & 7
        branch = branch_of[node]
        if mask & generator_board.SMALL:
            value = small_row[node]
            if value > best[0][branch]:
                best[0][branch] = value
        if mask & generator_board.MEDIUM:
            value = medium_row[node]
            if value > best[1][branch]:
                best[1][branch] = value
        if mask & generator_board.LARGE:
            value = large_row[node]
            if value > best[2][branch]:
                best[2][branch] = value
    return max(
        best[0][small] + best[1][medium] + best[2][large]
        for small, medium, large in generator_board.BRANCH_ORDERS[colour]
    )


def _generator_evaluate(state: Any) -> Rewards:
    """Per seat: 2 × its progress toward a power coupling (:func:`_generator_progress`),
    + 0.2 per own stack on the board; a resigned seat −10. Spread 2."""
    board = state.board
    values = []
    for seat, stash in enumerate(state.stashes):
        if stash is None:
            values.append(-10.0)
            continue
        nodes = state.occupied[seat]
        progress = _generator_progress(board, nodes, state.rules.colours[seat])
        values.append(2.0 * progress + 0.2 * len(nodes))
    return rewards_from_values(values, 2.0)


# ---------------------------------------------------------------------------------------------
# Orbs: material and the way to orbs one can beat (ORB-2), against the no-progress draw
# ---------------------------------------------------------------------------------------------

#: ORB-2 as a table over the 5 × 5 element pairs: 1 the mover wins, 0 both go, -1 the mover
#: loses, None illegal (same element).
_ORBS_CLASH: tuple[tuple[int | None, ...], ...] = tuple(
    tuple({"win": 1, "both": 0, "lose": -1, "same": None}[orbs.clash(x, y)] for y in range(5))
    for x in range(5)
)
#: What one orb of each element is worth (a Void removes whatever it meets).
_ORBS_WORTH: tuple[float, ...] = (1.0, 1.0, 1.0, 1.0, 1.5)
#: The approach term: an orb ``d`` steps from the nearest enemy orb it beats adds
#: ``_ORBS_APPROACH * (1 - d / _ORBS_REACH)`` (a side's best orb fully, the others a quarter).
#: Linear, so every step toward a victim gains the same even from across the board.
_ORBS_APPROACH = 0.8
_ORBS_REACH = 20.0


@lru_cache(maxsize=16)
def _orbs_distances(adjacent: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """Steps between any two playable cells over ``adjacent`` (orbs ignored; 99 = unreachable),
    one breadth-first search per cell, once per board shape."""
    size = len(adjacent)
    table = []
    for start in range(size):
        row = [99] * size
        if adjacent[start]:
            row[start] = 0
            frontier = [start]
            while frontier:
                following = []
                for cell in frontier:
                    step = row[cell] + 1
                    for other in adjacent[cell]:
                        if row[other] > step:
                            row[other] = step
                            following.append(other)
                frontier = following
        table.append(tuple(row))
    return tuple(table)


def _orbs_players(state: orbs.OrbsState) -> int:
    return state.rules.players


def _orbs_sides(state: orbs.OrbsState) -> tuple[tuple[int, ...], ...]:
    return state.rules.sides


def _orbs_parts(state: orbs.OrbsState) -> tuple[list[float], list[float]]:
    """Per side (team): its material (:data:`_ORBS_WORTH`) and its approach term.

    The approach term rewards orbs close to an enemy orb they beat (ORB-2), so that the
    search walks toward captures instead of drifting until the no-progress draw (ORB-8.5).
    """
    rules = state.rules
    side = rules.side
    board = state.board
    distances = _orbs_distances(rules.adjacent)
    placed: list[tuple[int, int, int]] = []
    for cell in rules.playable:
        value = board[cell]
        if value >= 0:
            placed.append((cell, side[value // 5], value % 5))
    sides = len(rules.sides)
    material = [0.0] * sides
    best = [0.0] * sides
    rest = [0.0] * sides
    for cell, mine, element in placed:
        material[mine] += _ORBS_WORTH[element]
        row = distances[cell]
        clash_row = _ORBS_CLASH[element]
        nearest = 99
        for other, theirs, victim in placed:
            if theirs != mine and clash_row[victim] == 1:
                d = row[other]
                if d < nearest:
                    nearest = d
        if nearest < 99:
            pull = _ORBS_APPROACH * max(0.0, 1.0 - nearest / _ORBS_REACH)
            if pull > best[mine]:
                rest[mine] += best[mine]
                best[mine] = pull
            else:
                rest[mine] += pull
    return material, [best[i] + 0.25 * rest[i] for i in range(sides)]


def _orbs_evaluate(state: orbs.OrbsState) -> Rewards:
    """Per seat, against each other seat: sigmoid of (own material + own approach − their
    material) / 1.5 orbs, averaged; teammates count ½, as a tie.

    Each seat counts only its *own* approach: an orb walking toward a victim also walks
    toward whatever beats it, and a symmetric term cancels out (level 1 then drew most games
    against a random player by no progress). Threats against a seat show up in the tree,
    where the opponent's replies are searched. The one-sided values are optimistic for every
    seat, so :func:`ai.levels.assess` uses :func:`_orbs_assess` instead.
    """
    material, approach = _orbs_parts(state)
    rules = state.rules
    side = rules.side
    players = rules.players
    result = []
    for seat in range(players):
        mine = side[seat]
        own = material[mine] + approach[mine]
        total = 0.0
        for other in range(players):
            if other == seat:
                continue
            theirs = side[other]
            if theirs == mine:
                total += 0.5
                continue
            diff = max(-30.0, min(30.0, (own - material[theirs]) / 1.5))
            total += 1.0 / (1.0 + math.exp(-diff))
        result.append(total / (players - 1))
    return tuple(result)


def _orbs_assess(state: orbs.OrbsState) -> Rewards:
    """Material plus approach for every seat alike, through the pairwise sigmoid (spread 1.5
    orbs): an even position gives ½, as :func:`ai.levels.assess` needs."""
    material, approach = _orbs_parts(state)
    side = state.rules.side
    per_side = [m + a for m, a in zip(material, approach, strict=True)]
    return rewards_from_values([per_side[side[s]] for s in range(state.rules.players)], 1.5)


# ---------------------------------------------------------------------------------------------
# Generation Zero: the score of R12.1 and the R12.3 tie-breaks, plus Canons within reach (R7)
# and Agents within reach of a 'Sue they outfight (R9)
# ---------------------------------------------------------------------------------------------

#: Health of living characters, per point (R12.3's last tie-break).
_GZ_HEALTH = 0.05
#: Per kill (R12.3's first tie-break, on top of the ``kill_points`` of the score).
_GZ_KILL = 0.1
#: A loose Canon a 'Sue can take on her next ACT is worth this share of ``canon_points``.
_GZ_CANON = 0.5
#: An Agent that can land on a 'Sue it outfights is worth this share of what killing her
#: brings (``kill_points`` + ``canon_points`` per Canon she holds).
_GZ_HUNT = 0.15
#: Steps beyond reach at which the Canon and hunt credits fall to 0 (linearly).
_GZ_FALLOFF = 6.0


def _gz_players(state: Any) -> int:
    return int(state.doc["players"])


def _gz_canon_prospects(game: Game, sue: str, loose: list[tuple[str, int]]) -> float:
    """Canon points 'Sue ``sue`` may add, in points (0 … free capacity × ``canon_points``).

    ``loose``: ``(location, Speed)`` of every unensnared Canon. A CHAPTER moves any of them
    up to its Speed toward her and the ENSNARE CHECK at the end of her ACT takes it
    (R7.1, R7.3), so a Canon whose distance in steps (spec 2.1, terrain ignored) is at most
    its Speed is in reach and earns :data:`_GZ_CANON`; each step further off takes
    1 / :data:`_GZ_FALLOFF` of that. Only her free capacity (effective Allure minus Canons
    held, R7.2) counts, best Canons first.
    """
    free = game.capacity_left(sue)
    if free <= 0 or not loose:
        return 0.0
    here = game.chars[sue]["at"]
    distance = game.distance
    credits = sorted(
        (max(0.0, 1.0 - max(0, distance(at, here) - speed) / _GZ_FALLOFF) for at, speed in loose),
        reverse=True,
    )
    return _GZ_CANON * game.canon_points * sum(credits[:free])


def _gz_hunt(game: Game, agent: str, sues: list[str]) -> float:
    """What Agent ``agent`` threatens, in points: the best over the enemy 'Sues it outfights.

    An Agent whose move ends on an enemy 'Sue starts a battle (R9.1) in which each attack
    deals max(0, Attack − Defence) (R9.5). The Agent *outfights* her when it would kill her
    in fewer of its attacks than she needs to kill it (Health / damage, the current effective
    stats of R11.1). Killing her brings ``kill_points`` and drops her Canons (R10.2, R12.1);
    the credit is :data:`_GZ_HUNT` of that when her location is within the Agent's effective
    Speed in steps, less 1 / :data:`_GZ_FALLOFF` per step beyond.
    """
    chars = game.chars
    ach = chars[agent]
    seat = ach["seat"]
    reach = game.stat(agent, "speed")
    best = 0.0
    for sue in sues:
        sch = chars[sue]
        if sch["seat"] == seat:
            continue
        dealt = game.damage(agent, sue)[2]
        if dealt <= 0:
            continue
        taken = game.damage(sue, agent)[2]
        if sch["hp"] * taken >= ach["hp"] * dealt:  # hp_s / dealt >= hp_a / taken
            continue
        gap = max(0, game.distance(ach["at"], sch["at"]) - reach)
        stake = game.kill_points + game.canon_points * len(sch["canons"])
        value = _GZ_HUNT * stake * max(0.0, 1.0 - gap / _GZ_FALLOFF)
        if value > best:
            best = value
    return best


def _gz_values(state: Any) -> list[float]:
    """Per seat, in points: its R12.1 score, + :data:`_GZ_KILL` per kill, + :data:`_GZ_HEALTH`
    per Health of its living characters (the R12.3 tie-breaks), + the Canon prospects of its
    'Sues (:func:`_gz_canon_prospects`), + what each of its Agents threatens
    (:func:`_gz_hunt`); a resigned seat −10."""
    game: Game = state.game()
    d = game.d
    seats = d["seats"]
    scores = game.scores()
    values = [0.0] * len(seats)
    sues: list[str] = []
    agents: list[str] = []
    for cid, char in game.living():
        values[char["seat"]] += _GZ_HEALTH * char["hp"]
        (sues if game.is_sue(cid) else agents).append(cid)
    cards = game.content.canons
    loose = [(c["at"], cards[c["card"]].speed) for c in d["canons"].values() if c["at"]]
    chars = game.chars
    for sue in sues:
        values[chars[sue]["seat"]] += _gz_canon_prospects(game, sue, loose)
    for agent in agents:
        values[chars[agent]["seat"]] += _gz_hunt(game, agent, sues)
    return [
        -10.0 if seat["out"] else values[s] + scores[s] + _GZ_KILL * seat["kills"]
        for s, seat in enumerate(seats)
    ]


def _gz_evaluate(state: Any) -> Rewards:
    """Rewards from :func:`_gz_values` through the pairwise sigmoid, spread 1.5 points.

    Every term is a seat's own, and an even position gives ½, so :func:`ai.levels.assess`
    uses it as it is. Evaluated at the new leaf (no playout): see ``docs/ai.md``.
    """
    return rewards_from_values(_gz_values(state), 1.5)


def _two(_state: Any) -> int:
    return 2


def _generator_players(state: Any) -> int:
    return len(state.rules.colours)


#: Playout plies before the cut-off were tuned with ``bench/ai_speed.py`` (iterations per second
#: against strength in ``bench/ai_strength.py``).
PROFILES: dict[str, GameProfile] = {
    "generatorb": GameProfile(
        _two,
        _generatorb_evaluate,
        playout_plies=4,
        exploration=0.3,
        decisive=_generatorb_decisive,
        captures=_generatorb_captures,
        capture_rate=0.7,
    ),
    # A playout ply: a spore on a uniformly drawn legal cell; the legal moves (pass, seed,
    # replace) are listed only when no draw finds one.
    "arbos": GameProfile(_two, _arbos_evaluate, playout_plies=2, playout_move=arbos.random_spore),
    "generator": GameProfile(
        _generator_players, _generator_evaluate, playout_plies=0, exploration=0.25
    ),
    "orbs": GameProfile(
        _orbs_players,
        _orbs_evaluate,
        playout_plies=0,
        assess_evaluate=_orbs_assess,
        sides=_orbs_sides,
    ),
    "generation_zero": GameProfile(_gz_players, _gz_evaluate, playout_plies=0),
}

#: For a game without a registered profile: two players, playouts to the end.
DEFAULT_PROFILE = GameProfile(_two)


def profile_for(engine_id: str) -> GameProfile:
    """The registered profile of ``engine_id``, else :data:`DEFAULT_PROFILE`."""
    return PROFILES.get(engine_id, DEFAULT_PROFILE)
