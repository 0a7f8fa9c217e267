"""Houses and hotels: building evenly on a full set, placing a building won at auction, and
selling back to the bank at half price (a set goes down evenly)."""
from __future__ import annotations

from bot.engine.core import Event
from bot.games.monopol import rules
from bot.games.monopol.auctions import maybe_close_auction
from bot.games.monopol.board import AUCTION_START, HOTEL, SQUARES
from bot.games.monopol.money import BANK, Perform, bank_pays, illegal, pay
from bot.games.monopol.state import Auction, MonopolState


def free_check(s: MonopolState, seat: int) -> None:
    """Checks for actions open to anyone at any time: a won building is placed first
    (unless its buyer must raise money for it)."""
    if s.placement and s.placement["seat"] == seat and not rules.in_debt(s, seat):
        raise illegal("place_first", "building")


def do_build(s: MonopolState, seat: int, square: int, count: int) -> Perform:
    if s.placement and s.placement["seat"] == seat:
        return place(s, seat, square, count)
    if rules.in_debt(s, seat):
        raise illegal("in_debt", "debt")
    plan = rules.build_plan(s, seat, square, count, check_stock=False)
    if isinstance(plan, str):
        raise illegal(plan.split(".")[-1], "building")
    lot = "hotel" if s.level[square] == HOTEL - 1 else "house"
    bidders = rules.shortage_bidders(s, lot)
    stock = s.bank_hotels if lot == "hotel" else s.bank_houses
    if len(bidders) > 1 and seat in bidders and 0 < stock < len(bidders):
        if count > 1:
            raise illegal("shortage_one", "building")
        return shortage(s, seat, lot, bidders)
    plan = rules.build_plan(s, seat, square, count)
    if isinstance(plan, str):
        raise illegal(plan.split(".")[-1], "building")
    cost = SQUARES[square].house_cost * count
    if s.cash[seat] < cost:
        raise illegal("cannot_afford", "building", amount=cost)

    def run(events: list[Event]) -> None:
        for target in plan:
            raise_level(s, target)
        pay(s, seat, BANK, cost)
        events.append(Event("monopol.event.build", {"seat": seat, "square": square, "count": count,
                                                    "place": SQUARES[square].name, "amount": cost}))
    return run


def shortage(s: MonopolState, seat: int, lot: str, bidders: list[int]) -> Perform:
    if s.auction or s.debts or s.choices:
        raise illegal("busy", "building")

    def run(events: list[Event]) -> None:
        # the request opens the auction with the asker's opening bid
        s.auction = Auction(lot=lot, square=-1, eligible=bidders, high=AUCTION_START, bidder=seat)
        events.append(Event(f"monopol.event.{lot}_shortage", {"seat": seat, "amount": AUCTION_START}))
        maybe_close_auction(s, events)
    return run


def place(s: MonopolState, seat: int, square: int, count: int) -> Perform:
    assert s.placement is not None
    lot = str(s.placement["lot"])
    if count != 1 or square not in rules.can_build_lot(s, seat, lot):
        raise illegal("place_where", "building")

    def run(events: list[Event]) -> None:
        # the building left the bank's stock when the auction closed; a hotel returns 4 houses
        if lot == "hotel":
            s.bank_houses += 4
        s.level[square] += 1
        s.placement = None
        events.append(Event("monopol.event.placed", {"seat": seat, "square": square,
                                                     "place": SQUARES[square].name, "lot": lot}))
    return run


def raise_level(s: MonopolState, square: int) -> None:
    if s.level[square] == HOTEL - 1:
        s.bank_houses += 4
        s.bank_hotels -= 1
    else:
        s.bank_houses -= 1
    s.level[square] += 1


def do_sell(s: MonopolState, seat: int, square: int, count: int) -> Perform:
    free_check(s, seat)
    plan = rules.sell_plan(s, seat, square, count)
    if isinstance(plan, str):
        raise illegal(plan.split(".")[-1], "selling")

    def run(events: list[Event]) -> None:
        levels = rules.sell_levels(s, square, plan)
        units = sum(s.level[x] - levels[x] for x in levels)
        for target, level in levels.items():
            set_level(s, target, level)
        amount = units * SQUARES[square].house_cost // 2
        bank_pays(s, seat, amount)
        events.append(Event("monopol.event.sell", {"seat": seat, "square": square, "count": units,
                                                   "place": SQUARES[square].name, "amount": amount}))
        if units > count:
            # the bank had too few houses to break a hotel down: the set went down further, evenly
            events.append(Event("monopol.event.sell_shortage", {"seat": seat, "count": units - count,
                                                                "place": SQUARES[square].name}))
    return run


def set_level(s: MonopolState, square: int, level: int) -> None:
    """Put ``level`` buildings on a street, taking houses and hotels from the bank or
    returning them (the caller keeps within the bank's stock)."""
    old = s.level[square]
    s.bank_houses += (old if old < HOTEL else 0) - (level if level < HOTEL else 0)
    s.bank_hotels += (old == HOTEL) - (level == HOTEL)
    s.level[square] = level
