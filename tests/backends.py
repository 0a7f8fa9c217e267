"""The two storage backends the tests run on, and the mark that runs a Discord test on both.

Storage and service tests run on both backends (the ``database_url`` fixture in tests/conftest.py).
Discord tests run on SQLite (tests/discord/conftest.py); ``@on_both_backends`` also runs one on
PostgreSQL. It marks the Discord tests whose PostgreSQL run adds something: concurrency (readers
beside a writer, a double delivery, simultaneous moves), timers and shards, undo votes, threads and
rematches, and one whole game with a restart. Together they execute every SQL statement the
Discord tests execute on PostgreSQL (checked when the split was made; see /work/notes/suite.md)."""
from __future__ import annotations

from pathlib import Path

import pytest

BACKENDS = ("sqlite", "postgres")

on_both_backends = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)


async def database_url_for(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An SQLite file in the test's temporary folder, or an empty schema on the session's
    PostgreSQL server (its URL names the schema as search_path)."""
    if request.param == "sqlite":
        return str(tmp_path / "gm.sqlite3")
    if request.node.get_closest_marker("sqlite_only"):
        pytest.skip("about the SQLite file itself")
    return await request.getfixturevalue("pg_server").create_schema()
