"""The PostgreSQL backend (asyncpg): a connection pool, numbered migrations, transactions.

Connections handed out by ``transaction()`` speak the aiosqlite calling convention the repositories
are written in (see ``bot.storage.backend``): ``?`` placeholders become ``$1, $2, …`` and
``INSERT OR IGNORE`` becomes ``ON CONFLICT DO NOTHING``, each translation cached per statement.
Transactions run concurrently (READ COMMITTED); what the single SQLite writer got for free comes
from the database here: the game row is locked (``FOR UPDATE``) where a move reads it, the update
stays conditional on the version read, and unique keys make claims happen once.
"""
from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from bot.errors import StorageFull
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


def cut(exc: BaseException, raw: Any = None) -> bool:
    """The connection was cut (a server restart, a network drop), not the statement refused."""
    import asyncpg

    if isinstance(exc, asyncpg.PostgresConnectionError | asyncpg.exceptions.OperatorInterventionError
                  | ConnectionError):
        return True
    return isinstance(exc, asyncpg.InterfaceError) and raw is not None and raw.is_closed()


class PgConnection:
    """One pooled asyncpg connection inside a transaction, with the aiosqlite calling convention.

    Outside a transaction block (``single``, ``reading_one``) a connection the server cut while it
    sat in the pool (PostgreSQL restarted) is found out by its first statement, which then runs once
    more on a fresh connection: nothing had run on the cut one.
    """

    dialect = POSTGRES

    def __init__(self, raw: Any, renew: Callable[[Any], Any] | None = None) -> None:
        self.raw = raw
        self._renew = renew

    def execute(self, sql: str, params: Iterable[Any] = ()) -> _Pending:
        return _Pending(self, sql, tuple(params))

    async def execute_fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        return await (await self._run(sql, tuple(params))).fetchall()

    async def executemany(self, sql: str, seq: Iterable[Iterable[Any]]) -> None:
        await self.raw.executemany(translate(sql)[0], [tuple(p) for p in seq])

    async def _run(self, sql: str, params: Sequence[Any]) -> Cursor:
        renew, self._renew = self._renew, None  # the first statement only
        try:
            return await self._once(sql, params)
        except Exception as exc:
            if renew is None or not cut(exc, self.raw):
                raise
            old, self.raw = self.raw, None  # released by renew: never twice, even when no fresh one comes
            self.raw = await renew(old)
            return await self._once(sql, params)

    async def _once(self, sql: str, params: Sequence[Any]) -> Cursor:
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
        self._listening: list[tuple[str, Callable[[str], object]]] = []
        self._relisten: asyncio.Task[None] | None = None
        self.relistened = asyncio.Event()  # set each time LISTEN is back after the server cut it

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
        if self._listener is None:
            self._listener = await self._listen_connection()
        self._listening.append((channel, callback))
        await self._add(self._listener, channel, callback)

    async def _listen_connection(self) -> Any:
        import asyncpg

        conn = await asyncpg.connect(self.url.replace("postgres://", "postgresql://", 1))
        conn.add_termination_listener(self._listener_cut)
        return conn

    @staticmethod
    async def _add(conn: Any, channel: str, callback: Callable[[str], object]) -> None:
        await conn.add_listener(channel, lambda _conn, _pid, _channel, payload: callback(payload))

    def _listener_cut(self, conn: Any) -> None:
        """The LISTEN connection ended (a server restart): listen again, with back-off, on a new one
        (one line when it is cut, one when it is back)."""
        if conn is not self._listener or (self._relisten is not None and not self._relisten.done()):
            return
        self._listener = None
        log.warning("the PostgreSQL connection for notifications was cut; listening again once the server answers")
        self._relisten = asyncio.get_running_loop().create_task(self._listen_again(), name="gamemaster-relisten")

    async def _listen_again(self) -> None:
        delay = 0.05
        while self._pool is not None:
            try:
                conn = await self._listen_connection()
                for channel, callback in self._listening:
                    await self._add(conn, channel, callback)
            except Exception as exc:  # noqa: BLE001 - the server is not back yet
                if not cut(exc) and not isinstance(exc, OSError):
                    raise
                await asyncio.sleep(delay)
                delay = min(5.0, delay * 2)
                continue
            self._listener = conn
            log.info("listening to PostgreSQL's notifications again")
            self.relistened.set()
            return

    async def wake(self, conn: Any, game_id: int) -> None:
        """A change without an outbox entry (the trigger's NOTIFY): NOTIFY here, sent at COMMIT."""
        await conn.execute("SELECT pg_notify(?, ?)", (COMMITTED, str(game_id)))

    async def close(self) -> None:
        if self._relisten is not None and not self._relisten.done():
            self._relisten.cancel()
            await asyncio.gather(self._relisten, return_exceptions=True)
        if self._listener is not None:
            listener, self._listener = self._listener, None
            await listener.close()
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
    async def transaction(self, *, inline: bool = False) -> AsyncIterator[PgConnection]:
        async with self._begun() as raw:
            yield PgConnection(raw)

    @asynccontextmanager
    async def single(self) -> AsyncIterator[PgConnection]:
        """A pooled connection outside any transaction block: one statement commits by itself."""
        conn = PgConnection(await self.pool.acquire(), self._renew)
        try:
            yield conn
        finally:
            if conn.raw is not None:
                await self.pool.release(conn.raw)

    @asynccontextmanager
    async def reading_one(self, *, inline: bool = False) -> AsyncIterator[PgConnection]:
        """A pooled connection for one statement (its own snapshot; no BEGIN/COMMIT round trips)."""
        async with self.single() as conn:
            yield conn

    @asynccontextmanager
    async def reading(self, *, inline: bool = False) -> AsyncIterator[PgConnection]:
        """A read-only snapshot (REPEATABLE READ) on a pooled connection; readers never wait for
        writers in PostgreSQL."""
        async with self._begun(isolation="repeatable_read", readonly=True) as raw:
            yield PgConnection(raw)

    async def _renew(self, raw: Any) -> Any:
        """A fresh pooled connection in place of one the server cut (the pool reconnects it)."""
        log.info("a pooled PostgreSQL connection was cut (a server restart?); using a fresh one")
        await self.pool.release(raw)
        return await self.pool.acquire()

    @asynccontextmanager
    async def _begun(self, **options: Any) -> AsyncIterator[Any]:
        """A pooled connection in a transaction block. A connection the server cut while it sat in
        the pool fails at BEGIN, before anything ran: the transaction begins on a fresh one. The
        disk full on the server refuses the change (StorageFull), rolled back whole."""
        import asyncpg

        raw = await self.pool.acquire()
        try:
            block = raw.transaction(**options)
            try:
                await block.start()
            except Exception as exc:
                if not cut(exc, raw):
                    raise
                old, raw = raw, None  # released by _renew: never twice
                raw = await self._renew(old)
                block = raw.transaction(**options)
                await block.start()
            try:
                yield raw
            except BaseException:
                try:
                    await block.rollback()
                except Exception as failed:  # noqa: BLE001 - a cut connection has rolled back by itself
                    if not cut(failed, raw):
                        raise
                raise
            else:
                await block.commit()
        except asyncpg.exceptions.DiskFullError as exc:
            raise StorageFull(str(exc)) from exc
        finally:
            if raw is not None:
                await self.pool.release(raw)

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        async with self.reading() as conn:
            return await conn.execute_fetchall(sql, params)

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Any | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None
