"""Boards drawn in worker processes (both cores) arrive as real PNGs, and the workers go away
with the bot. The rest of the suite draws in threads (Settings.render_processes = 0)."""
from __future__ import annotations

import os
from pathlib import Path

from bot.services import renders
from bot.services.table import GameService
from bot.settings import Settings
from bot.storage.db import Database
from cogs.app import GameMasterApp as GameMasterBot
from tests.discord.helpers import decoded, latest_board
from tests.discord.test_ack_first import start_tolp
from tests.fakediscord import FakeDiscord


async def test_boards_are_drawn_in_worker_processes_that_stop_with_the_bot(fake: FakeDiscord,
                                                                            tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await Database(path).connect()
    settings = Settings(database_path=path, sync_commands=True, scheduler_seconds=0, render_processes=2)
    bot = GameMasterBot(settings, db, GameService(db), guild_ready_timeout=0.05)
    try:
        await fake.login(bot)
        pool = bot.renders
        assert pool is not None and renders.current() is pool
        workers = await pool.start()
        assert workers and os.getpid() not in workers
        # the workers draw at a lower priority than the loop that acknowledges moves
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        assert all(os.getpriority(os.PRIO_PROCESS, pid) >= min(mine + renders.NICENESS, 19) for pid in workers)
        board = await start_tolp(fake, bot, fake.add_members(3))
        assert decoded(board.files[0].data).width >= 1000
        assert latest_board(fake) is board
        processes = list(pool._executor._processes.values())  # type: ignore[attr-defined]
        assert len(processes) == 2 and all(p.is_alive() for p in processes)
        await fake.close_bot(bot)
        assert bot.renders is None and renders.current() is not pool
        assert all(not p.is_alive() for p in processes)
        fake.assert_clean()
    finally:
        await db.close()
