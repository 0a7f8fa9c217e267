"""Round the board: moving, passing Start, landing (buying, rent, tax, cards), jail, rent claims
(option rent_must_be_claimed) and the Sjanse and Prøv lykken cards."""
from __future__ import annotations

from bot.engine.core import Event
from bot.games.monopol import rules
from bot.games.monopol.board import CARDS, DECKS, GO_TO_JAIL, HOTEL, JAIL, PASS_START, SQUARES
from bot.games.monopol.money import Perform, bank_pays, charge, fee, illegal, owe, pay
from bot.games.monopol.state import BUY, END, ROLL, Claim, MonopolState


def move(s: MonopolState, seat: int, steps: int, events: list[Event]) -> None:
    target = (s.position[seat] + steps) % 40
    go(s, seat, target, events)


def go(s: MonopolState, seat: int, target: int, events: list[Event], *, card: bool = False) -> None:
    """Move forwards to ``target`` (collecting on passing Start), then resolve the square."""
    if target < s.position[seat] or (target == 0 and s.position[seat] != 0):
        # house rule double_start: landing right on Start pays the salary twice
        double = target == 0 and bool(s.options.get("double_start"))
        salary = PASS_START * 2 if double else PASS_START
        bank_pays(s, seat, salary)
        events.append(Event("monopol.event.land_start" if double else "monopol.event.pass_start",
                            {"seat": seat, "amount": salary}))
    s.position[seat] = target
    key = "monopol.event.visit" if target == JAIL else "monopol.event.move"  # landing on jail is a visit
    events.append(Event(key, {"seat": seat, "square": target, "place": SQUARES[target].name}))
    land(s, seat, events, card=card)


def land(s: MonopolState, seat: int, events: list[Event], *, card: bool = False) -> None:
    square = s.position[seat]
    sq = SQUARES[square]
    s.phase = after_landing(s, seat)
    if sq.is_deed:
        owner = s.owner[square]
        if owner < 0:
            s.phase = BUY
        elif owner != seat and not s.mortgaged[square]:
            dice = sum(s.last_roll)
            if card and sq.kind == "utility":
                dice = s.rng.die() + s.rng.die()
                events.append(Event("monopol.event.utility_roll", {"seat": seat, "total": dice}))
            amount = rules.rent(s, square, dice, card=card)
            if s.options.get("rent_must_be_claimed"):
                s.claims.append(Claim(seat, owner, square, amount))
                events.append(Event("monopol.event.claimable", {"seat": seat, "owner_seat": owner,
                                                                "place": sq.name, "amount": amount}))
            else:
                rent_paid(s, seat, owner, square, amount, events)
    elif sq.kind == "tax":
        events.append(Event("monopol.event.tax", {"seat": seat, "place": sq.name, "amount": sq.amount}))
        fee(s, seat, sq.amount, events)
    elif sq.kind == "parking" and s.pot:
        # house rule free_parking_jackpot: the pot in the middle goes to whoever lands here
        bank_pays(s, seat, s.pot)
        events.append(Event("monopol.event.jackpot", {"seat": seat, "amount": s.pot}))
        s.pot = 0
    elif sq.kind in DECKS:
        draw(s, seat, sq.kind, events)
    elif square == GO_TO_JAIL:
        to_jail(s, seat, events)


def after_landing(s: MonopolState, seat: int) -> str:
    return ROLL if s.doubles and not s.in_jail[seat] else END


def to_jail(s: MonopolState, seat: int, events: list[Event]) -> None:
    # straight to jail: never passes Start
    s.position[seat] = JAIL
    s.in_jail[seat] = True
    s.jail_tries[seat] = 0
    s.doubles = 0
    if seat == s.turn:
        s.phase = END
    events.append(Event("monopol.event.to_jail", {"seat": seat}))


def rent_paid(s: MonopolState, payer: int, owner: int, square: int, amount: int, events: list[Event]) -> None:
    events.append(Event("monopol.event.rent", {"seat": payer, "owner_seat": owner,
                                               "place": SQUARES[square].name, "amount": amount}))
    charge(s, payer, owner, amount, events)


def do_claim(s: MonopolState, seat: int) -> Perform:
    mine = [c for c in s.claims if c.owner == seat]
    if not mine:
        raise illegal("no_claim", "rent")

    def run(events: list[Event]) -> None:
        s.claims = [c for c in s.claims if c.owner != seat]
        for claim in mine:
            rent_paid(s, claim.payer, seat, claim.square, claim.amount, events)
    return run


def draw(s: MonopolState, seat: int, deck: str, events: list[Event]) -> None:
    card_id = s.decks[deck].pop(0)
    card = CARDS[card_id]
    events.append(Event(f"monopol.card.{card_id}", {"seat": seat}))
    if card.effect == "jail_free":
        s.jail_cards[seat].append(card_id)  # kept until used or traded
    else:
        s.decks[deck].append(card_id)
    params = card.params
    if card.effect == "advance":
        go(s, seat, int(params["square"]), events)
    elif card.effect == "nearest":
        square = s.position[seat]
        kind = str(params["kind"])
        while True:
            square = (square + 1) % 40
            if SQUARES[square].kind == kind:
                break
        go(s, seat, square, events, card=True)
    elif card.effect == "collect":
        bank_pays(s, seat, int(params["amount"]))
    elif card.effect == "pay":
        fee(s, seat, int(params["amount"]), events)
    elif card.effect == "back":
        s.position[seat] = (s.position[seat] - int(params["steps"])) % 40
        events.append(Event("monopol.event.move", {"seat": seat, "square": s.position[seat],
                                                   "place": SQUARES[s.position[seat]].name}))
        land(s, seat, events)
    elif card.effect == "go_to_jail":
        to_jail(s, seat, events)
    elif card.effect == "repairs":
        houses = sum(lv for sq, lv in enumerate(s.level) if s.owner[sq] == seat and lv < HOTEL)
        hotels = sum(1 for sq, lv in enumerate(s.level) if s.owner[sq] == seat and lv == HOTEL)
        amount = houses * int(params["house"]) + hotels * int(params["hotel"])
        if amount:
            fee(s, seat, amount, events)
    elif card.effect == "pay_each":
        # each player gets an equal share: all at once, or each a debt of the same size
        others = [other for other in s.solvent() if other != seat]
        amount = int(params["amount"])
        if s.cash[seat] >= amount * len(others) and not rules.in_debt(s, seat):
            for other in others:
                pay(s, seat, other, amount)
        else:
            for other in others:
                owe(s, seat, other, amount, events)
    elif card.effect == "collect_each":
        for other in s.solvent():
            if other != seat:
                charge(s, other, seat, int(params["amount"]), events)
