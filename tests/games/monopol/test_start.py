"""Who starts Monopol: the highest opening roll (ties roll again), seeded, shown on the first board."""
from __future__ import annotations

import pytest

from .helpers import GAME, LoadedDice


def test_the_highest_opening_roll_starts_and_ties_roll_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # seats 1 and 2 tie on 11 and roll again: 4 against 12, so seat 2 starts
    faces = [3, 4, 6, 5, 5, 6, 1, 1, 2, 2, 6, 6]
    monkeypatch.setattr("bot.games.monopol.engine.Rng", lambda seed: LoadedDice(faces))
    s = GAME.new(4, GAME.resolve_options({}), "open")
    assert s.turn == s.first == 2 and GAME.to_act(s) == {2}
    rolls = [(e["params"]["seat"], e["params"]["total"]) for e in s.recent if e["key"] == "monopol.event.start_roll"]
    assert rolls[-2:] == [(1, 4), (2, 12)]  # only the tied seats rolled again
    assert s.recent[-1] == {"key": "monopol.event.starts", "params": {"seat": 2}}


def test_the_opening_roll_is_seeded_and_not_always_seat_0() -> None:
    starters = {GAME.new(4, GAME.resolve_options({}), f"open-{n}").turn for n in range(30)}
    assert len(starters) > 1
    assert GAME.new(4, GAME.resolve_options({}), "same").turn == GAME.new(4, GAME.resolve_options({}), "same").turn


def test_the_first_board_shows_the_opening_roll() -> None:
    s = GAME.new(3, GAME.resolve_options({}), "open-board")
    assert s.recent[-1] == {"key": "monopol.event.starts", "params": {"seat": s.turn}}
    assert s.first == s.turn and GAME.to_act(s) == {s.turn}
