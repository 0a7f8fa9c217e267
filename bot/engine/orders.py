"""Standing orders, the pure part: what a seat's orders make it do now, decided from what the seat
may see (``Game.observe(state, seat)``) and the seat's own legal actions (their canonical texts),
like a computer player, never from the state itself. No I/O, no clock, no randomness.

An order is one entry of a seat's orders (a JSON object): ``only_pass`` for every game, and the
game's own (``bot/games/<game>/orders.py``: ``KINDS`` and ``decide``). ``decide`` returns the move
an order makes and the order's kind (the entry that made it, dropped when the move would break a
rule), or None when no order applies.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

ONLY_PASS = "only_pass"  # every game: pass when passing is the only legal action


@dataclass(frozen=True)
class Decision:
    action: str  # the canonical action text, applied as the seat's own move
    kind: str  # the order that made it: an orders key, or "<key>.<part>" for one part of it


Decide = Callable[[Mapping[str, Any], Mapping[str, Any], Sequence[str], int], Decision | None]
_MODULES: dict[str, ModuleType | None] = {}


def game_module(game: str) -> ModuleType | None:
    """The game's orders module (``bot.games.<game>.orders``), None when it has no orders of its own."""
    if game not in _MODULES:
        try:
            _MODULES[game] = importlib.import_module(f"bot.games.{game}.orders")
        except ModuleNotFoundError as exc:  # no orders module, or a game living elsewhere (tests' toy game)
            if exc.name not in (f"bot.games.{game}.orders", f"bot.games.{game}"):
                raise
            _MODULES[game] = None
    return _MODULES[game]


def kinds(game: str) -> tuple[str, ...]:
    """The orders a seat of ``game`` may set: every game's, then the game's own."""
    module = game_module(game)
    return (ONLY_PASS, *(module.KINDS if module else ()))


def decide(game: str, orders: Mapping[str, Any], obs: Mapping[str, Any], legal: Sequence[str],
           seat: int) -> Decision | None:
    """The move the seat's orders make now, or None. The game's own orders come first (a Tölp
    pass, a Monopol bid), then passing when it is the only legal action."""
    if not orders or not legal:
        return None
    module = game_module(game)
    if module is not None:
        decision: Decision | None = module.decide(orders, obs, legal, seat)
        if decision is not None:
            return decision
    if orders.get(ONLY_PASS) and list(legal) == ["pass"]:
        return Decision("pass", ONLY_PASS)
    return None


def drop(orders: dict[str, Any], kind: str) -> dict[str, Any]:
    """The orders without the one of ``kind`` (``key.part``: that part of a per-group order)."""
    out = dict(orders)
    key, _, part = kind.partition(".")
    if part and isinstance(out.get(key), dict):
        rest = {k: v for k, v in out[key].items() if k != part}
        if rest:
            out[key] = rest
        else:
            out.pop(key, None)
    else:
        out.pop(key, None)
    return out
