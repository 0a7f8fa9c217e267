"""Every way an attack can end, the attacker moving in, and ranks staying known afterwards."""
from __future__ import annotations

import pytest

from bot.games.stratego import GAME

from .helpers import BLUE, RED, move, position

# Spare movable pieces far away, so nobody is stuck after an attack.
SPARES = {"J1": (RED, "4"), "J10": (BLUE, "4")}


def duel(attacker: str, defender: str):
    state = position({"E4": (RED, attacker), "E5": (BLUE, defender), **SPARES})
    events = move(state, RED, "move E4 E5")
    return state, events


def test_higher_rank_wins_and_the_attacker_moves_in() -> None:
    state, events = duel("7", "5")
    assert "E4" not in state.board
    assert state.board["E5"].owner == RED and state.board["E5"].rank == "7"
    assert state.captured == [[], ["5"]]
    assert events[0].key == "stratego.event.attack_won"


def test_lower_rank_attacker_is_removed_and_the_defender_stays() -> None:
    state, events = duel("4", "6")
    assert "E4" not in state.board
    assert state.board["E5"].owner == BLUE
    assert state.captured == [["4"], []]
    assert events[0].key == "stratego.event.attack_lost"


def test_equal_ranks_both_leave_the_board() -> None:
    state, events = duel("8", "8")
    assert "E4" not in state.board and "E5" not in state.board
    assert state.captured == [["8"], ["8"]]
    assert events[0].key == "stratego.event.attack_tie"


def test_spy_beats_marshal_only_when_attacking() -> None:
    state, _ = duel("S", "10")
    assert state.board["E5"].owner == RED and state.board["E5"].rank == "S"
    state, _ = duel("10", "S")
    assert state.board["E5"].rank == "10"
    assert state.captured[BLUE] == ["S"]


def test_spy_attacking_anything_but_the_marshal_loses() -> None:
    state, _ = duel("S", "2")
    assert state.board["E5"].owner == BLUE and state.captured[RED] == ["S"]


def test_only_a_miner_beats_a_bomb() -> None:
    state, events = duel("3", "B")
    assert state.board["E5"].rank == "3" and state.captured[BLUE] == ["B"]
    assert events[0].key == "stratego.event.bomb_defused"


@pytest.mark.parametrize("rank", ["10", "9", "5", "2", "S"])
def test_any_other_attacker_of_a_bomb_is_removed_and_the_bomb_stays(rank: str) -> None:
    state, events = duel(rank, "B")
    assert state.board["E5"].rank == "B" and state.board["E5"].owner == BLUE
    assert state.captured[RED] == [rank]
    assert events[0].key == "stratego.event.bomb_exploded"


def test_capturing_the_flag_wins_the_game() -> None:
    state, events = duel("2", "F")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (RED,)
    assert outcome.reason == "stratego.end.flag"
    assert events[0].key == "stratego.event.flag_captured"
    assert GAME.to_act(state) == frozenset()


def test_both_ranks_are_announced_publicly() -> None:
    _, events = duel("6", "9")
    assert events[0].visible_to is None
    assert events[0].params["attacker_rank"] == "6" and events[0].params["defender_rank"] == "9"
    assert events[0].params["seat"] == RED and events[0].params["target"] == BLUE


def test_a_rank_revealed_in_an_attack_stays_known_while_the_piece_lives() -> None:
    state, _ = duel("4", "6")
    move(state, BLUE, "move J10 J9")
    move(state, RED, "move J1 J2")
    public = GAME.observe(state, None)["public"]
    assert public["board"]["E5"]["rank"] == "6"
    assert GAME.observe(state, RED)["private"]["known"] == {"E5": "6"}
    # The winner moves on and stays known.
    move(state, BLUE, "move E5 E4")
    assert GAME.observe(state, None)["public"]["board"]["E4"]["rank"] == "6"


def test_last_move_shows_the_attack_and_its_ranks() -> None:
    state, _ = duel("5", "5")
    last = GAME.observe(state, None)["public"]["last_move"]
    assert last == {"seat": RED, "from": "E4", "to": "E5", "attack": True, "attacker_rank": "5",
                    "defender_rank": "5", "result": "tie"}
