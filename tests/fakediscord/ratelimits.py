"""Discord's rate limits as the fake enforces them, and the headers that tell discord.py about them.

Two limits, each answered with 429 and recorded in ``fake.violations``:

- the per-channel message limit (``fake.channel_rate``, 5 posts and edits per 5 s per channel);
- the global limit (``fake.global_rate``, 50 counted requests per second per bot token, across every
  connection and process talking to the fake). Counted is every request but the interaction
  endpoints (the callback, and the follow-ups and edits of the interaction's own messages through
  ``/webhooks/{application_id}/{interaction_token}``), which Discord does not bind to it.

Every 429 carries Discord's headers (``Retry-After``, ``X-RateLimit-Limit/-Remaining/-Reset/
-Reset-After/-Bucket``, ``X-RateLimit-Global`` and ``X-RateLimit-Scope``, and the ``Via`` a
Cloudflare-free answer has), and successful answers carry the bucket headers, so what the tests
exercise is discord.py's own waiting.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict, deque
from typing import Any

from tests.fakediscord.model import DiscordError, Recorded, Violation, _id_of

GLOBAL_CODE = "global rate limit"
CHANNEL_BUCKET = "fake-channel-messages"


class RateLimits:
    """The channel and global limits, their violations and their headers."""

    def _init_ratelimits(self) -> None:
        # Discord's per-channel message limit (posts + edits of channel messages): (count, seconds)
        self.channel_rate: tuple[int, float] = (5, 5.0)
        # Discord's global limit: counted requests per second per bot token
        self.global_rate: tuple[int, float] = (50, 1.0)
        # per channel, the bot's successful posts and edits of its messages in the order they were
        # answered: the channel limit looks only at these (a scan of every request was quadratic)
        self._channel_writes: dict[str, list[Recorded]] = defaultdict(list)
        # per bot token, when the fake received each counted request (the global limit's window)
        self._counted: dict[str, deque[float]] = defaultdict(deque)
        self.counted_requests: list[Recorded] = []

    # ------------------------------------------------------------------ what counts
    def is_counted(self, rec: Recorded) -> bool:
        """Whether Discord's global limit counts this request: a bot-authorised call that is not
        one of the interaction endpoints."""
        route = rec.route
        if route.startswith("/interactions/"):
            return False
        if route.startswith("/webhooks/"):
            parts = route.split("/")
            return not (len(parts) > 3 and parts[3] in self._by_token)  # type: ignore[attr-defined]
        return rec.authorization.startswith("Bot ")

    def global_violations(self) -> list[Violation]:
        return [v for v in self.violations if v.code == GLOBAL_CODE]  # type: ignore[attr-defined]

    def busiest_second(self, window: float | None = None) -> int:
        """The most counted requests the fake received within any ``window`` seconds (default:
        the global limit's window), across every token."""
        span = self.global_rate[1] if window is None else window
        times = sorted(r.at for r in self.counted_requests)
        most, start = 0, 0
        for end, moment in enumerate(times):
            while moment - times[start] >= span:
                start += 1
            most = max(most, end - start + 1)
        return most

    def _check_global(self, rec: Recorded) -> None:
        """Count the request against its token's global budget; past the limit, a global 429."""
        if not self.is_counted(rec):
            return
        limit, span = self.global_rate
        recent = self._counted[rec.authorization]
        while recent and rec.at - recent[0] >= span:
            recent.popleft()
        if len(recent) >= limit:
            retry = max(0.001, recent[0] + span - rec.at)
            raise DiscordError(429, GLOBAL_CODE, "You are being rate limited.",  # type: ignore[arg-type]
                               detail=f"more than {limit} counted requests in {span}s for one token",
                               retry_after=retry, scope="global")
        recent.append(rec.at)
        self.counted_requests.append(rec)

    # ------------------------------------------------------------------ the channel limit
    def channel_writes(self, channel: Any = None) -> list[Recorded]:
        """The bot's successful posts and edits of messages in a (non-DM) channel, oldest first."""
        cid = _id_of(channel) if channel is not None else self.channel_id  # type: ignore[attr-defined]
        return sorted(self._channel_writes.get(cid, ()), key=lambda r: r.at)

    def busiest_window(self, channel: Any = None, window: float | None = None) -> int:
        """The most posts and edits the channel took within any ``window`` seconds."""
        span = self.channel_rate[1] if window is None else window
        times = [r.at for r in self.channel_writes(channel)]
        return max((sum(1 for u in times[i:] if u - t < span) for i, t in enumerate(times)), default=0)

    def _recent_writes(self, cid: str, now: float) -> list[float]:
        span = self.channel_rate[1]
        recent: list[float] = []
        for r in reversed(self._channel_writes.get(cid, ())):
            if now - r.at < span:
                recent.append(r.at)
            elif now - r.at > span + 1.0:  # answered in about the order received: none older is recent
                break
        return sorted(recent)

    def _check_rate(self, rec: Recorded, cid: str) -> None:
        ch = self.channels.get(cid)  # type: ignore[attr-defined]
        if ch is None or ch["type"] == 1:
            return
        limit, span = self.channel_rate
        recent = self._recent_writes(cid, rec.at)
        if len(recent) >= limit:
            raise DiscordError(429, 20028, "You are being rate limited (channel message limit).",
                               detail=f"more than {limit} messages in {span}s in channel {cid}",
                               retry_after=max(0.001, recent[0] + span - rec.at), scope="user")

    def _note_write(self, rec: Recorded, status: int, method: str) -> None:
        route = rec.route
        if status == 200 and method in ("POST", "PATCH") and route.startswith("/channels/"):
            cid, _, rest = route[len("/channels/"):].partition("/")
            if rest == "messages" or rest.startswith("messages/"):
                self._channel_writes[cid].append(rec)

    # ------------------------------------------------------------------ headers
    def ratelimit_headers(self, rec: Recorded, status: int, error: DiscordError | None = None) -> dict[str, str]:
        """The rate-limit headers Discord sends with an answer: the bucket's on every answer, and
        with a 429 also ``Retry-After``, the scope and (for the global limit) ``X-RateLimit-Global``."""
        now = time.monotonic()
        if error is not None and error.scope == "global":
            limit, span = self.global_rate
            bucket, remaining, reset_after = "fake-global", 0, error.retry_after
        else:
            limit, span, bucket, remaining, reset_after = self._bucket_of(rec, now)
            if error is not None and error.retry_after is not None:
                remaining, reset_after = 0, error.retry_after
        headers = {"X-RateLimit-Limit": str(limit), "X-RateLimit-Remaining": str(max(0, remaining)),
                   "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                   "X-RateLimit-Reset-After": f"{reset_after:.3f}", "X-RateLimit-Bucket": bucket}
        if status == 429:
            headers.update({"Via": "1.1 google", "Retry-After": str(max(1, math.ceil(reset_after))),
                            "X-RateLimit-Scope": error.scope if error is not None else "user"})
            if error is not None and error.scope == "global":
                headers["X-RateLimit-Global"] = "true"
        return headers

    def _bucket_of(self, rec: Recorded, now: float) -> tuple[int, float, str, int, float]:
        """(limit, window, bucket, remaining, reset after) of the request's route: a channel's
        messages share the channel's message limit; any other route a roomy bucket of its own."""
        route = rec.route
        if route.startswith("/channels/") and rec.method in ("POST", "PATCH"):
            cid, _, rest = route[len("/channels/"):].partition("/")
            ch = self.channels.get(cid)  # type: ignore[attr-defined]
            if (rest == "messages" or rest.startswith("messages/")) and ch is not None and ch["type"] != 1:
                limit, span = self.channel_rate
                recent = self._recent_writes(cid, now)
                reset = recent[0] + span - now if recent else span
                return limit, span, CHANNEL_BUCKET, limit - len(recent), max(0.0, reset)
        template = "/".join("{id}" if part.isdigit() else part for part in route.split("/")[:3])
        return 50, 1.0, f"fake-{rec.method}-{template}".replace("/", "-"), 49, 1.0
