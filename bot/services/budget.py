"""Discord's global rate limit: one pacer per bot token for the REST calls it counts.

Discord allows a bot 50 requests per second in all, across every shard and process of its token;
the interaction endpoints (the callback, follow-ups, edits of the interaction's own messages) do
not count. Every counted call waits here for room, served by priority: pings and boards first,
DMs next, folds of superseded boards last (the announcer drops a fold to its low-priority lane
when the pacer is short). A call's room is taken when it starts and dated again when Discord
answered it, so however the calls travel, Discord never sees more than ``limit`` within any
``window`` seconds from this process.

Several processes of one token (shards on PostgreSQL) also share a budget in the database
(bot/services/shared_budget.py, ``SharedBudget``): each counted call also takes a place in the
token's current time slot there.
"""
from __future__ import annotations

import asyncio
import contextvars
import hashlib
import heapq
import itertools
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

BOARD = 0  # boards and the pings on them
DM = 1  # direct messages, and any call nobody named a lane for
FOLD = 2  # a superseded board folded to its summary: cosmetic

_lane: contextvars.ContextVar[int] = contextvars.ContextVar("gamemaster_budget_lane", default=DM)
# what a caller gives up while one of its counted calls waits for room (the announcer's delivery slot)
_on_wait: contextvars.ContextVar[Callable[[], None] | None] = contextvars.ContextVar(
    "gamemaster_budget_on_wait", default=None)


@contextmanager
def lane(priority: int) -> Iterator[None]:
    """Counted calls made inside wait in this lane (``BOARD``, ``DM`` or ``FOLD``)."""
    token = _lane.set(priority)
    try:
        yield
    finally:
        _lane.reset(token)


def current_lane() -> int:
    return _lane.get()


@contextmanager
def while_waiting(callback: Callable[[], None]) -> Iterator[None]:
    """A counted call made inside that must wait for room first calls ``callback`` (the
    announcer's delivery gives its slot back: a delivery that only waits for the global budget, its
    players' DMs, must not keep other tables' boards, which ride their interactions, from going out)."""
    token = _on_wait.set(callback)
    try:
        yield
    finally:
        _on_wait.reset(token)


class Reserver(Protocol):
    async def reserve(self) -> float:
        """0 when a place in the shared budget was taken for a call now, else seconds to wait."""


class GlobalPacer:
    """At most ``limit`` counted calls in any ``window`` seconds, the waiting ones by priority."""

    def __init__(self, limit: int = 45, window: float = 1.0, *, clock: Callable[[], float] = time.monotonic,
                 shared: Reserver | None = None) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.shared = shared
        self._held: deque[float] = deque()  # when each call in the window took (or answered in) its room
        self._waiting: list[tuple[int, int, asyncio.Future[float]]] = []
        self._order = itertools.count()
        self._task: asyncio.Task[None] | None = None
        self.waited = 0  # calls that found no room at once (for the benchmarks)

    def _expire(self) -> None:
        now = self.clock()
        while self._held and now - self._held[0] >= self.window:
            self._held.popleft()

    def delay(self) -> float:
        """Seconds until this process may make another counted call (0: now)."""
        self._expire()
        if len(self._held) < self.limit:
            return 0.0
        return max(0.001, self._held[0] + self.window - self.clock())

    @property
    def pressed(self) -> bool:
        """Short of room: calls are waiting, or most of the window is spent."""
        self._expire()
        return bool(self._waiting) or len(self._held) >= self.limit * 0.8

    def waiting(self, priority: int | None = None) -> int:
        return sum(1 for p, _, f in self._waiting if not f.done() and (priority is None or p == priority))

    async def acquire(self, priority: int | None = None) -> float:
        """Wait for room (in ``priority``'s lane, default the caller's) and take it; returns the
        room's stamp for ``sent``."""
        priority = current_lane() if priority is None else priority
        if not self._waiting and self.delay() == 0:
            stamp = self._take()  # held while the shared budget answers: no other call takes it meanwhile
            if self.shared is None or await self.shared.reserve() == 0:
                return stamp
            self._give_back(stamp)
        self.waited += 1
        callback = _on_wait.get()
        if callback is not None:
            callback()
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), future))
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._serve(), name="gamemaster-global-pacer")
        return await future

    def _give_back(self, stamp: float) -> None:
        try:
            self._held.remove(stamp)
        except ValueError:
            pass

    def _take(self) -> float:
        stamp = self.clock()
        self._held.append(stamp)
        return stamp

    async def _serve(self) -> None:
        while self._waiting:
            if self._waiting[0][2].done():  # its caller gave up (cancelled)
                heapq.heappop(self._waiting)
                continue
            wait = self.delay()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            stamp = self._take()
            wait = 0.0 if self.shared is None else await self.shared.reserve()
            if wait > 0:
                self._give_back(stamp)
                await asyncio.sleep(wait)
                continue
            while self._waiting and self._waiting[0][2].done():
                heapq.heappop(self._waiting)
            if not self._waiting:  # every caller gave up meanwhile: the place goes unused
                self._give_back(stamp)
                return
            _, _, future = heapq.heappop(self._waiting)
            future.set_result(stamp)

    def sent(self, stamp: float) -> None:
        """The call Discord answered: its room counts from now (later than Discord saw it)."""
        self._give_back(stamp)
        self._held.append(self.clock())


SLOT_SECONDS = 0.25


def token_key(token: str) -> str:
    """How the shared budget names a token: a digest, never the token itself."""
    return hashlib.sha256(token.encode()).hexdigest()[:16]


def slot_quota(limit: int, window: float = 1.0, slot: float = SLOT_SECONDS) -> int:
    """Places per slot so that any ``window`` seconds, which touch at most window/slot + 1 slots
    (one more for the time a call takes to reach Discord), hold at most ``limit`` calls."""
    return max(1, int(limit // (window / slot + 2)))
