"""Tjuv och Polis pictures from observations: the city map for the channel, a thief's stashes for DMs.

The map (streets, blocks, buildings with their sums, the police house, telegraphs, tram lines and
stops, red-outlined nests, escape squares and coordinates) is drawn once and cached; each call
copies it, draws the pieces, the last move and the player panel, and maps the picture onto a
fixed palette taken once from the map and every piece colour (adaptive quantizing costs more).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.tjuv.board import board, square_xy
from bot.i18n import money, t
from rendering.alt import Obs, acting, title
from rendering.kit import (
    GOLD,
    HIGHLIGHT,
    INK,
    RED,
    WHITE,
    draw_text,
    encode_on_palette,
    encode_png,
    fit,
    font,
    hinted_square,
    new_canvas,
    palette_from,
    seat_name,
    stamp_text,
    text_length,
)
from rendering.news import news_of
from rendering.result import render_standings
from rendering.standings import Places, ranked
from rendering.theme import THEMES, Header, Theme, draw_header, fit_lines, header_height, theme_of

CELL = 40
MAP_X = 40
MAP_Y = 110
WIDTH = MAP_X + 26 * CELL + 20
PANEL_Y = MAP_Y + 22 * CELL + 16
ROW_H = 64  # one player a row: the name gets the width to be drawn whole
NAME_SIZE = 25  # names in the player panel: 9 px high when the 1100 px map is shown 400 px wide
COORD_SIZE = 28  # coordinates of a close-up (1000 px): 11 px high at 400 px
SUM_SIZE = 24  # a bank's or post office's sum drawn sharp in a close-up: 11 px at 400 px
LEGEND_SIZE = 24
HEIGHT = PANEL_Y + 7 * ROW_H + 20
MAP_TOP = MAP_Y - 30  # the map's column letters start here; above it the header is drawn

STREET = (236, 232, 220)
BLOCK = (96, 112, 100)
HOUSE = (52, 84, 168)
BANK = (30, 130, 76)
POST = (245, 190, 40)
AGENCY = (0, 150, 170)
TELEGRAPH = (120, 70, 160)
NEST = (70, 44, 40)
ESCAPE = (60, 60, 66)
POLICE = (30, 70, 200)
CAR_COLOUR = (16, 24, 60)
LIGHT = (230, 234, 240)
LINE_COLOURS = {"1": (220, 40, 60), "2": (30, 120, 220), "3": (20, 160, 70), "4": (230, 120, 20)}
THIEF_COLOURS = [(200, 30, 45), (20, 150, 60), (235, 130, 20), (140, 60, 190), (120, 80, 40), (220, 60, 170)]


def _box(square: str) -> tuple[int, int, int, int]:
    x, y = square_xy(square)
    return MAP_X + x * CELL, MAP_Y + y * CELL, MAP_X + (x + 1) * CELL, MAP_Y + (y + 1) * CELL


def _centre(square: str) -> tuple[int, int]:
    x0, y0, x1, y1 = _box(square)
    return (x0 + x1) // 2, (y0 + y1) // 2


def _money(amount: int) -> str:
    return f"{amount // 1000}k" if amount % 1000 == 0 and amount else str(amount)


# ------------------------------------------------------------------------------- static map
def _icon(draw: ImageDraw.ImageDraw, kind: str, cx: int, cy: int) -> None:
    """Train, plane and boat drawn as shapes (language-free)."""
    if kind == "train":
        draw.rectangle([cx - 14, cy - 9, cx + 14, cy + 6], fill=WHITE)
        draw.rectangle([cx - 10, cy - 6, cx - 2, cy], fill=ESCAPE)
        for wx in (cx - 8, cx + 8):
            draw.ellipse([wx - 4, cy + 4, wx + 4, cy + 12], fill=GOLD)
    elif kind == "plane":
        draw.polygon([(cx, cy - 15), (cx + 3, cy - 4), (cx + 15, cy + 2), (cx + 3, cy + 2), (cx + 2, cy + 10),
                      (cx + 7, cy + 14), (cx - 7, cy + 14), (cx - 2, cy + 10), (cx - 3, cy + 2),
                      (cx - 15, cy + 2), (cx - 3, cy - 4)], fill=WHITE)
    else:
        draw.polygon([(cx - 15, cy + 2), (cx + 15, cy + 2), (cx + 9, cy + 12), (cx - 9, cy + 12)], fill=WHITE)
        draw.rectangle([cx - 2, cy - 14, cx + 1, cy + 2], fill=WHITE)
        draw.polygon([(cx + 2, cy - 12), (cx + 12, cy - 1), (cx + 2, cy - 1)], fill=GOLD)


@cache
def _map(theme: str = "dark") -> Image.Image:
    b = board()
    th = theme_of(theme)
    image, draw = new_canvas(WIDTH, HEIGHT, th.background)
    draw.rectangle([MAP_X, MAP_Y, MAP_X + 26 * CELL, MAP_Y + 22 * CELL], fill=BLOCK)
    for col in range(b.width):
        draw_text(draw, (MAP_X + col * CELL + CELL // 2, MAP_Y - 14), chr(ord("A") + col), 16, bold=True,
                  fill=th.ink, anchor="mm")
    for row in range(b.height):
        draw_text(draw, (MAP_X - 14, MAP_Y + row * CELL + CELL // 2), str(row + 1), 16, bold=True, fill=th.ink,
                  anchor="mm")
    fills = {"street": STREET, "house": HOUSE, "bank": BANK, "post": POST, "agency": AGENCY,
             "telegraph": TELEGRAPH, "nest": NEST, "escape": ESCAPE}
    for square, kind in b.kind.items():
        x0, y0, x1, y1 = _box(square)
        draw.rectangle([x0, y0, x1 - 1, y1 - 1], fill=fills[kind])
    x0, y0, _, _ = _box(b.house[0])
    _, _, x1, y1 = _box(b.house[-1])
    draw.rectangle([x0, y0, x1 - 1, y1 - 1], outline=WHITE, width=3)
    gx0, _, gx1, gy1 = _box(b.gate)
    draw.rectangle([gx0 + 6, gy1 - 6, gx1 - 6, gy1 + 1], fill=GOLD)
    for number, stops in b.lines.items():  # tram lines along the streets, offset per line
        offset = (int(number) - 2.5) * 4
        points = [(_centre(s)[0] + offset, _centre(s)[1] + offset) for s in stops]
        draw.line(points, fill=LINE_COLOURS[number], width=3)
    for square, kind in b.kind.items():
        cx, cy = _centre(square)
        x0, y0, x1, y1 = _box(square)
        if kind in ("bank", "post"):
            draw_text(draw, (cx, cy), _money(b.values[square]), 15, bold=True, fill=WHITE if kind == "bank" else INK,
                      anchor="mm")
        elif kind == "agency":
            draw_text(draw, (cx, cy), "R", 22, bold=True, fill=WHITE, anchor="mm")
        elif kind == "telegraph":
            draw_text(draw, (cx, cy), "T", 22, bold=True, fill=WHITE, anchor="mm")
        elif kind == "nest":
            draw.rectangle([x0 + 2, y0 + 2, x1 - 3, y1 - 3], outline=RED, width=4)
        elif kind == "escape":
            _icon(draw, b.escapes[square].kind, cx, cy)
    for square in b.escape_fronts:
        x0, y0, x1, y1 = _box(square)
        draw.rectangle([x0 + 1, y0 + 1, x1 - 2, y1 - 2], outline=ESCAPE, width=2)
    for square, lines in b.stop_lines.items():
        x0, y0, _, _ = _box(square)
        for index, number in enumerate(lines):
            cx, cy = x0 + 11 + index * 18, y0 + 11
            draw.ellipse([cx - 10, cy - 10, cx + 10, cy + 10], fill=LINE_COLOURS[number], outline=WHITE)
            draw_text(draw, (cx, cy), number, 13, bold=True, fill=WHITE, anchor="mm")
    return image


@cache
def _palette(theme: str = "dark") -> Image.Image:
    """The map plus a swatch of every dynamic colour, reduced once to 256 colours."""
    th = theme_of(theme)
    sample = _map(theme).copy()
    draw = ImageDraw.Draw(sample)
    colours = [POLICE, CAR_COLOUR, HIGHLIGHT, GOLD, RED, WHITE, LIGHT, INK, *THIEF_COLOURS, th.header, th.surface,
               th.ink, th.muted, th.turn, th.last, th.danger, th.win, th.line, th.surface_turn]
    for index, colour in enumerate(colours):
        draw.rectangle([index * 60, 0, index * 60 + 59, 60], fill=colour)
        draw.text((index * 60 + 4, 64), "Aå9", font=font(22, bold=True), fill=colour)
    return palette_from(sample)


def _encode(image: Image.Image, theme: str = "dark") -> bytes:
    return encode_on_palette(image, _palette(theme if theme in THEMES else "dark"))


# ------------------------------------------------------------------------------- pieces
def _token(draw: ImageDraw.ImageDraw, cx: float, cy: float, label: str, colour: tuple[int, int, int], *,
           wanted: bool = False, car: bool = False, radius: float = 16) -> None:
    """A piece: a disc (a car for the radio car) in its colour with its name (P, C, T1…) on it, so
    that no player has to be told by colour alone; a wanted thief has a yellow and red ring."""
    scale = radius / 16
    if wanted:
        ring = radius + 5 * scale
        draw.ellipse([cx - ring, cy - ring, cx + ring, cy + ring], fill=HIGHLIGHT, outline=RED, width=round(4 * scale))
    if car:
        draw.rounded_rectangle([cx - radius - 2 * scale, cy - radius + 4 * scale, cx + radius + 2 * scale,
                                cy + radius - 4 * scale], radius=round(6 * scale), fill=colour, outline=WHITE,
                               width=round(2 * scale))
    else:
        draw.ellipse([cx - radius, cy - radius, cx + radius, cy + radius], fill=colour, outline=WHITE,
                     width=round(2 * scale))
    stamp_text(draw, (cx, cy), label, round(15 * scale), bold=True, fill=WHITE, anchor="mm")


def _thief_colour(piece: str) -> tuple[int, int, int]:
    """A thief's colour by his piece ("T2"); pieces name roles, which need not be table seats."""
    number = int(piece[1:]) if piece[1:].isdigit() else 1
    return THIEF_COLOURS[(number - 1) % len(THIEF_COLOURS)]


Place = Callable[[str], tuple[float, float]]


def _draw_pieces(draw: ImageDraw.ImageDraw, public: Mapping[str, Any], place: Place = _centre,
                 scale: float = 1.0, th: Theme | None = None) -> None:
    """The last move's path (in the last-move colour) and every piece on the map, at
    ``place(square)`` and ``scale`` (the close-ups draw them sharp at their own scale); the piece
    of the player to act wears the turn colour's ring."""
    th = th or theme_of("dark")
    path = [s for s in public.get("last_path", []) if s != "house"]
    if len(path) > 1:
        draw.line([place(s) for s in path], fill=th.last, width=round(6 * scale), joint="curve")
    acting = acting_piece(public)
    if acting is not None:
        cx, cy = place(acting)
        ring = 23 * scale
        draw.ellipse([cx - ring, cy - ring, cx + ring, cy + ring], outline=th.turn, width=round(5 * scale))
    per_square: dict[str, int] = {}
    for thief in public["thieves"]:
        at = thief["at"]
        if at is None or at == "house":
            continue
        shift = per_square.get(at, 0)
        per_square[at] = shift + 1
        cx, cy = place(at)
        _token(draw, cx + (shift * 8 - 4 * min(shift, 1)) * scale, cy + shift * 6 * scale, thief["id"],
               _thief_colour(thief["id"]), wanted=thief["wanted"], radius=16 * scale)
    for police in public["police"]:
        at = police["at"]
        if at is None or at == "house" or police["status"] != "free":
            continue
        cx, cy = place(at)
        car = police["id"] == "C"
        if car and police.get("tail"):
            _two_square_car(draw, (cx, cy), place(police["tail"]), scale)
            continue
        _token(draw, cx, cy, police["id"], CAR_COLOUR if car else POLICE, car=car, radius=16 * scale)


def _two_square_car(draw: ImageDraw.ImageDraw, front: tuple[float, float], tail: tuple[float, float],
                    scale: float) -> None:
    """The radio car over its two squares: one long body from tail to front, its name on the
    front square, and a white nose on the front end showing which way it drives."""
    (fx, fy), (tx, ty) = front, tail
    long_r, short_r = 17 * scale, 12 * scale
    across_x = abs(fx - tx) >= abs(fy - ty)
    rx, ry = (long_r, short_r) if across_x else (short_r, long_r)
    draw.rounded_rectangle([min(fx, tx) - rx, min(fy, ty) - ry, max(fx, tx) + rx, max(fy, ty) + ry],
                           radius=round(8 * scale), fill=CAR_COLOUR, outline=WHITE, width=round(2 * scale))
    dx = (1 if fx > tx else -1) if across_x else 0
    dy = 0 if across_x else (1 if fy > ty else -1)
    nose = (fx + dx * (long_r - 5 * scale), fy + dy * (long_r - 5 * scale))
    r = 4 * scale
    draw.ellipse([nose[0] - r, nose[1] - r, nose[0] + r, nose[1] + r], fill=WHITE)
    stamp_text(draw, (fx - dx * 6 * scale, fy - dy * 6 * scale), "C", round(15 * scale), bold=True, fill=WHITE,
               anchor="mm")


def acting_piece(public: Mapping[str, Any]) -> str | None:
    """The square of the piece whose player acts now (a thief, or the police's radio car), if it
    stands on the map."""
    if public["finished"] or public["turn"] is None:
        return None
    square = home_square(public, public["turn"])
    spots = [p["at"] for p in public["police"]] + [th["at"] for th in public["thieves"]]
    return square if square in spots else None


def header_facts(public: Mapping[str, Any], locale: str) -> list[str]:
    """Round, the roll of the player to play (none before they roll: the previous player's roll
    belongs to the previous turn) and the travel agency's money."""
    facts = [t("tjuv.render.round", locale, round=public["round"])]
    if public["roll"] and not public["finished"]:
        facts.append(t("tjuv.render.roll", locale, roll=public["roll"]))
    facts.append(t("tjuv.render.agency", locale, money=public["agency"]))
    return facts


def _piece_owner(public: Mapping[str, Any], piece: str) -> int | None:
    if piece.startswith(("P", "C")):
        return int(public.get("police_seat", 0))
    return next((int(th["seat"]) for th in public["thieves"] if th["id"] == piece), None)


def what_happened(public: Mapping[str, Any], names: Any, locale: str, event_hint: Any = None) -> str:
    """The news: the roll of the player to act ("Björn rolled 6"), else the hinted event, else
    the last move ("Bo moved T2 to K7, roll 4")."""
    if public["roll"] and not public["finished"] and public["turn"] is not None:
        return t("render.alt.tjuv_rolled", locale, name=seat_name(names, public["turn"]), roll=public["roll"])
    news = news_of(event_hint, names, locale)
    if news:
        return news
    piece = str(public.get("last_piece") or "")
    path = [s for s in public.get("last_path") or [] if s != "house"]
    if piece and path:
        owner = _piece_owner(public, piece)
        return t("render.alt.tjuv_moved", locale, name=seat_name(names, owner) if owner is not None else piece,
                 piece=piece, roll=public["last_roll"], square=path[-1])
    return ""


def header(public: Mapping[str, Any], names: Any, locale: str, event_hint: Any = None) -> Header:
    if public["finished"]:
        acting = t("tjuv.render.game_over", locale)
    else:
        acting = t("tjuv.render.turn", locale, name=seat_name(names, public["turn"]))
    title = " · ".join([t("game.name.tjuv", locale), *header_facts(public, locale)])
    return Header(title, acting=acting, news=what_happened(public, names, locale, event_hint),
                  finished=bool(public["finished"]))


def _panel(canvas: Image.Image, draw: ImageDraw.ImageDraw, public: Mapping[str, Any], names: Any, locale: str,
           top: int, th: Theme) -> int:
    """One row per player from ``top``: the piece, the name whole, what holds them (jail, wanted,
    stashes), arrests and the money carried; the row of the player to act is ringed. Its height."""
    turn = public["turn"]
    police_seat = int(public.get("police_seat", 0))
    rows: list[tuple[int, str, tuple[int, int, int], str, int, str, bool, int]] = [
        (police_seat, "P", POLICE, f"{t('tjuv.render.police', locale)}: {seat_name(names, police_seat)}",
         public["police_money"], "", False, 0)]
    notes = {"jail": "tjuv.render.jail", "escaping": "tjuv.render.escaping", "escaped": "tjuv.render.escaped",
             "out": "tjuv.render.out"}
    for thief in public["thieves"]:
        status = thief["status"]
        note = t(notes[status], locale, turns=thief["sentence"]) if status in notes else (
            t("tjuv.render.wanted", locale) if thief["wanted"] else "")
        if thief["stashes"] and status not in ("escaped", "out"):
            note = f"{note}  {t('tjuv.render.stashes', locale, count=thief['stashes'])}".strip()
        alarm = thief["wanted"] and status in ("free", "escaping")
        rows.append((thief["seat"], thief["id"], _thief_colour(thief["id"]), seat_name(names, thief["seat"]),
                     thief["money"], note, alarm, thief["arrests"]))
    x, right = MAP_X, WIDTH - MAP_X + 10
    for index, (seat, label, colour, name, cash, note, wanted, arrests) in enumerate(rows):
        y = top + ROW_H * index
        acting = turn == seat
        draw.rounded_rectangle([x - 12, y, right, y + ROW_H - 6], radius=10,
                               fill=th.surface_turn if acting else th.surface,
                               outline=th.turn if acting else th.line, width=4 if acting else 1)
        _token(draw, x + 14, y + (ROW_H - 6) / 2, label, colour, radius=16)
        amount = money(cash, locale)
        amount_w = text_length(amount, NAME_SIZE, True)
        note_w = text_length(note, NAME_SIZE) + 24 if note else 0
        dots_w = arrests * 16 + (12 if arrests else 0)
        room = right - 16 - amount_w - dots_w - note_w - (x + 40)
        lines, size = fit_lines(name, room, NAME_SIZE + 3, NAME_SIZE, True)
        ny = y + (ROW_H - 6 - len(lines) * (size + 3)) / 2
        for line in lines:
            stamp_text(draw, (x + 40, ny), line, size, bold=True, fill=th.turn if acting else th.ink)
            ny += size + 3
        name_w = max(text_length(line, size, True) for line in lines)
        middle = y + (ROW_H - 6) / 2
        if note:
            stamp_text(draw, (x + 40 + name_w + 24, middle), fit(note, NAME_SIZE, note_w), NAME_SIZE,
                       fill=th.danger if wanted else th.muted, anchor="lm")
        stamp_text(draw, (right - 16, middle), amount, NAME_SIZE, bold=True, fill=th.win, anchor="rm")
        for dot in range(arrests):
            cx = right - 16 - amount_w - 18 - dot * 16
            draw.ellipse([cx - 6, middle - 6, cx + 6, middle + 6], fill=th.danger)
    return ROW_H * len(rows)


def _house_guards(draw: ImageDraw.ImageDraw, public: Mapping[str, Any], dy: int) -> None:
    inside = [p["id"] for p in public["police"] if p["status"] != "out" and p["at"] in ("house", None)]
    x0, y0, _, _ = _box(board().house[0])
    for index, pid in enumerate(inside):  # guards and freed guards wait inside the house
        stamp_text(draw, (x0 + 6 + index * 34, y0 - 1 + dy), pid, 14, bold=True, fill=GOLD)


def map_shift(obs: Mapping[str, Any], names: Any, locale: str, event_hint: Any = None) -> int:
    """How far the map (the coordinates of ``_centre``) lies lower in the picture than in ``_map()``."""
    return header_height(header(obs["public"], names, locale, event_hint), WIDTH) - MAP_TOP


def render_public(obs: Mapping[str, Any], *, names: Any, locale: str, theme: str = "dark",
                  event_hint: Any = None) -> bytes:
    public = obs["public"]
    th = theme_of(theme)
    head = header(public, names, locale, event_hint)
    top = header_height(head, WIDTH)
    rows = len(public["thieves"]) + 1
    map_h = PANEL_Y - MAP_TOP
    image = Image.new("RGB", (WIDTH, top + map_h + rows * ROW_H + 12), th.background)
    area = _map(th.name).crop((0, MAP_TOP, WIDTH, PANEL_Y))
    draw_area = ImageDraw.Draw(area)

    def place(square: str) -> tuple[float, float]:
        cx, cy = _centre(square)
        return cx, cy - MAP_TOP

    _draw_pieces(draw_area, public, place, th=th)
    _house_guards(draw_area, public, -MAP_TOP)
    image.paste(area, (0, top))
    draw_header(image, head, th)
    draw = ImageDraw.Draw(image)
    _panel(image, draw, public, names, locale, top + map_h, th)
    return _encode(image, th.name)


ZOOM_CELLS = 13  # squares across a /tjuv zoom close-up
FOCUS_CELLS = 11  # squares across a turn's focus view (a smaller picture, quicker to send and encode)
ZOOM_STEP = 72  # pixels per square in a close-up (1.8 × the map's)
ZOOM_MARGIN = 64
ZOOM_SIZE = ZOOM_MARGIN + ZOOM_CELLS * ZOOM_STEP  # 1000
FOCUS_HEADER = 76


def home_square(public: Mapping[str, Any], seat: int | None) -> str:
    """Where a seat's close-up centres: its thief, or the police player's radio car; the police
    house gate for anyone else or a piece off the map."""
    if seat is not None and seat == public["police_seat"]:
        spots = [p["at"] for p in public["police"] if p["id"] == "C"]
    else:
        spots = [t["at"] for t in public["thieves"] if t["seat"] == seat]
    on_map = [spot for spot in spots if spot in board().kind]
    return on_map[0] if on_map else board().gate


@cache
def _big_map() -> Image.Image:
    """The city map alone at close-up scale, enlarged once: a close-up crops it and draws the pieces
    sharp on top instead of enlarging every time."""
    area = (MAP_X, MAP_Y, MAP_X + board().width * CELL, MAP_Y + board().height * CELL)
    scale = ZOOM_STEP / CELL
    crop = _map().crop(area)
    return crop.resize((round(crop.width * scale), round(crop.height * scale)), Image.Resampling.LANCZOS)


def _close_up(public: Mapping[str, Any], square: str, top: int = 0, cells: int = ZOOM_CELLS,
              th: Theme | None = None, bottom: int = 0) -> Image.Image:
    """``cells`` × ``cells`` squares around ``square`` (kept inside the map) with their coordinates
    along the edges, the sums of banks and post offices drawn sharp, the pieces and the last move,
    ``top`` pixels below the picture's top and ``bottom`` pixels left free under it."""
    th = th or theme_of("dark")
    cx, cy = square_xy(square)
    x0 = min(max(cx - cells // 2, 0), board().width - cells)
    y0 = min(max(cy - cells // 2, 0), board().height - cells)
    inner = cells * ZOOM_STEP
    side = ZOOM_MARGIN + inner
    canvas, draw = new_canvas(side, top + side + bottom, th.background)
    canvas.paste(_big_map().crop((x0 * ZOOM_STEP, y0 * ZOOM_STEP, x0 * ZOOM_STEP + inner, y0 * ZOOM_STEP + inner)),
                 (ZOOM_MARGIN, top + ZOOM_MARGIN))

    def place(name: str) -> tuple[float, float]:
        x, y = square_xy(name)
        return ZOOM_MARGIN + (x - x0 + 0.5) * ZOOM_STEP, top + ZOOM_MARGIN + (y - y0 + 0.5) * ZOOM_STEP

    b = board()
    half = ZOOM_STEP / 2 - 2
    for spot, kind in b.kind.items():  # the enlarged map's sums are blurred: drawn again, sharp
        if kind not in ("bank", "post"):
            continue
        sx, sy = square_xy(spot)
        if not (x0 <= sx < x0 + cells and y0 <= sy < y0 + cells):
            continue
        px, py = place(spot)
        draw.rectangle([px - half, py - half, px + half, py + half], fill=BANK if kind == "bank" else POST)
        stamp_text(draw, (px, py), _money(b.values[spot]), SUM_SIZE, bold=True,
                   fill=WHITE if kind == "bank" else INK, anchor="mm")
    _draw_pieces(draw, public, place, ZOOM_STEP / CELL, th)
    draw.rectangle([0, 0, side, top + ZOOM_MARGIN - 1], fill=th.background)  # pieces beyond the edges
    draw.rectangle([0, top, ZOOM_MARGIN - 1, top + side], fill=th.background)
    draw.rectangle([0, top + side, side, top + side + bottom], fill=th.background)
    for i in range(cells):
        middle = ZOOM_MARGIN + (i + 0.5) * ZOOM_STEP
        stamp_text(draw, (middle, top + ZOOM_MARGIN / 2), chr(ord("A") + x0 + i), COORD_SIZE, bold=True,
                   fill=th.ink, anchor="mm")
        stamp_text(draw, (ZOOM_MARGIN / 2, top + middle), str(y0 + i + 1), COORD_SIZE, bold=True, fill=th.ink,
                   anchor="mm")
    return canvas


def render_zoom(obs: Mapping[str, Any], *, names: Any, locale: str, square: str, theme: str = "dark") -> bytes:
    """13 × 13 squares around ``square`` at 1000 px with their coordinates: the city map readable
    on a phone."""
    th = theme_of(theme)
    return _encode(_close_up(obs["public"], square, th=th), th.name)


def focus_square(public: Mapping[str, Any], event_hint: Any = None) -> str:
    """The square a turn's focus view centres on: the piece of the player to act (the header
    names them, so the picture shows them), else the square ``event_hint`` names (a coordinate or
    a public event with a square on the map), else where the last move ended."""
    acting = acting_piece(public)
    if acting is not None and acting in board().kind:
        return acting
    hinted = hinted_square(event_hint)
    if isinstance(hinted, str) and hinted in board().kind:
        return hinted
    path = [s for s in public.get("last_path", []) if s in board().kind]
    if path:
        return path[-1]
    return home_square(public, public["turn"])


LEGEND = (("bank", "BANK"), ("post", "POST"), ("agency", "AGENCY"), ("telegraph", "TELEGRAPH"), ("nest", "NEST"),
          ("house", "HOUSE"))


def _legend(canvas: Image.Image, draw: ImageDraw.ImageDraw, y: int, locale: str, th: Theme) -> int:
    """What the squares mean, in words beside their colours; the height it took."""
    fills = {"bank": BANK, "post": POST, "agency": AGENCY, "telegraph": TELEGRAPH, "nest": NEST, "house": HOUSE}
    x, line_h, box = ZOOM_MARGIN // 2, LEGEND_SIZE + 16, LEGEND_SIZE
    start = y
    for kind, _ in LEGEND:
        label = t(f"render.tjuv.legend.{kind}", locale)
        need = box + 10 + text_length(label, LEGEND_SIZE) + 28
        if x + need > canvas.width - ZOOM_MARGIN // 2:
            x, y = ZOOM_MARGIN // 2, y + line_h
        draw.rectangle([x, y, x + box, y + box], fill=fills[kind], outline=RED if kind == "nest" else th.line,
                       width=3 if kind == "nest" else 1)
        stamp_text(draw, (x + box + 10, y + box / 2), label, LEGEND_SIZE, fill=th.ink, anchor="lm")
        x += int(need)
    return y + line_h - start


def render_focus(obs: Mapping[str, Any], *, names: Any, locale: str, event_hint: Any = None,
                 theme: str = "dark") -> bytes | None:
    """The turn's focus view beside the full map: the shared header (whose turn, what happened)
    over a close-up around the piece of the player to act, coordinates and sums readable on a
    phone, and a legend of the squares."""
    public = obs["public"]
    th = theme_of(theme)
    side = ZOOM_MARGIN + FOCUS_CELLS * ZOOM_STEP
    head = header(public, names, locale, event_hint)
    top = header_height(head, side)
    canvas = _close_up(public, focus_square(public, event_hint), top, FOCUS_CELLS, th, bottom=2 * (LEGEND_SIZE + 16)
                       + 8)
    draw = ImageDraw.Draw(canvas)
    draw_header(canvas, head, th)
    _legend(canvas, draw, top + side + 4, locale, th)
    return _encode(canvas, th.name)


def render_private(obs: Mapping[str, Any], *, names: Any, locale: str, theme: str = "dark") -> bytes | None:
    """A thief's hidden money by nest; None for the police, for spectators and for a thief who has
    hidden nothing (his text says so; an empty picture would only fill the DM)."""
    private = obs.get("private")
    if not private or private.get("role") != "thief" or not private.get("stashes"):
        return None
    seat = int(obs["seat"])
    stashes: Mapping[str, int] = private["stashes"]
    th = theme_of(theme)
    piece = str(private.get("piece") or f"T{seat}")
    head = Header(f"{t('game.name.tjuv', locale)} · {piece} · {seat_name(names, seat)}",
                  acting=t("tjuv.render.your_stashes", locale))
    top = header_height(head, WIDTH)
    rows = (len(stashes) + 3) // 4
    height = top + 20 + rows * 120 + 60
    image, draw = new_canvas(WIDTH, height, th.background)
    draw_header(image, head, th)
    _token(draw, WIDTH - 50, top // 2, piece, _thief_colour(piece), radius=26)
    for index, (nest, amount) in enumerate(stashes.items()):
        x, y = 40 + (index % 4) * 260, top + 20 + (index // 4) * 120
        draw.rounded_rectangle([x, y, x + 240, y + 100], radius=12, fill=NEST, outline=RED, width=5)
        draw_text(draw, (x + 20, y + 14), nest, 30, bold=True, fill=WHITE)
        draw_text(draw, (x + 20, y + 54), money(amount, locale), 30, bold=True, fill=GOLD)
    draw_text(draw, (40, height - 50), t("tjuv.render.total", locale, money=sum(stashes.values())), 30, bold=True,
              fill=th.win)
    return encode_png(image.quantize(colors=48, method=Image.Quantize.FASTOCTREE))


# -------------------------------------------------------------------------------- in words
def describe_private(obs: Mapping[str, Any], *, locale: str = "en") -> str:
    """A player's own view in words (the console, and the text of the Discord DM): the role, a
    thief's hidden money by nest, and what to do now when it is the player's turn."""
    private = obs.get("private")
    if not private:
        return ""
    public = obs["public"]
    seat = obs["seat"]
    lines: list[str] = []
    me: Mapping[str, Any] | None = None
    if private.get("role") == "police":
        lines.append(t("tjuv.ui.you_police", locale, count=len(public["police"]) - 1))
    else:
        me = next((th for th in public["thieves"] if th["id"] == private.get("piece")), None)
        lines.append(t("tjuv.ui.you_thief", locale, piece=private.get("piece", ""),
                       money=me["money"] if me else 0))
        stashes: Mapping[str, int] = private["stashes"]
        if stashes:
            listed = ", ".join(t("tjuv.ui.stash", locale, square=nest, money=amount)
                               for nest, amount in stashes.items())
            lines.append(t("tjuv.ui.stashes", locale, stashes=listed, money=sum(stashes.values())))
        else:
            lines.append(t("tjuv.ui.no_stashes", locale))
    if public["finished"]:
        return "\n".join(lines)
    if public.get("pending"):  # an encircled thief: only the police act, naming the arresting piece
        if private.get("role") == "police":
            waiting = public["pending"][0]
            lines.append(t("tjuv.ui.turn_arrest", locale, thief=waiting["piece"], pieces=", ".join(waiting["pieces"])))
        return "\n".join(lines)
    if public["turn"] != seat:
        return "\n".join(lines)
    if public["phase"] == "nests":
        lines.append(t("tjuv.ui.turn_nests", locale))
    elif public["phase"] == "car":
        lines.append(t("tjuv.ui.turn_car", locale))
    elif me is not None and me["status"] == "jail":
        lines.append(t("tjuv.ui.turn_jail", locale, turns=me["sentence"]))
    elif public["phase"] == "move":
        lines.append(t("tjuv.ui.turn_move", locale, roll=public["roll"]))
    elif public["phase"] == "nest":
        lines.append(t("tjuv.ui.turn_nest", locale))
    else:
        in_nest = me is not None and board().kind.get(me["at"] or "") == "nest"
        if in_nest and me is not None and (me["money"] or me["at"] in private["stashes"]):
            lines.append(t("tjuv.ui.in_nest_start", locale))  # only when there is something to hide or fetch
        lines.append(t("tjuv.ui.turn_start", locale))
        riding = public["tram"].get(str(seat))
        if riding:
            lines.append(t("tjuv.ui.turn_tram", locale, piece=riding))
    return "\n".join(lines)


def render_result(obs: Mapping[str, Any], *, names: Any, locale: str = "en", theme: str = "dark") -> bytes:
    """The standings picture a finished game ends on (rendering/result.py)."""
    return render_standings(obs, names=names, locale=locale, theme=theme)


# ----------------------------------------------------------------------------- in words
def _piece_seat(pub: Mapping[str, Any], piece: str) -> int | None:
    if piece.startswith("P"):
        return int(pub.get("police_seat", 0))
    return next((int(th["seat"]) for th in pub["thieves"] if th["id"] == piece), None)


def describe(view: str, obs: Obs, names: Any, locale: str) -> list[str]:
    """The picture ``view`` ("public", "private" or "focus") in sentences (rendering.alt)."""
    pub = obs["public"]
    parts = [title("tjuv", locale, t("tjuv.render.round", locale, round=pub["round"])), acting(obs, names, locale)]
    if pub["roll"] and not pub["finished"]:
        parts.append(t("render.alt.tjuv_rolled", locale, name=seat_name(names, pub["turn"]), roll=pub["roll"]))
    piece = str(pub.get("last_piece") or "")
    path = [s for s in pub.get("last_path") or [] if s != "house"]
    if piece and path:
        seat = _piece_seat(pub, piece)
        parts.append(t("render.alt.tjuv_moved", locale, name=seat_name(names, seat) if seat is not None else piece,
                       piece=piece, roll=pub["last_roll"], square=path[-1]))
    if view == "focus":
        parts.insert(1, t("render.alt.tjuv_focus", locale, square=focus_square(pub, obs.get("event_hint"))))
    private = obs.get("private")
    if view == "private" and private is not None:
        if private["role"] == "police":
            parts.append(t("render.alt.tjuv_police", locale))
        else:
            stashes = ", ".join(f"{nest} {money(amount, locale)}" for nest, amount in private["stashes"].items())
            parts.append(t("render.alt.tjuv_stashes", locale, piece=private["piece"], count=len(private["stashes"]),
                           list=stashes) if stashes else t("render.alt.tjuv_no_stash", locale, piece=private["piece"]))
    police = int(pub.get("police_seat", 0))
    money_list = [f"{seat_name(names, police)} ({t('render.alt.tjuv_police_role', locale)}) "
                  f"{money(pub['police_money'], locale)}"]
    for thief in pub["thieves"]:
        status = "" if thief["status"] == "free" else f" ({t('render.alt.tjuv_status_' + thief['status'], locale)})"
        money_list.append(f"{seat_name(names, thief['seat'])} ({thief['id']}) {money(thief['money'], locale)}{status}")
    parts.append(t("render.alt.cash", locale, list="; ".join(money_list)))
    return parts


def result_places(pub: Mapping[str, Any]) -> Places:
    """Places by money, thieves who left the town last (rendering.standings)."""
    police = int(pub.get("police_seat", 0))
    scores = {police: int(pub["police_money"])}
    out = []
    for thief in pub["thieves"]:
        scores[int(thief["seat"])] = int(thief["money"])
        if thief["status"] == "out":
            out.append(int(thief["seat"]))
    playing = [s for s in sorted(scores) if s not in out]
    return ranked(scores, playing, out), str(pub.get("reason") or "tjuv.end.rounds"), scores, set(out)


def score_text(score: int, locale: str) -> str:
    return money(score, locale)


# ----------------------------------------------------------------------------- views it has not
private_key: Callable[[Mapping[str, Any]], Any] | None = None  # the private picture is drawn each time
describe_public: Callable[..., str] | None = None  # no table in words for the console
