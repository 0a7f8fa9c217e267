"""A game row on damaged pages does not stop the other tables' timers: each timer runs in its own
transaction and the damaged game is logged once (a real SQLite file with one page zeroed)."""
from __future__ import annotations

import logging
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.services.table import GameService
from bot.storage.db import Database

PAGE = 4096
START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


async def test_a_damaged_table_is_skipped_and_the_others_timers_still_run(tmp_path: Path,
                                                                        caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "gm.sqlite3"
    async with Database(path) as db:
        service = GameService(db, clock=lambda: START)
        for channel in ("damaged", "healthy"):
            await service.create(guild_id=None, channel_id=channel, game="monopol", user_id="u0", name="Ann",
                                 options={"end_time": "2026-03-01 18:00"}, computers=5)
            await service.start(channel, "u0")
        damaged = await service.current("damaged")
        healthy = await service.current("healthy")
        assert damaged is not None and healthy is not None
        await db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    start = data.find(damaged.seed.encode()) // PAGE * PAGE
    assert start > 0 and healthy.seed.encode() not in data[start:start + PAGE]
    data[start:start + PAGE] = bytes(PAGE)
    path.write_bytes(bytes(data))

    async with Database(path) as db:
        service = GameService(db, clock=lambda: START)
        with caplog.at_level(logging.ERROR):
            for _ in range(2):
                updates = await service.apply_timers(datetime(2026, 3, 1, 18, 0, tzinfo=UTC))
                assert [u.record.id for u in updates] in ([healthy.id], [])
        finished = await service.get(healthy.id)
        assert finished.status == "finished"
        logged = [r.getMessage() for r in caplog.records if "database damaged" in r.getMessage()]
        assert len(logged) == 1 and f"game {damaged.id} " in logged[0]
