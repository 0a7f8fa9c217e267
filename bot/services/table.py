"""GameService: the one door through which Discord, the console and tests change games.

Every user action is one transaction: load the snapshot, apply on a fresh copy, append the move,
save the snapshot, bump the version (conditional on the version read, so a double click applies
once). Engines raise before mutating; a raised error rolls the transaction back and nothing changes.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.engine import registry
from bot.engine.core import Event, Game, Outcome
from bot.engine.rng import commitment, new_seed
from bot.errors import Conflict, Forbidden, GameMasterError, IllegalAction, NotFound, NotYourTurn
from bot.storage import games as repo
from bot.storage.db import Database
from bot.storage.games import GameRow, SeatRow

RESIGN = "!resign"  # move-log marker for a resignation (not an engine action)
MAX_COMPUTER_MOVES = 500  # per call; computer seats never loop forever


@dataclass
class Update:
    """What one service call changed, for the front end to announce."""

    record: GameRow
    events: list[Event] = field(default_factory=list)
    outcome: Outcome | None = None
    to_act: frozenset[int] = frozenset()
    private_changed: frozenset[int] = frozenset()
    started: bool = False
    finished: bool = False


def outcome_to_dict(outcome: Outcome) -> dict[str, Any]:
    return {"places": [list(p) for p in outcome.places], "reason": outcome.reason,
            "scores": {str(k): v for k, v in outcome.scores.items()}}


def replay(game: Game[Any], players: int, options: Mapping[str, Any], seed: str,
           moves: list[tuple[int, str]]) -> Any:
    """Rebuild a state from the seed and the move log."""
    state = game.new(players, options, seed)
    for seat, action in moves:
        if action == RESIGN:
            game.resign(state, seat)
        else:
            game.apply(state, seat, game.parse_action(action))
    return state


class GameService:
    def __init__(self, db: Database, clock: Callable[[], datetime] | None = None) -> None:
        self.db = db
        self.clock = clock or (lambda: datetime.now(UTC))

    # ------------------------------------------------------------------ reads
    async def current(self, channel_id: str) -> GameRow | None:
        async with self.db.transaction() as conn:
            return await repo.open_in_channel(conn, str(channel_id))

    async def require_current(self, channel_id: str) -> GameRow:
        record = await self.current(channel_id)
        if record is None:
            raise NotFound("error.no_game")
        return record

    async def get(self, game_id: int) -> GameRow:
        async with self.db.transaction() as conn:
            record = await repo.get(conn, game_id)
        if record is None:
            raise NotFound("error.no_game")
        return record

    async def games_of(self, user_id: str, guild_id: str | None = None) -> list[GameRow]:
        async with self.db.transaction() as conn:
            return await repo.of_user(conn, str(user_id), guild_id)

    async def moves(self, game_id: int) -> list[tuple[int, int, str, str]]:
        async with self.db.transaction() as conn:
            return await repo.moves(conn, game_id)

    def observe(self, record: GameRow, seat: int | None) -> dict[str, Any]:
        if record.state is None:
            raise NotFound("error.not_started")
        game = registry.get(record.game)
        return game.observe(game.load(record.state), seat)

    def legal_texts(self, record: GameRow, seat: int, limit: int = 200) -> list[str]:
        """Canonical texts of ``seat``'s legal actions now (for menus and autocomplete)."""
        if record.state is None or record.status != "active":
            return []
        game = registry.get(record.game)
        out: list[str] = []
        for action in game.legal_actions(game.load(record.state), seat):
            out.append(str(action))
            if len(out) >= limit:
                break
        return out

    def to_act(self, record: GameRow) -> frozenset[int]:
        if record.state is None or record.status != "active":
            return frozenset()
        game = registry.get(record.game)
        return game.to_act(game.load(record.state))

    # ------------------------------------------------------------------ lobby
    async def create(self, *, guild_id: str | None, channel_id: str, game: str, user_id: str, name: str,
                     options: Mapping[str, Any] | None = None, locale: str = "en",
                     computers: int = 0, seed: str | None = None) -> GameRow:
        engine = registry.get(game)
        resolved = engine.resolve_options(options)
        if computers < 0 or 1 + computers > engine.max_players:
            raise IllegalAction("error.too_many_computers", maximum=engine.max_players - 1)
        async with self.db.transaction() as conn:
            if await repo.open_in_channel(conn, str(channel_id)) is not None:
                raise IllegalAction("error.channel_busy")
            game_id = await repo.insert(conn, guild_id=guild_id, channel_id=str(channel_id), game=game,
                                        creator_id=str(user_id), options=resolved, seed=seed or new_seed(),
                                        locale=locale)
            await repo.add_seat(conn, game_id, 0, str(user_id), name)
            for n in range(computers):
                await repo.add_seat(conn, game_id, n + 1, None, f"CPU {n + 1}", is_computer=True)
            record = await repo.get(conn, game_id)
        assert record is not None
        return record

    async def join(self, channel_id: str, user_id: str, name: str) -> GameRow:
        async with self.db.transaction() as conn:
            record = await self._lobby(conn, channel_id)
            if record.seat_of(user_id) is not None:
                raise IllegalAction("error.already_joined")
            if len(record.seats) >= registry.get(record.game).max_players:
                raise IllegalAction("error.lobby_full", maximum=registry.get(record.game).max_players)
            await repo.add_seat(conn, record.id, len(record.seats), str(user_id), name)
            await repo.update(conn, record, record.version)
            return await self._reload(conn, record.id)

    async def leave(self, channel_id: str, user_id: str) -> GameRow:
        async with self.db.transaction() as conn:
            record = await self._lobby(conn, channel_id)
            seat = record.seat_of(user_id)
            if seat is None:
                raise Forbidden("error.not_seated")
            remaining = [s for s in record.seats if s.seat != seat]
            if not any(s.user_id for s in remaining):
                await repo.update(conn, record, record.version, status="aborted")
                return await self._reload(conn, record.id)
            renumbered = [SeatRow(i, s.user_id, s.name, s.is_computer) for i, s in enumerate(remaining)]
            await repo.replace_seats(conn, record.id, renumbered)
            fields: dict[str, Any] = {}
            if record.creator_id == str(user_id):
                fields["creator_id"] = next(s.user_id for s in renumbered if s.user_id)
            await repo.update(conn, record, record.version, **fields)
            return await self._reload(conn, record.id)

    async def add_computer(self, channel_id: str, user_id: str) -> GameRow:
        async with self.db.transaction() as conn:
            record = await self._lobby(conn, channel_id)
            if record.seat_of(user_id) is None:
                raise Forbidden("error.not_seated")
            if len(record.seats) >= registry.get(record.game).max_players:
                raise IllegalAction("error.lobby_full", maximum=registry.get(record.game).max_players)
            number = sum(1 for s in record.seats if s.is_computer) + 1
            await repo.add_seat(conn, record.id, len(record.seats), None, f"CPU {number}", True)
            await repo.update(conn, record, record.version)
            return await self._reload(conn, record.id)

    async def start(self, channel_id: str, user_id: str) -> Update:
        async with self.db.transaction() as conn:
            record = await self._lobby(conn, channel_id)
            if record.seat_of(user_id) is None:
                raise Forbidden("error.not_seated")
            game = registry.get(record.game)
            game.check_players(len(record.seats), record.options)
            state = game.new(len(record.seats), record.options, record.seed)
            events = [Event("game.event.started", {"game": record.game, "commitment": commitment(record.seed)})]
            now = self.clock().isoformat(timespec="seconds")
            await repo.update(conn, record, record.version, status="active", state=game.dump(state),
                              turn_started_at=now)
            update = Update(record, events, started=True)
            await self._run_computers(conn, game, state, record, update)
            update.record = await self._reload(conn, record.id)
        update.to_act = self.to_act(update.record)
        update.private_changed = frozenset(range(len(update.record.seats)))
        return update

    # ------------------------------------------------------------------ play
    async def act(self, *, user_id: str, action: str, channel_id: str | None = None, game_id: int | None = None,
                  expected_ply: int | None = None) -> Update:
        async with self.db.transaction() as conn:
            record = await self._active(conn, channel_id=channel_id, game_id=game_id)
            if expected_ply is not None and expected_ply != record.ply:
                raise Conflict("error.stale")
            seat = record.seat_of(user_id)
            if seat is None:
                raise Forbidden("error.not_seated")
            game = registry.get(record.game)
            state = game.load(record.state or {})
            before = self._privates(game, state, len(record.seats))
            parsed = game.parse_action(action)
            events = game.apply(state, seat, parsed)
            update = Update(record, list(events))
            await self._commit_move(conn, game, state, record, seat, str(parsed))
            await self._run_computers(conn, game, state, record, update)
            update.record = await self._reload(conn, record.id)
        self._finish_update(update, game, state, before)
        return update

    async def resign(self, channel_id: str, user_id: str) -> Update:
        async with self.db.transaction() as conn:
            record = await self._active(conn, channel_id=channel_id)
            seat = record.seat_of(user_id)
            if seat is None:
                raise Forbidden("error.not_seated")
            game = registry.get(record.game)
            state = game.load(record.state or {})
            before = self._privates(game, state, len(record.seats))
            try:
                events = game.resign(state, seat)
            except NotImplementedError:
                raise IllegalAction("error.resign_unsupported") from None
            update = Update(record, [Event("game.event.resigned", {"seat": seat}), *events])
            await self._commit_move(conn, game, state, record, seat, RESIGN)
            await self._run_computers(conn, game, state, record, update)
            update.record = await self._reload(conn, record.id)
        self._finish_update(update, game, state, before)
        return update

    async def end(self, channel_id: str, user_id: str, *, is_manager: bool = False) -> GameRow:
        async with self.db.transaction() as conn:
            record = await repo.open_in_channel(conn, str(channel_id))
            if record is None:
                raise NotFound("error.no_game")
            if record.creator_id != str(user_id) and not is_manager:
                raise Forbidden("error.not_creator")
            await repo.update(conn, record, record.version, status="aborted",
                              turn_deadline=None)
            return await self._reload(conn, record.id)

    async def hand_to_computer(self, game_id: int, seat: int) -> Update:
        """Give a seat to the computer player (timeout policy) and let it move if it must."""
        async with self.db.transaction() as conn:
            record = await self._active(conn, game_id=game_id)
            await repo.set_computer(conn, record.id, seat, True)
            record = await self._reload(conn, record.id)
            game = registry.get(record.game)
            state = game.load(record.state or {})
            before = self._privates(game, state, len(record.seats))
            update = Update(record, [Event("game.event.computer_took_over", {"seat": seat})])
            await self._run_computers(conn, game, state, record, update)
            update.record = await self._reload(conn, record.id)
        self._finish_update(update, game, state, before)
        return update

    async def set_board_message(self, game_id: int, message_id: str | None) -> None:
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE games SET board_message_id = ? WHERE id = ?", (message_id, game_id))

    # ------------------------------------------------------------------ internals
    async def _lobby(self, conn: Any, channel_id: str) -> GameRow:
        record = await repo.open_in_channel(conn, str(channel_id))
        if record is None:
            raise NotFound("error.no_game")
        if record.status != "lobby":
            raise IllegalAction("error.already_started")
        return record

    async def _active(self, conn: Any, *, channel_id: str | None = None, game_id: int | None = None) -> GameRow:
        if game_id is not None:
            record = await repo.get(conn, game_id)
        else:
            record = await repo.open_in_channel(conn, str(channel_id))
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
        fields: dict[str, Any] = {"state": game.dump(state), "ply": record.ply + 1,
                                  "turn_started_at": self.clock().isoformat(timespec="seconds")}
        if outcome is not None:
            fields.update(status="finished", outcome=outcome_to_dict(outcome), turn_deadline=None)
        await repo.append_move(conn, record.id, record.ply + 1, seat, action)
        await repo.update(conn, record, record.version, **fields)

    async def _run_computers(self, conn: Any, game: Game[Any], state: Any, record: GameRow,
                             update: Update) -> None:
        computers = {s.seat for s in record.seats if s.is_computer}
        for _ in range(MAX_COMPUTER_MOVES):
            if record.status != "active" or game.outcome(state) is not None:
                return
            seats = sorted(game.to_act(state) & computers)
            if not seats:
                return
            seat = seats[0]
            action = game.bot_action(state, seat)
            update.events.extend(game.apply(state, seat, action))
            await self._commit_move(conn, game, state, record, seat, str(action))

    @staticmethod
    def _privates(game: Game[Any], state: Any, players: int) -> list[str]:
        return [json.dumps(game.observe(state, seat)["private"], sort_keys=True) for seat in range(players)]

    def _finish_update(self, update: Update, game: Game[Any], state: Any, before: list[str]) -> None:
        after = self._privates(game, state, len(update.record.seats))
        update.private_changed = frozenset(i for i, (a, b) in enumerate(zip(before, after, strict=True))
                                           if a != b)
        update.outcome = game.outcome(state)
        update.finished = update.record.status == "finished"
        update.to_act = self.to_act(update.record)


__all__ = ["GameService", "Update", "replay", "RESIGN", "GameMasterError", "NotYourTurn"]
