"""Monopol house rules (rules text "House rules"): each option on and off in a seeded game.
The printed rules stay the defaults."""
from __future__ import annotations

import pytest

from bot.engine.rng import Rng
from bot.errors import IllegalAction
from bot.games.monopol.board import JAIL
from bot.games.monopol.state import END, ROLL

from .helpers import GAME, act, dice, keys, new, own

HOUSE_RULES = {"free_parking_jackpot": True, "double_start": True, "start_money": 2500, "auctions": False,
               "even_building": False, "jail_fine": 100}


@pytest.mark.parametrize("jackpot", [True, False])
def test_free_parking_jackpot_the_tax_goes_to_the_middle_and_the_next_to_land_there_takes_it(jackpot: bool) -> None:
    s = new(free_parking_jackpot=jackpot)
    s.position[0] = 1
    dice(s, 1, 2)
    act(s, 0, "roll")  # Formueskatt, 200
    assert s.cash[0] == 1300
    assert s.pot == (200 if jackpot else 0)
    act(s, 0, "end")
    s.position[1] = 17
    dice(s, 1, 2)
    events = act(s, 1, "roll")  # Gratis parkering
    assert s.position[1] == 20
    assert s.cash[1] == (1700 if jackpot else 1500)
    assert ("monopol.event.jackpot" in keys(events)) is jackpot
    assert s.pot == 0


def test_free_parking_jackpot_takes_jail_fines_too_and_is_public() -> None:
    s = new(free_parking_jackpot=True)
    s.in_jail[0], s.position[0] = True, JAIL
    act(s, 0, "jail pay")
    assert s.pot == 50 and s.cash[0] == 1450
    assert GAME.observe(s, None)["public"]["pot"] == 50


def test_without_the_jackpot_landing_on_free_parking_pays_nothing() -> None:
    s = new()
    s.position[0] = 17
    dice(s, 1, 2)
    assert "monopol.event.jackpot" not in keys(act(s, 0, "roll"))
    assert s.cash[0] == 1500


@pytest.mark.parametrize(("double", "salary"), [(True, 400), (False, 200)])
def test_double_start_pays_twice_for_landing_right_on_start(double: bool, salary: int) -> None:
    s = new(double_start=double)
    s.position[0] = 37
    dice(s, 1, 2)
    events = act(s, 0, "roll")
    assert s.position[0] == 0 and s.cash[0] == 1500 + salary
    assert ("monopol.event.land_start" in keys(events)) is double


def test_double_start_passing_start_pays_the_salary_once() -> None:
    s = new(double_start=True)
    s.position[0] = 36
    dice(s, 2, 3)
    act(s, 0, "roll")
    assert s.position[0] == 1 and s.cash[0] == 1700


def test_start_money_sets_every_players_cash_and_the_bank_pays_it_out() -> None:
    s = new(4, start_money=3000)
    assert s.cash == [3000] * 4 and s.bank == -12000


@pytest.mark.parametrize("value", [499, 10001])
def test_start_money_out_of_range_is_refused(value: int) -> None:
    with pytest.raises(Exception, match="start_money|option"):
        new(start_money=value)


@pytest.mark.parametrize("auctions", [True, False])
def test_auctions_off_a_declined_deed_stays_with_the_bank(auctions: bool) -> None:
    s = new(auctions=auctions)
    dice(s, 1, 2)
    act(s, 0, "roll")  # Kirkeveien, unowned
    events = act(s, 0, "decline")
    assert (s.auction is not None) is auctions
    assert ("monopol.event.unsold" in keys(events)) is not auctions
    if not auctions:
        assert s.owner[3] == -1 and s.phase == END
        act(s, 0, "end")  # the turn goes on as usual
        assert s.turn == 1


@pytest.mark.parametrize("even", [True, False])
def test_even_building_off_lets_a_set_be_built_on_one_street(even: bool) -> None:
    s = new(even_building=even)
    own(s, 0, 6, 8, 9)
    if even:
        act(s, 0, "build 6 2")
        assert [s.level[6], s.level[8], s.level[9]] == [1, 1, 0]
        with pytest.raises(IllegalAction):
            act(s, 0, "build 8 2")  # 8 would have 2 while 9 has none
    else:
        act(s, 0, "build 6 3")
        assert [s.level[6], s.level[8], s.level[9]] == [3, 0, 0]
        act(s, 0, "sell 6 1")
        assert s.level[6] == 2


@pytest.mark.parametrize(("fine", "cash"), [(100, 1400), (0, 1500)])
def test_jail_fine_sets_what_leaving_jail_costs(fine: int, cash: int) -> None:
    s = new(jail_fine=fine)
    s.in_jail[0], s.position[0] = True, JAIL
    events = act(s, 0, "jail pay")
    assert not s.in_jail[0] and s.cash[0] == cash and s.phase == ROLL
    assert events[-1].params["amount"] == fine


def test_jail_fine_forced_after_three_tries_is_the_house_fine() -> None:
    s = new(jail_fine=120, free_parking_jackpot=True)
    s.in_jail[0], s.position[0], s.jail_tries[0] = True, JAIL, 2
    dice(s, 1, 2)
    act(s, 0, "roll")
    assert not s.in_jail[0] and s.cash[0] == 1500 - 120 and s.pot == 120


@pytest.mark.parametrize("seed", ["house-1", "house-2", "house-3"])
def test_a_seeded_game_with_every_house_rule_plays_out_replays_and_conserves_money(seed: str) -> None:
    options = GAME.resolve_options({**HOUSE_RULES, "max_rounds": 15})
    state = GAME.new(3, options, seed)
    start = GAME.dump(state)
    chooser, log = Rng(f"{seed}/players"), []
    for _ in range(4000):
        if GAME.outcome(state) is not None:
            break
        seat = sorted(GAME.to_act(state))[0]
        legal = [a for a in GAME.legal_actions(state, seat) if str(a) not in ("bankrupt",)] or \
            GAME.legal_actions(state, seat)
        action = legal[chooser.randint(0, len(legal) - 1)]
        GAME.apply(state, seat, action)
        log.append((seat, str(action)))
        assert sum(state.cash) + state.bank == 0
        assert state.pot >= 0
    assert GAME.outcome(state) is not None
    replayed = GAME.load(start)
    for seat, text in log:
        GAME.apply(replayed, seat, GAME.parse_action(text))
    assert GAME.dump(replayed) == GAME.dump(state)
