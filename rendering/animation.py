"""One animated image (GIF or WebP) of a game's boards, under a byte cap (Discord's attachment limit).

``animate(pngs, cap_bytes=...)`` takes the boards as PNG bytes in order and returns the encoded
animation. When the result would pass the cap it drops every other frame (the first and the last
stay) and scales the frames down, in turns, until it fits; ``AnimationTooLarge`` when even two
frames at the smallest width do not. ``animate_boards`` renders observations with a game's
``render_public`` first: the bot runs it in one render worker, so the event loop never waits for it.
"""
from __future__ import annotations

import importlib
import io
from collections.abc import Sequence
from typing import Any

from PIL import Image

MiB = 1024 * 1024
DEFAULT_CAP = 8 * MiB  # below Discord's 10 MiB attachment limit, leaving room for the board itself
MAX_FRAMES = 120
MAX_WIDTH = 1200  # boards are drawn about 1100 px wide: kept as drawn unless over the cap
MIN_WIDTH = 160
FRAME_MS = 600
LAST_MS = 4000  # the final position stays a while before the loop starts again
FORMATS = ("GIF", "WEBP")


class AnimationTooLarge(ValueError):
    """Even the smallest animation the cap allows for would pass it."""


def animate(pngs: Sequence[bytes], *, cap_bytes: int = DEFAULT_CAP, image_format: str = "GIF",
            max_frames: int = MAX_FRAMES, max_width: int = MAX_WIDTH, frame_ms: int = FRAME_MS,
            last_ms: int = LAST_MS) -> bytes:
    """The boards ``pngs`` as one looping animation of at most ``cap_bytes`` bytes."""
    if image_format not in FORMATS:
        raise ValueError(f"unknown animation format {image_format!r}")
    if not pngs:
        raise ValueError("no frames to animate")
    chosen = spread(list(range(len(pngs))), max_frames)
    images = {i: _decoded(pngs[i]) for i in chosen}
    width = min(max_width, max(image.width for image in images.values()))
    while True:
        data = _encode([images[i] for i in chosen], width, image_format, frame_ms, last_ms)
        if len(data) <= cap_bytes:
            return data
        if len(chosen) > 2 and (len(chosen) > 24 or width <= MIN_WIDTH):
            chosen = spread(chosen, (len(chosen) + 1) // 2)
        elif width > MIN_WIDTH:
            width = max(MIN_WIDTH, int(width * 0.8))
        else:
            raise AnimationTooLarge(f"{len(data)} bytes with {len(chosen)} frames at {width} px > {cap_bytes}")


def spread(items: list[int], limit: int) -> list[int]:
    """At most ``limit`` (≥ 2) of ``items``, evenly spread, the first and the last kept."""
    if len(items) <= limit:
        return items
    limit = max(2, limit)
    last = len(items) - 1
    return [items[i] for i in sorted({round(k * last / (limit - 1)) for k in range(limit)})]


def _decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def _palette_of(image: Image.Image) -> Image.Image:
    """A palette image for every frame to map to: the boards' own fixed palette where they have
    one (every frame the same colours, so the GIF stores only what changed between frames)."""
    reference = Image.new("P", (1, 1))
    if image.mode == "P" and image.getpalette():
        reference.putpalette(image.getpalette() or [])
        return reference
    return image.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _frame(image: Image.Image, width: int, image_format: str, palette: Image.Image) -> Image.Image:
    if image_format == "WEBP":
        image = image.convert("RGB")
        return image if image.width <= width else image.resize(
            (width, max(1, round(image.height * width / image.width))), Image.Resampling.BILINEAR)
    if image.width <= width and image.mode == "P" and image.getpalette() == palette.getpalette():
        return image
    rgb = image.convert("RGB")
    if rgb.width > width:
        rgb = rgb.resize((width, max(1, round(rgb.height * width / rgb.width))), Image.Resampling.BILINEAR)
    return rgb.quantize(palette=palette, dither=Image.Dither.NONE)


def _encode(images: list[Image.Image], width: int, image_format: str, frame_ms: int, last_ms: int) -> bytes:
    palette = _palette_of(images[0])
    frames = [_frame(image, width, image_format, palette) for image in images]
    size = (max(f.width for f in frames), max(f.height for f in frames))
    frames = [f if f.size == size else _fitted(f, size, frames[0]) for f in frames]  # one canvas for all
    durations = [frame_ms] * (len(frames) - 1) + [last_ms]
    out = io.BytesIO()
    options: dict[str, Any] = {"save_all": True, "append_images": frames[1:], "duration": durations, "loop": 0}
    if image_format == "WEBP":
        options.update(quality=60, method=2)
    frames[0].save(out, format=image_format, **options)
    return out.getvalue()


def _fitted(frame: Image.Image, size: tuple[int, int], first: Image.Image) -> Image.Image:
    """A smaller frame on the common canvas (a board grows as the game goes on), its corner
    colour around it."""
    canvas = Image.new(frame.mode, size, first.getpixel((0, 0)))
    if frame.mode == "P":
        canvas.putpalette(frame.getpalette() or [])
    canvas.paste(frame, (0, 0))
    return canvas


def animate_boards(module: str, observations: Sequence[dict[str, Any]], *, names: Sequence[str], locale: str,
                   cap_bytes: int = DEFAULT_CAP, image_format: str = "GIF") -> bytes:
    """Render each observation with ``module``'s ``render_public`` and animate the boards."""
    render = importlib.import_module(module).render_public
    return animate([render(obs, names=list(names), locale=locale) for obs in observations],
                   cap_bytes=cap_bytes, image_format=image_format)
