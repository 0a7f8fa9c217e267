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


def strong_decides_alike_after_redeals(state: ZlodejState, tag: str, plies: int = 12) -> int:
    """Play ``plies`` strong decisions from ``state``; every third one is asked again of a world
    with the seat's hidden cards re-dealt (the public stock kept) and must be the same, and every
    one legal. Returns how many of the asked decisions had more than one candidate to search."""
    from bot.games.zlodej import computer_strong as strong
    searched = 0
    for ply in range(plies):
        if state.finished:
            break
        seat = state.turn
        legal = GAME.legal_actions(state, seat)
        action = strong.choose(state, seat, legal, Rng(f"{tag}/{ply}"))
        assert action in legal
        if ply % 3 == 0:
            world = GAME.scramble_hidden(state, seat, Rng(f"w/{ply}"))
            if state.stock_public:
                assert world.stock == state.stock
            assert strong.choose(world, seat, GAME.legal_actions(world, seat), Rng(f"{tag}/{ply}")) == action
            searched += len(strong.candidates(state, seat, legal, count=strong.ENDGAME_CANDIDATES)) > 1
        GAME.apply(state, seat, action)
    return searched
