"""Fixtures for the web pages: a WebServer on a free loopback port beside a GameService, on each
backend (the pages' own tests), or beside the real bot and the fake Discord (tests/discord's
fixtures, for the browser tests)."""
from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from bot.services.table import GameService
from bot.settings import Settings
from bot.storage.db import Database
from bot.web.server import WebServer
from tests.discord.conftest import make_bot  # noqa: F401 - the browser tests' bot
from tests.web.browser import Browser

WEB = Settings(web_enabled=True, web_port=0)


@pytest_asyncio.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    database = Database(database_url)
    await database.connect()
    yield database
    await database.close()


@pytest_asyncio.fixture
async def web(db: Database) -> AsyncIterator[WebServer]:
    """The pages of a console-like bot (its tables are public) on a free port."""
    async with WebServer(WEB, GameService(db), default_public=True) as server:
        yield server


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One Chromium (Debian's, /usr/bin/chromium) for the session's browser tests."""
    opened = Browser.launch()
    yield opened
    opened.close()
