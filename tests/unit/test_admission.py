"""Admission control and channel pacing, without Discord: deliveries beyond the slots wait, put-off
work runs only once nobody waits, and senders side by side never pass a channel's limit."""
from __future__ import annotations

import asyncio

from bot.services.admission import Admission
from bot.services.budget import GlobalPacer, while_waiting
from bot.services.pacing import ChannelPacer


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
    await asyncio.wait_for(_until_pressed(admission), 5)  # the second delivery is queued for the one slot

    folded = asyncio.Event()

    async def fold() -> None:
        done.append("fold")
        folded.set()

    admission.later("a summary", fold)
    for _ in range(20):  # every task that is ready runs meanwhile (a yield, not a wait for time)
        await asyncio.sleep(0)
    assert done == ["first"]  # neither the waiting delivery nor the put-off work ran
    leave.set()
    await asyncio.gather(first, second)
    await asyncio.wait_for(folded.wait(), timeout=5)
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
    await asyncio.wait_for(_until_pressed(admission), 5)
    last_ran = asyncio.Event()
    for n in range(4):
        async def work(n: int = n) -> None:
            ran.append(n)
            if n == 3:
                last_ran.set()
        admission.later(f"work {n}", work)
    assert admission.dropped == 2
    leave.set()
    await asyncio.gather(*busy)
    await asyncio.wait_for(last_ran.wait(), timeout=5)  # the put-off work runs oldest first
    assert ran == [2, 3]
    await admission.close()


async def test_a_full_channel_makes_the_next_sender_wait_for_the_window() -> None:
    now = [100.0]
    pacer = ChannelPacer(limit=2, window=5.0, clock=lambda: now[0])
    assert [await pacer.hold("table"), await pacer.hold("table")] == [100.0, 100.0]  # room for two at once
    assert pacer.wait_time("table") == 5.0 and pacer.wait_time("other") == 0.0  # per channel
    now[0] += 3.0
    assert pacer.wait_time("table") == 2.0
    now[0] += 2.0
    assert pacer.wait_time("table") == 0.0 and await pacer.hold("table") == 105.0


async def test_senders_side_by_side_never_pass_the_channel_limit() -> None:
    pacer = ChannelPacer(limit=2, window=0.2)
    holds = sorted(await asyncio.gather(*(pacer.hold("table") for _ in range(3))))
    assert holds[2] - holds[0] >= 0.2  # the third waited for the window (on the pacer's own clock)


async def _until_pressed(admission: Admission) -> None:
    """Let the queued tasks run until one waits for a slot (bounded by the caller's timeout)."""
    while not admission.pressed:
        await asyncio.sleep(0)


async def test_a_delivery_waiting_for_the_global_budget_gives_its_slot_to_the_next() -> None:
    """A delivery whose counted call (a DM) waits for room in Discord's global budget does nothing
    meanwhile: it gives its slot back, so the next table's delivery (its board rides an
    interaction, counted against no budget) goes out at once instead of queueing behind it."""
    admission = Admission(1)
    pacer = GlobalPacer(limit=1, window=0.05)
    pacer.sent(await pacer.acquire())  # the window is full: the next counted call waits
    order: list[str] = []

    async def with_dms() -> None:
        async with admission.slot() as held:
            with while_waiting(held.spare):
                order.append("board 1")
                stamp = await pacer.acquire()  # its player's DM waits for the budget
                order.append("dm 1")
                pacer.sent(stamp)

    async def riding() -> None:
        async with admission.slot():
            order.append("board 2")

    first = asyncio.create_task(with_dms())
    await asyncio.wait_for(_until_waiting(pacer), 5)
    await asyncio.wait_for(riding(), 5)
    await asyncio.wait_for(first, 5)
    assert order == ["board 1", "board 2", "dm 1"]  # the second board did not wait for the first DM
    assert not admission._free.locked() and admission._free._value == 1  # given back once, not twice
    await admission.close()


async def _until_waiting(pacer: GlobalPacer) -> None:
    while not pacer.waiting():
        await asyncio.sleep(0)
