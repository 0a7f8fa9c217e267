"""Builders for Tölp test positions: hands given as card text, everything else explicit."""
from __future__ import annotations

from typing import Any

from bot.engine.cards import parse_card, parse_cards
from bot.engine.registry import get
from bot.games.tolp.engine import TolpGame
from bot.games.tolp.state import Exchange, TolpState, exchange_pairs

GAME = get("tolp")
assert isinstance(GAME, TolpGame)


def hands_of(texts: list[str]) -> list[list[Any]]:
    return [sorted(parse_cards(t)) if t.strip() else [] for t in texts]


def play_state(hands: list[str], *, turn: int = 0, must_include: str | None = None,
               options: dict[str, Any] | None = None) -> TolpState:
    """A round in progress with these hands, an empty table and ``turn`` to lead."""
    state = GAME.new(len(hands), options or {}, "build")
    state.hands = hands_of(hands)
    state.phase, state.turn, state.table, state.passed = "play", turn, [], []
    state.must_include = parse_card(must_include) if must_include else None
    state.exchanges = []
    return state


def exchange_state(hands: list[str], last_order: list[int], *, options: dict[str, Any] | None = None,
                   ) -> TolpState:
    """The exchange phase of round 2 after a first round finished in ``last_order``."""
    state = GAME.new(len(hands), options or {}, "build")
    state.round = 2
    state.hands = hands_of(hands)
    state.protocol = [list(last_order)]
    state.phase, state.turn, state.must_include = "exchange", None, None
    cap = int(state.options["exchange_cap"])
    state.exchanges = [Exchange(high=last_order[hi], low=last_order[lo], count=n)
                       for hi, lo, n in exchange_pairs(len(hands), cap)]
    return state


def act(state: TolpState, seat: int, text: str) -> list[Any]:
    return GAME.apply(state, seat, GAME.parse_action(text))


def hand(state: TolpState, seat: int) -> str:
    return " ".join(str(c) for c in state.hands[seat])
