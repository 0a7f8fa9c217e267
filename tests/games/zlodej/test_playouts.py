"""Whole games: card conservation after every action, the computer player, what observations show."""
from __future__ import annotations

import random

import pytest

from bot.engine.registry import computer_action
from bot.engine.rng import Rng
from bot.errors import InvalidAction
from bot.games.zlodej.actions import Discard, Steal, TakeDiscard

from .helpers import GAME, act, assert_cards_conserved, card, cards, make_state


@pytest.mark.parametrize("players", [2, 4, 7, 10])
def test_every_card_stays_in_exactly_one_place_through_random_games(players: int) -> None:
    chooser = random.Random(f"conserve/{players}")  # a local instance, never the global one
    state = GAME.new(players, {}, f"conserve-{players}")
    saw_turning = saw_end_phase = False
    for _ in range(GAME.max_playout_actions):
        if GAME.outcome(state) is not None:
            break
        seat = state.turn
        keys = [e.key for e in GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat)))]
        assert_cards_conserved(state)
        saw_turning |= "zlodej.event.turned" in keys
        saw_end_phase |= state.drawing_over
    assert GAME.outcome(state) is not None
    assert all(not hand for hand in state.hands) and state.drawing_over
    assert saw_turning and saw_end_phase


@pytest.mark.parametrize("players", [2, 3, 5])
def test_computer_players_finish_a_game_with_legal_moves(players: int) -> None:
    state = GAME.new(players, {}, f"bots-{players}")
    for _ in range(GAME.max_playout_actions):
        if GAME.outcome(state) is not None:
            break
        seat = state.turn
        action = computer_action(GAME, state, seat)
        assert action in GAME.legal_actions(state, seat)
        GAME.apply(state, seat, action)
        assert_cards_conserved(state)
    outcome = GAME.outcome(state)
    assert outcome is not None and sum(outcome.scores.values()) > 0


def test_the_computer_steals_the_most_valuable_top_group() -> None:
    state = make_state(3, hands=["8C KS 3D 4H 5S", "5C 5D 6H 6S 9C", "2C 2D 2H 4S 4C"],
                       open_piles=[[], ["8H 8D"], ["KC KD KH"]], discard="3C")
    assert computer_action(GAME, state, 0) == Steal(2, tuple(cards("KS")))


def test_the_computer_takes_the_discard_rather_than_lay_its_own_pair() -> None:
    state = make_state(hands=["7C 7D AS 4H 5S", "5C 5D 6H 6S 9C"], discard="AH")
    assert computer_action(GAME, state, 0) == TakeDiscard(tuple(cards("AS")))


def test_the_computer_discards_its_least_valuable_single_card() -> None:
    state = make_state(hands=["AC KD 6C QS JK", "5C 5D 6H 6S 9C"], discard="2H")
    assert computer_action(GAME, state, 0) == Discard(card("6C"))


def test_the_computer_spends_a_joker_to_lock_a_rich_pile() -> None:
    state = make_state(hands=["JK 2C 3D 4H 6S", "5C 5D 6H 6S 9C"], open_piles=[["AH AS", "KC KD"], []])
    action = computer_action(GAME, state, 0)
    GAME.apply(state, 0, action)
    assert state.open_piles[0] == [] and len(state.locked[0]) == 1
    assert set(cards("AH AS KC KD")) <= set(state.locked[0][0])


def test_the_public_view_shows_only_the_top_two_groups_and_counts() -> None:
    state = make_state(hands=["2C 3D 4H 5S 6C", "5C 5D 6H 6S 9C"],
                       open_piles=[["KC KD", "8H 8D 8S", "AH AS"], []], locked=["", "7H 7S JK"])
    public = GAME.observe(state, 1)["public"]
    seat0 = public["seats"][0]
    assert seat0["top_groups"] == [{"rank": "A", "count": 2, "top": "AS"},
                                   {"rank": "8", "count": 3, "top": "8S"}]
    assert seat0["open_count"] == 7 and seat0["hand"] == 5
    assert public["seats"][1]["locked"][-1]["top"] == "JK"
    assert "KC" not in str(public)
    own = GAME.observe(state, 0)["private"]
    assert own["hand"] == ["2C", "3D", "4H", "5S", "6C"]
    assert own["open_groups"][0] == ["KC", "KD"]


def test_scrambling_hidden_cards_keeps_every_public_fact() -> None:
    state = GAME.new(4, {}, "scramble")
    chooser = random.Random("scramble")
    for _ in range(120):
        GAME.apply(state, state.turn, chooser.choice(GAME.legal_actions(state, state.turn)))
    for viewer in [None, 0, 2]:
        copy = GAME.scramble_hidden(state, viewer, Rng("s"))
        assert GAME.observe(copy, viewer) == GAME.observe(state, viewer)
        assert_cards_conserved(copy)
        assert copy.hands != state.hands or copy.stock != state.stock


def test_action_texts_are_canonical_whatever_the_card_order() -> None:
    assert str(GAME.parse_action("new 7s 7h")) == "new 7H 7S"
    assert str(GAME.parse_action("steal 2 jk 10d")) == "steal 2 10D JK"
    assert str(GAME.parse_action("take 7D")) == "take 7D"
    assert str(GAME.parse_action("discard 3c")) == "discard 3C"
    assert str(GAME.parse_action(" END ")) == "end"
    assert str(GAME.parse_action("add QH")) == "add QH"


@pytest.mark.parametrize("text", ["", "steal 7D", "steal x 7D", "discard 3C 4C", "new", "end now",
                                  "new 1X", "new 2C 2D 2H 2S 2C 2D", "fly 7D"])
def test_unreadable_action_texts_are_invalid(text: str) -> None:
    with pytest.raises(InvalidAction):
        GAME.parse_action(text)


def test_events_name_only_public_facts_except_the_drawn_cards() -> None:
    state = make_state(hands=["7H 7S 2C 3D 4H", "5C 5D 6H 6S 8C"], stock="KS QS JS")
    act(state, 0, "new 7H 7S")
    events = GAME.apply(state, 0, GAME.parse_action("discard 2C"))
    private = [e for e in events if e.visible_to is not None]
    assert [e.key for e in private] == ["zlodej.event.drew_cards"]
    assert private[0].visible_to == frozenset({0}) and private[0].params["cards"] == "JS QS KS"
