"""The Tölp position: hands, the trick on the table, the round's finishing places, the exchanges
and the protocol of titles, with a JSON snapshot that round-trips exactly."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.engine.cards import Card, parse_card
from bot.engine.rng import Rng

from .combos import WILD_RANKS

KUNG, GREVE, BONDE, TOLP = "kung", "greve", "bonde", "tolp"


def title_for(place: int, players: int) -> str:
    """1st Kung, last Tölp, 2nd Greve (when that is not also last), everyone else Bonde."""
    if place == 0:
        return KUNG
    if place == players - 1:
        return TOLP
    if place == 1:
        return GREVE
    return BONDE


def exchange_pairs(players: int, cap: int) -> list[tuple[int, int, int]]:
    """(higher place, lower place, cards) from the outside in: ⌊N/2⌋ cards down to 1.

    A cap (0 = none) shrinks the outermost count and leaves the innermost pairs neutral."""
    top = players // 2
    if cap:
        top = min(top, cap)
    return [(i, players - 1 - i, top - i) for i in range(top)]


@dataclass
class Exchange:
    """One pair's exchange; ``count`` cards each way, the higher player drives it."""

    high: int
    low: int
    count: int
    laid: list[Card] = field(default_factory=list)
    asked: list[tuple[int, int]] = field(default_factory=list)  # (rank, partner's count)
    taken: list[Card] = field(default_factory=list)  # what the low player handed over
    done: bool = False

    def dump(self) -> dict[str, Any]:
        return {"high": self.high, "low": self.low, "count": self.count,
                "laid": [str(c) for c in self.laid], "asked": [list(a) for a in self.asked],
                "taken": [str(c) for c in self.taken], "done": self.done}

    @classmethod
    def load(cls, data: dict[str, Any]) -> Exchange:
        return cls(high=int(data["high"]), low=int(data["low"]), count=int(data["count"]),
                   laid=[parse_card(c) for c in data["laid"]],
                   asked=[(int(r), int(n)) for r, n in data["asked"]],
                   taken=[parse_card(c) for c in data["taken"]], done=bool(data["done"]))


@dataclass
class TolpState:
    players: int
    options: dict[str, Any]
    rng: Rng
    round: int = 0
    phase: str = "play"  # "exchange" | "play" | "over"
    hands: list[list[Card]] = field(default_factory=list)
    set_aside: list[Card] = field(default_factory=list)
    table: list[tuple[int, list[Card]]] = field(default_factory=list)  # the current trick
    passed: list[int] = field(default_factory=list)  # passed on the top combination
    turn: int | None = None
    must_include: Card | None = None  # the round's first play must contain this card
    ranking: list[int | None] = field(default_factory=list)  # place -> seat, this round
    stuck: list[int] = field(default_factory=list)  # left holding only wild cards
    titles: list[str | None] = field(default_factory=list)  # from the last finished round
    protocol: list[list[int]] = field(default_factory=list)  # seats by place, per round
    kungs: list[int] = field(default_factory=list)
    streak: list[int] = field(default_factory=lambda: [-1, 0])  # [kung seat, rounds in a row]
    exchanges: list[Exchange] = field(default_factory=list)
    result: dict[str, Any] | None = None  # {"places": [[seat, ...], ...], "reason": key}

    def active(self) -> list[int]:
        """Seats still holding cards in this round's play."""
        placed = {s for s in self.ranking if s is not None}
        return [s for s in range(self.players) if s not in placed]

    def next_active(self, seat: int) -> int:
        """The next seat to the left (seat + 1) that is still in the round."""
        active = set(self.active())
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if candidate in active:
                return candidate
        raise AssertionError("no active seat")

    def wild(self) -> frozenset[int]:
        """The ranks that are wild in this game (its ``wild`` option)."""
        return WILD_RANKS[str(self.options["wild"])]

    def place_of(self, seat: int) -> int | None:
        return self.ranking.index(seat) if seat in self.ranking else None

    def dump(self) -> dict[str, Any]:
        return {
            "players": self.players, "options": dict(self.options), "rng": self.rng.dump(),
            "round": self.round, "phase": self.phase,
            "hands": [[str(c) for c in hand] for hand in self.hands],
            "set_aside": [str(c) for c in self.set_aside],
            "table": [[seat, [str(c) for c in cards]] for seat, cards in self.table],
            "passed": list(self.passed), "turn": self.turn,
            "must_include": str(self.must_include) if self.must_include else None,
            "ranking": list(self.ranking), "stuck": list(self.stuck), "titles": list(self.titles),
            "protocol": [list(r) for r in self.protocol], "kungs": list(self.kungs),
            "streak": list(self.streak), "exchanges": [e.dump() for e in self.exchanges],
            "result": self.result,
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> TolpState:
        return cls(
            players=int(data["players"]), options=dict(data["options"]), rng=Rng.load(data["rng"]),
            round=int(data["round"]), phase=str(data["phase"]),
            hands=[[parse_card(c) for c in hand] for hand in data["hands"]],
            set_aside=[parse_card(c) for c in data["set_aside"]],
            table=[(int(seat), [parse_card(c) for c in cards]) for seat, cards in data["table"]],
            passed=[int(s) for s in data["passed"]], turn=data["turn"],
            must_include=parse_card(data["must_include"]) if data["must_include"] else None,
            ranking=list(data["ranking"]), stuck=[int(s) for s in data["stuck"]],
            titles=list(data["titles"]), protocol=[list(r) for r in data["protocol"]],
            kungs=[int(k) for k in data["kungs"]], streak=[int(x) for x in data["streak"]],
            exchanges=[Exchange.load(e) for e in data["exchanges"]],
            result=data["result"],
        )
