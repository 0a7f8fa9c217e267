"""Is the SQLite file fit to open? Checked before the async connection exists, reading only.

A garbage, zeroed or truncated file, a file SQLite cannot parse, or a file (or a folder for a new
one) that cannot be written must end start-up with one clear line, not a traceback and a hung
worker thread. These checks open the file read-only (and SQLite with ``immutable=1``, which
creates no journal, WAL or shared-memory file), so a damaged database is left exactly as it was
found for whoever restores it. Writability is tried for real (``open(..., O_RDWR)``, a probe file
in the folder) rather than guessed from permission bits, which root ignores.
"""
from __future__ import annotations

import os
import sqlite3
import tempfile
from pathlib import Path
from urllib.parse import quote

HEADER = b"SQLite format 3\x00"
SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_NOTADB = 10, 11, 26


class StorageProblem(Exception):
    """The database cannot be used. ``key`` is a catalog entry (``storage.*``) whose text says what
    is wrong, which file, and what to do; ``params`` fill it."""

    def __init__(self, key: str, path: str | Path, **params: object) -> None:
        self.key = key
        self.params = {"path": str(path), **params}
        super().__init__(f"{key}: {self.params}")


def is_damage(exc: BaseException) -> bool:
    """True when SQLite reports a damaged or unreadable file (not a busy lock or a bad query)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(exc, sqlite3.DatabaseError) and code is not None and code & 0xFF in (
        SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_NOTADB)


def check_file(path: str | Path, *, deep: bool = False) -> None:
    """Raise StorageProblem when ``path`` cannot serve as the bot's database. ``deep`` also runs
    SQLite's ``quick_check`` over every page (``gamemaster db verify``)."""
    path = Path(path)
    if not path.exists():
        _check_folder_writable(path)
        return
    try:
        size = path.stat().st_size
        with path.open("rb") as f:
            header = f.read(100)
    except OSError as exc:
        raise StorageProblem("storage.unreadable", path, reason=_reason(exc)) from None
    if size == 0:
        _check_writable(path)  # SQLite treats an empty file as a new database
        return
    if not header.startswith(HEADER):
        raise StorageProblem("storage.not_sqlite", path)
    if len(header) < 100:
        raise StorageProblem("storage.truncated", path, size=size, expected=100)
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    counter_valid = header[24:28] == header[92:96]
    if page_size < 512 or page_size & (page_size - 1):
        raise StorageProblem("storage.not_sqlite", path)
    if size % page_size or (counter_valid and size < pages * page_size):
        raise StorageProblem("storage.truncated", path, size=size,
                             expected=pages * page_size if counter_valid else size + page_size - size % page_size)
    _check_schema(path, deep=deep)
    _check_writable(path)


def _check_schema(path: Path, *, deep: bool) -> None:
    uri = f"file:{quote(str(path.resolve()))}?mode=ro&immutable=1"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=1)
    except sqlite3.Error as exc:
        raise StorageProblem("storage.unreadable", path, reason=str(exc)) from None
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        conn.execute("PRAGMA user_version").fetchone()
        if deep:
            rows = [r[0] for r in conn.execute("PRAGMA quick_check(5)").fetchall()]
            if rows != ["ok"]:
                # a row may span lines ("*** in database main ***\nPage 28: ..."): one line for the reader
                raise StorageProblem("storage.damaged", path, reason="; ".join(" ".join(r.split()) for r in rows)[:200])
    except sqlite3.DatabaseError as exc:
        raise StorageProblem("storage.damaged", path, reason=str(exc)) from None
    finally:
        conn.close()


def _check_writable(path: Path) -> None:
    """The bot writes every move: the file must open for writing, and the folder must take the
    WAL and shared-memory files SQLite keeps beside it (unless they already exist)."""
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError as exc:
        raise StorageProblem("storage.read_only", path, reason=_reason(exc)) from None
    os.close(fd)
    companions = [Path(f"{path}-wal"), Path(f"{path}-shm")]
    if all(c.exists() for c in companions):
        for companion in companions:
            try:
                os.close(os.open(companion, os.O_RDWR))
            except OSError as exc:
                raise StorageProblem("storage.read_only", companion, reason=_reason(exc)) from None
        return
    try:
        _probe(path.parent)
    except OSError as exc:
        raise StorageProblem("storage.read_only", path, reason=_reason(exc)) from None


def _check_folder_writable(path: Path) -> None:
    folder = path.parent
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    try:
        _probe(existing)
    except OSError as exc:
        raise StorageProblem("storage.folder_read_only", path, folder=str(existing), reason=_reason(exc)) from None


def _probe(folder: Path) -> None:
    """Create and remove a file in ``folder`` (the only honest test of writability, root included)."""
    with tempfile.NamedTemporaryFile(dir=folder, prefix=".gamemaster-probe-"):
        pass


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)
