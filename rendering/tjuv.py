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
from rendering.result import render_standings

CELL = 40
MAP_X = 40
MAP_Y = 110
WIDTH = MAP_X + 26 * CELL + 20
PANEL_Y = MAP_Y + 22 * CELL + 16
ROW_H = 62
NAME_SIZE = 25  # names in the player panel: 9 px high when the 1100 px map is shown 400 px wide
COORD_SIZE = 28  # coordinates of a close-up (1000 px): 11 px high at 400 px
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
    for col in range(b.width):
        draw_text(draw, (MAP_X + col * CELL + CELL // 2, MAP_Y - 14), chr(ord("A") + col), 16, bold=True, fill=LIGHT,
                  anchor="mm")
    for row in range(b.height):
        draw_text(draw, (MAP_X - 14, MAP_Y + row * CELL + CELL // 2), str(row + 1), 16, bold=True, fill=LIGHT,
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
                 scale: float = 1.0) -> None:
    """The last move's path and every piece on the map, at ``place(square)`` and ``scale`` (the
    close-ups draw them sharp at their own scale)."""
    path = [s for s in public.get("last_path", []) if s != "house"]
    if len(path) > 1:
        draw.line([place(s) for s in path], fill=HIGHLIGHT, width=round(6 * scale), joint="curve")
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


def _header(draw: ImageDraw.ImageDraw, public: Mapping[str, Any], names: Any, locale: str) -> None:
    _header_line(draw, public, names, locale, WIDTH, 30)


def _header_line(draw: ImageDraw.ImageDraw, public: Mapping[str, Any], names: Any, locale: str, width: int,
                 size: int) -> None:
    """Whose turn it is on the left; the round, the roll and the agency's money on the right."""
    if public["finished"]:
        title = t("tjuv.render.game_over", locale)
    else:
        title = t("tjuv.render.turn", locale, name=seat_name(names, public["turn"]))
    right = "   ".join(header_facts(public, locale))
    small = round(size * 0.8)
    stamp_text(draw, (width - 20, 20), right, small, fill=LIGHT, anchor="ra")
    room = width - 2 * MAP_X - text_length(right, small) - 20
    stamp_text(draw, (MAP_X, 14), fit(title, size, room, True), size, bold=True, fill=WHITE)


def header_facts(public: Mapping[str, Any], locale: str) -> list[str]:
    """Round, the roll of the player to play (none before they roll: the previous player's roll
    belongs to the previous turn) and the travel agency's money."""
    facts = [t("tjuv.render.round", locale, round=public["round"])]
    if public["roll"] and not public["finished"]:
        facts.append(t("tjuv.render.roll", locale, roll=public["roll"]))
    facts.append(t("tjuv.render.agency", locale, money=public["agency"]))
    return facts


def _panel(draw: ImageDraw.ImageDraw, public: Mapping[str, Any], names: Any, locale: str) -> None:
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
        room = col_w - 26 - 40 - text_length(amount, NAME_SIZE, True) - 12
        stamp_text(draw, (x + 40, y), fit(name, NAME_SIZE, room, True), NAME_SIZE, bold=True, fill=WHITE)
        stamp_text(draw, (x + col_w - 26, y), amount, NAME_SIZE, bold=True, fill=GOLD, anchor="ra")
        stamp_text(draw, (x + 40, y + 31), fit(note, 20, col_w - 90), 20, fill=RED if wanted else LIGHT)
        for dot in range(arrests):
            cx = x + col_w - 34 - dot * 16
            draw.ellipse([cx - 6, y + 34, cx + 6, y + 46], fill=RED)
    inside = [p["id"] for p in public["police"] if p["status"] != "out" and p["at"] in ("house", None)]
    x0, y0, _, _ = _box(board().house[0])
    for index, pid in enumerate(inside):  # guards and freed guards wait inside the house
        stamp_text(draw, (x0 + 6 + index * 34, y0 - 1), pid, 14, bold=True, fill=GOLD)


def render_public(obs: Mapping[str, Any], *, names: Any, locale: str, theme: str = "dark") -> bytes:
    public = obs["public"]
    image = _map().copy()
    draw = ImageDraw.Draw(image)
    _draw_pieces(draw, public)
    _header(draw, public, names, locale)
    _panel(draw, public, names, locale)
    rows = (len(public["thieves"]) + 2) // 2  # the police and the thieves, two to a row
    return _encode(image.crop((0, 0, WIDTH, PANEL_Y + rows * ROW_H + 8)))


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


def _close_up(public: Mapping[str, Any], square: str, top: int = 0, cells: int = ZOOM_CELLS) -> Image.Image:
    """``cells`` × ``cells`` squares around ``square`` (kept inside the map) with their coordinates
    along the edges, the pieces and the last move, ``top`` pixels below the picture's top."""
    cx, cy = square_xy(square)
    x0 = min(max(cx - cells // 2, 0), board().width - cells)
    y0 = min(max(cy - cells // 2, 0), board().height - cells)
    inner = cells * ZOOM_STEP
    side = ZOOM_MARGIN + inner
    canvas, draw = new_canvas(side, top + side, BACKGROUND)
    canvas.paste(_big_map().crop((x0 * ZOOM_STEP, y0 * ZOOM_STEP, x0 * ZOOM_STEP + inner, y0 * ZOOM_STEP + inner)),
                 (ZOOM_MARGIN, top + ZOOM_MARGIN))

    def place(name: str) -> tuple[float, float]:
        x, y = square_xy(name)
        return ZOOM_MARGIN + (x - x0 + 0.5) * ZOOM_STEP, top + ZOOM_MARGIN + (y - y0 + 0.5) * ZOOM_STEP

    _draw_pieces(draw, public, place, ZOOM_STEP / CELL)
    draw.rectangle([0, 0, side, top + ZOOM_MARGIN - 1], fill=BACKGROUND)  # pieces beyond the edges
    draw.rectangle([0, top, ZOOM_MARGIN - 1, top + side], fill=BACKGROUND)
    for i in range(cells):
        middle = ZOOM_MARGIN + (i + 0.5) * ZOOM_STEP
        stamp_text(draw, (middle, top + ZOOM_MARGIN / 2), chr(ord("A") + x0 + i), COORD_SIZE, bold=True, fill=WHITE,
                  anchor="mm")
        stamp_text(draw, (ZOOM_MARGIN / 2, top + middle), str(y0 + i + 1), COORD_SIZE, bold=True, fill=WHITE,
                  anchor="mm")
    return canvas


def render_zoom(obs: Mapping[str, Any], *, names: Any, locale: str, square: str, theme: str = "dark") -> bytes:
    """13 × 13 squares around ``square`` at 1000 px with their coordinates: the city map readable
    on a phone."""
    return _encode(_close_up(obs["public"], square))


def focus_square(public: Mapping[str, Any], event_hint: Any = None) -> str:
    """The square a turn's focus view centres on: the one ``event_hint`` names (a coordinate or a
    public event with a square on the map), else where the last move ended, else the piece of the
    player to act."""
    hinted = hinted_square(event_hint)
    if isinstance(hinted, str) and hinted in board().kind:
        return hinted
    path = [s for s in public.get("last_path", []) if s in board().kind]
    if path:
        return path[-1]
    return home_square(public, public["turn"])


def render_focus(obs: Mapping[str, Any], *, names: Any, locale: str, event_hint: Any = None,
                 theme: str = "dark") -> bytes | None:
    """The turn's focus view beside the full map: whose turn it is and the roll over a close-up of
    the last move (or of the acting player's piece), coordinates readable on a phone."""
    public = obs["public"]
    canvas = _close_up(public, focus_square(public, event_hint), FOCUS_HEADER, FOCUS_CELLS)
    draw = ImageDraw.Draw(canvas)
    _header_line(draw, public, names, locale, canvas.width, 30)
    return _encode(canvas)


def render_private(obs: Mapping[str, Any], *, names: Any, locale: str, theme: str = "dark") -> bytes | None:
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
    title = fit(f"{seat_name(names, seat)} · {t('tjuv.render.your_stashes', locale)}", 34, WIDTH - 140, True)
    draw_text(draw, (100, 30), title, 34, bold=True, fill=WHITE)
    for index, (nest, amount) in enumerate(stashes.items()):
        x, y = 40 + (index % 4) * 260, 110 + (index // 4) * 120
        draw.rounded_rectangle([x, y, x + 240, y + 100], radius=12, fill=NEST, outline=RED, width=5)
        draw_text(draw, (x + 20, y + 14), nest, 30, bold=True, fill=WHITE)
        draw_text(draw, (x + 20, y + 54), money(amount, locale), 30, bold=True, fill=GOLD)
    draw_text(draw, (40, height - 50), t("tjuv.render.total", locale, money=sum(stashes.values())), 30, bold=True,
              fill=GOLD)
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
