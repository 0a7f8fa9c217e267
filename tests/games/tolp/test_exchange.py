"""Exchanges between rounds: counts per pair, laying down, "högt", questions and claims."""
from __future__ import annotations

import pytest

from bot.engine.registry import computer_action
from bot.errors import IllegalAction, NotYourTurn
from bot.games.tolp.state import exchange_pairs

from .build import GAME, act, exchange_state, hand

# seat 0 was Kung, seat 1 Greve, seat 2 Bonde... seat N-1 Tölp unless the test says otherwise


@pytest.mark.parametrize(("players", "counts"), [
    (3, [1]), (4, [2, 1]), (5, [2, 1]), (6, [3, 2, 1]), (7, [3, 2, 1]), (8, [4, 3, 2, 1]),
])
def test_outermost_pair_swaps_half_the_players_down_to_one(players: int, counts: list[int]) -> None:
    pairs = exchange_pairs(players, 0)
    assert [n for _, _, n in pairs] == counts
    assert [(hi, lo) for hi, lo, _ in pairs] == [(i, players - 1 - i) for i in range(len(counts))]


@pytest.mark.parametrize(("players", "counts"), [
    (3, [1]), (6, [3, 2, 1]), (7, [3, 2, 1]), (8, [3, 2, 1]), (10, [3, 2, 1]),
])
def test_a_cap_of_three_leaves_the_middle_neutral(players: int, counts: list[int]) -> None:
    assert [n for _, _, n in exchange_pairs(players, 3)] == counts


def test_a_cap_of_one_swaps_only_kung_and_tolp() -> None:
    assert exchange_pairs(6, 1) == [(0, 5, 1)]


def test_a_finished_round_pairs_places_from_the_outside_in() -> None:
    state = GAME.new(4, {}, "pairs")
    while state.round == 1:
        seat = next(iter(GAME.to_act(state)))
        GAME.apply(state, seat, computer_action(GAME, state, seat))
    order = state.protocol[0]
    assert [(e.high, e.low, e.count) for e in state.exchanges] == [
        (order[0], order[3], 2), (order[1], order[2], 1)]
    assert GAME.to_act(state) == {order[0], order[1]}  # both exchanges run at once


FOUR = ["3C 5D 9H KS AC", "4C 6D 8H QS", "5C 7D 7H JS", "6C 8D 9S 9D AH AS"]
# last round: 0 Kung, 1 Greve, 2 Bonde, 3 Tölp -> 0 swaps 2 with 3, 1 swaps 1 with 2


def test_only_higher_players_act_and_all_exchanges_run_in_parallel() -> None:
    state = exchange_state(FOUR, [0, 1, 2, 3])
    assert GAME.to_act(state) == {0, 1}
    with pytest.raises(NotYourTurn):
        act(state, 3, "high")


def test_high_after_laying_down_takes_the_partners_highest_cards() -> None:
    state = exchange_state(FOUR, [0, 1, 2, 3])
    act(state, 0, "give 3C 5D")
    assert hand(state, 0) == "9H KS AC"
    act(state, 0, "high")
    assert hand(state, 0) == "9H KS AC AH AS"
    assert hand(state, 3) == "3C 5D 6C 8D 9D 9S"
    assert GAME.to_act(state) == {1}


def test_one_must_lay_down_before_saying_high_or_asking() -> None:
    state = exchange_state(FOUR, [0, 1, 2, 3])
    for text in ("high", "ask 9", "claim 9"):
        with pytest.raises(IllegalAction) as err:
            act(state, 0, text)
        assert err.value.key == "tolp.error.lay_down_first"


def test_laying_down_needs_exactly_the_exchange_count_from_ones_hand() -> None:
    state = exchange_state(FOUR, [0, 1, 2, 3])
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "give 3C")
    assert err.value.key == "tolp.error.give_count"
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "give 3C 4C")
    assert err.value.key == "tolp.error.not_in_hand"
    act(state, 0, "give 3C 5D")
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "give 9H KS")
    assert err.value.key == "tolp.error.already_laid"


def test_asking_reveals_the_partners_count_to_the_pair_only() -> None:
    state = exchange_state(FOUR, [0, 1, 2, 3])
    act(state, 0, "give 3C 5D")
    events = act(state, 0, "ask 9")
    assert events[0].key == "tolp.event.asked"
    assert events[0].params["count"] == 2 and events[0].visible_to == {0, 3}
    assert GAME.observe(state, 0)["private"]["exchange"]["asked"] == [{"rank": "9", "count": 2}]
    assert GAME.observe(state, 3)["private"]["exchange"]["asked"] == [{"rank": "9", "count": 2}]
    assert GAME.observe(state, 1)["private"]["exchange"]["asked"] == []
    assert "asked" not in GAME.observe(state, None)["public"]["exchanges"][0]


def test_one_may_only_ask_about_a_rank_one_holds_and_only_once() -> None:
    state = exchange_state(FOUR, [0, 1, 2, 3])
    act(state, 0, "give 3C 5D")
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "ask 3")  # laid down: no longer in the hand
    assert err.value.key == "tolp.error.ask_not_held"
    act(state, 0, "ask A")
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "ask A")
    assert err.value.key == "tolp.error.already_asked"


def test_a_claim_takes_named_cards_and_fills_the_shortfall_with_the_highest() -> None:
    state = exchange_state(FOUR, [0, 1, 2, 3])
    act(state, 0, "give 3C 5D")
    act(state, 0, "ask 9")
    act(state, 0, "claim 9")
    assert hand(state, 0) == "9H 9S KS AC AS"  # one 9 named, the ace of the two fills in
    assert hand(state, 3) == "3C 5D 6C 8D 9D AH"


def test_a_claim_of_two_named_cards_takes_both() -> None:
    state = exchange_state(FOUR, [0, 1, 2, 3])
    act(state, 0, "give 3C 5D")
    act(state, 0, "ask 9")
    act(state, 0, "claim 9 9")
    assert hand(state, 0) == "9D 9H 9S KS AC"
    assert hand(state, 3) == "3C 5D 6C 8D AH AS"


def test_claims_are_limited_to_asked_ranks_their_answers_and_the_count() -> None:
    state = exchange_state(FOUR, [0, 1, 2, 3])
    act(state, 0, "give 3C 5D")
    act(state, 0, "ask K")
    act(state, 0, "ask 9")
    cases = {"claim A": "claim_not_asked", "claim K": "claim_too_many", "claim 9 9 9": "claim_over_limit"}
    for text, code in cases.items():
        with pytest.raises(IllegalAction) as err:
            act(state, 0, text)
        assert err.value.key == f"tolp.error.{code}"


def test_the_low_player_sees_laid_cards_only_when_picking_them_up() -> None:
    state = exchange_state(FOUR, [0, 1, 2, 3])
    act(state, 0, "give 3C 5D")
    assert GAME.observe(state, 3)["private"]["exchange"]["laid"] is None
    assert GAME.observe(state, 0)["private"]["exchange"]["laid"] == ["3C", "5D"]
    public = GAME.observe(state, None)["public"]["exchanges"][0]
    assert public == {"high": 0, "low": 3, "count": 2, "laid": True, "done": False}
    act(state, 0, "high")
    mine = GAME.observe(state, 3)["private"]["exchange"]
    assert mine["laid"] == ["3C", "5D"] and mine["taken"] == ["AH", "AS"]


def test_play_starts_when_every_exchange_is_done_and_counts_are_kept() -> None:
    state = exchange_state(FOUR, [0, 1, 2, 3])
    act(state, 0, "give 3C 5D")
    act(state, 0, "high")
    assert state.phase == "exchange"
    act(state, 1, "give 4C")
    act(state, 1, "high")
    assert state.phase == "play" and [len(h) for h in state.hands] == [5, 4, 4, 6]
    assert GAME.to_act(state) == {state.turn}
    assert state.must_include is not None and str(state.must_include) == "3C"


def test_with_tolp_leads_the_last_tolp_starts_with_any_card() -> None:
    state = exchange_state(FOUR, [1, 0, 2, 3], options={"tolp_leads": True})
    act(state, 1, "give 4C 6D")
    act(state, 1, "high")
    act(state, 0, "give 3C")
    act(state, 0, "high")
    assert state.turn == 3 and state.must_include is None
