"""Monte Carlo tree search over the engine contract: UCT and single-observer ISMCTS.

Two searchers share one tree and one loop (:class:`Mcts`):

* **UCT** (Kocsis & Szepesvári 2006, "Bandit based Monte-Carlo planning") for games of perfect
  information. The tree is *closed loop*: each node keeps its state, so a path is never
  replayed. Chance nodes (a die roll, a random setup seed) are sampled by the outcome
  probabilities of :meth:`engines.base.Engine.chance_outcomes` ("expectimax by sampling").
* **SO-ISMCTS** (Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo Tree Search")
  for games with hidden information. The search is given only the bot seat's *view*. Every
  iteration deals a fresh determinization, ``engine.determinize(view, seat, seed_i)``, and
  walks the tree *open loop*: children are keyed by move and re-applied to that
  determinization; UCB uses availability counts instead of parent visits.

Rewards are vectors (:mod:`ai.rewards`); each node stores the total reward of the seat that
moved into it (max^n, Luckhardt & Irani 1986), so any number of seats and teams works. When
``to_move`` lists several seats (simultaneous decisions), the search lets the lowest listed
seat act first and asks ``to_move`` again: decisions are sequentialised. Generation Zero's many
decisions per turn need nothing special: the same seat simply moves again.

Playouts are random and cut off after :attr:`ai.evaluation.GameProfile.playout_plies`
plies, where the game's evaluation gives the reward vector. They are uniform unless the game's
profile names likely decisive moves (played first) or captures (played with the profile's
``capture_rate``).

A solver rides along (MCTS-Solver, Winands, Björnsson & Saito 2008, generalised to reward
vectors). A finished game's node is *solved*: its reward vector is exact. In the closed-loop
tree a decision node is solved too when its actor has a solved child worth a win to it
(:func:`ai.rewards.win_rewards`: it, or its side with teams, finishes ahead of every other
seat, at once or by force), or when every legal move is expanded and solved (then the actor
takes the child best for it; with three or more seats, not when several are best for it and
differ for the others). Solving runs up the path after
each iteration, so forced wins and losses a few plies deep are proven long before their
statistics would show them; a game's profile may name its likely decisive moves
(:attr:`ai.evaluation.GameProfile.decisive`), which a new node tries first, so that a move
allowing an immediate win is refuted on its first visit. An iteration that reaches a solved
node backs its exact vector up without a playout; selection scores a solved child by its
exact value, with no exploration bonus, so a proven loss is not chosen again while an
unsolved sibling scores above it (with any exploration, in practice never); the final
choice (:func:`ai.levels.pick_move`) always plays a proven win and never a move proven worse
than another. A search stops as soon as its root is solved. Chance nodes are never solved
(their value is a mean over sampled outcomes). Simultaneous decisions (``to_move`` listing
several seats) are sequentialised, so a proof through one would let the later seat see the
earlier one's choice; no engine has them today. The open-loop ISMCTS tree proves nothing: it
only marks a move that won at once in the determinization it was tried in, which the final
choice then plays.

With a ``minimax`` weight above 0 (:class:`Mcts`; the strongest level in games whose level
table sets it), the closed-loop tree also keeps *implicit minimax backups* (Lanctot, Winands,
Pepels & Sturtevant 2014, "Monte Carlo Tree Search with Heuristic Evaluations using Implicit
Minimax Backups"): each node's ``minimax`` is the evaluation of its state when it is added
(the exact vector of a finished or solved one), and above it the vector of the child best
for the node's actor (at a chance node, the probability-weighted mean of the outcomes drawn
so far). Selection then scores a child by ``(1 − w) × mean reward + w × minimax value`` plus
the exploration bonus: the averages of MCTS hide a refutation that a few visits have found,
the minimax value does not. The open-loop ISMCTS tree keeps none (a node there is not one
position).

The search is deterministic for a given seed and iteration budget: all randomness comes from
one ``random.Random(seed)`` (only ``random()`` is called, whose sequence Python keeps stable),
dictionaries keep insertion order, and ties go to the earlier child. A wall-clock limit can
stop it earlier; then the result depends on the machine's speed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ai.evaluation import DEFAULT_PROFILE, GameProfile, profile_for
from ai.rewards import Rewards, loss_rewards, rewards_from_outcome, win_rewards
from engines.base import CHANCE, Engine

__all__ = [
    "Budget",
    "Mcts",
    "Node",
    "SearchResult",
    "determinize_supported",
    "stepper",
]

#: UCB1 exploration constant for rewards in [0, 1] (√2 is the textbook value for rewards
#: that spread over [0, 1]; a smaller one exploits more, which suits short searches with
#: evaluations). Evaluated rewards of sibling moves often differ by only 0.01–0.1 (Arbos,
#: Orbs, Generation Zero), against which this constant keeps the visits nearly even: a
#: game's profile or a level may set its own (``GameProfile.exploration``,
#: ``ai.levels.Level.exploration``).
EXPLORATION = 0.9


@dataclass(frozen=True, slots=True)
class Budget:
    """How long one decision may think.

    ``iterations``: MCTS iterations (one selection, expansion, playout and backup each).
    ``seconds``: a wall-clock limit, checked every iteration: the search does not start an
    iteration that would, at its average pace so far, end past it (it always runs one). The
    search stops at the first limit reached. Both must be positive.
    """

    iterations: int
    seconds: float

    def __post_init__(self) -> None:
        if self.iterations < 1 or self.seconds <= 0:
            raise ValueError(f"a budget needs iterations >= 1 and seconds > 0, not {self}")


@dataclass(slots=True)
class SearchResult:
    """What a search found at the root, for the seat that searched.

    ``moves``/``visits``/``values``: the root's children in the order they were expanded,
    their visit counts and mean reward for the searching seat (0–1); when every expanded
    child is a proven loss, the root's unexpanded moves follow (0 visits, value 0).
    ``iterations`` run, ``seconds`` spent, ``value`` the searching seat's mean reward over all
    iterations (its exact reward when the root is solved), ``proven`` the index of a child
    proven to win (or ``None``), and ``exact`` per child its proven reward for the searching
    seat, or ``None`` while unproven. ``loss`` is what a loss is worth to the searching seat
    (:func:`ai.rewards.loss_rewards`: 0, or more with teams, 1/6 in Orbs 2 against 2), so a
    child whose ``exact`` is at most ``loss`` is a proven loss; ``win`` likewise what a win
    is worth to it (1, or less with teams: 5/6 for a seat of Orbs 2 against 2). ``plies``
    counts the playout plies of all iterations. ``state`` is a state in which the moves are
    legal (the root state, or one determinization), for
    :meth:`engines.base.Engine.format_move`.
    """

    moves: list[Any]
    visits: list[int]
    values: list[float]
    iterations: int
    seconds: float
    value: float
    proven: int | None
    state: Any
    plies: int = 0
    exact: list[float | None] = field(default_factory=list)
    loss: float = 0.0
    win: float = 1.0


#: The ``mover`` of a root node: nobody's decision led there.
ROOT_MOVER: Final = -2
#: The ``actor`` of a node whose game is over: nobody acts there.
NOBODY: Final = -3


class Node:
    """One tree node. ``mover`` is the seat whose decision led here (``CHANCE`` for a chance
    outcome, :data:`ROOT_MOVER` at the root); ``total`` sums that seat's rewards over
    ``visits`` (a seat's only: chance outcomes and the root keep none).

    Closed loop (perfect information): ``state`` is the node's state, ``actor`` the seat to
    act there (``CHANCE`` at a chance node, :data:`NOBODY` when the game is over), ``chance``
    a chance node's outcomes (cumulative probabilities and texts), ``untried`` the
    legal moves not expanded yet (the last ``urgent`` of them are the profile's likely
    decisive moves, expanded first), and ``solved`` the node's exact reward vector once the
    solver has proven it (a finished game's from the start). ``proven``: the node is a proven
    win for ``mover``. ``minimax``: the node's implicit minimax value (module docstring),
    kept only when the search's ``minimax`` weight is above 0, else ``None``.
    Open loop (ISMCTS): ``state`` stays ``None``; ``avail`` counts the iterations in which the
    node's move was legal at its parent; ``children`` are keyed by ``(seat, move)`` (a chance
    outcome's by its text), so a move that two seats could make in different deals never
    shares statistics kept for the other seat; ``proven`` marks a move that won at once in
    the deal where it was tried (its mover's win, ``win_rewards``).
    ``children`` is keyed by move in the closed loop, where a node's actor is fixed.
    """

    __slots__ = (
        "actor",
        "avail",
        "chance",
        "children",
        "minimax",
        "move",
        "mover",
        "proven",
        "solved",
        "state",
        "total",
        "untried",
        "urgent",
        "visits",
    )

    def __init__(self, mover: int, move: Any, state: Any) -> None:
        self.mover = mover
        self.move = move
        self.state = state
        self.actor = NOBODY
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[Hashable, Node] = {}
        self.untried: list[Any] | None = None
        self.urgent = 0
        self.solved: Rewards | None = None
        self.chance: tuple[list[float], list[str]] | None = None
        self.proven = False
        self.minimax: Rewards | None = None


def determinize_supported(engine: Engine[Any, Any]) -> bool:
    """Whether ``engine`` overrides :meth:`engines.base.Engine.determinize` (the hook ISMCTS
    needs; the base version raises :class:`NotImplementedError`)."""
    return type(engine).determinize is not Engine.determinize


def stepper(engine: Engine[Any, Any]) -> Callable[[Any, int, Any], Any]:
    """``(state, seat, move) -> state``: the engine's :meth:`~engines.base.Engine.child`
    (``apply`` without events: the base version's ``apply(...).state``, or a game's quicker
    form with the same positions and outcomes)."""
    return engine.child


class Mcts:
    """UCT / SO-ISMCTS for one engine (see the module docstring).

    ``engine``: any :class:`engines.base.Engine`, stepped with its ``child(state, seat, move)
    -> state`` (Generatorb, Arbos and Generator have a quick one that builds no events).
    ``profile``: the game's :class:`~ai.evaluation.GameProfile` (default: the registered one
    for ``engine.info.id``). :class:`NotImplementedError` when that, or the given one, is the
    default profile of an engine that may seat more than two players: the default counts two
    seats.
    ``exploration``: the UCB1 constant (default: the profile's
    :attr:`~ai.evaluation.GameProfile.exploration`, else :data:`EXPLORATION`). ``minimax``:
    the weight 0–1 of the implicit minimax value in the closed loop's selection (module
    docstring; 0, the default, is plain UCT), else :class:`ValueError`. One instance may
    serve many searches; it keeps no state between them.
    """

    def __init__(
        self,
        engine: Engine[Any, Any],
        profile: GameProfile | None = None,
        *,
        exploration: float | None = None,
        minimax: float = 0.0,
    ) -> None:
        if not 0.0 <= minimax <= 1.0:
            raise ValueError(f"minimax weight {minimax} is not between 0 and 1")
        self.minimax = minimax
        self.engine = engine
        self.profile = profile or profile_for(engine.info.id)
        if self.profile is DEFAULT_PROFILE and engine.info.max_players > 2:
            # DEFAULT_PROFILE counts two seats; a third seat's reward would not exist.
            raise NotImplementedError(
                f"{engine.info.id} seats up to {engine.info.max_players} players: register its "
                "GameProfile (at least its players function) in ai/evaluation.py"
            )
        if exploration is None:
            exploration = self.profile.exploration
        if exploration is None:
            exploration = EXPLORATION
        self.exploration = exploration
        self._step = stepper(engine)
        self._to_move = engine.to_move
        self._legal = engine.legal_moves
        self._outcome = engine.outcome
        self._apply_chance = engine.apply_chance
        self._chance_outcomes = engine.chance_outcomes
        self._decisive = self.profile.decisive
        #: Per seat, the reward of a win and of a loss (:func:`ai.rewards.win_rewards`,
        #: :func:`~ai.rewards.loss_rewards`), set per search.
        self._win: Rewards = ()
        self._loss: Rewards = ()

    # ---- public --------------------------------------------------------------------------

    def search(
        self, state: Any, seat: int, budget: Budget, seed: int, *, to_move: bool = True
    ) -> SearchResult:
        """UCT from the full ``state`` (perfect information); ``result.value`` is ``seat``'s
        mean reward. With ``to_move`` (the default) ``seat`` must be the seat that acts, the
        lowest of ``to_move(state)``, else :class:`ValueError`; without, any seat may watch
        (for :func:`ai.levels.assess`). A finished ``state`` raises :class:`ValueError`."""
        acting = self._to_move(state)
        _check_seat(acting, seat, to_move, "state")
        start = time.perf_counter()
        players = self.profile.players(state)
        self._win, self._loss = self._win_and_loss(state, players)
        rng = random.Random(seed)
        root = Node(ROOT_MOVER, None, state)
        self._prepare(root, players)
        deadline = start + budget.seconds
        clock = time.perf_counter
        done = 0
        plies = 0
        total = 0.0
        now = clock()
        while done == 0 or (done < budget.iterations and now + (now - start) / done < deadline):
            rewards, used = self._iterate_closed(root, players, rng)
            total += rewards[seat]
            plies += used
            done += 1
            if root.solved is not None:  # proven: nothing left to search
                break
            now = clock()
        return self._result(root, seat, done, clock() - start, total, state, plies)

    def search_view(
        self, view: Any, seat: int, budget: Budget, seed: int, *, to_move: bool = True
    ) -> SearchResult:
        """SO-ISMCTS from ``seat``'s ``view``: each iteration searches a fresh
        ``engine.determinize(view, seat, seed_i)``. Raises :class:`NotImplementedError` when
        the engine has no determinization and :class:`ValueError` when ``seat`` is not to
        move (``to_move`` as in :meth:`search`)."""
        if not determinize_supported(self.engine):
            raise NotImplementedError(f"{self.engine.info.id} cannot determinize a view")
        start = time.perf_counter()  # the first deal counts against the budget too
        determinize = self.engine.determinize
        rng = random.Random(seed)
        first = determinize(view, seat, _derive(seed, 0))
        acting = self._to_move(first)
        _check_seat(acting, seat, to_move, "view")
        players = self.profile.players(first)
        self._win, self._loss = self._win_and_loss(first, players)
        root = Node(ROOT_MOVER, None, None)
        deadline = start + budget.seconds
        clock = time.perf_counter
        done = 0
        plies = 0
        total = 0.0
        state = first
        now = clock()
        while done == 0 or (done < budget.iterations and now + (now - start) / done < deadline):
            if done:
                state = determinize(view, seat, _derive(seed, done))
            rewards, used = self._iterate_open(root, state, players, rng)
            total += rewards[seat]
            plies += used
            done += 1
            now = clock()
        return self._result(root, seat, done, clock() - start, total, first, plies)

    def _win_and_loss(self, state: Any, players: int) -> tuple[Rewards, Rewards]:
        """Per seat, what a win and what a loss are worth to it in ``state``'s game (the
        profile's sides)."""
        sides = None if self.profile.sides is None else self.profile.sides(state)
        return win_rewards(players, sides), loss_rewards(players, sides)

    # ---- closed loop (perfect information) ----------------------------------------------

    def _prepare(self, node: Node, players: int) -> None:
        """Fill ``actor``, ``solved`` (a finished game) and ``chance`` of a new closed-loop
        node."""
        state = node.state
        acting = self._to_move(state)
        if not acting:
            outcome = self._outcome(state)
            node.solved = (
                rewards_from_outcome(outcome, players) if outcome is not None else (0.5,) * players
            )
            node.actor = NOBODY
        elif acting[0] == CHANCE:
            node.actor = CHANCE
            outcomes = self._chance_outcomes(state)
            cumulative = []
            running = 0.0
            for chance in outcomes:
                running += chance.probability
                cumulative.append(running)
            node.chance = (cumulative, [o.text for o in outcomes])
        else:
            node.actor = min(acting)

    def _iterate_closed(self, root: Node, players: int, rng: random.Random) -> tuple[Rewards, int]:
        node = root
        path = [root]
        exploration = self.exploration
        while True:
            if node.solved is not None:
                rewards = node.solved
                used = 0
                break
            if node.chance is not None:
                text = _sample(node.chance, rng.random())
                child = node.children.get(text)
                if child is None:
                    child = Node(CHANCE, text, self._apply_chance(node.state, text).state)
                    self._prepare(child, players)
                    node.children[text] = child
                node = child
                path.append(node)
                continue
            untried = node.untried
            if untried is None:
                untried = node.untried = self._untried(node)
            if untried:
                if node.urgent:
                    node.urgent -= 1
                    move = untried.pop()
                else:
                    index = int(rng.random() * len(untried))
                    move = untried[index]
                    untried[index] = untried[-1]
                    untried.pop()
                actor = node.actor
                child = Node(actor, move, self._step(node.state, actor, move))
                self._prepare(child, players)
                node.children[move] = child
                path.append(child)
                if child.solved is None and child.chance is None and self._decisive is not None:
                    self._settle(child, players)
                if child.solved is not None:
                    rewards = child.solved
                    used = 0
                else:
                    rewards, used = self._playout(child.state, players, rng)
                break
            node = self._select(node, exploration, self.minimax)
            path.append(node)
        if path[-1].solved is not None:
            _solve_up(path, self._win)
        if self.minimax:
            self._back_up_minimax(path, rewards, used, players)
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.total += rewards[visited.mover]
        return rewards, used

    def _settle(self, node: Node, players: int) -> None:
        """List a new node's moves at once and play its likely decisive ones (the profile's
        :attr:`~ai.evaluation.GameProfile.decisive`) until one wins: then the node is solved
        before any playout, and the move that led to it is refuted on this very visit. The
        candidates that do not win stay in ``untried``, still to be expanded first."""
        untried = node.untried = self._untried(node)
        actor = node.actor
        for position in range(len(untried) - 1, len(untried) - node.urgent - 1, -1):
            move = untried[position]
            child = Node(actor, move, self._step(node.state, actor, move))
            self._prepare(child, players)
            if child.solved is not None and child.solved[actor] >= self._win[actor]:
                del untried[position]
                node.urgent -= 1
                node.children[move] = child
                _solve_up([node, child], self._win)  # the win proves the node, by the one rule
                return

    def _untried(self, node: Node) -> list[Any]:
        """The legal moves of a new decision node, the profile's likely decisive ones last
        (``node.urgent`` of them, in the profile's order reversed), so that expansion tries
        them first, the profile's first choice first."""
        moves = list(self._legal(node.state, node.actor))
        decisive = self._decisive
        if decisive is None or not moves:
            return moves
        first = decisive(node.state, node.actor, moves)
        if not first:
            return moves
        ordered = list(dict.fromkeys(index for index in first if 0 <= index < len(moves)))
        node.urgent = len(ordered)
        chosen = set(ordered)
        rest = [move for index, move in enumerate(moves) if index not in chosen]
        return rest + [moves[index] for index in reversed(ordered)]

    def _back_up_minimax(self, path: list[Node], rewards: Rewards, used: int, players: int) -> None:
        """Give the last node of ``path`` its minimax value (its exact vector when solved;
        ``rewards`` when they are its own evaluation or outcome, ``used`` = 0; else the
        profile's evaluation of its state) and carry the change up the path, stopping at
        the first node whose value stays the same (module docstring)."""
        leaf = path[-1]
        if leaf.solved is not None:
            leaf.minimax = leaf.solved
        elif leaf.minimax is None:
            if used == 0:
                leaf.minimax = rewards
            else:
                evaluate = self.profile.evaluate
                leaf.minimax = evaluate(leaf.state) if evaluate else (0.5,) * players
        for node in reversed(path[:-1]):
            value = node.solved if node.solved is not None else _minimax_of(node)
            if value is None or value == node.minimax:
                return
            node.minimax = value

    @staticmethod
    def _select(node: Node, exploration: float, minimax: float = 0.0) -> Node:
        """UCB1 over a fully expanded node's children, a solved child at its exact value
        without an exploration bonus, and with a ``minimax`` weight above 0 a child's mean
        reward moved that far toward its minimax value (module docstring). (A proven win
        never needs choosing: its parent is solved with it. A solved child, a proven draw or
        loss, may be chosen; the iteration stops there and backs its exact vector up, never
        going below it.)"""
        log_n = math.log(node.visits) if node.visits > 1 else 0.0
        best: Node | None = None
        best_score = -1.0
        for child in node.children.values():
            if child.solved is not None:
                score = child.solved[child.mover]
            else:
                mean = child.total / child.visits
                if minimax and child.minimax is not None:
                    mean = (1.0 - minimax) * mean + minimax * child.minimax[child.mover]
                score = mean + exploration * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        assert best is not None
        return best

    # ---- open loop (ISMCTS) --------------------------------------------------------------

    def _iterate_open(
        self, root: Node, state: Any, players: int, rng: random.Random
    ) -> tuple[Rewards, int]:
        node = root
        path = [root]
        exploration = self.exploration
        to_move = self._to_move
        while True:
            acting = to_move(state)
            if not acting:
                outcome = self._outcome(state)
                rewards = (
                    rewards_from_outcome(outcome, players)
                    if outcome is not None
                    else (0.5,) * players
                )
                used = 0
                break
            if acting[0] == CHANCE:
                outcomes = self._chance_outcomes(state)
                text = _pick_outcome(outcomes, rng.random())
                child = node.children.get(text)
                if child is None:
                    child = node.children[text] = Node(CHANCE, text, None)
                state = self._apply_chance(state, text).state
                node = child
                path.append(node)
                continue
            actor = min(acting)
            moves = self._legal(state, actor)
            children = node.children
            fresh = []
            best: Node | None = None
            best_score = -1.0
            for move in moves:
                child = children.get((actor, move))
                if child is None:
                    fresh.append(move)
                    continue
                child.avail += 1
                if child.proven:
                    best, best_score = child, 2.0
                elif best_score < 2.0 and child.visits:
                    score = child.total / child.visits + exploration * math.sqrt(
                        math.log(child.avail) / child.visits
                    )
                    if score > best_score:
                        best, best_score = child, score
            if fresh and best_score < 2.0:
                move = fresh[int(rng.random() * len(fresh))]
                child = Node(actor, move, None)
                child.avail = 1
                children[actor, move] = child
                state = self._step(state, actor, move)
                path.append(child)
                outcome = self._outcome(state)
                if outcome is not None:
                    rewards = rewards_from_outcome(outcome, players)
                    child.proven = rewards[actor] >= self._win[actor]
                    used = 0
                else:
                    rewards, used = self._playout(state, players, rng)
                break
            assert best is not None
            node = best
            state = self._step(state, actor, node.move)
            path.append(node)
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.total += rewards[visited.mover]
        return rewards, used

    # ---- playouts and results ------------------------------------------------------------

    def _playout(self, state: Any, players: int, rng: random.Random) -> tuple[Rewards, int]:
        """Random play from ``state`` until the end or the profile's cut-off. A ply is the
        profile's quick draw (``playout_move``) when it finds one; else a seat with a likely
        decisive move (the profile's ``decisive``) plays the first of them; else, with the
        profile's ``capture_rate``, a random one of its captures (``captures``) if it has
        any; else a uniformly random move.

        Returns the reward vector and the plies played (chance draws included).
        """
        to_move, legal, step = self._to_move, self._legal, self._step
        decisive = self._decisive
        captures = self.profile.captures
        rate = self.profile.capture_rate if captures is not None else 0.0
        limit = self.profile.playout_plies
        draw_move = self.profile.playout_move
        plies = 0
        while True:
            acting = to_move(state)
            if not acting:
                outcome = self._outcome(state)
                if outcome is None:
                    return (0.5,) * players, plies
                return rewards_from_outcome(outcome, players), plies
            if plies >= limit:
                evaluate = self.profile.evaluate
                return (evaluate(state) if evaluate else (0.5,) * players), plies
            if acting[0] == CHANCE:
                text = _pick_outcome(self._chance_outcomes(state), rng.random())
                state = self._apply_chance(state, text).state
            else:
                actor = min(acting)
                quick = draw_move(state, actor, rng.random) if draw_move is not None else None
                if quick is not None:
                    state = step(state, actor, quick)
                    plies += 1
                    continue
                moves = legal(state, actor)
                first = decisive(state, actor, moves) if decisive is not None else None
                if not first and captures is not None and rate and rng.random() < rate:
                    taking = captures(state, actor, moves)
                    if taking:
                        first = [taking[int(rng.random() * len(taking))]]
                if first:
                    state = step(state, actor, moves[first[0]])
                else:
                    state = step(state, actor, moves[int(rng.random() * len(moves))])
            plies += 1

    def _result(
        self,
        root: Node,
        seat: int,
        iterations: int,
        seconds: float,
        total: float,
        state: Any,
        plies: int,
    ) -> SearchResult:
        """The root's statistics for ``seat`` (:class:`SearchResult`), from ``iterations`` run
        in ``seconds`` whose rewards for ``seat`` summed to ``total``."""
        moves: list[Any] = []
        visits: list[int] = []
        values: list[float] = []
        exact: list[float | None] = []
        proven: int | None = None
        for child in root.children.values():
            if child.mover != seat:
                continue
            if child.proven and proven is None:
                proven = len(moves)
            moves.append(child.move)
            visits.append(child.visits)
            values.append(child.total / child.visits if child.visits else 0.0)
            exact.append(None if child.solved is None else child.solved[seat])
        loss = self._loss[seat]
        if root.untried and exact and all(e is not None and e <= loss for e in exact):
            for move in root.untried:  # every move tried so far loses: offer the others
                moves.append(move)
                visits.append(0)
                values.append(0.0)
                exact.append(None)
        if root.solved is not None:
            value = root.solved[seat]
        else:
            value = total / iterations if iterations else 0.5
        return SearchResult(
            moves,
            visits,
            values,
            iterations,
            seconds,
            value,
            proven,
            state,
            plies,
            exact,
            loss,
            self._win[seat],
        )


def _check_seat(acting: Sequence[int], seat: int, to_move: bool, what: str) -> None:
    """Raise :class:`ValueError` when nobody is to move in the ``what`` searched (the game is
    over), or, with ``to_move``, when ``seat`` is not the seat that acts first there: of
    several seats listed by ``to_move``, the lowest acts first (module docstring), and a
    search for another would find no move of its own."""
    if not acting:
        raise ValueError(f"seat {seat} is not to move in this {what}: the game is over")
    if to_move and seat != min(acting):
        raise ValueError(f"seat {seat} is not to move in this {what}")


def _solve_up(path: list[Node], win: Rewards) -> None:
    """Prove what the solved last node of ``path`` (root first) proves above it.

    A decision node is solved when its actor has a solved child worth a win to it (``win``:
    per seat, :func:`ai.rewards.win_rewards`; 1 without teams; that child
    becomes ``proven``), or when its moves are all expanded and all solved (it takes the one
    best for its actor, unless several are best for it and differ for the other seats).
    The first rule takes the first winning child's vector without that tie check: with
    three or more seats, two wins that ranked the losers differently would make the proof
    pick one of them. No search meets such wins today: Orbs ranks all losers in one group;
    Generator ranks a seat that resigned below the others, but nobody resigns in a search;
    Generation Zero's open-loop search proves nothing. So every win's vector is the same.
    Stops at the first node that stays unproven, and at a chance node.
    """
    for index in range(len(path) - 1, 0, -1):
        child, parent = path[index], path[index - 1]
        solved = child.solved
        if solved is None or parent.solved is not None or parent.chance is not None:
            return
        actor = parent.actor
        if solved[actor] >= win[actor]:
            child.proven = True
            parent.solved = solved
            continue
        if parent.untried:
            return
        best: Rewards | None = None
        tied = False
        for sibling in parent.children.values():
            vector = sibling.solved
            if vector is None:
                return
            if best is None or vector[actor] > best[actor]:
                best, tied = vector, False
            elif vector[actor] == best[actor] and vector != best:
                tied = True
        if tied:  # with 3+ seats the actor's choice between them is not known: no proof
            return
        parent.solved = best


def _minimax_of(node: Node) -> Rewards | None:
    """A node's implicit minimax value from its children's (``None`` while none has one):
    at a decision node the vector of the child best for the node's actor (the first of
    equals), at a chance node the mean of its drawn outcomes' vectors weighted by their
    probabilities."""
    if node.chance is None:
        actor = node.actor
        best: Rewards | None = None
        for child in node.children.values():
            value = child.minimax
            if value is not None and (best is None or value[actor] > best[actor]):
                best = value
        return best
    cumulative, texts = node.chance
    weight = 0.0
    sums: list[float] = []
    previous = 0.0
    for edge, text in zip(cumulative, texts, strict=True):
        outcome = node.children.get(text)
        share, previous = edge - previous, edge
        if outcome is None or outcome.minimax is None:
            continue
        if not sums:
            sums = [0.0] * len(outcome.minimax)
        weight += share
        for seat, reward in enumerate(outcome.minimax):
            sums[seat] += share * reward
    if not sums or weight <= 0.0:
        return None
    return tuple(total / weight for total in sums)


def _sample(chance: tuple[list[float], list[str]], point: float) -> str:
    """The outcome whose cumulative probability first exceeds ``point`` (0 ≤ point < 1)."""
    cumulative, texts = chance
    total = cumulative[-1]
    point *= total
    for index, edge in enumerate(cumulative):
        if point < edge:
            return texts[index]
    return texts[-1]


def _pick_outcome(outcomes: Sequence[Any], point: float) -> str:
    """Sample one :class:`~engines.base.ChanceOutcome` text by probability."""
    total = 0.0
    for outcome in outcomes:
        total += outcome.probability
    point *= total
    running = 0.0
    for outcome in outcomes:
        running += outcome.probability
        if point < running:
            return str(outcome.text)
    return str(outcomes[-1].text)


def _derive(seed: int, index: int) -> int:
    """Seed of the ``index``-th determinization: a SplitMix64 step of ``seed`` and ``index``,
    so determinizations are independent of the search's own random stream."""
    z = (seed * 0x9E3779B97F4A7C15 + (index + 1) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return (z ^ (z >> 31)) & 0x7FFFFFFFFFFFFFFF
