"""A server's past games: ``/game history`` pages of its finished games and those ended early with
``/game end`` (newest first, keyset paging by game id, so a page costs the same at any depth).
Ratings (finished games only) are kept apart (bot/services/ratings_kept.py)."""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.storage import history as repo
from bot.storage.db import Database
from bot.storage.history import PastGame

PAGE = 8  # games per /game history page (one message, well under Discord's 2000 characters)
# whether the reader can view a channel (cogs/visibility.py): a game elsewhere is left out
CanView = Callable[[str], Awaitable[bool]]


@dataclass
class HistoryPage:
    games: list[PastGame]
    has_older: bool = False
    has_newer: bool = False
    game: str | None = None  # only this game's


class History:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def page(self, guild_id: str, *, game: str | None = None, older_than: int | None = None,
                   newer_than: int | None = None, size: int | None = None,
                   can_view: CanView | None = None) -> HistoryPage:
        """The newest finished and ended games (of ``game`` when given), or the page before/after a
        game id (the ◀ ▶ buttons carry it). With ``can_view``, only games whose channel the reader
        can view, on the page and behind its ◀ ▶ alike."""
        size = size or PAGE
        if can_view is not None:
            return await self._viewable_page(guild_id, game, older_than, newer_than, size, can_view)
        async with self.db.reading() as conn:
            games = await repo.page(conn, guild_id, game=game, older_than=older_than, newer_than=newer_than,
                                    limit=size)
            if not games and (older_than is not None or newer_than is not None):  # an old page: the newest
                games = await repo.page(conn, guild_id, game=game, limit=size)
            if not games:
                return HistoryPage([], game=game)
            older = await repo.exists_beyond(conn, guild_id, games[-1].id, older=True, game=game)
            newer = await repo.exists_beyond(conn, guild_id, games[0].id, older=False, game=game)
        return HistoryPage(games, has_older=older, has_newer=newer, game=game)

    async def _viewable_page(self, guild_id: str, game: str | None, older_than: int | None,
                             newer_than: int | None, size: int, can_view: CanView) -> HistoryPage:
        newer = newer_than is not None
        games, more = await self._viewable(guild_id, game, newer_than if newer else older_than, newer, size, can_view)
        if not games and (older_than is not None or newer_than is not None):  # an old page: the newest
            newer = False
            games, more = await self._viewable(guild_id, game, None, False, size, can_view)
        if not games:
            return HistoryPage([], game=game)
        if newer:
            older = bool((await self._viewable(guild_id, game, games[-1].id, False, 1, can_view))[0])
            return HistoryPage(games, has_older=older, has_newer=more, game=game)
        beyond = bool((await self._viewable(guild_id, game, games[0].id, True, 1, can_view))[0])
        return HistoryPage(games, has_older=more, has_newer=beyond, game=game)

    async def _viewable(self, guild_id: str, game: str | None, anchor: int | None, newer: bool, want: int,
                        can_view: CanView) -> tuple[list[PastGame], bool]:
        """Up to ``want`` viewable games beyond ``anchor`` (newest first), and whether there are
        more: read in batches, the channel checks made outside the database connection."""
        batch = max(2 * want, 16)
        found: list[PastGame] = []
        while len(found) <= want:
            async with self.db.reading() as conn:
                rows = await repo.page(conn, guild_id, game=game, limit=batch,
                                       **({"newer_than": anchor} if newer else {"older_than": anchor}))
            ordered = list(reversed(rows)) if newer else rows  # walking away from the anchor
            for entry in ordered:
                if await can_view(entry.channel_id):
                    found.append(entry)
            if len(rows) < batch:
                break
            anchor = ordered[-1].id
        kept = found[:want]
        return (list(reversed(kept)) if newer else kept), len(found) > want
