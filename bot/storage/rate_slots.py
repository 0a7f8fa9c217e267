"""The shared budget of Discord calls (PostgreSQL): places taken in a bot token's time slots.

One statement takes a place in the token's current slot by the database's clock, so processes on
different machines agree on the slots whatever their own clocks say, and no slot ever holds more
than the quota however many processes reserve at once (the row's update is atomic).
"""
from __future__ import annotations

from typing import Any

# (taken: 1 or 0, used: the slot's places now taken, or 0, now: the database's epoch seconds)
RESERVE = (
    "WITH now AS (SELECT EXTRACT(EPOCH FROM clock_timestamp())::float8 AS t), "
    "taken AS (INSERT INTO rate_slots (token, slot, used) SELECT ?, FLOOR(t / ?)::bigint, 1 FROM now "
    "ON CONFLICT (token, slot) DO UPDATE SET used = rate_slots.used + 1 WHERE rate_slots.used < ? "
    "RETURNING used) "
    "SELECT (SELECT COUNT(*) FROM taken) AS taken, COALESCE((SELECT used FROM taken), 0) AS used, "
    "(SELECT t FROM now) AS now")
KEEP_SLOTS = 16  # slots kept behind the current one (a few seconds), the older ones deleted


async def reserve(conn: Any, token: str, slot_seconds: float, quota: int) -> tuple[bool, int, float]:
    """Take a place in the token's current slot: (taken, places now used, the database's time)."""
    rows = await conn.execute_fetchall(RESERVE, (token, slot_seconds, quota))
    row = rows[0]
    return bool(row["taken"]), int(row["used"]), float(row["now"])


async def forget_old(conn: Any, token: str, before_slot: int) -> None:
    await conn.execute("DELETE FROM rate_slots WHERE token = ? AND slot < ?", (token, before_slot))
