"""Both storage backends keep the same guarantees: the same migrations, one move applied once
across processes (two Database objects on one database), moves on one table queued in order."""
from __future__ import annotations

import asyncio

from bot.errors import Conflict
from bot.services.table import GameService
from bot.storage.backend import POSTGRES, SQLITE, backend_of, migration_files, sqlite_path
from bot.storage.db import Database
from bot.storage.postgres import translate


def test_every_migration_exists_for_both_backends() -> None:
    sqlite = [name for _, name, _ in migration_files(SQLITE)]
    postgres = [name for _, name, _ in migration_files(POSTGRES)]
    assert sqlite == postgres, "write each new migration for both backends (bot/storage/migrations/postgres/)"


def test_the_url_chooses_the_backend() -> None:
    assert backend_of("data/gm.sqlite3") == SQLITE and backend_of("sqlite:///data/gm.sqlite3") == SQLITE
    assert backend_of("postgresql://u@h/db") == POSTGRES and backend_of("postgres://u@h/db") == POSTGRES
    assert sqlite_path("sqlite:///data/gm.sqlite3") == "data/gm.sqlite3"
    assert sqlite_path("sqlite:////abs/gm.sqlite3") == "/abs/gm.sqlite3"


def test_sqlite_statements_are_translated_for_postgres() -> None:
    assert translate("SELECT a FROM t WHERE b = ? AND c = '?' AND d = ?") == \
        ("SELECT a FROM t WHERE b = $1 AND c = '?' AND d = $2", True)
    assert translate("INSERT OR IGNORE INTO t (a) VALUES (?)") == \
        ("INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING", False)
    assert translate("INSERT INTO t (a) VALUES (?) RETURNING id")[1] is True
    assert translate("UPDATE t SET a = ? WHERE id = ?") == ("UPDATE t SET a = $1 WHERE id = $2", False)


async def test_migrations_from_an_empty_database_reach_the_latest_version(database_url: str) -> None:
    db = Database(database_url)
    await db.connect(migrate=False)
    try:
        assert await db.schema_version() == 0
        assert await db.pending() == [name for _, name, _ in migration_files(db.backend)]
        assert await db.migrate()
        assert await db.schema_version() == len(migration_files(db.backend)) and await db.pending() == []
        assert await db.migrate() == []
    finally:
        await db.close()


async def test_a_double_click_on_two_processes_applies_once(database_url: str, toy: object) -> None:
    first, second = await Database(database_url).connect(), await Database(database_url).connect()
    try:
        one, two = GameService(first), GameService(second)
        await one.create(guild_id="g", channel_id="c", game="toy", user_id="u0", name="Ann")
        await two.join("c", "u1", "Bo")
        await one.start("c", "u0")
        results = await asyncio.gather(*(service.act(user_id="u0", action="add 1", channel_id="c", expected_ply=0)
                                         for service in (one, two, one, two)), return_exceptions=True)
        assert sum(isinstance(r, Conflict) for r in results) == 3, results
        record = await two.current("c")
        assert record is not None and record.ply == 1 and record.state is not None and record.state["total"] == 1
        assert [m[2] for m in await one.moves(record.id)] == ["add 1"]
    finally:
        await first.close()
        await second.close()


async def test_moves_without_a_button_queue_on_the_table_and_all_apply(database_url: str, toy: object) -> None:
    """Slash moves (no button ply) sent at once through two connections are applied one after another
    (PostgreSQL: the game row is locked for the move; SQLite: its one writer), never lost to a
    version collision."""
    first, second = await Database(database_url).connect(), await Database(database_url).connect()
    try:
        one, two = GameService(first), GameService(second)
        await one.create(guild_id="g", channel_id="c", game="toy", user_id="u0", name="Ann", computers=1,
                         options={"target": 100})
        await one.start("c", "u0")
        results = await asyncio.gather(*(service.act(user_id="u0", action="add 1", channel_id="c")
                                         for service in (one, two, one, two)), return_exceptions=True)
        assert not [r for r in results if isinstance(r, Exception)], results
        record = await one.current("c")
        assert record is not None and record.ply == 8  # four moves of ours, four of the computer's
    finally:
        await first.close()
        await second.close()


async def test_one_process_at_a_time_delivers_a_tables_announcements(database_url: str, toy: object) -> None:
    from bot.services.outbox import Outbox

    first, second = await Database(database_url).connect(), await Database(database_url).connect()
    try:
        record = await GameService(first).create(guild_id="g", channel_id="c", game="toy", user_id="u0", name="A")
        here, there = Outbox(first), Outbox(second)
        assert await here.claim(record.id, "a") and await here.claim(record.id, "a")  # held, and renewed
        assert not await there.claim(record.id, "b")  # another process delivers this table now
        await here.release(record.id, "a")
        assert await there.claim(record.id, "b", seconds=0)  # a claim that runs out at once ...
        assert await here.claim(record.id, "a")  # ... is taken over, as when its process died
    finally:
        await first.close()
        await second.close()
