"""Moving: exact rolls, who may pass whom, nests without an exact roll, the radio car, trams."""
from __future__ import annotations

import pytest

from bot.engine.rng import Rng
from bot.errors import IllegalAction, NotYourTurn
from bot.games.tjuv import computer_normal
from bot.games.tjuv.moves import landings_by_roll, walks
from bot.games.tjuv.play import legal_moves, legal_rides
from bot.games.tjuv.state import FREE, HOUSE, Police

from .helpers import GAME, act, position


def reach(state, piece: str, steps: int) -> set[str]:  # type: ignore[no-untyped-def]
    found = state.piece(piece)
    assert found is not None
    return set(walks(state, found, steps))


def test_a_move_goes_exactly_the_roll_orthogonally_without_revisiting() -> None:
    state = position(thieves={1: {"at": "B11"}})
    assert reach(state, "T1", 1) == {"B10", "B12", "C11"}
    two = reach(state, "T1", 2)
    assert "B11" not in two and "C10" not in two and {"B9", "D11", "B13"} <= two


def test_a_thief_passes_thieves_and_passes_police_only_while_not_wanted() -> None:
    state = position(3, police={"P1": "B5"}, thieves={1: {"at": "B3"}, 2: {"at": "B4"}})
    assert "B6" in reach(state, "T1", 3)
    state.thief(1).wanted = True
    assert "B6" not in reach(state, "T1", 3)
    assert "B5" not in reach(state, "T1", 2)  # never onto an occupied square


def test_police_pass_police_and_thieves_but_not_a_thief_on_a_tram_stop() -> None:
    state = position(police={"P1": "B4", "P2": "B5"}, thieves={1: {"at": "B6"}})
    assert "B8" in reach(state, "P1", 4)
    state.thief(1).at = "B7"  # a tram stop (line 1)
    assert "B8" not in reach(state, "P1", 4)


def test_only_thieves_enter_nests_and_without_an_exact_roll() -> None:
    state = position(police={"P1": "B3"}, thieves={1: {"at": "B2"}})
    assert "A5" in reach(state, "T1", 6)  # four steps are enough
    assert "A5" not in reach(state, "P1", 2)


def test_buildings_are_entered_only_with_the_exact_roll() -> None:
    state = position(thieves={1: {"at": "B11"}})
    assert "C14" in reach(state, "T1", 4) and "C14" not in reach(state, "T1", 5)


def test_the_radio_car_moves_double_on_streets_and_never_turns_back() -> None:
    state = position(roll=1)
    car = state.piece("C")
    assert car is not None and (car.at, car.tail) == ("P11", "Q11")
    assert set(legal_moves(state, 0, 1)["C"]) == {"N11"}  # forward only: Q11 behind is its own tail
    act(state, 0, "move C N11")
    assert (car.at, car.tail, car.heading) == ("N11", "O11", "W")
    state.turn, state.phase, state.roll = 0, "move", 1
    assert "P11" not in set(walks(state, car, 2)) and "O11" not in set(walks(state, car, 2))


def test_police_leave_the_house_directly_but_never_walk_into_it() -> None:
    state = position(police={"P2": "M11"})
    assert state.piece("P1").at == "N9"  # type: ignore[union-attr]
    assert reach(state, "P1", 1) == {"M9"}  # out of the house, never a move within it
    assert not {sq for sq in reach(state, "P2", 2) if sq[0] in "NOPQR" and sq[1:] in ("9", "10")}


def test_a_thief_who_cannot_use_the_roll_loses_the_turn() -> None:
    state = position(police={"P1": "B13"}, thieves={1: {"at": "A13", "wanted": True, "money": 2000}}, turn=1)
    keys = act(state, 1, "roll")
    assert "tjuv.event.no_move" in keys and state.turn == 0


def test_a_thief_must_use_the_full_roll_when_he_can() -> None:
    state = position(thieves={1: {"at": "B11"}}, turn=1, roll=3)
    with pytest.raises(IllegalAction) as err:
        act(state, 1, "move T1 B13")
    assert err.value.key == "tjuv.error.cannot_reach"
    act(state, 1, "move T1 B14")
    assert state.thief(1).at == "B14"


def test_moving_before_rolling_or_out_of_turn_is_refused() -> None:
    state = position(thieves={1: {"at": "B11"}})
    with pytest.raises(IllegalAction):
        act(state, 0, "move P1 M9")
    with pytest.raises(NotYourTurn):
        act(state, 1, "roll")


def test_a_tram_ride_follows_the_line_with_at_most_one_change() -> None:
    state = position(thieves={1: {"at": "M4"}}, turn=1, roll=3)
    act(state, 1, "move T1 M7")
    assert state.tram == {"1": "T1"}
    state.turn = 1
    stops = set(legal_rides(state, 1)["T1"])
    assert {"B7", "Y7", "M2", "M21", "S21", "Y16"} <= stops  # line 1, line 2, one change
    act(state, 1, "ride T1 Y16")
    assert state.thief(1).at == "Y16" and state.tram == {}
    state.turn = 1
    assert legal_rides(state, 1) == {}  # a ride is not a move that ends on a stop


def test_two_changes_are_not_allowed() -> None:
    state = position(thieves={1: {"at": "B7"}}, turn=1)
    state.tram["1"] = "T1"
    stops = set(legal_rides(state, 1)["T1"])
    assert "M16" in stops and "Y16" not in stops
    with pytest.raises(IllegalAction):
        act(state, 1, "ride T1 Y16")


def test_only_the_piece_that_ended_its_move_on_a_stop_may_ride() -> None:
    state = position(thieves={1: {"at": "B7"}}, turn=1)
    assert legal_rides(state, 1) == {}
    car = position(roll=3)
    car.piece("C").at, car.piece("C").heading = "M15", "S"  # type: ignore[union-attr]
    act(car, 0, "move C M21")
    car.turn = 0
    assert legal_rides(car, 0) == {}


def _car(state) -> Police:  # type: ignore[no-untyped-def]
    car = state.piece("C")
    assert isinstance(car, Police)
    return car


def test_radio_car_moves_forward_only_twice_the_roll_never_twice_on_a_square() -> None:
    state = position(police={"C": ("R11", "Q11")}, roll=2)
    car = _car(state)
    reach = legal_moves(state, 0, 2)["C"]
    for path in reach.values():
        assert len(path) == 4 and len(set(path)) == 4  # exactly twice the roll, no square twice
        assert "Q11" not in path and "R11" not in path  # never back through itself
    target = next(iter(reach))
    act(state, 0, f"move C {target}")
    assert car.at == target and car.tail == reach[target][-2]  # the tail follows the front


def test_both_radio_car_squares_block_other_pieces() -> None:
    state = position(police={"C": ("P11", "Q11")}, thieves={1: {"at": "S11", "wanted": True, "money": 1000}})
    reach = walks(state, state.thief(1), 4)
    assert "O11" not in reach and "P11" not in reach  # the tail on Q11 blocks the street


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


def test_an_overdue_policeman_must_leave_before_another_piece_may_ride() -> None:
    state = position(police={"P1": "O3", "P2": "B7"})
    state.police[0].stay = 2
    state.tram["0"] = "P2"
    assert legal_rides(state, 0) == {}
    state.police[0].stay = 1
    assert "G7" in legal_rides(state, 0)["P2"]


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


def test_one_search_finds_every_rolls_police_landings_as_the_walks_do() -> None:
    # the computers read the police's reach for all six rolls at once (landings_by_roll); it must
    # be what walks finds roll by roll, the radio car going twice the roll
    compared = 0
    for seed in ("land1", "land2"):
        state = GAME.new(4, GAME.resolve_options({}), seed)
        for n in range(300):
            if GAME.outcome(state) is not None:
                break
            seat = next(iter(GAME.to_act(state)))
            if state.phase in ("start", "move"):
                for piece in state.police:
                    if piece.status != FREE or piece.at is None:
                        continue
                    found = landings_by_roll(state, piece, 6)
                    per_step = 2 if piece.id == "C" else 1
                    for roll in range(1, 7):
                        assert found.get(roll, set()) == set(walks(state, piece, per_step * roll)), (seed, n, piece.id)
                        compared += 1
            legal = GAME.legal_actions(state, seat)
            GAME.apply(state, seat, computer_normal.choose(state, seat, legal, Rng(f"{seed}/{n}")))
    assert compared > 1000
