"""The one way a running game changes: lock → take → apply → commit → computers → finish → outbox.

Every call that changes a running table goes through here — a move, a resignation, a timed-out
turn skipped or handed to the computer by vote, a game's own timer, an undo, the lobby's start, and
what comes next (standing orders, seat changes) — inside the caller's one transaction:

1. ``lock``: the game row with its seats, locked (``FOR UPDATE`` on PostgreSQL), refused unless
   the game runs;
2. ``take``: the parsed state out of the cache (parsed once per version), with every seat's private
   view before the change (kept from the previous change when known);
3. the caller checks and applies (the engine raises before it changes anything);
4. ``Turn.commit``: the move appended to the log and the snapshot saved with the version bumped
   (conditional on the version read), the mover's time bank spent and the turn clock set; a game
   that finishes enters its server's standings and gets its finish number for the ratings;
5. the computer seats make every move they must, and the human seats' standing orders answer
   for them (``Turn.standing_order``), each committed the same way;
6. ``finish``: whose private view changed, who acts now, the new state kept in the cache with each
   seat's observation (shared by the reply, the announcer and the DMs);
7. the outbox entry of the change, in the same transaction.

No step reads back what it just wrote: the record is kept current in place.
"""
from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.engine import registry
from bot.engine.core import TIMER, Event, Game
from bot.errors import GameMasterError, IllegalAction, NotFound
from bot.services import clock, outbox
from bot.services import orders as standing
from bot.services.computers import Foresight, decide
from bot.services.states import Privates, StateCache
from bot.services.turn_clock import held, turn_clock
from bot.services.update import Update, outcome_to_dict
from bot.storage import announcements, ratings, standings
from bot.storage import games as repo
from bot.storage import orders as orders_repo
from bot.storage import seats as seats_repo
from bot.storage.games import GameRow

MAX_COMPUTER_MOVES = 500  # per call; computer seats never loop forever


def privates(game: Game[Any], state: Any, players: int,
             seen: dict[int | None, dict[str, Any]] | None = None) -> Privates:
    """Each seat's private view (as JSON, to compare) and whether it must act now; each seat's
    observation is put in ``seen`` when given."""
    acting = game.to_act(state)
    out = []
    for seat in range(players):
        observation = game.observe(state, seat)
        if seen is not None:
            seen[seat] = observation
        out.append((json.dumps(observation["private"], sort_keys=True), seat in acting))
    return out


async def finished(conn: Any, record: GameRow, outcome: dict[str, Any]) -> None:
    """A game that finished in this transaction enters its server's standings and takes the next
    finish number of its server and game (the order the ratings rate it in). A seat a sitter
    plays goes back to its owner first (``/game sitter``): the owner's result."""
    await seats_repo.hand_back_sitters(conn, record)
    await standings.record_finish(conn, record.guild_id, record.game, record.seats, outcome)
    await orders_repo.clear(conn, record.id)  # standing orders end with the game
    if record.guild_id is not None:
        await ratings.number_finish(conn, record.id, record.guild_id, record.game)


@dataclass
class Turn:
    """One running table inside its transaction, changing: its locked row, its engine, the state
    being changed, each seat's private view before (None: a game that begins) and what changed."""

    pipeline: Pipeline
    conn: Any
    record: GameRow
    game: Game[Any]
    state: Any
    before: Privates | None
    update: Update
    orders: dict[int, orders_repo.OrdersRow] | None = field(default=None, repr=False)  # read once, when needed

    async def commit(self, seat: int, action: str, *, spend_bank: bool = True) -> None:
        """Append ``action`` of ``seat`` to the log and save the state it led to, with the turn
        clock of the next turn; a game it finished is finished for good."""
        record, game, state = self.record, self.game, self.state
        outcome = game.outcome(state)
        now = self.pipeline.clock()
        seat_row = record.seats[seat] if seat != TIMER else None  # TIMER: the table's clock moved
        if spend_bank and seat_row is not None and not seat_row.is_computer:
            left = clock.spent_bank(seat_row.bank_seconds, record.turn_seconds,
                                    clock.parse_time(record.turn_started_at), now)
            if left != seat_row.bank_seconds:
                await repo.set_bank(self.conn, record.id, seat, left)
                seat_row.bank_seconds = left
        fields: dict[str, Any] = {"state": game.dump(state), "ply": record.ply + 1,
                                  **await turn_clock(self.conn, game, state, record, now)}
        if outcome is not None:
            fields.update(status="finished", outcome=outcome_to_dict(outcome), turn_deadline=None, alarm_at=None,
                          timer_at=None)
        await repo.append_move(self.conn, record.id, record.ply + 1, seat, action)
        was = record.status
        await repo.update(self.conn, record, record.version, **fields)
        if outcome is not None and was != "finished":
            await finished(self.conn, record, fields["outcome"])

    async def computers(self, *, window_over: bool = False) -> None:
        """Computer seats make every move they must and use every out-of-turn right they have
        (``Game.watchers``: a Monopol rent claim). A computer's move that would end a human's
        out-of-turn right waits until that human acted or the window passed (``window_over``)."""
        record, game, state = self.record, self.game, self.state
        seats_of_computers = {s.seat for s in record.seats if s.is_computer}
        granted = game.waits_for(state) - seats_of_computers if window_over else frozenset()
        for _ in range(MAX_COMPUTER_MOVES):
            if record.status != "active" or game.outcome(state) is not None:
                return
            if await self.standing_order():
                continue
            rights = sorted(game.watchers(state) & seats_of_computers)
            seats = rights or sorted(game.to_act(state) & seats_of_computers)
            if not seats:
                return
            if not rights and held(game, state, record) and \
                    not game.waits_for(state) - seats_of_computers <= granted:
                return
            seat = seats[0]
            action = await decide(game, state, record, seat, self.pipeline.computer_executor, self.pipeline.foresight)
            self.update.events.extend(game.apply(state, seat, action))
            await self.commit(seat, str(action))
            if not game.waits_for(state):
                granted = frozenset()  # that window is over; the next one is given in full

    async def standing_order(self) -> bool:
        """The step beside the computer seats': a human seat that must act and whose standing
        orders (``bot.services.orders``) make a move now makes it, as the seat's own move, its news
        marked "(standing order)" and its ply noted for the log. An order whose move would break a
        rule is dropped instead, with a note to its owner alone. True when anything changed."""
        if self.orders is None:
            self.orders = standing.applicable(self.record, await standing.of_table(self.conn, self.record))
        if not self.orders:
            return False
        found = standing.next_order(self.game, self.state, self.record, self.orders)
        if found is None:
            return False
        seat, decision = found
        try:
            action = self.game.parse_action(decision.action)
            events = self.game.apply(self.state, seat, action)  # raises before it changes anything
        except GameMasterError as exc:
            self.update.events.append(await standing.dropped(self.conn, self.orders[seat], decision, exc))
            return True
        self.update.events.extend(standing.marked(events, seat))
        await self.commit(seat, str(action))
        await orders_repo.mark_move(self.conn, self.record.id, self.record.ply, decision.kind)
        return True

    async def finish(self, kind: str = outbox.MOVE, *, handed: frozenset[int] = frozenset()) -> Update:
        """Who must act now and whose private view changed (those seats get a fresh view: a seat
        whose turn merely came is pinged by the new board, its controls one "Show my hand" away);
        the new state kept in the cache; the outbox entry of the change, committed with it.
        ``handed``: seats that changed hands (``bot.services.seats``): their new holder gets the
        seat's private view, as on a start."""
        update, game, state = self.update, self.game, self.state
        update.record = self.record
        seen: dict[int | None, dict[str, Any]] = {}
        after = privates(game, state, len(self.record.seats), seen)
        self.pipeline.states.keep(self.record, state, after, seen)
        if self.before is None:  # the game begins: every seat gets its first view
            update.private_changed = frozenset(range(len(self.record.seats)))
        else:
            update.previous_to_act = frozenset(i for i, (_, acting) in enumerate(self.before) if acting)
            pairs = zip(self.before, after, strict=True)
            update.private_changed = frozenset(i for i, ((old, _), (new, _)) in enumerate(pairs) if old != new)
        update.private_changed |= handed
        update.outcome = game.outcome(state)
        update.finished = self.record.status == "finished"
        update.to_act = game.to_act(state) if self.record.status == "active" else frozenset()
        await self.pipeline.record(self.conn, update, kind)
        return update

    async def play(self, seat: int, action: str, events: list[Event], *, spend_bank: bool = True,
                   window_over: bool = False) -> Update:
        """The usual end of a change the caller applied: commit it, the computers' moves, finish."""
        self.update.events.extend(events)
        await self.commit(seat, action, spend_bank=spend_bank)
        await self.computers(window_over=window_over)
        return await self.finish()


class Pipeline:
    """The steps, on one database's cached states and clock (``ServiceCore.pipeline``)."""

    def __init__(self, states: StateCache, clock: Callable[[], datetime],
                 committed: Callable[[Any, int], None] | None = None,
                 wake: Callable[[Any, int], Awaitable[None]] | None = None) -> None:
        self.states = states
        self.clock = clock
        # told of each outbox entry: its listeners (the web pages) hear once the transaction commits
        self.committed = committed or (lambda conn, game_id: None)
        # told of a change that writes no outbox entry (a private-only one): ``Database.wake``
        self.wake = wake
        self.computer_executor: Executor | None = None  # where computer seats decide (None: a worker thread)
        # the computers' answers searched before a move's transaction (bot.services.computers.foresee),
        # and the tables (ids and channels) seen with computer seats, whose moves are foreseen
        self.foresight = Foresight()
        self.with_computers: set[int | str] = set()

    def seen(self, record: GameRow) -> None:
        if any(s.is_computer for s in record.seats):
            self.with_computers.update((record.id, str(record.channel_id)))

    async def lock(self, conn: Any, *, channel_id: str | None = None, game_id: int | None = None) -> GameRow:
        """The running game (by id, else the channel's), its row locked for this transaction."""
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

    def take(self, conn: Any, record: GameRow, *, reply_privately: bool = False,
             events: list[Event] | None = None) -> Turn:
        """The state of ``record`` to change (out of the cache), with the private views before."""
        game = registry.get(record.game)
        self.seen(record)
        state, known = self.states.take(game, record)
        before = known or privates(game, state, len(record.seats))
        return Turn(self, conn, record, game, state, before, Update(record, list(events or []),
                                                                     reply_privately=reply_privately))

    def replace(self, conn: Any, record: GameRow, state: Any, *, events: list[Event] | None = None) -> Turn:
        """A change that puts another state in place (an undo's replay): the views before are the
        current state's."""
        game = registry.get(record.game)
        before = privates(game, self.states.view(game, record), len(record.seats))
        return Turn(self, conn, record, game, state, before, Update(record, list(events or [])))

    async def begin(self, conn: Any, record: GameRow, state: Any, events: list[Event]) -> Turn:
        """A game that begins with ``state``: it becomes active with its first turn's clock."""
        game = registry.get(record.game)
        self.seen(record)
        await repo.update(conn, record, record.version, status="active", state=game.dump(state),
                          **await turn_clock(conn, game, state, record, self.clock()))
        return Turn(self, conn, record, game, state, None, Update(record, list(events), started=True))

    async def record(self, conn: Any, update: Update, kind: str = outbox.MOVE) -> None:
        """The outbox entry of this change, committed with it. A private-only change the caller
        answers itself (``update.reply_privately``) needs none. The entry's listeners (the web
        pages: ``Database.committed``) hear of it once it commits."""
        if update.reply_privately and update.events and all(e.visible_to is not None for e in update.events):
            if self.wake is not None:  # the mover's own web page still follows it
                await self.wake(conn, update.record.id)
            return
        await announcements.record(conn, update.record.id, update.record.ply, outbox.payload_of(update, kind))
        self.committed(conn, update.record.id)
