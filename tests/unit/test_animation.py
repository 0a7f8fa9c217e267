"""The animated replay: real boards in, one looping GIF (or WebP) out that Pillow decodes, never
over its byte cap; a cap too small for the whole game drops frames and scales down until it fits."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.engine import registry
from bot.engine.registry import computer_action
from bot.services.replay import Replay
from rendering import zlodej
from rendering.animation import AnimationTooLarge, animate, animate_boards, spread
from tests.unit.observations import played

registry.load_all()


def zlodej_boards(count: int) -> list[bytes]:
    """Boards of a seeded Zloděj game after 0, 1, 2 … moves."""
    game, state = played("zlodej", 2, 0)
    moves: list[tuple[int, str]] = []
    for _ in range(count - 1):
        seat = min(game.to_act(state))
        action = computer_action(game, state, seat)
        game.apply(state, seat, action)
        moves.append((seat, str(action)))
    replay = Replay(1, "zlodej", 2, game.resolve_options(None, 2), "phone", tuple(moves), False, ("Ann", "Bo"))
    return [zlodej.render_public(f.observation, names=["Ann", "Bo"], locale="en") for f in replay.frames()]


@pytest.fixture(scope="module")
def boards() -> list[bytes]:
    return zlodej_boards(8)


def opened(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    for frame in range(image.n_frames):  # every frame decodes
        image.seek(frame)
        image.load()
    image.seek(0)
    return image


def test_the_boards_become_one_looping_gif_under_the_cap(boards: list[bytes]) -> None:
    data = animate(boards, cap_bytes=8 * 1024 * 1024)
    image = opened(data)
    assert image.format == "GIF" and image.n_frames == len(boards) and image.info.get("loop") == 0
    assert image.width == Image.open(io.BytesIO(boards[0])).width  # drawn size kept while it fits
    assert len(data) <= 8 * 1024 * 1024


def test_webp_animation_decodes(boards: list[bytes]) -> None:
    image = opened(animate(boards[:3], image_format="WEBP"))
    assert image.format == "WEBP" and image.n_frames == 3


def test_a_tiny_cap_drops_frames_and_scales_down_until_it_fits(boards: list[bytes]) -> None:
    roomy = animate(boards, cap_bytes=8 * 1024 * 1024)
    cap = len(roomy) // 3
    data = animate(boards, cap_bytes=cap)
    assert len(data) <= cap
    image = opened(data)
    smaller = image.n_frames < len(boards) or image.width < Image.open(io.BytesIO(roomy)).width
    assert smaller and image.n_frames >= 2


def test_a_cap_nothing_fits_under_is_refused(boards: list[bytes]) -> None:
    with pytest.raises(AnimationTooLarge):
        animate(boards, cap_bytes=500)


def test_many_boards_are_spread_evenly_keeping_the_first_and_the_last() -> None:
    assert spread(list(range(10)), 4) == [0, 3, 6, 9]
    assert spread(list(range(3)), 10) == [0, 1, 2]


def test_animate_boards_renders_the_observations_itself() -> None:
    game, state = played("stratego", 2, 0)
    observation = game.observe(state, None)
    data = animate_boards("rendering.stratego", [observation, observation], names=["Ann", "Bo"], locale="en",
                          cap_bytes=4 * 1024 * 1024)
    assert opened(data).n_frames >= 1
