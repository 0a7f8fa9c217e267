"""Zloděj: the deck rules from data/deck.json, card values, and the game state with its JSON form.

Piles are lists of groups (bottom first); a group is a list of equal-rank cards laid in one go.
Open piles never hold a joker: laying a joker locks the whole pile at once.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.engine.cards import JOKER_RANK, Card, parse_card
from bot.engine.rng import Rng

DECK_RULES: dict[str, Any] = json.loads((Path(__file__).parent / "data" / "deck.json").read_text(encoding="utf-8"))
HAND_SIZE: int = DECK_RULES["hand_size"]
JOKERS_PER_DECK: int = DECK_RULES["jokers_per_deck"]
ACE_RANK = 14

Group = list[Card]
Pile = list[Group]


def decks_for(players: int) -> int:
    """Two decks up to six players, then one more for every further three (started) players."""
    extra_players = max(0, players - int(DECK_RULES["base_decks_up_to_players"]))
    per_deck = int(DECK_RULES["players_per_extra_deck"])
    return int(DECK_RULES["base_decks"]) + -(-extra_players // per_deck)


def card_value(card: Card) -> int:
    values = DECK_RULES["values"]
    if card.rank == JOKER_RANK:
        return int(values["joker"])
    if card.rank == ACE_RANK:
        return int(values["ace"])
    if card.rank in DECK_RULES["high_ranks"]:
        return int(values["high"])
    return int(values["low"])


def group_rank(cards: list[Card]) -> int:
    """The rank a set of laid cards stands for: their natural rank, or the joker rank if all jokers."""
    naturals = {c.rank for c in cards if not c.is_joker}
    return naturals.pop() if naturals else JOKER_RANK


@dataclass
class ZlodejState:
    players: int
    decks: int
    rng: Rng
    hands: list[list[Card]]
    stock: list[Card]  # face down; the last card is the top
    discard: list[Card]  # face up; the last card is the top
    open_piles: list[Pile]  # per seat, groups bottom first
    locked: list[list[list[Card]]]  # per seat, locked piles; each bottom first, joker(s) last
    resigned: list[bool]
    turn: int = 0
    laid: bool = False  # the seat to act has laid at least once this turn
    drawing_over: bool = False  # someone could not refill to a full hand: nobody draws again
    finished: bool = False
    # From the public log, each seat's last turn end: the cards it kept in hand (before drawing;
    # -1 before its first turn) and the ranks it could have laid then (every open top group and
    # the discard top before its throw). The computers infer from it what a seat does not hold.
    kept: list[int] = field(default_factory=list)
    passed: list[list[int]] = field(default_factory=list)
    # and the richest open top group of another seat then (points; what a joker could have stolen)
    offered: list[int] = field(default_factory=list)
    # The stock turned over from the discard pile (not shuffled) is public, order and all: every
    # discard and take is announced. From the first turn (the first stock is then used up) until a
    # resigning hand goes under it, ``stock_public``; each seat's cards drawn from it and not yet
    # laid or thrown are then public too (``public_draws``, a part of its hand).
    stock_public: bool = False
    public_draws: list[list[Card]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if len(self.kept) != self.players:
            self.kept = [-1] * self.players
        if len(self.passed) != self.players:
            self.passed = [[] for _ in range(self.players)]
        if len(self.offered) != self.players:
            self.offered = [0] * self.players
        if len(self.public_draws) != self.players:
            self.public_draws = [[] for _ in range(self.players)]

    def all_cards(self) -> list[Card]:
        """Every card in the game wherever it lies (used to check conservation)."""
        cards = [c for hand in self.hands for c in hand] + self.stock + self.discard
        cards += [c for pile in self.open_piles for group in pile for c in group]
        cards += [c for piles in self.locked for pile in piles for c in pile]
        return cards

    def pile_points(self, seat: int) -> int:
        cards = [c for group in self.open_piles[seat] for c in group]
        cards += [c for pile in self.locked[seat] for c in pile]
        return sum(card_value(c) for c in cards)


def _texts(cards: list[Card]) -> list[str]:
    return [str(c) for c in cards]


def _cards(texts: list[str]) -> list[Card]:
    return [parse_card(t) for t in texts]


def dump_state(state: ZlodejState) -> dict[str, Any]:
    return {
        "players": state.players,
        "decks": state.decks,
        "rng": state.rng.dump(),
        "hands": [_texts(h) for h in state.hands],
        "stock": _texts(state.stock),
        "discard": _texts(state.discard),
        "open_piles": [[_texts(g) for g in pile] for pile in state.open_piles],
        "locked": [[_texts(p) for p in piles] for piles in state.locked],
        "turn": state.turn,
        "laid": state.laid,
        "drawing_over": state.drawing_over,
        "resigned": list(state.resigned),
        "finished": state.finished,
        "kept": list(state.kept),
        "passed": [list(r) for r in state.passed],
        "offered": list(state.offered),
        "stock_public": state.stock_public,
        "public_draws": [_texts(d) for d in state.public_draws],
    }


def load_state(data: dict[str, Any]) -> ZlodejState:
    return ZlodejState(
        players=int(data["players"]),
        decks=int(data["decks"]),
        rng=Rng.load(dict(data["rng"])),
        hands=[_cards(h) for h in data["hands"]],
        stock=_cards(data["stock"]),
        discard=_cards(data["discard"]),
        open_piles=[[_cards(g) for g in pile] for pile in data["open_piles"]],
        locked=[[_cards(p) for p in piles] for piles in data["locked"]],
        turn=int(data["turn"]),
        laid=bool(data["laid"]),
        drawing_over=bool(data["drawing_over"]),
        resigned=[bool(r) for r in data["resigned"]],
        finished=bool(data["finished"]),
        # games stored before the record existed: nothing known yet
        kept=[int(k) for k in data.get("kept", [])],
        passed=[[int(r) for r in ranks] for ranks in data.get("passed", [])],
        offered=[int(p) for p in data.get("offered", [])],
        stock_public=bool(data.get("stock_public", False)),
        public_draws=[_cards(d) for d in data.get("public_draws", [])],
    )
