"""A server's past games: ``/game history`` pages of its finished games and those ended early with
``/game end`` (newest first, keyset paging by game id, so a page costs the same at any depth).
Ratings (finished games only) are kept apart (bot/services/ratings_kept.py)."""
from __future__ import annotations

from dataclasses import dataclass

from bot.storage import history as repo
from bot.storage.db import Database
from bot.storage.history import PastGame

PAGE = 8  # games per /game history page (one message, well under Discord's 2000 characters)


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
                   newer_than: int | None = None, size: int | None = None) -> HistoryPage:
        """The newest finished and ended games (of ``game`` when given), or the page before/after a
        game id (the ◀ ▶ buttons carry it)."""
        size = size or PAGE
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
