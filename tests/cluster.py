"""Bot processes for cluster tests and benchmarks: ``gamemaster run`` subprocesses, each running
one shard, pointed at the fake Discord and one database."""
from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from tests.fakediscord import FakeDiscord

TIMEOUT = 30


async def until(check: Any, what: str, timeout: float = TIMEOUT) -> Any:
    """Poll ``check`` (an async callable) until it returns something truthy."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        result = await check()
        if result:
            return result
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


async def quiet(fake: FakeDiscord, calm: float = 0.5) -> None:
    """Wait until no request reached the fake Discord for ``calm`` seconds (at most TIMEOUT)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    seen, since = len(fake.requests), loop.time()
    while loop.time() < deadline and loop.time() - since < calm:
        await asyncio.sleep(0.05)
        if len(fake.requests) != seen:
            seen, since = len(fake.requests), loop.time()


class Cluster:
    def __init__(self, fake: FakeDiscord, url: str, folder: Path) -> None:
        self.fake, self.url, self.folder = fake, url, folder
        self.processes: dict[int, asyncio.subprocess.Process] = {}
        self.output: list[bytes] = []

    async def start(self, shard: int, shard_count: int = 2, **extra: str) -> asyncio.subprocess.Process:
        """Start ``gamemaster run`` for one shard of ``shard_count`` (1: the whole bot, unsharded)
        and wait until it identified at the fake Discord."""
        wanted = [shard, shard_count]
        identified = sum(1 for f in self.fake.gateway_log if f.get("op") == 2 and f["d"].get("shard") == wanted)
        env = dict(os.environ, DISCORD_TOKEN="fake-token", GAMEMASTER_API_BASE=self.fake.api_base,
                   GAMEMASTER_GATEWAY_URL=self.fake.gateway_url, DATABASE_URL=self.url,
                   GAMEMASTER_IDENTIFY_SECONDS="0", GAMEMASTER_SCHEDULER_SECONDS="0.2",
                   GAMEMASTER_LOG_LEVEL="WARNING", GAMEMASTER_DB=str(self.folder / f"unused{shard}.sqlite3"),
                   GAMEMASTER_BOARDS_DIR=str(self.folder / "boards"))
        env.update(extra)
        if shard_count > 1:
            env.update(GAMEMASTER_SHARDS=str(shard), GAMEMASTER_SHARD_COUNT=str(shard_count))
        self.processes[shard] = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", env=env, cwd=self.folder,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)

        async def identified_again() -> bool:
            if self.processes[shard].returncode is not None:
                raise AssertionError((await self.processes[shard].stdout.read()).decode(errors="replace"))
            return sum(1 for f in self.fake.gateway_log
                       if f.get("op") == 2 and f["d"].get("shard") == wanted) > identified
        await until(identified_again, f"shard {shard} to identify")
        return self.processes[shard]

    async def kill(self, shard: int) -> None:
        process = self.processes.pop(shard)
        process.kill()
        output, _ = await process.communicate()
        self.output.append(output)

    async def stop(self) -> None:
        for shard in list(self.processes):
            process = self.processes.pop(shard)
            process.terminate()
            output, _ = await asyncio.wait_for(process.communicate(), timeout=15)
            self.output.append(output)
