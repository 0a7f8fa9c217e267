"""The computer player: claims its rent at once (option rent_must_be_claimed), buys with a cash
reserve, bids up to a deed's worth, builds when rich,
leaves jail early, raises money by mortgaging its least useful deeds, and ends its turn."""
from __future__ import annotations

from bot.engine.rng import Rng
from bot.games.monopol import rules
from bot.games.monopol.actions import Action, Bid, Buildings, Bundle, OnSquare, Simple, Trade
from bot.games.monopol.board import AUCTION_START, DEEDS, GROUPS, JAIL_FINE, SQUARES, STREETS
from bot.games.monopol.engine import MonopolGame
from bot.games.monopol.state import BUY, END, ROLL, MonopolState

RESERVE = 200  # cash kept after buying
RICH = 300  # cash kept after building or lifting a mortgage


RULES = MonopolGame()  # validates the wishes (``is_legal``) without changing the state


def choose(s: MonopolState, seat: int, legal: list[Action], rng: Rng) -> Action:
    for action in _wishes(s, seat):
        if RULES.is_legal(s, seat, action):
            return action
    return legal[0]


def _wishes(s: MonopolState, seat: int) -> list[Action]:
    """Preferred actions, best first; the first legal one is taken."""
    if any(claim.owner == seat for claim in s.claims):
        return [Simple("claim")]  # a right out of turn: the claim lapses at the next roll
    if s.debts and s.debts[0].debtor == seat:
        return raise_money(s, seat, rules.owed(s, seat))
    if s.trade and rules.trade_of(s).target == seat:
        return [Simple("accept") if _good_trade(s, seat) else Simple("decline trade")]
    if s.placement and s.placement["seat"] == seat:
        return [Buildings("build", sq, 1) for sq in rules.can_build_lot(s, seat, str(s.placement["lot"]))]
    if s.choices and s.choices[0].seat == seat:
        square = s.choices[0].square
        lift = s.cash[seat] >= rules.lift_cost(square) + RICH
        return [OnSquare("lift" if lift else "keep-mortgage", square)]
    if s.auction and seat in rules.bidders(s):
        return [_bid(s, seat)]
    if s.turn != seat:
        return []
    if s.phase == ROLL:
        if s.in_jail[seat]:
            return [Simple("jail card"), Simple("jail pay") if s.cash[seat] >= JAIL_FINE + RICH else Simple("roll"),
                    Simple("roll")]
        return [*_improve(s, seat), Simple("roll")]
    if s.phase == BUY:
        square = s.position[seat]
        keep = s.cash[seat] - SQUARES[square].price
        completes = rules.count_owned(s, SQUARES[square].group, seat) == len(GROUPS[SQUARES[square].group]) - 1
        return [Simple("buy") if keep >= RESERVE or (completes and keep >= 50) else Simple("decline")]
    if s.phase == END:
        return [*_improve(s, seat), *_offer(s, seat), Simple("end")]
    return []


def _worth(s: MonopolState, seat: int, square: int) -> int:
    """What a deed is worth to ``seat``: its price, more when it adds to a set we have begun."""
    sq = SQUARES[square]
    owned = rules.count_owned(s, sq.group, seat)
    return sq.price + sq.price * owned // 2


def _bid(s: MonopolState, seat: int) -> Action:
    auction = s.auction
    assert auction is not None
    if auction.lot == "deed":
        limit = min(_worth(s, seat, auction.square), s.cash[seat] - RESERVE // 2)
    else:
        limit = min(2 * max(SQUARES[sq].house_cost for sq in STREETS if s.owner[sq] == seat), s.cash[seat] - RICH)
    low = max(AUCTION_START, auction.high + 1)
    if low > limit:
        return Simple("pass")
    return Bid(min(limit, max(low, auction.high + 10)))


def _improve(s: MonopolState, seat: int) -> list[Action]:
    """Build on the most expensive set we can, then lift mortgages, while staying rich."""
    out: list[Action] = []
    cash = s.cash[seat]
    for sq in sorted(STREETS, key=lambda x: -SQUARES[x].house_cost):
        if s.owner[sq] == seat and cash - SQUARES[sq].house_cost >= RICH:
            out.append(Buildings("build", sq, 1))
    for sq in DEEDS:
        if s.owner[sq] == seat and s.mortgaged[sq] and cash - rules.lift_cost(sq) >= RICH:
            out.append(OnSquare("unmortgage", sq))
    return out


def raise_money(s: MonopolState, seat: int, owed: int) -> list[Action]:
    """Bankrupt when nothing can cover the debt; else mortgage the least useful deed first
    (not part of a set, cheapest), and only then sell buildings."""
    if rules.liquidation_value(s, seat) < owed:
        return [Simple("bankrupt")]
    free = [sq for sq in DEEDS if s.owner[sq] == seat and not s.mortgaged[sq]]
    free.sort(key=lambda sq: (rules.owns_set(s, SQUARES[sq].group, seat), SQUARES[sq].price))
    out: list[Action] = [OnSquare("mortgage", sq) for sq in free]
    out += [Buildings("sell", sq, 1) for sq in sorted(STREETS, key=lambda x: -s.level[x])
            if s.owner[sq] == seat and s.level[sq]]
    return out


def _value(s: MonopolState, seat: int, bundle: Bundle) -> int:
    deeds = sum(_worth(s, seat, sq) // (2 if s.mortgaged[sq] else 1) for sq in bundle.deeds)
    return bundle.cash + deeds + bundle.cards * JAIL_FINE


def _good_trade(s: MonopolState, seat: int) -> bool:
    """Accept when we get clearly more than we give and give away no part of a set we are building."""
    trade = rules.trade_of(s)
    for sq in trade.get.deeds:
        if rules.count_owned(s, SQUARES[sq].group, seat) >= 2:
            return False
    return _value(s, seat, trade.give) * 5 >= _value(s, seat, trade.get) * 6


def _offer(s: MonopolState, seat: int) -> list[Action]:
    """Once a round, offer twice the price for the one street that completes a set of ours."""
    if s.trade or s.offered[seat] >= s.round:
        return []
    for squares in GROUPS.values():
        missing = [sq for sq in squares if s.owner[sq] != seat]
        if len(missing) != 1 or SQUARES[missing[0]].kind != "street":
            continue
        square, other = missing[0], s.owner[missing[0]]
        price = 2 * SQUARES[square].price
        if other >= 0 and not rules.set_has_buildings(s, square) and s.cash[seat] - price >= RESERVE:
            return [Trade(other, Bundle(cash=price), Bundle(deeds=(square,)))]
    return []
