"""Repository for a server's past games as history: pages of them newest first (``/game history``:
finished games and those ended early with ``/game end``) and one game's results in order (ratings:
finished games only). Both read a range of partial indexes (``games_guild_played`` /
``games_guild_game_played`` of migration 0015, ``games_guild_game_finished`` of 0014), never every
game, and fetch the seats of a page in one query; the state snapshot is never read."""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from bot.storage.games import SeatRow

_COLUMNS = ("id, guild_id, channel_id, game, board_message_id, outcome, COALESCE(finished_at, updated_at), status, "
            "ply, ended_by_name")
# the games history lists: finished, or ended early after they started (a lobby ended is none); the
# very condition of migration 0015's partial indexes, so that both backends read them
_PLAYED = "status IN ('finished', 'aborted') AND state IS NOT NULL"
ENDED = "aborted"  # the status of a game ended early with /game end


@dataclass
class FinishedGame:
    """A finished game as history shows it and ratings count it, or (``status`` "aborted") one
    ended early with /game end, which history shows too: it has no result and is never rated."""

    id: int
    guild_id: str | None
    channel_id: str
    game: str
    board_message_id: str | None
    outcome: dict[str, Any]
    finished_at: str
    seats: list[SeatRow] = field(default_factory=list)
    status: str = "finished"
    moves: int = 0  # the moves played, those taken back left out (read by page(): shown for an ended game)
    ended_by: str | None = None  # the display name of who ended it early (unknown for games ended before 0015)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def ended(self) -> bool:
        return self.status == ENDED


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


def _played(guild_id: str, game: str | None) -> tuple[str, list[Any]]:
    """The condition for a server's finished and ended games (of one game when given) and its params."""
    if game is None:
        return f"guild_id = ? AND {_PLAYED}", [str(guild_id)]
    return f"guild_id = ? AND game = ? AND {_PLAYED}", [str(guild_id), game]


async def page(conn: aiosqlite.Connection, guild_id: str, *, game: str | None = None, older_than: int | None = None,
               newer_than: int | None = None, limit: int = 10) -> list[FinishedGame]:
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
    games = await _with_seats(conn, rows)
    for entry, row in zip(games, rows, strict=True):
        entry.status, entry.moves, entry.ended_by = row[7], int(row[8]), row[9]
    by_id = {entry.id: entry for entry in games}
    for game_id, taken_back in (await _taken_back(conn, list(by_id))).items():
        by_id[game_id].moves -= taken_back
    return games


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


async def results(conn: aiosqlite.Connection, guild_id: str, game: str, after: int = 0) -> list[FinishedGame]:
    """The finished games of ``game`` on the server (those after game id ``after``), oldest first:
    ratings are recomputed from them."""
    # only what the ratings index covers (the channel and board are not needed here)
    async with conn.execute("SELECT id, guild_id, '', game, NULL, outcome, COALESCE(finished_at, updated_at) "
                            "FROM games WHERE guild_id = ? AND game = ? AND status = 'finished' AND id > ? ORDER BY id",
                            (str(guild_id), game, after)) as cur:
        rows = await cur.fetchall()
    seats = ("SELECT s.game_id, s.seat, s.user_id, s.name, s.is_computer FROM seats s JOIN games g ON g.id = s.game_id "
             "WHERE g.guild_id = ? AND g.game = ? AND g.status = 'finished' AND g.id > ?")
    return await _with_seats(conn, rows, seats, (str(guild_id), game, after))


async def results_mark(conn: aiosqlite.Connection, guild_id: str, game: str) -> tuple[int, int]:
    """How many finished games of ``game`` the server has, and the highest id among them: whether
    ratings computed earlier still hold (an index range count, no rows read)."""
    async with conn.execute("SELECT COUNT(*), COALESCE(MAX(id), 0) FROM games WHERE guild_id = ? AND game = ? "
                            "AND status = 'finished'", (str(guild_id), game)) as cur:
        row = await cur.fetchone()
    return (int(row[0]), int(row[1])) if row else (0, 0)
