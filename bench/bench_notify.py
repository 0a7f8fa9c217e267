"""What the notifications the player controls cost the clock loop and a delivery: one digest
round (``Notifications.due_digests``, run by every clock-loop tick) over N players with a digest,
when none is due and at an hour when 1/24 of them are (each claimed in its own transaction), and
a table's ping decision (``audible``, read and noted per new board) and a memo hit (``of_game``
of the same version, for each DM of the delivery). SQLite file, or ``--db postgresql://…``.

Run (from the repository root): .venv/bin/python -m bench.bench_notify --players 10000
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.services.notify import Notifications
from bot.services.table import GameService
from bot.storage.db import Database

NOW = datetime(2026, 12, 2, 9, 30, tzinfo=UTC)


async def fill(db: Database, players: int) -> int:
    """``players`` digests at hours 0..23 (UTC, no quiet hours) and one 4-player table with
    choices for every seat (a ping limit on two)."""
    counter = "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
    async with db.transaction() as conn:
        await conn.execute(counter + "INSERT INTO digests (user_id, hour) SELECT 'u' || i, i % 24 FROM n",
                           (players - 1,))
    service = GameService(db, clock=lambda: NOW)
    record = await service.create(guild_id="g", channel_id="c", game="tolp", user_id="u0", name="A")
    for i in range(1, 4):
        await service.join("c", f"u{i}", f"P{i}")
    await service.start("c", "u0")
    current = await service.current("c")
    assert current is not None
    notes = Notifications(db)
    for i in range(4):
        await notes.choose(current, f"u{i}", mute=i == 0, early=i == 1, max_per=6 if i >= 2 else None)
    return record.id


def ms(samples: list[float]) -> str:
    return f"median {statistics.median(samples) * 1000:.2f} ms, max {max(samples) * 1000:.2f} ms"


async def run(url: str | None, players: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with Database(url or str(Path(folder) / "notify.sqlite3")) as db:
            game_id = await fill(db, players)
            notes = Notifications(db)
            start = time.perf_counter()
            first = await notes.due_digests(NOW.replace(hour=8))  # the first round plans every digest
            first_s = time.perf_counter() - start
            sent_round = time.perf_counter()
            sent = await notes.due_digests(NOW)  # 09:30: hour 9's digests come
            sent_s = time.perf_counter() - sent_round
            quiet: list[float] = []
            for minute in range(20):
                start = time.perf_counter()
                assert await notes.due_digests(NOW + timedelta(minutes=minute + 1)) == []
                quiet.append(time.perf_counter() - start)
            decide: list[float] = []
            memo: list[float] = []
            for version in range(200):
                start = time.perf_counter()
                await notes.audible(game_id, ["u0", "u1", "u2", "u3"], NOW + timedelta(hours=version), version)
                decide.append(time.perf_counter() - start)
                start = time.perf_counter()
                await notes.of_game(game_id, version)
                memo.append(time.perf_counter() - start)
            print(f"players with a digest: {players:,} ({db.backend})")
            print(f"first round (plans all, claims the {len(first):,} of hours 0-8): {first_s * 1000:.0f} ms")
            print(f"digest round with none due: {ms(quiet)}")
            print(f"digest round claiming the {len(sent):,} due at an hour (1/24): {sent_s * 1000:.0f} ms "
                  f"({sent_s / max(1, len(sent)) * 1000:.2f} ms each)")
            print(f"ping decision per new board (4 seats, 2 limits noted): {ms(decide)}")
            print(f"choices for a DM of the same delivery (memo): {ms(memo)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--db", default=None, help="a postgresql:// URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    asyncio.run(run(args.db, args.players))


if __name__ == "__main__":
    main()
