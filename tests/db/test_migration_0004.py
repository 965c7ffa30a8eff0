"""Migration 0004 (slow play): a 0003 database with a game and a lobby upgrades and downgrades."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, inspect, text

from db import Database, alembic_config
from tests.db.backends import advance_sequences, raw_timestamp

T0 = datetime(2025, 3, 14, 15, 9, 26, tzinfo=UTC)
NEW_TABLES = {"guild_settings", "user_settings", "watchers"}


def _fill_0003(connection: Connection) -> None:
    """Migrate to 0003 and store a game and an accepted two-seat lobby, in 0003's columns."""
    command.upgrade(alembic_config(connection), "0003")
    stamp = raw_timestamp(connection, T0)
    expires = raw_timestamp(connection, T0 + timedelta(days=1))
    connection.execute(
        text(
            "INSERT INTO games (id, guild_id, channel_id, game, options, rules_version, seed, "
            "status, version, ply, to_move, state, created_at, updated_at) VALUES "
            "(1, 9, 500, 'generatorb', '{}', '1', 7, 'active', 2, 1, '1', '{}', :t, :t)"
        ),
        {"t": stamp},
    )
    connection.execute(text("INSERT INTO seats VALUES (1, 0, 11, NULL), (1, 1, 22, NULL)"))
    connection.execute(
        text(
            "INSERT INTO challenges (id, guild_id, channel_id, challenger_id, game, options, "
            "players, status, version, game_id, created_at, expires_at, resolved_at) VALUES "
            "(1, 9, 500, 11, 'generatorb', '{}', 2, 'accepted', 2, 1, :t, :e, :t)"
        ),
        {"t": stamp, "e": expires},
    )
    connection.execute(
        text(
            "INSERT INTO challenge_players VALUES "
            "(1, 11, 'challenger', 'seated', 0, :t, :t), (1, 22, 'invited', 'seated', 1, :t, :t)"
        ),
        {"t": stamp},
    )
    advance_sequences(connection, ["games", "challenges"])


def _tables(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


def _drift(connection: Connection) -> list[object]:
    from db.schema import metadata

    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, metadata))


async def test_upgrade_from_0003_gives_old_rows_no_clock_and_matches_the_schema(
    db_url: str,
) -> None:
    async with Database(db_url) as db:
        async with db.engine.begin() as conn:
            await conn.run_sync(_fill_0003)
        await db.migrate()
        async with db.engine.connect() as conn:
            assert await conn.run_sync(_tables) >= NEW_TABLES
            assert await conn.run_sync(_drift) == []
        game = await db.games.get(1)
        assert game is not None
        assert (game.clock, game.takeback_seat) == ("none", None)
        challenge = await db.challenges.get(1)
        assert challenge is not None
        assert (challenge.clock, challenge.seating, challenge.rematch_of) == ("none", None, None)
        assert [p.user_id for p in challenge.lobby] == [11, 22]


async def test_downgrade_to_0003_keeps_every_lobby_row(db_url: str) -> None:
    async with Database(db_url) as db:
        async with db.engine.begin() as conn:
            await conn.run_sync(_fill_0003)
        await db.migrate()

        def downgrade(connection: Connection) -> tuple[set[str], set[str], int]:
            command.downgrade(alembic_config(connection), "0003")
            columns = {c["name"] for c in inspect(connection).get_columns("challenges")}
            lobby = connection.execute(text("SELECT count(*) FROM challenge_players")).scalar()
            return _tables(connection), columns, int(lobby or 0)

        async with db.engine.begin() as conn:
            tables, columns, lobby = await conn.run_sync(downgrade)
        assert not NEW_TABLES & tables
        assert not {"clock", "seating", "rematch_of"} & columns
        assert lobby == 2
        await db.migrate()  # and up again, on the same file
        challenge = await db.challenges.get(1)
        assert challenge is not None
        assert len(challenge.lobby) == 2
