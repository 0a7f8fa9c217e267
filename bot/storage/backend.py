"""The storage interface both backends implement, and the choice between them by URL.

``Database(target)`` opens SQLite for a file path or ``sqlite:///path`` (the embedded default) and
PostgreSQL for ``postgresql://…`` (asyncpg, installed with the ``postgres`` extra). Both hand out
connections with the aiosqlite calling convention the repositories use (``await conn.execute(sql,
params)`` giving a cursor with ``fetchone``/``fetchall``/``rowcount``; rows readable by index and by
column name; ``?`` placeholders), so one repository module serves both and only SQL whose dialects
differ branches on ``dialect(conn)``.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from contextlib import AbstractAsyncContextManager
from importlib import resources
from pathlib import Path
from typing import Any

SQLITE = "sqlite"
POSTGRES = "postgres"
COMMITTED = "gamemaster_committed"  # the notification of a table's committed change (payload: the game id)
_MIGRATION = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
_FOLDERS = {SQLITE: "bot.storage.migrations", POSTGRES: "bot.storage.migrations.postgres"}


def backend_of(target: str | Path) -> str:
    text = str(target)
    return POSTGRES if text.startswith(("postgresql://", "postgres://")) else SQLITE


def sqlite_path(target: str | Path) -> str:
    """The file behind a path or a ``sqlite:///path`` URL (``sqlite:///:memory:`` for memory)."""
    text = str(target)
    return text[len("sqlite:///"):] if text.startswith("sqlite:///") else text


# query parameters libpq and asyncpg read a secret from
_SECRET_PARAMS = frozenset({"password", "passfile", "sslpassword", "sslkey"})


def redact(url: str) -> str:
    """The URL without its password, for messages and logs, read as a URL: the password is whatever
    lies between the first ``:`` of the user part and the last ``@`` (``gm:p@ss@db`` -> ``gm:***@db``,
    ``:secret@db`` -> ``:***@db``), and ``?password=`` and its kin are hidden too."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    netloc, slash, tail = rest.partition("/")
    if not slash:
        netloc, _, query = netloc.partition("?")
        tail = "?" + query if query else ""
    userinfo, at, host = netloc.rpartition("@")
    if at:
        user, colon, _ = userinfo.partition(":")
        netloc = f"{user}:***@{host}" if colon else f"{user}@{host}"
    path, question, query = tail.partition("?")
    if question:
        query = "&".join(_redact_param(param) for param in query.split("&"))
    return f"{scheme}://{netloc}{slash}{path}{question}{query}"


def _redact_param(param: str) -> str:
    name, equals, _ = param.partition("=")
    return f"{name}=***" if equals and name.lower() in _SECRET_PARAMS else param


def scrub(text: str, url: str) -> str:
    """``text`` (an error message) with every secret of ``url`` in it replaced by ``***``."""
    secrets = set()
    _, _, rest = url.partition("://")
    userinfo, at, _ = rest.partition("/")[0].partition("?")[0].rpartition("@")
    if at and ":" in userinfo:
        secrets.add(userinfo.partition(":")[2])
    for param in url.partition("?")[2].split("&"):
        name, _, value = param.partition("=")
        if name.lower() in _SECRET_PARAMS:
            secrets.add(value)
    for secret in sorted((s for s in secrets if s), key=len, reverse=True):
        text = text.replace(secret, "***")
    return text.replace(url, redact(url))


def dialect(conn: Any) -> str:
    """The backend of a connection handed out by ``transaction()`` (aiosqlite's has no marker)."""
    return getattr(conn, "dialect", SQLITE)


def migration_files(backend: str = SQLITE) -> list[tuple[int, str, str]]:
    """(number, name, sql) of every migration shipped for ``backend``, in order."""
    out = []
    for entry in resources.files(_FOLDERS[backend]).iterdir():
        match = _MIGRATION.match(entry.name)
        if match:
            out.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    out.sort()
    numbers = [n for n, _, _ in out]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"{backend} migrations must be numbered 1..n without gaps, found {numbers}")
    return out


def statements(sql: str) -> list[str]:
    """Split a migration into statements: at semicolons outside a ``$$ … $$`` function body (our
    migrations hold no semicolons inside literals)."""
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    out: list[str] = []
    current = ""
    for index, part in enumerate("\n".join(lines).split("$$")):
        if index % 2:  # inside a dollar-quoted body: kept whole
            current += "$$" + part + "$$"
            continue
        first, *rest = part.split(";")
        current += first
        for piece in rest:  # each semicolon ends the statement so far
            out.append(current)
            current = piece
    out.append(current)
    return [s.strip() for s in out if s.strip()]


class Database:
    """Base of both backends; ``Database(target)`` returns the one the target names."""

    backend = SQLITE
    path: str  # where it is, for messages: the SQLite file, or the PostgreSQL URL without its password
    url: str   # what opens it again: ``sqlite:///path`` or the PostgreSQL URL

    _backends: dict[str, type[Database]] = {}  # each backend's class, registered by its module

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "backend" in cls.__dict__:  # a backend names itself; a subclass of one (a test's) does not
            Database._backends[cls.backend] = cls

    def __new__(cls, target: str | Path, *args: Any, **kwargs: Any) -> Database:
        if cls is Database:  # the backends register as their modules load (``bot.storage.db`` loads both)
            cls = Database._backends[backend_of(target)]
        return super().__new__(cls)

    async def connect(self, migrate: bool = True) -> Database:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Database:
        return await self.connect()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def schema_version(self) -> int:
        raise NotImplementedError

    async def pending(self) -> list[str]:
        current = await self.schema_version()
        return [name for number, name, _ in migration_files(self.backend) if number > current]

    async def migrate(self) -> list[str]:
        raise NotImplementedError

    async def listen(self, channel: str, callback: Callable[[str], object]) -> None:
        """Call ``callback(payload)`` for every notification on ``channel`` committed by any process
        (PostgreSQL LISTEN/NOTIFY). SQLite serves one process, which knows its own writes: no-op."""
        return None

    def committed(self, conn: Any, game_id: int) -> None:
        """Tell every ``listen(COMMITTED, …)`` callback, in every process, that the table ``game_id``
        changed, once the transaction of ``conn`` commits (never when it rolls back). PostgreSQL's
        outbox does it by itself: a trigger NOTIFYs for every new announcement (migration 0020), so
        a move costs no round trip more; SQLite's writer tells its own process after the COMMIT."""
        return None

    async def wake(self, conn: Any, game_id: int) -> None:
        """``committed`` for a change that writes no outbox entry (a player's private-only change,
        which no trigger sees): SQLite tells its own process after the COMMIT; PostgreSQL NOTIFYs
        (one statement, only for such changes)."""
        self.committed(conn, game_id)

    def transaction(self, *, inline: bool = False) -> AbstractAsyncContextManager[Any]:
        """One transaction: everything inside commits together or not at all. ``inline``: its
        statements are few, short and indexed (a move's): SQLite runs them on the calling thread
        instead of handing each to the connection's thread and back (PostgreSQL: no difference)."""
        raise NotImplementedError

    def single(self) -> AbstractAsyncContextManager[Any]:
        """A connection for ONE writing statement, which commits by itself: two round trips fewer
        than ``transaction()`` (no BEGIN, no COMMIT). Never for two statements that belong together."""
        raise NotImplementedError

    def reading_one(self, *, inline: bool = False) -> AbstractAsyncContextManager[Any]:
        """Like ``reading()`` for ONE statement (a statement is a consistent snapshot by itself):
        two round trips fewer (no BEGIN, no COMMIT)."""
        raise NotImplementedError

    def reading(self, *, inline: bool = False) -> AbstractAsyncContextManager[Any]:
        """A consistent read-only snapshot of committed data that does not wait for writers.
        ``inline``: short indexed reads, run on the calling thread (see ``transaction``)."""
        raise NotImplementedError

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        raise NotImplementedError

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Any | None:
        raise NotImplementedError
