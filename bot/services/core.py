"""What every GameService call shares: the database, the cached states, the reads, and the steps
of one table's transaction: locking the game's row, committing a move with its turn clock, the
computer seats' moves, the outbox entry and whose private view changed (``Update``).

Every user action is one transaction: load the snapshot, apply on a fresh copy, append the move,
save the snapshot, bump the version (conditional on the version read, so a double click applies
once). Engines raise before mutating; a raised error rolls the transaction back and nothing changes.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import Executor
from datetime import UTC, datetime
from typing import Any

from bot.engine import registry
from bot.engine.core import TIMER, Game
from bot.errors import IllegalAction, NotFound, StorageDamaged
from bot.services import clock, outbox
from bot.services.computers import decide
from bot.services.states import StateCache
from bot.services.turn_clock import held, turn_clock
from bot.services.update import Update, outcome_to_dict
from bot.storage import announcements
from bot.storage import games as repo
from bot.storage.db import Database
from bot.storage.games import GameRow

__all__ = ["MAX_COMPUTER_MOVES", "ServiceCore", "Update", "outcome_to_dict"]

MAX_COMPUTER_MOVES = 500  # per call; computer seats never loop forever


class ServiceCore:
    """The shared part of ``GameService`` (its lobby, play and timeout calls build on it)."""

    def __init__(self, db: Database, clock: Callable[[], datetime] | None = None) -> None:
        self.db = db
        self.clock = clock or (lambda: datetime.now(UTC))
        self.prefs_written: Callable[[str], None] = lambda user_id: None  # keeps the players' cache current
        self.states = StateCache()
        self.damaged: set[int] = set()  # games whose rows could not be read by the timers (logged once each)
        self.computer_executor: Executor | None = None  # where computer seats decide (None: a worker thread)

    # ------------------------------------------------------------------ reads
    async def current(self, channel_id: str) -> GameRow | None:
        try:
            async with self.db.reading_one() as conn:  # one statement: the game with its seats
                return await repo.open_in_channel(conn, str(channel_id))
        except StorageDamaged as exc:
            exc.game_id = await self._damaged_game_in(str(channel_id))
            raise

    async def _damaged_game_in(self, channel_id: str) -> int | None:
        """The id of the channel's open game whose row could not be read (its id and status sit
        before the damage more often than not), for the operator's log."""
        try:
            async with self.db.reading() as conn:
                return await repo.open_id_in_channel(conn, channel_id)
        except StorageDamaged:
            return None

    async def require_current(self, channel_id: str) -> GameRow:
        record = await self.current(channel_id)
        if record is None:
            raise NotFound("error.no_game")
        return record

    async def latest(self, channel_id: str) -> GameRow:
        """The open game in the channel, else the last one played there (for /game log)."""
        async with self.db.reading() as conn:
            record = await repo.latest_in_channel(conn, str(channel_id))
        if record is None:
            raise NotFound("error.no_game")
        return record

    async def get(self, game_id: int) -> GameRow:
        try:
            async with self.db.reading_one() as conn:
                record = await repo.get(conn, game_id)
        except StorageDamaged as exc:
            exc.game_id = game_id
            raise
        if record is None:
            raise NotFound("error.no_game")
        return record

    async def games_of(self, user_id: str, guild_id: str | None = None) -> list[GameRow]:
        async with self.db.reading() as conn:
            return await repo.of_user(conn, str(user_id), guild_id)

    async def moves(self, game_id: int) -> list[tuple[int, int, str, str]]:
        async with self.db.reading() as conn:
            return await repo.moves(conn, game_id)

    def observe(self, record: GameRow, seat: int | None) -> dict[str, Any]:
        if record.state is None:
            raise NotFound("error.not_started")
        game = registry.get(record.game)
        return game.observe(self.states.view(game, record), seat)

    def legal_texts(self, record: GameRow, seat: int, limit: int = 200) -> list[str]:
        """Canonical texts of ``seat``'s legal actions now (for menus and autocomplete)."""
        if record.state is None or record.status != "active":
            return []
        game = registry.get(record.game)
        out: list[str] = []
        for action in game.legal_actions(self.states.view(game, record), seat):
            out.append(str(action))
            if len(out) >= limit:
                break
        return out

    def watchers(self, record: GameRow) -> frozenset[int]:
        if record.state is None or record.status != "active":
            return frozenset()
        game = registry.get(record.game)
        return game.watchers(self.states.view(game, record))

    def to_act(self, record: GameRow) -> frozenset[int]:
        if record.state is None or record.status != "active":
            return frozenset()
        game = registry.get(record.game)
        return game.to_act(self.states.view(game, record))

    # ------------------------------------------------------------------ one table's transaction
    async def _active(self, conn: Any, *, channel_id: str | None = None, game_id: int | None = None) -> GameRow:
        if game_id is not None:
            record = await repo.get(conn, game_id, lock=True)
        else:
            record = await repo.open_in_channel(conn, str(channel_id), lock=True)
        if record is None:
            raise NotFound("error.no_game")
        if record.status == "lobby":
            raise IllegalAction("error.not_started")
        if record.status != "active":
            raise IllegalAction("error.game_over")
        return record

    async def _reload(self, conn: Any, game_id: int) -> GameRow:
        record = await repo.get(conn, game_id)
        assert record is not None
        return record

    async def _commit_move(self, conn: Any, game: Game[Any], state: Any, record: GameRow, seat: int,
                           action: str) -> None:
        outcome = game.outcome(state)
        now = self.clock()
        seat_row = record.seats[seat] if seat != TIMER else None  # TIMER: the table's clock moved
        if seat_row is not None and not seat_row.is_computer:
            left = clock.spent_bank(seat_row.bank_seconds, record.turn_seconds,
                                    clock.parse_time(record.turn_started_at), now)
            if left != seat_row.bank_seconds:
                await repo.set_bank(conn, record.id, seat, left)
                seat_row.bank_seconds = left
        fields: dict[str, Any] = {"state": game.dump(state), "ply": record.ply + 1,
                                  **await turn_clock(conn, game, state, record, now)}
        if outcome is not None:
            fields.update(status="finished", outcome=outcome_to_dict(outcome), turn_deadline=None, alarm_at=None,
                          timer_at=None)
        await repo.append_move(conn, record.id, record.ply + 1, seat, action)
        await repo.update(conn, record, record.version, **fields)

    async def _run_computers(self, conn: Any, game: Game[Any], state: Any, record: GameRow,
                             update: Update, *, window_over: bool = False) -> None:
        """Computer seats make every move they must and use every out-of-turn right they have
        (``Game.watchers``: a Monopol rent claim). A computer's move that would end a human's
        out-of-turn right waits until that human acted or the window passed (``window_over``)."""
        computers = {s.seat for s in record.seats if s.is_computer}
        granted = game.waits_for(state) - computers if window_over else frozenset()
        for _ in range(MAX_COMPUTER_MOVES):
            if record.status != "active" or game.outcome(state) is not None:
                return
            rights = sorted(game.watchers(state) & computers)
            seats = rights or sorted(game.to_act(state) & computers)
            if not seats:
                return
            if not rights and held(game, state, record) and not game.waits_for(state) - computers <= granted:
                return
            seat = seats[0]
            action = await decide(game, state, record, seat, self.computer_executor)
            update.events.extend(game.apply(state, seat, action))
            await self._commit_move(conn, game, state, record, seat, str(action))
            if not game.waits_for(state):
                granted = frozenset()  # that window is over; the next one is given in full

    async def _record(self, conn: Any, update: Update, kind: str = outbox.MOVE) -> None:
        """The outbox entry of this change, committed with it. A private-only change the caller
        answers itself (``update.reply_privately``) needs none."""
        if update.reply_privately and update.events and all(e.visible_to is not None for e in update.events):
            return
        await announcements.record(conn, update.record.id, update.record.ply, outbox.payload_of(update, kind))

    @staticmethod
    def _privates(game: Game[Any], state: Any, players: int) -> list[tuple[str, bool]]:
        """Each seat's private view and whether it must act now."""
        acting = game.to_act(state)
        return [(json.dumps(game.observe(state, seat)["private"], sort_keys=True), seat in acting)
                for seat in range(players)]

    def _finish_update(self, update: Update, game: Game[Any], state: Any, before: list[tuple[str, bool]]) -> None:
        """Seats to send a fresh private view: those whose view changed. A seat whose turn merely
        came is pinged by the new board (and, if it asked for turn DMs, DMed its view with the
        controls); its controls are one "Show my hand" away, so no DM is spent on it."""
        after = self._privates(game, state, len(update.record.seats))
        self.states.keep(update.record, state, after)
        update.previous_to_act = frozenset(i for i, (_, acting) in enumerate(before) if acting)
        pairs = enumerate(zip(before, after, strict=True))
        update.private_changed = frozenset(i for i, ((old, was), (new, now)) in pairs
                                           if old != new)
        update.outcome = game.outcome(state)
        update.finished = update.record.status == "finished"
        update.to_act = self.to_act(update.record)
