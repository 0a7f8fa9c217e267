"""GameService calls for seats whose humans do not act in time, and the clock that drives them:
the timeout vote (wait, skip, or the computer takes over), handing a seat to the computer and
back, the games' own timers, and vacations that pause a player's clocks.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.engine import registry
from bot.engine.core import Event
from bot.errors import Conflict, Forbidden, IllegalAction, InvalidAction, StorageDamaged
from bot.services import clock
from bot.services.core import ServiceCore, Update
from bot.services.turn_clock import due_move, guild_clock, stamp, table_clock, timers_due, turn_clock, turn_deadline
from bot.storage import games as repo
from bot.storage import prefs as prefs_repo
from bot.storage.games import GameRow

log = logging.getLogger(__name__)


@dataclass
class VoteResult:
    """A timeout vote after one more vote: how many chose ``choice``, how many it needs, and what
    changed once it carried (``update``)."""

    choice: str
    votes: int
    needed: int
    update: Update | None = None


def took_over(record: GameRow, seat: int) -> Event:
    """What the table is told when the computer takes a seat over: at which level it plays."""
    return Event("ai.event.computer_took_over", {"seat": seat, "level": record.computer_level})


class Timeouts(ServiceCore):
    """What happens when nobody (or only the clock) acts."""

    async def reclaim(self, channel_id: str, user_id: str) -> GameRow:
        """A player whose seat the computer took over (on timeout) takes it back."""
        now = self.clock()
        async with self.db.transaction() as conn:
            record = await self.pipeline.lock(conn, channel_id=channel_id)
            seat = record.seat_of(user_id)
            if seat is None:
                raise IllegalAction("error.already_started")
            if not record.seats[seat].is_computer:
                raise IllegalAction("error.already_joined")
            await repo.set_computer(conn, record.id, seat, False)
            record.seats[seat].is_computer, record.seats[seat].level = False, ""
            game = registry.get(record.game)
            state = self.states.view(game, record)
            clock_fields = await turn_clock(conn, game, state, record, now)
            await repo.set_deadline(conn, record.id, clock_fields["turn_deadline"], clock_fields["alarm_at"])
            record.turn_deadline = clock_fields["turn_deadline"]
            return record

    async def hand_to_computer(self, game_id: int, seat: int) -> Update:
        """Give a seat to the computer player (timeout policy) and let it move if it must."""
        async with self.db.transaction() as conn:
            record = await self.pipeline.lock(conn, game_id=game_id)
            await repo.set_computer(conn, record.id, seat, True, record.computer_level)
            record.seats[seat].is_computer, record.seats[seat].level = True, record.computer_level
            turn = self.pipeline.take(conn, record, events=[took_over(record, seat)])
            await turn.computers()
            return await turn.finish()

    async def vote_timeout(self, *, game_id: int, ply: int, seat: int, user_id: str, choice: str) -> VoteResult:
        """A vote of another player on a timed-out seat: ``wait`` (more time), ``skip`` (the turn,
        where the game allows it) or ``computer`` (hand the seat over). A majority of the other
        human players decides."""
        if choice not in ("wait", "skip", "computer"):
            raise InvalidAction("error.bad_custom_id")
        now = self.clock()
        async with self.db.transaction() as conn:
            record = await self.pipeline.lock(conn, game_id=game_id)
            if record.ply != ply:
                raise Conflict("error.stale")
            game = registry.get(record.game)
            state = self.states.view(game, record)
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
            if choice == "wait":
                extended = now + timedelta(seconds=record.turn_seconds)
                await repo.set_deadline(conn, record.id, stamp(extended), stamp(now))
                record.turn_deadline = stamp(extended)
                await prefs_repo.clear_reminders(conn, record.id, ply, seat)
                waited = Event("clock.event.waited", {"seat": seat, "hours": record.turn_seconds // 3600})
                result.update = await self.pipeline.take(conn, record, events=[waited]).finish()
            elif choice == "skip":
                turn = self.pipeline.take(conn, record, events=[Event("clock.event.skipped", {"seat": seat})])
                action = game.skip_action(turn.state, seat)
                result.update = await turn.play(seat, str(action), game.apply(turn.state, seat, action))
            else:
                await repo.set_computer(conn, record.id, seat, True, record.computer_level)
                record.seats[seat].is_computer, record.seats[seat].level = True, record.computer_level
                turn = self.pipeline.take(conn, record, events=[took_over(record, seat)])
                await turn.computers()
                result.update = await turn.finish()
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
            state = self.states.view(game, record)
            started = clock.parse_time(record.turn_started_at) or now
            due = timers_due(game, state, record, started)
            if not due or min(due) > now:
                await repo.set_timer(conn, record.id, stamp(min(due)) if due else None)
                return None
            turn = self.pipeline.take(conn, record)
            move = due_move(game, turn.state, started, now)
            if move is not None:
                seat, action = move
                return await turn.play(seat, str(action), game.apply(turn.state, seat, action))
            await turn.computers(window_over=True)  # only the window a computer left a human ran out
            if not turn.update.events:
                await repo.set_timer(conn, record.id, None)
                self.states.keep(record, turn.state, turn.before)  # nothing changed: the state stays
                return None
            return await turn.finish()

    async def set_vacation(self, user_id: str, days: int, guild_id: str | None) -> tuple[str | None, list[GameRow]]:
        """Pause the user's clocks for ``days`` (0 ends the vacation); returns the end and the
        active games whose deadline moved."""
        now = self.clock()
        async with self.db.transaction() as conn:
            # each table clamps the pause to its own server's limit (turn_clock.turn_deadline): the
            # longest asked for may be the largest limit among this server and the player's tables'
            active = await repo.of_user(conn, str(user_id), None, ("active",))
            limit = max([(await guild_clock(conn, guild_id)).max_vacation_days,
                         *[(await table_clock(conn, record)).max_vacation_days for record in active]])
            if not 0 <= days <= limit:
                raise IllegalAction("clock.error.vacation_range", maximum=limit)
            until = stamp(now + timedelta(days=days)) if days else None
            await prefs_repo.set_user(conn, str(user_id), vacation_until=until)
            moved = []
            for record in await repo.of_user(conn, str(user_id), None, ("active",)):  # with the new vacation
                game = registry.get(record.game)
                state = self.states.view(game, record)
                started = clock.parse_time(record.turn_started_at) or now
                due = await turn_deadline(conn, game, state, record, started)
                if due != record.turn_deadline:
                    await repo.set_deadline(conn, record.id, due, stamp(now))
                    moved.append(await self._reload(conn, record.id))
        self.prefs_written(str(user_id))
        return until, moved
