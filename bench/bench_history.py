"""What /game history and a game's ratings cost as finished games pile up: with N finished
4-player Tölp games in one server (and as many active ones, bench_storage's filler), time one
/game history page (the newest, and one deep in the past), and the ratings recomputation behind
/game stats game: split into reading the results (SQL) and openskill's CPU work (in a worker
thread in the bot, off the event loop), and what the bot's kept ratings make of it: the first
/game stats game:, one with nothing finished since, and one after a newer game finished.

Run (from the repository root): .venv/bin/python -m bench.bench_history
"""
from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bench.bench_storage import fill
from bot.services.history import History
from bot.services.ratings import recompute
from bot.storage import history as repo
from bot.storage.db import Database


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


async def measure(games: int, runs: int = 3) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        await fill(path, games)
        async with Database(path) as db:
            history = History(db)
            first, deep, read, cpu = [], [], [], []
            for _ in range(runs):
                start = time.perf_counter()
                page = await history.page("g")
                first.append(_ms(start))
                start = time.perf_counter()
                await history.page("g", older_than=page.games[-1].id - games // 2)
                deep.append(_ms(start))
                start = time.perf_counter()
                async with db.reading() as conn:
                    results = await repo.results(conn, "g", "tolp")
                read.append(_ms(start))
                start = time.perf_counter()
                rated = recompute(results, "tolp")
                cpu.append(_ms(start))
            assert len(results) == games and len(rated.changes) == 4 * games
            start = time.perf_counter()
            await history.rated("g", "tolp")  # the first /game stats game:tolp (recomputes in a thread)
            cold = _ms(start)
            start = time.perf_counter()
            await history.rated("g", "tolp")  # nothing finished since: the kept ratings
            kept = _ms(start)
            await one_more_finished(db)
            start = time.perf_counter()
            again = await history.rated("g", "tolp")  # one newer game finished: rated on top
            grown = _ms(start)
            assert len(again.changes) == 4 * (games + 1)
    per_game = statistics.median(cpu) / games if games else 0.0
    print(f"{games:6d} finished games: /game history page {statistics.median(first):5.1f} ms (newest), "
          f"{statistics.median(deep):5.1f} ms (halfway back); ratings: read {statistics.median(read):7.1f} ms, "
          f"recompute {statistics.median(cpu):7.1f} ms CPU ({per_game:.2f} ms per game); History.rated: first "
          f"{cold:6.1f} ms, unchanged {kept:4.1f} ms, after one more game {grown:5.1f} ms")


async def one_more_finished(db: Database) -> None:
    """A copy of the newest finished game, with seats, as if it had just finished."""
    async with db.transaction() as conn:
        async with conn.execute("SELECT MAX(id) FROM games WHERE status = 'finished'") as cur:
            (newest,) = await cur.fetchone()
        await conn.execute("INSERT INTO games (guild_id, channel_id, game, status, creator_id, options, seed, state, "
                           "version, ply, locale, outcome, created_at, updated_at) SELECT guild_id, 'more', game, "
                           "status, creator_id, options, seed, state, version, ply, locale, outcome, created_at, "
                           "updated_at FROM games WHERE id = ?", (newest,))
        await conn.execute("INSERT INTO seats (game_id, seat, user_id, name, is_computer, joined_at) SELECT "
                           "(SELECT MAX(id) FROM games), seat, user_id, name, is_computer, joined_at FROM seats "
                           "WHERE game_id = ?", (newest,))


async def main() -> None:
    for games in (1_000, 5_000):
        await measure(games)


if __name__ == "__main__":
    asyncio.run(main())
