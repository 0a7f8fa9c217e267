"""A player's private-only change (a Stratego set-up draft, answered to them alone, with no outbox
entry) still tells the database's listeners once it commits, so the player's own web page follows
it; on both backends (PostgreSQL: a NOTIFY other processes hear too)."""
from __future__ import annotations

import asyncio

from bot.services.table import GameService
from bot.storage.backend import COMMITTED
from bot.storage.db import Database


async def test_a_private_only_change_wakes_the_pages(db: Database) -> None:
    service = GameService(db)
    await service.create(guild_id="g", channel_id="c", game="stratego", user_id="u0", name="Ann")
    await service.join("c", "u1", "Bo")
    started = await service.start("c", "u0")
    heard: asyncio.Queue[str] = asyncio.Queue()
    await db.listen(COMMITTED, heard.put_nowait)
    async with db.reading() as conn:  # what the outbox holds before: nothing the draft adds to
        before = await conn.execute_fetchall("SELECT COUNT(*) FROM announcements")
    update = await service.act(user_id="u0", action="swap A1 B1", channel_id="c", reply_privately=True)
    assert update.events and all(e.visible_to is not None for e in update.events)
    assert await asyncio.wait_for(heard.get(), timeout=10) == str(started.record.id)
    async with db.reading() as conn:
        assert list(await conn.execute_fetchall("SELECT COUNT(*) FROM announcements"))[0][0] == before[0][0]
