"""The strong computer's re-deals of the unseen cards agree with what its seat knows: with wild
twos, a seat stuck holds only twos and everyone else still in the round a natural card."""
from __future__ import annotations

from bot.engine.rng import Rng
from bot.games.tolp.combos import is_wild
from bot.games.tolp.computer_strong import choose, sample_world

from .build import GAME, play_state

TWOS = {"wild": "2"}


def test_a_re_deal_keeps_stuck_wild_hands_and_a_natural_card_for_everyone_in_the_round() -> None:
    state = play_state(["4C 6D KH 2H", "7C", "2S 2C", "JD QH AS 3D"], turn=0, options=TWOS)
    state.ranking = [None, None, None, 2]
    state.stuck = [2]
    wild = state.wild()
    engine_one_card_wild = 0
    for n in range(60):
        world = sample_world(state, 0, Rng(f"sample/{n}"))
        assert world.hands[0] == state.hands[0]
        assert len(world.hands[2]) == 2 and all(is_wild(c, wild) for c in world.hands[2])
        assert not is_wild(world.hands[1][0], wild)
        assert sorted(world.hands[1] + world.hands[2] + world.hands[3]) == sorted(
            state.hands[1] + state.hands[2] + state.hands[3])
        # the engine's plain re-deal (what strong sampled before) ignores both facts
        scrambled = GAME.scramble_hidden(state, 0, Rng(f"sample/{n}"))
        engine_one_card_wild += is_wild(scrambled.hands[1][0], wild) or not all(
            is_wild(c, wild) for c in scrambled.hands[2])
    assert engine_one_card_wild > 0


def test_without_wild_cards_a_re_deal_is_the_engines() -> None:
    state = play_state(["4C 6D KH 9S", "5S 7C 9D", "10S JC AS", "8C JD QH"], turn=0)
    for n in range(10):
        world = sample_world(state, 0, Rng(f"plain/{n}"))
        assert world.hands == GAME.scramble_hidden(state, 0, Rng(f"plain/{n}")).hands


def test_a_decision_does_not_depend_on_where_the_unseen_cards_lie() -> None:
    state = play_state(["4C 6D KH 2H", "7C", "2S 2C", "JD QH AS 3D"], turn=0, options=TWOS)
    state.ranking = [None, None, None, 2]
    state.stuck = [2]
    legal = GAME.legal_actions(state, 0)
    action = choose(state, 0, legal, Rng("decide"))
    for n in range(3):
        world = GAME.scramble_hidden(state, 0, Rng(f"where/{n}"))
        assert choose(world, 0, legal, Rng("decide")) == action
        assert sample_world(world, 0, Rng("same")).hands == sample_world(state, 0, Rng("same")).hands
