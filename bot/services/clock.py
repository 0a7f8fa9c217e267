"""Turn clocks: deadlines with time banks and vacations, reminder stages, quiet hours.

Pure functions of an injected ``now`` (tests drive the clock; nothing here sleeps or reads time).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

REMINDER, LAST_CALL, TIMEOUT = 1, 2, 3


@dataclass(frozen=True)
class ClockSettings:
    """Per-server settings (``/game settings``); games copy the turn time when created."""

    turn_hours: float | None = None  # None: each game's own default
    bank_hours: float = 24.0
    reminder_share: float = 0.5   # first reminder when this share of the turn time has passed
    last_call_share: float = 0.9
    max_vacation_days: int = 14

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> ClockSettings:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)  # type: ignore[arg-type]


def parse_time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def deadline(now: datetime, turn_seconds: int, banks: Iterable[int],
             vacations: Iterable[datetime | None]) -> datetime:
    """When the waiting seats time out: the turn time plus the smallest waiting bank, pushed past
    any waiting player's vacation."""
    banks = list(banks)
    due = now + timedelta(seconds=turn_seconds + (min(banks) if banks else 0))
    for until in vacations:
        if until is not None and until > now:
            due = max(due, until + timedelta(seconds=turn_seconds))
    return due


def stage_due(now: datetime, started: datetime, due: datetime, settings: ClockSettings) -> int:
    """The highest reminder stage reached at ``now`` (0: none yet)."""
    if now >= due:
        return TIMEOUT
    total = (due - started).total_seconds()
    elapsed = (now - started).total_seconds()
    if total <= 0:
        return TIMEOUT
    if elapsed >= settings.last_call_share * total:
        return LAST_CALL
    if elapsed >= settings.reminder_share * total:
        return REMINDER
    return 0


def stage_times(started: datetime, due: datetime, settings: ClockSettings) -> list[datetime]:
    """When the reminder, the last call and the timeout fall due."""
    total = due - started
    return [started + total * settings.reminder_share, started + total * settings.last_call_share, due]


def zone(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def in_quiet_hours(now: datetime, tz_name: str | None, start: int | None, end: int | None) -> bool:
    """Quiet hours are whole local hours [start, end), possibly across midnight (22 → 7)."""
    if start is None or end is None or start == end:
        return False
    hour = now.astimezone(zone(tz_name)).hour
    return start <= hour < end if start < end else hour >= start or hour < end


def spent_bank(bank: int, turn_seconds: int, started: datetime | None, now: datetime) -> int:
    """The bank left after a move made at ``now`` for a turn that began at ``started``."""
    if started is None:
        return bank
    over = int((now - started).total_seconds()) - turn_seconds
    return max(0, bank - max(0, over))
