"""Repository for a server's past games as history: pages of them newest first (``/game history``),
finished games and those ended early with ``/game end`` alike. A page reads a range of the partial
indexes ``games_guild_played`` / ``games_guild_game_played`` (migration 0016), never every game,
and fetches its seats and undo markers in one query each; the state snapshot is never read."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from bot.storage.games import SeatRow

_COLUMNS = ("id, guild_id, channel_id, game, board_message_id, outcome, COALESCE(finished_at, updated_at), status, "
            "ply, ended_by_name")
# the games history lists: finished, or ended early after they started (a lobby ended is none); the
# very condition of migration 0016's partial indexes, so that both backends read them
_PLAYED = "status IN ('finished', 'aborted') AND state IS NOT NULL"
ENDED = "aborted"  # the status of a game ended early with /game end


@dataclass
class PastGame:
    """A game of a server's history: finished, or (``status`` "aborted") ended early with /game
    end, which has no result (and is never rated)."""

    id: int
    guild_id: str | None
    channel_id: str
    game: str
    board_message_id: str | None
    outcome: dict[str, Any]
    finished_at: str  # when it finished or was ended
    status: str = "finished"
    moves: int = 0  # the moves played, those taken back with undo left out
    ended_by: str | None = None  # the display name of who ended it early (unknown before migration 0016)
    seats: list[SeatRow] = field(default_factory=list)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def ended(self) -> bool:
        return self.status == ENDED


async def _with_seats(conn: aiosqlite.Connection, games: list[PastGame]) -> list[PastGame]:
    """``games`` with their seats, read in one query."""
    if not games:
        return []
    by_id = {g.id: g for g in games}
    marks = ",".join("?" * len(by_id))
    async with conn.execute(f"SELECT game_id, seat, user_id, name, is_computer FROM seats WHERE game_id IN ({marks})",
                            list(by_id)) as cur:
        for game_id, seat, user_id, name, is_computer in await cur.fetchall():
            by_id[int(game_id)].seats.append(SeatRow(seat, user_id, name, bool(is_computer)))
    for entry in games:
        entry.seats.sort(key=lambda s: s.seat)
    return games


def _played(guild_id: str, game: str | None) -> tuple[str, list[Any]]:
    """The condition for a server's finished and ended games (of one game when given) and its params."""
    if game is None:
        return f"guild_id = ? AND {_PLAYED}", [str(guild_id)]
    return f"guild_id = ? AND game = ? AND {_PLAYED}", [str(guild_id), game]


async def page(conn: aiosqlite.Connection, guild_id: str, *, game: str | None = None, older_than: int | None = None,
               newer_than: int | None = None, limit: int = 10) -> list[PastGame]:
    """Up to ``limit`` of the server's finished and ended games (of ``game`` when given), newest
    first: the newest ones, those just older than game ``older_than``, or those just newer than
    game ``newer_than`` (keyset paging over both kinds alike)."""
    where, params = _played(guild_id, game)
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
    games = [PastGame(int(r[0]), r[1], r[2], r[3], r[4], json.loads(r[5]) if r[5] else {}, r[6], r[7], int(r[8]), r[9])
             for r in rows]
    by_id = {entry.id: entry for entry in games}
    for game_id, taken_back in (await _taken_back(conn, list(by_id))).items():
        by_id[game_id].moves -= taken_back  # the log's length less what undo took back
    return await _with_seats(conn, games)


async def _taken_back(conn: aiosqlite.Connection, game_ids: list[int]) -> dict[int, int]:
    """How many entries of each game's move log an undo took back, the ``!undo N`` markers
    included (N moves and the marker each): read from the markers' own index (``moves_undo``)."""
    if not game_ids:
        return {}
    marks = ",".join("?" * len(game_ids))
    async with conn.execute(f"SELECT game_id, action FROM moves WHERE game_id IN ({marks}) "
                            "AND action LIKE '!undo %'", game_ids) as cur:
        rows = await cur.fetchall()
    taken: dict[int, int] = {}
    for game_id, action in rows:
        taken[int(game_id)] = taken.get(int(game_id), 0) + int(str(action).split()[1]) + 1
    return taken


async def exists_beyond(conn: aiosqlite.Connection, guild_id: str, game_id: int, *, older: bool,
                        game: str | None = None) -> bool:
    """Whether the server has a finished or ended game older (or newer) than ``game_id``: a
    page's ◀ ▶."""
    where, params = _played(guild_id, game)
    # ordered like a page, so that the planner takes the page's index (not (guild_id, status))
    beyond = "id < ? ORDER BY id DESC" if older else "id > ? ORDER BY id"
    sql = f"SELECT id FROM games WHERE {where} AND {beyond} LIMIT 1"
    async with conn.execute(sql, (*params, game_id)) as cur:
        return await cur.fetchone() is not None
