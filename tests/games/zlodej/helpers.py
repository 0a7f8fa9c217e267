"""Test helpers for Zloděj: building positions by hand and checking that no card is lost or doubled."""
from __future__ import annotations

from collections import Counter

from bot.engine.cards import Card, parse_card, parse_cards, standard_deck
from bot.engine.rng import Rng
from bot.games.zlodej.engine import ZlodejGame
from bot.games.zlodej.state import JOKERS_PER_DECK, ZlodejState, decks_for

GAME = ZlodejGame()


def cards(text: str) -> list[Card]:
    return parse_cards(text) if text.strip() else []


def full_deck(players: int) -> Counter[Card]:
    return Counter(standard_deck(decks_for(players), JOKERS_PER_DECK))


def assert_cards_conserved(state: ZlodejState) -> None:
    """Every card of the decks lies in exactly one place: hands, stock, discard or a pile."""
    assert Counter(state.all_cards()) == full_deck(state.players)


def make_state(players: int = 2, *, hands: list[str], open_piles: list[list[str]] | None = None,
               locked: list[list[str]] | None = None, discard: str = "", stock: str | None = None,
               turn: int = 0, drawing_over: bool = False) -> ZlodejState:
    """A position built from card texts. Cards not placed anywhere form the stock, or, when the
    stock is given, a locked pile of the last seat (out of play), so the deck stays complete."""
    open_piles = open_piles or [[] for _ in range(players)]
    locked_texts = locked or ["" for _ in range(players)]
    state = ZlodejState(
        players=players, decks=decks_for(players), rng=Rng("test"),
        hands=[cards(h) for h in hands], stock=[], discard=cards(discard),
        open_piles=[[cards(g) for g in pile] for pile in open_piles],
        locked=[[cards(text)] if text else [] for text in locked_texts],
        resigned=[False] * players, turn=turn, drawing_over=drawing_over,
    )
    left = full_deck(players) - Counter(state.all_cards())
    if stock is None:
        state.stock = sorted(left.elements())
    else:
        state.stock = cards(stock)
        spare = sorted((left - Counter(state.stock)).elements())
        if spare:
            state.locked[-1].append(spare)
    assert_cards_conserved(state)
    return state


def act(state: ZlodejState, seat: int, text: str) -> list[str]:
    """Apply an action text; returns the event keys."""
    return [e.key for e in GAME.apply(state, seat, GAME.parse_action(text))]


def card(text: str) -> Card:
    return parse_card(text)
