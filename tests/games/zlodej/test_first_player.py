"""Issue 11: Zloděj's first player is "by agreement" (seed): option first_player, random or creator."""
from __future__ import annotations

import pytest

from bot.engine import registry
from bot.errors import InvalidOption

GAME = registry.get("zlodej")


def test_first_player_is_random_by_default_and_follows_from_the_seed() -> None:
    options = GAME.resolve_options({})
    assert options["first_player"] == "random"
    firsts = {GAME.new(4, options, f"first-{n}").turn for n in range(40)}
    assert firsts == {0, 1, 2, 3}  # every seat can start
    again = GAME.new(4, options, "first-7")
    assert again.turn == GAME.new(4, options, "first-7").turn  # the seed decides, replay agrees
    assert [e.params["seat"] for e in GAME.opening_events(again)] == [again.turn]


def test_first_player_creator_lets_the_tables_creator_start() -> None:
    options = GAME.resolve_options({"first_player": "creator"})
    assert {GAME.new(4, options, f"first-{n}").turn for n in range(20)} == {0}
    with pytest.raises(InvalidOption):
        GAME.resolve_options({"first_player": "youngest"})


def test_games_stored_before_the_option_keep_their_creator_start() -> None:
    assert GAME.new(3, {}, "old-game").turn == 0  # old stored options lack first_player
