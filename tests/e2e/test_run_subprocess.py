"""`gamemaster run` as a real subprocess against the fake Discord over the gateway:
identify, ready, command sync, and interactions answered."""
from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from tests.fakediscord import FakeDiscord

LOOPS = {"uvloop": b"event loop: uvloop.Loop", "asyncio": b"event loop: asyncio.unix_events._UnixSelectorEventLoop"}


@pytest.mark.parametrize("event_loop", sorted(LOOPS))
async def test_gamemaster_run_identifies_syncs_and_answers(fake: FakeDiscord, tmp_path: Path, event_loop: str) -> None:
    env = dict(os.environ, DISCORD_TOKEN="fake-token", GAMEMASTER_API_BASE=fake.api_base,
               GAMEMASTER_GATEWAY_URL=fake.gateway_url, GAMEMASTER_DB=str(tmp_path / "e2e.sqlite3"),
               GAMEMASTER_LOG_LEVEL="INFO", GAMEMASTER_EVENT_LOOP=event_loop, GAMEMASTER_WEB="0")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", env=env, cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    try:
        await asyncio.wait_for(fake.identified.wait(), timeout=30)
        synced = await fake.wait_request(lambda r: r.method == "PUT" and r.path.endswith("/commands"), timeout=30)
        names = {command["name"] for command in synced.json}
        assert {"game", "rules", "tolp"} <= names
        alice = fake.add_member("alice")
        answered = await fake.interact(None, fake.slash(alice, "rules", game="tolp", topic=""), gateway=True,
                                       timeout=15)
        assert answered.ok and answered.ephemeral and "Topics" in answered.text
        new = fake.slash(alice, "game new", game="tolp")
        opened = await fake.interact(None, new, gateway=True, timeout=15)
        # deferred before its write: the lobby replaces the placeholder once the table is stored
        await fake.wait_request(lambda r: r.route.startswith("/webhooks/") and new["token"] in r.path, timeout=15)
        assert opened.ok and "Tölp" in opened.text
        assert (tmp_path / "e2e.sqlite3").exists()
        assert fake.violations == []
    finally:
        process.terminate()
        output, _ = await asyncio.wait_for(process.communicate(), timeout=15)
    assert b"Traceback" not in output, output.decode(errors="replace")
    assert LOOPS[event_loop] in output, output.decode(errors="replace")[-2000:]


async def test_a_refused_token_is_explained_without_a_traceback(fake: FakeDiscord, tmp_path: Path) -> None:
    fake.rejected_token = "wrong-token"
    env = dict(os.environ, DISCORD_TOKEN="wrong-token", GAMEMASTER_API_BASE=fake.api_base,
               GAMEMASTER_GATEWAY_URL=fake.gateway_url, GAMEMASTER_DB=str(tmp_path / "e2e.sqlite3"),
               GAMEMASTER_LOG_LEVEL="WARNING")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", env=env, cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    output, _ = await asyncio.wait_for(process.communicate(), timeout=30)
    assert process.returncode == 2
    assert b"Discord refused the token" in output and b"Traceback" not in output, output.decode(errors="replace")
