"""What Tölp shows after an exchange and at the end: the hand forgets last round's exchange once
play starts, and the game-over image lists the standings."""
from __future__ import annotations

import io

from PIL import Image

from rendering import tolp as render

from .build import GAME, act, exchange_state

FOUR = ["3C 5D 9H KS AC", "4C 6D 8H QS", "5C 7D 7H JS", "6C 8D 9S 9D AH AS"]
NAMES = ["Åsa", "Bo", "Cilla", "Dag"]


def test_the_hand_shows_the_exchange_only_while_it_runs() -> None:
    state = exchange_state(FOUR, [0, 1, 2, 3])
    act(state, 0, "give 3C 5D")
    act(state, 0, "high")
    during = GAME.observe(state, 0)["private"]["exchange"]
    assert during is not None and during["taken"] == ["AH", "AS"]
    act(state, 1, "give 4C")
    act(state, 1, "high")
    assert state.phase == "play"
    for seat in range(4):
        obs = GAME.observe(state, seat)
        assert obs["private"]["exchange"] is None, seat
        assert "exchange" not in render.describe_private({**obs, "names": NAMES}, locale="en").lower()


def _decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def test_the_game_over_image_lists_the_standings() -> None:
    state = GAME.new(4, {}, "standings")
    state.kungs = [2, 0, 1, 0]
    GAME.resign(state, 3)
    obs = GAME.observe(state, None)
    assert obs["public"]["result"]["places"][0] == [0]
    image = _decoded(render.render_public(obs, names=NAMES, locale="sv"))
    # the table area below the seats holds one row of text per player, not an empty panel
    top = render.table_top(obs["public"], NAMES, "sv")
    for row in range(4):
        box = (render.MARGIN + 24, top + 34 + row * 50, render.WIDTH // 2, top + 34 + row * 50 + 34)
        bright = sum(image.crop(box).convert("L").histogram()[150:])
        assert bright > 50, row
    below = (render.MARGIN + 24, top + 34 + 4 * 50, render.WIDTH // 2, top + 34 + 4 * 50 + 34)
    assert sum(image.crop(below).convert("L").histogram()[150:]) == 0
