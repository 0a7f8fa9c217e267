"""Admission control for the announcer: a bounded number of deliveries in flight.

Interaction handling (the acknowledgement, the move, the answer) shares one event loop, one
database writer and one connection to Discord with the announcer. Were every table's delivery
to run at once when moves arrive faster than boards can be drawn and posted, each first
response would queue behind hundreds of renders, posts and DMs. So a table's delivery first
takes one of a few slots; tables waiting for a slot lose nothing (the delivery that gets the slot
renders the newest committed state once: the waiting moves are coalesced into it).

A delivery that comes to wait for Discord's global budget (the DMs of a start: each counted call
waits its turn in the global pacer) gives its slot back while it waits (``Held.spare``): it does no
work meanwhile, and the other tables' boards, which ride their interactions and count against no
budget, must not queue behind it.

Cosmetic work (folding a superseded board to its one-line summary) may be put off: it runs
in a low-priority lane, one piece at a time, only while no table is waiting for a slot. Under sustained overload it is
dropped beyond a bound (the old board then keeps its picture; its buttons answer "the game has
moved on").
"""
from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

log = logging.getLogger(__name__)

Work = Callable[[], Awaitable[None]]


class Held:
    """One delivery slot, held until the delivery ends or ``spare`` gives it back early."""

    def __init__(self, free: asyncio.Semaphore) -> None:
        self._free = free
        self.held = True

    def spare(self) -> None:
        """Give the slot back now (at most once); the delivery goes on without one."""
        if self.held:
            self.held = False
            self._free.release()


class Admission:
    def __init__(self, slots: int, *, later_kept: int = 10_000) -> None:
        self.slots = max(1, slots)
        self._free = asyncio.Semaphore(self.slots)
        self._waiting = 0
        self._calm = asyncio.Event()
        self._calm.set()
        self._later: deque[tuple[str, Work]] = deque()
        self._later_kept = later_kept
        self._lane: asyncio.Task[None] | None = None
        self.dropped = 0

    @property
    def pressed(self) -> bool:
        """Deliveries wait for a slot: the announcer is behind and should do only what matters."""
        return self._waiting > 0

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[Held]:
        """Hold one of the delivery slots (waiting, in arrival order, while all are taken) until the
        block ends or the delivery spares it."""
        self._waiting += 1
        self._calm.clear()
        try:
            await self._free.acquire()
        finally:
            self._waiting -= 1
            if not self._waiting:
                self._calm.set()
        held = Held(self._free)
        try:
            yield held
        finally:
            held.spare()

    def later(self, name: str, work: Work) -> None:
        """Run ``work`` when no delivery waits (oldest first); beyond the bound the oldest is dropped."""
        self._later.append((name, work))
        while len(self._later) > self._later_kept:
            dropped, _ = self._later.popleft()
            self.dropped += 1
            log.warning("overloaded: %s dropped", dropped)
        if self._lane is None or self._lane.done():
            self._lane = asyncio.get_running_loop().create_task(self._run_later(), name="gamemaster-later")

    async def _run_later(self) -> None:
        """One piece at a time, beside the slots (a piece may wait for its channel's pace without
        keeping a delivery out), and only while no delivery waits."""
        while self._later:
            await self._calm.wait()
            name, work = self._later.popleft()
            try:
                await work()
            except Exception:  # noqa: BLE001 - cosmetic work: logged, the rest goes on
                log.warning("%s failed", name, exc_info=True)

    async def close(self) -> None:
        """Drop what was put off (a stopping bot) and end the low-priority lane."""
        self._later.clear()
        if self._lane is not None and not self._lane.done():
            self._lane.cancel()
            await asyncio.gather(self._lane, return_exceptions=True)
