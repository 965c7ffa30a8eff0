"""Who has agreed to a game's open draw offer: ``games.draw_agreed``.

A draw by agreement needs every player still in (spec orbs D-ORB-11, and so in every game of
three or more players): the offer's seat alone (``draw_offer_seat``) cannot say who has
accepted so far. ``draw_agreed`` is a bit mask of the seats that have (bit ``k`` for seat
``k``; the offerer's seats from the start), set and cleared with the offer. Open offers of
existing games get their offerer's bit.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("draw_agreed", sa.Integer(), nullable=True))
    for seat in range(8):  # no game seats more than six; bit shifts differ between dialects
        op.execute(
            sa.text(f"UPDATE games SET draw_agreed = {1 << seat} WHERE draw_offer_seat = {seat}")
        )


def downgrade() -> None:
    op.drop_column("games", "draw_agreed")
