"""A server's past games: ``/game history`` pages of its finished games and those ended early with
``/game end`` (newest first, keyset paging by game id, so a page costs the same at any depth) and a
player's own rating history for ``/game stats`` (finished games only)."""
from __future__ import annotations

import asyncio
from collections import OrderedDict
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
    game: str | None = None  # only this game's


@dataclass
class _Kept:
    count: int
    last: int
    rated: Rated


class History:
    KEPT = 200  # servers × games whose ratings are kept

    def __init__(self, db: Database) -> None:
        self.db = db
        self._rated: OrderedDict[tuple[str, str], _Kept] = OrderedDict()

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

    async def rated(self, guild_id: str, game: str) -> Rated:
        """The game's ratings on the server, recomputed from every finished result in game order.

        The recomputation is CPU work growing with the finished games (about 0.1–0.2 ms per game,
        see bench/bench_history.py): it runs in a worker thread, off the event loop, and its result
        is kept per server and game. Each call checks the stored results first (their count and
        highest id): unchanged, the kept ratings answer; grown by games newer than all counted
        ones, only those are rated on top; otherwise (a game with an older id finished since)
        everything is recomputed, so the numbers are always those of a full rebuild."""
        key = (str(guild_id), game)
        async with self.db.reading() as conn:
            count, last = await repo.results_mark(conn, guild_id, game)
            kept = self._rated.get(key)
            if kept is not None and (kept.count, kept.last) == (count, last):
                self._rated.move_to_end(key)
                return kept.rated
            newer = await repo.results(conn, guild_id, game, after=kept.last) if kept and last > kept.last else None
        if kept is not None and newer and kept.count + len(newer) == count:
            rated = await asyncio.to_thread(recompute, newer, game, kept.rated)
            fresh = _Kept(kept.count + len(newer), newer[-1].id, rated)
        else:
            results = await self._all(guild_id, game)
            rated = await asyncio.to_thread(recompute, results, game)
            fresh = _Kept(len(results), results[-1].id if results else 0, rated)
        # what is kept says exactly which games it counted (a game finishing meanwhile is counted next time)
        self._rated[key] = fresh
        self._rated.move_to_end(key)
        while len(self._rated) > self.KEPT:
            self._rated.popitem(last=False)
        return rated

    async def _all(self, guild_id: str, game: str) -> list[FinishedGame]:
        async with self.db.reading() as conn:
            return await repo.results(conn, guild_id, game)
