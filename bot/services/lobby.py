"""The lobby's calls of GameService: open a table, join it, leave it, add a computer player,
start the game, and end the table (an open-ended game with its standings, any other aborted).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine import registry
from bot.engine.core import Event
from bot.engine.rng import commitment, new_seed
from bot.errors import Forbidden, IllegalAction, NotFound
from bot.i18n import t
from bot.services import clock, outbox
from bot.services.core import ServiceCore, Update, outcome_to_dict
from bot.services.movelog import CLOSE
from bot.services.pipeline import finished
from bot.services.turn_clock import guild_clock
from bot.storage import games as repo
from bot.storage import orders as orders_repo
from bot.storage.games import GameRow, SeatRow

MAX_OPEN_TABLES = 12  # tables (lobby or running) one player may have opened on Discord and still open


def computer_name(number: int, level: str, locale: str) -> str:
    """A computer seat's name in the table's language, with its level: "Computer 2 (strong)"."""
    return t("ai.seat_name", locale, number=number, level=t(f"ai.level.{level}", locale))[:32]


class Lobby(ServiceCore):
    """Opening, filling, starting and ending a channel's table."""

    async def create(self, *, guild_id: str | None, channel_id: str, game: str, user_id: str, name: str,
                     options: Mapping[str, Any] | None = None, locale: str = "en",
                     computers: int = 0, levels: Sequence[str] = (), seed: str | None = None,
                     turn_hours: float | None = None, max_open: int | None = None) -> GameRow:
        """``levels``: the computer seats' levels in order (the last one fills the rest; none:
        normal); the first is also the level a seat handed to the computer plays at. With
        ``max_open`` (Discord's /game new: MAX_OPEN_TABLES) refused when the user already opened
        that many tables that are still open."""
        engine = registry.get(game)
        resolved = engine.resolve_options(options)
        if computers < 0 or 1 + computers > engine.max_players:
            raise IllegalAction("error.too_many_computers", maximum=engine.max_players - 1)
        for level in levels:
            registry.computer(game, level)  # an unknown level is refused by name
        levels = list(levels) or [registry.DEFAULT_LEVEL]
        if turn_hours is not None and not 0.05 <= turn_hours <= 24 * 14:
            raise IllegalAction("error.turn_hours_range")
        for spec in engine.options:
            moment = clock.parse_time(str(resolved[spec.name]).replace("Z", "+00:00")) if spec.time else None
            if moment is not None and moment <= self.clock():
                raise IllegalAction("error.option_time_past", value=resolved[spec.name])
        async with self.db.transaction() as conn:
            if await repo.open_in_channel(conn, str(channel_id)) is not None:
                raise IllegalAction("error.channel_busy")
            if max_open is not None and await repo.opened_by(conn, str(user_id)) >= max_open:
                raise IllegalAction("budget.open_tables", maximum=max_open)
            settings = await guild_clock(conn, guild_id)
            hours = next(h for h in (turn_hours, settings.turn_hours, engine.turn_hours) if h is not None)
            turn_seconds = int(hours * 3600)
            game_id = await repo.insert(conn, guild_id=guild_id, channel_id=str(channel_id), game=game,
                                        creator_id=str(user_id), options=resolved, seed=seed or new_seed(),
                                        locale=locale, turn_seconds=turn_seconds, computer_level=levels[0])
            await repo.add_seat(conn, game_id, 0, str(user_id), name)
            for n in range(computers):
                level = levels[min(n, len(levels) - 1)]
                await repo.add_seat(conn, game_id, n + 1, None, computer_name(n + 1, level, locale),
                                    is_computer=True, level=level)
            record = await repo.get(conn, game_id)
        assert record is not None
        return record

    async def set_lobby_message(self, game_id: int, message_id: str) -> None:
        """The lobby's one message (edited as players join, folded to a line at the start); links
        point to it until the first board takes its place."""
        async with self.db.transaction() as conn:
            await repo.set_board_message(conn, game_id, message_id)

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
            renumbered = [SeatRow(i, s.user_id, s.name, s.is_computer, level=s.level) for i, s in enumerate(remaining)]
            await repo.replace_seats(conn, record.id, renumbered)
            fields: dict[str, Any] = {}
            if record.creator_id == str(user_id):
                fields["creator_id"] = next(s.user_id for s in renumbered if s.user_id)
            await repo.update(conn, record, record.version, **fields)
            return await self._reload(conn, record.id)

    async def add_computer(self, channel_id: str, user_id: str, level: str | None = None) -> GameRow:
        """A computer player sits down at ``level`` (None: the table's level)."""
        async with self.db.transaction() as conn:
            record = await self._lobby(conn, channel_id)
            if record.seat_of(user_id) is None:
                raise Forbidden("error.not_seated")
            if len(record.seats) >= registry.get(record.game).max_players:
                raise IllegalAction("error.lobby_full", maximum=registry.get(record.game).max_players)
            level = level or record.computer_level
            registry.computer(record.game, level)  # an unknown level is refused by name
            number = sum(1 for s in record.seats if s.is_computer) + 1
            await repo.add_seat(conn, record.id, len(record.seats), None,
                                computer_name(number, level, record.locale), True, level=level)
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
            events = [Event("game.event.started", {"game": record.game, "commitment": commitment(record.seed)}),
                      *game.opening_events(state)]
            bank = int((await guild_clock(conn, record.guild_id)).bank_hours * 3600)
            for seat_row in record.seats:
                await repo.set_bank(conn, record.id, seat_row.seat, bank)
                seat_row.bank_seconds = bank
            turn = await self.pipeline.begin(conn, record, state, events)
            await turn.computers()
            return await turn.finish()

    async def end(self, channel_id: str, user_id: str, *, is_manager: bool = False, name: str | None = None) -> GameRow:
        """End the channel's game (its creator or a manager, ``name`` their display name). A game
        with standings to keep (``Game.close``) finishes with them; any other is aborted, and who
        ended it is kept for /game history."""
        async with self.db.transaction() as conn:
            record = await repo.open_in_channel(conn, str(channel_id), lock=True)
            if record is None:
                raise NotFound("error.no_game")
            if record.creator_id != str(user_id) and not is_manager:
                raise Forbidden("error.not_creator")
            if record.status == "active":
                game = registry.get(record.game)
                state, _ = self.states.take(game, record)
                outcome = game.outcome(state) if game.close(state) is not None else None
                if outcome is not None:
                    seat = record.seat_of(user_id)
                    await repo.append_move(conn, record.id, record.ply + 1, 0 if seat is None else seat, CLOSE)
                    result = outcome_to_dict(outcome)
                    await repo.update(conn, record, record.version, state=game.dump(state), ply=record.ply + 1,
                                      status="finished", outcome=result, turn_deadline=None,
                                      alarm_at=None, timer_at=None)
                    await finished(conn, record, result)
                    record = await self._reload(conn, record.id)
                    # announced as the game's last move: its result board, like any finished game
                    await self.pipeline.record(conn, Update(record, finished=True))
                    return record
            was_active = record.status == "active"
            seat = record.seat_of(user_id)
            await repo.update(conn, record, record.version, status="aborted", turn_deadline=None, alarm_at=None,
                              timer_at=None, ended_by=str(user_id),
                              ended_by_name=name or (None if seat is None else record.seats[seat].name))
            record = await self._reload(conn, record.id)
            if was_active:
                await self.pipeline.record(conn, Update(record), outbox.ENDED)
                await orders_repo.clear(conn, record.id)  # standing orders end with the game
            return record

    async def _lobby(self, conn: Any, channel_id: str) -> GameRow:
        record = await repo.open_in_channel(conn, str(channel_id), lock=True)
        if record is None:
            raise NotFound("error.no_game")
        if record.status != "lobby":
            raise IllegalAction("error.already_started")
        return record
