"""Monopol images from observations: the whole board with a player panel, and single deed cards.

The board's squares (names, prices, colour bars) are drawn once and cached; each call copies that
layer, draws owners, buildings, mortgages, tokens, dice, status and the player panel, and maps the
result onto a fixed 256-colour palette (taken once from a full sample render), which is far faster
to encode than an RGB PNG. Street names are the Norwegian board's in every language.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.monopol.board import GROUP_COLOURS, GROUPS, SQUARES, STATION_RENTS, Square
from bot.i18n import money, normalize, t
from bot.services.text import cash_words, name_params
from rendering.kit import encode_on_palette, encode_png, font, palette_from, seat_name

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
PLAYER_COLOURS = ((220, 45, 45), (35, 95, 215), (20, 150, 70), (235, 135, 0), (140, 65, 185), (0, 160, 175))

Names = Sequence[str] | Mapping[int, str]


def _hex(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _as_list(names: Names) -> list[str]:
    """Names by seat as a list (they may come as a mapping keyed by seat)."""
    if isinstance(names, Mapping):
        return [seat_name(names, seat) for seat in range(len(names))]
    return list(names)


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
def _wrap(text: str, width: int, sizes: tuple[int, ...], bold: bool = True) -> tuple[tuple[str, ...], int]:
    """Greedy word wrap at the largest size where every word fits; very long words are split.
    Returns the lines and the font size (cached: the same texts come back on every render)."""
    for size in sizes:
        fnt = font(size, bold)
        if all(fnt.getlength(word) <= width for word in text.split()):
            break
    lines: list[str] = []
    for word in text.split():
        while fnt.getlength(word) > width:  # only at the smallest size
            cut = len(word) - 1
            while cut > 1 and fnt.getlength(word[:cut] + "-") > width:
                cut -= 1
            lines.append(word[:cut] + "-")
            word = word[cut:]
        if lines and not lines[-1].endswith("-") and fnt.getlength(lines[-1] + " " + word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return tuple(lines), size


@lru_cache(maxsize=4096)
def _mask(text: str, size: int, bold: bool) -> tuple[Image.Image, int, int, float, int]:
    """Anti-aliased coverage of a text, drawn once: (mask, left, top, advance, line height)."""
    fnt = font(size, bold)
    left, top, right, bottom = fnt.getbbox(text)
    mask = Image.new("L", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=fnt, fill=255)
    ascent, descent = fnt.getmetrics()
    return mask, int(left), int(top), fnt.getlength(text), ascent + descent


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, bold: bool,
          fill: tuple[int, int, int], anchor: str = "la") -> None:
    """Like draw.text (anchors l/m/r then a/m/d) but from cached masks, which is much faster."""
    mask, left, top, advance, height = _mask(text, size, bold)
    x, y = xy
    x -= {"l": 0, "m": advance / 2, "r": advance}[anchor[0]]
    y -= {"a": 0, "m": height / 2, "d": height}[anchor[1]]
    draw.bitmap((int(round(x + left)), int(round(y + top))), mask, fill=fill)


def _lines(draw: ImageDraw.ImageDraw, lines: Sequence[str], size: int, bold: bool, cx: float,
           top: float, fill: tuple[int, int, int], gap: int = 2) -> float:
    for i, line in enumerate(lines):
        _text(draw, (cx, top + i * (size + gap)), line, size, bold, fill, "ma")
    return top + len(lines) * (size + gap)


# ----------------------------------------------------------------------------- static board
def _draw_square(draw: ImageDraw.ImageDraw, sq: Square, locale: str) -> None:
    x0, y0, x1, y1 = tile_box(sq.index)
    draw.rectangle([x0, y0, x1, y1], fill=TILE, outline=LINE, width=2)
    if sq.kind == "street":
        bx0, by0, bx1, by1 = bar_box(sq.index)
        draw.rectangle([bx0, by0, bx1, by1], fill=_hex(GROUP_COLOURS[sq.group]), outline=LINE, width=2)
    tx0, ty0, tx1, ty1 = text_box(sq.index)
    cx = (tx0 + tx1) / 2
    width = tx1 - tx0 - 8
    if sq.index % 10 == 0:
        _draw_corner(draw, sq, (x0, y0, x1, y1))
        return
    top = ty0 + 5
    if sq.kind in ("sjanse", "lykke"):
        colour = (235, 120, 0) if sq.kind == "sjanse" else (30, 100, 190)
        lines, size = _wrap(sq.name, width, (16, 14, 13))
        end = _lines(draw, lines, size, True, cx, top, INK)
        draw.text((cx, (end + ty1) / 2), "?", font=font(40, True), fill=colour, anchor="mm")
        return
    lines, size = _wrap(sq.name, width, (15, 14, 13, 12))
    end = _lines(draw, lines, size, True, cx, top, INK)
    if sq.kind == "station":
        _draw_train(draw, cx, (end + ty1 - 22) / 2 + 2)
    elif sq.kind == "utility":
        _draw_bulb(draw, cx, (end + ty1 - 22) / 2 + 2, sq.index == 12)
    price = sq.price or sq.amount
    if price:
        label = money(price, locale)
        draw.text((cx, ty1 - 5), label, font=font(15, True), fill=INK, anchor="md")
    if sq.is_deed:  # the square number, which the deed chips in the player panel show
        draw.text((tx0 + 4, ty1 - 5), str(sq.index), font=font(12, False), fill=MUTED, anchor="ld")


def _draw_train(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    draw.rounded_rectangle([cx - 18, cy - 11, cx + 18, cy + 9], radius=4, fill=LINE)
    draw.rectangle([cx - 13, cy - 7, cx - 3, cy - 1], fill=TILE)
    draw.rectangle([cx + 3, cy - 7, cx + 13, cy - 1], fill=TILE)
    for dx in (-10, 10):
        draw.ellipse([cx + dx - 4, cy + 7, cx + dx + 4, cy + 15], fill=LINE)


def _draw_bulb(draw: ImageDraw.ImageDraw, cx: float, cy: float, electric: bool) -> None:
    if electric:
        draw.ellipse([cx - 11, cy - 14, cx + 11, cy + 8], fill=(250, 215, 40), outline=LINE, width=2)
        draw.rectangle([cx - 6, cy + 7, cx + 6, cy + 14], fill=LINE)
    else:  # a water drop
        draw.polygon([(cx, cy - 16), (cx + 11, cy + 2), (cx - 11, cy + 2)], fill=(40, 130, 220))
        draw.ellipse([cx - 11, cy - 8, cx + 11, cy + 14], fill=(40, 130, 220))


def _draw_corner(draw: ImageDraw.ImageDraw, sq: Square, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if sq.index == 0:
        draw.text((cx, y0 + 22), "START", font=font(30, True), fill=TITLE_RED, anchor="mt")
        draw.text((cx, y0 + 62), "+200", font=font(22, True), fill=INK, anchor="mt")
        draw.polygon([(x0 + 22, cy + 38), (x0 + 58, cy + 20), (x0 + 58, cy + 56)], fill=TITLE_RED)
        draw.rectangle([x0 + 56, cy + 31, x1 - 22, cy + 45], fill=TITLE_RED)
    elif sq.index == 10:
        # the cell sits in the corner's upper right; visitors stand along the outer edges
        draw.rectangle([x0 + 40, y0, x1, y1 - 40], fill=(245, 150, 40), outline=LINE, width=2)
        for gx in range(int(x0) + 52, int(x1) - 4, 14):
            draw.line([gx, y0 + 4, gx, y1 - 44], fill=LINE, width=2)
        draw.text((x0 + 92, y0 + 52), "Fengsel", font=font(17, True), fill=INK, anchor="mm",
                  stroke_width=3, stroke_fill=(245, 150, 40))
        draw.text((cx + 20, y1 - 20), "På besøk", font=font(15, True), fill=INK, anchor="mm")
    elif sq.index == 20:
        draw.text((cx, cy - 22), "Gratis", font=font(21, True), fill=INK, anchor="mm")
        draw.text((cx, cy + 4), "parkering", font=font(21, True), fill=INK, anchor="mm")
        draw.text((cx, cy + 42), "P", font=font(34, True), fill=(30, 100, 190), anchor="mm")
    else:
        draw.text((cx, cy - 30), "Gå i", font=font(22, True), fill=INK, anchor="mm")
        draw.text((cx, cy - 4), "fengsel", font=font(22, True), fill=INK, anchor="mm")
        draw.line([cx - 30, cy + 45, cx + 30, cy + 25], fill=TITLE_RED, width=6)
        draw.polygon([(cx + 34, cy + 18), (cx + 38, cy + 36), (cx + 20, cy + 30)], fill=TITLE_RED)


@cache
def _static_board(locale: str = "en") -> Image.Image:
    """The squares, drawn once per language (prices in the locale's money format)."""
    image = Image.new("RGB", (SIZE, SIZE), BOARD_BG)
    draw = ImageDraw.Draw(image)
    for sq in SQUARES:
        _draw_square(draw, sq, normalize(locale))
    draw.rectangle([CORNER, CORNER, SIZE - CORNER, SIZE - CORNER], outline=LINE, width=2)
    banner = (SIZE / 2, CORNER + 70)
    draw.rounded_rectangle([banner[0] - 250, banner[1] - 45, banner[0] + 250, banner[1] + 45], radius=10,
                           fill=TITLE_RED, outline=LINE, width=3)
    draw.text(banner, "MONOPOL", font=font(72, True), fill=WHITE, anchor="mm")
    return image


# ----------------------------------------------------------------------------- dynamic layer
def _draw_buildings(draw: ImageDraw.ImageDraw, index: int, level: int) -> None:
    bx0, by0, bx1, by1 = bar_box(index)
    cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2
    if level == 5:
        draw.rectangle([cx - 26, cy - 10, cx + 26, cy + 10], fill=HOTEL, outline=LINE, width=2)
        _text(draw, (cx, cy), "H", 16, True, WHITE, "mm")
        return
    vertical = side(index) in ("left", "right")
    for i in range(level):
        offset = (i - (level - 1) / 2) * 20
        hx, hy = (cx, cy + offset) if vertical else (cx + offset, cy)
        draw.rectangle([hx - 8, hy - 8, hx + 8, hy + 8], fill=HOUSE, outline=LINE, width=2)


def _draw_owner(draw: ImageDraw.ImageDraw, index: int, seat: int) -> None:
    """A strip in the owner's colour along the tile's outer edge, with the seat number."""
    x0, y0, x1, y1 = tile_box(index)
    inset = STRIP - 1
    strip = {"bottom": (x0 + 2, y1 - inset, x1 - 2, y1 - 2), "top": (x0 + 2, y0 + 2, x1 - 2, y0 + inset),
             "left": (x0 + 2, y0 + 2, x0 + inset, y1 - 2),
             "right": (x1 - inset, y0 + 2, x1 - 2, y1 - 2)}[side(index)]
    draw.rectangle(strip, fill=PLAYER_COLOURS[seat % 6])
    cx, cy = (strip[0] + strip[2]) / 2, (strip[1] + strip[3]) / 2
    _text(draw, (cx, cy), str(seat + 1), 15, True, WHITE, "mm")


def _draw_mortgaged(draw: ImageDraw.ImageDraw, index: int) -> None:
    tx0, ty0, tx1, ty1 = text_box(index)
    draw.line([tx0 + 6, ty0 + 6, tx1 - 6, ty1 - 6], fill=MORTGAGE, width=4)
    draw.line([tx0 + 6, ty1 - 6, tx1 - 6, ty0 + 6], fill=MORTGAGE, width=4)


def _token_spot(index: int, slot: int, jailed: bool) -> tuple[float, float]:
    x0, y0, x1, y1 = tile_box(index)
    if index == 10:
        if jailed:
            return x0 + 62 + (slot % 3) * 30, y0 + 78 + (slot // 3) * 22
        along = [(x0 + 18, y0 + 20 + k * 34) for k in range(3)] + [(x0 + 50 + k * 34, y1 - 18) for k in range(3)]
        return along[slot]
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return cx + (slot % 2 - 0.5) * 30, cy + (slot // 2 - 0.5) * 27 + 4


def _draw_token(draw: ImageDraw.ImageDraw, x: float, y: float, seat: int, active: bool) -> None:
    r = 14
    if active:
        draw.ellipse([x - r - 5, y - r - 5, x + r + 5, y + r + 5], fill=HIGHLIGHT, outline=LINE, width=1)
    draw.ellipse([x - r, y - r, x + r, y + r], fill=PLAYER_COLOURS[seat % 6], outline=LINE, width=2)
    _text(draw, (x, y), str(seat + 1), 17, True, WHITE, "mm")


def _draw_die(draw: ImageDraw.ImageDraw, x: float, y: float, value: int, size: int = 70) -> None:
    draw.rounded_rectangle([x, y, x + size, y + size], radius=10, fill=WHITE, outline=LINE, width=3)
    pips = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
            5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)], 6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]}
    step = size / 4
    for row, col in pips.get(value, []):
        px, py = x + step * (col + 1), y + step * (row + 1)
        draw.ellipse([px - 7, py - 7, px + 7, py + 7], fill=INK)


def _status_lines(pub: Mapping[str, Any], names: Names, locale: str) -> list[str]:
    lines: list[str] = []
    if pub["finished"]:
        lines.append(t("monopol.render.game_over", locale) + ": " + t(pub["finished"], locale))
        if pub.get("winners"):
            winners = ", ".join(seat_name(names, s) for s in pub["winners"])
            lines.append(t("monopol.render.winner", locale, names=winners))
    auction = pub["auction"]
    if auction:
        lot = (SQUARES[auction["square"]].name if auction["lot"] == "deed"
               else t(f"monopol.render.lot_{auction['lot']}", locale))
        bidder = f"({seat_name(names, auction['bidder'])})" if auction["bidder"] >= 0 else ""
        lines.append(t("monopol.render.auction", locale, lot=lot, amount=auction["high"], name=bidder))
    for debt in pub["debts"][:2]:
        lines.append(t("monopol.render.debt", locale, name=seat_name(names, debt["debtor"]), amount=debt["amount"]))
    trade = pub["trade"]
    if trade:
        card = t("monopol.render.jail_card", locale)  # the font has no key emoji
        lines.append(t("monopol.render.trade", locale, name=seat_name(names, trade["proposer"]),
                       target=seat_name(names, trade["target"]),
                       give=cash_words(trade["give"], locale).replace("🔑", card),
                       get=cash_words(trade["get"], locale).replace("🔑", card)))
    if pub["to_act"] and not pub["finished"]:
        acting = ", ".join(seat_name(names, s) for s in pub["to_act"])
        lines.append(t("monopol.render.to_act", locale, names=acting))
    return lines


def time_left(pub: Mapping[str, Any], locale: str) -> str:
    """The agreed end (option end_time) and the time left to it, from the "now" the front end put
    into the observation (the renderer reads no clock); "" without an end time."""
    end = str((pub.get("options") or {}).get("end_time") or "")
    if not end:
        return ""
    when = datetime.fromisoformat(end.replace("Z", "+00:00"))
    shown = when.strftime("%Y-%m-%d %H:%M UTC")
    now = pub.get("now")
    if not now:
        return t("monopol.render.ends_at", locale, end=shown)
    minutes = int((when - datetime.fromisoformat(str(now).replace("Z", "+00:00"))).total_seconds() // 60)
    if minutes <= 0 or pub.get("finished"):
        return t("monopol.render.time_over", locale, end=shown)
    return t("monopol.render.time_left", locale, days=minutes // 1440, hours=minutes % 1440 // 60,
             minutes=minutes % 60, end=shown)


def _draw_centre(draw: ImageDraw.ImageDraw, pub: Mapping[str, Any], names: Names, locale: str) -> None:
    left, width = CORNER + 40, SIZE - 2 * CORNER - 80
    top = CORNER + 140
    if pub["last_roll"]:
        d1, d2 = pub["last_roll"]
        _draw_die(draw, SIZE / 2 - 80, top, d1)
        _draw_die(draw, SIZE / 2 + 10, top, d2)
    round_key = "monopol.render.round_of" if pub["max_rounds"] else "monopol.render.round"
    _text(draw, (left, top + 10), t(round_key, locale, round=pub["round"], max=pub["max_rounds"]), 24, True, INK)
    left_text = time_left(pub, locale)
    if left_text:
        _text(draw, (left, top + 45), left_text, 20, False, TITLE_RED if pub["finished"] else INK)
    bank = t("monopol.render.bank_stock", locale, houses=pub["bank_houses"], hotels=pub["bank_hotels"])
    _text(draw, (left + width, top + 10), bank, 20, False, INK, "ra")
    y = top + 95
    for line in _status_lines(pub, names, locale):
        wrapped, size = _wrap(line, width, (24,), True)
        for part in wrapped[:2]:
            _text(draw, (left, y), part, size, True, TITLE_RED if pub["finished"] else INK)
            y += 31
    y += 10
    draw.line([left, y, left + width, y], fill=MUTED, width=2)
    y += 12
    bottom = SIZE - CORNER - 20
    for wrapped in recent_lines(pub, names, locale, width, bottom - y):
        for part in wrapped:
            _text(draw, (left, y), part, 21, False, INK)
            y += 26
        y += 4


def recent_lines(pub: Mapping[str, Any], names: Names, locale: str, width: int,
                 room: int) -> list[tuple[str, ...]]:
    """The newest events that fit in ``room`` pixels, wrapped, oldest first (so a turn reads in
    the order it happened)."""
    shown: list[tuple[str, ...]] = []
    for event in reversed(pub["recent"]):
        text = t(event["key"], locale, **name_params(dict(event["params"]), _as_list(names)))
        text = text.replace("🔑", t("monopol.render.jail_card", locale))
        wrapped, _ = _wrap(text, width, (21,), False)
        if len(wrapped) * 26 + 4 > room:
            break
        room -= len(wrapped) * 26 + 4
        shown.insert(0, wrapped)
    return shown


def _draw_panel(draw: ImageDraw.ImageDraw, pub: Mapping[str, Any], names: Names, locale: str) -> None:
    col_w = SIZE // 2
    for seat in range(pub["players"]):
        x0 = (seat % 2) * col_w
        y0 = SIZE + (seat // 2) * ROW_H
        colour = PLAYER_COLOURS[seat % 6]
        active = seat in pub["to_act"]
        draw.rectangle([x0 + 6, y0 + 6, x0 + col_w - 6, y0 + ROW_H - 6], fill=WHITE,
                       outline=HIGHLIGHT if active else LINE, width=5 if active else 2)
        draw.rectangle([x0 + 6, y0 + 6, x0 + 22, y0 + ROW_H - 6], fill=colour)
        name = f"{seat + 1}. {seat_name(names, seat)}"
        while font(26, True).getlength(name) > col_w - 250 and len(name) > 4:
            name = name[:-2] + "…"
        _text(draw, (x0 + 34, y0 + 14), name, 26, True, INK)
        _text(draw, (x0 + col_w - 18, y0 + 14), money(pub["cash"][seat], locale), 28, True, INK, "ra")
        notes = [t("monopol.render.worth", locale, amount=pub["net_worth"][seat])]
        if pub["bankrupt"][seat]:
            notes = [t("monopol.render.bankrupt", locale)]
        if pub["in_jail"][seat]:
            notes.append(t("monopol.render.jail", locale))
        if pub["jail_cards"][seat]:
            notes.append(t("monopol.render.jail_cards", locale, count=pub["jail_cards"][seat]))
        _text(draw, (x0 + 34, y0 + 50), " · ".join(notes), 20, False, MUTED)
        _draw_chips(draw, pub, seat, x0 + 34, y0 + 82, col_w - 52)


def _draw_chips(draw: ImageDraw.ImageDraw, pub: Mapping[str, Any], seat: int, x: int, y: int, width: int) -> None:
    """One chip per deed in board order: group colour, square number, buildings, mortgage."""
    chip_w, chip_h = 34, 30  # a chip's top-right badge counts its houses (H: hotel)
    per_row = width // (chip_w + 4)
    deeds = [i for i, owner in enumerate(pub["owner"]) if owner == seat]
    for n, index in enumerate(deeds):
        cx = x + (n % per_row) * (chip_w + 4)
        cy = y + (n // per_row) * (chip_h + 4)
        group = SQUARES[index].group
        fill = MORTGAGE if pub["mortgaged"][index] else _hex(GROUP_COLOURS[group])
        draw.rectangle([cx, cy, cx + chip_w, cy + chip_h], fill=fill, outline=LINE, width=2)
        dark = group in ("brown", "pink", "red", "green", "darkblue", "station", "utility") or pub["mortgaged"][index]
        _text(draw, (cx + chip_w / 2, cy + chip_h / 2), str(index), 16, True, WHITE if dark else INK, "mm")
        level = pub["level"][index]
        if level:
            draw.rectangle([cx + chip_w - 12, cy - 6, cx + chip_w + 4, cy + 10],
                           fill=HOTEL if level == 5 else HOUSE, outline=LINE)
            _text(draw, (cx + chip_w - 4, cy + 2), "H" if level == 5 else str(level), 13, True, WHITE, "mm")


def _board_rgb(obs: Mapping[str, Any], names: Names, locale: str) -> Image.Image:
    pub = obs["public"]
    rows = (pub["players"] + 1) // 2
    image = Image.new("RGB", (SIZE, SIZE + rows * ROW_H + 8), PANEL)
    image.paste(_static_board(normalize(locale)), (0, 0))
    draw = ImageDraw.Draw(image)
    for index, owner in enumerate(pub["owner"]):
        if owner >= 0:
            _draw_owner(draw, index, owner)
            if pub["mortgaged"][index]:
                _draw_mortgaged(draw, index)
            if pub["level"][index]:
                _draw_buildings(draw, index, pub["level"][index])
    slots: dict[tuple[int, bool], int] = {}
    for seat in range(pub["players"]):
        if pub["bankrupt"][seat]:
            continue
        spot = (pub["position"][seat], bool(pub["in_jail"][seat]))
        slot = slots.get(spot, 0)
        slots[spot] = slot + 1
        x, y = _token_spot(spot[0], slot, spot[1])
        _draw_token(draw, x, y, seat, seat == pub["turn"] and not pub["finished"])
    _draw_centre(draw, pub, names, locale)
    _draw_panel(draw, pub, names, locale)
    return image


def _sample_observation() -> dict[str, Any]:
    """A busy position used once to choose the palette: every colour the board can show."""
    owner = [-1] * 40
    level = [0] * 40
    mortgaged = [False] * 40
    for n, group in enumerate(GROUPS):
        for index in GROUPS[group]:
            owner[index] = n % 6
    for n, index in enumerate(GROUPS["lightblue"] + GROUPS["green"]):
        level[index] = n % 6
    mortgaged[5] = mortgaged[12] = True
    return {"public": {
        "players": 6, "cash": [1500, 20, 3000, 0, 870, 12345], "position": [0, 10, 10, 24, 39, 7],
        "in_jail": [False, True, False, False, False, False], "bankrupt": [False] * 5 + [True],
        "owner": owner, "level": level, "mortgaged": mortgaged, "bank_houses": 20, "bank_hotels": 11,
        "turn": 0, "round": 3, "max_rounds": 0, "last_roll": [6, 5], "net_worth": [2000] * 6,
        "jail_cards": [1, 0, 0, 0, 0, 0], "to_act": [0, 1], "finished": "",
        "auction": {"lot": "deed", "square": 39, "high": 120, "bidder": 2}, "debts": [],
        "trade": None, "recent": [{"key": "monopol.event.roll", "params": {"seat": 0, "d1": 6, "d2": 5,
                                                                         "total": 11}}]}}


@cache
def _palette() -> Image.Image:
    sample = _board_rgb(_sample_observation(), ["Åse Ødegård", "Bjørn", "Czech Ř", "D", "E", "F"], "nb")
    swatches = Image.new("RGB", (SIZE, 60), WHITE)
    draw = ImageDraw.Draw(swatches)
    colours = [*PLAYER_COLOURS, HIGHLIGHT, HOUSE, HOTEL, MORTGAGE, INK, MUTED, TITLE_RED, PANEL, TILE,
               *(_hex(c) for c in GROUP_COLOURS.values())]
    for n, colour in enumerate(colours):
        draw.rectangle([n * 40, 0, n * 40 + 39, 59], fill=colour)
    combined = Image.new("RGB", (SIZE, sample.height + 60))
    combined.paste(sample, (0, 0))
    combined.paste(swatches, (0, sample.height))
    return palette_from(combined)


# ----------------------------------------------------------------------------- public API
def render_public(obs: Mapping[str, Any], *, names: Names, locale: str = "en") -> bytes:
    """The whole board: owners, buildings, mortgages, tokens, dice, status, recent events, players."""
    image = _board_rgb(obs, names, locale)
    return encode_on_palette(image, _palette(), compress_level=1)


def render_private(obs: Mapping[str, Any], *, names: Names, locale: str = "en") -> bytes | None:
    """Monopol has no hidden information a player holds: nothing to show privately."""
    return None


ZOOM_WIDTH = 1000


def render_zoom(obs: Mapping[str, Any], *, names: Names, locale: str = "en", square: int) -> bytes:
    """Five squares around ``square`` (two either side) enlarged to 1000 px wide: the part of the
    board a player on a phone wants to read (street names, owners, houses, tokens)."""
    board = _board_rgb(obs, names, locale)
    boxes = [tile_box((square + step) % 40) for step in range(-2, 3)]
    area = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    crop = board.crop(area)
    scale = ZOOM_WIDTH / crop.width
    if crop.height * scale > 1.2 * ZOOM_WIDTH:  # a column of squares on the left or right side
        scale = 1.2 * ZOOM_WIDTH / crop.height
    size = (max(1, round(crop.width * scale)), max(1, round(crop.height * scale)))
    return encode_on_palette(crop.resize(size, Image.Resampling.LANCZOS), _palette(), compress_level=1)


@cache
def render_deed(square_index: int, *, locale: str = "en") -> bytes:
    """A deed card with its price, rents, building costs and mortgage value."""
    sq = SQUARES[square_index]
    if not sq.is_deed:
        raise ValueError(f"square {square_index} has no deed")
    width, height = 1000, 1180
    image = Image.new("RGB", (width, height), BOARD_BG)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle([40, 40, width - 40, height - 40], radius=24, fill=TILE, outline=LINE, width=5)
    head = _hex(GROUP_COLOURS[sq.group])
    draw.rectangle([80, 80, width - 80, 330], fill=head, outline=LINE, width=4)
    light = sq.group in ("lightblue", "yellow", "orange")
    draw.text((width / 2, 130), t("monopol.render.deed", locale), font=font(38, True),
              fill=INK if light else WHITE, anchor="mm")
    lines, size = _wrap(sq.name, width - 220, (76, 64, 54), True)
    _lines(draw, lines[:2], size, True, width / 2, 180, INK if light else WHITE)
    rows: list[tuple[str, str]] = [(t("monopol.render.price", locale, amount=sq.price), "")]
    if sq.kind == "street":
        rows += [(t("monopol.render.rent", locale), money(sq.rents[0], locale)),
                 (t("monopol.render.rent_set", locale), money(sq.rents[0] * 2, locale))]
        rows += [(t("monopol.render.with_houses", locale, count=n), money(sq.rents[n], locale)) for n in range(1, 5)]
        rows += [(t("monopol.render.with_hotel", locale), money(sq.rents[5], locale))]
    elif sq.kind == "station":
        rows += [(t("monopol.render.stations_owned", locale, count=n + 1), money(rent, locale))
                 for n, rent in enumerate(STATION_RENTS)]
    else:
        rows += [(t("monopol.render.utility_one", locale), ""), (t("monopol.render.utility_both", locale), "")]
    y = 380
    for label, value in rows:
        draw.text((110, y), label, font=font(40, bool(not value)), fill=INK)
        if value:
            draw.text((width - 110, y), value, font=font(40, True), fill=INK, anchor="ra")
        y += 62
    y += 20
    draw.line([110, y, width - 110, y], fill=MUTED, width=3)
    y += 30
    if sq.kind == "street":
        draw.text((width / 2, y), t("monopol.render.house_cost", locale, amount=sq.house_cost), font=font(36),
                  fill=INK, anchor="ma")
        y += 54
        draw.text((width / 2, y), t("monopol.render.hotel_cost", locale, amount=sq.house_cost), font=font(36),
                  fill=INK, anchor="ma")
        y += 54
    draw.text((width / 2, y), t("monopol.render.mortgage_value", locale, amount=sq.mortgage), font=font(36, True),
              fill=INK, anchor="ma")
    return encode_png(image.quantize(colors=64, method=Image.Quantize.FASTOCTREE))
