"""The Monopol position: money, deeds, buildings, decks and whatever is pending.

Everything here is public except the order of the two card decks. Money is conserved: ``bank``
is what the bank has collected minus what it paid out, so sum(cash) + bank stays 0.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from bot.engine.rng import Rng

# Turn phases of the seat whose turn it is (interrupts such as auctions and debts come first).
ROLL, BUY, END = "roll", "buy", "end"


@dataclass
class Debt:
    debtor: int
    creditor: int  # -1 = the bank
    amount: int


@dataclass
class Auction:
    lot: str  # "deed", "house" or "hotel"
    square: int  # the deed on sale (-1 for buildings)
    eligible: list[int]
    high: int = 0
    bidder: int = -1
    passed: list[int] = field(default_factory=list)


@dataclass
class Claim:
    payer: int
    owner: int
    square: int
    amount: int


@dataclass
class PendingTrade:
    proposer: int
    text: str  # the canonical trade action text


@dataclass
class MortgageChoice:
    seat: int
    square: int


@dataclass
class MonopolState:
    players: int
    options: dict[str, Any]
    rng: Rng
    cash: list[int]
    position: list[int]
    bank: int = 0
    pot: int = 0  # house rule free_parking_jackpot: taxes and fines in the middle (counted in bank)
    in_jail: list[bool] = field(default_factory=list)
    jail_tries: list[int] = field(default_factory=list)
    jail_cards: list[list[str]] = field(default_factory=list)  # card ids held by each seat
    bankrupt: list[bool] = field(default_factory=list)
    out_order: list[int] = field(default_factory=list)  # seats in the order they went bankrupt
    owner: list[int] = field(default_factory=lambda: [-1] * 40)
    level: list[int] = field(default_factory=lambda: [0] * 40)  # 0-4 houses, 5 hotel
    mortgaged: list[bool] = field(default_factory=lambda: [False] * 40)
    decks: dict[str, list[str]] = field(default_factory=dict)
    bank_houses: int = 32
    bank_hotels: int = 12
    turn: int = 0
    first: int = 0  # the seat that won the opening roll; a new round starts when it is its turn
    phase: str = ROLL
    doubles: int = 0
    round: int = 1
    last_roll: list[int] = field(default_factory=list)
    auction: Auction | None = None
    auction_queue: list[int] = field(default_factory=list)  # deeds a bankrupt left to the bank
    debts: list[Debt] = field(default_factory=list)
    choices: list[MortgageChoice] = field(default_factory=list)
    placement: dict[str, Any] | None = None  # {"seat", "lot"}: a won building to place
    claims: list[Claim] = field(default_factory=list)
    trade: PendingTrade | None = None
    offered: list[int] = field(default_factory=list)  # the round of each seat's last trade offer
    declined: list[str] = field(default_factory=list)  # the last offers their receivers declined (public)
    finished: str = ""  # "" while playing, else the outcome reason key
    recent: list[dict[str, Any]] = field(default_factory=list)  # last events, for the board image

    def solvent(self) -> list[int]:
        return [s for s in range(self.players) if not self.bankrupt[s]]

    def dump(self) -> dict[str, Any]:
        # by hand rather than dataclasses.asdict: the conformance suite dumps very often
        data = {name: getattr(self, name) for name in self.__dataclass_fields__}
        for name, value in data.items():
            if isinstance(value, list):
                data[name] = [dict(vars(v)) if hasattr(v, "__dict__") else
                              (list(v) if isinstance(v, list) else v) for v in value]
        data["options"] = dict(self.options)
        data["rng"] = self.rng.dump()
        data["decks"] = {k: list(v) for k, v in self.decks.items()}
        data["auction"] = asdict(self.auction) if self.auction else None
        data["trade"] = asdict(self.trade) if self.trade else None
        data["placement"] = dict(self.placement) if self.placement else None
        return data

    @classmethod
    def load(cls, data: dict[str, Any]) -> MonopolState:
        raw = dict(data)
        raw["rng"] = Rng.load(raw["rng"])
        raw["auction"] = Auction(**raw["auction"]) if raw["auction"] else None
        raw["debts"] = [Debt(**d) for d in raw["debts"]]
        raw["choices"] = [MortgageChoice(**c) for c in raw["choices"]]
        raw["claims"] = [Claim(**c) for c in raw["claims"]]
        raw["trade"] = PendingTrade(**raw["trade"]) if raw["trade"] else None
        return cls(**raw)
