"""An index on ``challenges.game_id``.

``ChallengesRepo.challenge_of_game`` (who opened an exhibition, asked by ``/game abort``)
and the rematch checks look a challenge up by the game it started; without an index each
such look-up read every challenge ever made, a table that only grows.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(op.f("ix_challenges_game_id"), "challenges", ["game_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_challenges_game_id"), table_name="challenges")
