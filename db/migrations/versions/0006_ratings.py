"""Ratings: rated or casual games, ratings and their history, privacy.

* ``games.rated`` (existing games: casual, ``false``) and ``challenges.rated`` (default
  ``true``): whether a game counts for ratings.
* ``ratings``: one rating (mu, sigma, the number shown, games and results) per rating
  identity and game; ``rating_changes``: what each rated game did to each rating.
* ``user_settings.leaderboard_hidden``: left out of global leaderboards.
* ``anonymous_ids``: numbers the anonymous ids of forgotten users (``/forget-me``).

Columns are added with plain ``ALTER TABLE ... ADD COLUMN`` (a server default for the two
``NOT NULL`` ones), so no table is rebuilt. The new tables start empty: the games finished
before this migration are casual, so there is nothing to rate.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-12
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "games", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column(
        "challenges", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.true())
    )
    op.add_column("user_settings", sa.Column("leaderboard_hidden", sa.Boolean(), nullable=True))
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("last_game_id", sa.Integer(), nullable=False),
        sa.Column("last_played_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_id", "game", name=op.f("pk_ratings")),
    )
    op.create_index(
        op.f("ix_ratings_game_rating"),
        "ratings",
        ["game", "rating", "games", "sigma", "last_played_at", "user_id"],
        unique=False,
    )
    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("result", sa.String(length=8), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_rating_changes_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "user_id", name=op.f("pk_rating_changes")),
    )
    op.create_index(
        op.f("ix_rating_changes_user_id_game_at"),
        "rating_changes",
        ["user_id", "game", "at"],
        unique=False,
    )
    op.create_index(
        op.f("ix_rating_changes_guild_id_game_user_id"),
        "rating_changes",
        ["guild_id", "game", "user_id"],
        unique=False,
    )
    op.create_table(
        "anonymous_ids",
        sa.Column("n", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("n", name=op.f("pk_anonymous_ids")),
        sqlite_autoincrement=True,
    )


def downgrade() -> None:
    op.drop_table("anonymous_ids")
    op.drop_index(op.f("ix_rating_changes_guild_id_game_user_id"), table_name="rating_changes")
    op.drop_index(op.f("ix_rating_changes_user_id_game_at"), table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index(op.f("ix_ratings_game_rating"), table_name="ratings")
    op.drop_table("ratings")
    op.drop_column("user_settings", "leaderboard_hidden")
    op.drop_column("challenges", "rated")
    op.drop_column("games", "rated")
