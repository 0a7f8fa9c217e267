"""Standing orders (/orders): set privately by a seat's player, applied by the move pipeline
when the seat is to act (``pipeline.Turn.standing_order``, the step beside the computer seats'),
as the seat's own logged move marked "(standing order)".

What an order does is decided from the seat's own observation (``bot.engine.orders``); here are
the checks of what a player may set, the storage glue, which seat's order answers next, and the
private note when an order would have broken a rule and was dropped. Orders end with the game
(``pipeline.finished``) and with the seat's player: they apply only while the user who set them
holds the seat, and a seat change calls ``clear_orders``.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.engine import orders as pure
from bot.engine.core import Event, Game
from bot.engine.orders import Decision
from bot.errors import Forbidden, GameMasterError, IllegalAction, NotFound
from bot.services.update import Update
from bot.storage import games as games_repo
from bot.storage import orders as repo
from bot.storage.db import Database
from bot.storage.games import GameRow
from bot.storage.orders import OrdersRow

MAX_AMOUNT = 100_000  # the highest amount an order may name (kr)
MIN_BID = 10  # Monopol's lowest bid (board.AUCTION_START)
NOTES_KEPT = 10  # dropped-order notes kept for the player's next look
MARK = "standing_order"  # the event parameter that marks a standing order's move in the news
BOOLEAN = frozenset({pure.ONLY_PASS, "auto_end", "auto_exchange"})
AMOUNTS = {"max_bid": MIN_BID, "buy_up_to": 1}  # amount orders and their lowest value


def parse_amount(text: str, minimum: int, maximum: int = MAX_AMOUNT) -> int | None:
    """An amount typed in the orders' modal ("250", "1 500", "kr 300"); empty: no order.
    Raises IllegalAction with the range when it is no whole number in it."""
    cleaned = str(text).strip().lower().replace("kr", "").replace(" ", "").replace("\u00a0", "")
    cleaned = cleaned.replace(",", "").replace(".", "")
    if not cleaned:
        return None
    if not cleaned.isdigit() or len(cleaned) > 7 or not minimum <= int(cleaned) <= maximum:
        raise IllegalAction("orders.error.amount", minimum=minimum, maximum=maximum, value=str(text)[:20])
    return int(cleaned)


def checked(game: str, orders: Mapping[str, Any], key: str, value: Any, *, seat: int, players: int) -> dict[str, Any]:
    """The seat's orders with ``key`` set to ``value`` (None, False or empty: that order off);
    raises IllegalAction naming what is wrong, and nothing changes."""
    if key not in pure.kinds(game):
        raise IllegalAction("orders.error.unknown", game=game)
    out = dict(orders)
    if key in BOOLEAN:
        value = bool(value) or None
    elif key in AMOUNTS:
        if value is not None and (not isinstance(value, int) or not AMOUNTS[key] <= value <= MAX_AMOUNT):
            raise IllegalAction("orders.error.amount", minimum=AMOUNTS[key], maximum=MAX_AMOUNT, value=str(value))
    elif key == "group_max":
        from bot.games.monopol.orders import GROUP_NAMES
        group, amount = value
        if group not in GROUP_NAMES:
            raise IllegalAction("orders.error.unknown", game=game)
        if amount is not None and not MIN_BID <= amount <= MAX_AMOUNT:
            raise IllegalAction("orders.error.amount", minimum=MIN_BID, maximum=MAX_AMOUNT, value=str(amount))
        groups = {k: v for k, v in dict(out.get("group_max") or {}).items() if k != group}
        if amount is not None:
            groups[group] = amount
        value = groups or None
    elif key == "decline_from":
        if value != "all":
            seats = sorted({int(s) for s in value or ()})
            if any(not 0 <= s < players or s == seat for s in seats):
                raise IllegalAction("orders.error.seat")
            value = seats or None
    elif key == "tolp_pass":
        from bot.games.tolp.orders import PASS_CHOICES
        if value not in (*PASS_CHOICES, None, "off"):
            raise IllegalAction("orders.error.unknown", game=game)
        value = None if value == "off" else value
    if value is None:
        out.pop(key, None)
    else:
        out[key] = value
    return out


async def clear_orders(conn: Any, game_id: int, seat: int) -> None:
    """The seat's standing orders end (a seat change: the newcomer starts with none)."""
    await repo.clear(conn, game_id, seat)


async def of_table(conn: Any, record: GameRow) -> dict[int, OrdersRow]:
    """Every seat's orders at the table: as read with the game (no statement of their own), else
    from their table."""
    if all(seat.orders is not None for seat in record.seats):
        return {seat.seat: OrdersRow(record.id, seat.seat, seat.orders_by or "", dict(seat.orders or {}))
                for seat in record.seats if seat.orders}
    return await repo.of_game(conn, record.id)


def applicable(record: GameRow, rows: Mapping[int, OrdersRow]) -> dict[int, OrdersRow]:
    """The orders that still stand: those of a human seat still held by the user who set them."""
    return {seat: row for seat, row in rows.items()
            if row.orders and 0 <= seat < len(record.seats) and not record.seats[seat].is_computer
            and record.seats[seat].user_id == row.user_id}


def next_order(game: Game[Any], state: Any, record: GameRow, rows: Mapping[int, OrdersRow]
               ) -> tuple[int, Decision] | None:
    """The first seat (by seat number) that must act now and whose orders make a move, with it."""
    acting = game.to_act(state)
    for seat, row in sorted(applicable(record, rows).items()):
        if seat not in acting:
            continue
        legal = [str(a) for a in game.legal_actions(state, seat)]
        decision = pure.decide(game.name, row.orders, game.observe(state, seat), legal, seat)
        if decision is not None:
            return seat, decision
    return None


def marked(events: Iterable[Event], seat: int) -> list[Event]:
    """A standing order's events, its own first public line marked "(standing order)"."""
    out = list(events)
    public = [i for i, e in enumerate(out) if e.visible_to is None]
    own = [i for i in public if out[i].params.get("seat") == seat]
    if own or public:
        i = (own or public)[0]
        out[i] = Event(out[i].key, {**out[i].params, MARK: True}, out[i].visible_to)
    return out


def note_key(kind: str) -> str:
    return f"orders.dropped.{kind.partition('.')[0]}"


async def dropped(conn: Any, row: OrdersRow, decision: Decision, error: GameMasterError) -> Event:
    """The order that would have broken a rule is dropped (stored, with a note for the player's next
    look at their orders); the event tells its owner alone (their DM)."""
    key, _, part = decision.kind.partition(".")
    params: dict[str, Any] = {"seat": row.seat, "action": decision.action}
    value = row.orders.get(key)
    if part:
        from bot.games.monopol.orders import group_places
        params["place"] = group_places(part)
        value = (value or {}).get(part)
    if isinstance(value, int) and not isinstance(value, bool):
        params["amount"] = value
    row.orders = pure.drop(row.orders, decision.kind)
    stored = await repo.of_seat(conn, row.game_id, row.seat)  # its notes so far (not read with the game)
    row.notes = [*(stored.notes if stored else []), {"key": note_key(decision.kind), "params": params}][-NOTES_KEPT:]
    await repo.save(conn, row)
    return Event(note_key(decision.kind), params, frozenset({row.seat}))


@dataclass
class SeatOrders:
    """One seat's orders as the orders view shows them."""

    record: GameRow
    seat: int
    orders: dict[str, Any]
    notes: list[dict[str, Any]]


class StandingOrders:
    """The service calls behind /orders (the orders view and its buttons)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def _seat(self, conn: Any, game_id: int, user_id: str, seat: int | None) -> tuple[GameRow, int]:
        record = await games_repo.get(conn, game_id)
        if record is None:
            raise NotFound("error.no_game")
        if record.status != "active":
            raise IllegalAction("error.not_started" if record.status == "lobby" else "error.game_over")
        mine = record.seat_of(str(user_id))
        if mine is None:
            raise Forbidden("error.not_seated")
        if seat is not None and seat != mine:
            raise Forbidden("orders.error.not_your_seat")
        return record, mine

    async def show(self, game_id: int, user_id: str, seat: int | None = None, *, keep_notes: bool = False
                   ) -> SeatOrders:
        """The user's orders at the table (refused unless they hold ``seat``, when given); the notes
        of dropped orders are shown once."""
        async with self.db.transaction() as conn:
            record, seat = await self._seat(conn, game_id, user_id, seat)
            row = await repo.of_seat(conn, game_id, seat)
            if row is None or row.user_id != str(user_id):
                return SeatOrders(record, seat, {}, [])
            notes = row.notes
            if notes and not keep_notes:
                row.notes = []
                await repo.save(conn, row)
            return SeatOrders(record, seat, dict(row.orders), notes)

    async def set(self, game_id: int, user_id: str, seat: int | None, key: str, value: Any) -> SeatOrders:
        """Set (or, with None/False, lift) one order of the user's seat."""
        async with self.db.transaction() as conn:
            record, seat = await self._seat(conn, game_id, user_id, seat)
            row = await repo.of_seat(conn, game_id, seat)
            if row is None or row.user_id != str(user_id):
                row = OrdersRow(game_id, seat, str(user_id))
            row.orders = checked(record.game, row.orders, key, value, seat=seat, players=len(record.seats))
            await repo.save(conn, row)
            return SeatOrders(record, seat, dict(row.orders), [])

    async def clear(self, game_id: int, user_id: str, seat: int | None) -> SeatOrders:
        """Every order of the user's seat lifted."""
        async with self.db.transaction() as conn:
            record, seat = await self._seat(conn, game_id, user_id, seat)
            await clear_orders(conn, game_id, seat)
            return SeatOrders(record, seat, {}, [])


async def apply_now(db: Database, pipeline: Any, game_id: int) -> Update | None:
    """Let the table's standing orders (and computer seats) act now, e.g. right after a player set
    an order while their seat is to act; None when nothing changed."""
    async with db.transaction() as conn:
        record = await pipeline.lock(conn, game_id=game_id)
        turn = pipeline.take(conn, record)
        await turn.computers()
        if not turn.update.events:
            pipeline.states.keep(record, turn.state, turn.before)  # nothing changed: the state stays
            return None
        update: Update = await turn.finish()
        return update
