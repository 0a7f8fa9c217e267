"""Monopol rules, including the worked examples of the Norwegian rule text."""
from __future__ import annotations

import pytest

from bot.engine.core import TIMER
from bot.errors import IllegalAction, NotYourTurn
from bot.games.monopol.board import JAIL
from bot.games.monopol.state import BUY, END, ROLL

from .helpers import GAME, act, dice, keys, new, own


def test_four_players_take_6000_from_the_bank() -> None:
    s = new(4)
    assert s.cash == [1500] * 4
    assert s.bank == -6000


def test_kongens_gate_set_with_one_house_each_costs_150_and_rents_30_instead_of_6() -> None:
    s = new()
    own(s, 0, 6, 8, 9)
    act(s, 0, "build 6 3")
    assert s.cash[0] == 1500 - 150
    assert [s.level[6], s.level[8], s.level[9]] == [1, 1, 1]
    s.turn, s.position[1] = 1, 3
    dice(s, 1, 2)
    act(s, 1, "roll")
    assert s.position[1] == 6
    assert s.cash[1] == 1500 - 30
    assert s.cash[0] == 1350 + 30


def test_a_street_rents_its_base_alone_and_double_in_a_full_unbuilt_set() -> None:
    s = new()
    own(s, 0, 6)
    s.turn, s.position[1] = 1, 3
    dice(s, 1, 2)
    act(s, 1, "roll")
    assert s.cash[1] == 1494
    own(s, 0, 8, 9)
    s.position[1], s.phase = 3, ROLL
    dice(s, 1, 2)
    act(s, 1, "roll")
    assert s.cash[1] == 1494 - 12


@pytest.mark.parametrize(("utilities", "rent"), [((12,), 32), ((12, 28), 80)])
def test_a_utility_roll_of_8_costs_32_with_one_and_80_with_both(utilities: tuple[int, ...], rent: int) -> None:
    s = new()
    own(s, 0, *utilities)
    s.turn, s.position[1] = 1, 4
    dice(s, 3, 5)
    act(s, 1, "roll")
    assert s.position[1] == 12
    assert s.cash[1] == 1500 - rent


@pytest.mark.parametrize(("count", "rent"), [(1, 25), (2, 50), (3, 100), (4, 200)])
def test_stations_rent_25_50_100_200(count: int, rent: int) -> None:
    s = new()
    own(s, 0, *[5, 15, 25, 35][:count])
    s.turn, s.position[1] = 1, 2
    dice(s, 1, 2)
    act(s, 1, "roll")
    assert s.cash[1] == 1500 - rent


def test_mortgage_value_100_is_lifted_for_110() -> None:
    s = new()
    own(s, 0, 5)
    act(s, 0, "mortgage 5")
    assert s.cash[0] == 1600 and s.mortgaged[5]
    act(s, 0, "unmortgage 5")
    assert s.cash[0] == 1490 and not s.mortgaged[5]


def test_a_mortgaged_deed_earns_no_rent() -> None:
    s = new()
    own(s, 0, 6)
    act(s, 0, "mortgage 6")
    s.turn, s.position[1] = 1, 3
    dice(s, 1, 2)
    act(s, 1, "roll")
    assert s.cash[1] == 1500


def test_a_mortgaged_street_in_a_set_still_doubles_the_others() -> None:
    s = new()
    own(s, 0, 6, 8, 9)
    act(s, 0, "mortgage 9")
    s.turn, s.position[1] = 1, 3
    dice(s, 1, 2)
    act(s, 1, "roll")
    assert s.cash[1] == 1500 - 12


def test_doubles_roll_again_and_the_third_double_goes_to_jail_without_moving() -> None:
    s = new()
    own(s, 0, 16)
    dice(s, 5, 5, 3, 3, 2, 2)
    act(s, 0, "roll")
    assert (s.position[0], s.phase) == (10, ROLL)
    act(s, 0, "roll")
    assert (s.position[0], s.phase) == (16, ROLL)
    events = act(s, 0, "roll")
    assert "monopol.event.third_double" in keys(events)
    assert s.position[0] == JAIL and s.in_jail[0] and s.phase == END


def test_passing_start_pays_200() -> None:
    s = new()
    own(s, 0, 3)
    s.position[0] = 37
    dice(s, 2, 4)
    act(s, 0, "roll")
    assert s.position[0] == 3 and s.cash[0] == 1700


def test_a_card_that_moves_past_start_pays_200() -> None:
    s = new()
    s.position[0] = 32
    s.decks["sjanse"].remove("s03")
    s.decks["sjanse"].insert(0, "s03")  # go to Slemdal
    dice(s, 1, 3)
    act(s, 0, "roll")
    assert s.position[0] == 24 and s.cash[0] == 1700 and s.phase == BUY
    assert s.decks["sjanse"][-1] == "s03"


def test_going_to_jail_never_passes_start() -> None:
    s = new()
    s.position[0] = 26
    dice(s, 1, 3)
    act(s, 0, "roll")
    assert s.position[0] == JAIL and s.in_jail[0] and s.cash[0] == 1500
    s2 = new()
    s2.position[0] = 32
    s2.decks["sjanse"].remove("s11")
    s2.decks["sjanse"].insert(0, "s11")  # go to jail
    dice(s2, 1, 3)
    act(s2, 0, "roll")
    assert s2.position[0] == JAIL and s2.in_jail[0] and s2.cash[0] == 1500


def test_building_must_be_even() -> None:
    s = new()
    own(s, 0, 6, 8, 9)
    act(s, 0, "build 6 1")
    with pytest.raises(IllegalAction) as info:
        act(s, 0, "build 6 1")
    assert info.value.key == "monopol.error.uneven"
    act(s, 0, "build 8 1")
    act(s, 0, "build 9 1")
    act(s, 0, "build 6 1")
    assert [s.level[6], s.level[8], s.level[9]] == [2, 1, 1]


def test_building_needs_the_whole_set_and_no_mortgage_in_it() -> None:
    s = new()
    own(s, 0, 6, 8)
    with pytest.raises(IllegalAction, match="not_full_set"):
        act(s, 0, "build 6 1")
    own(s, 0, 9)
    act(s, 0, "mortgage 9")
    with pytest.raises(IllegalAction, match="set_mortgaged"):
        act(s, 0, "build 6 1")


def test_selling_must_be_even_and_pays_half() -> None:
    s = new()
    own(s, 0, 6, 8, 9)
    act(s, 0, "build 6 5")
    assert [s.level[6], s.level[8], s.level[9]] == [2, 2, 1]
    with pytest.raises(IllegalAction, match="uneven"):
        act(s, 0, "sell 9 1")
    before = s.cash[0]
    act(s, 0, "sell 6 2")
    assert [s.level[6], s.level[8], s.level[9]] == [1, 1, 1]
    assert s.cash[0] == before + 2 * 25


def test_four_houses_then_a_hotel_which_returns_the_houses() -> None:
    s = new()
    own(s, 0, 1, 3)
    act(s, 0, "build 1 8")
    assert s.bank_houses == 32 - 8
    act(s, 0, "build 1 1")
    assert s.level[1] == 5 and s.bank_houses == 32 - 4 and s.bank_hotels == 11
    with pytest.raises(IllegalAction, match="max_level|uneven"):
        act(s, 0, "build 1 1")
    act(s, 0, "sell 1 1")
    assert s.level[1] == 4 and s.bank_houses == 32 - 8 and s.bank_hotels == 12


def test_the_last_houses_go_to_auction_when_several_players_want_them() -> None:
    s = new(3)
    own(s, 0, 6, 8, 9)
    own(s, 1, 1, 3)
    s.bank_houses = 1
    events = act(s, 0, "build 6 1")
    assert "monopol.event.house_shortage" in keys(events)
    assert s.auction is not None and s.auction.high == 10 and s.auction.bidder == 0
    assert GAME.to_act(s) == frozenset({1})  # seat 2 cannot build and is not asked
    act(s, 1, "bid 20")
    act(s, 0, "pass")
    assert s.auction is None and s.placement == {"seat": 1, "lot": "house"}
    assert s.cash[1] == 1480
    with pytest.raises(IllegalAction, match="place_where"):
        act(s, 1, "build 6 1")
    act(s, 1, "build 3 1")
    assert s.level[3] == 1 and s.bank_houses == 0 and s.placement is None
    with pytest.raises(IllegalAction, match="no_houses"):
        act(s, 0, "build 6 1")


def test_with_enough_houses_there_is_no_auction() -> None:
    s = new(3)
    own(s, 0, 6, 8, 9)
    own(s, 1, 1, 3)
    s.bank_houses = 2
    act(s, 0, "build 6 1")
    assert s.auction is None and s.level[6] == 1


def test_a_declined_deed_is_auctioned_and_the_decliner_may_bid() -> None:
    s = new(3)
    dice(s, 1, 2)
    act(s, 0, "roll")
    assert s.phase == BUY
    act(s, 0, "decline")
    assert GAME.to_act(s) == frozenset({0, 1, 2})
    act(s, 1, "bid 10")
    act(s, 0, "bid 11")
    act(s, 2, "pass")
    assert s.auction is not None
    act(s, 1, "pass")
    assert s.auction is None and s.owner[3] == 0 and s.cash[0] == 1489
    assert GAME.to_act(s) == frozenset({0}) and s.phase == END


def test_a_deed_nobody_bids_on_stays_with_the_bank() -> None:
    s = new()
    dice(s, 1, 2)
    act(s, 0, "roll")
    act(s, 0, "decline")
    act(s, 0, "pass")
    act(s, 1, "pass")
    assert s.auction is None and s.owner[3] == -1


def test_auction_close_ends_the_auction_with_the_best_bid() -> None:
    s = new(3)
    dice(s, 1, 2)
    act(s, 0, "roll")
    act(s, 0, "decline")
    act(s, 2, "bid 30")
    with pytest.raises(IllegalAction, match="bid_too_low"):
        act(s, 1, "bid 30")
    act(s, TIMER, "auction close")  # the auction's timer ran out
    assert s.owner[3] == 2 and s.cash[2] == 1470


def test_rent_to_claim_lapses_when_the_next_player_rolls() -> None:
    s = new(3, rent_must_be_claimed=True)
    own(s, 2, 6)
    s.turn, s.position[1] = 1, 3
    dice(s, 1, 2, 2, 5)
    act(s, 1, "roll")
    assert s.cash[1] == 1500 and len(s.claims) == 1
    act(s, 1, "end")
    act(s, 2, "roll")
    assert s.claims == []
    with pytest.raises(IllegalAction, match="no_claim"):
        act(s, 2, "claim")
    assert s.cash[1] == 1500


def test_rent_claimed_in_time_is_paid() -> None:
    s = new(3, rent_must_be_claimed=True)
    own(s, 2, 6)
    s.turn, s.position[1] = 1, 3
    dice(s, 1, 2)
    act(s, 1, "roll")
    act(s, 1, "end")
    act(s, 2, "claim")
    assert s.cash[1] == 1494 and s.cash[2] == 1506


def test_jail_pay_50_before_rolling() -> None:
    s = new()
    s.in_jail[0], s.position[0] = True, JAIL
    act(s, 0, "jail pay")
    assert not s.in_jail[0] and s.cash[0] == 1450 and s.phase == ROLL


def test_a_used_jail_card_goes_under_its_own_deck() -> None:
    s = new()
    s.in_jail[0], s.position[0] = True, JAIL
    s.decks["lykke"].remove("p05")
    s.jail_cards[0] = ["p05"]
    act(s, 0, "jail card")
    assert not s.in_jail[0] and s.decks["lykke"][-1] == "p05" and s.jail_cards[0] == []


def test_a_double_leaves_jail_and_moves_but_gives_no_extra_roll() -> None:
    s = new()
    own(s, 0, 16)
    s.in_jail[0], s.position[0] = True, JAIL
    dice(s, 3, 3)
    act(s, 0, "roll")
    assert not s.in_jail[0] and s.position[0] == 16 and s.phase == END


def test_after_three_failed_tries_pay_50_and_move() -> None:
    s = new()
    own(s, 0, 15)
    s.in_jail[0], s.position[0] = True, JAIL
    for attempt in range(2):
        dice(s, 1, 2)
        act(s, 0, "roll")
        assert s.in_jail[0] and s.jail_tries[0] == attempt + 1
        s.phase = ROLL
    dice(s, 2, 3)
    act(s, 0, "roll")
    assert not s.in_jail[0] and s.position[0] == 15 and s.cash[0] == 1450


def test_a_jailed_player_still_collects_rent() -> None:
    s = new()
    own(s, 0, 6)
    s.in_jail[0], s.position[0] = True, JAIL
    s.turn, s.position[1] = 1, 3
    dice(s, 1, 2)
    act(s, 1, "roll")
    assert s.cash[0] == 1506


def test_a_short_player_must_raise_money_before_going_bankrupt() -> None:
    s = new()
    own(s, 0, 37, 39)
    own(s, 1, 3, 5)
    s.cash[1], s.bank = 50, s.bank + 1450
    s.turn, s.position[1] = 1, 35
    dice(s, 1, 3)
    act(s, 1, "roll")
    assert s.debts and GAME.to_act(s) == frozenset({1})
    with pytest.raises(IllegalAction, match="can_still_pay"):
        act(s, 1, "bankrupt")
    with pytest.raises(IllegalAction, match="busy"):
        act(s, 1, "end")
    act(s, 1, "mortgage 5")
    assert not s.debts and s.cash[1] == 50 and s.cash[0] == 1600


def test_bankruptcy_to_a_player_hands_everything_over_with_the_mortgage_choice() -> None:
    s = new(3)
    own(s, 0, 37, 39)
    own(s, 1, 1, 3)
    s.mortgaged[1] = True
    s.jail_cards[1] = ["p05"]
    s.decks["lykke"].remove("p05")
    s.cash[1], s.bank = 10, s.bank + 1490
    s.turn, s.position[1] = 1, 35
    dice(s, 1, 3)
    act(s, 1, "roll")
    events = act(s, 1, "bankrupt")
    assert "monopol.event.bankrupt_player" in keys(events)
    assert s.bankrupt[1] and s.owner[1] == 0 and s.owner[3] == 0 and s.mortgaged[1]
    assert s.cash[0] == 1510 and s.jail_cards[0] == ["p05"]
    assert GAME.to_act(s) == frozenset({0})
    with pytest.raises(IllegalAction, match="choose_other"):
        act(s, 0, "lift 3")
    act(s, 0, "keep-mortgage 1")
    assert s.cash[0] == 1507 and s.mortgaged[1]
    assert GAME.to_act(s) == frozenset({2}) and s.turn == 2


def test_bankruptcy_to_the_bank_auctions_the_deeds_at_once() -> None:
    s = new(3)
    own(s, 1, 1, 3)
    s.mortgaged[1] = True
    s.cash[1], s.bank = 100, s.bank + 1400
    s.turn = 1
    dice(s, 1, 3)
    act(s, 1, "roll")
    assert s.debts[0].creditor == -1
    act(s, 1, "bankrupt")
    assert s.owner[1] == -1 and s.owner[3] == -1 and not s.mortgaged[1]
    assert s.auction is not None and s.auction.square == 1 and s.auction_queue == [3]
    act(s, 0, "bid 50")
    act(s, 2, "pass")
    assert s.owner[1] == 0
    assert s.auction is not None and s.auction.square == 3
    act(s, 0, "pass")
    act(s, 2, "pass")
    assert s.auction is None and s.owner[3] == -1
    assert GAME.to_act(s) == frozenset({2})


def test_the_last_solvent_player_wins() -> None:
    s = new()
    own(s, 0, 37, 39)
    s.cash[1], s.bank = 10, s.bank + 1490
    s.turn, s.position[1] = 1, 35
    dice(s, 1, 3)
    act(s, 1, "roll")
    act(s, 1, "bankrupt")
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.winners == (0,) and outcome.places[1] == (1,)
    assert GAME.to_act(s) == frozenset()


def test_trades_move_cash_and_deeds_when_accepted() -> None:
    s = new()
    own(s, 1, 6)
    act(s, 0, "trade 1 give:c100 get:6")
    assert GAME.to_act(s) == frozenset({0, 1})
    with pytest.raises(NotYourTurn):
        act(s, 0, "accept")
    act(s, 1, "accept")
    assert s.owner[6] == 0 and s.cash == [1400, 1600] and s.trade is None


def test_a_declined_trade_changes_nothing() -> None:
    s = new()
    own(s, 1, 6)
    act(s, 0, "trade 1 give:c100 get:6")
    act(s, 1, "decline trade")
    assert s.owner[6] == 1 and s.cash == [1500, 1500] and s.trade is None


def test_a_street_cannot_change_hands_while_its_set_has_buildings() -> None:
    s = new()
    own(s, 1, 6, 8, 9)
    act(s, 1, "build 9 1")
    with pytest.raises(IllegalAction, match="trade_buildings"):
        act(s, 0, "trade 1 give:c500 get:6")


def test_a_mortgaged_deed_received_in_a_trade_is_lifted_or_kept_for_10_percent() -> None:
    s = new()
    own(s, 1, 6, 8)
    s.mortgaged[6] = s.mortgaged[8] = True
    act(s, 0, "trade 1 give:c10 get:6,8")
    act(s, 1, "accept")
    assert GAME.to_act(s) == frozenset({0})
    act(s, 0, "lift 6")
    assert s.cash[0] == 1490 - 55 and not s.mortgaged[6]
    act(s, 0, "keep-mortgage 8")
    assert s.cash[0] == 1435 - 5 and s.mortgaged[8]


def test_jail_cards_can_be_traded() -> None:
    s = new()
    s.jail_cards[1] = ["s09"]
    s.decks["sjanse"].remove("s09")
    act(s, 0, "trade 1 give:c50 get:j1")
    act(s, 1, "accept")
    assert s.jail_cards == [["s09"], []]


def test_building_mortgaging_and_trading_work_out_of_turn() -> None:
    s = new()
    own(s, 1, 6, 8, 9, 5)
    assert GAME.to_act(s) == frozenset({0})
    act(s, 1, "build 6 3")
    act(s, 1, "mortgage 5")
    act(s, 1, "trade 0 give:5 get:c100")
    assert s.level[6] == 1 and s.mortgaged[5] and s.trade is not None


def test_the_turn_ends_only_after_rolling() -> None:
    s = new()
    with pytest.raises(IllegalAction, match="not_now"):
        act(s, 0, "end")
    with pytest.raises(NotYourTurn):
        act(s, 1, "roll")


def test_max_rounds_ends_the_game_by_net_worth() -> None:
    s = new(max_rounds=1)
    own(s, 0, 9)
    dice(s, 4, 5, 5, 4)
    act(s, 0, "roll")
    act(s, 0, "end")
    act(s, 1, "roll")
    assert s.position[1] == 9 and s.cash[1] == 1492
    act(s, 1, "end")
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.reason == "monopol.end.rounds"
    assert outcome.winners == (0,) and outcome.scores[0] == 1508 + 120 and outcome.scores[1] == 1492


def test_net_worth_counts_mortgaged_deeds_at_half_and_buildings_at_cost() -> None:
    from bot.games.monopol.rules import net_worth

    s = new()
    own(s, 0, 6, 8, 9, 5)
    act(s, 0, "build 6 3")
    act(s, 0, "mortgage 5")
    assert net_worth(s, 0) == (1500 - 150 + 100) + 320 + 150 + 100


def test_resigning_hands_everything_to_the_bank() -> None:
    s = new(3)
    own(s, 0, 6)
    GAME.resign(s, 0)
    assert s.bankrupt[0] and s.owner[6] == -1 and s.auction is not None
    assert sum(s.cash) + s.bank == 0


def test_a_player_in_debt_may_sell_a_deed_for_cash_but_not_give_cash_away() -> None:
    s = new(3)
    own(s, 0, 37, 39)
    own(s, 1, 3, 5)
    s.cash[1], s.bank = 50, s.bank + 1450
    s.turn, s.position[1] = 1, 35
    dice(s, 1, 3)
    act(s, 1, "roll")
    assert s.debts
    with pytest.raises(IllegalAction, match="trade_cash_debt"):
        act(s, 1, "trade 2 give:c50 get:-")
    act(s, 1, "trade 2 give:5 get:c200")
    assert s.trade is not None and s.trade.proposer == 1
    assert keys(act(s, 2, "accept")) == ["monopol.event.trade_done", "monopol.event.debt_paid"]
    assert s.owner[5] == 2 and not s.debts and s.cash == [1600, 150, 1300]  # the sale paid the 100 owed


def test_landing_on_the_jail_square_is_a_visit() -> None:
    s = new(2)
    dice(s, 4, 6)
    events = act(s, 0, "roll")
    assert s.position[0] == JAIL and not s.in_jail[0]
    assert "monopol.event.visit" in keys(events) and "monopol.event.move" not in keys(events)
