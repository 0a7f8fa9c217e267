"""Budgets for expensive work, per user and per server: token buckets (#27 point 2).

Opening a replay viewer or stepping it (each replays the log from the seed), an export, a history
page, the stats, a table with computer players or in a thread of its own: each costs tokens from
the user's bucket and from their server's. A bucket holds ``capacity`` tokens and refills
``per_second``; work that would take more than is left is refused with how long until it fits
("try again in N s"), and nothing is taken then. In memory, per process: a server's interactions
reach the process of its shard, and a restart forgives."""
from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from bot.errors import GameMasterError


class OverBudget(GameMasterError):
    """Too much expensive work at once: ``seconds`` until it fits."""

    key = "budget.wait"


@dataclass(frozen=True)
class Rate:
    capacity: float
    per_second: float


# what each kind of work costs (tokens)
COSTS = {"replay": 1.0, "history": 1.0, "stats": 2.0, "export": 3.0, "computers": 3.0, "thread": 5.0}
USER = Rate(capacity=12.0, per_second=0.25)    # a burst of twelve presses, then one every 4 s
SERVER = Rate(capacity=60.0, per_second=2.0)   # a whole server: sixty at once, two a second after
REMEMBERED = 50_000  # buckets kept (least recently used dropped: a full bucket is the same as none)


class Budgets:
    def __init__(self, *, user: Rate = USER, server: Rate = SERVER,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rates = {"user": user, "server": server}
        self.clock = clock
        self._level: OrderedDict[tuple[str, str], tuple[float, float]] = OrderedDict()  # key -> (tokens, at)

    def _tokens(self, key: tuple[str, str], now: float) -> float:
        rate = self.rates[key[0]]
        tokens, at = self._level.get(key, (rate.capacity, now))
        return min(rate.capacity, tokens + (now - at) * rate.per_second)

    def spend(self, kind: str, user_id: str, guild_id: str | None) -> None:
        """Take the cost of ``kind`` from the user's and the server's bucket, or raise OverBudget
        (taking nothing) with the seconds until both hold enough."""
        cost = COSTS[kind]
        now = self.clock()
        keys = [("user", str(user_id))] + ([("server", str(guild_id))] if guild_id else [])
        levels = {key: self._tokens(key, now) for key in keys}
        wait = max((cost - level) / self.rates[key[0]].per_second for key, level in levels.items())
        if wait > 0:
            raise OverBudget(seconds=max(1, math.ceil(wait)))
        for key, level in levels.items():
            self._level[key] = (level - cost, now)
            self._level.move_to_end(key)
        while len(self._level) > REMEMBERED:
            self._level.popitem(last=False)
