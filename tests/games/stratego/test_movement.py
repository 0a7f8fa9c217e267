"""Movement: one square orthogonally; scouts in straight lines over empty squares only."""
from __future__ import annotations

import pytest

from bot.errors import IllegalAction, InvalidAction, NotYourTurn
from bot.games.stratego import GAME
from bot.games.stratego.actions import Move

from .helpers import BLUE, RED, move, position


def refused(state, seat: int, text: str) -> str:
    with pytest.raises(IllegalAction) as exc:
        move(state, seat, text)
    return exc.value.key


def test_a_piece_moves_one_square_orthogonally() -> None:
    state = position({"E4": (RED, "6"), "J10": (BLUE, "4")})
    assert refused(state, RED, "move E4 E6") == "stratego.error.too_far"
    assert refused(state, RED, "move E4 F5") == "stratego.error.not_straight"
    move(state, RED, "move E4 F4")
    assert state.board["F4"].rank == "6" and state.turn == BLUE


def test_bombs_and_flag_never_move() -> None:
    state = position({"E4": (RED, "B"), "A1": (RED, "F"), "B1": (RED, "2"), "J10": (BLUE, "4")})
    assert refused(state, RED, "move E4 E5") == "stratego.error.immovable"
    assert refused(state, RED, "move A1 A2") == "stratego.error.immovable"


def test_no_piece_enters_a_lake_or_an_own_square() -> None:
    state = position({"C4": (RED, "5"), "D4": (RED, "5"), "J10": (BLUE, "4")})
    assert refused(state, RED, "move C4 C5") == "stratego.error.lake"
    assert refused(state, RED, "move C4 D4") == "stratego.error.own_piece"


def test_only_own_pieces_move_and_only_on_ones_turn() -> None:
    state = position({"E4": (RED, "5"), "E7": (BLUE, "5")})
    assert refused(state, RED, "move E7 E6") == "stratego.error.not_your_piece"
    assert refused(state, RED, "move E5 E6") == "stratego.error.no_piece"
    with pytest.raises(NotYourTurn):
        move(state, BLUE, "move E7 E6")


def test_scout_moves_any_distance_over_empty_squares() -> None:
    state = position({"A1": (RED, "2"), "J10": (BLUE, "4")})
    move(state, RED, "move A1 A9")
    assert state.board["A9"].rank == "2"
    # A scout that moves more than one square gives itself away.
    assert GAME.observe(state, None)["public"]["board"]["A9"]["rank"] == "2"


def test_scout_cannot_cross_a_lake() -> None:
    state = position({"C4": (RED, "2"), "A5": (RED, "2"), "J10": (BLUE, "4")})
    assert refused(state, RED, "move C4 C7") == "stratego.error.scout_blocked"
    assert refused(state, RED, "move A5 E5") == "stratego.error.scout_blocked"
    assert Move("C4", "C7") not in GAME.legal_actions(state, RED)
    assert Move("A5", "B5") in GAME.legal_actions(state, RED)


def test_scout_cannot_jump_over_pieces() -> None:
    state = position({"A1": (RED, "2"), "A3": (RED, "5"), "E1": (RED, "2"), "E4": (BLUE, "4"),
                      "J10": (BLUE, "4")})
    assert refused(state, RED, "move A1 A4") == "stratego.error.scout_blocked"
    assert refused(state, RED, "move E1 E5") == "stratego.error.scout_blocked"
    assert Move("E1", "E5") not in GAME.legal_actions(state, RED)


def test_scout_may_move_and_attack_in_one_turn_by_default() -> None:
    state = position({"A1": (RED, "2"), "A8": (BLUE, "S"), "J10": (BLUE, "4")})
    assert Move("A1", "A8") in GAME.legal_actions(state, RED)
    move(state, RED, "move A1 A8")
    assert state.board["A8"].owner == RED and state.captured[BLUE] == ["S"]


def test_scout_move_and_attack_can_be_forbidden() -> None:
    state = position({"A1": (RED, "2"), "A8": (BLUE, "S"), "J10": (BLUE, "4")},
                     scout_move_attack=False)
    assert Move("A1", "A8") not in GAME.legal_actions(state, RED)
    assert refused(state, RED, "move A1 A8") == "stratego.error.scout_attack"
    state.board["A7"] = state.board.pop("A1")
    move(state, RED, "move A7 A8")  # next to it, a scout still attacks
    assert state.board["A8"].owner == RED


def test_action_texts_are_case_insensitive_and_canonical() -> None:
    assert GAME.parse_action("MOVE a4 A5") == Move("A4", "A5")
    assert GAME.parse_action("a4-a5") == Move("A4", "A5")
    assert str(GAME.parse_action("Swap b2 J4")) == "swap B2 J4"
    assert str(GAME.parse_action("Offer Draw")) == "offer draw"
    for bad in ["move K1 A1", "move A11 A1", "fly A1", "", "setup"]:
        with pytest.raises(InvalidAction):
            GAME.parse_action(bad)


def test_a_move_with_one_square_is_unreadable_and_a_bad_square_is_named_as_the_board_writes_it() -> None:
    for half in ["move B4", "swap A1", "move"]:
        with pytest.raises(InvalidAction) as refused:
            GAME.parse_action(half)
        assert refused.value.key == "stratego.error.unreadable" and refused.value.params["text"] == half
    with pytest.raises(InvalidAction) as refused:
        GAME.parse_action("move a11 a12")
    assert refused.value.key == "stratego.error.bad_square" and refused.value.params["text"] == "A11"
