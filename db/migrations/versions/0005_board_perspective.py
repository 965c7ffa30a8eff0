"""Board perspective and custom start positions.

* ``user_settings.board_perspective``: whose side a user's own pictures are drawn from
  (``mine`` or ``fixed``; NULL for the default, ``mine``), ``/settings board``.
* ``challenges.start_position`` and ``games.start_position``: a custom position the game
  starts from, in the game's position notation (NULL: the standard start).

Only nullable columns are added, so no table is rebuilt and no data moves; downgrading drops
them with plain ``ALTER TABLE ... DROP COLUMN`` (SQLite 3.35+).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "user_settings",
        sa.Column("board_perspective", sa.String(length=8), nullable=True),
    )
    op.add_column("challenges", sa.Column("start_position", sa.Text(), nullable=True))
    op.add_column("games", sa.Column("start_position", sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column("games", "start_position")
    op.drop_column("challenges", "start_position")
    op.drop_column("user_settings", "board_perspective")
