"""Shared drawing kit: fonts and text (rendering/fonts.py: Roboto with a Noto fallback chain, so every
name draws), colours, PNG encoding, cards.

Boards are drawn in RGB and encoded as a palette ("P") PNG without ``optimize``: on a flat
coloured board that is several times faster to encode than RGB and much smaller. A picture on a
fixed palette goes through the banded encoder (rendering/png.py): the same pixels as Pillow's PNG
encoder at the same zlib level, in less than half its time.
"""
from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from rendering.fonts import (  # noqa: F401  (the kit's text API; see rendering/fonts.py)
    draw_text,
    fit,
    font,
    note,
    paste_text,
    recording,
    stamp_text,
    text_length,
    text_mask,
)
from rendering.png import encode_banded

# Colours (RGB)
FELT = (22, 92, 58)
FELT_DARK = (16, 70, 44)
PAPER = (246, 243, 235)
INK = (28, 28, 30)
MUTED = (120, 120, 125)
WHITE = (255, 255, 255)
RED = (200, 30, 45)
BLACK = (25, 25, 28)
GOLD = (232, 185, 35)
HIGHLIGHT = (255, 215, 64)
CARD_BACK = (40, 70, 150)


def encode_png(image: Image.Image, palette: bool = True, compress_level: int = 6) -> bytes:
    """PNG bytes; palette mode (adaptive, up to 256 colours) unless ``palette`` is False."""
    out = io.BytesIO()
    if palette and image.mode != "P":
        image = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    image.save(out, format="PNG", optimize=False, compress_level=compress_level)
    return out.getvalue()


def palette_from(sample: Image.Image) -> Image.Image:
    """A fixed 256-colour palette from a sample of everything a renderer draws (made once, cached
    by the caller): mapping each frame onto a known palette costs a few milliseconds, while an
    adaptive quantization of every frame costs tens."""
    return sample.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)


def encode_on_palette(image: Image.Image, palette: Image.Image, compress_level: int = 3) -> bytes:
    """PNG bytes of ``image`` mapped onto a fixed palette (see ``palette_from``). zlib level 3 is about
    twice as fast as 6 on our flat boards for some 10–20 % more bytes. Encoded by the banded encoder
    (rendering/png.py: filter 0, each band of rows deflated once and kept): Pillow's own encoder
    spent 3 of a Tölp board's 8 ms on the same bytes' worth of PNG."""
    return encode_banded(image.quantize(palette=palette, dither=Image.Dither.NONE), level=compress_level)


def seat_name(names: Any, seat: int) -> str:
    """A player's name: ``names`` is a list by seat or a mapping keyed by seat (int or JSON string)."""
    if isinstance(names, Mapping):
        value = names.get(seat, names.get(str(seat)))
        return str(value) if value is not None else f"#{seat + 1}"
    if isinstance(names, Sequence) and 0 <= seat < len(names):
        return str(names[seat])
    return f"#{seat + 1}"


def hinted_square(event_hint: Any) -> Any:
    """The square an announcer's hint names: the hint itself (a Monopol square number, a Tjuv och
    Polis coordinate) or the ``square`` parameter of an event everyone may see (an object or a
    mapping with ``params`` and ``visible_to``); None otherwise. A private event never steers a
    public picture."""
    if isinstance(event_hint, (int, str)):
        return event_hint
    if isinstance(event_hint, Mapping):
        params, visible_to = event_hint.get("params"), event_hint.get("visible_to")
    else:
        params, visible_to = getattr(event_hint, "params", None), getattr(event_hint, "visible_to", None)
    if visible_to is None and isinstance(params, Mapping):
        return params.get("square")
    return None


def text_width(draw: ImageDraw.ImageDraw, text: str, fnt: ImageFont.FreeTypeFont) -> int:
    """The advance width of ``text`` at ``fnt``'s size and weight, fallback fonts included."""
    return int(text_length(text, int(fnt.size), "Bold" in str(fnt.getname()[1])))


# ----------------------------------------------------------------------------- suits and cards
def draw_suit(draw: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, size: float) -> None:
    """Draw a suit symbol as shapes centred at (cx, cy); ``size`` is its full height."""
    r = size / 2
    colour = RED if suit in ("H", "D") else BLACK
    if suit == "D":
        draw.polygon([(cx, cy - r), (cx + r * 0.75, cy), (cx, cy + r), (cx - r * 0.75, cy)], fill=colour)
    elif suit == "H":
        lobe = r * 0.55
        draw.ellipse([cx - 2 * lobe, cy - r * 0.75, cx, cy - r * 0.75 + 2 * lobe], fill=colour)
        draw.ellipse([cx, cy - r * 0.75, cx + 2 * lobe, cy - r * 0.75 + 2 * lobe], fill=colour)
        draw.polygon([(cx - 2 * lobe + 1, cy - r * 0.75 + lobe * 1.15), (cx + 2 * lobe - 1,
                      cy - r * 0.75 + lobe * 1.15), (cx, cy + r)], fill=colour)
    elif suit == "S":
        lobe = r * 0.5
        draw.polygon([(cx, cy - r), (cx + 2 * lobe, cy + r * 0.15), (cx - 2 * lobe, cy + r * 0.15)],
                     fill=colour)
        draw.ellipse([cx - 2 * lobe, cy - r * 0.25, cx, cy - r * 0.25 + 2 * lobe], fill=colour)
        draw.ellipse([cx, cy - r * 0.25, cx + 2 * lobe, cy - r * 0.25 + 2 * lobe], fill=colour)
        draw.polygon([(cx, cy + r * 0.2), (cx + r * 0.35, cy + r), (cx - r * 0.35, cy + r)], fill=colour)
    elif suit == "C":
        lobe = r * 0.42
        draw.ellipse([cx - lobe, cy - r, cx + lobe, cy - r + 2 * lobe], fill=colour)
        draw.ellipse([cx - 2 * lobe - r * 0.1, cy - r * 0.3, cx - r * 0.1, cy - r * 0.3 + 2 * lobe],
                     fill=colour)
        draw.ellipse([cx + r * 0.1, cy - r * 0.3, cx + 2 * lobe + r * 0.1, cy - r * 0.3 + 2 * lobe],
                     fill=colour)
        draw.polygon([(cx, cy - r * 0.1), (cx + r * 0.35, cy + r), (cx - r * 0.35, cy + r)], fill=colour)


def draw_star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: tuple[int, int, int]) -> None:
    points = []
    for i in range(10):
        angle = math.pi / 2 + i * math.pi / 5
        radius = r if i % 2 == 0 else r * 0.45
        points.append((cx + radius * math.cos(angle), cy - radius * math.sin(angle)))
    draw.polygon(points, fill=colour)


def rank_size(h: float) -> int:
    """The type size of a card's rank on a card ``h`` pixels high."""
    return int(h * 0.27)


@cache
def _card_image(card: str | None, w: int, h: int, highlight: bool, crosswise: bool) -> Image.Image:
    image = Image.new("RGBA", (w + 1, h + 1), (0, 0, 0, 0))
    draw_card(ImageDraw.Draw(image), 0, 0, w, h, card, highlight=highlight)
    return image.rotate(90, expand=True) if crosswise else image


def card_face(card: str | None, w: int, h: int, highlight: bool = False) -> Image.Image:
    """The cached RGBA picture ``paste_card`` pastes (its alpha is 0 or 255: the box and the suits
    are drawn without anti-aliasing, the rank lies inside the opaque card)."""
    return _card_image(card, w, h, highlight, False)


def note_card(card: str | None, h: int) -> None:
    """Count a card's rank as drawn text for ``recording``, as ``paste_card`` does."""
    if card is not None:
        note(card[:-1] if card != "JK" else "JOKER", rank_size(h) if card != "JK" else rank_size(h) // 2, True)


def paste_card(canvas: Image.Image, card: str | None, x: int, y: int, w: int, h: int, *, highlight: bool = False,
               crosswise: bool = False) -> None:
    """A card face (None: its back) drawn once and pasted at (x, y), optionally turned a quarter; its
    rank counts as drawn text for ``recording`` every time."""
    note_card(card, h)
    image = _card_image(card, w, h, highlight, crosswise)
    canvas.paste(image, (x, y), image)


def draw_card(draw: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float, card: str | None,
              *, highlight: bool = False) -> None:
    """A card face at (x, y) of size w×h from its canonical text (``10H``, ``QS``, ``JK``);
    ``None`` draws the back."""
    radius = max(4, int(w * 0.08))
    outline = HIGHLIGHT if highlight else (90, 90, 90)
    width = 4 if highlight else 2
    if card is None:
        draw.rounded_rectangle([x, y, x + w, y + h], radius=radius, fill=CARD_BACK, outline=WHITE, width=2)
        inset = w * 0.12
        draw.rounded_rectangle([x + inset, y + inset, x + w - inset, y + h - inset], radius=radius,
                               outline=(110, 140, 210), width=2)
        return
    draw.rounded_rectangle([x, y, x + w, y + h], radius=radius, fill=WHITE, outline=outline, width=width)
    if card == "JK":
        draw_text(draw, (x + w / 2, y + h * 0.3), "JOKER", rank_size(h) // 2, bold=True, fill=RED, anchor="mm")
        draw_star(draw, x + w / 2, y + h * 0.64, h * 0.2, GOLD)
        return
    rank, suit = card[:-1], card[-1]
    colour = RED if suit in ("H", "D") else BLACK
    draw_text(draw, (x + w * 0.08, y + h * 0.04), rank, rank_size(h), bold=True, fill=colour)
    draw_suit(draw, suit, x + w * 0.08 + h * 0.09, y + h * 0.42, h * 0.17)
    draw_suit(draw, suit, x + w * 0.6, y + h * 0.68, h * 0.38)


def new_canvas(width: int, height: int, colour: tuple[int, int, int] = FELT) -> tuple[Image.Image,
                                                                                       ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), colour)
    return image, ImageDraw.Draw(image)
