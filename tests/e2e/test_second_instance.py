"""Two `gamemaster run` processes on one database: the second refuses to start, naming the first;
once the first is gone (even by SIGKILL) the next start takes over."""
from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from pathlib import Path

from tests.fakediscord import FakeDiscord


def _env(fake: FakeDiscord, db: Path) -> dict[str, str]:
    return dict(os.environ, DISCORD_TOKEN="fake-token", GAMEMASTER_API_BASE=fake.api_base,
                GAMEMASTER_GATEWAY_URL=fake.gateway_url, GAMEMASTER_DB=str(db), GAMEMASTER_LOG_LEVEL="WARNING")


async def _start(fake: FakeDiscord, db: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "run", env=_env(fake, db), cwd=db.parent,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)


async def test_a_second_instance_is_refused_and_a_restart_after_a_crash_takes_over(fake: FakeDiscord,
                                                                                   tmp_path: Path) -> None:
    db = tmp_path / "gm.sqlite3"
    first = await _start(fake, db)
    third = None
    try:
        await asyncio.wait_for(fake.identified.wait(), timeout=30)

        second = await _start(fake, db)  # the timeout guards a hang; bench.bench_refusals times it
        output, _ = await asyncio.wait_for(second.communicate(), timeout=20)
        text = output.decode().strip()
        assert second.returncode == 3, text
        assert text.count("\n") == 0 and "Another Game Master" in text, text
        assert f"{socket.gethostname()} pid {first.pid}" in text and str(db) in text

        first.send_signal(signal.SIGKILL)  # a crash: the lease is not handed back
        await first.wait()
        fake.identified.clear()
        third = await _start(fake, db)
        await asyncio.wait_for(fake.identified.wait(), timeout=30)  # taken over at once, not after the TTL
        assert third.returncode is None
    finally:
        for process in (first, third):
            if process is not None and process.returncode is None:
                process.terminate()
                await asyncio.wait_for(process.communicate(), timeout=15)
