"""One process per database: the lease refuses a second instance while the first lives and hands
over once the first stopped renewing (the clock is injected; nothing sleeps)."""
from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.services.instance import InstanceLease
from bot.storage.db import Database
from bot.storage.health import StorageProblem


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


async def test_a_second_instance_is_refused_until_the_first_stops_renewing(tmp_path: Path) -> None:
    clock = Clock()
    path = tmp_path / "gm.sqlite3"
    async with Database(path) as db_a, Database(path) as db_b:
        first = InstanceLease(db_a, clock=clock, host="box-a", pid=101, ttl=60)
        second = InstanceLease(db_b, clock=clock, host="box-b", pid=202, ttl=60)
        await first.acquire()

        clock.advance(30)
        with pytest.raises(StorageProblem) as refused:
            await second.acquire()
        assert refused.value.key == "storage.instance_running"
        assert f"box-a pid 101, id {first.owner}" in refused.value.params["holder"]
        assert refused.value.params["expires"] == "2026-03-01T12:01:00+00:00"

        assert await first.renew()  # the heartbeat keeps it: now until 12:01:30
        clock.advance(45)
        with pytest.raises(StorageProblem):
            await second.acquire()

        clock.advance(16)  # the first died after its last heartbeat; its lease ran out at 12:01:30
        await second.acquire()
        assert not await first.renew()  # the old holder learns it lost the lease and stops


async def test_a_clean_stop_hands_the_lease_back_at_once(tmp_path: Path) -> None:
    clock = Clock()
    path = tmp_path / "gm.sqlite3"
    async with Database(path) as db_a, Database(path) as db_b:
        first = InstanceLease(db_a, clock=clock, host="box", pid=101)
        await first.acquire()
        await first.release()
        second = InstanceLease(db_b, clock=clock, host="box-b", pid=202)
        await second.acquire()  # the same moment: no waiting for the first lease to run out
        assert await second.renew() and not await first.renew()
        with pytest.raises(StorageProblem) as refused:
            await InstanceLease(db_a, clock=clock, host="box-c", pid=303).acquire()
        assert f"box-b pid 202, id {second.owner}" in refused.value.params["holder"]


async def test_a_holder_on_this_host_whose_process_is_gone_is_taken_over_at_once(tmp_path: Path) -> None:
    clock = Clock()
    path = tmp_path / "gm.sqlite3"
    async with Database(path) as db_a, Database(path) as db_b:
        await InstanceLease(db_a, clock=clock, host="box", pid=2**22 + 12345).acquire()  # no such process
        await InstanceLease(db_b, clock=clock, host="box", pid=os.getpid()).acquire()  # a live process
        with pytest.raises(StorageProblem):
            await InstanceLease(db_a, clock=clock, host="box", pid=1).acquire()
