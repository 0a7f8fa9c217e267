"""GameService: the one door through which Discord, the console and tests change games.

Every user action is one transaction: load the snapshot, apply on a fresh copy, append the move,
save the snapshot, bump the version (conditional on the version read, so a double click applies
once). Engines raise before mutating; a raised error rolls the transaction back and nothing changes.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.engine import registry
from bot.engine.core import TIMER, Event, Game, Outcome
from bot.engine.rng import commitment, new_seed
from bot.errors import (
    AlreadyApplied,
    Conflict,
    Forbidden,
    GameMasterError,
    IllegalAction,
    InvalidAction,
    NotFound,
    NotYourTurn,
    StorageDamaged,
)
from bot.services import clock, outbox
from bot.services.clock import ClockSettings
from bot.services.states import StateCache
from bot.storage import announcements
from bot.storage import games as repo
from bot.storage import prefs as prefs_repo
from bot.storage.db import Database
from bot.storage.games import GameRow, SeatRow

log = logging.getLogger(__name__)

RESIGN = "!resign"  # move-log marker for a resignation (not an engine action)
CLOSE = "!close"  # move-log marker: the table ended an open-ended game with its standings
UNDO = "!undo"  # move-log marker "!undo N": the N moves still in force before it were taken back
MAX_COMPUTER_MOVES = 500  # per call; computer seats never loop forever


@dataclass
class Update:
    """What one service call changed, for the front end to announce."""

    record: GameRow
    events: list[Event] = field(default_factory=list)
    outcome: Outcome | None = None
    to_act: frozenset[int] = frozenset()
    previous_to_act: frozenset[int] | None = None  # who had to act before (None: unknown, e.g. at start)
    private_changed: frozenset[int] = frozenset()
    started: bool = False
    finished: bool = False
    reply_privately: bool = False  # the caller shows a private-only change itself (no outbox entry)


def stamp(moment: datetime) -> str:
    """Stored times: UTC ISO text to the second, so that text order is time order in SQL."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


@dataclass
class VoteResult:
    choice: str
    votes: int
    needed: int
    update: Update | None = None


def outcome_to_dict(outcome: Outcome) -> dict[str, Any]:
    return {"places": [list(p) for p in outcome.places], "reason": outcome.reason,
            "scores": {str(k): v for k, v in outcome.scores.items()}}


def replay(game: Game[Any], players: int, options: Mapping[str, Any], seed: str,
           moves: list[tuple[int, str]]) -> Any:
    """Rebuild a state from the seed and the move log (moves taken back by an undo left out)."""
    state = game.new(players, options, seed)
    for seat, action in in_force(moves):
        apply_logged(game, state, seat, action)
    return state


def apply_logged(game: Game[Any], state: Any, seat: int, action: str) -> None:
    """Apply one move as the log holds it: a resignation, the table's close, or an action."""
    if action == RESIGN:
        game.resign(state, seat)
    elif action == CLOSE:
        game.close(state)
    else:
        game.apply(state, seat, game.parse_action(action))


def in_force(moves: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The (seat, action) moves that count: an ``!undo N`` marker drops the N moves before it."""
    kept: list[tuple[int, str]] = []
    for seat, action in moves:
        if action.startswith(UNDO + " "):
            del kept[len(kept) - int(action.split()[1]):]
        else:
            kept.append((seat, action))
    return kept


def undone_plies(rows: list[tuple[int, int, str, str]]) -> set[int]:
    """Plies of the stored (ply, seat, action, time) rows that an undo took back, and the markers."""
    kept: list[int] = []
    out: set[int] = set()
    for ply, _, action, _ in rows:
        if action.startswith(UNDO + " "):
            count = int(action.split()[1])
            out.update(kept[len(kept) - count:])
            del kept[len(kept) - count:]
            out.add(ply)
        else:
            kept.append(ply)
    return out


class GameService:
    def __init__(self, db: Database, clock: Callable[[], datetime] | None = None) -> None:
        self.db = db
        self.clock = clock or (lambda: datetime.now(UTC))
        self.prefs_written: Callable[[str], None] = lambda user_id: None  # keeps the players' cache current
        self.states = StateCache()
        self.damaged: set[int] = set()  # games whose rows could not be read by the timers (logged once each)

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

    # ------------------------------------------------------------------ lobby
    async def create(self, *, guild_id: str | None, channel_id: str, game: str, user_id: str, name: str,
                     options: Mapping[str, Any] | None = None, locale: str = "en",
                     computers: int = 0, seed: str | None = None, turn_hours: float | None = None) -> GameRow:
        engine = registry.get(game)
        resolved = engine.resolve_options(options)
        if computers < 0 or 1 + computers > engine.max_players:
            raise IllegalAction("error.too_many_computers", maximum=engine.max_players - 1)
        if turn_hours is not None and not 0.05 <= turn_hours <= 24 * 14:
            raise IllegalAction("error.turn_hours_range")
        for spec in engine.options:
            moment = clock.parse_time(str(resolved[spec.name]).replace("Z", "+00:00")) if spec.time else None
            if moment is not None and moment <= self.clock():
                raise IllegalAction("error.option_time_past", value=resolved[spec.name])
        async with self.db.transaction() as conn:
            if await repo.open_in_channel(conn, str(channel_id)) is not None:
                raise IllegalAction("error.channel_busy")
            settings = await self._guild_clock(conn, guild_id)
            hours = next(h for h in (turn_hours, settings.turn_hours, engine.turn_hours) if h is not None)
            turn_seconds = int(hours * 3600)
            game_id = await repo.insert(conn, guild_id=guild_id, channel_id=str(channel_id), game=game,
                                        creator_id=str(user_id), options=resolved, seed=seed or new_seed(),
                                        locale=locale, turn_seconds=turn_seconds)
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

    async def reclaim(self, channel_id: str, user_id: str) -> GameRow:
        """A player whose seat the computer took over (on timeout) takes it back."""
        now = self.clock()
        async with self.db.transaction() as conn:
            record = await self._active(conn, channel_id=channel_id)
            seat = record.seat_of(user_id)
            if seat is None:
                raise IllegalAction("error.already_started")
            if not record.seats[seat].is_computer:
                raise IllegalAction("error.already_joined")
            await repo.set_computer(conn, record.id, seat, False)
            record = await self._reload(conn, record.id)
            game = registry.get(record.game)
            state = self.states.view(game, record)
            clock_fields = await self._turn_clock(conn, game, state, record, now)
            await repo.set_deadline(conn, record.id, clock_fields["turn_deadline"], clock_fields["alarm_at"])
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
            events = [Event("game.event.started", {"game": record.game, "commitment": commitment(record.seed)}),
                      *game.opening_events(state)]
            now = self.clock()
            bank = int((await self._guild_clock(conn, record.guild_id)).bank_hours * 3600)
            for seat_row in record.seats:
                await repo.set_bank(conn, record.id, seat_row.seat, bank)
                seat_row.bank_seconds = bank
            await repo.update(conn, record, record.version, status="active", state=game.dump(state),
                              **await self._turn_clock(conn, game, state, record, now))
            update = Update(record, events, started=True)
            await self._run_computers(conn, game, state, record, update)
            update.record = await self._reload(conn, record.id)
            update.to_act = self.to_act(update.record)
            update.private_changed = frozenset(range(len(update.record.seats)))
            update.finished = update.record.status == "finished"
            await self._record(conn, update)
        self.states.keep(update.record, state)
        return update

    # ------------------------------------------------------------------ play
    async def act(self, *, user_id: str, action: str, channel_id: str | None = None, game_id: int | None = None,
                  expected_ply: int | None = None, owner: int | None = None,
                  interaction_id: str | None = None, reply_privately: bool = False) -> Update:
        """Apply ``action`` for ``user_id``. ``expected_ply`` dates the button that was clicked: a
        board button is stale once anything moved; a button of the player's own private view
        (``owner``: only that seat may press it) only once that player moved since, so the other players' simultaneous
        decisions (Stratego setups, Tölp exchanges) do not invalidate it, while a double click
        still applies once. ``interaction_id`` (a slash command's) is stored with the move: the
        same interaction delivered again raises AlreadyApplied and changes nothing."""
        async with self.db.transaction() as conn:
            try:
                record = await self._active(conn, channel_id=channel_id, game_id=game_id)
            except GameMasterError:  # e.g. the game this very interaction finished
                if interaction_id is not None and await repo.interaction_applied(conn, interaction_id):
                    raise AlreadyApplied() from None
                raise
            if interaction_id is not None and \
                    not await repo.record_interaction(conn, interaction_id, record.id, record.ply + 1):
                raise AlreadyApplied()
            seat = record.seat_of(user_id)
            if seat is None:
                raise Forbidden("error.not_seated")
            if owner is not None and owner != seat:
                raise Forbidden("error.not_your_button")
            if expected_ply is not None and expected_ply != record.ply:
                if owner is None or expected_ply > record.ply or \
                        await repo.moved_since(conn, record.id, seat, expected_ply):
                    raise Conflict("error.stale")
            game = registry.get(record.game)
            state, known = self.states.take(game, record)
            before = known or self._privates(game, state, len(record.seats))
            try:
                parsed = game.parse_action(action)
                events = game.apply(state, seat, parsed)
            except GameMasterError as exc:
                exc.names = record.names  # so the refusal can name the players it mentions
                raise
            update = Update(record, list(events), reply_privately=reply_privately)
            await self._commit_move(conn, game, state, record, seat, str(parsed))
            await self._run_computers(conn, game, state, record, update)
            self._finish_update(update, game, state, before)
            await self._record(conn, update)
        return update

    async def resign(self, channel_id: str, user_id: str) -> Update:
        async with self.db.transaction() as conn:
            record = await self._active(conn, channel_id=channel_id)
            seat = record.seat_of(user_id)
            if seat is None:
                raise Forbidden("error.not_seated")
            game = registry.get(record.game)
            state, known = self.states.take(game, record)
            before = known or self._privates(game, state, len(record.seats))
            try:
                events = game.resign(state, seat)
            except NotImplementedError:
                raise IllegalAction("error.resign_unsupported") from None
            # one announcement: the game's own resignation line when it has one, else the table's
            told = any(e.key.endswith((".event.resigned", ".event.resigns")) and e.params.get("seat") == seat
                       for e in events)
            update = Update(record, events if told else [Event("game.event.resigned", {"seat": seat}), *events])
            await self._commit_move(conn, game, state, record, seat, RESIGN)
            await self._run_computers(conn, game, state, record, update)
            self._finish_update(update, game, state, before)
            await self._record(conn, update)
        return update

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
                    await repo.update(conn, record, record.version, state=game.dump(state), ply=record.ply + 1,
                                      status="finished", outcome=outcome_to_dict(outcome), turn_deadline=None,
                                      alarm_at=None, timer_at=None)
                    record = await self._reload(conn, record.id)
                    # announced as the game's last move: its result board, like any finished game
                    await self._record(conn, Update(record, finished=True))
                    return record
            was_active = record.status == "active"
            seat = record.seat_of(user_id)
            await repo.update(conn, record, record.version, status="aborted", turn_deadline=None, alarm_at=None,
                              timer_at=None, ended_by=str(user_id),
                              ended_by_name=name or (None if seat is None else record.seats[seat].name))
            record = await self._reload(conn, record.id)
            if was_active:
                await self._record(conn, Update(record), outbox.ENDED)
            return record

    async def hand_to_computer(self, game_id: int, seat: int) -> Update:
        """Give a seat to the computer player (timeout policy) and let it move if it must."""
        async with self.db.transaction() as conn:
            record = await self._active(conn, game_id=game_id)
            await repo.set_computer(conn, record.id, seat, True)
            record = await self._reload(conn, record.id)
            game = registry.get(record.game)
            state, known = self.states.take(game, record)
            before = known or self._privates(game, state, len(record.seats))
            update = Update(record, [Event("game.event.computer_took_over", {"seat": seat})])
            await self._run_computers(conn, game, state, record, update)
            update.record = await self._reload(conn, record.id)
            self._finish_update(update, game, state, before)
            await self._record(conn, update)
        return update

    async def vote_timeout(self, *, game_id: int, ply: int, seat: int, user_id: str, choice: str) -> VoteResult:
        """A vote of another player on a timed-out seat: ``wait`` (more time), ``skip`` (the turn,
        where the game allows it) or ``computer`` (hand the seat over). A majority of the other
        human players decides."""
        if choice not in ("wait", "skip", "computer"):
            raise InvalidAction("error.bad_custom_id")
        now = self.clock()
        async with self.db.transaction() as conn:
            record = await self._active(conn, game_id=game_id)
            if record.ply != ply:
                raise Conflict("error.stale")
            game = registry.get(record.game)
            state, known = self.states.take(game, record)
            voter = record.seat_of(user_id)
            if voter is None:
                raise Forbidden("error.not_seated")
            if voter == seat:
                raise Forbidden("clock.error.own_timeout")
            deadline = clock.parse_time(record.turn_deadline)
            if seat not in game.to_act(state) or record.seats[seat].is_computer or deadline is None or now < deadline:
                raise IllegalAction("clock.error.not_timed_out")
            if choice == "skip" and game.skip_action(state, seat) is None:
                raise IllegalAction("clock.error.cannot_skip", game=record.game)
            others = [s for s in record.seats if not s.is_computer and s.seat != seat]
            needed = len(others) // 2 + 1
            counts = await prefs_repo.vote(conn, record.id, ply, seat, voter, choice)
            result = VoteResult(choice, counts.get(choice, 0), needed)
            if result.votes < needed:
                return result
            await prefs_repo.clear_votes(conn, record.id, ply, seat)
            before = known or self._privates(game, state, len(record.seats))
            if choice == "wait":
                extended = now + timedelta(seconds=record.turn_seconds)
                await repo.set_deadline(conn, record.id, stamp(extended), stamp(now))
                await prefs_repo.clear_reminders(conn, record.id, ply, seat)
                waited = Event("clock.event.waited", {"seat": seat, "hours": record.turn_seconds // 3600})
                result.update = Update(await self._reload(conn, record.id), [waited])
            elif choice == "skip":
                action = game.skip_action(state, seat)
                events = [Event("clock.event.skipped", {"seat": seat}), *game.apply(state, seat, action)]
                result.update = Update(record, events)
                await self._commit_move(conn, game, state, record, seat, str(action))
                await self._run_computers(conn, game, state, record, result.update)
                result.update.record = await self._reload(conn, record.id)
            else:
                await repo.set_computer(conn, record.id, seat, True)
                record = await self._reload(conn, record.id)
                result.update = Update(record, [Event("game.event.computer_took_over", {"seat": seat})])
                await self._run_computers(conn, game, state, record, result.update)
                result.update.record = await self._reload(conn, record.id)
            self._finish_update(result.update, game, state, before)
            await self._record(conn, result.update)
        return result

    async def apply_timers(self, now: datetime) -> list[Update]:
        """Apply every game timer that ran out (``Game.timer_action``), each in its own transaction."""
        async with self.db.reading() as conn:
            candidates = await repo.due_timers(conn, stamp(now))
        updates = []
        for game_id in candidates:
            try:
                update = await self._apply_timer(game_id, now)
            except StorageDamaged as exc:  # that table stays as it is; the others' timers run
                if game_id not in self.damaged:
                    self.damaged.add(game_id)
                    log.error("database damaged: game %s could not be read for its timer: %s", game_id, exc.detail)
                continue
            if update is not None:
                updates.append(update)
        return updates

    async def _apply_timer(self, game_id: int, now: datetime) -> Update | None:
        """One game's ran-out timer in its own transaction; None when nothing was due after all."""
        async with self.db.transaction() as conn:
            record = await repo.get(conn, game_id, lock=True)
            if record is None or record.status != "active":
                return None
            game = registry.get(record.game)
            state, known = self.states.take(game, record)
            started = clock.parse_time(record.turn_started_at) or now
            due = self._timers(game, state, record, started)
            if not due or min(due) > now:
                await repo.set_timer(conn, record.id, stamp(min(due)) if due else None)
                return None
            before = known or self._privates(game, state, len(record.seats))
            update = Update(record, [])
            move = self._due_move(game, state, started, now)
            if move is not None:
                seat, action = move
                update.events.extend(game.apply(state, seat, action))
                await self._commit_move(conn, game, state, record, seat, str(action))
                await self._run_computers(conn, game, state, record, update)
            else:  # only the window a computer left a human ran out
                await self._run_computers(conn, game, state, record, update, window_over=True)
                if not update.events:
                    await repo.set_timer(conn, record.id, None)
                    return None
            update.record = await self._reload(conn, record.id)
            self._finish_update(update, game, state, before)
            await self._record(conn, update)
        return update

    @staticmethod
    def _due_move(game: Game[Any], state: Any, started: datetime, now: datetime) -> tuple[int, Any] | None:
        """The timer action that is due at ``now`` (the agreed end time first), if any."""
        limit = game.time_limit(state)
        if limit and (clock.parse_time(limit[0].replace("Z", "+00:00")) or now) <= now:
            return limit[1], limit[2]
        timer = game.timer_action(state)
        if timer and (now - started).total_seconds() >= timer[0]:
            return timer[1], timer[2]
        return None

    async def set_vacation(self, user_id: str, days: int, guild_id: str | None) -> tuple[str | None, list[GameRow]]:
        """Pause the user's clocks for ``days`` (0 ends the vacation); returns the end and the
        active games whose deadline moved."""
        now = self.clock()
        async with self.db.transaction() as conn:
            limit = (await self._guild_clock(conn, guild_id)).max_vacation_days
            if not 0 <= days <= limit:
                raise IllegalAction("clock.error.vacation_range", maximum=limit)
            until = stamp(now + timedelta(days=days)) if days else None
            await prefs_repo.set_user(conn, str(user_id), vacation_until=until)
            moved = []
            for record in await repo.of_user(conn, str(user_id), None, ("active",)):
                game = registry.get(record.game)
                state = self.states.view(game, record)
                started = clock.parse_time(record.turn_started_at) or now
                due = await self._deadline(conn, game, state, record, started)
                if due != record.turn_deadline:
                    await repo.set_deadline(conn, record.id, due, stamp(now))
                    moved.append(await self._reload(conn, record.id))
        self.prefs_written(str(user_id))
        return until, moved

    # ------------------------------------------------------------------ internals
    async def _lobby(self, conn: Any, channel_id: str) -> GameRow:
        record = await repo.open_in_channel(conn, str(channel_id), lock=True)
        if record is None:
            raise NotFound("error.no_game")
        if record.status != "lobby":
            raise IllegalAction("error.already_started")
        return record

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
                                  **await self._turn_clock(conn, game, state, record, now)}
        if outcome is not None:
            fields.update(status="finished", outcome=outcome_to_dict(outcome), turn_deadline=None, alarm_at=None,
                          timer_at=None)
        await repo.append_move(conn, record.id, record.ply + 1, seat, action)
        await repo.update(conn, record, record.version, **fields)

    async def _guild_clock(self, conn: Any, guild_id: str | None) -> ClockSettings:
        _, settings = await prefs_repo.get_guild(conn, guild_id)
        return ClockSettings.from_dict(settings)

    async def _table_clock(self, conn: Any, record: GameRow) -> ClockSettings:
        """The clock settings of the record's server (read with the record when it was)."""
        if record.guild_settings is not None:
            return ClockSettings.from_dict(record.guild_settings)
        return await self._guild_clock(conn, record.guild_id)

    async def _turn_clock(self, conn: Any, game: Game[Any], state: Any, record: GameRow,
                          now: datetime) -> dict[str, str | None]:
        """A new turn's clock fields: when it started, its deadline, when the scheduler must first
        look at it (the first reminder) and when the game's own timer runs out."""
        deadline = await self._deadline(conn, game, state, record, now)
        alarm = None
        if deadline is not None:
            share = (await self._table_clock(conn, record)).reminder_share
            due = clock.parse_time(deadline)
            assert due is not None
            alarm = stamp(now + (due - now) * share)
        due = self._timers(game, state, record, now)
        return {"turn_started_at": stamp(now), "turn_deadline": deadline, "alarm_at": alarm,
                "timer_at": stamp(min(due)) if due else None}

    def _timers(self, game: Game[Any], state: Any, record: GameRow, started: datetime) -> list[datetime]:
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
        if self._held(game, state, record):
            due.append(started + timedelta(seconds=game.window_seconds))
        return due

    @staticmethod
    def _held(game: Game[Any], state: Any, record: GameRow) -> bool:
        """Whether a computer seat must move next but leaves a human a window first."""
        if game.outcome(state) is not None:
            return False
        computers = {s.seat for s in record.seats if s.is_computer}
        return bool(game.to_act(state) & computers) and bool(game.waits_for(state) - computers)

    async def _deadline(self, conn: Any, game: Game[Any], state: Any, record: GameRow, now: datetime) -> str | None:
        """The deadline of the seats waiting now (None when only computers or nobody must act)."""
        if game.outcome(state) is not None:
            return None
        waiting = [record.seats[s] for s in sorted(game.to_act(state)) if not record.seats[s].is_computer]
        if not waiting:
            return None
        vacations = [clock.parse_time(seat_row.vacation_until) for seat_row in waiting if seat_row.user_id]
        return stamp(clock.deadline(now, record.turn_seconds, [s.bank_seconds for s in waiting], vacations))

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
            if not rights and self._held(game, state, record) and not game.waits_for(state) - computers <= granted:
                return
            seat = seats[0]
            action = game.bot_action(state, seat)
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


__all__ = ["GameService", "Update", "replay", "apply_logged", "in_force", "undone_plies", "RESIGN", "CLOSE", "UNDO",
           "GameMasterError", "NotYourTurn"]
