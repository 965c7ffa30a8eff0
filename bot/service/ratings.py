"""Ratings: openskill's Plackett–Luce model for every game and player count
(docs/ratings.md).

A rating is derived data, a pure function of the finished rated games in order
(``finished_at``, then id): :func:`update_ratings` takes one game's result and its players'
current rows and returns their new rows and history rows. The same function serves the
write that ends a game (plugged into the core, :meth:`Ratings.hook`: it runs inside that
write's transaction, after the compare-and-set, so it lands exactly once) and the rebuild
from the games table (:meth:`Ratings.rebuild`, ``python -m bot ratings rebuild``).

* **Teams**: the seats grouped as the game's view groups them (``view.sides``: Orbs teams);
  every seat alone otherwise. Each side's place is its best seat's group in the outcome's
  ranking (ties share a place).
* **Identities**: a person is their user id; every bot seat of one level is one player
  (:func:`~bot.service.bot_seats.bot_identity`), so the bots anchor the scale.
* **Shown rating**: ``SCALE * (mu - sigma) + TARGET`` (openskill's ``ordinal`` with ``z=1``),
  1500 for a newcomer; 30 points per unit of mu puts 400 points near 10:1 odds, as in Elo.
* **Provisional** (``?``) while ``sigma > PROVISIONAL_SIGMA`` (about ten two-player games).
* **Idle players**: sigma grows back, ``sigma² + days * TAU_PER_DAY²`` (capped at the
  newcomer's sigma), at their next rated game, on top of openskill's per-game ``tau``.
* **Unrated**: casual games, aborted games, games with fewer plies than players, games from
  a custom position, bot exhibitions, a person holding two seats.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from openskill.models import PlackettLuce

from bot.service import _codec
from bot.service.bot_seats import bot_identity, is_bot
from bot.service.core import GameCore, Loaded
from bot.service.errors import ServiceError
from bot.service.models import Player, RatingChange
from bot.service.options import sides_of
from bot.service.rating_models import GameRating, Leaderboard, LeaderboardEntry, RatingProfile
from db.ratings import StillPlayingError
from db.rows import GameRow, RatingChangeRow, RatingHook, RatingRow
from engines import get_engine
from engines.base import Outcome

__all__ = [
    "ACTIVE_DAYS",
    "LEADERBOARD_MIN_GAMES",
    "MODEL",
    "PROVISIONAL_SIGMA",
    "GameResult",
    "Ratings",
    "RebuildReport",
    "StillPlayingServiceError",
    "inflated_sigma",
    "is_provisional",
    "is_rated",
    "shown_rating",
    "update_ratings",
]

#: The model's prior: openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300).
MU0 = 25.0
SIGMA0 = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
MODEL = PlackettLuce(mu=MU0, sigma=SIGMA0, beta=BETA, tau=TAU)

#: Shown rating = openskill's ordinal ``alpha * (mu - z * sigma) + target`` with these.
SCALE = 30.0
Z = 1.0
TARGET = 1500.0 - SCALE * (MU0 - Z * SIGMA0)

#: Sigma above which a rating is provisional (shown ``1540?``).
PROVISIONAL_SIGMA = 6.2
#: How fast sigma grows back while a player does not play (per day, added in quadrature).
TAU_PER_DAY = 0.35

#: Leaderboard gate: at least this many rated games, not provisional, one in the last
#: ``ACTIVE_DAYS`` days.
LEADERBOARD_MIN_GAMES = 5
ACTIVE_DAYS = 30
#: A leaderboard entry's trend: the change over its last this many rated games.
TREND_GAMES = 5


class StillPlayingServiceError(ServiceError):
    """``/forget-me`` while the user still plays."""

    def __init__(self) -> None:
        super().__init__(
            "Finish, resign or leave your games and challenges first; then run /forget-me again."
        )


def shown_rating(mu: float, sigma: float) -> float:
    """The number players see for ``(mu, sigma)``: openskill's ordinal on an Elo-like scale."""
    return float(MODEL.rating(mu=mu, sigma=sigma).ordinal(z=Z, alpha=SCALE, target=TARGET))


def is_provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def inflated_sigma(sigma: float, idle: timedelta) -> float:
    """``sigma`` after ``idle`` without rated games (never above the newcomer's sigma, never
    below ``sigma``)."""
    days = max(0.0, idle.total_seconds() / 86400)
    grown = math.sqrt(sigma * sigma + days * TAU_PER_DAY * TAU_PER_DAY)
    return max(sigma, min(SIGMA0, grown))


def is_rated(
    *,
    rated: bool,
    status: str,
    seat_plies: int,
    start_position: str | None,
    user_ids: Sequence[int],
) -> bool:
    """Whether a game that ended so counts for ratings (see the module's list).
    ``seat_plies`` counts the plies seats played (not chance outcomes: an Arbos setup or a
    die roll is nobody's move)."""
    if not rated or status != "finished" or start_position is not None:
        return False
    if seat_plies < len(user_ids) or all(is_bot(u) for u in user_ids):
        return False
    people = [u for u in user_ids if not is_bot(u)]
    if len(set(people)) != len(people):
        return False
    return len({bot_identity(u) for u in user_ids}) >= 2


@dataclass(frozen=True, slots=True)
class GameResult:
    """What :func:`update_ratings` needs of one finished rated game."""

    game_id: int
    game: str
    guild_id: int | None
    finished_at: datetime
    user_ids: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...]
    outcome: Outcome


def update_ratings(
    result: GameResult, current: Mapping[int, RatingRow]
) -> tuple[list[RatingRow], list[RatingChangeRow]]:
    """The new ``ratings`` rows and the history rows of one game (pure).

    ``current`` maps rating identities to their rows (absent: a newcomer). Every seat counts
    in its side's strength and place, but an identity seated more than once (a bot level
    added twice) is updated once, by its first seat (in ``result.sides`` order): its other
    seats take part with its rating as it was, like a stand-in whose result is not kept.
    Its win, draw or loss is that of the seat it is rated by: a draw only for the sides in
    a drawn game's top group, the others of a drawn game (who had left it) lost. Returns
    nothing when the game has fewer than two identities (bots of one level only) or fewer
    than two sides.
    """
    outcome = result.outcome
    place_of_seat = {seat: i for i, group in enumerate(outcome.ranking) for seat in group}
    unranked = len(outcome.ranking)
    identity_of = [bot_identity(user_id) for user_id in result.user_ids]
    identity_seat: dict[int, int] = {}
    sides = [side for side in result.sides if side]
    for side in sides:
        for seat in side:
            identity_seat.setdefault(identity_of[seat], seat)
    if len(identity_seat) < 2 or len(sides) < 2:
        return [], []
    ranks = [float(min(place_of_seat.get(seat, unranked) for seat in side)) for side in sides]
    before: dict[int, tuple[float, float]] = {}
    for identity in identity_seat:
        row = current.get(identity)
        if row is None:
            before[identity] = (MU0, SIGMA0)
        else:
            idle = result.finished_at - row.last_played_at
            before[identity] = (row.mu, inflated_sigma(row.sigma, idle))
    rated = MODEL.rate(
        [
            [
                MODEL.rating(mu=before[identity_of[s]][0], sigma=before[identity_of[s]][1])
                for s in side
            ]
            for side in sides
        ],
        ranks=ranks,
    )
    winners = set(outcome.winners)
    rows: list[RatingRow] = []
    changes: list[RatingChangeRow] = []
    for side, new_side, rank in zip(sides, rated, ranks, strict=True):
        for seat, new in zip(side, new_side, strict=True):
            identity = identity_of[seat]
            if identity_seat[identity] != seat:
                continue  # a stand-in: its identity is rated by its first seat
            if seat in winners:
                verdict = "win"
            elif outcome.is_draw and rank == 0:
                verdict = "draw"
            else:
                # Below the top group of a drawn game (it resigned, was knocked out or ran
                # out of time while the others played on to a draw): a loss, as its rating says.
                verdict = "loss"
            old = current.get(identity)
            mu0, sigma0 = (MU0, SIGMA0) if old is None else (old.mu, old.sigma)
            mu, sigma = float(new.mu), float(new.sigma)
            rows.append(
                RatingRow(
                    user_id=identity,
                    game=result.game,
                    mu=mu,
                    sigma=sigma,
                    rating=shown_rating(mu, sigma),
                    games=(0 if old is None else old.games) + 1,
                    wins=(0 if old is None else old.wins) + (verdict == "win"),
                    draws=(0 if old is None else old.draws) + (verdict == "draw"),
                    losses=(0 if old is None else old.losses) + (verdict == "loss"),
                    last_game_id=result.game_id,
                    last_played_at=result.finished_at,
                )
            )
            changes.append(
                RatingChangeRow(
                    game_id=result.game_id,
                    user_id=identity,
                    game=result.game,
                    guild_id=result.guild_id,
                    seat=seat,
                    place=int(rank),
                    result=verdict,
                    mu_before=mu0,
                    sigma_before=sigma0,
                    mu_after=mu,
                    sigma_after=sigma,
                    rating_before=shown_rating(mu0, sigma0),
                    rating_after=shown_rating(mu, sigma),
                    at=result.finished_at,
                )
            )
    changes.sort(key=lambda c: c.seat)
    return rows, changes


def result_of(row: GameRow, user_ids: Sequence[int], outcome: Outcome) -> GameResult:
    """The :class:`GameResult` of a game row that ended with ``outcome``."""
    assert row.finished_at is not None
    return GameResult(
        game_id=row.id,
        game=row.game,
        guild_id=row.guild_id,
        finished_at=row.finished_at,
        user_ids=tuple(user_ids),
        sides=sides_of(row.game, row.options_json, len(user_ids)),
        outcome=outcome,
    )


@dataclass(frozen=True, slots=True)
class RebuildReport:
    """What ``python -m bot ratings rebuild`` did."""

    games: int
    ratings: int
    changes: int


class Ratings:
    """The ratings use case: plugs itself into the core (every write that ends a rated game
    carries its update), ``/rating``, ``/leaderboard``, privacy and the rebuild."""

    def __init__(self, core: GameCore) -> None:
        self.core = core
        core.ratings = self

    # ---- the core's plug (RatingPlug) -----------------------------------------------------

    def hook(
        self,
        loaded: Loaded,
        status: str,
        outcome: Outcome | None,
        seat_plies: int,
        now: datetime,
    ) -> RatingHook | None:
        """The rating update of the write that ends ``loaded``'s game now, if it is rated
        (``seat_plies``: the plies seats played, the ending write's included)."""
        row = loaded.row
        user_ids = tuple(p.user_id for p in loaded.meta.players)
        if outcome is None or not is_rated(
            rated=row.rated,
            status=status,
            seat_plies=seat_plies,
            start_position=row.start_position,
            user_ids=user_ids,
        ):
            return None
        result = GameResult(
            game_id=row.id,
            game=row.game,
            guild_id=row.guild_id,
            finished_at=now,
            user_ids=user_ids,
            sides=sides_of(row.game, row.options_json, len(user_ids)),
            outcome=outcome,
        )
        identities = tuple(dict.fromkeys(bot_identity(u) for u in user_ids))
        return RatingHook(row.game, identities, lambda current: update_ratings(result, current))

    def changes(
        self, rows: Sequence[RatingChangeRow], players: Sequence[Player]
    ) -> tuple[RatingChange, ...]:
        """The shown changes of a game's history rows (the seat's user, for the bot's seat)."""
        shown = []
        for row in sorted(rows, key=lambda r: r.seat):
            user_id = players[row.seat].user_id if row.seat < len(players) else row.user_id
            shown.append(
                RatingChange(
                    user_id=user_id,
                    seat=row.seat,
                    before=round(row.rating_before),
                    after=round(row.rating_after),
                    provisional=is_provisional(row.sigma_after),
                    provisional_before=is_provisional(row.sigma_before),
                )
            )
        return tuple(shown)

    # ---- the rebuild ----------------------------------------------------------------------

    async def rebuild(self) -> RebuildReport:
        """Recompute every rating from the finished rated games and replace the stored ones
        (one transaction for the replacement)."""
        current: dict[tuple[int, str], RatingRow] = {}
        changes: list[RatingChangeRow] = []
        games = 0
        async for rated in self.core.database.ratings.rated_games():
            row = rated.row
            outcome = _codec.load_outcome(row.outcome_json)
            if outcome is None or not is_rated(
                rated=row.rated,
                status=str(row.status),
                seat_plies=rated.seat_plies,
                start_position=row.start_position,
                user_ids=rated.user_ids,
            ):
                continue
            result = result_of(row, rated.user_ids, outcome)
            mine = {
                identity: current[identity, row.game]
                for identity in {bot_identity(u) for u in rated.user_ids}
                if (identity, row.game) in current
            }
            new_rows, new_changes = update_ratings(result, mine)
            for new in new_rows:
                current[new.user_id, new.game] = new
            changes.extend(new_changes)
            games += bool(new_changes)
        await self.core.database.ratings.replace_all(current.values(), changes)
        return RebuildReport(games, len(current), len(changes))

    # ---- /rating ----------------------------------------------------------------------------

    async def profile(self, user_id: int, game: str | None = None) -> RatingProfile:
        """``user_id``'s ratings (bot seats: their level's), ``game`` first when given,
        with the history and best win of the first one."""
        identity = bot_identity(user_id)
        repo = self.core.database.ratings
        rows = await repo.of_user(identity)
        if game is not None:
            rows.sort(key=lambda r: r.game != game)
        shown = []
        for index, row in enumerate(rows):
            history: tuple[tuple[datetime, int], ...] = ()
            best: tuple[int, int, int] | None = None
            if index == 0:
                changes = await repo.history(identity, row.game)
                if changes:
                    first = changes[0]
                    history = (
                        (first.at - timedelta(seconds=1), round(first.rating_before)),
                        *((c.at, round(c.rating_after)) for c in changes),
                    )
                win = await repo.best_win(identity, row.game)
                if win is not None:
                    best = (win.user_id, round(win.rating_before), win.game_id)
            shown.append(
                GameRating(
                    game=row.game,
                    game_name=_game_name(row.game),
                    rating=round(row.rating),
                    provisional=is_provisional(row.sigma),
                    games=row.games,
                    wins=row.wins,
                    draws=row.draws,
                    losses=row.losses,
                    last_played_at=row.last_played_at,
                    history=history,
                    best_win=best,
                )
            )
        if game is not None and (not shown or shown[0].game != game):
            shown.insert(
                0,
                GameRating(
                    game=game,
                    game_name=_game_name(game),
                    rating=round(shown_rating(MU0, SIGMA0)),
                    provisional=True,
                    games=0,
                    wins=0,
                    draws=0,
                    losses=0,
                    last_played_at=self.core.now(),
                ),
            )
        return RatingProfile(user_id, tuple(shown))

    # ---- /leaderboard -----------------------------------------------------------------------

    async def leaderboard(
        self,
        game: str,
        *,
        scope: str = "server",
        guild_id: int | None = None,
        caller_id: int | None = None,
        limit: int = 15,
    ) -> Leaderboard:
        """The leaderboard of ``game`` (``scope`` ``server``: identities with a rated game of
        it in ``guild_id``; ``global``: everyone who did not hide), gated as
        ``docs/ratings.md`` says, and the caller's own place."""
        if scope == "server" and guild_id is None:
            scope = "global"
        now = self.core.now()
        gate = {
            "min_games": LEADERBOARD_MIN_GAMES,
            "max_sigma": PROVISIONAL_SIGMA,
            "active_since": now - timedelta(days=ACTIVE_DAYS),
            "guild_id": guild_id if scope == "server" else None,
            "hide_private": scope == "global",
        }
        repo = self.core.database.ratings
        rows = await repo.leaderboard(game, limit=limit, **gate)  # type: ignore[arg-type]
        entries = [
            LeaderboardEntry(
                place, r.user_id, round(r.rating), r.games, await self._trend(r.user_id, game)
            )
            for place, r in enumerate(rows, start=1)
        ]
        caller: LeaderboardEntry | None = None
        note = ""
        if caller_id is not None:
            mine = await repo.get(caller_id, game)
            if mine is None:
                note = f"You have no rated {_game_name(game)} game yet."
            else:
                place = await repo.place(mine, **gate)  # type: ignore[arg-type]
                caller = LeaderboardEntry(
                    place,
                    caller_id,
                    round(mine.rating),
                    mine.games,
                    await self._trend(caller_id, game),
                    provisional=is_provisional(mine.sigma),
                )
                note = _gate_note(mine, now)
                if scope == "global" and await repo.is_hidden(caller_id):
                    note = "You are hidden from global leaderboards (/settings privacy)."
        return Leaderboard(game, _game_name(game), scope, tuple(entries), caller, note, now)

    async def _trend(self, identity: int, game: str) -> int:
        changes = await self.core.database.ratings.history(identity, game, limit=TREND_GAMES)
        if not changes:
            return 0
        return round(changes[-1].rating_after - changes[0].rating_before)

    # ---- privacy ------------------------------------------------------------------------------

    async def set_hidden(self, user_id: int, hidden: bool) -> None:
        """Hide ``user_id`` from global leaderboards (``False``: show them)."""
        await self.core.database.ratings.set_hidden(user_id, hidden, now=self.core.now())

    async def is_hidden(self, user_id: int) -> bool:
        return await self.core.database.ratings.is_hidden(user_id)

    async def forget_me(self, user_id: int) -> int:
        """Anonymise ``user_id`` everywhere (docs/ratings.md); returns the anonymous id.
        Raises :class:`StillPlayingServiceError` while they play."""
        try:
            anonymous = await self.core.database.ratings.forget_user(user_id, now=self.core.now())
        except StillPlayingError as exc:
            raise StillPlayingServiceError() from exc
        return anonymous


def _gate_note(row: RatingRow, now: datetime) -> str:
    """Why ``row`` is not on the leaderboard, or ``""``."""
    if row.games < LEADERBOARD_MIN_GAMES:
        return f"You need {LEADERBOARD_MIN_GAMES} rated games to be listed (you have {row.games})."
    if is_provisional(row.sigma):
        return "Your rating is still provisional: play a few more rated games to be listed."
    if row.last_played_at < now - timedelta(days=ACTIVE_DAYS):
        return f"Play a rated game (none in the last {ACTIVE_DAYS} days) to be listed again."
    return ""


def _game_name(game: str) -> str:
    try:
        return get_engine(game).info.name
    except Exception:
        return game
