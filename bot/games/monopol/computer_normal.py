"""The Monopol computer at level normal: it values deeds by the rent they can be expected to
bring (a completed set is worth its houses' rent, a lone street little), never hands an opponent
a colour set unless it gets one itself, raises its offer rather than repeat one that was
declined, bids up to what a deed is worth to it (more to complete a set or to block one), and
builds its sets up to three houses evenly while keeping a cash reserve against rents.

Everything it reads is public in Monopol (only the order of the card decks is hidden)."""
from __future__ import annotations

from bot.engine.rng import Rng
from bot.games.monopol import rules
from bot.games.monopol.actions import Action, Bid, Buildings, Bundle, OnSquare, Simple, Trade
from bot.games.monopol.board import (
    AUCTION_START,
    DEEDS,
    GROUPS,
    JAIL_FINE,
    SQUARES,
    STATION_RENTS,
    STREETS,
    UTILITY_MULTIPLIERS,
)
from bot.games.monopol.computer import RULES, raise_money
from bot.games.monopol.state import BUY, END, ROLL, MonopolState

RESERVE = 150  # cash kept against rents after buying or building
HORIZON = 25  # rounds a deed is expected to earn for
LANDING = 1 / 36  # chance that one opponent lands on a given square in one turn (about)
MAX_HOUSES = 3  # houses per street before the next set is built up (the best return)


def choose(s: MonopolState, seat: int, legal: list[Action], rng: Rng) -> Action:
    for action in wishes(s, seat):
        if RULES.is_legal(s, seat, action):
            return action
    return legal[0]


def wishes(s: MonopolState, seat: int) -> list[Action]:
    """Preferred actions, best first; the first legal one is taken."""
    if any(claim.owner == seat for claim in s.claims):
        return [Simple("claim")]
    if s.debts and s.debts[0].debtor == seat:
        return raise_money(s, seat, rules.owed(s, seat))
    if s.trade and rules.trade_of(s).target == seat:
        accept = good_trade(s, seat, rules.trade_of(s), s.trade.proposer)
        return [Simple("accept") if accept else Simple("decline trade")]
    if s.placement and s.placement["seat"] == seat:
        return [Buildings("build", sq, 1) for sq in rules.can_build_lot(s, seat, str(s.placement["lot"]))]
    if s.choices and s.choices[0].seat == seat:
        square = s.choices[0].square
        lift = s.cash[seat] >= rules.lift_cost(square) + RESERVE
        return [OnSquare("lift" if lift else "keep-mortgage", square)]
    if s.auction and seat in rules.bidders(s):
        return [bid(s, seat)]
    if s.turn != seat:
        return []
    if s.phase == ROLL:
        if s.in_jail[seat]:
            late = s.round > 15  # later the board is dangerous: sitting in jail is safe
            pay = not late and s.cash[seat] >= JAIL_FINE + RESERVE
            return [Simple("roll") if late else Simple("jail card"), Simple("jail pay") if pay else Simple("roll"),
                    Simple("roll")]
        return [*improve(s, seat), Simple("roll")]
    if s.phase == BUY:
        square = s.position[seat]
        keep = s.cash[seat] - SQUARES[square].price
        wanted = completes(s, seat, square) or blocks(s, seat, square)
        return [Simple("buy") if keep >= RESERVE // 3 or (wanted and keep >= 0) else Simple("decline")]
    if s.phase == END:
        return [*improve(s, seat), *offer(s, seat), Simple("end")]
    return []


# ------------------------------------------------------------------ what deeds are worth
def income(s: MonopolState, square: int, owner: list[int]) -> float:
    """Rent per round the deed is expected to bring its owner under the ownership ``owner``."""
    sq = SQUARES[square]
    holder = owner[square]
    if holder < 0:
        return 0.0
    opponents = sum(1 for p in s.solvent() if p != holder)
    count = sum(1 for x in GROUPS[sq.group] if owner[x] == holder)
    if sq.kind == "station":
        rent = float(STATION_RENTS[count - 1])
    elif sq.kind == "utility":
        rent = 7.0 * UTILITY_MULTIPLIERS[count - 1]
    elif count == len(GROUPS[sq.group]):
        level = max(s.level[square], MAX_HOUSES)  # a set will be built up
        rent = float(sq.rents[level]) * 0.8
    else:
        rent = float(sq.rents[0])
    return rent * LANDING * opponents


def rounds_left(s: MonopolState) -> int:
    limit = int(s.options.get("max_rounds") or 0)
    return max(3, min(HORIZON, limit - s.round)) if limit else HORIZON


def holdings(s: MonopolState, seat: int, owner: list[int]) -> float:
    """What ``seat``'s deeds are worth under ``owner``: their mortgage value and their rent to come."""
    horizon = rounds_left(s)
    return sum(SQUARES[sq].mortgage + income(s, sq, owner) * horizon for sq in DEEDS if owner[sq] == seat)


def sets_of(owner: list[int], seat: int) -> set[str]:
    return {g for g, squares in GROUPS.items() if SQUARES[squares[0]].kind == "street"
            and all(owner[x] == seat for x in squares)}


def completes(s: MonopolState, seat: int, square: int) -> bool:
    group = GROUPS[SQUARES[square].group]
    return all(s.owner[x] == seat for x in group if x != square)


def blocks(s: MonopolState, seat: int, square: int) -> bool:
    """Whether taking ``square`` stops another player from completing its set."""
    group = GROUPS[SQUARES[square].group]
    others = {s.owner[x] for x in group if x != square}
    return len(others) == 1 and next(iter(others)) not in (-1, seat)


def worth(s: MonopolState, seat: int, square: int) -> float:
    """What owning ``square`` adds for ``seat``: its own rent and what it does to its set."""
    owner = list(s.owner)
    before = holdings(s, seat, owner)
    owner[square] = seat
    value = holdings(s, seat, owner) - before
    if blocks(s, seat, square):
        value += SQUARES[square].price * 0.3
    return value


# ------------------------------------------------------------------ trades
def after_trade(s: MonopolState, proposer: int, trade: Trade) -> list[int]:
    owner = list(s.owner)
    for sq in trade.give.deeds:
        owner[sq] = trade.target
    for sq in trade.get.deeds:
        owner[sq] = proposer
    return owner


def good_trade(s: MonopolState, seat: int, trade: Trade, proposer: int) -> bool:
    """Accept when we gain by what the deeds will earn, and never hand a set over for nothing."""
    owner = after_trade(s, proposer, trade)
    gained_sets = sets_of(owner, seat) - sets_of(s.owner, seat)
    their_sets = sets_of(owner, proposer) - sets_of(s.owner, proposer)
    if their_sets and not gained_sets:
        return False
    mine = holdings(s, seat, owner) - holdings(s, seat, s.owner)
    theirs = holdings(s, proposer, owner) - holdings(s, proposer, s.owner)
    cash = trade.give.cash - trade.get.cash + JAIL_FINE * (trade.give.cards - trade.get.cards)
    if s.cash[seat] - trade.get.cash < RESERVE // 2:
        return False
    return mine + cash > 0.1 * abs(cash) + 20 and mine + cash >= theirs - cash


def offer(s: MonopolState, seat: int) -> list[Action]:
    """Once a round: buy the one street that completes a set of ours, at a price that pays the
    owner more than the street earns it, raised past every offer of that kind already declined."""
    if s.trade or s.offered[seat] >= s.round:
        return []
    declined = set(s.declined)
    for squares in GROUPS.values():
        missing = [sq for sq in squares if s.owner[sq] != seat]
        if len(missing) != 1 or SQUARES[missing[0]].kind != "street":
            continue
        square, other = missing[0], s.owner[missing[0]]
        if other < 0 or other == seat or s.bankrupt[other] or rules.set_has_buildings(s, square):
            continue
        owner = list(s.owner)
        owner[square] = seat
        gain = holdings(s, seat, owner) - holdings(s, seat, s.owner)
        loss = holdings(s, other, s.owner) - holdings(s, other, owner)
        price = int(max(SQUARES[square].price * 1.5, loss * 1.2)) // 10 * 10
        limit = min(int(gain * 0.7), s.cash[seat] - RESERVE)
        while price <= limit:
            trade = Trade(other, Bundle(cash=price), Bundle(deeds=(square,)))
            if str(trade) not in declined:
                return [trade]
            price += max(20, price // 5)
    return []


# ------------------------------------------------------------------ auctions and building
def bid(s: MonopolState, seat: int) -> Action:
    auction = s.auction
    assert auction is not None
    if auction.lot == "deed":
        limit = min(int(worth(s, seat, auction.square)), s.cash[seat] - RESERVE // 2)
    else:
        best = max((SQUARES[sq].house_cost for sq in STREETS if s.owner[sq] == seat), default=0)
        limit = min(2 * best, s.cash[seat] - RESERVE)
    low = max(AUCTION_START, auction.high + 1)
    if low > limit:
        return Simple("pass")
    return Bid(min(limit, max(low, auction.high + 10)))


def improve(s: MonopolState, seat: int) -> list[Action]:
    """Houses on our sets, the best-paying set first and evenly, up to three each, while the cash
    left covers the reserve; then lift mortgages."""
    out: list[Action] = []
    cash = s.cash[seat]
    groups = sorted(sets_of(s.owner, seat), key=lambda g: -SQUARES[GROUPS[g][0]].rents[MAX_HOUSES])
    for group in groups:
        if any(s.mortgaged[x] for x in GROUPS[group]):
            continue
        for sq in sorted(GROUPS[group], key=lambda x: (s.level[x], -SQUARES[x].rents[MAX_HOUSES])):
            limit = MAX_HOUSES if s.round < 30 else 5
            if s.level[sq] < limit and cash - SQUARES[sq].house_cost >= RESERVE:
                out.append(Buildings("build", sq, 1))
    for sq in DEEDS:
        if s.owner[sq] == seat and s.mortgaged[sq] and cash - rules.lift_cost(sq) >= RESERVE * 2:
            out.append(OnSquare("unmortgage", sq))
    return out
