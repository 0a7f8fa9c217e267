"""Garbage collection for a long-running bot: short collector pauses on the event loop.

Measured at 1,000 tables and 150–200 moves/s (`python -m bench.bench_load`, notes in docs/benchmarks.md "Under
load"): CPython's full (generation 2) collections held the event loop for 90–310 ms several times
a minute, and every interaction that arrived meanwhile waited for its first response — the largest
share of ack p99. Two causes:

- a full collection walks every tracked object, and most of them are the start-up heap (modules,
  discord.py's caches of guilds, channels and members, the services' caches);
- every interaction leaves reference cycles behind (discord.py's Interaction and its response, a
  View and its items), which outlive the default young generation (700 allocations) and so pile up
  in the old generation until a full collection frees thousands of them at once.

So, once the bot is ready, the objects alive are collected once and frozen (`gc.freeze()`: moved
to a generation the collector never walks), and the young generation is made large enough that
an interaction's cycles die in it (collected in small, frequent passes instead of a full one).
Frozen objects are still freed by reference counting; only a cycle among them that dies later is
never reclaimed, so the heap is frozen once per process, after a collection, not on every ready.
"""
from __future__ import annotations

import asyncio
import gc
import logging
from typing import Protocol

log = logging.getLogger(__name__)

# allocations between young collections (CPython's default 700); then after how many young
# collections the middle generation is collected, and the old one (CPython's defaults 10 and 10)
THRESHOLDS = (20_000, 20, 10)


class Readies(Protocol):
    async def wait_until_ready(self) -> None: ...


_settled = False


def settle_heap() -> int:
    """Collect, freeze every object alive and widen the young generation (once per process);
    returns the number of objects frozen."""
    global _settled
    if not _settled:
        gc.collect()
        gc.freeze()
        gc.set_threshold(*THRESHOLDS)
        _settled = True
    return gc.get_freeze_count()


async def settle_when_ready(bot: Readies) -> int:
    """``settle_heap`` once the bot is ready (its caches of Discord filled)."""
    await bot.wait_until_ready()
    await asyncio.sleep(0)  # the handlers the READY itself scheduled run first
    frozen = settle_heap()
    log.info("start-up heap frozen: %d objects the garbage collector no longer walks", frozen)
    return frozen
