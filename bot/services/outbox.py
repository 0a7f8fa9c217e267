"""What a committed change must announce, as stored in the outbox (JSON), and back.

The service writes one entry in the move's own transaction; the announcer reads the entries of a
table that are not yet delivered, so a crash between the commit and the post loses nothing.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.engine.core import Event
from bot.errors import NotFound
from bot.storage import announcements, games
from bot.storage.db import Database
from bot.storage.games import GameRow

if TYPE_CHECKING:
    from bot.services.table import Update

MOVE = "move"  # a change of the position: board, DMs, pings
ENDED = "ended"  # /game end: the current board loses its buttons


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = [_plain(v) for v in value]
        return sorted(items) if isinstance(value, set | frozenset) else items
    return value


def event_to_dict(event: Event) -> dict[str, Any]:
    visible = None if event.visible_to is None else sorted(event.visible_to)
    return {"key": event.key, "params": _plain(dict(event.params)), "visible_to": visible}


def event_from_dict(data: dict[str, Any]) -> Event:
    visible = data.get("visible_to")
    return Event(data["key"], dict(data.get("params") or {}), None if visible is None else frozenset(visible))


def events_from(dicts: Iterable[dict[str, Any]]) -> list[Event]:
    return [event_from_dict(d) for d in dicts]


def payload_of(update: Update, kind: str = MOVE) -> dict[str, Any]:
    return {"kind": kind, "events": [event_to_dict(e) for e in update.events],
            "to_act": sorted(update.to_act),
            "previous_to_act": None if update.previous_to_act is None else sorted(update.previous_to_act),
            "private_changed": sorted(update.private_changed), "started": update.started,
            "finished": update.finished}


@dataclass
class Snapshot:
    """One table as one transaction saw it: the game, its current board, what is still to announce."""

    record: GameRow
    board: announcements.BoardRow | None
    pending: list[announcements.Pending]


LEASE_SECONDS = 60.0  # a delivery claim not renewed for this long was left by a process that died


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


class Outbox:
    """The announcer's door to the outbox and the current boards."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def snapshot(self, game_id: int) -> Snapshot:
        async with self.db.reading() as conn:  # a reader's snapshot: the writer stays free for moves
            record = await games.get(conn, game_id)
            if record is None:
                raise NotFound("error.no_game")
            board = await announcements.board(conn, game_id)
            return Snapshot(record, board, await announcements.pending(conn, game_id))

    async def claim(self, game_id: int, owner: str, seconds: float = LEASE_SECONDS) -> bool:
        """Become (or stay) the one process delivering this table, for ``seconds``."""
        now = datetime.now(UTC)
        async with self.db.transaction() as conn:
            return await announcements.claim(conn, game_id, owner, _stamp(now + timedelta(seconds=seconds)),
                                             _stamp(now))

    async def release(self, game_id: int, owner: str) -> None:
        async with self.db.transaction() as conn:
            await announcements.release(conn, game_id, owner)

    async def tables(self) -> list[int]:
        """Games with committed changes not yet announced (delivered at start-up and periodically)."""
        async with self.db.reading() as conn:
            return await announcements.pending_games(conn)

    async def delivered(self, ids: list[int], board: announcements.BoardRow | None) -> None:
        """Mark the entries done and store the table's current board, in one transaction."""
        async with self.db.transaction() as conn:
            if board is not None:
                await announcements.set_board(conn, board)
            await announcements.mark_done(conn, ids)
