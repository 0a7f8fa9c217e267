"""Auctions: a declined or bankrupt's deed, and houses or hotels when the bank has too few for
everyone who wants one. Every other solvent player bids or passes; an auction closes by itself
once all of them have since the last bid, or on the service's timer (the TIMER seat)."""
from __future__ import annotations

from bot.engine.core import TIMER, Event
from bot.errors import NotYourTurn
from bot.games.monopol import rules
from bot.games.monopol.board import AUCTION_START, SQUARES
from bot.games.monopol.money import BANK, Perform, charge, illegal
from bot.games.monopol.state import Auction, MonopolState


def do_bid(s: MonopolState, seat: int, amount: int) -> Perform:
    auction = s.auction
    if auction is None:
        raise illegal("no_auction", "auction")
    if seat not in rules.bidders(s):
        raise NotYourTurn()
    if amount < max(AUCTION_START, auction.high + 1):
        raise illegal("bid_too_low", "auction", amount=max(AUCTION_START, auction.high + 1))
    if amount > s.cash[seat]:
        raise illegal("cannot_afford", "auction", amount=amount)

    def run(events: list[Event]) -> None:
        assert s.auction is not None
        s.auction.high, s.auction.bidder, s.auction.passed = amount, seat, []
        events.append(Event("monopol.event.bid", {"seat": seat, "amount": amount}))
        maybe_close_auction(s, events)
    return run


def do_pass(s: MonopolState, seat: int) -> Perform:
    if s.auction is None:
        raise illegal("no_auction", "auction")
    if seat not in rules.bidders(s):
        raise NotYourTurn()

    def run(events: list[Event]) -> None:
        assert s.auction is not None
        s.auction.passed.append(seat)
        events.append(Event("monopol.event.pass", {"seat": seat}))
        maybe_close_auction(s, events)
    return run


def do_auction_close(s: MonopolState, seat: int) -> Perform:
    """The service's timer ran out (option auction_minutes): close with the best bid so far.
    No player can close an auction: it closes by itself once every other solvent player has
    bid or passed since the last bid, or on its timer (applied as the TIMER seat)."""
    if seat != TIMER:
        raise illegal("auction_timer_only", "auction")
    if s.auction is None:
        raise illegal("no_auction", "auction")

    def run(events: list[Event]) -> None:
        close_auction(s, events)
    return run


def open_deed_auction(s: MonopolState, square: int, events: list[Event]) -> None:
    """The bank auctions a deed nobody bought. House rule auctions off: it stays with the bank,
    for sale to whoever lands on it next."""
    if not s.options.get("auctions", True):
        events.append(Event("monopol.event.unsold", {"square": square, "place": SQUARES[square].name}))
        return
    s.auction = Auction(lot="deed", square=square, eligible=s.solvent())
    events.append(Event("monopol.event.auction", {"square": square, "place": SQUARES[square].name}))


def maybe_close_auction(s: MonopolState, events: list[Event]) -> None:
    if s.auction is not None and not rules.bidders(s):
        close_auction(s, events)


def close_auction(s: MonopolState, events: list[Event]) -> None:
    auction = s.auction
    assert auction is not None
    s.auction = None
    winner, price = auction.bidder, auction.high
    if auction.lot == "deed":
        name = SQUARES[auction.square].name
        if winner < 0:
            events.append(Event("monopol.event.unsold", {"square": auction.square, "place": name}))
            return
        s.owner[auction.square] = winner
        events.append(Event("monopol.event.auction_won", {"seat": winner, "square": auction.square,
                                                          "place": name, "amount": price}))
        charge(s, winner, BANK, price, events)
        return
    if winner < 0 or not rules.can_build_lot(s, winner, auction.lot):
        events.append(Event("monopol.event.building_unsold", {"lot": auction.lot}))
        return
    if auction.lot == "house":
        s.bank_houses -= 1
    else:
        s.bank_hotels -= 1
    s.placement = {"seat": winner, "lot": auction.lot}
    events.append(Event(f"monopol.event.{auction.lot}_won", {"seat": winner, "amount": price}))
    charge(s, winner, BANK, price, events)
