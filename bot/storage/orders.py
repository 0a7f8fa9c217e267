"""Repository for standing orders (/orders): each seat's orders as JSON, who set them, the
notes of orders dropped since the player last looked, and which moves an order made."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from bot.storage.games import now_iso


@dataclass
class OrdersRow:
    """One seat's standing orders: set by ``user_id`` (they apply only while that user holds the
    seat), ``orders`` by name, ``notes`` the orders dropped since the player last looked."""

    game_id: int
    seat: int
    user_id: str
    orders: dict[str, Any] = field(default_factory=dict)
    notes: list[dict[str, Any]] = field(default_factory=list)


def _row(row: Any) -> OrdersRow:
    return OrdersRow(int(row[0]), int(row[1]), str(row[2]), json.loads(row[3]), json.loads(row[4]))


async def of_game(conn: Any, game_id: int) -> dict[int, OrdersRow]:
    """Every seat's orders at one table, by seat."""
    rows = await conn.execute_fetchall("SELECT game_id, seat, user_id, orders, notes FROM standing_orders "
                                       "WHERE game_id = ?", (game_id,))
    return {int(r[1]): _row(r) for r in rows}


async def of_seat(conn: Any, game_id: int, seat: int) -> OrdersRow | None:
    rows = list(await conn.execute_fetchall("SELECT game_id, seat, user_id, orders, notes FROM standing_orders "
                                            "WHERE game_id = ? AND seat = ?", (game_id, seat)))
    return _row(rows[0]) if rows else None


async def save(conn: Any, row: OrdersRow) -> None:
    """Store the seat's orders and notes (a row with neither is deleted)."""
    if not row.orders and not row.notes:
        await clear(conn, row.game_id, row.seat)
        return
    await conn.execute(
        "INSERT INTO standing_orders (game_id, seat, user_id, orders, notes, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (game_id, seat) DO UPDATE SET user_id = excluded.user_id, orders = excluded.orders, "
        "notes = excluded.notes, updated_at = excluded.updated_at",
        (row.game_id, row.seat, row.user_id, json.dumps(row.orders, sort_keys=True), json.dumps(row.notes),
         now_iso()))


async def clear(conn: Any, game_id: int, seat: int | None = None) -> None:
    """Delete one seat's orders (or, with ``seat`` None, the whole table's)."""
    if seat is None:
        await conn.execute("DELETE FROM standing_orders WHERE game_id = ?", (game_id,))
    else:
        await conn.execute("DELETE FROM standing_orders WHERE game_id = ? AND seat = ?", (game_id, seat))


async def forget_user(conn: Any, user_id: str) -> None:
    await conn.execute("DELETE FROM standing_orders WHERE user_id = ?", (str(user_id),))


async def mark_move(conn: Any, game_id: int, ply: int, kind: str) -> None:
    """Move ``ply`` of the game was made by a standing order of kind ``kind``."""
    await conn.execute("INSERT INTO order_moves (game_id, ply, kind) VALUES (?, ?, ?)", (game_id, ply, kind))


async def marked_moves(conn: Any, game_id: int) -> dict[int, str]:
    """The plies a standing order made, with the order's kind."""
    rows = await conn.execute_fetchall("SELECT ply, kind FROM order_moves WHERE game_id = ?", (game_id,))
    return {int(r[0]): str(r[1]) for r in rows}
