"""Debts and bankruptcy: debts paid once the money is there, a won building that can no longer
be placed going back to the bank, the bank's auctions of a bankrupt's deeds, and going bankrupt
(to one player, to the bank, or owing several players)."""
from __future__ import annotations

from bot.engine.core import Event
from bot.games.monopol import rules
from bot.games.monopol.auctions import maybe_close_auction, open_deed_auction
from bot.games.monopol.board import CARDS, DEEDS, SQUARES
from bot.games.monopol.building import set_level
from bot.games.monopol.money import BANK, Perform, bank_pays, illegal, pay
from bot.games.monopol.state import Debt, MonopolState, MortgageChoice
from bot.games.monopol.turns import advance_turn


def do_bankrupt(s: MonopolState, seat: int) -> Perform:
    if not s.debts or s.debts[0].debtor != seat:
        raise illegal("not_in_debt", "bankruptcy")
    debts = [d for d in s.debts if d.debtor == seat]
    total = sum(d.amount for d in debts)
    if rules.liquidation_value(s, seat) >= total:
        raise illegal("can_still_pay", "bankruptcy", amount=total)
    creditors = {d.creditor for d in debts}

    def run(events: list[Event]) -> None:
        if len(creditors) > 1:
            share_out(s, seat, debts, events)
        bankrupt(s, seat, creditors.pop() if len(creditors) == 1 else BANK, events)
    return run


def share_out(s: MonopolState, seat: int, debts: list[Debt], events: list[Event]) -> None:
    """A bankrupt owing several creditors (a card's "pay each player"): no single player
    takes everything. The buildings go back to the bank at half price and the cash is shared
    out in proportion to what each is owed; the deeds then go to the bank, which auctions
    them (as in a bankruptcy to the bank)."""
    for square in DEEDS:
        if s.owner[square] == seat and s.level[square]:
            bank_pays(s, seat, s.level[square] * SQUARES[square].house_cost // 2)
            set_level(s, square, 0)
    cash, total = s.cash[seat], sum(d.amount for d in debts)
    for debt in debts:
        share = min(debt.amount, cash * debt.amount // total)
        pay(s, seat, debt.creditor, share)
        if debt.creditor != BANK:
            events.append(Event("monopol.event.share", {"seat": seat, "target": debt.creditor, "amount": share}))


def bankrupt(s: MonopolState, seat: int, creditor: int, events: list[Event]) -> None:
    for square in DEEDS:
        if s.owner[square] == seat:
            if s.level[square]:
                bank_pays(s, seat, s.level[square] * SQUARES[square].house_cost // 2)
                set_level(s, square, 0)
    s.debts = [d for d in s.debts if d.debtor != seat and d.creditor != seat]
    s.bankrupt[seat] = True
    s.out_order.append(seat)
    deeds = [sq for sq in DEEDS if s.owner[sq] == seat]
    if creditor == BANK:
        events.append(Event("monopol.event.bankrupt_bank", {"seat": seat}))
        pay(s, seat, BANK, s.cash[seat])
        for square in deeds:
            s.owner[square] = -1
            s.mortgaged[square] = False
        for card in s.jail_cards[seat]:
            s.decks[CARDS[card].deck].append(card)
        s.auction_queue.extend(deeds)
    else:
        events.append(Event("monopol.event.bankrupt_player", {"seat": seat, "target": creditor}))
        pay(s, seat, creditor, s.cash[seat])
        for square in deeds:
            s.owner[square] = creditor
            if s.mortgaged[square]:
                s.choices.append(MortgageChoice(creditor, square))
        s.jail_cards[creditor].extend(s.jail_cards[seat])
    s.jail_cards[seat] = []
    s.in_jail[seat] = False
    s.claims = [c for c in s.claims if seat not in (c.payer, c.owner)]
    s.choices = [c for c in s.choices if c.seat != seat]
    if s.trade and seat in (s.trade.proposer, rules.trade_of(s).target):
        s.trade = None
    if s.placement and s.placement["seat"] == seat:
        if s.placement["lot"] == "hotel":
            s.bank_hotels += 1
        else:
            s.bank_houses += 1
        s.placement = None
    if s.auction:
        if s.auction.bidder == seat:
            s.auction.bidder, s.auction.high = -1, 0
        s.auction.eligible = [e for e in s.auction.eligible if e != seat]
    if len(s.solvent()) <= 1:
        s.finished = "monopol.end.last"
        s.auction = None
        return
    if s.auction:
        maybe_close_auction(s, events)
    if seat == s.turn:
        advance_turn(s, events)


def settle(s: MonopolState, events: list[Event]) -> None:
    """Pay debts that can be paid now, and start the bank's auctions of a bankrupt's deeds."""
    while not s.finished:
        if s.debts and s.cash[s.debts[0].debtor] >= rules.owed(s, s.debts[0].debtor):
            # all of a debtor's debts at once, so that creditors sharing a card's debt are
            # paid alike (or, should the debtor go bankrupt, share alike)
            debtor = s.debts[0].debtor
            for debt in [d for d in s.debts if d.debtor == debtor]:
                s.debts.remove(debt)
                pay(s, debtor, debt.creditor, debt.amount)
                events.append(Event("monopol.event.debt_paid", {"seat": debtor, "amount": debt.amount}))
            continue
        if s.placement and not s.debts and not rules.can_build_lot(s, int(s.placement["seat"]),
                                                                    str(s.placement["lot"])):
            # the buyer sold off what the building needed: it goes back to the bank
            lot = str(s.placement["lot"])
            if lot == "hotel":
                s.bank_hotels += 1
            else:
                s.bank_houses += 1
            events.append(Event("monopol.event.placement_lapsed", {"seat": s.placement["seat"], "lot": lot}))
            s.placement = None
            continue
        if s.auction_queue and not (s.debts or s.auction or s.placement or s.choices):
            open_deed_auction(s, s.auction_queue.pop(0), events)
            continue
        break
