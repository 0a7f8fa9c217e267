"""A server's ratings per game as ``/game stats game:`` shows them, kept in the database.

Reading them first catches up: the games finished since the last rating (their finish numbers
after the mark) are rated in the order they finished, on top of the stored ratings of their
players, and stored with the mark in one transaction. So a call reads a few rows whether the
server has finished 10 games or 100,000, in a fresh process too; only games finished since the
last call cost CPU (about 0.1–0.2 ms each, in a worker thread). Games finished before ratings were
kept are rated by the first call, a batch per transaction.

Several processes (shards on PostgreSQL) may catch up at once: the mark moves only from the value a
batch was rated from (``advance``), so a batch rated by another process meanwhile is dropped and
read again, never stored twice. Within one process, one catch-up per server and game runs at a time.
"""
from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from bot.services.ratings import Rated, player_key, recompute
from bot.storage import ratings as repo
from bot.storage.db import Database
from bot.storage.ratings import Change, Rating


@dataclass
class Board:
    """What ``/game stats game:`` shows of the ratings."""

    ladder: list[Rating] = field(default_factory=list)   # best first
    rating: Rating | None = None                          # the asked player's, if rated
    changes: list[Change] = field(default_factory=list)  # the player's latest games, oldest first


class Ratings:
    BATCH = 500  # games rated per transaction (a long catch-up holds the writer only briefly)

    def __init__(self, db: Database) -> None:
        self.db = db
        self._busy: dict[tuple[str, str], asyncio.Lock] = {}

    async def board(self, guild_id: str, game: str, player: str, *, top: int = 10, latest: int = 8) -> Board:
        """The ``top`` best ratings in ``game`` on the server, and ``player``'s rating and latest
        games, after rating every game finished so far."""
        guild_id = str(guild_id)
        await self.catch_up(guild_id, game)
        async with self.db.reading() as conn:
            best = await repo.ladder(conn, guild_id, game, top)
            own = (await repo.of_players(conn, guild_id, game, [player])).get(player)
            changes = await repo.history(conn, guild_id, game, player, latest) if own else []
        return Board(best, own, changes)

    async def catch_up(self, guild_id: str, game: str) -> int:
        """Rate the server's games of ``game`` finished since the last rating; how many were rated
        here (0 when none were waiting, or another process rated them)."""
        key = (str(guild_id), game)
        # one lock per server and game, kept (a few per server): dropping it once released would let a
        # third caller rate beside one still queued on it
        async with self._busy.setdefault(key, asyncio.Lock()):
            return await self._catch_up(key[0], game)

    async def _catch_up(self, guild_id: str, game: str) -> int:
        done = 0
        while True:
            async with self.db.reading() as conn:
                mark = await repo.mark(conn, guild_id, game)
                if mark.rated >= mark.finished:
                    return done
                batch = await repo.unrated(conn, guild_id, game, mark.rated, self.BATCH)
                players = {player_key(s.user_id, s.name) for g in batch for s in g.seats}
                start = Rated(await repo.of_players(conn, guild_id, game, players))
            rated = await asyncio.to_thread(recompute, batch, game, start) if batch else start
            # no game left after the mark (deleted ones): the mark just moves on
            to = batch[-1].number if batch else mark.finished
            async with self.db.transaction() as conn:
                if not await repo.advance(conn, guild_id, game, mark.rated, to):
                    continue  # another process rated these meanwhile: read again from its mark
                await repo.save(conn, guild_id, game, rated.ratings, rated.changes)
            done += len(batch)
