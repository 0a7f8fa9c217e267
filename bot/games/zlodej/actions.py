"""Zloděj actions and their canonical text.

    new 7H 7S        lay a new group from hand onto the own pile
    add 7C           add to the own pile's top group
    steal 2 7D       take seat 2's top group (seats count from 0) with 7D
    take 7D          take the discard pile's top card with 7D
    discard 3C       discard one card; ends the turn
    end              end the turn after at least one lay

Cards are sorted inside an action so every action has exactly one text.
"""
from __future__ import annotations

from dataclasses import dataclass

from bot.engine.cards import Card, cards_text, parse_card, parse_cards
from bot.errors import InvalidAction


def _sorted(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(sorted(cards))


@dataclass(frozen=True)
class NewGroup:
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _sorted(self.cards))

    def __str__(self) -> str:
        return f"new {cards_text(self.cards)}"


@dataclass(frozen=True)
class AddToGroup:
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _sorted(self.cards))

    def __str__(self) -> str:
        return f"add {cards_text(self.cards)}"


@dataclass(frozen=True)
class Steal:
    target: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _sorted(self.cards))

    def __str__(self) -> str:
        return f"steal {self.target} {cards_text(self.cards)}"


@dataclass(frozen=True)
class TakeDiscard:
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _sorted(self.cards))

    def __str__(self) -> str:
        return f"take {cards_text(self.cards)}"


@dataclass(frozen=True)
class Discard:
    card: Card

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True)
class EndTurn:
    def __str__(self) -> str:
        return "end"


Action = NewGroup | AddToGroup | Steal | TakeDiscard | Discard | EndTurn
Lay = NewGroup | AddToGroup | Steal | TakeDiscard

# A hand never holds more than five cards, so no action names more.
MAX_CARDS = 5


def parse_action(text: str) -> Action:
    words = text.strip().split()
    if not words:
        raise InvalidAction("zlodej.error.syntax", text=text)
    verb, rest = words[0].lower(), words[1:]
    if verb == "end" and not rest:
        return EndTurn()
    if verb == "discard":
        if len(rest) != 1:
            raise InvalidAction("zlodej.error.discard_one")
        return Discard(parse_card(rest[0]))
    if verb == "steal" and len(rest) >= 2 and rest[0].isdigit():
        return Steal(int(rest[0]), tuple(_cards(rest[1:], text)))
    makers: dict[str, type[NewGroup | AddToGroup | TakeDiscard]] = {
        "new": NewGroup, "add": AddToGroup, "take": TakeDiscard}
    if verb in makers and rest:
        return makers[verb](tuple(_cards(rest, text)))
    raise InvalidAction("zlodej.error.syntax", text=text)


def _cards(words: list[str], text: str) -> list[Card]:
    if len(words) > 4 * MAX_CARDS:
        raise InvalidAction("zlodej.error.syntax", text=text[:80])
    cards = parse_cards(" ".join(words))
    if len(cards) > MAX_CARDS:
        raise InvalidAction("zlodej.error.too_many_cards", count=len(cards))
    return cards
