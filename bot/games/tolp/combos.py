"""Combinations: what a set of cards is worth and whether it may be laid on the table.

A combination is one or more cards of one rank (ace high, 2 low, suits do not matter), possibly
extended by wild ("flygande") cards as long as it holds at least one natural card. It beats the
table when its rank is higher than every combination there and it has at least as many cards as
any of them, which is also why a single can never go on a pair.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.engine.cards import JOKER_RANK, Card, rank_text
from bot.errors import IllegalAction

WILD_RANKS: dict[str, frozenset[int]] = {
    "none": frozenset(),
    "2": frozenset({2}),
    "23": frozenset({2, 3}),
    "jokers": frozenset({JOKER_RANK}),
}


@dataclass(frozen=True)
class Combination:
    rank: int
    size: int
    wilds: int


def is_wild(card: Card, wild: frozenset[int]) -> bool:
    return card.rank in wild


def naturals(cards: Iterable[Card], wild: frozenset[int]) -> list[Card]:
    return [c for c in cards if not is_wild(c, wild)]


def combination_of(cards: Sequence[Card], wild: frozenset[int]) -> Combination:
    """The combination these cards form; raises IllegalAction when they form none."""
    natural = naturals(cards, wild)
    if not natural:
        raise IllegalAction("tolp.error.wild_alone", topic="wild")
    ranks = {c.rank for c in natural}
    if len(ranks) > 1:
        raise IllegalAction("tolp.error.mixed_ranks", topic="play")
    return Combination(rank=natural[0].rank, size=len(cards), wilds=len(cards) - len(natural))


def check_beats(combo: Combination, table: Sequence[Combination]) -> None:
    """Raise IllegalAction unless ``combo`` may be laid on ``table`` (empty table: anything)."""
    if not table:
        return
    top_rank = max(c.rank for c in table)
    most = max(c.size for c in table)
    if combo.size < most:
        raise IllegalAction("tolp.error.too_few", topic="play", count=most)
    if combo.rank <= top_rank:
        raise IllegalAction("tolp.error.too_low", topic="play", rank=rank_text(top_rank))


def candidate_plays(hand: Sequence[Card], wild: frozenset[int], *, max_cards: int,
                    must_include: Card | None = None) -> list[tuple[Card, ...]]:
    """One play per (rank, natural count, wild count) from ``hand``, lowest wilds first.

    Which suits are used does not matter to the rules, so one representative per shape keeps the
    list short for playouts and the computer player. Table and going-out rules are checked by
    the caller."""
    wilds = sorted(c for c in hand if is_wild(c, wild))
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(naturals(hand, wild)):
        by_rank.setdefault(card.rank, []).append(card)
    plays: list[tuple[Card, ...]] = []
    for rank, cards in sorted(by_rank.items()):
        if must_include is not None:
            if rank != must_include.rank:
                continue
            if must_include not in cards:
                continue
            rest = list(cards)
            rest.remove(must_include)
            cards = [must_include, *rest]
        for n in range(1, len(cards) + 1):
            for w in range(0, min(len(wilds), max_cards - n) + 1):
                plays.append(tuple(cards[:n]) + tuple(wilds[:w]))
    return plays
