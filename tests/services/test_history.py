"""History pages on both backends: pages go newest first without gaps or repeats, finished games
and those ended early with /game end alike (who ended them, after how many moves in force; a lobby
ended is no history), and an ended game is never rated (ratings: test_ratings_kept.py)."""
from __future__ import annotations

from bot.errors import IllegalAction
from bot.services.history import History
from bot.services.movelog import in_force
from bot.services.ratings_kept import Ratings
from bot.services.table import GameService
from bot.services.undo import Undo
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


async def stratego_with_a_move_taken_back(service: GameService, channel: str) -> int:
    """Ann against the computer at Stratego, until one of her moves is taken back (against the
    computer an undo needs nobody's consent; moves that revealed something cannot be)."""
    record = await service.create(guild_id="g", channel_id=channel, game="stratego", user_id="ann", name="ANN",
                                  computers=1)
    record = (await service.start(channel, "ann")).record
    for _ in range(100):
        record = (await service.act(user_id="ann", action=service.legal_texts(record, 0)[0],
                                    game_id=record.id)).record
        try:
            await Undo(service).ask(user_id="ann", game_id=record.id)
        except IllegalAction:
            continue
        return record.id
    raise AssertionError("no move could be taken back")


async def test_pages_list_games_ended_early_beside_finished_ones(db: Database, service: GameService) -> None:
    history = History(db)
    won = await open_game(service, "c0", "ann", "bo")
    await service.resign("c0", "bo")
    await service.create(guild_id="g", channel_id="c1", game="toy", user_id="ann", name="ANN")
    await service.end("c1", "ann")  # a lobby ended: no game was played
    taken_back = await stratego_with_a_move_taken_back(service, "c2")
    await service.end("c2", "ann")  # her seat's name is kept
    await open_game(service, "c3", "ann", "bo")  # running: not history
    by_manager = await open_game(service, "c4", "ann", "bo")
    await service.end("c4", "mod", is_manager=True, name="Mod")

    first = await history.page("g", size=2)
    assert [g.id for g in first.games] == [by_manager, taken_back] and first.has_older and not first.has_newer
    newest, ended = first.games
    assert newest.ended and newest.ended_by == "Mod" and newest.moves == 0 and newest.names == ["ANN", "BO"]
    moves = await service.moves(taken_back)
    assert any(action.startswith("!undo ") for _, _, action, _ in moves)
    assert ended.ended and ended.ended_by == "ANN" and ended.game == "stratego"
    assert ended.moves == len(in_force([(seat, action) for _, seat, action, _ in moves])) < len(moves)
    second = await history.page("g", older_than=taken_back, size=2)
    assert [g.id for g in second.games] == [won] and not second.has_older and second.has_newer
    assert not second.games[0].ended and second.games[0].outcome["places"][0] == [0]
    assert [g.id for g in (await history.page("g", newer_than=won, size=2)).games] == [by_manager, taken_back]
    only = await history.page("g", game="toy", size=2)
    assert [g.id for g in only.games] == [by_manager, won] and not only.has_older
    assert [g.id for g in (await history.page("g", game="stratego")).games] == [taken_back]

    # ended games are never rated: the finished one is all that counts
    board = await Ratings(db).board("g", "toy", "ann")
    assert board.rating is not None and board.rating.games == 1 and [c.game_id for c in board.changes] == [won]
    assert sorted(r.games for r in board.ladder) == [1, 1]
    async with db.transaction() as conn:  # a game ended before the bot kept who ended it
        await conn.execute("UPDATE games SET ended_by = NULL, ended_by_name = NULL WHERE id = ?", (by_manager,))
    assert (await history.page("g", size=1)).games[0].ended_by is None
