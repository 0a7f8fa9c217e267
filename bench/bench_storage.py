"""Stored games do not cost start-up time, memory or scheduler time: open a database holding N
games (N = 0 and 20 000, 1 % of the active ones due) and time start-up (connect + migrate), one
scheduler tick and one move; report the process's peak memory.

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

from bot.services.scheduler import Scheduler
from bot.services.table import GameService, stamp
from bot.storage.db import Database

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


async def fill(path: Path, games: int) -> None:
    """``games`` active 4-player Tölp games (copies of one real snapshot), 1 % with an alarm due."""
    async with Database(path) as db:
        service = GameService(db, clock=lambda: NOW - timedelta(hours=20))
        await service.create(guild_id="g", channel_id="seed", game="tolp", user_id="u0", name="A")
        for i in range(1, 4):
            await service.join("seed", f"u{i}", f"P{i}")
        await service.start("seed", "u0")
        async with db.transaction() as conn:
            for n in range(games):
                due = NOW - timedelta(minutes=1) if n % 100 == 0 else NOW + timedelta(hours=5)
                await conn.execute(
                    "INSERT INTO games (guild_id, channel_id, game, status, creator_id, options, seed, state, "
                    "version, ply, locale, turn_started_at, turn_deadline, alarm_at, created_at, updated_at) "
                    "SELECT guild_id, ?, game, status, creator_id, options, seed, state, version, ply, locale, "
                    "turn_started_at, turn_deadline, ?, created_at, updated_at FROM games WHERE channel_id = 'seed'",
                    (f"c{n}", stamp(due)))
                await conn.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name, is_computer, joined_at, bank_seconds) "
                    "SELECT last_insert_rowid(), seat, user_id, name, is_computer, joined_at, bank_seconds "
                    "FROM seats WHERE game_id = 1")


async def measure(games: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        await fill(path, games)
        start = time.perf_counter()
        db = await Database(path).connect()
        startup = (time.perf_counter() - start) * 1000
        ticks, sent = [], []
        for _ in range(3):
            start = time.perf_counter()
            sent.append(len(await Scheduler(db).due(NOW)))
            ticks.append((time.perf_counter() - start) * 1000)
        service = GameService(db, clock=lambda: NOW)
        record = await service.current("seed")
        assert record is not None
        seat = min(service.to_act(record))
        action = next(a for a in service.legal_texts(record, seat) if a.startswith("play"))
        start = time.perf_counter()
        await service.act(user_id=f"u{seat}", action=action, channel_id="seed")
        move = (time.perf_counter() - start) * 1000
        await db.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{games:6d} stored games: start-up {startup:6.1f} ms, first tick {ticks[0]:7.1f} ms "
          f"({sent[0]} reminders), later ticks {statistics.median(ticks[1:]):5.1f} ms, one move {move:5.1f} ms, "
          f"peak RSS so far {peak:.0f} MB")


async def main() -> None:
    for games in (0, 20_000):
        await measure(games)


if __name__ == "__main__":
    asyncio.run(main())
