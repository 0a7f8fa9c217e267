"""Shared pytest fixtures. Kept small and generic; the fake Discord lives in tests/fakediscord/."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import sys
import traceback
from types import FrameType

import pytest
import pytest_asyncio

from tests.backends import BACKENDS, database_url_for

# the bots the tests start as processes (`gamemaster run`, the console) serve no web pages unless a
# test asks for them: parallel tests would all want the default port (tests/web starts its own)
os.environ["GAMEMASTER_WEB"] = "0"


def _dump_hang(signum: int, frame: FrameType | None) -> None:
    """``kill -USR1 <pytest worker>``: a test that hangs writes where it waits to
    /tmp/pytest-hang-<pid>.txt: the test, every thread's stack and every asyncio task's (an idle
    event loop shows nothing in the threads alone). Output capture does not swallow the file."""
    out = io.StringIO()
    out.write(f"{os.environ.get('PYTEST_CURRENT_TEST', '?')}\n")
    for ident, stack in sys._current_frames().items():
        out.write(f"--- thread {ident}\n{''.join(traceback.format_stack(stack))}")
    try:
        tasks = asyncio.all_tasks(asyncio.get_running_loop())
    except RuntimeError:
        tasks = set()
    for task in tasks:
        out.write(f"--- task {task.get_name()}\n")
        task.print_stack(file=out)
    with open(f"/tmp/pytest-hang-{os.getpid()}.txt", "w", encoding="utf-8") as file:
        file.write(out.getvalue())


if hasattr(signal, "SIGUSR1"):
    signal.signal(signal.SIGUSR1, _dump_hang)


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    """pyproject's addopts ask pytest-xdist for one worker per core; a venv made before it joined
    the test extra runs the suite in one process instead of refusing the options."""
    if not pluginmanager.has_plugin("xdist"):
        group = parser.getgroup("xdist", "pytest-xdist is not installed")
        # pytest reserves lowercase short options for plugins; _addoption is how xdist adds -n itself
        group._addoption("-n", "--numprocesses", dest="numprocesses", default=None, help="needs pytest-xdist")
        group.addoption("--maxprocesses", dest="maxprocesses", default=None, help="needs pytest-xdist")
        group.addoption("--dist", dest="dist", default=None, help="needs pytest-xdist")


def pytest_report_header(config: pytest.Config) -> str | None:
    if config.pluginmanager.has_plugin("xdist"):
        return None
    return "pytest-xdist is not installed: one process (pip install -e '.[test]' for one worker per core)"


@pytest_asyncio.fixture
async def fake():
    """A started loopback FakeDiscord that discord.py (REST + gateway) points at.

    Bots logged in with ``fake.login(bot)`` / ``fake.connect(bot)`` are closed at teardown and
    discord.py's Route.BASE / DEFAULT_GATEWAY are restored.
    """
    from tests.fakediscord import FakeDiscord

    fd = FakeDiscord()
    await fd.start()
    fd.point_discord_py_here()
    try:
        yield fd
        # every Discord test sweeps for messages that would ping everyone, here or a role
        assert fd.mass_pings == [], f"messages that would ping everyone, here or a role: {fd.mass_pings}"
        # ... and for calls past Discord's global limit of one token
        assert fd.global_violations() == [], f"past Discord's global rate limit: {fd.global_violations()[:5]}"
    finally:
        await fd.stop()


@pytest_asyncio.fixture
async def settle():
    """The ``settle(bot, timeout=5)`` helper: wait for the bot's interaction/event tasks."""
    from tests.fakediscord import settle as _settle

    return _settle


@pytest.fixture(scope="session")
def pg_server():
    """One throwaway PostgreSQL server for the session (see tests/pgserver.py): skipped where the
    binaries are not installed, a failure in CI."""
    from tests import pgserver

    if not pgserver.available():
        if pgserver.required():
            pytest.fail("CI must run the PostgreSQL tests, but PostgreSQL binaries were not found")
        pytest.skip("PostgreSQL is not installed")
    server = pgserver.PostgresServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest_asyncio.fixture(params=BACKENDS)
async def database_url(request, tmp_path) -> str:
    """A fresh database on each backend: an SQLite file, or an empty schema on the session's
    PostgreSQL server (its URL names the schema as search_path)."""
    return await database_url_for(request, tmp_path)
