"""Tjuv och Polis setup: each thief chooses his starting nest, the radio car is placed on two squares."""
from __future__ import annotations

import pytest

from bot.errors import IllegalAction, NotYourTurn
from bot.games.tjuv.board import board
from bot.games.tjuv.state import Police

from .helpers import GAME, act


def _car(state) -> Police:  # type: ignore[no-untyped-def]
    car = state.piece("C")
    assert isinstance(car, Police)
    return car


def test_each_thief_chooses_his_own_starting_nest_in_seat_order_before_the_police_move() -> None:
    state = GAME.new(3, GAME.resolve_options({}), "nests")
    assert state.phase == "nests" and GAME.to_act(state) == {1}
    assert {str(a) for a in GAME.legal_actions(state, 1)} == {f"nest {n}" for n in board().nests}
    assert GAME.legal_actions(state, 0) == [] and GAME.legal_actions(state, 2) == []
    with pytest.raises(NotYourTurn):
        act(state, 2, "nest A5")
    with pytest.raises(IllegalAction, match="not_a_nest"):
        act(state, 1, "nest B5")
    with pytest.raises(IllegalAction, match="setup_first"):
        act(state, 1, "roll")
    act(state, 1, "nest A13")
    assert state.thief(1).at == "A13" and GAME.to_act(state) == {2}
    act(state, 2, "nest A13")  # thieves may share a nest
    assert state.thief(2).at == "A13" and state.phase == "car" and GAME.to_act(state) == {0}


def test_radio_car_covers_two_squares_chosen_at_setup_one_in_front_of_the_gate() -> None:
    state = GAME.new(2, GAME.resolve_options({}), "car")
    act(state, 1, "nest A5")
    gate_front = board().car_start
    placements = {str(a) for a in GAME.legal_actions(state, 0)}
    assert placements and all(gate_front in p.split()[1:] for p in placements)
    assert {"car P11 Q11", "car Q11 P11", "car O11 P11", "car P11 O11"} == placements
    with pytest.raises(IllegalAction, match="car_place"):
        act(state, 0, "car Q11 R11")  # neither square in front of the gate
    act(state, 0, "car P11 Q11")
    car = _car(state)
    assert (car.at, car.tail, car.heading) == ("Q11", "P11", "E")
    assert state.phase == "start" and GAME.to_act(state) == {0}
    assert {p.id for p in state.occupants()["P11"]} == {"C"} and {p.id for p in state.occupants()["Q11"]} == {"C"}
