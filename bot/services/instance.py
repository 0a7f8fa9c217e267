"""One bot process per database: a lease row with a heartbeat.

Two processes answering the same interactions collide on every one ("already acknowledged",
tracebacks). At start the process claims the lease of its scope (``BOT``, the whole bot; a process
running a shard range claims one scope per shard, ``shard 3/8``); while another holder's lease is
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


def shard_scopes(shards: tuple[int, ...] | None, shard_count: int | None) -> tuple[str, ...]:
    """The lease scopes of a process: the whole bot, or each of its shards."""
    if shards is None or shard_count is None:
        return (BOT,)
    return tuple(f"shard {shard}/{shard_count}" for shard in shards)


def _shard(scope: str) -> tuple[int, int] | None:
    """(shard, shard count) of a shard scope; None for the whole bot."""
    if not scope.startswith("shard "):
        return None
    shard, count = scope.removeprefix("shard ").split("/")
    return int(shard), int(count)


def _clash(theirs: str, mine: tuple[str, ...]) -> bool:
    """Two processes may run together only on different shards of the same shard count."""
    other = _shard(theirs)
    for scope in mine:
        own = _shard(scope)
        if other is None or own is None or other[1] != own[1] or other[0] == own[0]:
            return True
    return False


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
                 host: str | None = None, pid: int | None = None, ttl: float = TTL,
                 scopes: tuple[str, ...] | None = None) -> None:
        self.db = db
        self.scopes = scopes or (scope,)
        self.scope = ", ".join(self.scopes)
        self.clock = clock or (lambda: datetime.now(UTC))
        self.host = host or socket.gethostname()
        self.pid = os.getpid() if pid is None else pid
        self.owner = uuid.uuid4().hex[:12]
        self.ttl = timedelta(seconds=ttl)

    def describe(self, lease: Lease) -> str:
        return f"{lease.host} pid {lease.pid}, id {lease.owner}, since {lease.started_at}"

    async def acquire(self) -> None:
        """Become the holder of every scope, or raise StorageProblem("storage.instance_running") when
        a live process holds one of them, or runs shards that overlap ours (the whole bot, or the
        same shard, or another shard count)."""
        now = self.clock()
        async with self.db.transaction() as conn:
            for current in await repo.holders(conn):
                if current.owner == self.owner:
                    continue
                if not self._expired(current, now) and _clash(current.scope, self.scopes):
                    raise StorageProblem("storage.instance_running", self.db.path,
                                         holder=f"{current.scope}: {self.describe(current)}",
                                         expires=current.expires_at)
                if current.scope in self.scopes:
                    log.warning("taking over from %s (lease ran out at %s)", self.describe(current),
                                current.expires_at)
            for scope in self.scopes:
                await repo.take(conn, Lease(scope, self.owner, self.host, self.pid, _stamp(now),
                                            _stamp(now + self.ttl)))

    def _expired(self, lease: Lease, now: datetime) -> bool:
        if datetime.fromisoformat(lease.expires_at) <= now:
            return True
        return lease.host == self.host and lease.pid != self.pid and _process_gone(lease.pid)

    async def renew(self) -> bool:
        """One heartbeat; False when the lease was lost (another process took over)."""
        async with self.db.transaction() as conn:
            kept = [await repo.renew(conn, scope, self.owner, _stamp(self.clock() + self.ttl)) for scope in self.scopes]
        return all(kept)

    async def holds(self) -> bool:
        """Whether this process still holds every scope of its lease, unexpired (/healthz)."""
        async with self.db.reading() as conn:
            current = {lease.scope: lease for lease in await repo.holders(conn)}
        now = self.clock()
        return all((lease := current.get(scope)) is not None and lease.owner == self.owner
                   and datetime.fromisoformat(lease.expires_at) > now for scope in self.scopes)

    async def release(self) -> None:
        async with self.db.transaction() as conn:
            for scope in self.scopes:
                await repo.release(conn, scope, self.owner)

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
