"""Reminders leased to their sender (both backends, injected clock): a claim whose sender died
before Discord accepted the DM is taken over when its lease runs out and sent exactly once; a
restarted process of the same shard scope takes its own claims at once; a delivered reminder is
never offered again."""
from __future__ import annotations

import asyncio
from datetime import timedelta

from bot.services.clock import LAST_CALL, REMINDER
from bot.services.scheduler import LEASE, Scheduler
from bot.storage.db import Database
from tests.services.test_clock import Clock, table
from tests.toygame import ToyGame

SHARD_0 = "shard 0/2"
SHARD_1 = "shard 1/2"


def seats(dues: list) -> list[tuple[int, int]]:
    return [(d.seat, d.stage) for d in dues]


async def test_a_claim_of_a_dead_sender_is_sent_once_by_another_after_its_lease(db: Database, toy: ToyGame) -> None:
    ticking = Clock()
    await table(db, ticking)
    dying = Scheduler(db, owner=SHARD_0)
    assert seats(await dying.due(ticking.advance(hours=17))) == [(0, REMINDER)]   # claimed, never sent
    other = Scheduler(db, owner=SHARD_1)
    assert await other.due(ticking.advance(minutes=1)) == []                      # the lease still runs
    ticking.advance(seconds=LEASE.total_seconds())
    taken = await other.due(ticking.now)
    assert seats(taken) == [(0, REMINDER)] and taken[0].user_id == "u0"
    await other.delivered(taken[0], ticking.now)
    for later in (timedelta(minutes=1), LEASE * 2):                              # delivered: never again
        ticking.now += later
        assert await other.due(ticking.now) == []
        assert await Scheduler(db, owner=SHARD_0).due(ticking.now) == []         # not even to a restart


async def test_a_restarted_process_of_the_same_shards_takes_its_own_claims_at_once(db: Database,
                                                                                 toy: ToyGame) -> None:
    ticking = Clock()
    await table(db, ticking)
    assert seats(await Scheduler(db, owner=SHARD_0).due(ticking.advance(hours=17))) == [(0, REMINDER)]
    ticking.advance(minutes=1)
    assert await Scheduler(db, owner=SHARD_1).due(ticking.now) == []               # not its claim, lease runs
    restarted = Scheduler(db, owner=SHARD_0)
    again = await restarted.due(ticking.now)
    assert seats(again) == [(0, REMINDER)]
    await restarted.delivered(again[0], ticking.now)
    assert await Scheduler(db, owner=SHARD_1).due(ticking.now + LEASE * 2) == []


async def test_schedulers_sweeping_together_take_an_expired_claim_once(db: Database, toy: ToyGame) -> None:
    ticking = Clock()
    await table(db, ticking)
    assert await Scheduler(db, owner=SHARD_0).due(ticking.advance(hours=17))
    ticking.advance(seconds=(LEASE + timedelta(minutes=1)).total_seconds())
    sweeps = await asyncio.gather(*(Scheduler(db, owner=f"shard {i}/4").due(ticking.now) for i in range(1, 4)))
    assert sorted(seats([d for dues in sweeps for d in dues])) == [(0, REMINDER)]


async def test_a_later_stage_stands_for_an_undelivered_earlier_one(db: Database, toy: ToyGame) -> None:
    ticking = Clock()
    await table(db, ticking)
    assert seats(await Scheduler(db, owner=SHARD_0).due(ticking.advance(hours=17))) == [(0, REMINDER)]
    other = Scheduler(db, owner=SHARD_1)
    last_call = await other.due(ticking.advance(hours=14))     # 31 h: the last call, the reminder expired
    assert seats(last_call) == [(0, LAST_CALL)]
    await other.delivered(last_call[0], ticking.now)
    assert await other.due(ticking.now + LEASE * 2) == []


async def test_a_move_retires_an_undelivered_claim(db: Database, toy: ToyGame) -> None:
    ticking = Clock()
    service = await table(db, ticking)
    assert await Scheduler(db, owner=SHARD_0).due(ticking.advance(hours=17))
    await service.act(user_id="u0", action="add 1", channel_id="c")
    assert await Scheduler(db, owner=SHARD_1).due(ticking.advance(minutes=10)) == []
