"""The database: one aiosqlite write connection in WAL mode, numbered migrations, transactions.

``transaction()`` takes an asyncio lock and runs ``BEGIN IMMEDIATE … COMMIT/ROLLBACK``: coroutines
sharing one connection would otherwise interleave their statements. Reads take the same lock so
they never see another coroutine's uncommitted writes. Never await Discord inside a transaction.
"""
from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from bot.errors import StorageDamaged
from bot.storage.health import StorageProblem, check_file, is_damage

log = logging.getLogger(__name__)

SQLITE_READONLY = 8
_MIGRATION = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def migration_files() -> list[tuple[int, str, str]]:
    """(number, name, sql) of every migration shipped with the package, in order."""
    out = []
    for entry in resources.files("bot.storage.migrations").iterdir():
        match = _MIGRATION.match(entry.name)
        if match:
            out.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    out.sort()
    numbers = [n for n, _, _ in out]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {numbers}")
    return out


class Database:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._conn: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    async def connect(self, migrate: bool = True) -> Database:
        """Open (and migrate) the database. A file that cannot serve raises StorageProblem before
        anything is written to it, and no connection thread is left behind on any failure."""
        if self.path != ":memory:":
            await asyncio.to_thread(check_file, self.path)
            try:
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StorageProblem("storage.folder_read_only", self.path, folder=str(Path(self.path).parent),
                                     reason=exc.strerror or str(exc)) from None
        try:
            self._conn = await aiosqlite.connect(self.path, isolation_level=None)
            self._conn.row_factory = aiosqlite.Row
            for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=5000"):
                await self._conn.execute(f"PRAGMA {pragma}")
            if migrate:
                await self.migrate()
        except BaseException as exc:
            await self.close()
            if isinstance(exc, sqlite3.Error):
                raise _problem(exc, self.path) from None
            raise
        return self

    async def close(self) -> None:
        if self._conn is not None:
            await self._conn.close()
            self._conn = None

    async def __aenter__(self) -> Database:
        return await self.connect()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def conn(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise RuntimeError("database is not connected")
        return self._conn

    # ------------------------------------------------------------------ migrations
    async def schema_version(self) -> int:
        async with self.conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def pending(self) -> list[str]:
        current = await self.schema_version()
        return [name for number, name, _ in migration_files() if number > current]

    async def migrate(self) -> list[str]:
        """Apply pending migrations, each with its user_version bump in one transaction."""
        applied = []
        async with self._lock:
            current = await self.schema_version()
            for number, name, sql in migration_files():
                if number <= current:
                    continue
                await self.conn.execute("BEGIN IMMEDIATE")
                try:
                    for statement in _statements(sql):
                        await self.conn.execute(statement)
                    await self.conn.execute(f"PRAGMA user_version = {number}")
                    await self.conn.execute("COMMIT")
                except BaseException:
                    await self.conn.execute("ROLLBACK")
                    raise
                log.info("applied migration %s", name)
                applied.append(name)
        return applied

    # ------------------------------------------------------------------ access
    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE … COMMIT``; damaged pages met inside raise StorageDamaged (and roll
        back, so the game is left as it was)."""
        async with self._lock:
            try:
                await self.conn.execute("BEGIN IMMEDIATE")
                try:
                    yield self.conn
                except BaseException:
                    await self._rollback()
                    raise
                else:
                    await self.conn.execute("COMMIT")
            except sqlite3.DatabaseError as exc:
                if is_damage(exc):
                    raise StorageDamaged(str(exc)) from exc
                raise

    async def _rollback(self) -> None:
        try:
            await self.conn.execute("ROLLBACK")
        except sqlite3.DatabaseError as exc:  # damage can end the transaction before we do
            if not is_damage(exc) and "no transaction" not in str(exc):
                raise

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        async with self._lock:
            try:
                async with self.conn.execute(sql, tuple(params)) as cur:
                    return list(await cur.fetchall())
            except sqlite3.DatabaseError as exc:
                if is_damage(exc):
                    raise StorageDamaged(str(exc)) from exc
                raise

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        async with self._lock:
            try:
                async with self.conn.execute(sql, tuple(params)) as cur:
                    return await cur.fetchone()
            except sqlite3.DatabaseError as exc:
                if is_damage(exc):
                    raise StorageDamaged(str(exc)) from exc
                raise


def _problem(exc: sqlite3.Error, path: str) -> StorageProblem:
    if is_damage(exc):
        return StorageProblem("storage.damaged", path, reason=str(exc))
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    return StorageProblem("storage.read_only" if code == SQLITE_READONLY else "storage.unusable", path,
                          reason=str(exc))


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (our migrations hold no semicolons inside literals)."""
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
