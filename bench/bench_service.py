"""Median time of one move through the service layer, SQLite commit included (4 players each of
Tölp, Monopol, Zloděj and Tjuv och Polis, 2 of Stratego).

Run (from the repository root): .venv/bin/python -m bench.bench_service
"""
from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiosqlite

from bot.engine import registry
from bot.engine.registry import computer_action
from bot.services.table import GameService
from bot.storage.db import Database

GAMES = {"tolp": (4, {"scoring": "rounds", "rounds": "1"}), "monopol": (4, {"max_rounds": "20"}),
         "zlodej": (4, {}), "stratego": (2, {"max_moves": "200"}), "tjuv": (4, {"max_rounds": "10"})}


SENT = [0]  # statements sent to SQLite (every connection), to count a move's round trips


def _counting(execute: Callable[..., Any]) -> Callable[..., Any]:
    def counted(self: aiosqlite.Connection, *args: Any, **kwargs: Any) -> Any:
        SENT[0] += 1
        return execute(self, *args, **kwargs)
    return counted


async def bench(game: str, moves: int = 300) -> None:
    players, options = GAMES[game]
    with tempfile.TemporaryDirectory() as folder:
        async with Database(Path(folder) / "bench.sqlite3") as db:
            service = GameService(db)
            timings: list[float] = []
            trips: list[int] = []
            game_no = 0
            while len(timings) < moves:
                channel = f"c{game_no}"
                game_no += 1
                await service.create(guild_id="g", channel_id=channel, game=game, user_id="u0", name="A",
                                     options=options)
                for i in range(1, players):
                    await service.join(channel, f"u{i}", f"P{i}")
                await service.start(channel, "u0")
                while (record := await service.current(channel)) is not None and len(timings) < moves:
                    seat = min(service.to_act(record))
                    engine = registry.get(game)
                    action = str(computer_action(engine, engine.load(record.state or {}), seat))
                    start, sent = time.perf_counter(), SENT[0]
                    await service.act(user_id=f"u{seat}", action=action, channel_id=channel,
                                      interaction_id=f"{game}-{len(timings)}")
                    timings.append((time.perf_counter() - start) * 1000)
                    trips.append(SENT[0] - sent)
    print(f"service move ({game}, {players} players, incl. SQLite commit): median {statistics.median(timings):.2f} ms, "
          f"p95 {sorted(timings)[int(len(timings) * 0.95)]:.2f} ms over {len(timings)} moves; "
          f"statements per slash move (round trips, BEGIN and COMMIT included): median "
          f"{statistics.median(trips):.0f}, max {max(trips)}")


async def main() -> None:
    aiosqlite.Connection.execute = _counting(aiosqlite.Connection.execute)  # type: ignore[method-assign]
    aiosqlite.Connection.execute_fetchall = _counting(aiosqlite.Connection.execute_fetchall)  # type: ignore
    for game in GAMES:
        await bench(game)


if __name__ == "__main__":
    asyncio.run(main())
