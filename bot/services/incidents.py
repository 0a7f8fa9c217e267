"""What the storage keeps when the world changes under a running table (issue #27.7).

A channel or thread that was deleted takes its table with it: the game ends as abandoned (status
``aborted``, its timers cleared), once — a second report of the same channel finds no open table —
and what it still had to announce is marked done in the same transaction, since there is nowhere
left to announce it. The moves stay in the log (``/game history``, replays and exports keep the
game). The Discord side (cogs/incidents.py) tells the players.
"""
from __future__ import annotations

from collections.abc import Iterable

from bot.storage import announcements
from bot.storage import games as repo
from bot.storage.db import Database
from bot.storage.games import GameRow


async def channels_gone(db: Database, channel_ids: Iterable[str]) -> list[GameRow]:
    """End the open table of each deleted channel as abandoned; the tables that ended now (none
    for a channel reported before, or one without a table)."""
    ended: list[GameRow] = []
    async with db.transaction() as conn:
        for channel_id in dict.fromkeys(str(c) for c in channel_ids):
            record = await repo.open_in_channel(conn, channel_id, lock=True)
            if record is None:
                continue
            await repo.update(conn, record, record.version, status="aborted", turn_deadline=None, alarm_at=None,
                              timer_at=None)
            await announcements.mark_done(conn, [p.id for p in await announcements.pending(conn, record.id)])
            db.committed(conn, record.id)
            ended.append(record)
    return ended
