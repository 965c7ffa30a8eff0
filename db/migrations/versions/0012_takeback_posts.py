"""The chat post of each open takeback request: ``takeback_posts``.

A takeback request is posted with Allow / Refuse buttons. A move, a resignation, an abort or
a time-out closes the request in the database, but its post kept live-looking buttons (and
its ping) until somebody pressed one, which was then answered as stale. The post's ids now
live in the database, as a draw offer's do (migration 0010), so any process can retire it.
Requests open during the upgrade have no row and keep the old behaviour.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "takeback_posts",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_takeback_posts_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_takeback_posts")),
    )


def downgrade() -> None:
    op.drop_table("takeback_posts")
