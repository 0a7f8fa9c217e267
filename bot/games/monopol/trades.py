"""Trades: one offer at a time, of cash, deeds (without buildings in their set) and jail cards,
accepted or declined by its receiver (or withdrawn by its proposer). A mortgaged deed received
waits for its new owner's decision (``mortgages``)."""
from __future__ import annotations

from bot.engine.core import Event
from bot.errors import NotYourTurn
from bot.games.monopol import rules
from bot.games.monopol.actions import Bundle, Trade
from bot.games.monopol.board import SQUARES
from bot.games.monopol.building import free_check
from bot.games.monopol.money import Perform, illegal, pay
from bot.games.monopol.state import MonopolState, MortgageChoice, PendingTrade

DECLINED_KEPT = 12  # declined offers remembered, so nobody needs to offer the same one again


def do_trade(s: MonopolState, seat: int, trade: Trade) -> Perform:
    free_check(s, seat)
    if s.trade:
        raise illegal("trade_pending", "trading")
    check_trade(s, seat, trade)

    def run(events: list[Event]) -> None:
        s.trade = PendingTrade(proposer=seat, text=str(trade))
        s.offered[seat] = s.round
        events.append(Event("monopol.event.trade_offer", {
            "seat": seat, "target": trade.target, "give": rules.describe(trade.give),
            "get": rules.describe(trade.get)}))
    return run


def check_trade(s: MonopolState, seat: int, trade: Trade) -> None:
    target = trade.target
    if target == seat or not 0 <= target < s.players or s.bankrupt[target]:
        raise illegal("bad_partner", "trading")
    if trade.give.empty and trade.get.empty:
        raise illegal("empty_trade", "trading")
    for side, bundle in ((seat, trade.give), (target, trade.get)):
        if bundle.cash > s.cash[side]:
            raise illegal("trade_cash", "trading", seat=side, amount=bundle.cash)
        if bundle.cash and rules.in_debt(s, side):
            # money owed goes to the creditor first: a debtor may sell deeds for cash, not give cash
            raise illegal("trade_cash_debt", "debt", seat=side)
        if bundle.cards > len(s.jail_cards[side]):
            raise illegal("trade_cards", "trading", seat=side)
        for square in bundle.deeds:
            if not SQUARES[square].is_deed or s.owner[square] != side:
                raise illegal("trade_deed", "trading", seat=side, place=SQUARES[square].name)
            if rules.undecided(s, square):
                raise illegal("deed_undecided", "mortgage", place=SQUARES[square].name)
            if rules.set_has_buildings(s, square):
                raise illegal("trade_buildings", "trading", place=SQUARES[square].name)


def do_accept(s: MonopolState, seat: int) -> Perform:
    if s.trade is None:
        raise illegal("no_trade", "trading")
    trade = rules.trade_of(s)
    if seat != trade.target:
        raise NotYourTurn("monopol.error.not_your_trade")
    if s.placement and s.placement["seat"] == seat:
        raise illegal("place_first", "building")
    proposer = s.trade.proposer
    check_trade(s, proposer, trade)

    def run(events: list[Event]) -> None:
        s.trade = None
        hand_over(s, proposer, trade.target, trade.give)
        hand_over(s, trade.target, proposer, trade.get)
        events.append(Event("monopol.event.trade_done", {"seat": trade.target, "target": proposer}))
    return run


def hand_over(s: MonopolState, giver: int, taker: int, bundle: Bundle) -> None:
    pay(s, giver, taker, bundle.cash)
    for square in bundle.deeds:
        s.owner[square] = taker
        if s.mortgaged[square]:
            s.choices.append(MortgageChoice(taker, square))
    for _ in range(bundle.cards):
        s.jail_cards[taker].append(s.jail_cards[giver].pop(0))


def do_decline_trade(s: MonopolState, seat: int) -> Perform:
    if s.trade is None:
        raise illegal("no_trade", "trading")
    if seat not in (s.trade.proposer, rules.trade_of(s).target):
        raise NotYourTurn("monopol.error.not_your_trade")

    def run(events: list[Event]) -> None:
        assert s.trade is not None
        if seat != s.trade.proposer:  # declined by its receiver, not withdrawn
            s.declined = [*s.declined, s.trade.text][-DECLINED_KEPT:]
        s.trade = None
        events.append(Event("monopol.event.trade_declined", {"seat": seat}))
    return run
