"""Monopol images: readable size, palette PNG within budget, owners and tokens where they belong."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.engine.registry import computer_action
from bot.games.monopol.board import DEEDS
from rendering.monopol import (
    PLAYER_COLOURS,
    board_top,
    recent_lines,
    render_deed,
    render_private,
    render_public,
    tile_box,
)
from rendering.monopol_board import token_spot

from .helpers import GAME, act, dice, new, own

NAMES = ["Åse", "Bjørn Ødegård", "Čeněk Řezníček"]


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def near(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], colour, strict=True))


@pytest.mark.parametrize("locale", ["en", "nb"])
def test_the_board_is_a_wide_palette_png_within_budget(locale: str) -> None:
    s = new(3)
    png = render_public(GAME.observe(s, None), names=NAMES, locale=locale)
    image = decode(png)
    assert image.width >= 1000 and image.height >= image.width
    assert image.mode == "P"
    assert len(png) <= 200_000


def test_an_owned_deed_shows_its_owner_colour_and_the_token_its_square() -> None:
    s = new(3)
    own(s, 1, 6, 8, 9)
    act(s, 1, "build 6 3")
    dice(s, 2, 3)
    act(s, 0, "roll")  # seat 0 to Oslo Sentralstasjon
    obs = GAME.observe(s, None)
    image = decode(render_public(obs, names=NAMES, locale="en")).convert("RGB")
    top = board_top(obs, NAMES, "en")  # the shared header stands over the board
    image = image.crop((0, top, image.width, image.height))
    x0, y0, x1, y1 = tile_box(8)
    assert near(image.getpixel((x0 + 6, y1 - 6)), PLAYER_COLOURS[1])  # owner strip on the outer edge
    x, y = token_spot(5, 0, False)  # in the band in front of the square, off its name and price
    token = [image.getpixel((x + dx, y + dy)) for dx in range(-8, 9) for dy in range(-8, 9)]
    assert any(near(p, PLAYER_COLOURS[0], 10) for p in token)
    x0, y0, x1, y1 = tile_box(39)  # unowned: no owner strip along its outer edge
    assert not near(image.getpixel((x1 - 6, y0 + 6)), PLAYER_COLOURS[1], 3)


def test_a_finished_game_renders_and_nothing_is_private() -> None:
    s = new(2, "end")
    while not GAME.outcome(s):
        seat = min(GAME.to_act(s))
        GAME.apply(s, seat, computer_action(GAME, s, seat))
    obs = GAME.observe(s, 0)
    assert decode(render_public(obs, names=NAMES[:2], locale="nb")).width >= 1000
    assert render_private(obs, names=NAMES[:2], locale="nb") is None


@pytest.mark.parametrize("square", DEEDS)
def test_every_deed_card_renders(square: int) -> None:
    image = decode(render_deed(square, locale="nb"))
    assert image.width >= 1000 and image.mode == "P"


def test_squares_without_a_deed_have_no_card() -> None:
    with pytest.raises(ValueError):
        render_deed(0, locale="en")


def test_the_board_log_reads_oldest_first_and_keeps_the_newest() -> None:
    pub = {"recent": [{"key": "monopol.event.roll", "params": {"seat": 0, "d1": 1, "d2": n, "total": 1 + n}}
                      for n in range(1, 7)]}
    lines = recent_lines(pub, ["Ann", "Bo"], "en", 600, 3 * 30)
    assert [line[0] for line in lines] == ["Ann rolls 1 and 4 (5).", "Ann rolls 1 and 5 (6).",
                                           "Ann rolls 1 and 6 (7)."]


def test_board_shows_the_time_left_to_the_agreed_end() -> None:
    import io

    from PIL import Image

    from rendering.monopol import render_public, time_left

    s = new(3, end_time="2030-01-02 17:30")
    obs = GAME.observe(s, None)
    obs["public"]["now"] = "2030-01-01T15:00Z"
    assert time_left(obs["public"], "en") == "Time left: 1 d 2 h 30 min (ends 2030-01-02 17:30 UTC)"
    image = Image.open(io.BytesIO(render_public(obs, names=["A", "B", "C"], locale="nb")))
    image.load()  # decodes, not just its header
    assert image.size[0] >= 1000
    assert time_left(GAME.observe(new(3), None)["public"], "en") == ""


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_the_board_put_together_from_kept_parts_is_the_whole_board_on_the_palette(theme: str) -> None:
    """The board is assembled from parts mapped onto the palette apart (the static board, the owned
    squares kept by what they show, the centre, the tokens, the player cells): over a seeded game of
    six computers, every picture is pixel for pixel the whole board drawn at once and mapped."""
    from rendering.monopol import _board_rgb, _mapped

    names = ["Åse", "Bjørn Ødegård", "Čeněk", "Kari Nordmann", "Ola", "Siri"]
    state = GAME.new(6, GAME.resolve_options({}), "assembled")
    checked = 0
    for step in range(300):
        if GAME.outcome(state):
            break
        seat = min(GAME.to_act(state))
        GAME.apply(state, seat, computer_action(GAME, state, seat))
        if step % 10:
            continue
        obs = GAME.observe(state, None)
        shown = decode(render_public(obs, names=names, locale="nb", theme=theme)).convert("RGB")
        whole = _mapped(_board_rgb(obs, names, "nb", theme), theme).convert("RGB")
        top = board_top(obs, names, "nb")  # drawn on the whole, the header's rule also falls on the board's first row
        for box in ((0, 0, whole.width, top), (0, top + 1, whole.width, whole.height)):
            assert shown.crop(box).tobytes() == whole.crop(box).tobytes(), f"step {step}"
        checked += 1
    assert checked >= 25


def _whole_equals_shown(obs: dict, names: list[str], theme: str = "dark") -> bool:  # type: ignore[type-arg]
    from rendering.monopol import _board_rgb, _mapped

    shown = decode(render_public(obs, names=names, locale="nb", theme=theme)).convert("RGB")
    whole = _mapped(_board_rgb(obs, names, "nb", theme), theme).convert("RGB")
    top = board_top(obs, names, "nb")
    return all(shown.crop(box).tobytes() == whole.crop(box).tobytes()
               for box in ((0, 0, whole.width, top), (0, top + 1, whole.width, whole.height)))


def test_a_kept_square_by_a_corner_shows_the_houses_past_the_corner_as_they_are_now() -> None:
    """A square's box reaches 14 px into the square past the corner (39's into 1's colour bar, 9's
    into 11's): its kept picture is keyed by that square too, so houses built or sold there are
    never shown as they were when the box was kept."""
    s = new(3)
    obs = GAME.observe(s, None)
    pub = obs["public"]
    pub["position"] = [5, 5, 5]
    for first, second in ((1, 39), (9, 11), (19, 21), (29, 31)):
        pub["owner"][first], pub["owner"][second] = 0, 1
    for level in (4, 0, 3, 5, 0):  # the squares past the corners (39, 11, 21, 31) stay as they are
        for first in (1, 9, 19, 29):
            pub["level"][first] = level
        assert _whole_equals_shown(obs, ["A", "B", "C"]), level


def test_no_square_box_reaches_the_centre() -> None:
    """The centre's drawings are mapped by their own boxes inside CENTRE_BOX, which no square's
    box overlaps: a kept square's picture never holds a part of the centre."""
    from rendering.monopol import CENTRE_BOX, _overlaps, _square_box

    assert not any(_overlaps(_square_box(index), CENTRE_BOX) for index in range(40))


def test_boards_drawn_by_threads_at_once_are_the_ones_drawn_alone() -> None:
    """The kept squares and the band cache are shared by the rendering threads: boards of a seeded
    game drawn from three threads at once are byte for byte the boards drawn one by one."""
    from concurrent.futures import ThreadPoolExecutor

    names = ["Åse", "Bjørn Ødegård", "Čeněk", "Kari Nordmann"]
    state = GAME.new(4, GAME.resolve_options({}), "threads")
    positions = []
    for step in range(240):
        seat = min(GAME.to_act(state))
        GAME.apply(state, seat, computer_action(GAME, state, seat))
        if step % 8 == 0:
            positions.append(GAME.observe(state, None))
    alone = [render_public(obs, names=names, locale="nb") for obs in positions]
    with ThreadPoolExecutor(3) as pool:
        runs = list(pool.map(lambda n: [render_public(obs, names=names, locale="nb")
                                        for obs in positions[n::3] + positions[:n:3]], range(3)))
    for n, got in enumerate(runs):
        assert got == alone[n::3] + alone[:n:3]
