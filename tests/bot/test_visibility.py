"""Games named by id are shown only to members who can read their channel (``game_id:``
options of /game export, /game replay, /watch; /games scope:server)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from bot.service import NoGameHereError
from bot.ui.replies import may_view, require_visible_game

from .test_bot_presenters import snapshot
from .test_bot_replies import fake_interaction

STAFF, LOUNGE, THREAD = 300, 400, 401


def interaction_in(channel_id: int, readable: set[int]) -> Any:
    """An interaction in ``channel_id`` of guild 1 by a member who can read ``readable``."""
    interaction = fake_interaction(done=False)
    interaction.channel_id = channel_id
    interaction.user = MagicMock(spec=discord.Member)

    def channel(cid: int) -> Any:
        if cid not in (STAFF, LOUNGE):
            return None
        found = MagicMock()
        found.permissions_for.return_value = discord.Permissions(view_channel=cid in readable)
        return found

    interaction.guild.get_channel_or_thread.side_effect = channel
    return interaction


def service_with(game: Any) -> Any:
    service = MagicMock()
    service.game_snapshot = AsyncMock(return_value=game)
    return service


def test_may_view_follows_the_members_permissions() -> None:
    interaction = interaction_in(LOUNGE, readable={LOUNGE})
    assert may_view(interaction, LOUNGE)
    assert not may_view(interaction, STAFF)
    assert not may_view(interaction, 999)  # unknown channel: nothing to see


async def test_a_game_in_a_channel_the_caller_cannot_read_is_unknown_to_them() -> None:
    hidden = replace(snapshot(), guild_id=1, channel_id=STAFF)
    interaction = interaction_in(LOUNGE, readable={LOUNGE})
    with pytest.raises(NoGameHereError, match="There is no game 5 here"):
        await require_visible_game(interaction, service_with(hidden), 5)
    # Readable: fine; and the caller's own channel or a thread off it always is.
    await require_visible_game(interaction_in(LOUNGE, {LOUNGE, STAFF}), service_with(hidden), 5)
    await require_visible_game(interaction_in(STAFF, set()), service_with(hidden), 5)
    in_thread = replace(hidden, channel_id=THREAD, parent_channel_id=LOUNGE)
    await require_visible_game(interaction_in(LOUNGE, set()), service_with(in_thread), 5)


async def test_a_game_of_another_guild_is_unknown_and_no_game_id_checks_nothing() -> None:
    elsewhere = replace(snapshot(), guild_id=2, channel_id=LOUNGE)
    interaction = interaction_in(STAFF, readable={LOUNGE, STAFF})
    with pytest.raises(NoGameHereError):
        await require_visible_game(interaction, service_with(elsewhere), 5)
    service = service_with(elsewhere)
    await require_visible_game(interaction, service, None)
    service.game_snapshot.assert_not_awaited()


async def test_an_unknown_game_reads_as_a_hidden_one() -> None:
    """One sentence for a game that does not exist and one the caller may not see, so the
    answer does not tell which ids exist elsewhere."""
    interaction = interaction_in(LOUNGE, readable={LOUNGE})
    service = MagicMock()
    service.game_snapshot = AsyncMock(side_effect=NoGameHereError("That game does not exist."))
    with pytest.raises(NoGameHereError) as unknown:
        await require_visible_game(interaction, service, 5)
    hidden = replace(snapshot(), guild_id=2, channel_id=STAFF)
    with pytest.raises(NoGameHereError) as elsewhere:
        await require_visible_game(interaction, service_with(hidden), 5)
    assert str(unknown.value) == str(elsewhere.value) == "There is no game 5 here."


async def test_a_player_may_name_their_own_game_even_where_they_cannot_see_its_channel() -> None:
    """A game whose channel is gone (deleted: nobody can view it) or hidden: its own players
    may still export or replay it; others may not."""
    hidden = replace(snapshot(), guild_id=1, channel_id=STAFF)
    interaction = interaction_in(LOUNGE, readable={LOUNGE})
    interaction.user.id = hidden.user_ids[0]
    await require_visible_game(interaction, service_with(hidden), 5)
    elsewhere = replace(hidden, guild_id=2)  # their game, but another server's: unknown here
    with pytest.raises(NoGameHereError):
        await require_visible_game(interaction, service_with(elsewhere), 5)
