"""Shared pytest fixtures. Kept small and generic; the fake Discord lives in tests/fakediscord.py."""

from __future__ import annotations

import pytest_asyncio


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
    finally:
        await fd.stop()


@pytest_asyncio.fixture
async def settle():
    """The ``settle(bot, timeout=5)`` helper: wait for the bot's interaction/event tasks."""
    from tests.fakediscord import settle as _settle

    return _settle
