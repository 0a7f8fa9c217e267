"""The bot's heap once it is ready: the objects alive then are frozen (full collections no longer
walk them) and the young generation is wide enough for an interaction's reference cycles to die
in it; this happens once the bot is ready, not before, and once per process."""
from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import pytest

from bot import heap


@pytest.fixture
def fresh_gc() -> Iterator[None]:
    """Each test starts unsettled and leaves the process's collector as it found it."""
    thresholds, settled = gc.get_threshold(), heap._settled
    gc.unfreeze()
    heap._settled = False
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        heap._settled = settled


class Bot:
    def __init__(self) -> None:
        self.ready = asyncio.Event()

    async def wait_until_ready(self) -> None:
        await self.ready.wait()


async def test_the_heap_is_frozen_and_the_young_generation_widened_once_the_bot_is_ready(fresh_gc: None) -> None:
    bot = Bot()
    kept = [[n] for n in range(1000)]  # long-lived objects made at start-up (lists: the collector tracks them)
    assert gc.is_tracked(kept[0]) and any(o is kept[0] for o in gc.get_objects())
    settling = asyncio.create_task(heap.settle_when_ready(bot))
    for _ in range(5):
        await asyncio.sleep(0)
    assert not settling.done() and gc.get_freeze_count() == 0  # not before the bot is ready
    assert gc.get_threshold() != heap.THRESHOLDS

    bot.ready.set()
    frozen = await settling
    assert frozen >= len(kept) and gc.get_freeze_count() >= len(kept)
    assert not any(o is kept[0] for o in gc.get_objects())  # no longer walked by any collection
    assert gc.get_threshold() == heap.THRESHOLDS


def test_the_heap_is_settled_once_per_process(fresh_gc: None) -> None:
    first = heap.settle_heap()
    later = [[n] for n in range(100)]  # made after start-up: the collector keeps walking them
    assert heap.settle_heap() == first
    assert any(o is later[0] for o in gc.get_objects())
