"""Slash-command menus built from the engine registry, never from lists kept in a cog."""

from __future__ import annotations

from discord import app_commands

from engines import ENGINES

__all__ = ["GAME_CHOICES"]

#: The ``game`` menu of ``/challenge`` and ``/game rules``: display name → engine id.
GAME_CHOICES = [app_commands.Choice(name=e.info.name, value=gid) for gid, e in ENGINES.items()]
