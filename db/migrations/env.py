"""Alembic environment for Gameroom's database.

Three ways in:

* ``Database.migrate()`` passes its own connection (already inside a write transaction) in
  ``config.attributes["connection"]``; the migrations run on it and commit with it.
* ``alembic upgrade head`` / ``alembic revision --autogenerate`` from the repository root
  (with ``alembic.ini``) open a connection to ``sqlalchemy.url`` from the ini file, else
  ``$GAMEROOM_DB_URL``, else the default SQLite file, through the same engine set-up as
  the bot (WAL, busy timeout, ``BEGIN IMMEDIATE``).
* ``alembic upgrade head --sql`` prints the SQL without connecting.

Autogenerate compares against :data:`db.schema.metadata`, renders batch operations (SQLite
needs them to alter tables; on PostgreSQL they are plain ``ALTER``\\s) and writes
:class:`db.schema.UTCDateTime` as ``sa.DateTime(timezone=True)`` so that migrations never
import the application.
"""

from __future__ import annotations

import asyncio
import os
from logging.config import fileConfig
from typing import Any, Literal

from alembic import context
from alembic.autogenerate.api import AutogenContext
from sqlalchemy import Connection

from db.engine import DEFAULT_URL, create_engine
from db.schema import UTCDateTime, metadata

config = context.config


def _render_item(type_: str, obj: Any, autogen_context: AutogenContext) -> str | Literal[False]:
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


_OPTIONS: dict[str, Any] = {
    "target_metadata": metadata,
    "render_as_batch": True,
    "render_item": _render_item,
    "compare_type": True,
    # True on SQLite too: db.engine emits its own BEGIN, which makes DDL transactional.
    "transactional_ddl": True,
}


def _url() -> str:
    return (
        config.get_main_option("sqlalchemy.url") or os.environ.get("GAMEROOM_DB_URL") or DEFAULT_URL
    )


def _run_on(connection: Connection) -> None:
    context.configure(connection=connection, **_OPTIONS)
    with context.begin_transaction():
        context.run_migrations()


async def _run_on_own_engine() -> None:
    engine = create_engine(_url())
    try:
        async with engine.begin() as connection:
            await connection.run_sync(_run_on)
    finally:
        await engine.dispose()


def _main() -> None:
    shared_connection = config.attributes.get("connection")
    if shared_connection is not None:
        _run_on(shared_connection)
        return
    if config.config_file_name is not None:
        fileConfig(config.config_file_name, disable_existing_loggers=False)
    if context.is_offline_mode():
        context.configure(url=_url(), literal_binds=True, **_OPTIONS)
        with context.begin_transaction():
            context.run_migrations()
    else:
        asyncio.run(_run_on_own_engine())


_main()
