"""The normal computer: thieves fetch their stash and leave town in time, the police
guard the telegraphs and chase with the radio car, and no decision reads another thief's stashes."""
from __future__ import annotations

import pytest

from bot.engine.rng import Rng
from bot.games.tjuv import computer_normal as normal
from bot.games.tjuv.actions import Fetch, Hide, Move
from bot.games.tjuv.state import ESCAPED, ESCAPING, FREE

from .helpers import GAME, act, position

LEVELS = {"normal": normal.choose}


def decide(level: str, state, seat: int, seed: str = "t"):  # type: ignore[no-untyped-def]
    return LEVELS[level](state, seat, GAME.legal_actions(state, seat), Rng(seed))


@pytest.mark.parametrize("level", LEVELS)
def test_a_thief_worth_enough_fetches_his_stash(level: str) -> None:
    state = position(3, thieves={1: {"at": "A5", "stashes": {"A5": 9000}}}, turn=1)
    assert decide(level, state, 1) == Fetch()


@pytest.mark.parametrize("level", LEVELS)
def test_a_thief_not_yet_worth_enough_hides_his_takings(level: str) -> None:
    state = position(3, thieves={1: {"at": "B2", "wanted": True, "money": 3000}}, turn=1, roll=6)
    state.bank_paid = 3000
    act(state, 1, "move T1 A5")
    assert decide(level, state, 1) == Hide(3000)


@pytest.mark.parametrize("level", LEVELS)
def test_a_rich_thief_leaves_town_when_no_policeman_can_reach_a_telegraph(level: str) -> None:
    state = position(3, thieves={1: {"at": "B5", "money": 8000, "wanted": True}}, turn=1, roll=4)
    assert decide(level, state, 1) == Move("T1", "B1")


@pytest.mark.parametrize("level", LEVELS)
def test_a_rich_thief_does_not_escape_while_a_policeman_stands_on_a_telegraph(level: str) -> None:
    state = position(3, police={"P1": "O3"}, thieves={1: {"at": "B5", "money": 8000, "wanted": True}},
                     turn=1, roll=4)
    assert decide(level, state, 1) != Move("T1", "B1")


@pytest.mark.parametrize("level", LEVELS)
def test_the_police_rush_to_a_telegraph_when_a_thief_escapes(level: str) -> None:
    state = position(3, police={"P1": "M2"}, thieves={1: {"at": "B5", "money": 8000}}, turn=1, roll=4)
    act(state, 1, "move T1 B1")
    assert state.thief(1).status == ESCAPING
    state.turn, state.phase, state.roll = 0, "move", 3
    assert decide(level, state, 0) == Move("P1", "O3")


@pytest.mark.parametrize("level", LEVELS)
def test_a_policeman_guards_a_telegraph_while_a_rich_thief_could_leave(level: str) -> None:
    state = position(3, police={"P1": "M2"}, thieves={1: {"at": "B9", "money": 8000, "wanted": True}},
                     roll=3)
    assert decide(level, state, 0) == Move("P1", "O3")


@pytest.mark.parametrize("level", LEVELS)
def test_the_police_arrest_a_wanted_thief_they_can_land_on(level: str) -> None:
    state = position(3, police={"P1": "B8"}, thieves={1: {"at": "B11", "wanted": True, "money": 6000}}, roll=3)
    assert decide(level, state, 0) == Move("P1", "B11")


@pytest.mark.parametrize("level", LEVELS)
def test_the_police_chase_a_wanted_thief_with_the_radio_car(level: str) -> None:
    # the car goes twice the roll: from in front of the gate it comes two squares from the thief,
    # where a policeman leaving the house gets no closer than five
    state = position(3, thieves={1: {"at": "H11", "wanted": True, "money": 6000}, 2: {"at": "Z13"}}, roll=3)
    assert decide(level, state, 0) == Move("C", "J11")


def test_the_radio_car_makes_a_fair_share_of_the_police_moves_between_normal_computers() -> None:
    moves = {"car": 0, "men": 0}
    for seed in ("car0", "car1", "car2"):
        state = GAME.new(3, GAME.resolve_options({}), seed)
        for n in range(2000):
            if GAME.outcome(state) is not None:
                break
            seat = next(iter(GAME.to_act(state)))
            action = decide("normal", state, seat, f"{seed}/{n}")
            if seat == state.police_seat and isinstance(action, Move):
                moves["car" if action.piece == "C" else "men"] += 1
            GAME.apply(state, seat, action)
    assert moves["car"] >= 0.15 * (moves["car"] + moves["men"]), moves


def _playout(seed: str, steps: int, players: int = 4):  # type: ignore[no-untyped-def]
    state = GAME.new(players, GAME.resolve_options({}), seed)
    for n in range(steps):
        if GAME.outcome(state) is not None:
            break
        seat = next(iter(GAME.to_act(state)))
        GAME.apply(state, seat, decide("normal", state, seat, f"{seed}/{n}"))
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_decisions_do_not_change_when_the_other_thieves_stashes_are_redealt(level: str) -> None:
    scramble = Rng("redeal")
    checked = 0
    for n in range(40, 400, 30):
        state = _playout(f"redeal{n}", n)
        if GAME.outcome(state) is not None:
            continue
        seat = next(iter(GAME.to_act(state)))
        before = decide(level, state, seat, "same")
        for _ in range(2):
            assert decide(level, GAME.scramble_hidden(state, seat, scramble), seat, "same") == before
        checked += any(t.stashes for t in state.thieves)
    assert checked > 0, "no position had a stash to re-deal"


def test_games_of_normal_computers_end_with_no_money_left_hidden_by_a_free_thief() -> None:
    for seed in ("end1", "end2"):
        state = _playout(seed, 5000, players=3)
        assert GAME.outcome(state) is not None
        assert all(t.status != FREE for t in state.thieves)


@pytest.mark.parametrize("level", LEVELS)
def test_a_rich_thief_in_a_nest_the_police_can_shut_hides_all_he_carries(level: str) -> None:
    # leaving town, he would keep his 8000 on him; but a policeman three squares from the nest's
    # only door could shut him in with a three: with nothing on him he is not wanted
    state = position(3, police={"P1": "B8"}, thieves={1: {"at": "B2", "wanted": True, "money": 8000}},
                     turn=1, roll=6)
    state.bank_paid = 8000
    act(state, 1, "move T1 A5")
    assert normal._danger(state, "A5") > 0
    assert decide(level, state, 1) == Hide(8000)


@pytest.mark.parametrize("level", LEVELS)
def test_a_thief_does_not_rob_an_empty_travel_agency(level: str) -> None:
    state = position(3, thieves={1: {"at": "J7"}}, turn=1, roll=1)
    state.agency = 0
    assert decide(level, state, 1) != Move("T1", "J6")


@pytest.mark.parametrize("level", LEVELS)
def test_the_police_do_not_end_the_game_behind_with_an_arrest(level: str) -> None:
    # the other thief got away with 9000: jailing the last one, who carries 1000, ends the game
    # with the police at 1000 and the escaped thief first
    state = position(3, police={"P1": "B8"}, thieves={1: {"at": "B11", "wanted": True, "money": 1000},
                                                      2: {"status": ESCAPED, "at": None, "money": 9000}}, roll=3)
    assert decide(level, state, 0) != Move("P1", "B11")
    state.thief(1).money = 40000  # now the reward (8000) would not be enough either
    assert decide(level, state, 0) != Move("P1", "B11")
    state.thief(1).money = 45000  # 9000: a tie is no win
    assert decide(level, state, 0) != Move("P1", "B11")
    state.thief(1).money = 45001  # 10000: first place
    assert decide(level, state, 0) == Move("P1", "B11")
