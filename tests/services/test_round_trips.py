"""A move is one short transaction with few statements: each one is a round trip while the
writer's lock is held (a thread hop on SQLite, a network round trip on PostgreSQL). The move
reads its game, seats, the players' vacations and the server's clock settings in one statement,
notes the interaction, appends the move, updates the game and records its announcement."""
from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.engine import registry
from bot.errors import AlreadyApplied
from bot.services.players import Players
from bot.services.table import GameService
from bot.storage import prefs as prefs_repo
from bot.storage.db import Database

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
MOVE_STATEMENTS = 5  # read the game, note the interaction, append the move, update the game, the outbox entry


class Counting:
    """A transaction's connection that notes every statement sent through it."""

    def __init__(self, conn: Any, sent: list[str]) -> None:
        self._conn, self._sent = conn, sent

    def execute(self, sql: str, params: Any = ()) -> Any:
        self._sent.append(sql)
        return self._conn.execute(sql, params)

    def execute_fetchall(self, sql: str, params: Any = ()) -> Any:
        self._sent.append(sql)
        return self._conn.execute_fetchall(sql, params)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


def counted(db: Database, door: str = "transaction") -> list[str]:
    """Statements of every ``db.transaction()`` (or other door) from now on (BEGIN and COMMIT not
    included)."""
    sent: list[str] = []
    plain = getattr(db, door)

    @asynccontextmanager
    async def counting(**kw: Any) -> AsyncIterator[Any]:
        async with plain(**kw) as conn:
            yield Counting(conn, sent)

    setattr(db, door, counting)
    return sent


async def tolp_table(db: Database, service: GameService) -> None:
    await Players(db).set_guild_settings("g", reminder_share=0.25)
    await service.create(guild_id="g", channel_id="c", game="tolp", user_id="u0", name="A", seed="trips")
    for i in range(1, 4):
        await service.join("c", f"u{i}", f"P{i}")
    await service.start("c", "u0")


def next_move(service: GameService, record: Any) -> tuple[int, str]:
    tolp = registry.get("tolp")
    seat = min(service.to_act(record))
    return seat, str(next(iter(tolp.legal_actions(service.states.view(tolp, record), seat))))


async def test_a_tolp_move_is_five_statements_and_reads_what_it_needs_with_the_game(db: Database) -> None:
    service = GameService(db, clock=lambda: NOW)
    await tolp_table(db, service)
    record = await service.require_current("c")
    seat, action = next_move(service, record)
    async with db.transaction() as conn:  # the next seat is on vacation: that must move its deadline
        await prefs_repo.set_user(conn, f"u{(seat + 1) % 4}", vacation_until=(NOW + timedelta(days=3)).isoformat())
    sent = counted(db)
    update = await service.act(user_id=f"u{seat}", action=action, channel_id="c", interaction_id="i1")
    assert len(sent) == MOVE_STATEMENTS, sent
    stored = await service.get(record.id)
    assert (update.record.ply, update.record.version, update.record.state) == (stored.ply, stored.version,
                                                                               stored.state)
    assert [s.bank_seconds for s in update.record.seats] == [s.bank_seconds for s in stored.seats]
    # what the single read brought along was used: the vacation and the server's reminder share
    to_act = min(service.to_act(stored))
    deadline = datetime.fromisoformat(stored.turn_deadline or "")
    if to_act == (seat + 1) % 4:
        assert deadline >= NOW + timedelta(days=3)
    else:
        assert deadline <= NOW + timedelta(days=3)
    alarm = (await db.fetchone("SELECT alarm_at FROM games WHERE id = ?", (record.id,)))[0]
    assert datetime.fromisoformat(alarm) == NOW + (deadline - NOW) * 0.25


async def test_the_interaction_that_finished_a_game_delivered_again_is_already_applied(service: GameService) -> None:
    await service.create(guild_id="g", channel_id="c", game="toy", user_id="u0", name="Ann", options={"target": 5})
    await service.join("c", "u1", "Bo")
    await service.start("c", "u0")
    await service.act(user_id="u0", action="add 3", channel_id="c", interaction_id="a")
    update = await service.act(user_id="u1", action="add 3", channel_id="c", interaction_id="b")
    assert update.finished
    with pytest.raises(AlreadyApplied):  # not "no game here": that very interaction ended it
        await service.act(user_id="u1", action="add 3", channel_id="c", interaction_id="b")
    assert [m[2] for m in await service.moves(update.record.id)] == ["add 3", "add 3"]


async def test_the_current_game_is_one_statement_without_a_transaction_around_it(db: Database) -> None:
    service = GameService(db, clock=lambda: NOW)
    await tolp_table(db, service)
    single, snapshots = counted(db, "reading_one"), counted(db, "reading")
    record = await service.require_current("c")
    assert len(single) == 1 and snapshots == []
    assert [s.name for s in record.seats] == ["A", "P1", "P2", "P3"]
    assert record.guild_settings == {"reminder_share": 0.25}
