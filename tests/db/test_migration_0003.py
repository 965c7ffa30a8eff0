"""Migration 0003 (clocks and timers): a 0002 database with data upgrades and downgrades."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, insert, inspect, text

from db import Database, NewMove, alembic_config
from db.rows import NewClock, NewTimer
from db.schema import challenge_players, challenges, games, metadata, moves, seats
from tests.db.backends import advance_sequences, index_where
from tests.db.test_db_migrations import _head

T0 = datetime(2025, 3, 14, 15, 9, 26, tzinfo=UTC)
NEW_TABLES = {"timers", "clocks", "vacations"}


def _fill_0002(connection: Connection) -> None:
    """Migrate to 0002 and store what a 0002 bot would have: a game, its moves, a lobby."""
    command.upgrade(alembic_config(connection), "0002")
    connection.execute(
        insert(games).values(
            id=1,
            guild_id=9,
            channel_id=500,
            game="generatorb",
            options="{}",
            rules_version="1",
            seed=7,
            status="active",
            version=2,
            ply=1,
            to_move="1",
            state='{"ply": 1}',
            created_at=T0,
            updated_at=T0,
        )
    )
    connection.execute(
        insert(seats), [{"game_id": 1, "seat": s, "user_id": 11 * (s + 1)} for s in (0, 1)]
    )
    connection.execute(
        insert(moves).values(game_id=1, ply=1, seat=0, text="a1", events="[]", created_at=T0)
    )
    connection.execute(
        insert(challenges).values(
            id=1,
            guild_id=9,
            channel_id=500,
            challenger_id=11,
            game="generatorb",
            options="{}",
            players=2,
            status="accepted",
            version=2,
            game_id=1,
            created_at=T0,
            expires_at=T0 + timedelta(days=1),
            resolved_at=T0,
        )
    )
    connection.execute(
        insert(challenge_players).values(
            challenge_id=1,
            user_id=11,
            role="challenger",
            status="seated",
            ordinal=0,
            created_at=T0,
            updated_at=T0,
        )
    )
    advance_sequences(connection, ["games", "challenges"])


def _tables(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


def _version(connection: Connection) -> str:
    return str(connection.execute(text("SELECT version_num FROM alembic_version")).scalar_one())


async def test_upgrade_from_0002_keeps_the_data_and_adds_working_tables(db_url: str) -> None:
    async with Database(db_url) as db:
        async with db.engine.begin() as conn:
            await conn.run_sync(_fill_0002)
            assert not NEW_TABLES & await conn.run_sync(_tables)
        await db.migrate()

        async with db.engine.connect() as conn:
            assert await conn.run_sync(_tables) >= NEW_TABLES
            assert await conn.run_sync(_version) == _head()
            indexes = await conn.run_sync(lambda c: inspect(c).get_indexes("timers"))
            drift = await conn.run_sync(
                lambda c: list(
                    compare_metadata(
                        MigrationContext.configure(c, opts={"compare_type": True}), metadata
                    )
                )
            )
        assert drift == []
        where = {i["name"]: index_where(i) for i in indexes}
        assert where["uq_timers_game_id_seat_kind_pending"] == "status = 'pending'"
        assert where["uq_timers_game_id_kind_pending_game_wide"] == (
            "status = 'pending' AND seat IS NULL"
        )

        game = await db.games.get(1)
        assert game is not None
        assert (game.version, game.ply, game.to_move) == (2, 1, (1,))
        assert [m.text for m in await db.games.moves(1)] == ["a1"]
        challenge = await db.challenges.get(1)
        assert challenge is not None
        assert challenge.game_id == 1

        # The old game takes a clock, a timer and its next move on the new schema.
        await db.clocks.create(1, [NewClock(1, "soft:2d+1d/4d", 1000, T0)], now=T0)
        timer = await db.timers.schedule(NewTimer("clock", T0, 1, 1), now=T0)
        [claimed] = await db.timers.claim_due(T0, "w")
        assert claimed.id == timer.id
        await db.games.commit_moves(
            1,
            2,
            moves=[NewMove(2, 1, "b2", "[]")],
            state_json="{}",
            ply=2,
            to_move=(0,),
            status="active",
            outcome_json=None,
            termination=None,
            now=T0,
        )


async def test_downgrade_to_0002_drops_the_new_tables_and_keeps_the_rest(db_url: str) -> None:
    async with Database(db_url) as db:
        async with db.engine.begin() as conn:
            await conn.run_sync(_fill_0002)
        await db.migrate()
        await db.clocks.create(1, [NewClock(0, "hard:1h+0s/1h", 1, None)], now=T0)
        await db.timers.schedule(NewTimer("clock", T0, 1, 0), now=T0)
        await db.vacations.write(
            11, None, year=2025, used_ms=1, started_at=None, until=None, now=T0
        )

        def downgrade(connection: Connection) -> tuple[set[str], str]:
            command.downgrade(alembic_config(connection), "0002")
            return _tables(connection), _version(connection)

        async with db.engine.begin() as conn:
            tables, version = await conn.run_sync(downgrade)
        assert not NEW_TABLES & tables
        assert {"games", "seats", "moves", "challenges", "challenge_players"} <= tables
        assert version == "0002"
        async with db.engine.connect() as conn:  # 0002's columns: not the repository's
            game_version = (
                await conn.execute(text("SELECT version FROM games WHERE id = 1"))
            ).scalar()
        assert game_version == 2
        assert len(await db.games.moves(1)) == 1

        await db.migrate()  # and up again, on the same file
        assert await db.timers.pending() == []
        assert await db.clocks.for_game(1) == []
