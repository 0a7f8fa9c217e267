"""#27 point 9, backups: ``gamemaster db backup PATH`` writes a consistent copy of the SQLite file
while the bot keeps writing (VACUUM INTO: one read transaction's view), created owner-only, which
``db verify`` accepts; on PostgreSQL it names pg_dump and writes nothing."""
from __future__ import annotations

import asyncio
import stat
from pathlib import Path

import pytest

from bot.cli import main
from bot.services.table import GameService
from bot.storage.backend import SQLITE, backend_of
from bot.storage.db import Database
from tests.toygame import ToyGame


async def test_backups_are_consistent_while_the_bot_writes(database_url: str, tmp_path: Path, toy: ToyGame,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    db = await Database(database_url).connect()
    service = GameService(db)
    target = tmp_path / "backups" / "gm-backup.sqlite3"
    try:
        for channel in ("c1", "c2"):
            await service.create(guild_id="g", channel_id=channel, game="toy", user_id="u0", name="Ann")
            await service.join(channel, "u1", "Bo")
            await service.start(channel, "u0")
        stop = asyncio.Event()

        async def keep_playing() -> int:  # the bot, moving on while the backup is taken
            moves = 0
            while not stop.is_set():
                for channel, user in (("c1", "u0"), ("c1", "u1"), ("c2", "u0"), ("c2", "u1")):
                    record = await service.current(channel)
                    if record is not None and record.status == "active" and \
                            record.seat_of(user) in service.to_act(record):
                        await service.act(user_id=user, action="add 1", channel_id=channel)
                        moves += 1
                await asyncio.sleep(0)
            return moves

        playing = asyncio.ensure_future(keep_playing())
        code = await asyncio.to_thread(main, ["db", "backup", str(target), "--db", database_url])
        stop.set()
        moved = await playing
    finally:
        await db.close()
    out = capsys.readouterr()
    if backend_of(database_url) != SQLITE:
        assert code == 2 and "pg_dump" in out.err and "pg_restore" in out.err and not target.exists()
        assert "secret" not in out.err
        return
    assert code == 0, out
    assert moved > 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert "Backed up" in out.out and "2 games replayed, 0 mismatched." in out.out
    # the copy is a database of its own that db verify accepts, holding both tables
    assert await asyncio.to_thread(main, ["db", "verify", "--db", str(target)]) == 0
    copy = await Database(target).connect(migrate=False)
    try:
        row = await copy.fetchone("SELECT COUNT(*) FROM games")
        assert row is not None and row[0] == 2
    finally:
        await copy.close()


@pytest.mark.sqlite_only
async def test_backups_never_overwrite_a_file(database_url: str, tmp_path: Path, toy: ToyGame,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    db = await Database(database_url).connect()
    await db.close()
    target = tmp_path / "precious.sqlite3"
    target.write_bytes(b"keep me")
    assert await asyncio.to_thread(main, ["db", "backup", str(target), "--db", database_url]) == 3
    assert target.read_bytes() == b"keep me" and "already exists" in capsys.readouterr().err


@pytest.mark.sqlite_only
async def test_backups_the_sqlite_file_and_its_wal_are_owner_only(database_url: str) -> None:
    db = await Database(database_url).connect()
    try:
        await db.fetchone("SELECT 1")
        path = Path(db.path)
        files = [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]
        assert all(f.exists() for f in files)
        assert [stat.S_IMODE(f.stat().st_mode) for f in files] == [0o600] * 3
    finally:
        await db.close()
