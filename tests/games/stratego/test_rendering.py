"""The Stratego images: size, orientation, last-move mark, and no hidden rank in public."""
from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.engine.rng import Rng
from bot.games.stratego import GAME
from rendering import stratego as R
from rendering.kit import recording
from rendering.theme import THEMES, theme_of

NAMES = ["Anna", "Björn"]


def game_after(steps: int):
    """Both armies set up, then ``steps`` random moves."""
    state = GAME.new(2, GAME.resolve_options({}), "render")
    for seat in (0, 1):
        GAME.apply(state, seat, GAME.parse_action("ready"))
    chooser = random.Random(7)
    for _ in range(steps):
        seat = min(GAME.to_act(state))
        GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat)))
    return state


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def near(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = 30) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=False))


def cell_centre(square: str, flipped: bool, top: int) -> tuple[int, int]:
    x, y = R._cell_origin(square, flipped)
    return x + 12, top + y + R.CELL // 2  # left of the label, on the piece's own colour


def test_public_board_is_a_wide_palette_png_within_budget() -> None:
    data = R.render_public(GAME.observe(game_after(60), None), names=NAMES, locale="sv")
    image = Image.open(io.BytesIO(data))
    image.load()  # decodes, not just its header
    assert image.format == "PNG" and image.mode == "P"
    assert image.width >= 1000 and len(data) <= 200_000


def test_public_image_is_identical_whatever_the_unrevealed_ranks_are() -> None:
    state = game_after(80)
    scrambled = GAME.scramble_hidden(state, None, Rng("other ranks"))
    assert GAME.dump(scrambled)["board"] != GAME.dump(state)["board"]
    first = R.render_public(GAME.observe(state, None), names=NAMES)
    assert first == R.render_public(GAME.observe(scrambled, None), names=NAMES)
    # Even handed a private observation, the public renderer draws only the public part.
    assert first == R.render_public(GAME.observe(state, 0), names=NAMES)


def test_private_board_turns_so_the_viewers_army_is_at_the_bottom() -> None:
    state = game_after(0)
    red = decode(R.render_private(GAME.observe(state, 0), names=NAMES) or b"")
    blue = decode(R.render_private(GAME.observe(state, 1), names=NAMES) or b"")
    top = R.body_top(GAME.observe(state, 0), NAMES, "en")
    bottom_left_red = red.getpixel(cell_centre("A1", False, top))
    bottom_left_blue = blue.getpixel(cell_centre("J10", True, top))
    assert near(bottom_left_red, R.SIDE[0][0]) and near(bottom_left_blue, R.SIDE[1][0])
    assert R._cell_origin("J10", True)[1] > R._cell_origin("J1", True)[1]


def test_private_render_needs_a_seat() -> None:
    assert R.render_private(GAME.observe(game_after(0), None), names=NAMES) is None


@pytest.mark.parametrize("theme", THEMES)
def test_last_move_is_marked_in_the_last_move_colour(theme: str) -> None:
    state = game_after(1)
    last = state.last_move
    assert last is not None
    obs = GAME.observe(state, None)
    image = decode(R.render_public(obs, names=NAMES, theme=theme))
    x, y = R._cell_origin(last["to"], False)
    top = R.body_top(obs, NAMES, "en")
    assert near(image.getpixel((x + 3, top + y + R.CELL // 2)), theme_of(theme).last)


def test_setup_view_shows_the_draft_only_to_its_owner() -> None:
    state = GAME.new(2, GAME.resolve_options({}), "draft")
    mine = decode(R.render_private(GAME.observe(state, 0), names=NAMES) or b"")
    public = decode(R.render_public(GAME.observe(state, None), names=NAMES))
    mine_point = cell_centre("A1", False, R.body_top(GAME.observe(state, 0), NAMES, "en"))
    public_point = cell_centre("A1", False, R.body_top(GAME.observe(state, None), NAMES, "en"))
    assert near(mine.getpixel(mine_point), R.SIDE[0][0])
    assert not near(public.getpixel(public_point), R.SIDE[0][0])


LONG = ["Maximilian Wolfgang Amadeus XIV", "Ženíšek Příliš Žluťoučký Kůň Úpěl"]


def test_long_names_are_drawn_whole_in_the_header_and_the_trays() -> None:
    """The header and the tray titles draw every 32-character name whole (shrunk or on a line of
    its own, never cut), and nothing runs past the trays' right edge."""
    setup = GAME.new(2, GAME.resolve_options({}), "long")
    GAME.apply(setup, 1, GAME.parse_action("ready"))
    offer = game_after(3)
    GAME.apply(offer, min(GAME.to_act(offer)), GAME.parse_action("offer draw"))
    R._tray.cache_clear()
    for state, locale in ((setup, "cs"), (offer, "sv"), (game_after(5), "en")):
        obs = GAME.observe(state, None)
        with recording() as drawn:
            image = decode(R.render_public(obs, names=LONG, locale=locale))
        texts = [d.text for d in drawn]
        assert not any(text.endswith("…") for text in texts), texts
        for name in LONG:  # each tray title: the name on one line or two
            assert name in texts or any(a + b == name or f"{a} {b}" == name for a, b in zip(texts, texts[1:],
                                                                                        strict=False))
        top = R.body_top(obs, LONG, locale)
        for tray_top in (R.BOARD_Y, R.BOARD_Y + R.BOARD - R.TRAY_HEIGHT):
            for y in range(top + tray_top + 40, top + tray_top + 100):
                for x in range(R.WIDTH - 22, R.WIDTH - 16):
                    assert near(image.getpixel((x, y)), theme_of("dark").surface, 8), (locale, x, y)
