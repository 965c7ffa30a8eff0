"""The count of a game's watchers on its row: ``games.watchers``.

Every board post told the game's watchers, so every move read the ``watchers`` table, though
almost no game has a watcher. The count, kept by ``db.watchers.WatchersRepo`` in the
transaction of each watch and unwatch, comes with the game's row, which a move reads anyway:
a game nobody watches needs no read. Existing games get the count of their ``watchers`` rows.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("watchers", sa.Integer(), nullable=False, server_default="0"))
    op.execute(
        sa.text(
            "UPDATE games SET watchers = "
            "(SELECT COUNT(*) FROM watchers WHERE watchers.game_id = games.id)"
        )
    )


def downgrade() -> None:
    op.drop_column("games", "watchers")
