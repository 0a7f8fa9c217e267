"""Which reminders, last calls and timeouts are due: read from the database on every tick, so
restarts lose nothing, and each (game, ply, seat, stage) is claimed once, so none is sent twice."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.engine import registry
from bot.services import clock
from bot.services.clock import TIMEOUT, ClockSettings
from bot.storage import games as repo
from bot.storage import prefs as prefs_repo
from bot.storage.db import Database
from bot.storage.games import GameRow


@dataclass(frozen=True)
class Due:
    record: GameRow
    seat: int
    stage: int  # clock.REMINDER, clock.LAST_CALL or clock.TIMEOUT
    user_id: str
    deadline: datetime
    dm_ok: bool
    locale: str | None


class Scheduler:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def due(self, now: datetime) -> list[Due]:
        out: list[Due] = []
        async with self.db.transaction() as conn:
            for record in await repo.active_with_deadline(conn):
                deadline = clock.parse_time(record.turn_deadline)
                started = clock.parse_time(record.turn_started_at)
                if deadline is None or started is None:
                    continue
                _, raw = await prefs_repo.get_guild(conn, record.guild_id)
                stage = clock.stage_due(now, started, deadline, ClockSettings.from_dict(raw))
                if stage == 0:
                    continue
                game = registry.get(record.game)
                waiting = sorted(game.to_act(game.load(record.state or {})))
                for seat in waiting:
                    seat_row = record.seats[seat]
                    if seat_row.is_computer or not seat_row.user_id:
                        continue
                    prefs = await prefs_repo.get_user(conn, seat_row.user_id)
                    away = clock.parse_time(prefs.vacation_until)
                    if stage < TIMEOUT and ((away is not None and away > now) or clock.in_quiet_hours(
                            now, prefs.time_zone, prefs.quiet_start, prefs.quiet_end)):
                        continue
                    claimed = [s for s in range(1, stage + 1)
                               if await prefs_repo.claim_reminder(conn, record.id, record.ply, seat, s)]
                    if claimed:
                        out.append(Due(record, seat, max(claimed), seat_row.user_id, deadline, prefs.dm_ok,
                                       prefs.locale))
        return out
