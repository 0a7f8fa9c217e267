"""Whole games: money is conserved after every action, replays match, the computer player plays
sensibly and the action texts round-trip."""
from __future__ import annotations

import random

import pytest

from bot.engine.registry import computer_action
from bot.errors import InvalidAction
from bot.games.monopol.state import BUY, ROLL

from .helpers import GAME, act, dice, new, own


@pytest.mark.parametrize(("players", "seed"), [(2, "a"), (3, "b"), (6, "c")])
def test_money_is_conserved_after_every_action_of_random_playouts(players: int, seed: str) -> None:
    s = new(players, seed, max_rounds=15)
    chooser = random.Random(seed)
    for _ in range(4000):
        if GAME.outcome(s):
            break
        seat = chooser.choice(sorted(GAME.to_act(s)))
        events = GAME.apply(s, seat, chooser.choice(GAME.legal_actions(s, seat)))
        assert sum(s.cash) + s.bank == 0
        for event in events:  # the service turns these parameters into player names
            seats = [v for k, v in event.params.items() if k in ("seat", "target", "winner") or k.endswith("_seat")]
            assert all(0 <= v < players for v in seats), event
        assert min(s.cash) >= 0
        reserved = s.placement["lot"] if s.placement else ""
        assert s.bank_houses + sum(lv for lv in s.level if lv < 5) + (reserved == "house") == 32
        assert s.bank_hotels + s.level.count(5) + (reserved == "hotel") == 12
    assert GAME.outcome(s) is not None


@pytest.mark.parametrize("players", [2, 4])
def test_computer_players_finish_a_game(players: int) -> None:
    s = new(players, f"bots-{players}")
    for _ in range(20000):
        if GAME.outcome(s):
            break
        seat = min(GAME.to_act(s))
        GAME.apply(s, seat, computer_action(GAME, s, seat))
        assert sum(s.cash) + s.bank == 0
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.reason == "monopol.end.last"


def test_the_computer_buys_only_when_it_keeps_a_reserve() -> None:
    s = new()
    dice(s, 1, 2)
    act(s, 0, "roll")
    assert s.phase == BUY and str(computer_action(GAME, s, 0)) == "buy"
    s.cash[0], s.bank = 250, s.bank + 1250
    assert str(computer_action(GAME, s, 0)) == "decline"


def test_the_computer_leaves_jail_early_by_paying() -> None:
    s = new()
    s.in_jail[0] = True
    assert str(computer_action(GAME, s, 0)) == "jail pay"


def test_the_computer_mortgages_its_least_useful_deed_first() -> None:
    s = new()
    own(s, 0, 37, 39)
    own(s, 1, 1, 3, 21)
    s.cash[1], s.bank = 50, s.bank + 1450
    s.turn, s.position[1], s.phase = 1, 35, ROLL
    dice(s, 1, 3)
    act(s, 1, "roll")
    assert str(computer_action(GAME, s, 1)) == "mortgage 21"  # not in a set of its own


@pytest.mark.parametrize("text", ["roll", "buy", "decline", "bid 120", "pass", "auction close", "build 6 1",
                                  "sell 39 2", "mortgage 6", "unmortgage 6", "jail pay", "jail card",
                                  "trade 2 give:c100,6 get:8,j1", "trade 1 give:- get:c5", "accept",
                                  "decline trade", "claim", "end", "bankrupt", "keep-mortgage 6", "lift 6"])
def test_canonical_action_texts_round_trip(text: str) -> None:
    assert str(GAME.parse_action(text)) == text


def test_short_forms_parse_to_canonical_texts() -> None:
    assert str(GAME.parse_action("build 6")) == "build 6 1"
    assert str(GAME.parse_action("  Trade 2 give:8,6,c100 get:-")) == "trade 2 give:c100,6,8 get:-"


@pytest.mark.parametrize("text", ["", "roll 3", "bid", "bid x", "build 40 1", "build 6 0", "trade 1 give:6",
                                  "trade 1 give:6,6 get:-", "mortgage", "x" * 70])
def test_unreadable_texts_are_invalid(text: str) -> None:
    with pytest.raises(InvalidAction):
        GAME.parse_action(text)


def test_the_public_view_hides_only_the_deck_order() -> None:
    s = new(3)
    obs = GAME.observe(s, 1)
    assert obs["private"] is None
    assert obs["public"]["deck_sizes"] == {"sjanse": 16, "lykke": 16}
    assert "decks" not in obs["public"]
    assert obs["public"]["cash"] == [1500] * 3 and obs["public"]["to_act"] == [0]
