"""Turn order, discarding, drawing, turning the discard pile, the end phase and scoring."""
from __future__ import annotations

import pytest

from bot.errors import IllegalAction, InvalidAction, NotYourTurn
from bot.games.zlodej.actions import Discard, EndTurn

from .helpers import GAME, act, assert_cards_conserved, card, cards, make_state


def test_a_discard_ends_the_turn_and_refills_the_hand() -> None:
    state = make_state(hands=["7H 7S 2C 3D 4H", "5C 5D 6H 6S 8C"], stock="KS QS JS")
    events = act(state, 0, "new 7H 7S")
    events += act(state, 0, "discard 2C")
    assert state.turn == 1
    assert state.discard[-1] == cards("2C")[0]
    assert sorted(state.hands[0]) == sorted(cards("3D 4H JS QS KS"))
    assert "zlodej.event.drew" in events
    with pytest.raises(NotYourTurn):
        act(state, 0, "discard 3D")
    assert_cards_conserved(state)


def test_after_a_discard_nothing_more_may_be_laid() -> None:
    state = make_state(hands=["7H 7S 2C 3D 4H", "5C 5D 6H 6S 8C"])
    act(state, 0, "discard 2C")
    with pytest.raises(NotYourTurn):
        act(state, 0, "new 7H 7S")


def test_ending_a_turn_without_laying_is_refused() -> None:
    state = make_state(hands=["7H 7S 2C 3D 4H", "5C 5D 6H 6S 8C"])
    with pytest.raises(IllegalAction) as exc:
        act(state, 0, "end")
    assert exc.value.key == "zlodej.error.end_without_lay"
    assert "end" not in [str(a) for a in GAME.legal_actions(state, 0)]


def test_end_after_a_lay_keeps_the_rest_and_draws_up_to_five() -> None:
    state = make_state(hands=["7H 7S 2C 3D 4H", "5C 5D 6H 6S 8C"], stock="KS QS JS")
    act(state, 0, "new 7H 7S")
    act(state, 0, "end")
    assert state.turn == 1 and not state.laid
    assert len(state.hands[0]) == 5 and state.stock == cards("KS")


def test_a_short_stock_is_drawn_then_the_discard_is_turned_over_keeping_its_top() -> None:
    state = make_state(hands=["7H 7S 2C 3D 4H", "5C 5D 6H 6S 8C"], stock="KS", discard="9C 9D 10H JH QH")
    events = act(state, 0, "new 7H 7S")
    events += act(state, 0, "end")
    assert "zlodej.event.turned" in events
    # KS came from the stock; then the turned pile (not shuffled) gives its bottom cards first
    assert sorted(state.hands[0]) == sorted(cards("2C 3D 4H KS 9C"))
    assert state.discard == cards("QH")
    assert state.stock == cards("JH 10H 9D")  # the last card is the next to draw
    assert not state.drawing_over
    assert_cards_conserved(state)


def test_one_card_always_stays_in_the_discard_and_then_drawing_stops_for_everyone() -> None:
    state = make_state(hands=["7H 7S 2C 3D 4H", "5C 5D 6H 6S 8C"], stock="", discard="9C 9D")
    events = act(state, 0, "new 7H 7S")
    events += act(state, 0, "end")
    assert state.discard == cards("9D")
    assert sorted(state.hands[0]) == sorted(cards("2C 3D 4H 9C"))
    assert state.drawing_over and "zlodej.event.no_more_drawing" in events
    act(state, 1, "discard 8C")
    assert len(state.hands[1]) == 4 and state.discard == cards("9D 8C")  # no drawing, no turning


def test_a_single_discard_card_is_never_turned_over() -> None:
    state = make_state(hands=["7H 7S 2C 3D 4H", "5C 5D 6H 6S 8C"], stock="", discard="9C")
    act(state, 0, "new 7H 7S")
    act(state, 0, "end")
    assert state.discard == cards("9C") and state.stock == []
    assert state.drawing_over and len(state.hands[0]) == 3 and len(state.hands[1]) == 5


def test_a_discard_just_made_can_be_turned_over_and_drawn_by_its_owner() -> None:
    state = make_state(hands=["7H 7S 2C 3D 4H", "5C 5D 6H 6S 8C"], stock="", discard="9C")
    act(state, 0, "discard 2C")
    assert state.discard == cards("2C") and state.stock == []
    assert cards("9C")[0] in state.hands[0] and not state.drawing_over


def test_in_the_end_phase_empty_hands_are_skipped_and_the_game_ends_when_all_are_out() -> None:
    state = make_state(3, hands=["2C", "", "3D 3H"], stock="", discard="9C", drawing_over=True)
    act(state, 0, "discard 2C")
    assert state.turn == 2  # seat 1 holds nothing and is skipped
    assert GAME.outcome(state) is None
    act(state, 2, "new 3D 3H")
    assert state.finished and GAME.to_act(state) == frozenset()
    assert GAME.legal_actions(state, 2) == []
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "zlodej.end.cards_out"


def test_the_last_player_with_cards_keeps_playing_alone() -> None:
    state = make_state(2, hands=["2C 4D", ""], stock="", discard="9C", drawing_over=True)
    act(state, 0, "discard 2C")
    assert state.turn == 0 and not state.finished
    act(state, 0, "discard 4D")
    assert state.finished


def test_scores_count_every_card_in_open_and_locked_piles() -> None:
    state = make_state(3, hands=["", "", "5S"], open_piles=[["2C 2D", "KC KD"], ["AH AS"], []],
                       locked=["10H 10S JK", "", ""], stock="", discard="9C", drawing_over=True, turn=2)
    act(state, 2, "discard 5S")
    outcome = GAME.outcome(state)
    assert outcome is not None
    # seat 0: 5+5 + 10+10 + 10+10+50; seat 1: 20+20; seat 2: nothing but what the helper locks away
    assert outcome.scores[0] == 100 and outcome.scores[1] == 40
    assert GAME.observe(state, None)["public"]["scores"][0] == 100


def test_equal_scores_share_a_place() -> None:
    # the helper locks every unused card away in seat 2's pile, so seat 2 leads by far
    state = make_state(3, hands=["", "", "5S"], open_piles=[["KC KD"], ["QH QS"], []],
                       stock="", discard="9C", drawing_over=True, turn=2)
    act(state, 2, "discard 5S")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.places == ((2,), (0, 1))
    assert outcome.winners == (2,)


@pytest.mark.parametrize(("players", "total"), [(2, 108), (3, 108), (6, 108), (7, 162), (9, 162),
                                                (10, 216)])
def test_two_decks_up_to_six_players_then_one_more_per_three(players: int, total: int) -> None:
    state = GAME.new(players, {}, "decks")
    assert len(state.all_cards()) == total
    assert sum(c.is_joker for c in state.all_cards()) == total // 54 * 2
    assert all(len(hand) == 5 for hand in state.hands)
    assert len(state.stock) == total - 5 * players and state.discard == []


def test_resigning_in_a_two_player_game_ends_it_with_the_other_first() -> None:
    state = GAME.new(2, {}, "resign")
    GAME.resign(state, 0)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.places == ((1,), (0,))
    assert_cards_conserved(state)


def test_a_resigned_seat_is_skipped_and_its_hand_goes_under_the_stock() -> None:
    state = GAME.new(3, {}, "resign3")
    hand = list(state.hands[0])
    GAME.resign(state, 0)
    assert state.turn == 1 and state.hands[0] == [] and state.stock[:5] == hand
    assert GAME.outcome(state) is None
    assert_cards_conserved(state)


def refusal(text: str) -> InvalidAction:
    with pytest.raises(InvalidAction) as caught:
        GAME.parse_action(text)
    return caught.value


def test_discarding_more_than_one_card_is_refused_with_its_own_reason() -> None:
    error = refusal("discard 7H 7S")
    assert error.key == "zlodej.error.discard_one"
    assert refusal("discard").key == "zlodej.error.discard_one"


@pytest.mark.parametrize("text", ["new AH AH AH AH AH AH", "new AH,AH,AH,AH,AH,AH", "steal 1 7H 7H 7S 7S 7C 7D"])
def test_more_cards_than_a_hand_holds_are_refused_with_their_own_reason(text: str) -> None:
    error = refusal(text)
    assert error.key == "zlodej.error.too_many_cards"
    assert error.params["count"] == 6


def test_a_timed_out_turn_is_skipped_by_discarding_the_cheapest_card_or_ending_after_a_lay() -> None:
    state = make_state(hands=["AS KS 7H 7S 2C", "5C 5D 6H 6S 8C"], stock="QS JS 9D")
    skip = GAME.skip_action(state, 0)
    assert skip == Discard(card("2C"))
    act(state, 0, "new 7H 7S")
    assert GAME.skip_action(state, 0) == EndTurn()
    GAME.apply(state, 0, EndTurn())
    assert state.turn == 1 and len(state.hands[0]) == 5
    assert_cards_conserved(state)


def test_a_skipped_turn_keeps_the_jokers_and_pairs() -> None:
    state = make_state(hands=["JK 9H 9S 3C", "5C 5D 6H 6S 8C"], stock="QS JS 9D KD")
    skip = GAME.skip_action(state, 0)
    assert skip == Discard(card("3C"))
    GAME.apply(state, 0, skip)
    assert state.turn == 1 and state.discard[-1] == card("3C")
    assert GAME.skip_action(state, 0) is None  # not their turn any more
