"""Stand-ins for the offers' post stores and for the client that edits posts by id, so the
cogs' tests see what ``bot.ui.offers.OfferPosts`` retires without a database."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any
from unittest.mock import AsyncMock, MagicMock

from bot import presenters
from bot.ui.offers import OfferPosts


class MemoryOfferPosts:
    """``db.offers.OfferPostsRepo`` in a dict. ``closed``: games whose offer has closed
    already, so :meth:`remember` refuses their post, as the database would."""

    def __init__(self) -> None:
        self.rows: dict[int, tuple[int, int]] = {}
        self.closed: set[int] = set()

    async def remember(
        self, game_id: int, channel_id: int, message_id: int, *, ply: int | None = None
    ) -> bool:
        if game_id in self.closed:
            return False
        self.rows[game_id] = (channel_id, message_id)
        return True

    async def find(self, game_id: int) -> tuple[int, int] | None:
        return self.rows.get(game_id)

    async def take(self, game_id: int) -> tuple[int, int] | None:
        return self.rows.pop(game_id, None)


class PostsClient:
    """The client's ``get_partial_messageable(channel).get_partial_message(id)``, returning
    the posts made with :meth:`post`."""

    def __init__(self) -> None:
        self.posts: dict[tuple[int, int], Any] = {}

    def post(self, channel_id: int = 100, message_id: int = 1) -> Any:
        """A posted message whose ``edit`` is recorded."""
        post = MagicMock()
        post.channel.id, post.id = channel_id, message_id
        post.edit = AsyncMock()
        self.posts[(channel_id, message_id)] = post
        return post

    def get_partial_messageable(self, channel_id: int) -> Any:
        def get_partial_message(message_id: int) -> Any:
            return self.posts[(channel_id, message_id)]

        return SimpleNamespace(get_partial_message=get_partial_message)


def memory_offer_posts(
    client: PostsClient | None = None,
    *,
    closed_text: str = presenters.DRAW_OFFER_CLOSED,
    what: str = "draw offer",
) -> tuple[OfferPosts, MemoryOfferPosts, PostsClient]:
    """An :class:`OfferPosts` over a :class:`MemoryOfferPosts` and a :class:`PostsClient`
    (``client``, or a new one); draw offers' unless ``closed_text`` and ``what`` say
    otherwise."""
    repo, client = MemoryOfferPosts(), client or PostsClient()
    posts = OfferPosts(repo, client, closed_text=closed_text, what=what)  # type: ignore[arg-type]
    return posts, repo, client
