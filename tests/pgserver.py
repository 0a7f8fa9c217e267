"""A throwaway PostgreSQL server for tests and benchmarks: initdb in a temporary directory, started
on a free loopback port, stopped and removed at the end.

PostgreSQL refuses to run as root; under root (CI machines) the server runs as the unprivileged
user ``gmtest``, created with ``useradd`` when missing. ``available()`` says whether the binaries
are installed; ``required()`` is true in CI (``CI=true``), where missing binaries are a failure.
"""
from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from itertools import count
from pathlib import Path

BIN_DIRS = ("/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin", "/usr/local/bin", "/usr/bin")
USER = "gmtest"
_names = count(1)


def bin_dir() -> Path | None:
    override = os.environ.get("GAMEMASTER_PG_BIN")
    for folder in ([override] if override else []) + list(BIN_DIRS):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists() \
                and (Path(folder) / "postgres").exists():
            return Path(folder)
    found = shutil.which("initdb")
    return Path(found).resolve().parent if found and (Path(found).resolve().parent / "postgres").exists() else None


def available() -> bool:
    return bin_dir() is not None


def required() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _run_as() -> str | None:
    """The user to run the server as: ourselves unless we are root."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam(USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER],
                       check=True, capture_output=True)
    return USER


class PostgresServer:
    """``start()`` / ``stop()``; ``url(db)`` is a DSN for a database on it; ``create_database()``."""

    def __init__(self, *, durable: bool = False) -> None:
        folder = bin_dir()
        if folder is None:
            raise RuntimeError("PostgreSQL binaries (initdb, pg_ctl, postgres) not found")
        self.bin = folder
        self.durable = durable  # tests trade durability for speed (fsync off); benchmarks keep it
        self.port = 0
        self.root: Path | None = None
        self.user = _run_as()
        self._options = ""

    def _cmd(self, *args: str | Path) -> subprocess.CompletedProcess[str]:
        kwargs: dict[str, object] = {}
        if self.user:
            kwargs["user"] = self.user
            kwargs["group"] = pwd.getpwnam(self.user).pw_gid
        return subprocess.run([str(a) for a in args], check=True, capture_output=True, text=True,
                              cwd="/", **kwargs)  # type: ignore[call-overload]

    def start(self) -> PostgresServer:
        self.root = Path(tempfile.mkdtemp(prefix="gm-pg-"))
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        data = self.root / "data"
        self._cmd(self.bin / "initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--locale=C", "--no-sync")
        options = ["-p {port}", f"-k {self.root}", "-c listen_addresses=127.0.0.1", "-c max_connections=200"]
        if not self.durable:
            options += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
        for _ in range(5):
            self.port = _free_port()
            self._options = " ".join(options).replace("{port}", str(self.port))
            try:
                self._cmd(self.bin / "pg_ctl", "-D", data, "-l", self.root / "server.log", "-w", "-t", "60",
                          "-o", self._options, "start")
                return self
            except subprocess.CalledProcessError:
                continue  # the port was taken between probing and binding: try another
        raise RuntimeError("PostgreSQL did not start: " + self.log())

    def log(self) -> str:
        path = (self.root or Path("/nonexistent")) / "server.log"
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""

    def stop(self) -> None:
        if self.root is None:
            return
        try:
            self._cmd(self.bin / "pg_ctl", "-D", self.root / "data", "-m", "immediate", "-w", "stop")
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.root, ignore_errors=True)
        self.root = None

    def restart(self) -> None:
        """Stop the server as an operator's restart does (``-m fast``: every connection is ended) and
        start it again on the same port, with the same data."""
        assert self.root is not None
        self._cmd(self.bin / "pg_ctl", "-D", self.root / "data", "-m", "fast", "-w", "stop")
        self._cmd(self.bin / "pg_ctl", "-D", self.root / "data", "-l", self.root / "server.log", "-w", "-t", "60",
                  "-o", self._options, "start")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str | None = None) -> str:
        """A new empty database; returns its URL."""
        name = name or f"gm_{os.getpid()}_{next(_names)}"
        self._cmd(self.bin / "psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-q",
                  "-c", f'CREATE DATABASE "{name}" TEMPLATE template0')
        return self.url(name)

    async def create_schema(self) -> str:
        """A new empty schema in the default database (much faster than a database); the URL
        sets it as the search path."""
        import asyncpg

        name = f"gm_{os.getpid()}_{next(_names)}"
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f'CREATE SCHEMA "{name}"')
        finally:
            await conn.close()
        return f"{self.url()}?search_path={name}"

    def __enter__(self) -> PostgresServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
