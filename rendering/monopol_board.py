"""The Monopol board's drawing parts: geometry, the cached static board (names, prices, colour bars),
and the pieces drawn on it each time (owner strips, buildings, mortgages, tokens, dice).

Tokens stand in a band just inside the ring of squares, in front of their square's colour bar, so
they never cover a street name or a price; each player has a colour that no street group uses and
a shape with the seat number, so no one has to tell colours apart.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.monopol.board import GROUP_COLOURS, SQUARES, Square
from bot.i18n import money
from rendering.kit import draw_text, text_length, text_mask
from rendering.theme import theme_of

SIZE = 1100  # the board is square
CORNER = 145
CELL = 90  # (SIZE - 2 * CORNER) / 9
BAR = 28  # colour bar depth
STRIP = 20  # owner strip depth
ROW_H = 158  # one row of the player panel (two players per row)

BOARD_BG = (200, 227, 204)
TILE = (251, 249, 242)
LINE = (35, 35, 38)
INK = (25, 25, 28)
MUTED = (95, 95, 100)
PANEL = (236, 240, 236)
TITLE_RED = (200, 30, 40)
HOUSE = (30, 140, 60)
HOTEL = (200, 30, 45)
MORTGAGE = (120, 120, 128)
HIGHLIGHT = (255, 200, 0)
WHITE = (255, 255, 255)
# Player colours that no street group, station or utility uses (black, white, violet, teal, lime,
# tan), each with its own shape and the seat number on it, and the ink that reads on it.
PLAYER_COLOURS = ((12, 12, 14), (252, 252, 252), (118, 62, 190), (0, 128, 128), (160, 205, 40), (205, 170, 120))
PLAYER_INK = (WHITE, INK, WHITE, WHITE, INK, INK)
PLAYER_SHAPES = ("circle", "square", "diamond", "triangle", "hexagon", "pentagon")
TOKEN_R = 14
BAND = 42  # the band inside the ring where tokens stand (with the ring of the player to act)

Names = Sequence[str] | Mapping[int, str]


@dataclass(frozen=True)
class Paint:
    """The board's own colours in a theme: the ground, the squares, their lines and their text."""

    ground: tuple[int, int, int]
    tile: tuple[int, int, int]
    line: tuple[int, int, int]
    ink: tuple[int, int, int]
    muted: tuple[int, int, int]


LIGHT_PAINT = Paint(BOARD_BG, TILE, LINE, INK, MUTED)


@cache
def paint(theme: str = "dark") -> Paint:
    """The dark board is the light one turned: dark squares with light names, so it no longer
    glares on Discord's dark background; group bars, tokens and buildings keep their colours."""
    if theme == "light":
        return LIGHT_PAINT
    th = theme_of(theme)
    return Paint(th.background, th.surface, (16, 17, 19), th.ink, th.muted)


def hex_colour(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


# ----------------------------------------------------------------------------- geometry
def tile_box(index: int) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) of a square: 0 at the bottom right, counting clockwise."""
    far = SIZE - CORNER
    if index == 0:
        return far, far, SIZE, SIZE
    if index < 10:
        x1 = far - (index - 1) * CELL
        return x1 - CELL, far, x1, SIZE
    if index == 10:
        return 0, far, CORNER, SIZE
    if index < 20:
        y1 = far - (index - 11) * CELL
        return 0, y1 - CELL, CORNER, y1
    if index == 20:
        return 0, 0, CORNER, CORNER
    if index < 30:
        x0 = CORNER + (index - 21) * CELL
        return x0, 0, x0 + CELL, CORNER
    if index == 30:
        return far, 0, SIZE, CORNER
    y0 = CORNER + (index - 31) * CELL
    return far, y0, SIZE, y0 + CELL


def side(index: int) -> str:
    """Which edge a square lies on: the colour bar faces the inside of the board."""
    if index % 10 == 0:
        return "corner"
    return ("bottom", "left", "top", "right")[index // 10]


def bar_box(index: int) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = tile_box(index)
    return {"bottom": (x0, y0, x1, y0 + BAR), "top": (x0, y1 - BAR, x1, y1),
            "left": (x1 - BAR, y0, x1, y1), "right": (x0, y0, x0 + BAR, y1)}[side(index)]


def text_box(index: int) -> tuple[int, int, int, int]:
    """The part of a tile left for its name and price."""
    x0, y0, x1, y1 = tile_box(index)
    sq = SQUARES[index]
    bar = BAR if sq.kind == "street" else 0
    own = STRIP if sq.is_deed else 0  # the owner's strip along the outer edge
    return {"bottom": (x0, y0 + bar, x1, y1 - own), "top": (x0, y0 + own, x1, y1 - bar),
            "left": (x0 + own, y0, x1 - bar, y1), "right": (x0 + bar, y0, x1 - own, y1),
            "corner": (x0, y0, x1, y1)}[side(index)]


# ----------------------------------------------------------------------------- text helpers
@lru_cache(maxsize=1024)
def wrap(text: str, width: int, sizes: tuple[int, ...], bold: bool = True) -> tuple[tuple[str, ...], int]:
    """Greedy word wrap at the largest size where every word fits; very long words are split.
    Returns the lines and the font size (cached: the same texts come back on every render)."""
    for size in sizes:
        if all(text_length(word, size, bold) <= width for word in text.split()):
            break
    lines: list[str] = []
    for word in text.split():
        while text_length(word, size, bold) > width:  # only at the smallest size
            cut = len(word) - 1
            while cut > 1 and text_length(word[:cut] + "-", size, bold) > width:
                cut -= 1
            lines.append(word[:cut] + "-")
            word = word[cut:]
        if lines and not lines[-1].endswith("-") and text_length(lines[-1] + " " + word, size, bold) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return tuple(lines), size


def draw_label(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, bold: bool,
          fill: tuple[int, int, int], anchor: str = "la") -> tuple[int, int, int, int]:
    """Like draw.text (anchors l/m/r then a/m/d) but from cached masks, which is much faster; the
    box (x0, y0, x1, y1) the text's pixels lie in."""
    mask, dx, dy = text_mask(text, size, bold, anchor)
    x, y = int(round(xy[0] + dx)), int(round(xy[1] + dy))
    draw.bitmap((x, y), mask, fill=fill)
    return x, y, x + mask.width, y + mask.height


def draw_lines(draw: ImageDraw.ImageDraw, lines: Sequence[str], size: int, bold: bool, cx: float,
           top: float, fill: tuple[int, int, int], gap: int = 2) -> float:
    for i, line in enumerate(lines):
        draw_label(draw, (cx, top + i * (size + gap)), line, size, bold, fill, "ma")
    return top + len(lines) * (size + gap)


# ----------------------------------------------------------------------------- static board
def _draw_square(draw: ImageDraw.ImageDraw, sq: Square, locale: str, p: Paint = LIGHT_PAINT) -> None:
    x0, y0, x1, y1 = tile_box(sq.index)
    draw.rectangle([x0, y0, x1, y1], fill=p.tile, outline=p.line, width=2)
    if sq.kind == "street":
        bx0, by0, bx1, by1 = bar_box(sq.index)
        draw.rectangle([bx0, by0, bx1, by1], fill=hex_colour(GROUP_COLOURS[sq.group]), outline=LINE, width=2)
    tx0, ty0, tx1, ty1 = text_box(sq.index)
    cx = (tx0 + tx1) / 2
    width = tx1 - tx0 - 8
    if sq.index % 10 == 0:
        _draw_corner(draw, sq, (x0, y0, x1, y1), p)
        return
    top = ty0 + 5
    if sq.kind in ("sjanse", "lykke"):
        colour = (235, 120, 0) if sq.kind == "sjanse" else (30, 100, 190)
        lines, size = wrap(sq.name, width, (16, 14, 13))
        end = draw_lines(draw, lines, size, True, cx, top, p.ink)
        draw_text(draw, (cx, (end + ty1) / 2), "?", 40, bold=True, fill=colour, anchor="mm")
        return
    lines, size = wrap(sq.name, width, (15, 14, 13, 12))
    end = draw_lines(draw, lines, size, True, cx, top, p.ink)
    if sq.kind == "station":
        _draw_train(draw, cx, (end + ty1 - 22) / 2 + 2, p)
    elif sq.kind == "utility":
        _draw_bulb(draw, cx, (end + ty1 - 22) / 2 + 2, sq.index == 12)
    price = sq.price or sq.amount
    if price:
        label = money(price, locale)
        draw_text(draw, (cx, ty1 - 5), label, 15, bold=True, fill=p.ink, anchor="md")
    if sq.is_deed:  # the square number, which the deed chips in the player panel show
        draw_text(draw, (tx0 + 4, ty1 - 5), str(sq.index), 12, fill=p.muted, anchor="ld")


def _draw_train(draw: ImageDraw.ImageDraw, cx: float, cy: float, p: Paint = LIGHT_PAINT) -> None:
    draw.rounded_rectangle([cx - 18, cy - 11, cx + 18, cy + 9], radius=4, fill=p.ink)
    draw.rectangle([cx - 13, cy - 7, cx - 3, cy - 1], fill=p.tile)
    draw.rectangle([cx + 3, cy - 7, cx + 13, cy - 1], fill=p.tile)
    for dx in (-10, 10):
        draw.ellipse([cx + dx - 4, cy + 7, cx + dx + 4, cy + 15], fill=p.ink)


def _draw_bulb(draw: ImageDraw.ImageDraw, cx: float, cy: float, electric: bool) -> None:
    if electric:
        draw.ellipse([cx - 11, cy - 14, cx + 11, cy + 8], fill=(250, 215, 40), outline=LINE, width=2)
        draw.rectangle([cx - 6, cy + 7, cx + 6, cy + 14], fill=LINE)
    else:  # a water drop
        draw.polygon([(cx, cy - 16), (cx + 11, cy + 2), (cx - 11, cy + 2)], fill=(40, 130, 220))
        draw.ellipse([cx - 11, cy - 8, cx + 11, cy + 14], fill=(40, 130, 220))


def _draw_corner(draw: ImageDraw.ImageDraw, sq: Square, box: tuple[int, int, int, int],
                 p: Paint = LIGHT_PAINT) -> None:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if sq.index == 0:
        draw_text(draw, (cx, y0 + 22), "START", 30, bold=True, fill=TITLE_RED, anchor="mt")
        draw_text(draw, (cx, y0 + 62), "+200", 22, bold=True, fill=p.ink, anchor="mt")
        draw.polygon([(x0 + 22, cy + 38), (x0 + 58, cy + 20), (x0 + 58, cy + 56)], fill=TITLE_RED)
        draw.rectangle([x0 + 56, cy + 31, x1 - 22, cy + 45], fill=TITLE_RED)
    elif sq.index == 10:
        # the cell sits in the corner's upper right; visitors stand along the outer edges
        draw.rectangle([x0 + 40, y0, x1, y1 - 40], fill=(245, 150, 40), outline=LINE, width=2)
        for gx in range(int(x0) + 52, int(x1) - 4, 14):
            draw.line([gx, y0 + 4, gx, y1 - 44], fill=LINE, width=2)
        draw_text(draw, (x0 + 92, y0 + 52), "Fengsel", 17, bold=True, fill=INK, anchor="mm",
                  stroke_width=3, stroke_fill=(245, 150, 40))
        draw_text(draw, (cx + 20, y1 - 20), "På besøk", 15, bold=True, fill=p.ink, anchor="mm")
    elif sq.index == 20:
        draw_text(draw, (cx, cy - 22), "Gratis", 21, bold=True, fill=p.ink, anchor="mm")
        draw_text(draw, (cx, cy + 4), "parkering", 21, bold=True, fill=p.ink, anchor="mm")
        draw_text(draw, (cx, cy + 42), "P", 34, bold=True, fill=(30, 100, 190), anchor="mm")
    else:
        draw_text(draw, (cx, cy - 30), "Gå i", 22, bold=True, fill=p.ink, anchor="mm")
        draw_text(draw, (cx, cy - 4), "fengsel", 22, bold=True, fill=p.ink, anchor="mm")
        draw.line([cx - 30, cy + 45, cx + 30, cy + 25], fill=TITLE_RED, width=6)
        draw.polygon([(cx + 34, cy + 18), (cx + 38, cy + 36), (cx + 20, cy + 30)], fill=TITLE_RED)


@cache
def static_board(locale: str = "en", theme: str = "light") -> Image.Image:
    """The squares, drawn once per language (prices in the locale's money format) and theme."""
    p = paint(theme)
    image = Image.new("RGB", (SIZE, SIZE), p.ground)
    draw = ImageDraw.Draw(image)
    for sq in SQUARES:
        _draw_square(draw, sq, locale, p)
    draw.rectangle([CORNER, CORNER, SIZE - CORNER, SIZE - CORNER], outline=p.line, width=2)
    banner = (SIZE / 2, CORNER + 92)  # below the band where the top row's tokens stand
    draw.rounded_rectangle([banner[0] - 250, banner[1] - 45, banner[0] + 250, banner[1] + 45], radius=10,
                           fill=TITLE_RED, outline=LINE, width=3)
    draw_text(draw, banner, "MONOPOL", 72, bold=True, fill=WHITE, anchor="mm")
    return image


# ----------------------------------------------------------------------------- dynamic layer
def draw_buildings(draw: ImageDraw.ImageDraw, index: int, level: int) -> None:
    bx0, by0, bx1, by1 = bar_box(index)
    cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2
    if level == 5:
        draw.rectangle([cx - 26, cy - 10, cx + 26, cy + 10], fill=HOTEL, outline=LINE, width=2)
        draw_label(draw, (cx, cy), "H", 16, True, WHITE, "mm")
        return
    vertical = side(index) in ("left", "right")
    for i in range(level):
        offset = (i - (level - 1) / 2) * 20
        hx, hy = (cx, cy + offset) if vertical else (cx + offset, cy)
        draw.rectangle([hx - 8, hy - 8, hx + 8, hy + 8], fill=HOUSE, outline=LINE, width=2)


def draw_owner(draw: ImageDraw.ImageDraw, index: int, seat: int) -> None:
    """A strip in the owner's colour along the tile's outer edge, with the seat number."""
    x0, y0, x1, y1 = tile_box(index)
    inset = STRIP - 1
    strip = {"bottom": (x0 + 2, y1 - inset, x1 - 2, y1 - 2), "top": (x0 + 2, y0 + 2, x1 - 2, y0 + inset),
             "left": (x0 + 2, y0 + 2, x0 + inset, y1 - 2),
             "right": (x1 - inset, y0 + 2, x1 - 2, y1 - 2)}[side(index)]
    draw.rectangle(strip, fill=PLAYER_COLOURS[seat % 6], outline=LINE)
    cx, cy = (strip[0] + strip[2]) / 2, (strip[1] + strip[3]) / 2
    draw_label(draw, (cx, cy), str(seat + 1), 15, True, PLAYER_INK[seat % 6], "mm")


def draw_mortgaged(draw: ImageDraw.ImageDraw, index: int) -> None:
    tx0, ty0, tx1, ty1 = text_box(index)
    draw.line([tx0 + 6, ty0 + 6, tx1 - 6, ty1 - 6], fill=MORTGAGE, width=4)
    draw.line([tx0 + 6, ty1 - 6, tx1 - 6, ty0 + 6], fill=MORTGAGE, width=4)


def token_spot(index: int, slot: int, jailed: bool) -> tuple[float, float]:
    """Where the ``slot``-th token on a square stands: in the band just inside the ring, in front of
    the square's colour bar, three abreast and then a second row further in; on a corner, where
    its words leave room (visitors of the prison along its outer edges, prisoners in the cell)."""
    x0, y0, x1, y1 = tile_box(index)
    if index == 10:
        if jailed:
            return x0 + 62 + (slot % 3) * 30, y0 + 78 + (slot // 3) * 22
        visitors = [(x0 + 18, y0 + 20 + k * 34) for k in range(3)] + [(x0 + 50 + k * 34, y1 - 18) for k in range(3)]
        return visitors[slot]
    if index % 10 == 0:
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        return cx + (slot % 3 - 1) * 34, y1 - 18 - (slot // 3) * 30 if index == 0 else cy + 50 - (slot // 3) * 30
    along, depth = (slot % 3 - 1) * (2 * TOKEN_R + 1), BAND / 2 + (slot // 3) * (2 * TOKEN_R + 4)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return {"bottom": (cx + along, y0 - depth), "top": (cx + along, y1 + depth),
            "left": (x1 + depth, cy + along), "right": (x0 - depth, cy + along)}[side(index)]


def _shape(kind: str, x: float, y: float, r: float) -> list[tuple[float, float]]:
    corners = {"triangle": (3, -90), "diamond": (4, -90), "pentagon": (5, -90), "hexagon": (6, 0)}[kind]
    scale = {"triangle": 1.3, "diamond": 1.2, "pentagon": 1.1, "hexagon": 1.08}[kind]
    shift = r * 0.25 if kind == "triangle" else 0  # the triangle's centre of mass, where its number sits
    return [(x + scale * r * math.cos(math.radians(corners[1] + k * 360 / corners[0])),
             y + shift + scale * r * math.sin(math.radians(corners[1] + k * 360 / corners[0])))
            for k in range(corners[0])]


def draw_token(draw: ImageDraw.ImageDraw, x: float, y: float, seat: int, active: bool, r: float = TOKEN_R,
               ring: tuple[int, int, int] = HIGHLIGHT) -> None:
    """A player's token: the seat's shape in its colour with the seat number; the token of the
    player to act stands on a disc of the turn colour."""
    if active:
        draw.ellipse([x - r - 6, y - r - 6, x + r + 6, y + r + 6], fill=ring, outline=LINE, width=1)
    kind, colour = PLAYER_SHAPES[seat % 6], PLAYER_COLOURS[seat % 6]
    width = max(2, round(r / 7))
    if kind == "circle":
        draw.ellipse([x - r, y - r, x + r, y + r], fill=colour, outline=LINE, width=width)
    elif kind == "square":
        draw.rectangle([x - r * 0.9, y - r * 0.9, x + r * 0.9, y + r * 0.9], fill=colour, outline=LINE, width=width)
    else:
        draw.polygon(_shape(kind, x, y - (r * 0.25 if kind == "triangle" else 0), r), fill=colour, outline=LINE,
                     width=width)
    size = round(r * (1.0 if kind == "triangle" else 1.2))
    draw_label(draw, (x, y + (r * 0.2 if kind == "triangle" else 0)), str(seat + 1), size, True, PLAYER_INK[seat % 6],
               "mm")


def draw_pieces(draw: ImageDraw.ImageDraw, pub: Mapping[str, Any], ring: tuple[int, int, int] = HIGHLIGHT) -> None:
    """Owner strips, mortgages, buildings and the tokens of the players still in the game."""
    for index, owner in enumerate(pub["owner"]):
        if owner >= 0:
            draw_owner(draw, index, owner)
            if pub["mortgaged"][index]:
                draw_mortgaged(draw, index)
            if pub["level"][index]:
                draw_buildings(draw, index, pub["level"][index])
    slots: dict[tuple[int, bool], int] = {}
    for seat in range(pub["players"]):
        if pub["bankrupt"][seat]:
            continue
        spot = (pub["position"][seat], bool(pub["in_jail"][seat]))
        slot = slots.get(spot, 0)
        slots[spot] = slot + 1
        x, y = token_spot(spot[0], slot, spot[1])
        draw_token(draw, x, y, seat, seat == pub["turn"] and not pub["finished"], ring=ring)


def draw_die(draw: ImageDraw.ImageDraw, x: float, y: float, value: int, size: int = 70) -> None:
    draw.rounded_rectangle([x, y, x + size, y + size], radius=10, fill=WHITE, outline=LINE, width=3)
    pips = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
            5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)], 6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]}
    step = size / 4
    for row, col in pips.get(value, []):
        px, py = x + step * (col + 1), y + step * (row + 1)
        draw.ellipse([px - 7, py - 7, px + 7, py + 7], fill=INK)
