"""``gamemaster db backup PATH``: a consistent copy of the SQLite database while the bot runs.

SQLite's ``VACUUM INTO`` writes the database as one read transaction sees it (WAL mode: the bot
keeps writing meanwhile, the copy holds every commit before its start and none after), compacted,
into a new file created owner-only. PostgreSQL has its own tool for this (pg_dump; docs/operations.md)."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from bot.storage.health import StorageProblem

OWNER_ONLY = 0o600


def create_owner_only(path: Path) -> None:
    """Create ``path`` empty, readable and writable by its owner only (a database, a backup);
    an existing file is left as it is."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, OWNER_ONLY))
    except FileExistsError:
        pass


def backup_sqlite(source: str, destination: Path) -> int:
    """Copy the database at ``source`` into the new file ``destination``; its size in bytes."""
    if destination.exists() and destination.stat().st_size:
        raise StorageProblem("backup.exists", destination)
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
        create_owner_only(destination)
    except OSError as exc:
        raise StorageProblem("storage.folder_read_only", destination, folder=str(destination.parent),
                             reason=exc.strerror or str(exc)) from None
    conn = sqlite3.connect(source, isolation_level=None)
    try:
        conn.execute("PRAGMA busy_timeout=5000")
        conn.execute("VACUUM INTO ?", (str(destination),))
    except sqlite3.Error as exc:
        destination.unlink(missing_ok=True)
        raise StorageProblem("storage.unusable", destination, reason=str(exc)) from None
    finally:
        conn.close()
    return destination.stat().st_size
