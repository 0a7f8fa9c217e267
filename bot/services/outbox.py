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
    from bot.services.update import Update

MOVE = "move"  # a change of the position: board, DMs, pings
ENDED = "ended"  # /game end abandoned the table: the current board loses its buttons (a game that closes
#                  with its standings, an endless Tölp game, is announced as its last move)


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


LINKS_KEPT = 10_000  # tables whose board message this process remembers
LEASE_SECONDS = 60.0  # a delivery claim not renewed for this long was left by a process that died


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


class Outbox:
    """The announcer's door to the outbox and the current boards."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._held: dict[tuple[int, str], datetime] = {}  # (game, owner) -> until when this process's claim runs
        self._linked: dict[int, str | None] = {}  # game -> its board message as this process last read it

    async def snapshot(self, game_id: int) -> Snapshot:
        """What is committed now, read beside the writer (the caller's claim is committed first)."""
        async with self.db.reading(inline=True) as conn:
            record = await games.get(conn, game_id)
            if record is None:
                raise NotFound("error.no_game")
            board = await announcements.board(conn, game_id)
            snap = Snapshot(record, board, await announcements.pending(conn, game_id))
        if len(self._linked) >= LINKS_KEPT:  # forgetting costs one write, not a wrong link
            self._linked.clear()
        self._linked[game_id] = record.board_message_id
        return snap

    async def claim(self, game_id: int, owner: str, seconds: float = LEASE_SECONDS) -> bool:
        """Become (or stay) the one process delivering this table, for ``seconds``. A claim this
        process holds with more than half of its time left is not renewed (nobody can take it
        before it runs out, and a write under the writer's lock per delivery is saved)."""
        now = datetime.now(UTC)
        until = self._held.get((game_id, owner))
        if until is not None and until - now > timedelta(seconds=seconds / 2):
            return True
        self._held.pop((game_id, owner), None)
        async with self.db.single() as conn:
            claimed = await announcements.claim(conn, game_id, owner, _stamp(now + timedelta(seconds=seconds)),
                                                _stamp(now))
        if claimed:
            self._held[(game_id, owner)] = now + timedelta(seconds=seconds)
        return claimed

    async def release(self, game_id: int, owner: str) -> None:
        self._held.pop((game_id, owner), None)
        async with self.db.single() as conn:
            await announcements.release(conn, game_id, owner)

    async def waiting(self, game_id: int) -> bool:
        """Whether the table has entries not yet delivered."""
        async with self.db.reading_one(inline=True) as conn:
            return bool(await announcements.pending(conn, game_id))

    async def latest(self) -> int:
        """The newest outbox entry's id (0: none yet)."""
        async with self.db.reading_one() as conn:
            return await announcements.latest_id(conn)

    async def tables(self) -> list[int]:
        """Games with committed changes not yet announced (delivered at start-up and periodically)."""
        async with self.db.transaction() as conn:
            return await announcements.pending_games(conn)

    async def delivered(self, ids: list[int], board: announcements.BoardRow | None) -> None:
        """Mark the entries done and store the table's current board, in one transaction."""
        async with self.db.transaction(inline=True) as conn:
            if board is not None:
                linked = board.game_id in self._linked and self._linked[board.game_id] == board.message_id
                await announcements.set_board(conn, board, link=not linked)
            await announcements.mark_done(conn, ids)
        if board is not None:
            self._linked[board.game_id] = board.message_id
