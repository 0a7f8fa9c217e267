"""``gamemaster db copy``: every game, seat, move, preference and setting reaches the other backend
and replays there; a destination that already holds games is refused."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.cli import main
from bot.services.table import GameService
from bot.storage import prefs
from bot.storage.backend import backend_of
from bot.storage.copy import COPIED, LEFT, table_names
from bot.storage.db import Database


async def fill(url: str) -> None:
    db = await Database(url).connect()
    service = GameService(db)
    try:
        for channel in ("c1", "c2", "c3"):
            await service.create(guild_id="g", channel_id=channel, game="toy", user_id="u0", name="Ann")
            await service.join(channel, "u1", "Bo")
            await service.start(channel, "u0")
            await service.act(user_id="u0", action="add 2", channel_id=channel)
        await service.act(user_id="u1", action="add 3", channel_id="c1")
        await service.create(guild_id="g", channel_id="lobby", game="toy", user_id="u2", name="Cy")
        async with db.transaction() as conn:
            await prefs.set_user(conn, "u1", locale="sv", quiet_start=22, quiet_end=7)
            await prefs.set_guild(conn, "g", locale="cs", settings={"turn_hours": 12})
            await prefs.claim_reminder(conn, 1, 1, 1, 1)
    finally:
        await db.close()


async def test_every_table_is_copied_or_deliberately_left(database_url: str) -> None:
    db = await Database(database_url).connect()
    try:
        tables = await table_names(db)
    finally:
        await db.close()
    assert tables == {name for name, _ in COPIED} | (LEFT & tables), \
        "place each new table in COPIED or LEFT of bot/storage/copy.py"


@pytest.mark.parametrize("direction", ["to_other", "from_other"])
async def test_a_copy_to_the_other_backend_holds_everything_and_replays(
        direction: str, database_url: str, tmp_path: Path, toy: object, capsys: pytest.CaptureFixture[str]) -> None:
    other = str(tmp_path / "other.sqlite3")
    if backend_of(database_url) == "sqlite":
        other = database_url.replace("gm.sqlite3", "copy.sqlite3")
    source, destination = (database_url, other) if direction == "to_other" else (other, database_url)
    await fill(source)
    assert await asyncio.to_thread(main, ["db", "copy", source, destination]) == 0
    out = capsys.readouterr().out
    assert "Copied — games: 4, moves: 4, user preferences: 1, server settings: 1." in out
    assert "4 games replayed, 0 mismatched." not in out and "3 games replayed, 0 mismatched." in out

    db = await Database(destination).connect()
    try:
        service = GameService(db)
        first = await service.current("c1")
        assert first is not None and first.ply == 2 and first.state is not None and first.state["total"] == 5
        assert [m[2] for m in await service.moves(first.id)] == ["add 2", "add 3"]
        assert (await service.current("lobby")).status == "lobby"  # type: ignore[union-attr]
        async with db.transaction() as conn:
            assert not await prefs.claim_reminder(conn, 1, 1, 1, 1)  # the copied claim holds
            user = await prefs.get_user(conn, "u1")
            assert (user.locale, user.quiet_start, user.quiet_end) == ("sv", 22, 7)
            assert await prefs.get_guild(conn, "g") == ("cs", {"turn_hours": 12})
        # the copy goes on: a new game gets a fresh id, play continues
        new = await service.create(guild_id="g", channel_id="c9", game="toy", user_id="u5", name="Di")
        assert new.id == 5
        await service.act(user_id="u1", action="add 1", channel_id="c2")
    finally:
        await db.close()

    # never into a database that holds games
    assert await asyncio.to_thread(main, ["db", "copy", source, destination]) == 2
    assert "already holds games" in capsys.readouterr().err
