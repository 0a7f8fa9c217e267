"""Fixtures for driving the real GameMasterBot against the loopback fake Discord."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime
from pathlib import Path

import pytest
import pytest_asyncio

from bot.services.pacing import ChannelPacer
from bot.services.table import GameService
from bot.settings import Settings
from bot.storage.db import Database
from cogs.app import GameMasterApp as GameMasterBot
from tests.backends import database_url_for
from tests.fakediscord import FakeDiscord

BotFactory = Callable[..., Awaitable[GameMasterBot]]


@pytest_asyncio.fixture(params=["sqlite"])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Discord tests run on SQLite; ``@on_both_backends`` (tests/backends.py) also runs one on
    PostgreSQL, where the storage and service tests run anyway."""
    return await database_url_for(request, tmp_path)


@pytest_asyncio.fixture
async def make_bot(fake: FakeDiscord, database_url: str) -> AsyncIterator[BotFactory]:
    """Build and log in a GameMasterBot on one database (each backend); call again to 'restart' it."""
    opened: list[Database] = []
    pacers: list[ChannelPacer] = []
    bots: list[GameMasterBot] = []

    async def factory(clock: Callable[[], datetime] | None = None) -> GameMasterBot:
        db = await Database(database_url).connect()
        opened.append(db)
        # Discord's per-channel limit (5 messages / 5 s) at a fiftieth of the time scale, so whole
        # games stay fast (the pacer still holds back a few hundred posts over the Discord tests);
        # the fake enforces the same limit
        settings = Settings(database_url=database_url, sync_commands=True, scheduler_seconds=0, channel_window=0.1,
                            announce_sweep_seconds=0)
        fake.channel_rate = (settings.channel_posts, settings.channel_window)
        bot = GameMasterBot(settings, db, GameService(db, clock=clock), guild_ready_timeout=0.05)
        # a restart here takes milliseconds, not the seconds after which Discord's window is clear:
        # the bots of one test share what the channel already took
        pacers.append(pacers[0] if pacers else bot.pacer)
        bot.pacer = pacers[0]
        await fake.login(bot)
        bots.append(bot)
        return bot

    yield factory
    # a bot's background writes (a client language noticed) finish before the databases close:
    # closing the bot later waits for them, forever on a database closed under them
    for bot in bots:
        await asyncio.wait_for(bot.players.settle(), 10)
    # and the bots stop (their announcer's deliveries read the database inline, on this thread)
    # before their databases close; fake.stop() closes them only later
    for bot in bots:
        if not bot.is_closed():
            await asyncio.wait_for(fake.close_bot(bot), 30)
    for db in opened:
        await db.close()
