"""``gamemaster db copy SRC DST``: every game, seat, move, preference and setting from one database
to another (SQLite ⇄ PostgreSQL), in batches of games, each batch one transaction.

Every table of the schema is either copied (``COPIED``, in foreign-key order) or deliberately left
behind (``LEFT``: what only means something to the running processes of the source); a test keeps
the two lists complete, so a new table has to be placed in one of them.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.storage.backend import POSTGRES, Database

# (table, the column naming its game, or None for tables not owned by a game)
COPIED: tuple[tuple[str, str | None], ...] = (
    ("games", "id"),
    ("seats", "game_id"),
    ("moves", "game_id"),
    ("reminders", "game_id"),
    ("timeout_votes", "game_id"),
    ("undo_votes", "game_id"),
    ("move_interactions", "game_id"),
    ("boards", "game_id"),
    ("rating_changes", "game_id"),  # each rated game's changes, and below the ratings they led to
    ("user_prefs", None),
    ("guild_prefs", None),
    ("standings", None),  # a server's standings, kept as its games finished
    ("standing_places", None),
    ("finished_counts", None),
    ("ratings", None),
    ("rating_marks", None),  # finish numbers handed out (the games carry theirs) and games rated
    ("challenges", None),  # open, accepted and past challenges (a started one names its game)
    ("web_tables", "game_id"),  # the tables' web addresses and the key that signs private links (bot/web)
    ("web_secrets", None),
    ("web_revoked", None),
    ("web_guilds", None),
    ("seat_holders", "game_id"),  # who held each seat from which ply on, and replacements voted on
    ("seat_requests", "game_id"),
    ("table_notify", "game_id"),  # a player's notification choices per table, and the daily digests
    ("digests", None),
    ("standing_orders", "game_id"),  # each seat's standing orders (/orders) and the moves they made
    ("order_moves", "game_id"),
)
# who runs where: the destination's own business; and the announcement outbox, which the source
# delivered before it stopped (what it still held is redelivered by the source, not copied)
# tables besides games whose id the database numbers
NUMBERED = frozenset({"challenges", "seat_holders", "seat_requests"})
LEFT = frozenset({"instance_leases", "schema_version", "announcements", "announce_leases",
                  "rate_slots"})  # the running processes' shared budget of Discord calls
BATCH = 500  # games per transaction


class NotEmpty(Exception):
    """The destination already holds games: copying would mix two histories."""


@dataclass
class CopyReport:
    rows: dict[str, int] = field(default_factory=dict)  # table -> rows copied


async def table_names(db: Database) -> set[str]:
    """The tables of a database's schema (both backends)."""
    if db.backend == POSTGRES:
        rows = await db.fetchall("SELECT table_name FROM information_schema.tables "
                                 "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'")
    else:
        rows = await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    return {str(r[0]) for r in rows}


async def count(db: Database, table: str) -> int:
    row = await db.fetchone(f"SELECT COUNT(*) FROM {table}")
    return int(row[0]) if row else 0


class Row(Protocol):
    """A row as both backends return it (aiosqlite.Row, asyncpg.Record): read by column name."""

    def keys(self) -> Iterable[str]: ...

    def __getitem__(self, column: str) -> Any: ...


async def _insert(conn: Any, table: str, rows: Sequence[Row]) -> None:
    """``conn``: a connection from ``transaction()`` (aiosqlite's or ``PgConnection``)."""
    if not rows:
        return
    columns = list(rows[0].keys())
    sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
    await conn.executemany(sql, [tuple(r[c] for c in columns) for r in rows])


async def copy(src: Database, dst: Database, progress: Callable[[str, int], None] | None = None) -> CopyReport:
    """Copy everything in ``COPIED`` from ``src`` to the empty ``dst`` (both migrated to the same
    schema version); raises NotEmpty when ``dst`` already has games."""
    if await count(dst, "games"):
        raise NotEmpty()
    report = CopyReport({table: 0 for table, _ in COPIED})
    ids = [int(r[0]) for r in await src.fetchall("SELECT id FROM games ORDER BY id")]
    for start in range(0, len(ids), BATCH):
        low, high = ids[start], ids[min(start + BATCH, len(ids)) - 1]
        async with src.reading() as reader:
            batch = {table: await reader.execute_fetchall(f"SELECT * FROM {table} WHERE {key} BETWEEN ? AND ?",
                                                          (low, high))
                     for table, key in COPIED if key is not None}
        async with dst.transaction() as conn:
            for table, rows in batch.items():
                await _insert(conn, table, list(rows))
                report.rows[table] += len(rows)
        if progress:
            progress("games", report.rows["games"])
    for table, key in COPIED:
        if key is None:
            rows = await src.fetchall(f"SELECT * FROM {table}")
            async with dst.transaction() as conn:
                await _insert(conn, table, rows)
                if table in NUMBERED and rows and dst.backend == POSTGRES:  # new rows continue after these
                    await conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), ?)",
                                       (max(int(row["id"]) for row in rows),))
            report.rows[table] = len(rows)
    if dst.backend == POSTGRES and ids:  # new games continue after the copied ids
        async with dst.transaction() as conn:
            await conn.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), ?)", (max(ids),))
            for table, key in COPIED:  # and the numbered rows copied with their games after theirs
                if key is not None and table in NUMBERED and report.rows[table]:
                    await conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                       f"(SELECT MAX(id) FROM {table}))")
    return report
