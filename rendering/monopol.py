"""Monopol images from observations: the whole board with a player panel, the focus view of what
changed (readable on a phone), the five-square zoom and single deed cards.

The board's squares (names, prices, colour bars) are drawn once and cached (rendering/monopol_board.py);
each call copies that layer, draws owners, buildings, mortgages, tokens, dice, status and the player
panel, and maps the result onto a fixed 256-colour palette (taken once from a full sample render),
which is far faster to encode than an RGB PNG. Street names are the Norwegian board's in every language.
"""
from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.monopol.board import GROUP_COLOURS, GROUPS, SQUARES, STATION_RENTS
from bot.i18n import money, normalize, t
from bot.services.text import cash_words, name_params
from rendering.kit import draw_text, encode_on_palette, encode_png, fit, hinted_square, palette_from, seat_name
from rendering.monopol_board import (
    BAND,
    BOARD_BG,
    CORNER,
    HIGHLIGHT,
    HOTEL,
    HOUSE,
    INK,
    LINE,
    MORTGAGE,
    MUTED,
    PANEL,
    PLAYER_COLOURS,
    PLAYER_INK,
    ROW_H,
    SIZE,
    TILE,
    TITLE_RED,
    WHITE,
    Names,
    draw_die,
    draw_label,
    draw_lines,
    draw_pieces,
    draw_token,
    hex_colour,
    side,
    static_board,
    tile_box,
    wrap,
)
from rendering.monopol_words import describe_public  # noqa: F401 - the console's status in words
from rendering.result import render_standings

__all__ = ["PLAYER_COLOURS", "recent_lines", "render_deed", "render_focus", "render_private", "render_public",
           "render_zoom", "tile_box"]


def _as_list(names: Names) -> list[str]:
    """Names by seat as a list (they may come as a mapping keyed by seat)."""
    if isinstance(names, Mapping):
        return [seat_name(names, seat) for seat in range(len(names))]
    return list(names)



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
    left, width = CORNER + BAND + 4, SIZE - 2 * (CORNER + BAND + 4)
    top = CORNER + 158
    if pub["last_roll"]:
        d1, d2 = pub["last_roll"]
        draw_die(draw, SIZE / 2 - 80, top, d1)
        draw_die(draw, SIZE / 2 + 10, top, d2)
    round_key = "monopol.render.round_of" if pub["max_rounds"] else "monopol.render.round"
    draw_label(draw, (left, top + 10), t(round_key, locale, round=pub["round"], max=pub["max_rounds"]), 24, True, INK)
    left_text = time_left(pub, locale)
    if left_text:
        draw_label(draw, (left, top + 45), left_text, 20, False, TITLE_RED if pub["finished"] else INK)
    bank = t("monopol.render.bank_stock", locale, houses=t("monopol.render.houses", locale, count=pub["bank_houses"]),
             hotels=t("monopol.render.hotels", locale, count=pub["bank_hotels"]))
    draw_label(draw, (left + width, top + 10), bank, 20, False, INK, "ra")
    y = top + 95
    for line in _status_lines(pub, names, locale):
        wrapped, size = wrap(line, width, (24,), True)
        for part in wrapped[:2]:
            draw_label(draw, (left, y), part, size, True, TITLE_RED if pub["finished"] else INK)
            y += 31
    y += 10
    draw.line([left, y, left + width, y], fill=MUTED, width=2)
    y += 12
    bottom = SIZE - CORNER - BAND - 6  # above the band of the bottom row's tokens
    for wrapped in recent_lines(pub, names, locale, width, bottom - y):
        for part in wrapped:
            draw_label(draw, (left, y), part, 21, False, INK)
            y += 26
        y += 4


def recent_lines(pub: Mapping[str, Any], names: Names, locale: str, width: int,
                 room: int, size: int = 21) -> list[tuple[str, ...]]:
    """The newest events that fit in ``room`` pixels, wrapped, oldest first (so a turn reads in
    the order it happened)."""
    shown: list[tuple[str, ...]] = []
    for event in reversed(pub["recent"]):
        text = t(event["key"], locale, **name_params(dict(event["params"]), _as_list(names)))
        text = text.replace("🔑", t("monopol.render.jail_card", locale))
        wrapped, _ = wrap(text, width, (size,), False)
        if len(wrapped) * (size + 5) + 4 > room:
            break
        room -= len(wrapped) * (size + 5) + 4
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
        draw.rectangle([x0 + 6, y0 + 6, x0 + 22, y0 + ROW_H - 6], fill=colour, outline=LINE)
        draw_token(draw, x0 + 50, y0 + 30, seat, False)
        name = fit(seat_name(names, seat), 26, col_w - 290, True)
        draw_label(draw, (x0 + 74, y0 + 14), name, 26, True, INK)
        draw_label(draw, (x0 + col_w - 18, y0 + 14), money(pub["cash"][seat], locale), 28, True, INK, "ra")
        notes = [t("monopol.render.worth", locale, amount=pub["net_worth"][seat])]
        if pub["bankrupt"][seat]:
            notes = [t("monopol.render.bankrupt", locale)]
        if pub["in_jail"][seat]:
            notes.append(t("monopol.render.jail", locale))
        if pub["jail_cards"][seat]:
            notes.append(t("monopol.render.jail_cards", locale, count=pub["jail_cards"][seat]))
        draw_label(draw, (x0 + 34, y0 + 50), " · ".join(notes), 20, False, MUTED)
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
        fill = MORTGAGE if pub["mortgaged"][index] else hex_colour(GROUP_COLOURS[group])
        draw.rectangle([cx, cy, cx + chip_w, cy + chip_h], fill=fill, outline=LINE, width=2)
        dark = group in ("brown", "pink", "red", "green", "darkblue", "station", "utility") or pub["mortgaged"][index]
        draw_label(draw, (cx + chip_w / 2, cy + chip_h / 2), str(index), 16, True, WHITE if dark else INK, "mm")
        level = pub["level"][index]
        if level:
            draw.rectangle([cx + chip_w - 12, cy - 6, cx + chip_w + 4, cy + 10],
                           fill=HOTEL if level == 5 else HOUSE, outline=LINE)
            draw_label(draw, (cx + chip_w - 4, cy + 2), "H" if level == 5 else str(level), 13, True, WHITE, "mm")


def _board_rgb(obs: Mapping[str, Any], names: Names, locale: str) -> Image.Image:
    pub = obs["public"]
    rows = (pub["players"] + 1) // 2
    image = Image.new("RGB", (SIZE, SIZE + rows * ROW_H + 8), PANEL)
    image.paste(static_board(normalize(locale)), (0, 0))
    draw = ImageDraw.Draw(image)
    draw_pieces(draw, pub)
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
    colours = [*PLAYER_COLOURS, *PLAYER_INK, HIGHLIGHT, HOUSE, HOTEL, MORTGAGE, INK, MUTED, TITLE_RED, PANEL, TILE,
               *(hex_colour(c) for c in GROUP_COLOURS.values())]
    for n, colour in enumerate(colours):
        draw.rectangle([n * 40, 0, n * 40 + 39, 59], fill=colour)
    combined = Image.new("RGB", (SIZE, sample.height + 60))
    combined.paste(sample, (0, 0))
    combined.paste(swatches, (0, sample.height))
    return palette_from(combined)


# ----------------------------------------------------------------------------- public API
def render_public(obs: Mapping[str, Any], *, names: Names, locale: str = "en", theme: str = "dark") -> bytes:
    """The whole board: owners, buildings, mortgages, tokens, dice, status, recent events, players."""
    image = _board_rgb(obs, names, locale)
    return encode_on_palette(image, _palette(), compress_level=1)


def render_private(obs: Mapping[str, Any], *, names: Names, locale: str = "en", theme: str = "dark") -> bytes | None:
    """Monopol has no hidden information a player holds: nothing to show privately."""
    return None


ZOOM_WIDTH = 1000


def render_zoom(obs: Mapping[str, Any], *, names: Names, locale: str = "en", square: int, theme: str = "dark") -> bytes:
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


# ----------------------------------------------------------------------------- focus view
# The focus view's legibility depends only on how much board it crops: up to 505 board pixels
# across (five squares of a row) or three squares of a column, so a 12 px street name is at least
# 9.5 px high whenever the view is shown 400 px wide. 800 px wide keeps its PNG small and quick.
FOCUS_WIDTH = 800
FOCUS_COLUMN_H = 440  # the height a side column's three squares are drawn at
FOCUS_CARD_H = 196  # the card under a row of squares


def focus_square(pub: Mapping[str, Any], event_hint: Any = None) -> int:
    """The square a turn's focus view shows: the one ``event_hint`` names (a square number or a
    public event with a square), else the square of the newest event that has one (the token that
    moved, the street just bought, built on or mortgaged), else where the player to act stands."""
    hinted = hinted_square(event_hint)
    if isinstance(hinted, int) and not isinstance(hinted, bool) and 0 <= hinted < len(SQUARES):
        return hinted
    for event in reversed(pub["recent"]):
        square = event["params"].get("square")
        if isinstance(square, int) and 0 <= square < len(SQUARES):
            return square
    return int(pub["position"][pub["turn"]])


def focus_area(square: int, crowded: bool = False) -> tuple[tuple[int, int, int, int], float]:
    """The board area around ``square`` a focus view shows (with the band of tokens in front of it,
    two rows deep when ``crowded``) and the scale it is drawn at: up to five squares of a row across
    800 px, three of a side column 440 px high. Street names and prices (12–15 px on the board) come
    out at 24 px or more, at least 9 px when the view is shown 400 px wide."""
    where = side(square) if square % 10 else ("bottom" if square in (0, 10) else "top")
    row = where in ("bottom", "top")
    if row:
        indices = [(square + step) % 40 for step in (-2, -1, 0, 1, 2)]
        indices = [i for i in indices if side(i) == where or i % 10 == 0]
    else:  # three squares of the column, never a corner (too tall to enlarge enough)
        first = square - square % 10 + 1
        middle = min(max(square, first + 1), first + 7)
        indices = [middle - 1, middle, middle + 1]
    boxes = [tile_box(i) for i in indices]
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    depth = 2 * BAND - 6 if crowded else BAND  # one or two rows of tokens
    if where == "bottom":
        y0 -= depth
    elif where == "top":
        y1 += depth
    elif where == "left":
        x1 += depth
    else:
        x0 -= depth
    area = (max(0, x0), max(0, y0), min(SIZE, x1), min(SIZE, y1))
    width, height = area[2] - area[0], area[3] - area[1]
    scale = FOCUS_WIDTH / width if row else FOCUS_COLUMN_H / height
    return area, scale


def _rent_line(pub: Mapping[str, Any], square: int, locale: str) -> str:
    """What landing on an owned deed costs now, in the deed card's words."""
    sq, owner = SQUARES[square], pub["owner"][square]
    owned = [i for i in GROUPS.get(sq.group, ()) if pub["owner"][i] == owner]
    if sq.kind == "street":
        level = pub["level"][square]
        if level == 5:
            return f"{t('monopol.render.with_hotel', locale)}: {money(sq.rents[5], locale)}"
        if level:
            return f"{t('monopol.render.with_houses', locale, count=level)}: {money(sq.rents[level], locale)}"
        if len(owned) == len(GROUPS[sq.group]):
            return f"{t('monopol.render.rent_set', locale)}: {money(sq.rents[0] * 2, locale)}"
        return f"{t('monopol.render.rent', locale)}: {money(sq.rents[0], locale)}"
    if sq.kind == "station":
        count = len(owned)
        return f"{t('monopol.render.stations_owned', locale, count=count)}: {money(STATION_RENTS[count - 1], locale)}"
    return t("monopol.render.utility_both" if len(owned) == 2 else "monopol.render.utility_one", locale)


def _focus_card(draw: ImageDraw.ImageDraw, pub: Mapping[str, Any], square: int, names: Names, locale: str,
                box: tuple[int, int, int, int]) -> None:
    """The focus square's name, price, owner and rent now, under the newest event, all at 22–28 px
    (at least 11 px when the 800 px view is shown 400 px wide)."""
    x0, y0, x1, y1 = box
    width = x1 - x0 - 32
    x, y = x0 + 16, y0 + 10
    for wrapped in recent_lines(pub, names, locale, width, 160, size=22)[-2:]:
        for part in wrapped:
            draw_label(draw, (x, y), part, 22, False, INK)
            y += 27
    y += 4
    draw.line([x, y, x + width, y], fill=MUTED, width=2)
    y += 10
    sq = SQUARES[square]
    if sq.group:
        draw.rectangle([x, y + 3, x + 22, y + 29], fill=hex_colour(GROUP_COLOURS[sq.group]), outline=LINE, width=2)
    name_x = x + (32 if sq.group else 0)
    draw_label(draw, (name_x, y), fit(sq.name, 28, x + width - name_x, True), 28, True, INK)
    y += 38
    lines: list[str] = []
    if sq.is_deed:
        owner = pub["owner"][square]
        lines.append(t("monopol.render.price", locale, amount=sq.price))
        if owner < 0:
            lines.append(t("monopol.render.for_sale", locale))
        else:
            draw_token(draw, x + 14, y + 15, owner, False, r=14)
            draw_label(draw, (x + 38, y), fit(t("monopol.render.owner", locale, name=seat_name(names, owner)), 26,
                                             width - 38, True), 26, True, INK)
            y += 34
            lines.append(t("monopol.render.mortgaged", locale) if pub["mortgaged"][square]
                         else _rent_line(pub, square, locale))
    elif sq.amount:
        lines.append(money(sq.amount, locale))
    for line in lines:
        for part in wrap(line, width, (26,), True)[0][:2]:
            draw_label(draw, (x, y), part, 26, True, INK)
            y += 33


def render_focus(obs: Mapping[str, Any], *, names: Names, locale: str = "en", event_hint: Any = None,
                 theme: str = "dark") -> bytes:
    """What changed this turn, readable on a phone beside the full board: the squares around the
    focus square (see ``focus_square``) enlarged with their tokens, owners and houses, and a card
    with the newest events and that square's name, price, owner and rent now. Only the static board
    and the pieces are drawn (no centre, no player panel), so it costs far less than the board."""
    pub = obs["public"]
    square = focus_square(pub, event_hint)
    layer = static_board(normalize(locale)).copy()
    draw_pieces(ImageDraw.Draw(layer), pub)
    standing = [pub["position"][seat] for seat in range(pub["players"]) if not pub["bankrupt"][seat]]
    area, scale = focus_area(square, crowded=max(standing.count(p) for p in set(standing)) > 3)
    crop = layer.crop(area)
    size = (round(crop.width * scale), round(crop.height * scale))
    strip = crop.resize(size, Image.Resampling.BILINEAR)
    if size[0] >= FOCUS_WIDTH - 1:  # a row: the squares on top, the card under them
        image = Image.new("RGB", (FOCUS_WIDTH, size[1] + FOCUS_CARD_H), PANEL)
        card = (0, size[1], FOCUS_WIDTH, size[1] + FOCUS_CARD_H)
    else:  # a side column: the squares on the left, the card beside them
        image = Image.new("RGB", (FOCUS_WIDTH, size[1]), PANEL)
        card = (size[0], 0, FOCUS_WIDTH, image.height)
    image.paste(strip, (0, 0))
    draw = ImageDraw.Draw(image)
    _focus_card(draw, pub, square, names, locale, card)
    return encode_on_palette(image, _palette(), compress_level=1)


@cache
def render_deed(square_index: int, *, locale: str = "en", theme: str = "dark") -> bytes:
    """A deed card with its price, rents, building costs and mortgage value."""
    sq = SQUARES[square_index]
    if not sq.is_deed:
        raise ValueError(f"square {square_index} has no deed")
    width, height = 1000, 1180
    image = Image.new("RGB", (width, height), BOARD_BG)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle([40, 40, width - 40, height - 40], radius=24, fill=TILE, outline=LINE, width=5)
    head = hex_colour(GROUP_COLOURS[sq.group])
    draw.rectangle([80, 80, width - 80, 330], fill=head, outline=LINE, width=4)
    light = sq.group in ("lightblue", "yellow", "orange")
    draw_text(draw, (width / 2, 130), t("monopol.render.deed", locale), 38, bold=True,
              fill=INK if light else WHITE, anchor="mm")
    lines, size = wrap(sq.name, width - 220, (76, 64, 54), True)
    draw_lines(draw, lines[:2], size, True, width / 2, 180, INK if light else WHITE)
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
        draw_text(draw, (110, y), label, 40, bold=not value, fill=INK)
        if value:
            draw_text(draw, (width - 110, y), value, 40, bold=True, fill=INK, anchor="ra")
        y += 62
    y += 20
    draw.line([110, y, width - 110, y], fill=MUTED, width=3)
    y += 30
    if sq.kind == "street":
        draw_text(draw, (width / 2, y), t("monopol.render.house_cost", locale, amount=sq.house_cost), 36,
                  fill=INK, anchor="ma")
        y += 54
        draw_text(draw, (width / 2, y), t("monopol.render.hotel_cost", locale, amount=sq.house_cost), 36,
                  fill=INK, anchor="ma")
        y += 54
    draw_text(draw, (width / 2, y), t("monopol.render.mortgage_value", locale, amount=sq.mortgage), 36, bold=True,
              fill=INK, anchor="ma")
    return encode_png(image.quantize(colors=64, method=Image.Quantize.FASTOCTREE))


def render_result(obs: Mapping[str, Any], *, names: Names, locale: str = "en", theme: str = "dark") -> bytes:
    """The standings picture a finished game ends on (rendering/result.py)."""
    return render_standings(obs, names=names, locale=locale, theme=theme)
