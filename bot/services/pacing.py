"""Per-channel pacing: at most ``limit`` messages (posts and edits) per ``window`` seconds in one
channel, as Discord allows (about 5 per 5 s). A table whose moves come faster than that waits
here, and the announcer coalesces the waiting moves into one edit."""
from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable


class ChannelPacer:
    def __init__(self, limit: int = 5, window: float = 5.0, clock: Callable[[], float] = time.monotonic, *,
                 cautious_start: bool = False) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._sent: dict[str, deque[float]] = {}
        # a process that just started does not know what the one before it (crashed or restarted a
        # moment ago) sent in each channel: with ``cautious_start`` every channel counts as full
        # until one window after the start, so a restart never bursts into Discord's 429s (#27.7)
        self._unknown_until: float | None = self.clock() + window if cautious_start else None

    def _recent(self, channel_id: str) -> deque[float]:
        sent = self._sent.get(channel_id)
        now = self.clock()
        if sent is None:
            sent = self._sent[channel_id] = deque()
            if self._unknown_until is not None:
                if now < self._unknown_until:
                    sent.extend([self._unknown_until - self.window] * self.limit)
                else:
                    self._unknown_until = None  # one window after the start: all is known
        while sent and now - sent[0] >= self.window:
            sent.popleft()
        return sent

    def wait_time(self, channel_id: str) -> float:
        """Seconds until the channel may take another message (0: now)."""
        sent = self._recent(channel_id)
        if len(sent) < self.limit:
            return 0.0
        return max(0.0, sent[0] + self.window - self.clock())

    async def ready(self, channel_id: str) -> None:
        while (delay := self.wait_time(channel_id)) > 0:
            await asyncio.sleep(delay)

    async def hold(self, channel_id: str) -> float:
        """Wait for room and take it at once, so that senders running side by side (a delivery
        and a put-off summary) never pass the limit together; ``sent`` then dates it."""
        await self.ready(channel_id)  # no await between finding room and taking it
        held = self.clock()
        self._recent(channel_id).append(held)
        return held

    def sent(self, channel_id: str, held: float | None = None) -> None:
        """Count a message once Discord answered it (later than Discord saw it: a safe margin),
        in place of the room ``hold`` took for it."""
        recent = self._recent(channel_id)
        if held is not None and held in recent:
            recent.remove(held)
        recent.append(self.clock())
        if len(self._sent) > 10_000:  # forget idle channels
            for key in [k for k, v in self._sent.items() if not v]:
                del self._sent[key]
