"""Repository for games, seats and moves (all SQL for game records lives here)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import aiosqlite

from bot.errors import Conflict
from bot.storage.backend import POSTGRES, dialect


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class SeatRow:
    seat: int
    user_id: str | None
    name: str
    is_computer: bool = False
    bank_seconds: int = 0
    vacation_until: str | None = None  # the player's vacation, read with the seat (for deadlines)
    level: str = ""  # a computer seat's level ("easy", "normal", "strong"; "": the default)
    # the seat's standing orders (/orders) and who set them, read with the game by ``get`` and
    # ``open_in_channel`` ({}: none); None: not read (bot/services/orders.py reads them then)
    orders: dict[str, Any] | None = None
    orders_by: str | None = None


@dataclass
class GameRow:
    id: int
    guild_id: str | None
    channel_id: str
    game: str
    status: str
    creator_id: str
    options: dict[str, Any]
    seed: str
    state: dict[str, Any] | None
    version: int
    ply: int
    locale: str
    board_message_id: str | None = None
    turn_started_at: str | None = None
    turn_deadline: str | None = None
    outcome: dict[str, Any] | None = None
    turn_seconds: int = 86400
    computer_level: str = "normal"  # the level a seat handed to the computer plays at
    seats: list[SeatRow] = field(default_factory=list)
    guild_settings: dict[str, Any] | None = None  # the server's settings when read with the game (None: not read)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, user_id: str) -> int | None:
        for s in self.seats:
            if s.user_id == str(user_id):
                return s.seat
        return None

    def user_of(self, seat: int) -> str | None:
        for s in self.seats:
            if s.seat == seat:
                return s.user_id
        return None


_COLUMNS = ("id, guild_id, channel_id, game, status, creator_id, options, seed, state, version, ply, "
            "locale, board_message_id, turn_started_at, turn_deadline, outcome, turn_seconds, computer_level")


_SEATS = ("SELECT s.seat, s.user_id, s.name, s.is_computer, s.bank_seconds, p.vacation_until, s.level FROM seats s "
          "LEFT JOIN user_prefs p ON p.user_id = s.user_id WHERE s.game_id = ? ORDER BY s.seat")
# One game with its seats (one row per seat), its players' vacations and its server's settings, in one
# statement: a move reads all it needs in a single round trip.
_ONE = (f"SELECT {', '.join('g.' + c.strip() for c in _COLUMNS.split(','))}, gp.settings AS guild_settings, "
        "s.seat AS seat_no, s.user_id AS seat_user, s.name AS seat_name, s.is_computer AS seat_computer, "
        "s.bank_seconds AS seat_bank, p.vacation_until AS seat_vacation, s.level AS seat_level, "
        "so.orders AS seat_orders, so.user_id AS seat_orders_by FROM games g "
        "LEFT JOIN guild_prefs gp ON gp.guild_id = g.guild_id LEFT JOIN seats s ON s.game_id = g.id "
        "LEFT JOIN user_prefs p ON p.user_id = s.user_id "
        "LEFT JOIN standing_orders so ON so.game_id = g.id AND so.seat = s.seat WHERE {where} ORDER BY g.id, s.seat")


def _game_of(row: aiosqlite.Row) -> GameRow:
    return GameRow(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], game=row["game"],
        status=row["status"], creator_id=row["creator_id"], options=json.loads(row["options"]),
        seed=row["seed"], state=json.loads(row["state"]) if row["state"] else None,
        version=row["version"], ply=row["ply"], locale=row["locale"],
        board_message_id=row["board_message_id"], turn_started_at=row["turn_started_at"],
        turn_deadline=row["turn_deadline"],
        outcome=json.loads(row["outcome"]) if row["outcome"] else None, turn_seconds=row["turn_seconds"],
        computer_level=row["computer_level"],
    )


async def _row_to_game(conn: aiosqlite.Connection, row: aiosqlite.Row) -> GameRow:
    game = _game_of(row)
    async with conn.execute(_SEATS, (game.id,)) as cur:
        game.seats = [SeatRow(r[0], r[1], r[2], bool(r[3]), r[4], r[5], r[6]) for r in await cur.fetchall()]
    return game


async def _one(conn: aiosqlite.Connection, where: str, params: tuple[Any, ...], lock: bool) -> GameRow | None:
    """The first game matching ``where`` (on ``games g``), read with everything a move needs."""
    sql = _ONE.format(where=where) + (" FOR UPDATE OF g" if lock and dialect(conn) == POSTGRES else "")
    rows = list(await conn.execute_fetchall(sql, params))  # one hop (execute, fetch and close are three)
    if not rows:
        return None
    game = _game_of(rows[0])
    game.guild_settings = json.loads(rows[0]["guild_settings"]) if rows[0]["guild_settings"] else {}
    game.seats = [SeatRow(r["seat_no"], r["seat_user"], r["seat_name"], bool(r["seat_computer"]), r["seat_bank"],
                          r["seat_vacation"], r["seat_level"],
                          json.loads(r["seat_orders"]) if r["seat_orders"] else {}, r["seat_orders_by"])
                  for r in rows if r["id"] == game.id and r["seat_no"] is not None]
    return game


async def get(conn: aiosqlite.Connection, game_id: int, *, lock: bool = False) -> GameRow | None:
    """One game (``lock``: its row stays locked until the transaction ends, on PostgreSQL)."""
    return await _one(conn, "g.id = ?", (game_id,), lock)


async def open_in_channel(conn: aiosqlite.Connection, channel_id: str, *, lock: bool = False) -> GameRow | None:
    return await _one(conn, "g.channel_id = ? AND g.status IN ('lobby', 'active')", (str(channel_id),), lock)


async def open_id_in_channel(conn: aiosqlite.Connection, channel_id: str) -> int | None:
    async with conn.execute("SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
                            (str(channel_id),)) as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else None


async def latest_in_channel(conn: aiosqlite.Connection, channel_id: str) -> GameRow | None:
    """The open game, else the newest finished or ended one."""
    async with conn.execute(f"SELECT {_COLUMNS} FROM games WHERE channel_id = ? ORDER BY "
                            "status IN ('lobby', 'active') DESC, id DESC LIMIT 1", (str(channel_id),)) as cur:
        row = await cur.fetchone()
    return await _row_to_game(conn, row) if row else None


async def of_user(conn: aiosqlite.Connection, user_id: str, guild_id: str | None,
                  statuses: tuple[str, ...] = ("lobby", "active")) -> list[GameRow]:
    marks = ",".join("?" * len(statuses))
    sql = (f"SELECT {', '.join('g.' + c.strip() for c in _COLUMNS.split(','))} FROM games g "
           f"JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? AND g.status IN ({marks})")
    params: list[Any] = [str(user_id), *statuses]
    if guild_id is not None:
        sql += " AND g.guild_id = ?"
        params.append(str(guild_id))
    async with conn.execute(sql + " ORDER BY g.id", params) as cur:
        rows = await cur.fetchall()
    return [await _row_to_game(conn, r) for r in rows]


async def due_alarms(conn: aiosqlite.Connection, now: str) -> list[GameRow]:
    """The active games whose alarm came. On PostgreSQL they stay locked until the transaction
    ends and games another process's scheduler holds are skipped (``FOR UPDATE SKIP LOCKED``), so
    processes ticking together split the due games instead of waiting for each other."""
    skip = " FOR UPDATE SKIP LOCKED" if dialect(conn) == POSTGRES else ""
    async with conn.execute(f"SELECT {_COLUMNS} FROM games WHERE status = 'active' AND alarm_at IS NOT NULL "
                            f"AND alarm_at <= ? ORDER BY alarm_at{skip}", (now,)) as cur:
        rows = await cur.fetchall()
    return [await _row_to_game(conn, r) for r in rows]


async def due_alarm_ids(conn: aiosqlite.Connection, now: str) -> list[int]:
    """The ids of the games whose alarm came, from the alarm index alone (no game row is read)."""
    async with conn.execute("SELECT id FROM games WHERE status = 'active' AND alarm_at IS NOT NULL "
                            "AND alarm_at <= ? ORDER BY alarm_at", (now,)) as cur:
        return [row[0] for row in await cur.fetchall()]


async def due_timers(conn: aiosqlite.Connection, now: str) -> list[int]:
    async with conn.execute("SELECT id FROM games WHERE status = 'active' AND timer_at IS NOT NULL "
                            "AND timer_at <= ? ORDER BY timer_at", (now,)) as cur:
        return [row[0] for row in await cur.fetchall()]


async def set_alarm(conn: aiosqlite.Connection, game_id: int, alarm_at: str | None) -> None:
    await conn.execute("UPDATE games SET alarm_at = ? WHERE id = ?", (alarm_at, game_id))


async def set_timer(conn: aiosqlite.Connection, game_id: int, timer_at: str | None) -> None:
    await conn.execute("UPDATE games SET timer_at = ? WHERE id = ?", (timer_at, game_id))


async def insert(conn: aiosqlite.Connection, *, guild_id: str | None, channel_id: str, game: str,
                 creator_id: str, options: dict[str, Any], seed: str, locale: str, turn_seconds: int,
                 computer_level: str = "normal") -> int:
    stamp = now_iso()
    async with conn.execute(
            "INSERT INTO games (guild_id, channel_id, game, status, creator_id, options, seed, locale, "
            "turn_seconds, computer_level, created_at, updated_at) "
            "VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (guild_id, str(channel_id), game, str(creator_id), json.dumps(options), seed, locale, turn_seconds,
             computer_level, stamp, stamp)) as cur:
        row = await cur.fetchone()
    assert row is not None
    return int(row[0])


async def add_seat(conn: aiosqlite.Connection, game_id: int, seat: int, user_id: str | None, name: str,
                   is_computer: bool = False, bank_seconds: int = 0, level: str = "") -> None:
    await conn.execute("INSERT INTO seats (game_id, seat, user_id, name, is_computer, joined_at, bank_seconds, level) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (game_id, seat, user_id, name, int(is_computer),
                                                           now_iso(), bank_seconds, level))


async def replace_seats(conn: aiosqlite.Connection, game_id: int, seats: list[SeatRow]) -> None:
    await conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
    for s in seats:
        await add_seat(conn, game_id, s.seat, s.user_id, s.name, s.is_computer, s.bank_seconds, s.level)


async def set_computer(conn: aiosqlite.Connection, game_id: int, seat: int, is_computer: bool,
                       level: str = "") -> None:
    """Hand a seat to the computer at ``level`` (is_computer) or give it back to its player."""
    await conn.execute("UPDATE seats SET is_computer = ?, level = ? WHERE game_id = ? AND seat = ?",
                       (int(is_computer), level if is_computer else "", game_id, seat))


async def set_bank(conn: aiosqlite.Connection, game_id: int, seat: int, bank_seconds: int) -> None:
    await conn.execute("UPDATE seats SET bank_seconds = ? WHERE game_id = ? AND seat = ?",
                       (bank_seconds, game_id, seat))


async def set_deadline(conn: aiosqlite.Connection, game_id: int, deadline: str | None, alarm_at: str | None) -> None:
    await conn.execute("UPDATE games SET turn_deadline = ?, alarm_at = ? WHERE id = ?", (deadline, alarm_at, game_id))


async def finished_in_guild(conn: aiosqlite.Connection, guild_id: str) -> list[GameRow]:
    async with conn.execute(f"SELECT {_COLUMNS} FROM games WHERE guild_id = ? AND status = 'finished' "
                            "ORDER BY id", (str(guild_id),)) as cur:
        rows = await cur.fetchall()
    return [await _row_to_game(conn, r) for r in rows]


async def update(conn: aiosqlite.Connection, game: GameRow, expected_version: int, **fields: Any) -> None:
    """Write ``fields`` and bump the version, only if nobody else moved the game since we read it."""
    encoded = {k: (json.dumps(v) if k in ("state", "options", "outcome") and v is not None else v)
               for k, v in fields.items()}
    encoded["updated_at"] = now_iso()
    if fields.get("status") == "finished" and game.status != "finished":
        encoded["finished_at"] = encoded["updated_at"]  # /game history's date
    sets = ", ".join(f"{k} = ?" for k in encoded)
    cur = await conn.execute(f"UPDATE games SET {sets}, version = version + 1 WHERE id = ? AND version = ?",
                             (*encoded.values(), game.id, expected_version))
    if cur.rowcount != 1:
        raise Conflict()
    for k, v in fields.items():  # the row as stored (JSON columns as read back), so no re-read is needed
        setattr(game, k, json.loads(encoded[k]) if k in ("state", "options", "outcome") and v is not None else v)
    game.version = expected_version + 1


async def set_board_message(conn: aiosqlite.Connection, game_id: int, message_id: str | None) -> None:
    await conn.execute("UPDATE games SET board_message_id = ? WHERE id = ?", (message_id, game_id))


async def ids_with_state(conn: aiosqlite.Connection) -> list[int]:
    """Every game that has a state snapshot (for ``db verify``)."""
    async with conn.execute("SELECT id FROM games WHERE state IS NOT NULL ORDER BY id") as cur:
        return [int(r[0]) for r in await cur.fetchall()]


async def append_move(conn: aiosqlite.Connection, game_id: int, ply: int, seat: int, action: str) -> None:
    await conn.execute("INSERT INTO moves (game_id, ply, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
                       (game_id, ply, seat, action, now_iso()))


async def interaction_applied(conn: aiosqlite.Connection, interaction_id: str) -> bool:
    async with conn.execute("SELECT 1 FROM move_interactions WHERE interaction_id = ?", (interaction_id,)) as cur:
        return await cur.fetchone() is not None


async def record_interaction(conn: aiosqlite.Connection, interaction_id: str, game_id: int, ply: int) -> bool:
    """Note the interaction that makes move ``ply``; False (and nothing written) when it already made one."""
    return bool(await conn.execute_fetchall("INSERT INTO move_interactions (interaction_id, game_id, ply) "
                                            "VALUES (?, ?, ?) ON CONFLICT (interaction_id) DO NOTHING "
                                            "RETURNING interaction_id", (interaction_id, game_id, ply)))


async def moved_since(conn: aiosqlite.Connection, game_id: int, seat: int, ply: int) -> bool:
    async with conn.execute("SELECT 1 FROM moves WHERE game_id = ? AND seat = ? AND ply > ? LIMIT 1",
                            (game_id, seat, ply)) as cur:
        return await cur.fetchone() is not None


async def moves(conn: aiosqlite.Connection, game_id: int) -> list[tuple[int, int, str, str]]:
    async with conn.execute("SELECT ply, seat, action, created_at FROM moves WHERE game_id = ? ORDER BY ply",
                            (game_id,)) as cur:
        return [(r[0], r[1], r[2], r[3]) for r in await cur.fetchall()]


async def opened_by(conn: aiosqlite.Connection, user_id: str) -> int:
    """How many tables (lobby or running) the user opened."""
    rows = list(await conn.execute_fetchall("SELECT COUNT(*) FROM games WHERE creator_id = ? "
                                            "AND status IN ('lobby', 'active')", (str(user_id),)))
    return int(rows[0][0])


async def open_tables(conn: aiosqlite.Connection, user_id: str) -> list[int]:
    """The tables (lobby or running) where the user sits, by id."""
    rows = await conn.execute_fetchall(
        "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id "
        "WHERE s.user_id = ? AND g.status IN ('lobby', 'active') ORDER BY g.id", (str(user_id),))
    return [int(row[0]) for row in rows]
