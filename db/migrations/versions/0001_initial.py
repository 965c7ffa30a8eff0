"""Initial schema: games, seats, moves, challenges.

Revision ID: 0001
Revises:
Create Date: 2025-11-21
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("parent_channel_id", sa.BigInteger(), nullable=True),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("rules_version", sa.String(length=32), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("to_move", sa.String(length=64), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("outcome", sa.Text(), nullable=True),
        sa.Column("termination", sa.String(length=32), nullable=True),
        sa.Column("draw_offer_seat", sa.Integer(), nullable=True),
        sa.Column("board_message_id", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sqlite_autoincrement=True,
    )
    # One active game per channel or thread: the database, not Python, enforces it.
    op.create_index(
        op.f("uq_games_channel_id_active"),
        "games",
        ["channel_id"],
        unique=True,
        sqlite_where=sa.text("status = 'active'"),
        postgresql_where=sa.text("status = 'active'"),
    )
    op.create_index(op.f("ix_games_guild_id_status"), "games", ["guild_id", "status"])

    op.create_table(
        "seats",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("team", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_seats_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_seats")),
    )
    op.create_index(op.f("ix_seats_user_id"), "seats", ["user_id"])

    op.create_table(
        "moves",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("text", sa.String(length=255), nullable=False),
        sa.Column("events", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_moves_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "ply", name=op.f("pk_moves")),
    )

    op.create_table(
        "challenges",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("challenger_id", sa.BigInteger(), nullable=False),
        sa.Column("opponent_id", sa.BigInteger(), nullable=True),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_challenges_game_id_games"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_challenges")),
        sqlite_autoincrement=True,
    )
    op.create_index(op.f("ix_challenges_channel_id"), "challenges", ["channel_id"])
    op.create_index(op.f("ix_challenges_status_expires_at"), "challenges", ["status", "expires_at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_challenges_status_expires_at"), table_name="challenges")
    op.drop_index(op.f("ix_challenges_channel_id"), table_name="challenges")
    op.drop_table("challenges")
    op.drop_table("moves")
    op.drop_index(op.f("ix_seats_user_id"), table_name="seats")
    op.drop_table("seats")
    op.drop_index(op.f("ix_games_guild_id_status"), table_name="games")
    op.drop_index(op.f("uq_games_channel_id_active"), table_name="games")
    op.drop_table("games")
