"""What a /game history page costs when the server's past games mix finished ones and games ended
early with /game end: bench_storage's filler (N active and N finished 4-player Tölp games in one
server), then every third finished game turned into one ended early after 150 more moves with one
taken back (an ``!undo 1`` marker), and N / 10 lobbies ended before they started (no history). Time
the newest page, one halfway back, the page back towards the newest (◀) and a ``game:`` page, each
with its ◀ ▶ checks, on SQLite and on PostgreSQL (a throwaway durable server holding a ``db copy``
of the same games), and show which index SQLite reads for them.

Run (from the repository root): .venv/bin/python -m bench.bench_history_pages
"""
from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bench.bench_storage import fill
from bot.services.history import History
from bot.storage.copy import copy
from bot.storage.db import Database
from tests.pgserver import PostgresServer

MOVES = 150  # more moves of each ended game, one of them taken back


async def end_some(db: Database, games: int) -> int:
    """Every third finished game ended early instead, with a longer log; lobbies ended before they
    started beside them. The number of games history lists."""
    counter = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
    async with db.transaction() as conn:
        await conn.execute("UPDATE games SET status = 'aborted', outcome = NULL, ended_by = creator_id, "
                           "ended_by_name = 'Player 0', ply = ply + ? WHERE status = 'finished' AND id % 3 = 0",
                           (MOVES + 1,))
        await conn.execute(counter + "INSERT INTO moves (game_id, ply, seat, action, created_at) "
                           "SELECT g.id, 3 + n.i, n.i % 4, CASE WHEN n.i = ? THEN '!undo 1' ELSE 'pass' END, "
                           "g.updated_at FROM games g, n WHERE g.status = 'aborted'", (MOVES + 1, MOVES + 1))
        await conn.execute(counter + "INSERT INTO games (guild_id, channel_id, game, status, creator_id, options, "
                           "seed, version, ply, locale, created_at, updated_at) SELECT 'g', 'lobby' || n.i, 'tolp', "
                           "'aborted', 'u0', '{}', 'seed', 1, 0, 'en', created_at, updated_at FROM n, games "
                           "WHERE games.id = 1", (max(games // 10, 1),))
        async with conn.execute("SELECT COUNT(*) FROM games WHERE guild_id = 'g' AND status IN ('finished', "
                                "'aborted') AND state IS NOT NULL") as cur:
            row = await cur.fetchone()
    return int(row[0]) if row else 0


async def median_ms(call: Callable[[], Awaitable[Any]], runs: int) -> tuple[float, Any]:
    result = await call()  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = await call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), result


async def plans(db: Database) -> list[str]:
    """The indexes SQLite reads for a page and its ◀ ▶ check (the undo markers of its games)."""
    played = "guild_id = 'g' AND status IN ('finished', 'aborted') AND state IS NOT NULL"
    found = []
    for sql in (f"SELECT id FROM games WHERE {played} AND id < 9 ORDER BY id DESC LIMIT 8",
                f"SELECT id FROM games WHERE {played} AND id > 9 ORDER BY id LIMIT 1",
                f"SELECT id FROM games WHERE game = 'tolp' AND {played} AND id < 9 ORDER BY id DESC LIMIT 8",
                "SELECT game_id, action FROM moves WHERE game_id IN (3, 6) AND action LIKE '!undo %'"):
        found += [str(row[3]) for row in await db.fetchall("EXPLAIN QUERY PLAN " + sql)]
    return found


async def pages(db: Database, games: int, runs: int) -> str:
    """The pages' median times on ``db`` (its ids as the filler numbered them)."""
    history = History(db)
    newest_ms, newest = await median_ms(lambda: history.page("g"), runs)
    ended = [g for g in newest.games if g.ended]
    assert ended and all(g.moves == 3 + MOVES - 1 for g in ended), [(g.id, g.moves) for g in ended]
    halfway = newest.games[0].id - games // 2  # the finished games have the newest ids
    deep_ms, deep = await median_ms(lambda: history.page("g", older_than=halfway), runs)
    assert deep.has_older and deep.has_newer and any(g.ended for g in deep.games)
    back_ms, _ = await median_ms(lambda: history.page("g", newer_than=halfway), runs)
    only_ms, _ = await median_ms(lambda: history.page("g", game="tolp", older_than=halfway), runs)
    return (f"page newest {newest_ms:4.1f} ms, halfway back {deep_ms:4.1f} ms, ◀ from there {back_ms:4.1f} ms, "
            f"game: {only_ms:4.1f} ms")


async def measure(server: PostgresServer, games: int, runs: int = 5) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        await fill(path, games)
        async with Database(path) as db, Database(server.create_database()) as postgres:
            listed = await end_some(db, games)
            print(f"{listed:6d} games listed ({games - games // 3} finished, {games // 3} ended early; {games} "
                  f"running, {max(games // 10, 1)} tables ended before they started)")
            print(f"        SQLite:     {await pages(db, games, runs)}")
            print("        " + "; ".join(await plans(db)))
            await copy(db, postgres)
            async with postgres.transaction() as conn:
                await conn.execute("ANALYZE")  # as autovacuum would soon after such a load
            print(f"        PostgreSQL: {await pages(postgres, games, runs)}")


async def main() -> None:
    with PostgresServer(durable=True) as server:
        for games in (1_000, 5_000):
            await measure(server, games)


if __name__ == "__main__":
    asyncio.run(main())
