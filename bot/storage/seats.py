"""Repository for seats that change hands while a game runs (migration 0022): who held each seat
from which ply on (``seat_holders``) and the proposed replacements being voted on
(``seat_requests``). Both backends, the same SQL; a request read to change it stays locked until
the transaction ends on PostgreSQL."""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.storage.backend import POSTGRES, dialect
from bot.storage.games import GameRow

START, REPLACED, SITTER, RETURNED = "start", "replaced", "sitter", "returned"


@dataclass
class HolderRow:
    id: int
    game_id: int
    seat: int
    from_ply: int  # moves after this ply are this holder's
    user_id: str | None  # None: the computer
    name: str
    kind: str
    owner_id: str | None = None  # a sitter's: whose seat it is
    owner_name: str | None = None


@dataclass
class RequestRow:
    id: int
    game_id: int
    seat: int
    holder: str
    newcomer_id: str
    newcomer_name: str
    asked_by: str
    answers: dict[int, bool]
    status: str
    expires_at: str
    message_id: str | None = None
    created_at: str = ""
    channel_id: str = field(default="", compare=False)  # the game's channel, read with it
    locale: str = field(default="en", compare=False)  # the game's language


def holder_key(record: GameRow, seat: int) -> str:
    """Who holds ``seat`` now, as a request remembers it."""
    row = record.seats[seat]
    return f"{'computer' if row.is_computer else 'user'}:{row.user_id or ''}"


_HOLDER_COLUMNS = "id, game_id, seat, from_ply, user_id, name, kind, owner_id, owner_name"


def _holder(row: Any) -> HolderRow:
    return HolderRow(int(row[0]), int(row[1]), int(row[2]), int(row[3]), row[4], row[5], row[6], row[7], row[8])


async def holders(conn: Any, game_id: int) -> list[HolderRow]:
    """Every change of hands of the game's seats, oldest first."""
    rows = await conn.execute_fetchall(f"SELECT {_HOLDER_COLUMNS} FROM seat_holders WHERE game_id = ? "
                                       "ORDER BY id", (game_id,))
    return [_holder(r) for r in rows]


def current(rows: Sequence[HolderRow]) -> dict[int, HolderRow]:
    """The latest holder row of each seat that changed hands."""
    out: dict[int, HolderRow] = {}
    for row in rows:
        out[row.seat] = row
    return out


def sitters(rows: Sequence[HolderRow]) -> dict[int, HolderRow]:
    """The seats a sitter plays now, with their sitting rows."""
    return {seat: row for seat, row in current(rows).items() if row.kind == SITTER}


async def add_holder(conn: Any, record: GameRow, seat: int, user_id: str | None, name: str, kind: str, *,
                     owner_id: str | None = None, owner_name: str | None = None,
                     known: Sequence[HolderRow] | None = None) -> None:
    """Note that ``user_id`` holds ``seat`` from the game's current ply on (the seat's first
    change also notes who held it from the start)."""
    rows = await holders(conn, record.id) if known is None else known
    if not any(r.seat == seat for r in rows):
        before = record.seats[seat]
        await conn.execute("INSERT INTO seat_holders (game_id, seat, from_ply, user_id, name, kind) "
                           "VALUES (?, ?, 0, ?, ?, ?)",
                           (record.id, seat, None if before.is_computer else before.user_id, before.name, START))
    await conn.execute("INSERT INTO seat_holders (game_id, seat, from_ply, user_id, name, kind, owner_id, owner_name) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (record.id, seat, record.ply, user_id, name, kind, owner_id, owner_name))


async def set_holder(conn: Any, record: GameRow, seat: int, user_id: str, name: str) -> None:
    """The seat's row: a human ``user_id`` plays it from now on (a computer seat stops being one)."""
    await conn.execute("UPDATE seats SET user_id = ?, name = ?, is_computer = 0, level = '' "
                       "WHERE game_id = ? AND seat = ?", (user_id, name, record.id, seat))
    row = record.seats[seat]
    row.user_id, row.name, row.is_computer, row.level = user_id, name, False, ""
    prefs = await conn.execute_fetchall("SELECT vacation_until FROM user_prefs WHERE user_id = ?", (user_id,))
    row.vacation_until = prefs[0][0] if prefs else None  # the new holder's vacation pauses the seat's clock


async def hand_back_sitters(conn: Any, record: GameRow) -> None:
    """A game that ends with sitters at it: each seat goes back to its owner (the standings and
    the result name the owner)."""
    for seat, row in sitters(await holders(conn, record.id)).items():
        if row.owner_id is None:
            continue
        await set_holder(conn, record, seat, row.owner_id, row.owner_name or "?")
        await conn.execute("INSERT INTO seat_holders (game_id, seat, from_ply, user_id, name, kind) "
                           "VALUES (?, ?, ?, ?, ?, ?)", (record.id, seat, record.ply, row.owner_id,
                                                         row.owner_name or "?", RETURNED))


async def sat_games(conn: Any, owner_id: str) -> list[int]:
    """The running games where someone sits for ``owner_id`` (their last sitting row there)."""
    rows = await conn.execute_fetchall(
        "SELECT DISTINCT h.game_id FROM seat_holders h JOIN games g ON g.id = h.game_id "
        "WHERE h.owner_id = ? AND h.kind = ? AND g.status = 'active' ORDER BY h.game_id", (str(owner_id), SITTER))
    out = []
    for (game_id,) in rows:
        if any(r.owner_id == str(owner_id) for r in sitters(await holders(conn, int(game_id))).values()):
            out.append(int(game_id))
    return out


async def why_not_seated(conn: Any, record: GameRow, user_id: str) -> tuple[str, dict[str, Any]]:
    """Why ``user_id`` holds no seat at ``record``: the catalog key and its params (someone sits
    for them, they handed their seat over, or they never sat here)."""
    rows = await holders(conn, record.id)
    for row in sitters(rows).values():
        if row.owner_id == str(user_id):
            return "seats.error.sitter_plays", {"name": row.name}
    for row in reversed(rows):
        if row.user_id == str(user_id) or row.owner_id == str(user_id):
            return "seats.error.replaced", {"name": record.seats[row.seat].name}
    return "error.not_seated", {}


# ---------------------------------------------------------------------- requests
_REQUEST_COLUMNS = ("r.id, r.game_id, r.seat, r.holder, r.newcomer_id, r.newcomer_name, r.asked_by, r.answers, "
                    "r.status, r.expires_at, r.message_id, r.created_at, g.channel_id, g.locale")


def _request(row: Any) -> RequestRow:
    return RequestRow(int(row[0]), int(row[1]), int(row[2]), row[3], row[4], row[5], row[6],
                      {int(k): bool(v) for k, v in json.loads(row[7]).items()}, row[8], row[9], row[10], row[11],
                      str(row[12]), row[13])


async def insert_request(conn: Any, row: RequestRow) -> int:
    found = await conn.execute_fetchall(
        "INSERT INTO seat_requests (game_id, seat, holder, newcomer_id, newcomer_name, asked_by, answers, status, "
        "expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (row.game_id, row.seat, row.holder, row.newcomer_id, row.newcomer_name, row.asked_by,
         json.dumps({str(k): v for k, v in row.answers.items()}), row.status, row.expires_at, row.created_at))
    return int(list(found)[0][0])


async def request(conn: Any, request_id: int, *, lock: bool = False) -> RequestRow | None:
    sql = f"SELECT {_REQUEST_COLUMNS} FROM seat_requests r JOIN games g ON g.id = r.game_id WHERE r.id = ?"
    if lock and dialect(conn) == POSTGRES:
        sql += " FOR UPDATE OF r"
    rows = list(await conn.execute_fetchall(sql, (request_id,)))
    return _request(rows[0]) if rows else None


async def open_request(conn: Any, game_id: int, seat: int) -> RequestRow | None:
    """The seat's request still being voted on or answered, if any."""
    rows = list(await conn.execute_fetchall(
        f"SELECT {_REQUEST_COLUMNS} FROM seat_requests r JOIN games g ON g.id = r.game_id "
        "WHERE r.game_id = ? AND r.seat = ? AND r.status IN ('voting', 'agreed') ORDER BY r.id", (game_id, seat)))
    return _request(rows[-1]) if rows else None


async def save_request(conn: Any, row: RequestRow) -> None:
    await conn.execute("UPDATE seat_requests SET answers = ?, status = ? WHERE id = ?",
                       (json.dumps({str(k): v for k, v in row.answers.items()}), row.status, row.id))


async def set_message(conn: Any, request_id: int, message_id: str) -> None:
    await conn.execute("UPDATE seat_requests SET message_id = ? WHERE id = ?", (message_id, request_id))


async def due_requests(conn: Any, now: str) -> list[RequestRow]:
    """Open requests that expired, or whose game is no longer running (locked on PostgreSQL,
    skipping those another process holds)."""
    skip = " FOR UPDATE OF r SKIP LOCKED" if dialect(conn) == POSTGRES else ""
    rows = await conn.execute_fetchall(
        f"SELECT {_REQUEST_COLUMNS} FROM seat_requests r JOIN games g ON g.id = r.game_id "
        "WHERE r.status IN ('voting', 'agreed') AND (r.expires_at <= ? OR g.status <> 'active') "
        f"ORDER BY r.id{skip}", (now,))
    return [_request(r) for r in rows]


__all__ = ["REPLACED", "RETURNED", "SITTER", "START", "HolderRow", "RequestRow", "add_holder", "current",
           "due_requests", "hand_back_sitters", "holder_key", "holders", "insert_request",
           "open_request", "request", "sat_games", "save_request", "set_holder", "set_message", "sitters",
           "why_not_seated"]
