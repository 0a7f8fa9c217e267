"""Pictures on a fixed palette go through the banded encoder (rendering/kit.py ``encode_on_palette``,
rendering/png.py): decoded, every picture is the one Pillow's own PNG encoder gives, pixel for pixel,
palette included, at about the same size."""
from __future__ import annotations

import io
import random

from PIL import Image

from bot.engine import registry
from rendering import kit
from rendering import tolp as render


def decoded(data: bytes) -> Image.Image:
    with Image.open(io.BytesIO(data)) as image:
        image.load()
        return image.copy()


def pillows(image: Image.Image, palette: Image.Image, level: int) -> bytes:
    out = io.BytesIO()
    image.quantize(palette=palette, dither=Image.Dither.NONE).save(out, format="PNG", optimize=False,
                                                                   compress_level=level)
    return out.getvalue()


def pictures() -> list[Image.Image]:
    """Tölp boards and hands of a seeded game as drawn (RGB, before encoding), and odd shapes."""
    drawn: list[Image.Image] = []
    encode = kit.encode_on_palette

    def keep(canvas: Image.Image, palette: Image.Image, compress_level: int = 3) -> bytes:
        drawn.append(canvas.copy())
        return encode(canvas, palette, compress_level)

    tolp, rng = registry.get("tolp"), random.Random(4)
    state = tolp.new(4, tolp.resolve_options({}, 4), "banded")
    render.encode_on_palette = keep  # type: ignore[attr-defined]
    try:
        for _ in range(12):
            seat = min(tolp.to_act(state))
            tolp.apply(state, seat, rng.choice(list(tolp.legal_actions(state, seat))))
            render.render_public(tolp.observe(state, None), names=["Anna", "Björn", "Cecilia", "David"])
            render.render_private(tolp.observe(state, seat), names=["Anna", "Björn", "Cecilia", "David"])
    finally:
        render.encode_on_palette = encode  # type: ignore[attr-defined]
    noise = Image.frombytes("RGB", (97, 70), bytes(rng.randrange(256) for _ in range(97 * 70 * 3)))
    return [*drawn, noise, Image.new("RGB", (1, 1), (200, 30, 45)), Image.new("RGB", (1100, 33), (0, 0, 0))]


def test_banded_pictures_decode_to_pillows() -> None:
    palette = render._palette("dark")
    for level in (1, 3):
        for picture in pictures():
            mine, theirs = kit.encode_on_palette(picture, palette, level), pillows(picture, palette, level)
            a, b = decoded(mine), decoded(theirs)
            assert a.mode == b.mode == "P" and a.size == b.size == picture.size
            assert a.tobytes() == b.tobytes()
            assert a.convert("RGB").tobytes() == b.convert("RGB").tobytes()
            assert len(mine) <= 1.15 * len(theirs) + 200
