"""Admission control and channel pacing, without Discord: deliveries beyond the slots wait, put-off
work runs only once nobody waits, and senders side by side never pass a channel's limit."""
from __future__ import annotations

import asyncio

from bot.services.pacing import ChannelPacer
from cogs.admission import Admission


async def test_put_off_work_waits_until_no_delivery_waits_for_a_slot() -> None:
    admission = Admission(1)
    done: list[str] = []
    inside, leave = asyncio.Event(), asyncio.Event()

    async def delivery(name: str) -> None:
        async with admission.slot():
            done.append(name)
            inside.set()
            await leave.wait()

    first = asyncio.create_task(delivery("first"))
    await inside.wait()
    second = asyncio.create_task(delivery("second"))
    while not admission.pressed:  # the second delivery is queued for the one slot
        await asyncio.sleep(0)

    async def fold() -> None:
        done.append("fold")

    admission.later("a summary", fold)
    for _ in range(20):
        await asyncio.sleep(0)
    assert done == ["first"]  # neither the waiting delivery nor the put-off work ran
    leave.set()
    await asyncio.gather(first, second)
    for _ in range(20):
        await asyncio.sleep(0)
    assert done == ["first", "second", "fold"]
    await admission.close()


async def test_beyond_the_bound_the_oldest_put_off_work_is_dropped() -> None:
    admission = Admission(1, later_kept=2)
    ran: list[int] = []
    leave = asyncio.Event()

    async def delivery() -> None:
        async with admission.slot():
            await leave.wait()

    busy = [asyncio.create_task(delivery()) for _ in range(2)]  # one delivers, one waits
    while not admission.pressed:
        await asyncio.sleep(0)
    for n in range(4):
        async def work(n: int = n) -> None:
            ran.append(n)
        admission.later(f"work {n}", work)
    assert admission.dropped == 2
    leave.set()
    await asyncio.gather(*busy)
    for _ in range(20):
        await asyncio.sleep(0)
    assert ran == [2, 3]
    await admission.close()


async def test_senders_side_by_side_never_pass_the_channel_limit() -> None:
    pacer = ChannelPacer(limit=2, window=0.2)
    holds = sorted(await asyncio.gather(*(pacer.hold("table") for _ in range(3))))
    assert holds[1] - holds[0] < 0.2 <= holds[2] - holds[0]  # the third waited for the window
