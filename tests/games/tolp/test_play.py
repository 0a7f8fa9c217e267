"""Trick play: what beats what, the start, passing, clearing, going out and the round's titles."""
from __future__ import annotations

import pytest

from bot.engine.cards import parse_cards
from bot.errors import IllegalAction, NotYourTurn

from .build import GAME, act, hand, play_state


def on_table(lead: str, follow: str) -> None:
    """Seat 0 leads ``lead``, seat 1 tries ``follow`` (both keep spare cards); when it beats the
    lead it lies on top of the table and the turn passes on."""
    state = play_state([f"{lead} 2C", f"{follow} 2D", "3C"])
    act(state, 0, f"play {lead}")
    act(state, 1, f"play {follow}")
    assert state.table == [(0, sorted(parse_cards(lead))), (1, sorted(parse_cards(follow)))]
    assert hand(state, 1) == "2D" and state.turn == 2


def test_three_sixes_beat_two_fives() -> None:
    on_table("5C 5D", "6C 6D 6H")


def test_three_aces_beat_three_kings() -> None:
    on_table("KC KD KH", "AC AD AH")


def test_two_sixes_do_not_beat_three_fours() -> None:
    with pytest.raises(IllegalAction) as err:
        on_table("4C 4D 4H", "6C 6D")
    assert err.value.key == "tolp.error.too_few" and err.value.params["count"] == 3


def test_a_ten_does_not_beat_a_ten() -> None:
    with pytest.raises(IllegalAction) as err:
        on_table("10C", "10D")
    assert err.value.key == "tolp.error.too_low"


def test_no_single_on_a_pair_even_when_higher() -> None:
    with pytest.raises(IllegalAction) as err:
        on_table("5C 5D", "AS")
    assert err.value.key == "tolp.error.too_few"


def test_a_multiple_must_match_the_biggest_combination_on_the_table() -> None:
    state = play_state(["4C 4D 2C", "7C 7D 7H 2D", "9C 9D 3C", "3D"])
    act(state, 0, "play 4C 4D")
    act(state, 1, "play 7C 7D 7H")
    with pytest.raises(IllegalAction):
        act(state, 2, "play 9C 9D")


def test_ace_is_high_two_is_low_and_suits_do_not_matter() -> None:
    state = play_state(["2S KH", "AC 3D", "4H 5H"])
    act(state, 0, "play KH")
    act(state, 1, "play AC")
    with pytest.raises(IllegalAction):
        act(state, 2, "play 5H")
    state = play_state(["2S 9H", "3D 9C", "4H 5H"])
    act(state, 0, "play 2S")
    act(state, 1, "play 3D")
    assert [(seat, str(cards[0])) for seat, cards in state.table] == [(0, "2S"), (1, "3D")]


def test_cards_of_different_ranks_are_no_combination() -> None:
    state = play_state(["5C 6C 9D", "3D", "4D"])
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "play 5C 6C")
    assert err.value.key == "tolp.error.mixed_ranks"


def test_cards_not_in_hand_are_refused() -> None:
    state = play_state(["5C 6C", "3D", "4D"])
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "play 5D")
    assert err.value.key == "tolp.error.not_in_hand"


def test_hearts_two_holder_starts_and_first_play_must_contain_it() -> None:
    state = GAME.new(4, {}, "start")
    holder = next(s for s in range(4) if "2H" in hand(state, s).split())
    assert GAME.to_act(state) == {holder}
    assert state.must_include is not None and str(state.must_include) == "2H"
    other = next(a for a in GAME.legal_actions(state, holder) if "2H" in str(a))
    assert all("2H" in str(a) for a in GAME.legal_actions(state, holder))
    lowest_other = next(c for c in state.hands[holder] if str(c) != "2H")
    with pytest.raises(IllegalAction) as err:
        act(state, holder, f"play {lowest_other}")
    assert err.value.key == "tolp.error.must_include"
    GAME.apply(state, holder, other)
    assert state.must_include is None


def test_only_the_seat_in_turn_may_play() -> None:
    state = play_state(["5C 6C", "3D 4C", "4D 8C"])
    with pytest.raises(NotYourTurn):
        act(state, 1, "play 3D")


def test_a_pass_only_passes_the_current_combination() -> None:
    state = play_state(["5C 9C 2S", "8D QD 2D", "6H 10H 3S"])
    act(state, 0, "play 5C")
    act(state, 1, "pass")
    act(state, 2, "play 6H")
    act(state, 0, "play 9C")
    act(state, 1, "play QD")  # passed on the 5, may play on the 9 in the same trick
    assert [seat for seat, _ in state.table] == [0, 2, 0, 1]


def test_table_clears_when_everyone_else_passes_and_its_player_leads() -> None:
    state = play_state(["5C 9C", "8D QD", "6H 10H"])
    act(state, 0, "play 9C")
    act(state, 1, "pass")
    events = act(state, 2, "pass")
    assert state.table == [] and state.turn == 0
    assert events[-1].key == "tolp.event.cleared" and events[-1].params["seat"] == 0
    act(state, 0, "play 5C")  # any card leads a cleared table


def test_the_leader_of_an_empty_table_cannot_pass() -> None:
    state = play_state(["5C 9C", "8D QD", "6H 10H"])
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "pass")
    assert err.value.key == "tolp.error.must_lead"


def test_going_out_clears_the_table_and_the_next_player_leads() -> None:
    state = play_state(["9C", "8D QD", "6H 10H", "3S 4S"])
    events = act(state, 0, "play 9C")
    assert [e.key for e in events] == ["tolp.event.played", "tolp.event.went_out", "tolp.event.cleared"]
    assert state.table == [] and state.turn == 1 and state.place_of(0) == 0
    act(state, 1, "play 8D")  # a fresh lead: lower than the 9 is fine


def test_passes_skip_a_player_who_went_out() -> None:
    state = play_state(["9C", "KD QD", "6H 10H", "3S 4S"])
    act(state, 0, "play 9C")
    act(state, 1, "play QD")
    act(state, 2, "pass")
    act(state, 3, "pass")
    assert state.turn == 1 and state.table == []


def test_finishing_order_gives_kung_greve_bonde_tolp_and_ends_the_round() -> None:
    state = play_state(["9C", "10D", "JH", "3S 4S"], options={"scoring": "endless"})
    act(state, 0, "play 9C")
    act(state, 1, "play 10D")
    events = act(state, 2, "play JH")
    keys = [e.key for e in events]
    assert "tolp.event.round_over" in keys
    assert state.protocol == [[0, 1, 2, 3]]
    assert state.titles == ["kung", "greve", "bonde", "tolp"]
    assert state.kungs == [1, 0, 0, 0]
    assert state.round == 2 and state.phase == "exchange"


def test_three_players_have_kung_greve_and_tolp() -> None:
    state = play_state(["9C", "10D", "3S 4S"])
    act(state, 0, "play 9C")
    act(state, 1, "play 10D")
    assert state.titles == ["kung", "greve", "tolp"]


def test_the_player_left_with_cards_is_not_said_to_go_out() -> None:
    state = play_state(["9C", "10D", "3S 4S"], options={"scoring": "endless"})
    act(state, 0, "play 9C")
    events = act(state, 1, "play 10D")
    placed = [(e.key, e.params["seat"], e.params["place"]) for e in events
              if e.key in ("tolp.event.went_out", "tolp.event.last")]
    assert placed == [("tolp.event.went_out", 1, 2), ("tolp.event.last", 2, 3)]
