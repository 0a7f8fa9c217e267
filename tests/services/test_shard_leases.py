"""Sharded processes: each claims its own shards; overlapping shards, another shard count or a
process running the whole bot are refused while the holder lives (on both backends)."""
from __future__ import annotations

import pytest

from bot.services.instance import InstanceLease, shard_scopes
from bot.settings import Settings, parse_shards
from bot.storage.db import Database
from bot.storage.health import StorageProblem


def test_shard_ranges_are_read_from_settings_text() -> None:
    assert parse_shards("0-3") == (0, 1, 2, 3) and parse_shards("0-1,6") == (0, 1, 6) and parse_shards("") is None
    assert shard_scopes((2, 3), 4) == ("shard 2/4", "shard 3/4") and shard_scopes(None, None) == ("bot",)
    with pytest.raises(ValueError):
        Settings(shards=(0, 8), shard_count=8).check_shards()
    with pytest.raises(ValueError):
        Settings(shards=(0,)).check_shards()


async def test_exactly_the_configured_shards_run_together(database_url: str) -> None:
    dbs = [await Database(database_url).connect() for _ in range(2)]
    try:
        first = InstanceLease(dbs[0], host="a", pid=1, scopes=shard_scopes((0, 1), 4))
        second = InstanceLease(dbs[1], host="b", pid=2, scopes=shard_scopes((2, 3), 4))
        await first.acquire()
        await second.acquire()  # the other half of the shards
        for shards, count in (((1, 2), 4), ((3,), 4), ((0,), 2), (None, None)):
            with pytest.raises(StorageProblem) as refused:
                await InstanceLease(dbs[1], host="c", pid=3, scopes=shard_scopes(shards, count)).acquire()
            assert refused.value.key == "storage.instance_running"
        assert await first.renew() and await second.renew()
        await first.release()
        await InstanceLease(dbs[0], host="c", pid=3, scopes=shard_scopes((0, 1), 4)).acquire()
        assert not await first.renew()
    finally:
        for db in dbs:
            await db.close()
