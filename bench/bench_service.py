"""Median time of one move through the service layer, SQLite commit included (Tölp, 4 players).

Run: .venv/bin/python bench/bench_service.py
"""
from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bot.services.table import GameService
from bot.storage.db import Database


async def main(moves: int = 300) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with Database(Path(folder) / "bench.sqlite3") as db:
            service = GameService(db)
            timings: list[float] = []
            game_no = 0
            while len(timings) < moves:
                channel = f"c{game_no}"
                game_no += 1
                await service.create(guild_id="g", channel_id=channel, game="tolp", user_id="u0", name="A",
                                     options={"scoring": "rounds", "rounds": "1"})
                for i in range(1, 4):
                    await service.join(channel, f"u{i}", f"P{i}")
                await service.start(channel, "u0")
                while (record := await service.current(channel)) is not None and len(timings) < moves:
                    seat = min(service.to_act(record))
                    legal = service.legal_texts(record, seat)
                    action = next((a for a in legal if a.startswith("play")), legal[0])
                    start = time.perf_counter()
                    await service.act(user_id=f"u{seat}", action=action, channel_id=channel)
                    timings.append((time.perf_counter() - start) * 1000)
    print(f"service move (Tölp, 4 players, incl. SQLite commit): median {statistics.median(timings):.2f} ms, "
          f"p95 {sorted(timings)[int(len(timings) * 0.95)]:.2f} ms over {len(timings)} moves")


if __name__ == "__main__":
    asyncio.run(main())
