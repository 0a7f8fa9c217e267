"""Tjuv och Polis pictures from observations: the city map for the channel, a thief's stashes for DMs.

The map (streets, blocks, buildings with their sums, the police house, telegraphs, tram lines and
stops, red-outlined nests, escape squares and coordinates) is drawn once and cached; each call
copies it, draws the pieces, the last move and the player panel, and maps the picture onto a
fixed palette taken once from the map and every piece colour (adaptive quantizing costs more).
"""
from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.tjuv.board import board, square_xy
from bot.i18n import money, t
from rendering.kit import (
    GOLD,
    HIGHLIGHT,
    INK,
    RED,
    WHITE,
    encode_on_palette,
    encode_png,
    font,
    new_canvas,
    palette_from,
    seat_name,
)

CELL = 40
MAP_X = 40
MAP_Y = 110
WIDTH = MAP_X + 26 * CELL + 20
PANEL_Y = MAP_Y + 22 * CELL + 16
ROW_H = 58
HEIGHT = PANEL_Y + 4 * ROW_H + 20

BACKGROUND = (28, 32, 38)
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
def _map() -> Image.Image:
    b = board()
    image, draw = new_canvas(WIDTH, HEIGHT, BACKGROUND)
    draw.rectangle([MAP_X, MAP_Y, MAP_X + 26 * CELL, MAP_Y + 22 * CELL], fill=BLOCK)
    small, label = font(16, bold=True), font(15, bold=True)
    for col in range(b.width):
        draw.text((MAP_X + col * CELL + CELL // 2, MAP_Y - 14), chr(ord("A") + col), font=small, fill=LIGHT,
                  anchor="mm")
    for row in range(b.height):
        draw.text((MAP_X - 14, MAP_Y + row * CELL + CELL // 2), str(row + 1), font=small, fill=LIGHT, anchor="mm")
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
            draw.text((cx, cy), _money(b.values[square]), font=label, fill=WHITE if kind == "bank" else INK,
                      anchor="mm")
        elif kind == "agency":
            draw.text((cx, cy), "R", font=font(22, bold=True), fill=WHITE, anchor="mm")
        elif kind == "telegraph":
            draw.text((cx, cy), "T", font=font(22, bold=True), fill=WHITE, anchor="mm")
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
            draw.text((cx, cy), number, font=font(13, bold=True), fill=WHITE, anchor="mm")
    return image


@cache
def _palette() -> Image.Image:
    """The map plus a swatch of every dynamic colour, reduced once to 256 colours."""
    sample = _map().copy()
    draw = ImageDraw.Draw(sample)
    colours = [POLICE, CAR_COLOUR, HIGHLIGHT, GOLD, RED, WHITE, LIGHT, INK, *THIEF_COLOURS]
    for index, colour in enumerate(colours):
        draw.rectangle([index * 60, 0, index * 60 + 59, 60], fill=colour)
        draw.text((index * 60 + 4, 64), "Aå9", font=font(22, bold=True), fill=colour)
    return palette_from(sample)


def _encode(image: Image.Image) -> bytes:
    return encode_on_palette(image, _palette())


# ------------------------------------------------------------------------------- pieces
def _token(draw: ImageDraw.ImageDraw, cx: int, cy: int, label: str, colour: tuple[int, int, int], *,
           wanted: bool = False, car: bool = False, radius: int = 16) -> None:
    if wanted:
        draw.ellipse([cx - radius - 5, cy - radius - 5, cx + radius + 5, cy + radius + 5], fill=HIGHLIGHT,
                     outline=RED, width=4)
    if car:
        draw.rounded_rectangle([cx - radius - 2, cy - radius + 4, cx + radius + 2, cy + radius - 4], radius=6,
                               fill=colour, outline=WHITE, width=2)
    else:
        draw.ellipse([cx - radius, cy - radius, cx + radius, cy + radius], fill=colour, outline=WHITE, width=2)
    draw.text((cx, cy), label, font=font(15, bold=True), fill=WHITE, anchor="mm")


def _thief_colour(piece: str) -> tuple[int, int, int]:
    """A thief's colour by his piece ("T2"); pieces name roles, which need not be table seats."""
    number = int(piece[1:]) if piece[1:].isdigit() else 1
    return THIEF_COLOURS[(number - 1) % len(THIEF_COLOURS)]


def _draw_pieces(draw: ImageDraw.ImageDraw, public: Mapping[str, Any]) -> None:
    path = [s for s in public.get("last_path", []) if s != "house"]
    if len(path) > 1:
        draw.line([_centre(s) for s in path], fill=HIGHLIGHT, width=6, joint="curve")
    per_square: dict[str, int] = {}
    for thief in public["thieves"]:
        at = thief["at"]
        if at is None or at == "house":
            continue
        shift = per_square.get(at, 0)
        per_square[at] = shift + 1
        cx, cy = _centre(at)
        _token(draw, cx + shift * 8 - 4 * min(shift, 1), cy + shift * 6, thief["id"],
               _thief_colour(thief["id"]), wanted=thief["wanted"])
    for police in public["police"]:
        at = police["at"]
        if at is None or at == "house" or police["status"] != "free":
            continue
        cx, cy = _centre(at)
        car = police["id"] == "C"
        _token(draw, cx, cy, police["id"], CAR_COLOUR if car else POLICE, car=car)


def _header(draw: ImageDraw.ImageDraw, public: Mapping[str, Any], names: Any, locale: str) -> None:
    big, mid = font(30, bold=True), font(24)
    if public["finished"]:
        title = t("tjuv.render.game_over", locale)
    else:
        title = t("tjuv.render.turn", locale, name=seat_name(names, public["turn"]))
    draw.text((MAP_X, 14), title, font=big, fill=WHITE)
    draw.text((WIDTH - 20, 20), "   ".join(header_facts(public, locale)), font=mid, fill=LIGHT, anchor="ra")


def header_facts(public: Mapping[str, Any], locale: str) -> list[str]:
    """Round, the roll of the player to play (none before they roll: the previous player's roll
    belongs to the previous turn) and the travel agency's money."""
    facts = [t("tjuv.render.round", locale, round=public["round"])]
    if public["roll"] and not public["finished"]:
        facts.append(t("tjuv.render.roll", locale, roll=public["roll"]))
    facts.append(t("tjuv.render.agency", locale, money=public["agency"]))
    return facts


def _panel(draw: ImageDraw.ImageDraw, public: Mapping[str, Any], names: Any, locale: str) -> None:
    mid, small = font(22, bold=True), font(18)
    turn = public["turn"]
    police_seat = int(public.get("police_seat", 0))
    col_w = (WIDTH - 2 * MAP_X) // 2
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
    for index, (seat, label, colour, name, cash, note, wanted, arrests) in enumerate(rows):
        x = MAP_X + (index % 2) * col_w
        y = PANEL_Y + ROW_H * (index // 2)
        if turn == seat:
            draw.rounded_rectangle([x - 8, y - 4, x + col_w - 16, y + ROW_H - 6], radius=8, outline=HIGHLIGHT,
                                   width=3)
        _token(draw, x + 14, y + 24, label, colour, radius=16)
        amount = money(cash, locale)
        room = col_w - 26 - 40 - draw.textlength(amount, font=mid) - 12
        draw.text((x + 40, y + 2), _fit(draw, name, mid, room), font=mid, fill=WHITE)
        draw.text((x + col_w - 26, y + 2), amount, font=mid, fill=GOLD, anchor="ra")
        draw.text((x + 40, y + 30), note, font=small, fill=RED if wanted else LIGHT)
        for dot in range(arrests):
            cx = x + col_w - 34 - dot * 16
            draw.ellipse([cx - 6, y + 34, cx + 6, y + 46], fill=RED)
    inside = [p["id"] for p in public["police"] if p["status"] != "out" and p["at"] in ("house", None)]
    x0, y0, _, _ = _box(board().house[0])
    for index, pid in enumerate(inside):  # guards and freed guards wait inside the house
        draw.text((x0 + 6 + index * 34, y0 - 1), pid, font=font(14, bold=True), fill=GOLD)


def _fit(draw: ImageDraw.ImageDraw, text: str, face: Any, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels."""
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def render_public(obs: Mapping[str, Any], *, names: Any, locale: str) -> bytes:
    public = obs["public"]
    image = _map().copy()
    draw = ImageDraw.Draw(image)
    _draw_pieces(draw, public)
    _header(draw, public, names, locale)
    _panel(draw, public, names, locale)
    rows = (len(public["thieves"]) + 2) // 2  # the police and the thieves, two to a row
    return _encode(image.crop((0, 0, WIDTH, PANEL_Y + rows * ROW_H + 8)))


ZOOM_CELLS = 13  # squares across a close-up
ZOOM_SIZE = 1000
ZOOM_MARGIN = 44


def home_square(public: Mapping[str, Any], seat: int | None) -> str:
    """Where a seat's close-up centres: its thief, or the police player's radio car; the police
    house gate for anyone else or a piece off the map."""
    if seat is not None and seat == public["police_seat"]:
        spots = [p["at"] for p in public["police"] if p["id"] == "C"]
    else:
        spots = [t["at"] for t in public["thieves"] if t["seat"] == seat]
    on_map = [spot for spot in spots if spot in board().kind]
    return on_map[0] if on_map else board().gate


def render_zoom(obs: Mapping[str, Any], *, names: Any, locale: str, square: str) -> bytes:
    """13 × 13 squares around ``square`` enlarged to 1000 px with their coordinates: the city map
    readable on a phone."""
    image = _map().copy()
    _draw_pieces(ImageDraw.Draw(image), obs["public"])
    cx, cy = square_xy(square)
    x0 = min(max(cx - ZOOM_CELLS // 2, 0), board().width - ZOOM_CELLS)
    y0 = min(max(cy - ZOOM_CELLS // 2, 0), board().height - ZOOM_CELLS)
    crop = image.crop((MAP_X + x0 * CELL, MAP_Y + y0 * CELL, MAP_X + (x0 + ZOOM_CELLS) * CELL,
                       MAP_Y + (y0 + ZOOM_CELLS) * CELL))
    inner = ZOOM_SIZE - ZOOM_MARGIN
    canvas, draw = new_canvas(ZOOM_SIZE, ZOOM_SIZE, BACKGROUND)
    canvas.paste(crop.resize((inner, inner), Image.Resampling.LANCZOS), (ZOOM_MARGIN, ZOOM_MARGIN))
    step = inner / ZOOM_CELLS
    label = font(24, bold=True)
    for i in range(ZOOM_CELLS):
        middle = ZOOM_MARGIN + (i + 0.5) * step
        draw.text((middle, ZOOM_MARGIN / 2), chr(ord("A") + x0 + i), font=label, fill=WHITE, anchor="mm")
        draw.text((ZOOM_MARGIN / 2, middle), str(y0 + i + 1), font=label, fill=WHITE, anchor="mm")
    return _encode(canvas)


def render_private(obs: Mapping[str, Any], *, names: Any, locale: str) -> bytes | None:
    """A thief's hidden money by nest; None for the police, for spectators and for a thief who has
    hidden nothing (his text says so; an empty picture would only fill the DM)."""
    private = obs.get("private")
    if not private or private.get("role") != "thief" or not private.get("stashes"):
        return None
    seat = int(obs["seat"])
    stashes: Mapping[str, int] = private["stashes"]
    rows = (len(stashes) + 3) // 4
    height = 110 + rows * 120 + 60
    image, draw = new_canvas(WIDTH, height, BACKGROUND)
    piece = str(private.get("piece") or f"T{seat}")
    _token(draw, 50, 50, piece, _thief_colour(piece), radius=26)
    title = _fit(draw, f"{seat_name(names, seat)} · {t('tjuv.render.your_stashes', locale)}", font(34, bold=True),
                 WIDTH - 140)
    draw.text((100, 30), title, font=font(34, bold=True), fill=WHITE)
    for index, (nest, amount) in enumerate(stashes.items()):
        x, y = 40 + (index % 4) * 260, 110 + (index // 4) * 120
        draw.rounded_rectangle([x, y, x + 240, y + 100], radius=12, fill=NEST, outline=RED, width=5)
        draw.text((x + 20, y + 14), nest, font=font(30, bold=True), fill=WHITE)
        draw.text((x + 20, y + 54), money(amount, locale), font=font(30, bold=True), fill=GOLD)
    draw.text((40, height - 50), t("tjuv.render.total", locale, money=sum(stashes.values())),
              font=font(30, bold=True), fill=GOLD)
    return encode_png(image.quantize(colors=32, method=Image.Quantize.FASTOCTREE))


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
    if public["finished"] or public["turn"] != seat:
        return "\n".join(lines)
    if me is not None and me["status"] == "jail":
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
