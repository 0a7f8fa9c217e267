"""/game stats from the standings kept as games finish equals the old count over every finished
game, both for games finished after the migration and for those it backfilled."""
from __future__ import annotations

import random
from collections import defaultdict

from bot.services.players import GuildStats, Players, PlayerStats
from bot.services.table import GameService
from bot.storage import games as repo
from bot.storage import standings
from bot.storage.backend import migration_files
from bot.storage.backend import statements as _statements
from bot.storage.db import Database
from bot.storage.standings import places_of

MIGRATION = "0012_standings_and_dm_channels.sql"


async def counted_over_every_game(db: Database, guild_id: str) -> GuildStats:
    """The old method: load every finished game of the server and count."""
    async with db.reading() as conn:
        finished = await repo.finished_in_guild(conn, guild_id)
    games: dict[str, int] = defaultdict(int)
    players: dict[str, dict[str, PlayerStats]] = defaultdict(dict)
    for record in finished:
        games[record.game] += 1
        place_of = places_of(record.outcome or {})
        for seat_row in record.seats:
            key = seat_row.user_id or f"computer:{seat_row.name}"
            entry = players[record.game].setdefault(key, PlayerStats(seat_row.name))
            entry.name = seat_row.name
            entry.games += 1
            place = place_of.get(seat_row.seat)
            if place is not None:
                entry.places[place] = entry.places.get(place, 0) + 1
                entry.wins += place == 1
    return GuildStats(dict(games), {k: dict(v) for k, v in players.items()})


async def play_many(service: GameService, guild: str, tables: int, rng: random.Random) -> None:
    for n in range(tables):
        channel = f"{guild}-{n}"
        humans = rng.randint(1, 3)
        computers = rng.randint(0 if humans > 1 else 1, 4 - humans)
        users = rng.sample(["u1", "u2", "u3", "u4", "u5"], humans)
        await service.create(guild_id=guild, channel_id=channel, game="toy", user_id=users[0], name=users[0].upper(),
                             options={"target": 5}, computers=computers)
        for user in users[1:]:
            await service.join(channel, user, user.upper())
        update = await service.start(channel, users[0])
        record = update.record
        while record.status == "active":
            seat = min(service.to_act(record))
            if rng.random() < 0.1:
                record = (await service.resign(channel, record.user_of(seat) or "")).record
            else:
                record = (await service.act(user_id=record.user_of(seat) or "", action=f"add {rng.randint(1, 3)}",
                                            channel_id=channel)).record
    # an abandoned game counts nowhere
    await service.create(guild_id=guild, channel_id=f"{guild}-open", game="toy", user_id="u1", name="U1")


async def test_stats_from_standings_equal_the_count_over_every_game(db: Database, service: GameService) -> None:
    rng = random.Random(7)
    await play_many(service, "g", 12, rng)
    await play_many(service, "h", 3, rng)
    players = Players(db)
    for guild in ("g", "h", "nobody"):
        kept = await players.stats(guild)
        assert kept == await counted_over_every_game(db, guild)
    assert sum((await players.stats("g")).games.values()) == 12
    assert (await players.stats("g")).leaderboard("toy")


async def test_the_migration_backfills_the_standings_of_games_finished_before_it(db: Database,
                                                                                  service: GameService) -> None:
    await play_many(service, "g", 8, random.Random(3))
    expected = await counted_over_every_game(db, "g")
    sql = next(sql for _, name, sql in migration_files(db.backend) if name == MIGRATION)
    async with db.transaction() as conn:  # back to before standings were kept, then the backfill again
        for table in ("standings", "standing_places", "finished_counts"):
            await conn.execute(f"DROP TABLE {table}")
        for statement in _statements(sql):
            if not statement.startswith(("CREATE INDEX", "ALTER TABLE")):
                await conn.execute(statement)
    assert await Players(db).stats("g") == expected


async def test_a_rebuild_counts_the_same_standings(db: Database, service: GameService) -> None:
    if db.backend != "sqlite":
        return  # the repair (and the benchmark filler that uses it) is SQLite's
    await play_many(service, "g", 6, random.Random(11))
    expected = await counted_over_every_game(db, "g")
    async with db.transaction() as conn:
        await standings.rebuild(conn)
    assert await Players(db).stats("g") == expected
