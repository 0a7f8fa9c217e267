"""Computer seats decide in the bot's own computer worker process (Settings.computer_processes):
a player's move at a table of strong computers is acknowledged, the computers answer from the
worker (never a thread of the bot's process), the log replays with the same decisions here, and
the worker goes away with the bot. The rest of the suite decides in threads (computer_processes=0)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.services.table import GameService
from bot.settings import Settings
from bot.storage.db import Database
from cogs.app import GameMasterApp as GameMasterBot
from tests.discord.helpers import tolp_command
from tests.fakediscord import FakeDiscord
from tests.services.test_computer_pool import computer_moves_replayed


async def test_strong_computers_decide_in_a_worker_process_that_stops_with_the_bot(fake: FakeDiscord,
                                                                                   tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await Database(path).connect()
    settings = Settings(database_path=path, sync_commands=True, scheduler_seconds=0, computer_processes=1)
    bot = GameMasterBot(settings, db, GameService(db), guild_ready_timeout=0.05)
    try:
        await fake.login(bot)
        pool = bot.computers
        assert pool is not None and bot.service.computer_executor is pool
        [worker] = pool.worker_pids()
        assert worker != os.getpid()
        # at the bot's own priority (unlike the renderers): the move's transaction waits for it
        assert os.getpriority(os.PRIO_PROCESS, worker) == os.getpriority(os.PRIO_PROCESS, 0)
        ann = fake.add_member("ann")
        assert (await fake.interact(bot, fake.slash(ann, "game new", game="tolp", computers=2, level="strong"))).ok
        assert (await fake.interact(bot, fake.slash(ann, "game start"), timeout=60)).ok
        for _ in range(3):
            record = await bot.service.current(fake.channel_id)
            assert record is not None and record.status == "active"
            if 0 not in bot.service.to_act(record):
                break
            command, options = tolp_command(bot.service.legal_texts(record, 0)[0])
            # two strong searches answer within the move: a loaded machine's bound, not a pace
            moved = await fake.interact(bot, fake.slash(ann, command, options), timeout=60)
            assert moved.ok, moved.text
        asked = await computer_moves_replayed(db, bot.service, fake.channel_id)
        assert asked >= 4
        assert pool.submitted == 1 + asked and pool.in_threads == 0  # the warm-up, then every decision
        await fake.close_bot(bot)
        assert bot.computers is None and bot.service.computer_executor is None
        assert pool.worker_pids() == []
        with pytest.raises(ProcessLookupError):  # joined and reaped by the pool's shutdown
            os.kill(worker, 0)
        fake.assert_clean()
    finally:
        await db.close()
