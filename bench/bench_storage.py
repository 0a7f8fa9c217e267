"""Stored games do not cost start-up time, memory, scheduler time or /game stats and /game log
time: open a database holding N games (N = 0 and 100,000: half active, 1 % of those due, half
finished in one server) and time start-up (connect + migrate), one scheduler tick, /game stats,
/game log and one move; report the process's peak memory.

Run (from the repository root): .venv/bin/python -m bench.bench_storage
"""
from __future__ import annotations

import asyncio
import resource
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.services.players import Players
from bot.services.scheduler import Scheduler
from bot.services.table import GameService
from bot.services.turn_clock import stamp
from bot.storage import ratings, standings
from bot.storage.db import Database

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


async def fill(path: Path, games: int) -> None:
    """``games`` active 4-player Tölp games (copies of one real snapshot, 1 % with an alarm due) and
    as many finished ones in the same server, their seats taken by 1,000 different users. Each kind
    is one INSERT … SELECT over a counter, so filling is linear in ``games``."""
    async with Database(path) as db:
        service = GameService(db, clock=lambda: NOW - timedelta(hours=20))
        await service.create(guild_id="g", channel_id="seed", game="tolp", user_id="u0", name="A")
        for i in range(1, 4):
            await service.join("seed", f"u{i}", f"P{i}")
        await service.start("seed", "u0")
        for _ in range(3):  # a short real move log that every finished copy replays for /game log
            record = await service.current("seed")
            assert record is not None
            seat = min(service.to_act(record))
            await service.act(user_id=f"u{seat}", action=service.legal_texts(record, seat)[0], channel_id="seed")
        if not games:
            return
        due, later = stamp(NOW - timedelta(minutes=1)), stamp(NOW + timedelta(hours=5))
        counter = "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
        async with db.transaction() as conn:
            for status in ("active", "finished"):
                await conn.execute(
                    counter + "INSERT INTO games (guild_id, channel_id, game, status, creator_id, options, seed, "
                    "state, version, ply, locale, turn_started_at, turn_deadline, alarm_at, outcome, created_at, "
                    "updated_at) SELECT guild_id, ? || i, game, ?, creator_id, options, seed, state, version, ply, "
                    "locale, turn_started_at, turn_deadline, CASE WHEN ? = 'finished' THEN NULL "
                    "WHEN i % 100 = 0 THEN ? ELSE ? END, CASE WHEN ? = 'finished' THEN "
                    "'{\"places\": [[' || (i % 4) || '], [' || ((i + 1) % 4) || '], [' || ((i + 2) % 4) || "
                    "', ' || ((i + 3) % 4) || ']], \"reason\": \"tolp.end\", \"scores\": {}}' END, "
                    "created_at, updated_at FROM n, games WHERE games.channel_id = 'seed'",
                    (games - 1, "a" if status == "active" else "f", status, status, due, later, status))
            await conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, name, is_computer, joined_at, bank_seconds) "
                "SELECT g.id, s.seat, 'u' || ((g.id * 4 + s.seat) % 1000), 'Player ' || ((g.id * 4 + s.seat) % 1000), "
                "0, s.joined_at, s.bank_seconds FROM games g, seats s WHERE s.game_id = 1 AND g.id > 1")
            await conn.execute("INSERT INTO moves (game_id, ply, seat, action, created_at) SELECT g.id, m.ply, "
                               "m.seat, m.action, m.created_at FROM games g, moves m "
                               "WHERE g.status = 'finished' AND m.game_id = 1")
            await standings.rebuild(conn)
            await ratings.number_unnumbered(conn)  # in the order they finished, as if each had just finished


async def measure(games: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        start = time.perf_counter()
        await fill(path, games)
        filled = time.perf_counter() - start
        start = time.perf_counter()
        db = await Database(path).connect()
        startup = (time.perf_counter() - start) * 1000
        ticks, sent = [], []
        for _ in range(3):
            start = time.perf_counter()
            sent.append(len(await Scheduler(db).due(NOW)))
            ticks.append((time.perf_counter() - start) * 1000)
        service = GameService(db, clock=lambda: NOW)
        players = Players(db)
        stats_ms, log_ms = [], []
        for _ in range(5):
            start = time.perf_counter()
            stats = await players.stats("g")
            stats_ms.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            latest = await service.latest("f0" if games else "seed")
            await players.log_in_words(latest, "en")
            log_ms.append((time.perf_counter() - start) * 1000)
        assert sum(stats.games.values()) == games
        record = await service.current("seed")
        assert record is not None
        seat = min(service.to_act(record))
        action = next(a for a in service.legal_texts(record, seat) if a.startswith("play"))
        start = time.perf_counter()
        await service.act(user_id=f"u{seat}", action=action, channel_id="seed")
        move = (time.perf_counter() - start) * 1000
        await db.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{2 * games:7d} stored games (filled in {filled:5.1f} s): start-up {startup:6.1f} ms, first tick "
          f"{ticks[0]:7.1f} ms ({sent[0]} reminders), later ticks {statistics.median(ticks[1:]):5.1f} ms, "
          f"one move {move:5.1f} ms, /game stats {statistics.median(stats_ms):5.1f} ms, "
          f"/game log {statistics.median(log_ms):5.1f} ms, peak RSS so far {peak:.0f} MB")


async def main() -> None:
    for games in (0, 50_000):  # half active, half finished: 0 and 100,000 stored games
        await measure(games)


if __name__ == "__main__":
    asyncio.run(main())
