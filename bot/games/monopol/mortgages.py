"""Mortgages: mortgaging a deed without buildings in its set, lifting the mortgage (value plus
10 %), and the decision on a mortgaged deed received from another player (lift now, or keep it
mortgaged and pay the 10 % interest)."""
from __future__ import annotations

from bot.engine.core import Event
from bot.errors import NotYourTurn
from bot.games.monopol import rules
from bot.games.monopol.board import SQUARES, interest
from bot.games.monopol.building import free_check
from bot.games.monopol.money import BANK, Perform, bank_pays, charge, illegal, pay
from bot.games.monopol.state import MonopolState


def own_deed(s: MonopolState, seat: int, square: int, topic: str) -> None:
    if not SQUARES[square].is_deed:
        raise illegal("not_a_deed", topic)
    if s.owner[square] != seat:
        raise illegal("not_owner", topic)


def do_mortgage(s: MonopolState, seat: int, square: int) -> Perform:
    free_check(s, seat)
    own_deed(s, seat, square, "mortgage")
    if rules.undecided(s, square):
        raise illegal("deed_undecided", "mortgage", place=SQUARES[square].name)
    if s.mortgaged[square]:
        raise illegal("mortgaged", "mortgage")
    if rules.set_has_buildings(s, square):
        raise illegal("has_buildings", "mortgage")

    def run(events: list[Event]) -> None:
        s.mortgaged[square] = True
        amount = SQUARES[square].mortgage
        bank_pays(s, seat, amount)
        events.append(Event("monopol.event.mortgage", {"seat": seat, "square": square,
                                                       "place": SQUARES[square].name, "amount": amount}))
    return run


def do_unmortgage(s: MonopolState, seat: int, square: int) -> Perform:
    free_check(s, seat)
    own_deed(s, seat, square, "mortgage")
    if rules.in_debt(s, seat):
        raise illegal("in_debt", "debt")
    if not s.mortgaged[square]:
        raise illegal("not_mortgaged", "mortgage")
    if any(c.square == square for c in s.choices):
        raise illegal("choose_first", "mortgage")
    cost = rules.lift_cost(square)
    if s.cash[seat] < cost:
        raise illegal("cannot_afford", "mortgage", amount=cost)

    return lambda events: lift_mortgage(s, seat, square, cost, events)


def lift_mortgage(s: MonopolState, seat: int, square: int, cost: int, events: list[Event]) -> None:
    s.mortgaged[square] = False
    pay(s, seat, BANK, cost)
    events.append(Event("monopol.event.unmortgage", {"seat": seat, "square": square,
                                                     "place": SQUARES[square].name, "amount": cost}))


def choice_check(s: MonopolState, seat: int, square: int) -> None:
    if s.debts or s.placement or not s.choices:
        raise illegal("no_choice", "mortgage")
    head = s.choices[0]
    if head.seat != seat or s.owner[head.square] != seat:
        raise NotYourTurn()
    if head.square != square:
        raise illegal("choose_other", "mortgage", square=head.square, place=SQUARES[head.square].name)


def do_lift(s: MonopolState, seat: int, square: int) -> Perform:
    choice_check(s, seat, square)
    cost = rules.lift_cost(square)
    if s.cash[seat] < cost:
        raise illegal("cannot_afford", "mortgage", amount=cost)

    def run(events: list[Event]) -> None:
        s.choices.pop(0)
        lift_mortgage(s, seat, square, cost, events)
    return run


def do_keep_mortgage(s: MonopolState, seat: int, square: int) -> Perform:
    choice_check(s, seat, square)

    def run(events: list[Event]) -> None:
        s.choices.pop(0)
        amount = interest(square)
        events.append(Event("monopol.event.keep_mortgage", {"seat": seat, "square": square,
                                                            "place": SQUARES[square].name, "amount": amount}))
        charge(s, seat, BANK, amount, events)
    return run
