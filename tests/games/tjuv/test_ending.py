"""How a Tjuv och Polis game ends: the round limit, and the end told once."""
from __future__ import annotations

from bot.engine.registry import computer_action
from bot.games.tjuv.state import JAIL

from .helpers import GAME, act, position, rigged


def test_the_round_counter_stops_at_the_round_limit() -> None:
    state = GAME.new(2, GAME.resolve_options({"max_rounds": 1}), "one-round")
    while GAME.outcome(state) is None:
        seat = next(iter(GAME.to_act(state)))
        GAME.apply(state, seat, computer_action(GAME, state, seat))
    assert state.round == 1 and GAME.observe(state, None)["public"]["round"] == 1


def test_the_end_is_announced_once_by_the_front_end_not_by_an_extra_event() -> None:
    state = position(police={"P1": "B8"}, thieves={1: {"at": "B11", "wanted": True}}, roll=3)
    state.rng = rigged(2)
    keys = act(state, 0, "move P1 B11")
    assert state.thief(1).status == JAIL and GAME.outcome(state) is not None
    assert keys[-1] == "tjuv.event.jailed" and not any("game_over" in k for k in keys)
