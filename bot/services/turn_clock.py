"""A table's turn clock: when a turn's deadline falls, when the scheduler must first look at it,
and which of the game's own timers (its timer action, its agreed end time, the window computer
seats leave a human) are due. The time arithmetic itself is ``bot.services.clock``; this module
applies it to a stored game, reading the server's clock settings where the game row lacks them.
"""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from bot.engine.core import Game
from bot.services import clock
from bot.services.clock import ClockSettings
from bot.storage import prefs as prefs_repo
from bot.storage.games import GameRow


def stamp(moment: datetime) -> str:
    """Stored times: UTC ISO text to the second, so that text order is time order in SQL."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


async def guild_clock(conn: Any, guild_id: str | None) -> ClockSettings:
    """The clock settings of a server (``/game settings``)."""
    _, settings = await prefs_repo.get_guild(conn, guild_id)
    return ClockSettings.from_dict(settings)


async def table_clock(conn: Any, record: GameRow) -> ClockSettings:
    """The clock settings of the record's server (read with the record when it was)."""
    if record.guild_settings is not None:
        return ClockSettings.from_dict(record.guild_settings)
    return await guild_clock(conn, record.guild_id)


async def turn_clock(conn: Any, game: Game[Any], state: Any, record: GameRow,
                     now: datetime) -> dict[str, str | None]:
    """A new turn's clock fields: when it started, its deadline, when the scheduler must first
    look at it (the first reminder) and when the game's own timer runs out."""
    deadline = await turn_deadline(conn, game, state, record, now)
    alarm = None
    if deadline is not None:
        share = (await table_clock(conn, record)).reminder_share
        due = clock.parse_time(deadline)
        assert due is not None
        alarm = stamp(now + (due - now) * share)
    timers = timers_due(game, state, record, now)
    return {"turn_started_at": stamp(now), "turn_deadline": deadline, "alarm_at": alarm,
            "timer_at": stamp(min(timers)) if timers else None}


def timers_due(game: Game[Any], state: Any, record: GameRow, started: datetime) -> list[datetime]:
    """When something may happen without anyone acting, for a turn that started at ``started``:
    the game's own timer, its agreed end time, and the end of the window computer seats leave
    a human for an out-of-turn right (``Game.waits_for``)."""
    due = []
    timer = game.timer_action(state)
    if timer:
        due.append(started + timedelta(seconds=timer[0]))
    limit = game.time_limit(state)
    if limit:
        due.append(clock.parse_time(limit[0].replace("Z", "+00:00")) or started)
    if held(game, state, record):
        due.append(started + timedelta(seconds=game.window_seconds))
    return due


def held(game: Game[Any], state: Any, record: GameRow) -> bool:
    """Whether a computer seat must move next but leaves a human a window first."""
    if game.outcome(state) is not None:
        return False
    computers = {s.seat for s in record.seats if s.is_computer}
    return bool(game.to_act(state) & computers) and bool(game.waits_for(state) - computers)


async def turn_deadline(conn: Any, game: Game[Any], state: Any, record: GameRow, now: datetime) -> str | None:
    """The deadline of the seats waiting now (None when only computers or nobody must act)."""
    if game.outcome(state) is not None:
        return None
    waiting = [record.seats[s] for s in sorted(game.to_act(state)) if not record.seats[s].is_computer]
    if not waiting:
        return None
    # a vacation pauses this table's clock up to its own server's limit past the turn's start
    longest = now + timedelta(days=(await table_clock(conn, record)).max_vacation_days)
    vacations = [clock.parse_time(seat_row.vacation_until) for seat_row in waiting if seat_row.user_id]
    vacations = [min(until, longest) if until is not None else None for until in vacations]
    return stamp(clock.deadline(now, record.turn_seconds, [s.bank_seconds for s in waiting], vacations))


def due_move(game: Game[Any], state: Any, started: datetime, now: datetime) -> tuple[int, Any] | None:
    """The timer action that is due at ``now`` (the agreed end time first), if any."""
    limit = game.time_limit(state)
    if limit and (clock.parse_time(limit[0].replace("Z", "+00:00")) or now) <= now:
        return limit[1], limit[2]
    timer = game.timer_action(state)
    if timer and (now - started).total_seconds() >= timer[0]:
        return timer[1], timer[2]
    return None
