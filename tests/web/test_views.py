"""The conformance suite's leak check, applied to the web pages: a table's public page (its HTML
and its JSON) is the same whatever is hidden from everyone, and a seat's own page the same
whatever is hidden from that seat. Every registered game, from seeded playouts."""
from __future__ import annotations

import json

import pytest

from bot.engine import registry
from bot.engine.rng import Rng
from bot.storage.games import GameRow, SeatRow
from bot.web import html, views
from tests.engines.test_conformance import playout

registry.load_all()
GAMES = registry.names()


def row(game: str, players: int, options: dict, seed: str) -> GameRow:
    seats = [SeatRow(s, f"u{s}", f"Player <{s}>") for s in range(players)]
    return GameRow(7, "g", "c", game, "active", "u0", options, seed, None, 3, 0, "en", seats=seats)


def pages(record: GameRow, obs: dict, told: views.Story, acting: list[int], seat: int | None) -> str:
    data = views.table_data(record, obs, told, acting, "en", board_url="/b.png", private=seat is not None,
                            hand_url="/h.png" if seat is not None else None)
    return json.dumps(data, sort_keys=True) + html.table_page(data, "en", path="/t/x", events="/t/x/events",
                                                              replay=None, server=None)


@pytest.mark.parametrize("name", GAMES)
def test_a_tables_pages_show_nothing_hidden_from_their_reader(name: str) -> None:
    game = registry.get(name)
    players = max(game.min_players, min(game.max_players, 3))
    rng = Rng("web-scramble")
    checked = 0
    for point, (_, state, log) in enumerate(playout(name, players, "web-leak", check_every=11)):
        if point >= 8:  # eight positions of the game are enough (each replays its log)
            break
        record = row(name, players, dict(game.resolve_options(game.playout_options)), "web-leak")
        rows = [(i + 1, seat, action, "") for i, (seat, action) in enumerate(log)]
        told = views.story(record, rows)
        assert all(e.visible_to is None for events in told.events for e in events)
        acting = sorted(game.to_act(state))
        for viewer in [None, *range(players)]:
            scrambled = game.scramble_hidden(state, viewer, rng)
            if scrambled is None:
                continue
            checked += 1
            real = pages(record, game.observe(state, viewer), told, acting, viewer)
            other = pages(record, game.observe(scrambled, viewer), told, sorted(game.to_act(scrambled)), viewer)
            assert real == other, f"{name}: the page of {viewer} shows what is hidden from it"
    assert checked or name in ("monopol",)  # Monopol hides nothing: no scramble to compare
