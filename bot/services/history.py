"""A server's finished games: ``/game history`` pages (newest first, keyset paging by game id, so a
page costs the same at any depth) and a player's own rating history for ``/game stats``."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bot.services.ratings import Rated, recompute
from bot.storage import history as repo
from bot.storage.db import Database
from bot.storage.history import FinishedGame

PAGE = 8  # games per /game history page (one message, well under Discord's 2000 characters)


@dataclass
class HistoryPage:
    games: list[FinishedGame]
    has_older: bool = False
    has_newer: bool = False


class History:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def page(self, guild_id: str, *, older_than: int | None = None, newer_than: int | None = None,
                   size: int | None = None) -> HistoryPage:
        """The newest finished games, or the page before/after a game id (the ◀ ▶ buttons carry it)."""
        size = size or PAGE
        async with self.db.reading() as conn:
            games = await repo.page(conn, guild_id, older_than=older_than, newer_than=newer_than, limit=size)
            if not games and newer_than is not None:  # nothing newer any more: show the newest
                games = await repo.page(conn, guild_id, limit=size)
            if not games:
                return HistoryPage([])
            older = await repo.exists_beyond(conn, guild_id, games[-1].id, older=True)
            newer = await repo.exists_beyond(conn, guild_id, games[0].id, older=False)
        return HistoryPage(games, has_older=older, has_newer=newer)

    async def rated(self, guild_id: str, game: str) -> Rated:
        """The game's ratings on the server, recomputed from every finished result in game order.
        The recomputation is CPU work growing with the finished games (about 0.2 ms per game for
        two seats, see bench/bench_history.py): it runs in a worker thread, off the event loop."""
        async with self.db.reading() as conn:
            results = await repo.results(conn, guild_id, game)
        return await asyncio.to_thread(recompute, results, game)
