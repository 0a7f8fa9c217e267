"""The pages' pictures: a table's board, a seat's own view and replay frames, drawn by the game's
renderer from an observation (never a state) and kept per (table, version, view, language), so a
thousand viewers of one table cost one drawing per move.

``draw`` is how a picture gets drawn: by default a worker thread; the runner may hand in the bot's
render workers instead.
"""
from __future__ import annotations

import asyncio
import importlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from datetime import UTC, datetime
from typing import Any

from bot.engine import registry
from bot.web import metrics

Draw = Callable[..., Awaitable[bytes | None]]  # draw(module, function, obs, names=…, locale=…)
KEPT = 256  # pictures kept (a board is some 100-300 KB)


async def draw_in_thread(module: str, function: str, obs: dict[str, Any], **kwargs: Any) -> bytes | None:
    def work() -> bytes | None:
        drawn: bytes | None = getattr(importlib.import_module(module), function)(obs, **kwargs)
        return drawn

    return await asyncio.to_thread(work)


def has_renderer(game: str, function: str) -> bool:
    try:
        return getattr(registry.renderer(game), function, None) is not None
    except ImportError:
        return False


class Pictures:
    def __init__(self, draw: Draw | None = None) -> None:
        self.draw = draw or draw_in_thread
        self._kept: OrderedDict[Hashable, bytes | None] = OrderedDict()
        self._drawing: dict[Hashable, asyncio.Future[bytes | None]] = {}

    async def get(self, key: Hashable, game: str, function: str, obs: dict[str, Any], *, view: str,
                  names: list[str], locale: str) -> bytes | None:
        """The picture for ``key``, drawn once however many ask for it at the same time."""
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        pending = self._drawing.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[bytes | None] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            if not has_renderer(game, function):
                data = None
            else:
                # renderers never read a clock: the time they may show comes with the observation
                public = obs.get("public")
                if isinstance(public, dict):
                    obs = {**obs, "public": {**public, "now": datetime.now(UTC).strftime("%Y-%m-%dT%H:%MZ")}}
                with metrics.rendering(view):
                    data = await self.draw(registry.plugin(game).renderer, function, obs, names=names, locale=locale)
            future.set_result(data)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: the callers waiting on it get it raised
            raise
        finally:
            del self._drawing[key]
        self._kept[key] = data
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return data
