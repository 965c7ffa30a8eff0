"""The chat post of each soft clock's open time-out notice: ``claim_posts``.

A soft clock's notice is posted with a "Claim on time" button. The late player's move, a
claim by ``/claim``, a resignation, an abort or the game's end made it stale, but it kept
its live-looking button until somebody pressed it, which was then answered as stale. The
post's ids now live in the database, as a takeback request's do (migration 0012), so any
process can retire it. Notices posted before the upgrade have no row and keep the old
behaviour.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "claim_posts",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_claim_posts_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_claim_posts")),
    )


def downgrade() -> None:
    op.drop_table("claim_posts")
