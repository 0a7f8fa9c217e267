"""Monopol buildings: selling keeps a colour set even, whatever houses the bank has left."""
from __future__ import annotations

from bot.games.monopol.board import HOTEL

from .helpers import act, keys, new, own

LIGHT_BLUE = (6, 8, 9)


def _hotel_set(bank_houses: int):
    s = new(2)
    own(s, 0, *LIGHT_BLUE)
    for square in LIGHT_BLUE:
        s.level[square] = HOTEL
    s.bank_hotels -= 3
    s.bank_houses = bank_houses
    s.bank = -sum(s.cash)  # conserved money: the test set the buildings up without paying
    return s


def test_selling_a_hotel_without_enough_bank_houses_sells_the_set_down_evenly() -> None:
    s = _hotel_set(bank_houses=2)
    events = act(s, 0, "sell 6 1")
    levels = [s.level[sq] for sq in LIGHT_BLUE]
    assert max(levels) - min(levels) <= 1 and sum(lv for lv in levels if lv < HOTEL) <= 2
    assert levels == [0, 1, 1] and s.bank_houses == 0 and s.bank_hotels == 12
    assert "monopol.event.sell_shortage" in keys(events)
    assert s.cash[0] == 1500 + 13 * 50 // 2  # 13 buildings sold at half the house price


def test_selling_a_hotel_with_houses_in_the_bank_breaks_it_into_four() -> None:
    s = _hotel_set(bank_houses=10)
    act(s, 0, "sell 6 1")
    assert [s.level[sq] for sq in LIGHT_BLUE] == [4, 5, 5] and s.bank_houses == 6


def test_selling_with_an_empty_bank_clears_the_set_never_leaving_it_uneven() -> None:
    s = _hotel_set(bank_houses=0)
    act(s, 0, "sell 6 1")
    assert [s.level[sq] for sq in LIGHT_BLUE] == [0, 0, 0] and s.bank_hotels == 12
