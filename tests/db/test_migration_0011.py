"""Migration 0011: ``games.draw_agreed``, the seats agreeing to an open draw offer; an offer
open when it runs gets its offerer's bit. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

from alembic import command
from sqlalchemy import Connection, text

from db import Database, alembic_config
from tests.db.backends import raw_timestamp

T0 = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


def _games_at_0010(connection: Connection) -> None:
    """Three games before the migration: seat 3's offer open, seat 0's open, none."""
    command.upgrade(alembic_config(connection), "0010")
    stamp = raw_timestamp(connection, T0)
    for game_id, seat in ((1, 3), (2, 0), (3, None)):
        connection.execute(
            text(
                "INSERT INTO games (id, channel_id, game, options, rules_version, seed, status,"
                " version, ply, to_move, state, draw_offer_seat, created_at, updated_at)"
                " VALUES (:id, :channel, 'orbs', '{}', '1', 7, 'active', 2, 1, '0', '{}',"
                " :seat, :t, :t)"
            ),
            {"id": game_id, "channel": 500 + game_id, "seat": seat, "t": stamp},
        )


async def test_upgrade_gives_each_open_offer_its_offerers_seat(db_url: str) -> None:
    async with Database(db_url) as db:
        async with db.engine.begin() as conn:
            await conn.run_sync(_games_at_0010)
        await db.migrate()
        async with db.engine.connect() as conn:
            rows = (await conn.execute(text("SELECT id, draw_agreed FROM games ORDER BY id"))).all()
        assert [tuple(row) for row in rows] == [(1, 0b1000), (2, 0b1), (3, None)]
        first = await db.games.get(1)
        assert first is not None
        assert (first.draw_offer_seat, first.draw_agreed) == (3, (3,))

        def downgrade(connection: Connection) -> list[str]:
            command.downgrade(alembic_config(connection), "0010")
            columns = connection.execute(text("SELECT * FROM games")).keys()
            return list(columns)

        async with db.engine.begin() as conn:
            assert "draw_agreed" not in await conn.run_sync(downgrade)
