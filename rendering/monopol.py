"""Monopol images from observations: the whole board with a player panel, the focus view of what
changed (readable on a phone), the five-square zoom and single deed cards.

The board's squares (names, prices, colour bars) are drawn once and cached (rendering/monopol_board.py);
each call copies that layer, draws owners, buildings, mortgages, tokens, dice, status and the player
panel, and maps the result onto a fixed 256-colour palette (taken once from a full sample render),
which is far faster to encode than an RGB PNG. Street names are the Norwegian board's in every language.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from datetime import datetime
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.monopol.board import GROUP_COLOURS, GROUPS, SQUARES, STATION_RENTS
from bot.i18n import money, normalize, t
from bot.services.text import cash_words, name_params
from rendering.alt import Obs, acting, title
from rendering.kit import (
    draw_text,
    encode_on_palette,
    encode_png,
    fit,
    hinted_square,
    palette_from,
    seat_name,
    text_length,
)
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
    TOKEN_R,
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
    token_spot,
    wrap,
)
from rendering.monopol_board import paint as board_paint
from rendering.monopol_words import describe_public  # noqa: F401 - the console's status in words
from rendering.news import news_of
from rendering.png import encode_banded
from rendering.result import render_standings
from rendering.standings import Places, ranked
from rendering.theme import (
    THEMES,
    Header,
    Theme,
    draw_header,
    fit_lines,
    header_boxes,
    header_height,
    theme_of,
)

__all__ = ["PLAYER_COLOURS", "recent_lines", "render_deed", "render_focus", "render_private", "render_public",
           "render_zoom", "tile_box"]


Box = tuple[int, int, int, int]


def _as_list(names: Names) -> list[str]:
    """Names by seat as a list (they may come as a mapping keyed by seat)."""
    if isinstance(names, Mapping):
        return [seat_name(names, seat) for seat in range(len(names))]
    return list(names)



def auction_words(pub: Mapping[str, Any], names: Names, locale: str) -> str:
    """"Auction: Prinsens gate · best bid kr 1,013 (Bo)", "" when no auction runs."""
    auction = pub["auction"]
    if not auction:
        return ""
    lot = (SQUARES[auction["square"]].name if auction["lot"] == "deed"
           else t(f"monopol.render.lot_{auction['lot']}", locale))
    bidder = f"({seat_name(names, auction['bidder'])})" if auction["bidder"] >= 0 else ""
    return t("monopol.render.auction", locale, lot=lot, amount=auction["high"], name=bidder).strip()


def _status_lines(pub: Mapping[str, Any], names: Names, locale: str) -> list[str]:
    """What the centre of the board tells besides the header: debts and a trade on the table."""
    lines: list[str] = []
    for debt in pub["debts"][:2]:
        lines.append(t("monopol.render.debt", locale, name=seat_name(names, debt["debtor"]), amount=debt["amount"]))
    trade = pub["trade"]
    if trade:
        card = t("monopol.render.jail_card", locale)  # the font has no key emoji
        lines.append(t("monopol.render.trade", locale, name=seat_name(names, trade["proposer"]),
                       target=seat_name(names, trade["target"]),
                       give=cash_words(trade["give"], locale).replace("🔑", card),
                       get=cash_words(trade["get"], locale).replace("🔑", card)))
    return lines


def header(pub: Mapping[str, Any], names: Names, locale: str, event_hint: Any = None) -> Header:
    """The round; who acts with the mover's cash (or, during an auction, the lot, the high bid and
    the bidder, and who may still bid); what just happened (the hint's event or the newest one)."""
    round_key = "monopol.render.round_of" if pub["max_rounds"] else "monopol.render.round"
    title = f"{t('game.name.monopol', locale)} · {t(round_key, locale, round=pub['round'], max=pub['max_rounds'])}"
    news = news_of(event_hint, names, locale)
    if not news and pub["recent"]:
        news = news_of(pub["recent"][-1], names, locale)
    if pub["finished"]:
        winners = ", ".join(seat_name(names, s) for s in pub.get("winners") or [])
        acting = t("monopol.render.winner", locale, names=winners) if winners else t("monopol.render.game_over",
                                                                                       locale)
        return Header(title, acting=acting, news=t(pub["finished"], locale), finished=True)
    auction = auction_words(pub, names, locale)
    if auction:
        waiting = t("monopol.render.to_act", locale, names=", ".join(seat_name(names, s) for s in pub["to_act"]))
        return Header(title, acting=auction, news=f"{waiting} · {news}" if news else waiting)
    acting_seats = pub["to_act"] or [pub["turn"]]
    if acting_seats == [pub["turn"]]:
        acting = t("render.monopol.mover", locale, name=seat_name(names, pub["turn"]), money=pub["cash"][pub["turn"]])
    else:
        acting = t("monopol.render.to_act", locale, names=", ".join(seat_name(names, s) for s in acting_seats))
    return Header(title, acting=acting, news=news, right=time_left(pub, locale))


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


def _draw_centre(draw: ImageDraw.ImageDraw, pub: Mapping[str, Any], names: Names, locale: str, th: Theme,
                 drawn: list[Box] | None = None) -> None:
    """The dice, the bank's stock, debts and a trade on the table, and the newest events; the boxes
    of what was drawn (a few pixels to spare) are added to ``drawn``: the rest of the centre is
    the static board's ground."""
    boxes: list[Box] = [] if drawn is None else drawn
    left, width = CORNER + BAND + 4, SIZE - 2 * (CORNER + BAND + 4)
    top = CORNER + 158
    ink = board_paint(th.name).ink
    if pub["last_roll"]:
        d1, d2 = pub["last_roll"]
        for x, value in ((SIZE / 2 - 80, d1), (SIZE / 2 + 10, d2)):
            draw_die(draw, x, top, value)
            boxes.append(_grown((int(x), top, int(x) + 71, top + 71)))
    bank = t("monopol.render.bank_stock", locale, houses=t("monopol.render.houses", locale, count=pub["bank_houses"]),
             hotels=t("monopol.render.hotels", locale, count=pub["bank_hotels"]))
    boxes.append(_grown(draw_label(draw, (left + width, top + 10), bank, 20, False, ink, "ra")))
    y = top + 95
    for line in _status_lines(pub, names, locale):
        wrapped, size = wrap(line, width, (24,), True)
        for part in wrapped[:2]:
            boxes.append(_grown(draw_label(draw, (left, y), part, size, True, ink)))
            y += 31
    y += 10
    draw.line([left, y, left + width, y], fill=board_paint(th.name).muted, width=2)
    boxes.append(_grown((left, y - 1, left + width + 1, y + 2)))
    y += 12
    bottom = SIZE - CORNER - BAND - 6  # above the band of the bottom row's tokens
    for wrapped in recent_lines(pub, names, locale, width, bottom - y):
        for part in wrapped:
            boxes.append(_grown(draw_label(draw, (left, y), part, 21, False, ink)))
            y += 26
        y += 4


def _grown(box: Box, by: int = 2) -> Box:
    """``box`` with ``by`` pixels to spare on every side (a box mapped again may be too big, never
    too small)."""
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


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


def _panel_cell(pub: Mapping[str, Any], seat: int, names: Names, locale: str) -> tuple[Any, ...]:
    """All a player's panel cell shows, as a key: an unchanged cell is pasted from the cache."""
    deeds = tuple((i, pub["level"][i], bool(pub["mortgaged"][i])) for i, owner in enumerate(pub["owner"])
                  if owner == seat)
    return (seat, seat_name(names, seat), pub["cash"][seat], pub["net_worth"][seat], bool(pub["bankrupt"][seat]),
            bool(pub["in_jail"][seat]), pub["jail_cards"][seat], deeds, seat in pub["to_act"], locale)


@lru_cache(maxsize=4)
def _cell_frame(active: bool, theme: str) -> Image.Image:
    """A player's panel cell before its contents: the rounded frame (ringed for the player to act)."""
    th = theme_of(theme)
    col_w = SIZE // 2
    image = Image.new("RGB", (col_w, ROW_H), th.background)
    ImageDraw.Draw(image).rounded_rectangle([6, 6, col_w - 6, ROW_H - 6], radius=10,
                                            fill=th.surface_turn if active else th.surface,
                                            outline=th.turn if active else th.line, width=5 if active else 2)
    return image


@lru_cache(maxsize=512)
def _cell(key: tuple[Any, ...], theme: str) -> Image.Image:
    """One player's panel cell: token, name (whole: shrunk, then on two lines), cash, net worth,
    jail, and a chip per deed."""
    seat, name, cash, worth, bankrupt, jailed, jail_cards, deeds, active, locale = key
    th = theme_of(theme)
    col_w = SIZE // 2
    image = _cell_frame(active, theme).copy()
    draw = ImageDraw.Draw(image)
    draw.rectangle([8, 12, 22, ROW_H - 12], fill=PLAYER_COLOURS[seat % 6], outline=LINE)
    draw_token(draw, 50, 30, seat, False)
    amount = money(cash, locale)
    amount_w = int(text_length(amount, 28, True))
    lines, size = fit_lines(name, col_w - 74 - amount_w - 30, 26, 20, True)
    y = 14 if len(lines) == 1 else 6
    for line in lines:
        draw_label(draw, (74, y), line, size, True, th.turn if active else th.ink)
        y += size + 2
    draw_label(draw, (col_w - 18, 14), amount, 28, True, th.ink, "ra")
    notes = [t("monopol.render.bankrupt", locale)] if bankrupt else [t("monopol.render.worth", locale, amount=worth)]
    if jailed:
        notes.append(t("monopol.render.jail", locale))
    if jail_cards:
        notes.append(t("monopol.render.jail_cards", locale, count=jail_cards))
    draw_label(draw, (34, max(50, y + 2)), " · ".join(notes), 20, False, th.danger if bankrupt else th.muted)
    _draw_chips(draw, deeds, 34, max(82, y + 34), col_w - 52)
    return image


def _draw_chips(draw: ImageDraw.ImageDraw, deeds: tuple[tuple[int, int, bool], ...], x: int, y: int,
                width: int) -> None:
    """One chip per deed in board order: group colour, square number, buildings, mortgage."""
    chip_w, chip_h = 34, 30  # a chip's top-right badge counts its houses (H: hotel)
    per_row = width // (chip_w + 4)
    for n, (index, level, mortgaged) in enumerate(deeds):
        cx = x + (n % per_row) * (chip_w + 4)
        cy = y + (n // per_row) * (chip_h + 4)
        group = SQUARES[index].group
        fill = MORTGAGE if mortgaged else hex_colour(GROUP_COLOURS[group])
        draw.rectangle([cx, cy, cx + chip_w, cy + chip_h], fill=fill, outline=LINE, width=2)
        dark = group in ("brown", "pink", "red", "green", "darkblue", "station", "utility") or mortgaged
        draw_label(draw, (cx + chip_w / 2, cy + chip_h / 2), str(index), 16, True, WHITE if dark else INK, "mm")
        if level:
            draw.rectangle([cx + chip_w - 12, cy - 6, cx + chip_w + 4, cy + 10],
                           fill=HOTEL if level == 5 else HOUSE, outline=LINE)
            draw_label(draw, (cx + chip_w - 4, cy + 2), "H" if level == 5 else str(level), 13, True, WHITE, "mm")


def _board_layer(pub: Mapping[str, Any], names: Names, locale: str, th: Theme,
                 centre: list[Box] | None = None) -> Image.Image:
    """The square board with owners, buildings, tokens, dice and the centre's texts (the boxes of
    the centre's drawings go to ``centre``)."""
    board = static_board(normalize(locale), th.name).copy()
    draw = ImageDraw.Draw(board)
    draw_pieces(draw, pub, ring=th.turn)
    _draw_centre(draw, pub, names, locale, th, centre)
    return board


def _board_rgb(obs: Mapping[str, Any], names: Names, locale: str, theme: str = "dark",
               event_hint: Any = None) -> Image.Image:
    pub = obs["public"]
    th = theme_of(theme)
    head = header(pub, names, locale, event_hint)
    top = header_height(head, SIZE)
    rows = (pub["players"] + 1) // 2
    image = Image.new("RGB", (SIZE, top + SIZE + rows * ROW_H + 8), th.background)
    image.paste(_board_layer(pub, names, locale, th), (0, top))
    draw_header(image, head, th)
    for seat in range(pub["players"]):
        image.paste(_cell(_panel_cell(pub, seat, names, locale), th.name),
                    ((seat % 2) * (SIZE // 2), top + SIZE + (seat // 2) * ROW_H))
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
def _palette(theme: str = "dark") -> Image.Image:
    th = theme_of(theme if theme in THEMES else "dark")
    sample = _board_rgb(_sample_observation(), ["Åse Ødegård", "Bjørn", "Czech Ř", "D", "E", "F"], "nb", th.name)
    swatches = Image.new("RGB", (SIZE, 60), WHITE)
    draw = ImageDraw.Draw(swatches)
    p = board_paint(th.name)
    colours = [*PLAYER_COLOURS, *PLAYER_INK, HIGHLIGHT, HOUSE, HOTEL, MORTGAGE, INK, MUTED, TITLE_RED, PANEL, TILE,
               p.ground, p.tile, p.ink, p.muted, th.turn, th.last, th.surface, th.surface_turn, th.header, th.danger,
               *(hex_colour(c) for c in GROUP_COLOURS.values())]
    for n, colour in enumerate(colours):
        draw.rectangle([n * 30, 0, n * 30 + 29, 59], fill=colour)
    combined = Image.new("RGB", (SIZE, sample.height + 60))
    combined.paste(sample, (0, 0))
    combined.paste(swatches, (0, sample.height))
    return palette_from(combined)


# ----------------------------------------------------------------------------- public API
def render_public(obs: Mapping[str, Any], *, names: Names, locale: str = "en", theme: str = "dark",
                  event_hint: Any = None) -> bytes:
    """The whole board under the shared header: owners, buildings, mortgages, tokens, dice,
    debts, trades, recent events, and the players."""
    return encode_banded(board_picture(obs, names, locale, theme, event_hint))


def _mapped(image: Image.Image, theme: str) -> Image.Image:
    return image.quantize(palette=_palette(theme), dither=Image.Dither.NONE)


@lru_cache(maxsize=512)
def _mapped_cell(key: tuple[Any, ...], theme: str) -> Image.Image:
    """A player's panel cell already on the palette: an unchanged cell costs a paste."""
    return _mapped(_cell(key, theme), theme)


@lru_cache(maxsize=16)
def _static_mapped(locale: str, theme: str) -> Image.Image:
    """The static board already on the palette: each board starts as a copy of it."""
    return _mapped(static_board(locale, theme), theme)


@lru_cache(maxsize=8)  # about 2 MB each; a header is one of a few heights
def _blank(top: int, rows: int, language: str, theme: str) -> Image.Image:
    """A board picture before what changes from turn to turn: the header's ground, the static
    board on the palette under it and the ground of ``rows`` rows of player cells."""
    th = theme_of(theme)
    image = Image.new("P", (SIZE, top + SIZE + rows * ROW_H + 8), 0)
    image.putpalette(_palette(theme).getpalette() or [])
    image.paste(_ground_index(th.header, theme), (0, 0, SIZE, top))
    image.paste(_static_mapped(language, theme), (0, top))
    image.paste(_ground_mapped((SIZE, rows * ROW_H + 8), theme), (0, top + SIZE))
    return image


@lru_cache(maxsize=64)
def _ground_index(colour: tuple[int, int, int], theme: str) -> int:
    """The palette index a flat colour maps to."""
    return int(_mapped(Image.new("RGB", (1, 1), colour), theme).getpixel((0, 0)))  # type: ignore[arg-type]


@lru_cache(maxsize=64)
def _ground_mapped(size: tuple[int, int], theme: str) -> Image.Image:
    return _mapped(Image.new("RGB", size, theme_of(theme).background), theme)




def _square_box(index: int) -> Box:
    """An owned square's part of the board: a hotel stands wider than its colour bar, 14 px past
    the square's edge."""
    x0, y0, x1, y1 = tile_box(index)
    return max(0, x0 - 14), max(0, y0 - 14), min(SIZE, x1 + 14), min(SIZE, y1 + 14)


def _token_boxes(pub: Mapping[str, Any]) -> list[Box]:
    """Each token still in the game with its ring (the player to act's disc)."""
    boxes = []
    slots: dict[tuple[int, bool], int] = {}
    reach = TOKEN_R + 8
    for seat in range(pub["players"]):
        if pub["bankrupt"][seat]:
            continue
        spot = (pub["position"][seat], bool(pub["in_jail"][seat]))
        slot = slots.get(spot, 0)
        slots[spot] = slot + 1
        x, y = token_spot(spot[0], slot, spot[1])
        boxes.append((max(0, int(x - reach)), max(0, int(y - reach)), min(SIZE, int(x + reach) + 1),
                      min(SIZE, int(y + reach) + 1)))
    return boxes


CENTRE_BOX: Box = (CORNER + BAND, CORNER + 150, SIZE - CORNER - BAND, SIZE - CORNER - BAND)


def _clipped(box: Box, within: Box) -> Box:
    return max(box[0], within[0]), max(box[1], within[1]), min(box[2], within[2]), min(box[3], within[3])


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _square_state(pub: Mapping[str, Any], index: int) -> tuple[int, int, bool]:
    return pub["owner"][index], pub["level"][index], bool(pub["mortgaged"][index])


# An owned square's part of the board, already on the palette, by all that is drawn in it: its
# own and its neighbours' owner, buildings and mortgage (a box reaches 14 px into each neighbour;
# next to a corner also into the box of the square past the corner, whose houses it may show),
# the locale (street names) and the theme. Tokens and the centre are pasted over the
# squares afterwards, so a box is kept only when no token stood in it.
_SQUARES: OrderedDict[tuple[Any, ...], Image.Image] = OrderedDict()
_SQUARES_LOCK = threading.Lock()  # boards are drawn in a pool of threads
SQUARES_KEPT = 1024  # about 20 KB each


@cache
def _neighbours(index: int) -> tuple[int, ...]:
    """The squares whose box overlaps ``index``'s: what they draw may show in it."""
    return tuple(other for other in range(40) if other != index and _overlaps(_square_box(index), _square_box(other)))


def _mapped_square(layer: Image.Image, pub: Mapping[str, Any], index: int, box: Box, tokens: list[Box],
                   locale: str, theme: str) -> Image.Image:
    key = (index, _square_state(pub, index), *(_square_state(pub, other) for other in _neighbours(index)), locale,
           theme)
    with _SQUARES_LOCK:
        found = _SQUARES.get(key)
        if found is not None:
            _SQUARES.move_to_end(key)
            return found
    mapped = _mapped(layer.crop(box), theme)
    if not any(_overlaps(box, token) for token in tokens):
        with _SQUARES_LOCK:
            _SQUARES[key] = mapped
            _SQUARES.move_to_end(key)
            while len(_SQUARES) > SQUARES_KEPT:
                _SQUARES.popitem(last=False)
    return mapped


def board_top(obs: Mapping[str, Any], names: Names, locale: str = "en", event_hint: Any = None) -> int:
    """Where the square board (the coordinates of ``tile_box``) starts in the picture: under the header."""
    return header_height(header(obs["public"], names, locale, event_hint), SIZE)


def board_picture(obs: Mapping[str, Any], names: Names, locale: str = "en", theme: str = "dark",
                  event_hint: Any = None) -> Image.Image:
    """The board as a palette picture, put together from parts mapped onto the palette apart:
    the header and the board each time, the player cells only when they changed (cached). What
    is the same as last turn then also compresses from the band cache (rendering/png.py)."""
    pub = obs["public"]
    th = theme_of(theme if theme in THEMES else "dark")
    head = header(pub, names, locale, event_hint)
    top = header_height(head, SIZE)
    rows = (pub["players"] + 1) // 2
    heading = Image.new("RGB", (SIZE, top), th.background)
    draw_header(heading, head, th)
    language = normalize(locale)
    image = _blank(top, rows, language, th.name).copy()
    # the header is its ground colour but for its texts: only their boxes are mapped
    for box in header_boxes(head, SIZE):
        box = _clipped(box, (0, 0, SIZE, top))
        if box[0] < box[2] and box[1] < box[3]:
            image.paste(_mapped(heading.crop(box), th.name), box[:2])
    centre: list[Box] = []
    layer = _board_layer(pub, names, locale, th, centre)
    # only what was drawn on the static board is mapped again: the owned squares (kept mapped by
    # what they show), then over them the centre and the tokens
    tokens = _token_boxes(pub)
    for index, owner in enumerate(pub["owner"]):
        if owner >= 0:
            box = _square_box(index)
            image.paste(_mapped_square(layer, pub, index, box, tokens, language, th.name), (box[0], box[1] + top))
    for box in (*(_clipped(box, CENTRE_BOX) for box in centre), *tokens):
        if box[0] < box[2] and box[1] < box[3]:
            image.paste(_mapped(layer.crop(box), th.name), (box[0], box[1] + top))
    for seat in range(pub["players"]):
        image.paste(_mapped_cell(_panel_cell(pub, seat, names, locale), th.name),
                    ((seat % 2) * (SIZE // 2), top + SIZE + (seat // 2) * ROW_H))
    return image


def render_private(obs: Mapping[str, Any], *, names: Names, locale: str = "en", theme: str = "dark") -> bytes | None:
    """Monopol has no hidden information a player holds: nothing to show privately."""
    return None


ZOOM_WIDTH = 1000


def render_zoom(obs: Mapping[str, Any], *, names: Names, locale: str = "en", square: int, theme: str = "dark") -> bytes:
    """Five squares around ``square`` (two either side) enlarged to 1000 px wide: the part of the
    board a player on a phone wants to read (street names, owners, houses, tokens)."""
    board = _board_layer(obs["public"], names, locale, theme_of(theme))
    boxes = [tile_box((square + step) % 40) for step in range(-2, 3)]
    area = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    crop = board.crop(area)
    scale = ZOOM_WIDTH / crop.width
    if crop.height * scale > 1.2 * ZOOM_WIDTH:  # a column of squares on the left or right side
        scale = 1.2 * ZOOM_WIDTH / crop.height
    size = (max(1, round(crop.width * scale)), max(1, round(crop.height * scale)))
    return encode_on_palette(crop.resize(size, Image.Resampling.LANCZOS), _palette(theme), compress_level=1)


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
                box: tuple[int, int, int, int], th: Theme) -> None:
    """The focus square's name, price, owner (or the auction running for it) and rent now, under
    the newest events, all at 22–28 px (at least 11 px when the 800 px view is shown 400 px wide)."""
    x0, y0, x1, y1 = box
    width = x1 - x0 - 32
    x, y = x0 + 16, y0 + 10
    for wrapped in recent_lines(pub, names, locale, width, 160, size=22)[-2:]:
        for part in wrapped:
            draw_label(draw, (x, y), part, 22, False, th.ink)
            y += 27
    y += 4
    draw.line([x, y, x + width, y], fill=th.line, width=2)
    y += 10
    sq = SQUARES[square]
    if sq.group:
        draw.rectangle([x, y + 3, x + 22, y + 29], fill=hex_colour(GROUP_COLOURS[sq.group]), outline=LINE, width=2)
    name_x = x + (32 if sq.group else 0)
    draw_label(draw, (name_x, y), fit(sq.name, 28, x + width - name_x, True), 28, True, th.ink)
    y += 38
    lines: list[str] = []
    auction = pub["auction"]
    if sq.is_deed:
        owner = pub["owner"][square]
        lines.append(t("monopol.render.price", locale, amount=sq.price))
        if auction and auction["lot"] == "deed" and auction["square"] == square:
            lines.append(t("render.monopol.auction_bid", locale, amount=auction["high"],
                           name=seat_name(names, auction["bidder"])) if auction["bidder"] >= 0
                         else t("render.monopol.auction_open", locale))
        elif owner < 0:
            lines.append(t("monopol.render.for_sale", locale))
        else:
            draw_token(draw, x + 14, y + 15, owner, False, r=14)
            owner_lines, size = fit_lines(t("monopol.render.owner", locale, name=seat_name(names, owner)), width - 38,
                                          26, 22, True, lines=1)
            draw_label(draw, (x + 38, y), owner_lines[0], size, True, th.ink)
            y += 34
            lines.append(t("monopol.render.mortgaged", locale) if pub["mortgaged"][square]
                         else _rent_line(pub, square, locale))
    elif sq.amount:
        lines.append(money(sq.amount, locale))
    for line in lines:
        for part in wrap(line, width, (26,), True)[0][:2]:
            draw_label(draw, (x, y), part, 26, True, th.ink)
            y += 33


def render_focus(obs: Mapping[str, Any], *, names: Names, locale: str = "en", event_hint: Any = None,
                 theme: str = "dark") -> bytes:
    """What changed this turn, readable on a phone beside the full board: the shared header (whose
    turn and the mover's cash, or the auction's lot, high bid and bidder), then the squares around
    the focus square (see ``focus_square``) enlarged with their tokens, owners and houses, and a
    card with the newest events and that square's name, price, owner and rent now. Only the
    static board and the pieces are drawn (no centre, no player panel)."""
    pub = obs["public"]
    th = theme_of(theme)
    square = focus_square(pub, event_hint)
    layer = static_board(normalize(locale), th.name).copy()
    draw_pieces(ImageDraw.Draw(layer), pub, ring=th.turn)
    standing = [pub["position"][seat] for seat in range(pub["players"]) if not pub["bankrupt"][seat]]
    area, scale = focus_area(square, crowded=max(standing.count(p) for p in set(standing)) > 3)
    crop = layer.crop(area)
    size = (round(crop.width * scale), round(crop.height * scale))
    strip = crop.resize(size, Image.Resampling.BILINEAR)
    head = header(pub, names, locale, event_hint)
    top = header_height(head, FOCUS_WIDTH)
    if size[0] >= FOCUS_WIDTH - 1:  # a row: the squares on top, the card under them
        image = Image.new("RGB", (FOCUS_WIDTH, top + size[1] + FOCUS_CARD_H), th.surface)
        card = (0, top + size[1], FOCUS_WIDTH, top + size[1] + FOCUS_CARD_H)
    else:  # a side column: the squares on the left, the card beside them
        image = Image.new("RGB", (FOCUS_WIDTH, top + size[1]), th.surface)
        card = (size[0], top, FOCUS_WIDTH, image.height)
    image.paste(strip, (0, top))
    draw_header(image, head, th)
    draw = ImageDraw.Draw(image)
    _focus_card(draw, pub, square, names, locale, card, th)
    return encode_on_palette(image, _palette(theme), compress_level=1)


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


# ----------------------------------------------------------------------------- in words
def _recent(pub: Mapping[str, Any], names: Any, locale: str, count: int = 3) -> list[str]:
    listed = [seat_name(names, seat) for seat in range(pub["players"])]
    return [t(e["key"], locale, **name_params(dict(e["params"]), listed)).replace("🔑", "")
            for e in list(pub["recent"])[-count:]]


def describe(view: str, obs: Obs, names: Any, locale: str) -> list[str]:
    """The picture ``view`` ("public", "private" or "focus") in sentences (rendering.alt)."""
    pub = obs["public"]
    round_key = "monopol.render.round_of" if pub["max_rounds"] else "monopol.render.round"
    parts = [title("monopol", locale, t(round_key, locale, round=pub["round"], max=pub["max_rounds"])),
             acting(obs, names, locale)]
    turn = pub["turn"]
    if turn is not None and not pub["finished"]:
        parts.append(t("render.alt.monopol_mover", locale, name=seat_name(names, turn), money=pub["cash"][turn],
                       place=SQUARES[pub["position"][turn]].name))
    auction = pub["auction"]
    if auction:
        lot = (SQUARES[auction["square"]].name if auction["lot"] == "deed"
               else t(f"monopol.render.lot_{auction['lot']}", locale))
        if auction["bidder"] >= 0:
            parts.append(t("render.alt.monopol_auction", locale, lot=lot, amount=auction["high"],
                           name=seat_name(names, auction["bidder"])))
        else:
            parts.append(t("render.alt.monopol_auction_open", locale, lot=lot))
    parts += [f"{line.rstrip('.')}." for line in _recent(pub, names, locale)]
    if view == "focus":
        square = focus_square(pub, obs.get("event_hint"))
        owner = pub["owner"][square]
        who = seat_name(names, owner) if owner >= 0 else t("render.alt.nobody", locale)
        parts.insert(1, t("render.alt.monopol_focus", locale, place=SQUARES[square].name, name=who))
    worth = [f"{seat_name(names, s)} " + (t("monopol.render.bankrupt", locale) if pub["bankrupt"][s]
                                          else money(pub["cash"][s], locale)) for s in range(pub["players"])]
    parts.append(t("render.alt.cash", locale, list="; ".join(worth)))
    return parts


def result_places(pub: Mapping[str, Any]) -> Places:
    """Places by net worth, the bankrupt last (rendering.standings)."""
    scores = dict(enumerate(pub["net_worth"]))
    out = [s for s in scores if pub["bankrupt"][s]]
    playing = [s for s in scores if s not in out]
    return ranked(scores, playing, out), str(pub.get("finished") or "monopol.end.rounds"), scores, set(out)


def score_text(score: int, locale: str) -> str:
    return t("render.result.net_worth", locale, amount=score)


# ----------------------------------------------------------------------------- views it has not
private_key: Callable[[Mapping[str, Any]], Any] | None = None  # the private picture is drawn each time
describe_private: Callable[..., str] | None = None  # nothing private to tell
