"""Wild ("flygande") cards: they extend a natural combination and never change hands."""
from __future__ import annotations

import pytest

from bot.errors import IllegalAction

from .build import GAME, act, exchange_state, hand, play_state

TWOS = {"wild": "2"}


def test_a_wild_two_extends_a_pair_into_a_triple() -> None:
    state = play_state(["5C 5D 2S 9C", "6C 6D 6H 3D", "8C"], options=TWOS)
    act(state, 0, "play 5C 5D 2S")
    assert state.table[-1][1][-1].rank == 5  # sorted: the 2 counts as a five
    act(state, 1, "play 6C 6D 6H")


def test_a_wild_card_cannot_be_played_without_a_natural_card() -> None:
    state = play_state(["2S 2C 9C", "6C", "8C"], options=TWOS)
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "play 2S 2C")
    assert err.value.key == "tolp.error.wild_alone"


def test_without_the_option_twos_are_just_the_lowest_rank() -> None:
    state = play_state(["2S 2C 9C", "3C 3D 8D", "8C"])
    events = act(state, 0, "play 2S 2C")  # a plain pair of twos, not "wild alone"
    assert [(e.key, e.params["rank"]) for e in events] == [("tolp.event.played", "2")]
    act(state, 1, "play 3C 3D")  # the lowest pair above it beats it
    assert [seat for seat, _ in state.table] == [0, 1] and state.table[-1][1][0].rank == 3


def test_one_cannot_go_out_on_a_combination_with_a_wild_card() -> None:
    state = play_state(["9C 2S", "6C 7C", "8C 8D"], options=TWOS)
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "play 9C 2S")
    assert err.value.key == "tolp.error.out_on_wild"
    assert all(not (len(a.cards) == 2) for a in GAME.legal_actions(state, 0) if hasattr(a, "cards"))


def test_a_player_left_with_only_wild_cards_takes_the_lowest_free_place() -> None:
    state = play_state(["9C 2S", "6C 7C", "8C 8D", "KH KD"], options=TWOS)
    events = act(state, 0, "play 9C")
    assert "tolp.event.stuck" in [e.key for e in events]
    assert state.place_of(0) == 3 and state.table == [] and state.turn == 1


def test_jokers_add_two_wild_jokers_to_the_deck() -> None:
    state = GAME.new(3, {"wild": "jokers"}, "jokers")
    assert sum(len(h) for h in state.hands) == 54
    assert sum(1 for h in state.hands for c in h if c.is_joker) == 2
    assert str(state.must_include) == "2H"


def test_with_wild_twos_the_lowest_natural_card_starts() -> None:
    state = GAME.new(4, TWOS, "wild-start")
    assert str(state.must_include) == "3H"
    state = GAME.new(4, {"wild": "23"}, "wild-start")
    assert str(state.must_include) == "4H"


def test_wild_cards_cannot_be_laid_down_or_asked_for() -> None:
    state = exchange_state(["2C 5D 9H", "4C 6D 2D", "5C 7D AH"], [0, 1, 2], options=TWOS)
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "give 2C")
    assert err.value.key == "tolp.error.give_wild"
    act(state, 0, "give 5D")
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "ask 2")
    assert err.value.key == "tolp.error.ask_wild"


def test_high_never_takes_a_wild_card() -> None:
    state = exchange_state(["3C 5D 9H", "4C 6D 8D", "5C 7D 2D"], [0, 1, 2], options=TWOS)
    act(state, 0, "give 3C")
    act(state, 0, "high")
    assert hand(state, 2) == "2D 3C 5C"
