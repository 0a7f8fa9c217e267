"""One bot process per database: a lease row with a heartbeat.

Two processes answering the same interactions collide on every one ("already acknowledged",
tracebacks). At start the process claims the lease of its scope (``BOT``, the whole bot; a shard
range gets its own scope once processes split Discord's shards); while another holder's lease is
current the start is refused with a message naming it. The holder renews the lease every
``HEARTBEAT`` seconds; a holder that died stops renewing and its lease runs out after ``TTL``
seconds, after which the next start takes over. A holder on this same host whose process no longer
exists is known dead at once, so a restart after a crash does not wait for the timeout.
"""
from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from bot.storage import leases as repo
from bot.storage.db import Database
from bot.storage.health import StorageProblem
from bot.storage.leases import Lease

log = logging.getLogger(__name__)

BOT = "bot"
TTL = 60.0
HEARTBEAT = 15.0


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def _process_gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, owned by someone else
        return False
    return False


class InstanceLease:
    def __init__(self, db: Database, *, scope: str = BOT, clock: Callable[[], datetime] | None = None,
                 host: str | None = None, pid: int | None = None, ttl: float = TTL) -> None:
        self.db = db
        self.scope = scope
        self.clock = clock or (lambda: datetime.now(UTC))
        self.host = host or socket.gethostname()
        self.pid = os.getpid() if pid is None else pid
        self.owner = uuid.uuid4().hex[:12]
        self.ttl = timedelta(seconds=ttl)

    def describe(self, lease: Lease) -> str:
        return f"{lease.host} pid {lease.pid}, id {lease.owner}, since {lease.started_at}"

    async def acquire(self) -> None:
        """Become the scope's holder, or raise StorageProblem("storage.instance_running")."""
        now = self.clock()
        async with self.db.transaction() as conn:
            current = await repo.holder(conn, self.scope)
            if current is not None and current.owner != self.owner and not self._expired(current, now):
                raise StorageProblem("storage.instance_running", self.db.path, holder=self.describe(current),
                                     expires=current.expires_at)
            if current is not None and current.owner != self.owner:
                log.warning("taking over from %s (lease ran out at %s)", self.describe(current), current.expires_at)
            await repo.take(conn, Lease(self.scope, self.owner, self.host, self.pid, _stamp(now),
                                        _stamp(now + self.ttl)))

    def _expired(self, lease: Lease, now: datetime) -> bool:
        if datetime.fromisoformat(lease.expires_at) <= now:
            return True
        return lease.host == self.host and lease.pid != self.pid and _process_gone(lease.pid)

    async def renew(self) -> bool:
        """One heartbeat; False when the lease was lost (another process took over)."""
        async with self.db.transaction() as conn:
            return await repo.renew(conn, self.scope, self.owner, _stamp(self.clock() + self.ttl))

    async def release(self) -> None:
        async with self.db.transaction() as conn:
            await repo.release(conn, self.scope, self.owner)

    async def heartbeat(self, on_lost: Callable[[], object], every: float = HEARTBEAT) -> None:
        """Renew until cancelled; when the lease is lost, call ``on_lost`` (stop serving) and end."""
        while True:
            await asyncio.sleep(every)
            try:
                kept = await self.renew()
            except Exception:  # noqa: BLE001 - a busy or failing database: try again next beat
                log.exception("could not renew the instance lease")
                continue
            if not kept:
                log.error("the instance lease of %r was taken over by another process; stopping", self.scope)
                result = on_lost()
                if asyncio.iscoroutine(result):
                    await result
                return
