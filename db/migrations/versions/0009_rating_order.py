"""The order of rating updates: ``games.rating_seq`` and ``ratings.seq``.

A rebuild replayed rated games by ``finished_at``, the time the service read when the game
ended; live updates apply in the order their transactions take the ratings' locks. Two games
that share a rating identity (a bot level plays many games at once) and end together could
take them in the other order, and then a rebuild rated them differently. Each ending now
stamps its game with one more than the largest ``seq`` of its identities' rating rows (read
under those locks) and writes that value to the rows: a Lamport clock, so of two games that
share an identity the later-applied one has the larger stamp, and the rebuild replays by it.
Games rated before this migration keep NULL and are replayed first, by ``finished_at`` as
before; every rating starts at 0.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("rating_seq", sa.BigInteger(), nullable=True))
    op.add_column("ratings", sa.Column("seq", sa.BigInteger(), nullable=False, server_default="0"))


def downgrade() -> None:
    op.drop_column("ratings", "seq")
    op.drop_column("games", "rating_seq")
