"""Fixtures for end-to-end tests; shared ones live in tests/fakediscord/fixtures.py."""

from __future__ import annotations

from tests.fakediscord.fixtures import fake_discord

__all__ = ["fake_discord"]
