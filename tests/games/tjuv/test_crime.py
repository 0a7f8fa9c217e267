"""Robbing, arrests (landing, bank doors, encirclement), gratification, jail, nests and escapes."""
from __future__ import annotations

import random

import pytest

from bot.engine.registry import computer_action
from bot.errors import IllegalAction
from bot.games.tjuv.board import board
from bot.games.tjuv.play import _overdue, gratification, legal_moves, on_watched
from bot.games.tjuv.state import ESCAPED, ESCAPING, FREE, GUARD, HOUSE, JAIL, OUT, Police

from .helpers import GAME, act, assert_audited, position, rigged


def test_landing_on_a_bank_robs_its_sum_and_makes_the_thief_wanted() -> None:
    state = position(thieves={1: {"at": "B11"}}, turn=1, roll=4)
    keys = act(state, 1, "move T1 C14")
    thief = state.thief(1)
    assert "tjuv.event.rob_bank" in keys and thief.money == 5000 and thief.wanted
    assert state.bank_paid == 5000
    assert_audited(state)


def test_the_travel_agency_pays_out_the_fares_it_holds() -> None:
    state = position(thieves={1: {"at": "J7"}}, turn=1, roll=1)
    state.agency, state.bank_paid = 4000, 4000  # fares paid earlier by an escaped thief
    act(state, 1, "move T1 J6")
    assert state.thief(1).money == 4000 and state.agency == 0 and state.thief(1).wanted


def test_a_policeman_landing_on_a_wanted_thief_arrests_him_and_guards_him() -> None:
    state = position(police={"P1": "B8"}, thieves={1: {"at": "B11", "wanted": True, "money": 6000}}, roll=3)
    state.bank_paid = 6000
    state.rng = rigged(4)
    keys = act(state, 0, "move P1 B11")
    thief, police = state.thief(1), state.piece("P1")
    assert "tjuv.event.arrest" in keys
    assert thief.status == JAIL and thief.at == HOUSE and thief.sentence == 4 and thief.guard == "P1"
    assert police is not None and police.status == GUARD and police.at is None
    assert state.police_money == 2000 and state.bank_received == 4000
    assert_audited(state)


def test_a_thief_who_is_not_wanted_cannot_be_landed_on() -> None:
    state = position(police={"P1": "B8"}, thieves={1: {"at": "B11"}}, roll=3)
    assert "B11" not in legal_moves(state, 0, 3).get("P1", {})


@pytest.mark.parametrize(("carried", "reward"), [(0, 0), (1000, 1000), (5000, 1000), (6000, 2000),
                                                 (10000, 2000), (11000, 3000), (20000, 4000)])
def test_gratification_is_a_thousand_per_started_five_thousand(carried: int, reward: int) -> None:
    assert gratification(carried) == reward


def test_a_police_piece_on_the_door_of_a_one_sided_bank_arrests_the_thief_inside() -> None:
    state = position(police={"P1": "B11"}, thieves={1: {"at": "C14", "wanted": True, "money": 5000}}, roll=3)
    keys = act(state, 0, "move P1 B14")
    assert "tjuv.event.surrounded" in keys and state.thief(1).status == JAIL


def test_a_door_of_a_bank_open_to_two_sides_is_not_enough() -> None:
    state = position(police={"P1": "G13"}, thieves={1: {"at": "H10", "wanted": True, "money": 10000}}, roll=3)
    act(state, 0, "move P1 G10")
    assert state.thief(1).status == FREE


def test_a_wanted_thief_with_police_on_every_side_can_be_arrested_by_the_radio_car() -> None:
    state = position(police={"P2": "C7", "C": "G7"}, thieves={1: {"at": "D7", "wanted": True}}, roll=1)
    state.piece("C").heading = "W"  # type: ignore[union-attr]
    keys = act(state, 0, "move C E7")
    assert "tjuv.event.surrounded" in keys and state.thief(1).status == FREE
    act(state, 0, "arrest C")  # the police player names the arresting piece
    assert state.thief(1).status == JAIL
    assert state.thief(1).guard == "" and state.piece("P2").status == FREE  # type: ignore[union-attr]


def test_a_thief_on_a_tram_stop_is_never_surrounded() -> None:
    state = position(3, police={"P1": "B5", "P2": "B8", "P3": "C7"},
                     thieves={1: {"at": "B7", "wanted": True}, 2: {"at": "A19"}}, roll=1)
    act(state, 0, "move P1 B6")
    assert state.thief(1).status == FREE


def test_the_sentence_is_served_in_the_thiefs_own_turns_then_he_walks_out() -> None:
    state = position(3, thieves={1: {"at": HOUSE, "status": JAIL, "sentence": 2, "guard": "P1"}}, turn=1)
    state.piece("P1").at, state.piece("P1").status = None, GUARD  # type: ignore[union-attr]
    assert act(state, 1, "wait")[0] == "tjuv.event.waits" and state.thief(1).sentence == 1
    state.turn = 1
    assert act(state, 1, "wait")[0] == "tjuv.event.released"
    thief = state.thief(1)
    assert thief.status == FREE and not thief.wanted and state.piece("P1").status == FREE  # type: ignore[union-attr]
    state.turn = 1
    state.rng = rigged(3)
    act(state, 1, "roll")
    move = next(a for a in GAME.legal_actions(state, 1))
    act(state, 1, str(move))
    assert thief.at not in (None, HOUSE)


def test_a_six_breaks_out_of_jail_and_moves_six_wanted() -> None:
    state = position(3, thieves={1: {"at": HOUSE, "status": JAIL, "sentence": 5}}, turn=1)
    state.rng = rigged(2, 6)
    assert act(state, 1, "breakout")[0] == "tjuv.event.breakout_failed"
    assert state.thief(1).sentence == 4 and state.thief(1).status == JAIL
    state.turn = 1
    assert act(state, 1, "breakout")[0] == "tjuv.event.breakout"
    assert state.roll == 6 and state.thief(1).wanted and state.thief(1).status == FREE
    with pytest.raises(IllegalAction):
        act(state, 1, "move T1 G11")  # nine steps from the house
    act(state, 1, "move T1 J11")
    assert state.thief(1).at == "J11"


def test_a_jailed_thief_can_only_wait_or_break_out() -> None:
    state = position(thieves={1: {"at": HOUSE, "status": JAIL, "sentence": 3}}, turn=1)
    assert [str(a) for a in GAME.legal_actions(state, 1)] == ["wait", "breakout"]
    with pytest.raises(IllegalAction):
        act(state, 1, "roll")


def test_the_fourth_arrest_removes_the_thief_and_the_arresting_policeman() -> None:
    state = position(3, police={"P1": "B8"}, thieves={1: {"at": "B11", "wanted": True, "arrests": 3,
                                                          "stashes": {"A5": 2000}}}, roll=3)
    state.bank_paid = 2000
    keys = act(state, 0, "move P1 B11")
    assert "tjuv.event.out" in keys
    assert state.thief(1).status == OUT and state.piece("P1").status == OUT  # type: ignore[union-attr]
    assert state.thief(1).stashes == {}
    assert_audited(state)


def test_the_radio_car_is_never_removed() -> None:
    state = position(3, police={"C": "B14"}, thieves={1: {"at": "B11", "wanted": True, "arrests": 3}}, roll=2)
    state.piece("C").heading = "N"  # type: ignore[union-attr]
    act(state, 0, "move C B10")  # four squares: through B11 is not allowed, B13-B12-B11 ends the move
    assert state.thief(1).status == FREE
    state.turn, state.phase, state.roll = 0, "move", 1
    state.piece("C").at = "B13"  # type: ignore[union-attr]
    act(state, 0, "move C B11")
    assert state.thief(1).status == OUT and state.piece("C").status == FREE  # type: ignore[union-attr]


def test_hiding_all_money_in_a_nest_ends_being_wanted_and_fetching_makes_wanted_again() -> None:
    state = position(3, thieves={1: {"at": "B2", "wanted": True, "money": 5000}}, turn=1, roll=6)
    state.bank_paid = 5000
    act(state, 1, "move T1 A5")
    assert state.phase == "nest" and state.turn == 1
    keys = GAME.apply(state, 1, GAME.parse_action("hide 5000"))
    assert [e.visible_to for e in keys][:2] == [None, frozenset({1})]
    assert "5000" not in str([e.params for e in keys if e.visible_to is None])
    thief = state.thief(1)
    assert thief.money == 0 and not thief.wanted and thief.stashes == {"A5": 5000}
    public = GAME.observe(state, 2)
    assert public["public"]["thieves"][0]["stashes"] == 1 and "5000" not in str(public)
    assert GAME.observe(state, 1)["private"]["stashes"] == {"A5": 5000}
    act(state, 1, "end")
    assert state.turn == 2
    state.turn = 1
    act(state, 1, "fetch")
    assert thief.money == 5000 and thief.wanted and thief.stashes == {}
    assert_audited(state)


def test_hiding_needs_a_nest_and_money() -> None:
    state = position(thieves={1: {"at": "B2", "money": 3000}}, turn=1)
    with pytest.raises(IllegalAction):
        act(state, 1, "hide 1000")
    state.thief(1).at = "A5"
    with pytest.raises(IllegalAction):
        act(state, 1, "hide 4000")
    with pytest.raises(IllegalAction):
        act(state, 1, "fetch")


def test_train_needs_the_exact_roll_and_the_fare_goes_to_the_travel_agency() -> None:
    state = position(thieves={1: {"at": "B5", "money": 8000, "wanted": True}}, turn=1, roll=5)
    assert "B1" not in legal_moves(state, 1, 5)["T1"]
    state.roll = 4
    keys = act(state, 1, "move T1 B1")
    assert "tjuv.event.escape_train" in keys
    assert state.thief(1).status == ESCAPING and state.thief(1).money == 7000 and state.agency == 1000


def test_the_plane_needs_no_exact_roll_but_costs_three_thousand() -> None:
    state = position(thieves={1: {"at": "Y5", "money": 5000}}, turn=1, roll=6)
    act(state, 1, "move T1 Y1")
    assert state.thief(1).money == 2000 and state.agency == 3000
    poor = position(thieves={1: {"at": "Y5", "money": 2000}}, turn=1, roll=6)
    assert "Y1" not in legal_moves(poor, 1, 6)["T1"]


def test_an_escape_succeeds_when_the_police_do_not_reach_a_telegraph() -> None:
    state = position(police={"P1": "M2"}, thieves={1: {"at": "B5", "money": 8000}}, turn=1, roll=4)
    act(state, 1, "move T1 B1")
    assert state.turn == 0
    state.phase, state.roll = "move", 2
    keys = act(state, 0, "move P1 O2")
    assert "tjuv.event.escaped" in keys and state.thief(1).status == ESCAPED
    assert GAME.outcome(state) is not None and GAME.outcome(state).winners == (1,)  # type: ignore[union-attr]


def test_landing_on_a_telegraph_on_the_next_police_turn_stops_the_escape() -> None:
    state = position(police={"P1": "M2"}, thieves={1: {"at": "B5", "money": 8000}}, turn=1, roll=4)
    act(state, 1, "move T1 B1")
    state.phase, state.roll = "move", 3
    keys = act(state, 0, "move P1 O3")
    assert "tjuv.event.escape_stopped" in keys and state.thief(1).status == JAIL
    assert state.police_money == 2000


def test_an_escape_fails_at_once_while_a_policeman_stands_on_a_telegraph() -> None:
    state = position(police={"P1": "O3"}, thieves={1: {"at": "B5", "money": 3000}}, turn=1, roll=4)
    keys = act(state, 1, "move T1 B1")
    assert "tjuv.event.escape_failed" in keys and state.thief(1).status == JAIL


def test_no_police_piece_stands_more_than_two_turns_on_a_telegraph_or_an_escape_front() -> None:
    state = position(police={"P1": "O2", "P2": "B4"}, roll=1)
    act(state, 0, "move P1 O3")
    assert state.piece("P1").stay == 1  # type: ignore[union-attr]
    state.turn, state.phase, state.roll = 0, "move", 2
    act(state, 0, "move P2 B2")
    assert state.piece("P1").stay == 2 and state.piece("P2").stay == 1  # type: ignore[union-attr]
    state.turn, state.phase, state.roll = 0, "move", 1
    assert set(legal_moves(state, 0, 1)) == {"P1"}
    with pytest.raises(IllegalAction):
        act(state, 0, "move P2 C2")
    act(state, 0, "move P1 O2")
    assert state.piece("P1").stay == 0  # type: ignore[union-attr]


def test_the_game_ends_when_every_thief_is_jailed_escaped_or_out_and_money_decides() -> None:
    state = position(3, police={"P1": "B8"}, thieves={1: {"status": ESCAPED, "at": None, "money": 9000},
                                                      2: {"at": "B11", "wanted": True, "money": 1000}}, roll=3)
    act(state, 0, "move P1 B11")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "tjuv.end.all_gone"
    assert outcome.places == ((1,), (0,), (2,)) and dict(outcome.scores) == {0: 1000, 1: 9000, 2: 0}
    assert GAME.to_act(state) == frozenset()


def test_the_round_limit_ends_the_game() -> None:
    state = GAME.new(3, GAME.resolve_options({"max_rounds": 2}), "limit")
    chooser = random.Random(1)
    while GAME.outcome(state) is None:
        seat = next(iter(GAME.to_act(state)))
        GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat)))
    assert state.round == 2 and GAME.outcome(state).reason in ("tjuv.end.rounds", "tjuv.end.all_gone")  # type: ignore[union-attr]


@pytest.mark.parametrize("players", [2, 4, 7])
def test_computer_players_finish_games_and_every_krona_is_accounted_for(players: int) -> None:
    state = GAME.new(players, GAME.resolve_options({"max_rounds": 40}), f"bots-{players}")
    robbed = False
    while GAME.outcome(state) is None:
        seat = next(iter(GAME.to_act(state)))
        GAME.apply(state, seat, computer_action(GAME, state, seat))
        assert_audited(state)
        robbed = robbed or state.bank_paid > 0
    assert robbed


def _car(state) -> Police:  # type: ignore[no-untyped-def]
    car = state.piece("C")
    assert isinstance(car, Police)
    return car


def test_both_radio_car_squares_encircle_a_wanted_thief() -> None:
    # R11's only free neighbours are Q11 (the car's tail) and S11
    state = position(police={"C": ("P11", "Q11"), "P1": "T11"}, thieves={1: {"at": "R11", "wanted": True}}, roll=1)
    act(state, 0, "move P1 S11")
    assert state.pending and set(state.pending[0]["pieces"]) == {"C", "P1"}


def test_both_radio_car_squares_count_for_the_watched_square_limit() -> None:
    b = board()
    front = next(sq for sq in sorted(b.escape_fronts) if b.kind[sq] == "street"
                 and any(b.kind[n] == "street" and n not in b.escape_fronts for n in b.neighbours[sq]))
    other = next(n for n in b.neighbours[front] if b.kind[n] == "street" and n not in b.escape_fronts)
    state = position(police={"C": (other, front)})
    car = _car(state)
    assert car.at not in b.escape_fronts and on_watched(car)  # only its tail stands in front
    car.stay = 2
    assert "C" in _overdue(state)


def test_a_wanted_thief_in_a_nest_whose_every_door_holds_police_is_arrested() -> None:
    assert board().doors("A5") == ("B5",)
    state = position(police={"P1": "B7"}, thieves={1: {"at": "A5", "wanted": True, "money": 3000}}, roll=2)
    keys = act(state, 0, "move P1 B5")
    assert "tjuv.event.surrounded" in keys and state.thief(1).status == JAIL


def test_a_thief_in_a_nest_who_is_not_wanted_is_safe() -> None:
    state = position(police={"P1": "B7"}, thieves={1: {"at": "A5", "wanted": False}}, roll=2)
    act(state, 0, "move P1 B5")
    assert state.thief(1).status == FREE


def test_the_police_player_chooses_which_adjacent_piece_makes_the_arrest() -> None:
    state = position(3, police={"P2": "C7", "P3": "G7"}, thieves={1: {"at": "D7", "wanted": True, "money": 4000}},
                     roll=2)
    keys = act(state, 0, "move P3 E7")
    assert "tjuv.event.choose_arrester" in keys and state.thief(1).status == FREE
    assert GAME.to_act(state) == {0} and {str(a) for a in GAME.legal_actions(state, 0)} == {"arrest P2", "arrest P3"}
    with pytest.raises(IllegalAction, match="not_arrester"):
        act(state, 0, "arrest P1")
    with pytest.raises(IllegalAction, match="arrest_first"):
        act(state, 0, "roll")
    act(state, 0, "arrest P2")  # the police's choice, not the engine's
    assert state.thief(1).status == JAIL and state.thief(1).guard == "P2"
    assert state.piece("P2").status == GUARD and state.piece("P3").status == FREE  # type: ignore[union-attr]
    assert state.turn == 1 and state.police_money == 1000  # the police turn is over


def test_a_wanted_thief_carrying_nothing_is_no_longer_wanted_once_in_a_nest() -> None:
    state = position(thieves={1: {"at": "B5", "wanted": True}}, turn=1, roll=1)  # broke out: no money
    keys = act(state, 1, "move T1 A5")
    assert "tjuv.event.not_wanted" in keys and not state.thief(1).wanted and state.phase == "nest"


def test_a_wanted_thief_with_money_stays_wanted_until_he_hides_it() -> None:
    state = position(thieves={1: {"at": "B5", "wanted": True, "money": 2000}}, turn=1, roll=1)
    state.bank_paid = 2000
    assert "tjuv.event.not_wanted" not in act(state, 1, "move T1 A5")
    assert state.thief(1).wanted
    assert "tjuv.event.not_wanted" in act(state, 1, "hide 2000")
