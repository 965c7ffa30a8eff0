"""Slow play: clocks on challenges and games, takebacks, rematches, settings, watchers.

* ``challenges.clock`` and ``games.clock``: the clock's canonical text (``none`` for the
  existing rows, which had no clock); ``challenges.seating``: a fixed seat order (JSON list of
  user ids) or NULL for seats drawn at the start; ``challenges.rematch_of``: the game a
  rematch challenge came from.
* ``games.takeback_seat``: the seat whose takeback request is open.
* New tables ``guild_settings``, ``user_settings`` and ``watchers``.

Only columns that are nullable or have a server default are added, so no table is rebuilt and
no data moves. ``challenges.rematch_of`` is deliberately not a foreign key: SQLite cannot add
one to an existing table, and rebuilding ``challenges`` would cascade-delete its lobby rows.
Downgrading drops the new columns with plain ``ALTER TABLE ... DROP COLUMN`` (SQLite 3.35+),
again without rebuilding a table.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-21
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "games",
        sa.Column("takeback_seat", sa.Integer(), nullable=True),
    )
    op.add_column(
        "games",
        sa.Column("clock", sa.String(length=64), server_default="none", nullable=False),
    )
    op.add_column(
        "challenges",
        sa.Column("clock", sa.String(length=64), server_default="none", nullable=False),
    )
    op.add_column("challenges", sa.Column("seating", sa.Text(), nullable=True))
    op.add_column("challenges", sa.Column("rematch_of", sa.Integer(), nullable=True))

    op.create_table(
        "guild_settings",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("threads", sa.String(length=16), nullable=False),
        sa.Column("reminder_quiet_s", sa.Integer(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", name=op.f("pk_guild_settings")),
    )
    op.create_table(
        "user_settings",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("reminders", sa.String(length=16), nullable=False),
        sa.Column("reminder_quiet_s", sa.Integer(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_user_settings")),
    )
    op.create_table(
        "watchers",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("every_move", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_watchers_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "user_id", name=op.f("pk_watchers")),
    )
    op.create_index(op.f("ix_watchers_user_id"), "watchers", ["user_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_watchers_user_id"), table_name="watchers")
    op.drop_table("watchers")
    op.drop_table("user_settings")
    op.drop_table("guild_settings")
    for column in ("rematch_of", "seating", "clock"):
        op.drop_column("challenges", column)
    op.drop_column("games", "clock")
    op.drop_column("games", "takeback_seat")
