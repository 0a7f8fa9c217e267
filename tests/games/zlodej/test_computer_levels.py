"""The Zloděj computer levels: what a seat may know, how exposed its pile is, the normal planner's
choices in built positions, and the strong search's legality and determinism."""
from __future__ import annotations

import pytest

from bot.engine.rng import Rng
from bot.games.zlodej import computer_normal as normal
from bot.games.zlodej import computer_strong as strong
from bot.games.zlodej.actions import AddToGroup, Discard, EndTurn, NewGroup, Steal, TakeDiscard
from bot.games.zlodej.knowledge import know

from .helpers import GAME, act, cards, make_state


def choose(level, state, seat: int = 0, seed: str = "levels"):  # type: ignore[no-untyped-def]
    return level.choose(state, seat, GAME.legal_actions(state, seat), Rng(seed))


def joker_lays(action) -> bool:  # type: ignore[no-untyped-def]
    return any(c.is_joker for c in getattr(action, "cards", ()))


# ----------------------------------------------------------------------------------- knowledge

def test_the_unseen_cards_leave_out_everything_the_seat_has_seen() -> None:
    state = make_state(3, hands=["AC AD 7H 2C 3C", "5C 5D 6H 6S 9C", "2D 2H 4S 4C KD"],
                       open_piles=[["AH AS"], ["8H 8D", "KC KH", "AS"], []], discard="KS 9D AH")
    k = know(state, 0)
    # two decks: 8 aces; seen: two in hand, two in the own pile, one on seat 1's top, one discarded
    assert k.unseen[14] == 2
    # seat 1's eights lie under two visible groups: hidden, so still unseen
    assert k.unseen[8] == 8
    assert k.unseen[13] == 8 - 3  # KC KH on seat 1 (second group, visible) and KS discarded
    assert k.unseen[15] == 4
    assert k.pool == 108 - 5 - 2 - 2 - 1 - 3  # the own hand and pile, seat 1's top two groups, the discard


def test_what_the_seat_knows_does_not_change_when_the_hidden_cards_are_redealt() -> None:
    state = GAME.new(4, {}, "know")
    for _ in range(60):
        seat = state.turn
        GAME.apply(state, seat, normal.choose(state, seat, GAME.legal_actions(state, seat), Rng("x")))
    for n in range(3):
        world = GAME.scramble_hidden(state, 1, Rng(f"w{n}"))
        assert (know(world, 1).unseen, know(world, 1).pool) == (know(state, 1).unseen, know(state, 1).pool)


def test_a_group_of_a_rank_nobody_else_can_hold_is_safe_and_a_live_one_is_not() -> None:
    # all eight kings are seen (own pile and discard) and all four jokers are in the own hand
    safe = make_state(2, hands=["JK JK JK JK 2C", "5C 5D 6H 6S 9C"],
                      open_piles=[["KC KD KH KS KC KD"], []], discard="KH KS")
    k = know(safe, 0)
    assert k.expected_loss(((13, 60),)) == 0.0
    live = make_state(2, hands=["2C 3C 4C 6C 7C", "5C 5D 6H 6S 9C"], open_piles=[["KC KD"], []])
    k = know(live, 0)
    assert 0.0 < k.expected_loss(((13, 20),)) < 20.0
    # a rich group beneath the top is at risk only through the top: less than when it is the top
    assert k.expected_loss(((14, 80), (5, 10))) - k.expected_loss(((5, 10),)) < k.expected_loss(((14, 80),))


# ----------------------------------------------------------------------------------- normal

def test_normal_covers_a_rich_exposed_group_with_a_pair() -> None:
    state = make_state(4, hands=["6C 6D 9S 2H", "5C 5D 6H 6S 9C", "2D 3H 4S 4C KD", "3C 3D 7H 7S 8C"],
                       open_piles=[["AH AS AD AC"], [], [], []])
    state.laid = True  # it has laid this turn already: ending now would leave the aces on top
    action = choose(normal, state)
    assert action == NewGroup(tuple(cards("6C 6D")))


def test_normal_steals_and_then_covers_the_stolen_group() -> None:
    state = make_state(4, hands=["KS 6C 6D 9S 2H", "5C 5D 6H 6S 9C", "2D 3H 4S 4C 7D", "3C 3D 7H 7S 8C"],
                       open_piles=[[], ["KC KD KH"], [], []])
    first = choose(normal, state)
    assert first == Steal(1, tuple(cards("KS")))
    act(state, 0, str(first))
    assert choose(normal, state) == NewGroup(tuple(cards("6C 6D")))


def test_normal_keeps_its_joker_rather_than_lock_a_poor_pile() -> None:
    state = make_state(4, hands=["JK 3C 4D 7H 9S", "5C 5D 6H 6S 9C", "2D 3H 4S 4C 7D", "3C 3D 7H 7S 8C"],
                       open_piles=[["2C 2D"], [], [], []])
    action = choose(normal, state)
    assert not joker_lays(action)
    assert isinstance(action, Discard)


def test_normal_steals_a_rich_haul_with_a_joker_and_locks_it() -> None:
    state = make_state(4, hands=["JK 3C 4D 7H 9S", "5C 5D 6H 6S 9C", "2D 3H 4S 4C 7D", "3C 3D 7H 7S 8C"],
                       open_piles=[["QC QD"], ["AH AS AD AC"], [], []])
    action = choose(normal, state)
    assert action == Steal(1, tuple(cards("JK")))


def test_normal_throws_the_card_the_next_player_is_least_likely_to_pick_up() -> None:
    # eights are all but gone (own hand, discard pile); sevens are all live: both throws cost 5
    state = make_state(4, hands=["8C 7D KS QH AD", "5C 5D 6H 6S 9C", "2D 3H 4S 4C 7C", "3C 3D 7H 7S 2C"],
                       discard="8D 8H 8S 8C 8D 8H 9D")
    action = choose(normal, state)
    assert action == Discard(cards("8C")[0])


def test_normal_takes_the_discard_when_it_is_worth_more_than_the_card() -> None:
    state = make_state(4, hands=["AS 3C 4D 7H 9S", "5C 5D 6H 6S 9C", "2D 3H 4S 4C 7D", "3C 3D 7H 7S 8C"],
                       discard="AH")
    assert choose(normal, state) == TakeDiscard(tuple(cards("AS")))


# ----------------------------------------------------------------------------------- strong

def positions(seed: str, plies: int = 90):  # type: ignore[no-untyped-def]
    """Positions of a game played by normal computers, every few plies."""
    state = GAME.new(4, {}, seed)
    for ply in range(plies):
        if GAME.outcome(state) is not None:
            return
        seat = state.turn
        if ply % 7 == 3:
            yield state, seat
        GAME.apply(state, seat, normal.choose(state, seat, GAME.legal_actions(state, seat), Rng(f"p{ply}")))


@pytest.mark.parametrize("seed", ["strong-a", "strong-b"])
def test_strong_proposes_only_legal_actions_and_decides_alike_from_the_same_stream(seed: str) -> None:
    checked = 0
    for state, seat in positions(seed):
        legal = GAME.legal_actions(state, seat)
        action = strong.choose(state, seat, legal, Rng(f"{seed}/d"))
        assert action in legal
        assert strong.choose(GAME.copy(state), seat, legal, Rng(f"{seed}/d")) == action
        world = GAME.scramble_hidden(state, seat, Rng("redeal"))
        assert strong.choose(world, seat, GAME.legal_actions(world, seat), Rng(f"{seed}/d")) == action
        checked += 1
    assert checked >= 8


def test_strong_searches_only_the_normal_plans_best_first_steps() -> None:
    state = make_state(4, hands=["KS 6C 6D 9S 2H", "5C 5D 6H 6S 9C", "2D 3H 4S 4C 7D", "3C 3D 7H 7S 8C"],
                       open_piles=[["AH AD"], ["KC KD KH"], [], []])
    legal = GAME.legal_actions(state, 0)
    found = strong.candidates(state, 0, legal)
    assert 1 <= len(found) <= strong.CANDIDATES
    assert all(action in legal for _, _, action in found)
    assert len({action for _, _, action in found}) == len(found)
    assert found[0][2] == normal.choose(state, 0, legal, Rng("x"))


def test_strong_samples_never_touch_the_real_position() -> None:
    state = make_state(4, hands=["KS 6C 6D 9S 2H", "5C 5D 6H 6S 9C", "2D 3H 4S 4C 7D", "3C 3D 7H 7S 8C"],
                       open_piles=[["AH AD"], ["KC KD KH"], ["QC QD"], []])
    before = GAME.dump(state)
    action = choose(strong, state)
    assert GAME.dump(state) == before
    assert action in GAME.legal_actions(state, 0) and not isinstance(action, EndTurn | AddToGroup)
