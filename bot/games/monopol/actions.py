"""Monopol actions and their canonical text (what goes into the move log and button ids).

Grammar (square numbers are board indices 0-39, seats are 0-based):
  roll | buy | decline | pass | bid <n> | jail pay | jail card | end | bankrupt
  auction close | time up   (the table's clock only: the service applies them as the TIMER seat)
  claim | accept | decline trade | build <sq> <n> | sell <sq> <n> | mortgage <sq>
  unmortgage <sq> | lift <sq> | keep-mortgage <sq>
  trade <seat> give:<items> get:<items>   items: "-" or a comma list of
      c<n> (cash), <sq> (a deed), j<n> (get-out-of-jail cards), e.g. "trade 2 give:c100,6 get:8,j1"
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from bot.errors import InvalidAction

MAX_TEXT = 60

SIMPLE = ("roll", "buy", "decline", "pass", "auction close", "jail pay", "jail card", "end",
          "bankrupt", "claim", "accept", "decline trade", "time up")
SQUARE_VERBS = ("mortgage", "unmortgage", "lift", "keep-mortgage")
COUNT_VERBS = ("build", "sell")


@dataclass(frozen=True)
class Simple:
    verb: str

    def __str__(self) -> str:
        return self.verb


@dataclass(frozen=True)
class Bid:
    amount: int

    def __str__(self) -> str:
        return f"bid {self.amount}"


@dataclass(frozen=True)
class OnSquare:
    """mortgage / unmortgage / lift / keep-mortgage one deed."""

    verb: str
    square: int

    def __str__(self) -> str:
        return f"{self.verb} {self.square}"


@dataclass(frozen=True)
class Buildings:
    """build / sell ``count`` buildings in the colour set of ``square``, starting on it."""

    verb: str
    square: int
    count: int = 1

    def __str__(self) -> str:
        return f"{self.verb} {self.square} {self.count}"


@dataclass(frozen=True)
class Bundle:
    """One side of a trade."""

    cash: int = 0
    deeds: tuple[int, ...] = ()
    cards: int = 0

    @property
    def empty(self) -> bool:
        return not (self.cash or self.deeds or self.cards)

    def __str__(self) -> str:
        items = ([f"c{self.cash}"] if self.cash else []) + [str(d) for d in self.deeds]
        items += [f"j{self.cards}"] if self.cards else []
        return ",".join(items) or "-"


@dataclass(frozen=True)
class Trade:
    target: int
    give: Bundle
    get: Bundle

    def __str__(self) -> str:
        return f"trade {self.target} give:{self.give} get:{self.get}"


Action = Simple | Bid | OnSquare | Buildings | Trade

_INT = re.compile(r"\d{1,6}")


def _int(text: str, raw: str) -> int:
    if not _INT.fullmatch(text):
        raise InvalidAction("monopol.error.parse", text=raw)
    return int(text)


def _bundle(text: str, raw: str) -> Bundle:
    if text == "-":
        return Bundle()
    cash = cards = 0
    deeds: list[int] = []
    for item in text.split(","):
        if item[:1] in ("c", "$"):
            cash += _int(item[1:], raw)
        elif item[:1] == "j":
            cards += _int(item[1:], raw)
        else:
            deeds.append(_int(item, raw))
    if len(set(deeds)) != len(deeds) or any(d > 39 for d in deeds):
        raise InvalidAction("monopol.error.parse", text=raw)
    return Bundle(cash, tuple(sorted(deeds)), cards)


def parse_action(text: str) -> Action:
    raw = text
    words = " ".join(text.strip().lower().split())
    if not words or len(words) > MAX_TEXT:
        raise InvalidAction("monopol.error.parse", text=raw[:70])
    if words in SIMPLE:
        return Simple(words)
    parts = words.split(" ")
    verb = parts[0]
    if verb == "bid" and len(parts) == 2:
        return Bid(_int(parts[1], raw))
    if verb in SQUARE_VERBS and len(parts) == 2:
        return OnSquare(verb, _square(parts[1], raw))
    if verb in COUNT_VERBS and len(parts) in (2, 3):
        count = _int(parts[2], raw) if len(parts) == 3 else 1
        if not 1 <= count <= 15:
            raise InvalidAction("monopol.error.parse", text=raw)
        return Buildings(verb, _square(parts[1], raw), count)
    if verb == "trade" and len(parts) == 4 and parts[2].startswith("give:") and parts[3].startswith("get:"):
        return Trade(_int(parts[1], raw), _bundle(parts[2][5:], raw), _bundle(parts[3][4:], raw))
    raise InvalidAction("monopol.error.parse", text=raw)


def _square(text: str, raw: str) -> int:
    square = _int(text, raw)
    if square > 39:
        raise InvalidAction("monopol.error.parse", text=raw)
    return square
