"""What a seat passed by at its turn end (the public record in the state), what the strong computer
infers from it, and re-deals that agree with it."""
from __future__ import annotations

from collections import Counter

from bot.engine.rng import Rng
from bot.games.zlodej import computer_normal as normal
from bot.games.zlodej.computer_strong import consistent
from bot.games.zlodej.knowledge import infer, know
from bot.games.zlodej.state import dump_state, load_state

from .helpers import GAME, act, assert_cards_conserved, make_state, strong_decides_alike_after_redeals


def test_a_turn_end_records_the_cards_kept_and_every_rank_the_seat_could_have_laid_on() -> None:
    state = make_state(3, hands=["2C 3C 4D 9H 9S", "5C 6C 7C 8C KC", "5D 6D 7D 8D KD"],
                       open_piles=[[], ["QH QS"], ["AH AS", "JH JS"]], discard="10C 4H")
    assert state.kept == [-1, -1, -1] and state.passed == [[], [], []]
    act(state, 0, "new 9H 9S")
    act(state, 0, "discard 2C")
    # two cards kept (3C 4D); the tops were Q, J and its own nines; the discard top before the throw a four
    assert state.kept[0] == 2
    assert state.passed[0] == [4, 9, 11, 12]
    act(state, 1, "discard KC")  # the discard top was then the two just thrown; its own top queens
    assert state.kept[1] == 4 and state.passed[1] == [2, 9, 11, 12]


def test_the_record_survives_saving_and_old_saves_load_without_it() -> None:
    state = GAME.new(4, {}, "record")
    for _ in range(12):
        seat = state.turn
        GAME.apply(state, seat, normal.choose(state, seat, GAME.legal_actions(state, seat), Rng("r")))
    data = dump_state(state)
    again = load_state(data)
    assert (again.kept, again.passed) == (state.kept, state.passed)
    assert any(k >= 0 for k in state.kept)
    old = {k: v for k, v in data.items() if k not in ("kept", "passed")}
    assert load_state(old).kept == [-1] * 4 and load_state(old).passed == [[] for _ in range(4)]


def test_an_opponent_that_passed_a_rank_by_and_drew_nothing_is_unlikely_to_hold_it() -> None:
    # drawing is over: seat 1 keeps its whole hand; it ended its turn while seat 0's top was kings
    state = make_state(2, hands=["2C 3C", "5C 6D 7H 8S 9C"], open_piles=[["KC KD"], []],
                       stock="", discard="4H", drawing_over=True)
    state.kept[1], state.passed[1] = 5, [4, 13]
    before, after = know(state, 0), infer(state, 0)
    # only a joker can still take the kings, and not so surely
    assert after.holds(1, 13) < 0.5 * before.holds(1, 13)
    # the same cards are then more likely to be of the ranks it did not pass by
    assert after.holds(1, 7) > before.holds(1, 7)
    # a seat with no record (before its first turn end) is judged as before
    state.kept[1] = -1
    assert infer(state, 0).holds(1, 13) == before.holds(1, 13)


def test_a_consistent_redeal_gives_no_opponent_a_passed_rank_among_its_kept_cards() -> None:
    state = GAME.new(4, {}, "consistent")
    for _ in range(40):
        seat = state.turn
        GAME.apply(state, seat, normal.choose(state, seat, GAME.legal_actions(state, seat), Rng("c")))
    viewer = state.turn
    checked = 0
    for n in range(20):
        world = consistent(GAME.scramble_hidden(state, viewer, Rng(f"w{n}")), viewer, Rng(f"c{n}"))
        assert_cards_conserved(world)
        for other in range(4):
            if other == viewer or state.kept[other] <= 0:
                continue
            hand = world.hands[other]
            fresh = len(hand) - min(state.kept[other], len(hand))
            passed = sum(1 for c in hand if not c.is_joker and c.rank in state.passed[other])
            assert passed <= fresh, (other, hand, state.passed[other])
            # what the table shows is untouched
            assert len(hand) == len(state.hands[other])
            checked += 1
        assert Counter(world.hands[viewer]) == Counter(state.hands[viewer])
    assert checked


def test_the_strong_endgame_search_decides_alike_after_a_redeal_and_legally() -> None:
    state = GAME.new(4, {}, "endgame")
    while not state.drawing_over:
        seat = state.turn
        GAME.apply(state, seat, normal.choose(state, seat, GAME.legal_actions(state, seat), Rng("e")))
    assert strong_decides_alike_after_redeals(state, "e")
