"""What every GameService call shares: the database, the cached states and observations, the
reads, and the move pipeline (``bot.services.pipeline``) every change of a running game goes through.
"""
from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor
from datetime import UTC, datetime
from typing import Any

from bot.engine import registry
from bot.errors import Forbidden, GameMasterError, NotFound, StorageDamaged
from bot.services.computers import foresee
from bot.services.pipeline import MAX_COMPUTER_MOVES, Pipeline
from bot.services.states import StateCache
from bot.services.update import Update, outcome_to_dict
from bot.storage import games as repo
from bot.storage import seats as seats_repo
from bot.storage.db import Database
from bot.storage.games import GameRow

__all__ = ["MAX_COMPUTER_MOVES", "ServiceCore", "Update", "outcome_to_dict"]



class ServiceCore:
    """The shared part of ``GameService`` (its lobby, play and timeout calls build on it)."""

    def __init__(self, db: Database, clock: Callable[[], datetime] | None = None) -> None:
        self.db = db
        self.clock = clock or (lambda: datetime.now(UTC))
        self.prefs_written: Callable[[str], None] = lambda user_id: None  # keeps the players' cache current
        self.states = StateCache()
        # every change of a running game goes through it
        self.pipeline = Pipeline(self.states, self.clock, self.db.committed, self.db.wake)
        self.damaged: set[int] = set()  # games whose rows could not be read by the timers (logged once each)

    @property
    def computer_executor(self) -> Executor | None:
        """Where computer seats decide (None: a worker thread)."""
        return self.pipeline.computer_executor

    @computer_executor.setter
    def computer_executor(self, executor: Executor | None) -> None:
        self.pipeline.computer_executor = executor
        # as many tables searched ahead at once as there are workers to search them
        self.pipeline.foresight.searches = max(1, getattr(executor, "processes", 1))

    async def foresee(self, *, user_id: str, action: str, channel_id: str | None = None,
                      game_id: int | None = None) -> None:
        """Before a player's move takes the writer: at a table with computer seats, search the
        computers' answers to it now (``bot.services.computers.foresee``), so that the move's
        transaction finds them made instead of holding every other table's moves while they
        search. Best effort: anything unexpected leaves it to the transaction."""
        table = game_id if game_id is not None else str(channel_id)
        if table not in self.pipeline.with_computers:
            return
        try:
            record = await self.get(game_id) if game_id is not None else await self.current(str(channel_id))
        except GameMasterError:
            return
        if record is None or record.status != "active":
            return
        seat = record.seat_of(user_id)
        if seat is None:
            return
        game = registry.get(record.game)
        await foresee(self.pipeline.foresight, game, self.states.view(game, record), record, seat, action,
                      self.pipeline.computer_executor)

    # ------------------------------------------------------------------ reads
    async def current(self, channel_id: str) -> GameRow | None:
        try:
            async with self.db.reading_one(inline=True) as conn:  # one statement: the game with its seats
                return await repo.open_in_channel(conn, str(channel_id))
        except StorageDamaged as exc:
            exc.game_id = await self.damaged_game_in(str(channel_id))
            raise

    async def damaged_game_in(self, channel_id: str) -> int | None:
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
            async with self.db.reading_one(inline=True) as conn:
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
        """What ``seat`` (None: everyone) sees of the game, computed once per version and seat and
        shared by every reader: the reply, the board, the DMs. Readers must not change it."""
        if record.state is None:
            raise NotFound("error.not_started")
        return self.states.observation(registry.get(record.game), record, seat)

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

    def is_legal(self, record: GameRow, seat: int, text: str) -> bool:
        """Whether ``seat`` may make the move ``text`` now (``Game.is_legal``: nothing changes), for
        autocomplete that offers the legal choices first. Text the game cannot read is not legal."""
        if record.state is None or record.status != "active":
            return False
        game = registry.get(record.game)
        try:
            return game.is_legal(self.states.view(game, record), seat, game.parse_action(text))
        except GameMasterError:
            return False

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

    async def not_seated(self, record: GameRow, user_id: str, conn: Any = None) -> Forbidden:
        """The refusal for ``user_id``, who holds no seat at ``record``: someone sits for them, they
        handed their seat over (``bot.services.seats``), or they never sat here."""
        if conn is None:
            async with self.db.reading() as reading:
                key, params = await seats_repo.why_not_seated(reading, record, user_id)
        else:
            key, params = await seats_repo.why_not_seated(conn, record, user_id)
        return Forbidden(key, **params)

    async def _reload(self, conn: Any, game_id: int) -> GameRow:
        record = await repo.get(conn, game_id)
        assert record is not None
        return record
