"""One open rematch per game: a partial unique index on ``challenges.rematch_of``.

Two presses of Rematch at the same instant, in two processes, could each find no open rematch
and open one. The index ``uq_challenges_rematch_of_open`` (unique ``rematch_of`` among
challenges whose status is ``open``) lets exactly one insert land; the other gets the first
one's challenge (``db.RematchAlreadyOpenError``). A database that already holds two open
rematches of one game (the race happened) keeps the newest open and marks the others
cancelled before the index is built.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_INDEX = "uq_challenges_rematch_of_open"


def upgrade() -> None:
    op.execute(
        sa.text(
            "UPDATE challenges SET status = 'cancelled' "
            "WHERE status = 'open' AND rematch_of IS NOT NULL AND id NOT IN ("
            "  SELECT MAX(id) FROM challenges "
            "  WHERE status = 'open' AND rematch_of IS NOT NULL GROUP BY rematch_of)"
        )
    )
    op.create_index(
        _INDEX,
        "challenges",
        ["rematch_of"],
        unique=True,
        sqlite_where=sa.text("status = 'open'"),
        postgresql_where=sa.text("status = 'open'"),
    )


def downgrade() -> None:
    op.drop_index(_INDEX, table_name="challenges")
