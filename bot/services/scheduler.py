"""Which reminders, last calls and timeouts are due: read from the database on every tick, so
restarts lose nothing, and each (game, ply, seat, stage) is claimed once, so none is sent twice.
A claim is leased to this scheduler's owner (its shard scope) for LEASE and marked delivered
once Discord accepted the message (``delivered``); a claim whose lease ran out undelivered (the
process died between claim and DM) is taken over by any scheduler's next tick, and a restarted
process of the same owner takes its own undelivered claims at once: each is sent exactly once.

A tick reads only the games whose ``alarm_at`` has come (an indexed column): after looking at a
game the scheduler sets the time it must look again (the next stage, the end of a player's
quiet hours or vacation), or clears it once the timeout was announced.
"""
from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.engine import registry
from bot.errors import StorageDamaged
from bot.services import clock
from bot.services.clock import TIMEOUT, ClockSettings
from bot.storage import games as repo
from bot.storage import prefs as prefs_repo
from bot.storage.db import Database
from bot.storage.games import GameRow

log = logging.getLogger(__name__)

RECHECK_QUIET = timedelta(minutes=15)  # how often a reminder held by quiet hours is looked at again
LEASE = timedelta(minutes=5)  # how long a claimed reminder waits for its sender before others take it


@dataclass(frozen=True)
class Due:
    record: GameRow
    seat: int
    stage: int  # clock.REMINDER, clock.LAST_CALL or clock.TIMEOUT
    user_id: str
    deadline: datetime
    dm_ok: bool
    locale: str | None


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


class Scheduler:
    def __init__(self, db: Database, owner: str | None = None) -> None:
        self.db = db
        # who holds this scheduler's claims: the shard scope in the bot (a restarted process of the
        # same scope takes its own undelivered claims at once); otherwise unique to this instance
        self.owner = owner or f"scheduler {uuid.uuid4().hex}"
        self.restarted = True  # the first tick also takes this owner's undelivered claims
        self.damaged: set[int] = set()  # games whose rows could not be read (logged once each)

    async def due(self, now: datetime) -> list[Due]:
        """Claim what is due at ``now`` (and take over expired claims); send each, then call
        ``delivered``."""
        taken = await self._take_over(now)
        return _one_per_seat(taken + await self._claim_due(now))

    async def delivered(self, due: Due, now: datetime) -> None:
        """Discord accepted ``due``'s message: never offer it (or the stages it stood for) again."""
        async with self.db.transaction() as conn:
            await prefs_repo.mark_reminder_delivered(conn, due.record.id, due.record.ply, due.seat, due.stage,
                                                     _stamp(now))

    async def _take_over(self, now: datetime) -> list[Due]:
        out: list[Due] = []
        async with self.db.transaction() as conn:
            claims = await prefs_repo.take_over_reminders(conn, self.owner, _stamp(now), _stamp(now + LEASE),
                                                          own_at_once=self.restarted)
            self.restarted = False
            for game_id, _ply, seat, stage in claims:
                record = await repo.get(conn, game_id)
                deadline = clock.parse_time(record.turn_deadline) if record is not None else None
                if record is None or deadline is None:
                    continue
                seat_row = record.seats[seat]
                if not seat_row.user_id:
                    continue
                prefs = await prefs_repo.get_user(conn, seat_row.user_id)
                out.append(Due(record, seat, stage, seat_row.user_id, deadline, prefs.dm_ok, prefs.language))
        if out:
            log.info("took over %d reminder(s) whose sender did not deliver them", len(out))
        return out

    async def _claim_due(self, now: datetime) -> list[Due]:
        out: list[Due] = []
        try:
            async with self.db.transaction() as conn:
                for record in await repo.due_alarms(conn, _stamp(now)):
                    await self._look_at(conn, record, now, out)
        except StorageDamaged:
            return await self._due_one_by_one(now)
        return out

    async def _due_one_by_one(self, now: datetime) -> list[Due]:
        """The batch met damaged pages: look at each due game alone, so one damaged table (logged
        once) does not hold back the reminders of all the others."""
        async with self.db.reading() as conn:
            ids = await repo.due_alarm_ids(conn, _stamp(now))
        out: list[Due] = []
        for game_id in ids:
            try:
                async with self.db.transaction() as conn:
                    record = await repo.get(conn, game_id)
                    if record is not None and record.status == "active":
                        await self._look_at(conn, record, now, out)
            except StorageDamaged as exc:
                if game_id not in self.damaged:
                    self.damaged.add(game_id)
                    log.error("database damaged: game %s could not be read for its reminders: %s", game_id,
                              exc.detail)
        return out

    async def _look_at(self, conn: Any, record: GameRow, now: datetime, out: list[Due]) -> None:
        """Queue what is due for one game and set when to look at it again."""
        deadline = clock.parse_time(record.turn_deadline)
        started = clock.parse_time(record.turn_started_at)
        if deadline is None or started is None:
            await repo.set_alarm(conn, record.id, None)
            return
        _, raw = await prefs_repo.get_guild(conn, record.guild_id)
        settings = ClockSettings.from_dict(raw)
        stage = clock.stage_due(now, started, deadline, settings)
        game = registry.get(record.game)
        waiting = sorted(game.to_act(game.load(record.state or {})))
        held: list[datetime] = []
        for seat in waiting if stage else []:
            seat_row = record.seats[seat]
            if seat_row.is_computer or not seat_row.user_id:
                continue
            prefs = await prefs_repo.get_user(conn, seat_row.user_id)
            away = clock.parse_time(prefs.vacation_until)
            if stage < TIMEOUT and away is not None and away > now:
                held.append(away)
                continue
            if stage < TIMEOUT and clock.in_quiet_hours(now, prefs.time_zone, prefs.quiet_start,
                                                        prefs.quiet_end):
                held.append(now + RECHECK_QUIET)
                continue
            lease = _stamp(now + LEASE)
            claimed = [s for s in range(1, stage + 1)
                       if await prefs_repo.claim_reminder(conn, record.id, record.ply, seat, s, self.owner, lease)]
            if claimed:
                out.append(Due(record, seat, max(claimed), seat_row.user_id, deadline, prefs.dm_ok,
                               prefs.language))
        upcoming = [t for t in clock.stage_times(started, deadline, settings) if t > now] + held
        await repo.set_alarm(conn, record.id, _stamp(min(upcoming)) if upcoming else None)


def _one_per_seat(dues: list[Due]) -> list[Due]:
    """One message per (game, ply, seat): the latest stage stands for the earlier ones."""
    best: dict[tuple[int, int, int], Due] = {}
    for due in dues:
        key = (due.record.id, due.record.ply, due.seat)
        if key not in best or due.stage > best[key].stage:
            best[key] = due
    return list(best.values())
