"""What /game history and /game stats game: cost as finished games pile up: with N finished
4-player Tölp games in one server among 1,000 players (and as many active ones, bench_storage's
filler), time one /game history page (the newest, and one deep in the past); the ratings' catch-up
that rates every finished game once (what the first /game stats game: does after the upgrade that
keeps ratings in the database), measured up to 5,000 games (above that the ratings are stored by
SQL instead, so the fill stays fast, unless ``--rate-all`` is given); then, as in a freshly
started process (a new connection, a new service), the first /game stats game: (standings plus
ratings), the ratings part alone, a second call, and one after another game finished (rated on
top of the stored ratings).

Run (from the repository root): .venv/bin/python -m bench.bench_history [N ...] [--rate-all] [--postgres]
(--postgres: the same on a throwaway PostgreSQL server, durable, its filler storing finished games only)
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
from bot.services.ratings_kept import Board, Ratings
from bot.services.table import GameService
from bot.storage import ratings as repo
from bot.storage.db import Database
from tests.pgserver import PostgresServer

RATED_FOR_REAL = 5_000  # above this the filler stores the ratings by SQL (--rate-all: rate them all for real)


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


async def measure(games: int, runs: int = 3, rate_all: bool = False, server: PostgresServer | None = None) -> None:
    """On SQLite, or on a new database of the PostgreSQL ``server`` (whose filler counts no
    standings: there only the ratings part of /game stats game: is timed)."""
    with tempfile.TemporaryDirectory() as folder:
        url = server.create_database() if server else str(Path(folder) / "bench.sqlite3")
        start = time.perf_counter()
        await (fill_postgres(url, games) if server else fill(Path(url), games))
        filled = time.perf_counter() - start
        async with Database(url) as db:
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
        async with Database(url) as db:  # as in a process just started: nothing read yet
            players, ratings = Players(db), Ratings(db)

            async def stats(player: str) -> Board:
                if server is None:
                    await players.stats("g")
                return await ratings.board("g", "tolp", player)

            start = time.perf_counter()
            board = await stats("u1")
            cold = _ms(start)
            start = time.perf_counter()
            await ratings.board("g", "tolp", "u2")
            alone = _ms(start)
            again = []
            for _ in range(runs):
                start = time.perf_counter()
                await stats("u1")
                again.append(_ms(start))
            await one_more_finished(db)
            start = time.perf_counter()
            grown = await stats("u1")
            one_more = _ms(start)
            assert grown.rating is not None and grown.rating.games == (board.rating.games if board.rating else 0) + 1
    pages = (f"history page {statistics.median(first):4.1f} ms newest, {statistics.median(deep):4.1f} ms halfway; "
             if games else "")
    what = "/game stats game:" if server is None else "ratings of /game stats game:"
    print(f"{'PostgreSQL' if server else 'SQLite'} {games:7d} finished games (filled in {filled:5.1f} s): {pages}"
          f"catch-up {catch_up}; fresh process: {what} {cold:5.1f} ms (ratings alone {alone:4.1f} ms), "
          f"again {statistics.median(again):5.1f} ms, after one more game {one_more:5.1f} ms")


async def fill_postgres(url: str, games: int) -> None:
    """``games`` finished 4-player Tölp games in one server, their seats taken by 1,000 users,
    numbered in the order they finished: one INSERT … SELECT over generate_series each (no
    standings, no moves; the active games of bench_storage's filler are left out)."""
    async with Database(url) as db:
        service = GameService(db)
        await service.create(guild_id="g", channel_id="seed", game="tolp", user_id="u0", name="A")
        for i in range(1, 4):
            await service.join("seed", f"u{i}", f"P{i}")
        await service.start("seed", "u0")
        if not games:
            return
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO games (guild_id, channel_id, game, status, creator_id, options, seed, state, version, "
                "ply, locale, outcome, created_at, updated_at, finished_at) SELECT guild_id, 'f' || i, game, "
                "'finished', creator_id, options, seed, state, version, ply, locale, '{\"places\": [[' || (i % 4) "
                "|| '], [' || ((i + 1) % 4) || '], [' || ((i + 2) % 4) || ', ' || ((i + 3) % 4) || ']], "
                "\"reason\": \"tolp.end\", \"scores\": {}}', created_at, updated_at, updated_at "
                "FROM generate_series(0, ? - 1) AS i, games WHERE games.channel_id = 'seed'", (games,))
            await conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, name, is_computer, joined_at, bank_seconds) "
                "SELECT g.id, s.seat, 'u' || ((g.id * 4 + s.seat) % 1000), 'Player ' || ((g.id * 4 + s.seat) % 1000), "
                "0, s.joined_at, s.bank_seconds FROM games g, seats s WHERE s.game_id = 1 AND g.id > 1")
            await conn.execute(
                "UPDATE games SET finish_number = n.number FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY id) AS number "
                "FROM games WHERE status = 'finished') AS n WHERE games.id = n.id")
            await conn.execute("INSERT INTO rating_marks (guild_id, game, finished, rated) VALUES ('g', 'tolp', ?, 0)",
                               (games,))
            await conn.execute("ANALYZE")


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
            "1820 + 40 * (COUNT(*) % 13), COUNT(*), SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END) FROM rating_changes "
            "GROUP BY guild_id, game, player")  # shown = 1000 + 40 × (mu − 3 × 1.5)
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
    sizes = [int(a) for a in args if a.isdigit()] or [0, 1_000, 5_000, 100_000]
    if "--postgres" not in args:
        for games in sizes:
            await measure(games, rate_all=rate_all)
        return
    with PostgresServer(durable=True) as server:
        for games in sizes:
            await measure(games, rate_all=rate_all, server=server)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
