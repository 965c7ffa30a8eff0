"""Clocks and durable timers: tables timers, clocks and vacations.

* ``timers``: wake-up calls claimed by a loop (compare-and-set on ``claimed_by``), so they
  survive restarts and run once even with several processes. Two partial unique indexes
  allow at most one *pending* timer per game, seat and kind, and one pending game-wide timer
  (``seat`` NULL) per game and kind; ``(status, due_at)`` serves the claim query.
* ``clocks``: one time bank per seat of a game with a clock (``remaining_ms`` at
  ``running_since``), keyed like ``seats`` and deleted with them.
* ``vacations``: one row per user, the vacation booked this year and until when.

Only new tables: nothing existing changes, so no data moves and downgrading drops them.

Revision ID: 0003
Revises: 0002
Create Date: 2025-11-24
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "timers",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("claimed_by", sa.String(length=128), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("fired_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_timers_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_timers")),
        sqlite_autoincrement=True,
    )
    op.create_index(
        op.f("uq_timers_game_id_seat_kind_pending"),
        "timers",
        ["game_id", "seat", "kind"],
        unique=True,
        sqlite_where=sa.text("status = 'pending'"),
        postgresql_where=sa.text("status = 'pending'"),
    )
    op.create_index(
        op.f("uq_timers_game_id_kind_pending_game_wide"),
        "timers",
        ["game_id", "kind"],
        unique=True,
        sqlite_where=sa.text("status = 'pending' AND seat IS NULL"),
        postgresql_where=sa.text("status = 'pending' AND seat IS NULL"),
    )
    op.create_index(op.f("ix_timers_status_due_at"), "timers", ["status", "due_at"])
    op.create_index(op.f("ix_timers_game_id"), "timers", ["game_id"])

    op.create_table(
        "clocks",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("spec", sa.String(length=64), nullable=False),
        sa.Column("remaining_ms", sa.BigInteger(), nullable=False),
        sa.Column("running_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id", "seat"],
            ["seats.game_id", "seats.seat"],
            name=op.f("fk_clocks_game_id_seats"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_clocks")),
    )

    op.create_table(
        "vacations",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("used_ms", sa.BigInteger(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_vacations")),
    )


def downgrade() -> None:
    op.drop_table("vacations")
    op.drop_table("clocks")
    op.drop_index(op.f("ix_timers_game_id"), table_name="timers")
    op.drop_index(op.f("ix_timers_status_due_at"), table_name="timers")
    op.drop_index(op.f("uq_timers_game_id_kind_pending_game_wide"), table_name="timers")
    op.drop_index(op.f("uq_timers_game_id_seat_kind_pending"), table_name="timers")
    op.drop_table("timers")
