"""Repository for a server's finished games as history: pages of them newest first (``/game
history``). A page reads a range of the partial indexes ``games_guild_finished`` /
``games_guild_game_finished`` (migration 0014), never every game, and fetches its seats in one
query; the state snapshot is never read."""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from bot.storage.games import SeatRow

_COLUMNS = "id, guild_id, channel_id, game, board_message_id, outcome, COALESCE(finished_at, updated_at)"


@dataclass
class FinishedGame:
    """A finished game as history shows it and ratings count it."""

    id: int
    guild_id: str | None
    channel_id: str
    game: str
    board_message_id: str | None
    outcome: dict[str, Any]
    finished_at: str
    seats: list[SeatRow] = field(default_factory=list)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]


async def _with_seats(conn: aiosqlite.Connection, rows: Iterable[Any], seats_sql: str | None = None,
                      seats_params: Sequence[Any] = ()) -> list[FinishedGame]:
    """The games of ``rows`` with their seats: those of the listed ids, or those ``seats_sql`` selects
    (a join with the same condition, for many games: no long list of ids)."""
    found = [FinishedGame(int(r[0]), r[1], r[2], r[3], r[4], json.loads(r[5]) if r[5] else {}, r[6]) for r in rows]
    if not found:
        return []
    by_id = {g.id: g for g in found}
    if seats_sql is None:
        marks = ",".join("?" * len(by_id))
        seats_sql = f"SELECT game_id, seat, user_id, name, is_computer FROM seats WHERE game_id IN ({marks})"
        seats_params = list(by_id)
    async with conn.execute(seats_sql, list(seats_params)) as cur:
        for game_id, seat, user_id, name, is_computer in await cur.fetchall():
            if int(game_id) in by_id:
                by_id[int(game_id)].seats.append(SeatRow(seat, user_id, name, bool(is_computer)))
    for entry in found:
        entry.seats.sort(key=lambda s: s.seat)
    return found


def _finished(guild_id: str, game: str | None) -> tuple[str, list[Any]]:
    """The condition for a server's finished games (of one game when given) and its params."""
    if game is None:
        return "guild_id = ? AND status = 'finished'", [str(guild_id)]
    return "guild_id = ? AND game = ? AND status = 'finished'", [str(guild_id), game]


async def page(conn: aiosqlite.Connection, guild_id: str, *, game: str | None = None, older_than: int | None = None,
               newer_than: int | None = None, limit: int = 10) -> list[FinishedGame]:
    """Up to ``limit`` of the server's finished games (of ``game`` when given), newest first: the
    newest ones, those just older than game ``older_than``, or those just newer than game
    ``newer_than`` (keyset paging)."""
    where, params = _finished(guild_id, game)
    sql = f"SELECT {_COLUMNS} FROM games WHERE {where}"
    if newer_than is not None:
        sql += " AND id > ? ORDER BY id LIMIT ?"
        params += [newer_than, limit]
    else:
        if older_than is not None:
            sql += " AND id < ?"
            params.append(older_than)
        sql += " ORDER BY id DESC LIMIT ?"
        params.append(limit)
    async with conn.execute(sql, params) as cur:
        rows = list(await cur.fetchall())
    if newer_than is not None:
        rows.reverse()
    return await _with_seats(conn, rows)


async def exists_beyond(conn: aiosqlite.Connection, guild_id: str, game_id: int, *, older: bool,
                        game: str | None = None) -> bool:
    """Whether the server has a finished game older (or newer) than ``game_id``: a page's ◀ ▶."""
    where, params = _finished(guild_id, game)
    sql = f"SELECT 1 FROM games WHERE {where} AND id {'<' if older else '>'} ? LIMIT 1"
    async with conn.execute(sql, (*params, game_id)) as cur:
        return await cur.fetchone() is not None
