"""Reads go through reader connections beside the one writer; the preferences cache stays current
on every write."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.services.players import Players
from bot.services.table import GameService
from bot.storage.db import Database, SqliteDatabase
from bot.storage.prefs import PREFS_CHANNEL


async def test_reads_see_committed_data_while_the_writer_is_held(db: Database, service: GameService) -> None:
    record = await service.create(guild_id="g", channel_id="c", game="toy", user_id="u0", name="A")
    holding, release = asyncio.Event(), asyncio.Event()

    async def hold() -> None:
        async with db.transaction() as conn:
            await conn.execute("UPDATE games SET locale = 'sv' WHERE id = ?", (record.id,))
            holding.set()
            await release.wait()

    holder = asyncio.create_task(hold())
    await holding.wait()
    try:
        seen = await asyncio.wait_for(service.get(record.id), timeout=5)
        assert seen.locale == "en"  # the uncommitted write is invisible to readers
        assert [g.id for g in await asyncio.wait_for(service.games_of("u0"), timeout=5)] == [record.id]
    finally:
        release.set()
        await holder
    assert (await service.get(record.id)).locale == "sv"  # and visible once committed


async def test_the_prefs_cache_follows_every_write(db: Database, service: GameService) -> None:
    players = Players(db)
    service.prefs_written = players.forget
    assert players.chosen_locale("u1") is None
    await players.set_prefs("u1", locale="cs")
    assert players.chosen_locale("u1") == "cs"
    assert (await players.prefs("u1")).locale == "cs"

    assert await players.mark_dm("u1", ok=False)
    assert (await players.prefs("u1")).dm_ok is False
    assert not await players.mark_dm("u1", ok=False)

    players.notice_locale("u1", "sv")
    await players.settle()
    assert (await players.prefs("u1")).seen_locale == "sv"

    await service.set_vacation("u1", 3, None)
    assert (await players.prefs("u1")).vacation_until is not None

    await players.set_prefs("u1", locale="auto")
    assert players.chosen_locale("u1") is None

    await players.set_prefs("u2", locale="nb")
    restarted = Players(db)
    await restarted.load_locales()  # a new process knows every choice before anyone interacts
    assert restarted.chosen_locale("u2") == "nb" and restarted.chosen_locale("u1") is None


def first_resumes_late(db: Database, name: str, monkeypatch: pytest.MonkeyPatch) -> tuple[asyncio.Event, asyncio.Event]:
    """Wraps the database's context manager `name` (transaction or reading): the first caller's
    block runs and finishes (the first event is set), but its coroutine resumes only once the
    second event is set; every later caller passes straight through."""
    done, release = asyncio.Event(), asyncio.Event()
    original = getattr(db, name)

    @asynccontextmanager
    async def held() -> AsyncIterator[Any]:
        first = not done.is_set()
        async with original() as conn:
            yield conn
        if first:
            done.set()
            await release.wait()

    monkeypatch.setattr(db, name, held)
    return done, release


async def test_two_writes_of_one_user_cached_in_the_other_order_keep_both(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """The background note of a client's language commits first, then /game prefs sets a time
    zone, but the note's coroutine resumes last: the cache must hold both (its whole re-read,
    taken before the time zone was written, overwrote it: the time zone read as unset)."""
    players = Players(db)
    committed, release = first_resumes_late(db, "transaction", monkeypatch)
    note = asyncio.create_task(players.remember_locale("u1", await players.prefs("u1"), "sv"))
    await committed.wait()
    await players.set_prefs("u1", time_zone="Europe/Oslo")
    release.set()
    await note
    cached = await players.prefs("u1")
    assert (cached.time_zone, cached.seen_locale) == ("Europe/Oslo", "sv")


async def test_a_re_read_overtaken_by_a_newer_announcement_is_not_kept(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL announces every write of a user's preferences; each announcement re-reads them.
    A re-read that read before the next write committed must not be kept after that write's own
    re-read: the cache would hold the older row (a time zone just set read as unset)."""
    players = Players(db)
    read, release = first_resumes_late(db, "reading", monkeypatch)
    players._written_elsewhere("u1")  # the first write's announcement: its re-read reads the old row
    first = set(players._background)
    await read.wait()
    async with db.transaction() as conn:  # the second write, in another process
        await conn.execute("INSERT INTO user_prefs (user_id, time_zone) VALUES ('u1', 'Europe/Oslo')")
    players._written_elsewhere("u1")
    await asyncio.gather(*(set(players._background) - first))  # its re-read is kept first
    release.set()
    await players.settle()
    assert (await players.prefs("u1")).time_zone == "Europe/Oslo"


async def test_a_state_is_parsed_once_per_move_not_once_per_question(service: GameService) -> None:
    from bot.engine import registry
    from tests.services.test_table import started

    await started(service)
    record = await service.current("c")
    assert record is not None
    game = registry.get("toy")
    for _ in range(3):
        seat = min(service.to_act(record))
        parsed = service.states.parsed
        update = await service.act(user_id=f"u{seat}", action="add 1", channel_id="c")
        record = update.record
        for s in range(len(record.seats)):  # what announcing the move asks
            service.observe(record, s)
            service.legal_texts(record, s)
        service.observe(record, None)
        service.watchers(record)
        service.to_act(record)
        assert service.states.parsed == parsed  # the state the move produced serves them all
        # and it is the committed one
        assert game.dump(service.states.view(game, record)) == (await service.get(record.id)).state
    fresh = GameService(service.db)
    fresh.observe(record, None)
    fresh.to_act(record)
    assert fresh.states.parsed == 1


async def test_a_language_chosen_in_another_process_reaches_this_ones_cache(database_url: str, toy: object) -> None:
    """Two processes on one PostgreSQL: a /game prefs write in one updates the other's cache."""
    if not database_url.startswith("postgresql"):
        pytest.skip("one SQLite file serves one process")
    first, second = await Database(database_url).connect(), await Database(database_url).connect()
    try:
        here, there = Players(first), Players(second)
        await here.load_locales()
        await there.load_locales()
        await there.prefs("u1")  # cached over there before the write
        heard = asyncio.Event()  # the notification itself, as the other process receives it
        await second.listen(PREFS_CHANNEL, lambda user_id: heard.set() if user_id == "u1" else None)
        await here.set_prefs("u1", locale="cs")
        await asyncio.wait_for(heard.wait(), timeout=10)
        await there.settle()  # the cache's re-read, started by the same notification
        cached = there.cached("u1")
        assert there.chosen_locale("u1") == "cs" and cached is not None and cached.locale == "cs"
        assert (await there.prefs("u1")).locale == "cs"
    finally:
        await there.settle()
        await first.close()
        await second.close()


async def test_closing_waits_for_the_reads_and_the_transaction_in_flight(tmp_path: Path) -> None:
    """Closing the connections under a statement running inline on the loop's thread crashed the
    process (a segfault in SQLite): close() waits for the read lent out and the transaction under
    way, and refuses new ones meanwhile."""
    db = await SqliteDatabase(tmp_path / "close.db").connect()
    release = asyncio.Event()
    holding = [asyncio.Event(), asyncio.Event()]

    async def hold(opened: Any, held: asyncio.Event) -> int:
        async with opened as conn:
            held.set()
            await release.wait()
            rows = await conn.execute_fetchall("SELECT count(*) FROM games")
            return int(rows[0][0])

    reader = asyncio.create_task(hold(db.reading(inline=True), holding[0]))
    writer = asyncio.create_task(hold(db.transaction(inline=True), holding[1]))
    await asyncio.wait_for(asyncio.gather(*(held.wait() for held in holding)), 5)
    closing = asyncio.create_task(db.close())
    await asyncio.sleep(0)  # one turn of the loop, not a wait: close() begins, then waits for both
    try:
        assert not closing.done()
        for opening in (db.reading, db.transaction):
            with pytest.raises(RuntimeError, match="closed"):
                await asyncio.wait_for(hold(opening(), asyncio.Event()), 1)
    finally:
        release.set()
    assert await asyncio.wait_for(asyncio.gather(reader, writer), 5) == [0, 0]
    await asyncio.wait_for(closing, 5)
    assert db._conn is None
