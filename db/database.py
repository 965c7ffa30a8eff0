"""``Database``: one engine, its repositories, and the migrations that shape it."""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import Final

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from db.challenges import ChallengesRepo
from db.clocks import ClocksRepo, VacationsRepo
from db.engine import DEFAULT_URL, Transactions, create_engine
from db.games import GamesRepo
from db.offers import OfferPostsRepo
from db.ratings import RatingsRepo
from db.schema import GameStatus, claim_posts, draw_offer_posts, games, takeback_posts
from db.settings import SettingsRepo
from db.timers import TimersRepo
from db.watchers import WatchersRepo

__all__ = ["MIGRATIONS_DIR", "Database", "alembic_config"]

#: The Alembic script directory shipped inside the package (``db/migrations``).
MIGRATIONS_DIR: Final = Path(__file__).resolve().parent / "migrations"


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic configuration built in code, independent of the working directory.

    It points at :data:`MIGRATIONS_DIR`, so it works from an installed package; the
    repository's ``alembic.ini`` is only for developers running ``alembic`` by hand. With
    ``connection``, ``db/migrations/env.py`` runs the migrations on that (sync) connection
    and inside its transaction instead of opening its own.
    """
    config = Config()
    # ConfigParser interpolates "%": escape it in case the install path contains one.
    config.set_main_option("script_location", str(MIGRATIONS_DIR).replace("%", "%%"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


class Database:
    """The bot's database at ``url`` (default :data:`db.engine.DEFAULT_URL`).

    Its repositories are attributes, one per theme (``games``, ``challenges``, ``timers``,
    ``clocks``, ``vacations``, ``settings``, ``watchers``, ``ratings`` and the three offer
    posts' ``draw_offer_posts``, ``takeback_posts``, ``claim_posts``). Call :meth:`migrate`
    once at start and :meth:`close` at shutdown (or use ``async with Database(url) as db``).
    Creating the object opens no connection; for a SQLite file it creates the parent
    directory.
    """

    def __init__(self, url: str = DEFAULT_URL) -> None:
        self.url = url
        self._engine = create_engine(url)
        self._transactions = Transactions(self._engine)
        self.games = GamesRepo(self._transactions)
        self.challenges = ChallengesRepo(self._transactions)
        self.timers = TimersRepo(self._transactions)
        self.clocks = ClocksRepo(self._transactions)
        self.vacations = VacationsRepo(self._transactions)
        self.settings = SettingsRepo(self._transactions)
        self.watchers = WatchersRepo(self._transactions)
        self.ratings = RatingsRepo(self._transactions)
        self.draw_offer_posts = OfferPostsRepo(
            self._transactions, draw_offer_posts, games.c.draw_offer_seat.is_not(None)
        )
        self.takeback_posts = OfferPostsRepo(
            self._transactions, takeback_posts, games.c.takeback_seat.is_not(None)
        )
        self.claim_posts = OfferPostsRepo(
            self._transactions, claim_posts, games.c.status == GameStatus.ACTIVE.value
        )

    @property
    def engine(self) -> AsyncEngine:
        """The SQLAlchemy engine, for tests and diagnostics; repositories are the API."""
        return self._engine

    async def migrate(self) -> None:
        """Bring the schema to the newest migration (``alembic upgrade head``).

        Runs in one write transaction: on SQLite all migrations apply or none does, and two
        processes starting together take turns (the second finds nothing to do). A no-op on
        an up-to-date database.
        """
        async with self._transactions.write() as conn:
            await conn.run_sync(_upgrade_to_head)

    async def close(self) -> None:
        """Close every pooled connection (a later call opens new ones)."""
        await self._engine.dispose()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"Database({self._engine.url.render_as_string(hide_password=True)!r})"


def _upgrade_to_head(connection: Connection) -> None:
    command.upgrade(alembic_config(connection), "head")
