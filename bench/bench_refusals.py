"""How fast a start that cannot serve is refused: `gamemaster run` and `gamemaster db verify` on a
broken database file, and `gamemaster run` beside a running instance on the same database, each
end with one clear line and exit code 3. The goal is "within seconds" (under 10 s on the shared
2-core machine); the tests check the refusal itself and only guard against a hang
(tests/e2e/test_storage_faults.py, tests/e2e/test_second_instance.py).

    python -m bench.bench_refusals [--runs 3]

Prints the median and the slowest of ``--runs`` runs per case, in seconds from starting the
process to its exit (Python's start-up and imports included, as a user waits for them).
"""
from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bot.services.table import GameService
from bot.storage.db import Database
from tests.fakediscord import FakeDiscord

GOAL = 10.0
LIMIT = 60.0  # a hang is killed here


def _env(db: Path, fake: FakeDiscord | None = None) -> dict[str, str]:
    env = dict(os.environ, GAMEMASTER_DB=str(db), DISCORD_TOKEN="fake-token", GAMEMASTER_LOG_LEVEL="WARNING",
               GAMEMASTER_API_BASE="http://127.0.0.1:9/api/v10")
    if fake is not None:
        env.update(GAMEMASTER_API_BASE=fake.api_base, GAMEMASTER_GATEWAY_URL=fake.gateway_url)
    return env


async def _refused(db: Path, *args: str, fake: FakeDiscord | None = None) -> float:
    """Seconds until ``gamemaster ARGS`` exits; it must exit with code 3 (refused, one line)."""
    started = time.monotonic()
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", *args, env=_env(db, fake),
                                                   cwd=db.parent, stdout=asyncio.subprocess.PIPE,
                                                   stderr=asyncio.subprocess.STDOUT)
    output, _ = await asyncio.wait_for(process.communicate(), timeout=LIMIT)
    seconds = time.monotonic() - started
    if process.returncode != 3:
        raise SystemExit(f"gamemaster {' '.join(args)} exited {process.returncode}: {output.decode()}")
    return seconds


async def _healthy(path: Path, games: int = 40) -> bytes:
    async with Database(path) as db:
        service = GameService(db)
        for n in range(games):
            channel = str(100 + n)
            await service.create(guild_id="1", channel_id=channel, game="tolp", user_id="7", name="ann")
            for seat in (8, 9):
                await service.join(channel, str(seat), f"p{seat}")
            await service.start(channel, "7")
        await db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path.read_bytes()


async def _second_instance(folder: Path) -> float:
    """A second `gamemaster run` on the database of a running one: refused, naming the first."""
    db = folder / "running.sqlite3"
    fake = FakeDiscord()
    await fake.start()
    first = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "run", env=_env(db, fake),
                                                 cwd=folder, stdout=asyncio.subprocess.DEVNULL,
                                                 stderr=asyncio.subprocess.DEVNULL)
    try:
        await asyncio.wait_for(fake.identified.wait(), timeout=LIMIT)
        return await _refused(db, "run", fake=fake)
    finally:
        first.terminate()
        await first.wait()
        await fake.stop()


async def main(runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        healthy = await _healthy(folder / "healthy.sqlite3")
        files = {"garbage": hashlib.sha512(b"not a database").digest() * 128, "truncated": healthy[:8192]}
        cases: dict[str, list[float]] = {}
        for _ in range(runs):
            for kind, data in files.items():
                for command in (["run"], ["db", "verify"]):
                    broken = folder / f"{kind}.sqlite3"
                    broken.write_bytes(data)
                    cases.setdefault(f"`gamemaster {' '.join(command)}`, {kind} file", []).append(
                        await _refused(broken, *command))
            cases.setdefault("`gamemaster run` beside a running instance", []).append(
                await _second_instance(folder))
    print(f"| refused start ({runs} runs) | median | slowest |")
    print("|---|---|---|")
    for name, seconds in cases.items():
        print(f"| {name} | {statistics.median(seconds):.2f} s | {max(seconds):.2f} s |")
    slowest = max(max(seconds) for seconds in cases.values())
    print(f"\nslowest refusal {slowest:.2f} s; goal under {GOAL:.0f} s: {'met' if slowest < GOAL else 'MISSED'}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    asyncio.run(main(parser.parse_args().runs))
