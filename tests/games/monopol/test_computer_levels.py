"""The Monopol computers at levels normal and strong (issue 22): deeds valued by expected rent,
no colour set handed to an opponent for nothing, no declined offer repeated unchanged; strong's
rollouts pick legal actions, decide alike at every replay whatever the hidden decks and dice to
come, and change a decision where playing it out shows the normal heuristic wrong."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.engine import registry
from bot.engine.rng import Rng
from bot.games.monopol import computer_normal as normal
from bot.games.monopol import computer_strong as strong
from bot.games.monopol.actions import Bundle, Simple, Trade
from bot.games.monopol.state import BUY, END, MonopolState

from .helpers import GAME, act, new, own

Choose = Callable[[MonopolState, int, list[Any], Rng], Any]


def sets(s: MonopolState, owner: list[int], seat: int) -> set[str]:
    return normal.sets_of(owner, seat)


def play(seed: str, choosers: list[Choose], rounds: int,
         watch: Callable[[MonopolState, int, Any], None] | None = None) -> MonopolState:
    """A seeded game as the benchmark plays it; ``watch`` sees every decision before it is applied."""
    s = GAME.new(len(choosers), GAME.resolve_options({"max_rounds": rounds}), seed)
    for ply in range(20000):
        if GAME.outcome(s) is not None:
            break
        seat = sorted(GAME.watchers(s) | GAME.to_act(s))[0]
        legal = GAME.legal_actions(s, seat)
        if not legal:
            seat = min(GAME.to_act(s))
            legal = GAME.legal_actions(s, seat)
        action = choosers[seat](s, seat, legal, registry.computer_rng(seed, ply, seat))
        if watch:
            watch(s, seat, action)
        GAME.apply(s, seat, action)
        assert sum(s.cash) + s.bank == 0
    assert GAME.outcome(s) is not None
    return s


# ------------------------------------------------------------------ normal
def test_normal_values_a_street_that_completes_a_set_above_a_dearer_lone_street() -> None:
    s = new(4, max_rounds=40)
    own(s, 0, 1)  # one brown street: the other completes the set
    assert normal.worth(s, 0, 3) > normal.worth(s, 0, 31) > 0  # kr 60 brown over a kr 300 green alone
    assert normal.worth(s, 0, 3) > 2 * 60  # worth more than its printed price


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_no_amount_of_cash_buys_the_street_that_completes_the_proposers_set(level: str) -> None:
    s = new(4, max_rounds=40)
    own(s, 1, 16, 18)
    own(s, 0, 19)
    s.turn, s.phase = 1, END
    act(s, 1, "trade 0 give:c1000 get:19")
    assert str(registry.computer_action(GAME, s, 0, level, Rng("answer"))) == "decline trade"


def test_normal_accepts_a_swap_that_completes_a_set_for_each_side() -> None:
    s = new(4, max_rounds=40)
    own(s, 0, 21, 23, 19)
    own(s, 1, 24, 16, 18)
    s.turn, s.phase = 1, END
    act(s, 1, "trade 0 give:24 get:19")  # the red set for seat 0, the orange one for seat 1
    assert str(registry.computer_action(GAME, s, 0, "normal", Rng("answer"))) == "accept"


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_a_declined_offer_is_never_made_again_unchanged(level: str) -> None:
    s = new(4, max_rounds=40)
    own(s, 0, 16, 18, 21, 31)
    own(s, 1, 19, 23, 24)
    offers: list[str] = []
    for round_ in range(2, 12):
        s.round, s.turn, s.phase = round_, 0, END
        action = registry.computer_action(GAME, s, 0, level, Rng(f"offer/{round_}"))
        if not isinstance(action, Trade):
            break
        offers.append(str(action))
        act(s, 0, str(action))
        act(s, 1, "decline trade")
    assert len(offers) >= 2
    assert len(set(offers)) == len(offers)


def test_in_seeded_games_normal_never_accepts_a_trade_that_hands_the_proposer_a_set() -> None:
    easy, nrm = registry.computer("monopol", "easy"), registry.computer("monopol", "normal")
    offered = accepted = 0

    def watch(s: MonopolState, seat: int, action: Any) -> None:
        nonlocal offered, accepted
        if s.trade is None or seat != GAME.parse_action(s.trade.text).target or seat < 2:
            return
        offered += 1
        if str(action) == "accept":
            accepted += 1
            trade = GAME.parse_action(s.trade.text)
            owner = normal.after_trade(s, s.trade.proposer, trade)
            if sets(s, owner, s.trade.proposer) - sets(s, s.owner, s.trade.proposer):
                assert sets(s, owner, seat) - sets(s, s.owner, seat), f"{s.trade.text} hands a set over"

    for n in range(3):  # easy computers in seats 0 and 1 offer twice the price for a set's last street
        play(f"normal-trades/{n}", [easy, easy, nrm, nrm], 40, watch)
    assert offered


# ------------------------------------------------------------------ strong
def test_strong_plays_a_legal_action_at_every_decision_of_a_game() -> None:
    nrm = registry.computer("monopol", "normal")
    searched = 0

    def watch(s: MonopolState, seat: int, action: Any) -> None:
        nonlocal searched
        if seat == 1:
            assert GAME.is_legal(s, seat, action), action
            searched += 1

    play("strong-legal", [nrm, strong.choose, nrm, nrm], 12, watch)
    assert searched > 20


def positions(seed: str, rounds: int) -> list[tuple[MonopolState, int, int]]:
    """(position, seat, ply) of a normal game at decisions the strong computer may search."""
    out: list[tuple[MonopolState, int, int]] = []
    nrm = registry.computer("monopol", "normal")
    plies = [0]

    def watch(s: MonopolState, seat: int, action: Any) -> None:
        plies[0] += 1
        if plies[0] % 5 == 0 and (s.phase in (BUY, END) and s.turn == seat or s.trade or s.auction):
            out.append((GAME.copy(s), seat, plies[0]))

    play(seed, [nrm] * 4, rounds, watch)
    return out


def test_strong_decides_alike_at_every_replay_whatever_the_decks_and_dice_to_come(
        monkeypatch: pytest.MonkeyPatch) -> None:
    searches = [0]
    best = strong.Search.best

    def counted(self: strong.Search, candidates: Any) -> int:
        searches[0] += 1
        return best(self, candidates)

    monkeypatch.setattr(strong.Search, "best", counted)
    checked = 0
    for n, (s, seat, ply) in enumerate(positions("strong-redeal", 40)):
        legal = GAME.legal_actions(s, seat)
        before = searches[0]
        first = strong.choose(s, seat, legal, registry.computer_rng("g", ply, seat))
        if searches[0] == before:
            continue  # decided without rollouts
        assert strong.choose(GAME.copy(s), seat, legal, registry.computer_rng("g", ply, seat)) == first
        world = GAME.scramble_hidden(s, seat, Rng(f"redeal/{n}"))
        assert world is not None and world.decks != s.decks
        world.rng = Rng(f"other dice/{n}", s.rng.draws)  # the game's dice to come are hidden too
        assert strong.choose(world, seat, GAME.legal_actions(world, seat),
                             registry.computer_rng("g", ply, seat)) == first, (ply, first)
        checked += 1
        if checked == 8:
            break
    assert checked == 8


def test_rollouts_decline_a_swap_that_hands_a_rich_player_a_set_it_can_build_at_once() -> None:
    # seat 0, short of cash, would get the dear green set it cannot build on; seat 1, rich,
    # the orange set it builds up at once: the normal heuristic accepts (green rents more at
    # three houses), the rollouts see orange hotels going up while the green stays bare
    s = new(4, max_rounds=40)
    s.round = 5
    own(s, 0, 31, 32, 19)
    own(s, 1, 34, 16, 18)
    s.cash[0], s.bank = 250, s.bank + 1250
    s.turn, s.phase = 1, END
    act(s, 1, str(Trade(0, Bundle(deeds=(34,)), Bundle(deeds=(19,)))))
    assert str(registry.computer_action(GAME, s, 0, "normal", Rng("answer"))) == "accept"
    assert str(registry.computer_action(GAME, s, 0, "strong", Rng("answer"))) == "decline trade"


def test_strong_offers_a_swap_of_sets_the_receiver_accepts_where_normal_offers_cash_in_vain() -> None:
    s = new(4, max_rounds=40)
    s.round = 5
    own(s, 0, 16, 18, 21)
    own(s, 1, 19, 23, 24)
    s.phase = END
    usual = registry.computer_action(GAME, s, 0, "normal", Rng("offer"))
    assert isinstance(usual, Trade) and not usual.give.deeds  # cash for the orange street...
    act(s, 0, str(usual))
    assert str(registry.computer_action(GAME, s, 1, "normal", Rng("answer"))) == "decline trade"  # ...in vain
    act(s, 1, "decline trade")
    s.round = 6
    offer = registry.computer_action(GAME, s, 0, "strong", Rng("offer"))
    assert isinstance(offer, Trade) and 19 in offer.get.deeds and set(offer.give.deeds) <= {21}
    assert offer.give.deeds  # a red street for the orange one: each side completes a set
    act(s, 0, str(offer))
    assert str(registry.computer_action(GAME, s, 1, "normal", Rng("answer"))) == "accept"


def test_strong_buys_without_looking_when_rich_and_declines_what_it_cannot_afford() -> None:
    s = new(4, max_rounds=40)
    s.position[0], s.phase = 39, BUY
    assert strong.choose(s, 0, GAME.legal_actions(s, 0), Rng("buy")) == Simple("buy")
    s.cash[0], s.bank = 300, s.bank + 1200
    assert strong.choose(s, 0, GAME.legal_actions(s, 0), Rng("buy")) == Simple("decline")
