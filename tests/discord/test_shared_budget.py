"""Discord's global limit binds a bot token, not a process: two processes of one token on one
PostgreSQL (here two discord.py HTTP clients, each with its own pacer and its own connection pool,
as two shard processes have) stay within 50 counted requests in any second together, because
each call first takes a place in the token's slot in the database."""
from __future__ import annotations

import asyncio
from typing import Any

import discord

from bot.services.budget import GlobalPacer
from bot.services.shared_budget import SharedBudget
from bot.storage.db import Database
from cogs.client import pace_counted_calls
from tests.fakediscord import FakeDiscord

CALLS = 60  # per process: more than one process's own pace (45/s) lets through in a second


async def test_two_processes_of_one_token_stay_within_the_global_limit_together(
        fake: FakeDiscord, pg_server: Any) -> None:
    url = await pg_server.create_schema()
    databases = [await Database(url).connect(), await Database(url).connect()]
    clients: list[discord.http.HTTPClient] = []
    budgets = [SharedBudget(db, "fake-token") for db in databases]
    try:
        for budget in budgets:
            http = discord.http.HTTPClient(asyncio.get_running_loop())
            pace_counted_calls(http, GlobalPacer(shared=budget))
            await http.static_login("fake-token")  # GET /users/@me: counted too
            clients.append(http)
        await asyncio.gather(*(http.get_user(int(fake.bot_user["id"])) for http in clients for _ in range(CALLS)))
        assert len(fake.counted_requests) == 2 * (CALLS + 1)
        assert fake.global_violations() == []
        assert fake.busiest_second() <= 50
        # the database, not each process alone, held them back: both found the token's slots full
        assert all(budget.refused > 0 for budget in budgets), [b.refused for b in budgets]
        assert sum(budget.reserved for budget in budgets) == 2 * (CALLS + 1)
        rows = await databases[0].fetchall("SELECT slot, used FROM rate_slots")
        assert rows and max(row["used"] for row in rows) <= budgets[0].quota
    finally:
        for http in clients:
            await http.close()
        for db in databases:
            await db.close()


async def test_without_the_database_each_process_paces_alone(fake: FakeDiscord, pg_server: Any) -> None:
    """A database that cannot be reached leaves each process to its own pace (no call fails)."""
    url = await pg_server.create_schema()
    db = await Database(url).connect()
    budget = SharedBudget(db, "fake-token")
    await db.close()  # gone
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    pace_counted_calls(http, GlobalPacer(shared=budget))
    try:
        await http.static_login("fake-token")
        assert len(fake.counted_requests) == 1 and budget.reserved == 0
    finally:
        await http.close()
