"""History pages on both backends: pages go newest first without gaps or repeats (ratings:
test_ratings_kept.py)."""
from __future__ import annotations

from bot.services.history import History
from bot.services.table import GameService
from bot.storage.db import Database


async def open_game(service: GameService, channel: str, first: str, second: str) -> int:
    record = await service.create(guild_id="g", channel_id=channel, game="toy", user_id=first, name=first.upper())
    await service.join(channel, second, second.upper())
    await service.start(channel, first)
    return record.id


async def test_pages_go_newest_first_without_gaps(db: Database, service: GameService) -> None:
    history = History(db)
    ids = []
    for i in range(5):
        ids.append(await open_game(service, f"c{i}", "ann", "bo"))
        await service.resign(f"c{i}", "bo")
    await open_game(service, "running", "ann", "bo")  # not finished: not history
    first = await history.page("g", size=2)
    assert [g.id for g in first.games] == [ids[4], ids[3]] and first.has_older and not first.has_newer
    assert first.games[0].names == ["ANN", "BO"] and first.games[0].outcome["places"][0] == [0]
    second = await history.page("g", older_than=ids[3], size=2)
    third = await history.page("g", older_than=ids[1], size=2)
    assert [g.id for g in second.games] == [ids[2], ids[1]] and [g.id for g in third.games] == [ids[0]]
    assert not third.has_older and third.has_newer
    back = await history.page("g", newer_than=ids[0], size=2)
    assert [g.id for g in back.games] == [ids[2], ids[1]]
    assert (await history.page("other")).games == []
    only = await history.page("g", game="toy", older_than=ids[3], size=2)
    assert [g.id for g in only.games] == [ids[2], ids[1]] and only.game == "toy"
    assert (await history.page("g", game="zlodej")).games == []
    stale = await history.page("g", older_than=ids[0], size=2)  # a page button older than every game
    assert [g.id for g in stale.games] == [ids[4], ids[3]]
