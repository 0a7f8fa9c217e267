"""Questions about a Monopol position that change nothing: rent, what may be built or sold, worth.

Building plans answer "which streets get the next ``count`` buildings" under the even-building
rule: the named street first, then always the lowest (building) or highest (selling) street of
the set. A plan is a list of squares or an error code.
"""
from __future__ import annotations

from bot.games.monopol.actions import Bundle, Trade, parse_action
from bot.games.monopol.board import (
    AUCTION_START,
    GROUPS,
    HOTEL,
    JAIL_FINE,
    SQUARES,
    STATION_RENTS,
    UTILITY_MULTIPLIERS,
    interest,
)
from bot.games.monopol.state import MonopolState


def owns_set(s: MonopolState, group: str, seat: int) -> bool:
    return all(s.owner[sq] == seat for sq in GROUPS[group])


def count_owned(s: MonopolState, group: str, seat: int) -> int:
    return sum(1 for sq in GROUPS[group] if s.owner[sq] == seat)


def set_has_buildings(s: MonopolState, square: int) -> bool:
    group = SQUARES[square].group
    return SQUARES[square].kind == "street" and any(s.level[sq] for sq in GROUPS[group])


def rent(s: MonopolState, square: int, dice: int, *, card: bool = False) -> int:
    """What landing on an owned, unmortgaged deed costs. ``card``: a "nearest" card's terms
    (double station rent, 10x the dice for a utility)."""
    sq = SQUARES[square]
    owner = s.owner[square]
    if sq.kind == "station":
        base = STATION_RENTS[count_owned(s, sq.group, owner) - 1]
        return base * 2 if card else base
    if sq.kind == "utility":
        multiplier = UTILITY_MULTIPLIERS[-1] if card else UTILITY_MULTIPLIERS[count_owned(s, sq.group, owner) - 1]
        return multiplier * dice
    level = s.level[square]
    if level == 0 and owns_set(s, sq.group, owner):
        # the whole set doubles unbuilt rent, even when another street of it is mortgaged
        return sq.rents[0] * 2
    return sq.rents[level]


def jail_fine(s: MonopolState) -> int:
    """The fine to leave jail (house rule jail_fine; the printed rules: kr 50)."""
    return int(s.options.get("jail_fine", JAIL_FINE))


def even_building(s: MonopolState) -> bool:
    """Whether a set must be built and sold evenly (house rule even_building off: any street)."""
    return bool(s.options.get("even_building", True))


def _can_take_building(s: MonopolState, seat: int, square: int, levels: list[int]) -> str | None:
    sq = SQUARES[square]
    if sq.kind != "street":
        return "monopol.error.not_a_street"
    if s.owner[square] != seat:
        return "monopol.error.not_owner"
    if not owns_set(s, sq.group, seat):
        return "monopol.error.not_full_set"
    if any(s.mortgaged[x] for x in GROUPS[sq.group]):
        return "monopol.error.set_mortgaged"
    if levels[square] >= HOTEL:
        return "monopol.error.max_level"
    if even_building(s) and levels[square] > min(levels[x] for x in GROUPS[sq.group]):
        return "monopol.error.uneven"
    return None


def build_plan(s: MonopolState, seat: int, square: int, count: int, *,
               check_stock: bool = True) -> list[int] | str:
    """Squares that get the next ``count`` buildings, or an error code."""
    levels = list(s.level)
    houses, hotels = s.bank_houses, s.bank_hotels
    group = GROUPS.get(SQUARES[square].group, (square,))
    plan: list[int] = []
    for step in range(count):
        target = square if step == 0 or not even_building(s) else min(group, key=lambda x: (levels[x], x))
        problem = _can_take_building(s, seat, target, levels)
        if problem:
            return problem
        if levels[target] == HOTEL - 1:
            hotels -= 1
            houses += 4
        else:
            houses -= 1
        if check_stock and houses < 0:
            return "monopol.error.no_houses"
        if check_stock and hotels < 0:
            return "monopol.error.no_hotels"
        levels[target] += 1
        plan.append(target)
    return plan


def sell_plan(s: MonopolState, seat: int, square: int, count: int) -> list[int] | str:
    """Squares that lose the next ``count`` buildings (evenly, highest first), or an error code."""
    sq = SQUARES[square]
    if sq.kind != "street":
        return "monopol.error.not_a_street"
    if s.owner[square] != seat:
        return "monopol.error.not_owner"
    levels = list(s.level)
    plan: list[int] = []
    for step in range(count):
        target = square if step == 0 or not even_building(s) else max(GROUPS[sq.group],
                                                                         key=lambda x: (levels[x], -x))
        if levels[target] == 0:
            return "monopol.error.nothing_to_sell"
        if even_building(s) and levels[target] < max(levels[x] for x in GROUPS[sq.group]):
            return "monopol.error.uneven"
        levels[target] -= 1
        plan.append(target)
    return plan


def sell_levels(s: MonopolState, square: int, plan: list[int]) -> dict[int, int]:
    """The set's levels after selling the buildings in ``plan``. A hotel sold becomes 4 houses
    from the bank; when the bank has too few, the set goes down further, evenly (highest street
    first), until the houses left on it fit the bank's stock: the set always stays even."""
    group = GROUPS[SQUARES[square].group]
    levels = {x: s.level[x] for x in group}
    for target in plan:
        levels[target] -= 1

    def houses(values: dict[int, int]) -> int:
        return sum(v for v in values.values() if v < HOTEL)

    before = houses({x: s.level[x] for x in group})
    while houses(levels) - before > s.bank_houses:
        levels[max(group, key=lambda x: (levels[x], -x))] -= 1
    return levels


def undecided(s: MonopolState, square: int) -> bool:
    """A mortgaged deed its new owner has not yet decided on (lift, or pay 10 % and keep it):
    nothing else may happen to it until then."""
    return any(c.square == square for c in s.choices)


def owed(s: MonopolState, seat: int) -> int:
    """Everything ``seat`` owes now (a card may make it owe every other player a share)."""
    return sum(d.amount for d in s.debts if d.debtor == seat)


def building_units(s: MonopolState, square: int) -> int:
    """Buildings on a street counted in house prices (a hotel is 5)."""
    return s.level[square]


def liquidation_value(s: MonopolState, seat: int) -> int:
    """Cash plus everything the bank would pay now: half the buildings, every free mortgage."""
    value = s.cash[seat]
    for sq in SQUARES:
        if sq.is_deed and s.owner[sq.index] == seat:
            value += building_units(s, sq.index) * sq.house_cost // 2
            if not s.mortgaged[sq.index]:
                value += sq.mortgage
    return value


def net_worth(s: MonopolState, seat: int) -> int:
    """Cash + deed prices (mortgaged at half) + what the buildings cost."""
    worth = s.cash[seat]
    for sq in SQUARES:
        if sq.is_deed and s.owner[sq.index] == seat:
            worth += sq.price // 2 if s.mortgaged[sq.index] else sq.price
            worth += building_units(s, sq.index) * sq.house_cost
    return worth


def lift_cost(square: int) -> int:
    return SQUARES[square].mortgage + interest(square)


def can_build_lot(s: MonopolState, seat: int, lot: str) -> list[int]:
    """Streets where ``seat`` could put one house (lot "house") or a hotel now, stock aside."""
    options = []
    for square in (x for g in GROUPS.values() for x in g):
        if s.owner[square] != seat or SQUARES[square].kind != "street":
            continue
        if _can_take_building(s, seat, square, s.level) is None:
            if (s.level[square] == HOTEL - 1) == (lot == "hotel"):
                options.append(square)
    return sorted(options)


def shortage_bidders(s: MonopolState, lot: str) -> list[int]:
    """Players who could use the lot now and afford the opening bid."""
    return [seat for seat in s.solvent()
            if s.cash[seat] >= AUCTION_START and can_build_lot(s, seat, lot)]


def bidders(s: MonopolState) -> list[int]:
    """Seats that still have to bid or pass in the open auction."""
    if s.auction is None:
        return []
    return [e for e in s.auction.eligible
            if e != s.auction.bidder and e not in s.auction.passed and not s.bankrupt[e]]


def in_debt(s: MonopolState, seat: int) -> bool:
    return any(d.debtor == seat for d in s.debts)


def trade_of(s: MonopolState) -> Trade:
    """The pending trade as an action (the state keeps its canonical text)."""
    assert s.trade is not None
    trade = parse_action(s.trade.text)
    assert isinstance(trade, Trade)
    return trade


def describe(bundle: Bundle) -> str:
    """A language-neutral summary of one side of a trade (street names are Norwegian everywhere)."""
    parts = [f"{bundle.cash} kr"] if bundle.cash else []
    parts += [SQUARES[d].name for d in bundle.deeds]
    parts += [f"{bundle.cards}× 🔑"] if bundle.cards else []
    return ", ".join(parts) or "–"


def acting(s: MonopolState) -> set[int]:
    """Who must act now: interrupts first (debt, building to place, mortgage choice, auction),
    then the turn's seat; a pending trade adds its receiver."""
    if s.finished:
        return set()
    seats: set[int] = set()
    if s.debts:
        seats.add(s.debts[0].debtor)
    elif s.placement:
        seats.add(int(s.placement["seat"]))
    elif s.choices:
        seats.add(s.choices[0].seat)
    elif s.auction:
        seats.update(bidders(s))
    else:
        seats.add(s.turn)
    if s.trade:
        seats.add(trade_of(s).target)
    return seats
