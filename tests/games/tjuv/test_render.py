"""Tjuv och Polis pictures: decodable and wide, pieces drawn where they stand, nothing hidden shown."""
from __future__ import annotations

import io

from PIL import Image

from bot.engine.rng import Rng
from rendering.tjuv import POLICE, WIDTH, _centre, render_private, render_public

from .helpers import GAME, position

NAMES = ["Åsa", "Björn", "Cecilia", "Dörte", "Erik", "Fanny", "Göran"]


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def played(players: int, actions: int):  # type: ignore[no-untyped-def]
    state = GAME.new(players, GAME.resolve_options({"max_rounds": 80}), "render")
    for _ in range(actions):
        if GAME.outcome(state) is not None:
            break
        seat = next(iter(GAME.to_act(state)))
        GAME.apply(state, seat, GAME.bot_action(state, seat))
    return state


def test_the_map_is_a_wide_png_with_each_policeman_on_his_square() -> None:
    state = position(3, police={"P1": "B11"})
    image = decode(render_public(GAME.observe(state, None), names=NAMES, locale="sv"))
    assert image.width == WIDTH >= 1000 and image.height > 1000
    x, y = _centre("B11")
    assert all(abs(a - b) < 30 for a, b in zip(image.getpixel((x - 10, y + 8)), POLICE, strict=True))
    empty = decode(render_public(GAME.observe(position(3), None), names=NAMES, locale="sv"))
    assert empty.getpixel((x - 10, y + 8)) != image.getpixel((x - 10, y + 8))


def test_the_public_image_does_not_change_when_stashes_are_scrambled() -> None:
    state = played(5, 300)
    assert any(t.stashes for t in state.thieves)
    before = render_public(GAME.observe(state, None), names=NAMES, locale="en")
    scrambled = GAME.scramble_hidden(state, None, Rng("other"))
    assert [t.stashes for t in scrambled.thieves] != [t.stashes for t in state.thieves]
    assert render_public(GAME.observe(scrambled, None), names=NAMES, locale="en") == before


def test_only_a_thief_gets_a_private_picture_of_his_stashes() -> None:
    state = position(3, thieves={1: {"stashes": {"A5": 3000}}})
    assert render_private(GAME.observe(state, None), names=NAMES, locale="en") is None
    assert render_private(GAME.observe(state, 0), names=NAMES, locale="en") is None
    own = render_private(GAME.observe(state, 1), names=NAMES, locale="sv")
    other = render_private(GAME.observe(state, 2), names=NAMES, locale="sv")
    assert own is not None and other is not None and own != other
    assert decode(own).width >= 1000


def test_a_finished_game_still_renders() -> None:
    state = played(2, 2000)
    assert GAME.outcome(state) is not None
    assert decode(render_public(GAME.observe(state, None), names=NAMES, locale="en")).width >= 1000
