"""Money changing hands: payments between players and the bank, and debts when the cash is not
there (the debtor must raise money or go bankrupt; ``bankruptcy.settle`` pays debts later).

Every ``do_*`` function of the Monopol modules validates an action completely (raising
IllegalAction or NotYourTurn before anything changes) and returns a ``Perform``: the closure
that then carries it out, appending its events.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engine.core import Event
from bot.errors import IllegalAction
from bot.games.monopol import rules
from bot.games.monopol.state import Debt, MonopolState

BANK = -1
Perform = Callable[[list[Event]], None]


def illegal(code: str, topic: str = "", **params: Any) -> IllegalAction:
    return IllegalAction(f"monopol.error.{code}", topic=topic or None, **params)


def pay(s: MonopolState, payer: int, creditor: int, amount: int) -> None:
    s.cash[payer] -= amount
    if creditor == BANK:
        s.bank += amount
    else:
        s.cash[creditor] += amount


def bank_pays(s: MonopolState, seat: int, amount: int) -> None:
    s.cash[seat] += amount
    s.bank -= amount


def charge(s: MonopolState, payer: int, creditor: int, amount: int, events: list[Event]) -> None:
    """Pay now if possible; otherwise the payer owes it and must raise money (or go bankrupt)."""
    if amount <= 0:
        return
    if s.cash[payer] >= amount and not rules.in_debt(s, payer):
        pay(s, payer, creditor, amount)
        return
    owe(s, payer, creditor, amount, events)


def fee(s: MonopolState, payer: int, amount: int, events: list[Event], *, now: bool = False) -> None:
    """A tax, fine or card fee, owed to the bank. With the house rule free_parking_jackpot the
    amount also goes into the pot in the middle, as it falls due (the bank fronts it when the
    payer must first raise the money), and the next player to land on Gratis parkering takes it.
    ``now``: the payer was checked to have the cash (paying a jail fine by choice)."""
    if now:
        pay(s, payer, BANK, amount)
    else:
        charge(s, payer, BANK, amount, events)
    if amount > 0 and s.options.get("free_parking_jackpot"):
        s.pot += amount


def owe(s: MonopolState, payer: int, creditor: int, amount: int, events: list[Event]) -> None:
    s.debts.append(Debt(payer, creditor, amount))
    if creditor == BANK:
        events.append(Event("monopol.event.debt_bank", {"seat": payer, "amount": amount}))
    else:
        events.append(Event("monopol.event.debt", {"seat": payer, "target": creditor, "amount": amount}))
