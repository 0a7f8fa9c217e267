"""Tölp's standing orders, decided from the seat's observation (its own hand and the table):

- ``tolp_pass``: pass when I cannot beat the trick on the table (``"cannot"``: no play beats
  it), or cannot beat it without a wild card (``"natural"``: keep the wild cards);
- ``auto_exchange``: as the higher player of an exchange, lay down the lowest natural cards and say
  "högt" (the partner hands over their highest).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.cards import parse_card
from bot.engine.orders import Decision

from .actions import Play, parse_action
from .combos import WILD_RANKS

KINDS = ("tolp_pass", "auto_exchange")
PASS_CHOICES = ("cannot", "natural")


def decide(orders: Mapping[str, Any], obs: Mapping[str, Any], legal: Sequence[str], seat: int) -> Decision | None:
    pub, private = obs["public"], obs.get("private") or {}
    wild = WILD_RANKS[str(pub["options"]["wild"])]
    if pub["phase"] == "exchange" and orders.get("auto_exchange"):
        ex = private.get("exchange")
        if ex and ex["role"] == "high" and not ex["done"]:
            if ex["laid"]:
                return Decision("high", "auto_exchange")
            naturals = sorted(c for c in map(parse_card, private["hand"]) if c.rank not in wild)
            return Decision("give " + " ".join(str(c) for c in naturals[:int(ex["count"])]), "auto_exchange")
        return None
    mode = orders.get("tolp_pass")
    if pub["phase"] != "play" or pub["turn"] != seat or not pub["table"] or mode not in PASS_CHOICES:
        return None
    plays = [p for p in map(parse_action, legal) if isinstance(p, Play)]
    if mode == "natural":
        plays = [p for p in plays if not any(c.rank in wild for c in p.cards)]
    return None if plays else Decision("pass", "tolp_pass")
