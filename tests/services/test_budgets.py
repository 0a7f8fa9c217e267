"""#27 point 2, budgets: token buckets per user and per server for expensive work, a cap on open
tables per user, and each table's vacation clamped to its own server's limit. Both backends where
storage is involved."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from bot.errors import IllegalAction
from bot.services.lobby import MAX_OPEN_TABLES
from bot.services.table import GameService
from bot.services.user_budget import COSTS, Budgets, OverBudget, Rate
from bot.storage import prefs
from bot.storage.db import Database


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_budgets_a_burst_then_try_again_in_n_seconds() -> None:
    clock = Clock()
    budgets = Budgets(user=Rate(capacity=4, per_second=0.5), server=Rate(capacity=100, per_second=10), clock=clock)
    for _ in range(4):
        budgets.spend("replay", "ann", "g")
    with pytest.raises(OverBudget) as over:
        budgets.spend("replay", "ann", "g")
    assert over.value.key == "budget.wait" and over.value.params["seconds"] == 2  # 1 token at 0.5/s
    budgets.spend("replay", "bo", "g")  # another player is not held back
    clock.now += 2
    budgets.spend("replay", "ann", "g")
    with pytest.raises(OverBudget) as over:
        budgets.spend("export", "ann", "g")  # costs three
    assert over.value.params["seconds"] == 6


def test_budgets_per_server_too() -> None:
    clock = Clock()
    budgets = Budgets(user=Rate(capacity=100, per_second=10), server=Rate(capacity=5, per_second=1), clock=clock)
    for user in "abcde":
        budgets.spend("history", user, "g")
    with pytest.raises(OverBudget):
        budgets.spend("history", "f", "g")
    budgets.spend("history", "f", "other server")
    budgets.spend("history", "f", None)  # a DM: only the user's bucket


def test_budgets_a_refusal_takes_nothing() -> None:
    clock = Clock()
    budgets = Budgets(user=Rate(capacity=COSTS["thread"], per_second=1), clock=clock)
    budgets.spend("replay", "ann", "g")
    with pytest.raises(OverBudget):
        budgets.spend("thread", "ann", "g")
    clock.now += 1
    budgets.spend("thread", "ann", "g")


async def test_budgets_cap_on_open_tables_per_user(db: Database, service: GameService, toy: object) -> None:
    for n in range(MAX_OPEN_TABLES):
        await service.create(guild_id="g", channel_id=f"c{n}", game="toy", user_id="ann", name="Ann",
                             max_open=MAX_OPEN_TABLES)
    with pytest.raises(IllegalAction) as refused:
        await service.create(guild_id="g", channel_id="one more", game="toy", user_id="ann", name="Ann",
                             max_open=MAX_OPEN_TABLES)
    assert refused.value.key == "budget.open_tables" and refused.value.params["maximum"] == MAX_OPEN_TABLES
    await service.create(guild_id="g", channel_id="one more", game="toy", user_id="bo", name="Bo",
                         max_open=MAX_OPEN_TABLES)
    await service.end("c0", "ann")
    await service.create(guild_id="g", channel_id="again", game="toy", user_id="ann", name="Ann",
                         max_open=MAX_OPEN_TABLES)


async def test_budgets_vacation_clamped_to_each_tables_own_server(db: Database, service: GameService,
                                                                    toy: object) -> None:
    async with db.transaction() as conn:
        await prefs.set_guild(conn, "strict", settings={"max_vacation_days": 3})
        await prefs.set_guild(conn, "lenient", settings={"max_vacation_days": 20})
    for guild in ("strict", "lenient"):
        await service.create(guild_id=guild, channel_id=guild, game="toy", user_id="bo", name="Bo")
        await service.join(guild, "ann", "Ann")
        await service.start(guild, "bo")
        await service.act(user_id="bo", action="add 1", channel_id=guild)  # Ann to move at both
    until, moved = await service.set_vacation("ann", 10, "lenient")  # asked on the lenient server
    assert until is not None and len(moved) == 2
    for guild, days in (("strict", 3), ("lenient", 10)):
        record = await service.current(guild)
        assert record is not None and record.turn_deadline and record.turn_started_at
        started = datetime.fromisoformat(record.turn_started_at)
        paused = datetime.fromisoformat(record.turn_deadline) - started - timedelta(seconds=record.turn_seconds)
        assert abs(paused - timedelta(days=days)) < timedelta(minutes=5), (guild, paused)
    with pytest.raises(IllegalAction):
        await service.set_vacation("ann", 21, "lenient")
