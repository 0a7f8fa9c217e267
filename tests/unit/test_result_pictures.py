"""Every game ends on a standings picture: every player by name, whole, with their place (tied
players share it) and result, the winner crowned, the reason in words, readable on a phone in
both themes (the kit's text recording, as the legibility test uses)."""
from __future__ import annotations

import importlib
import io

import pytest
from PIL import Image

from bot.i18n import t
from rendering.kit import recording
from rendering.standings import standings
from rendering.theme import BAR, PHONE, THEMES
from tests.unit.observations import played
from tests.unit.test_alt_text import GAMES, finished

NAMES = ["BjörnTheGreat_1987_Ødegård_Čech", "Bo", "Cecilia Čermák", "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", "Eve"]


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_result_picture_names_every_player_whole_with_their_place(name: str, theme: str) -> None:
    players = min(len(NAMES), max(GAMES[name], 2))
    game, state = finished(name, players)
    obs = game.observe(state, None)
    module = importlib.import_module(f"rendering.{name}")
    with recording() as drawn:
        png = module.render_result(obs, names=NAMES, locale="cs", theme=theme)
    with Image.open(io.BytesIO(png)) as image:
        image.load()
        width, height = image.size
        assert image.format == "PNG" and height > 0
    scale = PHONE / width
    texts = {d.text: d.size for d in drawn}
    table = standings(obs)
    for row in table.rows:
        # a name is drawn whole, on one line or two (a long name breaks, never loses a letter)
        name_text = NAMES[row.seat]
        parts = [d for d in drawn if d.text and d.text in name_text and d.bold]
        assert "".join(p.text for p in parts).replace(" ", "").count(name_text.replace(" ", "")) >= 1, name_text
        assert all(p.size * scale >= BAR for p in parts)
        assert any(text.startswith(t("render.result.place_long", "cs", place=row.place)) for text in texts)
    assert any(t(table.reason, "cs") in text for text in texts)
    if table.winners:
        assert t("render.result.winner_mark", "cs") in texts
    assert all(size * scale >= BAR for size in texts.values()), [(k, v) for k, v in texts.items() if v * scale < BAR]


def test_a_stored_outcome_orders_the_places_and_ties_share_one() -> None:
    game, state = played("monopol", 4, 200)  # the agreed end time came here
    assert not any(game.observe(state, None)["public"]["bankrupt"])
    obs = {**game.observe(state, None), "outcome": {"places": [[2], [0, 3], [1]], "reason": "monopol.end.rounds",
                                                    "scores": {"0": 900, "1": 0, "2": 1500, "3": 900}}}
    table = standings(obs)
    assert [(row.place, row.seat, row.winner) for row in table.rows] == [(1, 2, True), (2, 0, False), (2, 3, False),
                                                                        (4, 1, False)]
    with recording() as drawn:
        importlib.import_module("rendering.monopol").render_result(obs, names=NAMES, locale="en")
    assert [d.text for d in drawn if d.text.startswith("Place")] == ["Place 1 · net worth kr\u00a01,500",
                                                                      "Place 2 · net worth kr\u00a0900",
                                                                      "Place 2 · net worth kr\u00a0900",
                                                                      "Place 4 · net worth kr\u00a00"]


def test_a_draw_crowns_nobody() -> None:
    obs = {"game": "stratego", "public": {"result": {"places": [[0, 1]], "reason": "stratego.end.agreed"}}}
    assert standings(obs).winners == ()
    with recording() as drawn:
        importlib.import_module("rendering.stratego").render_result(obs, names=NAMES, locale="sv", theme="light")
    texts = [d.text for d in drawn]
    assert t("render.result.draw", "sv") in texts and t("render.result.winner_mark", "sv") not in texts
