"""Fixtures for the PostgreSQL fixture's own tests."""

from __future__ import annotations

from tests.pg.fixtures import db_backend_url, pg_migrated_url, pg_server, pg_url

__all__ = ["db_backend_url", "pg_migrated_url", "pg_server", "pg_url"]
