"""How a game ends: no moves, mutual no moves, draws by agreement, resignation, move limit."""
from __future__ import annotations

import pytest

from bot.errors import IllegalAction
from bot.games.stratego import GAME

from .helpers import BLUE, RED, move, position


def act(state, seat: int, text: str):
    return GAME.apply(state, seat, GAME.parse_action(text))


def test_a_player_who_cannot_move_loses() -> None:
    state = position({"A1": (RED, "F"), "B1": (RED, "B"), "E4": (RED, "2"), "E5": (BLUE, "9"),
                      "J10": (BLUE, "2")})
    move(state, RED, "move E4 E5")  # Red's last movable piece dies
    assert GAME.outcome(state) is None
    events = move(state, BLUE, "move J10 J9")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (BLUE,)
    assert outcome.reason == "stratego.end.no_moves"
    assert events[-1].key == "stratego.event.cannot_move" and events[-1].params["seat"] == RED


def test_when_neither_player_can_move_it_is_a_draw() -> None:
    state = position({"A1": (RED, "F"), "E4": (RED, "2"), "J10": (BLUE, "F"), "E5": (BLUE, "2")})
    move(state, RED, "move E4 E5")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.places == ((RED, BLUE),)
    assert outcome.reason == "stratego.end.no_moves_both"


def test_a_blocked_player_loses_even_with_movable_pieces() -> None:
    # Red's only movable piece is walled in by its own bombs and the board edge.
    state = position({"A1": (RED, "5"), "A2": (RED, "B"), "B1": (RED, "B"), "E4": (RED, "2"),
                      "E6": (BLUE, "2"), "J10": (BLUE, "4")})
    move(state, RED, "move E4 E5")
    move(state, BLUE, "move E6 E5")  # tie: Red's scout is gone
    assert GAME.outcome(state) is not None and GAME.outcome(state).winners == (BLUE,)


def test_a_draw_offer_accepted_ends_the_game_drawn() -> None:
    state = position({"E4": (RED, "5"), "E7": (BLUE, "5")})
    act(state, RED, "offer draw")
    assert GAME.to_act(state) == frozenset({BLUE})
    with pytest.raises(IllegalAction) as exc:
        move(state, BLUE, "move E7 E6")
    assert exc.value.key == "stratego.error.answer_draw"
    events = act(state, BLUE, "accept draw")
    assert events[0].key == "stratego.event.draw_accepted"
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.places == ((RED, BLUE),)
    assert outcome.reason == "stratego.end.agreed"


def test_a_declined_draw_returns_the_turn_and_blocks_a_repeat_offer_until_a_move() -> None:
    state = position({"E4": (RED, "5"), "E7": (BLUE, "5")})
    act(state, RED, "offer draw")
    with pytest.raises(IllegalAction) as exc:
        act(state, RED, "accept draw")  # one's own offer: the opponent answers it
    assert exc.value.key == "stratego.error.draw_pending"
    act(state, BLUE, "decline draw")
    assert GAME.to_act(state) == frozenset({RED}) and GAME.outcome(state) is None
    with pytest.raises(IllegalAction) as exc:
        act(state, RED, "offer draw")
    assert exc.value.key == "stratego.error.offer_again"
    move(state, RED, "move E4 E5")
    move(state, BLUE, "move E7 E6")
    act(state, RED, "offer draw")
    assert state.draw_offer == RED


def test_answering_a_draw_nobody_offered_is_refused() -> None:
    state = position({"E4": (RED, "5"), "E7": (BLUE, "5")})
    with pytest.raises(IllegalAction) as exc:
        act(state, RED, "accept draw")
    assert exc.value.key == "stratego.error.no_draw_offer"


def test_resigning_gives_the_opponent_the_win() -> None:
    state = position({"E4": (RED, "5"), "E7": (BLUE, "5")})
    GAME.resign(state, BLUE)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (RED,) and outcome.reason == "stratego.end.resign"
    with pytest.raises(IllegalAction):
        move(state, RED, "move E4 E5")


def test_the_move_limit_option_ends_the_game_drawn() -> None:
    state = position({"E4": (RED, "5"), "E7": (BLUE, "5")}, max_moves=2)
    move(state, RED, "move E4 E5")
    assert GAME.outcome(state) is None
    move(state, BLUE, "move E7 E6")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "stratego.end.move_limit"


def test_at_the_end_every_rank_is_shown_to_everyone() -> None:
    state = position({"A1": (RED, "F"), "B1": (RED, "B"), "E4": (RED, "2"), "E9": (BLUE, "F"),
                      "J10": (BLUE, "7"), "F10": (BLUE, "B")})
    assert GAME.observe(state, None)["public"]["board"]["J10"]["rank"] is None
    move(state, RED, "move E4 E9")
    board = GAME.observe(state, None)["public"]["board"]
    assert {sq: piece["rank"] for sq, piece in board.items()} == {
        "A1": "F", "B1": "B", "E9": "2", "J10": "7", "F10": "B"}
    # nothing is hidden any more, so scrambling "hidden" information changes nothing
    from bot.engine.rng import Rng
    copy = GAME.scramble_hidden(state, RED, Rng("x"))
    assert GAME.observe(copy, RED) == GAME.observe(state, RED)


def test_the_player_waiting_for_an_answer_to_a_draw_offer_is_told_so() -> None:
    state = position({"A1": (RED, "F"), "E4": (RED, "2"), "J10": (BLUE, "F"), "E7": (BLUE, "2")})
    act(state, RED, "offer draw")
    with pytest.raises(IllegalAction) as exc:
        move(state, RED, "move E4 E5")
    assert exc.value.key == "stratego.error.draw_pending"
    with pytest.raises(IllegalAction) as exc:
        act(state, RED, "accept draw")
    assert exc.value.key == "stratego.error.draw_pending"


def test_a_game_without_a_chosen_limit_is_drawn_at_2000_moves_in_total() -> None:
    state = position({"E4": (RED, "5"), "E7": (BLUE, "5")})
    assert state.options["max_moves"] == 2000
    state.moves = 1998  # the pieces wander: neither anti-stalling rule applies
    move(state, RED, "move E4 F4")
    assert GAME.outcome(state) is None
    move(state, BLUE, "move E7 F7")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.places == ((RED, BLUE),)
    assert outcome.reason == "stratego.end.move_limit"


def test_a_limit_of_zero_means_no_limit() -> None:
    state = position({"E4": (RED, "5"), "E7": (BLUE, "5")}, max_moves=0)
    state.moves = 100000
    move(state, RED, "move E4 F4")
    assert GAME.outcome(state) is None
