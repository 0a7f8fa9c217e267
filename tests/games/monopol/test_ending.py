"""How a Monopol game ends: rounds counted from the starting seat up to the limit, the agreed end time,
the winner named in the final observation."""
from __future__ import annotations

import pytest

from bot.engine.core import TIMER
from bot.errors import IllegalAction, InvalidOption

from .helpers import GAME, act, dice, keys, new, own


def test_a_round_starts_when_the_starting_seat_is_on_turn_again_and_stops_at_the_limit() -> None:
    s = new(3, first=1, max_rounds=2)
    for seat, roll in ((1, (1, 2)), (2, (1, 2)), (0, (1, 2))):
        assert s.turn == seat and s.round == 1
        dice(s, *roll)
        act(s, seat, "roll")
        act(s, seat, "decline") if s.phase == "buy" else None
        while s.auction:
            act(s, sorted(GAME.to_act(s))[0], "pass")
        act(s, seat, "end")
    assert s.turn == 1 and s.round == 2
    for seat in (1, 2, 0):
        dice(s, 2, 1)
        act(s, seat, "roll")
        if s.phase == "buy":
            act(s, seat, "decline")
            while s.auction:
                act(s, sorted(GAME.to_act(s))[0], "pass")
        events = act(s, seat, "end")
    assert s.finished == "monopol.end.rounds" and "monopol.event.rounds_over" in keys(events)
    assert s.round == 2  # not "Round 3 of 2"
    assert GAME.observe(s, None)["public"]["round"] == 2


def test_the_final_observation_names_the_winner() -> None:
    s = new(3, max_rounds=1)
    assert GAME.observe(s, None)["public"]["winners"] == []
    s.cash[2] += 500
    s.bank -= 500
    GAME.resign(s, 0)
    s.finished = "monopol.end.rounds"
    assert GAME.observe(s, None)["public"]["winners"] == [2]


def test_end_time_option_is_a_utc_time_and_the_engine_only_names_it() -> None:
    options = GAME.resolve_options({"end_time": "2030-01-02 18:30+01:00"})
    assert options["end_time"] == "2030-01-02T17:30Z"
    assert GAME.resolve_options({})["end_time"] == ""
    with pytest.raises(InvalidOption):
        GAME.resolve_options({"end_time": "tomorrow"})
    s = new(3, end_time="2030-01-02 17:30")
    when, seat, action = GAME.time_limit(s)  # type: ignore[misc]
    assert (when, seat, str(action)) == ("2030-01-02T17:30Z", TIMER, "time up")
    assert GAME.time_limit(new(3)) is None


def test_end_time_ends_the_game_by_net_worth() -> None:
    s = new(3, end_time="2030-01-02 17:30")
    own(s, 1, 39)  # Rådhusplassen: 400 more net worth
    s.mortgaged[39] = False
    with pytest.raises(IllegalAction, match="time_up_timer_only"):
        act(s, 0, "time up")
    events = act(s, TIMER, "time up")
    assert "monopol.event.time_up" in keys(events)
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.reason == "monopol.end.time" and outcome.winners == (1,)
    assert GAME.time_limit(s) is None and GAME.to_act(s) == frozenset()
