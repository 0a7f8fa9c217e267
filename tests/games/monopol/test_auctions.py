"""Monopol auctions: an auction closes only by itself, once every other solvent player has bid or passed."""
from __future__ import annotations

import pytest

from bot.errors import IllegalAction

from .helpers import act, auctioned


def test_auction_closes_only_when_every_other_solvent_player_has_bid_or_passed() -> None:
    s = auctioned(3)
    act(s, 1, "bid 40")
    for seat in (0, 1, 2):  # neither the leader nor anyone else may close it
        with pytest.raises(IllegalAction, match="auction_timer_only"):
            act(s, seat, "auction close")
    assert s.auction is not None and s.auction.high == 40
    act(s, 0, "pass")
    assert s.auction is not None  # seat 2 has neither bid nor passed
    act(s, 2, "bid 50")
    act(s, 0, "pass")
    assert s.auction is not None  # seat 1 has not answered the new bid yet
    act(s, 1, "pass")
    assert s.auction is None and s.owner[3] == 2 and s.cash[2] == 1450
