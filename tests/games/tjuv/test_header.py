"""The Tjuv och Polis header shows the roll of the player to play, never the previous player's."""
from __future__ import annotations

from bot.engine import registry
from bot.engine.registry import computer_action
from rendering.tjuv import header_facts
from tests.games.tjuv.helpers import set_up


def test_the_header_roll_belongs_to_the_player_to_play() -> None:
    game = registry.get("tjuv")
    state = set_up(game.new(3, {}, "header"))
    seat = next(iter(game.to_act(state)))
    game.apply(state, seat, game.parse_action("roll"))
    rolled = game.observe(state, None)["public"]
    assert f"Roll: {rolled['roll']}" in header_facts(rolled, "en")
    # the turn passes on: the next player has not rolled, so no roll is shown
    while state.turn == seat and not state.finished:
        action = computer_action(game, state, seat)
        game.apply(state, seat, action)
    after = game.observe(state, None)["public"]
    assert after["last_roll"] and not after["roll"]
    assert not any(fact.startswith("Roll") for fact in header_facts(after, "en"))
