"""The turn: rolling (doubles, three doubles to jail), getting out of jail, buying or declining
the deed landed on (declined: the bank auctions it), ending the turn, and the end by the clock
(option end_time) or by rounds (option max_rounds)."""
from __future__ import annotations

from bot.engine.core import TIMER, Event
from bot.errors import NotYourTurn
from bot.games.monopol import rules
from bot.games.monopol.auctions import open_deed_auction
from bot.games.monopol.board import CARDS, SQUARES
from bot.games.monopol.money import BANK, Perform, fee, illegal, pay
from bot.games.monopol.movement import after_landing, move, to_jail
from bot.games.monopol.state import BUY, END, ROLL, MonopolState


def turn_check(s: MonopolState, seat: int, phase: str) -> None:
    if seat != s.turn:
        raise NotYourTurn()
    if s.debts or s.placement or s.choices or s.auction:
        raise illegal("busy")
    if s.phase != phase:
        raise illegal("not_now")


def do_roll(s: MonopolState, seat: int) -> Perform:
    turn_check(s, seat, ROLL)

    def run(events: list[Event]) -> None:
        for claim in [c for c in s.claims if c.payer != seat]:
            events.append(Event("monopol.event.claim_lapsed", {"owner_seat": claim.owner,
                                                               "seat": claim.payer, "amount": claim.amount}))
        s.claims = [c for c in s.claims if c.payer == seat]
        d1, d2 = s.rng.die(), s.rng.die()
        s.last_roll = [d1, d2]
        events.append(Event("monopol.event.roll", {"seat": seat, "d1": d1, "d2": d2, "total": d1 + d2}))
        if s.in_jail[seat]:
            jail_roll(s, seat, d1, d2, events)
            return
        if d1 == d2:
            s.doubles += 1
            if s.doubles == 3:
                events.append(Event("monopol.event.third_double", {"seat": seat}))
                to_jail(s, seat, events)
                return
        else:
            s.doubles = 0
        move(s, seat, d1 + d2, events)
    return run


def jail_roll(s: MonopolState, seat: int, d1: int, d2: int, events: list[Event]) -> None:
    if d1 == d2:
        s.in_jail[seat] = False
        s.jail_tries[seat] = 0
        s.doubles = 0  # out with a double, but no extra roll
        events.append(Event("monopol.event.jail_out_double", {"seat": seat}))
        move(s, seat, d1 + d2, events)
        return
    s.jail_tries[seat] += 1
    if s.jail_tries[seat] < 3:
        events.append(Event("monopol.event.jail_stay", {"seat": seat, "tries": s.jail_tries[seat]}))
        s.phase = END
        return
    s.in_jail[seat] = False
    s.jail_tries[seat] = 0
    s.doubles = 0
    fine = rules.jail_fine(s)
    events.append(Event("monopol.event.jail_forced_fine", {"seat": seat, "amount": fine}))
    fee(s, seat, fine, events)
    move(s, seat, d1 + d2, events)


def do_jail_pay(s: MonopolState, seat: int) -> Perform:
    turn_check(s, seat, ROLL)
    if not s.in_jail[seat]:
        raise illegal("not_in_jail", "jail")
    fine = rules.jail_fine(s)
    if s.cash[seat] < fine:
        raise illegal("cannot_afford", "jail", amount=fine)

    def run(events: list[Event]) -> None:
        fee(s, seat, fine, events, now=True)
        s.in_jail[seat] = False
        s.jail_tries[seat] = 0
        events.append(Event("monopol.event.jail_pay", {"seat": seat, "amount": fine}))
    return run


def do_jail_card(s: MonopolState, seat: int) -> Perform:
    turn_check(s, seat, ROLL)
    if not s.in_jail[seat]:
        raise illegal("not_in_jail", "jail")
    if not s.jail_cards[seat]:
        raise illegal("no_jail_card", "jail")

    def run(events: list[Event]) -> None:
        card = s.jail_cards[seat].pop(0)
        s.decks[CARDS[card].deck].append(card)  # back under its own deck
        s.in_jail[seat] = False
        s.jail_tries[seat] = 0
        events.append(Event("monopol.event.jail_card", {"seat": seat}))
    return run


def do_buy(s: MonopolState, seat: int) -> Perform:
    turn_check(s, seat, BUY)
    square = s.position[seat]
    price = SQUARES[square].price
    if s.cash[seat] < price:
        raise illegal("cannot_afford", "buying", amount=price)

    def run(events: list[Event]) -> None:
        pay(s, seat, BANK, price)
        s.owner[square] = seat
        events.append(Event("monopol.event.buy", {"seat": seat, "square": square,
                                                  "place": SQUARES[square].name, "amount": price}))
        s.phase = after_landing(s, seat)
    return run


def do_decline(s: MonopolState, seat: int) -> Perform:
    turn_check(s, seat, BUY)
    square = s.position[seat]

    def run(events: list[Event]) -> None:
        s.phase = after_landing(s, seat)
        open_deed_auction(s, square, events)
    return run


def do_end(s: MonopolState, seat: int) -> Perform:
    turn_check(s, seat, END)

    def run(events: list[Event]) -> None:
        advance_turn(s, events)
    return run


def do_time_up(s: MonopolState, seat: int) -> Perform:
    """The agreed end time (option end_time) has passed: the game ends by net worth."""
    if seat != TIMER:
        raise illegal("time_up_timer_only", "winning")

    def run(events: list[Event]) -> None:
        s.finished = "monopol.end.time"
        s.auction = None
        events.append(Event("monopol.event.time_up", {}))
    return run


def advance_turn(s: MonopolState, events: list[Event]) -> None:
    seat = s.turn
    for step in range(1, s.players + 1):
        nxt = (seat + step) % s.players
        if not s.bankrupt[nxt]:
            break
    first = s.first
    if (nxt - first) % s.players <= (seat - first) % s.players:  # the turn passes the first seat
        limit = int(s.options.get("max_rounds", 0))
        if limit and s.round >= limit:
            s.finished = "monopol.end.rounds"
            s.auction = None
            events.append(Event("monopol.event.rounds_over", {"rounds": limit}))
            return
        s.round += 1
    s.turn, s.phase, s.doubles = nxt, ROLL, 0
    events.append(Event("monopol.event.turn", {"seat": nxt}))
