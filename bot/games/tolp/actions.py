"""Tölp actions and their canonical text.

Grammar (ASCII, one space between tokens, cards and ranks sorted ascending):
    play 7H 7S      lay a combination on the table
    pass            pass on the combination on top of the table
    give 3C 4D      exchange: the higher player lays down cards for the partner
    high            exchange: say "högt", the partner hands over their highest cards
    ask 9           exchange: ask how many of a rank (one you hold) the partner has
    claim 9 9 K     exchange: name the ranks you want (shortfall filled with the highest)
"""
from __future__ import annotations

from dataclasses import dataclass

from bot.engine.cards import Card, cards_text, parse_cards, parse_rank, rank_text
from bot.errors import InvalidAction

# The longest play ("10H" is four characters with its space) must fit a 60-character custom_id.
MAX_PLAY_CARDS = 12


@dataclass(frozen=True)
class Play:
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))

    def __str__(self) -> str:
        return f"play {cards_text(self.cards)}"


@dataclass(frozen=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Give:
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))

    def __str__(self) -> str:
        return f"give {cards_text(self.cards)}"


@dataclass(frozen=True)
class High:
    def __str__(self) -> str:
        return "high"


@dataclass(frozen=True)
class Ask:
    rank: int

    def __str__(self) -> str:
        return f"ask {rank_text(self.rank)}"


@dataclass(frozen=True)
class Claim:
    ranks: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "ranks", tuple(sorted(self.ranks)))

    def __str__(self) -> str:
        return "claim " + " ".join(rank_text(r) for r in self.ranks)


Action = Play | Pass | Give | High | Ask | Claim


def parse_action(text: str) -> Action:
    words = text.strip().split(maxsplit=1)
    if not words:
        raise InvalidAction("tolp.error.syntax", text=text)
    verb, rest = words[0].lower(), (words[1] if len(words) > 1 else "")
    if verb in {"pass", "high"}:
        if rest.strip():
            raise InvalidAction("tolp.error.syntax", text=text)
        return Pass() if verb == "pass" else High()
    if verb in {"play", "give"}:
        cards = tuple(parse_cards(rest))
        if len(cards) > MAX_PLAY_CARDS:
            raise InvalidAction("tolp.error.too_many_cards", maximum=MAX_PLAY_CARDS)
        return Play(cards) if verb == "play" else Give(cards)
    if verb == "ask":
        tokens = rest.split()
        if len(tokens) != 1:
            raise InvalidAction("tolp.error.syntax", text=text)
        return Ask(parse_rank(tokens[0]))
    if verb == "claim":
        tokens = rest.replace(",", " ").split()
        if not tokens or len(tokens) > MAX_PLAY_CARDS:
            raise InvalidAction("tolp.error.syntax", text=text)
        return Claim(tuple(parse_rank(tok) for tok in tokens))
    raise InvalidAction("tolp.error.syntax", text=text)
