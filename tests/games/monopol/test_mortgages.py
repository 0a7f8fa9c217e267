"""Monopol mortgages: a mortgaged deed received in a trade waits for its decision (lift or keep)."""
from __future__ import annotations

import pytest

from bot.errors import IllegalAction

from .helpers import act, new, own


def _received_mortgaged_deed():
    s = new(3)
    own(s, 0, 6)
    s.mortgaged[6] = True
    act(s, 0, "trade 1 give:6 get:c10")
    act(s, 1, "accept")
    assert s.owner[6] == 1 and [(c.seat, c.square) for c in s.choices] == [(1, 6)]
    return s


def test_a_received_mortgaged_deed_waits_for_its_decision_before_anything_else() -> None:
    s = _received_mortgaged_deed()
    with pytest.raises(IllegalAction, match="deed_undecided"):
        act(s, 1, "trade 2 give:6 get:c10")  # cannot be offered on
    with pytest.raises(IllegalAction, match="deed_undecided"):
        act(s, 2, "trade 1 give:c100 get:6")  # nor asked for
    with pytest.raises(IllegalAction):
        act(s, 0, "unmortgage 6")  # the old owner owns it no more
    with pytest.raises(IllegalAction):
        act(s, 1, "unmortgage 6")  # the decision is lift or keep, nothing else
    act(s, 1, "keep-mortgage 6")
    assert s.mortgaged[6] and s.cash[1] == 1500 - 10 - 5 and not s.choices
    act(s, 1, "trade 2 give:6 get:c10")  # decided: now it may change hands again


def test_an_old_offer_of_an_undecided_deed_cannot_be_accepted() -> None:
    s = new(3)
    own(s, 0, 6)
    s.mortgaged[6] = True
    act(s, 0, "trade 1 give:6 get:c10")
    act(s, 1, "accept")
    s.trade = None
    # a stale offer made before is refused on acceptance too
    from bot.games.monopol.state import PendingTrade
    s.trade = PendingTrade(proposer=1, text="trade 2 give:6 get:c10")
    with pytest.raises(IllegalAction, match="deed_undecided"):
        act(s, 2, "accept")
