"""The chat post of each open draw offer: ``draw_offer_posts``.

A draw offer is posted with Accept / Decline buttons. Whatever closes the offer (a move, a
resignation, an abort, a time-out) retires those buttons, but the post was remembered only by
the process that made it: after a restart, or when another process closed the offer, the old
buttons stayed until somebody pressed one. The post's ids now live in the database, so any
process can retire it. Offers open during the upgrade have no row and keep the old behaviour
(a press is answered as stale and edits the post).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "draw_offer_posts",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_draw_offer_posts_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_draw_offer_posts")),
    )


def downgrade() -> None:
    op.drop_table("draw_offer_posts")
