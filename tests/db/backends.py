"""What differs between SQLite and PostgreSQL in tests that write or inspect raw SQL."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, text


def index_where(index: Mapping[str, Any]) -> str:
    """The ``WHERE`` of a partial index from ``inspect().get_indexes()``, on either backend, in
    SQLite's spelling: PostgreSQL's ``(((status)::text = 'pending'::text) AND (seat IS NULL))``
    becomes ``status = 'pending' AND seat IS NULL``."""
    options = index["dialect_options"]
    where = options.get("sqlite_where", options.get("postgresql_where"))
    if where is None:
        return "None"
    return re.sub(r"::\w+|[()]", "", str(where))


def raw_timestamp(connection: Connection, value: datetime) -> object:
    """``value`` as a raw ``text()`` statement binds a UTC timestamp column: naive ISO text on
    SQLite (what :class:`db.schema.UTCDateTime` stores), the aware datetime on PostgreSQL."""
    if connection.dialect.name == "sqlite":
        return value.replace(tzinfo=None).isoformat(sep=" ")
    return value


def advance_sequences(connection: Connection, tables: Iterable[str]) -> None:
    """After rows were inserted with explicit ids, move PostgreSQL's id sequences past them
    (SQLite's AUTOINCREMENT does so by itself), as if the application had made the rows."""
    if connection.dialect.name != "postgresql":
        return
    for table in tables:
        connection.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT COALESCE(MAX(id), 0) + 1 FROM {table}), false)"
            )
        )
