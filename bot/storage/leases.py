"""Repository for instance leases: who serves a scope (the bot, or one shard range) until when."""
from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.storage.backend import POSTGRES, dialect


@dataclass(frozen=True)
class Lease:
    scope: str
    owner: str
    host: str
    pid: int
    started_at: str
    expires_at: str


async def holder(conn: aiosqlite.Connection, scope: str) -> Lease | None:
    """The scope's lease; on PostgreSQL the scope stays locked until the transaction ends, so two
    processes starting together cannot both see it free (SQLite's single writer does that)."""
    if dialect(conn) == POSTGRES:
        await conn.execute("SELECT pg_advisory_xact_lock(hashtext(?))", (f"lease:{scope}",))
    async with conn.execute("SELECT scope, owner, host, pid, started_at, expires_at FROM instance_leases "
                            "WHERE scope = ?", (scope,)) as cur:
        row = await cur.fetchone()
    return Lease(row[0], row[1], row[2], int(row[3]), row[4], row[5]) if row else None


async def holders(conn: aiosqlite.Connection) -> list[Lease]:
    """Every lease (of any scope, live or run out); on PostgreSQL the lease table stays locked
    until the transaction ends, so two processes starting together take turns."""
    if dialect(conn) == POSTGRES:
        await conn.execute("SELECT pg_advisory_xact_lock(hashtext('instance_leases'))")
    async with conn.execute("SELECT scope, owner, host, pid, started_at, expires_at FROM instance_leases "
                            "ORDER BY scope") as cur:
        return [Lease(r[0], r[1], r[2], int(r[3]), r[4], r[5]) for r in await cur.fetchall()]


async def take(conn: aiosqlite.Connection, lease: Lease) -> None:
    """Write ``lease`` as the scope's holder (the caller checked, in the same transaction, that the
    previous holder's lease expired or is its own)."""
    await conn.execute("INSERT INTO instance_leases (scope, owner, host, pid, started_at, expires_at) "
                       "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (scope) DO UPDATE SET owner = excluded.owner, "
                       "host = excluded.host, pid = excluded.pid, started_at = excluded.started_at, "
                       "expires_at = excluded.expires_at",
                       (lease.scope, lease.owner, lease.host, lease.pid, lease.started_at, lease.expires_at))


async def renew(conn: aiosqlite.Connection, scope: str, owner: str, expires_at: str) -> bool:
    """Extend the owner's lease; False when it is no longer the owner's (another process took over)."""
    cur = await conn.execute("UPDATE instance_leases SET expires_at = ? WHERE scope = ? AND owner = ?",
                             (expires_at, scope, owner))
    return cur.rowcount == 1


async def release(conn: aiosqlite.Connection, scope: str, owner: str) -> None:
    await conn.execute("DELETE FROM instance_leases WHERE scope = ? AND owner = ?", (scope, owner))
