"""Repository for the notifications a player controls: per table (mute, "you're next", a ping
limit and when the table last pinged them) and the daily digest (its local hour, the local date
it was last sent for)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TableNotify:
    game_id: int
    user_id: str
    mute: bool = False
    early: bool = False
    max_per_hours: int | None = None  # at most one ping per this many hours (None: no limit)
    last_ping_at: str | None = None   # UTC ISO of the table's last ping to them

    @property
    def default(self) -> bool:
        return not (self.mute or self.early or self.max_per_hours)


@dataclass(frozen=True)
class Digest:
    user_id: str
    hour: int
    sent_for: str | None  # the local date (YYYY-MM-DD) of the last digest sent
    time_zone: str | None = None
    quiet_start: int | None = None
    quiet_end: int | None = None


def _table(row: Any) -> TableNotify:
    return TableNotify(int(row["game_id"]), str(row["user_id"]), bool(row["mute"]), bool(row["early"]),
                       row["max_per_hours"], row["last_ping_at"])


async def of_game(conn: Any, game_id: int) -> dict[str, TableNotify]:
    """user id -> their choices at the table (only players who made one)."""
    rows = await conn.execute_fetchall(
        "SELECT game_id, user_id, mute, early, max_per_hours, last_ping_at FROM table_notify WHERE game_id = ?",
        (game_id,))
    return {str(row["user_id"]): _table(row) for row in rows}


async def set_table(conn: Any, game_id: int, user_id: str, *, mute: bool, early: bool,
                    max_per_hours: int | None) -> None:
    await conn.execute(
        "INSERT INTO table_notify (game_id, user_id, mute, early, max_per_hours) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (game_id, user_id) DO UPDATE SET mute = excluded.mute, early = excluded.early, "
        "max_per_hours = excluded.max_per_hours", (game_id, str(user_id), int(mute), int(early), max_per_hours))


async def pinged(conn: Any, game_id: int, user_ids: list[str], when: str) -> None:
    """The table pinged these players at ``when`` (only rows that exist: a player without choices
    has no limit to keep)."""
    for user_id in user_ids:
        await conn.execute("UPDATE table_notify SET last_ping_at = ? WHERE game_id = ? AND user_id = ?",
                           (when, game_id, str(user_id)))


async def get_digest(conn: Any, user_id: str) -> int | None:
    rows = await conn.execute_fetchall("SELECT hour FROM digests WHERE user_id = ?", (str(user_id),))
    return int(rows[0]["hour"]) if rows else None


async def set_digest(conn: Any, user_id: str, hour: int | None) -> None:
    """Turn the digest on at ``hour`` (keeping the date it was last sent for), or off (None)."""
    if hour is None:
        await conn.execute("DELETE FROM digests WHERE user_id = ?", (str(user_id),))
        return
    await conn.execute("INSERT INTO digests (user_id, hour) VALUES (?, ?) "
                       "ON CONFLICT (user_id) DO UPDATE SET hour = excluded.hour, next_at = NULL",
                       (str(user_id), hour))


async def digests(conn: Any, now: str | None = None, user_id: str | None = None) -> list[Digest]:
    """The digests that are on, with the player's time zone and quiet hours: those whose planned
    moment came by ``now`` (or not planned yet), or the one of ``user_id``."""
    where, args = ("d.user_id = ?", (str(user_id),)) if user_id is not None else (
        "(d.next_at IS NULL OR d.next_at <= ?)", (now,))
    rows = await conn.execute_fetchall(
        "SELECT d.user_id, d.hour, d.sent_for, p.time_zone, p.quiet_start, p.quiet_end FROM digests d "
        f"LEFT JOIN user_prefs p ON p.user_id = d.user_id WHERE {where} ORDER BY d.user_id", args)
    return [Digest(str(r["user_id"]), int(r["hour"]), r["sent_for"], r["time_zone"], r["quiet_start"],
                   r["quiet_end"]) for r in rows]


async def claim_digest(conn: Any, user_id: str, day: str, next_at: str) -> bool:
    """Mark the digest of local date ``day`` sent and plan the next; True only for the one caller
    that changed it (two processes ticking together send it once)."""
    cur = await conn.execute("UPDATE digests SET sent_for = ?, next_at = ? WHERE user_id = ? "
                             "AND (sent_for IS NULL OR sent_for < ?)", (day, next_at, str(user_id), day))
    return bool(cur.rowcount == 1)


async def plan_digest(conn: Any, user_id: str, next_at: str | None) -> None:
    await conn.execute("UPDATE digests SET next_at = ? WHERE user_id = ?", (next_at, str(user_id)))


async def plan_digests(conn: Any, plans: list[tuple[str, str]]) -> None:
    """(user id, next moment) for many digests at once (one statement, many rows)."""
    if plans:
        await conn.executemany("UPDATE digests SET next_at = ? WHERE user_id = ?",
                               [(next_at, str(user_id)) for user_id, next_at in plans])


async def forget(conn: Any, user_id: str) -> None:
    """The user is forgotten (bot/services/privacy.py): their table choices and digest go."""
    await conn.execute("DELETE FROM table_notify WHERE user_id = ?", (str(user_id),))
    await conn.execute("DELETE FROM digests WHERE user_id = ?", (str(user_id),))
