"""Repository for the announcement outbox and the current board of each table (all their SQL)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from bot.storage import games
from bot.storage.games import now_iso


@dataclass
class Pending:
    id: int
    game_id: int
    ply: int
    payload: dict[str, Any]


@dataclass
class BoardRow:
    """The table's current board message: whom it waits for and the public events it shows, and
    ``dms``: per seat (its number as text), the DM this turn already sent that seat about other
    players' moves (``{"message": id, "events": [...]}``), which the next one of the turn edits
    (cogs/dmfold.py); a new board is a new turn and starts with none."""

    game_id: int
    channel_id: str
    message_id: str
    to_act: list[int] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    ply: int = 0
    dms: dict[str, dict[str, Any]] = field(default_factory=dict)


async def record(conn: aiosqlite.Connection, game_id: int, ply: int, payload: dict[str, Any]) -> int:
    rows = list(await conn.execute_fetchall(
        "INSERT INTO announcements (game_id, ply, payload, created_at) VALUES (?, ?, ?, ?) RETURNING id",
        (game_id, ply, json.dumps(payload, separators=(",", ":")), now_iso())))
    return int(rows[0][0]) if rows else 0


async def pending(conn: aiosqlite.Connection, game_id: int) -> list[Pending]:
    rows = await conn.execute_fetchall("SELECT id, game_id, ply, payload FROM announcements "
                                       "WHERE game_id = ? AND done_at IS NULL ORDER BY id", (game_id,))
    return [Pending(r["id"], r["game_id"], r["ply"], json.loads(r["payload"])) for r in rows]


async def latest_id(conn: aiosqlite.Connection) -> int:
    async with conn.execute("SELECT COALESCE(MAX(id), 0) FROM announcements") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def pending_games(conn: aiosqlite.Connection) -> list[int]:
    async with conn.execute("SELECT DISTINCT game_id FROM announcements WHERE done_at IS NULL "
                            "ORDER BY game_id") as cur:
        return [int(r[0]) for r in await cur.fetchall()]


async def mark_done(conn: aiosqlite.Connection, ids: list[int]) -> None:
    """One statement for all of them (each statement is a round trip under the writer's lock)."""
    if not ids:
        return
    marks = ",".join("?" * len(ids))
    await conn.execute(f"UPDATE announcements SET done_at = ? WHERE done_at IS NULL AND id IN ({marks})",
                       (now_iso(), *ids))


async def claim(conn: aiosqlite.Connection, game_id: int, owner: str, until: str, now: str) -> bool:
    """Claim (or renew) the delivery of the table's announcements for ``owner`` until ``until``;
    False while another owner's claim runs (one process delivers a table at a time)."""
    return bool(await conn.execute_fetchall(
        "INSERT INTO announce_leases (game_id, owner, lease_until) VALUES (?, ?, ?) "
        "ON CONFLICT (game_id) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until "
        "WHERE announce_leases.owner = excluded.owner OR announce_leases.lease_until <= ? RETURNING game_id",
        (game_id, owner, until, now)))


async def release(conn: aiosqlite.Connection, game_id: int, owner: str) -> None:
    await conn.execute("DELETE FROM announce_leases WHERE game_id = ? AND owner = ?", (game_id, owner))


async def board(conn: aiosqlite.Connection, game_id: int) -> BoardRow | None:
    rows = list(await conn.execute_fetchall("SELECT * FROM boards WHERE game_id = ?", (game_id,)))
    if not rows:
        return None
    row = rows[0]
    return BoardRow(row["game_id"], row["channel_id"], row["message_id"], json.loads(row["to_act"]),
                    json.loads(row["events"]), row["ply"], json.loads(row["dms"]))


async def set_board(conn: aiosqlite.Connection, board_row: BoardRow, *, link: bool = True) -> None:
    """Store the current board (and keep ``games.board_message_id``, which links point to, unless
    ``link`` is False: the caller knows it holds this message already)."""
    await conn.execute(
        "INSERT INTO boards (game_id, channel_id, message_id, to_act, events, ply, dms, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET channel_id = excluded.channel_id, "
        "message_id = excluded.message_id, to_act = excluded.to_act, events = excluded.events, "
        "ply = excluded.ply, dms = excluded.dms, updated_at = excluded.updated_at",
        (board_row.game_id, board_row.channel_id, board_row.message_id, json.dumps(board_row.to_act),
         json.dumps(board_row.events, separators=(",", ":")), board_row.ply,
         json.dumps(board_row.dms, separators=(",", ":")), now_iso()))
    if link:
        await games.set_board_message(conn, board_row.game_id, board_row.message_id)
