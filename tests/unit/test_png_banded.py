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


def test_the_band_cache_changes_no_byte_and_keeps_its_bound(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A picture encoded with its bands cached (Adler-32 kept beside them) is byte for byte the one
    encoded from an empty cache, the scanlines given with their filter bytes or without; the cache
    never holds more than CACHE_BANDS bands."""
    from rendering import png

    palette = render._palette("dark")
    mapped = [picture.quantize(palette=palette, dither=Image.Dither.NONE) for picture in pictures()]
    cold = []
    for image in mapped:
        png._CACHE.clear()
        cold.append(png.encode_banded(image, 1))
    warm = [png.encode_banded(image, 1) for image in mapped]  # the cache holds their bands now
    assert warm == cold
    lines = []
    for image in mapped:
        wide = Image.new("P", (image.width + 1, image.height), 0)
        wide.paste(image, (1, 0))
        lines.append(png.encode_lines(wide.tobytes(), image.width, image.height, image.getpalette() or [], 1))
    assert lines == cold
    monkeypatch.setattr(png, "CACHE_BANDS", 5)
    png._CACHE.clear()
    again = []
    for image in mapped:
        again.append(png.encode_banded(image, 1))
        assert len(png._CACHE) <= 5
    assert again == cold


def test_threads_encoding_at_once_get_the_same_bytes() -> None:
    """The band cache is shared by the rendering threads: encoding the same pictures from four
    threads at once gives each the bytes a lone encoder gives."""
    from concurrent.futures import ThreadPoolExecutor

    from rendering import png

    palette = render._palette("dark")
    mapped = [picture.quantize(palette=palette, dither=Image.Dither.NONE) for picture in pictures()]
    png._CACHE.clear()
    alone = [png.encode_banded(image, 3) for image in mapped]
    png._CACHE.clear()
    with ThreadPoolExecutor(4) as pool:
        runs = list(pool.map(lambda n: [png.encode_banded(image, 3) for image in mapped[n:] + mapped[:n]], range(4)))
    for n, got in enumerate(runs):
        assert got == alone[n:] + alone[:n]
