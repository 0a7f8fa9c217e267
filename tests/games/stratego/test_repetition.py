"""The two-squares rule (limit 3 or 5, the starter stops first) and the chasing rule."""
from __future__ import annotations

import pytest

from bot.errors import IllegalAction
from bot.games.stratego import GAME
from bot.games.stratego.actions import Move

from .helpers import BLUE, RED, move, position


def shuttlers(**options):
    return position({"A4": (RED, "5"), "E1": (RED, "2"), "J7": (BLUE, "5"), "E10": (BLUE, "2")},
                    **options)


def test_a_piece_may_go_back_and_forth_three_times_then_must_stop() -> None:
    state = shuttlers()
    for red, blue in [("A4 A5", "E10 E9"), ("A5 A4", "E9 E10"), ("A4 A5", "E10 E9")]:
        move(state, RED, f"move {red}")
        move(state, BLUE, f"move {blue}")
    with pytest.raises(IllegalAction) as exc:
        move(state, RED, "move A5 A4")
    assert exc.value.key == "stratego.error.two_squares" and exc.value.params["limit"] == 3
    assert Move("A5", "A4") not in GAME.legal_actions(state, RED)
    move(state, RED, "move A5 A6")  # leaving the two squares is always fine


def test_with_limit_five_the_sixth_shuttle_move_is_refused() -> None:
    state = shuttlers(two_square_limit=5)
    squares = ["A4", "A5"]
    for i in range(5):
        move(state, RED, f"move {squares[i % 2]} {squares[(i + 1) % 2]}")
        move(state, BLUE, "move E10 E9" if i % 2 == 0 else "move E9 E10")
    with pytest.raises(IllegalAction):
        move(state, RED, "move A4 A5")


def test_the_player_who_started_shuttling_must_stop_first() -> None:
    state = shuttlers()
    for red, blue in [("A4 A5", "J7 J6"), ("A5 A4", "J6 J7"), ("A4 A5", "J7 J6")]:
        move(state, RED, f"move {red}")
        move(state, BLUE, f"move {blue}")
    # Red began, so Red reaches the limit while Blue has just made its third.
    with pytest.raises(IllegalAction):
        move(state, RED, "move A5 A4")
    move(state, RED, "move E1 E2")
    with pytest.raises(IllegalAction):
        move(state, BLUE, "move J6 J7")


def test_an_attack_breaks_a_shuttle() -> None:
    state = position({"A4": (RED, "5"), "B5": (BLUE, "2"), "E1": (RED, "2"), "E10": (BLUE, "2")})
    for red, blue in [("A4 A5", "E10 E9"), ("A5 A4", "E9 E10"), ("A4 A5", "E10 E9")]:
        move(state, RED, f"move {red}")
        move(state, BLUE, f"move {blue}")
    move(state, RED, "move A5 B5")
    assert state.shuttles[RED] is None


# Around the left lake pair, a closed ring of 12 squares.
RING = ["B4", "C4", "D4", "E4", "E5", "E6", "E7", "D7", "C7", "B7", "B6", "B5"]


def test_a_chase_may_not_recreate_an_earlier_position() -> None:
    state = position({"B4": (RED, "5"), "J1": (RED, "2"), "D4": (BLUE, "4"), "J10": (BLUE, "2")})
    for step in range(12):
        move(state, RED, f"move {RING[step % 12]} {RING[(step + 1) % 12]}")
        move(state, BLUE, f"move {RING[(step + 2) % 12]} {RING[(step + 3) % 12]}")
    # Going round once more would put chaser C4 and chased D4 back where they were.
    with pytest.raises(IllegalAction) as exc:
        move(state, RED, "move B4 C4")
    assert exc.value.key == "stratego.error.chasing"
    assert Move("B4", "C4") not in GAME.legal_actions(state, RED)
    move(state, RED, "move B4 A4")  # giving up the chase is fine


def test_the_chaser_may_move_back_to_the_square_it_just_came_from() -> None:
    state = position({"A1": (RED, "5"), "J1": (RED, "2"), "B2": (BLUE, "4"), "J10": (BLUE, "2")})
    move(state, RED, "move A1 A2")  # threat
    move(state, BLUE, "move B2 B3")  # evasion
    move(state, RED, "move A2 A3")  # threat again
    move(state, BLUE, "move B3 B2")  # evasion back
    move(state, RED, "move A3 A2")  # recreates A2/B2, but A2 is where the chaser came from
    assert state.board["A2"].owner == RED


def test_a_chase_ends_when_the_chased_piece_does_not_evade() -> None:
    state = position({"B4": (RED, "5"), "J1": (RED, "2"), "D4": (BLUE, "4"), "J10": (BLUE, "2")})
    move(state, RED, "move B4 C4")
    move(state, BLUE, "move J10 J9")
    assert state.chase is None
