"""Scoring modes and the end of the game: fixed rounds, three Kung titles in a row, endless."""
from __future__ import annotations

import pytest

from bot.engine.cards import parse_cards
from bot.errors import IllegalAction
from bot.games.tolp.state import TolpState

from .build import GAME, act, play_state


def finish_round(state: TolpState, order: list[int]) -> None:
    """Let the seats go out in ``order`` (last one stays): one card each, the rest keep two."""
    ranks = ["9C", "10C", "JC", "QC"]
    state.phase, state.exchanges, state.table, state.passed = "play", [], [], []
    state.ranking, state.stuck, state.must_include = [None] * state.players, [], None
    for seat in range(state.players):
        state.hands[seat] = parse_cards("3D 4D")
    for i, seat in enumerate(order[:-1]):
        state.hands[seat] = parse_cards(ranks[i])
    for seat in order[:-1]:
        state.turn = seat
        act(state, seat, f"play {state.hands[seat][0]}")


def test_fixed_rounds_end_with_most_kung_titles() -> None:
    state = play_state(["3C", "4C", "5C"], options={"scoring": "rounds", "rounds": 3})
    for order in ([0, 1, 2], [1, 0, 2], [0, 2, 1]):
        assert GAME.outcome(state) is None
        finish_round(state, order)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "tolp.end.rounds"
    assert outcome.places == ((0,), (1,), (2,)) and outcome.scores[0] == 2
    assert GAME.to_act(state) == frozenset()


def test_a_tie_for_most_kung_titles_adds_rounds() -> None:
    state = play_state(["3C", "4C", "5C"], options={"scoring": "rounds", "rounds": 2})
    finish_round(state, [0, 1, 2])
    finish_round(state, [1, 0, 2])
    assert GAME.outcome(state) is None and state.round == 3
    finish_round(state, [1, 2, 0])
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (1,)


def test_three_kung_titles_in_a_row_win() -> None:
    state = play_state(["3C", "4C", "5C"], options={"scoring": "three"})
    for order in ([2, 0, 1], [0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 0, 2]):
        finish_round(state, order)
        assert GAME.outcome(state) is None
    finish_round(state, [1, 2, 0])
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "tolp.end.three" and outcome.winners == (1,)
    assert outcome.places == ((1,), (0,), (2,))


def test_endless_play_keeps_the_protocol_and_never_ends_by_itself() -> None:
    state = play_state(["3C", "4C", "5C"])
    for _ in range(12):
        finish_round(state, [0, 1, 2])
    assert GAME.outcome(state) is None and state.kungs == [12, 0, 0]
    assert len(GAME.observe(state, None)["public"]["protocol"]) == 12
    assert GAME.to_act(state)


def test_resigning_ends_the_game_with_the_resigning_seat_last() -> None:
    state = play_state(["3C", "4C", "5C", "6C"])
    finish_round(state, [2, 0, 1, 3])
    events = GAME.resign(state, 2)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "tolp.end.resign"
    assert outcome.places == ((0, 1, 3), (2,))
    assert [e.key for e in events] == ["tolp.event.game_won"] and events[0].params["winner"] == 0
    with pytest.raises(IllegalAction):
        GAME.resign(state, 0)
