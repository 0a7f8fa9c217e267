"""A database that cannot serve ends `gamemaster run` and `gamemaster db verify` with one clear line
and exit code 3, and leaves the file exactly as it was.

Each case runs the real CLI as a subprocess with a timeout (a hang fails the test; how fast the
refusal comes is measured by `python -m bench.bench_refusals`, not asserted here). Read-only
storage is a real read-only file system: the command runs inside ``unshare --user --mount`` with
the folder bind-mounted read-only, which stops root too (chmod does not: root writes through it).
Where user namespaces are not allowed, a non-root run falls back to chmod; root without
namespaces cannot simulate a read-only disk, and those two cases are skipped with that reason.
"""
from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.services.table import GameService
from bot.storage.db import Database

PROJECT = Path(__file__).resolve().parents[2]
LIMIT = 20.0  # a hang is killed here; a healthy failure takes about a second


def gamemaster(db: Path, *args: str, wrap: list[str] | None = None) -> tuple[int, str]:
    env = dict(os.environ, GAMEMASTER_DB=str(db), DISCORD_TOKEN="fake-token", GAMEMASTER_LOG_LEVEL="WARNING",
               GAMEMASTER_API_BASE="http://127.0.0.1:9/api/v10", PYTHONPATH=str(PROJECT))
    done = subprocess.run([*(wrap or []), sys.executable, "-m", "bot", *args], env=env, cwd=db.parent.parent,
                          capture_output=True, text=True, timeout=LIMIT)
    return done.returncode, (done.stdout + done.stderr).strip()


def fingerprint(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


async def _stored_games(path: Path, count: int = 40) -> None:
    """A real database with games in it (WAL mode, checkpointed into the main file)."""
    async with Database(path) as db:
        service = GameService(db)
        for n in range(count):
            await service.create(guild_id="1", channel_id=str(100 + n), game="tolp", user_id="7", name="ann")
            for seat in (8, 9):
                await service.join(str(100 + n), str(seat), f"p{seat}")
            await service.start(str(100 + n), "7")
        await db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


@pytest.fixture(scope="module")
def healthy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("healthy") / "games.sqlite3"
    asyncio.run(_stored_games(path))
    for extra in (Path(f"{path}-wal"), Path(f"{path}-shm")):
        extra.unlink(missing_ok=True)
    return path


def broken_copy(healthy: Path, tmp_path: Path, kind: str) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "games.sqlite3"
    data = healthy.read_bytes()
    if kind == "garbage":
        data = hashlib.sha512(b"not a database").digest() * 128
    elif kind == "zeroed":
        data = bytes(len(data))
    elif kind == "truncated":
        data = data[:8192]
    elif kind == "damaged":  # the header and schema are fine; pages in the middle are zeroed
        middle = len(data) // 4096 // 2 * 4096
        data = data[:middle] + bytes(3 * 4096) + data[middle + 3 * 4096:]
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("command", [["run"], ["db", "verify"]], ids=["run", "verify"])
@pytest.mark.parametrize(("kind", "words"), [("garbage", "is not a SQLite database"),
                                              ("zeroed", "is not a SQLite database"),
                                              ("truncated", "is cut short")])
def test_a_broken_file_ends_in_one_clear_line_and_is_left_as_it_was(healthy: Path, tmp_path: Path, kind: str,
                                                                     words: str, command: list[str]) -> None:
    path = broken_copy(healthy, tmp_path, kind)
    before = fingerprint(path.parent)
    code, output = gamemaster(path, *command)
    assert code == 3, output
    assert output.count("\n") == 0 and words in output and str(path) in output and "backup" in output, output
    assert fingerprint(path.parent) == before  # no byte changed, no -wal or -shm file created


def test_damaged_pages_are_found_by_db_verify(healthy: Path, tmp_path: Path) -> None:
    path = broken_copy(healthy, tmp_path, "damaged")
    before = fingerprint(path.parent)
    code, output = gamemaster(path, "db", "verify")
    assert code == 3 and output.count("\n") == 0, output
    assert f"The database file {path} is damaged" in output and ".recover" in output
    assert fingerprint(path.parent) == before


def read_only_wrapper(folder: Path) -> list[str]:
    """A command prefix that runs the CLI with ``folder`` on a read-only file system."""
    script = f'mount -o bind,ro "{folder}" "{folder}" && exec "$@"'
    probe = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script, "sh", "true"],
                           capture_output=True, timeout=LIMIT) if shutil.which("unshare") else None
    if probe is not None and probe.returncode == 0:
        return ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script, "sh"]
    if os.geteuid() != 0:
        folder.chmod(0o555)
        for child in folder.iterdir():
            child.chmod(0o444)
        return []
    pytest.skip("running as root without user namespaces: no way to make a folder read-only for root")


def test_an_existing_wal_database_on_a_read_only_file_system(healthy: Path, tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "games.sqlite3"
    shutil.copy(healthy, path)
    assert path.read_bytes()[18:20] == b"\x02\x02"  # WAL mode, as the bot leaves it
    before = fingerprint(folder)
    wrap = read_only_wrapper(folder)
    try:
        for command in (["run"], ["db", "verify"]):
            code, output = gamemaster(path, *command, wrap=wrap)
            assert code == 3 and output.count("\n") == 0, output
            assert f"The database file {path} cannot be written" in output and "writable" in output
    finally:
        folder.chmod(0o755)
    assert fingerprint(folder) == before


def test_a_new_database_in_a_read_only_folder(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    wrap = read_only_wrapper(folder)
    try:
        code, output = gamemaster(folder / "new.sqlite3", "run", wrap=wrap)
    finally:
        folder.chmod(0o755)
    assert code == 3 and output.count("\n") == 0, output
    assert f"The database {folder / 'new.sqlite3'} cannot be created: the folder {folder}" in output
    assert "Event loop is closed" not in output
    assert list(folder.iterdir()) == []
