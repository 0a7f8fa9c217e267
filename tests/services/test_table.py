"""The service and the SQLite store: one move, one transaction; nothing lost on restart."""
from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.engine.registry import computer_action
from bot.errors import Conflict, Forbidden, IllegalAction, InvalidAction, NotYourTurn
from bot.runner import verify
from bot.services.table import GameService
from bot.storage.db import Database, migration_files


async def started(service: GameService, players: int = 2) -> None:
    await service.create(guild_id="g", channel_id="c", game="toy", user_id="u0", name="Ann")
    for i in range(1, players):
        await service.join("c", f"u{i}", f"P{i}")
    await service.start("c", "u0")


async def test_migrations_from_an_empty_file_reach_the_latest_version(tmp_path: Path) -> None:
    db = Database(tmp_path / "new.sqlite3")
    await db.connect(migrate=False)
    assert await db.schema_version() == 0
    assert await db.pending() == [name for _, name, _ in migration_files()]
    applied = await db.migrate()
    assert applied and await db.schema_version() == len(migration_files())
    assert await db.migrate() == []
    row = await db.fetchone("PRAGMA journal_mode")
    assert row is not None and row[0] == "wal"
    await db.close()


async def test_only_one_open_game_per_channel(service: GameService) -> None:
    await service.create(guild_id="g", channel_id="c", game="toy", user_id="u0", name="Ann")
    with pytest.raises(IllegalAction) as err:
        await service.create(guild_id="g", channel_id="c", game="toy", user_id="u1", name="Bo")
    assert err.value.key == "error.channel_busy"


async def test_a_game_survives_closing_and_reopening_the_database(database_url: str, toy: object) -> None:
    path = database_url
    db = await Database(path).connect()
    service = GameService(db)
    await started(service)
    await service.act(user_id="u0", action="add 3", channel_id="c")
    await service.act(user_id="u1", action="add 2", channel_id="c")
    before = await service.current("c")
    await db.close()

    db2 = await Database(path).connect()
    again = await GameService(db2).current("c")
    assert again is not None and before is not None
    assert again.state == before.state and again.ply == 2 and again.status == "active"
    assert [m[2] for m in await GameService(db2).moves(again.id)] == ["add 3", "add 2"]
    assert await verify(db2) == 0
    await db2.close()


async def test_two_clicks_on_the_same_button_apply_once(service: GameService) -> None:
    await started(service)
    results = await asyncio.gather(
        service.act(user_id="u0", action="add 1", channel_id="c", expected_ply=0),
        service.act(user_id="u0", action="add 1", channel_id="c", expected_ply=0),
        return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert sum(isinstance(r, Conflict) for r in results) == 1
    record = await service.current("c")
    assert record is not None and record.ply == 1 and record.state is not None and record.state["total"] == 1


async def test_refusals_change_nothing(service: GameService) -> None:
    await started(service)
    before = await service.current("c")
    for user, action, error in [("u1", "add 1", NotYourTurn), ("u0", "add 9", IllegalAction),
                                ("u0", "jump", InvalidAction), ("stranger", "add 1", Forbidden)]:
        with pytest.raises(error):
            await service.act(user_id=user, action=action, channel_id="c")
    after = await service.current("c")
    assert before is not None and after is not None
    assert (after.state, after.ply, after.version) == (before.state, before.ply, before.version)
    assert await service.moves(after.id) == []


async def test_a_finished_game_records_its_outcome_and_frees_the_channel(service: GameService) -> None:
    await started(service)
    user = 0
    update = None
    for _ in range(30):
        update = await service.act(user_id=f"u{user}", action="add 3", channel_id="c")
        if update.finished:
            break
        user = 1 - user
    assert update is not None and update.finished and update.record.outcome is not None
    assert update.record.outcome["places"][0] == [user]
    assert await service.current("c") is None


async def test_only_the_creator_or_a_manager_ends_a_game(service: GameService) -> None:
    await started(service)
    with pytest.raises(Forbidden):
        await service.end("c", "u1")
    record = await service.end("c", "u1", is_manager=True)
    assert record.status == "aborted"


async def test_private_changes_are_reported_only_for_changed_seats(service: GameService) -> None:
    await started(service, players=3)
    update = await service.act(user_id="u0", action="add 1", channel_id="c")
    # the secret of the next seat was re-rolled (maybe to the same value): seat 2 is untouched
    assert 2 not in update.private_changed and 0 not in update.private_changed
    assert update.to_act == frozenset({1})


async def test_computer_seats_move_by_themselves(service: GameService) -> None:
    await service.create(guild_id="g", channel_id="c", game="toy", user_id="u0", name="Ann", computers=1)
    update = await service.start("c", "u0")
    assert update.to_act == frozenset({0})
    update = await service.act(user_id="u0", action="add 1", channel_id="c")
    assert update.record.ply == 2 and update.to_act == frozenset({0})
    assert json.loads(json.dumps(update.record.state))["total"] == 2


async def test_an_older_database_is_migrated_with_its_games(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    for number, _, sql in migration_files()[:2]:
        old.executescript(sql)
        old.execute(f"PRAGMA user_version = {number}")
    old.execute("INSERT INTO games (channel_id, game, status, creator_id, seed, state, locale, turn_started_at, "
                "turn_deadline, created_at, updated_at) VALUES ('c', 'toy', 'active', 'u', 's', '{}', 'en', "
                "'2026-01-01T00:00:00+00:00', '2026-01-02T00:00:00+00:00', 'x', 'x')")
    old.commit()
    old.close()
    db = await Database(path).connect()
    assert await db.schema_version() == len(migration_files())
    row = await db.fetchone("SELECT alarm_at FROM games WHERE channel_id = 'c'")
    assert row is not None and row["alarm_at"] == "2026-01-01T00:00:00+00:00"  # looked at on the next tick
    await db.close()


async def test_ending_an_endless_tolp_game_keeps_its_standings(db: Database) -> None:
    from bot.engine import registry
    from bot.runner import verify
    from bot.services.players import Players

    service = GameService(db)
    await service.create(guild_id="g", channel_id="t", game="tolp", user_id="u0", name="A")
    for i in (1, 2):
        await service.join("t", f"u{i}", f"P{i}")
    await service.start("t", "u0")
    engine = registry.get("tolp")
    early = await service.current("t")
    assert early is not None
    while (record := await service.current("t")) is not None and record.state["round"] < 2:
        seat = min(service.to_act(record))
        await service.act(user_id=f"u{seat}", action=str(computer_action(engine, engine.load(record.state), seat)),
                          channel_id="t")
    ended = await service.end("t", "u0")
    assert ended.status == "finished" and ended.outcome is not None
    assert ended.outcome["reason"] == "tolp.end.closed" and sum(len(p) for p in ended.outcome["places"]) == 3
    assert (await Players(db).stats("g")).games == {"tolp": 1}
    assert await verify(db) == 0  # the closing is in the move log and replays


async def test_ending_a_game_without_standings_aborts_it(db: Database) -> None:
    service = GameService(db)
    await service.create(guild_id="g", channel_id="t", game="tolp", user_id="u0", name="A")
    for i in (1, 2):
        await service.join("t", f"u{i}", f"P{i}")
    await service.start("t", "u0")
    assert (await service.end("t", "u0")).status == "aborted"  # no round finished yet
