"""How long the event loop is held: the CPU time of each synchronous slice the loop runs (one
callback, one step of a task), measured with the loop thread's own CPU clock (``thread_time``), so
a busy machine or another thread's work does not count, and no sleep or wall clock decides."""
from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any


@dataclass
class LoopHold:
    longest: float = 0.0  # seconds of the longest slice
    what: str = ""        # the callback (a task's coroutine) that held it
    slices: int = 0
    by_step: list[tuple[float, str]] = field(default_factory=list)

    def note(self, seconds: float, handle: Any) -> None:
        self.slices += 1
        if seconds > self.longest:
            self.longest, self.what = seconds, describe(handle)

    @property
    def longest_ms(self) -> float:
        return self.longest * 1000


def describe(handle: Any) -> str:
    callback = getattr(handle, "_callback", None)
    task = getattr(callback, "__self__", None)
    if isinstance(task, asyncio.Task):
        coro = task.get_coro()
        code = getattr(coro, "cr_code", None)
        return f"{task.get_name()} {getattr(coro, '__qualname__', coro)} {getattr(code, 'co_filename', '')}"
    return repr(callback)


@contextmanager
def loop_hold() -> Iterator[LoopHold]:
    """Measure every slice the loop runs inside the block (on the calling thread)."""
    hold = LoopHold()
    run = asyncio.events.Handle._run

    def timed(handle: asyncio.events.Handle) -> None:
        start = time.thread_time()
        try:
            run(handle)
        finally:
            hold.note(time.thread_time() - start, handle)

    asyncio.events.Handle._run = timed  # type: ignore[method-assign]
    try:
        yield hold
    finally:
        asyncio.events.Handle._run = run  # type: ignore[method-assign]
