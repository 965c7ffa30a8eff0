"""Challenges for several players: challenge_players, challenges.players and .version.

A challenge becomes a lobby of ``players`` seats whose users are rows of the new table
``challenge_players`` (role challenger/invited/joined, status invited/seated/declined/left,
listing order). ``challenges.version`` is the lobby's compare-and-set token. The column
``challenges.opponent_id`` goes: the invited user is now a ``challenge_players`` row.

Existing challenges were all for two players, so they get ``players = 2``, ``version = 1``
and these lobby rows:

* the challenger: role ``challenger``, status ``seated``;
* a named opponent: role ``invited``, status ``seated`` if the challenge was accepted,
  ``declined`` if declined, else ``invited`` (still open, cancelled or expired);
* for an accepted open challenge, the other player of its game (from ``seats``): role
  ``joined``, status ``seated``.

Order of the steps, and why: on SQLite, changing a column's nullability or dropping one
recreates the table (batch mode copies it, drops the old one, renames the copy). Dropping a
table with foreign keys on deletes its rows first, which would cascade to child rows, so the
lobby rows are computed *before* ``challenges`` is rebuilt and inserted *after* the new
table exists. Challenge ids must never be reused (old buttons name challenges by id), so the
copy keeps ``AUTOINCREMENT`` (``sqlite_autoincrement`` again) and SQLite's high-water mark
in ``sqlite_sequence``, which the copy would otherwise lower to the largest id still present.

Revision ID: 0002
Revises: 0001
Create Date: 2025-11-21
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The tables as this migration sees them (never the application's metadata, which moves on).
_challenges = sa.table(
    "challenges",
    sa.column("id", sa.Integer()),
    sa.column("challenger_id", sa.BigInteger()),
    sa.column("opponent_id", sa.BigInteger()),
    sa.column("status", sa.String(16)),
    sa.column("game_id", sa.Integer()),
    sa.column("players", sa.Integer()),
    sa.column("version", sa.Integer()),
    sa.column("created_at", sa.DateTime(timezone=True)),
    sa.column("resolved_at", sa.DateTime(timezone=True)),
)
_seats = sa.table(
    "seats", sa.column("game_id", sa.Integer()), sa.column("user_id", sa.BigInteger())
)

_OPPONENT_STATUS = {"accepted": "seated", "declined": "declined"}


def _lobby_rows(bind: sa.Connection) -> list[dict[str, Any]]:
    """The ``challenge_players`` rows of every existing (two-seat) challenge."""
    rows: list[dict[str, Any]] = []
    found = bind.execute(
        sa.select(
            _challenges.c.id,
            _challenges.c.challenger_id,
            _challenges.c.opponent_id,
            _challenges.c.status,
            _challenges.c.game_id,
            _challenges.c.created_at,
            _challenges.c.resolved_at,
        ).order_by(_challenges.c.id)
    ).all()
    for challenge in found:
        answered_at = challenge.resolved_at or challenge.created_at
        rows.append(
            {
                "challenge_id": challenge.id,
                "user_id": challenge.challenger_id,
                "role": "challenger",
                "status": "seated",
                "ordinal": 0,
                "created_at": challenge.created_at,
                "updated_at": challenge.created_at,
            }
        )
        second: tuple[int, str, str] | None = None
        if challenge.opponent_id is not None:
            status = _OPPONENT_STATUS.get(challenge.status, "invited")
            second = (challenge.opponent_id, "invited", status)
        elif challenge.status == "accepted" and challenge.game_id is not None:
            joiner = bind.execute(
                sa.select(_seats.c.user_id)
                .where(
                    _seats.c.game_id == challenge.game_id,
                    _seats.c.user_id != challenge.challenger_id,
                )
                .limit(1)
            ).scalar_one_or_none()
            if joiner is not None:
                second = (joiner, "joined", "seated")
        if second is not None:
            user_id, role, status = second
            rows.append(
                {
                    "challenge_id": challenge.id,
                    "user_id": user_id,
                    "role": role,
                    "status": status,
                    "ordinal": 1,
                    "created_at": challenge.created_at if role == "invited" else answered_at,
                    "updated_at": challenge.created_at if status == "invited" else answered_at,
                }
            )
    return rows


def _sqlite_high_water_mark(bind: sa.Connection) -> int | None:
    """The largest ``challenges.id`` SQLite ever handed out, or ``None`` (other backends)."""
    if bind.dialect.name != "sqlite":
        return None
    seq = bind.execute(
        sa.text("SELECT seq FROM sqlite_sequence WHERE name = 'challenges'")
    ).scalar_one_or_none()
    return None if seq is None else int(seq)


def _restore_high_water_mark(bind: sa.Connection, seq: int | None) -> None:
    """After SQLite rebuilt ``challenges``, never hand out an id at or below ``seq`` again."""
    if seq is None:
        return
    bind.execute(sa.text("DELETE FROM sqlite_sequence WHERE name = 'challenges'"))
    bind.execute(
        sa.text(
            "INSERT INTO sqlite_sequence (name, seq) "
            "SELECT 'challenges', MAX(:seq, COALESCE(MAX(id), 0)) FROM challenges"
        ),
        {"seq": seq},
    )


def upgrade() -> None:
    bind = op.get_bind()
    lobby_rows = _lobby_rows(bind)
    high_water_mark = _sqlite_high_water_mark(bind)

    op.add_column("challenges", sa.Column("players", sa.Integer(), nullable=True))
    op.add_column("challenges", sa.Column("version", sa.Integer(), nullable=True))
    op.execute(_challenges.update().values(players=2, version=1))
    with op.batch_alter_table(
        "challenges", table_kwargs={"sqlite_autoincrement": True}
    ) as batch_op:
        batch_op.alter_column("players", existing_type=sa.Integer(), nullable=False)
        batch_op.alter_column("version", existing_type=sa.Integer(), nullable=False)
        batch_op.drop_column("opponent_id")
    _restore_high_water_mark(bind, high_water_mark)

    challenge_players = op.create_table(
        "challenge_players",
        sa.Column("challenge_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("ordinal", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["challenge_id"],
            ["challenges.id"],
            name=op.f("fk_challenge_players_challenge_id_challenges"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("challenge_id", "user_id", name=op.f("pk_challenge_players")),
    )
    op.create_index(
        op.f("ix_challenge_players_user_id"), "challenge_players", ["user_id"], unique=False
    )
    if lobby_rows:
        op.bulk_insert(challenge_players, lobby_rows)


def downgrade() -> None:
    bind = op.get_bind()
    lobby = sa.table(
        "challenge_players",
        sa.column("challenge_id", sa.Integer()),
        sa.column("user_id", sa.BigInteger()),
        sa.column("role", sa.String(16)),
        sa.column("ordinal", sa.Integer()),
    )
    # The first invited user of each challenge becomes its opponent again; an open challenge
    # (nobody invited) gets none. Later invitations of a lobby for more seats are lost.
    invited: dict[int, int] = {}
    for row in bind.execute(
        sa.select(lobby.c.challenge_id, lobby.c.user_id)
        .where(lobby.c.role == "invited")
        .order_by(lobby.c.challenge_id, lobby.c.ordinal)
    ):
        invited.setdefault(row.challenge_id, row.user_id)

    high_water_mark = _sqlite_high_water_mark(bind)
    op.drop_index(op.f("ix_challenge_players_user_id"), table_name="challenge_players")
    op.drop_table("challenge_players")
    with op.batch_alter_table(
        "challenges", table_kwargs={"sqlite_autoincrement": True}
    ) as batch_op:
        batch_op.add_column(sa.Column("opponent_id", sa.BigInteger(), nullable=True))
        batch_op.drop_column("version")
        batch_op.drop_column("players")
    _restore_high_water_mark(bind, high_water_mark)
    for challenge_id, user_id in invited.items():
        op.execute(
            _challenges.update().where(_challenges.c.id == challenge_id).values(opponent_id=user_id)
        )
