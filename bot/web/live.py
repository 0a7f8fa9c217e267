"""Live pages: every open table page waits on a queue here, and a table's commit wakes it.

The database tells the hub when a table commits (``Database.listen``: NOTIFY on PostgreSQL, the
writer's own commit on SQLite), never a viewer polling it. The hub then builds what changed once
per (seat, language) that someone watches — not once per viewer — and hands the same bytes to
every viewer of it. A viewer slower than the table keeps only the newest state (a queue of one).
"""
from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.web import metrics

log = logging.getLogger(__name__)

Key = tuple[int, int | None, str]  # (game id, seat or None for the public page, language)
Build = Callable[[int, int | None, str], Awaitable[dict[str, Any] | None]]


@dataclass(eq=False)
class Viewer:
    key: Key
    queue: asyncio.Queue[bytes] = field(default_factory=lambda: asyncio.Queue(maxsize=1))

    def offer(self, message: bytes) -> None:
        if self.queue.full():  # only the newest state matters
            self.queue.get_nowait()
        self.queue.put_nowait(message)


def event(data: dict[str, Any]) -> bytes:
    """One server-sent event carrying ``data`` as JSON."""
    return f"event: table\ndata: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n".encode()


class Live:
    def __init__(self, build: Build) -> None:
        self.build = build
        self._viewers: dict[int, set[Viewer]] = {}
        self._running: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()

    def watch(self, game_id: int, seat: int | None, locale: str) -> Viewer:
        viewer = Viewer((game_id, seat, locale))
        self._viewers.setdefault(game_id, set()).add(viewer)
        metrics.VIEWERS.inc()
        return viewer

    def leave(self, viewer: Viewer) -> None:
        viewers = self._viewers.get(viewer.key[0])
        if viewers is not None and viewer in viewers:
            viewers.discard(viewer)
            metrics.VIEWERS.dec()
            if not viewers:
                del self._viewers[viewer.key[0]]

    def watched(self, game_id: int) -> int:
        return len(self._viewers.get(game_id, ()))

    def committed(self, payload: str) -> None:
        """The database's notification: game ``payload`` committed a change."""
        metrics.MOVES.inc()
        try:
            game_id = int(payload)
        except ValueError:
            return
        if game_id not in self._viewers:
            return
        task = self._running.get(game_id)
        if task is not None and not task.done():
            self._again.add(game_id)  # the running refresh looks once more when done
            return
        self._running[game_id] = asyncio.get_running_loop().create_task(self._refresh(game_id),
                                                                        name=f"gamemaster-web-{game_id}")

    async def _refresh(self, game_id: int) -> None:
        try:
            while True:
                self._again.discard(game_id)
                keys = {viewer.key for viewer in self._viewers.get(game_id, ())}
                for key in keys:
                    data = await self.build(*key)
                    if data is None:
                        continue
                    message = event(data)
                    for viewer in list(self._viewers.get(game_id, ())):
                        if viewer.key == key:
                            viewer.offer(message)
                if game_id not in self._again:
                    return
        except Exception:  # noqa: BLE001 - the pages catch up on the next commit
            log.exception("could not refresh the web viewers of game %s", game_id)
        finally:
            if self._running.get(game_id) is asyncio.current_task():
                del self._running[game_id]

    async def close(self) -> None:
        tasks = [task for task in self._running.values() if not task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
