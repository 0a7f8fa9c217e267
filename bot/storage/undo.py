"""Repository for undo requests: each player's answer, per game and ply (all SQL for undo here)."""
from __future__ import annotations

import aiosqlite


async def answer(conn: aiosqlite.Connection, game_id: int, ply: int, voter: int, agree: bool) -> dict[int, bool]:
    """Record ``voter``'s answer (a second answer replaces the first); every answer so far."""
    await conn.execute("INSERT INTO undo_votes (game_id, ply, voter, agree) VALUES (?, ?, ?, ?) "
                       "ON CONFLICT (game_id, ply, voter) DO UPDATE SET agree = excluded.agree",
                       (game_id, ply, voter, int(agree)))
    return await answers(conn, game_id, ply)


async def answers(conn: aiosqlite.Connection, game_id: int, ply: int) -> dict[int, bool]:
    async with conn.execute("SELECT voter, agree FROM undo_votes WHERE game_id = ? AND ply = ?",
                            (game_id, ply)) as cur:
        return {int(row[0]): bool(row[1]) for row in await cur.fetchall()}


async def clear(conn: aiosqlite.Connection, game_id: int) -> None:
    await conn.execute("DELETE FROM undo_votes WHERE game_id = ?", (game_id,))
