"""Bot levels 1–5 and the three entry points the service calls: :func:`choose_move`,
:func:`assess` and :func:`suggest` (``/hint``).

A level is a search budget (iterations and a time limit, checked before each iteration at the
search's average pace, so one iteration may overrun it) times a *deliberate-mistake*
temperature: below the top level the bot does not always play the most visited move, it draws
among the best few by visit count, biased toward the best (the trick lichess uses to weaken
Stockfish for its low levels). A move the search has proven to win is always played
(:func:`pick_move`).

What the service passes (all picklable, so a worker process can receive them):

* ``engine_id``: a key of :data:`engines.ENGINES`;
* ``options``: the game's resolved options (``engine.options_for(...)``, as stored), not read
  (a state or view carries its rules): kept so every entry point has the engine's shape;
* ``seat``: the bot's seat, which must be to move;
* ``state_or_view``: for a game of perfect information (``GameInfo.has_hidden_information``
  false) the state as ``engine.dumps(state)`` text, or the state object itself; for a game
  with hidden information **only** the bot seat's view, ``engine.view(state, seat)``. A state
  (or its JSON) is refused for such a game, so the bot cannot peek;
* ``level``: 1–5 (or a :class:`Level`); ``seed``: any int; the service derives it from the
  game's secret seed, the ply and the seat through a one-way hash
  (``bot.service.bots.search_seed``), so a replay of the bot's decision is exact when the
  iteration budget binds and the seed reveals nothing of the deal.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ai.evaluation import GameProfile, profile_for
from ai.rewards import rewards_from_outcome
from ai.search import Budget, Mcts, SearchResult, determinize_supported
from ai.tactics import applies, safe_choice, unrefuted
from engines import get_engine
from engines.base import Engine, OptionValue, Outcome

__all__ = [
    "GAME_LEVELS",
    "LEVELS",
    "VALUE_BUDGET",
    "Level",
    "Suggestion",
    "assess",
    "choose_move",
    "decide",
    "level",
    "levels_for",
    "pick_move",
    "play_index",
    "search",
    "suggest",
]


@dataclass(frozen=True, slots=True)
class Level:
    """One bot level.

    ``number`` 1–5 and ``name`` (what a player reads); ``budget`` the search budget;
    ``temperature`` 0 plays the most visited move, > 0 draws among the ``candidates`` most
    visited moves with weight ``(visits / best visits) ** (1 / temperature)``;
    ``blunder_check`` checks the move picked against a loss forced within three plies and
    plays the next best one if so, where the game allows the check (:mod:`ai.tactics`);
    ``minimax`` is the weight 0–1 of the implicit minimax backups in the search's selection
    (:class:`ai.search.Mcts`; 0 = plain UCT); ``exploration`` the search's UCB1 constant,
    ``None`` for the game's own (:attr:`ai.evaluation.GameProfile.exploration`).
    """

    number: int
    name: str
    budget: Budget
    temperature: float
    candidates: int
    blunder_check: bool = False
    minimax: float = 0.0
    exploration: float | None = None


#: The five levels. Time limits per decision on one core: level 1 ≤ 0.2 s; level 5 its
#: search's 1.9 s, and in Generatorb its blunder check (about 15 ms for a safe move, and at
#: most :data:`ai.tactics.CHECK_SECONDS` (0.5 s) more, plus the one check under way then,
#: when the moves it checks lose).
LEVELS: tuple[Level, ...] = (
    Level(1, "beginner", Budget(100, 0.15), temperature=0.5, candidates=3),
    Level(2, "casual", Budget(600, 0.4), temperature=0.3, candidates=2),
    Level(3, "club", Budget(1500, 0.8), temperature=0.15, candidates=2),
    Level(4, "strong", Budget(4000, 1.4), temperature=0.0, candidates=1),
    Level(5, "strongest", Budget(20000, 1.9), temperature=0.0, candidates=1, blunder_check=True),
)


def _own_table(
    iterations: tuple[int, ...],
    mistakes: tuple[tuple[float, int], ...] | None = None,
    *,
    minimax: float = 0.0,
    exploration: float | None = None,
) -> tuple[Level, ...]:
    """The default :data:`LEVELS` with other iteration budgets and, if given, other mistakes
    (``(temperature, candidates)`` per level, 1–5; ``None`` keeps the default ones), and
    level 5 searching with implicit minimax backups of weight ``minimax`` (0: none) and
    the UCB1 constant ``exploration`` (``None``: the game's): the
    numbers, names and time limits stay the default ones, so the service's menus and
    think-time limits hold in every game."""
    if mistakes is None:
        mistakes = tuple((lv.temperature, lv.candidates) for lv in LEVELS)
    table = tuple(
        replace(lv, budget=replace(lv.budget, iterations=n), temperature=t, candidates=c)
        for lv, n, (t, c) in zip(LEVELS, iterations, mistakes, strict=True)
    )
    return (*table[:-1], replace(table[-1], minimax=minimax, exploration=exploration))


#: Per-game level tables, for a game where the default one does not separate the levels.
#:
#: Arbos (docs/ai.md, "Levels"): its search gains with the budget up to about 300 iterations
#: (300 over 100: 68% of 40, no mistakes) and hardly beyond (1,000 over 300: 48%, 1,500 over
#: 600: 50%, level 4's 4,000 over 600: 51% of 100). So levels 1 and 2 keep the default level
#: 1's mistakes at 30 and 100 iterations, level 3 searches 300 and draws between its best two
#: at temperature 0.3 (600 without mistakes until 2026-11-27), and levels 4–5 make none.
#:
#: Generator (docs/ai.md, "Levels"): its search gains with every tripling of the budget from
#: 100 iterations up (300 over 100: 68%, 1,000 over 300: 66%, 3,000 over 1,000: 59%, 12,000
#: over 3,000: 75%, no mistakes), but not below 100. So the budgets grow by 3–5 times a level
#: from level 1's 100, and levels 1–3 make mistakes, fewer at each level, to widen the steps.
#: Level 3 draws between its best two at temperature 0.5 (0.3 until 2026-11-26: level 4 then
#: beat it 59% of 120 games; now 65% of 360, while level 3 beats level 2 74% of 120).
#:
#: Orbs (docs/ai.md, "Levels"): a deliberate mistake costs far more than the budget gains.
#: Level 4 at the default 4,000 iterations beat level 3 (1,500, drawing between its best two
#: at temperature 0.15) 93% of 30 games, but level 5 (20,000) beat it only 62% of 34; with
#: temperature 0.1 level 4 lost that edge over level 3 (4.5 / 9). So level 4 searches as
#: much as level 3 without its mistakes (1,500; since 2026-11-28): it beats level 3 91% of
#: 60, and level 5 beats it 66% of 79 (55%–75%; 62% of 34 against the old level 4): a
#: point estimate only. At 500 iterations level 4 beat level 3 only 72% of 60 (59%–81%).
#: So level 5 searches better instead (since 2026-11-28): with implicit minimax backups of
#: weight 0.4 (:class:`ai.search.Mcts`), which at level 4's budget beat the plain search
#: 67% of 60 (54%–77%); level 5 with them beats level 4 83% of 56 (71%–91%).
GAME_LEVELS: dict[str, tuple[Level, ...]] = {
    "generator": _own_table(
        (100, 300, 1000, 4000, 20000), ((1.0, 4), (0.5, 3), (0.5, 2), (0.0, 1), (0.0, 1))
    ),
    "orbs": _own_table((100, 600, 1500, 1500, 20000), minimax=0.4),
    "arbos": _own_table(
        (30, 100, 300, 4000, 20000), ((0.5, 3), (0.5, 3), (0.3, 2), (0.0, 1), (0.0, 1))
    ),
}


def levels_for(engine_id: str | None) -> tuple[Level, ...]:
    """The five levels of game ``engine_id``: its own table in :data:`GAME_LEVELS`, else
    :data:`LEVELS` (also for ``None``)."""
    if engine_id is None:
        return LEVELS
    return GAME_LEVELS.get(engine_id, LEVELS)


def level(which: int | str | Level, engine_id: str | None = None) -> Level:
    """The level of game ``engine_id`` (:func:`levels_for`; ``None``: the default table) for
    a number 1–5, a name (``"club"``) or a :class:`Level` itself (returned as it is).

    Raises :class:`ValueError` for anything else.
    """
    if isinstance(which, Level):
        return which
    table = levels_for(engine_id)
    for candidate in table:
        if which in (candidate.number, candidate.name):
            return candidate
    names = ", ".join(f"{lv.number} {lv.name}" for lv in table)
    raise ValueError(f"unknown bot level {which!r}; levels are {names}")


def _state_for(engine: Engine[Any, Any], seat: int, state_or_view: Any) -> tuple[Any, bool]:
    """``(state or view, is_view)`` after the checks of the module docstring."""
    if engine.info.has_hidden_information:
        if isinstance(state_or_view, str | bytes | Mapping):
            raise ValueError(
                f"{engine.info.id} has hidden information: pass the seat's view "
                "(engine.view(state, seat)), never the state"
            )
        viewer = getattr(state_or_view, "viewer", None)
        if viewer != seat:
            raise ValueError(
                f"{engine.info.id} has hidden information: expected seat {seat}'s view, "
                f"got {type(state_or_view).__name__} for viewer {viewer!r}"
            )
        return state_or_view, True
    if isinstance(state_or_view, str):
        return engine.loads(state_or_view), False
    return state_or_view, False


def search(
    engine_id: str,
    seat: int,
    state_or_view: Any,
    budget: Budget,
    seed: int,
) -> SearchResult:
    """Run MCTS (or SO-ISMCTS for a view) for ``seat`` and return the root statistics.

    Raises :class:`ValueError` when ``seat`` is not to move or a hidden-information game gets
    anything but the seat's view, :class:`NotImplementedError` when such a game's engine has
    no ``determinize``, and :class:`engines.base.UsageError` for an unknown game.
    """
    engine = get_engine(engine_id)
    subject, is_view = _state_for(engine, seat, state_or_view)
    mcts = Mcts(engine)
    if is_view:
        return mcts.search_view(subject, seat, budget, seed)
    return mcts.search(subject, seat, budget, seed)


def pick_move(result: SearchResult, lvl: Level, seed: int) -> int:
    """Index into ``result.moves`` of the move a level plays (see :class:`Level`).

    A proven win is always taken. When every move is solved (``result.exact``), the best
    exact value is played. Otherwise a proven loss (exact at most ``result.loss``: 0, or
    1/6 for a seat of Orbs 2 against 2), or a move proven worse than another solved one, is
    never played while another move is left, whatever its visits (it may have gathered them
    before its refutation was found). Ties in visits go to the higher mean value, then to the
    earlier child. Raises :class:`ValueError` if the search expanded no move.
    """
    if not result.moves:
        raise ValueError("the search expanded no move")
    if result.proven is not None:
        return result.proven
    indices = range(len(result.moves))
    exact = _exact(result)
    known = [value for value in exact if value is not None]
    if known and len(known) == len(exact):
        solved_best = max(known)
        return min(
            (i for i in indices if exact[i] == solved_best),
            key=lambda i: (-result.visits[i], -result.values[i], i),
        )
    order = _ranked(result)
    if lvl.temperature <= 0 or lvl.candidates <= 1:
        return order[0]
    top = order[: lvl.candidates]
    best = max(result.visits[top[0]], 1)
    weights = [(max(result.visits[i], 0) / best) ** (1.0 / lvl.temperature) for i in top]
    point = random.Random(seed ^ 0x5DEECE66D).random() * sum(weights)
    for index, weight in zip(top, weights, strict=True):
        point -= weight
        if point < 0:
            return index
    return top[0]


def _exact(result: SearchResult) -> list[float | None]:
    """``result.exact`` padded with ``None`` (unproven) to one value per move."""
    return list(result.exact) + [None] * (len(result.moves) - len(result.exact))


def _ranked(result: SearchResult) -> list[int]:
    """Indices into ``result.moves`` of the moves :func:`pick_move` may play when not every
    move is solved, by visits, then mean value, then order: every move but the proven losses
    and the moves proven worse than another (all of them if nothing else is left)."""
    exact = _exact(result)
    ceiling = max((value for value in exact if value is not None), default=0.0)
    indices = range(len(result.moves))
    alive = [i for i in indices if _playable(exact[i], ceiling, result.loss)] or list(indices)
    return sorted(alive, key=lambda i: (-result.visits[i], -result.values[i], i))


def play_index(
    engine: Engine[Any, Any],
    mcts: Mcts,
    result: SearchResult,
    seat: int,
    lvl: Level,
    seed: int,
    *,
    is_view: bool,
) -> tuple[int, bool]:
    """``(index, lost)``: the index into ``result.moves`` of the move ``lvl`` plays after the
    search ``mcts`` ran for ``seat``, and whether the blunder check found it to lose within
    three plies (every candidate did, or its time ran out).

    The move is :func:`pick_move`'s, then, for a level with ``blunder_check`` in a game that
    allows it (:func:`ai.tactics.applies`; never from a view), the first of the pick and the
    other playable moves by visits that does not lose within three plies
    (:func:`ai.tactics.safe_choice`). A proven win, or a root where every move is solved, is
    played as picked. Raises :class:`ValueError` as :func:`pick_move` does."""
    index = pick_move(result, lvl, seed)
    solved = None not in _exact(result)
    if (
        not lvl.blunder_check
        or is_view
        or result.proven is not None
        or solved
        or not applies(engine, mcts.profile, result.state)
    ):
        return index, False
    order = [index, *(i for i in _ranked(result) if i != index)]
    chosen, safe = safe_choice(engine, mcts.profile, result.state, seat, result.moves, order)
    return chosen, not safe


def _playable(exact: float | None, best: float, loss: float) -> bool:
    """Whether a move with this proven value (``None``: unproven) may be played when ``best``
    is the best proven value among the moves and ``loss`` what a loss is worth to the seat
    (:attr:`SearchResult.loss`): not a proven loss, not proven worse."""
    return exact is None or (exact > loss and exact >= best)


def choose_move(
    engine_id: str,
    options: Mapping[str, OptionValue],
    seat: int,
    state_or_view: Any,
    level_: int | str | Level,
    seed: int,
) -> str:
    """The bot's move for ``seat`` at a level, as the canonical text of ``engine.format_move``.

    The service calls it in a worker process for each bot turn; see the module docstring
    for what to pass. ``options`` are accepted for symmetry with the engine contract (the
    state carries its rules); ``level_`` is 1–5, a level name or a :class:`Level`. Deterministic
    for a given seed when the iteration budget (not the clock) stops the search and a blunder
    check (level 5) does not run out of its time (:data:`ai.tactics.CHECK_SECONDS`). A seat with a
    single legal move gets it without a search. Raises :class:`ValueError` (seat not to move,
    state passed for a hidden-information game, unknown level), :class:`NotImplementedError`
    (no ``determinize`` for a hidden-information game), :class:`engines.base.UsageError`
    (unknown game).
    """
    lvl = level(level_, engine_id)
    engine = get_engine(engine_id)
    subject, is_view = _state_for(engine, seat, state_or_view)
    if not is_view and seat not in engine.to_move(subject):
        raise ValueError(f"seat {seat} is not to move")
    return decide(engine, seat, subject, is_view=is_view, lvl=lvl, budget=lvl.budget, seed=seed)


def decide(
    engine: Engine[Any, Any],
    seat: int,
    subject: Any,
    *,
    is_view: bool,
    lvl: Level,
    budget: Budget,
    seed: int,
) -> str:
    """The move a level plays for ``seat`` from ``subject`` (a state, or with ``is_view`` the
    seat's view), searched within ``budget``: a single legal move without a search, else
    MCTS (or SO-ISMCTS for a view) and :func:`play_index` (the level's pick, and level 5's
    blunder check). What :func:`choose_move` and
    :class:`ai.bots.MctsBot` both play; the checks of what may be passed are the callers'.

    A view's legal moves are read from one determinization: the seat to move decides from
    what it knows only, so every deal gives it the same moves (checked for Generation Zero by
    ``tests/engines/test_generation_zero_determinize.py``)."""
    if is_view and not determinize_supported(engine):
        raise NotImplementedError(f"{engine.info.id} cannot determinize a view")
    known = engine.determinize(subject, seat, seed) if is_view else subject
    moves = engine.legal_moves(known, seat)
    if len(moves) == 1:
        return engine.format_move(known, moves[0])
    mcts = Mcts(engine, minimax=lvl.minimax, exploration=lvl.exploration)
    if is_view:
        result = mcts.search_view(subject, seat, budget, seed)
    else:
        result = mcts.search(subject, seat, budget, seed)
    index, _ = play_index(engine, mcts, result, seat, lvl, seed, is_view=is_view)
    return engine.format_move(result.state, result.moves[index])


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One move a search recommends (:func:`suggest`): ``move`` its canonical text, ``value``
    how well the searching seat is expected to do after it, from 0 (a loss, or last place)
    to 1 (a win; with teams the side's win, whatever share of it the seat's reward is),
    ``share`` its part of the root's visits (0–1), and ``forced`` what the solver proved
    of it: ``"win"``, ``"loss"``, ``"other"`` (a settled result between them: a draw in a
    two-player game), or ``None`` while unproven."""

    move: str
    value: float
    share: float
    forced: str | None = None


#: The second search that values a hint's moves where the game's own evaluation is
#: one-sided (:func:`suggest`; Orbs): about a quarter of a hint's time. In an Orbs opening
#: it visits every move of 2–6 players (16 each) 80 times or more on a slow core.
VALUE_BUDGET = Budget(2000, 0.5)


def suggest(
    engine_id: str,
    seat: int,
    state_or_view: Any,
    seed: int,
    budget: Budget,
    count: int = 3,
    *,
    value_budget: Budget = VALUE_BUDGET,
) -> tuple[Suggestion, ...]:
    """Up to ``count`` moves for ``seat``, best first, from one search within ``budget``: the
    move the strongest level would play (:func:`play_index` at the game's level 5 with
    ``budget``, searched with its ``minimax`` weight), then
    the others by visits. A move proven to lose, or proven worse than another, is left out
    unless no other move is left, and so is a move the search never visited; where level 5's
    blunder check applies (:mod:`ai.tactics`), so is a move that loses within three plies
    (:func:`ai.tactics.unrefuted`); level 5's move, when its check found that it loses so
    (every candidate checked did, or the check ran out of time), comes after the moves that
    passed the hint's own checks (if there is room among ``count``), or alone, as a loss by
    force, when none did. In a game whose search evaluates one-sidedly (a profile with
    ``assess_evaluate``: Orbs, where every seat's leaf values are optimistic, so an even
    opening read 0.68 with 2 players to 0.77 with 4, for every side), the values shown
    come from a second search within ``value_budget`` with the even-handed evaluation
    :func:`assess` uses (an even position near ½); if it left one of the moves unvisited,
    every move keeps the first search's value. For ``/hint`` (bot/service/bots.py), so a
    player practising against the bot can ask what it would do in their place. The inputs
    are :func:`choose_move`'s (the seat's view only for a game with hidden information),
    without options; raises what it raises, and :class:`ValueError` for ``count`` < 1.
    """
    if count < 1:
        raise ValueError("count must be at least 1")
    engine = get_engine(engine_id)
    subject, is_view = _state_for(engine, seat, state_or_view)
    if not is_view and seat not in engine.to_move(subject):
        raise ValueError(f"seat {seat} is not to move")
    strongest = replace(levels_for(engine_id)[-1], budget=budget)
    mcts = Mcts(engine, minimax=strongest.minimax, exploration=strongest.exploration)
    if is_view:
        result = mcts.search_view(subject, seat, budget, seed)
    else:
        result = mcts.search(subject, seat, budget, seed)
    if not result.moves:
        raise ValueError("the search expanded no move")
    best, refuted = play_index(engine, mcts, result, seat, strongest, seed, is_view=is_view)
    exact = _exact(result)
    ceiling = max((v for v in exact if v is not None), default=0.0)
    others = sorted(
        (
            i
            for i in range(len(result.moves))
            if i != best and result.visits[i] > 0 and _playable(exact[i], ceiling, result.loss)
        ),
        key=lambda i: (-result.visits[i], -result.values[i], i),
    )
    # Level 5's pick proven lost (its check ran out of time, or every move it checked lost)
    # goes last where the hint's own checks find a move that does not lose so.
    if not is_view and applies(engine, mcts.profile, result.state):
        wanted = count if refuted else count - 1
        others = unrefuted(engine, mcts.profile, result.state, seat, result.moves, others, wanted)
    picks = ([*others, best] if refuted and others else [best, *others])[:count]
    fair = _even_values(
        engine, mcts.profile, result, picks, subject, seat, value_budget, seed, is_view=is_view
    )
    total = max(sum(result.visits), 1)
    span = max(result.win - result.loss, 1e-9)

    def suggestion(i: int) -> Suggestion:
        solved = result.loss if i == best and refuted else exact[i]
        value = fair.get(i, result.values[i]) if solved is None else solved
        forced = None
        if solved is not None:
            forced = "win" if solved >= result.win else "loss" if solved <= result.loss else "other"
        return Suggestion(
            move=engine.format_move(result.state, result.moves[i]),
            value=min(1.0, max(0.0, (value - result.loss) / span)),
            share=result.visits[i] / total,
            forced=forced,
        )

    return tuple(suggestion(i) for i in picks)


def _even_values(
    engine: Engine[Any, Any],
    profile: GameProfile,
    result: SearchResult,
    picks: list[int],
    subject: Any,
    seat: int,
    budget: Budget,
    seed: int,
    *,
    is_view: bool,
) -> dict[int, float]:
    """For :func:`suggest` in a game whose ``profile`` has an ``assess_evaluate``: the mean
    reward of each of ``picks`` (indices into ``result.moves``) in a second search of
    ``subject`` (a state, or ``seat``'s view when ``is_view``) for ``seat`` within
    ``budget``, evaluated with it. ``{}`` for any other game, and when that search left a
    pick unvisited (a hint never mixes the two searches' scales)."""
    if profile.assess_evaluate is None:
        return {}
    even = Mcts(engine, replace(profile, evaluate=profile.assess_evaluate))
    if is_view:
        second = even.search_view(subject, seat, budget, seed)
    else:
        second = even.search(subject, seat, budget, seed)
    index = {engine.format_move(second.state, m): j for j, m in enumerate(second.moves)}
    values: dict[int, float] = {}
    for i in picks:
        j = index.get(engine.format_move(result.state, result.moves[i]))
        if j is None or second.visits[j] == 0:
            return {}
        values[i] = second.values[j]
    return values


def assess(
    engine_id: str,
    options: Mapping[str, OptionValue],
    seat: int,
    state_or_view: Any,
    seed: int,
    budget: Budget,
) -> float:
    """The bot seat's expected reward in ``[0, 1]`` (1 = wins, ½ = draw or even, 0 = loses).

    For draw offers (the service accepts one when this is at most 0.45 with two players, and
    with more when it is at least 0.05 below what the draw would give; takebacks are answered
    by level, without it). Works whoever is to move: when ``seat`` is not to move, the search
    runs for a seat that is and reports ``seat``'s mean reward. A finished game gives its
    final reward. The inputs are :func:`choose_move`'s, with a ``budget`` instead of a level;
    raises :class:`ValueError` when a hidden-information game gets anything but the seat's
    view, :class:`NotImplementedError` (no ``determinize``) and
    :class:`engines.base.UsageError` (unknown game).
    """
    engine = get_engine(engine_id)
    subject, is_view = _state_for(engine, seat, state_or_view)
    profile = profile_for(engine.info.id)
    if profile.assess_evaluate is not None:
        profile = replace(profile, evaluate=profile.assess_evaluate)
    mcts = Mcts(engine, profile)
    if is_view:
        outcome = getattr(subject, "outcome", None)
        if outcome is not None or not getattr(subject, "to_move", True):
            return _final(outcome, seat, len(getattr(subject, "scores", ())))
        return mcts.search_view(subject, seat, budget, seed, to_move=False).value
    if not engine.to_move(subject):
        return _final(engine.outcome(subject), seat, mcts.profile.players(subject))
    return mcts.search(subject, seat, budget, seed, to_move=False).value


def _final(outcome: Outcome | None, seat: int, players: int) -> float:
    """``seat``'s reward in a finished game (½ if the engine gives no outcome)."""
    if outcome is None:
        return 0.5
    ranked = {s for group in outcome.ranking for s in group}
    players = max(players, len(ranked), seat + 1, 2)
    return rewards_from_outcome(outcome, players)[seat]
