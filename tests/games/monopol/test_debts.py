"""Monopol debts: "pay each player" pays each a share, and debts to several players are paid together."""
from __future__ import annotations

import pytest

from bot.errors import IllegalAction

from .helpers import act, dice, keys, new, own


def _pay_each_card(cash: int, players: int = 4):
    s = new(players)
    s.cash[0] = cash
    s.bank = -sum(s.cash)
    s.decks["sjanse"].remove("s15")
    s.decks["sjanse"].insert(0, "s15")
    dice(s, 3, 4)
    events = act(s, 0, "roll")  # square 7: Sjanse
    return s, events


def test_pay_each_player_card_gives_every_player_their_share() -> None:
    s, _ = _pay_each_card(1000)
    assert s.cash == [850, 1550, 1550, 1550] and not s.debts


def test_pay_each_player_card_never_pays_one_creditor_before_the_others() -> None:
    s, _ = _pay_each_card(100)  # owes 3 x 50 = 150 with 100 in cash
    assert s.cash == [100, 1500, 1500, 1500]
    assert sorted((d.creditor, d.amount) for d in s.debts) == [(1, 50), (2, 50), (3, 50)]
    own(s, 0, 6)  # Kongens gate, mortgage 50: 150 would cover every share
    with pytest.raises(IllegalAction, match="can_still_pay"):
        act(s, 0, "bankrupt")


def test_a_bankrupt_owing_several_players_shares_out_and_no_one_takes_everything() -> None:
    s, _ = _pay_each_card(90)
    own(s, 0, 1)
    events = act(s, 0, "bankrupt")
    assert s.bankrupt[0]
    assert s.cash[1:] == [1530, 1530, 1530]  # 90 shared equally
    assert "monopol.event.share" in keys(events) and s.owner[1] == -1
    assert s.auction is not None and s.auction.square == 1  # the deed goes to the bank's auction


def test_debts_to_several_players_are_paid_together_once_the_money_is_there() -> None:
    s, _ = _pay_each_card(100)
    own(s, 0, 6)  # Kongens gate, mortgage 50: 150 in cash covers every share
    act(s, 0, "mortgage 6")
    assert not s.debts and s.cash == [0, 1550, 1550, 1550]
