"""The SQLite backend: one aiosqlite write connection in WAL mode, a few reader connections,
numbered migrations, transactions.

``transaction()`` takes an asyncio lock and runs ``BEGIN IMMEDIATE … COMMIT/ROLLBACK``: coroutines
sharing one connection would otherwise interleave their statements. Keep transactions short: no
parsing, rendering or Discord calls inside.

``reading()`` lends one of the reader connections (WAL lets readers run beside the writer), in a
``BEGIN … COMMIT`` read transaction so that what it reads is one consistent snapshot of committed
data. Reads never wait for the writer's lock; only when every reader is busy does a read wait for
one to come free. An in-memory database (tests) has no readers: reads then share the writer.

Every aiosqlite statement is a hand-over to the connection's thread and back (a future, a queue,
a wake-up of the loop through its self-pipe, two switches of the interpreter's lock): about 50 µs
of CPU each, beside the statement itself. The hot paths (a move's transaction, the announcer's
snapshot and its "delivered", the current game's look-up) ask for ``inline`` statements: they run
on the calling thread through ``InlineConnection``. A write transaction still BEGINs and COMMITs
on the connection's thread (BEGIN IMMEDIATE may wait for the file's lock; a COMMIT may checkpoint
the WAL), so a move is two hand-overs, not seven.
"""
from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Generator, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.errors import StorageDamaged, StorageFull
from bot.storage import postgres  # noqa: F401 - registers the PostgreSQL backend beside this one
from bot.storage.backend import COMMITTED, SQLITE, Database, migration_files, sqlite_path, statements
from bot.storage.backup import create_owner_only
from bot.storage.health import StorageProblem, check_file, is_damage

__all__ = ["Database", "SqliteDatabase", "migration_files"]

log = logging.getLogger(__name__)

SQLITE_READONLY = 8
SQLITE_FULL = 13  # the disk (or PRAGMA max_page_count) has no room for another page
READERS = 2  # reader connections; each runs its queries in its own thread
CLOSE_WAIT = 10.0  # seconds close() waits for the reads lent out and the transaction under way


class _InlineCursor:
    """A finished statement's rows, with aiosqlite's cursor calls."""

    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor

    @property
    def rowcount(self) -> int:
        return int(self._cursor.rowcount)

    @property
    def lastrowid(self) -> int | None:
        return self._cursor.lastrowid

    @property
    def description(self) -> Any:
        return self._cursor.description

    async def fetchone(self) -> Any:
        return self._cursor.fetchone()

    async def fetchall(self) -> list[Any]:
        return self._cursor.fetchall()

    async def fetchmany(self, size: int | None = None) -> list[Any]:
        return self._cursor.fetchmany(size if size is not None else self._cursor.arraysize)

    async def close(self) -> None:
        self._cursor.close()

    def __aiter__(self) -> AsyncIterator[Any]:
        async def rows() -> AsyncIterator[Any]:
            for row in self._cursor:
                yield row
        return rows()


class _InlinePending:
    """``conn.execute(...)``: awaitable and an async context manager, as aiosqlite's; the statement
    runs when awaited or entered, on the calling thread."""

    def __init__(self, raw: sqlite3.Connection, sql: str, params: Any) -> None:
        self._raw, self._sql, self._params = raw, sql, params

    def __await__(self) -> Generator[Any, None, _InlineCursor]:
        return self._run().__await__()

    async def _run(self) -> _InlineCursor:
        return _InlineCursor(self._raw.execute(self._sql, self._params))

    async def __aenter__(self) -> _InlineCursor:
        self._cursor = await self._run()
        return self._cursor

    async def __aexit__(self, *exc: object) -> None:
        await self._cursor.close()


class InlineConnection:
    """An aiosqlite connection whose statements run on the calling thread (the event loop's), not
    handed to its own thread: for a few short indexed statements while nothing else uses the
    connection (the writer under its lock, a reader lent out). Anything else goes through aiosqlite."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._async = conn
        self._raw = conn._conn

    def execute(self, sql: str, params: Iterable[Any] = ()) -> _InlinePending:
        return _InlinePending(self._raw, sql, tuple(params))

    async def execute_fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        return self._raw.execute(sql, tuple(params)).fetchall()

    async def executemany(self, sql: str, seq: Iterable[Iterable[Any]]) -> _InlineCursor:
        return _InlineCursor(self._raw.executemany(sql, [tuple(p) for p in seq]))

    @property
    def in_transaction(self) -> bool:
        return self._raw.in_transaction

    @property
    def total_changes(self) -> int:
        return self._raw.total_changes

    def __getattr__(self, name: str) -> Any:
        return getattr(self._async, name)


class SqliteDatabase(Database):
    backend = SQLITE

    def __init__(self, path: str | Path, readers: int = READERS) -> None:
        self.path = sqlite_path(path)
        self.url = f"sqlite:///{self.path}"
        self._conn: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self._reader_count = 0 if self.path == ":memory:" else readers
        self._readers: list[aiosqlite.Connection] = []
        self._free: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        # listen/notify within this process (one process serves a SQLite file): the notifications
        # of the transaction under way, delivered once it commits
        self._listeners: dict[str, list[Callable[[str], object]]] = {}
        self._notices: list[tuple[str, str]] = []
        self._closed = False

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
            await self._open(migrate)
        except BaseException as exc:
            await self.close()
            if isinstance(exc, sqlite3.Error):
                raise _problem(exc, self.path) from None
            raise
        return self

    async def _open(self, migrate: bool) -> None:
        if self.path != ":memory:":
            # owner-only: the file holds players' ids and names; SQLite gives its -wal and -shm
            # files the database file's own permissions
            create_owner_only(Path(self.path))
        self._closed = False
        # the hot paths' statements run on the loop's thread too (InlineConnection), never at once
        # with the connection's own thread: the writer's lock or a lent reader is held meanwhile
        self._conn = await aiosqlite.connect(self.path, isolation_level=None, check_same_thread=False)
        self._conn.row_factory = aiosqlite.Row
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=5000"):
            await self._conn.execute(f"PRAGMA {pragma}")
        if migrate:
            await self.migrate()
        for _ in range(self._reader_count):
            reader = await aiosqlite.connect(self.path, isolation_level=None, check_same_thread=False)
            self._readers.append(reader)
            reader.row_factory = aiosqlite.Row
            for pragma in ("query_only=ON", "foreign_keys=ON", "busy_timeout=5000"):
                await reader.execute(f"PRAGMA {pragma}")
            self._free.put_nowait(reader)

    async def close(self) -> None:
        """Close every connection, once the reads lent out and the transaction under way have
        ended (at most CLOSE_WAIT seconds); reads and transactions asked for meanwhile are refused.
        A connection closed under a statement running inline on the loop's thread would crash the
        process (SQLite frees what the statement is still using)."""
        self._closed = True
        readers, self._readers = self._readers, []
        locked = False
        try:
            async with asyncio.timeout(CLOSE_WAIT):
                for _ in readers:
                    await self._free.get()
                await self._lock.acquire()
                locked = True
        except TimeoutError:
            log.warning("closing the database while a read or a transaction still runs")
        try:
            self._free = asyncio.Queue()
            for reader in readers:
                await reader.close()
            if self._conn is not None:
                await self._conn.close()
                self._conn = None
        finally:
            if locked:
                self._lock.release()

    def _refuse_closed(self) -> None:
        if self._closed:
            raise RuntimeError("database is closed")

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

    async def migrate(self) -> list[str]:
        """Apply pending migrations, each with its user_version bump in one transaction."""
        applied = []
        async with self._lock:
            current = await self.schema_version()
            for number, name, sql in migration_files(SQLITE):
                if number <= current:
                    continue
                await self.conn.execute("BEGIN IMMEDIATE")
                try:
                    for statement in statements(sql):
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
    async def transaction(self, *, inline: bool = False) -> AsyncIterator[Any]:
        """``BEGIN IMMEDIATE … COMMIT``; damaged pages met inside raise StorageDamaged (after the
        rollback, so the game is left as it was). ``inline``: the statements between run on the
        calling thread (``InlineConnection``)."""
        self._refuse_closed()
        async with self._lock:
            self._refuse_closed()
            with _damage_refused():
                await self.conn.execute("BEGIN IMMEDIATE")
                self._notices = []
                try:
                    yield InlineConnection(self.conn) if inline else self.conn
                except BaseException:
                    self._notices = []
                    await self._rollback()
                    raise
                else:
                    try:
                        await self.conn.execute("COMMIT")
                    except BaseException:  # a full disk can refuse the commit: the transaction stays open
                        self._notices = []
                        await self._rollback()
                        raise
                    notices, self._notices = self._notices, []
                    self._deliver(notices)

    async def listen(self, channel: str, callback: Callable[[str], object]) -> None:
        self._listeners.setdefault(channel, []).append(callback)

    def committed(self, conn: Any, game_id: int) -> None:
        self._notices.append((COMMITTED, str(game_id)))

    def _deliver(self, notices: list[tuple[str, str]]) -> None:
        for channel, payload in notices:
            for callback in self._listeners.get(channel, ()):
                try:
                    callback(payload)
                except Exception:  # noqa: BLE001 - a listener's failure is not the transaction's
                    log.exception("listener of %s failed", channel)

    @asynccontextmanager
    async def single(self) -> AsyncIterator[aiosqlite.Connection]:
        """The writer for one statement in autocommit mode (its own implicit transaction)."""
        self._refuse_closed()
        async with self._lock:
            self._refuse_closed()
            with _damage_refused():
                yield self.conn

    async def _rollback(self) -> None:
        try:
            await self.conn.execute("ROLLBACK")
        except sqlite3.DatabaseError as exc:  # damage can end the transaction before we do
            if not is_damage(exc) and "no transaction" not in str(exc):
                raise

    @asynccontextmanager
    async def reading(self, *, inline: bool = False) -> AsyncIterator[Any]:
        """A consistent snapshot of committed data, without the writer's lock. ``inline``: every
        statement, BEGIN and COMMIT too, on the calling thread (a read takes no lock to wait for)."""
        async with self._reader(inline) as (reader, lent):
            if not lent:
                yield reader
                return
            await reader.execute("BEGIN")
            try:
                yield reader
            finally:
                await reader.execute("COMMIT")

    @asynccontextmanager
    async def reading_one(self, *, inline: bool = False) -> AsyncIterator[Any]:
        """A reader for one statement, in autocommit mode."""
        async with self._reader(inline) as (reader, _):
            yield reader

    @asynccontextmanager
    async def _reader(self, inline: bool = False) -> AsyncIterator[tuple[Any, bool]]:
        """A free reader connection (lent: True), or the writer in a transaction when there are no
        readers (an in-memory database)."""
        self._refuse_closed()
        if not self._readers:
            async with self.transaction(inline=inline) as conn:
                yield conn, False
            return
        reader = await self._free.get()
        if self._closed:  # closing began while this read waited for a reader
            self._free.put_nowait(reader)
            self._refuse_closed()
        try:
            if reader.in_transaction:  # a read cancelled during its COMMIT
                await reader.execute("COMMIT")
            with _damage_refused():
                yield InlineConnection(reader) if inline else reader, True
        finally:
            self._free.put_nowait(reader)

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        async with self.reading() as conn:
            async with conn.execute(sql, tuple(params)) as cur:
                return list(await cur.fetchall())

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        async with self.reading() as conn:
            async with conn.execute(sql, tuple(params)) as cur:
                return await cur.fetchone()


@contextmanager
def _damage_refused() -> Iterator[None]:
    """SQLite's "malformed" / "not a database" / I/O errors become StorageDamaged, a full disk
    StorageFull (refusals the player is told about); other errors pass unchanged."""
    try:
        yield
    except sqlite3.DatabaseError as exc:
        if is_damage(exc):
            raise StorageDamaged(str(exc)) from exc
        if (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF == SQLITE_FULL:
            raise StorageFull(str(exc)) from exc
        raise


def _problem(exc: sqlite3.Error, path: str) -> StorageProblem:
    if is_damage(exc):
        return StorageProblem("storage.damaged", path, reason=str(exc))
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    return StorageProblem("storage.read_only" if code == SQLITE_READONLY else "storage.unusable", path,
                          reason=str(exc))

