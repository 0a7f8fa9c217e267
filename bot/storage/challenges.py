"""Repository for challenges (/game challenge): who was challenged to what, their answers, and
when the table opens or the challenge expires. On PostgreSQL a row read to change it stays locked
until the transaction ends, so two answers or two schedulers never both act on it."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from bot.storage.backend import POSTGRES, dialect

_COLUMNS = ("id, guild_id, channel_id, game, options, creator_id, creator_name, players, locale, status, "
            "start_at, expires_at, message_id, game_id, created_at")


@dataclass
class ChallengeRow:
    id: int
    guild_id: str | None
    channel_id: str
    game: str
    options: dict[str, Any]
    creator_id: str
    creator_name: str
    players: list[dict[str, Any]]  # {"id", "name", "answer": None | "accept" | "decline"}
    locale: str
    status: str
    start_at: str | None
    expires_at: str
    message_id: str | None = None
    game_id: int | None = None
    created_at: str = ""
    changed: bool = field(default=False, compare=False)

    def player(self, user_id: str) -> dict[str, Any] | None:
        return next((p for p in self.players if p["id"] == str(user_id)), None)

    @property
    def all_accepted(self) -> bool:
        return all(p["answer"] == "accept" for p in self.players)


def _row(row: Any) -> ChallengeRow:
    return ChallengeRow(int(row["id"]), row["guild_id"], row["channel_id"], row["game"], json.loads(row["options"]),
                        row["creator_id"], row["creator_name"], json.loads(row["players"]), row["locale"],
                        row["status"], row["start_at"], row["expires_at"], row["message_id"],
                        int(row["game_id"]) if row["game_id"] is not None else None, row["created_at"])


async def insert(conn: aiosqlite.Connection, row: ChallengeRow) -> int:
    async with conn.execute(
            "INSERT INTO challenges (guild_id, channel_id, game, options, creator_id, creator_name, players, "
            "locale, status, start_at, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "RETURNING id",
            (row.guild_id, row.channel_id, row.game, json.dumps(row.options), row.creator_id, row.creator_name,
             json.dumps(row.players), row.locale, row.status, row.start_at, row.expires_at,
             row.created_at)) as cur:
        found = await cur.fetchone()
    assert found is not None
    return int(found[0])


async def get(conn: aiosqlite.Connection, challenge_id: int, *, lock: bool = False) -> ChallengeRow | None:
    sql = f"SELECT {_COLUMNS} FROM challenges WHERE id = ?" + (" FOR UPDATE" if lock and dialect(conn) == POSTGRES
                                                                else "")
    rows = list(await conn.execute_fetchall(sql, (challenge_id,)))
    return _row(rows[0]) if rows else None


async def save(conn: aiosqlite.Connection, row: ChallengeRow) -> None:
    await conn.execute("UPDATE challenges SET players = ?, status = ?, message_id = ?, game_id = ? WHERE id = ?",
                       (json.dumps(row.players), row.status, row.message_id, row.game_id, row.id))


async def waiting(conn: aiosqlite.Connection, now_iso: str) -> list[ChallengeRow]:
    """Open challenges past their expiry and accepted ones whose start time came (locked and
    skipped when another process holds them, on PostgreSQL)."""
    skip = " FOR UPDATE SKIP LOCKED" if dialect(conn) == POSTGRES else ""
    rows = await conn.execute_fetchall(
        f"SELECT {_COLUMNS} FROM challenges WHERE (status = 'open' AND expires_at <= ?) "
        f"OR (status = 'accepted' AND (start_at IS NULL OR start_at <= ?)) ORDER BY id{skip}", (now_iso, now_iso))
    return [_row(r) for r in rows]
