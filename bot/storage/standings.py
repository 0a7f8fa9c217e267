"""Repository for a server's standings: kept up to date when a game finishes, so that /game stats
reads one row per player and place instead of every finished game."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import aiosqlite


class _Seat(Protocol):
    seat: int
    user_id: str | None
    name: str


def places_of(outcome: Mapping[str, Any]) -> dict[int, int]:
    """seat -> place (1 = first) from an outcome's ``places`` (groups of tied seats, best first)."""
    place_of: dict[int, int] = {}
    position = 1
    for group in outcome.get("places", []):
        for seat in group:
            place_of[int(seat)] = position
        position += len(group)
    return place_of


def player_key(seat: _Seat) -> str:
    return seat.user_id or f"computer:{seat.name}"


async def record_finish(conn: aiosqlite.Connection, guild_id: str | None, game: str, seats: Iterable[_Seat],
                        outcome: Mapping[str, Any]) -> None:
    """Add one finished game to its server's standings (in the transaction that finishes it)."""
    if guild_id is None:
        return
    await conn.execute("INSERT INTO finished_counts (guild_id, game, count) VALUES (?, ?, 1) "
                       "ON CONFLICT (guild_id, game) DO UPDATE SET count = finished_counts.count + 1", (guild_id, game))
    place_of = places_of(outcome)
    for seat in seats:
        player = player_key(seat)
        place = place_of.get(seat.seat)
        await conn.execute(
            "INSERT INTO standings (guild_id, game, player, name, games, wins) VALUES (?, ?, ?, ?, 1, ?) "
            "ON CONFLICT (guild_id, game, player) DO UPDATE SET games = standings.games + 1, "
            "wins = standings.wins + excluded.wins, name = excluded.name",
            (guild_id, game, player, seat.name, int(place == 1)))
        if place is not None:
            await conn.execute(
                "INSERT INTO standing_places (guild_id, game, player, place, count) VALUES (?, ?, ?, ?, 1) "
                "ON CONFLICT (guild_id, game, player, place) DO UPDATE SET count = standing_places.count + 1",
                (guild_id, game, player, place))


@dataclass
class Standing:
    game: str
    player: str
    name: str
    games: int
    wins: int
    places: dict[int, int] = field(default_factory=dict)


async def of_guild(conn: aiosqlite.Connection, guild_id: str) -> tuple[dict[str, int], list[Standing]]:
    """Finished games per game, and every player's standing per game."""
    async with conn.execute("SELECT game, count FROM finished_counts WHERE guild_id = ? ORDER BY game",
                            (guild_id,)) as cur:
        counts = {row[0]: row[1] for row in await cur.fetchall()}
    async with conn.execute("SELECT game, player, name, games, wins FROM standings WHERE guild_id = ? "
                            "ORDER BY game, player", (guild_id,)) as cur:
        rows = {(r[0], r[1]): Standing(r[0], r[1], r[2], r[3], r[4]) for r in await cur.fetchall()}
    async with conn.execute("SELECT game, player, place, count FROM standing_places WHERE guild_id = ?",
                            (guild_id,)) as cur:
        for game, player, place, count in await cur.fetchall():
            entry = rows.get((game, player))
            if entry is not None:
                entry.places[place] = count
    return counts, list(rows.values())


async def rebuild(conn: aiosqlite.Connection) -> None:
    """Count every server's standings again from its finished games (SQLite; a repair, and the
    storage benchmark's filler, which stores games in bulk)."""
    for table in ("standings", "standing_places", "finished_counts"):
        await conn.execute(f"DELETE FROM {table}")
    await conn.execute(
        "INSERT INTO finished_counts (guild_id, game, count) SELECT guild_id, game, COUNT(*) FROM games "
        "WHERE status = 'finished' AND guild_id IS NOT NULL GROUP BY guild_id, game")
    seat_places = (
        "WITH grp AS (SELECT g.id AS game_id, CAST(p.key AS INTEGER) AS number, json_array_length(p.value) AS size, "
        "p.value AS members FROM games g, json_each(g.outcome, '$.places') p "
        "WHERE g.status = 'finished' AND g.guild_id IS NOT NULL), "
        "placed AS (SELECT game_id, members, 1 + COALESCE(SUM(size) OVER (PARTITION BY game_id ORDER BY number "
        "ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS place FROM grp), "
        "sp AS (SELECT placed.game_id, CAST(m.value AS INTEGER) AS seat, placed.place FROM placed, "
        "json_each(placed.members) m), "
        "f AS (SELECT g.id AS game_id, g.guild_id, g.game, COALESCE(s.user_id, 'computer:' || s.name) AS player, "
        "s.name, sp.place FROM games g JOIN seats s ON s.game_id = g.id "
        "LEFT JOIN sp ON sp.game_id = g.id AND sp.seat = s.seat "
        "WHERE g.status = 'finished' AND g.guild_id IS NOT NULL) ")
    await conn.execute(
        seat_places + "INSERT INTO standings (guild_id, game, player, name, games, wins) "
        "SELECT guild_id, game, player, name, games, wins FROM (SELECT guild_id, game, player, name, MAX(game_id), "
        "COUNT(*) AS games, SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END) AS wins FROM f "
        "GROUP BY guild_id, game, player)")  # the bare name comes from the latest game (MAX)
    await conn.execute(
        seat_places + "INSERT INTO standing_places (guild_id, game, player, place, count) "
        "SELECT guild_id, game, player, place, COUNT(*) FROM f WHERE place IS NOT NULL "
        "GROUP BY guild_id, game, player, place")
