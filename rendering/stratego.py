"""Stratego images from observations: the public board (unrevealed pieces only as their colour's
back) and a player's private board (own ranks, known enemy ranks, turned so the viewer's army is
at the bottom), each with the two trays of captured pieces beside it.

The board background (grid, lakes, coordinates) is cached per orientation and each piece is a
cached sprite, so a render is a paste of at most 80 sprites plus a little text and the encoding.
"""
from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import t
from rendering.kit import (
    HIGHLIGHT,
    WHITE,
    draw_text,
    encode_on_palette,
    font,
    palette_from,
    seat_name,
    stamp_text,
    text_width,
)
from rendering.result import render_standings

CELL = 66
BOARD_X, BOARD_Y = 48, 84
BOARD = CELL * 10
TRAY_X = BOARD_X + BOARD + 34
TRAY_HEIGHT = 320
WIDTH, HEIGHT = 1120, BOARD_Y + BOARD + 88
COLUMNS = "ABCDEFGHIJ"
LAKES = {"C5", "D5", "G5", "H5", "C6", "D6", "G6", "H6"}
# Tray order and full counts: the sorting tray of the box, strongest first.
TRAY = (("10", 1), ("9", 1), ("8", 2), ("7", 3), ("6", 4), ("5", 4), ("4", 4), ("3", 5), ("2", 8),
        ("S", 1), ("B", 6), ("F", 1))

BACKGROUND = (24, 32, 40)
LAND = (118, 156, 88)
LAND_DARK = (104, 140, 76)
GRID = (70, 96, 52)
WATER = (62, 132, 196)
WATER_LIGHT = (120, 178, 226)
TEXT = (236, 238, 242)
TEXT_MUTED = (160, 168, 178)
PANEL = (38, 50, 62)
SIDE = {0: ((200, 36, 44), (128, 18, 26)), 1: ((36, 84, 196), (18, 44, 120))}
# Header: the status over the board, the detail (move number, who is ready, why it ended) over
# the trays, each cut to its own column so that long player names never overlap or leave the image.
TITLE_X, TITLE_WIDTH = BOARD_X + 30, BOARD - 30
DETAIL_RIGHT, DETAIL_WIDTH = WIDTH - 16, WIDTH - 16 - TRAY_X
NAME_WIDTH = 200  # a player's name in a setup status line
# Coordinates, names and counts: at least 9 px high when the 1120 px picture is shown 400 px wide.
COORD_SIZE = SMALL_SIZE = 26


def _fit(draw: ImageDraw.ImageDraw, text: str, fnt: Any, width: int) -> str:
    """``text`` cut with an ellipsis so that it is at most ``width`` pixels wide."""
    if text_width(draw, text, fnt) <= width:
        return text
    while text and text_width(draw, text + "…", fnt) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _named(draw: ImageDraw.ImageDraw, key: str, locale: str, name: str, fnt: Any, width: int) -> str:
    """The sentence ``key`` about a player, the name shortened (not the sentence) to fit ``width``."""
    room = width - text_width(draw, t(key, locale, name=""), fnt)
    return _fit(draw, t(key, locale, name=_fit(draw, name, fnt, max(room, 60))), fnt, width)


def _cell_origin(square: str, flipped: bool) -> tuple[int, int]:
    col, row = COLUMNS.index(square[0]), int(square[1:]) - 1
    if flipped:
        col, row = 9 - col, 9 - row
    return BOARD_X + col * CELL, BOARD_Y + (9 - row) * CELL


@cache
def _background(flipped: bool) -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle([BOARD_X - 4, BOARD_Y - 4, BOARD_X + BOARD + 3, BOARD_Y + BOARD + 3], fill=GRID)
    for col in range(10):
        for row in range(10):
            sq = f"{COLUMNS[col]}{row + 1}"
            x, y = _cell_origin(sq, flipped)
            fill = WATER if sq in LAKES else (LAND if (col + row) % 2 else LAND_DARK)
            draw.rectangle([x + 1, y + 1, x + CELL - 2, y + CELL - 2], fill=fill)
            if sq in LAKES:
                for k in range(3):
                    yy = y + 18 + k * 14
                    draw.arc([x + 12, yy, x + 32, yy + 10], 200, 340, fill=WATER_LIGHT, width=3)
                    draw.arc([x + 32, yy, x + 52, yy + 10], 200, 340, fill=WATER_LIGHT, width=3)
    for i in range(10):
        letter = COLUMNS[9 - i] if flipped else COLUMNS[i]
        number = str(i + 1) if flipped else str(10 - i)
        draw_text(draw, (BOARD_X + i * CELL + CELL // 2, BOARD_Y + BOARD + 26), letter, COORD_SIZE, bold=True,
                  fill=TEXT, anchor="mm")
        draw_text(draw, (BOARD_X - 24, BOARD_Y + i * CELL + CELL // 2), number, COORD_SIZE, bold=True, fill=TEXT,
                  anchor="mm")
    return image


@cache
def _sprite(owner: int, label: str | None, size: int, marker: str = "") -> Image.Image:
    """A piece: its colour, the rank in large white type, or the plain back when ``label`` is
    None. ``marker`` "moved" puts a dot on a back (publicly no bomb or flag); "known" puts a ring
    on an own piece the opponent has seen."""
    light, dark = SIDE[owner]
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle([0, 0, size - 1, size - 1], radius=size // 6, fill=dark)
    draw.rounded_rectangle([3, 3, size - 4, size - 4], radius=size // 7, fill=light)
    if label is None:
        inset = size // 4
        draw.rounded_rectangle([inset, inset, size - inset - 1, size - inset - 1], radius=size // 10,
                               outline=dark, width=max(2, size // 18))
    else:
        text_size = int(size * (0.5 if len(label) > 1 else 0.62))
        draw_text(draw, (size / 2, size / 2 + 1), label, text_size, bold=True, fill=WHITE,
                  anchor="mm", stroke_width=2, stroke_fill=dark)
    corner = [size - 15, 4, size - 5, 14]
    if marker == "moved":
        draw.ellipse(corner, fill=WHITE)
    elif marker == "known":
        draw.ellipse(corner, fill=HIGHLIGHT, outline=dark)
    return image


def _pieces(obs: Mapping[str, Any]) -> dict[str, tuple[int, str | None, str]]:
    """square -> (owner, label to show or None, marker) for the viewer of ``obs``."""
    public, private = obs["public"], obs.get("private")
    seat = int(obs.get("seat") or 0)  # only used with a private part, which has a seat
    shown: dict[str, tuple[int, str | None, str]] = {}
    for sq, piece in public["board"].items():
        rank = piece["rank"]
        marker = "moved" if piece["moved"] and rank is None else ""
        shown[sq] = (piece["owner"], rank, marker)
    if private is not None:
        over = public["phase"] == "over"  # then every rank is public; no "the enemy knows it" marks
        for sq, rank in private["ranks"].items():
            known = public["board"][sq]["rank"] is not None and not over
            shown[sq] = (seat, rank, "known" if known else "")
        for sq, rank in (private.get("draft") or {}).items():
            shown[sq] = (seat, rank, "")
    return shown


def _header(draw: ImageDraw.ImageDraw, obs: Mapping[str, Any], names: Any, locale: str) -> None:
    public = obs["public"]
    title_font, small = font(34, bold=True), font(SMALL_SIZE)
    status: str
    if public["result"] is not None:
        places = public["result"]["places"]
        status = (t("stratego.render.draw", locale) if len(places[0]) > 1 else
                  _named(draw, "stratego.render.winner", locale, seat_name(names, places[0][0]), title_font,
                         TITLE_WIDTH))
        detail = t(public["result"]["reason"], locale)
    elif public["phase"] == "setup":
        status = t("stratego.render.setup", locale)
        # one line per player, stacked over the trays
        detail = "\n".join(
            f"{_fit(draw, seat_name(names, seat), small, NAME_WIDTH)}: "
            + t("stratego.render.ready" if public["ready"][seat] else "stratego.render.waiting", locale)
            for seat in (0, 1))
    else:
        if public["draw_offer"] is not None:
            status = _named(draw, "stratego.render.draw_offer", locale, seat_name(names, public["draw_offer"]),
                            title_font, TITLE_WIDTH)
        else:
            status = _named(draw, "stratego.render.to_move", locale, seat_name(names, public["turn"]), title_font,
                            TITLE_WIDTH)
        detail = t("stratego.render.move_count", locale, count=public["moves"] + 1)
    acting = public["to_act"]
    if len(acting) == 1 and public["result"] is None:
        draw.rounded_rectangle([BOARD_X - 4, 16, BOARD_X + 18, 56], radius=6, fill=SIDE[acting[0]][0])
    stamp_text(draw, (TITLE_X, 36), _fit(draw, status, title_font, TITLE_WIDTH), 34, bold=True, fill=TEXT,
              anchor="lm")
    lines = detail.split("\n")
    for i, line in enumerate(lines):
        y = 36 + (i - (len(lines) - 1) / 2) * 32
        stamp_text(draw, (DETAIL_RIGHT, y), _fit(draw, line, small, DETAIL_WIDTH), SMALL_SIZE, fill=TEXT_MUTED,
                  anchor="rm")


@lru_cache(maxsize=256)
def _tray(seat: int, lost: tuple[str, ...], name: str, locale: str) -> Image.Image:
    """The sorting tray of ``seat``'s captured pieces: each kind with how many are gone. Cached:
    it changes only when a piece is captured."""
    width, height = WIDTH - TRAY_X - 16, TRAY_HEIGHT
    image = Image.new("RGB", (width + 1, height + 1), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle([0, 0, width, height], radius=12, fill=PANEL)
    draw.rounded_rectangle([14, 16, 38, 40], radius=5, fill=SIDE[seat][0])
    title_font = font(SMALL_SIZE, bold=True)
    draw_text(draw, (50, 28), _fit(draw, f"{t('stratego.render.captured', locale)}: {name}", title_font, width - 64),
              SMALL_SIZE, bold=True, fill=TEXT, anchor="lm")
    size, gap_x, gap_y = 52, 58, 92  # a captured "10" is still 9 px high at 400 px
    for i, (rank, total) in enumerate(TRAY):
        x = 18 + (i % 6) * gap_x
        y = 58 + (i // 6) * gap_y
        gone = lost.count(rank)
        sprite = _sprite(seat, rank, size)
        if not gone:
            sprite = _faded(seat, rank, size)
        image.paste(sprite, (x, y), sprite)
        draw_text(draw, (x + size / 2, y + size + 18), f"{gone}/{total}", 25, bold=True,
                  fill=TEXT if gone else TEXT_MUTED, anchor="mm")
    draw_text(draw, (18, height - 34), f"{len(lost)}/40", SMALL_SIZE, fill=TEXT_MUTED, anchor="lm")
    return image


@cache
def _faded(seat: int, rank: str, size: int) -> Image.Image:
    sprite = _sprite(seat, rank, size).copy()
    sprite.putalpha(sprite.getchannel("A").point(lambda a: a * 35 // 100))
    return sprite


def _render(obs: Mapping[str, Any], names: Any, locale: str, flipped: bool) -> bytes:
    image = _background(flipped).copy()
    draw = ImageDraw.Draw(image)
    _header(draw, obs, names, locale)
    inner = CELL - 10
    for sq, (owner, label, marker) in _pieces(obs).items():
        x, y = _cell_origin(sq, flipped)
        sprite = _sprite(owner, label, inner, marker)
        image.paste(sprite, (x + 5, y + 5), sprite)
    last = obs["public"]["last_move"]
    if last is not None:
        for sq, width in ((last["from"], 3), (last["to"], 5)):
            x, y = _cell_origin(sq, flipped)
            draw.rectangle([x + 1, y + 1, x + CELL - 2, y + CELL - 2], outline=HIGHLIGHT, width=width)
    captured = obs["public"]["captured"]
    viewer = obs.get("seat")
    # The viewer's own tray sits nearer its own side of the board (the bottom).
    order = (1, 0) if viewer in (None, 0) else (0, 1)
    for slot, seat in enumerate(order):
        tray = _tray(seat, tuple(captured[seat]), seat_name(names, seat), locale)
        image.paste(tray, (TRAY_X, BOARD_Y + slot * (BOARD - TRAY_HEIGHT)))
    private = obs.get("private")
    if private is not None and private.get("draft_code"):
        code = private["draft_code"]
        text = f"{t('stratego.render.draft', locale)}: " + " ".join(code[i:i + 10] for i in range(0, 40, 10))
        stamp_text(draw, (BOARD_X, HEIGHT - 12), text, SMALL_SIZE, bold=True, fill=TEXT_MUTED, anchor="ls")
    return encode_on_palette(image, _palette())


@cache
def _palette() -> Image.Image:
    """A fixed 256-colour palette taken once from a sample of everything the renderer draws.

    Mapping each frame onto a known palette costs a few milliseconds; an adaptive quantization of
    every frame would cost tens."""
    sample = Image.new("RGB", (WIDTH, HEIGHT + 2 * CELL), BACKGROUND)
    sample.paste(_background(False), (0, 0))
    draw = ImageDraw.Draw(sample)
    draw.rectangle([0, HEIGHT, WIDTH, HEIGHT + 2 * CELL], fill=PANEL)
    labels: list[str | None] = [None, *(rank for rank, _ in TRAY)]
    for i, (owner, label) in enumerate((o, lab) for o in (0, 1) for lab in labels):
        for j, marker in enumerate(("", "moved", "known")):
            sprite = _sprite(owner, label, CELL - 10, marker)
            sample.paste(sprite, (4 + i * 40, 10 + j * 30), sprite)
        faded = _faded(owner, label or "B", 52)
        sample.paste(faded, (4 + i * 40, HEIGHT + 8), faded)
    draw.rectangle([WIDTH - 200, HEIGHT - 80, WIDTH - 100, HEIGHT - 10], outline=HIGHLIGHT, width=5)
    for colour, y in ((TEXT, HEIGHT + 70), (TEXT_MUTED, HEIGHT + 100)):
        draw.text((10, y), "Anna Björn ÅÄÖ åäö 0123456789/ Move Drag", font=font(24), fill=colour)
    return palette_from(sample)


def render_public(obs: Mapping[str, Any], *, names: Any, locale: str = "en", theme: str = "dark") -> bytes:
    """The channel image: nothing that is not public (no unrevealed rank ever)."""
    public_only = {"seat": None, "public": obs["public"], "private": None}
    return _render(public_only, names, locale, flipped=False)


def render_private(obs: Mapping[str, Any], *, names: Any, locale: str = "en", theme: str = "dark") -> bytes | None:
    """A player's own board: own ranks, known enemy ranks, own army at the bottom."""
    if obs.get("private") is None or obs.get("seat") is None:
        return None
    return _render(obs, names, locale, flipped=obs["seat"] == 1)


def describe_private(obs: Mapping[str, Any], *, locale: str = "en") -> str:
    """A player's board as text (for the console): own ranks, ``*6`` for a known enemy piece,
    ``##`` for an unknown one (``#.`` once it has moved), ``~~`` for water; own army at the
    bottom. During the setup it shows the draft and its setup code."""
    seat = obs.get("seat")
    private = obs.get("private")
    if seat is None or private is None:
        return ""
    public = obs["public"]
    cells: dict[str, str] = {}
    for sq, piece in public["board"].items():
        if piece["owner"] == seat:
            cells[sq] = private["ranks"].get(sq, "?")
        elif sq in private["known"]:
            cells[sq] = "*" + private["known"][sq]
        else:
            cells[sq] = "#." if piece["moved"] else "##"
    for sq, rank in (private.get("draft") or {}).items():
        cells[sq] = rank
    flipped = seat == 1
    columns = COLUMNS[::-1] if flipped else COLUMNS
    rows = range(1, 11) if flipped else range(10, 0, -1)
    lines = ["    " + "".join(f"{c:>4}" for c in columns)]
    for row in rows:
        line = "".join(f"{('~~' if f'{c}{row}' in LAKES else cells.get(f'{c}{row}', '.')):>4}"
                       for c in columns)
        lines.append(f"{row:>4}" + line)
    lines.append(t("stratego.ui.text_legend", locale))
    if private.get("draft_code"):
        code = private["draft_code"]
        lines.append(t("stratego.ui.text_setup", locale, code=" ".join(code[i:i + 10] for i in range(0, 40, 10))))
    return "\n".join(lines)


def render_result(obs: Mapping[str, Any], *, names: Any, locale: str = "en", theme: str = "dark") -> bytes:
    """The standings picture a finished game ends on (rendering/result.py)."""
    return render_standings(obs, names=names, locale=locale, theme=theme)
