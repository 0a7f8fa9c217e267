"""Rules fidelity found in the quality pass: leaving the police house, the round limit, an empty-
handed fugitive in a nest, the two-turn limit against tram rides, one end-of-game announcement."""
from __future__ import annotations

import pytest

from bot.engine.registry import computer_action
from bot.errors import IllegalAction
from bot.games.tjuv.moves import walks
from bot.games.tjuv.play import legal_moves, legal_rides
from bot.games.tjuv.state import FREE, HOUSE, JAIL

from .helpers import GAME, act, position, rigged


def test_a_thief_let_out_of_jail_steps_from_his_house_square_straight_onto_the_street() -> None:
    # seed §8: he is put on any square of the house; §11/§4: out along the squares, no gate needed
    state = position(thieves={1: {"at": HOUSE, "status": FREE}})
    reach = set(walks(state, state.thief(1), 1))
    assert reach == {"M10", "S9", "S10", "N11", "O11", "P11", "Q11", "R11"} - {"P11", "Q11"}  # C stands on P11 and Q11
    assert "M9" not in reach  # its house square N9 holds P1


def test_no_walk_ends_inside_the_police_house() -> None:
    state = position(3)  # P1 N9, P2 O9, P3 P9 (the house), C at P11
    assert set(walks(state, state.piece("P1"), 1)) == {"M9"}  # type: ignore[arg-type]
    assert set(walks(state, state.piece("P2"), 2)) == {"M9", "O11"}  # type: ignore[arg-type]
    house = {"N9", "O9", "P9", "Q9", "R9", "N10", "O10", "P10", "Q10", "R10"}
    for roll in range(1, 7):
        for reach in legal_moves(state, 0, roll).values():
            assert not house & set(reach)


def test_a_guard_set_free_leaves_from_a_free_house_square_and_the_path_starts_there() -> None:
    state = position(roll=1)
    guard = state.piece("P2")
    assert guard is not None
    guard.at = HOUSE
    reach = walks(state, guard, 1)
    assert "M9" not in reach  # N9 holds P1
    assert reach["N11"] == ["N10", "N11"] and "O11" in reach
    act(state, 0, "move P2 N11")
    assert state.last_path == [HOUSE, "N10", "N11"]


def test_the_round_counter_stops_at_the_round_limit() -> None:
    state = GAME.new(2, GAME.resolve_options({"max_rounds": 1}), "one-round")
    while GAME.outcome(state) is None:
        seat = next(iter(GAME.to_act(state)))
        GAME.apply(state, seat, computer_action(GAME, state, seat))
    assert state.round == 1 and GAME.observe(state, None)["public"]["round"] == 1


def test_a_wanted_thief_carrying_nothing_is_no_longer_wanted_once_in_a_nest() -> None:
    state = position(thieves={1: {"at": "B5", "wanted": True}}, turn=1, roll=1)  # broke out: no money
    keys = act(state, 1, "move T1 A5")
    assert "tjuv.event.not_wanted" in keys and not state.thief(1).wanted and state.phase == "nest"


def test_a_wanted_thief_with_money_stays_wanted_until_he_hides_it() -> None:
    state = position(thieves={1: {"at": "B5", "wanted": True, "money": 2000}}, turn=1, roll=1)
    state.bank_paid = 2000
    assert "tjuv.event.not_wanted" not in act(state, 1, "move T1 A5")
    assert state.thief(1).wanted
    assert "tjuv.event.not_wanted" in act(state, 1, "hide 2000")


def test_an_overdue_policeman_must_leave_before_another_piece_may_ride() -> None:
    state = position(police={"P1": "O3", "P2": "B7"})
    state.police[0].stay = 2
    state.tram["0"] = "P2"
    assert legal_rides(state, 0) == {}
    state.police[0].stay = 1
    assert "G7" in legal_rides(state, 0)["P2"]


def test_the_end_is_announced_once_by_the_front_end_not_by_an_extra_event() -> None:
    state = position(police={"P1": "B8"}, thieves={1: {"at": "B11", "wanted": True}}, roll=3)
    state.rng = rigged(2)
    keys = act(state, 0, "move P1 B11")
    assert state.thief(1).status == JAIL and GAME.outcome(state) is not None
    assert keys[-1] == "tjuv.event.jailed" and not any("game_over" in k for k in keys)


def test_refusals_name_the_real_problem() -> None:
    state = position(roll=2)
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "move P9 K14")  # readable, but the police of a two-player game have P1, P2
    assert err.value.key == "tjuv.error.not_your_piece"
    with pytest.raises(IllegalAction) as err:
        act(state, 0, "move C Z99")
    assert err.value.key == "tjuv.error.no_square" and err.value.params["square"] == "Z99"
    state = position(thieves={1: {"at": "A5"}}, turn=1)
    with pytest.raises(IllegalAction) as err:
        act(state, 1, "end")  # in a nest but before rolling: "end" is for the end of a nest turn
    assert err.value.key == "tjuv.error.end_after_nest"
