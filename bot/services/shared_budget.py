"""Discord's global limit shared by every process of one bot token on PostgreSQL.

Each process paces its own counted calls (``GlobalPacer``); with several processes of one token
(shards on one database) each call first takes a place in the token's current quarter-second
slot in the database (bot/storage/rate_slots.py). ``slot_quota`` places per slot keep every second
at Discord within the limit together, counting one slot more for the way a call takes to Discord.
"""
from __future__ import annotations

import logging
import math
import time

from bot.services.budget import SLOT_SECONDS, slot_quota, token_key
from bot.storage import rate_slots
from bot.storage.backend import Database

log = logging.getLogger(__name__)

DISCORD_LIMIT = 50  # requests per second per token, every process and shard together
COMPLAINT_SECONDS = 30.0  # a failing database is logged at most this often
# beyond the slot ``slot_quota`` allows for a call's way to Discord, another quarter second: a
# loaded process may take that long from its reservation to the request (7 places per slot)
TRAVEL_SLACK = 0.25


class SharedBudget:
    """A ``Reserver`` for ``GlobalPacer(shared=…)``: 0 when a place was taken for a call now,
    else the seconds until the next slot opens."""

    def __init__(self, db: Database, token: str, *, limit: int = DISCORD_LIMIT, slot: float = SLOT_SECONDS) -> None:
        self.db = db
        self.key = token_key(token)
        self.slot = slot
        self.quota = slot_quota(limit, 1.0 + TRAVEL_SLACK, slot)
        self.reserved = 0  # places taken (for the benchmarks)
        self.refused = 0  # reservations that found the slot full
        self._complained = -math.inf

    async def reserve(self) -> float:
        try:
            async with self.db.single() as conn:
                taken, used, now = await rate_slots.reserve(conn, self.key, self.slot, self.quota)
                if taken and used == 1:  # the slot's first place: whoever takes it sweeps the old ones
                    await rate_slots.forget_old(conn, self.key, int(now // self.slot) - rate_slots.KEEP_SLOTS)
        except Exception:  # noqa: BLE001 - without the database each process still keeps its own pace
            if time.monotonic() - self._complained > COMPLAINT_SECONDS:
                self._complained = time.monotonic()
                log.warning("the shared budget of Discord calls is not reachable; pacing alone", exc_info=True)
            return 0.0
        if taken:
            self.reserved += 1
            return 0.0
        self.refused += 1
        return max(0.002, self.slot - now % self.slot)
