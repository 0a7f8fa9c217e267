"""The list of legal Monopol actions offered to random playouts, the UI and the computer player.

It is a sensible subset: every listed action is legal, but it leaves out moves that only waste
money (mortgaging while not short of cash, building with nothing in reserve) and lists at most
one trade offer, so that random playouts keep moving.
"""
from __future__ import annotations

from collections.abc import Callable

from bot.games.monopol import rules
from bot.games.monopol.actions import Action, Bid, Buildings, Bundle, OnSquare, Simple, Trade
from bot.games.monopol.board import AUCTION_START, DEEDS, SQUARES, STREETS
from bot.games.monopol.state import BUY, END, ROLL, MonopolState

RESERVE = 200  # cash a player keeps before building or lifting mortgages


def legal_actions(is_legal: Callable[[MonopolState, int, Action], bool], s: MonopolState, seat: int) -> list[Action]:
    """The listed actions ``is_legal`` (the engine's full check) accepts."""
    if s.finished or s.bankrupt[seat]:
        return []
    candidates = _duties(s, seat) + _extras(s, seat)
    seen: set[str] = set()
    out: list[Action] = []
    for action in candidates:
        text = str(action)
        if text not in seen and is_legal(s, seat, action):
            seen.add(text)
            out.append(action)
    return out


def _duties(s: MonopolState, seat: int) -> list[Action]:
    """What the seat must decide now, if it is to act."""
    out: list[Action] = []
    if s.trade and rules.trade_of(s).target == seat:
        out += [Simple("accept"), Simple("decline trade")]
    if s.debts:
        if s.debts[0].debtor == seat:
            out.append(Simple("bankrupt"))
            out += [Buildings("sell", sq, 1) for sq in STREETS if s.owner[sq] == seat]
            out += [OnSquare("mortgage", sq) for sq in DEEDS if s.owner[sq] == seat]
        return out
    if s.placement:
        if s.placement["seat"] == seat:
            out += [Buildings("build", sq, 1) for sq in rules.can_build_lot(s, seat, str(s.placement["lot"]))]
        return out
    if s.choices:
        if s.choices[0].seat == seat:
            square = s.choices[0].square
            out += [OnSquare("lift", square), OnSquare("keep-mortgage", square)]
        return out
    if s.auction:
        if seat in rules.bidders(s):
            low = max(AUCTION_START, s.auction.high + 1)
            out += [Simple("pass")] + [Bid(low + step) for step in (0, 9, 49) if low + step <= s.cash[seat]]
        return out
    if s.turn == seat:
        if s.phase == ROLL:
            out += [Simple("roll"), Simple("jail pay"), Simple("jail card")]
        elif s.phase == BUY:
            out += [Simple("buy"), Simple("decline")]
        elif s.phase == END:
            out.append(Simple("end"))
    return out


def _extras(s: MonopolState, seat: int) -> list[Action]:
    """Actions open at any time, trimmed to sensible ones."""
    out: list[Action] = [Simple("claim")]
    cash = s.cash[seat]
    for sq in STREETS:
        if s.owner[sq] == seat and cash >= SQUARES[sq].house_cost + RESERVE:
            out.append(Buildings("build", sq, 1))
    for sq in DEEDS:
        if s.owner[sq] == seat and s.mortgaged[sq] and cash >= rules.lift_cost(sq) + RESERVE:
            out.append(OnSquare("unmortgage", sq))
    if s.trade is None:
        offer = _one_offer(s, seat)
        if offer:
            out.append(offer)
    return out


def _one_offer(s: MonopolState, seat: int) -> Trade | None:
    """Offer the next player the deed's price for the first deed of theirs that we could use."""
    for step in range(1, s.players):
        other = (seat + step) % s.players
        if s.bankrupt[other]:
            continue
        for sq in DEEDS:
            sq_data = SQUARES[sq]
            if (s.owner[sq] == other and not rules.set_has_buildings(s, sq)
                    and rules.count_owned(s, sq_data.group, seat) and sq_data.price <= s.cash[seat] - RESERVE):
                return Trade(other, Bundle(cash=sq_data.price), Bundle(deeds=(sq,)))
        return None
    return None
