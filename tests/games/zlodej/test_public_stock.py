"""The stock turned over from the discard pile is public (order and all), and so are the cards a
seat draws from it until it lays or throws them; the strong computer knows them, re-deals keep them."""
from __future__ import annotations

from collections import Counter

from bot.engine.rng import Rng
from bot.games.zlodej.computer_strong import consistent
from bot.games.zlodej.knowledge import infer, know
from bot.games.zlodej.state import ZlodejState, dump_state, load_state

from .helpers import GAME, act, assert_cards_conserved, cards, make_state, strong_decides_alike_after_redeals


def turned() -> ZlodejState:
    # seat 0 throws, draws the last stock card, then the discard pile is turned over (5C on top)
    state = make_state(3, hands=["2C 3C 4D 9H 9S", "5D 6C 7C 8C KC", "5H 6H 7D 8D KD"],
                       stock="QC", discard="5C 6D 7H 8S")
    act(state, 0, "new 9H 9S")
    act(state, 0, "discard 2C")
    return state


def test_the_turned_stock_and_the_cards_drawn_from_it_are_public_until_laid() -> None:
    state = turned()
    assert state.stock_public
    assert state.stock == cards("8S 7H") and state.discard == cards("2C")
    assert sorted(state.public_draws[0]) == cards("5C 6D")  # QC came from the old, hidden stock
    assert state.public_draws[1] == [] and state.public_draws[2] == []
    again = load_state(dump_state(state))
    assert (again.stock_public, again.public_draws) == (state.stock_public, state.public_draws)
    old = {k: v for k, v in dump_state(state).items() if k not in ("stock_public", "public_draws")}
    assert not load_state(old).stock_public and load_state(old).public_draws == [[], [], []]
    act(state, 1, "discard 5D")
    state.turn = 0
    act(state, 0, "take 5C")  # a public card leaves the hand: no longer counted as known
    assert state.public_draws[0] == cards("6D")


def test_the_strong_knowledge_counts_public_draws_as_held_and_the_public_stock_as_seen() -> None:
    state = turned()
    plain, sharp = know(state, 1), infer(state, 1)
    assert plain.holds(0, 6) < 0.9
    assert sharp.holds(0, 6) == 1.0 and sharp.holds(0, 5) == 1.0
    # the eight and seven in the stock are no longer unseen
    assert sharp.unseen[8] == plain.unseen[8] - 1 and sharp.unseen[7] == plain.unseen[7] - 1
    assert sharp.pool == plain.pool - 4


def test_a_redeal_keeps_the_public_stock_and_draws() -> None:
    state = turned()
    for n in range(10):
        world = consistent(GAME.scramble_hidden(state, 1, Rng(f"w{n}")), 1, Rng(f"c{n}"))
        assert_cards_conserved(world)
        assert world.stock == state.stock
        assert Counter(world.public_draws[0]) <= Counter(world.hands[0])
        assert sorted(world.public_draws[0]) == cards("5C 6D")
        assert world.hands[1] == state.hands[1]


def test_strong_locks_its_pile_when_the_next_player_drew_a_card_of_its_top_from_the_public_stock() -> None:
    from bot.games.zlodej import computer_strong as strong
    state = make_state(4, hands=["JK 9S 4H 7C 2C", "KS 5C 8D 8H 2S", "2D 3H 4S 4C 7D", "3C 3S 7H 7S 8C"],
                       open_piles=[["6C 6D", "KC KD"], [], [], []], stock="5D 5H 8S 8C", discard="JD")
    state.laid = True
    state.stock_public = True
    state.public_draws[1] = cards("KS")  # seat 1, next to play, drew it from the turned stock
    action = strong.choose(state, 0, GAME.legal_actions(state, 0), Rng("s"))
    assert any(c.is_joker for c in getattr(action, "cards", ()))  # the kings and sixes are locked
    # the old knowledge (the draw not followed) kept the joker and left the kings to seat 1
    blind = strong.fast_copy(state)
    blind.stock_public, blind.public_draws = False, [[], [], [], []]
    assert not any(c.is_joker for c in getattr(strong.choose(blind, 0, GAME.legal_actions(blind, 0), Rng("s")),
                                              "cards", ()))


def test_strong_searches_to_the_final_count_from_a_short_public_stock_and_decides_alike_after_a_redeal() -> None:
    from bot.games.zlodej import computer_normal as normal
    from bot.games.zlodej import computer_strong as strong
    state = GAME.new(4, {}, "public-stock")
    while not (state.stock_public and len(state.stock) <= strong.PUBLIC_STOCK_SEARCH):
        assert not state.drawing_over
        seat = state.turn
        GAME.apply(state, seat, normal.choose(state, seat, GAME.legal_actions(state, seat), Rng("p")))
    assert strong.in_endgame(state) and not state.drawing_over
    hidden = ZlodejState(**{**vars(state), "stock_public": False})
    assert not strong.in_endgame(hidden)  # a hidden stock of the same size is not searched so
    assert strong_decides_alike_after_redeals(state, "p")
