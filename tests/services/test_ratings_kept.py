"""Ratings kept in the database, on both backends: what the tables hold after any sequence of
finishes and catch-ups equals a full recomputation in the order the games finished (not their
ids); a fresh service (as after a restart) rates only what finished since; two processes catching
up at once rate each game once; games finished before the migration are numbered in the order
they finished and rated by the first catch-up; ``db copy`` carries the ratings."""
from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.errors import IllegalAction
from bot.services import ratings_kept
from bot.services.pipeline import finished
from bot.services.ratings import Rated, ladder, recompute
from bot.services.ratings_kept import Ratings
from bot.services.table import GameService
from bot.services.undo import Undo
from bot.storage import games as games_repo
from bot.storage import ratings as repo
from bot.storage.backend import migration_files, statements
from bot.storage.db import Database

MIGRATION = "0015_ratings.sql"
USERS = ["u1", "u2", "u3", "u4", "u5"]


async def open_table(service: GameService, rng: random.Random, guild: str, channel: str) -> int:
    """A started toy table of 2-4 seats: a few of the five users, perhaps computers."""
    humans = rng.randint(1, 3)
    computers = rng.randint(0 if humans > 1 else 1, min(2, 4 - humans))
    users = rng.sample(USERS, humans)
    record = await service.create(guild_id=guild, channel_id=channel, game="toy", user_id=users[0],
                                  name=users[0].upper(), computers=computers)
    for user in users[1:]:
        await service.join(channel, user, user.upper())
    await service.start(channel, users[0])
    return record.id


def random_places(rng: random.Random, seats: int) -> list[list[int]]:
    """Places best first, some of them shared (ties)."""
    order = rng.sample(range(seats), seats)
    places: list[list[int]] = []
    for seat in order:
        if places and rng.random() < 0.35:
            places[-1].append(seat)
        else:
            places.append([seat])
    return places


async def finish(db: Database, game_id: int, places: list[list[int]]) -> None:
    """The game ends with these places, finished as the move pipeline finishes a game (its row,
    then its standings and finish number)."""
    outcome = {"places": places, "reason": "toy.end", "scores": {}}
    async with db.transaction() as conn:
        record = await games_repo.get(conn, game_id, lock=True)
        assert record is not None
        await games_repo.update(conn, record, record.version, status="finished", turn_deadline=None, outcome=outcome)
        await finished(conn, record, outcome)


async def finished_in_order(db: Database, guild: str) -> list[repo.Finished]:
    async with db.reading() as conn:
        return await repo.unrated(conn, guild, "toy", 0, 10_000)


async def stored(db: Database, guild: str) -> tuple[dict[str, tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every rating and change the tables hold for the server's toy games."""
    async with db.reading() as conn:
        async with conn.execute("SELECT player, name, mu, sigma, games, wins FROM ratings "
                                "WHERE guild_id = ? AND game = 'toy'", (guild,)) as cur:
            ratings = {r[0]: (r[1], float(r[2]), float(r[3]), int(r[4]), int(r[5])) for r in await cur.fetchall()}
        async with conn.execute("SELECT game_id, seat, player, place, players, shown_before, shown_after, "
                                "finish_number FROM rating_changes WHERE guild_id = ? AND game = 'toy' "
                                "ORDER BY finish_number, seat", (guild,)) as cur:
            changes = [(int(r[0]), int(r[1]), r[2], r[3], int(r[4]), float(r[5]), float(r[6]), int(r[7]))
                       for r in await cur.fetchall()]
    return ratings, changes


def expected(rated: Rated) -> tuple[dict[str, tuple[Any, ...]], list[tuple[Any, ...]]]:
    return ({k: (r.name, r.mu, r.sigma, r.games, r.wins) for k, r in rated.ratings.items()},
            [(c.game_id, c.seat, c.player, c.place, c.players, c.before, c.after, c.number) for c in rated.changes])


async def test_kept_ratings_equal_a_recomputation_in_finish_order(db: Database, service: GameService,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Ratings, "BATCH", 4)  # several batches per catch-up, after a restart too
    rng = random.Random(15)
    tables = {guild: [await open_table(service, rng, guild, f"{guild}{n}") for n in range(18)]
              for guild in ("g", "h")}
    order = {guild: rng.sample(ids, len(ids)) for guild, ids in tables.items()}  # not in id order
    assert order["g"] != sorted(order["g"])
    kept = Ratings(db)
    for step in range(18):
        for guild in ("g", "h"):
            game_id = order[guild][step]
            record = await service.get(game_id)
            await finish(db, game_id, random_places(rng, len(record.seats)))
        if rng.random() < 0.4:
            await kept.board("g", "toy", "u1")
        if rng.random() < 0.2:
            kept = Ratings(db)  # as after a restart
    board = await kept.board("g", "toy", "u1")
    for guild in ("g", "h"):
        results = await finished_in_order(db, guild)
        assert [r.id for r in results] == order[guild]  # numbered in the order they finished
        assert [r.number for r in results] == list(range(1, 19))
        await kept.catch_up(guild, "toy")
        rebuilt = recompute(results, "toy")
        assert await stored(db, guild) == expected(rebuilt)

    rebuilt = recompute(await finished_in_order(db, "g"), "toy")
    assert [r.name for r in board.ladder] == [r.name for r in ladder(rebuilt.ratings)[:10]]
    assert board.rating == rebuilt.ratings["u1"]
    assert board.changes == rebuilt.history("u1")[-8:]
    nobody = await kept.board("g", "toy", "nobody")
    assert nobody.rating is None and nobody.changes == [] and nobody.ladder == board.ladder
    assert (await kept.board("empty", "toy", "u1")) == ratings_kept.Board()


async def test_a_fresh_service_rates_only_what_finished_since(db: Database, service: GameService,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(4)
    ids = [await open_table(service, rng, "g", f"c{n}") for n in range(6)]
    for game_id in ids[:5]:
        await finish(db, game_id, [[0], [1]] if rng.random() < 0.5 else [[1], [0]])
    first = await Ratings(db).board("g", "toy", "u1")
    rated: list[int] = []
    real = ratings_kept.recompute

    def counting(games: list[repo.Finished], game: str, start: Rated | None = None) -> Rated:
        rated.extend(g.id for g in games)
        return real(games, game, start)

    monkeypatch.setattr(ratings_kept, "recompute", counting)
    restarted = Database(db.url)
    await restarted.connect()
    try:
        assert await Ratings(restarted).board("g", "toy", "u1") == first  # nothing recomputed
        assert rated == []
        await finish(restarted, ids[5], [[1, 0]])
        after = await Ratings(restarted).board("g", "toy", "u1")
        assert rated == [ids[5]]  # just the one game, on top of the stored ratings
    finally:
        await restarted.close()
    assert await stored(db, "g") == expected(real(await finished_in_order(db, "g"), "toy"))
    assert after.ladder != first.ladder or after.changes != first.changes


async def test_two_processes_catching_up_at_once_rate_each_game_once(db: Database, service: GameService) -> None:
    rng = random.Random(9)
    for n in range(24):
        game_id = await open_table(service, rng, "g", f"c{n}")
        await finish(db, game_id, random_places(rng, len((await service.get(game_id)).seats)))
    other = Database(db.url)
    await other.connect()
    try:
        first, second = Ratings(db), Ratings(other)
        first.BATCH = second.BATCH = 5
        done = await asyncio.gather(first.catch_up("g", "toy"), second.catch_up("g", "toy"),
                                    Ratings(other).catch_up("g", "toy"))
    finally:
        await other.close()
    assert sum(done) == 24  # every game rated by exactly one of them
    assert await stored(db, "g") == expected(recompute(await finished_in_order(db, "g"), "toy"))
    async with db.transaction() as conn:  # a mark that moved on is not moved again from where it was
        assert not await repo.advance(conn, "g", "toy", 0, 24)
        assert (await repo.mark(conn, "g", "toy")).rated == 24


async def test_the_migration_numbers_earlier_games_in_finish_order_and_the_first_read_rates_them(
        db: Database, service: GameService) -> None:
    rng = random.Random(21)
    ids = [await open_table(service, rng, "g", f"c{n}") for n in range(8)]
    for game_id in ids:
        await finish(db, game_id, random_places(rng, len((await service.get(game_id)).seats)))
    order = rng.sample(ids, len(ids))
    sql = next(sql for _, name, sql in migration_files(db.backend) if name == MIGRATION)
    async with db.transaction() as conn:  # back to before ratings were kept, finished in another order
        for table in ("rating_changes", "ratings", "rating_marks"):
            await conn.execute(f"DROP TABLE {table}")
        for n, game_id in enumerate(order):
            await conn.execute("UPDATE games SET finish_number = NULL, finished_at = ? WHERE id = ?",
                               (f"2026-01-01T10:00:{n:02d}+00:00", game_id))
        for statement in statements(sql):
            if not statement.startswith(("ALTER TABLE games", "CREATE INDEX games_")):
                await conn.execute(statement)
    results = await finished_in_order(db, "g")
    assert [r.id for r in results] == order
    board = await Ratings(db).board("g", "toy", "u2")
    assert await stored(db, "g") == expected(recompute(results, "toy"))
    assert board.ladder


@pytest.mark.sqlite_only  # the repair (and the benchmark filler that uses it) is SQLite's
async def test_the_filler_numbers_games_stored_in_bulk_after_the_others(db: Database, service: GameService) -> None:
    rng = random.Random(2)
    ids = [await open_table(service, rng, "g", f"c{n}") for n in range(5)]
    for game_id in ids:
        await finish(db, game_id, [[0], [1]])
    async with db.transaction() as conn:
        await conn.execute("UPDATE games SET finish_number = NULL WHERE id IN (?, ?)", (ids[1], ids[3]))
        await conn.execute("UPDATE rating_marks SET finished = 3")
        await repo.number_unnumbered(conn)
    assert [r.id for r in await finished_in_order(db, "g")] == [ids[0], ids[2], ids[4], ids[1], ids[3]]
    assert await Ratings(db).catch_up("g", "toy") == 5


async def test_a_finished_game_cannot_be_undone(db: Database, service: GameService) -> None:
    game_id = await open_table(service, random.Random(1), "g", "c")
    record = await service.get(game_id)
    await service.resign("c", record.seats[0].user_id or "")
    with pytest.raises(IllegalAction) as refused:
        await Undo(service).ask(user_id=record.seats[0].user_id or "", game_id=game_id)
    assert refused.value.key == "error.game_over"


async def test_a_copy_carries_the_ratings(database_url: str, tmp_path: Path, toy: object,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    other = str(tmp_path / "copy.sqlite3")
    src = await Database(database_url).connect()
    try:
        service = GameService(src)
        rng = random.Random(5)
        for n in range(4):
            game_id = await open_table(service, rng, "g", f"c{n}")
            await finish(src, game_id, random_places(rng, len((await service.get(game_id)).seats)))
        board = await Ratings(src).board("g", "toy", "u3")
        kept = await stored(src, "g")
    finally:
        await src.close()
    # the command compares every copied table's rows and replays every game on the copy
    assert await asyncio.to_thread(main, ["db", "copy", database_url, other]) == 0, capsys.readouterr()
    assert "4 games replayed, 0 mismatched." in capsys.readouterr().out
    dst = await Database(other).connect()
    try:
        assert await Ratings(dst).catch_up("g", "toy") == 0
        assert await Ratings(dst).board("g", "toy", "u3") == board
        assert await stored(dst, "g") == kept
    finally:
        await dst.close()
