"""CPU per move, measured in one process: robust to other work on the machine (CPU time, not
latency). The fake Discord and the real bot share one event loop, the renders run in threads and
are timed in their threads; N Tölp tables are stored as bench_load stores them, their start-up
announcements delivered, a warm-up of moves made, then M moves offered with C in flight (one per
table), each followed until its mover heard back and the outbox is empty. Prints the loop thread's
CPU per move (the bot's and the fake's work), the renders' CPU per move and pictures per move, and
the whole process's CPU per move. ``--profile FILE`` writes a cProfile of the loop thread (thread
CPU timer) for ``python -m pstats``.

    .venv/bin/python -m bench.bench_move_cpu --tables 100 --moves 300 --in-flight 10
"""
from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import random
import sqlite3
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

from bench.bench_load import LoadFake, Result, Table, delivered, fill, play
from bot.services import renders
from bot.services.table import GameService
from bot.settings import Settings
from bot.storage.db import Database
from cogs.app import GameMasterApp

_RENDERED = [0.0, 0.0]  # thread CPU seconds spent drawing, pictures drawn
_BY_FUNCTION: dict[str, list[float]] = {}  # renderer function: [thread CPU seconds, pictures]
_draw = renders._draw


def _timed_draw(module: str, function: str, args: tuple[Any, ...], kwargs: dict[str, Any],
                described: tuple[Any, ...] | None = None) -> Any:
    start = time.thread_time()
    try:
        return _draw(module, function, args, kwargs, described)
    finally:
        spent = time.thread_time() - start
        _RENDERED[0] += spent
        _RENDERED[1] += 1
        mine = _BY_FUNCTION.setdefault(f"{module}.{function}", [0.0, 0.0])
        mine[0] += spent
        mine[1] += 1


async def measure(tables: int, moves: int, in_flight: int, profile: str | None, *,
                  shut_down: bool = False, warm_up: int = 50) -> dict[str, float]:
    """The figures above; with ``shut_down`` the bot, the store and the fake are closed after
    (a test's run), and ``violations`` counts what the fake refused as Discord would."""
    renders._draw = _timed_draw
    fake = LoadFake()
    await fake.start()
    fake.point_discord_py_here()
    path = Path(tempfile.mkdtemp()) / "cpu.sqlite3"
    stored = await fill(path, fake, tables)
    db = await Database(str(path)).connect()
    settings = Settings(database_url=str(path), sync_commands=True, scheduler_seconds=0, announce_sweep_seconds=0,
                        render_processes=0)
    bot = GameMasterApp(settings, db, GameService(db), guild_ready_timeout=0.05)
    await fake.connect(bot, timeout=120)
    announcer: Any = bot.get_cog("Announcer")
    for table in stored:
        announcer.wake(table.game_id)
    await delivered(path, timeout=900)
    rng, ply_of, result = random.Random(15), sqlite3.connect(path), Result(tables, 0, 0)
    slots, cursor = asyncio.Semaphore(in_flight), [0]

    async def one() -> None:
        async with slots:
            for _ in range(len(stored)):
                table: Table = stored[cursor[0] % len(stored)]
                cursor[0] += 1
                if not table.busy and not table.over:
                    table.busy = True
                    await play(fake, table, ply_of, rng, result)
                    return

    await asyncio.gather(*(one() for _ in range(min(warm_up, moves))))
    await delivered(path)
    _RENDERED[0] = _RENDERED[1] = 0.0
    _BY_FUNCTION.clear()
    profiler = cProfile.Profile(time.thread_time) if profile else None
    loop_before, process_before, done_before = time.thread_time(), time.process_time(), result.finished
    if profiler is not None:
        profiler.enable()
    await asyncio.gather(*(one() for _ in range(moves)))
    await delivered(path)
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(str(profile))
    done = max(1, result.finished - done_before)
    violations = len(fake.violations)
    if shut_down:
        await fake.close_bot(bot)
        await db.close()
        ply_of.close()
        await fake.stop()
        renders._draw = _draw
    return {"moves": done, "refused": result.refused, "violations": violations,
            "loop": 1000 * (time.thread_time() - loop_before) / done,
            "process": 1000 * (time.process_time() - process_before) / done,
            "renders": 1000 * _RENDERED[0] / done, "pictures": _RENDERED[1] / done}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--in-flight", type=int, default=10)
    parser.add_argument("--profile", default=None, help="write a cProfile of the loop thread here")
    args = parser.parse_args()
    try:
        row = asyncio.run(measure(args.tables, args.moves, args.in_flight, args.profile))
        print(f"{row['moves']:.0f} moves at {args.tables} tables, {args.in_flight} in flight: loop thread (bot and "
              f"fake) {row['loop']:.2f} ms/move, renders {row['renders']:.2f} ms/move ({row['pictures']:.2f} "
              f"pictures/move), whole process {row['process']:.2f} ms/move")
        for function, (spent, pictures) in sorted(_BY_FUNCTION.items(), key=lambda item: -item[1][0]):
            print(f"  {function}: {1000 * spent / row['moves']:.2f} ms/move, {1000 * spent / pictures:.2f} ms "
                  f"a picture ({pictures / row['moves']:.2f}/move)")
    except BaseException:  # said before the hard exit below, which would swallow it
        traceback.print_exc()
        sys.stdout.flush()
        os._exit(1)
    finally:  # the bot and the fake are not shut down one by one: the numbers are out
        sys.stdout.flush()
        os._exit(0)


if __name__ == "__main__":
    main()
