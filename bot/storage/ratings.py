"""Repository for the ratings kept per server and game (migration 0015): every player's current
rating, each rated game's changes, and the mark saying how far the server's games of that kind
have been rated.

A game that finishes takes the next *finish number* of its server and game (``number_finish``, in
the transaction that finishes it). On PostgreSQL the counter row stays locked until that
transaction commits, so a number is handed out only after the one before it is committed: a reader
that sees number n also sees every number below it. Ratings go in that order; ``advance`` moves the
mark only from the value the ratings were computed from, so two processes never rate a game twice.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from bot.storage.backend import POSTGRES, dialect

_KEYS = 400  # players per IN (...) list, under every SQLite build's limit of bound parameters


def shown(mu: float, sigma: float) -> float:
    """The conservative rating players see (mu - 3 sigma, scaled as on most ladders)."""
    return round((mu - 3 * sigma) * 40 + 1000, 1)


@dataclass
class Rating:
    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0

    @property
    def shown(self) -> float:
        return shown(self.mu, self.sigma)


@dataclass(frozen=True)
class Change:
    """One seat's rating in one finished game: its place (1 = first; tied seats share it)."""

    game_id: int
    finished_at: str | None
    player: str
    place: int | None
    players: int
    before: float
    after: float
    seat: int = 0
    number: int = 0  # the game's finish number


@dataclass
class Mark:
    finished: int = 0  # finish numbers handed out
    rated: int = 0     # games rated: numbers 1..rated


@dataclass(frozen=True)
class Seat:
    seat: int
    user_id: str | None
    name: str


@dataclass
class Finished:
    """A finished game as ratings read it, with its finish number."""

    number: int
    id: int
    game: str
    outcome: dict[str, Any] | None
    finished_at: str | None
    seats: list[Seat] = field(default_factory=list)


async def number_finish(conn: aiosqlite.Connection, game_id: int, guild_id: str, game: str) -> int:
    """Give a game that finishes now the next finish number of its server and game."""
    async with conn.execute("INSERT INTO rating_marks (guild_id, game, finished, rated) VALUES (?, ?, 1, 0) "
                            "ON CONFLICT (guild_id, game) DO UPDATE SET finished = rating_marks.finished + 1 "
                            "RETURNING finished", (guild_id, game)) as cur:
        row = await cur.fetchone()
    assert row is not None
    await conn.execute("UPDATE games SET finish_number = ? WHERE id = ?", (int(row[0]), game_id))
    return int(row[0])


async def number_unnumbered(conn: aiosqlite.Connection) -> None:
    """Number the finished games that have no finish number yet, after those that have, in the
    order they finished, and count them in the marks (SQLite: a repair, and the benchmarks' filler,
    which stores finished games in bulk)."""
    await conn.execute("CREATE TEMP TABLE finish_order (id INTEGER PRIMARY KEY, number INTEGER NOT NULL)")
    try:
        await conn.execute(
            "INSERT INTO finish_order (id, number) SELECT id, ROW_NUMBER() OVER (PARTITION BY guild_id, game "
            "ORDER BY COALESCE(finished_at, updated_at), id) + COALESCE((SELECT MAX(n.finish_number) FROM games n "
            "WHERE n.guild_id = g.guild_id AND n.game = g.game AND n.finish_number IS NOT NULL), 0) "
            "FROM games g WHERE status = 'finished' AND guild_id IS NOT NULL AND finish_number IS NULL")
        await conn.execute("UPDATE games SET finish_number = (SELECT number FROM finish_order o WHERE o.id = games.id) "
                           "WHERE id IN (SELECT id FROM finish_order)")
    finally:
        await conn.execute("DROP TABLE finish_order")
    await conn.execute(
        "INSERT INTO rating_marks (guild_id, game, finished, rated) SELECT guild_id, game, MAX(finish_number), 0 "
        "FROM games WHERE finish_number IS NOT NULL GROUP BY guild_id, game "
        "ON CONFLICT (guild_id, game) DO UPDATE SET finished = excluded.finished")


async def mark(conn: aiosqlite.Connection, guild_id: str, game: str) -> Mark:
    async with conn.execute("SELECT finished, rated FROM rating_marks WHERE guild_id = ? AND game = ?",
                            (guild_id, game)) as cur:
        row = await cur.fetchone()
    return Mark(int(row[0]), int(row[1])) if row else Mark()


async def unrated(conn: aiosqlite.Connection, guild_id: str, game: str, after: int, limit: int) -> list[Finished]:
    """Up to ``limit`` finished games numbered after ``after``, in finish order, with their seats."""
    async with conn.execute(
            "SELECT g.finish_number, g.id, g.outcome, COALESCE(g.finished_at, g.updated_at), s.seat, s.user_id, "
            "s.name FROM games g JOIN seats s ON s.game_id = g.id "
            "WHERE g.id IN (SELECT id FROM games WHERE guild_id = ? AND game = ? AND finish_number > ? "
            "ORDER BY finish_number LIMIT ?) ORDER BY g.finish_number, s.seat", (guild_id, game, after, limit)) as cur:
        rows = await cur.fetchall()
    out: list[Finished] = []
    for number, game_id, outcome, finished_at, seat, user_id, name in rows:
        if not out or out[-1].number != number:
            out.append(Finished(int(number), int(game_id), game, json.loads(outcome) if outcome else None,
                                finished_at))
        out[-1].seats.append(Seat(int(seat), user_id, name))
    return out


def _rating(row: Any) -> Rating:
    return Rating(row["name"], float(row["mu"]), float(row["sigma"]), int(row["games"]), int(row["wins"]))


async def of_players(conn: aiosqlite.Connection, guild_id: str, game: str, players: Iterable[str]) -> dict[str, Rating]:
    """The current ratings of these players (those rated before)."""
    wanted = sorted(set(players))
    found: dict[str, Rating] = {}
    for start in range(0, len(wanted), _KEYS):
        chunk = wanted[start:start + _KEYS]
        async with conn.execute(f"SELECT player, name, mu, sigma, games, wins FROM ratings WHERE guild_id = ? "
                                f"AND game = ? AND player IN ({','.join('?' * len(chunk))})",
                                (guild_id, game, *chunk)) as cur:
            found.update({row["player"]: _rating(row) for row in await cur.fetchall()})
    return found


async def advance(conn: aiosqlite.Connection, guild_id: str, game: str, rated: int, to: int) -> bool:
    """Move the mark from ``rated`` to ``to``; False when it is no longer at ``rated`` (another
    process rated those games meanwhile). On PostgreSQL the row stays locked until commit."""
    cur = await conn.execute("UPDATE rating_marks SET rated = ? WHERE guild_id = ? AND game = ? AND rated = ?",
                             (to, guild_id, game, rated))
    return cur.rowcount == 1


async def save(conn: aiosqlite.Connection, guild_id: str, game: str, ratings: dict[str, Rating],
               changes: Sequence[Change]) -> None:
    """Store new ratings and the changes that led to them (after ``advance`` in one transaction)."""
    if not changes:
        return
    await conn.executemany(
        "INSERT INTO ratings (guild_id, game, player, name, mu, sigma, shown, games, wins) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, player) DO UPDATE SET name = excluded.name, "
        "mu = excluded.mu, sigma = excluded.sigma, shown = excluded.shown, games = excluded.games, "
        "wins = excluded.wins",
        [(guild_id, game, key, r.name, r.mu, r.sigma, r.shown, r.games, r.wins) for key, r in ratings.items()])
    await conn.executemany(
        "INSERT INTO rating_changes (game_id, seat, guild_id, game, player, finish_number, place, players, "
        "shown_before, shown_after, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(c.game_id, c.seat, guild_id, game, c.player, c.number, c.place, c.players, c.before, c.after,
          c.finished_at) for c in changes])


async def ladder(conn: aiosqlite.Connection, guild_id: str, game: str, limit: int) -> list[Rating]:
    """The ``limit`` best shown ratings, then by name (in code point order on both backends)."""
    name = 'name COLLATE "C"' if dialect(conn) == POSTGRES else "name"
    async with conn.execute(f"SELECT player, name, mu, sigma, games, wins FROM ratings WHERE guild_id = ? "
                            f"AND game = ? ORDER BY shown DESC, {name} LIMIT ?", (guild_id, game, limit)) as cur:
        return [_rating(row) for row in await cur.fetchall()]


async def history(conn: aiosqlite.Connection, guild_id: str, game: str, player: str, limit: int) -> list[Change]:
    """The player's latest ``limit`` rated games, oldest first."""
    async with conn.execute("SELECT game_id, finished_at, place, players, shown_before, shown_after, seat, "
                            "finish_number FROM rating_changes WHERE guild_id = ? AND game = ? AND player = ? "
                            "ORDER BY finish_number DESC LIMIT ?", (guild_id, game, player, limit)) as cur:
        rows = list(await cur.fetchall())
    return [Change(int(r[0]), r[1], player, r[2], int(r[3]), float(r[4]), float(r[5]), int(r[6]), int(r[7]))
            for r in reversed(rows)]
