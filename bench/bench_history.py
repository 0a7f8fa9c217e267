"""What /game history and /game stats game: cost as finished games pile up: with N finished
4-player Tölp games in one server among 1,000 players (and as many active ones, bench_storage's
filler), time one /game history page (the newest, and one deep in the past); the ratings' catch-up
that rates every finished game once (what the first /game stats game: does after the upgrade that
keeps ratings in the database), measured up to 5,000 games (above that the ratings are stored by
SQL instead, so the fill stays fast, unless ``--rate-all`` is given); then, as in a freshly
started process (a new connection, a new service), the first /game stats game: (standings plus
ratings), the ratings part alone, a second call, and one after another game finished (rated on
top of the stored ratings).

Run (from the repository root): .venv/bin/python -m bench.bench_history [N ...] [--rate-all]
"""
from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_storage import fill
from bot.services.history import History
from bot.services.players import Players
from bot.services.ratings_kept import Ratings
from bot.storage import ratings as repo
from bot.storage.db import Database

RATED_FOR_REAL = 5_000  # above this the filler stores the ratings by SQL (--rate-all: rate them all for real)


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


async def measure(games: int, runs: int = 3, rate_all: bool = False) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        start = time.perf_counter()
        await fill(path, games)
        filled = time.perf_counter() - start
        async with Database(path) as db:
            history = History(db)
            first, deep = [], []
            for _ in range(runs if games else 0):
                start_page = time.perf_counter()
                page = await history.page("g")
                first.append(_ms(start_page))
                start_page = time.perf_counter()
                await history.page("g", older_than=page.games[-1].id - games // 2)
                deep.append(_ms(start_page))
            if games <= RATED_FOR_REAL or rate_all:
                start_rating = time.perf_counter()
                assert await Ratings(db).catch_up("g", "tolp") == games
                took = _ms(start_rating)
                catch_up = f"{took / 1000:5.1f} s ({took / games if games else 0:.2f} ms/game)"
            else:
                await stored_by_sql(db)
                catch_up = "  (stored by SQL)   "
        async with Database(path) as db:  # as in a process just started: nothing read yet
            players, ratings = Players(db), Ratings(db)
            start = time.perf_counter()
            await players.stats("g")
            board = await ratings.board("g", "tolp", "u1")
            cold = _ms(start)
            start = time.perf_counter()
            await ratings.board("g", "tolp", "u2")
            alone = _ms(start)
            again = []
            for _ in range(runs):
                start = time.perf_counter()
                await players.stats("g")
                await ratings.board("g", "tolp", "u1")
                again.append(_ms(start))
            await one_more_finished(db)
            start = time.perf_counter()
            grown = await ratings.board("g", "tolp", "u1")
            one_more = _ms(start)
            assert grown.rating is not None and grown.rating.games == (board.rating.games if board.rating else 0) + 1
    pages = (f"history page {statistics.median(first):4.1f} ms newest, {statistics.median(deep):4.1f} ms halfway; "
             if games else "")
    print(f"{games:7d} finished games (filled in {filled:5.1f} s): {pages}catch-up {catch_up}; fresh process: "
          f"/game stats game: {cold:5.1f} ms (ratings alone {alone:4.1f} ms), "
          f"again {statistics.median(again):5.1f} ms, "
          f"after one more game {one_more:5.1f} ms")


async def stored_by_sql(db: Database) -> None:
    """Ratings and changes of the shape catch-up stores (one change per seat, one rating per
    player), with made-up numbers: what the reads cost does not depend on them."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO rating_changes (game_id, seat, guild_id, game, player, finish_number, place, players, "
            "shown_before, shown_after, finished_at) SELECT g.id, s.seat, g.guild_id, g.game, s.user_id, "
            "g.finish_number, s.seat + 1, 4, 1000 + g.id % 97, 1000 + (g.id + s.seat) % 97, "
            "COALESCE(g.finished_at, g.updated_at) FROM games g JOIN seats s ON s.game_id = g.id "
            "WHERE g.finish_number IS NOT NULL")
        await conn.execute(
            "INSERT INTO ratings (guild_id, game, player, name, mu, sigma, shown, games, wins) "
            "SELECT guild_id, game, player, 'Player ' || player, 25 + COUNT(*) % 13, 1.5, "
            "ROUND((25 + COUNT(*) % 13 - 4.5) * 40 + 1000, 1), COUNT(*), SUM(place = 1) FROM rating_changes "
            "GROUP BY guild_id, game, player")
        await conn.execute("UPDATE rating_marks SET rated = finished")


async def one_more_finished(db: Database) -> None:
    """A copy of the seed table, with its seats, as if it had just finished."""
    async with db.transaction() as conn:
        async with conn.execute(
                "INSERT INTO games (guild_id, channel_id, game, status, creator_id, options, seed, state, version, "
                "ply, locale, outcome, created_at, updated_at, finished_at) SELECT guild_id, 'more', game, 'finished', "
                "creator_id, options, seed, state, version, ply, locale, "
                "'{\"places\": [[1], [0], [2, 3]], \"reason\": \"tolp.end\", \"scores\": {}}', created_at, "
                "updated_at, updated_at FROM games WHERE channel_id = 'seed' RETURNING id, guild_id, game") as cur:
            game_id, guild_id, game = await cur.fetchone()
        await conn.execute("INSERT INTO seats (game_id, seat, user_id, name, is_computer, joined_at) SELECT "
                           "?, seat, user_id, name, is_computer, joined_at FROM seats s "
                           "JOIN games g ON g.id = s.game_id WHERE g.channel_id = 'seed'", (game_id,))
        await repo.number_finish(conn, game_id, guild_id, game)


async def main(args: list[str]) -> None:
    rate_all = "--rate-all" in args
    for games in [int(a) for a in args if a.isdigit()] or [0, 1_000, 5_000, 100_000]:
        await measure(games, rate_all=rate_all)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
