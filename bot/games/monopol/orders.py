"""Monopol's standing orders, decided from the seat's observation (everything in Monopol is public
but the order of the decks, which no order looks at):

- ``max_bid`` (every auction) and ``group_max`` (per colour group, stations and utilities; it
  overrides ``max_bid`` for a deed of that group): while the auction's next bid is within the
  maximum and the seat's cash, bid it, raising as an auctioneer does (10 kr under 200, 25 under
  500, then 50; never past the maximum); else pass;
- ``decline_from``: decline a trade offered by one of these seats, or by anyone (``"all"``);
- ``buy_up_to``: buy the deed landed on when its price is at most this (buying what the seat cannot
  pay breaks a rule: the order is then dropped);
- ``auto_end``: end the turn when nothing is left to do (ending is the only move the game lists,
  leaving out trade offers).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.orders import Decision
from bot.games.monopol.board import AUCTION_START, GROUPS, SQUARES

KINDS = ("max_bid", "group_max", "decline_from", "buy_up_to", "auto_end")
GROUP_NAMES = tuple(GROUPS)


def group_places(group: str) -> str:
    """A colour group in words every language shares: its squares' names."""
    return ", ".join(SQUARES[sq].name for sq in GROUPS.get(group, ()))


def step(high: int) -> int:
    """How much an order raises the best bid by."""
    return 10 if high < 200 else 25 if high < 500 else 50


def _busy(pub: Mapping[str, Any]) -> bool:
    """Something comes before the turn and the auction: a debt, a building to place, a mortgage choice."""
    return bool(pub["debts"] or pub["placement"] or pub["choices"])


def cap_for(orders: Mapping[str, Any], auction: Mapping[str, Any]) -> tuple[int, str] | None:
    """The maximum the orders allow for this auction's lot, and the order that sets it."""
    groups = orders.get("group_max") or {}
    if auction["lot"] == "deed" and 0 <= int(auction["square"]) < len(SQUARES):
        group = SQUARES[int(auction["square"])].group
        if group in groups:
            return int(groups[group]), f"group_max.{group}"
    if orders.get("max_bid") is not None:
        return int(orders["max_bid"]), "max_bid"
    return None


def decide(orders: Mapping[str, Any], obs: Mapping[str, Any], legal: Sequence[str], seat: int) -> Decision | None:
    pub = obs["public"]
    trade = pub.get("trade")
    declines = orders.get("decline_from")
    if trade and trade["target"] == seat and declines and (declines == "all" or trade["proposer"] in declines):
        return Decision("decline trade", "decline_from")
    auction = pub.get("auction")
    if auction and not _busy(pub) and seat in auction["eligible"] and seat != auction["bidder"] \
            and seat not in auction["passed"] and not pub["bankrupt"][seat]:
        found = cap_for(orders, auction)
        if found is not None:
            cap, kind = found
            high = int(auction["high"])
            low = max(AUCTION_START, high + 1)
            bid = min(cap, int(pub["cash"][seat]), max(low, high + step(high)))
            return Decision(f"bid {bid}" if bid >= low else "pass", kind)
    if pub["turn"] != seat or _busy(pub) or auction:
        return None
    if pub["phase"] == "buy" and orders.get("buy_up_to") is not None:
        square = SQUARES[int(pub["position"][seat])]
        if square.price <= int(orders["buy_up_to"]):
            return Decision("buy", "buy_up_to")
    if pub["phase"] == "end" and orders.get("auto_end") and not (trade and trade["target"] == seat):
        if [a for a in legal if not a.startswith("trade ") and a != "claim"] == ["end"]:
            return Decision("end", "auto_end")
    return None
