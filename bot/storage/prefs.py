"""Repository for user and server preferences, reminder claims and timeout votes."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import aiosqlite

from bot.storage.backend import POSTGRES, dialect
from bot.storage.games import now_iso

PREFS_CHANNEL = "gamemaster_prefs"  # PostgreSQL notifications: a user's preferences were written


@dataclass
class UserPrefs:
    user_id: str
    locale: str | None = None
    dm_ok: bool = True
    time_zone: str | None = None
    quiet_start: int | None = None
    quiet_end: int | None = None
    vacation_until: str | None = None
    ping_on_turn: bool = False
    seen_locale: str | None = None  # the language of their Discord client, last seen
    dm_channel_id: str | None = None  # their DM channel, once Discord opened it

    @property
    def language(self) -> str | None:
        """The language to write to them in when no interaction says it: their choice, else their
        client's."""
        return self.locale or self.seen_locale


async def get_user(conn: aiosqlite.Connection, user_id: str) -> UserPrefs:
    rows = list(await conn.execute_fetchall(
        "SELECT user_id, locale, dm_ok, time_zone, quiet_start, quiet_end, vacation_until, ping_on_turn, "
        "seen_locale, dm_channel_id FROM user_prefs WHERE user_id = ?", (str(user_id),)))
    if not rows:
        return UserPrefs(str(user_id))
    row = rows[0]
    return UserPrefs(row["user_id"], row["locale"], bool(row["dm_ok"]), row["time_zone"], row["quiet_start"],
                     row["quiet_end"], row["vacation_until"], bool(row["ping_on_turn"]), row["seen_locale"],
                     row["dm_channel_id"])


async def chosen_locales(conn: aiosqlite.Connection) -> dict[str, str]:
    """user id -> the language they chose, for every user who chose one."""
    async with conn.execute("SELECT user_id, locale FROM user_prefs WHERE locale IS NOT NULL") as cur:
        return {row[0]: row[1] for row in await cur.fetchall()}


async def set_user(conn: aiosqlite.Connection, user_id: str, **fields: Any) -> None:
    """Write ``fields`` of the user's preferences (the row is made when missing), in one statement."""
    for key in fields:
        if key not in UserPrefs.__dataclass_fields__ or key == "user_id":
            raise KeyError(key)
    columns = ", ".join(("user_id", *fields))
    marks = ", ".join("?" * (1 + len(fields)))
    change = ("DO UPDATE SET " + ", ".join(f"{key} = excluded.{key}" for key in fields)) if fields else "DO NOTHING"
    await conn.execute(f"INSERT INTO user_prefs ({columns}) VALUES ({marks}) ON CONFLICT (user_id) {change}",
                       (str(user_id), *fields.values()))
    if dialect(conn) == POSTGRES:  # other processes drop their cached copy when this commits
        await conn.execute("SELECT pg_notify(?, ?)", (PREFS_CHANNEL, str(user_id)))


async def get_guild(conn: aiosqlite.Connection, guild_id: str | None) -> tuple[str | None, dict[str, Any]]:
    if guild_id is None:
        return None, {}
    async with conn.execute("SELECT locale, settings FROM guild_prefs WHERE guild_id = ?", (str(guild_id),)) as cur:
        row = await cur.fetchone()
    return (row["locale"], json.loads(row["settings"])) if row else (None, {})


async def set_guild(conn: aiosqlite.Connection, guild_id: str, *, locale: str | None = None,
                    settings: dict[str, Any] | None = None) -> None:
    await conn.execute("INSERT INTO guild_prefs (guild_id) VALUES (?) ON CONFLICT DO NOTHING", (str(guild_id),))
    if locale is not None:
        await conn.execute("UPDATE guild_prefs SET locale = ? WHERE guild_id = ?", (locale, str(guild_id)))
    if settings is not None:
        await conn.execute("UPDATE guild_prefs SET settings = ? WHERE guild_id = ?",
                           (json.dumps(settings), str(guild_id)))


async def claim_reminder(conn: aiosqlite.Connection, game_id: int, ply: int, seat: int, stage: int,
                         owner: str = "", lease_until: str | None = None) -> bool:
    """True the first time this (game, ply, seat, stage) is claimed; never again after. The claim
    is leased to ``owner`` until ``lease_until``: if it is not marked delivered by then,
    ``take_over_reminders`` offers it again."""
    cur = await conn.execute("INSERT INTO reminders (game_id, ply, seat, stage, sent_at, claimed_by, lease_until) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                             (game_id, ply, seat, stage, now_iso(), owner, lease_until))
    return cur.rowcount == 1


async def take_over_reminders(conn: aiosqlite.Connection, owner: str, now: str, lease_until: str,
                              own_at_once: bool = False) -> list[tuple[int, int, int, int]]:
    """Lease to ``owner`` the undelivered claims whose lease ran out (and, with ``own_at_once``,
    ``owner``'s own whatever their lease: a restarted process of the same shard scope) for games
    still waiting on that ply. (game_id, ply, seat, stage) of each claim taken. A conditional
    UPDATE: on SQLite the writer is alone; on PostgreSQL the rows are picked ``FOR UPDATE SKIP
    LOCKED``, so two processes sweeping together never take the same claim."""
    where = ("r.delivered_at IS NULL AND (r.lease_until IS NULL OR r.lease_until <= ? OR "
             "(? AND r.claimed_by = ?)) AND EXISTS (SELECT 1 FROM games g WHERE g.id = r.game_id "
             "AND g.status = 'active' AND g.ply = r.ply)")
    args = (now, own_at_once, owner)
    if dialect(conn) == POSTGRES:
        sql = ("UPDATE reminders SET claimed_by = ?, lease_until = ? WHERE (game_id, ply, seat, stage) IN "
               f"(SELECT r.game_id, r.ply, r.seat, r.stage FROM reminders r WHERE {where} "
               "FOR UPDATE OF r SKIP LOCKED) RETURNING game_id, ply, seat, stage")
    else:
        sql = (f"UPDATE reminders AS r SET claimed_by = ?, lease_until = ? WHERE {where} "
               "RETURNING game_id, ply, seat, stage")
    async with conn.execute(sql, (owner, lease_until, *args)) as cur:
        return sorted((row[0], row[1], row[2], row[3]) for row in await cur.fetchall())


async def mark_reminder_delivered(conn: aiosqlite.Connection, game_id: int, ply: int, seat: int, stage: int,
                                  now: str) -> None:
    """Discord accepted the message of ``stage``: it and the earlier stages it stood for are done."""
    await conn.execute("UPDATE reminders SET delivered_at = ? WHERE game_id = ? AND ply = ? AND seat = ? "
                       "AND stage <= ? AND delivered_at IS NULL", (now, game_id, ply, seat, stage))


async def clear_reminders(conn: aiosqlite.Connection, game_id: int, ply: int, seat: int) -> None:
    await conn.execute("DELETE FROM reminders WHERE game_id = ? AND ply = ? AND seat = ?", (game_id, ply, seat))


async def vote(conn: aiosqlite.Connection, game_id: int, ply: int, seat: int, voter: int,
               choice: str) -> dict[str, int]:
    await conn.execute("INSERT INTO timeout_votes (game_id, ply, seat, voter, choice) VALUES (?, ?, ?, ?, ?) "
                       "ON CONFLICT (game_id, ply, seat, voter) DO UPDATE SET choice = excluded.choice",
                       (game_id, ply, seat, voter, choice))
    async with conn.execute("SELECT choice, COUNT(*) FROM timeout_votes WHERE game_id = ? AND ply = ? AND seat = ? "
                            "GROUP BY choice", (game_id, ply, seat)) as cur:
        return {row[0]: row[1] for row in await cur.fetchall()}


async def clear_votes(conn: aiosqlite.Connection, game_id: int, ply: int, seat: int) -> None:
    await conn.execute("DELETE FROM timeout_votes WHERE game_id = ? AND ply = ? AND seat = ?", (game_id, ply, seat))
