"""Where board and hand images are drawn: worker processes, so that rendering uses every core
(threads share one core's worth under the GIL), or worker threads (``processes=0``: the tests,
and a machine with one core).

The renderer modules are imported in the workers; an observation goes there pickled and a PNG
comes back. The process pool starts with the bot (``start``) and shuts down with it (``close``).
"""
from __future__ import annotations

import asyncio
import ctypes
import importlib
import multiprocessing
import os
import signal
import sys
from collections import OrderedDict
from collections.abc import Hashable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from functools import partial
from typing import Any

PR_SET_PDEATHSIG = 1
NICENESS = 10  # drawing yields the cores to the bot's event loop (first responses, moves)


def _bind_to_parent(niceness: int = NICENESS) -> None:
    """A worker ends with the bot, even when the bot is killed (SIGKILL leaves no chance to shut the
    pool down): Linux sends the worker SIGTERM when its parent dies. It draws at a lower CPU
    priority (``niceness``): when the cores are busy, acknowledging and applying moves go first
    and a board waits (the announcer then coalesces its moves)."""
    if niceness:
        try:
            os.nice(niceness)
        except OSError:
            pass
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        except (OSError, AttributeError):
            pass
    if os.getppid() == 1:  # the parent died before we got here
        os._exit(0)


def _words(game: str, view: str, obs: dict[str, Any], names: Any, locale: str, news: str) -> str:
    """The picture in words (its alt text, rendering/alt.py), as Discord keeps it."""
    from rendering.alt import LIMIT, describe  # the renderers' own modules: loaded in the worker
    return describe(game, view, obs, names=names, locale=locale, news=news)[:LIMIT]


def _draw(module: str, function: str, args: tuple[Any, ...], kwargs: dict[str, Any],
          described: tuple[Any, ...] | None = None) -> Any:
    picture = getattr(importlib.import_module(module), function)(*args, **kwargs)
    return picture if described is None else (picture, _words(*described))


def _warm(modules: tuple[str, ...]) -> int:
    """Import the renderers (fonts, static layers) in a worker before the first real render."""
    for module in modules:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError:  # a game without images of its own
            pass
    return os.getpid()


class Renders:
    MEMO_SIZE = 2048  # pictures kept for ``memo`` keys (a hand is about 12 KB)

    def __init__(self, processes: int = 0, threads: int = 4) -> None:
        self.processes = processes
        self._memo: OrderedDict[Hashable, Any] = OrderedDict()
        self.memo_hits = 0
        self._executor: Executor
        if processes > 0:
            # spawn: a fresh interpreter, nothing inherited from the bot's threads or sockets
            self._executor = ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=_bind_to_parent)
        else:
            self._executor = ThreadPoolExecutor(threads, thread_name_prefix="render")

    async def start(self, modules: tuple[str, ...] = ()) -> list[int]:
        """Start every worker and import ``modules`` there (process ids; empty for threads)."""
        if self.processes <= 0:
            return []
        loop = asyncio.get_running_loop()
        pids = await asyncio.gather(*(loop.run_in_executor(self._executor, _warm, modules)
                                      for _ in range(self.processes)))
        return sorted(set(pids))

    async def draw(self, module: str, function: str, *args: Any, memo: Hashable | None = None,
                   described: tuple[Any, ...] | None = None, **kwargs: Any) -> Any:
        """``function(*args, **kwargs)`` of ``module``, drawn by a worker. ``memo``: a key that
        stands for everything the picture depends on; a picture drawn under the same key lately is
        handed out again undrawn (a hand that did not change while the turn came to its player).

        ``described``: the arguments of the picture's alt text (game, view, observation, names,
        locale, news); the worker writes it too, off the event loop, and ``(picture, words)`` comes
        back. A remembered picture's words are written here, for the observation of this call."""
        if memo is not None and memo in self._memo:
            self._memo.move_to_end(memo)
            self.memo_hits += 1
            kept = self._memo[memo]
            return kept if described is None else (kept, _words(*described))
        loop = asyncio.get_running_loop()
        drawn = await loop.run_in_executor(self._executor, partial(_draw, module, function, args, kwargs, described))
        if memo is not None:
            self._remember(memo, drawn if described is None else drawn[0])
        return drawn

    def _remember(self, memo: Hashable, picture: Any) -> None:
        self._memo[memo] = picture
        while len(self._memo) > self.MEMO_SIZE:
            self._memo.popitem(last=False)

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)


_renders: Renders | None = None


def use(renders: Renders | None) -> Renders | None:
    """Install the renders every cog draws with (None: worker threads); returns the previous one."""
    global _renders
    previous, _renders = _renders, renders
    return previous


def current() -> Renders:
    global _renders
    if _renders is None:
        _renders = Renders(0)
    return _renders
