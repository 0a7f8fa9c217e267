"""Monopol's static data: the 40 squares, the colour groups and the two card decks.

Loaded once at import from data/board.json and data/cards.json (a test validates both).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_DATA = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True)
class Square:
    index: int
    name: str
    kind: str  # start street station utility tax sjanse lykke jail parking gotojail
    group: str = ""
    price: int = 0
    mortgage: int = 0
    rents: tuple[int, ...] = ()
    house_cost: int = 0
    amount: int = 0  # tax squares

    @property
    def is_deed(self) -> bool:
        return self.kind in ("street", "station", "utility")


@dataclass(frozen=True)
class ChanceCard:
    id: str
    deck: str  # "sjanse" or "lykke"
    effect: str
    params: dict[str, Any]


def _load_board() -> dict[str, Any]:
    return dict(json.loads((_DATA / "board.json").read_text(encoding="utf-8")))


def _load_cards() -> list[ChanceCard]:
    raw = json.loads((_DATA / "cards.json").read_text(encoding="utf-8"))["cards"]
    return [ChanceCard(c["id"], c["deck"], c["effect"],
                       {k: v for k, v in c.items() if k not in ("id", "deck", "effect")}) for c in raw]


BOARD = _load_board()
SQUARES: tuple[Square, ...] = tuple(
    Square(index=s["index"], name=s["name"], kind=s["kind"], group=s.get("group", ""),
           price=s.get("price", 0), mortgage=s.get("mortgage", 0), rents=tuple(s.get("rents", ())),
           house_cost=s.get("house_cost", 0), amount=s.get("amount", 0))
    for s in BOARD["squares"])
GROUP_COLOURS: dict[str, str] = dict(BOARD["groups"])
GROUPS: dict[str, tuple[int, ...]] = {}
for _sq in SQUARES:
    if _sq.group:
        GROUPS.setdefault(_sq.group, ())
        GROUPS[_sq.group] += (_sq.index,)
DEEDS: tuple[int, ...] = tuple(s.index for s in SQUARES if s.is_deed)
STREETS: tuple[int, ...] = tuple(s.index for s in SQUARES if s.kind == "street")

CARDS: dict[str, ChanceCard] = {c.id: c for c in _load_cards()}
DECKS: dict[str, tuple[str, ...]] = {
    deck: tuple(c.id for c in CARDS.values() if c.deck == deck) for deck in ("sjanse", "lykke")}

START_MONEY: int = BOARD["start_money"]
PASS_START: int = BOARD["pass_start"]
JAIL_FINE: int = BOARD["jail_fine"]
JAIL: int = BOARD["jail_square"]
GO_TO_JAIL: int = BOARD["go_to_jail_square"]
HOUSES: int = BOARD["houses"]
HOTELS: int = BOARD["hotels"]
AUCTION_START: int = BOARD["auction_start"]
STATION_RENTS: tuple[int, ...] = tuple(BOARD["station_rents"])
UTILITY_MULTIPLIERS: tuple[int, ...] = tuple(BOARD["utility_multipliers"])
HOTEL = 5  # building level of a hotel (levels 1-4 are houses)


def interest(square: int) -> int:
    """10 % of the mortgage value, rounded up to whole kroner."""
    return -(-SQUARES[square].mortgage // 10)
