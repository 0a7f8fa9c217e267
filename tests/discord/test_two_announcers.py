"""Two bot processes on one PostgreSQL database deliver one table's announcements between them: a
move committed by one process while the other holds the table's delivery claim is still announced
at once, not only by the periodic sweep a minute later (the e2e cluster test met this under load)."""
from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.services.table import GameService
from bot.settings import Settings
from bot.storage.db import Database
from cogs.app import GameMasterApp as GameMasterBot
from tests.backends import database_url_for
from tests.discord.helpers import assert_moved, latest_board
from tests.discord.test_rest_budget import next_move, start_tolp
from tests.fakediscord import FakeDiscord, settle


@pytest_asyncio.fixture(params=["postgres"])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Processes share a database only on PostgreSQL (one SQLite file serves one process)."""
    return await database_url_for(request, tmp_path)


@pytest_asyncio.fixture
async def shard_bots(fake: FakeDiscord, database_url: str) -> AsyncIterator[list[GameMasterBot]]:
    """One logged-in bot per shard of two, as two processes would run them (no periodic sweep)."""
    bots, dbs = [], []
    for shard in (0, 1):
        db = await Database(database_url).connect()
        dbs.append(db)
        settings = Settings(database_url=database_url, sync_commands=True, scheduler_seconds=0,
                            channel_window=0.1, announce_sweep_seconds=0, shards=(shard,), shard_count=2)
        fake.channel_rate = (settings.channel_posts, settings.channel_window)
        bot = GameMasterBot(settings, db, GameService(db), guild_ready_timeout=0.05)
        if bots:  # both post in this test's one channel: they share what the channel already took
            bot.pacer = bots[0].pacer
        await fake.login(bot)
        bots.append(bot)
    yield bots
    for db in dbs:
        await db.close()


async def test_a_move_committed_while_another_process_holds_the_table_is_announced(
        fake: FakeDiscord, shard_bots: list[GameMasterBot], monkeypatch: pytest.MonkeyPatch) -> None:
    here, there = shard_bots
    users = fake.add_members(3)
    await start_tolp(fake, here, users)
    await settle(here)
    record = await here.service.current(fake.channel_id)
    assert record is not None and latest_board(fake).files[0].filename == f"tolp-{record.ply}.png"

    # the other process finds nothing left to deliver; before it lets go of the table, this one
    # commits a move, finds the table claimed and leaves the delivery to the holder
    holder: Any = there.get_cog("Announcer")
    release = holder.outbox.release
    moved: list[int] = []

    async def release_after_a_move_here(game_id: int, owner: str) -> None:
        if not moved:
            _, payload, before = await next_move(fake, here, users)
            assert_moved(await fake.interact(here, payload))
            await settle(here)  # this process's announcer has given up the table (claimed)
            moved.append(before.ply + 1)
        await release(game_id, owner)

    monkeypatch.setattr(holder.outbox, "release", release_after_a_move_here)
    holder.wake(record.id)
    await settle(there)
    await settle(here)
    assert moved == [record.ply + 1]
    assert latest_board(fake).files[0].filename == f"tolp-{moved[0]}.png"  # announced, not left for the sweep
    assert await holder.outbox.tables() == []
    fake.assert_clean()
