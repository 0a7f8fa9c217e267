"""Zloděj pictures: decodable, wide enough, the turn highlighted, nothing hidden on the public image."""
from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from PIL import Image

import bot.games.zlodej as package
from bot.engine.rng import Rng
from bot.i18n import t
from rendering import zlodej as render
from rendering.kit import text_length
from rendering.theme import THEMES, theme_of
from rendering.zlodej import PANEL_H, STRIP, panel_boxes, render_private, render_public

from .helpers import GAME, make_state

NAMES = ["Anežka", "Bořivoj", "Čeněk", "Dáša", "Ema", "František", "Gustav", "Hana", "Ivo", "Jiří"]


def played(players: int, steps: int, seed: str = "render"):  # type: ignore[no-untyped-def]
    state = GAME.new(players, {}, seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            break
        GAME.apply(state, state.turn, chooser.choice(GAME.legal_actions(state, state.turn)))
    return state


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


@pytest.mark.parametrize(("players", "steps"), [(2, 40), (10, 300), (3, 5000)])
def test_the_table_is_a_wide_png_for_any_table_size(players: int, steps: int) -> None:
    state = played(players, steps)
    image = decode(render_public(GAME.observe(state, None), names=NAMES[:players], locale="cs"))
    assert image.width >= 1000 and image.height >= STRIP + (players + 1) // 2 * PANEL_H


@pytest.mark.parametrize("theme", THEMES)
def test_the_seat_to_play_has_a_panel_ringed_in_the_turn_colour(theme: str) -> None:
    state = make_state(3, hands=["2C 3D 4H 5S 6C", "5C 5D 6H 6S 9C", "7C 7D 8H 8S 9D"], turn=1)
    obs = GAME.observe(state, None)
    image = decode(render_public(obs, names=NAMES, locale="en", theme=theme))
    boxes = panel_boxes(obs["public"], NAMES, "en")
    turn = theme_of(theme).turn
    on_turn = image.getpixel((boxes[1][0] + 2, boxes[1][1] + PANEL_H // 2))
    waiting = image.getpixel((boxes[0][0] + 2, boxes[0][1] + PANEL_H // 2))
    assert all(abs(a - b) < 24 for a, b in zip(on_turn, turn, strict=True))
    assert not all(abs(a - b) < 24 for a, b in zip(waiting, turn, strict=True))


def test_the_public_image_does_not_change_when_hidden_cards_are_redealt() -> None:
    state = played(4, 150, "hidden")
    before = render_public(GAME.observe(state, None), names=NAMES, locale="en")
    scrambled = GAME.scramble_hidden(state, None, Rng("other"))
    assert scrambled.hands != state.hands
    assert render_public(GAME.observe(scrambled, None), names=NAMES, locale="en") == before


def test_a_hand_is_drawn_only_for_its_owner() -> None:
    state = played(3, 20, "hand")
    assert render_private(GAME.observe(state, None), names=NAMES, locale="en") is None
    own = render_private(GAME.observe(state, 0), names=NAMES, locale="en")
    other = render_private(GAME.observe(state, 1), names=NAMES, locale="en")
    assert own is not None and other is not None and own != other
    assert decode(own).width >= 1000


def test_an_empty_hand_still_renders() -> None:
    state = make_state(2, hands=["", "2C"], stock="", discard="9C", drawing_over=True, turn=1)
    data = render_private(GAME.observe(state, 0), names=NAMES, locale="cs")
    assert data is not None and decode(data).width >= 1000


ROOT = Path(package.__file__).resolve().parent


LANGS = ("en", "cs", "sv", "nb")


def catalog(lang: str) -> dict[str, str]:
    return json.loads((ROOT / "locale" / f"{lang}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", LANGS)
def test_the_empty_open_pile_label_is_never_cut_short(lang: str) -> None:
    text = catalog(lang)["zlodej.render.no_open_pile"]
    lines = render.wrap(text, render.SMALL_TEXT, render.LABEL_W)
    assert " ".join(lines) == text
    assert all(text_length(line, render.SMALL_TEXT) <= render.LABEL_W for line in lines)
    assert len(lines) <= 2


def test_a_long_word_is_shortened_only_when_nothing_else_fits() -> None:
    lines = render.wrap("Nejdelšíslovonasvětěkterénikdonevyslovíbezzakoktání", render.SMALL_TEXT, 120)
    assert len(lines) == 1 and lines[0].endswith("…")


@pytest.mark.parametrize("lang", LANGS)
def test_the_locked_cards_badge_says_what_it_counts(lang: str) -> None:
    label = t("zlodej.render.locked_cards", lang, count=37)
    assert "37" in label and label != "37"
