"""Stored Tjuv och Polis games begun in rules format 1: after the migration that names their format,
`db verify` replays them from the seed to their snapshots, and they play on (both backends)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.engine import registry
from bot.engine.registry import computer_action
from bot.runner import verify
from bot.services import rematch
from bot.services.core import outcome_to_dict
from bot.services.table import GameService
from bot.storage import games as repo
from bot.storage.backend import migration_files, statements
from bot.storage.db import Database

OLD = json.loads((Path(__file__).parents[1] / "games" / "tjuv" / "data" / "format1_game.json").read_text())
PLY = OLD["midway"]["ply"]


async def store_as_before(db: Database, channel: str, snapshot: dict[str, Any], ply: int) -> int:
    """A game as the format-1 code stored it: options without a format, its move log and snapshot."""
    async with db.transaction() as conn:
        game_id = await repo.insert(conn, guild_id="g", channel_id=channel, game="tjuv", creator_id="u0",
                                    options=OLD["options"], seed=OLD["seed"], locale="en", turn_seconds=86400)
        for seat in range(OLD["players"]):
            await repo.add_seat(conn, game_id, seat, f"u{seat}", f"P{seat}")
        for number, (seat, action) in enumerate(OLD["moves"][:ply], 1):
            await repo.append_move(conn, game_id, number, seat, action)
        record = await repo.get(conn, game_id)
        assert record is not None
        await repo.update(conn, record, record.version, status="active", state=snapshot, ply=ply)
    return game_id


async def rerun_format_migration(db: Database) -> None:
    """Run the migration again over rows stored after it (as they would have been stored before)."""
    (sql,) = [sql for _, name, sql in migration_files(db.backend) if "tjuv_format1" in name]
    async with db.transaction() as conn:
        for statement in statements(sql):
            await conn.execute(statement)


async def test_format1_games_replay_after_the_migration_and_play_on(database_url: str) -> None:
    db = await Database(database_url).connect()
    try:
        service = GameService(db)
        midway = await store_as_before(db, "old", OLD["midway"]["state"], PLY)
        # a format-1 game played on by the format-2 code: its snapshot got an empty pending list
        # and empty car tails
        later = dict(OLD["state"], pending=[], police=[dict(p, tail="") for p in OLD["state"]["police"]])
        finished = await store_as_before(db, "later", later, len(OLD["moves"]))
        await service.create(guild_id="g", channel_id="new", game="tjuv", user_id="n0", name="A")
        await service.join("new", "n1", "B")
        await service.start("new", "n0")
        await service.act(user_id="n1", action="nest A5", channel_id="new")
        assert await verify(db) == 1  # the format-1 logs replay as format 2 games: mismatched

        await rerun_format_migration(db)
        assert await verify(db) == 0
        for game_id in (midway, finished):
            record = await service.get(game_id)
            assert record is not None and record.options == {**OLD["options"], "format": 1}
        fresh = await service.current("new")
        assert fresh is not None and "format" not in fresh.options

        game = registry.get("tjuv")
        for _ in range(5):  # the old game plays on through the service
            record = await service.get(midway)
            assert record is not None and record.state is not None
            state = game.load(record.state)
            (seat,) = game.to_act(state)
            await service.act(user_id=f"u{seat}", action=str(computer_action(game, state, seat)), channel_id="old")
        record = await service.get(midway)
        assert record is not None and record.ply == PLY + 5 and "pending" not in (record.state or {})
        assert await verify(db) == 0

        # a rematch of an old game is a new game: format 2
        old = await service.get(finished)
        outcome = game.outcome(game.load(old.state or {}))
        assert outcome is not None
        async with db.transaction() as conn:
            await repo.update(conn, old, old.version, status="finished", outcome=outcome_to_dict(outcome))
        lobby = (await rematch.press(service, finished, "u0")).lobby
        assert lobby.options == OLD["options"]
    finally:
        await db.close()
