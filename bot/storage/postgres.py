"""The PostgreSQL backend (asyncpg): a connection pool, numbered migrations, transactions.

Connections handed out by ``transaction()`` speak the aiosqlite calling convention the repositories
are written in (see ``bot.storage.backend``): ``?`` placeholders become ``$1, $2, …`` and
``INSERT OR IGNORE`` becomes ``ON CONFLICT DO NOTHING``, each translation cached per statement.
Transactions run concurrently (READ COMMITTED); what the single SQLite writer got for free comes
from the database here: the game row is locked (``FOR UPDATE``) where a move reads it, the update
stays conditional on the version read, and unique keys make claims happen once.
"""
from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from bot.storage.backend import COMMITTED, POSTGRES, Database, migration_files, redact, scrub, statements
from bot.storage.health import StorageProblem

log = logging.getLogger(__name__)

MIGRATION_LOCK = 0x67616D65  # advisory lock key: one process migrates at a time
_TOKENS = re.compile(r"'(?:[^']|'')*'|\"[^\"]*\"|\?")
_OR_IGNORE = re.compile(r"^\s*INSERT\s+OR\s+IGNORE\s+INTO\b", re.IGNORECASE)
_RETURNS_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES|SHOW)\b|\bRETURNING\b", re.IGNORECASE)


@lru_cache(maxsize=2048)
def translate(sql: str) -> tuple[str, bool]:
    """(PostgreSQL text of an SQLite-style statement, whether it returns rows)."""
    numbers = iter(range(1, 10_000))
    out = _TOKENS.sub(lambda m: f"${next(numbers)}" if m.group(0) == "?" else m.group(0), sql)
    if _OR_IGNORE.match(out):
        out = _OR_IGNORE.sub("INSERT INTO", out).rstrip().rstrip(";") + " ON CONFLICT DO NOTHING"
    return out, bool(_RETURNS_ROWS.search(out))


class Cursor:
    """The result of one statement: its rows and how many rows it touched."""

    def __init__(self, rows: list[Any], rowcount: int) -> None:
        self._rows = rows
        self.rowcount = rowcount
        self.lastrowid = None  # PostgreSQL has none: use ``INSERT … RETURNING id``

    async def fetchone(self) -> Any | None:
        return self._rows[0] if self._rows else None

    async def fetchall(self) -> list[Any]:
        return list(self._rows)

    def __aiter__(self) -> AsyncIterator[Any]:
        async def rows() -> AsyncIterator[Any]:
            for row in self._rows:
                yield row
        return rows()


class _Pending:
    """``conn.execute(...)`` is both awaitable and an async context manager, as in aiosqlite."""

    def __init__(self, conn: PgConnection, sql: str, params: Sequence[Any]) -> None:
        self._conn, self._sql, self._params = conn, sql, params

    def __await__(self) -> Any:
        return self._conn._run(self._sql, self._params).__await__()

    async def __aenter__(self) -> Cursor:
        return await self._conn._run(self._sql, self._params)

    async def __aexit__(self, *exc: object) -> None:
        return None


class PgConnection:
    """One pooled asyncpg connection inside a transaction, with the aiosqlite calling convention."""

    dialect = POSTGRES

    def __init__(self, raw: Any) -> None:
        self.raw = raw

    def execute(self, sql: str, params: Iterable[Any] = ()) -> _Pending:
        return _Pending(self, sql, tuple(params))

    async def execute_fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        return await (await self._run(sql, tuple(params))).fetchall()

    async def executemany(self, sql: str, seq: Iterable[Iterable[Any]]) -> None:
        await self.raw.executemany(translate(sql)[0], [tuple(p) for p in seq])

    async def _run(self, sql: str, params: Sequence[Any]) -> Cursor:
        text, returns_rows = translate(sql)
        if returns_rows:
            rows = await self.raw.fetch(text, *params)
            return Cursor(rows, len(rows))
        status = await self.raw.execute(text, *params)
        last = status.rsplit(" ", 1)[-1] if status else ""
        return Cursor([], int(last) if last.isdigit() else -1)


class PostgresDatabase(Database):
    backend = POSTGRES

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 10) -> None:
        self.url = url
        self.path = redact(url)  # where it is, for messages
        self._sizes = (min_size, max_size)
        self._pool: Any = None
        self._listener: Any = None  # a connection of its own for LISTEN

    async def connect(self, migrate: bool = True) -> Database:
        try:
            import asyncpg
        except ImportError:  # installed only with the postgres extra: one line saying how, no traceback
            raise StorageProblem("storage.needs_driver", redact(self.url)) from None
        try:
            self._pool = await asyncpg.create_pool(self.url.replace("postgres://", "postgresql://", 1),
                                                   min_size=self._sizes[0], max_size=self._sizes[1])
            if migrate:
                await self.migrate()
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            await self.close()
            reason = scrub(str(exc), self.url) or type(exc).__name__
            raise StorageProblem("storage.server_unusable", redact(self.url), reason=reason) from None
        return self

    async def listen(self, channel: str, callback: Callable[[str], object]) -> None:
        import asyncpg

        if self._listener is None:
            self._listener = await asyncpg.connect(self.url.replace("postgres://", "postgresql://", 1))
        await self._listener.add_listener(channel, lambda _conn, _pid, _channel, payload: callback(payload))

    async def wake(self, conn: Any, game_id: int) -> None:
        """A change without an outbox entry (the trigger's NOTIFY): NOTIFY here, sent at COMMIT."""
        await conn.execute("SELECT pg_notify(?, ?)", (COMMITTED, str(game_id)))

    async def close(self) -> None:
        if self._listener is not None:
            await self._listener.close()
            self._listener = None
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    @property
    def pool(self) -> Any:
        if self._pool is None:
            raise RuntimeError("database is not connected")
        return self._pool

    # ------------------------------------------------------------------ migrations
    async def schema_version(self) -> int:
        async with self.pool.acquire() as raw:
            return await self._version(raw)

    @staticmethod
    async def _version(raw: Any) -> int:
        exists = await raw.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
        if not exists:
            return 0
        return int(await raw.fetchval("SELECT COALESCE(MAX(number), 0) FROM schema_version"))

    async def migrate(self) -> list[str]:
        """Apply pending migrations, each with its version row in one transaction; an advisory
        lock keeps two processes starting together from both applying them."""
        applied = []
        async with self.pool.acquire() as raw:
            for number, name, sql in migration_files(POSTGRES):
                async with raw.transaction():
                    await raw.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                    if number <= await self._version(raw):
                        continue
                    for statement in statements(sql):
                        await raw.execute(statement)
                    await raw.execute("INSERT INTO schema_version (number, name, applied_at) VALUES ($1, $2, $3)",
                                      number, name, datetime.now(UTC).isoformat(timespec="seconds"))
                log.info("applied migration %s", name)
                applied.append(name)
        return applied

    # ------------------------------------------------------------------ access
    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgConnection]:
        async with self.pool.acquire() as raw:
            async with raw.transaction():
                yield PgConnection(raw)

    @asynccontextmanager
    async def single(self) -> AsyncIterator[PgConnection]:
        """A pooled connection outside any transaction block: one statement commits by itself."""
        async with self.pool.acquire() as raw:
            yield PgConnection(raw)

    @asynccontextmanager
    async def reading_one(self) -> AsyncIterator[PgConnection]:
        """A pooled connection for one statement (its own snapshot; no BEGIN/COMMIT round trips)."""
        async with self.pool.acquire() as raw:
            yield PgConnection(raw)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[PgConnection]:
        """A read-only snapshot (REPEATABLE READ) on a pooled connection; readers never wait for
        writers in PostgreSQL."""
        async with self.pool.acquire() as raw:
            async with raw.transaction(isolation="repeatable_read", readonly=True):
                yield PgConnection(raw)

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        async with self.reading() as conn:
            return await conn.execute_fetchall(sql, params)

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Any | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None
