"""Issue 11, Tjuv och Polis: the thieves choose their starting nests, the radio car covers two
squares (placed at setup, forward only), a nest is no refuge from encirclement, and the police
player names the piece that makes an arrest."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.errors import IllegalAction, NotYourTurn
from bot.games.tjuv.board import board
from bot.games.tjuv.moves import walks
from bot.games.tjuv.play import _overdue, legal_moves, on_watched
from bot.games.tjuv.state import FREE, GUARD, JAIL, Police

from .helpers import GAME, act, position


def _car(state) -> Police:  # type: ignore[no-untyped-def]
    car = state.piece("C")
    assert isinstance(car, Police)
    return car


# ------------------------------------------------------------------- 10. setup: nests
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


# --------------------------------------------------------------- 7. the radio car
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


def test_both_radio_car_squares_encircle_a_wanted_thief() -> None:
    # R11's only free neighbours are Q11 (the car's tail) and S11
    state = position(police={"C": ("P11", "Q11"), "P1": "T11"}, thieves={1: {"at": "R11", "wanted": True}}, roll=1)
    act(state, 0, "move P1 S11")
    assert state.pending and set(state.pending[0]["pieces"]) == {"C", "P1"}


def test_both_radio_car_squares_count_for_the_watched_square_limit() -> None:
    b = board()
    front = next(sq for sq in sorted(b.escape_fronts) if b.kind[sq] == "street"
                 and any(b.kind[n] == "street" and n not in b.escape_fronts for n in b.neighbours[sq]))
    other = next(n for n in b.neighbours[front] if b.kind[n] == "street" and n not in b.escape_fronts)
    state = position(police={"C": (other, front)})
    car = _car(state)
    assert car.at not in b.escape_fronts and on_watched(car)  # only its tail stands in front
    car.stay = 2
    assert "C" in _overdue(state)


# ----------------------------------------------------------------- 8. nests
def test_a_wanted_thief_in_a_nest_whose_every_door_holds_police_is_arrested() -> None:
    assert board().doors("A5") == ("B5",)
    state = position(police={"P1": "B7"}, thieves={1: {"at": "A5", "wanted": True, "money": 3000}}, roll=2)
    keys = act(state, 0, "move P1 B5")
    assert "tjuv.event.surrounded" in keys and state.thief(1).status == JAIL


def test_a_thief_in_a_nest_who_is_not_wanted_is_safe() -> None:
    state = position(police={"P1": "B7"}, thieves={1: {"at": "A5", "wanted": False}}, roll=2)
    act(state, 0, "move P1 B5")
    assert state.thief(1).status == FREE


# ----------------------------------------------------------------- 9. the arresting piece
def test_the_police_player_chooses_which_adjacent_piece_makes_the_arrest() -> None:
    state = position(3, police={"P2": "C7", "P3": "G7"}, thieves={1: {"at": "D7", "wanted": True, "money": 4000}},
                     roll=2)
    keys = act(state, 0, "move P3 E7")
    assert "tjuv.event.choose_arrester" in keys and state.thief(1).status == FREE
    assert GAME.to_act(state) == {0} and {str(a) for a in GAME.legal_actions(state, 0)} == {"arrest P2", "arrest P3"}
    with pytest.raises(IllegalAction, match="not_arrester"):
        act(state, 0, "arrest P1")
    with pytest.raises(IllegalAction, match="arrest_first"):
        act(state, 0, "roll")
    act(state, 0, "arrest P2")  # the police's choice, not the engine's
    assert state.thief(1).status == JAIL and state.thief(1).guard == "P2"
    assert state.piece("P2").status == GUARD and state.piece("P3").status == FREE  # type: ignore[union-attr]
    assert state.turn == 1 and state.police_money == 1000  # the police turn is over


def test_renderer_draws_the_radio_car_over_two_squares() -> None:
    from rendering.tjuv import CAR_COLOUR, _centre, map_shift, render_public

    state = position(police={"C": ("P11", "Q11")})
    obs = GAME.observe(state, None)
    image = Image.open(io.BytesIO(render_public(obs, names=["A", "B"], locale="en")))
    rgb = image.convert("RGB")
    shift = map_shift(obs, ["A", "B"], "en")  # the shared header stands over the map
    (fx, fy), (tx, ty) = _centre("P11"), _centre("Q11")
    fy, ty = fy + shift, ty + shift
    midway = ((fx + tx) // 2, (fy + ty) // 2)
    scale = rgb.width / image.width
    for x, y in (midway, (tx + 8, ty + 8)):
        assert rgb.getpixel((int(x * scale), int(y * scale))) == CAR_COLOUR
