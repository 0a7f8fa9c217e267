"""Issue 11, Monopol: auctions close only by themselves, a received mortgaged deed waits for its
decision, selling keeps a set even, "pay each player" pays each a share, the agreed end time."""
from __future__ import annotations

import pytest

from bot.engine.core import TIMER
from bot.errors import IllegalAction, InvalidOption, NotYourTurn
from bot.games.monopol.board import HOTEL
from bot.games.monopol.state import ROLL

from .helpers import GAME, act, dice, keys, new, own

LIGHT_BLUE = (6, 8, 9)


def _auction(players: int = 3):
    s = new(players)
    dice(s, 1, 2)
    act(s, 0, "roll")  # Kirkeveien, unowned
    act(s, 0, "decline")
    assert s.auction is not None
    return s


# ---------------------------------------------------------------- 1. auctions
def test_auction_closes_only_when_every_other_solvent_player_has_bid_or_passed() -> None:
    s = _auction(3)
    act(s, 1, "bid 40")
    for seat in (0, 1, 2):  # neither the leader nor anyone else may close it
        with pytest.raises(IllegalAction, match="auction_timer_only"):
            act(s, seat, "auction close")
    assert s.auction is not None and s.auction.high == 40
    act(s, 0, "pass")
    assert s.auction is not None  # seat 2 has neither bid nor passed
    act(s, 2, "bid 50")
    act(s, 0, "pass")
    assert s.auction is not None  # seat 1 has not answered the new bid yet
    act(s, 1, "pass")
    assert s.auction is None and s.owner[3] == 2 and s.cash[2] == 1450


def test_auction_timer_closes_with_the_best_bid_and_is_no_players_move() -> None:
    s = _auction(3)
    act(s, 1, "bid 40")
    seconds, seat, action = GAME.timer_action(s)  # type: ignore[misc]
    assert seat == TIMER and str(action) == "auction close" and seconds == 600
    assert all(str(a) != "auction close" for p in range(3) for a in GAME.legal_actions(s, p))
    act(s, TIMER, "auction close")
    assert s.owner[3] == 1
    with pytest.raises(NotYourTurn):
        act(s, TIMER, "roll")  # the clock makes no player's move


# --------------------------------------------------- 2. received mortgaged deed
def _received_mortgaged_deed():
    s = new(3)
    own(s, 0, 6)
    s.mortgaged[6] = True
    act(s, 0, "trade 1 give:6 get:c10")
    act(s, 1, "accept")
    assert s.owner[6] == 1 and [(c.seat, c.square) for c in s.choices] == [(1, 6)]
    return s


def test_a_received_mortgaged_deed_waits_for_its_decision_before_anything_else() -> None:
    s = _received_mortgaged_deed()
    with pytest.raises(IllegalAction, match="deed_undecided"):
        act(s, 1, "trade 2 give:6 get:c10")  # cannot be offered on
    with pytest.raises(IllegalAction, match="deed_undecided"):
        act(s, 2, "trade 1 give:c100 get:6")  # nor asked for
    with pytest.raises(IllegalAction):
        act(s, 0, "unmortgage 6")  # the old owner owns it no more
    with pytest.raises(IllegalAction):
        act(s, 1, "unmortgage 6")  # the decision is lift or keep, nothing else
    act(s, 1, "keep-mortgage 6")
    assert s.mortgaged[6] and s.cash[1] == 1500 - 10 - 5 and not s.choices
    act(s, 1, "trade 2 give:6 get:c10")  # decided: now it may change hands again


def test_an_old_offer_of_an_undecided_deed_cannot_be_accepted() -> None:
    s = new(3)
    own(s, 0, 6)
    s.mortgaged[6] = True
    act(s, 0, "trade 1 give:6 get:c10")
    act(s, 1, "accept")
    s.trade = None
    # a stale offer made before is refused on acceptance too
    from bot.games.monopol.state import PendingTrade
    s.trade = PendingTrade(proposer=1, text="trade 2 give:6 get:c10")
    with pytest.raises(IllegalAction, match="deed_undecided"):
        act(s, 2, "accept")


# ----------------------------------------------------------- 3. even selling
def _hotel_set(bank_houses: int):
    s = new(2)
    own(s, 0, *LIGHT_BLUE)
    for square in LIGHT_BLUE:
        s.level[square] = HOTEL
    s.bank_hotels -= 3
    s.bank_houses = bank_houses
    s.bank = -sum(s.cash)  # conserved money: the test set the buildings up without paying
    return s


def test_selling_a_hotel_without_enough_bank_houses_sells_the_set_down_evenly() -> None:
    s = _hotel_set(bank_houses=2)
    events = act(s, 0, "sell 6 1")
    levels = [s.level[sq] for sq in LIGHT_BLUE]
    assert max(levels) - min(levels) <= 1 and sum(lv for lv in levels if lv < HOTEL) <= 2
    assert levels == [0, 1, 1] and s.bank_houses == 0 and s.bank_hotels == 12
    assert "monopol.event.sell_shortage" in keys(events)
    assert s.cash[0] == 1500 + 13 * 50 // 2  # 13 buildings sold at half the house price


def test_selling_a_hotel_with_houses_in_the_bank_breaks_it_into_four() -> None:
    s = _hotel_set(bank_houses=10)
    act(s, 0, "sell 6 1")
    assert [s.level[sq] for sq in LIGHT_BLUE] == [4, 5, 5] and s.bank_houses == 6


def test_selling_with_an_empty_bank_clears_the_set_never_leaving_it_uneven() -> None:
    s = _hotel_set(bank_houses=0)
    act(s, 0, "sell 6 1")
    assert [s.level[sq] for sq in LIGHT_BLUE] == [0, 0, 0] and s.bank_hotels == 12


# -------------------------------------------------- 4. pay each player a share
def _pay_each_card(cash: int, players: int = 4):
    s = new(players)
    s.cash[0] = cash
    s.bank = -sum(s.cash)
    s.decks["sjanse"].remove("s15")
    s.decks["sjanse"].insert(0, "s15")
    dice(s, 3, 4)
    events = act(s, 0, "roll")  # square 7: Sjanse
    return s, events


def test_pay_each_player_card_gives_every_player_their_share() -> None:
    s, _ = _pay_each_card(1000)
    assert s.cash == [850, 1550, 1550, 1550] and not s.debts


def test_pay_each_player_card_never_pays_one_creditor_before_the_others() -> None:
    s, _ = _pay_each_card(100)  # owes 3 x 50 = 150 with 100 in cash
    assert s.cash == [100, 1500, 1500, 1500]
    assert sorted((d.creditor, d.amount) for d in s.debts) == [(1, 50), (2, 50), (3, 50)]
    own(s, 0, 6)  # Kongens gate, mortgage 50: 150 would cover every share
    with pytest.raises(IllegalAction, match="can_still_pay"):
        act(s, 0, "bankrupt")


def test_a_bankrupt_owing_several_players_shares_out_and_no_one_takes_everything() -> None:
    s, _ = _pay_each_card(90)
    own(s, 0, 1)
    events = act(s, 0, "bankrupt")
    assert s.bankrupt[0]
    assert s.cash[1:] == [1530, 1530, 1530]  # 90 shared equally
    assert "monopol.event.share" in keys(events) and s.owner[1] == -1
    assert s.auction is not None and s.auction.square == 1  # the deed goes to the bank's auction


def test_debts_to_several_players_are_paid_together_once_the_money_is_there() -> None:
    s, _ = _pay_each_card(100)
    own(s, 0, 6)  # Kongens gate, mortgage 50: 150 in cash covers every share
    act(s, 0, "mortgage 6")
    assert not s.debts and s.cash == [0, 1550, 1550, 1550]


# ---------------------------------------------------------- 6. end time
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


# ------------------------------------------- 5. claims: who waits for whom
def test_a_claim_the_next_roll_would_end_is_waited_for() -> None:
    s = new(3, rent_must_be_claimed=True)
    own(s, 2, 6)
    dice(s, 2, 4)
    act(s, 0, "roll")  # lands on Kongens gate, owned by seat 2
    assert s.claims and GAME.waits_for(s) == frozenset()  # seat 0 still has to end its turn
    act(s, 0, "end")
    assert s.turn == 1 and s.phase == ROLL and GAME.waits_for(s) == frozenset({2})
    act(s, 2, "claim")
    assert GAME.waits_for(s) == frozenset() and s.cash[0] == 1500 - 6


def test_board_shows_the_time_left_to_the_agreed_end() -> None:
    import io

    from PIL import Image

    from rendering.monopol import render_public, time_left

    s = new(3, end_time="2030-01-02 17:30")
    obs = GAME.observe(s, None)
    obs["public"]["now"] = "2030-01-01T15:00Z"
    assert time_left(obs["public"], "en") == "Time left: 1 d 2 h 30 min (ends 2030-01-02 17:30 UTC)"
    image = Image.open(io.BytesIO(render_public(obs, names=["A", "B", "C"], locale="nb")))
    image.load()  # decodes, not just its header
    assert image.size[0] >= 1000
    assert time_left(GAME.observe(new(3), None)["public"], "en") == ""
