"""The four ways to lay cards, with and without jokers, and the locked piles jokers make."""
from __future__ import annotations

import pytest

from bot.errors import IllegalAction

from .helpers import act, assert_cards_conserved, card, cards, make_state


def test_new_group_of_two_equal_ranks_goes_on_own_pile() -> None:
    state = make_state(hands=["7H 7S 2C 3D 4H", "5C 5D 6H 6S 8C"])
    act(state, 0, "new 7H 7S")
    assert state.open_piles[0] == [cards("7H 7S")]
    assert state.hands[0] == cards("2C 3D 4H")
    assert state.turn == 0 and state.laid
    assert_cards_conserved(state)


def test_new_group_needs_two_cards_of_one_rank() -> None:
    state = make_state(hands=["7H 7S 8C 3D 4H", "5C 5D 6H 6S 8C"])
    with pytest.raises(IllegalAction) as single:
        act(state, 0, "new 7H")
    assert single.value.key == "zlodej.error.group_too_small"
    with pytest.raises(IllegalAction) as mixed:
        act(state, 0, "new 7H 8C")
    assert mixed.value.key == "zlodej.error.mixed_ranks"


def test_cards_not_in_hand_are_refused_counting_duplicates() -> None:
    state = make_state(hands=["7H 7S 8C 3D 4H", "5C 5D 6H 6S 8C"])
    with pytest.raises(IllegalAction) as exc:
        act(state, 0, "new 7H 7H")
    assert exc.value.key == "zlodej.error.not_in_hand"


def test_new_group_of_a_different_rank_is_laid_crosswise_on_top() -> None:
    state = make_state(hands=["7H 7S 9C 9D 4H", "5C 5D 6H 6S 8C"], open_piles=[[], []])
    act(state, 0, "new 7H 7S")
    act(state, 0, "new 9C 9D")
    assert state.open_piles[0] == [cards("7H 7S"), cards("9C 9D")]


def test_new_group_with_a_joker_locks_the_pile_with_the_joker_on_top() -> None:
    state = make_state(hands=["7H JK 2C 3D 4H", "5C 5D 6H 6S 8C"], open_piles=[["9C 9D"], []])
    events = act(state, 0, "new 7H JK")
    assert "zlodej.event.locked" in events
    assert state.open_piles[0] == []
    assert state.locked[0] == [cards("9C 9D 7H JK")]
    assert_cards_conserved(state)


def test_add_puts_cards_of_the_top_groups_rank_on_it() -> None:
    state = make_state(hands=["7C 2C 3D 4H 5S", "5C 5D 6H 6S 8C"], open_piles=[["9C 9D", "7H 7S"], []])
    act(state, 0, "add 7C")
    assert state.open_piles[0] == [cards("9C 9D"), cards("7H 7S 7C")]


def test_add_needs_the_top_groups_rank_and_an_open_pile() -> None:
    state = make_state(hands=["9H 2C 3D 4H 5S", "5C 5D 6H 6S 8C"], open_piles=[["9C 9D", "7H 7S"], []])
    with pytest.raises(IllegalAction) as wrong:
        act(state, 0, "add 9H")  # 9s lie below the top group
    assert wrong.value.key == "zlodej.error.rank_mismatch"
    empty = make_state(hands=["9H 2C 3D 4H 5S", "5C 5D 6H 6S 8C"])
    with pytest.raises(IllegalAction) as none:
        act(empty, 0, "add 9H")
    assert none.value.key == "zlodej.error.no_open_group"


def test_a_joker_alone_can_add_and_locks_the_pile() -> None:
    state = make_state(hands=["JK 2C 3D 4H 5S", "5C 5D 6H 6S 8C"], open_piles=[["7H 7S"], []])
    act(state, 0, "add JK")
    assert state.locked[0] == [cards("7H 7S JK")]
    assert state.open_piles[0] == []


def test_steal_takes_the_whole_top_group_with_the_own_cards() -> None:
    state = make_state(hands=["8C 8S 3D 4H 5S", "5C 5D 6H 6S 9C"],
                       open_piles=[["2C 2D"], ["KC KD", "8H 8D 8H"]])
    events = act(state, 0, "steal 1 8C 8S")
    assert "zlodej.event.steal" in events
    assert state.open_piles[1] == [cards("KC KD")]
    assert state.open_piles[0] == [cards("2C 2D"), cards("8H 8D 8H 8C 8S")]
    assert_cards_conserved(state)


def test_steal_needs_the_rank_of_the_targets_top_group() -> None:
    state = make_state(hands=["KS 8S 3D 4H 5S", "5C 5D 6H 6S 9C"],
                       open_piles=[[], ["KC KD", "8H 8D"]])
    with pytest.raises(IllegalAction) as exc:
        act(state, 0, "steal 1 KS")
    assert exc.value.key == "zlodej.error.rank_mismatch"


def test_a_joker_alone_steals_any_top_group_and_locks_the_thiefs_pile() -> None:
    state = make_state(hands=["JK 3C 3D 4H 5S", "5C 5D 6H 6S 9C"],
                       open_piles=[["2C 2D"], ["KC KD", "AH AD"]])
    act(state, 0, "steal 1 JK")
    assert state.open_piles[1] == [cards("KC KD")]
    assert state.locked[0] == [cards("2C 2D AH AD JK")]
    assert state.open_piles[0] == []


def test_stealing_from_a_locked_pile_is_refused() -> None:
    state = make_state(hands=["7C JK 3D 4H 5S", "5C 5D 6H 6S 9C"], locked=["", "7H 7S JK"])
    with pytest.raises(IllegalAction) as exc:
        act(state, 0, "steal 1 7C")
    assert exc.value.key == "zlodej.error.pile_locked"
    with pytest.raises(IllegalAction) as joker:
        act(state, 0, "steal 1 JK")
    assert joker.value.key == "zlodej.error.pile_locked"


def test_stealing_from_oneself_or_an_empty_seat_is_refused() -> None:
    state = make_state(3, hands=["7C 3C 3D 4H 5S", "5C 5D 6H 6S 9C", "2C 2D 2H 4S 4C"],
                       open_piles=[["7H 7S"], [], []])
    for text, key in [("steal 0 7C", "steal_from_self"), ("steal 1 7C", "nothing_to_steal"),
                      ("steal 5 7C", "no_such_seat")]:
        with pytest.raises(IllegalAction) as exc:
            act(state, 0, text)
        assert exc.value.key == f"zlodej.error.{key}"


def test_take_wins_the_discard_top_with_a_card_of_its_rank() -> None:
    state = make_state(hands=["QC 3C 3D 4H 5S", "5C 5D 6H 6S 9C"], discard="2S 4D QH")
    act(state, 0, "take QC")
    assert state.discard == cards("2S 4D")
    assert state.open_piles[0] == [cards("QH QC")]
    assert_cards_conserved(state)


def test_take_needs_a_matching_rank_and_a_discard() -> None:
    state = make_state(hands=["QC 3C 3D 4H 5S", "5C 5D 6H 6S 9C"], discard="2S 4D")
    with pytest.raises(IllegalAction) as wrong:
        act(state, 0, "take QC")
    assert wrong.value.key == "zlodej.error.rank_mismatch"
    empty = make_state(hands=["QC 3C 3D 4H 5S", "5C 5D 6H 6S 9C"])
    with pytest.raises(IllegalAction) as none:
        act(empty, 0, "take QC")
    assert none.value.key == "zlodej.error.discard_empty"


def test_a_joker_alone_takes_the_discard_top_and_locks() -> None:
    state = make_state(hands=["JK 3C 3D 4H 5S", "5C 5D 6H 6S 9C"], discard="2S AD")
    act(state, 0, "take JK")
    assert state.locked[0] == [cards("AD JK")]
    assert state.discard == cards("2S")


def test_a_discarded_joker_can_be_taken_only_with_a_joker() -> None:
    state = make_state(hands=["JK 3C 3D 4H 5S", "5C 5D 6H 6S 9C"], discard="2S JK")
    with pytest.raises(IllegalAction):
        act(state, 0, "take 3C")
    act(state, 0, "take JK")
    assert state.locked[0] == [cards("JK JK")]


def test_a_rank_matching_the_own_top_group_joins_it_instead_of_crossing() -> None:
    state = make_state(hands=["8C 3C 3D 4H 5S", "5C 5D 6H 6S 9C"],
                       open_piles=[["8S 8D"], ["8H 8H"]])
    act(state, 0, "steal 1 8C")
    assert state.open_piles[0] == [cards("8S 8D 8H 8H 8C")]


def test_several_lays_in_one_turn() -> None:
    state = make_state(hands=["8C 8S 3D 3H 5S", "5C 5D 6H 6S 9C"], discard="5H")
    act(state, 0, "new 8C 8S")
    act(state, 0, "new 3D 3H")
    act(state, 0, "take 5S")
    assert state.open_piles[0] == [cards("8C 8S"), cards("3D 3H"), cards("5H 5S")]
    # the hand ran out: the turn ended by itself and the hand was refilled
    assert state.turn == 1 and len(state.hands[0]) == 5
    assert card("5H") not in state.discard
