"""French-suited playing cards shared by the card games.

Canonical text: rank then suit, ASCII, e.g. ``2H``, ``10S``, ``QD``, ``AC``; a joker is ``JK``.
Parsing is lenient (``10h``, ``th``, ``♥10``, ``joker``); ``str`` is always canonical.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.errors import InvalidAction

SUITS = ("C", "D", "H", "S")  # clubs, diamonds, hearts, spades
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
JOKER_RANK = 15
_RANK_ALIASES = {"J": 11, "Q": 12, "K": 13, "A": 14, "T": 10, "1": 14,
                 # Swedish, Norwegian and Czech letters for court cards
                 "KN": 11, "D": 12, "E": 14, "ESS": 14, "KUNG": 13, "DAM": 12, "KNEKT": 11,
                 "KRAL": 13, "KRÁL": 13, "DÁMA": 12, "DAMA": 12, "KLUK": 11, "ESO": 14}
_SUIT_ALIASES = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}


@dataclass(frozen=True, order=True)
class Card:
    rank: int  # 2..14 (ace high), 15 = joker
    suit: str  # one of SUITS, "" for a joker

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    def __str__(self) -> str:
        if self.is_joker:
            return "JK"
        return f"{RANK_NAMES.get(self.rank, str(self.rank))}{self.suit}"

    @property
    def pretty(self) -> str:
        if self.is_joker:
            return "🃏"
        return f"{SUIT_SYMBOLS[self.suit]}{RANK_NAMES.get(self.rank, str(self.rank))}"


JOKER = Card(JOKER_RANK, "")

# Every card there is, one object each: cards are immutable values, so states share them instead of
# each parsed state holding its own copies (a thousand cached Tölp states held 52,000 Card objects
# that the garbage collector walked again and again). Keyed by (rank, suit) and by canonical text.
_CARDS: dict[tuple[int, str], Card] = {(c.rank, c.suit): c for c in
                                       [JOKER, *(Card(r, s) for s in SUITS for r in range(2, 15))]}
_BY_TEXT: dict[str, Card] = {str(c): c for c in _CARDS.values()}


def card(rank: int, suit: str) -> Card:
    """The one Card object of this rank and suit."""
    return _CARDS.get((rank, suit)) or Card(rank, suit)


def rank_text(rank: int) -> str:
    return "JK" if rank == JOKER_RANK else RANK_NAMES.get(rank, str(rank))


def parse_rank(text: str) -> int:
    t = text.strip().upper()
    if t in {"JK", "JOKER", "X", "*"}:
        return JOKER_RANK
    if t in _RANK_ALIASES:
        return _RANK_ALIASES[t]
    if t.isdigit() and 2 <= int(t) <= 10:
        return int(t)
    raise InvalidAction("error.bad_rank", text=text)


def parse_card(text: str) -> Card:
    known = _BY_TEXT.get(text)  # canonical text, as states store their cards
    if known is not None:
        return known
    t = text.strip().upper()
    if t in {"JK", "JOKER", "🃏", "X"}:
        return JOKER
    if not t:
        raise InvalidAction("error.bad_card", text=text)
    for symbol, suit in _SUIT_ALIASES.items():
        t = t.replace(symbol, suit)
    if t[0] in SUITS and len(t) > 1 and t[1:] not in SUITS:
        suit, rank = t[0], t[1:]
    else:
        rank, suit = t[:-1], t[-1]
    if suit not in SUITS or not rank:
        raise InvalidAction("error.bad_card", text=text)
    try:
        return card(parse_rank(rank), suit)
    except InvalidAction:
        raise InvalidAction("error.bad_card", text=text) from None


def parse_cards(text: str) -> list[Card]:
    """``"7H 7S"``, ``"7h,7s"`` -> cards. Raises InvalidAction on any bad token or nothing."""
    tokens = [tok for tok in text.replace(",", " ").split() if tok]
    if not tokens:
        raise InvalidAction("error.no_cards")
    return [parse_card(tok) for tok in tokens]


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def standard_deck(decks: int = 1, jokers_per_deck: int = 0) -> list[Card]:
    cards: list[Card] = []
    for _ in range(decks):
        cards.extend(card(rank, suit) for suit in SUITS for rank in range(2, 15))
        cards.extend([JOKER] * jokers_per_deck)
    return cards
